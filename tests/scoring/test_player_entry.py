"""Players enter their table's sheet and the table confirms it: all four agree and it is signed for the
table; one disputes and a referee decides; a new version needs everyone's answer again; everyone else is
refused with the rule that refuses them."""

from __future__ import annotations

import json
import threading
from decimal import Decimal
from typing import Any

import pytest
from django.db import connection

from exports.archive.dump import export_archive
from exports.archive.load import import_archive
from scoring import services
from scoring.models import ScoreSheet, SheetConfirmation, SheetVersion
from tests.conftest import seat_table
from tests.scoring.hanchan import CHOMBO, OUTCOMES
from tournament.core.refusal import CONFLICT, FORBIDDEN, Refusal
from tournament.models import Player, Round, Tournament
from tournament.queries import access
from tournament.queries.standings_db import load_standings

POINTS = {"Ana": 41000, "Ben": 31000, "Cho": 26000, "Dai": 22000}
FINAL = {"form": "final", "final_points": POINTS, "riichi_sticks_left": 0}


@pytest.fixture
def players_mode(tournament: Tournament) -> Tournament:
    tournament.entry_mode = Tournament.EntryMode.PLAYERS
    tournament.save()
    return tournament


@pytest.fixture
def table(players_mode: Tournament, seated_table: Any) -> Any:
    return seated_table


def seated(table: Any) -> dict[str, Player]:
    return {seat.player.name: seat.player for seat in table.seats.select_related("player")}


def refused(call: Any) -> Refusal:
    with pytest.raises(Refusal) as caught:
        call()
    return caught.value


@pytest.mark.django_db
def test_three_agree_after_the_submission_and_the_table_signs_it(table: Any) -> None:
    p = seated(table)
    sheet = services.player_save_sheet(table, FINAL, p["Ana"], submit=True)
    assert sheet.status == ScoreSheet.Status.SUBMITTED and sheet.submitted_by_player == p["Ana"]
    services.confirm_sheet(table, p["Ben"], version=1)
    services.confirm_sheet(table, p["Cho"], version=1)
    assert ScoreSheet.objects.get().status == ScoreSheet.Status.SUBMITTED  # three of four
    services.confirm_sheet(table, p["Dai"], version=1)

    sheet = ScoreSheet.objects.get()
    assert sheet.status == ScoreSheet.Status.SIGNED and sheet.signed_by is None and sheet.signed_at
    assert sheet.content_hash
    last = sheet.versions.order_by("pk").last()
    assert last is not None and last.action == SheetVersion.Action.CONFIRMED
    assert last.reason == "agreed by Ana, Ben, Cho and Dai"
    assert sheet.signed_at == last.at  # the sheet's own time is its history's
    rows = {row.name: row for row in load_standings(table.round.tournament_id).rows}
    assert rows["Ana"].total == Decimal("26") and rows["Dai"].total == Decimal("-23")
    assert rows["Ana"].played == 1


@pytest.mark.django_db
def test_a_referee_signing_a_sheet_the_table_agreed_is_told_who_signed_it(table: Any, referee: Any) -> None:
    p = seated(table)
    sheet = services.player_save_sheet(table, FINAL, p["Ana"], submit=True)
    for name in ("Ben", "Cho", "Dai"):
        services.confirm_sheet(table, p[name], version=1)
    late = refused(lambda: services.sign_sheet(sheet, referee))
    assert (late.rule, late.message) == ("already-signed", "already signed: the four players agreed")


@pytest.mark.django_db
def test_a_dispute_goes_to_a_referee_who_signs(table: Any, referee: Any) -> None:
    p = seated(table)
    services.player_save_sheet(table, FINAL, p["Ben"], submit=True)
    services.confirm_sheet(table, p["Ana"], version=1)
    sheet = services.dispute_sheet(table, p["Cho"], version=1, reason="Dai had 23,000, not 22,000")
    assert sheet.status == ScoreSheet.Status.DISPUTED and sheet.disputed_at is not None
    answer = SheetConfirmation.objects.get(player=p["Cho"])
    assert (answer.decision, answer.reason) == ("dispute", "Dai had 23,000, not 22,000")

    # The players can no longer change it, nor answer it.
    for call in (
        lambda: services.player_save_sheet(table, FINAL, p["Ben"], submit=True, expected_version=1),
        lambda: services.confirm_sheet(table, p["Dai"], version=1),
    ):
        refusal = refused(call)
        assert (refusal.rule, refusal.status) == (services.RULE_DISPUTED, CONFLICT)

    # A referee signs it as it is (or edits it first, as ever).
    signed = services.sign_sheet(ScoreSheet.objects.get(), referee, expected_version=1)
    assert signed.status == ScoreSheet.Status.SIGNED and signed.signed_by == referee
    assert [v.action for v in signed.versions.order_by("pk")] == ["submitted", "disputed", "signed"]


