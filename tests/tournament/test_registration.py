"""Player import from CSV/XLSX (all-or-nothing, every bad row named) and check-in arithmetic."""

from __future__ import annotations

import io
from typing import Any

import pytest
from openpyxl import Workbook

from tests.conftest import make_players
from tournament import services
from tournament.core import player_files
from tournament.core.refusal import Refusal
from tournament.models import Player, Tournament

GOOD_CSV = (
    b"Name,Country,Club,EMA id,Team\n"
    b"Ana Alves,PT,Lisboa Riichi,04000001,Porto\n"
    b"Ben Braun,Germany,Hamburg,,\n"
    b"Cho Chen,jpn,,,\n"
)


def xlsx(rows: list[list[object]]) -> bytes:
    workbook = Workbook()
    sheet = workbook.active
    assert sheet is not None
    for row in rows:
        sheet.append(row)
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def test_rows_are_read_with_header_aliases_and_countries_by_code_name_or_alpha3() -> None:
    rows = player_files.parse_rows(player_files.read_table(GOOD_CSV, "players.csv"))
    preview = player_files.validate_rows(rows, countries=services.country_lookup())
    assert preview.ok
    assert [(r.name, r.country, r.ema_id) for r in preview.rows] == [
        ("Ana Alves", "PT", "04000001"),
        ("Ben Braun", "DE", ""),
        ("Cho Chen", "JP", ""),
    ]


def test_every_bad_row_is_named_with_its_reason() -> None:
    data = (
        b"name;country;ema id\n"
        b";PT;\n"
        b"Dai Doi;Atlantis;\n"
        b"Eve Ek;SE;1234\n"
        b"Fay Fox;GB;04000002\n"
        b"Gus Gil;ES;04000002\n"
        b"Fay Fox;GB;\n"
    )
    rows = player_files.parse_rows(player_files.read_table(data, "p.csv"))
    preview = player_files.validate_rows(rows, countries=services.country_lookup())
    assert [e.as_dict() for e in preview.errors] == [
        {"line": 2, "field": "name", "rule": "registration", "message": "missing name"},
        {
            "line": 3,
            "field": "country",
            "rule": "registration",
            "message": "'Atlantis' is not an ISO 3166 country code or name",
        },
        {"line": 4, "field": "ema_id", "rule": "registration", "message": "EMA id '1234' is not 8 digits"},
        {
            "line": 6,
            "field": "ema_id",
            "rule": "registration",
            "message": "duplicate EMA id 04000002: also on line 5",
        },
        {"line": 7, "field": "name", "rule": "registration", "message": "'Fay Fox' also on line 5"},
    ]
    assert [r.name for r in preview.rows] == ["Fay Fox"]


def test_a_file_without_a_name_column_is_refused_as_a_whole() -> None:
    with pytest.raises(Refusal, match="no 'name' column"):
        player_files.parse_rows(player_files.read_table(b"club,country\nx,PT\n", "p.csv"))


def test_other_formats_are_refused() -> None:
    with pytest.raises(Refusal, match=r"neither \.csv nor \.xlsx"):
        player_files.read_table(b"", "players.pdf")


@pytest.mark.django_db
def test_xlsx_import_stores_every_player(tournament: Tournament, organiser: Any) -> None:
    data = xlsx(
        [
            ["First name", "Last name", "Country", "EMA", "Substitute"],
            ["Ana", "Alves", "PT", 4000001, "no"],
            ["Sub", "Stitute", "FR", None, "yes"],
        ]
    )
    preview = services.import_players(tournament, data, "players.xlsx", user=organiser)
    assert preview.ok
    stored = {p.name: p for p in tournament.players.all()}
    assert set(stored) == {"Ana Alves", "Sub Stitute"}
    assert stored["Ana Alves"].ema_id == "04000001"  # a number cell's leading zero restored
    assert stored["Sub Stitute"].is_substitute


