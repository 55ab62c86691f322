"""The awards' pages (``tournament.views.awards``) on the two hanchan of ``conftest.played``: hanchan 1
is the sheet worked out in ``tests/scoring/hanchan.py``, hanchan 2 Ana's dealer tsumo yakuman (48,000).

The best hand over both: Ana's yakuman (48,000, hanchan 2, East 1, hand 1). Over hanchan 1 alone (what
the public sees while hanchan 2 is hidden): Ana's dealer mangan tsumo, 12,000 (South 1, hand 6).
Without Ana (disqualified: not in the ranking, WRCR 2015 §7.1): Dai's 3,900 on hand 4 (East 4) and Ben's
3,900 on hand 8 (South 1) tie, and both are shown."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from exports.archive.dump import export_archive
from exports.archive.load import import_archive
from tournament import services
from tournament.core.awards import AWARDS
from tournament.core.refusal import Refusal
from tournament.models import Player, Tournament


def best_hand_winners(html: str) -> str:
    start = html.index('data-award="best_hand"')
    return html[start : html.index("</section>", start)]


def choose(tournament: Tournament, organiser: Any, awards: list[str]) -> None:
    services.update_tournament(tournament, organiser, awards=awards)


@pytest.mark.django_db
def test_the_organiser_chooses_the_awards_on_their_page(played: Tournament, organiser: Any) -> None:
    client = Client()
    client.force_login(organiser)
    page = client.get(f"/t/{played.slug}/manage/awards/")
    assert page.status_code == 200 and 'name="awards"' in page.content.decode()
    # Ticked in any order, stored in the awards' order.
    saved = client.post(f"/t/{played.slug}/manage/awards/", {"awards": ["most_riichi", "best_hand"]})
    assert saved.status_code == 302
    played.refresh_from_db()
    assert played.awards == ["best_hand", "most_riichi"]
    # An award that does not exist: refused beside the field, nothing stored.
    refused = client.post(f"/t/{played.slug}/manage/awards/", {"awards": ["best_hand", "prettiest_tiles"]})
    assert refused.status_code == 200 and "prettiest_tiles" in refused.content.decode()
    played.refresh_from_db()
    assert played.awards == ["best_hand", "most_riichi"]


@pytest.mark.django_db
def test_the_api_sets_the_awards_and_refuses_a_repeat(played: Tournament, organiser: Any) -> None:
    client = APIClient()
    client.force_authenticate(organiser)
    url = f"/api/tournaments/{played.pk}/"
    ok = client.patch(url, {"awards": ["most_wins", "best_comeback"]}, format="json")
    assert ok.status_code == 200, ok.content
    assert ok.json()["awards"] == ["most_wins", "best_comeback"]
    for bad in (["best_hand", "best_hand"], ["prettiest_tiles"]):
        refused = client.patch(url, {"awards": bad}, format="json")
        assert refused.status_code == 400, refused.content
        assert refused.json()["errors"][0]["field"].startswith("awards"), refused.json()
    played.refresh_from_db()
    assert played.awards == ["most_wins", "best_comeback"]


@pytest.mark.django_db
def test_the_public_page_shows_the_chosen_awards(played: Tournament, organiser: Any) -> None:
    anonymous = Client()
    assert "data-no-awards" in anonymous.get(f"/t/{played.slug}/awards/").content.decode()
    assert "data-awards-link" not in anonymous.get(f"/t/{played.slug}/").content.decode()
    choose(played, organiser, list(AWARDS))
    html = anonymous.get(f"/t/{played.slug}/awards/").content.decode()
    assert [key for key in AWARDS if f'data-award="{key}"' in html] == list(AWARDS)
    best = best_hand_winners(html)
    ana = Player.objects.get(tournament=played, name="Ana")
    assert f'data-winner="{ana.pk}"' in best and "48,000 points: hanchan 2, table 1, East 1 (hand 1)" in best
    assert "data-awards-link" in anonymous.get(f"/t/{played.slug}/").content.decode()


@pytest.mark.django_db
def test_hidden_hanchan_stay_out_of_the_public_awards(played: Tournament, organiser: Any) -> None:
    """Hanchan 2 hidden (the last 4 of 5): the public page and the projector (whoever is signed in on it)
    read hanchan 1 only; the organiser's own awards page reads both; revealed, the public sees both."""
    choose(played, organiser, ["best_hand", "most_yakuman"])
    played.hidden_hanchan = 4
    played.save()
    anonymous, staff = Client(), Client()
    staff.force_login(organiser)
    for client, url in (
        (anonymous, "awards/"),
        (anonymous, "projector/awards/"),
        (staff, "projector/awards/"),
    ):
        html = client.get(f"/t/{played.slug}/{url}").content.decode()
        assert "48,000" not in html and "48000" not in html, url
        assert "12,000 points: hanchan 1, table 1, South 1 (hand 6)" in best_hand_winners(html), url
        start = html.index('data-award="most_yakuman"')
        assert "data-no-winner" in html[start : html.index("</section>", start)], url
    assert "48,000 points" in staff.get(f"/t/{played.slug}/awards/").content.decode()
    services.reveal_standings(played, organiser)
    assert "48,000 points" in anonymous.get(f"/t/{played.slug}/awards/").content.decode()


@pytest.mark.django_db
def test_a_disqualified_player_wins_nothing_and_a_tie_shows_both(played: Tournament, organiser: Any) -> None:
    choose(played, organiser, ["best_hand"])
    Player.objects.filter(tournament=played, name="Ana").update(disqualified=True)
    best = best_hand_winners(Client().get(f"/t/{played.slug}/awards/").content.decode())
    ana, ben, dai = (Player.objects.get(tournament=played, name=name) for name in ("Ana", "Ben", "Dai"))
    assert f'data-winner="{ana.pk}"' not in best
    assert "3,900 points: hanchan 1, table 1, East 4 (hand 4)" in best and f'data-winner="{dai.pk}"' in best
    assert "3,900 points: hanchan 1, table 1, South 1 (hand 8)" in best and f'data-winner="{ben.pk}"' in best


def test_the_model_choices_are_the_awards() -> None:
    assert [value for value, _label in Tournament.Award.choices] == list(AWARDS)


@pytest.mark.django_db
def test_the_archive_keeps_the_awards_and_an_old_archive_has_none(played: Tournament, organiser: Any) -> None:
    choose(played, organiser, ["best_hand", "best_comeback"])
    played.refresh_from_db()
    archive = json.loads(export_archive(played))
    assert archive["tournament"]["awards"] == ["best_hand", "best_comeback"]
    assert import_archive(archive, slug="copy").awards == ["best_hand", "best_comeback"]
    del archive["tournament"]["awards"]
    assert import_archive(archive, slug="older").awards == []
    archive["tournament"]["awards"] = ["best_hand", "prettiest_tiles"]
    with pytest.raises(Refusal, match=r"tournament\.awards: Awards: prettiest_tiles is not an award"):
        import_archive(archive, slug="refused")
    assert not Tournament.objects.filter(slug="refused").exists()