@pytest.mark.django_db
def test_a_referee_edits_a_disputed_sheet_and_signs_it(table: Any, referee: Any) -> None:
    p = seated(table)
    services.player_save_sheet(table, FINAL, p["Ben"], submit=True)
    services.dispute_sheet(table, p["Dai"], version=1, reason="my points")
    fixed = {**FINAL, "final_points": {**POINTS, "Ana": 40000, "Dai": 23000}}
    sheet = services.save_sheet(table, fixed, referee, submit=True, expected_version=1)
    refusal = refused(lambda: services.confirm_sheet(table, p["Ana"], version=2))
    assert refusal.rule == services.RULE_DISPUTED  # the referee has the last word now
    signed = services.sign_sheet(sheet, referee)
    assert {r.player.name: r.points for r in signed.results.select_related("player")}["Dai"] == 23000


@pytest.mark.django_db
def test_a_new_version_voids_the_earlier_answers(table: Any) -> None:
    p = seated(table)
    services.player_save_sheet(table, FINAL, p["Ana"], submit=True)
    services.confirm_sheet(table, p["Ben"], version=1)
    services.confirm_sheet(table, p["Cho"], version=1)
    changed = {**FINAL, "final_points": {**POINTS, "Ben": 30000, "Cho": 27000}}
    sheet = services.player_save_sheet(table, changed, p["Cho"], submit=True, expected_version=1)
    assert sheet.version == 2
    assert set(services.confirmations(sheet)) == {p["Cho"].pk}  # only the one who submitted version 2

    stale = refused(lambda: services.confirm_sheet(table, p["Ben"], version=1))
    assert (stale.rule, stale.status) == ("stale-version", CONFLICT)
    services.confirm_sheet(table, p["Ana"], version=2)
    services.confirm_sheet(table, p["Ben"], version=2)
    assert ScoreSheet.objects.get().status == ScoreSheet.Status.SUBMITTED  # Dai has not answered v2
    services.confirm_sheet(table, p["Dai"], version=2)
    sheet = ScoreSheet.objects.get()
    assert sheet.is_signed
    assert {r.player.name: r.points for r in sheet.results.select_related("player")}["Cho"] == 27000


@pytest.mark.django_db
def test_one_answer_per_player_and_version_and_drafts_are_not_answered(table: Any) -> None:
    p = seated(table)
    services.player_save_sheet(table, FINAL, p["Ana"])
    draft = refused(lambda: services.confirm_sheet(table, p["Ben"], version=1))
    assert draft.rule == "submit-before-confirming"
    services.player_save_sheet(table, FINAL, p["Ana"], submit=True, expected_version=1)
    again = refused(lambda: services.confirm_sheet(table, p["Ana"], version=2))  # submitting agreed
    assert (again.rule, again.status) == ("one-answer-per-version", CONFLICT)


@pytest.mark.django_db
def test_a_referee_may_sign_a_submitted_sheet_without_waiting(table: Any, referee: Any) -> None:
    p = seated(table)
    sheet = services.player_save_sheet(table, FINAL, p["Ana"], submit=True)
    services.sign_sheet(sheet, referee)
    for call in (
        lambda: services.confirm_sheet(table, p["Ben"], version=1),
        lambda: services.player_save_sheet(table, FINAL, p["Ben"], submit=True, expected_version=1),
        lambda: services.dispute_sheet(table, p["Cho"], version=1, reason="late"),
    ):
        refusal = refused(call)
        assert (refusal.rule, refusal.status) == ("signed-sheets-are-locked (WRCR 2015 §8.2)", CONFLICT)


@pytest.mark.django_db
def test_the_sheet_names_who_signed_it_and_asks_nothing_more_once_signed(
    table: Any, referee: Any, client: Any
) -> None:
    """Agreed by the four: the sheet says so, not "signed by None"; signed by a referee before everyone
    answered: nobody is listed as still to answer."""
    p = seated(table)
    sheet = services.player_save_sheet(table, FINAL, p["Ana"], submit=True)
    for name in ("Ben", "Cho", "Dai"):
        services.confirm_sheet(table, p[name], version=1)
    client.force_login(referee)
    page = client.get("/t/test-open/sheet/1/1/").content.decode()
    assert "agreed by the four players" in page and "None" not in page
    assert "no answer yet" not in page
    assert client.get(f"/api/tables/{table.pk}/sheet/").json()["signed_by_table"] is True

    other = seat_table(
        table.round, 2, [Player.objects.create(tournament=table.round.tournament, name=n) for n in "EFGH"]
    )
    q = seated(other)
    sheet = services.player_save_sheet(
        other, {**FINAL, "final_points": dict(zip("EFGH", POINTS.values(), strict=True))}, q["E"], submit=True
    )
    services.confirm_sheet(other, q["F"], version=1)
    services.sign_sheet(sheet, referee)
    page = client.get("/t/test-open/sheet/1/2/").content.decode()
    assert "signed by referee" in page and "agreed by the four players" not in page
    assert "no answer yet" not in page and page.count("not asked: a referee signed") == 2
    assert client.get(f"/api/tables/{other.pk}/sheet/").json()["signed_by_table"] is False


