"""The cases of an edition: per decision, situations with the reference evaluator's answer.

A decision is tested over the facts its rules depend on (in this edition and
the editions before it, so that an engine written for an earlier edition can
answer every case of a later one), in the situations the vocabulary's
constraints (and the decision's ``given``) allow. By default, an MC/DC-sized
set (``mcdc_states``): each atomic condition shown to decide the answer on its
own, each exception toggled, each enum value a condition names and each ordered
boundary exercised, each rule standing, and then, for every mutant of the
decision (``mutants.py``) that no case kills yet, the first situation that
tells it from the decision. Every question is asked of the decision's BDDs
(``regions``), so the set is found without listing situations, at any size;
where each condition decides, and where each one-node mutant differs, comes
from one pass of Boolean differences over each rule's condition (``flips``),
so the work grows with the conditions, not with their square.
With ``max_exhaustive`` N, a decision of at most N allowed situations gets all
of them instead.

Procedures (``steps``) are tested as a synthetic enum decision
``<procedure>.next_step`` over one fact, ``current_step`` (``start`` or a step's
clause ref), answering the next step's clause ref or ``end``.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field, replace as dc_replace
from typing import Any, Iterable, Mapping

from ..conditions import Cmp, Condition, In, Not, Ref, describe
from ..evaluate import DecisionModel
from ..model import Answer, Edition, Rule, Rulebook, Steps
from .. import progress
from ..symbolic import Node, vocabulary_core
from . import condpaths
from .regions import CONFLICT_KEY, EMPTY_KEY, GIVEN, DecisionSpace, FirstIn

# Conditions (leaves of a decision's rules and 'given', predicates inlined) that MC/DC shows
# deciding, and whose decision's mutants are made, at most. Every condition's deciding region and
# every one-node mutant's difference come from one pass over each rule's condition (flips.py), so
# time and memory grow in proportion to the conditions: 90,000 (a 1.2 MB condition) take 8 s of
# CPU to generate and 570 MB to score (bench/README.md). The limit keeps memory at about that.
# Past it the decision's cases show each rule standing and each answer only, its mutants are not
# made, and both commands say so.
MAX_ATOMS = 100_000
MAX_EXHAUSTIVE = 0  # by default every decision gets the MC/DC-sized set (``--max-exhaustive`` for all situations)
MCDC = "mcdc"

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
class RulingRef:
    """The ruling a case stands for (kind ``ruling``): who gave it, and the clauses it cites."""

    id: str
    edition: str  # the edition whose _rulings.yaml gives it
    question: str
    status: str  # official | committee
    cites: tuple[str, ...]
    who: str
    where: str
    date: str


@dataclass(frozen=True)
class Case:
    id: str  # stable: decision and fact assignment (a ruling's case: ``ruling:`` and the ruling's id)
    name: str  # readable: ``heal.may_target[paralyzed,phase=battle]``
    decision: str
    facts: tuple[tuple[str, Answer], ...]
    expected: Answer
    clauses: tuple[Quote, ...]
    kind: str = "rule"  # rule | steps | ruling
    ruling: RulingRef | None = None  # for kind ``ruling``

    @property
    def facts_dict(self) -> dict[str, Answer]:
        return dict(self.facts)


@dataclass(frozen=True)
class DecisionCases:
    decision: str
    type: str  # bool | enum
    values: tuple[str, ...]
    facts: tuple[str, ...]
    strategy: str  # exhaustive | mcdc | steps
    allowed: int | None  # allowed situations (counted exactly)
    cases: tuple[Case, ...]
    unanswered: int = 0  # allowed situations left out: conflict or empty (``rulebook check`` reports them)
    uncovered: tuple[str, ...] = ()  # conditions with no situation that shows them
    atoms_over_limit: int = 0  # the decision's conditions, when more than MAX_ATOMS (then not shown deciding)


@dataclass(frozen=True)
class Suite:
    edition: str
    title: str
    digest: str  # of the edition's locked content: a case file names the content it came from
    decisions: tuple[DecisionCases, ...]
    left_out: tuple[str, ...] = ()  # rulings that apply but make no case, each with why (``rulebook check`` errs)

    @property
    def cases(self) -> tuple[Case, ...]:
        return tuple(c for d in self.decisions for c in d.cases)


def case_id(decision: str, facts: Mapping[str, Answer]) -> str:
    """``heal.may_target-1a2b3c4d5e6f``: the same decision and facts give the same id in every edition."""
    blob = json.dumps([decision, sorted(facts.items())], ensure_ascii=False, separators=(",", ":"))
    return f"{decision}-{hashlib.sha256(blob.encode()).hexdigest()[:12]}"


RULING_PREFIX = "ruling:"


def ruling_case_id(ruling_id: str) -> str:
    """``ruling:cure-in-battle``: a ruling's case is named by the ruling, in every edition it applies to.

    A decision's name holds no colon, so no situation's id is one of these.
    """
    return RULING_PREFIX + ruling_id


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
    from .ruling_cases import ruling_cases

    rulings = ruling_cases(book, edition)
    decisions = [_with_rulings(decision_cases(book, edition, name, max_exhaustive), rulings.cases.get(name, ()))
                 for name in progress.track(sorted(edition.decisions), "decisions")]
    for steps in procedures(edition):
        name = steps.procedure + STEP_SUFFIX
        if name not in edition.decisions:
            decisions.append(steps_cases(edition, steps))
    decisions.sort(key=lambda d: d.decision)
    return Suite(edition.id, edition.title, rulings.digest(edition_digest(edition)), tuple(decisions),
                 rulings.left_out)


def suite_digest(book: Rulebook, edition: Edition) -> str:
    """The ``source_digest`` a suite of the edition generated now has: the edition's digest, and where
    rulings apply to it, their cases' too (a ruling added or withdrawn makes a generated module stale)."""
    from .ruling_cases import ruling_cases

    return ruling_cases(book, edition).digest(edition_digest(edition))


