"""The riichi rules engine: rulesets, hand payments, hanchan replay and scores. Pure Python, no Django.

The replay is ``scoring.rules.replay.replay`` and the hand evaluator ``scoring.rules.hands.evaluate_hand``;
both are imported from their modules (re-exporting ``replay`` here would hide the module of that name).
"""

from scoring.rules.legal import Moment, han_fu_problem, is_legal, legal_outcomes
from scoring.rules.payments import basic_points, limit_name, win_payments
from scoring.rules.ruleset import PRESETS, Ruleset, get_ruleset
from scoring.rules.scores import check_final_points, format_score, hanchan_scores

__all__ = [
    "PRESETS",
    "Moment",
    "Ruleset",
    "basic_points",
    "check_final_points",
    "format_score",
    "get_ruleset",
    "han_fu_problem",
    "hanchan_scores",
    "is_legal",
    "legal_outcomes",
    "limit_name",
    "win_payments",
]
