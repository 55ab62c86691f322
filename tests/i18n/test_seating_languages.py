"""The seating, its quality report, absences and the tournament API's refusals in the reader's language
(docs/languages.md): the same rule and field whatever the language, only the words change."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone, translation
from rest_framework.test import APIClient

from tests.conftest import make_players
from tournament import services
from tournament.core.presentation import reseat_changes
from tournament.models import Player, SeatingJob, Tournament


def organiser_client(organiser: Any, language: str) -> Client:
    client = Client(headers={"Accept-Language": language})
    client.force_login(organiser)
    return client


@pytest.fixture
def generated(
    tournament: Tournament, organiser: Any, sixteen_players: Any, django_capture_on_commit_callbacks: Any
) -> SeatingJob:
    """Five hanchan generated for sixteen players (the task runs in process when the request commits)."""
    with django_capture_on_commit_callbacks(execute=True):
        response = organiser_client(organiser, "en").post(
            f"/t/{tournament.slug}/manage/seating/", {"from_round": 1, "seed": 3}
        )
    assert response.status_code == 302
    return SeatingJob.objects.get(tournament=tournament, state=SeatingJob.State.DONE)


@pytest.mark.django_db
def test_the_seating_page_and_its_quality_report_in_japanese(
    tournament: Tournament, organiser: Any, generated: SeatingJob
) -> None:
    client = organiser_client(organiser, "ja")
    page = client.get(f"/t/{tournament.slug}/manage/seating/jobs/{generated.pk}/").content.decode()
    assert '<html lang="ja">' in page
    assert "席順の質" in page and "16人、5半荘、4卓。" in page
    assert "対戦相手：最善です。" in page and "2回以上対戦する組はありません。" in page  # noqa: RUF001
    assert "第1半荘" in page and "完了" in page  # the schedule's pills, the job's state
    assert "Quality of the schedule" not in page and "Opponents" not in page
    manage = client.get(f"/t/{tournament.slug}/manage/seating/").content.decode()
    assert "席順の生成" in manage and "スイス式の半荘" in manage and "席順を生成" in manage


@pytest.mark.django_db
def test_the_quality_report_in_russian_with_its_plurals(
    tournament: Tournament, organiser: Any, generated: SeatingJob
) -> None:
    page = organiser_client(organiser, "ru").get(f"/t/{tournament.slug}/manage/seating/").content.decode()
    assert "Качество рассадки" in page
    assert "16 игроков, 5 ханчанов, 4 стола." in page
    assert "Соперники: лучше невозможно." in page
    assert "Никакие два игрока не встречаются больше одного раза." in page


def test_a_reseating_says_what_changes_with_each_languages_plurals() -> None:
    before = {2: {1: 1, 2: 1, 3: 1, 4: 2, 5: 2, 6: 2}}
    after = {2: {1: 2, 2: 2, 3: 1, 4: 1, 5: 1, 7: 2}}
    names = {6: "Olga Petrova", 7: "Sub 001"}
    with translation.override("ru"):
        [line] = reseat_changes(before, after, names)
    assert line == "Ханчан 2: добавляются: Sub 001; выбывают: Olga Petrova; 4 игрока меняют стол."
    with translation.override("ja"):
        assert reseat_changes({1: {1: 1}}, {1: {1: 2}}, {}) == ["第1半荘：1人が卓を移動。"]  # noqa: RUF001
    with translation.override("en"):
        assert reseat_changes({1: {1: 1}}, {1: {1: 2}}, {}) == ["Hanchan 1: 1 player changes table."]


@pytest.mark.django_db
def test_a_seating_refusal_on_the_form_in_french(tournament: Tournament, organiser: Any) -> None:
    make_players(tournament, 6)
    response = organiser_client(organiser, "fr").post(
        f"/t/{tournament.slug}/manage/seating/", {"from_round": 1, "seed": 0}
    )
    assert response.status_code == 200
    page = response.content.decode()
    assert "6 joueurs ont besoin de 2 remplaçants pour remplir 2 tables" in page
    assert "Génération du placement" in page


@pytest.mark.django_db
def test_the_absences_page_in_chinese(tournament: Tournament, organiser: Any, seated_table: Any) -> None:
    page = organiser_client(organiser, "zh-CN").get(f"/t/{tournament.slug}/manage/absences/").content.decode()
    assert "缺席与替补" in page and "安排替补入座" in page and "选手退赛" in page
    assert "Absences and substitutes" not in page


@pytest.mark.django_db
def test_an_absence_refusal_through_the_api_keeps_its_rule_and_field_in_german(
    tournament: Tournament, organiser: Any, seated_table: Any
) -> None:
    absent = seated_table.seats.order_by("wind").first().player
    not_a_substitute = Player.objects.create(tournament=tournament, name="Not A Sub")
    url = f"/api/tournaments/{tournament.pk}/players/{absent.pk}/substitute/"
    answers = {}
    for language in ("en", "de"):
        client = APIClient(headers={"Accept-Language": language})
        client.force_authenticate(organiser)
        response = client.post(url, {"round": 1, "substitute": not_a_substitute.pk}, format="json")
        assert response.status_code == 400
        [answers[language]] = response.json()["errors"]
    english, german = answers["en"], answers["de"]
    assert (german["field"], german["rule"]) == (english["field"], english["rule"])
    assert (german["field"], german["rule"]) == ("substitute", "substitute-pool (WRCR 2015 §7.2)")
    assert english["message"] == "substitute: Not A Sub is not a substitute of this tournament"
    assert german["message"] == "substitute: Not A Sub ist kein Ersatzspieler dieses Turniers"


@pytest.mark.django_db
def test_a_missing_tournament_through_the_api_in_french(organiser: Any) -> None:
    client = APIClient(headers={"Accept-Language": "fr"})
    client.force_authenticate(organiser)
    [error] = client.get("/api/tournaments/999999/").json()["errors"]
    assert error["rule"] == "not_found" and error["message"] == "aucun tournoi 999999"


@pytest.mark.django_db
def test_a_job_given_up_is_told_in_its_tournaments_language(tournament: Tournament) -> None:
    """The job's error is stored once, written in the tournament's language whoever's sweep writes it."""
    tournament.language = "de"
    tournament.save()
    long_ago = timezone.now() - timedelta(hours=1)
    job = SeatingJob.objects.create(
        tournament=tournament, state=SeatingJob.State.RUNNING, attempt=3, heartbeat_at=long_ago
    )
    with translation.override("en"):
        services.requeue_stalled_seating()
    job.refresh_from_db()
    assert job.state == SeatingJob.State.FAILED
    assert job.error == "aufgegeben: der Worker wurde bei jedem der 3 Versuche beendet"


@pytest.mark.django_db
def test_a_withdrawal_to_confirm_in_russian(
    tournament: Tournament, organiser: Any, seated_table: Any
) -> None:
    player = seated_table.seats.order_by("wind").first().player
    response = organiser_client(organiser, "ru").post(
        f"/t/{tournament.slug}/manage/absences/", {"form": "withdraw", "player": player.pk, "from_round": 1}
    )
    page = response.content.decode()
    assert f"Подтверждение: {player.name} снимается с турнира начиная с ханчана 1" in page  # noqa: RUF001
    assert f"Ханчан 1 уже начат: {player.name} сохраняет там место." in page  # hanchan 1 is in play
    assert f"Каждый ханчан, сыгранный без {player.name}, стоит штрафа за пропущенный ханчан" in page
    assert "Подтвердить снятие" in page
