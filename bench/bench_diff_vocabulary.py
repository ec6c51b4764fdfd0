"""The diff stage when the vocabulary changes: the names a changed fact reaches are compared too.

    python bench/bench_diff_vocabulary.py [--terms 1000] [--repeat 3] [--seed 0]

Generates (bench/gen.py) a rulebook of N terms in two editions and times, best
of ``--repeat``, interleaved, ``diff_sources`` on the loaded editions:

- baseline: edition 1 -> edition 2, one vocabulary, in which an enum fact
  is made ordered (the generator writes none; its rules read it with ``is`` and
  ``in`` tests, which read the same in any order);
- the same, the new side's vocabulary inserting a value into that fact's
  order: every predicate and decision that reads the fact is compared as well
  (``rulebook_compiler.diff.vocabulary.readers``), the worst case (a fact many terms read);
- the vocabulary only: edition 2 against itself with that vocabulary (no term
  differs; only the names that read the fact are compared);
- the same two with the fact left unordered and a value added to it: the names
  that read it and whose rules did not change are compared with the old side
  lacking the value (``rulebook_compiler.diff.vocabulary.lacking``), those whose rules
  changed over both vocabularies as before;
- a constraint withdrawn in the new side's vocabulary (the fact unchanged):
  each side is read with its own constraints (``rulebook_compiler.diff.behaviour.spaces``),
  so each compared name that reads a fact the constraint ties pays for two
  allowed spaces, not one; the names whose rules did not change and that read
  a fact the constraint tests are compared too (``rulebook_compiler.diff.vocabulary.ruling``);
- the same, the vocabulary only (edition 2 against itself): only those names.

Ratios are against the baseline of the same run, never against fixed numbers.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.gen import generate  # noqa: E402
from rulebook_compiler.build import load_rulebook  # noqa: E402
from rulebook_compiler.diff.engine import diff_sources  # noqa: E402
from rulebook_compiler.diff.source import FullSource  # noqa: E402
from rulebook_compiler.model import Vocabulary  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--terms", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-diff-vocabulary-") as tmp:
        book = load_rulebook(generate(args.terms, Path(tmp) / "book", editions=2, seed=args.seed))
    old, new = book.editions[0], book.editions[1]
    fact = next(f for f in new.vocabulary.facts if f.type == "enum")

    def with_fact(values: tuple[str, ...], ordered: bool = True) -> Vocabulary:
        return Vocabulary(tuple(dataclasses.replace(f, values=values, ordered=ordered) if f.name == fact.name else f
                                for f in new.vocabulary.facts), new.vocabulary.constraints)

    vocabulary = with_fact(fact.values)
    grown = with_fact(fact.values[:1] + ("bench_value",) + fact.values[1:])
    unordered = with_fact(fact.values, ordered=False)
    added = with_fact(fact.values + ("bench_value",), ordered=False)
    withdrawn = Vocabulary(vocabulary.facts, vocabulary.constraints[1:])
    runs = {
        "baseline": lambda: diff_sources(FullSource(old), vocabulary, FullSource(new), vocabulary),
        "value inserted": lambda: diff_sources(FullSource(old), vocabulary, FullSource(new), grown),
        "vocabulary only": lambda: diff_sources(FullSource(new), vocabulary, FullSource(new), grown),
        "unordered added": lambda: diff_sources(FullSource(old), unordered, FullSource(new), added),
        "unordered only": lambda: diff_sources(FullSource(new), unordered, FullSource(new), added),
        "constraint gone": lambda: diff_sources(FullSource(old), vocabulary, FullSource(new), withdrawn),
        "constraint only": lambda: diff_sources(FullSource(new), vocabulary, FullSource(new), withdrawn),
    }
    times = {k: float("inf") for k in runs}
    results = {}
    for _ in range(args.repeat):
        for key, run in runs.items():
            start = time.perf_counter()
            results[key] = run()
            times[key] = min(times[key], time.perf_counter() - start)
    print(f"{args.terms} terms; fact {fact.name} gains a value in the new side's vocabulary")
    for key in runs:
        r = results[key]
        print(f"  {key:16} {times[key]:6.3f} s  ratio {times[key] / times['baseline']:5.2f}  "
              f"names compared {len(r.behaviours):4}  listed {len(r.names):3}  changes {len(r.changes)}")


if __name__ == "__main__":
    main()
