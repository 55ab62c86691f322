"""Load the demo: logins, a tournament of 16 players with its seating and two signed score sheets.

Idempotent: running it again finds what is there and adds only what is missing. The demo's logins use a
published password, so the command is for a local run (``DEBUG`` on, as ``make run``): with ``DEBUG`` off
it refuses unless given ``--force``. It creates the demo accounts that are missing and never touches an
existing account's password, whoever made it.
"""

from __future__ import annotations

import json
from datetime import date
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from scoring import services as sheets
from scoring.models import ScoreSheet
from tournament import services
from tournament.models import Player, Round, StaffRole, Table, Tournament

# The demo's own logins, for a local look at the product; nothing else uses them.
DEMO_PASSWORD = "mahjong-demo"
DEMO_USERS = {"admin": None, "organiser": StaffRole.Role.ORGANISER, "referee": StaffRole.Role.REFEREE}
DEMO_PLAYERS = [
    ("Aiko Tanaka", "JP", "Tokyo Riichi"),
    ("Ben Fischer", "DE", "Hamburg Mahjong"),
    ("Chloé Martin", "FR", "Paris Riichi"),
    ("Dmitri Ivanov", "RU", ""),
    ("Elena Rossi", "IT", "Milano Mahjong"),
    ("Finn Larsen", "DK", "Copenhagen Riichi"),
    ("Greta Nilsson", "SE", ""),
    ("Hugo Silva", "PT", "Lisboa Riichi"),
    ("Ines García", "ES", "Madrid Riichi"),
    ("Jan Novák", "CZ", "Praha Mahjong"),
    ("Kasia Nowak", "PL", ""),
    ("Lars Berg", "NO", "Oslo Riichi"),
    ("Mei Chen", "CN", ""),
    ("Noah Smith", "GB", "London Riichi"),
    ("Olga Petrova", "UA", ""),
    ("Pieter de Vries", "NL", "Amsterdam Riichi"),
]
# Names in their own script (docs/languages.md): Japanese, Chinese and Russian readers see these.
DEMO_NATIVE_NAMES = {
    "Aiko Tanaka": "田中 愛子",
    "Dmitri Ivanov": "Дмитрий Иванов",
    "Mei Chen": "陈梅",
    "Olga Petrova": "Ольга Петрова",
}
# Hanchan 1, table 1, hand by hand (seats East, South, West, North); table 2, final points only.
TABLE_1_HANDS = [
    {"result": "ron", "winner": 1, "loser": 2, "han": 2, "fu": 30, "riichi": []},
    {"result": "tsumo", "winner": 2, "han": 1, "fu": 30, "riichi": [2]},
    {"result": "draw", "tenpai": [0, 3], "riichi": [3]},
    {"result": "ron", "winner": 3, "loser": 0, "han": 2, "fu": 40, "riichi": []},
    {"result": "ron", "winner": 0, "loser": 1, "han": 1, "fu": 30, "riichi": []},
    {"result": "tsumo", "winner": 0, "han": 4, "fu": 30, "riichi": []},
    {"result": "ron", "winner": 1, "loser": 0, "han": 3, "fu": 30, "riichi": []},
    {"result": "ron", "winner": 2, "loser": 3, "han": 1, "fu": 40, "riichi": []},
    {"result": "ron", "winner": 3, "loser": 1, "han": 2, "fu": 30, "riichi": []},
    {"result": "ron", "winner": 0, "loser": 3, "han": 1, "fu": 30, "riichi": []},
]
TABLE_2_POINTS = [41200, 33500, 26300, 19000]


def named(hand: dict[str, Any], names: list[str]) -> dict[str, Any]:
    """A hand written with seat numbers, with the seated players' names instead."""
    out: dict[str, Any] = {}
    for key, value in hand.items():
        if key in {"winner", "loser"}:
            out[key] = names[value]
        elif key in {"riichi", "tenpai"}:
            out[key] = [names[seat] for seat in value]
        else:
            out[key] = value
    return out


