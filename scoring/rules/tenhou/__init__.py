"""Online game logs in the tenhou.net/6 JSON format, read into a hand-by-hand score sheet.

The format (the one tenhou.net/6's log editor shows, the common log viewers read, and Mahjong Soul logs
are converted to) is one JSON object:

* ``name``: the four players' online nicknames, in the seat order of the first hand (index 0 deals
  East 1); ``title``, ``rule`` (``disp``, a display text, and ``aka``, red fives played) and ``ratingc``,
  ``sx``, ``dan``, ``rate`` describe the game and are not needed for the sheet; ``sc``, when present,
  gives each player's final points and placement score as pairs (points written in full or in
  hundreds).
* ``log``: one array per hand. Its first four items are the hand's header (``[round, honba, riichi
  sticks on the table]``, the round 0 for East 1 up to 7 for South 4 and 8 on for West), the four
  players' points at its start, the dora and the ura-dora indicators. Then come three arrays per seat,
  seat 0 first: the dealt tiles, the draws (calls written as text) and the discards, where a text
  starting with ``r`` is the discard that declares riichi. The last item is the result: a win,
  ``["和了", changes, details, ...]`` with one pair of changes and details per winner (two or three on a
  multiple ron), the details being ``[winner, from, liable, value text, yaku, ...]`` (``from`` equal to
  the winner on a self-draw, ``liable`` equal to the winner when nobody is liable, the value text such as
  ``"30符2飜2000点"`` or ``"満貫2000-4000点"``, each yaku ``"name(n飜)"`` or ``"name(役満)"``), or a draw,
  ``[name, changes]`` (``流局`` an exhaustive draw, ``全員聴牌``/``全員不聴`` one where all or none were
  tenpai, ``流し満貫`` nagashi mangan, and the abortive draws ``九種九牌``, ``四家立直``, ``三家和了``,
  ``四槓散了``, ``四風連打``).
* A hand's changes are the payments of its result, honba and riichi sticks collected included; the
  1,000-point stake of a riichi declared in the hand is not in them. So a hand's points at the start are
  the previous hand's points, plus its changes, less 1,000 for each of its riichi declarers (a riichi whose
  declaring discard was won on was never made).

``read_log`` reads and checks a log (bounded: size, nesting, hands, texts); a log that cannot be read is a
``Refusal`` naming the hand and the field. ``match_players`` maps the log's nicknames to the table's four
players. ``log_sheet`` writes the sheet entry (``scoring.services``'s hand-by-hand form), replays it under
the tournament's ruleset, and reports, hand by hand, each way the online game's rules differ from the
tournament's (``Finding``) instead of accepting them silently.

The reader lives in modules by concern, and what callers use is importable from here:

- ``log``: the log as read (``GameLog``, ``LogHand``, ``Win``), its bounds and the names of its results;
- ``reading``: the log's format read and checked (``read_log``, ``read_game_log``, ``log_format``);
- ``players``: the nicknames matched to the seated four (``match_players``);
- ``entry``: the log turned into the hand-by-hand sheet entry (``log_sheet``);
- ``yaku``: a win's value and yaku as the sheet names them;
- ``findings``: where the online game's rules differ from the tournament's (``Finding``).
"""

from scoring.rules.tenhou.entry import LogSheet, log_sheet
from scoring.rules.tenhou.findings import (
    RULE_ABORTIVE,
    RULE_EAST_ONLY,
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
    Finding,
)
from scoring.rules.tenhou.log import (
    ABORTIVE,
    ALL_NOTEN,
    ALL_TENPAI,
    EAST_WIND,
    EXHAUSTIVE,
    MAX_HANDS,
    MAX_ITEMS,
    MAX_LOG_BYTES,
    MAX_LOG_DEPTH,
    MAX_TEXT,
    NAGASHI,
    RESEAT_LABEL,
    RIICHI_STAKE,
    RULE_LOG,
    RULE_PLAYERS,
    RULE_SCORES,
    RULE_SEAT_ORDER,
    SOUTH_WIND,
    WIN,
    GameLog,
    LogHand,
    Win,
    hand_label,
    hand_name,
)
from scoring.rules.tenhou.players import fold, match_players
from scoring.rules.tenhou.reading import FORMAT_JSON, log_format, read_game_log, read_log

__all__ = [
    "ABORTIVE",
    "ALL_NOTEN",
    "ALL_TENPAI",
    "EAST_WIND",
    "EXHAUSTIVE",
    "FORMAT_JSON",
    "MAX_HANDS",
    "MAX_ITEMS",
    "MAX_LOG_BYTES",
    "MAX_LOG_DEPTH",
    "MAX_TEXT",
    "NAGASHI",
    "RESEAT_LABEL",
    "RIICHI_STAKE",
    "RULE_ABORTIVE",
    "RULE_EAST_ONLY",
    "RULE_FINAL",
    "RULE_HANCHAN_SCORE",
    "RULE_HEAD_BUMP",
    "RULE_KIRIAGE",
    "RULE_LIABILITY",
    "RULE_LOG",
    "RULE_NAGASHI",
    "RULE_PAYMENT",
    "RULE_PLAYERS",
    "RULE_RED_FIVES",
    "RULE_SCORES",
    "RULE_SEAT_ORDER",
    "RULE_START",
    "RULE_STICKS_LEFT",
    "RULE_TRIPLE_RON",
    "RULE_UNFINISHED",
    "RULE_WEST",
    "SOUTH_WIND",
    "WIN",
    "Finding",
    "GameLog",
    "LogHand",
    "LogSheet",
    "Win",
    "fold",
    "hand_label",
    "hand_name",
    "log_format",
    "log_sheet",
    "match_players",
    "read_game_log",
    "read_log",
]