def _with_rulings(cases: DecisionCases, rulings: tuple[Case, ...]) -> DecisionCases:
    """The decision's cases, then its rulings' (by ruling id)."""
    return dc_replace(cases, cases=cases.cases + rulings) if rulings else cases


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


def decision_cases(book: Rulebook, edition: Edition, name: str,
                   max_exhaustive: int = MAX_EXHAUSTIVE) -> DecisionCases:
    """The decision's cases: every answered situation when it has at most ``max_exhaustive`` allowed
    ones, otherwise the MC/DC-sized set of ``mcdc_states``."""
    space = decision_space(book, edition, name)
    model = space.model
    allowed = space.count(space.allowed)
    unanswered = allowed - space.count(space.answered)
    uncovered: tuple[str, ...] = ()
    over = too_many_atoms(model)
    if allowed <= max_exhaustive:
        states, strategy = space.core.situations(space.answered, space.facts, max_exhaustive), "exhaustive"
    elif over:
        states, strategy = _standing_and_answers(space), MCDC
    else:
        states, uncovered = mcdc_states(edition, space)
        strategy = MCDC
    cases = []
    for state in sorted(states, key=space.core.rank):  # enumeration order, whatever order they were found in
        result = model.evaluate(state)
        answer = result.answer
        assert answer is not None, "a case is an answered situation, and a checked rulebook has no conflict"
        cases.append(Case(case_id(name, state), case_name(name, state), name, tuple(state.items()),
                          answer, _quotes(edition, result.clauses)))
    d = model.decision
    return DecisionCases(name, d.type, d.values, space.facts, strategy, allowed, tuple(cases), unanswered, uncovered,
                         over if strategy == MCDC else 0)


def too_many_atoms(model: DecisionModel) -> int:
    """The number of the decision's conditions when it is over MAX_ATOMS, else 0."""
    n = len(rule_atoms(model))
    return n if n > MAX_ATOMS else 0


def _standing_and_answers(space: DecisionSpace) -> list[dict[str, Answer]]:
    """A situation where each rule is left standing, and one giving each answer: linear in the rules."""
    chosen = _Chosen(space)
    for region in space.sets.standing:
        chosen.need(region & space.answered)
    for key, region in space.outcomes.regions.items():
        if key not in (CONFLICT_KEY, EMPTY_KEY):
            chosen.need(region)
    return list(chosen.states)


_HELD: list = []  # [(edition, core, {decision: DecisionSpace})]: the last edition's, while it is asked about


def decision_space(book: Rulebook, edition: Edition, name: str) -> DecisionSpace:
    """The decision over the facts of its cases, on one core per edition (its variables all
    declared when it is made, so reordering it for one decision leaves it sound for the next).

    Held for the last edition asked about: ``conformance mutants`` generates
    the suite and then scores the same mutants, whose outcomes the space keeps.
    """
    if not _HELD or _HELD[0][0] is not edition:
        _HELD[:] = [(edition, vocabulary_core(edition.vocabulary), {})]
    _, core, spaces = _HELD[0]
    if name not in spaces:
        # The facts of this edition and of those before it: an engine written for an earlier
        # edition gets every fact it asks for, and a situation has one id in all these suites.
        spaces[name] = DecisionSpace(DecisionModel(edition.vocabulary, edition, name),
                                     case_facts(book, edition, name), core)
    return spaces[name]


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


