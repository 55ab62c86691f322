"""The stylesheets are flat: every rule is closed before the next one opens (only at-rules such as
@media and @keyframes hold rules). A brace left open makes every later rule a nested one that Chromium
accepts and matches against nothing, so whole pages lose their styles without a single error; it
happened once where two changes met."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

CSS = sorted((Path(__file__).resolve().parents[2] / "static" / "css").glob("*.css"))
GROUPS = ("@media", "@supports", "@layer", "@container", "@keyframes")


def nested_rules(text: str) -> list[str]:
    """Where a rule opens inside another rule (not inside an at-rule that groups rules), or a brace does
    not close: a line and its selector each."""
    text = re.sub(r"/\*.*?\*/", lambda comment: "\n" * comment.group().count("\n"), text, flags=re.S)
    problems: list[str] = []
    stack: list[tuple[int, str]] = []
    line = 1
    start = 0
    for match in re.finditer(r"[{}\n;]", text):
        char = match.group()
        if char == "\n":
            line += 1
            continue
        if char == "{":
            selector = " ".join(text[start : match.start()].split())
            if stack and not stack[-1][1].startswith(GROUPS):
                problems.append(
                    f"line {line}: {selector!r} opens inside {stack[-1][1]!r} (line {stack[-1][0]})"
                )
            stack.append((line, selector))
        elif char == "}":
            if not stack:
                problems.append(f"line {line}: a brace closes nothing")
            else:
                stack.pop()
        start = match.end()
    problems.extend(f"line {opened}: {selector!r} is never closed" for opened, selector in stack)
    return problems


@pytest.mark.parametrize("path", CSS, ids=lambda path: path.name)
def test_every_rule_is_closed_before_the_next_opens(path: Path) -> None:
    assert nested_rules(path.read_text(encoding="utf-8")) == []


def test_a_rule_left_open_is_found() -> None:
    assert nested_rules("a {\n  color: red;\n\n/* x */\nb {\n  color: blue;\n}\n") == [
        "line 5: 'b' opens inside 'a' (line 1)",
        "line 1: 'a' is never closed",
    ]
    assert nested_rules("@media (max-width: 9px) {\n  c { color: red; }\n}\nd { color: blue; }\n") == []
