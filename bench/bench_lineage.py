"""Declared lineage composed between editions: linear in the number of declarations.

    python bench/bench_lineage.py [--declarations 4000] [--editions 3] [--repeat 3]

Times ``rulebook_compiler.diff.lineage.declared_groups``'s composition for N and for 4N
declared renames in each of E editions (each edition renames every clause the
one before renamed, so every chain runs through every edition), best of
``--repeat``, with the cyclic collector paused as the diff command pauses it.
The ratio of the two times is about 4 when the cost follows the number of
declarations, 16 when it is quadratic (a scan of every declaration per clause,
as the first version did: 0.53 s for 1,000 renames in one edition, 5.4 s for
4,000).
"""

from __future__ import annotations

import argparse
import gc
import time

from rulebook_compiler.diff.lineage import _compose
from rulebook_compiler.model import Lineage


def steps(n: int, editions: int) -> list[tuple[Lineage, ...]]:
    return [tuple(Lineage(f"t{i}#c{k + 1}", "formerly", (f"t{i}#c{k}",)) for i in range(n))
            for k in range(editions)]


def best(n: int, editions: int, repeat: int) -> float:
    data = steps(n, editions)
    times = []
    gc.disable()  # as `rulebook diff` runs: no automatic collection rescanning what is kept
    try:
        for _ in range(repeat):
            start = time.perf_counter()
            groups = _compose(data)
            times.append(time.perf_counter() - start)
            assert len(groups) == n
    finally:
        gc.enable()
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--declarations", type=int, default=4000)
    parser.add_argument("--editions", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    small = best(args.declarations, args.editions, args.repeat)
    large = best(4 * args.declarations, args.editions, args.repeat)
    print(f"{args.declarations} renames x {args.editions} editions: {small:.3f} s; "
          f"{4 * args.declarations}: {large:.3f} s; ratio {large / small:.1f} (linear: ~4, quadratic: ~16)")


if __name__ == "__main__":
    main()
