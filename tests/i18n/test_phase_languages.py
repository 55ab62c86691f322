"""Phases, the hanchan clock and the standings' leftovers in the reader's language, end to end: the pages
in Japanese and French, the refusals of the cut and of the phase plan through the API in Russian and
German with their field and rule unchanged, the pure modules' messages through the translation hook, and
the JavaScript catalogue's words for the live standings."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from penalties.services import give_penalty
from tests.standings.test_phase_event import PLANS, play_qualifying
from tournament import services
from tournament.core.clock import RULE, Clock
from tournament.core.phases import PhasePlan, plan_problem
from tournament.core.refusal import Refusal
from tournament.core.standings import tie_breaks_problem
from tournament.models import Round, Tournament


@pytest.fixture
def qualified(tournament: Tournament, organiser: Any, referee: Any) -> Tournament:
    return play_qualifying(tournament, organiser, referee)


def staff_client(user: Any, language: str) -> Client:
    client = Client(headers={"Accept-Language": language})
    client.force_login(user)
    return client


@pytest.mark.django_db
def test_the_phases_page_in_japanese_and_french(qualified: Tournament, organiser: Any) -> None:
    page = f"/t/{qualified.slug}/manage/phases/"
    japanese = staff_client(organiser, "ja").get(page).content.decode()
    assert '<html lang="ja">' in japanese
    shown = ("フェーズの設定", "フェーズを保存", "カットで残る上位4名：", "第1–2半荘", "第3半荘")  # noqa: RUF001
    for words in shown:
        assert words in japanese, words
    assert "Save the phases" not in japanese
    french = staff_client(organiser, "fr").get(page).content.decode()
    for words in (
        "Enregistrer les phases",
        "La coupe retient les 4 meilleurs :",
        "Faire la coupe vers « Final »",
    ):
        assert words in french, words


@pytest.mark.django_db
def test_a_refusal_of_the_phase_plan_is_shown_in_french_beside_its_field(
    tournament: Tournament, organiser: Any
) -> None:
    data = {
        "action": "set",
        "phase-TOTAL_FORMS": "2",
        "phase-INITIAL_FORMS": "0",
        "phase-MIN_NUM_FORMS": "0",
        "phase-MAX_NUM_FORMS": "6",
        "phase-0-name": "Qualifications",
        "phase-0-hanchan": "8",
        "phase-0-seating": "optimised",
        "phase-0-advance": "",
        "phase-0-carry_over": "keep",
        "phase-1-name": "Finale",
        "phase-1-hanchan": "2",
        "phase-1-seating": "by_rank",
        "phase-1-advance": "6",
        "phase-1-carry_over": "halve",
    }
    response = staff_client(organiser, "fr").post(f"/t/{tournament.slug}/manage/phases/", data)
    assert response.status_code == 200
    shown = response.content.decode()
    assert "phases[1].advance : le nombre de joueurs que retient la coupe, un multiple de 4" in shown


@pytest.mark.django_db
def test_the_clock_page_in_japanese_and_french(tournament: Tournament, organiser: Any) -> None:
    Round.objects.create(tournament=tournament, number=1, status="seated")
    page = f"/t/{tournament.slug}/clock/"
    japanese = staff_client(organiser, "ja").get(page).content.decode()
    for words in ("半荘の時計", "第1半荘を開始", "卓ごとの延長時間", "最後の卓の点数表に署名されると"):
        assert words in japanese, words
    assert f"1半荘{tournament.hanchan_minutes}分" in japanese
    french = staff_client(organiser, "fr").get(page).content.decode()
    for words in ("Horloge du hanchan", "Commencer le hanchan 1", "Accorder les minutes supplémentaires"):
        assert words in french, words
    assert "minutes par hanchan" in french


@pytest.mark.django_db
def test_the_clock_pages_messages_follow_the_language(tournament: Tournament, organiser: Any) -> None:
    Round.objects.create(tournament=tournament, number=1, status="seated")
    page = f"/t/{tournament.slug}/clock/"
    client = staff_client(organiser, "de")
    started = client.post(page, {"form": "clock", "action": "start"}, follow=True).content.decode()
    assert "Hanchan 1: Die Uhr läuft." in started
    again = client.post(page, {"form": "clock", "action": "start"}, follow=True).content.decode()
    assert "clock: läuft bereits" in again


@pytest.mark.django_db
def test_a_cut_refused_through_the_api_in_russian_keeps_its_field_and_rule(
    tournament: Tournament, organiser: Any
) -> None:
    services.set_phases(tournament, organiser, PLANS)  # the qualifying not played: the cut must wait
    url = f"/api/tournaments/{tournament.pk}/phases/2/cut/"
    answers = {}
    for language in ("en", "ru"):
        response = staff_client(organiser, language).post(url, {}, content_type="application/json")
        assert response.status_code == 409
        (answers[language],) = response.json()["errors"]
    english, russian = answers["en"], answers["ru"]
    assert (
        (russian["field"], russian["rule"])
        == (english["field"], english["rule"])
        == ("phase", "phase-complete")
    )
    assert english["message"] == (
        "phase: hanchan 1 of the phase before Final is not complete (every table signed) yet"
    )
    assert russian["message"] == (
        "phase: ханчан 1 этапа перед «Final» ещё не завершён (не все столы подписаны)"
    )


@pytest.mark.django_db
def test_a_cut_tie_through_the_api_in_russian_names_the_tied_players(
    qualified: Tournament, organiser: Any, head_referee: Any
) -> None:
    gus = qualified.players.get(name="Gus")
    give_penalty(
        gus, "other", head_referee, points=14, reason="obstructing", round=qualified.rounds.get(number=2)
    )
    response = staff_client(organiser, "ru").post(
        f"/api/tournaments/{qualified.pk}/phases/2/cut/", {}, content_type="application/json"
    )
    assert response.status_code == 409
    (error,) = response.json()["errors"]
    assert (error["field"], error["rule"], error["places"]) == ("chosen", "cut-tie", 1)
    assert error["message"].startswith("chosen: Fay, Gus равны на границе после всех тай-брейков")


@pytest.mark.django_db
def test_a_phase_plan_refused_through_the_api_in_german(tournament: Tournament, organiser: Any) -> None:
    body = {
        "phases": [
            {"name": "Qualifikation", "hanchan": 8},
            {"name": "Finale", "hanchan": 2, "seating": "by_rank", "carry_over": "halve", "advance": 6},
        ]
    }
    response = staff_client(organiser, "de").put(
        f"/api/tournaments/{tournament.pk}/phases/", body, content_type="application/json"
    )
    assert response.status_code == 400
    (error,) = response.json()["errors"]
    assert (error["field"], error["rule"]) == ("phases[1].advance", "phase-cut")
    assert error["message"] == (
        "phases[1].advance: wie viele Spieler der Cut behält, ein Vielfaches von 4 (ganze Tische)"
    )


@pytest.mark.django_db
def test_a_page_for_organisers_says_so_in_the_readers_language(tournament: Tournament, referee: Any) -> None:
    response = staff_client(referee, "fr").get(f"/t/{tournament.slug}/manage/phases/")
    assert response.status_code == 403
    assert f"Cette page est réservée aux organisateurs de {tournament.name}." in response.content.decode()


def test_the_pure_modules_speak_the_active_language() -> None:
    """The phase plan, the clock and the tie-breaks translate through the rules engine's hook; their
    fields and rules stay as they are."""
    plans = [PhasePlan("Q", 8), PhasePlan("F", 2, advance=6)]
    with translation.override("ja"):
        problem = plan_problem(plans)
        assert problem is not None
        assert (problem.field, problem.rule) == ("phases[1].advance", "phase-cut")
        assert problem.message == "phases[1].advance：カットで残る人数（卓単位なので4の倍数）"  # noqa: RUF001
        assert tie_breaks_problem(["most_firsts", "most_firsts"]) == "各順位決定は1回まで"
    with translation.override("zh-hans"), pytest.raises(Refusal) as refused:
        Clock.stopped(90).pause(datetime(2026, 4, 11, tzinfo=UTC))
    assert (refused.value.field, refused.value.rule) == ("clock", RULE)
    assert refused.value.message == "clock：未在计时"  # noqa: RUF001
    with translation.override("en"):
        english = plan_problem(plans)
    assert english is not None and english.message.startswith("phases[1].advance: how many players")


@pytest.mark.django_db
def test_the_scripts_catalogue_has_the_unranked_notes() -> None:
    """The live standings translate a player's unranked note with the JavaScript catalogue."""
    catalogue = Client(headers={"Accept-Language": "ja"}).get("/jsi18n/").content.decode()
    for english, japanese in (("Substitute", "補欠"), ("Did not start", "不出場"), ("Withdrawn", "棄権")):
        assert f"{json.dumps(english)}: {json.dumps(japanese)}" in catalogue


@pytest.mark.django_db
def test_the_player_page_groups_points_as_the_language_does(qualified: Tournament) -> None:
    ann = qualified.players.get(name="Ann")
    page = f"/t/{qualified.slug}/players/{ann.pk}/"
    cell = '<td class="num" data-key="points">{points}<span class="narrow-only">'
    assert cell.format(points="45,000") in Client().get(page).content.decode()
    german = Client(headers={"Accept-Language": "de"}).get(page).content.decode()
    assert cell.format(points="45.000") in german
