"""Tenhou's mjlog XML (``scoring.rules.mjlog``): a real game's XML gives the same log, sheet, findings and
figures as its tenhou.net/6 JSON; the reader is bounded, expands no entity, and refuses naming the hand
and the element and attribute."""

from __future__ import annotations

from pathlib import Path

import pytest

from scoring.rules import mjlog
from scoring.rules.replay import replay
from scoring.rules.ruleset import PRESETS, Ruleset, get_ruleset
from scoring.rules.tenhou import FORMAT_JSON, log_format, log_sheet, match_players, read_game_log, read_log
from tournament.core.refusal import Refusal

DATA = Path(__file__).resolve().parent.parent / "data" / "tenhou"
SEATED = ["Ana", "Ben", "Cho", "Dai"]
NAMES = {"player1": "Ana", "player2": "Ben", "player3": "Cho", "player4": "Dai"}
XML = (DATA / "real-tenhou-2023.xml").read_bytes()
JSON = (DATA / "real-tenhou-2023.json").read_bytes()


def refused(raw: bytes | str) -> Refusal:
    with pytest.raises(Refusal) as caught:
        read_game_log(raw)
    return caught.value


def test_a_real_games_xml_is_read_as_its_json() -> None:
    """The real ranked game of 2 October 2023 as Tenhou serves it (mjlog XML) and as its viewer exports it
    (tenhou.net/6 JSON), both from MahjongPantheon/pantheon (tests/data/README.md): the same log, hand by
    hand, with the same final points, placement scores (owari 71.1 ...) and rules (特南喰赤)."""
    assert log_format(XML) == mjlog.FORMAT and log_format(JSON) == FORMAT_JSON
    from_xml, from_json = read_game_log(XML), read_game_log(JSON)
    assert from_xml == from_json == read_log(JSON)
    assert from_xml.rule == "特南喰赤" and not from_xml.east_only
    assert len(from_xml.hands) == 14 and from_xml.final_points == (19400, 61100, 4600, 14900)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_xml_and_the_json_give_the_same_sheet_findings_and_figures(preset: str) -> None:
    ruleset = get_ruleset(preset)
    sheets = []
    for raw in (XML, JSON, XML.decode("utf-8")):
        log = read_game_log(raw)
        sheets.append(log_sheet(log, match_players(log.names, SEATED, NAMES), ruleset))
    assert sheets[0] == sheets[1] == sheets[2]
    verdicts = [replay({**sheet.entry, "players": SEATED}, ruleset).as_json() for sheet in sheets]
    assert verdicts[0] == verdicts[1]
    if preset == "TENHOU":
        assert sheets[0].findings == () and verdicts[0]["scores"]["Ben"] == "71.1"


def test_the_lobby_type_is_read_as_the_viewers_rule_text() -> None:
    assert mjlog.rule_text(41) == "特南喰赤"  # this game: against people, hanchan, upper lobby
    assert mjlog.rule_text(97) == "特東喰赤速"  # the real East-only game of 2019's lobby
    assert mjlog.rule_text(9) == "般南喰赤" and mjlog.rule_text(1) == "般東喰赤"
    assert mjlog.rule_text(0xA9) == "鳳南喰赤" and mjlog.rule_text(0x0F) == "般南"
    east = XML.replace(b'<GO type="41"', b'<GO type="97"')
    log = read_game_log(east)
    assert log.east_only
    sheet = log_sheet(log, match_players(log.names, SEATED, NAMES), get_ruleset("TENHOU"))
    assert [finding.rule for finding in sheet.findings] == ["east-only-game (WRCR 2015 §5.8)"]
    # Under TENHOU made East-only, the same hands go on after East 4: no East-only finding.
    rules = Ruleset.custom("TENHOU", east_only=True)
    assert "east-only-game (WRCR 2015 §5.8)" not in [
        f.rule for f in log_sheet(log, list(SEATED), rules).findings
    ]


