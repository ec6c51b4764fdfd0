"""The cases of an edition: per decision, situations with the reference evaluator's answer.

A decision is tested over the facts its rules depend on (in this edition and
the editions before it, so that an engine written for an earlier edition can
answer every case of a later one), in the situations the
vocabulary's constraints (and the decision's ``given``) allow: all of them when
they number at most ``max_exhaustive`` (4,096), otherwise a covering set in
which each condition is shown to change the outcome on its own (masking MC/DC),
each exception has a pair of cases, off then on, and each comparison of an
ordered fact is tried at its boundary: the values just before, at and just
after its bound (a value, or the other fact's value), where an engine that is
off by one answers otherwise.

Procedures (``steps``) are tested as a synthetic enum decision
``<procedure>.next_step`` over one fact, ``current_step`` (``start`` or a step's
clause ref), answering the next step's clause ref or ``end``.
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass, field, replace as dc_replace
from typing import Iterable, Mapping

from ..budget import Budget, OverBudget, decision_budget
from ..conditions import Cmp, Condition, In, Not, Ref
from ..evaluate import CONFLICT, EMPTY, DecisionModel, Space
from ..model import Answer, Edition, Rule, Rulebook, Steps
from .. import progress
from . import condpaths

MAX_EXHAUSTIVE = 4096
POOL_LIMIT = 1 << 14  # enumerate at most this many situations when looking for a covering set
SAMPLE = 4096  # beyond it, this many sampled situations

STEP_FACT = "current_step"
STEP_START = "start"
STEP_END = "end"
STEP_SUFFIX = ".next_step"


@dataclass(frozen=True)
class Quote:
    """A deciding clause and its text."""

    ref: str
    text: str


@dataclass(frozen=True)
class Case:
    id: str  # stable: decision and fact assignment
    name: str  # readable: ``heal.may_target[paralyzed,phase=battle]``
    decision: str
    facts: tuple[tuple[str, Answer], ...]
    expected: Answer
    clauses: tuple[Quote, ...]
    kind: str = "rule"  # rule | steps

    @property
    def facts_dict(self) -> dict[str, Answer]:
        return dict(self.facts)


@dataclass(frozen=True)
class DecisionCases:
    decision: str
    type: str  # bool | enum
    values: tuple[str, ...]
    facts: tuple[str, ...]
    strategy: str  # exhaustive | covering | steps | too-large (over the step budget: no cases)
    allowed: int | None  # allowed situations, when counted
    cases: tuple[Case, ...]
    unanswered: int = 0  # allowed situations left out: conflict or empty (``rulebook check`` reports them)
    uncovered: tuple[str, ...] = ()  # conditions with no situation that shows them


@dataclass(frozen=True)
class Suite:
    edition: str
    title: str
    digest: str  # of the edition's locked content: a case file names the content it came from
    decisions: tuple[DecisionCases, ...]

    @property
    def cases(self) -> tuple[Case, ...]:
        return tuple(c for d in self.decisions for c in d.cases)


def case_id(decision: str, facts: Mapping[str, Answer]) -> str:
    """``heal.may_target-1a2b3c4d5e6f``: the same decision and facts give the same id in every edition."""
    blob = json.dumps([decision, sorted(facts.items())], ensure_ascii=False, separators=(",", ":"))
    return f"{decision}-{hashlib.sha256(blob.encode()).hexdigest()[:12]}"


def case_name(decision: str, facts: Mapping[str, Answer]) -> str:
    """Readable and unique within a decision: the true bool facts and each enum fact's value."""
    parts = []
    for name in sorted(facts):
        value = facts[name]
        if value is True:
            parts.append(name)
        elif value is not False:
            parts.append(f"{name}={value}")
    return f"{decision}[{','.join(parts) or '-'}]"


def edition_digest(edition: Edition) -> str:
    """The edition's content as rulebook.lock digests it: the rules, their words and the vocabulary,
    not editors' notes, lineage or lines, so that editing those leaves a vendor's suite as it was."""
    from ..lock import edition_entry

    return edition_entry(edition)["digest"][:16]


