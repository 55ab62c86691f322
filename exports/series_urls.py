"""URLs of a series' exports, included under ``series/<series_slug>/exports/`` (namespace
``series_exports``)."""

from django.urls import path

from exports import views

app_name = "series_exports"

urlpatterns = [
    path("", views.series_index, name="index"),
    path("jobs/<int:job_id>/", views.series_status, name="status"),
    path("jobs/<int:job_id>/download", views.series_download, name="download"),
    path("<str:identifier>/", views.series_request, name="request"),
]
