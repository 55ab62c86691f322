"""The sign-in limits hold when the attempts arrive together, across several server processes: each
attempt is counted before its PIN or password is checked (``config.auth``), so of any number of
simultaneous wrong guesses no more are checked than the documented limits."""

from __future__ import annotations

import http.client
import re
import threading
import urllib.parse
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from config import auth
from tests.asgi_server import Server, running_server
from tournament.models import Player, Tournament
from tournament.services import player_login

GUESSES = 60
SERVER_PROCESSES = 3


@pytest.fixture(scope="module")
def servers(django_db_setup: None) -> Iterator[Server]:
    """One set of server processes for the module's tests (each test's data on the test database, each
    test's addresses its own, so no count of one test meets another's)."""
    # One proxy of our own in front: the address is the last of X-Forwarded-For, so one test machine
    # can speak from many addresses.
    # Requests wait for a database connection rather than answer 503 (the PIN's hash holds one a while,
    # and the machine is shared with the other tests): every attempt reaches the limiter.
    # Redis is given ten seconds to answer, not one: with sixty requests on three processes of a machine
    # that runs the rest of the suite too, a reply can wait over a second for its thread, and a process
    # that takes Redis as unreachable counts on its own (config.auth): the outage's behaviour, tested in
    # tests/faults/test_redis_outage.py, not this test's.
    env = {
        "TRUSTED_PROXY_COUNT": "1",
        "DATABASE_POOL_SIZE": "24",
        "DATABASE_POOL_TIMEOUT": "120",
        "CACHE_SOCKET_TIMEOUT": "10",
    }
    with running_server(env, log_name="login-limits-server.log", workers=SERVER_PROCESSES) as started:
        yield started


def csrf(server: Server, path: str) -> tuple[str, str]:
    """The CSRF cookie and form token of the page at ``path``."""
    status, headers, body = server.get(path)
    assert status == 200
    cookie = re.search(r"csrftoken=([^;]+)", headers["set-cookie"])
    token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', body)
    assert cookie and token
    return cookie.group(1), token.group(1).decode()


def together(server: Server, path: str, forms: list[dict[str, str]], addresses: list[str]) -> Counter[int]:
    """POST each form from its address, every request released at the same moment: their statuses."""
    cookie, token = csrf(server, path)
    start = threading.Barrier(len(forms))
    statuses: list[int] = []

    def send(form: dict[str, str], address: str) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
        body = urllib.parse.urlencode({**form, "csrfmiddlewaretoken": token})
        headers = {
            "Content-Type": "application/x-www-form-urlencoded",
            "Cookie": f"csrftoken={cookie}",
            "X-Forwarded-For": address,
            "Referer": server.url + path,
        }
        connection.connect()
        start.wait()
        connection.request("POST", path, body=body, headers=headers)
        statuses.append(connection.getresponse().status)
        connection.close()

    threads = [threading.Thread(target=send, args=pair) for pair in zip(forms, addresses, strict=True)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return Counter(statuses)


def ben_signs_in(tournament: Tournament, organiser: Any) -> tuple[str, dict[str, str], str]:
    """Players enter the results; Ben has a PIN: the sign-in page, its form with a wrong PIN, the PIN."""
    tournament.entry_mode = Tournament.EntryMode.PLAYERS
    tournament.save()
    ben = Player.objects.get(name="Ben")
    pin = player_login.issue_for_player(ben, organiser).pin
    wrong = "000000" if pin != "000000" else "111111"
    return f"/t/{tournament.slug}/me/", {"player": str(ben.pk), "pin": wrong}, pin


def spend(
    statuses: Counter[int], checked: int, limit: int, servers: Server, path: str, form: Any, address: str
) -> None:
    """Of the simultaneous attempts, at least one and at most ``limit`` were checked (status ``checked``),
    the others refused before the check (429). Fewer than the limit when a refused attempt still held
    its place, counted before it was refused, at the moment another one counted: the count errs on the
    side of refusing. The rest of the limit is then spent one attempt at a time, each one checked, so
    that the count stands at exactly the limit (an ``address`` ending in "." gets a host number per
    attempt)."""
    assert set(statuses) <= {checked, 429} and 1 <= statuses[checked] <= limit, statuses
    assert statuses[checked] + statuses[429] == GUESSES
    for i in range(limit - statuses[checked]):
        one = f"{address}{i + 1}" if address.endswith(".") else address
        assert together(servers, path, [form], [one]) == {checked: 1}


@pytest.mark.django_db(transaction=True)
def test_simultaneous_wrong_pins_from_many_addresses_check_at_most_the_players_limit(
    servers: Server, tournament: Tournament, seated_table: Any, organiser: Any
) -> None:
    path, form, pin = ben_signs_in(tournament, organiser)
    statuses = together(
        servers, path, [form] * GUESSES, [f"10.7.{i // 250}.{i % 250}" for i in range(GUESSES)]
    )
    # 400: the PIN was checked and was wrong; 429: refused before the check.
    spend(statuses, 400, auth.MAX_PLAYER_FAILURES, servers, path, form, "10.7.9.")
    # The day's count is spent: the right PIN too waits, from any address.
    right = together(servers, path, [{**form, "pin": pin}], ["10.8.0.1"])
    assert right == {429: 1}


@pytest.mark.django_db(transaction=True)
def test_simultaneous_wrong_pins_from_one_address_check_at_most_its_limit(
    servers: Server, tournament: Tournament, seated_table: Any, organiser: Any
) -> None:
    path, form, pin = ben_signs_in(tournament, organiser)
    statuses = together(servers, path, [form] * GUESSES, ["10.9.0.1"] * GUESSES)
    spend(statuses, 400, auth.MAX_FAILURES, servers, path, form, "10.9.0.1")
    assert together(servers, path, [form], ["10.9.0.1"]) == {429: 1}  # this address is done
    # Another address still has the player's remaining tries; the right PIN signs in.
    assert together(servers, path, [{**form, "pin": pin}], ["10.9.0.2"]) == {302: 1}


@pytest.mark.django_db(transaction=True)
def test_simultaneous_wrong_passwords_check_at_most_the_limit(servers: Server, organiser: Any) -> None:
    path = "/accounts/login/"
    form = {"username": organiser.username, "password": "not the password"}
    statuses = together(servers, path, [form] * GUESSES, ["10.10.0.1"] * GUESSES)
    # 200: the login page again, the password checked and wrong; 429: refused before the check.
    spend(statuses, 200, auth.MAX_FAILURES, servers, path, form, "10.10.0.1")
    assert together(servers, path, [form], ["10.10.0.1"]) == {429: 1}
