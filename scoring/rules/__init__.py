"""The riichi rules engine: rulesets, hand payments, hanchan replay and scores. Pure Python, no Django."""

from scoring.rules.payments import basic_points, limit_name, win_payments
from scoring.rules.ruleset import PRESETS, Ruleset, get_ruleset

__all__ = ["PRESETS", "Ruleset", "basic_points", "get_ruleset", "limit_name", "win_payments"]
