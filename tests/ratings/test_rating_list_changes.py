"""A rating list follows every change of its data at once (``tournament.queries.ratings_db``: the cached list
is
keyed by a digest of what it is made of): a reveal of hidden hanchan, a correction of a signed sheet, a
registration split off its person; and a series' cached standings follow a correction. The tournaments
and the MERS values: tests/ratings/test_rating_lists.py.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from scoring import services as sheets
from scoring.models import ScoreSheet
from tests.ratings.test_rating_lists import build, key
from tests.series.helpers import FIRST
from tournament.models import Player, Series
from tournament.queries.ratings_db import site_list
from tournament.queries.series_db import series_table
from tournament.services import persons as person_services
from tournament.services.tournaments import reveal_standings


@pytest.mark.django_db
def test_a_reveal_a_correction_and_a_split_change_the_list_at_once(db: None) -> None:
    world = build()
    before = site_list()
    season = Series.objects.create(name="Season", slug="season")
    season.tournaments.set([world["spring"]])
    assert [row["name"] for row in series_table(season)["rows"]] == ["Ana", "Dai", "Ben", "Cho"]
    ben = key(world, "Ben")
    reveal_standings(world["winter"], world["winter_organiser"])
    revealed = site_list()
    assert revealed.digest != before.digest
    assert dict((w, n) for w, _m, _s, n in revealed.skill)[ben] == 4  # winter's hanchan 2 counts now
    # A correction of spring's sheet (Ben and Cho swap their points: Ben 4th, Cho 3rd). Ben: 0 x 2 +
    # 1000 = 1000: 1000 x 11 / 60 = 183.33; Cho: 333 x 2 + 667 = 1333: 1333 x 11 / 60 = 244.383 -> 244.38.
    sheet = ScoreSheet.objects.get(table__round__tournament=world["spring"])
    points = {**FIRST, "Ben": FIRST["Cho"], "Cho": FIRST["Ben"]}
    entry = {"form": "final", "final_points": points, "riichi_sticks_left": 0}
    sheets.correct_sheet(sheet, entry, world["spring_organiser"], reason="Ben and Cho swapped")
    corrected = site_list()
    # The series' cached standings follow the correction too: Cho 3rd, Ben 4th.
    assert [row["name"] for row in series_table(season)["rows"]] == ["Ana", "Dai", "Cho", "Ben"]
    assert corrected.digest != revealed.digest
    assert {who: value for who, value, _n in corrected.mers} == {
        key(world, "Ana"): Decimal("427.72"),
        key(world, "Dai"): Decimal("244.57"),
        key(world, "Cho"): Decimal("244.38"),
        ben: Decimal("183.33"),
    }
    # Dai's autumn registration loses its EMA id and is split off their person: it counts alone.
    dai_autumn = Player.objects.get(tournament=world["autumn"], name="Dai")
    Player.objects.filter(pk=dai_autumn.pk).update(ema_id="")
    person_services.split_registration(Player.objects.get(pk=dai_autumn.pk), world["autumn_organiser"])
    split = site_list()
    assert split.digest != corrected.digest
    assert f"player:{dai_autumn.pk}" in {who for who, *_rest in split.skill}
