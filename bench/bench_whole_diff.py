"""Time the whole-rulebook ``rulebook diff git:A git:B`` against one edition's ``git:A:LATEST git:B:LATEST``.

    python bench/bench_whole_diff.py [--terms 1000] [--editions 4] [--repeat 3] [--seed 0] [--workdir DIR]

It generates (bench/gen.py) a rulebook of N terms in E editions in a scratch
git repository (commit A), then rewords one clause of a term that the
second edition changes and the third changes again (commit B): one edition's
content differs, and it is not the latest. Then, interleaved so that machine
noise touches both alike, median of ``--repeat``, each as a process (the
interpreter's start-up and the reading of both revisions from git included):

- *latest only*: ``git:A:LATEST git:B:LATEST``, which is what ``git:A git:B``
  compared before the whole-rulebook diff (and which finds no change here);
- *whole*: ``git:A git:B``, every edition and the record, which diffs the one
  edition that differs;

each *warm* (the cache holds both revisions' check results from an earlier run)
and *cold* (``--no-cache``: both revisions loaded and checked in full). The
whole diff should cost the latest-only one plus one edition's diff and a
look at each edition's term hashes: cost follows the change, not the number
of editions.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

from bench.gen import generate  # noqa: E402


def git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.email=b@example.org", "-c", "user.name=B", *args], cwd=cwd, check=True,
                   capture_output=True)


def scratch(work: Path, terms: int, editions: int, seed: int) -> tuple[Path, str]:
    """The repository with commits A and B; the latest edition's id."""
    repo = work / "repo"
    book = generate(terms, repo / "rulebook", editions=editions, seed=seed)
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "A")
    git(repo, "tag", "A")
    ids = sorted(p.name for p in (book / "editions").iterdir())  # gen.py numbers them 1.0.0, 2.0.0, ...
    second, third = book / "editions" / ids[1], book / "editions" / ids[2]
    name = sorted({p.name for p in second.iterdir()} & {p.name for p in third.iterdir()})[0]
    path = second / name
    lines = path.read_text(encoding="utf-8").split("\n")
    # A plain scalar on its line (not quoted, not a block): a word put before it keeps it plain YAML.
    at = next(i for i, line in enumerate(lines) if re.match(r"\s*text: [A-Za-z]", line))
    lines[at] = lines[at].replace("text: ", "text: Reworded, ", 1)
    path.write_text("\n".join(lines), encoding="utf-8")
    git(repo, "commit", "-qam", "B")
    git(repo, "tag", "B")
    return repo, ids[-1]


def timed(args: list[str], env: dict) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "rulebook_compiler", "diff", *args], env=env, check=True,
                   stdout=subprocess.DEVNULL, cwd=tempfile.gettempdir())
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--terms", type=int, default=1000)
    parser.add_argument("--editions", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workdir", type=Path)
    args = parser.parse_args(argv)
    if args.editions < 3:
        parser.error("--editions must be at least 3 (the edited edition is neither the first nor the latest)")
    work = args.workdir or Path(tempfile.mkdtemp(prefix="bench-whole-diff-"))
    repo, latest = scratch(work, args.terms, args.editions, args.seed)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "RULEBOOK_CACHE_DIR": str(work / "cache")}
    env.pop("RULEBOOK_NO_CACHE", None)
    book = ["--rulebook", str(repo / "rulebook")]
    ways = {"latest only": [f"git:A:{latest}", f"git:B:{latest}"], "whole": ["git:A", "git:B"]}
    for sides in ways.values():
        timed([*sides, *book], env)  # fills the cache (and the interpreter's bytecode cache)
    first = subprocess.run([sys.executable, "-m", "rulebook_compiler", "diff", *ways["whole"], *book], env=env, check=True,
                           capture_output=True, text=True, cwd=tempfile.gettempdir()).stdout.split("\n")[0]
    print(f"the whole diff says: {first}")
    print("load average at the start: " + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    times: dict[tuple[str, str], list[float]] = {}
    for _ in range(args.repeat):
        for mode, extra in (("warm", []), ("cold", ["--no-cache"])):
            for way, sides in ways.items():
                times.setdefault((way, mode), []).append(timed([*sides, *book, *extra], env))
    print(f"{args.terms} terms, {args.editions} editions, one clause of a middle edition reworded; "
          f"median of {args.repeat}, as a process")
    print("| | warm s | cold (--no-cache) s |")
    print("|---|---|---|")
    for way in ways:
        print(f"| {way} | {statistics.median(times[(way, 'warm')]):.2f} | {statistics.median(times[(way, 'cold')]):.2f} |")
    for mode in ("warm", "cold"):
        ratio = statistics.median(times[("whole", mode)]) / statistics.median(times[("latest only", mode)])
        print(f"whole / latest only, {mode}: {ratio:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
