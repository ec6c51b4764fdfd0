"""Old and new meaning compared as functions over situations, as sets (``rulebook_compiler.symbolic``).

A predicate or a decision of each edition is a function of the facts it uses.
Each side's answers are sets of situations (BDDs) over the union of their
facts, where the vocabularies' constraints allow them; the situations where
the two disagree are counted exactly and give the direction of the change:

- ``broadened``: the new one says yes in strictly more situations;
- ``narrowed``: in strictly fewer;
- ``changed``: both, or answers that are not yes/no (enums, no answer);
- ``equivalent``: no situation tells them apart.

Each way the answer changed (old yes, new no; old hand, new deck; old yes,
new not asked ...) is a ``Transition``: how many allowed situations, and a
few descriptions that cover them ("whenever ability is one of interrupt,
negate and target_location is hand", ``rulebook_compiler.regions.cover``). Nothing is
listed one situation at a time, so there is no budget: two editions of a
decision of 80 facts tied to 30 others compare in about 3 s on the busy
2-core bench machine (bench/diff_counts.py, figures in bench/README.md).

Editions with different vocabularies are compared over both (facts of both,
enum values joined): a witness then says which of its facts and values the
old edition does not know (a situation it could not describe) and which the
new one does not (withdrawn). Each side keeps its own constraints: where they
rule out a situation that the other side's allow, that side gives no answer
(NO_SITUATION, "no such situation"), never what its rules would say in a
situation it could not have; the situations compared are those either side
allows. (Read over both sides' constraints at once, a withdrawn constraint hid
what the new rules now answer where it ruled out, and a constraint changed
under its id was read in its new condition on both sides.)

Witnesses are the smallest disagreeing situations: fewest facts away from
their resting value (false, or an enum's first value), each with both answers
and the clauses that gave them (the reference evaluator's, on that situation).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ..conditions import Ref, compile_condition, facts_used
from ..decision_sets import DecisionSets, allowed_space
from ..evaluate import DecisionModel
from ..model import Answer, Edition, Fact, Rulebook, Vocabulary
from ..regions import cover, cube, rank, smallest
from ..symbolic import Core, Node, vocabulary_core, with_orders

#: Witnesses kept per kind of disagreement (gained yes, lost yes, other).
WITNESSES_PER_KIND = 2
#: Descriptions computed for each way the answer changed; the situations they leave are counted.
DESCRIPTIONS_PER_TRANSITION = 4

BROADENED, NARROWED, CHANGED, EQUIVALENT = "broadened", "narrowed", "changed", "equivalent"
# Why a side gives no answer in a situation, in the order they are checked. NO_SITUATION: the side's
# vocabulary lacks a value the situation names (a value of an enum fact the other side added or
# withdrew), for names compared with ``lacks`` (``compare``), or its own constraints rule the
# situation out where the other side's allow it.
NOT_DEFINED, NOT_ASKED, CONFLICT, NO_RULE = "not defined", "not asked", "conflict", "no rule"
NO_SITUATION = "no situation"
_REASONS = (NOT_DEFINED, NO_SITUATION, NOT_ASKED, CONFLICT, NO_RULE)


@dataclass(frozen=True)
class Witness:
    """A situation where old and new disagree."""

    facts: tuple[tuple[str, Answer], ...]
    old: Answer | None
    new: Answer | None
    old_clauses: tuple[str, ...]
    new_clauses: tuple[str, ...]
    # What the situation names that an edition's vocabulary lacks: facts ('diseased') and
    # values ('phase=end'); a situation the old edition could not describe, or the new one.
    old_unknown: tuple[str, ...] = ()
    new_unknown: tuple[str, ...] = ()
    # Why a side gives no answer here (NOT_ASKED, NO_RULE, CONFLICT, NOT_DEFINED), from the same
    # outcome sets as the transitions; None where it answers.
    old_reason: str | None = None
    new_reason: str | None = None

    def as_json(self) -> dict:
        return {"facts": dict(self.facts), "old": self.old, "new": self.new,
                "old_clauses": list(self.old_clauses), "new_clauses": list(self.new_clauses),
                "old_unknown": list(self.old_unknown), "new_unknown": list(self.new_unknown),
                "old_reason": self.old_reason, "new_reason": self.new_reason}


@dataclass(frozen=True)
class Description:
    """Allowed situations as one set of values per fact: every one of them changed the same way."""

    facts: tuple[tuple[str, tuple[Answer, ...]], ...]  # facts not named take any value
    situations: int  # allowed situations it names
    text: str  # "whenever poisoned and phase is one of battle, end"

    def as_json(self) -> dict:
        return {"facts": {f: list(vs) for f, vs in self.facts}, "situations": self.situations, "text": self.text}


@dataclass(frozen=True)
class Transition:
    """The allowed situations where old gives one outcome and new another."""

    old: Answer | None
    old_reason: str | None  # why old gives no answer (NO_RULE, NOT_ASKED, CONFLICT, NOT_DEFINED); None if it does
    new: Answer | None
    new_reason: str | None
    situations: int
    descriptions: tuple[Description, ...]
    undescribed: int  # situations of this transition that no description names (past the cap)

    def as_json(self) -> dict:
        return {"old": self.old, "old_reason": self.old_reason, "new": self.new, "new_reason": self.new_reason,
                "situations": self.situations, "descriptions": [d.as_json() for d in self.descriptions],
                "undescribed": self.undescribed}


@dataclass(frozen=True)
class Behaviour:
    """How one predicate or decision changed."""

    name: str
    kind: str  # predicate | decision
    direction: str
    witnesses: tuple[Witness, ...]
    situations: int = 0  # allowed situations of the facts of both sides
    transitions: tuple[Transition, ...] = ()  # the ways the answer changed, most situations first

    @property
    def changed(self) -> int:
        return sum(t.situations for t in self.transitions)

    @property
    def broadened(self) -> int:
        """Situations where new says yes and old did not."""
        return sum(t.situations for t in self.transitions if t.new is True)

    @property
    def narrowed(self) -> int:
        return sum(t.situations for t in self.transitions if t.old is True)

    @property
    def boolean(self) -> bool:
        return all(isinstance(v, (bool, type(None))) for t in self.transitions for v in (t.old, t.new))

    def extent(self) -> str:
        """The direction with its size: 'narrowed in 1,024 of 65,536 situations; broadened in none'.
        Neither yes on either side, a situation one side could not describe is 'new' or 'gone' (its
        vocabulary lacks a value); any other change is 'otherwise changed'. When none is broadened or
        narrowed, those lead: 'changed: new in 1 of 3 situations; narrowed in none; broadened in none'."""
        of = f"of {_many(self.situations, 'situation')}"
        if not self.transitions:
            return f"{self.direction} in all {_many(self.situations, 'situation')}"
        if not self.boolean:
            return f"{self.direction}: answer changed in {self.changed:,} {of}"
        parts = [f"{words} in {_count(n)}" + (f" {of}" if i == 0 else "") for i, (words, n) in enumerate(self._ways())]
        text = "; ".join(parts)
        return text if self.direction in (BROADENED, NARROWED) else f"{self.direction}: {text}"

    def _ways(self) -> list[tuple[str, int]]:
        """The ways the answers changed with their situations, in the order ``extent`` says them: the
        direction's own way first, then the other; new, gone and otherwise changed after them where any
        is broadened or narrowed, else before them (and only those that happened)."""
        ways = [("narrowed", self.narrowed), ("broadened", self.broadened)]
        if self.direction == BROADENED or (self.direction == CHANGED and self.broadened > self.narrowed):
            ways.reverse()
        rest = _neither_yes([t for t in self.transitions if t.old is not True and t.new is not True])
        return ways + rest if self.broadened or self.narrowed else rest + ways

    def as_json(self) -> dict:
        return {"name": self.name, "kind": self.kind, "direction": self.direction,
                "witnesses": [w.as_json() for w in self.witnesses],
                "situations": self.situations, "changed": self.changed,
                "broadened": self.broadened, "narrowed": self.narrowed,
                "transitions": [t.as_json() for t in self.transitions]}


def _neither_yes(other: list[Transition]) -> list[tuple[str, int]]:
    """The transitions with yes on neither side, as 'new', 'gone' and 'otherwise changed' with their
    situations (those that happened)."""
    new = sum(t.situations for t in other if t.old_reason == NO_SITUATION)
    gone = sum(t.situations for t in other if t.new_reason == NO_SITUATION)
    return [(words, n) for words, n in (("new", new), ("gone", gone),
                                        ("otherwise changed", sum(t.situations for t in other) - new - gone)) if n]


def _count(n: int) -> str:
    return f"{n:,}" if n else "none"


def _many(n: int, word: str) -> str:
    return f"{n:,} {word}" + ("" if n == 1 else "s")


Function = Callable[[dict], tuple[Answer | None, tuple[str, ...]]]


def merged_vocabulary(old: Vocabulary, new: Vocabulary) -> Vocabulary:
    """Facts of both sides (enum values joined) and the constraints of both.

    An ordered fact keeps the new side's order, each value only the old side has
    placed after the value it followed there: where the two orders agree, both
    sides' comparisons read as they do in their own edition.
    """
    if old == new:
        return new
    facts: dict[str, Fact] = {f.name: f for f in old.facts}
    for f in new.facts:
        prev = facts.get(f.name)
        if prev is not None and prev.type == "enum" and f.type == "enum":
            values = _joined_order(prev.values, f.values) if f.ordered else tuple(dict.fromkeys(prev.values + f.values))
            f = Fact(f.name, f.type, values, f.meaning, f.loc, f.ordered)
        facts[f.name] = f
    constraints = {c.id: c for c in old.constraints}
    constraints.update({c.id: c for c in new.constraints})
    return Vocabulary(tuple(facts.values()), tuple(constraints.values()))


def _joined_order(old: tuple[str, ...], new: tuple[str, ...]) -> tuple[str, ...]:
    """``new``'s values in order, with each value only ``old`` has after its predecessor in ``old``."""
    joined = list(new)
    for i, value in enumerate(old):
        if value not in joined:
            joined.insert(joined.index(old[i - 1]) + 1 if i else 0, value)
    return tuple(joined)


