"""Sets of situations read back for people: the smallest ones, and short descriptions that cover them.

A set of situations is a BDD of the symbolic core (``rulebook_compiler.symbolic``).
Two readings serve the diff's behaviour comparison:

- ``smallest``: the situations fewest facts away from their resting value
  (false, or an enum's first value), in the order the former enumeration met
  them: by that number, then the moved facts' names, then their values. They
  are the diff's witnesses.
- ``cover``: descriptions ("ability is one of interrupt, negate and
  target_location is hand"), each a product of one set of values per fact,
  each inside the set wherever the situation is allowed, each as wide as it
  can be (no value can be added to any fact's set: a prime implicant over
  facts and value sets), and together covering the set unless capped. The
  cover is greedy, then irredundant (no description is covered by the others).
"""

from __future__ import annotations

from typing import Mapping, Sequence

from .model import Answer
from .symbolic import Core, Node

#: A product of value sets: fact -> the values it may take (a fact not named takes any value).
Cube = dict[str, tuple[Answer, ...]]


class _Counters:
    """The situations by how many facts are away from their resting value: ``levels[k]`` moves k.

    A counter over the facts (each step adds one fact), built up to twice the
    weight last asked for: a symmetric function, small in any variable order,
    so the core may reorder its variables freely.
    """

    def __init__(self, core: Core, facts: list[str]):
        self.core, self.facts = core, facts
        self.levels: list[Node] = []

    def _build(self, upto: int) -> None:
        core = self.core
        counts = [core.true] + [core.false] * upto  # counts[k]: exactly k of the facts so far moved
        for f in self.facts:
            rest = core.eq(f, core.domains[f][0])
            counts = [(counts[k] & rest) | (counts[k - 1] & ~rest if k else core.false) for k in range(upto + 1)]
        self.levels = counts

    def least(self, u: Node) -> tuple[int, Node]:
        """The fewest facts moved in a situation of ``u`` (not empty), and the situations that move that many."""
        k = 0
        while True:
            if k >= len(self.levels):
                self._build(min(max(2 * len(self.levels), 2), len(self.facts)))
            if (u & self.levels[k]) != self.core.false:
                return k, self.levels[k]
            k += 1


def smallest(core: Core, u: Node, facts: Sequence[str], limit: int) -> list[dict[str, Answer]]:
    """Up to ``limit`` situations of ``u`` over ``facts``, fewest facts moved first (see the module docstring)."""
    facts = sorted(facts)
    counters = _Counters(core, facts)
    found: list[dict[str, Answer]] = []
    while len(found) < limit and u != core.false:
        least, exactly = counters.least(u)
        state = _first(core, u & exactly, facts, least)
        found.append(state)
        u &= ~core.situation(state)
    return found


def _first(core: Core, u: Node, facts: list[str], weight: int) -> dict[str, Answer]:
    """The first situation of ``u``, all of whose situations move ``weight`` facts, in the former order."""
    moved: list[str] = []
    for f in facts:  # the first combination of moved facts: move each fact as early as the rest allows
        rest = core.eq(f, core.domains[f][0])
        if len(moved) < weight:
            trial = u & ~rest
            if trial != core.false:
                u = trial
                moved.append(f)
                continue
        u &= rest
    state = {f: core.domains[f][0] for f in facts}
    for f in moved:  # then the first values of those facts
        for value in core.domains[f][1:]:
            trial = u & core.eq(f, value)
            if trial != core.false:
                u, state[f] = trial, value
                break
    return state


def rank(core: Core, state: Mapping[str, Answer]) -> tuple:
    """Where ``smallest`` places a situation among all: facts moved, which, then their values."""
    moved = [f for f in sorted(state) if state[f] != core.domains[f][0]]
    return (len(moved), tuple(sorted(state).index(f) for f in moved),
            tuple(core.domains[f].index(state[f]) for f in moved))


def cube(core: Core, values: Cube) -> Node:
    out = core.true
    for f, vs in values.items():
        out &= core.one_of(f, vs)
    return out


def cover(core: Core, region: Node, allowed: Node, facts: Sequence[str],
          limit: int) -> tuple[list[Cube], Node]:
    """At most ``limit`` descriptions of ``region`` (within ``allowed``), and what they leave uncovered.

    Each description is grown from the first uncovered situation: first every
    fact it can do without is dropped, then each value that keeps it inside
    ``region`` (wherever ``allowed``) is added. Growing is monotone (a value
    refused stays refused as the description grows), so the result is prime.
    """
    facts = sorted(facts)
    outside = allowed & ~region  # where no description may reach
    todo = region
    found: list[Cube] = []
    while True:
        while todo != core.false and len(found) < limit:
            grown = _grow(core, outside, core.first_in(todo, facts), facts)
            found.append(grown)
            todo &= ~cube(core, grown)
        kept = _irredundant(core, found, allowed)
        done = len(kept) == len(found) or todo == core.false
        found = kept
        if done:  # so fewer than ``limit`` only when they cover the set
            break
    covered = core.false
    for c in found:
        covered |= cube(core, c)
    return found, region & ~covered


def _grow(core: Core, outside: Node, seed: dict[str, Answer], facts: list[str]) -> Cube:
    """A prime description around the seed: the facts it can do without dropped, then values added."""
    grown = _drop_facts(core, outside, seed, facts)
    for f in [f for f in facts if f in grown and core.domains[f] != (False, True)]:
        # (a bool fact with both values is the fact dropped, which was refused)
        for value in core.domains[f]:
            if value in grown[f]:
                continue
            trial = {**grown, f: tuple(v for v in core.domains[f] if v in grown[f] or v == value)}
            if (cube(core, trial) & outside) == core.false:
                grown = trial
    return grown


def _drop_facts(core: Core, outside: Node, seed: dict[str, Answer], facts: list[str]) -> Cube:
    """The seed situation without each fact, in turn, that it can do without and still miss ``outside``.

    Kept as one running set rather than a product rebuilt per trial: ``rest`` is
    ``outside`` given the facts kept so far (a cofactor), with the facts dropped
    quantified away; dropping the next fact is safe when, with it quantified too,
    nothing of ``rest`` is left at the seed's values of the facts still to come.
    """
    point = _assignment(core, seed)
    rest = outside
    kept: Cube = {}
    for f in facts:
        without = core.exists([f], rest)
        if core.bdd.let(point, without) == core.false:
            rest = without
        else:
            kept[f] = (seed[f],)
            rest = core.bdd.let({b: point[b] for b in core.bits(f)}, rest)
    return kept


def _assignment(core: Core, state: Mapping[str, Answer]) -> dict[str, bool]:
    """The variables' values that encode a situation."""
    out: dict[str, bool] = {}
    for f, value in state.items():
        bits = core.bits(f)
        index = core.domains[f].index(value)  # False before True: a bool fact's variable holds it
        for b, name in enumerate(bits):  # most significant bit first, as the core encodes
            out[name] = bool(index >> (len(bits) - 1 - b) & 1)
    return out


def _irredundant(core: Core, cubes: list[Cube], allowed: Node) -> list[Cube]:
    """Drop, first to last, each description whose allowed situations the others kept cover."""
    kept = list(cubes)
    i = 0
    while i < len(kept):
        others = core.false
        for j, c in enumerate(kept):
            if j != i:
                others |= cube(core, c)
        if (cube(core, kept[i]) & allowed & ~others) == core.false:
            del kept[i]
        else:
            i += 1
    return kept
