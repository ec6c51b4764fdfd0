"""Time the checks of a term's table (rulebook_compiler/tables.py) at n and 4n rows, as a ratio.

    python bench/bench_tables.py [--rows 2000] [--repeat 3]

One run, best of ``--repeat``, for n and 4n rows each:

- one key: a table over one enum fact, one row per value, split one row per
  clause, with an ``otherwise`` row (the bundled Targeting table's shape);
- two keys: rows over (ability, card_type), ten card types per ability.

Each measures ``tables.overlaps`` and ``tables.uncovered`` on the rows. Linear
work gives a ratio near 4; comparing every pair of rows (as the first version
did: 6,000 one-key rows took a minute to check) gives 16. It prints the
seconds and the ratios; nothing is asserted (tests hold no timings).
"""

from __future__ import annotations

import argparse
import gc
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from bench.bench_ordered import best  # noqa: E402  (best of N timings, shared)
from rulebook_compiler import tables  # noqa: E402
from rulebook_compiler.model import Table, TableRow  # noqa: E402


def one_key(n: int):
    rows = [(Table("d", "ability", (row := TableRow((f"v{i}",), "a"),)), row) for i in range(n)]
    return rows, {"ability": tuple(f"v{i}" for i in range(n + 1))}


def two_keys(n: int):
    types = tuple(f"t{k}" for k in range(10))
    table_rows = tuple(TableRow((f"v{i // 10}",), "a", ((types[i % 10],),)) for i in range(n))
    table = Table("d", "ability", table_rows, ("card_type",), None, True)
    return [(table, r) for r in table_rows], {"ability": tuple(f"v{i}" for i in range(n // 10 + 1)),
                                              "card_type": types}


def measure(make, n: int, repeat: int) -> float:
    """Best time of both checks; the cyclic GC paused, as check pauses it while it builds."""
    rows, domains = make(n)

    def run():
        assert tables.overlaps(rows) == []
        assert tables.uncovered(rows, domains) is True
    gc.disable()
    try:
        return best(run, repeat)
    finally:
        gc.enable()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    for name, make in (("one key", one_key), ("two keys", two_keys)):
        small = measure(make, args.rows, args.repeat)
        large = measure(make, 4 * args.rows, args.repeat)
        print(f"{name}: {args.rows} rows {small:.4f} s, {4 * args.rows} rows {large:.4f} s, ratio {large / small:.2f}")


if __name__ == "__main__":
    main()
