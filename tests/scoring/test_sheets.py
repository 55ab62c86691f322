"""Score sheets: three entry forms, refusal with named errors, life cycle, locking, corrections, chombo."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from django.core.exceptions import PermissionDenied

from penalties.models import Penalty
from scoring import services
from scoring.models import ScoreSheet, SheetVersion
from tests.conftest import make_user
from tests.scoring import hanchan
from tournament.core.refusal import CONFLICT, Refusal


def submit_and_sign(table: Any, entry: dict[str, Any], user: Any) -> ScoreSheet:
    sheet = services.save_sheet(table, entry, user, submit=True)
    return services.sign_sheet(sheet, user)


@pytest.mark.django_db
@pytest.mark.parametrize("form", ["final", "outcomes", "deltas"])
def test_the_three_forms_of_one_hanchan_give_the_same_result(
    seated_table: Any, referee: Any, form: str
) -> None:
    sheet = submit_and_sign(seated_table, hanchan.entry(form), referee)
    results = {r.player.name: (r.points, r.score) for r in sheet.results.select_related("player")}
    assert results == {
        name: (points, Decimal(hanchan.SCORES[name])) for name, points in hanchan.FINAL_POINTS.items()
    }
    chombo = Penalty.objects.get(sheet=sheet)
    assert (chombo.player.name, chombo.points, chombo.kind) == ("Cho", Decimal(20), "chombo")


@pytest.mark.django_db
def test_final_points_that_do_not_add_up_are_refused_and_nothing_is_saved(
    seated_table: Any, referee: Any
) -> None:
    entry = hanchan.entry("final")
    entry["final_points"]["Ana"] = 37450
    with pytest.raises(Refusal) as caught:
        services.save_sheet(seated_table, entry, referee, submit=True)
    messages = [p.message for p in caught.value.problems]
    assert "final points of Ana (37,450) are not a multiple of 100" in messages
    assert ScoreSheet.objects.count() == 0 and SheetVersion.objects.count() == 0


@pytest.mark.django_db
def test_sum_must_allow_for_riichi_sticks_left(seated_table: Any, referee: Any) -> None:
    entry = {
        "form": "final",
        "final_points": {"Ana": 40000, "Ben": 30000, "Cho": 25000, "Dai": 24000},
        "riichi_sticks_left": 0,
    }
    with pytest.raises(Refusal, match="add up to 119,000, not 120,000"):
        services.save_sheet(seated_table, entry, referee, submit=True)
    entry["riichi_sticks_left"] = 1
    assert services.save_sheet(seated_table, entry, referee).replay["scores"]["Ana"] == "25"


@pytest.mark.django_db
def test_a_player_not_at_this_table_is_named(seated_table: Any, referee: Any) -> None:
    entry = hanchan.entry("outcomes")
    entry["hands"][0] = {"result": "ron", "winner": "Eve", "loser": "Cho", "han": 2, "fu": 30, "riichi": []}
    with pytest.raises(Refusal) as caught:
        services.save_sheet(seated_table, entry, referee, submit=True)
    assert any(e["hand"] == 1 and "Eve" in e["message"] for e in caught.value.as_dicts())


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("index", "hand", "words"),
    [
        (0, {"result": "ron", "winner": "Ben", "loser": "Cho", "han": 1, "fu": 20, "riichi": []}, "20 fu"),
        (0, {"deltas": {"Ana": 0, "Ben": 1100, "Cho": -1100, "Dai": 0}, "riichi": []}, "1,100"),
    ],
)
def test_illegal_payments_are_refused_naming_the_hand(
    seated_table: Any, referee: Any, index: int, hand: dict[str, Any], words: str
) -> None:
    entry = hanchan.entry("outcomes")
    entry["hands"][index] = hand
    entry.pop("final_points")
    with pytest.raises(Refusal) as caught:
        services.save_sheet(seated_table, entry, referee, submit=True)
    first = caught.value.as_dicts()[0]
    assert first["hand"] == index + 1 and words in first["message"], caught.value.as_dicts()


@pytest.mark.django_db
def test_hands_after_the_end_are_refused(seated_table: Any, referee: Any) -> None:
    entry = hanchan.entry("outcomes")
    entry["hands"].append(
        {"result": "ron", "winner": "Ben", "loser": "Dai", "han": 1, "fu": 30, "riichi": []}
    )
    entry.pop("final_points")
    with pytest.raises(Refusal) as caught:
        services.save_sheet(seated_table, entry, referee, submit=True)
    assert [e["hand"] for e in caught.value.as_dicts()] == [12]


@pytest.mark.django_db
def test_a_draft_is_stored_with_its_problems_and_submitting_it_is_refused_naming_the_rule(
    seated_table: Any, referee: Any
) -> None:
    entry = hanchan.entry("outcomes")
    entry["hands"][0] = {"result": "ron", "winner": "Ben", "loser": "Cho", "han": 1, "fu": 20, "riichi": []}
    entry.pop("final_points")
    draft = services.save_sheet(seated_table, entry, referee)
    stored = ScoreSheet.objects.get(table=seated_table)
    assert (stored.status, stored.version, stored.entry) == ("draft", 1, entry)
    assert stored.replay["valid"] is False
    [problem] = stored.replay["errors"]
    assert problem["hand"] == 1 and "20 fu" in problem["message"]
    assert SheetVersion.objects.filter(sheet=stored, version=1, status="draft").count() == 1
    with pytest.raises(Refusal) as caught:
        services.save_sheet(seated_table, entry, referee, submit=True, expected_version=draft.version)
    [refused] = caught.value.as_dicts()
    assert (refused["hand"], refused["rule"]) == (1, problem["rule"])
    assert ScoreSheet.objects.get(table=seated_table).status == "draft"
    entry["hands"][0] = hanchan.OUTCOMES[0]  # fixed: submitted
    submitted = services.save_sheet(seated_table, entry, referee, submit=True, expected_version=draft.version)
    assert (submitted.status, submitted.replay["valid"]) == ("submitted", True)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("entry", "field"),
    [({"form": "final", "note": "bell\x07"}, "entry"), ({"form": "yaku"}, "form")],
)
def test_an_entry_that_is_no_sheet_at_all_is_refused_even_as_a_draft(
    seated_table: Any, referee: Any, entry: dict[str, Any], field: str
) -> None:
    with pytest.raises(Refusal) as caught:
        services.save_sheet(seated_table, entry, referee)
    assert caught.value.problems[0].field == field
    assert not ScoreSheet.objects.exists()


@pytest.mark.django_db
def test_an_unfinished_hanchan_can_be_a_draft_but_is_not_submitted_unless_ended_by_time(
    seated_table: Any, referee: Any
) -> None:
    entry = {"form": "hands", "hands": hanchan.OUTCOMES[:5]}
    draft = services.save_sheet(seated_table, entry, referee)
    with pytest.raises(Refusal, match="not over"):
        services.save_sheet(seated_table, entry, referee, submit=True, expected_version=draft.version)
    entry["ended_by_time"] = True
    submitted = services.save_sheet(seated_table, entry, referee, submit=True, expected_version=draft.version)
    assert submitted.status == "submitted" and submitted.version == 2


@pytest.mark.django_db
def test_signing_records_who_when_and_hash_and_locks(seated_table: Any, referee: Any) -> None:
    sheet = submit_and_sign(seated_table, hanchan.entry("final"), referee)
    assert sheet.signed_by == referee and sheet.signed_at is not None
    assert len(sheet.content_hash) == 64
    assert sheet.content_hash == services.content_hash(seated_table, sheet.entry)
    with pytest.raises(Refusal) as locked:
        services.save_sheet(seated_table, hanchan.entry("outcomes"), referee, expected_version=sheet.version)
    assert (locked.value.status, locked.value.rule) == (CONFLICT, "signed-sheets-are-locked (WRCR 2015 §8.2)")
    with pytest.raises(Refusal) as signed:
        services.sign_sheet(sheet, referee)
    assert (signed.value.status, signed.value.rule) == (CONFLICT, "already-signed")
    assert [v.action for v in sheet.versions.all()] == ["submitted", "signed"]


@pytest.mark.django_db
def test_correction_keeps_old_and_new_with_who_when_why(
    seated_table: Any, referee: Any, head_referee: Any
) -> None:
    sheet = submit_and_sign(seated_table, hanchan.entry("final"), referee)
    with pytest.raises(PermissionDenied):
        services.correct_sheet(sheet, hanchan.entry("outcomes"), referee, reason="typo")
    with pytest.raises(Refusal, match="needs a reason"):
        services.correct_sheet(sheet, hanchan.entry("outcomes"), head_referee, reason=" ")
    corrected_entry = {
        "form": "final",
        "final_points": {"Ana": 36400, "Ben": 27600, "Cho": 24900, "Dai": 31100},
        "riichi_sticks_left": 0,
    }
    corrected = services.correct_sheet(
        sheet, corrected_entry, head_referee, reason="points of Ana and Ben swapped"
    )
    assert corrected.version == sheet.version + 1 and corrected.is_signed
    history = list(corrected.versions.all())
    assert [v.action for v in history] == ["submitted", "signed", "corrected"]
    assert history[1].entry == hanchan.entry("final") and history[2].entry == corrected_entry
    assert (history[2].author, history[2].reason) == (head_referee, "points of Ana and Ben swapped")
    assert {r.player.name: r.points for r in corrected.results.select_related("player")}["Ana"] == 36400
    # The chombo is no longer on the sheet: its penalty is revoked, not deleted.
    chombo = Penalty.objects.get(sheet=sheet)
    assert chombo.revoked_at is not None and "no longer on the sheet" in chombo.revoke_reason


@pytest.mark.django_db
def test_a_referee_of_another_tournament_and_an_anonymous_user_are_refused(seated_table: Any) -> None:
    from django.contrib.auth.models import AnonymousUser

    from tournament.models import Tournament

    other = Tournament.objects.create(
        name="Other", slug="other", starts_on="2026-01-01", ends_on="2026-01-01", hanchan_count=4
    )
    outsider = make_user("outsider", other, "referee")
    for user in (outsider, AnonymousUser()):
        with pytest.raises(PermissionDenied):
            services.save_sheet(seated_table, hanchan.entry("final"), user)
    assert ScoreSheet.objects.count() == 0


@pytest.mark.django_db
def test_a_second_create_for_the_same_table_is_a_conflict(seated_table: Any, referee: Any) -> None:
    services.save_sheet(seated_table, hanchan.entry("final"), referee, submit=True)
    with pytest.raises(Refusal, match="already has a score sheet") as conflict:
        services.save_sheet(seated_table, hanchan.entry("final"), referee, submit=True)
    assert (conflict.value.status, conflict.value.rule) == (CONFLICT, "one-sheet-per-table")
    assert ScoreSheet.objects.count() == 1


@pytest.mark.django_db
def test_a_stale_version_is_a_conflict(seated_table: Any, referee: Any) -> None:
    sheet = services.save_sheet(seated_table, hanchan.entry("final"), referee)
    services.save_sheet(seated_table, hanchan.entry("outcomes"), referee, expected_version=sheet.version)
    with pytest.raises(Refusal, match="reload") as conflict:
        services.save_sheet(seated_table, hanchan.entry("deltas"), referee, expected_version=sheet.version)
    assert (conflict.value.status, conflict.value.rule) == (CONFLICT, "stale-version")


@pytest.mark.django_db
def test_each_action_reads_the_seats_once(seated_table: Any, referee: Any) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def seat_reads(action: Any) -> int:
        with CaptureQueriesContext(connection) as queries:
            action()
        # The table's seats (a query on the seats of one table); the completion of the hanchan reads the
        # whole field's seats once more, for the missed-hanchan penalties (tournament.participation).
        return sum(
            'FROM "tournament_seat"' in query["sql"] and '"tournament_seat"."table_id" =' in query["sql"]
            for query in queries.captured_queries
        )

    sheets: list[ScoreSheet] = []
    assert (
        seat_reads(
            lambda: sheets.append(
                services.save_sheet(seated_table, hanchan.entry("outcomes"), referee, submit=True)
            )
        )
        == 1
    )
    assert seat_reads(lambda: services.sign_sheet(sheets[0], referee)) == 1
