"""Players sign in without an account: the one-time link (single use, 24 hours, replaced by new
credentials), the PIN (with its limits: per address and player, per address, per player from every
address), the seating card whose QR code is that link, the organiser's one player's PIN, and the API's
answers for a player's session."""

from __future__ import annotations

import io
import json
import subprocess
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone
from pypdf import PdfReader

from config import auth
from scoring.models import ScoreSheet
from tests.conftest import seat_table
from tests.qr_reader import read_codes
from tournament.models import AuditEntry, Player, PlayerLoginLink, Tournament
from tournament.queries import access
from tournament.services import player_login

FINAL = {"form": "final", "final_points": {"Ana": 41000, "Ben": 31000, "Cho": 26000, "Dai": 22000}}


@pytest.fixture(autouse=True)
def fast_passwords(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def players_mode(tournament: Tournament, seated_table: Any) -> Tournament:
    tournament.entry_mode = Tournament.EntryMode.PLAYERS
    tournament.save()
    return tournament


def player(name: str) -> Player:
    return Player.objects.get(name=name)


def signed_in_as(client: Client, tournament: Tournament) -> int | None:
    value = client.session.get(access.PLAYER_SESSION_KEY, {}).get(str(tournament.pk))
    return value if isinstance(value, int) else None


def link_path(tournament: Tournament, token: str) -> str:
    return f"/t/{tournament.slug}/in/{token}/"


def pin_post(client: Client, tournament: Tournament, who: Player, pin: str, address: str = "10.0.0.1") -> Any:
    return client.post(f"/t/{tournament.slug}/me/", {"player": who.pk, "pin": pin}, REMOTE_ADDR=address)


@pytest.mark.django_db
def test_a_link_signs_in_once_and_lands_on_the_players_page(players_mode: Tournament, organiser: Any) -> None:
    ana = player("Ana")
    issued = player_login.issue_for_player(ana, organiser)
    phone = Client()
    response = phone.get(link_path(players_mode, issued.token))
    assert response.status_code == 302 and response["Location"] == f"/t/{players_mode.slug}/players/{ana.pk}/"
    assert signed_in_as(phone, players_mode) == ana.pk
    page = phone.get(response["Location"])
    assert b"My table" in page.content and b"/sheet/1/1/" in page.content

    again = Client().get(link_path(players_mode, issued.token))
    assert again.status_code == 410 and b"used already" in again.content
    assert PlayerLoginLink.objects.get().token_hash == player_login.token_hash(issued.token)  # no token kept
    assert Client().get(link_path(players_mode, "nonsense")).status_code == 404
    assert Client().get(link_path(players_mode, "x" * 300)).status_code == 404


@pytest.mark.django_db
def test_an_expired_link_is_refused(players_mode: Tournament, organiser: Any) -> None:
    issued = player_login.issue_for_player(player("Ben"), organiser)
    PlayerLoginLink.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    response = Client().get(link_path(players_mode, issued.token))
    assert response.status_code == 410 and b"expired" in response.content


@pytest.mark.django_db
def test_new_credentials_replace_the_old_but_signed_in_browsers_stay(
    players_mode: Tournament, organiser: Any
) -> None:
    cho = player("Cho")
    first = player_login.issue_for_player(cho, organiser)
    phone = Client()
    assert pin_post(phone, players_mode, cho, first.pin).status_code == 302
    spare = player_login.issue_for_player(cho, organiser)  # an unused link of the second issue
    second = player_login.issue_for_player(cho, organiser)
    cho.refresh_from_db()
    assert player_login.pin_matches(cho, second.pin)
    assert first.pin == second.pin or not player_login.pin_matches(cho, first.pin)
    assert Client().get(link_path(players_mode, spare.token)).status_code == 404
    assert signed_in_as(phone, players_mode) == cho.pk
    assert phone.get("/t/test-open/sheet/1/1/").status_code == 200
    assert cho.pin_hash.startswith("pin_pbkdf2_sha256$") and second.pin not in cho.pin_hash


@pytest.mark.django_db
def test_the_pin_signs_in_and_signing_out_forgets_the_player(
    players_mode: Tournament, organiser: Any
) -> None:
    dai = player("Dai")
    issued = player_login.issue_for_player(dai, organiser)
    phone = Client()
    page = phone.get(f"/t/{players_mode.slug}/me/")
    assert page.status_code == 200 and b"Dai" in page.content
    wrong = "000000" if issued.pin != "000000" else "111111"
    assert pin_post(phone, players_mode, dai, wrong).status_code == 400
    assert pin_post(phone, players_mode, dai, "12ab56").status_code == 400
    assert signed_in_as(phone, players_mode) is None
    response = pin_post(phone, players_mode, dai, issued.pin)
    assert response.status_code == 302 and signed_in_as(phone, players_mode) == dai.pk
    assert phone.post(f"/t/{players_mode.slug}/me/logout/").status_code == 302
    assert signed_in_as(phone, players_mode) is None
    assert phone.get("/t/test-open/sheet/1/1/").status_code == 302  # to the login page


@pytest.mark.django_db
def test_wrong_pins_from_one_address_are_limited(players_mode: Tournament, organiser: Any) -> None:
    ana = player("Ana")
    issued = player_login.issue_for_player(ana, organiser)
    wrong = "000000" if issued.pin != "000000" else "111111"
    client = Client()
    for _ in range(auth.MAX_FAILURES):
        assert pin_post(client, players_mode, ana, wrong).status_code == 400
    blocked = pin_post(client, players_mode, ana, issued.pin)  # even the right PIN
    assert blocked.status_code == 429 and int(blocked["Retry-After"]) > 0
    assert b"Too many failed sign-in attempts" in blocked.content
    assert pin_post(client, players_mode, ana, issued.pin, address="10.0.0.2").status_code == 302


@pytest.mark.django_db
def test_one_address_cannot_try_every_player(players_mode: Tournament, organiser: Any) -> None:
    extra = [Player.objects.create(tournament=players_mode, name=f"Extra {i}") for i in range(2)]
    client = Client()
    for who in [*(player(n) for n in ("Ana", "Ben", "Cho", "Dai")), extra[0]]:
        issued = player_login.issue_for_player(who, organiser)
        wrong = "000000" if issued.pin != "000000" else "111111"
        for _ in range(auth.MAX_ADDRESS_FAILURES // 5):
            assert pin_post(client, players_mode, who, wrong).status_code == 400
    last = player_login.issue_for_player(extra[1], organiser)
    blocked = pin_post(client, players_mode, extra[1], last.pin)
    assert blocked.status_code == 429 and b"from this address" in blocked.content


@pytest.mark.django_db
def test_many_addresses_together_cannot_guess_one_players_pin(
    players_mode: Tournament, organiser: Any
) -> None:
    ben = player("Ben")
    issued = player_login.issue_for_player(ben, organiser)
    wrong = "000000" if issued.pin != "000000" else "111111"
    for attempt in range(auth.MAX_PLAYER_FAILURES):
        assert pin_post(Client(), players_mode, ben, wrong, address=f"10.1.0.{attempt}").status_code == 400
    blocked = pin_post(Client(), players_mode, ben, issued.pin, address="10.2.0.1")
    assert blocked.status_code == 429 and b"Too many wrong PINs for this player" in blocked.content
    assert int(blocked["Retry-After"]) > auth.WINDOW_SECONDS
    # Another player is not affected.
    cho = player("Cho")
    assert (
        pin_post(Client(), players_mode, cho, player_login.issue_for_player(cho, organiser).pin).status_code
        == 302
    )


def pdf_codes(pdf: bytes, tmp_path: Path) -> list[str]:
    """The QR codes of the PDF's first page, as zbarimg reads them from a 150 dpi rendering."""
    (tmp_path / "cards.pdf").write_bytes(pdf)
    subprocess.run(
        [
            "gs",
            "-q",
            "-dSAFER",
            "-dBATCH",
            "-dNOPAUSE",
            "-sDEVICE=pnggray",
            "-r150",
            "-dFirstPage=1",
            "-dLastPage=1",
            f"-sOutputFile={tmp_path / 'cards.png'}",
            str(tmp_path / "cards.pdf"),
        ],
        check=True,
        timeout=60,
    )
    return read_codes(tmp_path / "cards.png")


@pytest.mark.django_db
def test_the_seating_cards_qr_code_is_a_working_one_time_link(
    players_mode: Tournament, referee: Any, tmp_path: Path
) -> None:
    staff = Client()
    staff.force_login(referee)
    response = staff.post(f"/t/{players_mode.slug}/exports/print/seating-cards/1/", {"confirmed": "yes"})
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    codes = pdf_codes(response.content, tmp_path)
    assert len(codes) == 4 and all(c.startswith("http://testserver/t/test-open/in/") for c in codes)
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(response.content)).pages)
    pins = [line.split()[-1] for line in text.splitlines() if line.startswith("PIN ")]
    assert len(pins) == 4
    assert sum(player_login.pin_matches(p, pin) for p in Player.objects.all() for pin in pins) == 4
    assert AuditEntry.objects.filter(action="player.credentials").count() == 1

    phone = Client()
    landed = phone.get(codes[0].removeprefix("http://testserver"))
    assert landed.status_code == 302
    who = signed_in_as(phone, players_mode)
    assert who is not None and landed["Location"] == f"/t/test-open/players/{who}/"
    assert phone.get("/t/test-open/sheet/1/1/").status_code == 200

    # Fetching the cards again changes nothing: the unused links of the first print still work.
    staff.get(f"/t/{players_mode.slug}/exports/print/seating-cards/1/")
    assert Client().get(codes[2].removeprefix("http://testserver")).status_code == 302
    # New sign-in codes do: the unused links of the first print stop working.
    staff.post(f"/t/{players_mode.slug}/exports/print/seating-cards/1/", {"confirmed": "yes"})
    assert Client().get(codes[1].removeprefix("http://testserver")).status_code == 404