# An outcome of one side in a situation: ("answer", type name, value) or ("none", reason).
OutcomeKey = tuple


@dataclass
class Meaning:
    """One side's meaning of a name: where each outcome happens, and how to explain one situation."""

    facts: set[str]
    outcomes: dict[OutcomeKey, Node]  # a partition of the situations (not yet restricted to the allowed ones)
    explain: Function


class Side:
    """One edition's functions: predicates and decisions by name."""

    def __init__(self, book: Rulebook | None, edition: Edition, vocabulary: Vocabulary, own: Vocabulary | None = None):
        """``vocabulary``: what the comparison ranges over; ``own``: the edition's, when that differs."""
        self.edition = edition
        self.vocabulary = vocabulary
        self.own = own
        self._preds = {n: p.condition for n, p in edition.predicates.items()}
        self._models: dict[str, DecisionModel] = {}
        # Comparisons read in the edition's own order: a value it does not have is before or after nothing.
        self.orders = (own or vocabulary).orders
        self._core: tuple[object, Vocabulary, Core] | None = None  # shared with the other side, see shared_core
        self._memo: tuple[Core, dict[str, Node]] | None = None  # predicates' sets, per core
        self._meanings: dict[tuple[str, str], Meaning] = {}  # the names' meanings, over the core of _memo
        self._unconstrained = Vocabulary(vocabulary.facts, ())
        # The facts compared with the edition's own constraints (``spaces``); None when both sides
        # have the same vocabulary.
        self.constrained = Vocabulary(vocabulary.facts, own.constraints) if own is not None else None
        self.rules_out = frozenset(c.never for c in (own or vocabulary).constraints)  # what they say, not their words

    def meaning(self, kind: str, name: str, core: Core) -> Meaning:
        """The name's outcomes as sets over ``core``; one outcome, NOT_DEFINED, when this side lacks it.
        Built once per core: a name is compared whole, then per clause change that reaches it
        (``clause_behaviour``), and a name of one side only again for where it gives no answer."""
        if self._memo is None or self._memo[0] is not core:
            self._memo = (core, {})
            self._meanings = {}
        found = self._meanings.get((kind, name))
        if found is None:
            found = self._meanings[(kind, name)] = self._meaning(kind, name, core)
        return found

    def _meaning(self, kind: str, name: str, core: Core) -> Meaning:
        assert self._memo is not None  # meaning() made it for this core
        view, memo = with_orders(core, self.orders), self._memo[1]
        if kind == "predicate":
            pred = self.edition.predicates.get(name)
            if pred is None:
                return _absent(core)
            holds = view.condition(Ref(name), self._preds, memo)
            clause = (pred.clause,)
            test = compile_condition(Ref(name), self._preds, orders=self.orders)
            return Meaning(facts_used(Ref(name), self._preds),
                            {("answer", "bool", True): holds, ("answer", "bool", False): ~holds},
                            lambda s: (test(s), clause))
        if name not in self.edition.decisions:
            return _absent(core)
        model = self._model(name)
        return Meaning(set(model.facts), _decision_outcomes(DecisionSets(model, view)), _decide(model))

    def _model(self, name: str) -> DecisionModel:
        model = self._models.get(name)
        if model is None:
            # The predicates once per side, not copied out of the edition for every model.
            # Without the constraints: they bound the situations compared (``allowed_space`` over
            # both sides' facts, once), not what a side answers in one.
            model = self._models[name] = DecisionModel(self._unconstrained, self.edition, name,
                                                       predicates=self._preds, orders=self.orders)
        return model

    def facts(self, kind: str, name: str) -> set[str]:
        """The facts the name reads on this side (``meaning``'s, without its sets); none when it lacks it."""
        if kind == "predicate":
            return facts_used(Ref(name), self._preds) if name in self.edition.predicates else set()
        return set(self._model(name).facts) if name in self.edition.decisions else set()


