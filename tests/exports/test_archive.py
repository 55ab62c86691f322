"""The tournament archive: everything in, everything out, the same bytes after a round trip."""

from __future__ import annotations

import io
import json
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError

from exports.archive import rows as archive_rows
from exports.archive.dump import export_archive
from exports.archive.fields import FORMAT
from exports.archive.load import import_archive
from penalties.models import Disqualification, Penalty
from scoring import services as sheets
from scoring.models import ScoreSheet, SeatResult, SheetVersion
from tests.conftest import make_players
from tournament.core.refusal import Refusal
from tournament.models import (
    Absence,
    Person,
    Player,
    Round,
    Seat,
    SeatingJob,
    Series,
    StaffRole,
    Table,
    Tournament,
)
from tournament.queries.standings_db import load_standings, serialize


def counts(tournament: Tournament) -> dict[str, int]:
    return {
        "players": Player.objects.filter(tournament=tournament).count(),
        "staff": StaffRole.objects.filter(tournament=tournament).count(),
        "rounds": Round.objects.filter(tournament=tournament).count(),
        "tables": Table.objects.filter(round__tournament=tournament).count(),
        "seats": Seat.objects.filter(round__tournament=tournament).count(),
        "sheets": ScoreSheet.objects.filter(table__round__tournament=tournament).count(),
        "results": SeatResult.objects.filter(sheet__table__round__tournament=tournament).count(),
        "versions": SheetVersion.objects.filter(sheet__table__round__tournament=tournament).count(),
        "absences": Absence.objects.filter(round__tournament=tournament).count(),
        "seating_jobs": SeatingJob.objects.filter(tournament=tournament).count(),
        "penalties": Penalty.objects.filter(tournament=tournament).count(),
        "disqualifications": Disqualification.objects.filter(player__tournament=tournament).count(),
    }


TENHOU = Path(__file__).resolve().parent.parent / "data" / "tenhou"


def read_a_log(tournament: Tournament) -> None:
    """Hanchan 2, table 2's draft replaced by an online game's log that seated the table otherwise: a
    head referee accepts its seats (the winds re-seated, audited); the version keeps the log's findings."""
    table = Table.objects.get(round__tournament=tournament, round__number=2, number=2)
    log = (TENHOU / "online-rules.json").read_bytes()
    names = ["Łukasz Nowak", "Ben", "Dai", "Chloé Martin"]  # the log's East is the table's South
    mapping = dict(zip(json.loads(log)["name"], names, strict=True))
    head = get_user_model().objects.get(username="head")
    sheets.sheet_from_log(table, log, head, mapping=mapping, expected_version=1, reseat_winds=True)


def shift_primary_keys() -> None:
    """Another tournament first, so that the imported rows get other primary keys than the originals."""
    other = Tournament.objects.create(
        name="Other", slug="other", starts_on=date(2026, 1, 1), ends_on=date(2026, 1, 1), hanchan_count=1
    )
    players = make_players(other, 13)
    round_ = Round.objects.create(tournament=other, number=1)
    table = Table.objects.create(round=round_, number=1)
    Seat.objects.bulk_create(Seat(table=table, round=round_, wind=w, player=players[w]) for w in range(4))


