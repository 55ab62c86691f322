"""A win of the log named as the sheet names it: its value (han and fu, or yakuman) and, where the rules
engine finds them worth the han the log scored, the yaku tenhou.net names, as the tournament's identifiers."""

from __future__ import annotations

from typing import Any

from scoring.rules.ruleset import Ruleset
from scoring.rules.tenhou.log import RED_FIVES, LogHand, Win
from scoring.rules.yaku import YAKU, read_win_yaku

_DORA = "ドラ"


_URA_DORA = "裏ドラ"


# The yaku as tenhou.net names them, by identifier (scoring.rules.yaku); winds and dragons as
# "自風 東", "場風 南", "役牌 中".
_LOG_YAKU = {
    "門前清自摸和": "menzen_tsumo",
    "立直": "riichi",
    "両立直": "double_riichi",
    "ダブル立直": "double_riichi",
    "一発": "ippatsu",
    "槍槓": "chankan",
    "嶺上開花": "rinshan",
    "海底摸月": "haitei",
    "河底撈魚": "houtei",
    "平和": "pinfu",
    "断幺九": "tanyao",
    "一盃口": "iipeikou",
    "七対子": "chiitoitsu",
    "一気通貫": "ittsu",
    "三色同順": "sanshoku",
    "混全帯幺九": "chanta",
    "対々和": "toitoi",
    "三暗刻": "sanankou",
    "三色同刻": "sanshoku_doukou",
    "三槓子": "sankantsu",
    "混老頭": "honroutou",
    "小三元": "shousangen",
    "二盃口": "ryanpeikou",
    "混一色": "honitsu",
    "純全帯幺九": "junchan",
    "清一色": "chinitsu",
    "人和": "renhou",
    "天和": "tenhou",
    "地和": "chiihou",
    "国士無双": "kokushi",
    "国士無双１３面": "kokushi",
    "九蓮宝燈": "chuuren",
    "純正九蓮宝燈": "chuuren",
    "四暗刻": "suuankou",
    "四暗刻単騎": "suuankou",
    "四槓子": "suukantsu",
    "大三元": "daisangen",
    "小四喜": "shousuushii",
    "大四喜": "daisuushii",
    "緑一色": "ryuuiisou",
    "清老頭": "chinroutou",
    "字一色": "tsuuiisou",
    "役牌 白": "yakuhai_haku",
    "役牌 發": "yakuhai_hatsu",
    "役牌 中": "yakuhai_chun",
}


_SEAT_WIND = "自風"


_ROUND_WIND = "場風"


def win_value(entry: dict[str, Any], win: Win) -> dict[str, Any]:
    if win.yakuman:
        entry["yakuman"] = win.yakuman
    else:
        entry["han"] = win.han
        if win.fu is not None:
            entry["fu"] = win.fu
    return entry


def _log_yaku(win: Win) -> tuple[list[str], int, int, bool | None] | None:
    """The win's yaku as identifiers, its dora and ura dora, and whether the hand was open (None: the
    log does not tell); None when a yaku is one the tournament's list does not know."""
    ids: list[str] = []
    dora = ura = 0
    opened: bool | None = None
    for name, han in win.yaku:
        if name == _DORA:
            dora += han or 0
            continue
        if name == _URA_DORA:
            ura += han or 0
            continue
        if name == RED_FIVES:
            continue
        wind = name.split(" ")[0]
        yaku = {_SEAT_WIND: "yakuhai_seat_wind", _ROUND_WIND: "yakuhai_round_wind"}.get(
            wind, _LOG_YAKU.get(name)
        )
        if yaku is None:
            return None
        ids.append(yaku)
        known = YAKU[yaku]
        if known.open_han is None:
            opened = False
        elif han is not None and han == known.open_han != known.han and opened is None:
            opened = True
    return ids, dora, ura, opened


def with_yaku(entry: dict[str, Any], win: Win, hand: LogHand, ruleset: Ruleset) -> dict[str, Any]:
    """The win's entry with the yaku the log names (and its dora), where the rules engine finds them a
    possible combination worth the han the log scored; the entry as it was otherwise (a yaku unknown to
    the list, or red fives the tournament does not play, whose han the yaku cannot give)."""
    found = _log_yaku(win)
    if found is None or (win.red_fives and not ruleset.red_fives):
        return entry
    ids, dora, ura, opened = found
    tsumo = win.discarder is None
    if opened is None and tsumo and not win.yakuman:
        opened = "menzen_tsumo" not in ids  # a closed self-draw always has Fully Concealed Hand
    yaku_entry: dict[str, Any] = {"yaku": ids}
    if opened:
        yaku_entry["open"] = True
    for key, count in (("dora", dora), ("ura_dora", ura), ("aka_dora", win.red_fives)):
        if count:
            yaku_entry[key] = count
    checked, problems = read_win_yaku(
        {**yaku_entry, "fu": win.fu},
        tsumo=tsumo,
        dealer=win.winner == hand.round_index % 4,
        declared_riichi=win.winner in hand.riichi,
        ruleset=ruleset,
    )
    if checked is None or problems:
        return entry
    agrees = checked.yakuman > 0 if win.yakuman else checked.han == win.han
    if not agrees:
        return entry
    return {**entry, **yaku_entry}