def _absent(core: Core) -> Meaning:
    return Meaning(set(), {("none", NOT_DEFINED): core.true}, lambda s: (None, ()))


def _decision_outcomes(sets: DecisionSets) -> dict[OutcomeKey, Node]:
    """Each answer where it is the decision's one answer, and the three ways of giving none."""
    core = sets.core
    given = sets.given if sets.given is not None else core.true
    conflict, said = sets.disagree, sets.answered
    out: dict[OutcomeKey, Node] = {("answer", *key): region & ~conflict & given for key, region in sets.said.items()}
    out[("none", CONFLICT)] = conflict & given
    out[("none", NO_RULE)] = ~said & given
    out[("none", NOT_ASKED)] = ~given
    return out


def _decide(model: DecisionModel) -> Function:
    given = model.space.given

    def decide(state: dict) -> tuple[Answer | None, tuple[str, ...]]:
        if given is not None and not given(state):
            return None, ()
        result = model.evaluate(state)
        return result.answer, result.clauses

    return decide


def shared_core(old: Side, new: Side, vocabulary: Vocabulary) -> Core:
    """One manager for both sides of a diff (their sets must meet), made once per pair of sides.

    A manager costs about 8 ms to make: one per compared name would cost more than the comparisons.
    """
    if old._core is None or old._core[0] is not new or old._core[1] is not vocabulary:
        # (the core sifts its variables: unsifted, two editions' decisions of 80 facts took
        # millions of nodes and minutes here; what is read back never depends on the order)
        old._core = (new, vocabulary, vocabulary_core(vocabulary))
    return old._core[2]


