"""The site-wide texts in the reader's language: the page answered while the database is down and the note
on a stale copy (which know only the cookie's or the browser's language), the service worker's offline
page, the API's messages (the product's and Django REST framework's, with the same rule in every
language), the admin's titles, and the player sign-in form."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.utils import translation

from config.pwa import OFFLINE_LINE
from tests.conftest import make_players
from tests.faults.test_database_down import database_down
from tournament.models import Tournament


@pytest.fixture(autouse=True)
def english_after_each_test() -> Iterator[None]:
    """A request through the test client leaves its language active in the test's thread (LocaleMiddleware
    activates each request's afresh, so a server never notices): the tests after these run in English."""
    yield
    translation.activate(settings.LANGUAGE_CODE)


@pytest.mark.django_db(transaction=True)
def test_the_database_down_page_and_the_stale_copy_note_speak_the_readers_language(
    tournament: Tournament,
) -> None:
    make_players(tournament, 4, prefix="Copy")
    base = f"/t/{tournament.slug}"
    german = Client(headers={"accept-language": "de"})
    assert german.get(f"{base}/standings/").status_code == 200  # the German copy is kept
    french = Client(headers={"accept-language": "fr-FR,fr;q=0.9"})
    with database_down():
        stale = german.get(f"{base}/standings/")
        assert stale.status_code == 200 and stale["X-Stale-Copy"]
        assert "Die Datenbank ist gerade nicht erreichbar" in stale.content.decode()
        down = french.get(f"{base}/players/")
        assert down.status_code == 503
        page = down.content.decode()
        assert '<html lang="fr">' in page and "Momentanément indisponible" in page
        assert "La base de données est injoignable pour l\u2019instant ; rien n\u2019a été modifié." in page
        api = french.get("/api/tournaments/")
        assert api.status_code == 503
        [error] = api.json()["errors"]
        assert error["rule"] == "database-unavailable" and error["field"] is None
        assert error["message"].startswith("La base de données est injoignable")


def test_the_worker_carries_the_offline_page_in_every_language(client: Client) -> None:
    source = client.get("/sw.js").content.decode()
    line = OFFLINE_LINE.search(source)
    assert line is not None
    texts = json.loads(line.group(0).removeprefix("const OFFLINE_TEXTS = ").removesuffix(";"))
    assert sorted(texts) == ["de", "en", "fr", "ja", "ko", "ru", "zh-hans"]
    assert texts["en"]["title"] == "Offline" and texts["ja"]["title"] == "オフライン"
    assert texts["de"]["text"] == "Kein Netz, und diese Seite wurde auf diesem Gerät noch nie geöffnet."


# Runs the worker's script in Node with a stand-in for the worker's global scope, sets the language of the
# last page the site sent, and prints the offline page (argv: the script, that language, the browser's).
RUNNER = """
const fs = require("fs");
const vm = require("vm");
const [source, pageLanguage, browserLanguages] = process.argv.slice(1);
const context = {
  self: {
    addEventListener() {},
    navigator: { languages: JSON.parse(browserLanguages) },
    location: { origin: "https://example.org" },
  },
  caches: {},
};
const run = ";pageLanguage = " + JSON.stringify(pageLanguage) + "; globalThis.page = offlinePage();";
vm.runInNewContext(fs.readFileSync(source, "utf8") + run, context);
process.stdout.write(context.page);
"""


def offline_page(worker: Path, page_language: str, browser_languages: list[str]) -> str:
    """The worker's offline page for this last page's language and these browser languages."""
    command = ["node", "-e", RUNNER, str(worker), page_language, json.dumps(browser_languages)]
    return subprocess.run(command, check=True, capture_output=True, text=True).stdout


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js runs the worker's script")
def test_the_worker_answers_offline_in_the_last_pages_or_the_browsers_language(
    client: Client, tmp_path: Path
) -> None:
    worker = tmp_path / "sw.js"
    worker.write_bytes(client.get("/sw.js").content)
    japanese = offline_page(worker, "", ["ja-JP", "en"])
    assert '<html lang="ja">' in japanese and "<title>オフライン</title>" in japanese
    assert '<html lang="zh-hans">' in offline_page(worker, "", ["zh-TW"])
    assert '<html lang="de">' in offline_page(worker, "de", ["ja"])  # the site's last page said German
    assert '<html lang="ko">' in offline_page(worker, "", ["ko-KR"])
    english = offline_page(worker, "", ["pt-BR"])
    assert '<html lang="en">' in english and "No network" in english
    assert re.search(r"<p>[^<]+</p>", english)


@pytest.mark.django_db
def test_the_apis_messages_follow_accept_language_with_the_same_rule(client: Client) -> None:
    english = client.get("/api/nothing-here/")
    german = client.get("/api/nothing-here/", headers={"accept-language": "de"})
    assert english.status_code == german.status_code == 404
    assert german.json()["errors"] == [
        {"field": None, "rule": "not_found", "message": "Diese Adresse gibt es nicht: /api/nothing-here/"}
    ]
    # Django REST framework's own messages come from its catalogues.
    refused = client.post("/api/tournaments/", {}, headers={"accept-language": "ja"})
    plain = client.post("/api/tournaments/", {})
    assert refused.status_code == plain.status_code == 401
    [in_japanese], [in_english] = refused.json()["errors"], plain.json()["errors"]
    assert in_japanese["rule"] == in_english["rule"] == "not_authenticated"
    assert in_english["message"] == "Authentication credentials were not provided."
    assert in_japanese["message"] != in_english["message"]


@pytest.mark.django_db
def test_the_admin_and_the_player_sign_in_form_speak_the_readers_language(
    client: Client, tournament: Tournament
) -> None:
    admin = client.get("/admin/login/", headers={"accept-language": "ru"}).content.decode()
    assert "Менеджер турниров по риичи" in admin
    page = client.get(f"/t/{tournament.slug}/me/", headers={"accept-language": "fr"}).content.decode()
    assert "Votre nom" in page and "Les 6 chiffres de votre carte de placement." in page
