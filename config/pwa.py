"""The installable web app: its manifest and its service worker (``static/js/sw.js``), served from the
site's root so that the worker's scope is the whole site (a script under ``/static/`` could only
control ``/static/``). The worker keeps the static files and the pages a user opened, network first,
so a referee's tables and score sheets open without a network; see the worker's own comment."""

from __future__ import annotations

from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.templatetags.static import static
from django.views.decorators.http import require_GET

WORKER = "js/sw.js"


@require_GET
def manifest(request: HttpRequest) -> JsonResponse:
    data = {
        "name": "Riichi tournament manager",
        "short_name": "Riichi",
        "description": "Tournaments of riichi mahjong: seating, score sheets, standings.",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": "#ffffff",
        "theme_color": "#166534",
        "icons": [
            {
                "src": static(f"icons/icon-{size}.png"),
                "sizes": f"{size}x{size}",
                "type": "image/png",
                "purpose": "any maskable",
            }
            for size in (192, 512)
        ],
    }
    response = JsonResponse(data, content_type="application/manifest+json")
    response["Cache-Control"] = "public, max-age=3600"
    return response


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    path = finders.find(WORKER)
    with open(str(path), encoding="utf-8") as script:
        response = HttpResponse(script.read(), content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"  # a new worker is picked up at the next page load
    return response
