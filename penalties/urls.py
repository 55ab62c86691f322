"""The head referees' penalty pages, under ``/t/<slug>/`` (namespace ``penalties``)."""

from __future__ import annotations

from django.urls import path

from penalties import views

app_name = "penalties"

urlpatterns = [
    path("penalties/", views.penalties, name="penalties"),
    path("penalties/<int:penalty_id>/revoke/", views.revoke, name="penalty_revoke"),
    path("penalties/disqualify/", views.disqualify, name="disqualify"),
]
