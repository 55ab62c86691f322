"""Nothing of a hidden hanchan through any door: with the last hanchan hidden (``hidden_hanchan``) or the
standings shown as of the last completed hanchan, every GET route of the URL configuration (the pages,
the API, the public exports' files), tried with every object of the tournament and every hanchan number,
answers as an anonymous reader and as a player signed in by PIN without the hidden hanchan's figures:
its sheets' final points and its penalty's reason. The staff still see them.

The hidden hanchan's figures are distinctive: no other number or text of the tournament looks like them.
A player signed in sees their own table's sheet (they entered and agreed it), so the figures checked for
them are those of the other tables."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from django.test import Client

from penalties import services as penalties
from scoring import services as sheets
from tests.api.conftest import World, final_entry
from tests.api.test_no_server_errors import routes
from tournament.models import Tournament
from tournament.queries import access

# Hanchan 2's final points at each table: nowhere else in the tournament.
HIDDEN = {
    "r2t1": (47300, 31900, 28700, 12100),
    "r2t2": (45900, 33700, 23300, 17100),
    "r2t3": (41700, 36300, 26900, 15100),
}
REASON = "Xylophone in the hidden hanchan"
PENALTY = ("7.35", "7,35")  # its points, as the languages write them
CANDIDATES = {  # the values tried for each id in a route
    "t": ["t"],
    "tournament_pk": ["t"],
    "tournaments": ["t"],
    # Ben (the hidden penalty's) and table 3's East (the player signed in); hanchan 2's tables.
    "players": ["ben", "t3_player"],
    "player_id": ["ben", "t3_player"],
    "tables": ["r2t1", "r2t2"],
    "table_pk": ["r2t1", "r2t2"],
    "penalties": ["penalty", "hidden_penalty"],
}
NUMBERS = {"number", "round_number", "table_number"}


def spellings(points: int) -> list[str]:
    """The ways a page or a file may write the points: 47300, 47,300, 47.300, 47 300 (with any space)."""
    thousands, rest = divmod(points, 1000)
    return [str(points), *(f"{thousands}{sep}{rest:03d}" for sep in (",", ".", " ", "\u00a0", "\u202f"))]


def written(text: str, body: str) -> bool:
    """Whether the body writes this number as a number of its own: 7.35 is not written by a clock's
    1764318007.351, nor 47300 by 1473001."""
    return re.search(rf"(?<![\d.,]){re.escape(text)}(?![\d])", body) is not None


def leaks(body: str, tables: list[str]) -> list[str]:
    found = [
        text
        for table in tables
        for points in HIDDEN[table]
        for text in spellings(points)
        if written(text, body)
    ]
    return found + [text for text in PENALTY if written(text, body)] + ([REASON] if REASON in body else [])


def urls(world: World) -> Iterator[str]:
    """Every GET route with every candidate object (and hanchan 1 and 2), and the list routes filtered to
    hanchan 2."""
    ids = {**world.ids}
    for route in sorted(set(routes())):
        if route.endswith("live") or route.startswith("admin/"):
            continue
        names = re.findall(r"<(?:(\w+):)?(\w+)>", route)
        choices: list[list[tuple[str, str]]] = []
        for converter, name in names:
            if converter == "slug":
                choices.append([("slug", "test-open")])
            elif converter == "int" and name in NUMBERS:
                choices.append([(name, "1"), (name, "2")])
            elif converter == "int":
                segment = route.split(f"<{converter}:{name}>")[0].rstrip("/").rsplit("/", 1)[-1]
                keys = CANDIDATES.get(name) or CANDIDATES.get(segment) or [None]
                choices.append([(name, str(ids[key])) if key else (name, "1") for key in keys])
            else:
                choices.append([(name, "none")])
        for combination in _product(choices):
            url = "/" + route
            for (converter, name), (_, value) in zip(names, combination, strict=True):
                url = url.replace(f"<{converter + ':' if converter else ''}{name}>", value, 1)
            yield url
            if url.startswith("/api/") and url.endswith("/"):
                yield url + "?round=2"


def _product(choices: list[list[tuple[str, str]]]) -> Iterator[tuple[tuple[str, str], ...]]:
    if not choices:
        yield ()
        return
    for first in choices[0]:
        for rest in _product(choices[1:]):
            yield (first, *rest)


@pytest.fixture
def hidden(world: World) -> World:
    """The world's hanchan 1 complete; hanchan 2 played with distinctive figures, tables 1 and 2 signed,
    table 3 submitted; a penalty given in hanchan 2; hanchan 2 hidden from the public."""
    referee, head = world.users["referee"], world.users["head_referee"]
    sheets.sign_sheet(world.tables["t2"].sheet, referee)
    sheets.sign_sheet(
        sheets.save_sheet(world.tables["t3"], final_entry(world.names("t3")), referee, submit=True), referee
    )
    for table, points in HIDDEN.items():
        entry = final_entry(world.names(table), points)
        sheet = sheets.save_sheet(world.tables[table], entry, referee, submit=True)
        if table != "r2t3":  # table 3 still to sign: hanchan 2 is not complete
            sheets.sign_sheet(sheet, referee)
    hidden_penalty = penalties.give_penalty(
        world.players["Ben"], "other", head, points="7.35", reason=REASON, round=world.tables["r2t1"].round
    )
    world.ids["hidden_penalty"] = hidden_penalty.pk
    tournament = world.tournament
    tournament.hidden_hanchan = 1
    tournament.entry_mode = Tournament.EntryMode.PLAYERS
    tournament.save()
    return world


def signed_in_player(world: World) -> Client:
    """A browser signed in by PIN as Player 005 (East at table 3 of hanchan 2)."""
    client = Client()
    session = client.session
    session[access.PLAYER_SESSION_KEY] = {str(world.tournament.pk): world.ids["t3_player"]}
    session.save()
    return client


def walk(client: Client, world: World, tables: list[str]) -> list[str]:
    found = []
    tried = 0
    for url in urls(world):
        response = client.get(url)
        tried += 1
        if response.status_code != 200 or response.streaming:
            continue
        body = response.content.decode("utf-8", "replace")
        if leaked := leaks(body, tables):
            found.append(f"{url}: {leaked[:3]}")
    assert tried > 150
    return found


@pytest.mark.slow
@pytest.mark.django_db
@pytest.mark.parametrize("setting", ["hidden", "completed"])
def test_no_route_shows_a_hidden_hanchan_to_the_public(hidden: World, setting: str) -> None:
    if setting == "completed":  # standings as of the last completed hanchan, hanchan 2 not complete
        tournament = hidden.tournament
        tournament.hidden_hanchan = 0
        tournament.standings_publication = Tournament.StandingsPublication.COMPLETED
        tournament.save()
    assert walk(Client(), hidden, list(HIDDEN)) == []


@pytest.mark.slow
@pytest.mark.django_db
def test_no_route_shows_a_hidden_hanchan_to_a_signed_in_player(hidden: World) -> None:
    assert walk(signed_in_player(hidden), hidden, ["r2t1", "r2t2"]) == []


@pytest.mark.django_db
def test_the_staff_still_see_the_hidden_hanchan(hidden: World) -> None:
    client = Client()
    client.force_login(hidden.users["referee"])
    assert leaks(client.get(f"/api/tables/{hidden.ids['r2t1']}/sheet/").content.decode(), ["r2t1"])
    listed = client.get(f"/api/tournaments/{hidden.ids['t']}/penalties/?round=2")
    assert REASON in listed.content.decode(), listed.content
