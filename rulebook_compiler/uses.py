"""The uses of each name in an edition's terms: which clause uses a predicate, a fact or a decision,
and for what ("rule for heal.may_target").

Below the back ends: the diff reads it (``rulebook_compiler.diff.impact``) and the cache stores it per term
(``rulebook_compiler.cache``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from .conditions import All, Any_, Condition, Not, Ref
from .model import Term


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


def uses_index(terms: Iterable[Term]) -> dict[str, list[Use]]:
    """Name -> the uses of it in these terms, in term and clause order."""
    index: dict[str, list[Use]] = {}
    for term in terms:
        for d in term.decisions:
            if d.given is not None:
                for name in sorted(refs(d.given)):
                    index.setdefault(name, []).append(
                        Use(name, term.id, "", f"given of {d.name}", ("decision", d.name)))
        for clause in (c for section in term.sections for c in section.clauses):  # not Term.clauses: a tuple per call
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


def refs(cond: Condition) -> set[str]:
    """Names used as bare references (facts or predicates): ``conditions.refs``, without a generator per node."""
    found: set[str] = set()
    stack = [cond]
    while stack:
        node = stack.pop()
        if isinstance(node, Ref):
            found.add(node.name)
        elif isinstance(node, Not):
            stack.append(node.arg)
        elif isinstance(node, (All, Any_)):
            stack.extend(node.args)
    return found


def _dedupe(uses: list[Use]) -> list[Use]:
    return list(dict.fromkeys(uses))
