"""A series' standings and a person's events from the database: what each tournament's publication
settings let the reader see, and nothing more.

A series is a public page: its standings count, for every reader, what the public sees of each of its
tournaments (a private tournament counts for nothing; hidden hanchan and standings published as of the
last completed hanchan as ``standings_db.public_cutoff`` says), read from the tournaments' cached
standings. A person's page shows each of their events the reader may see (``access.can_view``) as that
reader sees the tournament's own pages (``standings_db.reader_cutoff``).
"""

from __future__ import annotations

import hashlib
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db.models import Q, QuerySet

from scoring.models import ScoreSheet, SeatResult
from scoring.rules.scores import format_score
from tournament.core.names import shown_name
from tournament.core.persons import Career, EventLine, career
from tournament.core.series import EventResult, SeriesRule, series_standings
from tournament.models import Person, Player, Series, Tournament
from tournament.queries import access
from tournament.queries.standings_db import cached_summary, public_cutoff, reader_cutoff


def series_rule(series: Series) -> SeriesRule:
    return SeriesRule(
        series.rule,  # type: ignore[arg-type]
        best_n=series.best_n,
        min_events=series.min_events,
        points=tuple(Decimal(p) for p in series.points),
    )


def public_only(tournaments: QuerySet[Tournament]) -> QuerySet[Tournament]:
    """The tournaments of ``tournaments`` that count for every reader: the public ones (a private
    tournament counts for nothing, its staff included), the demonstration tournament left out."""
    return tournaments.filter(is_public=True, is_demo=False)


def public_events(series: Series) -> list[Tournament]:
    """The series' tournaments the public sees, in the order they were played."""
    return list(public_only(series.tournaments.all()).order_by("starts_on", "name", "pk"))


def data_digest(events: list[Tournament], cutoffs: dict[int, int | None], *more: Any) -> str:
    """A digest of everything a list across ``events`` is made of, for its cache key: each event's
    standings version, publication cut-off (``public_cutoff``: hidden hanchan, standings as of the last
    completed hanchan), name, address, dates and MERS inputs; and ``more``. The standings version moves
    in the transaction of every change of the results (a signed sheet, a correction, a penalty) and of
    the registrations (registered, changed, removed, linked to a person, merged, split): a change of any
    of these is a new digest, so no cached list outlives its data."""
    made_of = hashlib.sha256(repr(more).encode())
    for event in events:
        made_of.update(
            repr(
                (
                    event.pk,
                    event.standings_version,
                    cutoffs[event.pk],
                    event.name,
                    event.slug,
                    event.starts_on,
                    event.ends_on,
                    event.mers_event,
                    event.players_qualified,
                )
            ).encode()
        )
    return made_of.hexdigest()[:32]


def series_table(series: Series) -> dict[str, Any]:
    """The series' standings as JSON-ready data: its events, and its rows (decimals as exact strings),
    each with the entrant's person (null for a registration not linked to one) and their events.
    Cached under a digest of what it is made of (``data_digest``) and the series' rule."""
    key, events, cutoffs = _table_key(series)
    found = cache.get(key)
    if found is None:
        found = _store(key, _series_table(series, events, cutoffs))
    return found


