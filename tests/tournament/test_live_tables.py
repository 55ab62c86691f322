"""Live tables through their doors (the page, its JSON, the API, the projector and its JSON, the head
referee's page): a draft saved hand by hand shows at once with the figures of ``tests/scoring/hanchan.py``;
the publication settings hide a hidden hanchan, an unpublished seating and a private tournament from
every door at once; the head referee sees the slow tables and why; the payload takes three queries
whatever the number of tables."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
import redis
from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from scoring import services as sheets
from scoring.models import ScoreSheet
from scoring.rules.replay import replay
from tests.conftest import make_players, make_user, seat_table
from tests.scoring.hanchan import OUTCOMES
from tests.tournament.test_club_sessions import make_session, sign
from tournament import services
from tournament.models import Player, Round, Tournament
from tournament.queries import live
from tournament.queries.live_tables import public_tables, table_states, tables_payload
from tournament.queries.standings_db import live_key

pytestmark = pytest.mark.django_db

NAMES = [["Ana", "Ben", "Cho", "Dai"], ["Eve", "Fay", "Gus", "Hal"], ["Ivy", "Jon", "Kim", "Lea"]]


@pytest.fixture
def hanchan(tournament: Tournament) -> Round:
    """Hanchan 1 of 2, started: three tables of four."""
    tournament.hanchan_count = 2
    tournament.save()
    round_ = Round.objects.create(tournament=tournament, number=1, status=Round.Status.STARTED)
    for number, names in enumerate(NAMES, 1):
        players = [Player.objects.create(tournament=tournament, name=name) for name in names]
        seat_table(round_, number, players)
    return round_


def renamed(value: Any, names: list[str]) -> Any:
    """``value`` (hands or a replay of tests/scoring/hanchan.py) with Ana, Ben, Cho and Dai renamed."""
    text = json.dumps(value)
    for old, new in zip(NAMES[0], names, strict=True):
        text = text.replace(f'"{old}"', f'"{new}"')
    return json.loads(text)


def hands_entry(count: int, names: list[str] = NAMES[0]) -> dict[str, Any]:
    return {"form": "hands", "hands": renamed(OUTCOMES[:count], names)}


def save(round_: Round, table: int, count: int, user: Any, capture: Any) -> None:
    """A draft of the first ``count`` hands, saved as the sheet editor saves it, committed."""
    the_table = round_.tables.get(number=table)
    sheet = ScoreSheet.objects.filter(table=the_table).first()
    entry = hands_entry(count, NAMES[table - 1])
    with capture(execute=True):
        sheets.save_sheet(the_table, entry, user, expected_version=sheet.version if sheet else None)


def doors(tournament: Tournament) -> list[str]:
    slug = tournament.slug
    return [
        f"/t/{slug}/tables/",
        f"/t/{slug}/tables.json",
        f"/t/{slug}/projector/tables/",
        f"/t/{slug}/projector/tables.json",
        f"/api/tournaments/{tournament.pk}/live-tables/",
    ]


def payload_of(client: Client, path: str) -> dict[str, Any]:
    response = client.get(path)
    assert response.status_code == 200, (path, response.status_code)
    if response["Content-Type"].startswith("application/json"):
        return response.json()  # type: ignore[no-any-return]
    text = response.content.decode()
    start = text.index('<script id="live-tables-data" type="application/json">') + len(
        '<script id="live-tables-data" type="application/json">'
    )
    return json.loads(text[start : text.index("</script>", start)])  # type: ignore[no-any-return]


def test_a_draft_saved_hand_by_hand_shows_on_every_door(
    hanchan: Round, referee: Any, django_capture_on_commit_callbacks: Any
) -> None:
    tournament = hanchan.tournament
    save(hanchan, 1, 3, referee, django_capture_on_commit_callbacks)
    for path in doors(tournament):
        payload = payload_of(Client(), path)
        assert payload["round"] == 1 and payload["shown"] is True, path
        first, second, third = payload["tables"]
        assert [seat["name"] for seat in first["seats"]] == NAMES[0]
        assert [seat["wind"] for seat in first["seats"]] == [0, 1, 2, 3]
        # After hand 3 (a draw, dealer Cho noten, Dai's riichi): East 4, 1 honba, 1 stick on the table.
        assert [seat["points"] for seat in first["seats"]] == [31200, 30000, 27600, 30200]
        assert (first["status"], first["hand"], first["honba"], first["riichi_sticks"]) == (
            "playing",
            3,
            1,
            1,
        )
        assert first["hands_played"] == 3 and first["last_entry_at"] is not None
        assert "flags" not in first  # the public sees no flags
        assert second["status"] == third["status"] == "waiting" and second["last_entry_at"] is None
        assert [seat["points"] for seat in second["seats"]] == [30000] * 4
        # East 4: Dai (North in the seating) deals and is East; the others' winds have turned with him.
        assert [seat["current_wind"] for seat in first["seats"]] == [1, 2, 3, 0]
        assert [seat["dealer"] for seat in first["seats"]] == [False, False, False, True]
        assert [seat["current_wind"] for seat in second["seats"]] == [0, 1, 2, 3]
        assert [seat["dealer"] for seat in second["seats"]] == [True, False, False, False]
        assert payload["playing"] == 3  # the hanchan has begun: its tables without an entry play too

    # Before the hanchan has begun (seated, its clock not started), only the table with an entry plays.
    Round.objects.filter(pk=hanchan.pk).update(status=Round.Status.SEATED)
    assert tables_payload(Tournament.objects.get(pk=tournament.pk), staff=True)["playing"] == 1
    Round.objects.filter(pk=hanchan.pk).update(status=Round.Status.STARTED)

    # One more hand: the dealer Dai wins, keeps the deal; 2 honba, the stick taken.
    save(hanchan, 1, 4, referee, django_capture_on_commit_callbacks)
    first = payload_of(Client(), f"/t/{tournament.slug}/tables.json")["tables"][0]
    assert [seat["points"] for seat in first["seats"]] == [27000, 30000, 27600, 35400]
    assert (first["hand"], first["honba"], first["riichi_sticks"]) == (3, 2, 0)


def test_a_submitted_then_signed_sheet_shows_as_finished_with_its_final_points(
    hanchan: Round, referee: Any, django_capture_on_commit_callbacks: Any
) -> None:
    table = hanchan.tables.get(number=1)
    with django_capture_on_commit_callbacks(execute=True):
        sheet = sheets.save_sheet(table, hands_entry(len(OUTCOMES)), referee, submit=True)
    first = payload_of(Client(), f"/t/{hanchan.tournament.slug}/tables.json")["tables"][0]
    assert first["status"] == "submitted" and first["hand"] is None
    assert [seat["points"] for seat in first["seats"]] == [37400, 26600, 24900, 31100]
    with django_capture_on_commit_callbacks(execute=True):
        sheets.sign_sheet(sheet, referee)
    first = payload_of(Client(), f"/t/{hanchan.tournament.slug}/tables.json")["tables"][0]
    assert first["status"] == "signed" and first["hands_played"] == len(OUTCOMES)


def assert_nothing_shown(tournament: Tournament, client: Client, secrets: list[str]) -> None:
    """Every door answers, shows that nothing is shown, and carries none of the hidden names or points."""
    for path in doors(tournament):
        response = client.get(path)
        assert response.status_code == 200, path
        body = response.content.decode()
        for secret in secrets:
            assert secret not in body, (path, secret)
        payload = payload_of(client, path)
        assert payload["shown"] is False and payload["tables"] == [] and payload["round"] is None, path


def test_a_hidden_hanchan_shows_nothing_to_the_public_and_everything_to_its_staff(
    hanchan: Round, referee: Any, organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    tournament = hanchan.tournament
    Tournament.objects.filter(pk=tournament.pk).update(hidden_hanchan=1)  # hanchan 2 of 2 is hidden
    tournament.refresh_from_db()
    # Hanchan 1 is played and signed; hanchan 2 becomes current, its first hands entered.
    for number in (1, 2, 3):
        table = hanchan.tables.get(number=number)
        final = {"form": "final", "riichi_sticks_left": 0}
        final["final_points"] = dict(zip(NAMES[number - 1], [40000, 30000, 30000, 20000], strict=True))
        with django_capture_on_commit_callbacks(execute=True):
            sheets.sign_sheet(sheets.save_sheet(table, final, referee, submit=True), referee)
    second = Round.objects.create(tournament=tournament, number=2, status=Round.Status.STARTED)
    players = {player.name: player for player in tournament.players.all()}
    for number, names in enumerate([["Ana", "Eve", "Ivy", "Dai"], ["Ben", "Fay", "Jon", "Hal"]], 1):
        seat_table(second, number, [players[name] for name in names])
    table = second.tables.get(number=1)
    ron = {"result": "ron", "winner": "Eve", "loser": "Ivy", "han": 3, "fu": 40, "riichi": []}
    entry = {"form": "hands", "hands": [ron]}
    with django_capture_on_commit_callbacks(execute=True):
        sheets.save_sheet(table, entry, referee)

    # Eve's 5,200 is hidden: neither her new points nor Ivy's may be read anywhere.
    assert_nothing_shown(tournament, Client(), ["35200", "24800", "Eve"])
    staff = Client()
    staff.force_login(referee)
    payload = payload_of(staff, f"/t/{tournament.slug}/tables.json")
    assert payload["round"] == 2 and [s["points"] for s in payload["tables"][0]["seats"]][:3] == [
        30000,
        35200,
        24800,
    ]
    # The projector shows what the public sees, whoever is signed in on it.
    assert payload_of(staff, f"/t/{tournament.slug}/projector/tables.json")["tables"] == []

    # Revealed at the end: the public sees it at once (the payload computed by the revelation's commit).
    with django_capture_on_commit_callbacks(execute=True):
        services.reveal_standings(tournament, organiser)
    assert payload_of(Client(), f"/t/{tournament.slug}/tables.json")["round"] == 2
    with django_capture_on_commit_callbacks(execute=True):
        services.reveal_standings(tournament, organiser, revealed=False)  # and hidden again
    assert payload_of(Client(), f"/t/{tournament.slug}/tables.json")["tables"] == []


def test_standings_per_completed_hanchan_hide_the_hanchan_in_play(
    hanchan: Round, referee: Any, django_capture_on_commit_callbacks: Any
) -> None:
    tournament = hanchan.tournament
    Tournament.objects.filter(pk=tournament.pk).update(
        standings_publication=Tournament.StandingsPublication.COMPLETED
    )
    tournament.refresh_from_db()
    save(hanchan, 1, 3, referee, django_capture_on_commit_callbacks)
    assert_nothing_shown(tournament, Client(), ["31200", "27600", "Ana"])


def test_an_unpublished_seating_shows_nothing(hanchan: Round, referee: Any, organiser: Any) -> None:
    tournament = hanchan.tournament
    Tournament.objects.filter(pk=tournament.pk).update(
        seating_publication=Tournament.SeatingPublication.BY_HANCHAN
    )
    tournament.refresh_from_db()
    assert_nothing_shown(tournament, Client(), ["Ana", "Ivy"])
    staff = Client()
    staff.force_login(referee)
    assert len(payload_of(staff, f"/t/{tournament.slug}/tables.json")["tables"]) == 3


def test_a_private_tournament_is_not_found_through_any_door(hanchan: Round, referee: Any) -> None:
    tournament = hanchan.tournament
    Tournament.objects.filter(pk=tournament.pk).update(is_public=False)
    public = Client()
    for path in doors(tournament):
        assert public.get(path).status_code == 404, path
    assert public.get(f"/t/{tournament.slug}/tables/watch/").status_code == 302  # sign in first
    outsider = Client()
    outsider.force_login(make_user("outsider"))
    for path in [*doors(tournament), f"/t/{tournament.slug}/tables/watch/"]:
        assert outsider.get(path).status_code == 404, path
    staff = Client()
    staff.force_login(referee)
    assert len(payload_of(staff, f"/t/{tournament.slug}/tables.json")["tables"]) == 3


def test_the_head_referee_sees_the_slow_tables_and_why(
    hanchan: Round, referee: Any, head_referee: Any, django_capture_on_commit_callbacks: Any
) -> None:
    tournament = hanchan.tournament
    save(hanchan, 1, 6, referee, django_capture_on_commit_callbacks)
    save(hanchan, 2, 6, referee, django_capture_on_commit_callbacks)
    save(hanchan, 3, 1, referee, django_capture_on_commit_callbacks)
    # Table 3 last entered 20 minutes ago.
    ScoreSheet.objects.filter(table__round=hanchan, table__number=3).update(
        updated_at=timezone.now() - timedelta(minutes=20)
    )
    slug = tournament.slug
    assert Client().get(f"/t/{slug}/tables/watch/").status_code == 302
    as_referee = Client()
    as_referee.force_login(referee)
    assert as_referee.get(f"/t/{slug}/tables/watch/").status_code == 403
    head = Client()
    head.force_login(head_referee)
    payload = payload_of(head, f"/t/{slug}/tables/watch/")
    flags = {table["table"]: table["flags"] for table in payload["tables"]}
    # Hands played 1, 6, 6: the median is 6, table 3 is 5 behind; nothing entered for 20 minutes.
    assert flags == {
        1: [],
        2: [],
        3: [{"rule": "hands-behind", "hands": 5, "median": 6}, {"rule": "no-entry", "minutes": 20}],
    }
    assert (payload["hands_behind"], payload["idle_minutes"]) == (3, 15)
    # The staff's JSON carries the flags too; the public's never does.
    assert payload_of(head, f"/t/{slug}/tables.json")["tables"][2]["flags"] == flags[3]
    assert "flags" not in payload_of(Client(), f"/t/{slug}/tables.json")["tables"][2]


def test_the_payload_of_a_hundred_tables_takes_a_fixed_number_of_queries(
    tournament: Tournament, referee: Any
) -> None:
    round_ = Round.objects.create(tournament=tournament, number=1, status=Round.Status.STARTED)
    players = make_players(tournament, 400)
    tables = [seat_table(round_, number, players[4 * (number - 1) : 4 * number]) for number in range(1, 101)]
    # A draft of 8 hands at every table (the replay as the sheet editor stores it).
    replayed = replay({"players": NAMES[0], "hands": OUTCOMES[:8]}, tournament.ruleset()).as_json()
    names = [[player.name for player in players[4 * i : 4 * i + 4]] for i in range(100)]
    ScoreSheet.objects.bulk_create(
        ScoreSheet(
            table=table,
            form="hands",
            entry=hands_entry(8, names[i]),
            replay=renamed(replayed, names[i]),
        )
        for i, table in enumerate(tables)
    )
    tournament.refresh_from_db()
    current = tournament.rounds.get()
    with CaptureQueriesContext(connection) as queries:
        tables_payload(tournament, staff=True)
    assert len(queries) <= 5, [q["sql"] for q in queries]  # the current hanchan, seats, sheets, tables
    # Its time is a benchmark's figure (benchmarks/bench_live_tables.py), not this test's.
    payload = tables_payload(tournament, staff=True)
    assert len(payload["tables"]) == 100 and payload["tables"][99]["hands_played"] == 8
    assert payload["round"] == current.number
    # The whole replays read (SQLite's way) give the same tables as PostgreSQL's compact reading; a table
    # handed in and one without a sheet too.
    whole = hands_entry(len(OUTCOMES), names[0])
    sheets.save_sheet(tables[0], whole, referee, submit=True, expected_version=1)
    ScoreSheet.objects.filter(table=tables[1]).delete()
    assert table_states(current, compact=True) == table_states(current, compact=False)


def test_a_players_draft_sends_the_tables_notice_with_its_payload_computed_at_the_source(
    hanchan: Round, django_capture_on_commit_callbacks: Any
) -> None:
    """The players' phone entry: a seated player's draft, once committed, leaves the public payload in the
    live cache (under the version the streams will read) and then sends the ``tables`` notice on Redis."""
    tournament = hanchan.tournament
    Tournament.objects.filter(pk=tournament.pk).update(entry_mode=Tournament.EntryMode.PLAYERS)
    table = hanchan.tables.get(number=1)
    player = Player.objects.get(tournament=tournament, name="Ben")
    listener = redis.Redis.from_url(settings.REDIS_URL)
    subscription = listener.pubsub()
    subscription.subscribe(live.channel())
    try:
        assert subscription.get_message(timeout=5)["type"] == "subscribe"  # type: ignore[index]
        with django_capture_on_commit_callbacks(execute=True):
            sheets.player_save_sheet(table, hands_entry(3), player)
        kinds = []
        while (message := subscription.get_message(timeout=5)) is not None:
            notice = live.parse_notice(message["data"])
            if notice is not None and notice[0] == tournament.pk:
                kinds.append(notice[2])
            if "tables" in kinds:
                break
        assert "tables" in kinds, kinds
    finally:
        subscription.close()
        listener.close()
    tournament.refresh_from_db()
    stored = cache.get(live_key(tournament.pk, "tables"))
    assert stored is not None  # computed where the draft was saved
    first = stored[1]["tables"][0]
    assert [seat["points"] for seat in first["seats"]] == [31200, 30000, 27600, 30200]
    assert public_tables(tournament, fresh=True) == stored[1]  # what the streams send: that copy


def test_a_club_session_shows_every_table_in_play_by_hanchan(
    referee: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """Each table of a club session is a hanchan of its own: the live tables show every one not
    finished, by hanchan (not only the oldest), each with its hanchan; a signed one leaves them."""
    session = make_session("club-live")
    for name in ("Hal", "Ivy"):
        session.players[name] = Player.objects.create(
            tournament=session.tournament, name=name, status=Player.Status.CHECKED_IN
        )
    tournament, organiser = session.tournament, session.organiser
    first = services.form_table(tournament, organiser, session.ids(*NAMES[0]))
    services.form_table(tournament, organiser, session.ids("Eve", "Fay", "Hal", "Ivy"))
    sign(first, organiser, {"Ana": 45000, "Ben": 35000, "Cho": 25000, "Dai": 15000})
    third = services.form_table(tournament, organiser, session.ids("Dai", "Ana", "Cho", "Ben"))
    with django_capture_on_commit_callbacks(execute=True):
        sheets.save_sheet(third, hands_entry(3, ["Dai", "Ana", "Cho", "Ben"]), organiser)
    head = Client()
    head.force_login(make_user("head-club-live", tournament, "head_referee"))
    for client, path in [(Client(), path) for path in doors(tournament)] + [
        (head, f"/t/{tournament.slug}/tables/watch/"),
        (head, f"/t/{tournament.slug}/tables.json"),
    ]:
        payload = payload_of(client, path)
        assert (payload["club"], payload["round"], payload["shown"]) == (True, None, True), path
        tables = payload["tables"]
        assert [(t["round"], t["table"]) for t in tables] == [(2, 1), (3, 1)], path
        assert [seat["name"] for seat in tables[0]["seats"]] == ["Eve", "Fay", "Hal", "Ivy"]
        assert tables[0]["status"] == "waiting" and tables[1]["status"] == "playing"
        assert tables[1]["hands_played"] == 3 and tables[1]["hand"] == 3  # East 4, as in the tournament
        assert ("flags" in tables[1]) is (client is head), path
    # A tournament's payload says it is none.
    other = Tournament.objects.create(
        name="Open",
        slug="open-live",
        starts_on=tournament.starts_on,
        ends_on=tournament.ends_on,
        hanchan_count=1,
    )
    payload = tables_payload(other, staff=False)
    assert {key: value for key, value in payload.items() if key != "now"} == {
        "round": None,
        "club": False,
        "shown": True,
        "tables": [],
        "playing": 0,
    }
