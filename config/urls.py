"""The site's URLs: each app's own ``urls.py``, the API, the admin, login and health."""

from django.contrib import admin
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog

from config import auth, health, language, player_login, pwa
from exports.urls import series_urlpatterns

urlpatterns = [
    path("healthz", health.healthz, name="healthz"),
    path("healthz/ready", health.ready, name="healthz-ready"),
    path("sw.js", pwa.service_worker, name="service_worker"),
    path("manifest.webmanifest", pwa.manifest, name="manifest"),
    path("admin/", admin.site.urls),
    path("accounts/login/", auth.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth.LogoutView.as_view(), name="logout"),
    # An invited organiser sets their password (the link shown once on the invitation page).
    path("accounts/set-password/<uidb64>/<token>/", auth.SetPasswordView.as_view(), name="password_set"),
    path("api/", include("config.api")),
    # The language switcher of every page posts here (Django's view: the language cookie, then back to
    # the page). Exempt from the CSRF check on purpose: the switcher is on the public pages, whose copies
    # are shared by every anonymous visitor (tournament.middleware), so they carry no CSRF token; the
    # worst a forged post can do is change the reader's language.
    path("i18n/setlang/", language.set_language, name="set_language"),
    # The words of the pages' scripts in the reader's language (locale/*/LC_MESSAGES/djangojs.po).
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    # A player signs in without an account (PIN, or the one-time link of the seating card).
    path("t/<slug:slug>/me/", player_login.pin_login, name="player_login"),
    path("t/<slug:slug>/me/logout/", player_login.player_logout, name="player_logout"),
    path("t/<slug:slug>/in/<str:token>/", player_login.link_login, name="player_link"),
    path("t/<slug:slug>/exports/", include("exports.urls")),
    path("series/<slug:series_slug>/exports/", include((series_urlpatterns, "series_exports"))),
    path("t/<slug:slug>/", include("scoring.urls")),
    path("t/<slug:slug>/", include("penalties.urls")),
    path("", include("tournament.urls")),
]

# Under /api/, an unknown address and a request refused before any view answer in the API's error format.
handler400 = "config.api.bad_request"
handler404 = "config.api.not_found"
