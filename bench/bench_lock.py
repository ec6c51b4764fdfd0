"""What the lock adds to `rulebook check`: digests of every published edition, against the build.

    python bench/bench_lock.py [--terms 1000] [--repeat 3] [--workdir DIR]

Generates a synthetic rulebook (``bench/gen.py``, two editions, both set
published), locks it, then times, best of ``--repeat``, the build of the
model (``build.load_rulebook``) and the lock's comparison of every published
edition with its entry (``lock.problems``: a canonical JSON and a SHA-256 per
term, clause, fact and constraint). The ratio says what share of a check
the lock costs; it should stay flat as the rulebook grows (both are linear).
Then, as ``rulebook serve`` rebuilds (``build.remembering``), a load after a
one-clause edit checked without the lock and with it: the lock's digests of the
terms reused are kept, so the ratio should stay near 1.
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
from rulebook_compiler import lock  # noqa: E402
from rulebook_compiler.build import load_rulebook  # noqa: E402
from rulebook_compiler.fileio import write_text  # noqa: E402


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
    unlocked, locked = rebuilds(root, args.repeat)
    print(f"a rebuild after a one-clause edit, as serve's (build.remembering): check without the lock "
          f"{unlocked:.2f} s, with it {locked:.2f} s, ratio {locked / unlocked:.2f}")


def rebuilds(root: Path, repeat: int) -> tuple[float, float]:
    """Best of ``repeat`` remembering loads after an edit to one clause of the latest edition, with
    ``build.check`` not comparing the lock and comparing it (each edit another, so each load reads it)."""
    import time

    from rulebook_compiler import build

    victim = sorted(sorted((root / "editions").iterdir())[-1].glob("*.yaml"))[0]
    original = victim.read_text(encoding="utf-8")
    times: dict[bool, list[float]] = {False: [], True: []}
    with build.remembering():
        build.check(root)
        for n in range(repeat):
            for locked in (False, True):
                time.sleep(0.01)  # another modification time
                victim.write_text(original.replace("text: ", "text: " + "x" * (2 * n + locked + 1), 1),
                                  encoding="utf-8")
                start = time.perf_counter()
                build.check(root, locked=locked)
                times[locked].append(time.perf_counter() - start)
    victim.write_text(original, encoding="utf-8")
    return min(times[False]), min(times[True])


if __name__ == "__main__":
    main()
