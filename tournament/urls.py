"""The tournament app's pages: the list of tournaments, the creation form, and under ``/t/<slug>/`` the
public pages, the clock and the organisers' pages (namespace ``tournament``). The referees' sheets
(``scoring.urls``), the penalties (``penalties.urls``) and the exports (``exports.urls``) have their own;
``docs/pages.md`` lists who sees each page."""

from __future__ import annotations

from django.urls import include, path

from tournament.views import (
    accounts,
    awards,
    clock,
    club,
    live,
    organiser,
    persons,
    phases,
    public,
    ratings,
    seating,
    series,
    signup,
    tables,
)

app_name = "tournament"

tournament_patterns = [
    # Public (anyone for a public tournament; its staff for a private one).
    path("", public.home, name="home"),
    path("standings/", public.standings, name="standings"),
    path("standings.json", public.standings_json, name="standings_json"),
    path("seating/", public.seating, name="seating"),
    path("seating/<int:number>/", public.seating, name="seating_round"),
    path("players/", public.players, name="players"),
    path("calendar.ics", public.tournament_calendar_feed, name="calendar_feed"),
    path("signup/", signup.signup_page, name="signup"),
    path("signup/registered/", signup.registered_list, name="signup_list"),
    path("signup/confirm/<str:token>/", signup.confirm, name="signup_confirm"),
    path("signup/me/<str:token>/", signup.manage, name="signup_manage"),
    path("players/<int:player_id>/", public.player, name="player"),
    path("projector/", public.projector, name="projector"),
    path("projector/seating.json", public.projector_seating, name="projector_seating"),
    path("awards/", awards.awards, name="awards"),
    path("ratings/", ratings.ratings, name="ratings"),
    path("projector/awards/", awards.projector_awards, name="projector_awards"),
    path("tables/", tables.live_tables, name="live_tables"),
    path("tables.json", tables.live_tables_json, name="live_tables_json"),
    path("projector/tables/", tables.projector_tables, name="projector_tables"),
    path("projector/tables.json", tables.projector_tables_json, name="projector_tables_json"),
    path("clock.json", clock.clock_json, name="clock_json"),
    path("club/", club.club_session, name="club"),
    path("club/tables/", club.form_table, name="club_form_table"),
    path("club/tables/<int:hanchan>/take-back/", club.take_back_table, name="club_take_back"),
    path("live", live.stream, name="live"),
    # Head referees and organisers.
    path("clock/", clock.clock, name="clock"),
    path("tables/watch/", tables.tables_watch, name="tables_watch"),
    # Organisers.
    path("manage/", organiser.manage, name="manage"),
    path("manage/edit/", organiser.edit, name="edit"),
    path("manage/reveal/", organiser.reveal, name="reveal"),
    path("manage/statistics/", organiser.statistics, name="statistics"),
    path("manage/awards/", awards.awards_manage, name="awards_manage"),
    path("manage/players/", organiser.registration, name="registration"),
    path("manage/signups/", signup.staff_signups, name="signup_staff"),
    path("manage/players/<int:player_id>/", organiser.player_edit, name="player_edit"),
    path(
        "manage/players/<int:player_id>/credentials/",
        organiser.player_credentials,
        name="player_credentials",
    ),
    path("manage/players/import/", organiser.import_preview, name="import_preview"),
    path("manage/players/import/confirm/", organiser.import_confirm, name="import_confirm"),
    path("manage/check-in/", organiser.check_in, name="check_in"),
    path("manage/check-in/<int:player_id>/", organiser.check_in_toggle, name="check_in_toggle"),
    path("manage/check-in/many/", organiser.check_in_many, name="check_in_many"),
    path("manage/absences/", organiser.absences, name="absences"),
    path("manage/staff/", organiser.staff, name="staff"),
    path("manage/persons/", persons.persons_manage, name="persons_manage"),
    path("manage/phases/", phases.phases_page, name="phases"),
    path("manage/seating/", seating.seating_manage, name="seating_manage"),
    path("manage/seating/swiss/", seating.seat_swiss, name="seat_swiss"),
    path("manage/seating/<int:number>/publish/", seating.seating_publish, name="seating_publish"),
    path("manage/seating/jobs/<int:job_id>/", seating.seating_job, name="seating_job"),
    path("manage/seating/jobs/<int:job_id>.json", seating.seating_job_json, name="seating_job_json"),
    path("manage/seating/jobs/<int:job_id>/apply/", seating.seating_job_apply, name="seating_job_apply"),
]

urlpatterns = [
    path("", public.index, name="index"),
    path("calendar.ics", public.calendar_feed, name="site_calendar_feed"),
    path("tournaments/new/", organiser.create, name="create"),
    path("organisers/invite/", accounts.invite_organiser, name="invite_organiser"),
    path("persons/<int:person_id>/", persons.person, name="person"),
    path("ratings/", ratings.site_ratings, name="site_ratings"),
    path("series/", series.series_index, name="series_index"),
    path("series/new/", series.series_form, name="series_create"),
    path("series/<slug:series_slug>/", series.series_standings, name="series"),
    path("series/<slug:series_slug>/edit/", series.series_form, name="series_edit"),
    path("series/<slug:series_slug>/events/", series.series_events, name="series_events"),
    path("series/<slug:series_slug>/ratings/", ratings.series_ratings, name="series_ratings"),
    path("series/<slug:series_slug>/projector/", series.series_projector, name="series_projector"),
    path("series/<slug:series_slug>/live", live.series_stream, name="series_live"),
    path("series/<slug:series_slug>/awards/", series.series_awards, name="series_awards"),
    path(
        "series/<slug:series_slug>/projector/awards/",
        series.series_projector_awards,
        name="series_projector_awards",
    ),
    path("t/<slug:slug>/", include(tournament_patterns)),
]
