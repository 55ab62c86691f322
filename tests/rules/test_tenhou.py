"""Online game logs (tenhou.net/6 JSON) read into score sheets: the logs kept in ``tests/data/tenhou/``,
each against its expected sheet and findings, replayed by the rules engine, and broken logs refused by hand
and field.
"""

from __future__ import annotations

import copy
import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from scoring.rules.replay import replay
from scoring.rules.ruleset import Ruleset, get_ruleset
from scoring.rules.tenhou import (
    MAX_HANDS,
    RESEAT_LABEL,
    RULE_ABORTIVE,
    RULE_FINAL,
    RULE_HANCHAN_SCORE,
    RULE_HEAD_BUMP,
    RULE_KIRIAGE,
    RULE_LIABILITY,
    RULE_NAGASHI,
    RULE_PAYMENT,
    RULE_RED_FIVES,
    RULE_START,
    RULE_STICKS_LEFT,
    RULE_TRIPLE_RON,
    RULE_UNFINISHED,
    RULE_WEST,
    fold,
    hand_label,
    log_sheet,
    match_players,
    read_log,
)
from tournament.core.refusal import Refusal

DATA = Path(__file__).resolve().parent.parent / "data" / "tenhou"
SEATED = ["Ana", "Ben", "Cho", "Dai"]
TENHOU = get_ruleset("TENHOU")
MAPPING = {"chochan": "Cho", "dai-chi": "Dai"}
LOGS = [
    "hanchan",
    "double-ron",
    "online-rules",
    "tenhou-ranked",
    "mahjongsoul-bust",
    "tenhou-agari-yame",
    "tenhou-west-round",
    "mahjongsoul-tie",
]


def raw(name: str) -> bytes:
    return (DATA / f"{name}.json").read_bytes()


def expected(name: str) -> dict[str, Any]:
    value: dict[str, Any] = json.loads((DATA / f"{name}.expected.json").read_text(encoding="utf-8"))
    return value


def data(name: str) -> dict[str, Any]:
    value: dict[str, Any] = json.loads(raw(name))
    return value


