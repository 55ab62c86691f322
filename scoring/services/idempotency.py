"""Saves under an ``Idempotency-Key`` (the sheet editor on a phone that may send a save again): the first
request with a key saves, or is refused, and its answer is stored with the key; a retry gets that answer
and saves nothing; the key used again for another request is refused (422). The beat forgets keys after
a week (``forget_old_submission_keys``).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from celery import shared_task
from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.models import ScoreSheet, SubmissionKey
from scoring.services.checks import Role, canonical_json, refusal
from scoring.services.players import player_save_sheet
from scoring.services.referees import save_sheet
from scoring.services.versions import lock_table
from tournament.core.refusal import CONFLICT, Refusal
from tournament.models import Player, Table
from tournament.queries import access

# An ``Idempotency-Key``: 16 to 64 letters, digits, ``-`` or ``_`` (a UUID fits).
IDEMPOTENCY_KEY = re.compile(r"[A-Za-z0-9_-]{16,64}")
# A key used again for another request: the request is understood, and refused (HTTP 422).
KEY_REUSED = 422
# A saved key answers retries for a week, then the beat forgets it (``forget_old_submission_keys``). A
# retry after that cannot save twice either: its expected version is no longer the sheet's (409).
SUBMISSION_KEY_DAYS = 7


@dataclass(frozen=True)
class SaveAnswer:
    """The answer to a keyed save: its HTTP status and JSON body, and whether it is the stored answer
    of an earlier request with the same key (``replayed``) rather than a save made now."""

    status: int
    body: dict[str, Any]
    replayed: bool = False


def _request_hash(entry: dict[str, Any], submit: bool, expected_version: int | None) -> str:
    request = {
        "entry": entry,
        "action": "submit" if submit else "draft",
        "expected_version": expected_version,
    }
    return hashlib.sha256(canonical_json(request).encode()).hexdigest()


@transaction.atomic
def save_sheet_once(
    table: Table,
    entry: dict[str, Any],
    user: AbstractBaseUser | None,
    *,
    key: str,
    submit: bool = False,
    expected_version: int | None = None,
    player: Player | None = None,
) -> SaveAnswer:
    """``save_sheet`` (a referee, ``user``) or ``player_save_sheet`` (a seated ``player`` when the players
    enter the results) under an idempotency key: the first request with ``key`` saves (or is refused)
    and its answer is stored with the key in the same transaction; a retry with the same key and the
    same request gets that answer again and saves nothing; the same key with another request, or from
    someone else, is refused (422). Saves of one table queue on the table's row, so two copies of one
    request sent at once save once. A rules refusal or a conflict is an answer too: it is stored and
    replayed the same way.
    """
    if not isinstance(key, str) or not IDEMPOTENCY_KEY.fullmatch(key):
        raise refusal(
            "Idempotency-Key",
            "idempotency-key-format",
            _("the Idempotency-Key header must be 16 to 64 letters, digits, '-' or '_'"),
        )
    if (user is None) == (player is None):
        raise ValueError("a keyed save is made by a referee or by a player, not both")
    if user is not None:
        access.require_role(user, table.round.tournament, Role.REFEREE)
    request_hash = _request_hash(entry, submit, expected_version)
    lock_table(table)
    stored = SubmissionKey.objects.filter(key=key).first()
    if stored is not None:
        same_author = (
            stored.user_id == user.pk if user is not None else stored.player_id == player.pk  # type: ignore[union-attr]
        )
        if stored.table_id != table.pk or not same_author or stored.request_hash != request_hash:
            raise refusal(
                "Idempotency-Key",
                "idempotency-key-reuse",
                _("this Idempotency-Key was used for another request; a new save needs a new key"),
                status=KEY_REUSED,
            )
        return SaveAnswer(stored.status, stored.response, replayed=True)
    try:
        if player is not None:
            sheet = player_save_sheet(table, entry, player, submit=submit, expected_version=expected_version)
        else:
            assert user is not None
            sheet = save_sheet(table, entry, user, submit=submit, expected_version=expected_version)
    except Refusal as refused:
        body: dict[str, Any] = {"errors": refused.as_dicts()}
        if refused.status == CONFLICT:
            current = ScoreSheet.objects.filter(table=table).values_list("version", flat=True).first()
            body["current_version"] = current
        answer = SaveAnswer(refused.status, body)
    else:
        answer = SaveAnswer(200, {"version": sheet.version, "status": sheet.status})
    try:
        with transaction.atomic():
            SubmissionKey.objects.create(
                key=key,
                table=table,
                user=user,
                player=player,
                request_hash=request_hash,
                status=answer.status,
                response=answer.body,
            )
    except IntegrityError:  # the same key, at the same moment, for another table: neither is trusted
        raise refusal(
            "Idempotency-Key",
            "idempotency-key-reuse",
            _("this Idempotency-Key was used for another request; a new save needs a new key"),
            status=KEY_REUSED,
        ) from None
    return answer


@shared_task(name="scoring.forget_old_submission_keys", ignore_result=True)
def forget_old_submission_keys(days: int = SUBMISSION_KEY_DAYS) -> int:
    """Delete the idempotency keys older than ``days`` (sent daily by the beat); how many went."""
    deleted, _ = SubmissionKey.objects.filter(created_at__lt=timezone.now() - timedelta(days=days)).delete()
    return deleted
