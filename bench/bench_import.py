"""The import's bounded steps (issue 23): metadata lines, ids, titles; each linear in its input.

    python bench/bench_import.py [--line 8000] [--ids 3000] [--entries 3000] [--repeat 3]

Each step is timed for N and for 2N (a line of N characters, N clauses with the
same first words, N entries), best of ``--repeat``; the ratio of the two times
is about 2 when the cost is linear, 4 when it is quadratic. Each is run beside
the form it replaced (the baseline, timed in the same run): the metadata
pattern with two ``\\s*`` in a row, the id probe that walks name-2, name-3 ...
for each duplicate, and ``titles.count`` per entry.
"""

from __future__ import annotations

import argparse
import re
import time
from collections import Counter
from typing import Callable

from rulebook_compiler.importer.convert import repeated
from rulebook_compiler.importer.ids import Ids
from rulebook_compiler.importer.layouts import LAYOUTS

BEFORE = re.compile(r"\s*Last Updated:\s*(\S+)\s*(?:\(v([^)\s]+)\))?\s*")
NOW = LAYOUTS["reg"]._UPDATED


def best(step: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        step()
        times.append(time.perf_counter() - start)
    return min(times)


def line(n: int) -> str:
    # what pdftotext gives for a wide table cell: a date, then a long run of spaces before more text
    return "Last Updated: 3/13/2026" + " " * n + "x"


def old_unique(wanted: str, taken: set[str]) -> str:
    name, n = wanted, 1
    while name in taken:
        n += 1
        name = f"{wanted}-{n}"
    taken.add(name)
    return name


def ids_now(n: int) -> None:
    ids = Ids()
    for _ in range(n):
        ids.take("the-same-first-five-words")


def ids_before(n: int) -> None:
    taken: set[str] = set()
    for _ in range(n):
        old_unique("the-same-first-five-words", taken)


def titles_before(titles: list[str]) -> None:
    for title in titles:
        titles.count(title)


def titles_now(titles: list[str]) -> None:
    shared = repeated(titles)
    for title in titles:
        title in shared


def row(name: str, n: int, now: Callable[[int], object], before: Callable[[int], object], repeat: int) -> None:
    t_now, t_now2 = best(lambda: now(n), repeat), best(lambda: now(2 * n), repeat)
    t_old, t_old2 = best(lambda: before(n), repeat), best(lambda: before(2 * n), repeat)
    print(f"{name:<28} N={n:>6}: now {t_now:.4f} s, 2N {t_now2:.4f} s (x{t_now2 / t_now:.1f}); "
          f"before {t_old:.4f} s, 2N {t_old2:.4f} s (x{t_old2 / t_old:.1f}); before/now at 2N {t_old2 / t_now2:.0f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--line", type=int, default=8000)
    parser.add_argument("--ids", type=int, default=3000)
    parser.add_argument("--entries", type=int, default=3000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    assert NOW.fullmatch(line(10)) is None and BEFORE.fullmatch(line(10)) is None
    row("'Last Updated' line", args.line, lambda n: NOW.fullmatch(line(n)), lambda n: BEFORE.fullmatch(line(n)),
        args.repeat)
    row("ids with one slug", args.ids, ids_now, ids_before, args.repeat)
    titles = lambda n: [f"title-{i % (n // 2)}" for i in range(n)]  # noqa: E731 - half of them shared
    row("entry titles", args.entries, lambda n: titles_now(titles(n)), lambda n: titles_before(titles(n)),
        args.repeat)
    assert Counter(titles(4)) == Counter({"title-0": 2, "title-1": 2})


if __name__ == "__main__":
    main()
