from django.contrib import admin
from django.urls import include, path

from config import auth
from config.health import healthz

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("t/<slug:slug>/exports/", include("tournament.export_urls")),
    path("accounts/login/", auth.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth.LogoutView.as_view(), name="logout"),
    path("api/", include("config.api")),
    path("", include("tournament.urls")),
]