@pytest.mark.django_db
def test_the_archive_holds_everything_in_the_documented_format(played: Tournament) -> None:
    archive = json.loads(export_archive(played))
    assert archive["format"] == FORMAT and archive["version"] == 1
    assert set(archive) == {
        "format",
        "version",
        "tournament",
        "users",
        "staff",
        "players",
        "rounds",
        "absences",
        "seating_jobs",
        "penalties",
        "disqualifications",
        "audit",
        "phases",
    }
    assert archive["tournament"]["slug"] == "test-open" and archive["tournament"]["starts_on"] == "2026-05-01"
    assert [u["username"] for u in archive["users"]] == ["ana", "head", "organiser", "referee"]
    assert not any("password" in user for user in archive["users"])
    assert {(s["user"], s["role"]) for s in archive["staff"]} == {
        ("head", "head_referee"),
        ("organiser", "organiser"),
        ("referee", "referee"),
    }
    assert [p["name"] for p in archive["players"]][:2] == ["Ana", "Ben"]  # registration order
    assert archive["players"][0]["user"] == "ana" and archive["players"][1]["status"] == "checked_in"
    first = archive["rounds"][0]
    assert first["clock_state"] == "running" and first["clock_remaining"] == 90 * 60.0
    assert first["clock_ends_at"].endswith("+00:00")
    table = first["tables"][0]
    assert table["seats"][0] == {"wind": 0, "player": "Ana", "replaces": None}
    sheet = table["score_sheet"]
    assert sheet["status"] == "signed" and sheet["signed_by"] == "referee"
    assert sheet["results"][0] == {
        "wind": 0,
        "player": "Ana",
        "points": 37400,
        "rank": 1,
        "uma": "15.00",
        "score": "22.40",
    }
    assert [v["action"] for v in sheet["versions"]] == ["submitted", "signed"]
    corrected = archive["rounds"][1]["tables"][0]["score_sheet"]
    assert [v["action"] for v in corrected["versions"]] == ["submitted", "signed", "corrected"]
    assert corrected["versions"][-1]["reason"] == "misread a stick"
    assert archive["rounds"][1]["tables"][0]["seats"][2] == {
        "wind": 2,
        "player": "Sam Sub",
        "replaces": "Eve",
    }
    assert archive["absences"] == [
        {
            "round": 2,
            "player": "Eve",
            "reason": "absent",
            "substitute": "Sam Sub",
            "recorded_by": "organiser",
            "recorded_at": archive["absences"][0]["recorded_at"],
        }
    ]
    kinds = [(p["player"], p["kind"], p["points"], p["revoked_at"] is not None) for p in archive["penalties"]]
    assert kinds == [
        ("Cho", "chombo", "20.00", False),
        ("Eve", "missed_hanchan", "30.00", False),
        ("Ben", "lateness", "4.00", True),
    ]
    assert archive["penalties"][0]["sheet"] == [1, 1] and archive["penalties"][0]["hand"] == 7
    assert archive["penalties"][2]["revoked_by"] == "head"
    assert archive["disqualifications"][0]["player"] == "Dai"
    assert archive["seating_jobs"][0]["report"] == {"repeat_pairs": 0, "wind_balance": 0.25}


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("copy", [True, False], ids=["copy", "bulk_create"])
def test_export_flush_import_export_gives_the_same_bytes(
    played: Tournament, copy: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(archive_rows, "COPY_ON_POSTGRESQL", copy)
    read_a_log(played)
    data = export_archive(played)
    archive = json.loads(data)
    from_log = archive["rounds"][1]["tables"][1]
    assert [seat["player"] for seat in from_log["seats"]] == ["Łukasz Nowak", "Ben", "Dai", "Chloé Martin"]
    findings = [version["findings"] for version in from_log["score_sheet"]["versions"]]
    assert findings[0] is None and {f["rule"] for f in findings[1]} >= {"kiriage (WRCR 2015 §6.1)"}
    assert "seating.reseat_winds" in [entry["action"] for entry in archive["audit"]]
    before = counts(played)
    standings = serialize(load_standings(played.pk))
    call_command("flush", interactive=False, verbosity=0)
    assert not Tournament.objects.exists() and not get_user_model().objects.exists()
    shift_primary_keys()

    imported = import_archive(data)
    assert imported.pk != played.pk
    assert export_archive(imported) == data
    assert counts(imported) == before
    rows = serialize(load_standings(imported.pk))["rows"]
    strip = ("player",)
    assert [{k: v for k, v in r.items() if k not in strip} for r in rows] == [
        {k: v for k, v in r.items() if k not in strip} for r in standings["rows"]
    ]
    referee = get_user_model().objects.get(username="referee")
    assert not referee.has_usable_password()


@pytest.mark.django_db
def test_an_existing_slug_is_refused_and_nothing_is_created(played: Tournament) -> None:
    data = export_archive(played)
    before = Player.objects.count()
    with pytest.raises(Refusal, match="a tournament with the slug 'test-open' exists already"):
        import_archive(data)
    assert Player.objects.count() == before


@pytest.mark.django_db
def test_import_under_another_slug_keeps_existing_users_and_copies_everything(played: Tournament) -> None:
    data = export_archive(played)
    users = get_user_model().objects.count()
    copy = import_archive(data, slug="test-open-copy")
    assert get_user_model().objects.count() == users
    assert counts(copy) == counts(played)
    again = json.loads(export_archive(copy))
    original = json.loads(data)
    assert again["tournament"].pop("slug") == "test-open-copy"
    original["tournament"].pop("slug")
    assert again == original


@pytest.mark.django_db
def test_persons_and_series_stay_out_of_one_events_archive(played: Tournament) -> None:
    """A person and a series are the site's, across events: the archive of one event is the same with
    its registrations linked to persons and the event in a series, and its import links no one and joins
    no series (docs/series.md, "The archive")."""
    before = export_archive(played)
    person = Person.objects.create(name="Ana", ema_id="10990001")
    Player.objects.filter(tournament=played, name="Ana").update(person=person)
    series = Series.objects.create(name="Season", slug="season")
    series.tournaments.set([played])
    assert export_archive(played) == before
    persons = Person.objects.count()
    copy = import_archive(before, slug="test-open-copy")
    assert not copy.players.exclude(person=None).exists() and not copy.series.exists()
    assert Person.objects.count() == persons
    again = json.loads(export_archive(copy))
    again["tournament"]["slug"] = "test-open"
    assert again == json.loads(before)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"not json", "not a tournament archive: the file is not JSON"),
        (b'{"format": "something else"}', 'not a tournament archive: "format" is not'),
        (b'{"format": "riichi-tournament-archive", "version": 2}', "archive version 2 is not supported"),
        (b'{"format": "riichi-tournament-archive", "version": 1}', "missing field 'tournament'"),
    ],
)
def test_a_broken_archive_is_refused_with_a_reason(content: bytes, message: str) -> None:
    with pytest.raises(Refusal, match=message):
        import_archive(content)


