"""The behaviour comparison against brute-force enumeration, on hundreds of generated pairs of editions.

Each pair is one decision (yes/no or enum, sometimes with a 'given') and one
predicate it uses, as two editions define them: rules of every kind, some
exceptions, constraints (some tying the facts to one no rule tests), and,
for some pairs, a new vocabulary that adds an enum value and reorders the
ordered fact (so each side compares in its own order over the two joined).
Each side keeps its own constraints (read in its own order): a situation they
rule out and the other side's allow is one that side gives no answer in
(NO_SITUATION). Enumerating every situation either side allows with the
reference evaluator is the truth: the counts of each way the answer changed, the direction, the
witnesses (the smallest situations, in the former enumeration's order), and
the descriptions (each inside its change wherever a situation is allowed, as
wide as it can be, and together covering it when not capped).
"""

from __future__ import annotations

import random
from collections import Counter
from types import SimpleNamespace

import pytest

from rulebook_compiler.conditions import All, Any_, Cmp, Const, In, Not, Ref, compile_condition, facts_used
from rulebook_compiler.diagnostics import Location
from rulebook_compiler.diff.behaviour import (BROADENED, CHANGED, CONFLICT, EQUIVALENT, NARROWED, NO_RULE, NO_SITUATION,
                                     NOT_ASKED, NOT_DEFINED, Behaviour, Side, compare, merged_vocabulary)
from rulebook_compiler.evaluate import DecisionModel, Space
from rulebook_compiler.model import Constraint, Decision, Fact, Predicate, Rule, Vocabulary

HERE = Location("t.yaml", 1, 1)
BOOLS = ("a", "b", "c")
STEPS = ("one", "two", "three", "four", "five")
FACTS = (*(Fact(n, "bool", (), "M.", HERE) for n in BOOLS),
         Fact("colour", "enum", ("red", "green", "blue"), "M.", HERE),
         Fact("step", "enum", STEPS, "M.", HERE, ordered=True),
         Fact("hidden", "bool", (), "M.", HERE))  # only constraints tie to it
# the new vocabulary of some pairs: a colour more, and the steps in another order
NEW_FACTS = (*FACTS[:3], Fact("colour", "enum", ("red", "green", "blue", "white"), "M.", HERE),
             Fact("step", "enum", ("one", "three", "two", "four", "five"), "M.", HERE, ordered=True), FACTS[5])
ENUM_ANSWERS = ("x", "y", "z")


def _atom(rng: random.Random, colours: tuple[str, ...]):
    pick = rng.randrange(5)
    if pick == 0:
        return Ref(rng.choice(BOOLS))
    if pick == 1:
        values = tuple(rng.sample(colours, rng.randint(1, 2)))
        return In("colour", values, len(values) == 1)
    if pick == 2:
        return Cmp("step", rng.choice(["before", "at_most", "after", "at_least"]), rng.choice(STEPS))
    if pick == 3:
        return Ref("p")
    return Const(rng.random() < 0.5)


def _condition(rng: random.Random, colours: tuple[str, ...], depth: int = 0, predicate: bool = True):
    pick = rng.randrange(6)
    if depth >= 2 or pick < 3:
        atom = _atom(rng, colours)
        return Ref(rng.choice(BOOLS)) if atom == Ref("p") and not predicate else atom
    if pick == 3:
        return Not(_condition(rng, colours, depth + 1, predicate))
    parts = tuple(_condition(rng, colours, depth + 1, predicate) for _ in range(rng.randint(1, 3)))
    return All(parts) if pick == 4 else Any_(parts)


def _edition(rng: random.Random, kind: str, colours: tuple[str, ...]) -> SimpleNamespace:
    rules = []
    for i in range(rng.randint(1, 4)):
        rule_kind = rng.choice(["value", "requires", "forbids", "permits"]) if kind == "bool" else "value"
        when = _condition(rng, colours) if rng.random() < 0.7 else None
        test = _condition(rng, colours) if rule_kind != "value" else None
        value = (rng.random() < 0.5 if kind == "bool" else rng.choice(ENUM_ANSWERS)) if rule_kind == "value" else None
        targets = tuple(f"t#c{j}" for j in range(i) if rng.random() < 0.4)
        rules.append(Rule("t.q", f"t#c{i}", rule_kind, when, value, test, targets, None, None, HERE))
    given = _condition(rng, colours) if rng.random() < 0.3 else None
    decision = Decision("t.q", kind, ENUM_ANSWERS if kind == "enum" else (), "Q.", given, "t", HERE)
    predicate = Predicate("p", None, _condition(rng, colours, predicate=False), "t#p", HERE)
    return SimpleNamespace(decisions={"t.q": decision}, rules={"t.q": tuple(rules)}, predicates={"p": predicate})


