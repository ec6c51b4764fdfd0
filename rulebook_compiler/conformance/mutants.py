"""Suite strength by mutation: change one condition of the edition, see whether the suite notices.

Operators, each applied at every place it fits: drop an operand of an all/any,
negate an atom, swap all and any, remove an exception (one ``exception_to``
entry), change an enum value (in ``is``/``in``, and the answer of a ``value``
rule; a bool answer is flipped), and swap two adjacent steps of a procedure.
On a comparison of an ordered fact, the boundary mistakes an engine makes:
change a comparison (``before`` <-> ``at_most``, ``after`` <-> ``at_least``)
and shift a bound (a value bound moved one value earlier or later).
Conditions are the rules' ``when`` and tests and the predicates' definitions;
constraints and ``given`` are left alone (they choose the situations asked,
not the answers).

A mutant that changes no answer in any allowed situation is **equivalent**: no
suite can kill it, so it is excluded from the score (and reported as such); so
is a mutant of a predicate that no decision uses (**unused**).
"""

from __future__ import annotations

from collections.abc import Set
from dataclasses import dataclass, field, replace as dc_replace
from functools import partial
from typing import Any, Callable, Iterator, Mapping

from ..conditions import All, Any_, Cmp, Condition, Const, In, Not, Ref, describe, walk
from .. import progress
from ..model import Edition, Rule, Rulebook
from . import condpaths
from .cases import STEP_SUFFIX, Suite, decision_space, procedures
from .flips import Change
from .regions import FirstIn
from .reference import next_step


@dataclass(frozen=True)
class Mutant:
    operator: str
    clause: str  # the clause whose condition is mutated
    detail: str
    decisions: tuple[str, ...]  # the decisions whose answers it may change
    rules: Mapping[str, tuple[Rule, ...]] = field(default_factory=dict, compare=False)
    predicates: Mapping[str, Condition] = field(default_factory=dict, compare=False)
    steps: Mapping[str, tuple[str, ...]] = field(default_factory=dict, compare=False)
    # (rule index, part, change) when it changes one node of one rule's condition: its difference is
    # then found from the decision's Boolean differences (flips.py), without building the variant
    site: tuple[int, str, Change] | None = field(default=None, compare=False)

    @property
    def label(self) -> str:
        return f"{self.clause}: {self.operator}: {self.detail}"


@dataclass(frozen=True)
class MutantResult:
    mutant: Mutant
    status: str  # killed | survived | equivalent | unused
    by: str | None = None  # the first case that killed it


@dataclass(frozen=True)
class Report:
    results: tuple[MutantResult, ...]

    def count(self, status: str) -> int:
        return sum(r.status == status for r in self.results)

    @property
    def scored(self) -> int:
        return len(self.results) - self.count("equivalent") - self.count("unused")

    @property
    def score(self) -> float:
        return self.count("killed") / self.scored if self.scored else 1.0


# -- the mutants ------------------------------------------------------------------------


def condition_mutants(cond: Condition, domains: Mapping[str, tuple]
                      ) -> Iterator[tuple[str, str, Callable[[], Condition], Change]]:
    """(operator, detail, maker of the mutated condition, the one node it changes) for every place
    each operator fits.

    Made only when needed: copying a wide condition for each of its mutants is quadratic.
    """
    for path, node in condpaths.nodes(cond):
        if isinstance(node, (All, Any_)):
            word = "all" if isinstance(node, All) else "any"
            for i, arg in enumerate(node.args):
                yield ("drop an operand", f"drop {describe(arg)!r} from {word}",
                       partial(condpaths.replace, cond, path + (i,), None), Change(path, "drop", i))
            if len(node.args) >= 2:
                other = Any_ if isinstance(node, All) else All
                yield "swap all/any", f"{word} of {describe(node)!r} becomes {'any' if word == 'all' else 'all'}", \
                    partial(condpaths.replace, cond, path, other(node.args)), Change(path, "swap")
        elif isinstance(node, (Ref, In, Const, Cmp)):
            yield ("negate an atom", f"{describe(node)!r} becomes not", partial(condpaths.replace, cond, path, Not(node)),
                   Change(path, "replace", Not(node)))
        if isinstance(node, Cmp):
            yield from _boundary_mutants(cond, path, node, domains.get(node.fact, ()))
        if isinstance(node, In):
            for k, value in enumerate(node.values):
                for other_value in domains.get(node.fact, ()):
                    if other_value in node.values:
                        continue
                    new = In(node.fact, node.values[:k] + (other_value,) + node.values[k + 1:], node.single)
                    yield ("change an enum value", f"{node.fact}: {value} becomes {other_value}",
                           partial(condpaths.replace, cond, path, new), Change(path, "replace", new))


