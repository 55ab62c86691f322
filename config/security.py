"""The Content-Security-Policy header of every response (the settings' ``MIDDLEWARE``).

The pages load scripts, styles, images and data from the site itself only: no inline script, no inline
event handler, no style attribute (everything lives in ``static/``), no plugin, no framing by another
site, forms posting only back to the site. The API's browsable docs (Swagger UI and Redoc, from
drf-spectacular-sidecar) also get inline styles, ``data:`` fonts, Redoc's ``blob:`` worker and its logo
(its Google Fonts links are left out: ``templates/api/redoc.html``). A view that
sets its own header keeps it.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

HEADER = "Content-Security-Policy"
COMMON = (
    "default-src 'self'",
    "script-src 'self'",
    "connect-src 'self'",
    "img-src 'self' data:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
)
# The service worker (``/sw.js``) and the web app manifest come from the site too.
PAGES = "; ".join(
    (*COMMON, "style-src 'self'", "font-src 'self'", "worker-src 'self'", "manifest-src 'self'")
)
API_DOCS = "; ".join(
    (
        *(part for part in COMMON if not part.startswith("img-src")),
        "img-src 'self' data: https://cdn.redoc.ly",  # Redoc's logo in its sidebar
        "style-src 'self' 'unsafe-inline'",
        "font-src 'self' data:",
        "worker-src 'self' blob:",
    )
)
API_DOCS_VIEWS = {"api:docs", "api:redoc"}


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if HEADER not in response:
            match = request.resolver_match
            docs = match is not None and match.view_name in API_DOCS_VIEWS
            response[HEADER] = API_DOCS if docs else PAGES
        return response
