"""How much a change matters to a player, as API diff tools grade a change.

- ``editorial``: no word of the rule changed (punctuation, typography, a new
  number or place, a link);
- ``clarification``: words changed, no answer did;
- ``rule-change``: some situation is answered differently, or a rule now
  answers a question that one side does not ask (a decision, predicate or
  procedure that exists on one side only).

``--fail-on LEVEL`` exits 1 when some change is at that level or above.
"""

from __future__ import annotations

EDITORIAL, CLARIFICATION, RULE_CHANGE = "editorial", "clarification", "rule-change"
LEVELS = (EDITORIAL, CLARIFICATION, RULE_CHANGE)


def level(answers_changed: bool, words_changed: bool) -> str:
    """The level of a change from what it did to the answers and to the words."""
    if answers_changed:
        return RULE_CHANGE
    return CLARIFICATION if words_changed else EDITORIAL


def at_least(found: str, floor: str) -> bool:
    """Whether a change at ``found`` reaches ``floor`` (for ``--fail-on``)."""
    return LEVELS.index(found) >= LEVELS.index(floor)
