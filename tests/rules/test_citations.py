"""Rules are cited from the tournament's own ruleset (an EMA event reads its own texts)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from penalties import services as penalties
from penalties.models import Penalty
from scoring.rules.citations import TOPICS, cite
from tournament import services
from tournament.core.refusal import Refusal
from tournament.models import Player, Tournament


def test_each_preset_cites_its_own_text_and_says_where_it_is_silent() -> None:
    assert cite("WRC2015", "chombo") == "WRCR 2015 §7.1"
    assert cite("EMA2025", "chombo") == "EMA 2025 rules, penalties overview (chombo)"
    assert cite("EMA2016", "chombo") == "EMA 2016 scoring card, Chombo"
    assert cite("EMA2025", "time_limit") == "WRCR 2015 §8.2, where the EMA 2025 rules are silent"
    assert all("WRCR" not in cite("EMA2025", topic) or "silent" in cite("EMA2025", topic) for topic in TOPICS)
    with pytest.raises(ValueError, match="topic"):
        cite("WRC2015", "nothing")


def test_a_page_cites_in_its_readers_language_and_a_rule_identifier_stays_english() -> None:
    with translation.override("de"):
        assert cite("EMA2025", "time_limit", translated=True) == (
            "WRCR 2015 §8.2, da die EMA-2025-Regeln dazu schweigen"
        )
        assert cite("EMA2025", "time_limit") == "WRCR 2015 §8.2, where the EMA 2025 rules are silent"
        # The texts' own names and headings are theirs (English documents), in every language.
        assert cite("EMA2025", "chombo", translated=True) == "EMA 2025 rules, penalties overview (chombo)"
    with translation.override("ja"):
        assert (
            cite("EMA2016", "lateness", translated=True)
            == "WRCR 2015 §7.2（EMA 2016 スコアカードに規定がないため）"  # noqa: RUF001 (Japanese parentheses)
        )


@pytest.mark.django_db
def test_an_ema_2025_event_cites_its_rules_on_pages_and_in_refusals(
    tournament: Tournament, seated_table: Any, organiser: Any, head_referee: Any
) -> None:
    Tournament.objects.filter(pk=tournament.pk).update(ruleset_preset="EMA2025")
    tournament.refresh_from_db()
    client = Client()
    client.force_login(organiser)
    for path in ("penalties/", "clock/", "standings/", "manage/absences/"):
        page = client.get(f"/t/{tournament.slug}/{path}").content.decode()
        bare = re.findall(r"WRCR 2015 §[\d.]++(?!, where the EMA 2025 rules are silent)", page)
        assert bare == [], path
    page = client.get(f"/t/{tournament.slug}/penalties/").content.decode()
    assert "EMA 2025 rules, point penalties" in page
    ana = Player.objects.get(name="Ana")
    with pytest.raises(Refusal) as refused:
        penalties.give_penalty(ana, "lateness", head_referee, round=seated_table.round, minutes_late=0)
    assert refused.value.rule == "lateness (EMA 2025 rules, point penalties (being late to a session))"
    late = penalties.give_penalty(ana, "lateness", head_referee, round=seated_table.round, minutes_late=3)
    substitute = Player.objects.create(tournament=tournament, name="Sub", is_substitute=True)
    services.replace_with_substitute(seated_table.round, ana, substitute, organiser)
    penalties.give_penalty(ana, "missed_hanchan", head_referee, round=seated_table.round)
    assert "where the EMA 2025 rules are silent" in Penalty.objects.get(pk=late.pk).revoke_reason
