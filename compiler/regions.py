"""Sets of situations read back for people: the smallest ones, and short descriptions that cover them.

A set of situations is a BDD of the symbolic core (``compiler.symbolic``).
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

import sys
from typing import Mapping, Sequence

from .model import Answer
from .symbolic import Core, Node

#: A product of value sets: fact -> the values it may take (a fact not named takes any value).
Cube = dict[str, tuple[Answer, ...]]
_FAR = 1 << 30  # no situation


class _Weights:
    """The least number of facts away from their resting value in a set's situations, by a walk of its nodes.

    A fact's variables are contiguous in the core's order (declared together,
    never reordered) and its resting value is the all-zero code, so a situation
    moves a fact when any of its variables is 1; a variable the diagram skips
    is free and is left at 0.
    """

    def __init__(self, core: Core, facts: Sequence[str]):
        self.core = core
        level = core.bdd.level_of_var
        self.fact_at = {level(b): f for f in facts for b in core.bits(f)}
        needed = 2 * len(self.fact_at) + 50  # one frame per level, one more per complemented edge
        if needed > sys.getrecursionlimit():
            sys.setrecursionlimit(needed)

    def least(self, u: Node) -> int:
        memo: dict[tuple[int, bool], int] = {}
        true, false = self.core.true, self.core.false

        def walk(node: Node, charged: str | None) -> int:
            if node == true:
                return 0
            if node == false:
                return _FAR
            fact = self.fact_at[node.level]
            paid = charged == fact
            key = (int(node), paid)
            if key not in memo:
                lo, hi = node.low, node.high
                if node.negated:  # the children are the regular node's
                    lo, hi = ~lo, ~hi
                memo[key] = min(walk(lo, fact if paid else None), (0 if paid else 1) + walk(hi, fact))
            return memo[key]

        try:
            return walk(u, None)
        finally:
            # walk refers to itself through its closure: a cycle holding diagrams, which a later
            # collection could free after their manager (CUDD then reports nodes still referenced)
            walk = None  # noqa: F841


def smallest(core: Core, u: Node, facts: Sequence[str], limit: int) -> list[dict[str, Answer]]:
    """Up to ``limit`` situations of ``u`` over ``facts``, fewest facts moved first (see the module docstring)."""
    facts = sorted(facts)
    weights = _Weights(core, facts)
    found = []
    while len(found) < limit:
        state = _first_smallest(core, weights, u, facts)
        if state is None:
            break
        found.append(state)
        u &= ~core.situation(state)
    return found


def _first_smallest(core: Core, weights: _Weights, u: Node, facts: list[str]) -> dict[str, Answer] | None:
    least = weights.least(u)
    if least >= _FAR:
        return None
    moved = []
    for f in facts:  # the first combination of moved facts: move each fact as early as the weight allows
        rest = core.eq(f, core.domains[f][0])
        if len(moved) < least:
            trial = u & ~rest
            if trial != core.false and weights.least(trial) == least:
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
    while todo != core.false and len(found) < limit:
        seed = core.first(todo, facts)
        grown: Cube = {f: (seed[f],) for f in facts}
        for f in facts:
            trial = {g: v for g, v in grown.items() if g != f}
            if (cube(core, trial) & outside) == core.false:
                grown = trial
        for f in [f for f in facts if f in grown]:
            for value in core.domains[f]:
                if value in grown[f]:
                    continue
                trial = {**grown, f: tuple(v for v in core.domains[f] if v in grown[f] or v == value)}
                if (cube(core, trial) & outside) == core.false:
                    grown = trial
        found.append(grown)
        todo &= ~cube(core, grown)
    kept = _irredundant(core, found, allowed)
    covered = core.false
    for c in kept:
        covered |= cube(core, c)
    return kept, region & ~covered


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