@pytest.mark.django_db
def test_a_reference_to_an_unlisted_player_is_refused(played: Tournament) -> None:
    archive: dict[str, Any] = json.loads(export_archive(played))
    archive["tournament"]["slug"] = "broken"
    archive["rounds"][0]["tables"][0]["seats"][0]["player"] = "Nobody"
    with pytest.raises(Refusal, match="player 'Nobody' is referenced"):
        import_archive(archive)
    assert not Tournament.objects.filter(slug="broken").exists()


@pytest.mark.django_db(transaction=True)
def test_the_commands_export_and_import_an_archive(played: Tournament, tmp_path: Path) -> None:
    path = tmp_path / "archive.json"
    call_command("export_archive", "test-open", "-o", str(path))
    data = path.read_bytes()
    assert data == export_archive(played)
    with pytest.raises(CommandError, match="exists already"):
        call_command("import_archive", str(path))
    with pytest.raises(CommandError, match="no tournament has the slug 'nope'"):
        call_command("export_archive", "nope")
    call_command("flush", interactive=False, verbosity=0)
    out = io.StringIO()
    call_command("import_archive", str(path), stdout=out)
    assert "Imported Test Open (test-open): 9 players, 2 hanchan, 4 tables." in out.getvalue()
    call_command("export_archive", "test-open", "-o", str(tmp_path / "again.json"))
    assert (tmp_path / "again.json").read_bytes() == data
