"""URLs of a tournament's exports, included under ``t/<slug>/exports/`` (namespace ``exports``)."""

from django.urls import path

from tournament import export_views

app_name = "exports"

urlpatterns = [
    path("", export_views.index, name="index"),
    path("jobs/<int:job_id>/", export_views.status, name="status"),
    path("jobs/<int:job_id>/download", export_views.download, name="download"),
    path("<str:identifier>/", export_views.request_export, name="request"),
]