def sheet_of(name: str, ruleset: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    log = read_log(raw(name))
    converted = log_sheet(log, match_players(log.names, SEATED, MAPPING), get_ruleset(ruleset))
    return converted.entry, [finding.as_json() for finding in converted.findings]


def refusal(value: dict[str, Any] | bytes) -> Refusal:
    with pytest.raises(Refusal) as caught:
        read_log(value if isinstance(value, bytes) else json.dumps(value, ensure_ascii=False))
    return caught.value


@pytest.mark.parametrize("name", LOGS)
def test_each_log_gives_its_expected_sheet_and_findings_exactly(name: str) -> None:
    for ruleset, want in expected(name)["sheets"].items():
        entry, findings = sheet_of(name, ruleset)
        assert entry == want["entry"], (name, ruleset)
        assert findings == want["findings"], (name, ruleset)


@pytest.mark.parametrize("name", LOGS)
def test_the_rules_engine_accepts_every_sheet_read_from_a_log(name: str) -> None:
    for ruleset in expected(name)["sheets"]:
        entry, _ = sheet_of(name, ruleset)
        verdict = replay({**entry, "players": SEATED}, get_ruleset(ruleset))
        assert verdict.valid, [error.message for error in verdict.errors]


def test_the_whole_hanchan_ends_at_the_logs_final_points() -> None:
    entry, findings = sheet_of("hanchan", "WRC2015")
    verdict = replay({**entry, "players": SEATED}, get_ruleset("WRC2015"))
    sc = data("hanchan")["sc"]
    assert verdict.finished is True
    assert dict(verdict.final_points or {}) == dict(zip(SEATED, sc[::2], strict=True))
    assert entry["final_points"] == dict(zip(SEATED, sc[::2], strict=True))  # on the sheet, so checked
    kinds = [hand.get("result", "deltas") for hand in entry["hands"]]
    assert kinds.count("ron") == 6 and kinds.count("tsumo") == 3 and kinds.count("draw") == 3
    # Riichi read from the discards marked "r": stakes, sticks carried over the draw, honba.
    assert [hand["riichi"] for hand in entry["hands"]][:5] == [["Ana"], [], ["Dai"], [], ["Cho"]]
    records = verdict.hands or ()
    assert (records[3].honba, records[3].sticks) == (1, 1)
    assert [finding["rule"] for finding in findings] == [RULE_RED_FIVES]
    assert findings[0]["hand"] == 2 and findings[0]["label"] == "East 1, 1 honba"


def test_a_double_ron_is_played_under_multiple_ron_rules_and_head_bumped_under_wrcr() -> None:
    entry, findings = sheet_of("double-ron", "EMA2016")
    assert [win["winner"] for win in entry["hands"][0]["wins"]] == ["Cho", "Dai"]
    assert entry["final_points"] == {"Ana": 25000, "Ben": 25000, "Cho": 31000, "Dai": 39000}
    assert RULE_HEAD_BUMP not in [finding["rule"] for finding in findings]
    entry, findings = sheet_of("double-ron", "WRC2015")
    assert entry["hands"][0]["winner"] == "Cho" and "wins" not in entry["hands"][0]
    assert "final_points" not in entry  # the tournament's rules score the hand otherwise than the log
    bumped = [finding for finding in findings if finding["rule"] == RULE_HEAD_BUMP]
    assert [(finding["hand"], finding["label"]) for finding in bumped] == [(1, "East 1, 0 honba")]


@pytest.mark.parametrize(
    ("name", "preset"),
    [
        ("tenhou-ranked", "TENHOU"),
        ("mahjongsoul-bust", "MAHJONGSOUL"),
        ("tenhou-agari-yame", "TENHOU"),
        ("tenhou-west-round", "TENHOU"),
        ("mahjongsoul-tie", "MAHJONGSOUL"),
    ],
)
def test_a_log_played_under_an_online_preset_imports_without_findings(name: str, preset: str) -> None:
    """Under the preset of the rules the game was played by, the log is the sheet: no finding, and the log's
    final points on the sheet, to be checked."""
    entry, findings = sheet_of(name, preset)
    assert findings == []
    sc = data(name)["sc"]
    points = [value * 100 if abs(sum(sc[::2])) < 10_000 else value for value in sc[::2]]
    assert entry["final_points"] == dict(zip(SEATED, points, strict=True))
    verdict = replay({**entry, "players": SEATED}, get_ruleset(preset))
    assert verdict.valid and verdict.finished is True
    assert dict(verdict.final_points or {}) == entry["final_points"]


def scored(name: str, scores: list[float | int], ruleset: str) -> list[tuple[int | None, str]]:
    """The findings of the log ``name`` with its `sc` placement scores replaced by ``scores``."""
    value = data(name)
    value["sc"][1::2] = scores
    log = read_log(json.dumps(value, ensure_ascii=False))
    converted = log_sheet(log, match_players(log.names, SEATED, MAPPING), get_ruleset(ruleset))
    assert "final_points" in converted.entry
    return [(finding.hand, finding.rule) for finding in converted.findings]


def test_tenhous_placement_scores_are_read_as_written_now_and_as_written_before() -> None:
    """The Tenhou log ends at Ana 24,000, Ben 29,900, Cho 12,500, Dai 33,600 (the stick left included).
    Tenhou writes the scores to the tenth now: Ana (24,000 - 30,000) / 1,000 - 10 = -16, Ben -0.1 + 10 =
    9.9, Cho -17.5 - 20 = -37.5, Dai 3.6 + 20 + 20 = 43.6: no finding under TENHOU. Its older logs wrote
    them on the points rounded to thousands, whole numbers (Ben 30,000: 10; Cho 13,000: -37; Dai the
    33,000 left: 43), which the log itself says: read so, no finding either. Whole numbers that are not
    the rounded scores, or another ruleset's scores, are still a finding."""
    assert scored("tenhou-ranked", [-16.0, 9.9, -37.5, 43.6], "TENHOU") == []
    assert scored("tenhou-ranked", [-16.0, 10.0, -37.0, 43.0], "TENHOU") == []
    assert scored("tenhou-ranked", [-16, 10, -37, 43], "TENHOU") == []
    assert scored("tenhou-ranked", [-15.0, 9.0, -37.0, 43.0], "TENHOU") == [(None, RULE_HANCHAN_SCORE)]
    # A tenth away from Tenhou's scores of today is a finding too.
    assert scored("tenhou-ranked", [-16.0, 9.8, -37.5, 43.7], "TENHOU") == [(None, RULE_HANCHAN_SCORE)]
    # Mahjong Soul's rules score them otherwise (no oka, another uma) in either way of writing them.
    for scores in ([-16.0, 9.9, -37.5, 43.6], [-16.0, 10.0, -37.0, 43.0]):
        assert (None, RULE_HANCHAN_SCORE) in scored("tenhou-ranked", scores, "MAHJONGSOUL")


REAL_NAMES = {"player1": "Ana", "player2": "Ben", "player3": "Cho", "player4": "Dai"}


def test_a_real_tenhou_game_of_2023_imports_under_its_preset_with_its_scores_to_the_tenth() -> None:
    """A real Tenhou game of 2 October 2023 (tests/data/README.md names its source), kept unchanged: its
    `sc` ends at 19,400 / 61,100 / 4,600 / 14,900 with the scores -0.6 / 71.1 / -45.4 / -25.1, i.e.
    (19,400 - 30,000) / 1,000 + 10 = -0.6, (61,100 - 30,000) / 1,000 + 20 + 20 = 71.1,
    (4,600 - 30,000) / 1,000 - 20 = -45.4, (14,900 - 30,000) / 1,000 - 10 = -25.1: the points as played,
    not rounded to thousands (which would give -1 / 71 / -45 / -25). Under TENHOU: no finding."""
    log = read_log((DATA / "real-tenhou-2023.json").read_bytes())
    converted = log_sheet(log, match_players(log.names, SEATED, REAL_NAMES), get_ruleset("TENHOU"))
    assert converted.findings == ()
    entry = converted.entry
    assert entry["final_points"] == {"Ana": 19400, "Ben": 61100, "Cho": 4600, "Dai": 14900}
    verdict = replay({**entry, "players": SEATED}, get_ruleset("TENHOU"))
    assert verdict.valid and verdict.finished is True
    assert verdict.scores == {
        "Ana": Decimal("-0.6"),
        "Ben": Decimal("71.1"),
        "Cho": Decimal("-45.4"),
        "Dai": Decimal("-25.1"),
    }


NAMES_2019 = {"TPlayer1": "Ana", "プレーヤー2": "Ben", "プレーヤー3": "Cho", "プレーヤー4": "Dai"}


def real_2019(ruleset: str, **custom: Any) -> Any:
    log = read_log((DATA / "real-tenhou-2019-nagashi.json").read_bytes())
    rules = Ruleset.custom(ruleset, **custom) if custom else get_ruleset(ruleset)
    return log_sheet(log, match_players(log.names, SEATED, NAMES_2019), rules)


def test_a_real_tenhou_game_of_2019_with_whole_scores_imports_without_a_finding() -> None:
    """A real Tenhou game of 8 February 2019 (tests/data/README.md names its source), written before
    Tenhou wrote its scores to the tenth: its `sc` scores are whole numbers, -10 / 47 / -54 / 17 for 30,300
    / 37,000 / -4,300 / 37,000, i.e. on the points rounded to thousands (30,000 - 30,000 - 10 = -10;
    -4,000: -34 - 20 = -54; Dai's 37,000 second: 7 + 10 = 17; Ben first by his earlier seat on the tie,
    with the 37,000 left: 7 + 20 + 20 = 47). Under TENHOU, which scores to the tenth, the log itself says
    how it was scored: no finding. The tournament scores the hanchan by its rules: Ana 0.3 - 10 = -9.7, Cho
    -34.3 - 20 = -54.3."""
    converted = real_2019("TENHOU", east_only=True)
    assert converted.findings == ()
    entry = converted.entry
    assert entry["final_points"] == {"Ana": 30300, "Ben": 37000, "Cho": -4300, "Dai": 37000}
    verdict = replay({**entry, "players": SEATED}, get_ruleset("TENHOU"))
    assert verdict.valid and verdict.finished is True  # Cho below zero ends it (busting)
    assert verdict.ranks == {"Ana": 3, "Ben": 1, "Cho": 4, "Dai": 2}
    assert verdict.scores == {
        "Ana": Decimal("-9.7"),
        "Ben": Decimal("47"),
        "Cho": Decimal("-54.3"),
        "Dai": Decimal("17"),
    }


def test_an_east_only_log_under_a_hanchan_ruleset_has_one_finding_that_says_so() -> None:
    """The same real game is East-only (its `rule.disp` 特東喰赤速): under TENHOU, which plays hanchan, one
    finding says so; under TENHOU made East-only, none (above)."""
    log = read_log(raw("real-tenhou-2019-nagashi"))
    assert log.rule == "特東喰赤速" and log.east_only
    (finding,) = real_2019("TENHOU").findings
    assert finding.rule == "east-only-game (WRCR 2015 §5.8)" and finding.hand is None
    assert "an East-only game (the log's rules: 特東喰赤速); the tournament plays hanchan" in finding.message
    # An East-only game played out to East 4 (no busting) is unfinished as a hanchan: the one finding is
    # still the East-only one, not "the log ends before the hanchan is over".
    value = data("real-tenhou-2019-nagashi")
    value["log"] = value["log"][:1]  # East 1 only: a hanchan and an East-only game unfinished alike
    value.pop("sc")
    short = log_sheet(read_log(json.dumps(value)), match_players(value["name"], SEATED, NAMES_2019), TENHOU)
    assert [f.rule for f in short.findings] == ["east-only-game (WRCR 2015 §5.8)"]
    # A hanchan's log has no such finding, and a log without `rule` is read as before.
    assert not read_log(raw("real-tenhou-2023")).east_only
    value = data("hanchan")
    value.pop("rule", None)
    assert read_log(json.dumps(value)).rule == ""
    value["rule"] = {"disp": 5}
    assert refusal(value).problems[0].field == "rule.disp"


def test_a_real_mahjong_soul_east_only_game_imports_under_east_only_with_no_finding() -> None:
    """A real Mahjong Soul game of 14 October 2023 in the bronze room's East-only rules (銅の間東喰赤),
    converted to tenhou.net/6 (tests/data/README.md names its source): East 4 passes the deal with Ana
    (TPlayer1) at 43,600, and the game is over. Under MAHJONGSOUL made East-only: no finding, the log's
    final points and scores (33.6 / 7.8 / -9.4 / -32); under MAHJONGSOUL (hanchan) the one East-only
    finding."""
    log = read_log(raw("real-mahjongsoul-2023-east"))
    assert log.east_only and log.rule == "銅の間東喰赤"
    players = match_players(log.names, SEATED, dict(zip(log.names, SEATED, strict=True)))
    rules = Ruleset.custom("MAHJONGSOUL", east_only=True)
    converted = log_sheet(log, players, rules)
    assert converted.findings == ()
    verdict = replay({**converted.entry, "players": SEATED}, rules)
    assert verdict.valid and verdict.finished is True
    assert verdict.scores == {
        "Ana": Decimal("33.6"),
        "Ben": Decimal("7.8"),
        "Cho": Decimal("-9.4"),
        "Dai": Decimal(-32),
    }
    hanchan = log_sheet(log, players, get_ruleset("MAHJONGSOUL"))
    assert [finding.rule for finding in hanchan.findings] == ["east-only-game (WRCR 2015 §5.8)"]


def test_mahjong_souls_tie_is_placed_by_seat_and_shared_places_are_a_finding() -> None:
    """A log written for the tests (no real Mahjong Soul game with a tie was found): Dai's self-draw (300 /
    500) leaves Ben and Cho at 24,700, then Dai's sanbaiman on Ana's riichi discard leaves Ana at -500 and
    ends the game (busting). Mahjong Soul places equal points by seat ("Seat wind tie-breaker: Applied",
    docs/rules-engine.md): Ben (South) second, (24,700 - 25,000) / 1,000 + 5 = 4.7, Cho (West) third,
    -0.3 - 5 = -5.3; Dai (51,100 - 25,000) / 1,000 + 15 = 41.1, Ana -25.5 - 15 = -40.5, the log's `sc`.
    Under MAHJONGSOUL: no finding. With shared places (ties_by_seat off) Ben and Cho split +5 and -5, -0.3
    each, which is not what the game wrote: the hanchan-score finding."""
    log = read_log(raw("mahjongsoul-tie"))
    players = match_players(log.names, SEATED, MAPPING)
    rules = get_ruleset("MAHJONGSOUL")
    assert rules.ties_by_seat
    converted = log_sheet(log, players, rules)
    assert converted.findings == ()
    assert converted.entry["final_points"] == {"Ana": -500, "Ben": 24700, "Cho": 24700, "Dai": 51100}
    verdict = replay({**converted.entry, "players": SEATED}, rules)
    assert verdict.valid and verdict.finished is True
    assert verdict.ranks == {"Ana": 4, "Ben": 2, "Cho": 3, "Dai": 1}
    assert verdict.scores == {
        "Ana": Decimal("-40.5"),
        "Ben": Decimal("4.7"),
        "Cho": Decimal("-5.3"),
        "Dai": Decimal("41.1"),
    }
    shared = log_sheet(log, players, Ruleset.custom("MAHJONGSOUL", ties_by_seat=False))
    (finding,) = shared.findings
    assert (finding.hand, finding.rule) == (None, RULE_HANCHAN_SCORE)
    assert "Ben 4.7, Cho -5.3" in finding.message and "Ben -0.3, Cho -0.3" in finding.message


def test_a_real_west_round_game_ends_when_the_west_2_dealer_wins_to_30500_in_first_place() -> None:
    """A real Tenhou hanchan of 4 March 2017 (般南喰赤; tests/data/README.md names its source): nobody had
    30,000 after South 4, West 1 passed the deal, and in West 2 the dealer (プレーヤー2) won 2,900 on a ron
    to 30,500, first: the game ended there (sudden death). Under TENHOU it imports with the log's final
    points and scores (whole numbers: 7 / 40 / -17 / -30, the older rounding) and no finding; before, the
    preset played on while a West-round dealer kept the deal and found the log unfinished."""
    log = read_log(raw("real-tenhou-2017-west"))
    names = dict(zip(log.names, SEATED, strict=True))
    converted = log_sheet(log, match_players(log.names, SEATED, names), TENHOU)
    assert converted.findings == ()
    assert [hand.label for hand in log.hands][-2:] == ["West 1, 0 honba", "West 2, 0 honba"]
    entry = converted.entry
    assert entry["final_points"] == {"Ana": 27200, "Ben": 30500, "Cho": 22500, "Dai": 19800}
    verdict = replay({**entry, "players": SEATED}, TENHOU)
    assert verdict.valid and verdict.finished is True
    assert verdict.ranks == {"Ana": 2, "Ben": 1, "Cho": 3, "Dai": 4}
    # The log's scores are Tenhou's older rounding to thousands of these points (27,000: -3 + 10; 23,000:
    # -7 - 10; 20,000: -10 - 20; first the 30,000 left: 0 + 20 + 20); the tournament scores to the tenth.
    older = replay({**entry, "players": SEATED}, Ruleset.custom("TENHOU", round_to_thousand=True))
    assert (
        list((older.scores or {}).values()) == data("real-tenhou-2017-west")["sc"][1::2] == [7, 40, -17, -30]
    )
    assert verdict.scores == {
        "Ana": Decimal("7.2"),
        "Ben": Decimal("40.5"),
        "Cho": Decimal("-17.5"),
        "Dai": Decimal("-30.2"),
    }
    # A hand after West 2 is after the end.
    more = {**entry, "hands": [*entry["hands"], {"result": "draw", "tenpai": [], "riichi": []}]}
    more.pop("final_points")
    assert [e.rule for e in replay({**more, "players": SEATED}, TENHOU).errors][:1] == [
        "hand-after-end (WRCR 2015 §5.8)"
    ]


def test_a_real_nagashi_mangan_under_wrcr_is_kept_as_the_table_played_it() -> None:
    """The same real game: in East 2, 1 honba, the dealer Ben's nagashi mangan (+12,000, 4,000 from each);
    the next hand is East 3, 2 honba: Ben was noten, the deal passed. Under WRCR 2015 (no nagashi
    mangan, §5.7.2) the hand is entered as played, the log's four changes kept, and that hand has one
    finding, the nagashi's; the next hand is named as in the log."""
    converted = real_2019("WRC2015")
    assert converted.entry["hands"][2] == {
        "result": "nagashi",
        "nagashi": ["Ben"],
        "tenpai": [],
        "riichi": [],
        "played_online": True,
    }
    assert [finding.rule for finding in converted.findings if finding.hand == 3] == [RULE_NAGASHI]
    verdict = replay({**converted.entry, "players": SEATED}, get_ruleset("WRC2015"))
    assert [error.message for error in verdict.errors if error.hand == 3] == []
    records = verdict.hands or ()
    assert list(records[2].deltas.values()) == [-4000, 12000, -4000, -4000]
    assert (records[3].round, records[3].honba, records[3].sticks) == ("East 3", 2, 1)


def test_the_tenhou_log_under_its_preset_keeps_its_abortive_draws_nagashi_and_double_ron() -> None:
    entry, _ = sheet_of("tenhou-ranked", "TENHOU")
    hands = entry["hands"]
    assert hands[1] == {"result": "abortive", "kind": "nine-terminals", "riichi": []}
    assert hands[3] == {"result": "nagashi", "nagashi": ["Ana"], "tenpai": ["Cho"], "riichi": []}
    assert [win["winner"] for win in hands[4]["wins"]] == ["Cho", "Dai"]
    assert hands[5] == {"result": "abortive", "kind": "triple-ron", "riichi": []}
    verdict = replay({**entry, "players": SEATED}, get_ruleset("TENHOU"))
    records = verdict.hands or ()
    # Tenhou: abortive draws and a tenpai dealer's nagashi keep the deal and add a counter; the double ron's
    # counter and stick go to Cho, the winner closest to the discarder (積み棒、供託は上家取り).
    assert [(record.round, record.honba, record.sticks) for record in records[1:7]] == [
        ("East 2", 0, 0),
        ("East 2", 1, 0),
        ("East 3", 0, 0),
        ("East 3", 1, 0),
        ("East 3", 2, 0),
        ("East 3", 3, 0),
    ]
    assert records[3].deltas == {"Ana": 8000, "Ben": -2000, "Cho": -4000, "Dai": -2000}
    assert records[4].deltas == {"Ana": -1000, "Ben": -4200, "Cho": 4200, "Dai": 1000}
    # The stick left after South 4 goes to first place (Dai), and first takes the oka: 25,000 each,
    # 30,000 returned, uma 20/10/-10/-20, on the points as played, to the tenth as Tenhou scores now: Ana
    # -6 - 10, Ben -0.1 + 10, Cho -17.5 - 20, Dai 3.6 + 20 + 20. (The log's own `sc`, -16 / 10 / -37 / 43,
    # counts them rounded to thousands as Tenhou's older logs do, and is read so: no finding.)
    assert verdict.riichi_sticks_left == 0 and verdict.final_points == {
        "Ana": 24000,
        "Ben": 29900,
        "Cho": 12500,
        "Dai": 33600,
    }
    assert {player: str(score) for player, score in (verdict.scores or {}).items()} == {
        "Ana": "-16",
        "Ben": "9.9",
        "Cho": "-37.5",
        "Dai": "43.6",
    }


def test_the_same_online_logs_under_wrcr_report_every_difference() -> None:
    _, findings = sheet_of("tenhou-ranked", "WRC2015")
    assert [(finding["hand"], finding["rule"]) for finding in findings] == [
        (1, RULE_RED_FIVES),
        (2, RULE_ABORTIVE),
        (4, RULE_NAGASHI),
        (5, RULE_HEAD_BUMP),
        (6, RULE_ABORTIVE),
        (None, RULE_START),
        (3, RULE_KIRIAGE),
        (5, RULE_PAYMENT),
        (None, RULE_STICKS_LEFT),
        (None, RULE_FINAL),
    ]
    _, findings = sheet_of("mahjongsoul-bust", "WRC2015")
    assert [(finding["hand"], finding["rule"]) for finding in findings] == [
        (1, RULE_ABORTIVE),
        (2, RULE_HEAD_BUMP),
        (None, RULE_START),
        (2, RULE_PAYMENT),
        (None, RULE_UNFINISHED),  # WRCR 2015 §6.1: a player below zero does not end the hanchan
        (None, RULE_FINAL),
    ]


def test_the_end_of_an_online_game_is_the_events_own_under_its_preset_and_a_finding_under_wrcr() -> None:
    """Tenhou's agari yame (the South 4 dealer first with 30,000 wins: the game stops) and West round (nobody
    at 30,000 after South 4: sudden death) end the sheet as they ended the game; WRCR 2015 has neither."""
    entry, _ = sheet_of("tenhou-agari-yame", "TENHOU")
    assert len(entry["hands"]) == 8 and entry["final_points"]["Dai"] == 37000
    _, findings = sheet_of("tenhou-agari-yame", "WRC2015")
    assert (None, RULE_UNFINISHED) in [(finding["hand"], finding["rule"]) for finding in findings]
    entry, _ = sheet_of("tenhou-west-round", "TENHOU")
    verdict = replay({**entry, "players": SEATED}, get_ruleset("TENHOU"))
    assert [record.round for record in verdict.hands or ()][-1] == "West 1" and verdict.finished is True
    _, findings = sheet_of("tenhou-west-round", "WRC2015")
    assert (9, RULE_WEST) in [(finding["hand"], finding["rule"]) for finding in findings]


def test_each_online_preset_reports_what_the_other_plays_differently() -> None:
    # Mahjong Soul pays a triple ron; Tenhou makes it an abortive draw (sanchahou), and the reverse.
    # And scores the places otherwise: Mahjong Soul has no oka, uma 15/5/-5/-15 and no rounding.
    _, findings = sheet_of("tenhou-ranked", "MAHJONGSOUL")
    assert [(finding["hand"], finding["rule"]) for finding in findings] == [
        (6, RULE_ABORTIVE),
        (None, RULE_HANCHAN_SCORE),
    ]
    assert findings[1]["message"] == (
        "the online game scored the places Ana -16, Ben 10, Cho -37, Dai 43; the tournament's rules score "
        "them Ana -6, Ben 9.9, Cho -27.5, Dai 23.6"
    )
    assert "MAHJONGSOUL" in findings[0]["message"]
    entry, findings = sheet_of("mahjongsoul-bust", "TENHOU")
    assert entry["hands"][1] == {"result": "abortive", "kind": "triple-ron", "riichi": []}
    assert (2, RULE_TRIPLE_RON) in [(finding["hand"], finding["rule"]) for finding in findings]


def test_online_rules_are_reported_hand_by_hand() -> None:
    _, findings = sheet_of("online-rules", "WRC2015")
    by_rule = {finding["rule"]: finding for finding in findings}
    assert by_rule[RULE_ABORTIVE]["label"] == "East 1, 0 honba"
    assert by_rule[RULE_KIRIAGE]["label"] == "East 1, 1 honba"
    assert "+8,000" in by_rule[RULE_KIRIAGE]["message"] and "+8,300" in by_rule[RULE_KIRIAGE]["message"]
    assert by_rule[RULE_START]["hand"] is None
    # Under EMA 2016 (no kiriage) the same win pays what the log paid.
    _, findings = sheet_of("online-rules", "EMA2016")
    assert RULE_KIRIAGE not in [finding["rule"] for finding in findings]


def test_the_broken_log_is_refused_naming_the_hand_and_the_field() -> None:
    refused = refusal(raw("broken-hand"))
    assert refused.as_dicts() == expected("broken-hand")["refusal"]
    assert refused.problems[0].hand == 2
    assert refused.problems[0].field == "log[1][16][2][3]"
    assert refused.message.startswith("hand 2 (East 1, 1 honba):")


def test_points_that_do_not_follow_from_the_previous_hand_are_refused() -> None:
    log = data("hanchan")
    log["log"][4][1][0] += 1000
    refused = refusal(log)
    assert (refused.problems[0].hand, refused.field) == (5, "log[4][1]")
    assert "East 3, 0 honba" in refused.message


def test_a_riichi_not_marked_in_the_discards_is_found_by_the_scores() -> None:
    log = data("hanchan")
    discards = log["log"][0][6]  # seat 0's discards in hand 1
    log["log"][0][6] = [move if not isinstance(move, str) else 60 for move in discards]
    refused = refusal(log)
    assert refused.problems[0].hand == 1 and refused.field == "log[0][16]"


def test_a_riichi_discard_that_is_won_on_costs_no_stake() -> None:
    log = data("online-rules")
    hand = log["log"][1]
    hand[4 + 3 * 2 + 2].append("r33")  # the discarder (seat 2) declared riichi with the tile won on
    read = read_log(json.dumps(log))
    assert read.hands[1].riichi == frozenset({1})


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda log: log.update(name=["a", "b", "c"]), "name"),
        (lambda log: log.update(name=["a", "b", "c", ""]), "name"),
        (lambda log: log.update(name=["a", "a", "c", "d"]), "name"),
        (lambda log: log.update(log=[]), "log"),
        (lambda log: log.update(log=[log["log"][0]] * (MAX_HANDS + 1)), "log"),
        (lambda log: log["log"][0].pop(), "log[0]"),
        (lambda log: log["log"][0][0].append(1), "log[0][0]"),
        (lambda log: log["log"][0][16].__setitem__(0, "ぜんぶ"), "log[0][16][0]"),
        (lambda log: log["log"][0][16].__setitem__(1, [1, 2]), "log[0][16][1]"),
        (lambda log: log["log"][0][16][2].__setitem__(4, "ドラ"), "log[0][16][2]"),
        (lambda log: log["log"][0][16][2].__setitem__(0, 7), "log[0][16][2]"),
        (lambda log: log["log"][0][16][2].__setitem__(3, "30符4飜5800点"), "log[0][16][2][3]"),
        (lambda log: log.update(sc=[1, 2]), "sc"),
    ],
)
def test_unreadable_logs_are_refused_naming_the_field(change: Any, field: str) -> None:
    log = data("hanchan")
    change(log)
    assert refusal(log).field == field


