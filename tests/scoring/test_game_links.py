"""Tenhou games by their replay links (``scoring.tenhou_links``, ``services.sheets_from_links``, the API):
fetched from a local HTTP server started here that serves the stored real game as Tenhou would (the only
stand-in: Tenhou is not ours), with a slow answer, a 404, a huge body, a redirect to another host, a game
whose nicknames sit at no table and one whose nicknames nobody in the tournament has."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from django.core.exceptions import PermissionDenied
from django.test import override_settings
from rest_framework.test import APIClient

from scoring import services, tenhou_links
from scoring.models import ScoreSheet
from scoring.rules import tenhou
from tests.conftest import seat_table
from tournament.core.refusal import Refusal
from tournament.models import Player, Round, StaffRole

DATA = Path(__file__).resolve().parent.parent / "data" / "tenhou"
XML = (DATA / "real-tenhou-2023.xml").read_bytes()
GAME = "2023100200gm-0029-0000-bbdb64ce"  # the stored real game's id
MISSING, SLOW, HUGE, AWAY, STRANGERS = (
    f"2023100200gm-0029-0000-0000{code}" for code in ("0404", "0510", "0999", "0302", "0777")
)
LOG_NAMES = ["player1", "player2", "player3", "player4"]
# The stored game as another game of four nicknames the tournament does not know.
UNKNOWN = ["Eve", "Fay", "Gus", "Hal"]
STRANGERS_XML = XML.replace(
    b'n0="player1" n1="player2" n2="player3" n3="player4"',
    b" ".join(f'n{seat}="{name}"'.encode() for seat, name in enumerate(UNKNOWN)),
)
assert STRANGERS_XML != XML


class _Tenhou(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        game = self.path.partition("?")[2]
        if game == GAME:
            self.answer(200, XML)
        elif game == SLOW:
            time.sleep(1.5)
            self.answer(200, XML)
        elif game == STRANGERS:
            self.answer(200, STRANGERS_XML)
        elif game == HUGE:
            self.answer(200, b"<mjloggm>" + b" " * 1_100_000 + b"</mjloggm>")
        elif game == AWAY:
            self.send_response(302)
            self.send_header("Location", f"http://localhost:{self.server.server_address[1]}/0/log/?{GAME}")
            self.end_headers()
        else:
            self.answer(404, b"no such game")

    def answer(self, status: int, body: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", "text/xml")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):  # a client that gave up
            self.wfile.write(body)

    def log_message(self, *_args: Any) -> None:
        pass


@pytest.fixture
def fake_tenhou() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Tenhou)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{server.server_address[1]}/0/log/?"
    with override_settings(TENHOU_LOG_URL=base, TENHOU_LOG_TIMEOUT=0.5):
        yield base
    server.shutdown()
    server.server_close()


@pytest.fixture
def hanchan(tournament: Any) -> Any:
    """Hanchan 1: table 1 seats the real game's four as it sat (player1 East ...), table 2 four others."""
    round_ = Round.objects.create(tournament=tournament, number=1, status=Round.Status.STARTED)
    online = [Player.objects.create(tournament=tournament, name=name) for name in LOG_NAMES]
    others = [
        Player.objects.create(tournament=tournament, name=name) for name in ("Ana", "Ben", "Cho", "Dai")
    ]
    seat_table(round_, 1, online)
    seat_table(round_, 2, others)
    return round_


def test_a_replay_link_or_a_bare_id_names_the_game() -> None:
    assert tenhou_links.game_id(f"https://tenhou.net/0/?log={GAME}&tw=2") == GAME
    assert tenhou_links.game_id(f"http://tenhou.net/3/?log={GAME}") == GAME
    assert tenhou_links.game_id(f"  {GAME}\n") == GAME
    for bad in (f"https://evil.example/0/?log={GAME}", "https://tenhou.net/0/?log=../../etc", "hello", ""):
        with pytest.raises(Refusal) as refused:
            tenhou_links.game_id(bad)
        assert refused.value.field == "link" and "no Tenhou replay link" in refused.value.message


@pytest.mark.django_db
def test_a_fetched_game_is_the_stored_file_and_gives_its_sheet(fake_tenhou: str) -> None:
    raw = services.fetch_log(f"https://tenhou.net/0/?log={GAME}&tw=1")
    assert raw == XML and tenhou.read_game_log(raw) == tenhou.read_game_log(
        (DATA / "real-tenhou-2023.json").read_bytes()
    )


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("game", "status", "text"),
    [
        (MISSING, 502, "Tenhou has no game 2023100200gm-0029-0000-00000404 (404)"),
        (SLOW, 504, "Tenhou did not answer within 0.5 seconds"),
        (HUGE, 502, "is larger than 1,048,576 bytes"),
        (AWAY, 502, "sent game 2023100200gm-0029-0000-00000302 to another host"),
    ],
)
def test_tenhous_failures_are_refused_naming_the_link(
    fake_tenhou: str, game: str, status: int, text: str
) -> None:
    started = time.monotonic()
    with pytest.raises(Refusal) as refused:
        services.fetch_log(game)
    assert refused.value.status == status and refused.value.field == "link"
    assert text in refused.value.message
    assert time.monotonic() - started < 1.4  # the slow answer is given up at the timeout