@pytest.mark.django_db
def test_fetching_the_cards_issues_nothing_and_new_codes_need_the_csrf_token(
    players_mode: Tournament, referee: Any, tmp_path: Path
) -> None:
    staff = Client(enforce_csrf_checks=True)
    staff.force_login(referee)
    address = f"/t/{players_mode.slug}/exports/print/seating-cards/1/"
    codes = pdf_codes(staff.get(address).content, tmp_path)
    assert set(codes) == {f"http://testserver/t/test-open/players/{p.pk}/" for p in Player.objects.all()}
    assert not Player.objects.exclude(pin_hash="").exists() and not PlayerLoginLink.objects.exists()
    # A form on another site posting to the address: refused, nobody's card is voided.
    assert staff.post(address).status_code == 403
    assert not PlayerLoginLink.objects.exists()
    # The seating page links to the page that says what new codes void; its form carries the token and
    # the confirmation.
    page = staff.get(f"/t/{players_mode.slug}/seating/1/").content.decode()
    confirm = f"/t/{players_mode.slug}/exports/print/seating-cards/1/new-codes/"
    assert f'href="{confirm}"' in page and "seating cards with new sign-in codes" in page
    token = staff.cookies["csrftoken"].value
    # Without the confirmation nothing is issued, even with the token.
    unconfirmed = staff.post(address, {"csrfmiddlewaretoken": token})
    assert unconfirmed.status_code == 400 and unconfirmed.content.startswith(b"confirm-new-codes: ")
    assert not PlayerLoginLink.objects.exists()
    form = staff.get(confirm).content.decode()
    assert 'name="confirmed" value="yes"' in form and f'action="{address}"' in form
    assert "Every card these players already hold stops working at once" in form
    assert "The 4 players seated in hanchan 1 each get a seating card" in form
    assert staff.post(address, {"csrfmiddlewaretoken": token, "confirmed": "yes"}).status_code == 200
    assert PlayerLoginLink.objects.count() == 4
    # Asked again, the page says how many hold codes already, and since when.
    assert "4 of them hold codes printed before (the last on " in staff.get(confirm).content.decode()
    # Score sheets have no codes to issue.
    refused = staff.post(
        f"/t/{players_mode.slug}/exports/print/score-sheets/1/", {"csrfmiddlewaretoken": token}
    )
    assert refused.status_code == 405 and b"issue-sign-in-codes" in refused.content


