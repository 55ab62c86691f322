"""Printing one hanchan's seating cards when the players enter the results: a fresh PIN (hashed) and
one-time link for each of 172 players, and the PDF with a QR code and the PIN on every card; the same
cards without credentials (referees' entry: the QR code is the player's page); and checking one PIN.

Target: the cards of a 172-player hanchan, credentials included, in under 5 s. Runs on the database of
DATABASE_URL (PostgreSQL, as in production) in a throwaway test database, ``bench_player_cards``.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres .venv/bin/python benchmarks/bench_player_cards.py
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")

import django

django.setup()

from django.db import connection  # noqa: E402

PLAYERS = 172
BASE_URL = "https://mahjong.example.org"


def timed(what: str, target: float | None, function: Callable[[], Any]) -> Any:
    started, cpu = time.perf_counter(), time.process_time()
    result = function()
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    verdict = ""
    if target is not None:
        verdict = f" (target < {target:.0f} s: {'ok' if seconds < target else 'MISSED'})"
    print(f"{what}: {seconds:.2f} s wall, {cpu:.2f} s CPU{verdict}")
    return result


def main() -> None:
    from django.contrib.auth import get_user_model

    from exports.exporters.printable import seating_cards_pdf
    from tournament.models import Player, Round, Seat, StaffRole, Table, Tournament
    from tournament.services import player_login

    connection.settings_dict["TEST"]["NAME"] = "bench_player_cards"
    test_db = connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    try:
        tournament = Tournament.objects.create(
            name="Bench Open",
            slug="bench",
            starts_on=date(2026, 1, 1),
            ends_on=date(2026, 1, 2),
            hanchan_count=8,
            entry_mode=Tournament.EntryMode.PLAYERS,
        )
        referee = get_user_model().objects.create_user("bench-referee")
        StaffRole.objects.create(tournament=tournament, user=referee, role="referee")
        players = Player.objects.bulk_create(
            Player(tournament=tournament, name=f"Player {i:03d}") for i in range(PLAYERS)
        )
        round_ = Round.objects.create(tournament=tournament, number=1)
        tables = Table.objects.bulk_create(Table(round=round_, number=n + 1) for n in range(PLAYERS // 4))
        Seat.objects.bulk_create(
            Seat(table=tables[i // 4], round=round_, wind=i % 4, player=player)
            for i, player in enumerate(players)
        )

        def print_with_credentials() -> Any:
            issued = player_login.issue_for_hanchan(tournament, 1, referee)
            return issued, seating_cards_pdf(tournament, hanchan=1, base_url=BASE_URL, credentials=issued)

        issued, pdf = timed(f"{PLAYERS} cards with a new PIN and link each", 5, print_with_credentials)
        print(f"  {len(pdf.data) / 1024:.0f} KiB, {len(issued)} players issued credentials")
        timed(
            f"{PLAYERS} PINs issued alone",
            None,
            lambda: player_login.issue_for_hanchan(tournament, 1, referee),
        )
        timed(
            f"{PLAYERS} cards without credentials",
            None,
            lambda: seating_cards_pdf(tournament, hanchan=1, base_url=BASE_URL),
        )
        someone = Player.objects.get(pk=players[0].pk)
        started = time.perf_counter()
        for _ in range(100):
            player_login.pin_matches(someone, "000000")
        print(f"checking a PIN: {(time.perf_counter() - started) * 10:.1f} ms")
    finally:
        connection.creation.destroy_test_db(test_db, verbosity=0)


if __name__ == "__main__":
    main()
