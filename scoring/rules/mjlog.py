"""Tenhou's own game files, the mjlog XML (``<mjloggm ver="2.3">``: what Tenhou serves for a game id and
what its players download), read into the tenhou.net/6 JSON shape that ``scoring.rules.tenhou`` reads, so
that a game's XML and its JSON give the same sheet, findings and figures.

The file is one ``mjloggm`` element whose children are the game in order:

* ``GO type``: the lobby's rules as bits (0x02 no red fives, 0x04 no open tanyao, 0x08 a hanchan, else
  East-only, 0x10 three players, 0x20 / 0x80 the lobby's level, 0x40 fast), written back as the viewer's
  ``rule.disp`` ("特南喰赤"); ``UN n0..n3``: the nicknames, URL-encoded (a later ``UN`` is a reconnection);
* ``INIT seed="round,honba,sticks,dice,dice,dora" ten="250,..." oya hai0..hai3``: a hand starts, the points
  in hundreds;
* ``T``/``U``/``V``/``W`` and a tile: seat 0 to 3 draws; ``D``/``E``/``F``/``G``: discards; ``N who m``: a
  call; ``REACH who step="1"``: the next discard of ``who`` declares riichi (``step="2"``: the stake paid);
  ``DORA hai``: a new indicator;
* ``AGARI`` (one per winner): ``ba="honba,sticks"``, ``ten="fu,points,limit"``, ``yaku="id,han,..."`` or
  ``yakuman="id,..."``, ``who``, ``fromWho``, ``paoWho`` (liable), ``sc="points,change,..."`` in hundreds,
  ``doraHaiUra``; ``RYUUKYOKU``: a draw, ``type`` naming an abortive draw or nagashi mangan (none: the
  exhaustive draw, each tenpai hand shown as ``hai0..hai3``), ``sc`` as above; the last result has
  ``owari="points,score,..."``: the final points (hundreds) and placement scores.

The reader is bounded (size, element count, attribute length, one level of children) and uses the standard
library's expat with a document type declaration, any entity declaration and external entities refused:
no entity is ever expanded. A file it cannot read is a ``Refusal`` naming the hand (its ``INIT``, counted
from 1) and the element and attribute; what the converted log then breaks (points that do not follow, a
value text against its yaku) is refused by the tenhou.net/6 reader naming the hand and the JSON field.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import unquote
from xml.parsers import expat

from scoring.rules.i18n import _
from tournament.core.refusal import Problem, Refusal

FORMAT = "Tenhou mjlog XML"
MAX_XML_BYTES = 1_048_576  # a hanchan's file is some 30 KB
MAX_ELEMENTS = 20_000  # a hanchan has some 1,500
MAX_ATTRIBUTE = 4_096  # the SHUFFLE seed is some 2,800 characters
MAX_NAME = 64
RULE = "game-log"
FIELD = "log"

# Tenhou's yaku by their number in the file, as the tenhou.net/6 log names them.
YAKU_NAMES = (
    "門前清自摸和",
    "立直",
    "一発",
    "槍槓",
    "嶺上開花",
    "海底摸月",
    "河底撈魚",
    "平和",
    "断幺九",
    "一盃口",
    "自風 東",
    "自風 南",
    "自風 西",
    "自風 北",
    "場風 東",
    "場風 南",
    "場風 西",
    "場風 北",
    "役牌 白",
    "役牌 發",
    "役牌 中",
    "両立直",
    "七対子",
    "混全帯幺九",
    "一気通貫",
    "三色同順",
    "三色同刻",
    "三槓子",
    "対々和",
    "三暗刻",
    "小三元",
    "混老頭",
    "二盃口",
    "純全帯幺九",
    "混一色",
    "清一色",
    "人和",
    "天和",
    "地和",
    "大三元",
    "四暗刻",
    "四暗刻単騎",
    "字一色",
    "緑一色",
    "清老頭",
    "九蓮宝燈",
    "純正九蓮宝燈",
    "国士無双",
    "国士無双１３面",
    "大四喜",
    "小四喜",
    "四槓子",
    "ドラ",
    "裏ドラ",
    "赤ドラ",
)
# ``ten``'s third number: the limit of the hand.
LIMITS = ("", "満貫", "跳満", "倍満", "三倍満", "役満")
# ``RYUUKYOKU type``: the abortive draws and nagashi mangan, as the tenhou.net/6 log names them.
DRAWS = {
    "yao9": "九種九牌",
    "reach4": "四家立直",
    "ron3": "三家和了",
    "kan4": "四槓散了",
    "kaze4": "四風連打",
    "nm": "流し満貫",
}
_DRAW_TAG = re.compile(r"([TUVW])(\d{1,3})")
_DISCARD_TAG = re.compile(r"([DEFG])(\d{1,3})")
_INTS = re.compile(r"-?\d{1,7}(?:,-?\d{1,7}){0,63}")
_SCORES = re.compile(r"-?\d{1,7},-?\d{1,4}(?:\.\d)?(?:,-?\d{1,7},-?\d{1,4}(?:\.\d)?){3}")


def is_mjlog(raw: bytes | str) -> bool:
    """Whether the upload is XML (its first character, after a byte order mark and blanks, is "<");
    anything else is read as tenhou.net/6 JSON."""
    head = (
        raw[:64].lstrip(b"\xef\xbb\xbf \t\r\n")
        if isinstance(raw, bytes)
        else raw[:64].lstrip("\ufeff \t\r\n")
    )
    return head[:1] in (b"<", "<")


def _refuse(field: str, message: str, hand: int | None = None) -> Refusal:
    return Refusal.of([Problem(field, RULE, message, hand=hand)])


def parse(raw: bytes | str) -> list[tuple[str, dict[str, str]]]:
    """The children of ``mjloggm`` in order, as (name, attributes); bounded, and refused with the reason
    (not well-formed, a document type or an entity declared, too large)."""
    if len(raw) > MAX_XML_BYTES:
        message = _("{field}: {size} bytes; at most {limit} are read").format(
            field=FIELD, size=f"{len(raw):,}", limit=f"{MAX_XML_BYTES:,}"
        )
        raise _refuse(FIELD, message)
    elements: list[tuple[str, dict[str, str]]] = []
    depth = 0

    def start(name: str, attributes: dict[str, str]) -> None:
        nonlocal depth
        depth += 1
        if depth == 1:
            if name != "mjloggm":
                raise _refuse(
                    FIELD, _("an mjlog file is one <mjloggm> element, not <{name}>").format(name=name)
                )
            return
        if depth > 2:
            raise _refuse(
                FIELD,
                _("<{name}> is nested inside another element; mjlog elements are not").format(name=name),
            )
        if len(elements) >= MAX_ELEMENTS:
            raise _refuse(
                FIELD, _("the file has more than {limit} elements").format(limit=f"{MAX_ELEMENTS:,}")
            )
        if any(len(value) > MAX_ATTRIBUTE for value in attributes.values()):
            raise _refuse(
                FIELD,
                _("<{name}> has an attribute longer than {limit} characters").format(
                    name=name, limit=MAX_ATTRIBUTE
                ),
            )
        elements.append((name, attributes))

    def end(_name: str) -> None:
        nonlocal depth
        depth -= 1

    def no_declarations(*_args: Any) -> Any:  # never returns: the handlers' return types differ
        raise _refuse(FIELD, _("the file declares a document type or an entity; an mjlog file has none"))

    parser = expat.ParserCreate()
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.StartDoctypeDeclHandler = no_declarations
    parser.EntityDeclHandler = no_declarations
    parser.ExternalEntityRefHandler = no_declarations
    try:
        parser.Parse(raw.encode("utf-8") if isinstance(raw, str) else raw, True)
    except expat.ExpatError as exc:
        message = _("{field}: not well-formed XML ({error})").format(
            field=FIELD, error=expat.ErrorString(exc.code) + f", line {exc.lineno}"
        )
        raise _refuse(FIELD, message) from None
    return elements


def _tile(tile_id: int, red: bool) -> int:
    """The tenhou.net/6 code of a tile of the file (0 to 135): 11-19 characters, 21-29 circles, 31-39
    bamboo, 41-47 honours, 51-53 the red fives."""
    if red and tile_id in (16, 52, 88):
        return 51 + (tile_id - 16) // 36
    kind = tile_id // 4
    return (kind // 9 + 1) * 10 + kind % 9 + 1


def rule_text(game_type: int) -> str:
    """``GO type`` as the viewer's ``rule.disp``: "般南喰赤" for a hanchan of the general lobby with open
    tanyao and red fives, "特東喰赤速" for a fast East-only game of the upper lobby."""
    level = {0x00: "般", 0x80: "上", 0x20: "特", 0xA0: "鳳"}[game_type & 0xA0]
    return (
        ("三" if game_type & 0x10 else "")
        + level
        + ("南" if game_type & 0x08 else "東")
        + ("" if game_type & 0x04 else "喰")
        + ("" if game_type & 0x02 else "赤")
        + ("速" if game_type & 0x40 else "")
    )


class _Converter:
    """Builds the tenhou.net/6 log, hand by hand, each refusal naming the hand and the element."""

    def __init__(self) -> None:
        self.names: list[str] | None = None
        self.game_type = 0x09  # a general-lobby hanchan with red fives, when the file has no GO
        self.hands: list[list[Any]] = []
        self.hand: list[Any] | None = None
        self.riichi_next: set[int] = set()
        self.final: list[int | float] | None = None
        self.number = 0  # the hand being read, from 1 (0: before the first INIT)

    def refuse(self, element: str, attribute: str, message: str) -> Refusal:
        number = self.number
        field = f"{FIELD}: <{element}>" + (f" {attribute}" if attribute else "")
        if number:
            located = _("hand {number}: {problem}").format(number=number, problem=message)
            return _refuse(field, located, hand=number)
        return _refuse(field, message)

    def ints(
        self, element: str, attributes: dict[str, str], name: str, count: int | None = None
    ) -> list[int]:
        text = attributes.get(name)
        if text is None or not _INTS.fullmatch(text) or (count is not None and text.count(",") + 1 != count):
            wanted = _("{count} whole numbers").format(count=count) if count else _("whole numbers")
            raise self.refuse(element, name, _("must be {wanted} separated by commas").format(wanted=wanted))
        return [int(value) for value in text.split(",")]

    def seat(self, element: str, attributes: dict[str, str], name: str) -> int:
        (value,) = self.ints(element, attributes, name, 1)
        if not 0 <= value < 4:
            raise self.refuse(element, name, _("a seat is 0 to 3"))
        return value

    def tiles(self, element: str, attributes: dict[str, str], name: str) -> list[int]:
        if not attributes.get(name):
            return []
        values = self.ints(element, attributes, name)
        if not all(0 <= value < 136 for value in values):
            raise self.refuse(element, name, _("a tile is 0 to 135"))
        return [_tile(value, not self.game_type & 0x02) for value in values]

    def read(self, elements: list[tuple[str, dict[str, str]]]) -> dict[str, Any]:
        for name, attributes in elements:
            self.element(name, attributes)
        self.close_hand()
        if self.names is None:
            raise _refuse(f"{FIELD}: <UN>", _("the file names no players (<UN n0=... n3=...>)"))
        if not self.hands:
            raise _refuse(f"{FIELD}: <INIT>", _("the file has no hand (<INIT>)"))
        data: dict[str, Any] = {
            "name": self.names,
            "rule": {"disp": rule_text(self.game_type), "aka": 0 if self.game_type & 0x02 else 1},
            "log": self.hands,
        }
        if self.final is not None:
            data["sc"] = self.final
        return data

    def element(self, name: str, attributes: dict[str, str]) -> None:
        if name == "GO":
            (self.game_type,) = self.ints(name, attributes, "type", 1)
            if not 0 <= self.game_type < 0x100:
                raise self.refuse(name, "type", _("the lobby's rules are a number from 0 to 255"))
        elif name == "UN" and self.names is None:
            # A three-player game (sanma) leaves n3 empty: three names, which the reader refuses as such.
            self.names = [name for name in (self.nickname(attributes, seat) for seat in range(4)) if name]
        elif name == "INIT":
            self.close_hand()
            self.number = len(self.hands) + 1
            self.init(attributes)
        elif name in ("AGARI", "RYUUKYOKU"):
            self.result(name, attributes)
        elif self.hand is not None:
            self.move(name, attributes)

    def nickname(self, attributes: dict[str, str], seat: int) -> str:
        try:
            name = unquote(attributes.get(f"n{seat}", ""), errors="strict")
        except UnicodeDecodeError:
            raise self.refuse("UN", f"n{seat}", _("the nickname is not URL-encoded UTF-8")) from None
        if len(name) > MAX_NAME:
            raise self.refuse(
                "UN", f"n{seat}", _("a nickname has at most {limit} characters").format(limit=MAX_NAME)
            )
        return name

    def init(self, attributes: dict[str, str]) -> None:
        seed = self.ints("INIT", attributes, "seed", 6)
        if not 0 <= seed[5] < 136:
            raise self.refuse("INIT", "seed", _("a tile is 0 to 135"))
        self.hand = [
            seed[:3],
            [points * 100 for points in self.ints("INIT", attributes, "ten", 4)],
            [_tile(seed[5], not self.game_type & 0x02)],
            [],
        ]
        for seat in range(4):
            self.hand.extend([self.tiles("INIT", attributes, f"hai{seat}"), [], []])
        self.hand.append(None)
        self.riichi_next = set()

    def move(self, name: str, attributes: dict[str, str]) -> None:
        assert self.hand is not None
        drawn, discarded = _DRAW_TAG.fullmatch(name), _DISCARD_TAG.fullmatch(name)
        if drawn is not None or discarded is not None:
            match = drawn or discarded
            assert match is not None
            seat = "TUVWDEFG".index(match.group(1)) % 4
            tile_id = int(match.group(2))
            if tile_id >= 136:
                raise self.refuse(name, "", _("a tile is 0 to 135"))
            code = _tile(tile_id, not self.game_type & 0x02)
            if drawn is not None:
                self.hand[5 + 3 * seat].append(code)
            elif seat in self.riichi_next:
                self.riichi_next.discard(seat)
                self.hand[6 + 3 * seat].append(f"r{code}")
            else:
                self.hand[6 + 3 * seat].append(code)
        elif name == "N":
            seat = self.seat(name, attributes, "who")
            (meld,) = self.ints(name, attributes, "m", 1)
            self.hand[5 + 3 * seat].append(f"m{meld}")
        elif name == "REACH":
            seat = self.seat(name, attributes, "who")
            if attributes.get("step") == "1":
                self.riichi_next.add(seat)
        elif name == "DORA":
            self.hand[2].extend(self.tiles(name, attributes, "hai"))

    def result(self, name: str, attributes: dict[str, str]) -> None:
        if self.hand is None:
            raise self.refuse(name, "", _("a result before the first hand (<INIT>)"))
        changes = self.changes(name, attributes)
        if name == "AGARI":
            self.win(attributes, changes)
        else:
            if self.hand[16] is not None:
                raise self.refuse(name, "", _("the hand has two results"))
            kind = attributes.get("type")
            if kind is not None and kind not in DRAWS:
                raise self.refuse(
                    name, "type", _("{kind} is no draw of the format").format(kind=repr(kind[:MAX_NAME]))
                )
            if kind is not None:
                draw = DRAWS[kind]
            else:
                tenpai = sum(1 for seat in range(4) if attributes.get(f"hai{seat}"))
                draw = {4: "全員聴牌", 0: "全員不聴"}.get(tenpai, "流局")
            self.hand[16] = [draw, changes]
        owari = attributes.get("owari")
        if owari is not None:
            if not _SCORES.fullmatch(owari):
                raise self.refuse(name, "owari", _("must be each player's final points and placement score"))
            values = owari.split(",")
            self.final = [
                value
                for pair in zip(values[::2], values[1::2], strict=True)
                for value in (int(pair[0]) * 100, float(pair[1]))
            ]

    def changes(self, name: str, attributes: dict[str, str]) -> list[int]:
        values = self.ints(name, attributes, "sc", 8)
        return [change * 100 for change in values[1::2]]

    def win(self, attributes: dict[str, str], changes: list[int]) -> None:
        assert self.hand is not None
        who = self.seat("AGARI", attributes, "who")
        source = self.seat("AGARI", attributes, "fromWho")
        liable = self.seat("AGARI", attributes, "paoWho") if "paoWho" in attributes else who
        fu, points, limit = self.ints("AGARI", attributes, "ten", 3)
        if not 0 <= limit < len(LIMITS):
            raise self.refuse("AGARI", "ten", _("the limit of the hand is 0 to 5"))
        yaku: list[str] = []
        han = 0
        if "yakuman" in attributes:
            for number in self.ints("AGARI", attributes, "yakuman"):
                yaku.append(f"{self.yaku_name(number)}(役満)")
            value = f"{LIMITS[5]}{points}点"
        else:
            pairs = self.ints("AGARI", attributes, "yaku")
            if len(pairs) % 2:
                raise self.refuse("AGARI", "yaku", _("the yaku are pairs: number, han"))
            for number, count in zip(pairs[::2], pairs[1::2], strict=True):
                name = self.yaku_name(number)
                if count:  # the file lists the ura dora of a riichi at 0 han; the JSON leaves them out
                    yaku.append(f"{name}({count}飜)")
                han += count
            value = f"{LIMITS[limit]}{points}点" if limit else f"{fu}符{han}飜{points}点"
        if self.hand[16] is None:
            self.hand[3] = self.tiles("AGARI", attributes, "doraHaiUra")
            self.hand[16] = ["和了"]
        elif self.hand[16][0] != "和了":
            raise self.refuse("AGARI", "", _("the hand has two results"))
        self.hand[16].extend([changes, [who, source, liable, value, *yaku]])

    def yaku_name(self, number: int) -> str:
        if not 0 <= number < len(YAKU_NAMES):
            raise self.refuse("AGARI", "yaku", _("{number} is no yaku of the format").format(number=number))
        return YAKU_NAMES[number]

    def close_hand(self) -> None:
        if self.hand is None:
            return
        if self.hand[16] is None:
            raise self.refuse("INIT", "", _("the hand has no result (<AGARI> or <RYUUKYOKU>)"))
        self.hands.append(self.hand)
        self.hand = None


def to_tenhou6(raw: bytes | str) -> dict[str, Any]:
    """The mjlog file as a tenhou.net/6 log (a dict, as ``json.loads`` gives it), or a ``Refusal``."""
    return _Converter().read(parse(raw))
