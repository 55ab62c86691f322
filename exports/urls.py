"""URLs of a tournament's exports, included under ``t/<slug>/exports/`` (namespace ``exports``)."""

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
