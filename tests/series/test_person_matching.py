"""Which registrations may be the same person (tournament.persons): by EMA id, else by name in either
script and country. No database."""

from __future__ import annotations

from decimal import Decimal

from tournament.core.persons import Career, EventLine, Identity, career, ema_match, name_form, suggestions

ZHUKOV = Identity(1, "Aleksei Zhukov", "Алексей Жуков", "RU", "")
SATO = Identity(2, "Taro Sato", "佐藤 太郎", "JP", "10990001")
NOWAK = Identity(3, "Łukasz Nowak", "", "", "")
OTHER_SATO = Identity(4, "Taro Sato", "", "BR", "")
PERSONS = [ZHUKOV, SATO, NOWAK, OTHER_SATO]


def keys(registration: Identity) -> list[tuple[int, bool]]:
    return [(s.person.key, s.same_country) for s in suggestions(registration, PERSONS)]


def test_names_compare_across_scripts_transcriptions_and_word_order() -> None:
    assert name_form("Алексей Жуков") == name_form("Aleksei Zhukov") == name_form("Zhukov Alexey")
    assert name_form("Lukasz NOWAK") == name_form("Łukasz Nowak")
    assert name_form("佐藤 太郎") == name_form("太郎 佐藤") != name_form("Taro Sato")


def test_a_name_in_either_script_suggests_the_person() -> None:
    assert keys(Identity(10, "Alexey Zhukov", "", "RU")) == [(1, True)]
    assert keys(Identity(10, "Zhukov", "Алексей Жуков", "")) == [(1, False)]
    # 佐藤 太郎 in its own script, a Latin spelling the person does not have.
    assert keys(Identity(10, "Satou Tarou", "佐藤 太郎", "JP")) == [(2, True)]


def test_the_same_country_comes_first_and_another_country_rules_a_person_out() -> None:
    assert keys(Identity(10, "Sato Taro", "", "")) == [(2, False), (4, False)]
    assert keys(Identity(10, "Sato Taro", "", "BR")) == [(4, True)]
    assert keys(Identity(10, "Lukasz Nowak", "", "PL")) == [(3, False)]


def test_two_ema_ids_are_two_persons_and_one_ema_id_is_one() -> None:
    assert keys(Identity(10, "Taro Sato", "", "JP", "10990002")) == []
    assert ema_match(Identity(10, "T. Sato", "", "", "10990001"), PERSONS) == SATO
    assert ema_match(Identity(10, "Taro Sato", "", "JP", ""), PERSONS) is None
    assert keys(Identity(10, "Someone Else", "", "JP")) == []


def test_a_career_across_events_by_hand() -> None:
    lines = [
        # 1st of the event with +45.5 over 4 hanchan: 1st, 1st, 3rd, 2nd.
        EventLine(1, Decimal("45.5"), 4, (2, 1, 1, 0)),
        # 7th with -20 over 3 hanchan: 4th, 2nd, 4th.
        EventLine(7, Decimal("-20"), 3, (0, 1, 0, 2)),
        # Not ranked (a substitute's event), 0 over 0 hanchan.
        EventLine(None, Decimal(0), 0, (0, 0, 0, 0)),
    ]
    figures = career(lines)
    # 25.5 over 7 hanchan = 3.642857... -> 3.64; placements 2, 2, 1, 2: (2 + 4 + 3 + 8) / 7 = 2.43.
    assert figures == Career(3, 7, Decimal("25.5"), Decimal("3.64"), Decimal("2.43"), 1, (2, 2, 1, 2))
    assert career([]) == Career(0, 0, Decimal(0), None, None, None, (0, 0, 0, 0))
