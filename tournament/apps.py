from django.apps import AppConfig


class TournamentConfig(AppConfig):
    name = "tournament"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        # The receivers of live_changed: the public standings computed where a change is made.
        from tournament import live_standings  # noqa: F401
