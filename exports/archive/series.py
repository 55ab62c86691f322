"""A series' archive: the series, each of its tournaments' archives and the persons its players link to,
in one JSON file (docs/exports.md, "The series archive").

The tournaments are written by ``dump.build_archive`` and read back by ``load.import_archive``, each
exactly as a tournament's own archive: the series archive holds them, it does not copy their format. What
it adds is what one event's archive leaves out, being the site's rather than one event's: the series
(its settings, its creator) and the persons. A person has no natural key of its own, so each is written
with its registrations, ``[tournament slug, player name]``, the natural key of a player in the archive;
persons come in the order of their first registration (tournaments by date and slug, players in
registration order), so the same data gives the same bytes on any site.

Importing is one transaction, all of it or nothing: refused when the series' slug or any of its
tournaments' slugs exists on the site (each named); otherwise every tournament is imported as its own
archive would be, each person is matched by EMA id to the site's person with that id (kept as it is:
the person's history across events reconnects) or created, the players are linked to their persons and
the series is created with its tournaments.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction

from exports.archive.checks import check_names, field_refusal, within
from exports.archive.dump import Usernames, build_archive, dumped, encode
from exports.archive.fields import (
    PERSON_FIELDS,
    SERIES_ARCHIVE_FIELDS,
    SERIES_FORMAT,
    SERIES_VERSION,
)
from exports.archive.load import MALFORMED, find_users, import_archive, malformed, parse
from exports.archive.rows import loaded, timestamps_as_given
from exports.progress import Progress, no_progress
from tournament.core.refusal import Refusal
from tournament.models import SERIES_FIELDS, Person, Player, Series, Tournament
from tournament.services.series import check_series

BATCH = 2000


def series_refusal(message: str) -> Refusal:
    """A series archive refused: field ``archive``, rule ``series-archive``, and what is wrong."""
    return Refusal("archive", "series-archive", message)


def series_tournaments(series: Series) -> list[Tournament]:
    """The series' tournaments in the archive's order: by first day, then slug (the same on any site)."""
    return list(series.tournaments.order_by("starts_on", "slug"))


def build_series_archive(series: Series, progress: Progress = no_progress) -> dict[str, Any]:
    """The archive of a series as plain JSON-ready data (docs/exports.md, "The series archive")."""
    tournaments = series_tournaments(series)
    archives = []
    for index, tournament in enumerate(tournaments):

        def part(fraction: float, index: int = index) -> None:
            progress(0.9 * (index + fraction) / len(tournaments))

        archives.append(build_archive(tournament, part))
    # Each registration's place in the archive: its tournament's, then its own among the players.
    place = {
        (archive["tournament"]["slug"], player["name"]): (t_index, p_index)
        for t_index, archive in enumerate(archives)
        for p_index, player in enumerate(archive["players"])
    }
    registrations: dict[int, list[tuple[str, str]]] = {}
    shown: dict[int, set[tuple[str, str]]] = {}  # the EMA ids and countries the archive's events give
    linked = Player.objects.filter(tournament__in=tournaments, person__isnull=False).values_list(
        "person_id", "tournament__slug", "name", "ema_id", "country"
    )
    for person_id, slug, name, ema_id, country in linked:
        registrations.setdefault(person_id, []).append((slug, name))
        shown.setdefault(person_id, set()).update({("ema_id", ema_id), ("country", country)})
    persons = []
    for row in Person.objects.filter(pk__in=registrations).values("pk", *PERSON_FIELDS):
        row = _as_the_events_show(row, shown[row["pk"]])
        keys = sorted(registrations[row["pk"]], key=place.__getitem__)
        persons.append(
            (place[keys[0]], {**dumped(row, PERSON_FIELDS), "registrations": [list(k) for k in keys]})
        )
    persons.sort(key=lambda item: item[0])
    username = Usernames()
    data = Series.objects.filter(pk=series.pk).values().get()
    archive = {
        "format": SERIES_FORMAT,
        "version": SERIES_VERSION,
        "series": {**dumped(data, SERIES_ARCHIVE_FIELDS), "created_by": username(data["created_by_id"])},
        "tournaments": archives,
        "persons": [person for _, person in persons],
    }
    archive["users"] = username.listed()  # the users the series itself names (its tournaments list theirs)
    return archive


def _as_the_events_show(row: dict[str, Any], shown: set[tuple[str, str]]) -> dict[str, Any]:
    """A person's EMA id and country as the series' own events give them: each written only when one of
    the person's registrations in these events has it. The person's record may hold them from events of
    other organisers, which are not the archive's to carry (an EMA id is for a tournament's staff)."""
    return {
        **row,
        **{field: "" for field in ("ema_id", "country") if (field, str(row[field] or "")) not in shown},
    }


def export_series_archive(series: Series, progress: Progress = no_progress) -> bytes:
    data = encode(build_series_archive(series, progress))
    progress(1.0)
    return data


def decode_series(data: bytes | str | dict[str, Any]) -> dict[str, Any]:
    """The series archive's data, refused when it is not one (not JSON, another format or version, or
    without its lists)."""
    try:
        archive = parse(data, "a series archive")
    except Refusal as refusal:
        raise series_refusal(refusal.problems[0].message) from None
    if not isinstance(archive, dict) or archive.get("format") != SERIES_FORMAT:
        raise series_refusal(f'not a series archive: "format" is not "{SERIES_FORMAT}"')
    if archive.get("version") != SERIES_VERSION:
        raise series_refusal(
            f"series archive version {archive.get('version')!r} is not supported "
            f"(this version reads {SERIES_VERSION})"
        )
    for key, kind in (("series", dict), ("tournaments", list), ("persons", list), ("users", list)):
        if not isinstance(archive.get(key), kind):
            what = "an object" if kind is dict else "a list"
            raise series_refusal(f"the series archive's {key!r} is missing or not {what}")
    return archive


def import_series_archive(data: bytes | str | dict[str, Any]) -> Series:
    """Create the archived series, its tournaments and persons (matched by EMA id), all of it or nothing."""
    archive = decode_series(data)
    try:
        with transaction.atomic():
            return _import(archive)
    except MALFORMED as exc:
        raise series_refusal(f"the series archive could not be imported: {malformed(exc)}") from exc


def _slug_of(index: int, tournament: Any) -> str:
    try:
        slug = tournament["tournament"]["slug"]
    except (KeyError, TypeError):
        slug = None
    if not isinstance(slug, str) or not slug:
        raise series_refusal(f"tournaments[{index}]: not a tournament archive (no tournament.slug)")
    return slug


def _quoted(slugs: Iterable[str]) -> str:
    return ", ".join(repr(slug) for slug in slugs)


def _check_slugs(series_slug: Any, slugs: list[str]) -> None:
    """Refused, naming them, when the series' slug or tournaments' slugs are on the site already (or a
    tournament is twice in the archive)."""
    twice = sorted({slug for slug in slugs if slugs.count(slug) > 1})
    if twice:
        raise series_refusal(f"tournaments: {_quoted(twice)} appear more than once in the series archive")
    if Series.objects.filter(slug=series_slug).exists():
        raise series_refusal(
            f"a series with the slug {series_slug!r} exists already; import the series archive into a site "
            "without it"
        )
    taken = sorted(Tournament.objects.filter(slug__in=slugs).values_list("slug", flat=True))
    if taken:
        noun = "a tournament with the slug" if len(taken) == 1 else "tournaments with the slugs"
        raise series_refusal(
            f"{noun} {_quoted(taken)} exist{'s' if len(taken) == 1 else ''} already; import the series "
            "archive into a site without them"
        )


def _series(row: dict[str, Any], users: dict[str, Any]) -> Series:
    """The archived series, checked as the series' form and API check it (``check_series``: its name, its
    slug, its rule and parameter, its points, its awards)."""
    values = loaded(Series, row, SERIES_ARCHIVE_FIELDS, "series")
    creator = row["created_by"]
    if creator is not None and creator not in users:
        raise series_refusal(f"series.created_by: user {creator!r} is not listed in the archive's users")
    series = Series(
        created_at=values["created_at"], created_by=users[creator] if creator is not None else None
    )
    try:
        check_series(series, {name: values[name] for name in SERIES_FIELDS})
    except Refusal as refusal:
        raise within("series", refusal) from None
    except ValidationError as error:
        field, messages = next(iter(error.message_dict.items()))
        raise field_refusal(f"series.{field}", "invalid", messages[0]) from None
    return series


def in_tournament(index: int, slug: str, refusal: Refusal) -> Refusal:
    """A refusal of the series' tournament ``index``: a value at fault named inside the series archive
    (``tournaments.1.players.3.country``), the message saying which tournament."""
    problem = refusal.problems[0]
    field = "archive" if problem.field == "archive" else f"tournaments.{index}.{problem.field}"
    refused = Refusal.of(
        [
            dataclasses.replace(
                problem,
                field=field,
                rule="series-archive" if field == "archive" else problem.rule,
                message=f"tournaments[{index}] ({slug}): {problem.message}",
            )
        ],
        status=refusal.status,
    )
    return refused


def _import(archive: dict[str, Any]) -> Series:
    rows = archive["tournaments"]
    slugs = [_slug_of(index, row) for index, row in enumerate(rows)]
    _check_slugs(archive["series"]["slug"], slugs)
    users = find_users(archive)
    series = _series(archive["series"], users)
    tournaments = []
    for index, (slug, row) in enumerate(zip(slugs, rows, strict=True)):
        try:
            tournaments.append(import_archive(row))
        except Refusal as refusal:
            raise in_tournament(index, slug, refusal) from None
    players = {
        (slug, name): (pk, ema_id)
        for slug, name, pk, ema_id in Player.objects.filter(tournament__in=tournaments).values_list(
            "tournament__slug", "name", "pk", "ema_id"
        )
    }
    with timestamps_as_given(Series, Person):
        links = _persons(archive["persons"], players)
        series.save()
        series.tournaments.set(tournaments)
    Player.objects.bulk_update(
        [Player(pk=pk, person_id=person.pk) for person, pks in links for pk in pks],
        ["person"],
        batch_size=BATCH,
    )
    return series


def _persons(
    rows: list[Any], players: dict[tuple[str, str], tuple[int, str]]
) -> list[tuple[Person, list[int]]]:
    """Each archived person, the site's person of its EMA id when there is one (left as it is), else
    created; with the primary keys of its players."""
    wanted = [row.get("ema_id") for row in rows if isinstance(row, dict) and row.get("ema_id")]
    known = {person.ema_id: person for person in Person.objects.filter(ema_id__in=wanted)}
    seen: dict[str, int] = {}
    linked: set[int] = set()
    links: list[tuple[Person, list[int]]] = []
    created: list[Person] = []
    for index, row in enumerate(rows):
        where = f"persons.{index}"
        values = loaded(Person, row, PERSON_FIELDS, where, index + 1)
        check_names(values, where, index + 1, ("name", "native_name"))
        ema_id = values["ema_id"]
        if ema_id and ema_id in seen:
            raise series_refusal(f"{where}: the EMA id {ema_id} is persons.{seen[ema_id]}'s too")
        if ema_id:
            seen[ema_id] = index
        person = known.get(ema_id) if ema_id else None
        if person is None:
            person = Person(**values)
            try:
                person.clean_fields()
            except ValidationError as error:
                field, messages = next(iter(error.message_dict.items()))
                raise series_refusal(f"{where}.{field}: {messages[0]}") from None
            created.append(person)
        registrations = row.get("registrations")
        if not isinstance(registrations, list) or not registrations:
            raise series_refusal(
                f"{where}.registrations: a list of [tournament slug, player name], not empty"
            )
        pks = []
        for key in registrations:
            pk = _registration(where, key, players, person)
            if pk in linked:
                raise series_refusal(f"{where}.registrations: {key!r} is another person's too")
            linked.add(pk)
            pks.append(pk)
        links.append((person, pks))
    Person.objects.bulk_create(created, batch_size=BATCH)
    return links


def _registration(
    where: str, key: Any, players: dict[tuple[str, str], tuple[int, str]], person: Person
) -> int:
    """The primary key of the imported player ``key`` names, refused when it names none or when its EMA
    id is not its person's (a registration with an EMA id belongs to the person of that id: under a
    person without one, it would make a second of the site's person)."""
    if not (isinstance(key, list) and len(key) == 2 and all(isinstance(part, str) for part in key)):
        raise series_refusal(f"{where}.registrations: {key!r} is not [tournament slug, player name]")
    found = players.get((key[0], key[1]))
    if found is None:
        raise series_refusal(f"{where}.registrations: {key!r} names no player of the archive's tournaments")
    pk, ema_id = found
    if ema_id and ema_id != person.ema_id:
        theirs = f"the person {person.ema_id}" if person.ema_id else "the person has none"
        raise series_refusal(f"{where}.registrations: {key[1]} of {key[0]} has the EMA id {ema_id}, {theirs}")
    return pk