#: Per side, the values of enum facts that side's vocabulary lacks: fact -> values.
Lacks = tuple[dict[str, tuple[str, ...]], dict[str, tuple[str, ...]]]


def compare(kind: str, name: str, old: Side, new: Side, vocabulary: Vocabulary,
            lacks: Lacks | None = None, apart_only: bool = False) -> Behaviour:
    """Compare ``name`` as old and new define it (see the module docstring).

    With ``lacks``, a side gives no answer (NO_SITUATION) where a fact takes a value its vocabulary
    lacks, instead of what its rules would answer there if read over both vocabularies: for a name
    whose rules did not change, that reading would make a value added to (or withdrawn from) an
    unordered fact change nothing, and read a value new to an ordered fact by the old order, where the
    edition that has it now answers in situations the other could not have.

    With ``apart_only`` (a name whose rules did not change, compared for a changed constraint), it is
    equivalent, its sets never built, when both sides' constraints allow the same situations of its
    facts (``spaces``): its rules then answer the same everywhere."""
    core = shared_core(old, new, vocabulary)
    # ``Side.facts`` are the facts of ``Side.meaning``: the spaces over them, once.
    facts = sorted(old.facts(kind, name) | new.facts(kind, name))
    allowed, own_old, own_new = spaces(core, old, new, vocabulary, facts)
    if apart_only and own_old is None:
        return Behaviour(name, kind, EQUIVALENT, (), core.count(allowed, facts), ())
    mo, mn = old.meaning(kind, name, core), new.meaning(kind, name, core)
    if lacks is not None:
        mo, mn = _without(mo, lacks[0], core), _without(mn, lacks[1], core)
    return compared(kind, name, allowed_only(mo, own_old, core), allowed_only(mn, own_new, core),
                    core, allowed, facts, old.own, new.own)


