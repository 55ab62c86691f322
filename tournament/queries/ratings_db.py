"""The skill ratings (``tournament.ratings.skill``) of a tournament's players from its signed sheets'
places, limited to what the reader may see as ``statistics_db`` limits the sheets: ``up_to`` (no hanchan
still hidden) and ``rounds`` (published hanchan only); None for either: no limit (the staff). One query.

The order of play: the hanchan by number, then the tables by number (docs/ratings.md); each table's
places are the tournament's own (``SeatResult.rank``: players equal on points share a place)."""

from __future__ import annotations

import zlib
from collections.abc import Collection, Sequence
from dataclasses import asdict, dataclass, field, replace
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from django.core.cache import cache
from django.db.models import Q, QuerySet
from django.utils import timezone

from scoring.models import ScoreSheet, SeatResult
from tournament.models import Player, RatingHistory, RatingSnapshot, Series, Tournament
from tournament.queries.series_db import data_digest, public_only
from tournament.queries.standings_db import cached_summary, public_cutoff
from tournament.ratings.lists import (
    LeftOut,
    MersEvent,
    SeatRow,
    entrant,
    entrant_person,
    mers_places,
    mers_results,
    rated_games,
)
from tournament.ratings.mers import ranking_list, rounded
from tournament.ratings.skill import Ratings, Skill, rate


def skill_of(tournament: Tournament, *, up_to: int | None, rounds: Collection[int] | None) -> Ratings:
    results = SeatResult.objects.filter(
        sheet__table__round__tournament=tournament, sheet__status=ScoreSheet.Status.SIGNED
    )
    if up_to is not None:
        results = results.filter(sheet__table__round__number__lte=up_to)
    if rounds is not None:
        results = results.filter(sheet__table__round__number__in=list(rounds))
    rows: list[SeatRow] = [
        (tournament.pk, hanchan, table, player, rank)
        for hanchan, table, player, rank in results.order_by(
            "sheet__table__round__number", "sheet__table__number", "seat__wind"
        ).values_list("sheet__table__round__number", "sheet__table__number", "player", "rank")
    ]
    # A table that cannot be rated (an imported place outside 1 to 4, say) is left out of the page, as
    # of the site's lists (``lists.rated_games``), instead of failing it.
    return rate(rated_games(rows)[0])


# -- Rating lists across tournaments: the site's and a series' ---------------------------------------
#
# Only what the public sees counts, as in a series' standings (``series_db``): public tournaments only,
# each as of ``standings_db.public_cutoff`` (hidden hanchan and standings published as of the last
# completed hanchan). Everyone, staff included, sees the same list.
#
# The lists are recomputed from the results (about 50 us a table, benchmarks/bench_series.py) in the
# background (``tournament.services.ratings``), which stores each in a ``RatingSnapshot`` with the digest
# of everything it is made of (``series_db.data_digest``: each counted tournament's standings version,
# which every change of its results and registrations moves, its publication cut-off, dates and MERS
# inputs, and the day) and caches it under that digest. A page reads the list whose digest is the
# current one, from the cache or the table; after a change, the stored list, marked stale, until the
# recompute has stored the new one (``stored_list``).

LIST_SECONDS = 24 * 3600
# The results left out of a list that it keeps to show (a bad import may hold thousands): the first
# ones, and the count of all.
LEFT_OUT_KEPT = 100


