"""Load the demo: a site admin to log in with. Idempotent: running it again changes nothing."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

# The demo's own logins, for a local look at the product; nothing else uses them.
DEMO_ADMIN = ("admin", "mahjong-demo")


class Command(BaseCommand):
    help = "Create (or refresh) the demo data and print the logins."

    @transaction.atomic
    def handle(self, *args: Any, **options: Any) -> None:
        user_model = get_user_model()
        username, password = DEMO_ADMIN
        admin, created = user_model.objects.get_or_create(
            username=username, defaults={"is_staff": True, "is_superuser": True}
        )
        if created or not admin.check_password(password):
            admin.set_password(password)
            admin.save()
        self.stdout.write(f"Demo site admin: {username} / {password}")
