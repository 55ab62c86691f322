"""The installable web app: its manifest and its service worker (``static/js/sw.js``), served from the
site's root so that the worker's scope is the whole site (a script under ``/static/`` could only
control ``/static/``). The worker keeps the static files and the pages a user opened, network first,
so a referee's tables and score sheets open without a network; see the worker's own comment.

The worker cannot call gettext, so the view writes the words of its offline page in every language of
the site into the script (``offline_texts``, from the catalogues); the worker picks the reader's. The
script is the same for every reader, as a service worker must be to update cleanly."""

from __future__ import annotations

import json
import re

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.templatetags.static import static
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

WORKER = "js/sw.js"
# The line of the worker that holds the offline page's words (English in the file).
OFFLINE_LINE = re.compile(r"^const OFFLINE_TEXTS = .*;$", re.MULTILINE)


def offline_texts() -> dict[str, dict[str, str]]:
    """The offline page's title and sentence in each language of the site, by language code."""
    texts = {}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            texts[code] = {
                "title": _("Offline"),
                "text": _("No network, and this page was not opened on this device before."),
            }
    return texts


@require_GET
def manifest(request: HttpRequest) -> JsonResponse:
    data = {
        "name": "Riichi tournament manager",
        "short_name": "Riichi",
        "description": _("Tournaments of riichi mahjong: seating, score sheets, standings."),
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
        source = script.read()
    table = json.dumps(offline_texts(), ensure_ascii=False, sort_keys=True)
    source = OFFLINE_LINE.sub(lambda _match: f"const OFFLINE_TEXTS = {table};", source, count=1)
    response = HttpResponse(source, content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"  # a new worker is picked up at the next page load
    return response