@pytest.mark.django_db
def test_the_rules_engine_refuses_a_player_as_it_refuses_a_referee(table: Any, referee: Any) -> None:
    p = seated(table)
    wrong = {**FINAL, "final_points": {**POINTS, "Ana": 41050}}
    by_player = refused(lambda: services.player_save_sheet(table, wrong, p["Ana"], submit=True))
    by_referee = refused(lambda: services.save_sheet(table, wrong, referee, submit=True))
    assert by_player.as_dicts() == by_referee.as_dicts()
    assert "final points of Ana (41,050) are not a multiple of 100" in by_player.message
    assert ScoreSheet.objects.count() == 0


@pytest.mark.django_db
def test_players_not_allowed_are_refused_with_the_rule(
    players_mode: Tournament, table: Any, sixteen_players: list[Player]
) -> None:
    p = seated(table)
    other_table = seat_table(table.round, 2, sixteen_players[:4])
    stranger = sixteen_players[4]  # not seated at all
    for player, at in ((sixteen_players[0], table), (stranger, table), (p["Ana"], other_table)):
        refusal = refused(lambda player=player, at=at: services.player_save_sheet(at, FINAL, player))
        assert (refusal.rule, refusal.status) == (access.RULE_SEATED_ONLY, FORBIDDEN)
        assert "is not seated at table" in refusal.message

    players_mode.seating_publication = Tournament.SeatingPublication.BY_HANCHAN
    players_mode.save()
    unpublished = refused(lambda: services.player_save_sheet(table, FINAL, p["Ana"]))
    assert (unpublished.rule, unpublished.status) == (access.RULE_SEATING_PUBLIC, FORBIDDEN)

    players_mode.seating_publication = Tournament.SeatingPublication.ALL
    players_mode.entry_mode = Tournament.EntryMode.REFEREES
    players_mode.save()
    referees_mode = refused(lambda: services.player_save_sheet(table, FINAL, p["Ana"]))
    assert (referees_mode.rule, referees_mode.status) == (access.RULE_PLAYERS_ENTER, FORBIDDEN)
    assert ScoreSheet.objects.count() == 0


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("reason", "rule"),
    [("   ", "disputes-give-a-reason"), ("x" * 501, "length"), ("bad\x07bell", "printable-text")],
)
def test_a_dispute_gives_a_printable_reason_of_bounded_length(table: Any, reason: str, rule: str) -> None:
    p = seated(table)
    services.player_save_sheet(table, FINAL, p["Ana"], submit=True)
    refusal = refused(lambda: services.dispute_sheet(table, p["Ben"], version=1, reason=reason))
    assert (refusal.field, refusal.rule) == ("reason", rule)
    assert ScoreSheet.objects.get().status == ScoreSheet.Status.SUBMITTED


@pytest.mark.django_db
def test_the_last_table_confirmed_completes_the_hanchan(players_mode: Tournament) -> None:
    round_ = Round.objects.create(tournament=players_mode, number=1, status=Round.Status.STARTED)
    names = ("Ana", "Ben", "Cho", "Dai")
    table = seat_table(round_, 1, [Player.objects.create(tournament=players_mode, name=n) for n in names])
    absent = Player.objects.create(tournament=players_mode, name="Eve", status=Player.Status.CHECKED_IN)
    p = seated(table)
    services.player_save_sheet(table, FINAL, p["Ana"], submit=True)
    for name in ("Ben", "Cho", "Dai"):
        services.confirm_sheet(table, p[name], version=1)
    assert absent.penalties.filter(kind="missed_hanchan").exists()  # booked as for a referee's signature


@pytest.mark.django_db
def test_the_archive_keeps_who_entered_and_the_tables_answers(
    table: Any, sixteen_players: list[Player]
) -> None:
    p = seated(table)
    services.player_save_sheet(table, FINAL, p["Ana"], submit=True)
    services.confirm_sheet(table, p["Ben"], version=1)
    services.dispute_sheet(table, p["Cho"], version=1, reason="Dai had 23,000")
    data = export_archive(table.round.tournament)
    sheet = json.loads(data)["rounds"][0]["tables"][0]["score_sheet"]
    assert sheet["status"] == "disputed" and sheet["disputed_at"] and sheet["submitted_by_player"] == "Ana"
    assert [(a["player"], a["decision"], a["reason"]) for a in sheet["confirmations"]] == [
        ("Ana", "agree", ""),
        ("Ben", "agree", ""),
        ("Cho", "dispute", "Dai had 23,000"),
    ]
    assert [(v["action"], v["player"]) for v in sheet["versions"]] == [
        ("submitted", "Ana"),
        ("disputed", "Cho"),
    ]

    copy = import_archive(data, slug="test-open-copy")
    assert copy.entry_mode == Tournament.EntryMode.PLAYERS
    again = json.loads(export_archive(copy))
    original = json.loads(data)
    again["tournament"].pop("slug"), original["tournament"].pop("slug")
    assert again == original