@dataclass(frozen=True)
class _Atom:
    rule: int
    part: str  # when | test
    path: condpaths.Path
    node: Condition
    label: str = field(compare=False)


def rule_atoms(model: DecisionModel) -> list[_Atom]:
    """Every leaf condition of every rule and of the decision's ``given``, predicates inlined: what MC/DC must show."""
    found = []
    parts = [(i, part, getattr(rule, part), rule.ref) for i, rule in enumerate(model.rules) for part in ("when", "test")]
    if model.decision.given is not None:
        parts.append((GIVEN, "given", model.decision.given, f"decision '{model.decision.name}'"))
    for i, part, cond, where in parts:
        if cond is None:
            continue
        full = condpaths.inline(cond, model.predicates)
        for path, node in condpaths.atoms(full, {}):
            found.append(_Atom(i, part, path, node, f"{where}: {part} {describe(node)}"))
    return found


class _Chosen:
    """The situations chosen so far, and whether one lies in a region (each requirement reuses them first)."""

    def __init__(self, space: DecisionSpace):
        self.space = space
        self.states: list[dict[str, Answer]] = []  # in the order chosen: FirstIn's indexes
        self._keys: set[tuple] = set()
        self.order = FirstIn(space.core)

    @property
    def union(self) -> Node:
        return self.order.union

    def find(self, region: Node) -> dict[str, Answer] | None:
        """The first chosen situation (in the order chosen) in ``region``."""
        k = self.order.first(region)
        return None if k is None else self.states[k]

    def add(self, state: dict[str, Answer]) -> None:
        if _key(state) not in self._keys:
            self._keys.add(_key(state))
            self.states.append(state)
            self.order.add(self.space.core.situation(state))

    def need(self, region: Node) -> bool:
        """Some chosen situation in ``region``, adding its first when none is; False when it is empty."""
        false = self.space.core.false
        if region == false:
            return False
        if (region & self.union) == false:
            self.add(self.space.core.first_in(region, self.space.facts))
        return True


def _key(state: Mapping[str, Answer]) -> tuple:
    return tuple(sorted(state.items(), key=lambda kv: kv[0]))


def mcdc_states(edition: Edition, space: DecisionSpace) -> tuple[list[dict[str, Answer]], tuple[str, ...]]:
    """Answered situations that show each atom deciding, each exception on and off, each ordered
    boundary, each rule standing and each answer given, and that kill every mutant that can be killed.

    Each requirement is a set of situations (a BDD); one already chosen is
    reused, otherwise its first situation in enumeration order is added, so the
    same decision gives the same cases. The conditions no situation can show
    deciding are returned by label.
    """
    chosen, pairs = _Chosen(space), _Pairs(space)
    uncovered = [atom.label for atom in rule_atoms(space.model) if not _show_atom(space, chosen, pairs, atom)]
    model, sets = space.model, space.sets
    for i, rule in enumerate(model.rules):
        if rule.exception_to and not _toggle_exception(space, chosen, i):
            uncovered.append(f"{rule.ref}: exception to {', '.join(rule.exception_to)}")
    for i in range(len(model.rules)):
        chosen.need(sets.standing[i] & space.answered)
    for key, region in space.outcomes.regions.items():  # each answer given (an enum answer's every value)
        if key not in (CONFLICT_KEY, EMPTY_KEY):
            chosen.need(region)
    _kill_mutants(edition, space, chosen)
    return list(chosen.states), tuple(uncovered)


SMALL_REGION = 64  # a mutant told apart in at most this many situations offers them all to the greedy cover