def _vocabulary(rng: random.Random, facts: tuple[Fact, ...]) -> Vocabulary:
    constraints = []
    for i in range(rng.randint(0, 2)):
        c = _condition(rng, facts[3].values, predicate=False)
        constraints.append(Constraint(f"k{i}", "K.", All((c, Ref("hidden"))) if rng.random() < 0.5 else c, HERE))
    return Vocabulary(facts, tuple(constraints))


def pair(seed: int):
    """Old and new sides of one generated pair, and the vocabulary compared over."""
    rng = random.Random(seed)
    kind = rng.choice(["bool", "bool", "enum"])
    old_vocabulary = _vocabulary(rng, FACTS)
    new_vocabulary = _vocabulary(rng, NEW_FACTS) if rng.random() < 0.3 else old_vocabulary
    old = _edition(rng, kind, FACTS[3].values)
    new = _edition(rng, kind, new_vocabulary.by_name["colour"].values)
    if rng.random() < 0.3:  # the new edition restates the old (an equivalent pair, mostly)
        new = old
    vocabulary = merged_vocabulary(old_vocabulary, new_vocabulary)
    own = (None, None) if old_vocabulary == new_vocabulary else (old_vocabulary, new_vocabulary)
    return Side(None, old, vocabulary, own[0]), Side(None, new, vocabulary, own[1]), vocabulary


def _own_space(side: Side, facts: set[str]) -> Space:
    """The situations over ``facts`` that the side's own constraints allow, read in its own order
    (the comparison's facts, all values of both vocabularies)."""
    vocabulary = side.vocabulary if side.own is None else Vocabulary(side.vocabulary.facts, side.own.constraints)
    space = Space(vocabulary, facts)
    space.constraints = [compile_condition(c.never, {}, orders=side.orders) for c in vocabulary.constraints
                         if facts_used(c.never, {}) & set(facts)]
    return space


def _truth(side: Side, kind: str, space: Space):
    """What the side says in one situation, by the reference evaluator: (answer, why none)."""
    if kind == "predicate":
        test = compile_condition(Ref("p"), side._preds, orders=side.orders)
        return lambda s: (test(s), None) if space.allowed(s) else (None, NO_SITUATION)
    model = DecisionModel(side.vocabulary, side.edition, "t.q", predicates=side._preds, orders=side.orders)
    given = model.space.given

    def decide(state):
        if not space.allowed(state):
            return None, NO_SITUATION
        if given is not None and not given(state):
            return None, NOT_ASKED
        result = model.evaluate(state)
        return result.answer, CONFLICT if result.conflict else NO_RULE if result.empty else None

    return decide


def _facts(side: Side, kind: str) -> set[str]:
    if kind == "predicate":
        return facts_used(Ref("p"), side._preds)
    return set(DecisionModel(side.vocabulary, side.edition, "t.q", predicates=side._preds, orders=side.orders).facts)


def _rank(state: dict, domains: dict) -> tuple:
    moved = [f for f in sorted(state) if state[f] != domains[f][0]]
    return (len(moved), tuple(sorted(state).index(f) for f in moved), tuple(domains[f].index(state[f]) for f in moved))


def _same(a, b) -> bool:
    return (a[0] is None and b[0] is None) or (a[0] == b[0] and type(a[0]) is type(b[0]) and a[1] == b[1])


def _inside(description, state: dict) -> bool:
    return all(state[f] in values for f, values in description.facts)


