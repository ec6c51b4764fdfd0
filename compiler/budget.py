"""The step budget that bounds every search over situations (issue 8: "Bounded everything").

``check``'s logic checks, ``conformance generate | run | mutants``, and the
behaviour comparison of ``diff``, ``history`` and the site's change pages all
walk the situations of a decision; constraints that tie its facts to many
others, or a wide condition, make that walk astronomically long. Each walk
is charged in condition steps (one node of a condition evaluated) and stops
when its budget is spent: the command then reports the decision as not
searched, rather than hanging. Counting steps, not seconds, keeps every
output deterministic.
"""

from __future__ import annotations

import os

# A few seconds of search at most per decision; the bundled rulebook's largest
# decision needs 2.5 million steps to check.
STEPS_VARIABLE = "RULEBOOK_MAX_CHECK_STEPS"
DEFAULT_MAX_STEPS = 10_000_000


class OverBudget(Exception):
    """A search spent more condition steps than its budget allowed."""


class LimitError(ValueError):
    """$RULEBOOK_MAX_CHECK_STEPS is not a positive whole number."""

    def __init__(self, text: str):
        super().__init__(text)
        self.text = text

    @property
    def message(self) -> str:
        return f"{STEPS_VARIABLE} must be a positive whole number, not {self.text!r}"

    @property
    def hint(self) -> str:
        return f"unset it for the default, {DEFAULT_MAX_STEPS:,}"


class Budget:
    """Condition steps a search may spend: the bound on the time of a search.

    A step is one node of a condition evaluated (at most: evaluation stops early
    in 'all' and 'any'); counting them, not situations, bounds wide conditions and
    constraints that tie a decision's facts to many others alike.
    """

    def __init__(self, limit: int):
        self.limit = limit
        self.spent = 0

    def spend(self, steps: int) -> None:
        self.spent += steps
        if self.spent > self.limit:
            raise OverBudget


def max_steps() -> int:
    """The step budget of one decision's search: $RULEBOOK_MAX_CHECK_STEPS or the default (LimitError if bad)."""
    text = os.environ.get(STEPS_VARIABLE, "").strip()
    if not text:
        return DEFAULT_MAX_STEPS
    value = int(text.replace("_", "")) if text.replace("_", "").isdigit() else 0
    if value < 1:
        raise LimitError(text)
    return value


def decision_budget() -> Budget:
    """A fresh budget of $RULEBOOK_MAX_CHECK_STEPS steps, for one decision's search."""
    return Budget(max_steps())


def too_large(decision, limit: int, what: str, left: str, code: str):
    """The warning, at the decision, of a command whose search of it spent the budget: what it did not do."""
    from .diagnostics import Diagnostic

    return Diagnostic(decision.loc, f"decision '{decision.name}' is too large to {what}: its situations take more "
                      f"than {limit:,} condition steps to search; {left}",
                      f"raise the limit with the environment variable {STEPS_VARIABLE} (it bounds the time of "
                      "each decision's search), or make the decision and its constraints depend on fewer facts",
                      severity="warning", code=code)
