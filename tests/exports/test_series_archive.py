"""A series' archive: the series, its tournaments' archives and its persons in one file; the same bytes
after a round trip through an empty site, persons matched by EMA id on a site that has them, and a
refusal that leaves nothing behind."""

from __future__ import annotations

import copy
import io
import json
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client

from exports import services as export_services
from exports.archive.dump import build_archive
from exports.archive.series import export_series_archive, import_series_archive
from tests.conftest import make_user
from tests.series.helpers import FIRST, SECOND, played
from tournament import services
from tournament.core.refusal import Refusal
from tournament.models import AuditEntry, Person, Player, Series, SeriesExportJob, Tournament
from tournament.queries.series_db import person_events, series_table
from tournament.services import persons

State = SeriesExportJob.State
SLUGS = ["spring", "autumn", "closed"]


@pytest.fixture
def season(settings: Any, tmp_path: Path) -> Series:
    """Spring (FIRST), Autumn (SECOND then FIRST) and a private Closed Cup (FIRST), ranked by points per
    rank, made by a curator who organises all three. Ana, Ben, Cho and Dai have EMA ids (a person each);
    Eve has none and the organisers link her two registrations by hand (audited); Fay is in no person."""
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    spring, spring_organiser = played("spring", FIRST)
    autumn, autumn_organiser = played("autumn", SECOND, FIRST, day=2)
    closed, _ = played("closed", FIRST, day=3, is_public=False)
    eve = services.register_player(spring, spring_organiser, name="Eve", native_name="イヴ", country="JP")
    services.register_player(spring, spring_organiser, name="Fay")
    eve_again = services.register_player(autumn, autumn_organiser, name="Eve", country="JP")
    person = persons.new_person(eve, spring_organiser)
    persons.confirm_match(eve_again, person, autumn_organiser)
    curator = make_user("curator")
    for tournament in (spring, autumn, closed):
        tournament.staff.create(user=curator, role="organiser")
    series = Series.objects.create(
        name="Season",
        slug="season",
        rule=Series.Rule.POINTS_PER_RANK,
        points=["10", "6", "3", "1"],
        awards=["most_wins"],
        created_by=curator,
    )
    series.tournaments.set([spring, autumn, closed])
    return series


def standings(series: Series) -> dict[str, Any]:
    """The series' standings with events named by slug and persons by EMA id and name (no primary key)."""
    table = series_table(series)
    slug_of = {event["id"]: event["slug"] for event in table["events"]}
    person_of = {p.pk: (p.ema_id, p.name) for p in Person.objects.all()}
    return {
        "events": [{k: v for k, v in event.items() if k != "id"} for event in table["events"]],
        "rows": [
            {
                **row,
                "person": person_of.get(row["person"]),
                "results": [{**r, "event": slug_of[r["event"]]} for r in row["results"]],
            }
            for row in table["rows"]
        ],
    }


def events_of(ema_id: str | None = None, name: str | None = None) -> list[tuple[str, Any, str, int]]:
    """A person's events as the public sees them on their page: slug, rank, total, hanchan."""
    person = Person.objects.get(ema_id=ema_id) if ema_id else Person.objects.get(name=name)
    events, _ = person_events(person, None)
    return [(e["tournament"].slug, e["rank"], e["total"], e["played"]) for e in events]


def renamed(archive: dict[str, Any], suffix: str) -> dict[str, Any]:
    """The archive with the series' and every tournament's slug given ``suffix``."""
    archive = copy.deepcopy(archive)
    archive["series"]["slug"] += suffix
    for tournament in archive["tournaments"]:
        tournament["tournament"]["slug"] += suffix
    for person in archive["persons"]:
        person["registrations"] = [[slug + suffix, name] for slug, name in person["registrations"]]
    return archive


def stored() -> dict[str, int]:
    return {
        "series": Series.objects.count(),
        "tournaments": Tournament.objects.count(),
        "players": Player.objects.count(),
        "persons": Person.objects.count(),
        "users": get_user_model().objects.count(),
        "audit": AuditEntry.objects.count(),
    }