# The comparison that differs from each only at its bound.
_FLIPPED = {"before": "at_most", "at_most": "before", "after": "at_least", "at_least": "after"}


def _boundary_mutants(cond: Condition, path: condpaths.Path, node: Cmp, order: tuple
                      ) -> Iterator[tuple[str, str, Callable[[], Condition], Change]]:
    """Off by one: the comparison flipped at its bound, and a value bound moved one step either way."""
    flipped = Cmp(node.fact, _FLIPPED[node.op], node.bound, node.against_fact)
    yield ("change a comparison", f"{describe(node)} becomes {describe(flipped)}",
           partial(condpaths.replace, cond, path, flipped), Change(path, "replace", flipped))
    if node.against_fact or node.bound not in order:
        return
    i = order.index(node.bound)
    for j in (i - 1, i + 1):
        if 0 <= j < len(order):
            shifted = Cmp(node.fact, node.op, order[j])
            yield ("shift a bound", f"{describe(node)} becomes {describe(shifted)}",
                   partial(condpaths.replace, cond, path, shifted), Change(path, "replace", shifted))


def mutants(book: Rulebook, edition: Edition) -> Iterator[Mutant]:
    """Every mutant of the edition, in a fixed order, one at a time.

    Made as they are measured: each holds a copy of its rules, and a 400 KB
    condition has tens of thousands of mutants (3.4 GB when listed at once).
    """
    domains = {f.name: f.domain for f in edition.vocabulary.facts}
    over = _over_limit(edition)  # too many conditions to score: said by generate's warning
    for decision in sorted(edition.decisions):
        if decision not in over:
            yield from _rule_mutants(edition, decision, domains)
    yield from _predicate_mutants(edition, domains, skip=over)
    for steps in procedures(edition):
        decision = steps.procedure + STEP_SUFFIX
        clause = next(c.ref for t in edition.terms for c in t.clauses if c.steps == steps)
        for k in range(len(steps.order) - 1):
            order = list(steps.order)
            order[k], order[k + 1] = order[k + 1], order[k]
            yield Mutant("swap two steps", clause, f"{steps.order[k]} and {steps.order[k + 1]}", (decision,),
                         steps={decision: tuple(order)})


def decision_mutants(edition: Edition, decision: str) -> Iterator[Mutant]:
    """The mutants that may change one decision's answers: its rules' and its predicates'."""
    domains = {f.name: f.domain for f in edition.vocabulary.facts}
    yield from _rule_mutants(edition, decision, domains)
    yield from _predicate_mutants(edition, domains, decision)


def _rule_mutants(edition: Edition, decision: str, domains: Mapping[str, tuple]) -> Iterator[Mutant]:
    rules = edition.rules.get(decision, ())
    dtype = edition.decisions[decision]
    for i, rule in enumerate(rules):
        def with_rule(new: Rule) -> dict:
            return {decision: rules[:i] + (new,) + rules[i + 1:]}

        where = rule.ref if not rule.from_table else f"{rule.clause} ({_row(edition, rules, i)})"
        for part in ("when", "test"):
            cond = getattr(rule, part)
            if cond is None:
                continue
            for op, detail, new, change in condition_mutants(cond, domains):
                yield Mutant(op, where, f"{part}: {detail}", (decision,),
                             rules=_OneRuleChanged(decision, rules, i, part, new), site=(i, part, change))
        for k, target in enumerate(rule.exception_to):
            rest = rule.exception_to[:k] + rule.exception_to[k + 1:]
            yield Mutant("remove an exception", where, f"no longer an exception to {target}", (decision,),
                         rules=with_rule(dc_replace(rule, exception_to=rest)))
        if rule.kind == "value":
            for other in dtype.domain:
                if other != rule.value:
                    yield Mutant("change a value", where, f"answer {_show(rule.value)} becomes {_show(other)}",
                                 (decision,), rules=with_rule(dc_replace(rule, value=other)))


class _OneRuleChanged(Mapping[str, tuple[Rule, ...]]):
    """A mutant's rules, made each time they are asked for and never kept: a mutant of a wide
    condition held as a copy of its rules is the condition's size, and a score keeps every mutant
    (80,000 of them, 6.5 GB, for a 400 KB condition). Scoring reads only ``site``."""

    def __init__(self, decision: str, rules: tuple[Rule, ...], i: int, part: str, new: Callable[[], Condition]):
        self._decision, self._rules, self._i, self._part, self._new = decision, rules, i, part, new

    def __getitem__(self, decision: str) -> tuple[Rule, ...]:
        if decision != self._decision:
            raise KeyError(decision)
        changed: dict[str, Any] = {self._part: self._new()}
        rule = dc_replace(self._rules[self._i], **changed)
        return self._rules[:self._i] + (rule,) + self._rules[self._i + 1:]

    def __iter__(self) -> Iterator[str]:
        return iter((self._decision,))

    def __len__(self) -> int:
        return 1


