"""The sheet page's game-log form: a referee uploads or pastes a tenhou.net/6 log, maps the nicknames, and
gets the draft sheet with the findings beside it (stored with its version, shown while it is the current
one); a head referee accepts the log's seats; refusals are shown on the page, nothing is signed."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from scoring import services as sheets
from scoring.models import ScoreSheet
from scoring.rules.tenhou import RESEAT_LABEL
from tests.pages.conftest import Site, client_for
from tournament.models import AuditEntry

TENHOU = Path(__file__).resolve().parent.parent / "data" / "tenhou"
# Table 2 seats Eve, Fay, Gus and Hal; the log calls them by nicknames.
MAPPING = "anA = Eve\nBén = Fay\nchochan = Gus\n\ndai-chi = Hal\n"
# The same nicknames seated otherwise: the log's East ("anA") is Fay, its South ("Bén") Eve.
SWAPPED = "anA = Fay\nBén = Eve\nchochan = Gus\ndai-chi = Hal\n"


def url(site: Site) -> str:
    return f"/t/{site.tournament.slug}/sheet/1/2/from-log/"


def sheet_url(site: Site) -> str:
    return f"/t/{site.tournament.slug}/sheet/1/2/"


def upload(site: Site, role: str = "referee", name: str = "hanchan", **fields: Any) -> Any:
    raw = (TENHOU / f"{name}.json").read_bytes()
    data = {"log_file": SimpleUploadedFile(f"{name}.json", raw, "application/json"), "mapping": MAPPING}
    return client_for(site.users[role]).post(url(site), {**data, **fields})


@pytest.mark.django_db
def test_the_sheet_page_offers_the_log_form_to_referees_only(site: Site) -> None:
    page = client_for(site.users["referee"]).get(f"/t/{site.tournament.slug}/sheet/1/2/")
    assert b"data-game-log" in page.content and url(site).encode() in page.content
    signed = client_for(site.users["referee"]).get(f"/t/{site.tournament.slug}/sheet/1/1/")
    assert b"data-game-log" not in signed.content  # a signed sheet is not filled again


@pytest.mark.django_db
def test_an_uploaded_log_gives_a_draft_with_its_findings_kept_while_it_is_current(site: Site) -> None:
    response = upload(site)
    assert response.status_code == 302 and response["Location"] == sheet_url(site)
    sheet = ScoreSheet.objects.get(table=site.table_2)
    assert sheet.status == ScoreSheet.Status.DRAFT
    assert sheet.replay["final_points"] == {"Eve": 42400, "Fay": 35800, "Gus": 23100, "Hal": 18700}
    referee = client_for(site.users["referee"])
    for _ in range(2):  # shown after the upload, and again on every reload
        text = referee.get(sheet_url(site)).content.decode()
        assert "data-log-findings" in text and "East 1, 1 honba" in text and "red fives" in text
        assert "1 finding</summary>" in text  # the history's row of version 1
    # A pasted log replaces the draft, naming the version it replaces: its own findings are shown.
    pasted = (TENHOU / "online-rules.json").read_text(encoding="utf-8")
    response = referee.post(url(site), {"log_text": pasted, "mapping": MAPPING, "expected_version": 1})
    assert response.status_code == 302 and ScoreSheet.objects.get(table=site.table_2).version == 2
    text = referee.get(sheet_url(site)).content.decode()
    assert "kiriage" in text.split("data-log-findings")[1].split("</section>")[0]


@pytest.mark.django_db
def test_a_version_entered_by_hand_shows_no_findings_and_the_history_keeps_them(site: Site) -> None:
    upload(site)
    sheet = ScoreSheet.objects.get(table=site.table_2)
    final = {
        "form": "final",
        "final_points": sheet.replay["final_points"],
        "riichi_sticks_left": 0,
        "chombo": [],
    }
    sheets.save_sheet(site.table_2, final, site.users["referee"], expected_version=1)
    text = client_for(site.users["referee"]).get(sheet_url(site)).content.decode()
    assert "data-log-findings" not in text
    assert "1 finding</summary>" in text and "red fives" in text  # version 1 in the history


@pytest.mark.django_db
def test_the_log_form_offers_the_reseat_to_head_referees(site: Site) -> None:
    referee = client_for(site.users["referee"]).get(sheet_url(site)).content.decode()
    head = client_for(site.users["head_referee"]).get(sheet_url(site)).content.decode()
    assert "data-game-log" in referee and 'name="reseat_winds"' not in referee
    assert 'name="reseat_winds"' in head and RESEAT_LABEL in head


@pytest.mark.django_db
def test_a_log_seated_otherwise_is_refused_until_a_head_referee_accepts_its_seats(site: Site) -> None:
    refused = upload(site, name="hanchan", mapping=SWAPPED)
    text = refused.content.decode()
    assert refused.status_code == 400 and "the log seats Fay, Eve, Gus, Hal" in text and RESEAT_LABEL in text
    assert upload(site, mapping=SWAPPED, reseat_winds="on").status_code == 403  # a referee may not
    accepted = upload(site, "head_referee", mapping=SWAPPED, reseat_winds="on")
    assert accepted.status_code == 302
    winds = {seat.player.name: seat.wind for seat in site.table_2.seats.select_related("player")}
    assert winds == {"Fay": 0, "Eve": 1, "Gus": 2, "Hal": 3}
    sheet = ScoreSheet.objects.get(table=site.table_2)
    assert sheet.replay["final_points"] == {"Fay": 42400, "Eve": 35800, "Gus": 23100, "Hal": 18700}
    # The sheet page, the seating and the players' pages show the new winds; the audit names them.
    head = client_for(site.users["head_referee"])
    page = head.get(sheet_url(site)).content.decode()
    assert page.index("<b>Fay</b>") < page.index("<b>Eve</b>")
    seating = head.get(f"/t/{site.tournament.slug}/seating/1/").content.decode()
    assert 'data-seat-name="Fay" data-player="' in seating
    assert re.search(r'data-seat-name="Fay"[^>]*data-wind="East"', seating)
    assert re.search(r'data-seat-name="Eve"[^>]*data-wind="South"', seating)
    eve = sheet.table.seats.get(player__name="Eve").player_id
    assert "· South" in head.get(f"/t/{site.tournament.slug}/players/{eve}/").content.decode()
    [entry] = AuditEntry.objects.filter(action="seating.reseat_winds")
    assert entry.changes == {"Fay": ["South", "East"], "Eve": ["East", "South"]}


@pytest.mark.django_db
def test_an_uploaded_mjlog_xml_file_is_read_and_the_page_says_so(site: Site) -> None:
    raw = (TENHOU / "real-tenhou-2023.xml").read_bytes()
    mapping = "player1 = Eve\nplayer2 = Fay\nplayer3 = Gus\nplayer4 = Hal\n"
    referee = client_for(site.users["referee"])
    data = {"log_file": SimpleUploadedFile("game.mjlog", raw, "application/xml"), "mapping": mapping}
    response = referee.post(url(site), data, follow=True)
    assert response.status_code == 200
    assert "Read as Tenhou mjlog XML." in response.content.decode()
    sheet = ScoreSheet.objects.get(table=site.table_2)
    assert sheet.replay["valid"] is True and len(sheet.entry["hands"]) == 14


@pytest.mark.django_db
def test_refusals_are_shown_on_the_page_and_nothing_is_saved(site: Site) -> None:
    broken = upload(site, name="broken-hand")
    assert broken.status_code == 400 and "hand 2 (East 1, 1 honba)" in broken.content.decode()
    unmapped = upload(site, mapping="")
    assert unmapped.status_code == 400 and "matches nobody at the table" in unmapped.content.decode()
    bad_line = upload(site, mapping="just a name")
    assert bad_line.status_code == 400 and "Line 1" in bad_line.content.decode()
    neither = client_for(site.users["referee"]).post(url(site), {"mapping": MAPPING})
    assert neither.status_code == 400 and "one of the three" in neither.content.decode()
    too_big = client_for(site.users["referee"]).post(
        url(site), {"log_file": SimpleUploadedFile("big.json", b" " * 1_100_000), "mapping": MAPPING}
    )
    assert too_big.status_code == 400 and "larger than" in too_big.content.decode()
    assert not ScoreSheet.objects.filter(table=site.table_2).exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("role", "status"),
    [("anonymous", 302), ("nobody", 403), ("other_referee", 403), ("referee", 302), ("organiser", 302)],
)
def test_only_the_tournaments_referees_upload(site: Site, role: str, status: int) -> None:
    response = upload(site, role)
    assert response.status_code == status
    saved = role in ("referee", "organiser")
    assert ScoreSheet.objects.filter(table=site.table_2).exists() == saved
    if role == "anonymous":
        assert "login" in response["Location"]
