"""Time ``rulebook diff`` against ``diff -ru`` and against whole-model DeepDiff, in one run.

    python bench/bench_diff.py [--terms 5000] [--changed 0.05] [--repeat 3] [--seed 0] [--workdir DIR]

It generates (bench/gen.py) a rulebook of N terms in two editions, the second
changing a fraction of the terms, and writes each edition out as a full folder
of term files (overlays applied) for ``diff -ru``. Then, best of ``--repeat``,
interleaved so that machine noise touches all alike:

- ``diff -ru``: the two full folders (what a plain file diff costs);
- ``rulebook diff`` (cli): the command, in-process, loading and checking the
  rulebook and writing JSON to /dev/null: what a user waits for;
- diff stage: ``diff_editions`` on the loaded model (what the diff adds to a load);
- DeepDiff: plain ``DeepDiff`` of the two whole exported models
  (``edition_json``), already in memory, so it is not charged for loading;
- as a subprocess once, with the interpreter's start-up.

Then linearity: from the same rulebook, editions in which only the first K of
the changed terms take their new version (K doubling), timing the diff stage;
milliseconds per changed term stay flat when cost follows the change.

Targets (issue 4): at least 5x faster than whole-model DeepDiff and within
10x of ``diff -ru``. Ratios are computed within the run, never against fixed
numbers.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import io
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

from bench.gen import generate  # noqa: E402


def best(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def materialise(book_root: Path, edition_ids: list[str], out: Path) -> list[Path]:
    """Each edition as a folder with every term's file (later editions overlay earlier ones)."""
    folders = []
    current: dict[str, Path] = {}
    for eid in edition_ids:
        for path in sorted((book_root / "editions" / eid).glob("*.yaml")):
            current[path.name] = path
        folder = out / eid
        folder.mkdir(parents=True)
        for name, path in current.items():
            shutil.copyfile(path, folder / name)
        folders.append(folder)
    return folders


def run_diff_ru(a: Path, b: Path) -> None:
    subprocess.run(["diff", "-ru", str(a), str(b)], stdout=subprocess.DEVNULL, check=False)


def run_cli(root: Path, old: str, new: str) -> None:
    from click.testing import CliRunner

    from compiler.cli import main

    result = CliRunner().invoke(main, ["diff", old, new, "--rulebook", str(root), "--format", "json"])
    if result.exit_code != 0:
        raise SystemExit(f"rulebook diff failed: {result.output[:2000]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--terms", type=int, default=5000)
    parser.add_argument("--changed", type=float, default=0.05)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workdir", type=Path, default=None)
    args = parser.parse_args()

    from deepdiff import DeepDiff

    from compiler.build import load_rulebook
    from compiler.diff.engine import diff_editions
    from compiler.export import edition_json

    work = Path(args.workdir or tempfile.mkdtemp(prefix="bench-diff-"))
    root = work / "book"
    start = time.perf_counter()
    generate(args.terms, root, editions=2, changed=args.changed, seed=args.seed)
    old_id, new_id = "1.0.0", "2.0.0"
    folders = materialise(root, [old_id, new_id], work / "folders")
    gen_time = time.perf_counter() - start

    load_start = time.perf_counter()
    book = load_rulebook(root)
    load_time = time.perf_counter() - load_start
    old, new = book.edition(old_id), book.edition(new_id)
    changed = [t.id for t in new.terms if old.term_by_id.get(t.id) is None or old.term_by_id[t.id].digest != t.digest]
    result = diff_editions(book, old, book, new)
    old_json, new_json = edition_json(book, old), edition_json(book, new)

    timings = {"diff -ru": [], "rulebook diff (cli)": [], "diff stage": [], "DeepDiff": []}
    for _ in range(args.repeat):  # interleaved
        timings["diff -ru"].append(best(lambda: run_diff_ru(*folders), 1))
        with contextlib.redirect_stdout(io.StringIO()):
            timings["rulebook diff (cli)"].append(best(lambda: run_cli(root, old_id, new_id), 1))
        timings["diff stage"].append(best(lambda: diff_editions(book, old, book, new), 1))
        timings["DeepDiff"].append(best(lambda: DeepDiff(old_json, new_json), 1))
    t = {k: min(v) for k, v in timings.items()}

    sub_start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "compiler", "diff", old_id, new_id, "--rulebook", str(root),
                    "--format", "json"], stdout=subprocess.DEVNULL, check=True, cwd=ROOT)
    sub = time.perf_counter() - sub_start

    mb = sum(p.stat().st_size for p in root.rglob("*.yaml")) / 1e6
    print(f"rulebook: {args.terms} terms, 2 editions, {len(changed)} terms changed "
          f"({len(changed) / args.terms:.1%}), {mb:.1f} MB of YAML; generated in {gen_time:.1f}s; "
          f"{len(result.changes)} changes reported; load+check {load_time:.2f}s")
    print()
    print(f"{'what':<24}{'seconds':>10}")
    for name, seconds in t.items():
        print(f"{name:<24}{seconds:>10.3f}")
    print(f"{'rulebook diff (process)':<24}{sub:>10.3f}")
    print()
    print(f"DeepDiff / diff stage          {t['DeepDiff'] / t['diff stage']:8.1f}x   (target >= 5x)")
    print(f"DeepDiff / rulebook diff (cli) {t['DeepDiff'] / t['rulebook diff (cli)']:8.1f}x   "
          "(DeepDiff not charged for loading)")
    print(f"rulebook diff (cli) / diff -ru {t['rulebook diff (cli)'] / t['diff -ru']:8.1f}x   (target <= 10x)")
    print(f"diff stage / diff -ru          {t['diff stage'] / t['diff -ru']:8.1f}x")

    print()
    print("linearity: the diff stage with only the first K changed terms changed")
    print(f"{'K':>6}{'seconds':>10}{'ms/term':>10}")
    for k in _doubling(len(changed)):
        keep = set(changed[:k])
        terms = tuple(t if t.id in keep or t.id not in old.term_by_id else old.term_by_id[t.id]
                      for t in new.terms)
        partial = dataclasses.replace(new, terms=terms)
        seconds = min(best(lambda: diff_editions(book, old, book, partial), 1) for _ in range(args.repeat))
        print(f"{k:>6}{seconds:>10.3f}{1000 * seconds / k:>10.2f}")
    if args.workdir is None:
        shutil.rmtree(work, ignore_errors=True)


def _doubling(n: int) -> list[int]:
    ks, k = [], max(1, n // 16)
    while k < n:
        ks.append(k)
        k *= 2
    return ks + [n]


if __name__ == "__main__":
    main()
