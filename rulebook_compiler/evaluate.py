"""The reference evaluator: decisions with default logic, over allowed situations.

A decision's rules answer where they apply; a rule marked ``exception_to`` a
clause overrides that clause's rules (and, through them, whatever they
override) wherever it answers, as in Catala's scopes. What remains is the
answer; two different answers left standing are a conflict; none is empty.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import cached_property
from typing import Iterator, Mapping, Sequence, Union

from .conditions import Compiled, Condition, compile_condition, facts_used
from .model import Answer, Decision, Edition, Rule, Rulebook, Vocabulary

State = Mapping[str, Answer]


class _NoAnswer:
    """A situation without a single answer; compares equal only to itself."""

    def __init__(self, name: str):
        self.name = name

    def __repr__(self) -> str:
        return self.name


CONFLICT = _NoAnswer("CONFLICT")
EMPTY = _NoAnswer("EMPTY")
Outcome = Union[Answer, _NoAnswer]


class Space:
    """The situations allowed by the vocabulary's constraints, over some facts."""

    def __init__(self, vocabulary: Vocabulary, facts: set[str], given: Compiled | None = None):
        by_name = vocabulary.by_name
        self.facts = tuple(sorted(facts))
        self.domains = {f: by_name[f].domain for f in self.facts}
        self.given = given
        relevant = [c for c in vocabulary.constraints if facts_used(c.never, {}) & facts]
        # Facts outside the space that relevant constraints tie to it: a situation
        # is allowed when some value of them breaks no constraint.
        extra: set[str] = set()
        for c in relevant:
            extra |= facts_used(c.never, {}) - facts
        self.extra = tuple(sorted(extra))
        self.extra_domains = [by_name[f].domain for f in self.extra]
        self.constraints = [compile_condition(c.never, {}, orders=vocabulary.orders) for c in relevant]

    @property
    def size(self) -> int:
        """Situations before constraints: the product of the domains."""
        n = 1
        for d in self.domains.values():
            n *= len(d)
        return n

    def allowed(self, state: State) -> bool:
        """Whether some values of the facts the constraints tie to it break none."""
        if self.given is not None and not self.given(state):
            return False
        if not self.constraints:
            return True
        if not self.extra:
            return not any(c(state) for c in self.constraints)
        for values in itertools.product(*self.extra_domains):
            full = {**state, **dict(zip(self.extra, values))}
            if not any(c(full) for c in self.constraints):
                return True
        return False

    def states(self) -> Iterator[dict[str, Answer]]:
        """Every allowed situation, in a fixed order (facts by name, False before True).

        Enumeration is for tests and small examples: every analysis of the rules
        asks the symbolic core instead (rulebook_compiler/decision_sets.py)."""
        for values in itertools.product(*(self.domains[f] for f in self.facts)):
            state = dict(zip(self.facts, values))
            if self.allowed(state):
                yield state


@dataclass(frozen=True)
class _Compiled:
    rule: Rule
    when: Compiled | None
    test: Compiled | None

    def answer(self, state: State) -> Answer | None:
        if self.when is not None and not self.when(state):
            return None
        kind = self.rule.kind
        if kind == "value":
            return self.rule.value
        assert self.test is not None  # a requires or forbids rule has a test
        holds = self.test(state)
        if kind == "requires":
            return holds
        if kind == "forbids":
            return False if holds else None
        return True if holds else None  # permits