def spaces(core: Core, old: Side, new: Side, vocabulary: Vocabulary,
           facts: list[str]) -> tuple[Node, Node | None, Node | None]:
    """The situations over ``facts`` that either side's constraints allow, and those each side's own
    allow; both None when they allow the same (the same vocabulary, or constraints that changed
    elsewhere), so that nothing more is computed for them."""
    if old.constrained is None or new.constrained is None or _same_constraints(old, new):
        return allowed_space(core, vocabulary, facts), None, None
    # Each side's constraints read in its own order, as its rules are.
    own_old = allowed_space(with_orders(core, old.orders), old.constrained, facts)
    own_new = allowed_space(with_orders(core, new.orders), new.constrained, facts)
    if own_old == own_new:
        return own_old, None, None
    return own_old | own_new, own_old, own_new


def constraints_apart(kind: str, name: str, old: Side, new: Side, vocabulary: Vocabulary,
                      ids: tuple[str, ...]) -> tuple[str, ...]:
    """Of the constraints ``ids`` (added, withdrawn or changed between the sides' own vocabularies),
    those that change which situations of the name's facts are allowed: each swapped alone into the
    old side's constraints (its new version, or none when withdrawn), read in the old side's order.
    When none does alone but the sides allow different situations, all of them (they do it together);
    none when both sides have the same vocabulary."""
    if old.own is None or new.own is None:
        return ()
    core = shared_core(old, new, vocabulary)
    facts = sorted(old.facts(kind, name) | new.facts(kind, name))
    view = with_orders(core, old.orders)
    before = {c.id: c for c in old.own.constraints}
    after = {c.id: c for c in new.own.constraints}

    def allowed(constraints: dict) -> Node:
        return allowed_space(view, Vocabulary(vocabulary.facts, tuple(constraints.values())), facts)

    base = allowed(before)
    apart = tuple(i for i in ids if allowed({**{k: c for k, c in before.items() if k != i},
                                             **({i: after[i]} if i in after else {})}) != base)
    if apart:
        return apart
    _, own_old, _ = spaces(core, old, new, vocabulary, facts)
    return ids if own_old is not None else ()


def _same_constraints(old: Side, new: Side) -> bool:
    """Both sides' constraints rule out the same, read alike: the same conditions (whatever their ids
    and words), none reading an ordered fact whose order changed."""
    if old.rules_out != new.rules_out:
        return False
    moved = {f for f in old.orders.keys() | new.orders.keys() if old.orders.get(f) != new.orders.get(f)}
    return not any(facts_used(c, {}) & moved for c in old.rules_out)


def allowed_only(meaning: Meaning, allowed: Node | None, core: Core) -> Meaning:
    """``meaning`` with no answer (NO_SITUATION) where its side's own constraints rule out (outside
    ``allowed``; None: nowhere)."""
    if allowed is None:
        return meaning
    return _no_situation(meaning, ~allowed, lambda state: core.situation(state) & allowed == core.false, core)


def _no_situation(meaning: Meaning, region: Node, inside: Callable[[dict], bool], core: Core) -> Meaning:
    """``meaning`` giving no answer (NO_SITUATION) in ``region``; ``inside``: whether a witness's state
    lies there (``allowed_only``, ``_without``)."""
    outcomes = {key: r & ~region for key, r in meaning.outcomes.items()}
    outcomes[("none", NO_SITUATION)] = outcomes.get(("none", NO_SITUATION), core.false) | region
    explain = meaning.explain

    def explained(state: dict) -> tuple[Answer | None, tuple[str, ...]]:
        return (None, ()) if inside(state) else explain(state)

    return Meaning(meaning.facts, outcomes, explained)


def compared(kind: str, name: str, mo: Meaning, mn: Meaning, core: Core, allowed: Node, facts: list[str],
             own_old: Vocabulary | None, own_new: Vocabulary | None) -> Behaviour:
    """Old and new meanings (each already giving NO_SITUATION where its side has no such situation)
    compared over the ``allowed`` situations of ``facts``; ``own_*``: each side's vocabulary, for what
    a witness names that it lacks (None when both are the same)."""
    found = _transitions(mo, mn, core, allowed, facts)
    transitions = tuple(t for t, _ in found)
    kinds = {"gained": core.false, "lost": core.false, "other": core.false}
    for t, region in found:
        key = "gained" if t.new is True else "lost" if t.old is True else "other"
        kinds[key] |= region
    states = [s for region in kinds.values() for s in smallest(core, region, facts, WITNESSES_PER_KIND)]
    states.sort(key=lambda s: rank(core, s))
    witnesses = tuple(_witness(s, mo, mn, own_old, own_new, core) for s in states)
    behaviour = Behaviour(name, kind, EQUIVALENT, witnesses, core.count(allowed, facts), transitions)
    if not transitions:
        return behaviour
    return Behaviour(name, kind, _direction(behaviour), witnesses, behaviour.situations, transitions)


