"""Every list of players a form offers is in the reader's collation, by the name the reader sees, as
the site's other lists are (tournament.collation): É after E and Ł after L, not after Z."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from tournament.models import Player, Tournament

NAMES = ["Zoe Zimmer", "Łukasz Łapa", "Émile Ébert", "Adam Abel", "Luc Lenoir", "Eva Engel"]
ORDER = ["Adam Abel", "Émile Ébert", "Eva Engel", "Luc Lenoir", "Łukasz Łapa", "Zoe Zimmer"]


def options(page: str, select_id: str) -> list[str]:
    select = re.search(rf'<select[^>]*id="{select_id}"[^>]*>(.*?)</select>', page, re.S)
    assert select, select_id
    return [
        label for value, label in re.findall(r'<option value="(\d+)"[^>]*>([^<]*)</option>', select.group(1))
    ]


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["fr", "de", "en"])
def test_the_absences_and_penalties_forms_list_players_in_the_readers_order(
    tournament: Tournament, organiser: Any, language: str
) -> None:
    Player.objects.bulk_create(Player(tournament=tournament, name=name) for name in NAMES)
    Player.objects.create(tournament=tournament, name="Élise Substitute", is_substitute=True)
    Player.objects.create(tournament=tournament, name="Bea Substitute", is_substitute=True)
    organiser.is_superuser = True  # a head referee's page too
    organiser.save()
    client = Client(headers={"Accept-Language": language})
    client.force_login(organiser)
    page = client.get(f"/t/{tournament.slug}/manage/absences/").content.decode()
    assert options(page, "withdraw-player") == ORDER
    assert options(page, "substitute-player") == ORDER
    assert options(page, "withdraw-substitute") == ["Bea Substitute", "Élise Substitute"]
    penalties = client.get(f"/t/{tournament.slug}/penalties/").content.decode()
    everyone = ["Adam Abel", "Bea Substitute", "Élise Substitute", "Émile Ébert", *ORDER[2:]]
    assert options(penalties, "id_player") == everyone
