"""Who uses a predicate or a decision: the clauses and terms a change reaches.

"healable is used by heal#targets-healable (rule for heal.may_target)". The
index is built once per edition, and only when some meaning changed.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from ..conditions import refs
from ..model import Edition


@dataclass(frozen=True)
class Use:
    """One use of a name: the clause that uses it and what for."""

    name: str  # the name used
    term: str
    clause: str
    via: str  # "predicate P" or "rule for D" or "given of D"
    user: tuple[str, str]  # (kind, name) of what depends on the name

    def as_json(self) -> dict:
        return {"name": self.name, "term": self.term, "clause": self.clause,
                "ref": f"{self.term}#{self.clause}" if self.clause else self.term, "via": self.via}


class Uses:
    """The uses of predicates in one edition, and of decisions (by their rules)."""

    def __init__(self, edition: Edition):
        self.edition = edition

    @cached_property
    def _index(self) -> dict[str, list[Use]]:
        index: dict[str, list[Use]] = {}
        for term in self.edition.terms:
            for d in term.decisions:
                if d.given is not None:
                    for name in sorted(refs(d.given)):
                        index.setdefault(name, []).append(
                            Use(name, term.id, "", f"given of {d.name}", ("decision", d.name)))
            for clause in term.clauses:
                if clause.defines:
                    p = clause.defines
                    for name in sorted(refs(p.condition)):
                        index.setdefault(name, []).append(
                            Use(name, term.id, clause.id, f"predicate {p.name}", ("predicate", p.name)))
                for rule in clause.rules:
                    used: set[str] = set()
                    for cond in (rule.when, rule.test):
                        if cond is not None:
                            used |= refs(cond)
                    for name in sorted(used):
                        index.setdefault(name, []).append(
                            Use(name, term.id, clause.id, f"rule for {rule.decision}", ("decision", rule.decision)))
                    for target in rule.exception_to:
                        index.setdefault(target, []).append(
                            Use(target, term.id, clause.id, f"exception in {rule.decision}",
                                ("decision", rule.decision)))
        return {k: _dedupe(v) for k, v in index.items()}

    def of(self, name: str) -> list[Use]:
        """Direct uses of a predicate (or of a clause, for exceptions)."""
        return self._index.get(name, [])

    def dependents(self, names: set[tuple[str, str]]) -> set[tuple[str, str]]:
        """Every predicate and decision that depends on these, transitively."""
        seen = set(names)
        stack = [n for k, n in names if k == "predicate"]
        while stack:
            name = stack.pop()
            for use in self.of(name):
                if use.user not in seen:
                    seen.add(use.user)
                    if use.user[0] == "predicate":
                        stack.append(use.user[1])
        return seen


def _dedupe(uses: list[Use]) -> list[Use]:
    return list(dict.fromkeys(uses))
