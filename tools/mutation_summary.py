"""Killed / total mutants per module, from ``mutmut results --all true`` on stdin.

Usage: python3 -m mutmut results --all true | python3 tools/mutation_summary.py [GLOB...]
A mutant name is ``module.function__mutmut_N``; the module is the dotted path up to the
function (``x_name`` for a function, ``xǁClassǁmethod`` for a method).

Mutants listed in tools/mutation_equivalent.txt (reviewed: no test can tell them from the code,
each with its reason) are counted out of the denominator: the rate printed is killed / (total less
equivalent less not run). A listed mutant that a test kills is counted as killed (and should leave
the list).
"""

from __future__ import annotations

import fnmatch
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

LINE = re.compile(r"^\s*(?P<name>\S+__mutmut_\d+): (?P<status>.+?)\s*$")
EQUIVALENT_FILE = Path(__file__).with_name("mutation_equivalent.txt")
KILLED = ("killed", "timeout")
NOT_RUN = ("not checked", "no tests", "skipped")


def module_of(name: str) -> str:
    parts = name.split(".")
    for i, part in enumerate(parts):
        if part.startswith(("x_", "xǁ")):
            return ".".join(parts[:i])
    return ".".join(parts[:-1])


def equivalent(path: Path = EQUIVALENT_FILE) -> dict[str, str]:
    """The reviewed equivalent mutants: ``NAME  reason`` a line; ``#`` starts a comment."""
    out: dict[str, str] = {}
    if not path.is_file():
        return out
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            name, _, reason = line.partition(" ")
            out[name] = reason.strip()
    return out


def summary(lines, globs: list[str], reviewed: dict[str, str]) -> list[str]:
    by_module: dict[str, Counter] = defaultdict(Counter)
    for line in lines:
        m = LINE.match(line)
        if m and (not globs or any(fnmatch.fnmatch(m["name"], g) for g in globs)):
            status = m["status"]
            if status not in KILLED and m["name"] in reviewed:
                status = "equivalent"
            by_module[module_of(m["name"])][status] += 1
    out = []
    for module in sorted(by_module):
        counts = by_module[module]
        total = sum(counts.values())
        killed = sum(counts[s] for s in KILLED)
        judged = total - counts["equivalent"] - sum(counts[s] for s in NOT_RUN)
        rate = f"{100 * killed / judged:.1f}%" if judged else "-"
        rest = ", ".join(f"{n} {s}" for s, n in sorted(counts.items()) if s not in KILLED)
        out.append(f"{module}: {killed}/{total} killed; {killed}/{judged} of the non-equivalent run ({rate})"
                   + (f"; {rest}" if rest else ""))
    return out


def main(globs: list[str]) -> None:
    print("\n".join(summary(sys.stdin, globs, equivalent())))


if __name__ == "__main__":
    main(sys.argv[1:])