@pytest.mark.django_db
def test_the_series_archive_holds_the_series_its_tournaments_and_its_persons(season: Series) -> None:
    archive = json.loads(export_series_archive(season))
    assert set(archive) == {"format", "version", "series", "users", "tournaments", "persons"}
    assert (archive["format"], archive["version"]) == ("riichi-series-archive", 1)
    assert archive["series"] | {"created_at": None} == {
        "name": "Season",
        "slug": "season",
        "rule": "points_per_rank",
        "best_n": None,
        "min_events": None,
        "points": ["10", "6", "3", "1"],
        "awards": ["most_wins"],
        "created_at": None,
        "created_by": "curator",
    }
    assert archive["users"] == [{"username": "curator", "first_name": "", "last_name": ""}]
    # Each tournament's archive exactly as its own export writes it, by first day.
    tournaments = [Tournament.objects.get(slug=slug) for slug in SLUGS]
    assert archive["tournaments"] == [json.loads(json.dumps(build_archive(t))) for t in tournaments]
    # The persons in the order of their first registration; Fay is in none.
    assert [(p["name"], p["ema_id"], p["registrations"]) for p in archive["persons"]] == [
        ("Ana", "10990001", [["spring", "Ana"], ["autumn", "Ana"], ["closed", "Ana"]]),
        ("Ben", "10990002", [["spring", "Ben"], ["autumn", "Ben"], ["closed", "Ben"]]),
        ("Cho", "10990003", [["spring", "Cho"], ["autumn", "Cho"], ["closed", "Cho"]]),
        ("Dai", "10990004", [["spring", "Dai"], ["autumn", "Dai"], ["closed", "Dai"]]),
        ("Eve", "", [["spring", "Eve"], ["autumn", "Eve"]]),
    ]
    assert archive["persons"][4]["native_name"] == "イヴ" and archive["persons"][4]["country"] == "JP"
    # The organisers' linking of Eve is in each tournament's audit, as it is on the site.
    audit = [e["action"] for e in archive["tournaments"][1]["audit"]]
    assert "person.link" in audit


@pytest.mark.django_db(transaction=True)
def test_export_wipe_import_gives_the_same_bytes_standings_and_persons_events(season: Series) -> None:
    data = export_series_archive(season)
    before = standings(season)
    ana_before, eve_before = events_of("10990001"), events_of(name="Eve")
    assert [slug for slug, *_ in ana_before] == ["autumn", "spring"]  # the public's: Closed is private
    assert before["rows"][0]["score"] != "0"
    call_command("flush", interactive=False, verbosity=0)
    # Other rows first, so that the imported ones get other primary keys (and no cached table is reused).
    Tournament.objects.create(
        name="Other", slug="other", starts_on=date(2026, 1, 1), ends_on=date(2026, 1, 1), hanchan_count=1
    )
    Series.objects.create(name="Other", slug="other")
    Person.objects.create(name="Someone")
    series = import_series_archive(data)
    assert export_series_archive(series) == data
    assert standings(series) == before
    assert events_of("10990001") == ana_before and events_of(name="Eve") == eve_before
    assert sorted(series.tournaments.values_list("slug", flat=True)) == sorted(SLUGS)
    assert series.created_by is not None and not series.created_by.has_usable_password()
    assert not Player.objects.get(tournament__slug="spring", name="Fay").person_id


@pytest.mark.django_db
def test_a_site_that_has_a_person_keeps_it_and_their_history_reconnects(season: Series) -> None:
    """Imported beside the original (other slugs): the persons with EMA ids are the site's, left as they
    are, and each gains the imported events; Eve, without one, is a new person."""
    archive = renamed(json.loads(export_series_archive(season)), "-copy")
    archive["persons"][0]["name"] = "Ana in the archive"
    ana = Person.objects.get(ema_id="10990001")
    count = Person.objects.count()
    series = import_series_archive(archive)
    assert Person.objects.count() == count + 1  # Eve again; the four with EMA ids matched
    ana.refresh_from_db()
    assert ana.name == "Ana"
    assert Player.objects.filter(person=ana).count() == 6
    assert [slug for slug, *_ in events_of("10990001")] == ["autumn", "autumn-copy", "spring", "spring-copy"]
    eves = Person.objects.filter(name="Eve").order_by("pk")
    assert [p.registrations.count() for p in eves] == [2, 2]
    assert standings(series)["rows"] == [
        {**row, "results": [{**r, "event": r["event"] + "-copy"} for r in row["results"]]}
        for row in standings(season)["rows"]
    ]