@pytest.mark.django_db
def test_an_archive_from_before_players_entry_reads_as_referees_entry(tournament: Tournament) -> None:
    archive = json.loads(export_archive(tournament))
    del archive["tournament"]["entry_mode"]
    copy = import_archive(json.dumps(archive).encode(), slug="older")
    assert copy.entry_mode == Tournament.EntryMode.REFEREES


@pytest.mark.django_db(transaction=True)
def test_the_last_two_agreeing_at_the_same_moment_sign_once(table: Any) -> None:
    assert connection.vendor == "postgresql", "this test needs real row locks"
    p = seated(table)
    services.player_save_sheet(table, FINAL, p["Ana"], submit=True)
    services.confirm_sheet(table, p["Ben"], version=1)
    barrier = threading.Barrier(2)
    outcomes: list[object] = []

    def agree(player: Player) -> None:
        try:
            barrier.wait()
            outcomes.append(services.confirm_sheet(table, player, version=1))
        except Exception as exc:  # the test inspects whatever each answer ended with
            outcomes.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=agree, args=(p[name],)) for name in ("Cho", "Dai")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert [type(o).__name__ for o in outcomes] == ["ScoreSheet", "ScoreSheet"]
    sheet = ScoreSheet.objects.get()
    assert sheet.is_signed and sheet.results.count() == 4
    assert sheet.versions.filter(action=SheetVersion.Action.CONFIRMED).count() == 1


def as_player(client: Any, player: Player) -> None:
    session = client.session
    session[access.PLAYER_SESSION_KEY] = {str(player.tournament_id): player.pk}
    session.save()


@pytest.mark.django_db
def test_a_confirming_player_reads_the_results_first_and_changes_the_sheet_only_by_choice(
    table: Any, client: Any
) -> None:
    """Asked to confirm: the results (with the chombo's penalty) and the hands, then "I agree"; the editor
    is folded away behind "Change the sheet", which says that a new version voids the agreements. The
    editor's data names the version's status, so that the phone's save status says "submitted"."""
    p = seated(table)
    entry = {"form": "hands", "hands": [CHOMBO, *OUTCOMES[:3]], "ended_by_time": True}
    services.player_save_sheet(table, entry, p["Ana"], submit=True)
    as_player(client, p["Ben"])
    page = client.get("/t/test-open/sheet/1/1/").content.decode()
    results, hands, agree = (
        page.index(m) for m in ("data-confirm-results", "data-hands-table", "data-agree")
    )
    change, editor = page.index("data-change-sheet-open"), page.index("data-sheet-editor")
    assert results < hands < agree < change < editor
    assert '<div id="change-sheet" data-change-sheet-editor hidden>' in page
    assert "the agreements given so far no longer count" in page
    assert "Cho (West): chombo in hand 1, -20 points off the overall score" in page
    assert '"status": "submitted"' in page

    services.confirm_sheet(table, p["Ben"], version=1)  # a new version by Cho voids Ben's agreement
    services.player_save_sheet(
        table, {**entry, "hands": entry["hands"][1:]}, p["Cho"], submit=True, expected_version=1
    )
    assert set(services.confirmations(ScoreSheet.objects.get()).keys()) == {p["Cho"].pk}
    page = client.get("/t/test-open/sheet/1/1/").content.decode()
    assert "data-agree" in page and "chombo in hand" not in page


@pytest.mark.django_db
def test_a_referee_signs_with_the_chombo_penalty_in_sight_and_edits_without_a_fold(
    table: Any, referee: Any, client: Any
) -> None:
    p = seated(table)
    entry = {"form": "hands", "hands": [*OUTCOMES[:3], CHOMBO], "ended_by_time": True}
    services.player_save_sheet(table, entry, p["Ana"], submit=True)
    client.force_login(referee)
    page = client.get("/t/test-open/sheet/1/1/").content.decode()
    sign = page[page.index("data-sign-card") : page.index("data-sign>")]
    assert "Cho (West): chombo in hand 4, -20 points off the overall score" in sign
    assert "data-change-sheet" not in page and "data-sheet-editor" in page
