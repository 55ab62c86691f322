# ruff: noqa: RUF001 (the expected texts are Japanese, Chinese and Russian: their punctuation is theirs)
"""The rules engine's and the score sheets' messages in seven languages (scoring.rules.i18n).

The pure core passes every person-visible message through ``scoring.rules.i18n._``; Django's gettext is
installed at startup (``scoring.apps``), so a message comes out in the active language while the rule
identifier stays the same. The catalogues must be complete, and a translation must keep every
placeholder of its message: a dropped or renamed ``{name}`` is a KeyError, so a 500, at run time.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import polib
import pytest
from django.test import Client
from django.utils import translation

from scoring import services
from scoring.rules import i18n, tenhou
from scoring.rules.replay import replay
from scoring.rules.ruleset import get_ruleset
from scoring.rules.scores import check_final_points
from tournament.core.refusal import Refusal

LOCALE = Path(__file__).resolve().parents[2] / "scoring" / "locale"
CATALOGUES = sorted(LOCALE.glob("*/LC_MESSAGES/django.po"))
LANGUAGES = ("ja", "ru", "fr", "de", "zh-hans", "ko")
PLACEHOLDER = re.compile(r"\{(\w+)\}")

# Final points of 119,000 with three riichi sticks left: the table's 120,000 less 3,000 is 117,000.
POINTS = {"Ana": 30000, "Ben": 30000, "Cho": 30000, "Dai": 29000}
TOTAL_RULE = "points-total (WRCR 2015 §5.7.4, §5.9)"
ENGLISH_TOTAL = "final points add up to 119,000, not 117,000 (120,000 less 3 riichi sticks left)"
TOTAL = {
    "ja": "最終持ち点の合計は 119,000 で、117,000 ではありません（120,000 から残った立直棒3本を引いた値）",
    "ru": "итоговые очки в сумме дают 119,000, а не 117,000 (120,000 минус 3 оставшиеся палочки риичи)",
    "fr": "les points finaux font 119,000, pas 117,000 (120,000 moins 3 bâtons de riichi restants)",
    "de": "die Endpunkte ergeben zusammen 119,000, nicht 117,000 (120,000 weniger 3 übrig gebliebene "
    "Riichi-Stäbchen)",
    "zh-hans": "最终点数合计为 119,000，而不是 117,000（120,000 减去剩下的 3 根立直棒）",
    "ko": "최종 점수의 합계는 119,000입니다 (올바른 합계: 117,000, 120,000에서 남은 리치봉 3개를 뺀 값)",
}
# The dealer (East 1) paid as a non-dealer: the explanation names the round in the reader's language.
DEALER_SHEET = {
    "players": ["Ana", "Ben", "Cho", "Dai"],
    "hands": [{"deltas": {"Ana": 8000, "Ben": -8000, "Cho": 0, "Dai": 0}}],
}
DEALER = {
    "ja": "第1局（東1局、0本場）：Anaはこの局の親として和了していますが、+8,000 は子のロンの支払いです",
    "ru": "раздача 1 (Восток 1, 0 хонба): Ana выигрывает как дилер этой раздачи, но +8,000 — выплата за рон "
    "не-дилера",
    "fr": "main 1 (Est 1, 0 honba) : Ana gagne en tant que donneur de cette main, mais +8,000 est le "
    "paiement du ron d'un non-donneur",
    "de": "Hand 1 (Ost 1, 0 Honba): Ana gewinnt als Geber dieser Hand, aber +8,000 ist die Ron-Zahlung "
    "eines Nicht-Gebers",
    "zh-hans": "第 1 局（东1局，0 本场）：Ana作为本局庄家和牌，但 +8,000 是闲家荣和的支付",
    "ko": "1번째 국 (동1국 0본장): Ana은(는) 이번 국의 친으로 화료하지만, +8,000은(는) 자의 론 지불입니다",
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_refusal_of_the_rules_comes_in_the_active_language_with_its_rule_unchanged(language: str) -> None:
    with translation.override(language):
        (problem,) = check_final_points(POINTS, 3, get_ruleset())
    assert problem == {"hand": None, "rule": TOTAL_RULE, "message": TOTAL[language]}


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_explanation_of_the_replay_comes_in_the_active_language(language: str) -> None:
    with translation.override(language):
        (error,) = replay(DEALER_SHEET).errors
    assert (error.hand, error.rule, error.message) == (
        1,
        "dealer-rotation (WRCR 2015 §5.7.8)",
        DEALER[language],
    )


def test_a_chombo_without_its_offender_is_refused_in_the_active_language() -> None:
    chombo = {"players": ["Ana", "Ben", "Cho", "Dai"], "hands": [{"result": "chombo", "offender": []}]}
    with translation.override("fr"):
        messages = [error["message"] for error in replay(chombo).as_json()["errors"]]
    assert any(message.endswith("un chombo nomme son auteur") for message in messages), messages


def test_without_an_active_translation_the_messages_are_the_english_ones() -> None:
    with translation.override("en"):
        (problem,) = check_final_points(POINTS, 3, get_ruleset())
    assert problem["message"] == ENGLISH_TOTAL


def test_the_pure_core_alone_speaks_english_and_takes_any_translation_function() -> None:
    """The hook itself, without Django's gettext: a plural picked for the count, placeholders filled
    after translation."""
    installed = (i18n._gettext, i18n._ngettext)
    try:
        i18n.use_translation(i18n._english, i18n._english_plural)
        one = {**POINTS, "Dai": 30000}
        (problem,) = check_final_points(one, 1, get_ruleset())
        assert (
            problem["message"]
            == "final points add up to 120,000, not 119,000 (120,000 less 1 riichi stick left)"
        )
        i18n.use_translation(str.upper, lambda one, many, n: (one if n == 1 else many).upper())
        assert i18n._("a hand is a JSON object") == "A HAND IS A JSON OBJECT"
        assert i18n.ngettext("{n} stick", "{n} sticks", 2) == "{N} STICKS"
    finally:
        i18n.use_translation(*installed)


def test_a_game_log_refusal_comes_in_the_active_language() -> None:
    with translation.override("ja"), pytest.raises(Refusal) as caught:
        tenhou.read_log('{"name": ["a", "b", "c", "d"], "log": []}')
    (problem,) = caught.value.problems
    assert (problem.field, problem.rule, problem.message) == ("log", tenhou.RULE_LOG, "'log' は局を並べます")


@pytest.mark.django_db
def test_a_service_refusal_comes_in_the_active_language(seated_table: Any, referee: Any) -> None:
    """Through the score-sheet service, as a request in Japanese gets it (the language chosen by
    translation.override here, by the request's locale on the site)."""
    entry = {"form": "final", "final_points": {"Ana": 40000, "Ben": 30000, "Cho": 25000, "Dai": 24000}}
    with translation.override("ja"), pytest.raises(Refusal) as caught:
        services.save_sheet(seated_table, entry, referee, submit=True)
    (problem,) = caught.value.problems
    assert problem.rule == "points-total (WRCR 2015 §5.7.4, §5.9)"
    assert problem.message == "最終持ち点の合計は 119,000 で、120,000 ではありません"


@pytest.mark.parametrize("path", CATALOGUES, ids=lambda path: path.parts[-3])
def test_every_catalogue_is_complete_without_fuzzy_entries(path: Path) -> None:
    catalogue = polib.pofile(str(path))
    assert [entry.msgid for entry in catalogue if not entry.translated()] == []
    assert [entry.msgid for entry in catalogue if "fuzzy" in entry.flags] == []
    assert [entry.msgid for entry in catalogue.obsolete_entries()] == []


@pytest.mark.parametrize("path", CATALOGUES, ids=lambda path: path.parts[-3])
def test_every_translation_keeps_the_placeholders_of_its_message(path: Path) -> None:
    wrong = []
    for entry in polib.pofile(str(path)):
        wanted = set(PLACEHOLDER.findall(entry.msgid)) | set(PLACEHOLDER.findall(entry.msgid_plural or ""))
        texts = list(entry.msgstr_plural.values()) if entry.msgid_plural else [entry.msgstr]
        wrong += [(entry.msgid, text) for text in texts if set(PLACEHOLDER.findall(text)) != wanted]
    assert wrong == []


def test_the_seven_languages_have_their_catalogue() -> None:
    assert sorted(path.parts[-3] for path in CATALOGUES) == ["de", "en", "fr", "ja", "ko", "ru", "zh_Hans"]
    for path in CATALOGUES:
        assert path.with_suffix(".mo").exists(), f"{path} is not compiled (django-admin compilemessages)"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("accept", "message"), [("ja", "最終持ち点の合計は 119,000 で、120,000 ではありません"), ("en", None)]
)
def test_the_api_answers_a_refusal_in_the_language_of_accept_language(
    seated_table: Any, referee: Any, accept: str, message: str | None
) -> None:
    """The request's language (LocaleMiddleware: Accept-Language here) reaches the rules engine's
    message; the rule identifier stays the same in every language."""
    client = Client()
    client.force_login(referee)
    entry = {"form": "final", "final_points": {"Ana": 40000, "Ben": 30000, "Cho": 25000, "Dai": 24000}}
    response = client.post(
        f"/api/tables/{seated_table.pk}/sheet/",
        {"entry": entry, "submit": True},
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE=accept,
    )
    assert response.status_code == 400
    (error,) = [e for e in response.json()["errors"] if e["rule"].startswith("points-total")]
    assert error["rule"] == "points-total (WRCR 2015 §5.7.4, §5.9)"
    assert error["message"] == (message or "final points add up to 119,000, not 120,000")
