"""The site's URLs: each app's own ``urls.py``, the API, the admin, login and health."""

from django.contrib import admin
from django.urls import include, path

from config import auth, health, player_login

urlpatterns = [
    path("healthz", health.healthz, name="healthz"),
    path("healthz/ready", health.ready, name="healthz-ready"),
    path("admin/", admin.site.urls),
    path("accounts/login/", auth.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth.LogoutView.as_view(), name="logout"),
    path("api/", include("config.api")),
    # A player signs in without an account (PIN, or the one-time link of the seating card).
    path("t/<slug:slug>/me/", player_login.pin_login, name="player_login"),
    path("t/<slug:slug>/me/logout/", player_login.player_logout, name="player_logout"),
    path("t/<slug:slug>/in/<str:token>/", player_login.link_login, name="player_link"),
    path("t/<slug:slug>/exports/", include("exports.urls")),
    path("t/<slug:slug>/", include("scoring.urls")),
    path("t/<slug:slug>/", include("penalties.urls")),
    path("", include("tournament.urls")),
]

# Under /api/, an unknown address and a request refused before any view answer in the API's error format.
handler400 = "config.api.bad_request"
handler404 = "config.api.not_found"
