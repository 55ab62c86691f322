"""The pure rules of players signing up themselves (tournament.signups): no database."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from tournament.core import signups
from tournament.core.refusal import Problem
from tournament.core.signups import Queued, Settings

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
OPEN = Settings(NOW - timedelta(days=1), NOW + timedelta(days=1), 2, needs_approval=False, waiting_list=True)


def test_a_confirmation_takes_a_place_while_places_are_left_then_the_waiting_list() -> None:
    assert signups.on_confirmation(OPEN, 0, NOW) == signups.REGISTERED
    assert signups.on_confirmation(OPEN, 1, NOW) == signups.REGISTERED
    assert signups.on_confirmation(OPEN, 2, NOW) == signups.WAITING_LIST


def test_approval_makes_a_confirmation_await_the_organiser() -> None:
    settings = Settings(OPEN.opens_at, OPEN.closes_at, None, needs_approval=True, waiting_list=False)
    assert signups.on_confirmation(settings, 500, NOW) == signups.AWAITING_APPROVAL


def test_full_without_a_waiting_list_closed_and_not_yet_open_are_refused_by_their_rule() -> None:
    full = Settings(OPEN.opens_at, OPEN.closes_at, 2, needs_approval=False, waiting_list=False)
    refused = signups.on_confirmation(full, 2, NOW)
    assert isinstance(refused, Problem) and refused.rule == signups.RULE_FULL
    closed = signups.on_confirmation(OPEN, 0, OPEN.closes_at)  # type: ignore[arg-type]
    assert isinstance(closed, Problem) and closed.rule == signups.RULE_CLOSED
    early = signups.on_confirmation(OPEN, 0, OPEN.opens_at - timedelta(seconds=1))  # type: ignore[operator]
    assert isinstance(early, Problem) and early.rule == signups.RULE_NOT_OPEN
    never_opened = Settings(None, None, 10, needs_approval=False, waiting_list=True)
    assert isinstance(signups.on_confirmation(never_opened, 0, NOW), Problem)


def test_the_waiting_list_is_in_the_order_of_confirmation_then_of_id() -> None:
    rows = [
        Queued(5, signups.WAITING_LIST, NOW + timedelta(minutes=2)),
        Queued(9, signups.WAITING_LIST, NOW),
        Queued(3, signups.WAITING_LIST, NOW + timedelta(minutes=2)),
        Queued(1, signups.REGISTERED, NOW - timedelta(days=1)),
        Queued(2, signups.CANCELLED, NOW - timedelta(days=1)),
    ]
    assert [s.id for s in signups.waiting_order(rows)] == [9, 3, 5]
    assert signups.waiting_position(rows, 5) == 3
    assert signups.waiting_position(rows, 1) is None


def test_a_freed_place_promotes_the_first_waiting_and_no_one_after_the_closing_moment() -> None:
    rows = [
        Queued(1, signups.REGISTERED, NOW),
        Queued(2, signups.CANCELLED, NOW),
        Queued(3, signups.WAITING_LIST, NOW + timedelta(minutes=2)),
        Queued(4, signups.WAITING_LIST, NOW + timedelta(minutes=1)),
    ]
    assert [s.id for s in signups.to_promote(OPEN, rows, NOW)] == [4]
    assert signups.to_promote(OPEN, rows, OPEN.closes_at) == []  # type: ignore[arg-type]
    two_free = [Queued(2, signups.CANCELLED, NOW), *rows[2:]]
    assert [s.id for s in signups.to_promote(OPEN, two_free, NOW)] == [4, 3]
    holding_all = [Queued(1, signups.REGISTERED, NOW), Queued(2, signups.AWAITING_APPROVAL, NOW), *rows[2:]]
    assert signups.to_promote(OPEN, holding_all, NOW) == []


def fields(**changes: object) -> signups.Fields:
    raw: dict[str, object] = {
        "last_name": "Alves",
        "first_name": "Ana",
        "native_name": "",
        "country": "pt",
        "club": "Lisboa Riichi",
        "ema_id": "",
        "email": " Ana@Example.org ",
        "nicknames": "",
        "note": "",
        "consent": "on",
    }
    raw.update(changes)
    return signups.clean(raw)


def problems(**changes: object) -> dict[str | None, str]:
    return {p.field: p.rule for p in signups.validate(fields(**changes), countries=["PT", "JP"])}


def test_a_good_sign_up_has_no_problem_and_its_email_is_folded() -> None:
    assert problems() == {}
    assert fields().email == "ana@example.org" and fields().country == "PT"
    assert problems(last_name="Đặng", first_name="Thị Ánh", native_name="鄧氏映", ema_id="04010001") == {}
    assert problems(last_name="O'Neill-Smith", first_name="J. R.") == {}


def test_each_bad_field_is_named_with_its_rule() -> None:
    assert problems(last_name="", first_name=" ") == {
        "last_name": signups.RULE_REQUIRED,
        "first_name": signups.RULE_REQUIRED,
    }
    assert problems(last_name="鈴木") == {"last_name": signups.RULE_LATIN}
    assert problems(first_name="Ana1") == {"first_name": signups.RULE_LATIN}
    assert problems(ema_id="1234567") == {"ema_id": signups.RULE_EMA}
    assert problems(ema_id="1234567a") == {"ema_id": signups.RULE_EMA}
    for email in ("ana", "ana@", "@example.org", "ana@example", "a na@example.org", "ana@ex..org", "a@b.c"):
        assert problems(email=email) == {"email": signups.RULE_EMAIL}, email
    assert problems(email="") == {"email": signups.RULE_REQUIRED}
    assert problems(consent="") == {"consent": signups.RULE_CONSENT}
    assert problems(country="XX") == {"country": signups.RULE_REQUIRED}
    assert problems(note="x" * 1001) == {"note": signups.RULE_LENGTH}
    message = signups.validate(fields(ema_id="123"), countries=["PT"])[0].message
    assert "EMA number" in message and "8 digits" in message


def test_with_a_time_to_accept_a_promotion_is_an_offer_that_holds_the_place_until_its_deadline() -> None:
    timed = Settings(OPEN.opens_at, OPEN.closes_at, 1, needs_approval=True, waiting_list=True, accept_hours=6)
    assert signups.promoted_state(OPEN) == signups.REGISTERED
    assert signups.promoted_state(timed) == signups.OFFERED
    assert signups.accepted_state(timed) == signups.AWAITING_APPROVAL
    assert signups.offer_deadline(timed, NOW) == NOW + timedelta(hours=6)
    assert signups.offer_deadline(OPEN, NOW) is None
    assert signups.offer_expired(NOW, NOW) and not signups.offer_expired(NOW + timedelta(seconds=1), NOW)
    assert not signups.offer_expired(None, NOW)
    # An offer holds its place: nobody else is promoted over it.
    queue = [Queued(1, signups.OFFERED, NOW), Queued(2, signups.WAITING_LIST, NOW)]
    assert signups.to_promote(timed, queue, NOW) == []


def test_an_announcement_is_checked_field_by_field() -> None:
    fine = signups.clean_announcement(
        {"subject": " Doors ", "text": "At 9.\n\tBring tiles.", "waiting_list": "on"}
    )
    assert (fine.subject, fine.waiting_list) == ("Doors", True)
    assert signups.announcement_problems(fine) == []
    assert signups.announced_states(fine) == (signups.REGISTERED, signups.WAITING_LIST)
    long = signups.clean_announcement({"subject": "x" * 151, "text": "y" * 5001})
    assert [(p.field, p.rule) for p in signups.announcement_problems(long)] == [
        ("subject", "announcement-length"),
        ("text", "announcement-length"),
    ]
    assert signups.announced_states(long) == (signups.REGISTERED,)