@dataclass(frozen=True, slots=True)
class RatingList:
    """A rating list's entrants: the skill rating of each (``skill``: entrant, mu, sigma, hanchan, the
    highest ordinal first), the MERS ranking of the ranked (``mers``: entrant, ranking, results that
    count, the highest first), and the tournaments counted; when it was computed, and whether its data
    has changed since (``stale``); the results left out because they cannot be rated (``left_out``:
    the first ``LEFT_OUT_KEPT``, as ``ratings.lists.LeftOut`` dicts; ``left_out_count``: all of them);
    whether the last recompute of a newer list failed (``failing``: the list served is the last good
    one)."""

    scope: str
    digest: str
    as_of: date
    events: list[dict[str, Any]]
    skill: list[tuple[str, float, float, int]]
    mers: list[tuple[str, Decimal, int]]
    updated_at: datetime | None = None  # when it was computed
    stale: bool = False  # its data has changed since: a newer list is being computed
    left_out: list[dict[str, Any]] = field(default_factory=list)
    left_out_count: int = 0
    failing: bool = False

    def cached(self) -> tuple[Any, ...]:
        """What the cache keeps of the list under its digest (``from_cache`` reads it back)."""
        return (self.events, self.skill, self.mers, self.updated_at, self.left_out, self.left_out_count)

    @classmethod
    def from_cache(cls, scope: str, digest: str, as_of: date, found: tuple[Any, ...]) -> RatingList:
        events, skill, mers, updated_at, left_out, left_out_count = found
        return cls(scope, digest, as_of, events, skill, mers, updated_at, False, left_out, left_out_count)

    def skill_of(self, key: str) -> tuple[int, Skill, int] | None:
        """The entrant's place in the skill list, rating and hanchan; None when they played none."""
        for place, (who, mu, sigma, hanchan) in enumerate(self.skill, start=1):
            if who == key:
                return place, Skill(mu, sigma), hanchan
        return None

    def mers_of(self, key: str) -> tuple[int, Decimal, int] | None:
        """The entrant's place in the MERS ranking, their ranking and results; None when not ranked."""
        for place, (who, value, results) in enumerate(self.mers, start=1):
            if who == key:
                return place, value, results
        return None


def counted_events(tournaments: QuerySet[Tournament]) -> list[Tournament]:
    """The tournaments of ``tournaments`` the public sees (``series_db.public_only``), in the order of
    play of the skill rating: by first day, then id."""
    return list(public_only(tournaments).order_by("starts_on", "pk"))


SITE = "site"


def series_scope(series: Series) -> str:
    return f"series:{series.pk}"


def site_list(as_of: date | None = None) -> RatingList:
    """The site's rating list: every public tournament (as its data is now: ``rating_list``)."""
    return rating_list(SITE, Tournament.objects.all(), as_of)


def series_list(series: Series, as_of: date | None = None) -> RatingList:
    """A series' rating list: its public tournaments (as its data is now: ``rating_list``)."""
    return rating_list(series_scope(series), series.tournaments.all(), as_of)


def rating_list(scope: str, tournaments: QuerySet[Tournament], as_of: date | None = None) -> RatingList:
    """The rating list of ``tournaments`` (what the public sees of them) as its data is now: from the
    cache when its data has not changed, else computed here; MERS results count as on ``as_of`` (today,
    by default). For a caller that needs the current list whatever it costs; pages and the API read
    ``stored_list`` (through ``services.ratings.served_list``), which never computes."""
    return _rating_list(scope, tournaments, as_of or timezone.localdate())[0]


# Each entrant's history (their rating after each hanchan) is cached apart from the list, in buckets of
# entrants: a person's page reads one bucket, not every history.
HISTORY_BUCKETS = 64
Step = tuple[int, int, int, float, float]  # tournament, hanchan, place, mu, sigma


def list_key(scope: str, digest: str) -> str:
    return f"ratings:v3:{scope}:{digest}"


def current_digest(
    tournaments: QuerySet[Tournament], as_of: date
) -> tuple[str, list[Tournament], dict[int, int | None]]:
    """The digest of what the list of ``tournaments`` is made of now (one query for the tournaments),
    with the tournaments counted and their publication cut-offs."""
    events = counted_events(tournaments)
    cutoffs = {event.pk: public_cutoff(event) for event in events}
    return data_digest(events, cutoffs, as_of), events, cutoffs


def _rating_list(
    scope: str, tournaments: QuerySet[Tournament], as_of: date
) -> tuple[RatingList, dict[str, list[Step]] | None]:
    """The list, and every entrant's history when it was computed (None: read from the cache)."""
    digest, events, cutoffs = current_digest(tournaments, as_of)
    found = cache.get(list_key(scope, digest))
    if found is not None:
        return RatingList.from_cache(scope, digest, as_of, found), None
    ratings, histories = compute_list(scope, events, cutoffs, digest, as_of)
    cache_list(ratings, histories)
    return ratings, histories