def test_nicknames_are_url_decoded_and_a_reconnection_is_no_new_player() -> None:
    raw = XML.replace(b'n0="player1"', b'n0="%E3%83%97%E3%83%AC%E3%83%BC%E3%83%A4%E3%83%BC1"')
    raw = raw.replace(b"<TAIKYOKU", b'<UN n2="somebody"/><TAIKYOKU', 1)
    assert read_game_log(raw).names == ("プレーヤー1", "player2", "player3", "player4")


@pytest.mark.parametrize(
    "text",
    [
        # The billion laughs: an entity declared in a document type, expanded a billion times.
        '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]>'
        "<mjloggm>&lol2;</mjloggm>",
        # An external entity (a file of the server).
        '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY f SYSTEM "file:///etc/passwd">]><mjloggm>&f;</mjloggm>',
        '<!DOCTYPE mjloggm SYSTEM "http://example.org/x.dtd"><mjloggm ver="2.3"/>',
    ],
)
def test_no_document_type_or_entity_is_read(text: str) -> None:
    problem = refused(text).problems[0]
    assert problem.field == "log" and "declares a document type or an entity" in problem.message


def test_an_undefined_entity_or_broken_xml_is_refused() -> None:
    assert "not well-formed XML" in refused("<mjloggm>&lol;</mjloggm>").problems[0].message
    assert "not well-formed XML" in refused(XML[:-20]).problems[0].message
    assert "one <mjloggm> element" in refused("<log/>").problems[0].message


def test_the_reader_is_bounded() -> None:
    assert (
        "at most 1,048,576 are read"
        in refused(b"<mjloggm>" + b" " * 1_048_576 + b"</mjloggm>").problems[0].message
    )
    many = "<mjloggm>" + "<T1/>" * (mjlog.MAX_ELEMENTS + 1) + "</mjloggm>"
    assert "more than 20,000 elements" in refused(many).problems[0].message
    assert "nested" in refused("<mjloggm><INIT><T1/></INIT></mjloggm>").problems[0].message
    long = '<mjloggm><SHUFFLE seed="' + "x" * 5000 + '"/></mjloggm>'
    assert "longer than 4096 characters" in refused(long).problems[0].message


def test_a_hand_that_cannot_be_read_is_refused_naming_the_hand_and_the_element() -> None:
    # Hand 3's win without its points (sc).
    third = XML.index(b'<AGARI ba="0,1" hai="6,11')
    end = XML.index(b"/>", third)
    broken = XML[:third] + XML[third:end].replace(b' sc="160,-13,332,-13,247,-26,251,62"', b"") + XML[end:]
    problem = refused(broken).problems[0]
    assert (problem.field, problem.hand) == ("log: <AGARI> sc", 3)
    assert problem.message.startswith("hand 3: must be 8 whole numbers")
    # An unknown yaku number.
    unknown = XML.replace(b'yaku="14,1,52,1,54,2"', b'yaku="99,1,52,1,54,2"')
    problem = refused(unknown).problems[0]
    assert (problem.field, problem.hand) == ("log: <AGARI> yaku", 1) and "99 is no yaku" in problem.message
    # A hand cut off before its result.
    cut = XML[: XML.index(b"<AGARI")] + b"</mjloggm>"
    problem = refused(cut).problems[0]
    assert problem.hand == 1 and "no result" in problem.message
    # Points that do not follow from the previous hand: the tenhou.net/6 reader names the hand.
    shifted = XML.replace(b'ten="163,337,250,250"', b'ten="163,337,250,251"')
    problem = refused(shifted).problems[0]
    assert problem.hand == 2 and "not those the previous hand left" in problem.message
    # A three-player game (sanma) has no place at a table of four.
    sanma = XML.replace(b'n3="player4"', b'n3=""')
    assert "3-player game" in refused(sanma).problems[0].message
    assert refused("<mjloggm/>").problems[0].field == "log: <UN>"
