"""The SQLite default takes simultaneous submissions: one sheet, every other submission a 409, and no
"database is locked" reaching anyone (IMMEDIATE transactions, a write-ahead log, a busy timeout).

The submissions run in a fresh interpreter (``sqlite_submissions.py``) with no ``DATABASE_URL``, on a new
SQLite file of this test's own, as a local run of the product would.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).with_name("sqlite_submissions.py")
THREADS = 8


@pytest.mark.slow
def test_simultaneous_submissions_on_the_sqlite_default_one_sheet_the_others_409(tmp_path: Path) -> None:
    env = {
        name: value
        for name, value in os.environ.items()
        if name not in {"DATABASE_URL", "REDIS_URL", "TEST_RUN_ID", "DJANGO_SETTINGS_MODULE"}
    }
    env.update(SQLITE_PATH=str(tmp_path / "db.sqlite3"), DEBUG="1")
    run = subprocess.run(
        [sys.executable, str(SCRIPT), str(THREADS)],
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    outcome = json.loads(run.stdout)
    answers = outcome["answers"]
    assert not [a["body"] for a in answers if "locked" in a["body"]]
    assert sorted(a["status"] for a in answers) == [201] + [409] * (THREADS - 1), answers
    assert all(a["rules"] == ["one-sheet-per-table"] for a in answers if a["status"] == 409)
    assert (outcome["sheets"], outcome["versions"], outcome["journal_mode"]) == (1, 1, "wal")
