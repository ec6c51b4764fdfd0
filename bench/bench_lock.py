"""What the lock adds to `rulebook check`: digests of every published edition, against the build.

    python bench/bench_lock.py [--terms 1000] [--repeat 3] [--workdir DIR]

Generates a synthetic rulebook (``bench/gen.py``, two editions, both set
published), locks it, then times, best of ``--repeat``, the build of the
model (``build.load_rulebook``) and the lock's comparison of every published
edition with its entry (``lock.problems``: a canonical JSON and a SHA-256 per
term, clause, fact and constraint). The ratio says what share of a check
the lock costs; it should stay flat as the rulebook grows (both are linear).
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_diff import best  # noqa: E402
from bench.gen import generate  # noqa: E402
from compiler import lock  # noqa: E402
from compiler.build import load_rulebook  # noqa: E402
from compiler.fileio import write_text  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--terms", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--workdir", type=Path, default=None)
    args = parser.parse_args()
    work = args.workdir or Path(tempfile.mkdtemp(prefix="bench-lock-"))
    root = work / "rulebook"
    generate(args.terms, root, editions=2, changed=0.05, seed=0)
    main_file = root / "rulebook.yaml"
    main_file.write_text(re.sub(r"status: draft", "status: published", main_file.read_text()), encoding="utf-8")
    book = load_rulebook(root)
    write_text(root / lock.LOCK_FILE, lock.lock_text({e.id: lock.edition_entry(e) for e in book.editions}))
    assert lock.problems(book) == []
    build = best(lambda: load_rulebook(root), args.repeat)
    check = best(lambda: lock.problems(book), args.repeat)
    clauses = sum(len(t.clauses) for e in book.editions for t in e.terms)
    print(f"terms {args.terms}, editions {len(book.editions)}, clauses locked {clauses}: "
          f"build {build:.2f} s, lock check {check:.2f} s, ratio {check / build:.2f}")


if __name__ == "__main__":
    main()
