"""The installable web app: the manifest names its icons (real PNGs in static/), the service worker is
served from the site's root for the whole site, and the pages' policy allows exactly these."""

from __future__ import annotations

from io import BytesIO
from typing import Any

from django.contrib.staticfiles import finders
from django.test import Client
from PIL import Image


def test_the_manifest_names_the_app_and_its_icons(client: Client) -> None:
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = response.json()
    assert manifest["name"] == "Riichi tournament manager"
    assert manifest["start_url"] == manifest["scope"] == "/"
    for icon in manifest["icons"]:
        path = finders.find(icon["src"].removeprefix("/static/"))
        assert path is not None, icon
        with Image.open(str(path)) as image:
            assert f"{image.width}x{image.height}" == icon["sizes"]


def test_the_service_worker_is_served_from_the_root_for_the_whole_site(client: Client) -> None:
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    assert response["Cache-Control"] == "no-cache"
    assert b'addEventListener("fetch"' in response.content
    assert client.post("/sw.js").status_code == 405


def test_pages_allow_the_worker_and_the_manifest_from_the_site_only(client: Client, db: Any) -> None:
    policy = client.get("/")["Content-Security-Policy"]
    assert "worker-src 'self'" in policy
    assert "manifest-src 'self'" in policy
    assert "'unsafe-inline'" not in policy
    page = client.get("/").content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    assert '<meta name="service-worker" content="/sw.js">' in page


def test_the_icons_are_png(client: Client) -> None:
    for size in (192, 512):
        path = finders.find(f"icons/icon-{size}.png")
        assert path is not None
        with open(str(path), "rb") as file:
            assert Image.open(BytesIO(file.read())).format == "PNG"