def compute_list(
    scope: str, events: list[Tournament], cutoffs: dict[int, int | None], digest: str, as_of: date
) -> tuple[RatingList, dict[str, list[Step]]]:
    """The list of ``events`` computed from their results (the digest says what they are now), with
    every entrant's history. Not cached here: the background recompute caches a list once it is stored
    (``cache_list``), so that the cache never serves a list whose storing failed."""
    registrations = _registrations([event.pk for event in events])
    (shown_events, skill, mers, left_out), histories = _compute(events, cutoffs, registrations, as_of)
    ratings = RatingList(
        scope,
        digest,
        as_of,
        shown_events,
        skill,
        mers,
        updated_at=timezone.now(),
        left_out=[asdict(fault) for fault in left_out[:LEFT_OUT_KEPT]],
        left_out_count=len(left_out),
    )
    return ratings, histories


def cache_list(ratings: RatingList, histories: dict[str, list[Step]]) -> None:
    """``ratings`` and its histories in the cache, under its digest."""
    scope, digest = ratings.scope, ratings.digest
    cache.set_many(
        {list_key(scope, digest): ratings.cached(), **history_buckets(scope, digest, histories)}, LIST_SECONDS
    )


def history_buckets(
    scope: str, digest: str, histories: dict[str, list[Step]]
) -> dict[str, dict[str, list[Step]]]:
    """The histories by the cache key of their bucket."""
    buckets: dict[str, dict[str, list[Step]]] = {}
    for who, steps in histories.items():
        buckets.setdefault(history_key(scope, digest, who), {})[who] = steps
    return buckets


def history_bucket(who: str) -> int:
    return zlib.crc32(who.encode()) % HISTORY_BUCKETS


def history_key(scope: str, digest: str, who: str) -> str:
    return f"ratings-history:v1:{scope}:{digest}:{history_bucket(who)}"


def latest_key(scope: str) -> str:
    return f"ratings-latest:v2:{scope}"


def remember_latest(ratings: RatingList) -> None:
    """``ratings`` as the stored list of its scope, in the cache: what the pages serve while a newer one
    is computed, without reading its ``RatingSnapshot``."""
    cache.set(latest_key(ratings.scope), (ratings.digest, ratings.as_of, ratings.cached()), LIST_SECONDS)


def stored_list(
    scope: str, tournaments: QuerySet[Tournament], as_of: date | None = None
) -> RatingList | None:
    """The list a page shows, never computed here: the one made of the current data (from the cache,
    else from its ``RatingSnapshot``); else the stored one, ``stale``, while the recompute runs; None
    when none was ever stored. Two queries at most: the tournaments (for the digest) and the snapshot
    when the cache has lost it."""
    as_of = as_of or timezone.localdate()
    digest, _events, _cutoffs = current_digest(tournaments, as_of)
    found = cache.get_many([list_key(scope, digest), latest_key(scope)])
    if list_key(scope, digest) in found:
        return RatingList.from_cache(scope, digest, as_of, found[list_key(scope, digest)])
    if latest_key(scope) in found:
        latest_digest, latest_as_of, latest = found[latest_key(scope)]
        ratings = RatingList.from_cache(scope, latest_digest, latest_as_of, latest)
    else:
        snapshot = RatingSnapshot.objects.filter(scope=scope).first()
        if snapshot is None:
            return None
        ratings = snapshot_list(snapshot)
        remember_latest(ratings)
    if ratings.digest == digest:
        cache.set(list_key(scope, digest), ratings.cached(), LIST_SECONDS)
        return ratings
    return replace(ratings, stale=True)


def snapshot_list(snapshot: RatingSnapshot) -> RatingList:
    """The list stored in ``snapshot`` (its JSON read back: tuples, exact decimals)."""
    return RatingList(
        snapshot.scope,
        snapshot.digest,
        snapshot.as_of,
        list(snapshot.events),
        [(who, mu, sigma, hanchan) for who, mu, sigma, hanchan in snapshot.skill],
        [(who, Decimal(value), results) for who, value, results in snapshot.mers],
        updated_at=snapshot.computed_at,
        left_out=list(snapshot.left_out),
        left_out_count=snapshot.left_out_count,
    )


