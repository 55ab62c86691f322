"""The ASGI application: every page and the API as under WSGI, and the live streams
(``tournament.views.live``), which hold a connection open without holding a worker. Production serves it
with uvicorn (the ``web`` line of the ``Procfile``)."""

from __future__ import annotations

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

application = get_asgi_application()