@pytest.mark.django_db
def test_several_links_go_each_to_the_table_its_nicknames_sit_at(
    fake_tenhou: str, hanchan: Any, head_referee: Any, referee: Any
) -> None:
    links = [f"https://tenhou.net/0/?log={GAME}&tw=3", MISSING, SLOW, HUGE, STRANGERS, "not a link", GAME]
    with pytest.raises(PermissionDenied):
        services.sheets_from_links(hanchan, links, referee)  # a head referee's
    answer = services.sheets_from_links(hanchan, links, head_referee)
    (placed,) = answer["placed"]
    assert (placed["game"], placed["table"], placed["version"]) == (GAME, 1, 1)
    reasons = {entry["link"]: entry["reason"] for entry in answer["unplaced"]}
    assert list(reasons) == [MISSING, SLOW, HUGE, STRANGERS, "not a link", GAME]
    assert "(404)" in reasons[MISSING] and "0.5 seconds" in reasons[SLOW] and "larger than" in reasons[HUGE]
    assert "its players Eve, Fay, Gus, Hal sit together at no table of hanchan 1" in reasons[STRANGERS]
    assert "no Tenhou replay link" in reasons["not a link"]
    assert "a second game of player1, player2, player3, player4" in reasons[GAME]
    # The placed game's sheet is the one the uploaded file gives.
    sheet = ScoreSheet.objects.get(table__round=hanchan, table__number=1)
    log = tenhou.read_game_log(XML)
    expected = tenhou.log_sheet(log, log.names, hanchan.tournament.ruleset())
    assert sheet.entry == expected.entry and sheet.status == ScoreSheet.Status.DRAFT
    assert placed["findings"] == [finding.as_json() for finding in expected.findings]
    assert not ScoreSheet.objects.filter(table__round=hanchan, table__number=2).exists()
    # Hanchan 2 seats the four nowhere together: the game is not placed, nothing is saved.
    second = Round.objects.create(tournament=hanchan.tournament, number=2, status=Round.Status.STARTED)
    players = list(Player.objects.filter(tournament=hanchan.tournament).order_by("name"))
    seat_table(second, 1, players[0:2] + players[4:6])
    seat_table(second, 2, players[2:4] + players[6:8])
    answer = services.sheets_from_links(second, [GAME], head_referee)
    assert answer["placed"] == []
    assert (
        "its players player1, player2, player3, player4 sit together at no table of hanchan 2"
        in (answer["unplaced"][0]["reason"])
    )
    assert not ScoreSheet.objects.filter(table__round=second).exists()


@pytest.mark.django_db
def test_the_api_takes_a_link_for_a_table_and_several_for_a_hanchan(
    fake_tenhou: str, hanchan: Any, head_referee: Any, referee: Any
) -> None:
    client = APIClient()
    client.force_authenticate(referee)
    table = hanchan.tables.get(number=1)
    url = f"/api/tables/{table.pk}/sheet/from-log/"
    answer = client.post(url, {"link": f"https://tenhou.net/0/?log={GAME}"}, format="json")
    assert answer.status_code == 201, answer.content
    assert answer.json()["format"] == "Tenhou mjlog XML" and answer.json()["sheet"]["version"] == 1
    missing = client.post(url, {"link": MISSING, "expected_version": 1}, format="json")
    assert missing.status_code == 502 and missing.json()["errors"][0]["field"] == "link"
    # A game whose nicknames nobody at the table has: refused naming the mapping, nothing saved.
    strangers = client.post(url, {"link": STRANGERS, "expected_version": 1}, format="json")
    assert strangers.status_code == 400, strangers.content
    assert strangers.json()["errors"][0]["field"] == "mapping" and "'Eve'" in strangers.content.decode()
    assert ScoreSheet.objects.get(table=table).version == 1
    both = client.post(url, {"link": GAME, "log": "{}"}, format="json")
    assert both.status_code == 400
    links_url = f"/api/tournaments/{hanchan.tournament.pk}/rounds/1/sheets/from-links/"
    assert client.post(links_url, {"links": [GAME]}, format="json").status_code == 403
    head = APIClient()
    head.force_authenticate(head_referee)
    answer = head.post(links_url, {"links": [GAME, MISSING]}, format="json")
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert [(p["table"], p["version"]) for p in body["placed"]] == [(1, 2)]  # the draft replaced
    assert [u["game"] for u in body["unplaced"]] == [MISSING]
    assert head.post(links_url, {"links": []}, format="json").status_code == 400
    assert StaffRole.objects.filter(user=head_referee).exists()


@pytest.mark.django_db
def test_the_sheet_page_takes_one_link_or_several(
    fake_tenhou: str, hanchan: Any, head_referee: Any, referee: Any
) -> None:
    from django.test import Client

    slug = hanchan.tournament.slug
    page = Client()
    page.force_login(referee)
    response = page.post(
        f"/t/{slug}/sheet/1/1/from-log/", {"log_links": f"https://tenhou.net/0/?log={GAME}&tw=0"}
    )
    assert response.status_code == 302
    shown = page.get(response["Location"]).content.decode()
    assert "Read as Tenhou mjlog XML." in shown
    assert ScoreSheet.objects.get(table__round=hanchan, table__number=1).version == 1
    missing = page.post(f"/t/{slug}/sheet/1/1/from-log/", {"log_links": MISSING, "expected_version": "1"})
    assert missing.status_code == 502 and "(404)" in missing.content.decode()
    # Several at once: a head referee's; each game to its table, the others listed.
    assert page.post(f"/t/{slug}/sheet/1/2/from-log/", {"log_links": f"{GAME}\n{MISSING}"}).status_code == 403
    head = Client()
    head.force_login(head_referee)
    response = head.post(
        f"/t/{slug}/sheet/1/2/from-log/", {"log_links": f"{GAME}\n\n{MISSING}\n"}, follow=True
    )
    text = response.content.decode()
    assert f"Drafts read from Tenhou: table 1 ({GAME})." in text
    assert f"Not placed: {MISSING}: log_links" not in text and "Tenhou has no game" in text
    assert ScoreSheet.objects.get(table__round=hanchan, table__number=1).version == 2