def series_page(series: Series, number: int, size: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """One page of the series' standings (``number`` from 1, ``size`` rows a page) without reading the
    others: the table without its rows (``events``, ``count``), and the page's rows. Each page is cached
    apart from the whole table, under the same key."""
    key, events, cutoffs = _table_key(series)
    found = cache.get_many([f"{key}:head", f"{key}:{size}:{number}"])
    if len(found) == 2:
        return found[f"{key}:head"], found[f"{key}:{size}:{number}"]
    table = cache.get(key) or _store(key, _series_table(series, events, cutoffs))
    head = {name: value for name, value in table.items() if name != "rows"} | {"count": len(table["rows"])}
    rows = table["rows"][(number - 1) * size : number * size]
    cache.set_many({f"{key}:head": head, f"{key}:{size}:{number}": rows}, TABLE_SECONDS)
    return head, rows


TABLE_SECONDS = 24 * 3600


def _table_key(series: Series) -> tuple[str, list[Tournament], dict[int, int | None]]:
    events = public_events(series)
    cutoffs = {event.pk: public_cutoff(event) for event in events}
    rule = (series.pk, series.rule, series.best_n, series.min_events, list(series.points))
    return f"series-table:v3:{series.pk}:{data_digest(events, cutoffs, rule)}", events, cutoffs


def _store(key: str, table: dict[str, Any]) -> dict[str, Any]:
    cache.set(key, table, TABLE_SECONDS)
    return table


def _series_table(series: Series, events: list[Tournament], cutoffs: dict[int, int | None]) -> dict[str, Any]:
    players = {
        pk: (person, native, country, club)
        for pk, person, native, country, club in Player.objects.filter(tournament__in=events).values_list(
            "pk", "person_id", "native_name", "country", "club"
        )
    }
    results = []
    natives: dict[str, str] = {}
    # Country and club beside the name (two players of one name tell apart): the latest that gives one.
    details: dict[str, tuple[str, str]] = {}
    for event in events:
        summary = cached_summary(event, cutoffs[event.pk])
        for row in summary["rows"]:
            if not row["ranked"] or row["rank"] is None:
                continue
            person, native, country, club = players.get(row["player"], (None, "", "", ""))
            entrant = f"person:{person}" if person is not None else f"player:{row['player']}"
            natives[entrant] = native
            before = details.get(entrant, ("", ""))
            details[entrant] = (country or before[0], club or before[1])
            results.append(EventResult(entrant, row["name"], event.pk, row["rank"], Decimal(row["total"])))
    rows = series_standings(results, series_rule(series))
    return {
        "series": series.pk,
        "rule": series.rule,
        "events": [
            {"id": e.pk, "name": e.name, "slug": e.slug, "starts_on": e.starts_on.isoformat()} for e in events
        ],
        "rows": [
            {
                "rank": row.rank,
                "person": _person_id(row.entrant),
                "name": row.name,  # as their latest event the public sees wrote it
                "native_name": natives.get(row.entrant, ""),
                "country": details.get(row.entrant, ("", ""))[0],
                "club": details.get(row.entrant, ("", ""))[1],
                "score": format_score(row.score),
                "events": row.events,
                "results": [
                    {
                        "event": c.event,
                        "rank": c.rank,
                        "total": format_score(c.total),
                        "score": format_score(c.score),
                        "counts": c.counts,
                    }
                    for c in row.results
                ],
            }
            for row in rows
        ],
    }


def series_board(series: Series) -> dict[str, Any]:
    """What the series' projector shows, the same for every reader (its live stream's payload): the
    ranked rows, each name with the one shown instead in the languages that read its native script."""
    rows = []
    for row in series_table(series)["rows"]:
        if row["rank"] is None:
            continue
        native = {
            code: shown
            for code, _label in settings.LANGUAGES
            if (shown := shown_name(row["name"], row["native_name"], code)) != row["name"]
        }
        rows.append(
            {
                "rank": row["rank"],
                "name": row["name"],
                "shown": native,
                "score": row["score"],
                "events": row["events"],
            }
        )
    return {"series": series.pk, "rows": rows}


def _person_id(entrant: str) -> int | None:
    kind, _sep, key = entrant.partition(":")
    return int(key) if kind == "person" else None


def person_events(person: Person, user: Any) -> tuple[list[dict[str, Any]], Career]:
    """The person's events this reader may see, latest first, each with their rank, total and hanchan
    as the reader sees that tournament's standings; and their figures across those events. Each event's
    rank, total and hanchan come from its cached standings summary, the placements from one query over
    every event's results the reader sees (not each event's full standings, hanchan by hanchan)."""
    # In the tournaments' order of creation: the sort by date below is stable, so two events that start
    # on the same day are always listed in the same order (the one created first, first).
    registrations = (
        Player.objects.filter(person=person).select_related("tournament").order_by("tournament_id")
    )
    seen = [
        (player, reader_cutoff(user, player.tournament))
        for player in registrations
        if access.can_view(user, player.tournament)
    ]
    placements = _placements(seen)
    events = []
    lines = []
    for player, cutoff in seen:
        tournament = player.tournament
        data = cached_summary(tournament, cutoff)
        row = next((r for r in data["rows"] if r["player"] == player.pk), None)
        places = placements.get(player.pk, [0, 0, 0, 0])
        rank = row["rank"] if row and row["ranked"] else None
        total = Decimal(row["total"]) if row else Decimal(0)
        played = row["played"] if row else 0
        lines.append(EventLine(rank, total, played, (places[0], places[1], places[2], places[3])))
        events.append(
            {
                "tournament": tournament,
                "player": player,
                "rank": rank,
                "ranked_count": sum(1 for r in data["rows"] if r["ranked"]),
                "total": format_score(total),
                "played": played,
                "substitute": player.is_substitute,
            }
        )
    order = sorted(range(len(events)), key=lambda i: events[i]["tournament"].starts_on, reverse=True)
    return [events[i] for i in order], career(lines)


def _placements(seen: list[tuple[Player, int | None]]) -> dict[int, list[int]]:
    """Each registration's 1sts to 4ths in the signed hanchan this reader sees (up to its cut-off)."""
    if not seen:
        return {}
    visible = Q()
    for player, cutoff in seen:
        own = Q(player_id=player.pk)
        visible |= own if cutoff is None else own & Q(sheet__table__round__number__lte=cutoff)
    found: dict[int, list[int]] = {}
    results = SeatResult.objects.filter(visible, sheet__status=ScoreSheet.Status.SIGNED)
    for player_id, rank in results.values_list("player_id", "rank"):
        if 1 <= rank <= 4:
            found.setdefault(player_id, [0, 0, 0, 0])[rank - 1] += 1
    return found