def _transitions(mo: Meaning, mn: Meaning, core: Core, allowed: Node, facts: list[str]) -> list[tuple[Transition, Node]]:
    """Each pair of an old and a new outcome that meet in ``allowed``: the transition and its region,
    the largest first."""
    found: list[tuple[Transition, Node]] = []
    for ko, ro in mo.outcomes.items():
        ro &= allowed
        if ro == core.false:
            continue
        for kn, rn in mn.outcomes.items():
            if ko == kn or (ko[0] == kn[0] == "none"):  # no answer on both sides is no change, whatever the reason
                continue
            region = ro & rn
            if region != core.false:
                found.append((_transition(core, ko, kn, region, allowed, facts), region))
    found.sort(key=lambda x: (-x[0].situations, _order(x[0].old, x[0].old_reason), _order(x[0].new, x[0].new_reason)))
    return found


def _direction(behaviour: Behaviour) -> str:
    """Broadened or narrowed where yes only was gained (or lost), else changed."""
    gained, lost = behaviour.broadened > 0, behaviour.narrowed > 0
    other = behaviour.changed - behaviour.broadened - behaviour.narrowed > 0
    if behaviour.boolean and not other and gained != lost:
        return BROADENED if gained else NARROWED
    return CHANGED


def _without(meaning: Meaning, lacks: dict[str, tuple[str, ...]], core: Core) -> Meaning:
    """``meaning`` with no answer (NO_SITUATION) where a fact it reads takes a value of ``lacks``."""
    lacked = {f: vs for f, vs in lacks.items() if f in meaning.facts and vs}
    if not lacked:
        return meaning
    region = core.false
    for fact, values in lacked.items():
        region |= core.one_of(fact, values)
    return _no_situation(meaning, region, lambda state: any(state.get(f) in vs for f, vs in lacked.items()), core)


def unanswered(kind: str, name: str, old: Side, new: Side, vocabulary: Vocabulary,
               added: bool) -> tuple[tuple[str, int], ...]:
    """Where the side that has a name (the new one when ``added``) gives no answer, by reason
    (NOT_ASKED, NO_RULE, CONFLICT), over the situations of both sides' facts that its own constraints
    allow (elsewhere ``compare`` has it give none, NO_SITUATION): for a name of one side only, whose
    no-answer meets the other side's NOT_DEFINED and is no transition."""
    core = shared_core(old, new, vocabulary)
    mo, mn = old.meaning(kind, name, core), new.meaning(kind, name, core)
    facts = sorted(mo.facts | mn.facts)
    allowed, own_old, own_new = spaces(core, old, new, vocabulary, facts)
    own = own_new if added else own_old
    allowed = allowed if own is None else own
    found = []
    for key, region in (mn if added else mo).outcomes.items():
        if key[0] == "none" and key[1] != NOT_DEFINED and (n := core.count(region & allowed, facts)):
            found.append((key[1], n))
    return tuple(sorted(found, key=lambda x: _REASONS.index(x[0])))


def _transition(core: Core, ko: OutcomeKey, kn: OutcomeKey, region: Node, allowed: Node,
                facts: list[str]) -> Transition:
    old, old_reason = _outcome(ko)
    new, new_reason = _outcome(kn)
    return Transition(old, old_reason, new, new_reason, core.count(region, facts),
                      *descriptions(core, region, allowed, facts))


def descriptions(core: Core, region: Node, allowed: Node, facts: list[str]) -> tuple[tuple[Description, ...], int]:
    """A few descriptions that cover ``region`` (``DESCRIPTIONS_PER_TRANSITION``), and how many of its
    situations they leave undescribed."""
    cubes, rest = cover(core, region, allowed, facts, DESCRIPTIONS_PER_TRANSITION)
    return (tuple(Description(tuple(sorted(c.items())), core.count(cube(core, c) & allowed, facts),
                              describe(c, core.domains)) for c in cubes), core.count(rest, facts))