def snapshot_fields(ratings: RatingList) -> dict[str, Any]:
    """The fields of a ``RatingSnapshot`` holding ``ratings`` (decimals as exact strings)."""
    return {
        "digest": ratings.digest,
        "as_of": ratings.as_of,
        "computed_at": ratings.updated_at or timezone.now(),
        "events": ratings.events,
        "skill": [list(entry) for entry in ratings.skill],
        "mers": [[who, str(value), results] for who, value, results in ratings.mers],
        "left_out": ratings.left_out,
        "left_out_count": ratings.left_out_count,
    }


def snapshot_histories(histories: dict[str, list[Step]]) -> dict[int, dict[str, list[Step]]]:
    """The histories by bucket, as ``RatingHistory`` rows hold them."""
    buckets: dict[int, dict[str, list[Step]]] = {}
    for who, steps in histories.items():
        buckets.setdefault(history_bucket(who), {})[who] = steps
    return buckets


def history(ratings: RatingList, who: str) -> list[Step]:
    """The entrant's rating after each of their hanchan in the list: (tournament, hanchan, place, mu,
    sigma), in the order of play. From the cache, else from the stored list's bucket (never computed
    here: empty when neither has it)."""
    bucket = cache.get(history_key(ratings.scope, ratings.digest, who))
    if bucket is None:
        stored = (
            RatingHistory.objects.filter(snapshot__scope=ratings.scope, bucket=history_bucket(who))
            .values_list("steps", flat=True)
            .first()
        )
        bucket = {name: [tuple(step) for step in steps] for name, steps in (stored or {}).items()}
        if stored is not None:
            cache.set(history_key(ratings.scope, ratings.digest, who), bucket, LIST_SECONDS)
    return list(bucket.get(who, []))


# (pk, tournament, person, substitute, country) of each registration of the counted tournaments.
Registration = tuple[int, int, int | None, bool, str]


def _registrations(tournament_ids: list[int]) -> list[Registration]:
    return list(
        Player.objects.filter(tournament_id__in=tournament_ids)
        .order_by("pk")
        .values_list("pk", "tournament_id", "person_id", "is_substitute", "country")
    )


def _compute(
    events: list[Tournament],
    cutoffs: dict[int, int | None],
    registrations: list[Registration],
    as_of: date,
) -> tuple[tuple[Any, ...], dict[str, list[Step]]]:
    """The list's events, skill ratings, MERS ranking and the results left out, and the histories."""
    persons = {pk: person for pk, _tournament, person, _substitute, _country in registrations}
    seen = Q()
    for event in events:
        cutoff = cutoffs[event.pk]
        here = Q(sheet__table__round__tournament_id=event.pk)
        seen |= here if cutoff is None else here & Q(sheet__table__round__number__lte=cutoff)
    order = {event.pk: index for index, event in enumerate(events)}
    rows: list[SeatRow] = []
    if events:
        found = SeatResult.objects.filter(seen, sheet__status=ScoreSheet.Status.SIGNED).values_list(
            "sheet__table__round__tournament_id",
            "sheet__table__round__number",
            "sheet__table__number",
            "seat__wind",
            "player_id",
            "rank",
        )
        seats = sorted(found.iterator(chunk_size=20000), key=lambda r: (order[r[0]], r[1], r[2], r[3]))
        rows = [
            (tournament, hanchan, table, entrant(persons.get(player), player), rank)
            for tournament, hanchan, table, _wind, player, rank in seats
        ]
    rated, left_out = rated_games(rows)
    ratings = rate(rated)
    skill = [(str(who), s.mu, s.sigma, hanchan) for who, s, hanchan in ratings.table()]
    histories = {
        str(who): [(step.key[0], step.key[1], step.place, step.skill.mu, step.skill.sigma) for step in steps]
        for who, steps in ratings.history.items()
    }
    mers_events = _mers_events(events, cutoffs, registrations, persons, left_out)
    mers = ranking_list(mers_results(mers_events), as_of)
    listed = [(str(who), rounded(ranking.value), ranking.results) for who, ranking in mers]
    weights = {event.tournament: event for event in mers_events}
    shown_events = [
        {
            "id": event.pk,
            "name": event.name,
            "slug": event.slug,
            "starts_on": event.starts_on.isoformat(),
            "mers": event.mers_event,
            "mers_weight": str(rounded(weights[event.pk].weight())) if event.pk in weights else None,
        }
        for event in events
    ]
    return (shown_events, skill, listed, left_out), histories


