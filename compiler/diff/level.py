"""How much a change matters to a player, as API diff tools grade a change.

- ``editorial``: no word of the rule changed (punctuation, typography, a new
  number or place, a link);
- ``clarification``: words changed, no answer did;
- ``rule-change``: some situation is answered differently, or a rule now
  answers a question that one side does not ask (a decision, predicate or
  procedure that exists on one side only).

Words that no machine-readable meaning models are read conservatively, since
a rule change hidden as a clarification is the worst mistake a reviewer can be
shown: a clause added or removed that carries no rule of its own, and a
rewording that adds or removes a whole sentence, are rule changes
(``prose_rule_change``).

``--fail-on LEVEL`` exits 1 when some change is at that level or above.
"""

from __future__ import annotations

import re

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


# A sentence's end inside a run of text: ". ", "? ", "! " or the run's own end after such a mark.
_SENTENCE_END = re.compile(r"[.!?][\"”’')]*(\s|$)")
#: Fewest words of an inserted or deleted run that can be a sentence of a rule.
SENTENCE_WORDS = 4


def prose_rule_change(kind: str, redline) -> bool:
    """Whether the words alone say a rule may have changed: a clause added or removed, or a whole
    sentence (``SENTENCE_WORDS`` words or more, ending as a sentence ends) inserted or deleted."""
    if kind in ("added", "removed"):
        return True
    return any(op.op != "equal" and len(op.text.split()) >= SENTENCE_WORDS and _SENTENCE_END.search(op.text.strip())
               for op in redline.ops)


#: Above rule-change for ``--fail-on``: a rule change whose old edition's suite has cases that flip
#: (compiler.diff.conformance_impact). A flag on a change, not a level of its own: the change stays a rule change.
BREAKS_CONFORMANCE = "breaks-conformance"
FAIL_ON = LEVELS + (BREAKS_CONFORMANCE,)


def fails(result, floor: str) -> bool:
    """Whether ``--fail-on floor`` exits 1 for this diff (a ``DiffResult``)."""
    if floor == BREAKS_CONFORMANCE:
        return any(x.conformance and x.conformance["flipped"] for x in (*result.changes, *result.names))
    return any(at_least(c.level, floor) for c in result.changes)