def build_suite(book: Rulebook, edition: Edition, max_exhaustive: int = MAX_EXHAUSTIVE) -> Suite:
    """Every decision's and every procedure's cases, decisions sorted by name."""
    decisions = [decision_cases(book, edition, name, max_exhaustive)
                 for name in progress.track(sorted(edition.decisions), "decisions")]
    for steps in procedures(edition):
        name = steps.procedure + STEP_SUFFIX
        if name not in edition.decisions:
            decisions.append(steps_cases(edition, steps))
    decisions.sort(key=lambda d: d.decision)
    return Suite(edition.id, edition.title, edition_digest(edition), tuple(decisions))


def procedures(edition: Edition) -> list[Steps]:
    return sorted((c.steps for t in edition.terms for c in t.clauses if c.steps), key=lambda s: s.procedure)


def steps_clause(edition: Edition, steps: Steps) -> str:
    return next(c.ref for t in edition.terms for c in t.clauses if c.steps == steps)


def steps_cases(edition: Edition, steps: Steps) -> DecisionCases:
    name = steps.procedure + STEP_SUFFIX
    where = steps_clause(edition, steps)
    cases = []
    order = (STEP_START, *steps.order)
    for i, current in enumerate(order):
        nxt = steps.order[i] if i < len(steps.order) else STEP_END
        facts = {STEP_FACT: current}
        refs = [where] + ([nxt] if nxt != STEP_END else [])
        cases.append(Case(case_id(name, facts), case_name(name, facts), name, tuple(facts.items()), nxt,
                          _quotes(edition, refs), kind="steps"))
    return DecisionCases(name, "enum", (*steps.order, STEP_END), (STEP_FACT,), "steps", len(order), tuple(cases))


def _quotes(edition: Edition, refs: Iterable[str]) -> tuple[Quote, ...]:
    return tuple(Quote(r, edition.clause_by_ref[r].text) for r in sorted(set(refs)))


TOO_LARGE = "too-large"


def decision_cases(book: Rulebook, edition: Edition, name: str,
                   max_exhaustive: int = MAX_EXHAUSTIVE) -> DecisionCases:
    """The decision's cases; none, with strategy ``too-large``, when finding them spends the step budget."""
    model = DecisionModel(edition.vocabulary, edition, name)
    # The facts of this edition and of those before it: an engine written for an earlier
    # edition gets every fact it asks for, and a situation has one id in all these suites.
    space = Space(edition.vocabulary, set(case_facts(book, edition, name)), model.space.given,
                  model.space.given_cost)
    try:
        return _decision_cases(edition, model, space, max_exhaustive, decision_budget())
    except OverBudget:
        d = model.decision
        return DecisionCases(name, d.type, d.values, space.facts, TOO_LARGE, None, ())


def _decision_cases(edition: Edition, model: DecisionModel, space: Space, max_exhaustive: int,
                    budget: Budget) -> DecisionCases:
    name = model.decision.name
    allowed: int | None = None
    uncovered: tuple[str, ...] = ()
    if space.size <= max_exhaustive:
        states = list(space.states(budget))
        allowed, strategy = len(states), "exhaustive"
    else:
        pool, counted = situation_pool(model, space, budget)
        if counted and len(pool) <= max_exhaustive:
            states, strategy = pool, "exhaustive"
        else:
            states, uncovered = covering_states(model, space, pool, budget)
            strategy = "covering"
        allowed = len(pool) if counted else None
    cases, unanswered = [], 0
    for state in states:
        budget.spend(model.rules_cost)
        result = model.evaluate(state)
        if result.conflict or result.empty:
            unanswered += 1
            continue
        cases.append(Case(case_id(name, state), case_name(name, state), name, tuple(state.items()),
                          result.answer, _quotes(edition, result.clauses)))
    d = model.decision
    return DecisionCases(name, d.type, d.values, space.facts, strategy, allowed, tuple(cases), unanswered, uncovered)


