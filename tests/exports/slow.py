"""An export that takes a few seconds, registered only by the tests of a worker lost mid-export.

Each render counts itself and notes the process it runs in, in the cache (the test session's Redis keys),
so that a test can tell how often the task was delivered and which process to stop. The test's own worker
process imports this module (``celery worker --include``).
"""

from __future__ import annotations

import os
import time

from django.core.cache import cache

from exports.exporters.base import Exporter, ExportFile, Progress, no_progress, register
from tournament.models import StaffRole, Tournament

STEPS = 40
STEP_SECONDS = 0.1


def attempts_key(tournament_id: int) -> str:
    return f"slow-export-attempts:{tournament_id}"


def process_key(tournament_id: int) -> str:
    return f"slow-export-process:{tournament_id}"


@register
class SlowExporter(Exporter):
    identifier = "slow_test"
    verbose_name = "Slow export (tests)"
    permission = StaffRole.Role.ORGANISER

    def render(self, tournament: Tournament, progress: Progress = no_progress) -> ExportFile:
        key = attempts_key(tournament.pk)
        cache.add(key, 0, timeout=600)
        cache.incr(key)
        cache.set(process_key(tournament.pk), os.getpid(), timeout=600)
        for step in range(STEPS):
            time.sleep(STEP_SECONDS)
            progress((step + 1) / STEPS)
        return ExportFile(
            f"{tournament.slug}-slow.txt", "text/plain", f"{tournament.name}: all done\n".encode()
        )