@pytest.mark.django_db
def test_in_referees_mode_the_card_shows_the_public_page_and_no_pin(
    tournament: Tournament, seated_table: Any, referee: Any, tmp_path: Path
) -> None:
    staff = Client()
    staff.force_login(referee)
    response = staff.get(f"/t/{tournament.slug}/exports/print/seating-cards/1/")
    codes = pdf_codes(response.content, tmp_path)
    expected = {f"http://testserver/t/test-open/players/{p.pk}/" for p in Player.objects.all()}
    assert set(codes) == expected
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(response.content)).pages)
    assert "PIN" not in text
    assert not Player.objects.exclude(pin_hash="").exists() and not PlayerLoginLink.objects.exists()


@pytest.mark.django_db
def test_an_organiser_issues_one_players_pin_shown_once_and_audited(
    players_mode: Tournament, organiser: Any, referee: Any
) -> None:
    ana = player("Ana")
    address = f"/t/{players_mode.slug}/manage/players/{ana.pk}/credentials/"
    as_referee = Client()
    as_referee.force_login(referee)
    assert as_referee.post(address).status_code == 403
    client = Client()
    client.force_login(organiser)
    page = client.get(f"/t/{players_mode.slug}/players/{ana.pk}/")
    assert b"New PIN and sign-in link" in page.content
    response = client.post(address)
    assert response.status_code == 200 and "no-store" in response["Cache-Control"]
    pin = response.content.split(b"data-pin>")[1][:6].decode()
    ana.refresh_from_db()
    assert player_login.pin_matches(ana, pin)
    entry = AuditEntry.objects.get(action="player.credentials")
    assert entry.actor == organiser and entry.subject == "player Ana" and pin not in str(entry.changes)


