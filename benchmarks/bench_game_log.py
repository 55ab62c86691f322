"""Game-log benchmark: an online game's log (tenhou.net/6 JSON) read, mapped and turned into a checked sheet.

Run as ``.venv/bin/python benchmarks/bench_game_log.py``. Target: the shipped whole hanchan
(``tests/data/tenhou/hanchan.json``, 12 hands) in under 5 ms, and a log at the reader's bounds (64 hands,
20 draws and discards a seat) in under 50 ms, so that an upload answers at once.
"""

from __future__ import annotations

import copy
import json
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scoring.rules.ruleset import get_ruleset  # noqa: E402
from scoring.rules.tenhou import MAX_HANDS, log_sheet, match_players, read_log  # noqa: E402

LOG = ROOT / "tests" / "data" / "tenhou" / "hanchan.json"
SEATED = ["Ana", "Ben", "Cho", "Dai"]
MAPPING = {"chochan": "Cho", "dai-chi": "Dai"}
ROUNDS = 50


def longest_log() -> str:
    """MAX_HANDS hands: abortive draws (the dealer keeps the deal, honba grow) with 20 draws and discards a
    seat, then the shipped hanchan's first hand as the last one."""
    log: dict[str, Any] = json.loads(LOG.read_text(encoding="utf-8"))
    first = log["log"][0]
    hands = []
    for honba in range(MAX_HANDS - 1):
        hand = copy.deepcopy(first)
        hand[0] = [0, honba, 0]
        for seat in range(4):
            hand[5 + 3 * seat] = [11 + (i % 9) for i in range(20)]
            hand[6 + 3 * seat] = [60] * 20
        hand[16] = ["九種九牌"]
        hands.append(hand)
    last = copy.deepcopy(first)
    last[0] = [0, MAX_HANDS - 1, 0]
    hands.append(last)
    log["log"] = hands
    log.pop("sc")
    return json.dumps(log, ensure_ascii=False)


def timed(raw: str | bytes) -> tuple[float, int]:
    best = float("inf")
    hands = 0
    for _ in range(ROUNDS):
        start = time.perf_counter()
        read = read_log(raw)
        converted = log_sheet(read, match_players(read.names, SEATED, MAPPING), get_ruleset("WRC2015"))
        best = min(best, time.perf_counter() - start)
        hands = len(converted.entry["hands"])
    return best, hands


def main() -> None:
    shipped, hands = timed(LOG.read_bytes())
    size = LOG.stat().st_size
    print(f"shipped hanchan ({hands} hands, {size:,} bytes): {shipped * 1000:.1f} ms (target < 5 ms)")
    raw = longest_log()
    longest, hands = timed(raw)
    size = len(raw.encode())
    print(f"log at the bounds ({hands} hands, {size:,} bytes): {longest * 1000:.1f} ms (target < 50 ms)")
    if shipped > 0.005 or longest > 0.05:
        sys.exit("slower than the target")


if __name__ == "__main__":
    main()
