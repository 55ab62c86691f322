"""The referees' pages, under ``/t/<slug>/`` (namespace ``scoring``): my tables, a table's sheet, its
live check, signing, a head referee's correction, and the seated players' confirmation or dispute
(when the players enter the results)."""

from __future__ import annotations

from django.urls import path

from scoring import views

app_name = "scoring"

urlpatterns = [
    path("referee/", views.my_tables, name="my_tables"),
    path("sheet/<int:round_number>/<int:table_number>/", views.sheet, name="sheet"),
    path("sheet/<int:round_number>/<int:table_number>/check.json", views.check, name="sheet_check"),
    path("sheet/<int:round_number>/<int:table_number>/save.json", views.save, name="sheet_save"),
    path("sheet/<int:round_number>/<int:table_number>/from-log/", views.from_log, name="sheet_from_log"),
    path("sheet/<int:round_number>/<int:table_number>/sign/", views.sign, name="sheet_sign"),
    path("sheet/<int:round_number>/<int:table_number>/correct/", views.correct, name="sheet_correct"),
    path("sheet/<int:round_number>/<int:table_number>/confirm/", views.confirm, name="sheet_confirm"),
    path("sheet/<int:round_number>/<int:table_number>/dispute/", views.dispute, name="sheet_dispute"),
]
