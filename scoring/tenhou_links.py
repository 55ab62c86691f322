"""Tenhou's games by their replay link or id: the link read (``game_id``), the game's mjlog XML fetched from
Tenhou (``fetch``), bounded by the settings ``TENHOU_LOG_URL`` (the address a game id is appended to),
``TENHOU_LOG_TIMEOUT`` (seconds) and ``TENHOU_LOG_MAX_BYTES``; a redirect is followed only on the same
host. The answer is read by ``scoring.rules.tenhou.read_game_log`` like an uploaded file.

A replay link is ``https://tenhou.net/0/?log=2023100200gm-0029-0000-bbdb64ce`` (``&tw=2``, the seat the
viewer starts from, is allowed and ignored; so are the other viewers, ``/3/``, ``/4/``...); a bare game id
is the part after ``log=``. Nothing else is fetched: the id must have the shape of Tenhou's, so that no
other address can be asked for.
"""

from __future__ import annotations

import re
import urllib.error
import urllib.request
from urllib.parse import parse_qs, urlsplit

from django.conf import settings
from django.utils.translation import gettext as _

from tournament.core.refusal import Refusal

RULE_LINK = "game-log-link"
# Tenhou's game ids: the hour the game started (YYYYMMDDHH), "gm", the lobby's rules in hex, the lobby
# and a check value, e.g. 2023100200gm-0029-0000-bbdb64ce.
GAME_ID = re.compile(r"\d{10}gm-[0-9a-f]{4}-\d{4}-[0-9a-f]{8}")
LINK_HOSTS = ("tenhou.net", "www.tenhou.net")


def game_id(link: str, field: str = "link") -> str:
    """The game id of a replay link or of a bare id, or a ``Refusal`` naming ``field``."""
    text = link.strip()
    if GAME_ID.fullmatch(text):
        return text
    parts = urlsplit(text)
    if parts.scheme in ("http", "https") and parts.hostname in LINK_HOSTS:
        values = parse_qs(parts.query).get("log", [])
        if len(values) == 1 and GAME_ID.fullmatch(values[0]):
            return values[0]
    raise Refusal(
        field,
        RULE_LINK,
        _(
            "{field}: {link} is no Tenhou replay link (https://tenhou.net/0/?log=2023100200gm-0029-0000-"
            "bbdb64ce) nor a game id"
        ).format(field=field, link=repr(text[:120])),
    )


class _SameHost(urllib.request.HTTPRedirectHandler):
    """Follows a redirect only to the host of the address asked for."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):  # type: ignore[no-untyped-def]
        if urlsplit(newurl).netloc != urlsplit(req.full_url).netloc:
            raise urllib.error.HTTPError(newurl, code, "redirect off the host", headers, fp)
        return super().redirect_request(req, fp, code, msg, headers, newurl)


def fetch(identifier: str, field: str = "link") -> bytes:
    """The mjlog XML of the game ``identifier`` (an id, ``game_id``), from ``TENHOU_LOG_URL``; a
    ``Refusal`` naming ``field`` when Tenhou does not answer in time, answers an error or too much."""
    base: str = settings.TENHOU_LOG_URL
    timeout: float = settings.TENHOU_LOG_TIMEOUT
    limit: int = settings.TENHOU_LOG_MAX_BYTES
    address = base + identifier
    opener = urllib.request.build_opener(_SameHost)
    request = urllib.request.Request(address, headers={"User-Agent": "riichi-tournament-manager"})
    try:
        with opener.open(request, timeout=timeout) as answer:
            body: bytes = answer.read(limit + 1)
    except urllib.error.HTTPError as exc:
        if exc.code == 404:
            message = _("{field}: Tenhou has no game {game} (404)").format(field=field, game=identifier)
        elif 300 <= exc.code < 400:
            message = _("{field}: Tenhou sent game {game} to another host; it is not followed").format(
                field=field, game=identifier
            )
        else:
            message = _("{field}: Tenhou answered {status} for game {game}").format(
                field=field, status=exc.code, game=identifier
            )
        raise Refusal(field, RULE_LINK, message, status=502) from None
    except TimeoutError:
        message = _("{field}: Tenhou did not answer within {seconds} seconds for game {game}").format(
            field=field, seconds=f"{timeout:g}", game=identifier
        )
        raise Refusal(field, RULE_LINK, message, status=504) from None
    except (urllib.error.URLError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        if isinstance(reason, TimeoutError):
            message = _("{field}: Tenhou did not answer within {seconds} seconds for game {game}").format(
                field=field, seconds=f"{timeout:g}", game=identifier
            )
            raise Refusal(field, RULE_LINK, message, status=504) from None
        message = _("{field}: Tenhou could not be reached for game {game}").format(
            field=field, game=identifier
        )
        raise Refusal(field, RULE_LINK, message, status=502) from None
    if len(body) > limit:
        message = _("{field}: Tenhou's answer for game {game} is larger than {limit} bytes").format(
            field=field, game=identifier, limit=f"{limit:,}"
        )
        raise Refusal(field, RULE_LINK, message, status=502)
    return body
