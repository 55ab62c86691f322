"""The sheet page's game-log form: a referee uploads or pastes a tenhou.net/6 log, maps the nicknames, and
gets the draft sheet with the findings beside it; refusals are shown on the page, nothing is signed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from scoring.models import ScoreSheet
from tests.pages.conftest import Site, client_for

TENHOU = Path(__file__).resolve().parent.parent / "data" / "tenhou"
# Table 2 seats Eve, Fay, Gus and Hal; the log calls them by nicknames.
MAPPING = "anA = Eve\nBén = Fay\nchochan = Gus\n\ndai-chi = Hal\n"


def url(site: Site) -> str:
    return f"/t/{site.tournament.slug}/sheet/1/2/from-log/"


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
def test_an_uploaded_log_gives_a_draft_with_its_findings(site: Site) -> None:
    response = upload(site)
    assert response.status_code == 200
    text = response.content.decode()
    assert "data-log-findings" in text and "East 1, 1 honba" in text and "red fives" in text
    sheet = ScoreSheet.objects.get(table=site.table_2)
    assert sheet.status == ScoreSheet.Status.DRAFT
    assert sheet.replay["final_points"] == {"Eve": 42400, "Fay": 35800, "Gus": 23100, "Hal": 18700}
    # A pasted log replaces the draft, naming the version it replaces.
    pasted = (TENHOU / "online-rules.json").read_text(encoding="utf-8")
    response = client_for(site.users["referee"]).post(
        url(site), {"log_text": pasted, "mapping": MAPPING, "expected_version": 1}
    )
    assert response.status_code == 200 and "kiriage" in response.content.decode()
    assert ScoreSheet.objects.get(table=site.table_2).version == 2


@pytest.mark.django_db
def test_refusals_are_shown_on_the_page_and_nothing_is_saved(site: Site) -> None:
    broken = upload(site, name="broken-hand")
    assert broken.status_code == 400 and "hand 2 (East 1, 1 honba)" in broken.content.decode()
    unmapped = upload(site, mapping="")
    assert unmapped.status_code == 400 and "matches nobody at the table" in unmapped.content.decode()
    bad_line = upload(site, mapping="just a name")
    assert bad_line.status_code == 400 and "Line 1" in bad_line.content.decode()
    neither = client_for(site.users["referee"]).post(url(site), {"mapping": MAPPING})
    assert neither.status_code == 400 and "one of the two" in neither.content.decode()
    too_big = client_for(site.users["referee"]).post(
        url(site), {"log_file": SimpleUploadedFile("big.json", b" " * 1_100_000), "mapping": MAPPING}
    )
    assert too_big.status_code == 400 and "larger than" in too_big.content.decode()
    assert not ScoreSheet.objects.filter(table=site.table_2).exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("role", "status"),
    [("anonymous", 302), ("nobody", 403), ("other_referee", 403), ("referee", 200), ("organiser", 200)],
)
def test_only_the_tournaments_referees_upload(site: Site, role: str, status: int) -> None:
    assert upload(site, role).status_code == status
    assert ScoreSheet.objects.filter(table=site.table_2).exists() == (status == 200)
