"""Human names for what the tables call by code: trump rules, rule sets, joker policies.

Strategy names stay as typed on the command line (``joker-hoarder``), because that is what a
reader types to try one; the report's glossary says what each one does.
"""

from __future__ import annotations

RULE_LABELS = {
    "longest": "longest suit", "under_nine": "Under + Nine", "most_points": "most points",
    "shortest": "shortest suit", "fewest_points": "fewest points", "random": "random suit",
    "as-played": "strategy's own choice",
}
# What a chooser does under each rule, for sentences ("fix ...").
RULE_PHRASES = {
    "longest": "your longest suit", "under_nine": "a suit in which you hold Under and Nine",
    "most_points": "the suit worth the most card points in your hand",
    "shortest": "your shortest suit",
    "fewest_points": "the suit worth the fewest card points in your hand",
    "random": "a random suit", "as-played": "what the strategy itself chose",
}
RULESET_LABELS = {"seed": "seed rules", "swiss": "Swiss rules"}
AIM_LABELS = {"high": "chooser aims high", "low": "chooser aims low", "n/a": "no aim"}
POLICY_LABELS = {
    "hoard": "hoard jokers", "as-needed": "use as needed", "finish": "keep to finish",
    "dump": "dump jokers early",
}


def rule_label(rule: str) -> str:
    """A trump-choice rule in words ("longest suit")."""
    return RULE_LABELS.get(rule, rule.replace("_", " "))


def rule_phrase(rule: str) -> str:
    """What a trump-choice rule fixes, as a phrase ("your longest suit")."""
    return RULE_PHRASES.get(rule, rule_label(rule))


def ruleset_label(ruleset: str) -> str:
    """A Jass rule set in words ("Swiss rules")."""
    return RULESET_LABELS.get(ruleset, f"rule set {ruleset}")


def aim_label(aim: str) -> str:
    """A chooser's aim in words."""
    return AIM_LABELS.get(aim, f"aims {aim}")


def policy_label(name: str) -> str:
    """A joker policy of the jokers study in words ("keep until 3 cards")."""
    if name.startswith("keep-until-"):
        return f"keep until {name.rsplit('-', 1)[1]} cards"
    return POLICY_LABELS.get(name, name)
