"""The command line contract: ``python -m tournament.seating --players N --rounds R``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from .helpers import assert_valid

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tournament.seating", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_prints_the_schedule_as_json() -> None:
    done = run("--players", "16", "--rounds", "5", "--seed", "3")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert set(data) == {"rounds"}
    assert len(data["rounds"]) == 5
    assert_valid(data["rounds"], range(1, 17))
    assert all(isinstance(p, int) for hanchan in data["rounds"] for table in hanchan for p in table)


def test_same_seed_same_output_and_time_limit() -> None:
    a = run("--players", "24", "--rounds", "4", "--seed", "8", "--time-limit", "5")
    b = run("--players", "24", "--rounds", "4", "--seed", "8", "--time-limit", "5")
    assert a.returncode == b.returncode == 0
    assert a.stdout == b.stdout


def test_report_on_stderr() -> None:
    done = run("--players", "20", "--rounds", "5", "--report")
    assert done.returncode == 0
    report = json.loads(done.stderr.strip().splitlines()[-1])
    assert report["valid"] and report["excess_meetings"] == 0


@pytest.mark.parametrize(
    "args",
    [
        ("--players", "18", "--rounds", "4"),
        ("--players", "16", "--rounds", "0"),
        ("--players", "0", "--rounds", "3"),
        ("--players", "-4", "--rounds", "3"),
        ("--players", "2", "--rounds", "3"),
        ("--players", "sixteen", "--rounds", "3"),
        (
            "--rounds",
            "3",
        ),
        ("--players", "16", "--rounds", "3", "--time-limit", "0"),
    ],
)
def test_impossible_input_exits_2_with_one_line(args: tuple[str, ...]) -> None:
    done = run(*args)
    assert done.returncode == 2
    assert done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1