def test_the_log_is_read_within_bounds() -> None:
    assert refusal(b"[" * 20 + b"]" * 20).rule == "json-depth"
    assert refusal(b" " * 2_000_000).rule == "body-size"
    assert refusal(b"not json").rule == "json"
    assert refusal(b"[]").field == "log"


def test_names_match_without_case_and_accents_or_by_the_mapping() -> None:
    assert fold("Bén") == fold("BEN") == "ben"
    assert match_players(["anA", "Bén", "chochan", "dai-chi"], SEATED, MAPPING) == tuple(SEATED)
    with pytest.raises(Refusal) as caught:
        match_players(["anA", "Bén", "chochan", "dai-chi"], SEATED, {"chochan": "Cho"})
    assert caught.value.field == "mapping" and "'dai-chi'" in caught.value.message
    with pytest.raises(Refusal) as caught:
        match_players(["Bén", "anA", "chochan", "dai-chi"], SEATED, MAPPING)
    assert "seat winds" in caught.value.message  # the log's East is the table's South
    assert caught.value.field == "reseat_winds" and RESEAT_LABEL in caught.value.message
    # Accepting the log's seats: each seat of the log gets its player, for the table to be re-seated.
    reseated = match_players(["Bén", "anA", "chochan", "dai-chi"], SEATED, MAPPING, reseat=True)
    assert reseated == (SEATED[1], SEATED[0], SEATED[2], SEATED[3])
    with pytest.raises(Refusal):
        match_players(["anA", "Bén", "chochan", "dai-chi"], SEATED, {"chochan": "Cho", "dai-chi": "Cho"})
    with pytest.raises(Refusal):
        match_players(["anA", "Bén", "chochan", "dai-chi"], SEATED, {"nobody": "Cho"})