class DecisionModel:
    """One decision of one edition, ready to evaluate."""

    def __init__(self, vocabulary: Vocabulary, edition: Edition, name: str, *,
                 rules: tuple[Rule, ...] | None = None, predicates: Mapping[str, Condition] | None = None,
                 orders: Mapping[str, tuple[str, ...]] | None = None):
        """``rules`` and ``predicates`` replace the edition's own (mutation testing uses this);
        ``orders``, the vocabulary's orders of ordered facts (the diff passes the edition's own
        when it evaluates over two editions' vocabularies joined)."""
        self.vocabulary = vocabulary
        self.decision: Decision = edition.decisions[name]
        self.rules: tuple[Rule, ...] = edition.rules.get(name, ()) if rules is None else tuple(rules)
        preds = ({n: p.condition for n, p in edition.predicates.items()} if predicates is None
                 else dict(predicates))
        self.predicates: Mapping[str, Condition] = preds
        self.orders = vocabulary.orders if orders is None else orders
        self._cache: dict = {}  # compiled predicates, shared by the rules and the given
        used: set[str] = set()
        for r in self.rules:
            for cond in (r.when, r.test):
                if cond is not None:
                    used |= facts_used(cond, preds)
        if self.decision.given is not None:
            used |= facts_used(self.decision.given, preds)
        self.facts: tuple[str, ...] = tuple(sorted(used))
        # bit j of override_bits[i]: rule i overrides rule j, directly or through others
        self.override_bits = self._override_table()
        self.overrides = _BitSets(self.override_bits)

    # What evaluating one situation at a time needs is made when first asked: the
    # logic checks reason on the rules symbolically (rulebook_compiler/decision_sets.py)
    # and never evaluate, and compiling every rule was a fifth of their time.
    @cached_property
    def _compiled(self) -> tuple["_Compiled", ...]:
        preds, cache, orders = self.predicates, self._cache, self.orders
        return tuple(
            _Compiled(r, compile_condition(r.when, preds, cache, orders=orders) if r.when is not None else None,
                      compile_condition(r.test, preds, cache, orders=orders) if r.test is not None else None)
            for r in self.rules)

    @cached_property
    def space(self) -> "Space":
        given = self.decision.given
        compiled = (compile_condition(given, self.predicates, self._cache, orders=self.orders)
                    if given is not None else None)
        return Space(self.vocabulary, set(self.facts), compiled)


    def _override_table(self) -> list[int]:
        """For each rule, the rules it overrides, directly or through others, as bits.

        Each rule's set is made once from those of the rules it names (an
        explicit stack, post-order), so the table takes time in proportion to
        the exceptions, not to their square or cube: 3,600 rules in a chain of
        60 clauses took 32 s and 331 MB as one search per rule. Exceptions are
        acyclic (the checker refuses rings); a ring met anyway is cut, not followed.
        """
        rules = self.rules
        by_clause: dict[str, list[int]] = {}
        for i, r in enumerate(rules):
            by_clause.setdefault(r.clause, []).append(i)
        bits: list[int | None] = [None] * len(rules)
        clause_bits: dict[str, int] = {}  # a clause's rules and all they override

        def targets(i: int) -> Iterator[int]:
            return (j for c in rules[i].exception_to for j in by_clause.get(c, ()) if j != i)

        active: set[int] = set()
        for start in range(len(rules)):
            stack = [(start, False)]
            while stack:
                i, ready = stack.pop()
                if bits[i] is not None or (i in active and not ready):
                    continue
                if not ready:
                    active.add(i)
                    stack.append((i, True))
                    stack.extend((j, False) for j in targets(i) if bits[j] is None and j not in active)
                    continue
                mask = 0
                for c in rules[i].exception_to:
                    if c != rules[i].clause and c in clause_bits:
                        mask |= clause_bits[c]
                        continue
                    part = 0
                    for j in by_clause.get(c, ()):
                        if j != i:
                            part |= (1 << j) | (bits[j] or 0)
                    if c != rules[i].clause and all(bits[j] is not None for j in by_clause.get(c, ())):
                        clause_bits[c] = part
                    mask |= part
                bits[i] = mask
                active.discard(i)
        return [b or 0 for b in bits]

    def answers(self, state: State) -> dict[int, Answer]:
        """Rule index -> its answer, for the rules that answer in the situation (overridden or not)."""
        return {i: a for i, c in enumerate(self._compiled) if (a := c.answer(state)) is not None}

    def evaluate(self, state: State) -> "Result":
        return standing(self.rules, self.override_bits, self.answers(state))

    def outcome(self, state: State) -> Outcome:
        """The answer, or ``CONFLICT`` / ``EMPTY``: what an engine is compared on."""
        return self.evaluate(state).outcome

    def decide(self, facts: State) -> Answer:
        """The answer, or ValueError for a missing fact, an empty or a conflicting decision."""
        missing = [f for f in self.facts if f not in facts]
        if missing:
            raise ValueError(f"decision '{self.decision.name}' needs facts: {', '.join(missing)}")
        result = self.evaluate(facts)
        if result.conflict:
            raise ValueError(f"decision '{self.decision.name}' is in conflict here: {result.describe()}")
        answer = result.answer  # None: empty, as it is not in conflict
        if answer is None:
            raise ValueError(f"decision '{self.decision.name}' has no answer here")
        return answer

    def states(self) -> Iterator[dict[str, Answer]]:
        return self.space.states()