@pytest.mark.django_db
def test_existing_slugs_are_refused_by_name_and_nothing_is_stored(season: Series) -> None:
    archive = json.loads(export_series_archive(season))
    before = stored()
    with pytest.raises(Refusal, match="a series with the slug 'season' exists already"):
        import_series_archive(archive)
    archive["series"]["slug"] = "season-2"
    with pytest.raises(
        Refusal, match="tournaments with the slugs 'autumn', 'closed', 'spring' exist already"
    ):
        import_series_archive(archive)
    assert stored() == before


@pytest.mark.django_db
def test_a_refusal_after_the_tournaments_are_in_leaves_nothing_stored(season: Series) -> None:
    """The last person names a player no tournament has: refused once every tournament is imported, and
    the one transaction takes them back (tournaments, players, users, audit, persons, the series)."""
    archive = renamed(json.loads(export_series_archive(season)), "-copy")
    archive["persons"][-1]["registrations"].append(["autumn-copy", "Nobody"])
    before = stored()
    with pytest.raises(Refusal) as refused:
        import_series_archive(archive)
    problem = refused.value.problems[0]
    assert (problem.field, problem.rule) == ("archive", "series-archive")
    assert problem.message == (
        "persons.4.registrations: ['autumn-copy', 'Nobody'] names no player of the archive's tournaments"
    )
    assert stored() == before
    assert not Tournament.objects.filter(slug__endswith="-copy").exists()


def broken(archive: dict[str, Any], change: str) -> dict[str, Any] | bytes:
    archive = renamed(archive, "-copy")
    if change == "no tournaments":
        del archive["tournaments"]
    elif change == "a tournament without rounds":
        del archive["tournaments"][1]["rounds"]
    elif change == "best_n without N":
        archive["series"]["rule"] = "best_n"
    elif change == "an unknown award":
        archive["series"]["awards"] = ["most_naps"]
    elif change == "an EMA id twice":
        archive["persons"][1]["ema_id"] = archive["persons"][0]["ema_id"]
    elif change == "a bad EMA id":
        archive["persons"][4]["ema_id"] = "12"
    elif change == "a registration of another EMA id":
        archive["persons"][0]["registrations"].append(["spring-copy", "Ben"])
    elif change == "an EMA id under a person without one":
        archive["persons"][0]["ema_id"] = ""  # would be a second Ana beside the site's
    elif change == "a slug a page uses":
        archive["series"]["slug"] = "new"
    elif change == "a tournament's bad country":
        archive["tournaments"][1]["players"][2]["country"] = "ZZZ"
    return archive


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("change", "message"),
    [
        ("no tournaments", "the series archive's 'tournaments' is missing or not a list"),
        (
            "a tournament without rounds",
            "tournaments[1] (autumn-copy): the archive could not be imported: missing field 'rounds'",
        ),
        ("best_n without N", "series.best_n: the best-N rule counts the best N events"),
        ("an unknown award", "series.awards: Awards: most_naps is not an award."),
        ("an EMA id twice", "persons.1: the EMA id 10990001 is persons.0's too"),
        ("a bad EMA id", "persons.4.ema_id: An EMA id is exactly 8 digits"),
        (
            "a registration of another EMA id",
            "persons.0.registrations: Ben of spring-copy has the EMA id 10990002, the person 10990001",
        ),
        (
            "an EMA id under a person without one",
            "persons.0.registrations: Ana of spring-copy has the EMA id 10990001, the person has none",
        ),
        ("a slug a page uses", "series.slug: new is the address of a page of the series"),
        ("a tournament's bad country", "tournaments[1] (autumn-copy): players.2.country: "),
    ],
)
def test_a_malformed_series_archive_is_refused_naming_what_is_wrong(
    season: Series, change: str, message: str
) -> None:
    archive = broken(json.loads(export_series_archive(season)), change)
    before = stored()
    with pytest.raises(Refusal) as refused:
        import_series_archive(archive)
    assert refused.value.problems[0].message.startswith(message), refused.value.problems[0].message
    assert stored() == before


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("change", "field", "rule"),
    [
        ("a slug a page uses", "series.slug", "series-slug"),
        ("a tournament's bad country", "tournaments.1.players.2.country", "invalid_choice"),
    ],
)
def test_a_value_at_fault_is_named_by_its_path_in_the_series_archive(
    season: Series, change: str, field: str, rule: str
) -> None:
    archive = broken(json.loads(export_series_archive(season)), change)
    with pytest.raises(Refusal) as refused:
        import_series_archive(archive)
    assert (refused.value.field, refused.value.rule) == (field, rule)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"not json", "not a series archive: the file is not JSON"),
        (b'{"format": "riichi-tournament-archive", "version": 1}', 'not a series archive: "format" is not'),
        (b'{"format": "riichi-series-archive", "version": 2}', "series archive version 2 is not supported"),
    ],
)
def test_a_file_that_is_no_series_archive_is_refused(content: bytes, message: str) -> None:
    with pytest.raises(Refusal, match=message) as refused:
        import_series_archive(content)
    assert refused.value.problems[0].rule == "series-archive"


