"""Rules engine benchmark: hands evaluated per second and score sheets replayed per second.

Run as ``.venv/bin/python benchmarks/bench_rules.py``. Target: 3,000 sheets of about 12 hands each, half
entered as outcomes and half as deltas, replay in under one second.
"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scoring.rules.legal import legal_han_fu  # noqa: E402
from scoring.rules.replay import replay  # noqa: E402
from scoring.rules.ruleset import get_ruleset  # noqa: E402

VECTORS = ROOT / "tests" / "data" / "wrc-hands.json"
PLAYERS = ["Ana", "Ben", "Cho", "Dai"]
SHEETS = 3000
TARGET_SECONDS = 1.0
ROUNDS = 3
VECTOR_ONLY_FIELDS = ("expected", "id", "title", "covers", "notes")


def random_hand(rng: random.Random) -> dict[str, Any]:
    """A random legal hand outcome in the sheet's outcome form."""
    riichi = [player for player in PLAYERS if rng.random() < 0.15]
    roll = rng.random()
    if roll < 0.15:
        tenpai = sorted(set(riichi) | {player for player in PLAYERS if rng.random() < 0.4})
        return {"result": "draw", "tenpai": tenpai, "riichi": riichi}
    winner = rng.choice(PLAYERS)
    tsumo = roll < 0.45
    hand: dict[str, Any] = {"result": "tsumo" if tsumo else "ron", "winner": winner, "riichi": riichi}
    if not tsumo:
        hand["loser"] = rng.choice([player for player in PLAYERS if player != winner])
    if rng.random() < 0.15:
        hand["han"] = rng.randint(5, 13)
    else:
        hand["han"], hand["fu"] = rng.choice(legal_han_fu(tsumo))
    return hand


def random_hanchan(rng: random.Random, max_hands: int = 14) -> list[dict[str, Any]]:
    """Random legal hands in order, up to the end of the hanchan (WRCR 2015 §5.8) or ``max_hands``."""
    hands: list[dict[str, Any]] = []
    round_index = 0
    while round_index < 8 and len(hands) < max_hands:
        hand = random_hand(rng)
        dealer = PLAYERS[round_index % 4]
        keeps = hand.get("winner") == dealer or dealer in hand.get("tenpai", ())
        round_index += 0 if keeps else 1
        hands.append(hand)
    return hands


def random_sheets(count: int, seed: int = 2015) -> list[dict[str, Any]]:
    """``count`` sheets, every other one entered as deltas (taken from a first replay)."""
    rng = random.Random(seed)
    sheets = []
    for index in range(count):
        sheet: dict[str, Any] = {"ruleset": "WRC2015", "players": PLAYERS, "hands": random_hanchan(rng)}
        replayed = replay(sheet).as_json()
        sheet["ended_by_time"] = not replayed["finished"]
        sheet["final_points"] = replayed["final_points"]
        if index % 2:
            sheet["hands"] = [
                {"deltas": hand["deltas"], "riichi": hand["riichi"], **_hint(hand)}
                for hand in replayed["hands"]
            ]
        sheets.append(sheet)
    return sheets


def _hint(hand: dict[str, Any]) -> dict[str, Any]:
    return {"tenpai": hand["tenpai"]} if hand["result"] == "draw" else {}


def bench_sheets() -> float:
    """Replay the sheets a few times; returns the best CPU time (the time the replay actually ran: on a
    shared machine the wall time also counts waiting for a CPU) and prints it with the best wall time."""
    sheets = random_sheets(SHEETS)
    hands = sum(len(sheet["hands"]) for sheet in sheets)
    forms = sum("deltas" in sheet["hands"][0] for sheet in sheets)
    best_wall, best_cpu = float("inf"), float("inf")
    for _ in range(ROUNDS):
        wall, cpu = time.perf_counter(), time.process_time()
        invalid = sum(not replay(sheet).valid for sheet in sheets)
        best_wall = min(best_wall, time.perf_counter() - wall)
        best_cpu = min(best_cpu, time.process_time() - cpu)
        if invalid:
            print(f"sheets: {invalid} generated sheets are invalid, the generator is wrong")
    verdict = "under" if best_cpu < TARGET_SECONDS else "OVER"
    print(
        f"sheets: {SHEETS} sheets ({SHEETS - forms} as outcomes, {forms} as deltas), {hands} hands "
        f"({hands / SHEETS:.1f} per sheet) replayed in {best_cpu:.3f} s CPU, {best_wall:.3f} s wall "
        f"(best of {ROUNDS}): {SHEETS / best_cpu:,.0f} sheets/s, {hands / best_cpu:,.0f} hands/s "
        f"({verdict} the {TARGET_SECONDS:.0f} s target)"
    )
    return best_cpu


def bench_hands() -> None:
    try:
        from scoring.rules.hands import evaluate_hand
    except ImportError:
        print("hands: skipped, scoring.rules.hands is not there")
        return
    vectors = json.loads(VECTORS.read_text(encoding="utf-8"))["vectors"]
    inputs = [
        {key: value for key, value in vector.items() if key not in VECTOR_ONLY_FIELDS} for vector in vectors
    ]
    ruleset = get_ruleset("WRC2015")
    rounds = 20
    start = time.perf_counter()
    for _ in range(rounds):
        for hand in inputs:
            evaluate_hand(hand, ruleset)
    elapsed = time.perf_counter() - start
    count = rounds * len(inputs)
    print(f"hands: {count} vector hands evaluated in {elapsed:.3f} s: {count / elapsed:,.0f} hands/s")


def main() -> int:
    bench_hands()
    return 0 if bench_sheets() < TARGET_SECONDS else 1


if __name__ == "__main__":
    sys.exit(main())