@pytest.mark.django_db
def test_the_api_takes_a_players_entry_confirmation_and_dispute(
    players_mode: Tournament, organiser: Any
) -> None:
    phones = {}
    for name in ("Ana", "Ben", "Cho", "Dai"):
        phones[name] = Client()
        issued = player_login.issue_for_player(player(name), organiser)
        assert (
            pin_post(
                phones[name], players_mode, player(name), issued.pin, address=f"10.3.0.{len(phones)}"
            ).status_code
            == 302
        )
    table = players_mode.rounds.get().tables.get()
    base = f"/api/tables/{table.pk}/sheet/"
    created = phones["Ana"].post(base, {"entry": FINAL, "submit": True}, content_type="application/json")
    assert created.status_code == 201, created.content
    body = created.json()
    assert body["status"] == "submitted" and [c["player"] for c in body["confirmations"]] == ["Ana"]
    assert "versions" not in body  # the history is the staff's

    seen = phones["Ben"].get(base)
    assert seen.status_code == 200 and seen.json()["version"] == 1
    agreed = phones["Ben"].post(base + "confirm/", {"version": 1}, content_type="application/json")
    assert agreed.status_code == 200 and len(agreed.json()["confirmations"]) == 2
    stale = phones["Cho"].post(base + "confirm/", {"version": 7}, content_type="application/json")
    assert stale.status_code == 409 and stale.json()["errors"][0]["rule"] == "stale-version"
    disputed = phones["Dai"].post(
        base + "dispute/", {"version": 1, "reason": "Cho won the last hand"}, content_type="application/json"
    )
    assert disputed.status_code == 200 and disputed.json()["status"] == "disputed"
    late = phones["Cho"].post(base + "confirm/", {"version": 1}, content_type="application/json")
    assert late.status_code == 409 and late.json()["errors"][0]["rule"] == "disputed-sheets-go-to-a-referee"

    # A player of another table: refused with the rule.
    other = Player.objects.create(tournament=players_mode, name="Eve")
    stranger = Client()
    assert (
        pin_post(
            stranger,
            players_mode,
            other,
            player_login.issue_for_player(other, organiser).pin,
            address="10.4.0.1",
        ).status_code
        == 302
    )
    refused = stranger.post(base + "confirm/", {"version": 1}, content_type="application/json")
    assert refused.status_code == 403 and refused.json()["errors"][0]["rule"] == access.RULE_SEATED_ONLY
    assert stranger.get(base).status_code == 404  # not signed: not theirs to read
    assert ScoreSheet.objects.get().status == ScoreSheet.Status.DISPUTED


@pytest.mark.django_db
def test_a_players_session_is_held_to_csrf_in_the_api(players_mode: Tournament, organiser: Any) -> None:
    ana = player("Ana")
    phone = Client(enforce_csrf_checks=True)
    issued = player_login.issue_for_player(ana, organiser)
    login_page = phone.get(f"/t/{players_mode.slug}/me/")
    token = login_page.cookies["csrftoken"].value
    response = phone.post(
        f"/t/{players_mode.slug}/me/", {"player": ana.pk, "pin": issued.pin, "csrfmiddlewaretoken": token}
    )
    assert response.status_code == 302
    table = players_mode.rounds.get().tables.get()
    forged = phone.post(f"/api/tables/{table.pk}/sheet/", {"entry": FINAL}, content_type="application/json")
    assert forged.status_code == 403 and "CSRF" in forged.json()["errors"][0]["message"]
    assert not ScoreSheet.objects.exists()


