"""Every K-th mutant of a module, for a sampled run when the whole module takes too long.

Usage: python3 -m mutmut results --all true | python3 tools/mutation_sample.py 'rulebook_compiler.build.*' 20
Prints the first mutant matching the glob and every K-th after it, in mutmut's order (by
function as they appear in the file, then by number): a deterministic, systematic sample over
every function. Run them with ``tools/mutation.sh $(...)`` and count them with
``python3 -m mutmut results --all true | python3 tools/mutation_summary.py $(...)``.
"""

from __future__ import annotations

import fnmatch
import re
import sys

LINE = re.compile(r"^\s*(?P<name>\S+__mutmut_\d+): ")


def main(glob: str, every: int) -> None:
    names = [m["name"] for line in sys.stdin if (m := LINE.match(line)) and fnmatch.fnmatch(m["name"], glob)]
    print("\n".join(names[::every]))


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