class Command(BaseCommand):
    help = "Create (or complete) the demo tournament and print the URLs and logins."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--force",
            action="store_true",
            help="Load the demo even with DEBUG off (a site open to others: its new logins use a published "
            "password).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.DEBUG and not options["force"]:
            raise CommandError(
                f"DEBUG is off: this looks like a production site, and the demo's logins use the published "
                f"password {DEMO_PASSWORD!r}. Run it with DEBUG=1 (as `make run` does), or with --force if "
                f"you mean it."
            )
        users, demo_password = self.users()
        tournament = self.tournament(users)
        self.seating(tournament, users["organiser"])
        self.sheets(tournament, users["referee"])
        self.stdout.write(f"Demo tournament: {tournament.name} (/t/{tournament.slug}/)")
        for username, role in DEMO_USERS.items():
            what = "site admin" if role is None else StaffRole.Role(role).label.lower()
            if demo_password[username]:
                self.stdout.write(f"Demo {what}: {username} / {DEMO_PASSWORD}")
            else:
                self.stdout.write(
                    f"Demo {what}: {username} (an existing account: its password is left as it is)"
                )

    @transaction.atomic
    def users(self) -> tuple[dict[str, Any], dict[str, bool]]:
        """The demo's accounts, created when missing; and for each, whether it has the demo password.
        An existing account keeps its password: the demo never resets one."""
        user_model = get_user_model()
        users, demo_password = {}, {}
        for username, role in DEMO_USERS.items():
            admin = role is None
            user, created = user_model.objects.get_or_create(
                username=username, defaults={"is_staff": admin, "is_superuser": admin}
            )
            if created:
                user.set_password(DEMO_PASSWORD)
                user.save(update_fields=["password"])
            users[username] = user
            demo_password[username] = created or user.check_password(DEMO_PASSWORD)
        return users, demo_password

    @transaction.atomic
    def tournament(self, users: dict[str, Any]) -> Tournament:
        tournament, _ = Tournament.objects.get_or_create(
            slug="demo-open",
            defaults={
                "name": "Demo Riichi Open",
                "starts_on": date(2026, 11, 28),
                "ends_on": date(2026, 11, 29),
                "venue": "Community Hall",
                "hanchan_count": 5,
                "created_by": users["admin"],
                "is_demo": True,
            },
        )
        if not tournament.is_demo:  # loaded before the flag existed
            tournament.is_demo = True
            tournament.save(update_fields=["is_demo"])
        for username, role in DEMO_USERS.items():
            if role is not None:
                StaffRole.objects.get_or_create(
                    tournament=tournament, user=users[username], defaults={"role": role}
                )
        for name, country, club in DEMO_PLAYERS:
            player, _ = Player.objects.get_or_create(
                tournament=tournament, name=name, defaults={"country": country, "club": club}
            )
            native = DEMO_NATIVE_NAMES.get(name, "")
            if native and not player.native_name:
                player.native_name = native
                player.save(update_fields=["native_name"])
            if player.status == Player.Status.REGISTERED:
                services.check_in(player, user=users["organiser"])
        return tournament

    def seating(self, tournament: Tournament, organiser: Any) -> None:
        if tournament.rounds.filter(status__in=[Round.Status.SEATED, Round.Status.STARTED]).exists():
            return
        job = services.request_seating(tournament, organiser, seed=2026)
        services.run_seating_job(job.pk)  # already done when tasks run in process; else done here

    def sheets(self, tournament: Tournament, referee: Any) -> None:
        first = Round.objects.get(tournament=tournament, number=1)  # in play once a sheet is submitted
        for table in Table.objects.filter(round=first, number__in=[1, 2]).order_by("number"):
            if ScoreSheet.objects.filter(table=table).exists():
                continue
            names = [seat.player.name for seat in table.seats.select_related("player").order_by("wind")]
            if table.number == 1:
                entry: dict[str, Any] = {"form": "hands", "hands": [named(h, names) for h in TABLE_1_HANDS]}
            else:
                entry = {
                    "form": "final",
                    "final_points": dict(zip(names, TABLE_2_POINTS, strict=True)),
                    "riichi_sticks_left": 0,
                }
            sheet = sheets.save_sheet(table, json.loads(json.dumps(entry)), referee, submit=True)
            sheets.sign_sheet(sheet, referee)
