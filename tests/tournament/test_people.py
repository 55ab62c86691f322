"""The organiser's control of people: registrations corrected and removed, staff invited, every change
audited; the pages and the API alike."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import authenticate
from django.core.exceptions import PermissionDenied
from django.test import Client

from tournament import services
from tournament.core.refusal import Refusal
from tournament.models import AuditEntry, Player, StaffRole, Tournament


@pytest.mark.django_db
def test_a_name_fix_is_allowed_and_audited(seated_table: Any, organiser: Any) -> None:
    ana = Player.objects.get(name="Ana")
    services.update_player(ana, organiser, name="Ana Alves", club="Lisboa")
    ana.refresh_from_db()
    assert (ana.name, ana.club) == ("Ana Alves", "Lisboa")
    entry = AuditEntry.objects.get()
    assert (entry.actor, entry.action) == (organiser, "player.update")
    assert entry.changes == {
        "name": ["Ana", "Ana Alves"],
        "first_name": ["", "Ana"],  # a two-word name gives its parts
        "last_name": ["", "Alves"],
        "club": ["", "Lisboa"],
    }
    with pytest.raises(Refusal, match="already registered"):
        services.update_player(ana, organiser, name="ben")  # names are unique, whatever their case
    with pytest.raises(Refusal, match="has played"):
        services.update_player(ana, organiser, is_substitute=True)
    assert AuditEntry.objects.count() == 1  # refusals store nothing


@pytest.mark.django_db
def test_removal_is_refused_once_the_player_has_played(seated_table: Any, organiser: Any) -> None:
    tournament = seated_table.round.tournament
    with pytest.raises(Refusal, match="withdraw them instead"):
        services.remove_player(Player.objects.get(name="Ana"), organiser)
    mistake = Player.objects.create(tournament=tournament, name="Typo Twice")
    services.remove_player(mistake, organiser)
    assert not Player.objects.filter(name="Typo Twice").exists()
    entry = AuditEntry.objects.get(action="player.remove")
    assert entry.changes["removed"]["name"] == "Typo Twice"


@pytest.mark.django_db
def test_an_organiser_invites_a_referee_whose_password_is_shown_once(
    tournament: Tournament, organiser: Any, referee: Any
) -> None:
    staff, password = services.invite_staff(
        tournament, organiser, "new-ref", "referee", email="r@example.org"
    )
    assert staff.role == "referee" and staff.granted_by == organiser
    assert password not in staff.user.password  # only the hash is stored
    assert authenticate(username="new-ref", password=password) == staff.user
    with pytest.raises(Refusal, match="exists already"):
        services.invite_staff(tournament, organiser, "New-Ref", "referee")
    with pytest.raises(Refusal, match="no spaces"):
        services.invite_staff(tournament, organiser, "two words", "referee")
    with pytest.raises(PermissionDenied):  # a referee invites nobody
        services.invite_staff(tournament, referee, "other", "referee")
    assert AuditEntry.objects.get(action="staff.invite").subject == "user new-ref"


@pytest.mark.django_db
def test_the_pages_edit_remove_and_invite(seated_table: Any, organiser: Any) -> None:
    tournament = seated_table.round.tournament
    client = Client()
    client.force_login(organiser)
    ana = Player.objects.get(name="Ana")
    page = client.get(f"/t/{tournament.slug}/manage/players/{ana.pk}/").content.decode()
    assert "a registration with a history is never removed" in page
    response = client.post(
        f"/t/{tournament.slug}/manage/players/{ana.pk}/",
        {"form": "edit", "name": "Ana Alves", "country": "PT"},
    )
    assert response.status_code == 302
    page = client.get(f"/t/{tournament.slug}/manage/players/{ana.pk}/").content.decode()
    assert "Registration corrected: player Ana Alves" in page and "name: Ana → Ana Alves" in page
    invited = client.post(
        f"/t/{tournament.slug}/manage/staff/", {"form": "invite", "username": "door-ref", "role": "referee"}
    )
    body = invited.content.decode()
    assert invited.status_code == 200 and "door-ref is invited as referee" in body
    assert "no-store" in invited["Cache-Control"] or "no-cache" in invited["Cache-Control"]
    assert StaffRole.objects.get(user__username="door-ref", tournament=tournament).role == "referee"
    assert client.get(f"/t/{tournament.slug}/manage/staff/").content.decode().count('class="secret"') == 0