@pytest.mark.django_db
def test_the_commands_export_and_import_a_series(season: Series, tmp_path: Path) -> None:
    path = tmp_path / "season.json"
    call_command("export_archive", "--series", "season", "-o", str(path))
    assert path.read_bytes() == export_series_archive(season)
    with pytest.raises(CommandError, match="exists already"):
        call_command("import_archive", str(path))
    with pytest.raises(CommandError, match="no series has the slug 'nope'"):
        call_command("export_archive", "--series", "nope")
    with pytest.raises(CommandError, match="one of the two"):
        call_command("export_archive", "spring", "--series", "season")
    copy_path = tmp_path / "copy.json"
    copy_path.write_text(json.dumps(renamed(json.loads(path.read_bytes()), "-copy")))
    with pytest.raises(CommandError, match="--slug renames one tournament"):
        call_command("import_archive", str(copy_path), "--slug", "other")
    out = io.StringIO()
    call_command("import_archive", str(copy_path), stdout=out)
    assert out.getvalue().splitlines()[:2] == [
        "Imported the series Season (season-copy): 3 tournaments (spring-copy, autumn-copy, closed-copy), "
        "5 persons.",
        "Imported Spring Cup (spring-copy): 6 players, 1 hanchan, 1 tables.",
    ]


@pytest.mark.django_db
def test_the_series_archive_in_the_background_for_its_curator_only(
    season: Series, django_capture_on_commit_callbacks: Any
) -> None:
    """Offered on the series' exports page to whoever may change the series and organises every one of its
    tournaments; produced by the task as the command writes it; refused to anyone else, a tournament's
    organiser included, at the request, the status and the download."""
    curator = get_user_model().objects.get(username="curator")
    organiser = get_user_model().objects.get(username="organiser-spring")
    anonymous, other = Client(), Client()
    other.force_login(organiser)
    for client in (anonymous, other):
        page = client.get("/series/season/exports/").content.decode()
        assert "series_standings_xlsx" in page and "series_archive_json" not in page
        answer = client.post("/series/season/exports/series_archive_json/", HTTP_ACCEPT="application/json")
        assert answer.status_code == 403
    with pytest.raises(PermissionDenied):
        export_services.request_series_export(season, organiser, "series_archive_json")
    client = Client()
    client.force_login(curator)
    assert "series_archive_json" in client.get("/series/season/exports/").content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post("/series/season/exports/series_archive_json/", HTTP_ACCEPT="application/json")
    assert answer.status_code == 202
    status = client.get(answer.json()["status_url"]).json()
    assert status["state"] == "done" and status["filename"] == "season-series-archive.json"
    download = client.get(status["download_url"])
    assert download.status_code == 200 and download["Cache-Control"] == "private, no-store"
    assert b"".join(download.streaming_content) == export_series_archive(season)
    assert other.get(status["status_url"]).status_code == 403
    assert other.get(status["download_url"]).status_code == 403
    assert anonymous.get(status["download_url"]).status_code == 403
    # A curator who no longer organises one of the tournaments: the task refuses the job.
    Tournament.objects.get(slug="closed").staff.filter(user=curator).delete()
    offered = [e.identifier for e in export_services.series_exporters_for(season, curator)]
    assert "series_archive_json" not in offered
    job = SeriesExportJob.objects.create(series=season, exporter="series_archive_json", requested_by=curator)
    job = export_services.run_series_export_job(job.pk)
    assert job.state == State.FAILED and "no longer has the permission" in job.error
