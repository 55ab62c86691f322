"""The pages, all under ``/t/<slug>/`` except the list of tournaments and the creation form.

Public pages first (players, projector), then the referees', the head referees' and the organisers'.
``docs/pages.md`` lists who sees each.
"""

from __future__ import annotations

from django.urls import include, path

from penalties import views as penalty_views
from scoring import views as sheet_views
from tournament import views

app_name = "tournament"

tournament_patterns = [
    # Public (anyone for a public tournament; its staff for a private one).
    path("", views.home, name="home"),
    path("standings/", views.standings, name="standings"),
    path("standings.json", views.standings_json, name="standings_json"),
    path("seating/", views.seating, name="seating"),
    path("seating/<int:number>/", views.seating, name="seating_round"),
    path("players/", views.players, name="players"),
    path("players/<int:player_id>/", views.player, name="player"),
    path("projector/", views.projector, name="projector"),
    path("clock.json", views.clock_json, name="clock_json"),
    # Referees.
    path("referee/", sheet_views.my_tables, name="my_tables"),
    path("sheet/<int:round_number>/<int:table_number>/", sheet_views.sheet, name="sheet"),
    path("sheet/<int:round_number>/<int:table_number>/check.json", sheet_views.check, name="sheet_check"),
    path("sheet/<int:round_number>/<int:table_number>/sign/", sheet_views.sign, name="sheet_sign"),
    # Head referees.
    path("sheet/<int:round_number>/<int:table_number>/correct/", sheet_views.correct, name="sheet_correct"),
    path("penalties/", penalty_views.penalties, name="penalties"),
    path("penalties/<int:penalty_id>/revoke/", penalty_views.revoke, name="penalty_revoke"),
    path("penalties/disqualify/", penalty_views.disqualify, name="disqualify"),
    path("clock/", views.clock, name="clock"),
    # Organisers.
    path("manage/", views.manage, name="manage"),
    path("manage/edit/", views.edit, name="edit"),
    path("manage/players/", views.registration, name="registration"),
    path("manage/players/import/", views.import_preview, name="import_preview"),
    path("manage/players/import/confirm/", views.import_confirm, name="import_confirm"),
    path("manage/check-in/", views.check_in, name="check_in"),
    path("manage/check-in/<int:player_id>/", views.check_in_toggle, name="check_in_toggle"),
    path("manage/seating/", views.seating_manage, name="seating_manage"),
    path("manage/seating/swiss/", views.seat_swiss, name="seat_swiss"),
    path("manage/seating/jobs/<int:job_id>/", views.seating_job, name="seating_job"),
    path("manage/seating/jobs/<int:job_id>.json", views.seating_job_json, name="seating_job_json"),
    path("manage/absences/", views.absences, name="absences"),
    path("manage/staff/", views.staff, name="staff"),
]

urlpatterns = [
    path("", views.index, name="index"),
    path("tournaments/new/", views.create, name="create"),
    path("t/<slug:slug>/", include(tournament_patterns)),
]