def case_facts(book: Rulebook, edition: Edition, name: str) -> tuple[str, ...]:
    """The facts the decision depends on in this edition or an earlier one, sorted.

    Only those this edition's vocabulary still has: a situation of this edition
    cannot name a fact it withdrew.
    """
    facts: set[str] = set()
    for earlier in book.editions:
        if name in earlier.decisions:
            facts |= set(DecisionModel(earlier.vocabulary, earlier, name).facts)
        if earlier.id == edition.id:
            break
    return tuple(sorted(facts & edition.vocabulary.by_name.keys()))


def situation_pool(model: DecisionModel, space: Space, budget: Budget) -> tuple[list[dict], bool]:
    """All allowed situations when there are few enough (True), else a fixed sample of them (False)."""
    if space.size <= POOL_LIMIT:
        return list(space.states(budget)), True
    rng = random.Random(model.decision.name)  # seeded by name: the same suite every time
    domains = space.domains
    seen, pool = set(), []
    for _ in range(SAMPLE * 4):
        state = {f: rng.choice(domains[f]) for f in space.facts}
        key = tuple(state.values())
        if key in seen or not space.allowed(state, budget):
            continue
        seen.add(key)
        pool.append(state)
        if len(pool) >= SAMPLE:
            break
    return pool, False


@dataclass(frozen=True)
class _Atom:
    rule: int
    part: str  # when | test
    path: condpaths.Path
    node: Condition
    label: str = field(compare=False)


def rule_atoms(model: DecisionModel) -> list[_Atom]:
    """Every leaf condition of every rule, predicates inlined: what MC/DC must show."""
    found = []
    for i, rule in enumerate(model.rules):
        for part in ("when", "test"):
            cond = getattr(rule, part)
            if cond is None:
                continue
            full = condpaths.inline(cond, model.predicates)
            for path, node in condpaths.atoms(full, {}):
                label = f"{rule.ref}: {part} {_leaf(node)}"
                found.append(_Atom(i, part, path, node, label))
    return found


def _leaf(node: Condition) -> str:
    from ..conditions import describe

    return describe(node)


def with_atom_negated(model: DecisionModel, atom: _Atom, vocabulary) -> DecisionModel:
    rules = list(model.rules)
    rule = rules[atom.rule]
    full = condpaths.inline(getattr(rule, atom.part), model.predicates)
    rules[atom.rule] = dc_replace(rule, **{atom.part: condpaths.replace(full, atom.path, Not(atom.node))})
    return _variant(model, vocabulary, rules)


def _variant(model: DecisionModel, vocabulary, rules: list[Rule]) -> DecisionModel:
    edition = _EditionView(model)
    return DecisionModel(vocabulary, edition, model.decision.name, rules=tuple(rules), predicates=model.predicates)


class _EditionView:
    """Just enough of an Edition for DecisionModel: the decision by name."""

    def __init__(self, model: DecisionModel):
        self.decisions = {model.decision.name: model.decision}
        self.rules = {model.decision.name: model.rules}
        self.predicates = {}


