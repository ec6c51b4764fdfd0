"""Sets of situations read back (rulebook_compiler/regions.py) against brute force, on random sets.

Random sets (any subset of the situations, within a random allowed subset)
are the hardest case for descriptions: few of them are products. The
smallest situations must come in the former enumeration's order (fewest
facts moved, then which, then their values); every description must hold
only situations of the set wherever allowed, be prime (no value can be
added), and the descriptions with what they leave must be the set.
"""

from __future__ import annotations

import itertools
import random

import pytest

from rulebook_compiler.regions import cover, rank, smallest
from rulebook_compiler.symbolic import Core

DOMAINS = {"a": (False, True), "b": (False, True), "colour": ("red", "green", "blue"),
           "step": ("one", "two", "three", "four", "five")}
FACTS = sorted(DOMAINS)
ALL = [dict(zip(FACTS, values)) for values in itertools.product(*(DOMAINS[f] for f in FACTS))]


def _key(state: dict) -> tuple:
    moved = [f for f in FACTS if state[f] != DOMAINS[f][0]]
    return (len(moved), tuple(FACTS.index(f) for f in moved), tuple(DOMAINS[f].index(state[f]) for f in moved))


def _sets(seed: int):
    rng = random.Random(seed)
    core = Core(DOMAINS)
    allowed = [s for s in ALL if rng.random() < 0.8]
    region = [s for s in allowed if rng.random() < rng.choice((0.1, 0.5, 0.9))]
    to_set = lambda states: _union(core, states)  # noqa: E731
    return core, region, allowed, to_set(region), to_set(allowed)


def _union(core: Core, states) -> object:
    out = core.false
    for s in states:
        out |= core.situation(s)
    return out


@pytest.mark.parametrize("start", range(0, 200, 50))
def test_the_smallest_situations_come_in_the_former_order(start):
    for seed in range(start, start + 50):
        core, region, _, u, _ = _sets(seed)
        expected = sorted(region, key=_key)[:5]
        found = smallest(core, u, FACTS, 5)
        assert found == expected, seed
        assert [rank(core, s) for s in found] == [_key(s) for s in expected], seed


@pytest.mark.parametrize("start", range(0, 200, 50))
def test_descriptions_are_inside_prime_and_cover_what_they_do_not_leave(start):
    for seed in range(start, start + 50):
        core, region, allowed, u, ok = _sets(seed)
        cubes, rest = cover(core, u, ok, FACTS, 6)
        inside = lambda c, s: all(s[f] in vs for f, vs in c.items())  # noqa: E731
        named = set()
        for c in cubes:
            hits = [s for s in allowed if inside(c, s)]
            assert hits and all(s in region for s in hits), seed
            named |= {tuple(s.items()) for s in hits}
            for f, vs in c.items():
                for v in DOMAINS[f]:
                    if v not in vs:
                        wider = {**c, f: vs + (v,)}
                        assert any(s not in region for s in allowed if inside(wider, s)), (seed, c, f, v)
        left = [s for s in region if tuple(s.items()) not in named]
        assert core.count(rest, FACTS) == len(left), seed
        assert len(cubes) == 6 or not left, seed
        for i, c in enumerate(cubes):  # irredundant: each names an allowed situation no other does
            others = [d for j, d in enumerate(cubes) if j != i]
            assert any(not any(inside(d, s) for d in others) for s in allowed if inside(c, s)), seed
