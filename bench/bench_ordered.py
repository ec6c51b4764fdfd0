"""Time comparisons of ordered facts against the spelled-out conditions they replace.

    python bench/bench_ordered.py [--repeat 5] [--width 200]

Interleaved, best of ``--repeat``, in one run:

- nine rules / one comparison: evaluating ``ability_activation.activates`` of
  tests/fixtures/ordered in all 81 situations, as edition o1 writes it (nine
  rules with spelled-out ``in`` lists) and as o2 does (one comparison of two facts);
- in list / comparison: an ordered fact of ``--width`` values, a condition
  ``{at_most: {f: middle}}`` against ``{in: {f: [first ... middle]}}``,
  compiled once and called on every value 200 times;
- check: loading the fixture and the logic checks of edition o1 (nine rules)
  against those of o2 (one comparison).

It prints the seconds and the ratios; nothing is asserted (tests hold no timings).
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Callable

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

from rulebook_compiler import conditions as C  # noqa: E402
from rulebook_compiler.build import load_rulebook  # noqa: E402
from rulebook_compiler.evaluate import DecisionModel  # noqa: E402
from rulebook_compiler.logic import logic_problems  # noqa: E402

FIXTURE = ROOT / "tests" / "fixtures" / "ordered"


def best(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--width", type=int, default=200)
    args = parser.parse_args()

    book = load_rulebook(FIXTURE)
    nine = DecisionModel(book.edition("o1").vocabulary, book.edition("o1"), "ability_activation.activates")
    one = DecisionModel(book.edition("o2").vocabulary, book.edition("o2"), "ability_activation.activates")
    states = list(one.states())

    def run(model: DecisionModel) -> Callable[[], object]:
        return lambda: [model.outcome(s) for _ in range(50) for s in states]

    order = tuple(f"v{i}" for i in range(args.width))
    middle = order[len(order) // 2]
    listed = C.compile_condition(C.In("f", order[:len(order) // 2 + 1]), {})
    compared = C.compile_condition(C.Cmp("f", "at_most", middle), {}, orders={"f": order})
    cells = [{"f": v} for v in order]

    def call(f) -> Callable[[], object]:
        return lambda: [f(s) for _ in range(200) for s in cells]

    def check(edition: str) -> Callable[[], object]:
        def go():
            b = load_rulebook(FIXTURE)
            return logic_problems(replace(b, editions=(b.edition(edition),)))
        return go

    pairs = [("evaluate: nine rules", run(nine), "one comparison", run(one)),
             ("condition: in list", call(listed), "comparison", call(compared)),
             ("check: nine rules (o1)", check("o1"), "one comparison (o2)", check("o2"))]
    for base_name, base, other_name, other in pairs:
        a = b = float("inf")
        for _ in range(args.repeat):  # interleaved: noise touches both alike
            a = min(a, best(base, 1))
            b = min(b, best(other, 1))
        print(f"{base_name}: {a * 1000:.2f} ms; {other_name}: {b * 1000:.2f} ms; ratio {b / a:.2f}")


if __name__ == "__main__":
    main()