def check(seed: int, kind: str) -> Behaviour:
    old, new, vocabulary = pair(seed)
    behaviour = compare(kind, "p" if kind == "predicate" else "t.q", old, new, vocabulary)
    facts = _facts(old, kind) | _facts(new, kind)
    own = (_own_space(old, facts), _own_space(new, facts))
    space = Space(Vocabulary(vocabulary.facts, ()), facts)
    states = [s for s in space.states() if own[0].allowed(s) or own[1].allowed(s)]
    f_old, f_new = _truth(old, kind, own[0]), _truth(new, kind, own[1])
    changed: dict[tuple, list[dict]] = {}
    for state in states:
        a, b = f_old(state), f_new(state)
        if not _same(a, b):
            changed.setdefault((a, b), []).append(state)
    where = f"seed {seed}, {kind}"
    assert behaviour.situations == len(states), where
    assert Counter({(t.old, t.old_reason, t.new, t.new_reason): t.situations for t in behaviour.transitions}) == \
        Counter({(a[0], a[1], b[0], b[1]): len(found) for (a, b), found in changed.items()}), where
    # the direction, as the former enumeration named it
    gained = any(b[0] is True for _, b in changed)
    lost = any(a[0] is True for a, _ in changed)
    other = any(a[0] is not True and b[0] is not True for a, b in changed)
    boolean = all(isinstance(x[0], (bool, type(None))) for pair_ in changed for x in pair_)
    expected = EQUIVALENT if not changed else (BROADENED if gained else NARROWED) \
        if boolean and not other and gained != lost else CHANGED
    assert behaviour.direction == expected, where
    # the witnesses: the two smallest of each kind, then all in the former enumeration's order
    domains = space.domains
    kinds: dict[str, list[dict]] = {"gained": [], "lost": [], "other": []}
    for (a, b), found in changed.items():
        kinds["gained" if b[0] is True else "lost" if a[0] is True else "other"].extend(found)
    expected_witnesses = sorted((s for found in kinds.values() for s in sorted(found, key=lambda s: _rank(s, domains))[:2]),
                                key=lambda s: _rank(s, domains))
    assert [dict(w.facts) for w in behaviour.witnesses] == expected_witnesses, where
    # the descriptions: inside, prime, and covering unless capped
    for t in behaviour.transitions:
        mine = changed[((t.old, t.old_reason), (t.new, t.new_reason))]
        described = set()
        for d in t.descriptions:
            named = [s for s in states if _inside(d, s)]
            assert all(s in mine for s in named) and len(named) == d.situations > 0, where
            described |= {tuple(sorted(s.items())) for s in named}
            for f, values in d.facts:  # no value can be added to any fact's set
                for v in domains[f]:
                    if v not in values:
                        wider = [s for s in states if s[f] == v and all(s[g] in vs for g, vs in d.facts if g != f)]
                        assert any(s not in mine for s in wider), (where, d.text, f, v)
        assert len(described) + t.undescribed == len(mine), where
        if len(t.descriptions) < 4:
            assert t.undescribed == 0, where
    return behaviour


SEEDS = range(300)


@pytest.mark.parametrize("start", range(0, 300, 50))
def test_decisions_agree_with_enumeration(start):
    for seed in range(start, start + 50):
        check(seed, "decision")


@pytest.mark.parametrize("start", range(0, 300, 100))
def test_predicates_agree_with_enumeration(start):
    for seed in range(start, start + 100):
        check(seed, "predicate")


def test_the_generated_pairs_reach_every_kind_of_change():
    """The generator is worth its runs: every direction, every reason for no answer (no such
    situation: two vocabularies' constraints), enum answers, capped descriptions and two
    vocabularies all occur."""
    seen: set[str] = set()
    for seed in SEEDS:
        old, new, vocabulary = pair(seed)
        b = compare("decision", "t.q", old, new, vocabulary)
        seen.add(b.direction)
        seen |= {r for t in b.transitions for r in (t.old_reason, t.new_reason) if r}
        seen |= {"enum" for t in b.transitions if isinstance(t.old, str) or isinstance(t.new, str)}
        seen |= {"capped" for t in b.transitions if t.undescribed}
        if old.own is not None:
            seen.add("two vocabularies")
    assert seen >= {BROADENED, NARROWED, CHANGED, EQUIVALENT, NO_RULE, NOT_ASKED, CONFLICT, NO_SITUATION, "enum",
                    "capped", "two vocabularies"}


def test_a_side_without_the_name_gives_no_answer_anywhere():
    old, new, vocabulary = pair(3)
    absent = Side(None, SimpleNamespace(decisions={}, rules={}, predicates={}), vocabulary, new.own)
    b = compare("decision", "t.q", old, absent, vocabulary)
    assert {t.new_reason for t in b.transitions} == {NOT_DEFINED}
    assert b.changed == sum(t.situations for t in b.transitions if t.old is not None)
