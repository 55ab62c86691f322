"""The referees' pages, under ``/t/<slug>/`` (namespace ``scoring``): my tables, a table's sheet, its
live check, signing, a head referee's correction, and the seated players' confirmation or dispute
(when the players enter the results)."""

from __future__ import annotations

from django.urls import path

from scoring.views import players, referee, sheet

app_name = "scoring"

urlpatterns = [
    path("referee/", referee.my_tables, name="my_tables"),
    path("sheet/<int:round_number>/<int:table_number>/", sheet.sheet, name="sheet"),
    path("sheet/<int:round_number>/<int:table_number>/check.json", sheet.check, name="sheet_check"),
    path("sheet/<int:round_number>/<int:table_number>/save.json", sheet.save, name="sheet_save"),
    path("sheet/<int:round_number>/<int:table_number>/from-log/", referee.from_log, name="sheet_from_log"),
    path("sheet/<int:round_number>/<int:table_number>/sign/", referee.sign, name="sheet_sign"),
    path("sheet/<int:round_number>/<int:table_number>/correct/", referee.correct, name="sheet_correct"),
    path("sheet/<int:round_number>/<int:table_number>/confirm/", players.confirm, name="sheet_confirm"),
    path("sheet/<int:round_number>/<int:table_number>/dispute/", players.dispute, name="sheet_dispute"),
]
