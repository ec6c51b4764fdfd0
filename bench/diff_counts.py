"""Time the diff's behaviour comparison (exact counts, descriptions, witnesses) on generated decisions.

The decisions are the shape of bench/symbolic_candidates.py's (issue 10): N
boolean facts, N/2 rules each a conjunction of 2-3 literals answering yes or
no, every third rule an exception to the one before, and optionally 30
constraints tying the facts to 30 other facts ("never a and x7"). The new
edition negates the first literal of every fourth rule and flips the answer
of every fifth, so the comparison has several ways the answer changed to
count and describe.

Each row times ``compare`` (rulebook_compiler/diff/behaviour.py) on a fresh pair of
sides and a fresh core: the sets of both sides, the allowed space, the exact
counts, the descriptions and the witnesses. The baseline, in the same run,
is the former method on the 10-fact decisions: every allowed situation
evaluated by the reference evaluator on both sides (what the diff did before
the symbolic core, without its step budget); it is not run past 10 facts
(2**20 situations and more, times the linked facts' combinations).

Run: python bench/diff_counts.py [--sizes 10,20,40,80] [--repeat 3]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from types import SimpleNamespace

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rulebook_compiler.conditions import All, Not, Ref  # noqa: E402
from rulebook_compiler.diagnostics import Location  # noqa: E402
from rulebook_compiler.diff.behaviour import Side, compare  # noqa: E402
from rulebook_compiler.evaluate import DecisionModel, Space  # noqa: E402
from rulebook_compiler.model import Constraint, Decision, Fact, Rule, Vocabulary  # noqa: E402

HERE = Location("bench.yaml", 1, 1)
LINKED = 30


def vocabulary(n: int, linked: bool, seed: int = 7) -> Vocabulary:
    rng = random.Random(seed * 1000 + n)
    facts = [Fact(f"f{i:02d}", "bool", (), "F.", HERE) for i in range(n)]
    constraints = []
    if linked:
        facts += [Fact(f"x{j:02d}", "bool", (), "X.", HERE) for j in range(LINKED)]
        for j in range(LINKED):
            a = Ref(f"f{rng.randrange(n):02d}")
            constraints.append(Constraint(f"k{j}", "K.", All((a if rng.random() < 0.5 else Not(a), Ref(f"x{j:02d}"))),
                                          HERE))
    return Vocabulary(tuple(facts), tuple(constraints))


def rules(n: int, seed: int = 7, changed: bool = False) -> tuple[Rule, ...]:
    rng = random.Random(seed * 1000 + n + 1)
    out = []
    for i in range(max(2, n // 2)):
        picked = rng.sample(range(n), rng.choice((2, 3)))
        lits = [(f, rng.random() < 0.6) for f in picked]
        value = rng.random() < 0.5
        if changed and i % 4 == 0:
            lits[0] = (lits[0][0], not lits[0][1])
        if changed and i % 5 == 0:
            value = not value
        when = All(tuple(Ref(f"f{f:02d}") if pol else Not(Ref(f"f{f:02d}")) for f, pol in lits))
        exception = (f"t#c{i - 1}",) if i % 3 == 2 else ()
        out.append(Rule("t.q", f"t#c{i}", "value", when, value, None, exception, None, None, HERE))
    return tuple(out)


def edition(n: int, changed: bool) -> SimpleNamespace:
    decision = Decision("t.q", "bool", (), "Q.", None, "t", HERE)
    return SimpleNamespace(decisions={"t.q": decision}, rules={"t.q": rules(n, changed=changed)}, predicates={})


def symbolic(n: int, linked: bool):
    v = vocabulary(n, linked)
    old, new = Side(None, edition(n, False), v), Side(None, edition(n, True), v)
    return compare("decision", "t.q", old, new, v)


def enumerated(n: int, linked: bool) -> int:
    """The former method: both sides evaluated in every allowed situation; the number that differ."""
    v = vocabulary(n, linked)
    old = DecisionModel(v, edition(n, False), "t.q")
    new = DecisionModel(v, edition(n, True), "t.q")
    space = Space(v, set(old.facts) | set(new.facts))
    return sum(1 for s in space.states() if old.evaluate(s).answer != new.evaluate(s).answer)


def best(fn, repeat: int) -> tuple[float, object]:
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return min(times), result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10,20,40,80")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    print("| facts | linked | situations | changed | transitions | descriptions | compare ms | x 10 facts |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    symbolic(10, False)  # loads dd.cudd: not part of any row
    first: dict[bool, float] = {}
    for linked in (False, True):
        for n in sizes:
            seconds, b = best(lambda: symbolic(n, linked), args.repeat)
            first.setdefault(linked, seconds)
            print(f"| {n} | {LINKED if linked else '-'} | {b.situations:,} | {b.changed:,} | {len(b.transitions)} "
                  f"| {sum(len(t.descriptions) for t in b.transitions)} | {seconds * 1000:,.1f} "
                  f"| {seconds / first[linked]:.1f} |")
    print()
    print("Baseline, the former method (every allowed situation evaluated on both sides), 10 facts:")
    for linked in (False, True):
        seconds, changed = best(lambda: enumerated(10, linked), args.repeat)
        mine, b = best(lambda: symbolic(10, linked), args.repeat)
        assert changed == b.changed, (changed, b.changed)  # the same count both ways
        print(f"  linked {LINKED if linked else '-'}: enumeration {seconds * 1000:,.1f} ms, symbolic "
              f"{mine * 1000:,.1f} ms ({seconds / mine:.1f}x), {changed} situations changed either way")


if __name__ == "__main__":
    main()
