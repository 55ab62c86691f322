"""``manage.py createorganiser <username>``: an account of one's own that may create tournaments (and
becomes the organiser of each one it creates), without the Django admin's permission picker. The
password is asked twice at the terminal, or taken from ``ORGANISER_PASSWORD`` with ``--noinput``. An
existing account is given the permission, its password unchanged."""

from __future__ import annotations

import getpass
import os
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournament import services
from tournament.core.refusal import Refusal

PASSWORD_VARIABLE = "ORGANISER_PASSWORD"


class Command(BaseCommand):
    help = "Create an organiser's account (or let an existing account create tournaments)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument("--email", default="")
        parser.add_argument(
            "--noinput",
            "--no-input",
            action="store_false",
            dest="interactive",
            help=f"take the password of a new account from {PASSWORD_VARIABLE} instead of asking",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        username, interactive = options["username"], options["interactive"]
        password = os.environ.get(PASSWORD_VARIABLE) or None
        if password is None and interactive and not services.account_exists(username):
            password = getpass.getpass("Password: ")
            if password != getpass.getpass("Password (again): "):
                raise CommandError("password: the two passwords differ")
        try:
            account, created = services.make_organiser(username, email=options["email"], password=password)
        except Refusal as refused:
            raise CommandError("; ".join(f"{p.message} [{p.rule}]" for p in refused.problems)) from None
        if created:
            self.stdout.write(
                f"Created {account.get_username()}: sign in at /accounts/login/, then "
                'choose "Create a tournament" on the home page.'
            )
        else:
            self.stdout.write(f"{account.get_username()} may now create tournaments (password unchanged).")