class _BitSets(Mapping[int, frozenset]):
    """Rule i -> the rules it overrides, as a set, made from the bits when asked."""

    def __init__(self, bits: list[int]):
        self._bits = bits

    def __getitem__(self, i: int) -> frozenset[int]:
        b = self._bits[i]
        return frozenset(j for j in range(b.bit_length()) if b >> j & 1)

    def __iter__(self) -> Iterator[int]:
        return iter(range(len(self._bits)))

    def __len__(self) -> int:
        return len(self._bits)


@dataclass(frozen=True)
class Result:
    """The rules left standing in one situation, with what each answers."""

    standing: tuple[tuple[Rule, Answer], ...]

    @property
    def empty(self) -> bool:
        return not self.standing

    @property
    def conflict(self) -> bool:
        return len({(type(a), a) for _, a in self.standing}) > 1

    @property
    def answer(self) -> Answer | None:
        if self.empty or self.conflict:
            return None
        return self.standing[0][1]

    @property
    def outcome(self) -> Outcome:
        """The answer, or ``CONFLICT`` / ``EMPTY``."""
        return CONFLICT if self.conflict else EMPTY if self.empty else self.standing[0][1]

    @property
    def clauses(self) -> tuple[str, ...]:
        """The clauses that decided, in citation order."""
        return tuple(sorted({r.clause for r, _ in self.standing}))

    def describe(self) -> str:
        return "; ".join(f"{r.ref} says {_show(a)}" for r, a in self.standing)


def standing(rules: Sequence[Rule], overrides: Sequence[int], answers: Mapping[int, Answer]) -> Result:
    """The last step of evaluating one situation: of the rules that answer there (rule index -> its
    answer), those that no other answering rule overrides (bit j of ``overrides[i]``: rule i
    overrides rule j). Mutation testing calls it with a variant's rules and answers."""
    beaten = 0
    for i in answers:
        beaten |= overrides[i]
    return Result(tuple((rules[i], a) for i, a in answers.items() if not beaten >> i & 1))


def _show(value: Answer) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


class Evaluator:
    """The reference engine for one edition: ``decide(decision, facts)``."""

    def __init__(self, book: Rulebook, edition: Edition):
        self.book = book
        self.edition = edition
        self._models: dict[str, DecisionModel] = {}

    def model(self, decision: str) -> DecisionModel:
        if decision not in self._models:
            if decision not in self.edition.decisions:
                raise KeyError(f"edition '{self.edition.id}' has no decision '{decision}'")
            self._models[decision] = DecisionModel(self.edition.vocabulary, self.edition, decision)
        return self._models[decision]

    def decide(self, decision: str, facts: State) -> Answer:
        return self.model(decision).decide(facts)


def show_state(state: State) -> str:
    """``poisoned=true, phase=battle``: a situation as people read it."""
    return ", ".join(f"{k}={_show(v)}" for k, v in state.items()) or "(any situation)"
