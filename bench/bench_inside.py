"""Time the changes inside a clause (``rulebook_compiler.diff.inside.sub_changes``) against the clause's redline.

    python bench/bench_inside.py [--repeat 3] [--seed 0]

For clauses of growing size (a comma-separated card list and a paragraph of
sentences, N = 100 .. 3,200 units), one edit in 20 units (an item added, one
removed, a spelling fix, a word changed), it times ``sub_changes`` and the
word-level ``redline`` of the same two texts, best of ``--repeat``. The
redline is what every changed clause already costs; the ratio says what the
sub-changes add while the redline is word by word (``coarse`` says when it fell
back to sentences past its budget, and the ratio then compares unlike work),
and the time per unit whether they stay linear in N.
Ratios are computed within the run, never against fixed numbers.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_diff import best  # noqa: E402
from rulebook_compiler.diff.inside import sub_changes  # noqa: E402
from rulebook_compiler.diff.redline import redline  # noqa: E402

WORDS = ("card", "hero", "evil", "battle", "site", "soul", "lost", "fortress", "enhancement", "artifact",
         "dominant", "curse", "covenant", "territory", "deck", "hand", "discard", "reserve", "banish", "heal")


def _name(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(WORDS).title() for _ in range(1 + n % 3)) + f" {n}"


def _edit(rng: random.Random, units: list[str], sentence: bool) -> list[str]:
    out = []
    for i, unit in enumerate(units):
        step = i % 20
        if step == 0:
            out += [unit, (f"A new rule number {i} applies." if sentence else f"New Card {i}")]
        elif step == 5:
            continue  # removed
        elif step == 10:
            out.append(unit.replace("e", "ee", 1))  # a spelling change
        elif step == 15:
            out.append(unit.replace(unit.split()[0], rng.choice(WORDS), 1))  # a word change
        else:
            out.append(unit)
    return out


def texts(n: int, sentence: bool, seed: int) -> tuple[str, str]:
    rng = random.Random(seed)
    if sentence:
        units = [f"When a {rng.choice(WORDS)} is {rng.choice(WORDS)}ed, the {rng.choice(WORDS)} number {i} "
                 f"goes to the {rng.choice(WORDS)}." for i in range(n)]
        return " ".join(units), " ".join(_edit(rng, units, True))
    units = [_name(rng, i) for i in range(n)]
    edited = _edit(rng, units, False)
    return ("Abilities: " + ", ".join(units[:-1]) + ", and " + units[-1] + ".",
            "Abilities: " + ", ".join(edited[:-1]) + ", and " + edited[-1] + ".")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print(f"{'shape':>9} {'units':>6} {'subs':>5} {'redline s':>10} {'coarse':>6} {'inside s':>9} "
          f"{'inside/redline':>15} {'inside us/unit':>15}")
    for shape in ("list", "paragraph"):
        for n in (100, 200, 400, 800, 1600, 3200):
            old, new = texts(n, shape == "paragraph", args.seed)
            count = len(sub_changes(old, new))
            line = best(lambda: redline(old, new), args.repeat)
            inside = best(lambda: sub_changes(old, new), args.repeat)
            coarse = "yes" if redline(old, new).coarse else "no"
            print(f"{shape:>9} {n:>6} {count:>5} {line:>10.4f} {coarse:>6} {inside:>9.4f} {inside / line:>15.2f} "
                  f"{inside / n * 1e6:>15.1f}")


if __name__ == "__main__":
    main()