@pytest.mark.django_db
def test_one_bad_row_imports_nothing(tournament: Tournament, organiser: Any) -> None:
    data = GOOD_CSV + b"Zed,Narnia,,,\n"
    preview = services.import_players(tournament, data, "players.csv", user=organiser)
    assert not preview.ok
    assert [e.as_dict() for e in preview.errors] == [
        {
            "line": 5,
            "field": "country",
            "rule": "registration",
            "message": "'Narnia' is not an ISO 3166 country code or name",
        }
    ]
    assert tournament.players.count() == 0


@pytest.mark.django_db
def test_ema_ids_and_names_already_registered_are_duplicates(tournament: Tournament, organiser: Any) -> None:
    Player.objects.create(tournament=tournament, name="Ana Alves", ema_id="04000001")
    preview = services.import_players(tournament, GOOD_CSV, "players.csv", user=organiser)
    assert {(e.line, e.field) for e in preview.errors} == {(2, "name"), (2, "ema_id")}
    again = services.import_players(
        tournament, b"name,ema id\nAnother Ana,04000001\n", "p.csv", user=organiser
    )
    assert [e.message for e in again.errors] == ["duplicate EMA id 04000001: already Ana Alves"]
    assert tournament.players.count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("checked_in", "needed", "sit_out"), [(36, 0, 0), (37, 3, 1), (38, 2, 2), (39, 1, 3)]
)
def test_substitutes_needed_or_players_sitting_out(
    tournament: Tournament, organiser: Any, checked_in: int, needed: int, sit_out: int
) -> None:
    players = make_players(tournament, checked_in)
    for player in players:
        services.check_in(player, user=organiser)
    make_players(tournament, 2, prefix="Sub", is_substitute=True, status=Player.Status.CHECKED_IN)
    plan = services.check_in_plan(tournament)
    assert (plan.checked_in, plan.substitutes_needed, plan.tables) == (
        checked_in,
        needed,
        (checked_in + needed) // 4,
    )
    assert plan.short_of_substitutes == max(0, needed - 2)
    out = services.check_in_plan(tournament, prefer="sit_out")
    assert out.tables == checked_in // 4
    # The last to check in sit out first.
    assert [p.pk for p in out.sitting_out] == [p.pk for p in players[checked_in - sit_out :]]


@pytest.mark.django_db
@pytest.mark.parametrize("disqualified", ["player", "substitute"])
def test_the_check_in_plan_counts_only_who_can_be_seated_as_the_seating_does(
    tournament: Tournament, organiser: Any, disqualified: str
) -> None:
    """A disqualified player (WRCR 2015 §7.1), checked in or not, is neither in the plan's field nor among
    its substitutes: the plan says substitutes are short exactly when the seating refuses the field."""
    from penalties import services as penalties
    from tournament.services.field import seating_field

    players = make_players(tournament, 8 if disqualified == "player" else 7)
    for player in players:
        services.check_in(player, user=organiser)
    subs = make_players(tournament, 1, prefix="Sub", is_substitute=True, status=Player.Status.CHECKED_IN)
    gone = players[3] if disqualified == "player" else subs[0]
    if disqualified == "player":
        subs[0].delete()
    penalties.disqualify(gone, organiser, reason="collusion")
    plan = services.check_in_plan(tournament)
    assert (plan.checked_in, plan.substitutes_needed, plan.substitutes_available) == (7, 1, 0)
    assert plan.short_of_substitutes == 1
    with pytest.raises(Refusal) as refused:
        seating_field(tournament)
    assert refused.value.rule == "full-tables"
    # A substitute arrives: the plan is complete and the seating takes the field.
    (sub,) = make_players(
        tournament, 1, prefix="Late sub", is_substitute=True, status=Player.Status.CHECKED_IN
    )
    assert services.check_in_plan(tournament).short_of_substitutes == 0
    assert gone not in seating_field(tournament) and sub in seating_field(tournament)


@pytest.mark.django_db
def test_a_withdrawn_player_cannot_check_in(tournament: Tournament, organiser: Any) -> None:
    player = Player.objects.create(tournament=tournament, name="Gone", status=Player.Status.WITHDRAWN)
    with pytest.raises(Refusal, match="Gone has withdrawn and cannot check in"):
        services.check_in(player, user=organiser)