def _mers_events(
    events: list[Tournament],
    cutoffs: dict[int, int | None],
    registrations: list[Registration],
    persons: dict[int, int | None],
    left_out: list[LeftOut],
) -> list[MersEvent]:
    """The MERS events among ``events``, each with its ranked entrants' places as the public sees its
    standings; the places that cannot be rated (``lists.mers_places``) are added to ``left_out``."""
    found = []
    for event in events:
        if not event.mers_event:
            continue
        own = [r for r in registrations if r[1] == event.pk]
        summary = cached_summary(event, cutoffs[event.pk])
        ranked = [
            (entrant(persons.get(row["player"]), row["player"]), row["rank"])
            for row in summary["rows"]
            if row["ranked"] and row["rank"] is not None
        ]
        places = mers_places(event.pk, ranked)
        left_out.extend(places.left_out)
        found.append(
            MersEvent(
                event.pk,
                event.starts_on,
                event.ends_on,
                places.places,
                players=sum(1 for r in own if not r[3]),
                substitutes=sum(1 for r in own if r[3]),
                countries=len({r[4] for r in own if r[4]}),
                qualified=event.players_qualified,
                ranked=places.ranked,
            )
        )
    return found


def entrant_names(keys: Collection[str], event_ids: Collection[int]) -> dict[str, tuple[str, str]]:
    """Each entrant's name and name in its own script, as their latest counted registration writes it
    (a person's name may differ from event to event; the latest wins, as in a series' standings)."""
    persons = [person for person in map(entrant_person, keys) if person is not None]
    players = [int(key.partition(":")[2]) for key in keys if key.startswith("player:")]
    found: dict[str, tuple[str, str]] = {}
    for person, player, name, native in (
        Player.objects.filter(
            Q(person__in=persons) | Q(pk__in=players, person=None), tournament__in=event_ids
        )
        .order_by("tournament__starts_on", "tournament_id")
        .values_list("person_id", "pk", "name", "native_name")
    ):
        found[entrant(person, player)] = (name, native)
    return found


def entrant_details(keys: Collection[str], event_ids: Collection[int]) -> dict[str, tuple[str, str]]:
    """Each entrant's country (ISO code) and club, as their latest counted registration that gives one
    writes it: shown beside the name, so that two players of one name tell apart."""
    persons = [person for person in map(entrant_person, keys) if person is not None]
    players = [int(key.partition(":")[2]) for key in keys if key.startswith("player:")]
    found: dict[str, tuple[str, str]] = {}
    for person, player, country, club in (
        Player.objects.filter(
            Q(person__in=persons) | Q(pk__in=players, person=None), tournament__in=event_ids
        )
        .order_by("tournament__starts_on", "tournament_id")
        .values_list("person_id", "pk", "country", "club")
    ):
        key = entrant(person, player)
        before = found.get(key, ("", ""))
        found[key] = (country or before[0], club or before[1])
    return found


def list_rows(
    ratings: RatingList, which: str, entries: Sequence[Any], first_place: int
) -> list[dict[str, Any]]:
    """A page of a rating list as JSON-ready rows (decimals as exact strings): the skill list's
    (``which`` "skill": rating, mu, sigma to two decimals and hanchan) or the MERS ranking's (ranking,
    results); each with its place, person (null for a registration counting alone) and name."""
    keys, event_ids = [entry[0] for entry in entries], [event["id"] for event in ratings.events]
    names = entrant_names(keys, event_ids)
    details = entrant_details(keys, event_ids)
    rows = []
    for place, entry in enumerate(entries, start=first_place):
        name, native = names.get(entry[0], ("", ""))
        row: dict[str, Any] = {"place": place, "person": entrant_person(entry[0]), "name": name}
        row["native_name"] = native
        row["country"], row["club"] = details.get(entry[0], ("", ""))
        if which == "mers":
            row.update(ranking=str(entry[1]), results=entry[2])
        else:
            rating, mu, sigma = Skill(entry[1], entry[2]).shown()
            row.update(rating=str(rating), mu=str(mu), sigma=str(sigma), hanchan=entry[3])
        rows.append(row)
    return rows
