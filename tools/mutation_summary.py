"""Killed / total mutants per module, from ``mutmut results --all true`` on stdin.

Usage: python3 -m mutmut results --all true | python3 tools/mutation_summary.py [GLOB...]
A mutant name is ``module.function__mutmut_N``; the module is the dotted path up to the
function (``x_name`` for a function, ``xǁClassǁmethod`` for a method).
"""

from __future__ import annotations

import fnmatch
import re
import sys
from collections import Counter, defaultdict

LINE = re.compile(r"^\s*(?P<name>\S+__mutmut_\d+): (?P<status>.+?)\s*$")


def module_of(name: str) -> str:
    parts = name.split(".")
    for i, part in enumerate(parts):
        if part.startswith(("x_", "xǁ")):
            return ".".join(parts[:i])
    return ".".join(parts[:-1])


def main(globs: list[str]) -> None:
    by_module: dict[str, Counter] = defaultdict(Counter)
    for line in sys.stdin:
        m = LINE.match(line)
        if m and (not globs or any(fnmatch.fnmatch(m["name"], g) for g in globs)):
            by_module[module_of(m["name"])][m["status"]] += 1
    for module in sorted(by_module):
        counts = by_module[module]
        total = sum(counts.values())
        killed = counts["killed"] + counts["timeout"]
        rest = ", ".join(f"{n} {s}" for s, n in sorted(counts.items()) if s not in ("killed", "timeout"))
        print(f"{module}: {killed}/{total} killed ({100 * killed / total:.1f}%)" + (f"; {rest}" if rest else ""))


if __name__ == "__main__":
    main(sys.argv[1:])
