"""Command line of the rules engine (``python -m scoring.rules``).

``sheet``: read one score sheet (JSON) on stdin, print its replay; exit 0 when valid, 1 when not (then
only ``{"valid": false, "errors": [...]}`` is printed). ``hands``: read a JSON list of hands on stdin,
print the list of their evaluations (exit 0). Input that is not JSON, or not of the expected shape:
exit 2 with a one-line error on stderr.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import IO, Any

from scoring.rules.hands import evaluate_hand
from scoring.rules.replay import replay
from scoring.rules.ruleset import DEFAULT_RULESET, PRESETS, get_ruleset

EXIT_VALID = 0
EXIT_INVALID = 1
EXIT_BAD_INPUT = 2


class _BadInput(Exception):
    """Input the command cannot work on; its message is the one-line error."""


def main(
    argv: Sequence[str] | None = None, stdin: IO[str] | None = None, stdout: IO[bytes] | None = None
) -> int:
    """Run one command; returns the exit status."""
    args = _parser().parse_args(argv)
    source = stdin if stdin is not None else sys.stdin
    sink = stdout if stdout is not None else sys.stdout.buffer
    output: dict[str, Any] | list[dict[str, Any]]
    try:
        data = _read_json(source)
        if args.command == "sheet":
            output, status = _sheet(data, args.ruleset)
        else:
            output, status = _hands(data, args.ruleset or DEFAULT_RULESET), EXIT_VALID
    except _BadInput as problem:
        print(f"error: {problem}", file=sys.stderr)
        return EXIT_BAD_INPUT
    sink.write(json.dumps(output, indent=2, ensure_ascii=False).encode("utf-8") + b"\n")
    sink.flush()
    return status


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m scoring.rules", description="Riichi rules engine.")
    commands = parser.add_subparsers(dest="command", required=True)
    sheet = commands.add_parser("sheet", help="replay one score sheet read as JSON on stdin")
    hands = commands.add_parser("hands", help="evaluate a JSON list of hands read on stdin")
    for command, default in ((sheet, "the sheet's own"), (hands, DEFAULT_RULESET)):
        command.add_argument(
            "--ruleset", choices=sorted(PRESETS), help=f"ruleset preset (default: {default})"
        )
    return parser


def _read_json(source: IO[str]) -> Any:
    try:
        return json.loads(source.read())
    except json.JSONDecodeError as problem:
        raise _BadInput(f"stdin is not valid JSON: {problem}") from None


def _sheet(data: Any, ruleset_name: str | None) -> tuple[dict[str, Any], int]:
    if not isinstance(data, dict):
        raise _BadInput("a sheet is a JSON object")
    verdict = replay(data, get_ruleset(ruleset_name) if ruleset_name else None)
    if verdict.valid:
        return verdict.as_json(), EXIT_VALID
    return {"valid": False, "errors": [error.as_json() for error in verdict.errors]}, EXIT_INVALID


def _hands(data: Any, ruleset_name: str) -> list[dict[str, Any]]:
    if not isinstance(data, list) or not all(isinstance(hand, dict) for hand in data):
        raise _BadInput("hands are a JSON list of hand objects")
    ruleset = get_ruleset(ruleset_name)
    results = []
    for number, hand in enumerate(data, 1):
        try:
            results.append(evaluate_hand(hand, ruleset))
        except ValueError as problem:
            raise _BadInput(f"hand {number}: {problem}") from None
    return results