def _over_limit(edition: Edition) -> set[str]:
    """The decisions with more conditions than MAX_ATOMS: their mutants are not made."""
    from ..evaluate import DecisionModel
    from .cases import too_many_atoms

    return {d for d in edition.decisions if too_many_atoms(DecisionModel(edition.vocabulary, edition, d))}


def _predicate_mutants(edition: Edition, domains: Mapping[str, tuple], decision: str | None = None,
                       skip: Set[str] = frozenset()) -> Iterator[Mutant]:
    """The predicates' mutants (only those of the predicates ``decision`` uses, when given)."""
    preds = {n: p.condition for n, p in edition.predicates.items()}
    for name in sorted(edition.predicates):
        pred = edition.predicates[name]
        users = tuple(d for d in sorted(edition.decisions) if _uses(edition.rules.get(d, ()), name, preds))
        if (decision is not None and decision not in users) or any(u in skip for u in users):
            continue
        for op, detail, new, _ in condition_mutants(pred.condition, domains):
            yield Mutant(op, pred.clause, f"defines {name}: {detail}", users, predicates={name: new()})


def _row(edition: Edition, rules: tuple[Rule, ...], i: int) -> str:
    """The row of its clause's table that rule ``i`` stands for: ``table row 2`` (from 1), or
    ``otherwise row`` for the rule that a table's ``otherwise`` stands for (its clause's last)."""
    n = sum(1 for r in rules[:i] if r.from_table and r.clause == rules[i].clause) + 1
    table = edition.clause_by_ref[rules[i].clause].table
    return "otherwise row" if table is not None and n > len(table.rows) else f"table row {n}"


def _show(value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def _uses(rules: tuple[Rule, ...], name: str, preds: Mapping[str, Condition]) -> bool:
    seen: set[str] = set()
    stack = [c for r in rules for c in (r.when, r.test) if c is not None]
    while stack:
        for node in walk(stack.pop()):
            if isinstance(node, Ref) and node.name in preds and node.name not in seen:
                if node.name == name:
                    return True
                seen.add(node.name)
                stack.append(preds[node.name])
    return False


# -- scoring them -------------------------------------------------------------------------


def measure(book: Rulebook, edition: Edition, suite: Suite) -> Report:
    """Classify every mutant: killed (it gives some case another outcome: the case lies in the
    difference of the outcome regions), survived, equivalent (the same outcome regions over the
    allowed space, on BDDs, exactly) or unused."""
    by_decision = {d.decision: d for d in suite.decisions}
    steps = {s.procedure + STEP_SUFFIX: s.order for s in procedures(edition)}
    results = []
    indexes: dict[str, FirstIn] = {}

    def found(decision: str, space, cases) -> FirstIn:  # the decision's cases, to find the first in a region
        if decision not in indexes:
            indexes[decision] = FirstIn(space.core, [c.facts_dict for c in cases])
        return indexes[decision]

    for mutant in progress.track(mutants(book, edition), "mutants"):
        if not mutant.decisions:  # a predicate that no decision uses: nothing can observe it
            results.append(MutantResult(mutant, "unused"))
            continue
        differs, killer = False, None
        for decision in mutant.decisions:
            d = by_decision.get(decision)
            cases = d.cases if d else ()
            if decision in mutant.steps:
                differs = differs or mutant.steps[decision] != steps[decision]
                killer = next((c.name for c in cases if next_step(mutant.steps[decision], c.facts_dict) != c.expected),
                              None)
            elif mutant.site is not None:  # one node of one rule: where it differs, and the first case there
                space = decision_space(book, edition, decision)
                region = space.local_difference(*mutant.site)
                first = found(decision, space, cases).first(region)
                differs = differs or region != space.core.false
                killer = cases[first].name if first is not None else None
            else:
                space = decision_space(book, edition, decision)
                preds = {**space.model.predicates, **mutant.predicates} if mutant.predicates else None
                rules = mutant.rules.get(decision)
                first = space.first_telling([c.facts_dict for c in cases], rules, preds)
                if first is not None:
                    differs, killer = True, cases[first].name
                else:
                    differs = differs or space.outcomes.difference(space.variant(rules, preds),
                                                                   space.allowed) != space.core.false
            if killer:
                break
        status = "killed" if killer else "survived" if differs else "equivalent"
        results.append(MutantResult(mutant, status, killer))
    return Report(tuple(results))