def test_hand_labels_name_the_round_and_the_counters() -> None:
    assert hand_label(0, 0) == "East 1, 0 honba"
    assert hand_label(5, 2) == "South 2, 2 honba"


def test_the_west_round_of_an_online_game_is_left_off_the_sheet() -> None:
    log = data("double-ron")
    extra = copy.deepcopy(log["log"][1])
    extra[0] = [8, 0, 0]
    extra[1] = [25000, 25000, 31000, 39000]
    log["log"].append(extra)
    read = read_log(json.dumps(log, ensure_ascii=False))
    converted = log_sheet(read, SEATED, get_ruleset("EMA2016"))
    assert len(converted.entry["hands"]) == 2
    assert any(finding.label == "West 1, 0 honba" for finding in converted.findings)


def test_final_points_that_do_not_follow_from_the_last_hand_are_refused() -> None:
    log = data("hanchan")
    log["sc"][0] += 1000
    refused = refusal(log)
    assert (refused.field, refused.rule) == ("sc", "game-log-scores")
    log["sc"][0] -= 1000
    log["sc"][::2] = [points // 100 for points in log["sc"][::2]]  # tenhou's own logs write hundreds
    assert read_log(json.dumps(log)).final_points == (42400, 35800, 23100, 18700)


def test_liability_is_entered_where_the_tournament_plays_it_and_reported_where_not() -> None:
    log = data("double-ron")
    log["log"][1][16] = ["和了", [-32000, 0, 0, 32000], [3, 3, 0, "役満32000点", "大三元(役満)"]]
    read = read_log(json.dumps(log, ensure_ascii=False))
    wrcr = log_sheet(read, SEATED, get_ruleset("WRC2015"))
    assert wrcr.entry["hands"][1] == {
        "result": "tsumo",
        "winner": "Dai",
        "liable": "Ana",
        "yakuman": 1,
        "yaku": ["daisangen"],  # the log's 大三元, entered by its yaku
        "riichi": [],
    }
    ema = log_sheet(read, SEATED, get_ruleset("EMA2016"))
    assert "liable" not in ema.entry["hands"][1]
    assert [f.label for f in ema.findings if f.rule == RULE_LIABILITY] == ["East 2, 0 honba"]


def with_nagashi(hand: int, changes: list[int], scores: list[float]) -> dict[str, Any]:
    """The whole-hanchan log with the draw of hand ``hand`` (0-based) made a nagashi mangan paying
    ``changes``: every later hand's points and the final points moved by the difference, and the placement
    scores replaced by ``scores``."""
    value = data("hanchan")
    result = value["log"][hand][16]
    assert result[0] == "流局"
    moved = [new - old for new, old in zip(changes, result[1], strict=True)]
    value["log"][hand][16] = ["流し満貫", changes]
    for later in value["log"][hand + 1 :]:
        later[1] = [points + change for points, change in zip(later[1], moved, strict=True)]
    for seat, change in enumerate(moved):
        value["sc"][2 * seat] += change
    value["sc"][1::2] = scores
    return value


@pytest.mark.parametrize(
    ("hand", "changes", "scores", "dealer", "kept"),
    [
        # East 2 (Ben deals), Dai's nagashi; the log's next hand is East 2, 1 honba: Ben kept the deal.
        # The final points 41,900 / 30,300 / 22,600 / 25,200, scored as WRCR 2015 scores them: 11.9 + 15,
        # 0.3 + 5, -7.4 - 15, -4.8 - 5.
        (2, [-2000, -4000, -2000, 8000], [26.9, 5.3, -22.4, -9.8], "Ben", True),
        # East 4 (Dai deals), Ana's nagashi; the next hand is South 1, 1 honba: the deal passed. The final
        # points 47,400 / 34,800 / 22,100 / 15,700: 17.4 + 15, 4.8 + 5, -7.9 - 5, -14.3 - 15.
        (6, [8000, -2000, -2000, -4000], [32.4, 9.8, -12.9, -29.3], "Dai", False),
    ],
)
def test_a_nagashi_mangan_is_kept_as_the_online_game_played_it(
    hand: int, changes: list[int], scores: list[float], dealer: str, kept: bool
) -> None:
    """The online game scores a nagashi mangan as a draw paying the nagashi's mangan: the dealer keeps the
    deal when tenpai, one more honba either way. The tournament (WRCR 2015, which has none) takes the
    result played at the table: the hand is entered as the nagashi the log gives, its four changes kept,
    the dealer tenpai exactly when the online game kept the deal, so every later hand is named as in the
    log and the sheet ends at the log's final points; the one finding is the nagashi's, naming §5.7.2."""
    value = with_nagashi(hand, changes, scores)
    log = read_log(json.dumps(value, ensure_ascii=False))
    converted = log_sheet(log, match_players(log.names, SEATED, MAPPING), get_ruleset("WRC2015"))
    entry = converted.entry
    nagashi = entry["hands"][hand]
    assert nagashi["result"] == "nagashi" and nagashi["played_online"] is True
    assert (dealer in nagashi["tenpai"]) is kept
    verdict = replay({**entry, "players": SEATED}, get_ruleset("WRC2015"))
    assert verdict.valid and verdict.finished is True
    records = verdict.hands or ()
    played = log.hands[hand]
    # The log's four changes, riichi stakes included.
    assert list(records[hand].deltas.values()) == [played.end[s] - played.start[s] for s in range(4)]
    named = [(record.round, record.honba) for record in records]
    assert named == [(hand_label(h[0][0], h[0][1]).rsplit(",", 1)[0], h[0][1]) for h in value["log"]]
    assert entry["final_points"] == dict(zip(SEATED, value["sc"][::2], strict=True))
    found = [(finding.hand, finding.rule) for finding in converted.findings]
    assert found == [(2, RULE_RED_FIVES), (hand + 1, RULE_NAGASHI)]
    assert "WRCR 2015 §5.7.2" in RULE_NAGASHI


def test_a_nagashi_mangan_entered_by_hand_stays_an_error_under_wrcr() -> None:
    """Only the nagashi an online game played (``played_online``) is taken as played; one entered by hand
    under a ruleset without it is still an error (WRCR 2015 §5.7.2)."""
    value = with_nagashi(6, [8000, -2000, -2000, -4000], [32.4, 9.8, -12.9, -29.3])
    log = read_log(json.dumps(value, ensure_ascii=False))
    entry = log_sheet(log, match_players(log.names, SEATED, MAPPING), get_ruleset("WRC2015")).entry
    del entry["hands"][6]["played_online"]
    verdict = replay({**entry, "players": SEATED}, get_ruleset("WRC2015"))
    assert not verdict.valid
    assert (7, "nagashi-mangan (WRCR 2015 §5.7.2)") in [(error.hand, error.rule) for error in verdict.errors]


def test_the_logs_yaku_are_entered_where_the_rules_find_them_worth_the_logs_han() -> None:
    """The log's yaku go on the sheet as identifiers with their dora (the replay keeps them for the
    statistics); a win with red fives the tournament does not play keeps its han only, since no yaku of
    the WRCR list give them (WRCR 2015 §3.3)."""
    entry, _ = sheet_of("hanchan", "WRC2015")
    hands = entry["hands"]
    assert hands[0] == {
        "result": "ron",
        "winner": "Ana",
        "loser": "Cho",
        "han": 3,
        "fu": 30,
        "yaku": ["riichi", "pinfu"],
        "dora": 1,
        "riichi": ["Ana"],
    }
    assert "yaku" not in hands[1]  # 2 han of which 1 a red five: the han as the log scored them
    verdict = replay({**entry, "players": SEATED}, get_ruleset("WRC2015"))
    assert verdict.hands is not None and verdict.hands[0].yaku is not None
    assert verdict.hands[0].yaku["Ana"].yaku == ("riichi", "pinfu")
    # An open hand is told by its yaku's open value: 混一色(2飜) is an open Half Flush.
    ron, _ = sheet_of("double-ron", "WRC2015")
    assert [hand.get("open") for hand in ron["hands"] if hand.get("winner") == "Dai"] == [True]
