"""URLs of a tournament's exports, included under ``t/<slug>/exports/`` (namespace ``exports``), and of a
series' (``series_urlpatterns``)."""

from django.urls import path

from exports import views

app_name = "exports"

urlpatterns = [
    path("", views.index, name="index"),
    path("jobs/<int:job_id>/", views.status, name="status"),
    path("jobs/<int:job_id>/download", views.download, name="download"),
    path("print/<str:kind>/<int:number>/", views.print_hanchan, name="print"),
    path("print/seating-cards/<int:number>/new-codes/", views.new_codes, name="new-codes"),
    path("<str:identifier>/", views.request_export, name="request"),
]

# A series' exports, included under ``series/<series_slug>/exports/`` (namespace ``series_exports``).
series_urlpatterns = [
    path("", views.series_index, name="index"),
    path("jobs/<int:job_id>/", views.series_status, name="status"),
    path("jobs/<int:job_id>/download", views.series_download, name="download"),
    path("<str:identifier>/", views.series_request, name="request"),
]
