from django.apps import AppConfig
from django.utils.translation import gettext, ngettext

from scoring.rules.i18n import use_translation


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = "Score sheets"

    def ready(self) -> None:
        """The rules engine's messages in the request's language (scoring.rules.i18n)."""
        use_translation(gettext, ngettext)
