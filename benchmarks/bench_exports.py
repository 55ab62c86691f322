"""Exports of a 1,000-player tournament of 12 hanchan (3,000 signed sheets): time of each render.

Targets: standings workbook under 5 s; printable score sheets for 250 tables under 30 s; archive export
and re-import under 10 s each. Runs on the database of DATABASE_URL (PostgreSQL, as in production) in a
throwaway test database, ``bench_exports``, that it creates and drops.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres .venv/bin/python benchmarks/bench_exports.py
"""

from __future__ import annotations

import os
import random
import sys
import time
from collections.abc import Callable
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")

import django

django.setup()

from django.db import connection  # noqa: E402

PLAYERS, ROUNDS = 1000, 12
COUNTRIES = ["DE", "NL", "FR", "DK", "GB", "PL", "AT", "IT", "SE", "CZ"]


def seed_tournament() -> int:
    from django.contrib.auth import get_user_model

    from penalties.models import Penalty
    from scoring.models import ScoreSheet, SeatResult, SheetVersion
    from scoring.rules.ruleset import get_ruleset
    from scoring.rules.scores import format_score, hanchan_scores
    from tournament.models import Player, Round, Seat, StaffRole, Table, Tournament

    rng = random.Random(1)
    ruleset = get_ruleset("WRC2015")
    referee = get_user_model().objects.create_user("bench-referee")
    tournament = Tournament.objects.create(
        name="Bench Open",
        slug="bench",
        starts_on=date(2026, 1, 1),
        ends_on=date(2026, 1, 3),
        hanchan_count=ROUNDS,
    )
    StaffRole.objects.create(tournament=tournament, user=referee, role="referee")
    players = Player.objects.bulk_create(
        Player(
            tournament=tournament,
            name=f"Firstname{i:04d} Lastname{i:04d}",
            country=COUNTRIES[i % len(COUNTRIES)],
            ema_id=f"{10000000 + i}",
        )
        for i in range(PLAYERS)
    )
    names = {p.pk: p.name for p in players}
    ids = [p.pk for p in players]
    for number in range(1, ROUNDS + 1):
        round_ = Round.objects.create(tournament=tournament, number=number, status="finished")
        tables = Table.objects.bulk_create(Table(round=round_, number=t + 1) for t in range(PLAYERS // 4))
        rng.shuffle(ids)
        seats = Seat.objects.bulk_create(
            Seat(table=table, round=round_, wind=w, player_id=ids[4 * t + w])
            for t, table in enumerate(tables)
            for w in range(4)
        )
        sheets, replays = [], []
        for t, table in enumerate(tables):
            a, b, c = (rng.randrange(50, 500) * 100 for _ in range(3))
            seated = [names[seats[4 * t + w].player_id] for w in range(4)]
            points = dict(zip(seated, [a, b, c, 120000 - a - b - c], strict=True))
            ranks, uma, scores = hanchan_scores(points, ruleset)
            entry = {"form": "final", "final_points": points, "riichi_sticks_left": 0}
            replay = {
                "valid": True,
                "final_points": points,
                "riichi_sticks_left": 0,
                "finished": True,
                "ranks": ranks,
                "uma": {k: format_score(v) for k, v in uma.items()},
                "scores": {k: format_score(v) for k, v in scores.items()},
                "chombo": [],
            }
            replays.append(replay)
            sheets.append(
                ScoreSheet(
                    table=table,
                    status="signed",
                    form="final",
                    entry=entry,
                    replay=replay,
                    created_by=referee,
                    signed_by=referee,
                )
            )
        sheets = ScoreSheet.objects.bulk_create(sheets)
        SheetVersion.objects.bulk_create(
            SheetVersion(
                sheet=sheet,
                version=1,
                action=action,
                status=action,
                entry=sheet.entry,
                replay=sheet.replay,
                content_hash="0" * 64,
                author=referee,
            )
            for sheet in sheets
            for action in ("submitted", "signed")
        )
        SeatResult.objects.bulk_create(
            SeatResult(
                sheet=sheet,
                seat=seats[4 * t + w],
                player_id=seats[4 * t + w].player_id,
                points=replays[t]["final_points"][names[seats[4 * t + w].player_id]],
                rank=replays[t]["ranks"][names[seats[4 * t + w].player_id]],
                uma=Decimal(replays[t]["uma"][names[seats[4 * t + w].player_id]]),
                score=Decimal(replays[t]["scores"][names[seats[4 * t + w].player_id]]),
            )
            for t, sheet in enumerate(sheets)
            for w in range(4)
        )
    Penalty.objects.bulk_create(
        Penalty(tournament=tournament, player_id=pid, kind="chombo", points=Decimal(20)) for pid in ids[:50]
    )
    return tournament.pk


def timed(what: str, target: float | None, function: Callable[[], Any]) -> Any:
    """Run once and print the wall time and this process's CPU time (what the wall time would be on an idle
    machine, database time aside)."""
    started, cpu = time.perf_counter(), time.process_time()
    result = function()
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    data = getattr(result, "data", result)
    size = f", {len(data) / 1e6:.1f} MB" if isinstance(data, bytes) else ""
    goal = f" (target < {target:g} s)" if target else ""
    print(f"{what}: {seconds:.2f} s (cpu {cpu:.2f} s){size}{goal}")
    return result


def main() -> None:
    from exports.archive.dump import export_archive
    from exports.archive.load import import_archive
    from exports.exporters import get_exporter
    from tournament.models import Round, Tournament

    connection.settings_dict["TEST"]["NAME"] = "bench_exports"
    test_db = connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    try:
        started = time.perf_counter()
        tournament = Tournament.objects.get(pk=seed_tournament())
        print(
            f"seeded {PLAYERS} players x {ROUNDS} hanchan ({PLAYERS // 4 * ROUNDS} signed sheets) "
            f"in {time.perf_counter() - started:.1f} s on {connection.vendor} ({test_db})"
        )

        def render(identifier: str, of: Tournament = tournament) -> Any:
            exporter = get_exporter(identifier)
            assert exporter is not None
            return exporter.render(of)

        timed("standings (Excel)", 5, lambda: render("standings_xlsx"))
        timed("standings (CSV)", None, lambda: render("standings_csv"))
        timed("seating (Excel)", None, lambda: render("seating_xlsx"))
        timed("EMA results (Excel)", None, lambda: render("ema_results_xlsx"))
        timed("score sheets (Excel, 3,000 sheets)", None, lambda: render("score_sheets_xlsx"))

        # 250 tables: one hanchan of the field, as a separate tournament of one round.
        one = Tournament.objects.create(
            name="Bench One",
            slug="bench-one",
            starts_on=date(2026, 1, 1),
            ends_on=date(2026, 1, 1),
            hanchan_count=1,
        )
        Round.objects.filter(tournament=tournament, number=1).update(tournament=one)
        timed("printable score sheets, 250 tables (PDF)", 30, lambda: render("score_sheets_pdf", one))
        Round.objects.filter(tournament=one).update(tournament=tournament)
        timed("printable score sheets, 3,000 tables (PDF)", None, lambda: render("score_sheets_pdf"))
        timed("seating cards, 1,000 players x 12 hanchan (PDF)", None, lambda: render("seating_cards_pdf"))

        data = timed("archive export", 10, lambda: export_archive(tournament))
        copy = timed("archive import (one transaction)", 10, lambda: import_archive(data, slug="bench-copy"))
        again = export_archive(copy)
        same = again.replace(b'"slug":"bench-copy"', b'"slug":"bench"', 1) == data
        print(f"archive of the imported tournament equals the original (slug aside): {same}")
        assert same
    finally:
        connection.creation.destroy_test_db(test_db, verbosity=0)


if __name__ == "__main__":
    main()