def _outcome(key: OutcomeKey) -> tuple[Answer | None, str | None]:
    return (key[2], None) if key[0] == "answer" else (None, key[1])


def _order(value: Answer | None, reason: str | None) -> tuple:
    """Answers before no answer; yes/no before enum values; then by value or reason."""
    if reason is not None:
        return (2, _REASONS.index(reason), "")
    return (0 if isinstance(value, bool) else 1, 0, str(value))


def describe(values: dict[str, tuple[Answer, ...]], domains: dict[str, tuple[Answer, ...]]) -> str:
    """'whenever poisoned and phase is one of battle, end'; 'in every situation' when nothing is named."""
    parts = []
    for fact in sorted(values):
        vs, domain = values[fact], domains[fact]
        others = tuple(v for v in domain if v not in vs)
        if domain == (False, True):
            parts.append(fact if vs == (True,) else f"not {fact}")
        elif len(vs) == 1:
            parts.append(f"{fact} is {vs[0]}")
        elif len(others) == 1:
            parts.append(f"{fact} is not {others[0]}")
        else:
            parts.append(f"{fact} is one of {', '.join(map(str, vs))}")
    return "whenever " + " and ".join(parts) if parts else "in every situation"


def _witness(state: dict, m_old: Meaning, m_new: Meaning, own_old: Vocabulary | None,
             own_new: Vocabulary | None, core: Core) -> Witness:
    """Both sides evaluated by the reference evaluator in one situation, for the clauses that decided;
    where a side gives no answer, why (from its outcome sets, as the transitions say it)."""
    a, ca = m_old.explain(state)
    b, cb = m_new.explain(state)
    return Witness(tuple(sorted(state.items())), a, b, ca, cb, unknown(own_old, state), unknown(own_new, state),
                   _reason(m_old, state, core), _reason(m_new, state, core))


def _reason(meaning: Meaning, state: dict, core: Core) -> str | None:
    """The reason of the no-answer outcome that holds in ``state``, or None where the side answers."""
    here = core.situation(state)
    for key, region in meaning.outcomes.items():
        if key[0] == "none" and region & here != core.false:
            return key[1]
    return None


def unknown(vocabulary: Vocabulary | None, state: dict) -> tuple[str, ...]:
    """What a situation names that the vocabulary lacks: a fact that holds (a false one
    says nothing the edition could not), or a value of an enum, as 'fact=value'."""
    if vocabulary is None:
        return ()
    facts = vocabulary.by_name
    found = []
    for name, value in sorted(state.items()):
        fact = facts.get(name)
        if fact is None:
            if value is not False:
                found.append(name)
        elif fact.type == "enum" and value not in fact.values:
            found.append(f"{name}={value}")
    return tuple(found)


#: How each reason for no answer reads ("not asked" is not "no rule answers": the question was out of
#: the decision's ``given`` there, not left open by its rules).
REASON_WORDS = {NOT_ASKED: "not asked", NO_RULE: "no rule answers", CONFLICT: "rules conflict",
                NOT_DEFINED: "not defined", NO_SITUATION: "no such situation"}


def said(value: Answer | None, reason: str | None) -> str:
    """yes / no / an enum value, or why there is no answer ('no rule answers', 'not asked', ...)."""
    if reason is not None:
        return REASON_WORDS[reason]
    return "yes" if value is True else "no" if value is False else str(value)


def transition_words(t: Transition, arrow: str = "->") -> tuple[str, list[str]]:
    """'yes -> no in 1,000 situations' and its descriptions: 'whenever a and not b', ..., 'and 24 other situations'."""
    parts = [d.text for d in t.descriptions]
    if t.undescribed:
        parts.append(f"and {_many(t.undescribed, 'other situation')}")
    return f"{said(t.old, t.old_reason)} {arrow} {said(t.new, t.new_reason)} in {_many(t.situations, 'situation')}", parts


def transition_lines(behaviour: Behaviour, indent: str = "  ") -> list[str]:
    """Each way the answer changed, for the text format: one line with its one description,
    else the descriptions on lines of their own under it."""
    lines = []
    for t in behaviour.transitions:
        head, parts = transition_words(t)
        if len(parts) == 1:
            lines.append(f"{head}: {parts[0]}")
        else:
            lines.append(f"{head}:")
            lines.extend(indent + part for part in parts)
    return lines