@pytest.mark.django_db
def test_only_organisers_import_and_check_in(tournament: Tournament, referee: Any) -> None:
    from django.core.exceptions import PermissionDenied

    with pytest.raises(PermissionDenied):
        services.import_players(tournament, GOOD_CSV, "players.csv", user=referee)
    with pytest.raises(PermissionDenied):
        services.preview_player_file(tournament, GOOD_CSV, "players.csv", user=referee)
    player = Player.objects.create(tournament=tournament, name="Ana")
    with pytest.raises(PermissionDenied):
        services.check_in(player, user=referee)
    assert tournament.players.count() == 1


@pytest.mark.django_db
def test_first_last_and_native_names_are_kept_apart(tournament: Tournament, organiser: Any) -> None:
    data = (
        "first name,last name,native name,country\n"
        "Dunlaith,O Briain,,IE\n"
        "An,Nguyen Van,Nguyễn Văn An,VN\n"
        "Tarō,Yamada,山田 太郎,JP\n"
    ).encode()
    preview = services.import_players(tournament, data, "players.csv", user=organiser)
    assert preview.ok, preview.errors
    parts = {p.name: (p.first_name, p.last_name, p.native_name) for p in tournament.players.all()}
    assert parts == {
        "Dunlaith O Briain": ("Dunlaith", "O Briain", ""),
        "An Nguyen Van": ("An", "Nguyen Van", "Nguyễn Văn An"),
        "Tarō Yamada": ("Tarō", "Yamada", "山田 太郎"),
    }
    single = services.register_player(tournament, organiser, name="Maria de la Cruz")
    assert (single.first_name, single.last_name) == ("Maria", "de la Cruz")  # particle: last name
    guessed = services.register_player(tournament, organiser, name="José García López")
    assert (guessed.first_name, guessed.last_name) == ("", "")  # never split at a guess


@pytest.mark.django_db
def test_substitutes_registered_but_not_checked_in_are_to_check_in_not_to_register(
    client: Any, tournament: Tournament, organiser: Any
) -> None:
    """Two players checked in need two substitutes; the two registered are not checked in yet: the plan
    counts them and says to check them in, and only a shortfall beyond them asks for more."""
    for player in make_players(tournament, 2):
        services.check_in(player, user=organiser)
    make_players(tournament, 2, prefix="Sub", is_substitute=True)
    plan = services.check_in_plan(tournament)
    assert (plan.substitutes_needed, plan.substitutes_available, plan.short_of_substitutes) == (2, 0, 2)
    assert (plan.substitutes_not_checked_in, plan.substitutes_to_check_in, plan.substitutes_to_register) == (
        2,
        2,
        0,
    )
    client.force_login(organiser)
    page = " ".join(client.get(f"/t/{tournament.slug}/manage/check-in/").content.decode().split())
    assert "2 substitutes complete the last table; 0 available. 1 table plays." in page
    assert "2 substitutes are registered but not checked in yet: check them in" in page
    assert "register more substitutes" not in page and "tables)" not in page
    # The seating refuses the field in the same words: one table, not "1 tables".
    with pytest.raises(Refusal) as refused:
        services.seating_field(tournament)
    needs = "2 players need 2 substitutes to fill 1 table; only 0 checked in available"
    assert needs in refused.value.message
    # Two players more: four substitutes needed, two of them still to register.
    for player in make_players(tournament, 2, prefix="Late"):
        services.check_in(player, user=organiser)
    plan = services.check_in_plan(tournament)
    assert (plan.substitutes_to_check_in, plan.substitutes_to_register) == (0, 0)  # 4 players: one table
    for player in make_players(tournament, 1, prefix="Last"):
        services.check_in(player, user=organiser)
    plan = services.check_in_plan(tournament)
    assert (plan.substitutes_needed, plan.substitutes_to_check_in, plan.substitutes_to_register) == (3, 2, 1)
    page = " ".join(client.get(f"/t/{tournament.slug}/manage/check-in/").content.decode().split())
    assert "2 substitutes are registered but not checked in yet: check them in" in page
    assert "1 short: register more substitutes" in page