def covering_states(model: DecisionModel, space: Space, pool: list[dict],
                    budget: Budget) -> tuple[list[dict], tuple[str, ...]]:
    """MC/DC pairs for every leaf condition, a pair per exception, and a case per standing rule.

    Each evaluation of the decision (or of a variant) is charged to the budget (OverBudget when spent).
    """
    vocabulary = model.vocabulary
    budget.spend(2 * model.rules_cost * len(pool))
    answered = [s for s in pool if model.outcome(s) not in (CONFLICT, EMPTY)]
    outcome = [model.outcome(s) for s in answered]
    chosen: dict[int, None] = {}  # indexes into ``answered``, in insertion order
    index = {tuple(sorted(s.items())): k for k, s in enumerate(answered)}
    uncovered = []
    for atom in rule_atoms(model):
        budget.spend(model.rules_cost)  # building the variant copies and compiles the rules
        variant = with_atom_negated(model, atom, vocabulary)
        witness = next((k for k, s in enumerate(answered)
                        if _charged(budget, variant.rules_cost) and variant.outcome(s) != outcome[k]), None)
        if witness is None:
            uncovered.append(atom.label)
            continue
        chosen[witness] = None
        partner = _partner(model, space, answered[witness], atom, budget)
        built = [partner] if partner is not None else []
        if isinstance(atom.node, Cmp):
            built += _boundary(model, space, answered[witness], atom.node, budget)
        for state in built:
            key = tuple(sorted(state.items()))
            if key not in index:  # built, not drawn from a sampled pool
                index[key] = len(answered)
                answered.append(state)
                outcome.append(model.outcome(state))
            chosen[index[key]] = None
    for i, rule in enumerate(model.rules):
        if rule.exception_to:
            budget.spend(model.rules_cost * len(answered))
            pair = _exception_pair(model, i, answered, outcome)
            if pair is None:
                uncovered.append(f"{rule.ref}: exception to {', '.join(rule.exception_to)}")
            else:
                chosen.update(dict.fromkeys(pair))
    budget.spend(model.rules_cost * len(chosen))
    standing = {id(r) for k in chosen for r, _ in model.evaluate(answered[k]).standing}
    for rule in model.rules:
        if id(rule) not in standing:
            budget.spend(model.rules_cost * len(answered))
            k = next((k for k, s in enumerate(answered)
                      if any(r is rule for r, _ in model.evaluate(s).standing)), None)
            if k is not None:
                chosen[k] = None
                standing |= {id(r) for r, _ in model.evaluate(answered[k]).standing}
    return [answered[k] for k in sorted(chosen)], tuple(uncovered)


def _charged(budget: Budget, steps: int) -> bool:
    """Spend the steps (OverBudget when spent): True, for use inside a generator's condition."""
    budget.spend(steps)
    return True


def _partner(model: DecisionModel, space: Space, state: dict, atom: _Atom, budget: Budget) -> dict | None:
    """The situation that differs only in the atom's fact and has another outcome: the MC/DC pair."""
    node = atom.node
    fact = node.name if isinstance(node, Ref) else node.fact if isinstance(node, (In, Cmp)) else None
    if fact is None or fact not in space.domains:
        return None
    here = model.outcome(state)
    for value in space.domains[fact]:
        if value == state[fact]:
            continue
        other = {**state, fact: value}
        budget.spend(2 * model.rules_cost)
        if space.allowed(other, budget) and model.outcome(other) not in (here, CONFLICT, EMPTY):
            return other
    return None


def _boundary(model: DecisionModel, space: Space, state: dict, node: Cmp, budget: Budget) -> list[dict]:
    """The situation with the compared fact just before, at and just after the bound, the rest as in ``state``.

    Those the constraints allow and the decision answers; the bound is the other
    fact's value in ``state`` when the comparison is between two facts.
    """
    order = model.vocabulary.orders.get(node.fact, ())
    bound = state.get(node.bound) if node.against_fact else node.bound
    if node.fact not in space.domains or bound not in order:
        return []
    i = order.index(bound)
    found = []
    for value in order[max(i - 1, 0):i + 2]:
        other = {**state, node.fact: value}
        budget.spend(2 * model.rules_cost)
        if space.allowed(other, budget) and model.outcome(other) not in (CONFLICT, EMPTY):
            found.append(other)
    return found


def _exception_pair(model: DecisionModel, i: int, answered: list[dict], outcome: list) -> tuple[int, int] | None:
    """Off, then on: the nearest situations where the exception does not stand, then stands over a base rule."""
    rule = model._compiled[i]
    overridden = model._overrides[i]
    on = [k for k, s in enumerate(answered)
          if rule.answer(s) is not None and any(model._compiled[j].answer(s) not in (None, rule.answer(s))
                                                for j in overridden)]
    if not on:
        on = [k for k, s in enumerate(answered)
              if rule.answer(s) is not None and any(model._compiled[j].answer(s) is not None for j in overridden)]
    off = [k for k, s in enumerate(answered) if rule.answer(s) is None]
    if not on or not off:
        return None
    best = min(((_distance(answered[a], answered[b]), b, a) for a in on[:256] for b in off[:256]))
    return best[1], best[2]


def _distance(a: dict, b: dict) -> int:
    return sum(a[f] != b[f] for f in a)
