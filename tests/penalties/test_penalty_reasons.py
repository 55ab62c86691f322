"""Issue 51, words: the reason of a chombo a score sheet gave reads in the reader's language, while the
record keeps it in the tournament's."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.utils import translation

from penalties.models import Penalty
from scoring import services as sheets
from tests.scoring import hanchan
from tournament import services
from tournament.models import Tournament


@pytest.mark.django_db
def test_a_sheets_chombo_reason_reads_in_the_readers_language(
    tournament: Tournament, seated_table: Any, referee: Any, head_referee: Any, organiser: Any
) -> None:
    services.operate_clock(seated_table.round, organiser, "start")
    sheet = sheets.save_sheet(seated_table, hanchan.entry("outcomes"), referee, submit=True)
    sheets.sign_sheet(sheet, referee)
    penalty = Penalty.objects.get(tournament=tournament, kind=Penalty.Kind.CHOMBO)
    assert penalty.reason.startswith("chombo on hand ")  # the record, in the tournament's language
    with translation.override("fr"):
        assert penalty.shown_reason.startswith("chombo à la main ")
        assert penalty.shown_reason != penalty.reason
    client = Client()
    client.force_login(head_referee)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    page = client.get(f"/t/{tournament.slug}/penalties/").content.decode()
    with translation.override("fr"):
        assert penalty.shown_reason in page
    assert penalty.reason not in page


@pytest.mark.django_db
def test_the_api_gives_a_sheets_chombo_reason_in_the_readers_language(
    tournament: Tournament, seated_table: Any, referee: Any, head_referee: Any, organiser: Any
) -> None:
    services.operate_clock(seated_table.round, organiser, "start")
    sheet = sheets.save_sheet(seated_table, hanchan.entry("outcomes"), referee, submit=True)
    sheets.sign_sheet(sheet, referee)
    penalty = Penalty.objects.get(tournament=tournament, kind=Penalty.Kind.CHOMBO)
    client = Client()
    client.force_login(head_referee)
    rows = client.get(f"/api/tournaments/{tournament.pk}/penalties/", HTTP_ACCEPT_LANGUAGE="fr").json()
    (row,) = rows["results"] if isinstance(rows, dict) else rows
    with translation.override("fr"):
        assert row["reason"] == penalty.shown_reason
    assert row["reason"].startswith("chombo à la main ")