def _kill_mutants(edition: Edition, space: DecisionSpace, chosen: _Chosen) -> None:
    """For the mutants no chosen case kills, a few situations that kill them all (greedy set cover).

    Each mutant is killed in the situations where it answers otherwise (a
    region). The candidates are every situation of the small regions and the
    first of each large one; the one that kills the most mutants left is taken
    (the first in enumeration order on a tie), until none is left.
    """
    from .mutants import decision_mutants

    core, model = space.core, space.model
    pending: list[Node] = []
    states = list(chosen.states)
    for mutant in decision_mutants(edition, model.decision.name):
        if mutant.site is not None:  # one node of one rule's condition: its difference without the mutant
            region = space.local_difference(*mutant.site) & space.answered
            if region != core.false and (region & chosen.union) == core.false:
                pending.append(region)
            continue
        rules, predicates = mutant.rules.get(model.decision.name), _predicates(model, mutant.predicates)
        if space.first_telling(states, rules, predicates) is not None:
            continue  # killed already
        region = space.outcomes.difference(space.variant(rules, predicates), space.allowed) & space.answered
        if region != core.false and chosen.find(region) is None:
            pending.append(region)
    if not pending:
        return
    candidates: dict[tuple, dict[str, Answer]] = {}
    small: list[set[tuple] | None] = []
    for region in pending:
        if space.count(region) <= SMALL_REGION:
            states = core.situations(region, space.facts, SMALL_REGION)
            small.append({_key(s) for s in states})
        else:
            states = [core.first_in(region, space.facts)]
            small.append(None)
        for state in states:
            candidates.setdefault(_key(state), state)
    kills = {key: {i for i, (region, few) in enumerate(zip(pending, small))
                   if (key in few if few is not None else space.contains(region, state))}
             for key, state in candidates.items()}
    order = sorted(candidates, key=lambda k: core.rank(candidates[k]))
    left = set(range(len(pending)))
    while left:
        best = max(order, key=lambda k: len(kills[k] & left))  # max keeps the first of equals
        chosen.add(candidates[best])
        left -= kills[best]


def _predicates(model: DecisionModel, changed: Mapping[str, Condition]) -> Mapping[str, Condition] | None:
    return {**model.predicates, **changed} if changed else None


def _negated(model: DecisionModel, atom: _Atom) -> tuple[Rule, ...]:
    """The rules with the atom negated where it stands (its rule's condition inlined)."""
    rules = list(model.rules)
    rule = rules[atom.rule]
    full = condpaths.inline(getattr(rule, atom.part), model.predicates)
    negated: dict[str, Any] = {atom.part: condpaths.replace(full, atom.path, Not(atom.node))}
    rules[atom.rule] = dc_replace(rule, **negated)
    return tuple(rules)


def _deciding(space: DecisionSpace, atom: _Atom) -> Node:
    """The answered situations whose outcome changes when this one atom is negated: where it flips its
    condition (its Boolean difference, flips.py) and flipping that condition changes the outcome."""
    difference = space.flips(atom.rule, atom.part, inlined=True).difference[atom.path]
    if atom.rule == GIVEN:  # the situation leaves the question: answered ones all change
        return space.answered & difference
    return difference & space.part_flip(atom.rule, atom.part) & space.answered


def _atom_facts(node: Condition) -> tuple[str, ...]:
    if isinstance(node, Ref):
        return (node.name,)
    if isinstance(node, In):
        return (node.fact,)
    if isinstance(node, Cmp):
        return (node.fact, node.bound) if node.against_fact else (node.fact,)
    return ()


class _Pairs:
    """What a unique-cause pair asks of each fact value and each atom, made once per decision: in a
    wide condition the same atom stands in thousands of places, and each asks the same."""

    def __init__(self, space: DecisionSpace):
        self.space = space
        self._holds: dict[Condition, Node] = {}
        self._base: dict[tuple[str, Answer], Node] = {}
        self._moved: dict[tuple[str, Answer, Condition], Node] = {}

    def holds(self, node: Condition) -> Node:
        if node not in self._holds:
            self._holds[node] = self.space.core.condition(node, {})
        return self._holds[node]

    def _there(self, fact: str, value: Answer, u: Node) -> Node:
        """The situations whose partner (the fact set to value) is in u."""
        return self.space.core.exists([fact], u & self.space.core.eq(fact, value))

    def base(self, fact: str, value: Answer) -> Node:
        """The answered situations, not at value, whose partner at value is answered otherwise."""
        key = (fact, value)
        if key not in self._base:
            space, core = self.space, self.space.core
            region = core.false
            for outcome, answer in space.outcomes.regions.items():
                if outcome not in (CONFLICT_KEY, EMPTY_KEY):
                    region |= answer & ~self._there(fact, value, answer)
            self._base[key] = region & ~core.eq(fact, value) & self._there(fact, value, space.answered)
        return self._base[key]

    def moved(self, fact: str, value: Answer, node: Condition) -> Node:
        """The situations where setting the fact to value changes the atom's value."""
        key = (fact, value, node)
        if key not in self._moved:
            holds = self.holds(node)
            flipped = self._there(fact, value, holds)
            self._moved[key] = (holds & ~flipped) | (~holds & flipped)
        return self._moved[key]