@pytest.mark.django_db
def test_the_sheet_page_refuses_players_naming_the_rule(
    players_mode: Tournament, organiser: Any, sixteen_players: list[Player]
) -> None:
    table = players_mode.rounds.get().tables.get()
    other = seat_table(table.round, 2, sixteen_players[:4])
    ana = player("Ana")
    phone = Client()
    assert (
        pin_post(phone, players_mode, ana, player_login.issue_for_player(ana, organiser).pin).status_code
        == 302
    )
    assert phone.get("/t/test-open/sheet/1/1/").status_code == 200
    refused = phone.get(f"/t/test-open/sheet/1/{other.number}/")
    assert refused.status_code == 403 and access.RULE_SEATED_ONLY.encode() in refused.content
    posted = phone.post(f"/t/test-open/sheet/1/{other.number}/confirm/", {"version": 1})
    assert posted.status_code == 403
    assert phone.get("/t/test-open/referee/").status_code in (302, 403)  # not a referee

    players_mode.entry_mode = Tournament.EntryMode.REFEREES
    players_mode.save()
    refused = phone.get("/t/test-open/sheet/1/1/")
    assert refused.status_code == 403 and access.RULE_PLAYERS_ENTER.encode() in refused.content
    page = phone.get(f"/t/test-open/players/{ana.pk}/")
    assert b"No score sheet to enter or confirm now" in page.content


@pytest.mark.django_db
def test_the_players_answer_on_the_sheet_page(players_mode: Tournament, organiser: Any, referee: Any) -> None:
    phones = {}
    for name in ("Ana", "Ben", "Cho", "Dai"):
        phones[name] = Client()
        who = player(name)
        pin = player_login.issue_for_player(who, organiser).pin
        assert (
            pin_post(phones[name], players_mode, who, pin, address=f"10.5.0.{len(phones)}").status_code == 302
        )
    sheet_url = "/t/test-open/sheet/1/1/"
    submitted = phones["Ana"].post(
        sheet_url, {"entry": json.dumps(FINAL), "action": "submit", "expected_version": ""}
    )
    assert submitted.status_code == 302
    page = phones["Ben"].get(sheet_url)
    assert b"I agree with version 1" in page.content and b"Sign version 1" not in page.content
    assert b"I agree with version 1" not in phones["Ana"].get(sheet_url).content  # she agreed by submitting
    phones["Ben"].post(sheet_url + "confirm/", {"version": 1})
    empty = phones["Cho"].post(sheet_url + "dispute/", {"version": 1, "reason": ""}, follow=True)
    assert b"say what is wrong with the sheet" in empty.content
    phones["Cho"].post(sheet_url + "dispute/", {"version": 1, "reason": "Dai won the last hand"})
    assert ScoreSheet.objects.get().status == ScoreSheet.Status.DISPUTED

    staff = Client()
    staff.force_login(referee)
    tables = staff.get("/t/test-open/referee/")
    assert b"Disputed" in tables.content and b"Settle the dispute" in tables.content
    page = staff.get(sheet_url)
    assert b"Sign version 1" in page.content and b"Dai won the last hand" in page.content
    assert staff.post(sheet_url + "sign/", {"expected_version": 1}).status_code == 302
    assert ScoreSheet.objects.get().signed_by == referee
    signed = phones["Dai"].get(sheet_url)
    assert b"Signed by the referee referee" in signed.content and b"I agree" not in signed.content


@pytest.mark.django_db
def test_the_organiser_sets_the_entry_mode_on_the_form_and_in_the_api(
    tournament: Tournament, organiser: Any
) -> None:
    client = Client()
    client.force_login(organiser)
    form = client.get(f"/t/{tournament.slug}/manage/edit/")
    assert b"Score sheets entered by" in form.content and b'value="players"' in form.content
    patched = client.patch(
        f"/api/tournaments/{tournament.pk}/", {"entry_mode": "players"}, content_type="application/json"
    )
    assert patched.status_code == 200 and patched.json()["entry_mode"] == "players"
    tournament.refresh_from_db()
    assert tournament.entry_mode == Tournament.EntryMode.PLAYERS
    wrong = client.patch(
        f"/api/tournaments/{tournament.pk}/", {"entry_mode": "robots"}, content_type="application/json"
    )
    assert wrong.status_code == 400 and wrong.json()["errors"][0]["field"] == "entry_mode"