def _show_atom(space: DecisionSpace, chosen: _Chosen, pairs: _Pairs, atom: _Atom) -> bool:
    """An MC/DC pair for the atom, and its enum values and boundaries; False when no situation shows it deciding."""
    core = space.core
    deciding = _deciding(space, atom)
    if deciding == core.false:
        return False
    holds = pairs.holds(atom.node)
    if atom.rule == GIVEN or not _unique_cause_pair(space, chosen, pairs, atom, deciding):
        # masking MC/DC: the atom decides on both sides, though no single fact's change shows it
        chosen.need(deciding & holds)
        chosen.need(deciding & ~holds)
    for region in _values_and_boundaries(space, atom.node):
        if not chosen.need(deciding & region):
            chosen.need(space.answered & region)
    return True


def _unique_cause_pair(space: DecisionSpace, chosen: _Chosen, pairs: _Pairs, atom: _Atom, deciding: Node) -> bool:
    """Two answered situations that differ in one of the atom's facts, where the atom decides and the
    outcome changes; reusing chosen ones first (the fewest new cases, then the first fact and value)."""
    core = space.core
    best = None
    for fact in _atom_facts(atom.node):
        if fact not in space.facts:
            continue
        for value in core.domains[fact]:
            region = pairs.base(fact, value) & pairs.moved(fact, value, atom.node) & deciding
            if region == core.false:
                continue
            found = _best_in(chosen, region, fact, value, space)
            if best is None or found[0] < best[0]:
                best = found
            if best[0] == 0:
                break
        if best is not None and best[0] == 0:
            break
    if best is None:
        return False
    _, state, partner = best
    chosen.add(state)
    chosen.add(partner)
    return True


def _best_in(chosen: _Chosen, region: Node, fact: str, value: Answer, space: DecisionSpace) -> tuple:
    """(new cases needed, situation, partner): the first chosen situation whose partner is chosen too,
    else the first chosen one, else the region's first."""
    core = space.core
    s = chosen.find(region & core.exists([fact], chosen.union & core.eq(fact, value)))
    if s is not None:
        return 0, s, {**s, fact: value}
    s = chosen.find(region)
    new = 1 if s is not None else 2
    s = s if s is not None else core.first_in(region, space.facts)
    return new, s, {**s, fact: value}


def _values_and_boundaries(space: DecisionSpace, node: Condition) -> list[Node]:
    """For a comparison, its bound and the values either side of it.

    Not each value an ``is``/``in`` names: an enum of 52 values, one row per
    few values, would need all 52 (the bound is 3 x (atoms + 1)); the values
    the mutants need are added by ``_kill_mutants``, about half of them there.
    """
    core = space.core
    if not isinstance(node, Cmp) or node.fact not in space.facts:
        return []
    order = core.orders.get(node.fact, ())
    if not node.against_fact:
        if node.bound not in order:
            return []
        i = order.index(node.bound)
        return [core.eq(node.fact, v) for v in order[max(i - 1, 0):i + 2]]
    if node.bound not in space.facts:
        return []
    regions = []
    for shift in (-1, 0, 1):  # the fact just before, at and just after the other fact's value
        region = core.false
        for k, v in enumerate(order):
            if 0 <= k + shift < len(order):
                region |= core.eq(node.fact, order[k + shift]) & core.eq(node.bound, v)
        regions.append(region)
    return regions


def _toggle_exception(space: DecisionSpace, chosen: _Chosen, i: int) -> bool:
    """On, then off: a situation where exception i stands over a rule it overrides (one that would
    answer otherwise, when there is one), and the nearest where it does not answer and such a rule stands."""
    core, sets = space.core, space.sets
    overridden = space.model.overrides[i]
    others = core.false
    otherwise = core.false
    for j in overridden:
        others |= sets.applies[j]
        for key, region in sets.answers[i].items():
            otherwise |= region & sets.applies[j] & ~sets.answers[j].get(key, core.false)
    on = sets.standing[i] & space.answered
    if not chosen.need(on & otherwise) and not chosen.need(on & others):
        return False
    base = core.false
    for j in overridden:
        base |= sets.standing[j]
    off = space.answered & ~sets.applies[i] & base
    if off == core.false:
        return False
    if chosen.find(off) is not None:
        return True
    state = chosen.find(on & otherwise) or chosen.find(on & others)
    assert state is not None  # need() chose one in either
    for fact in space.facts:  # one fact changed, when it can be
        near = off & core.exists([fact], core.situation(state))
        if near != core.false:
            chosen.add(core.first_in(near, space.facts))
            return True
    chosen.add(core.first_in(off, space.facts))
    return True
