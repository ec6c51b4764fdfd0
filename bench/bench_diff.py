"""Time ``rulebook diff`` against ``diff -ru`` and against whole-model DeepDiff, in one run.

    python bench/bench_diff.py [--terms 5000] [--changed 0.05] [--repeat 3] [--seed 0] [--workdir DIR]

It generates (bench/gen.py) a rulebook of N terms in two editions, the second
changing a fraction of the terms, and writes each edition out as a full folder
of term files (overlays applied) for ``diff -ru``. Then, best of ``--repeat``,
interleaved so that machine noise touches all alike:

- ``diff -ru``: the two full folders (what a plain file diff costs);
- ``rulebook diff`` (cli), in-process, writing JSON to /dev/null, three ways:
  *cold* (an empty cache: load and check both sides in full, then fill the
  cache), *warm* (the cache holds both sides' check results from an earlier
  run, not this diff: hash the files, read only the terms that differ and
  those their meaning needs), and ``--no-cache`` (the full path, no cache);
- diff stage: ``diff_editions`` on a model already loaded;
- DeepDiff: plain ``DeepDiff`` of the two whole exported models
  (``edition_json``), already in memory, so it is not charged for loading;
- as a subprocess once cold and once warm, with the interpreter's start-up
  and imports (deepdiff's among them).

Then linearity: rulebooks in which the second edition changes only the first
K of the changed terms (K doubling from 0), timing the warm command; the
time per changed term, once the fixed cost (K = 0: hashing the files,
opening the cache) is taken off, stays flat when cost follows the change.

Targets (issue 4): at least 5x faster than whole-model DeepDiff, within
10x of ``diff -ru``, linear in the number of changed terms. Ratios are
computed within the run, never against fixed numbers.
"""

from __future__ import annotations

import argparse
import contextlib
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


def run_cli(root: Path, old: str, new: str, *extra: str) -> None:
    from click.testing import CliRunner

    from rulebook_compiler.cli import main

    result = CliRunner().invoke(main, ["diff", old, new, "--rulebook", str(root), "--format", "json", *extra])
    if result.exit_code != 0:
        raise SystemExit(f"rulebook diff failed: {result.output[:2000]}")


def with_cache(folder: Path, fn) -> float:
    """Time ``fn`` with the cache in ``folder``."""
    os.environ["RULEBOOK_CACHE_DIR"] = str(folder)
    with contextlib.redirect_stdout(io.StringIO()):
        return best(fn, 1)


def variant(book: Path, new_id: str, changed_files: list[Path], k: int, out: Path) -> Path:
    """The rulebook with only the first k changed term files in the new edition (the rest hard-linked)."""
    shutil.copytree(book, out, copy_function=os.link, ignore=shutil.ignore_patterns(new_id))
    (out / "editions" / new_id).mkdir()
    for path in changed_files[:k]:
        os.link(path, out / "editions" / new_id / path.name)
    return out


def process(root: Path, old: str, new: str, cache: Path) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "rulebook_compiler", "diff", old, new, "--rulebook", str(root), "--format", "json"],
                   stdout=subprocess.DEVNULL, check=True, cwd=ROOT, env={**os.environ, "RULEBOOK_CACHE_DIR": str(cache)})
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--terms", type=int, default=5000)
    parser.add_argument("--changed", type=float, default=0.05)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workdir", type=Path, default=None)
    args = parser.parse_args()

    from deepdiff import DeepDiff

    from rulebook_compiler.build import load_rulebook
    from rulebook_compiler.diff.engine import diff_editions
    from rulebook_compiler.export import edition_json

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

    caches = work / "caches"
    warm_cache = caches / "warm"
    with_cache(warm_cache, lambda: run_cli(root, old_id, new_id))  # fills it
    timings = {"diff -ru": [], "rulebook diff cold": [], "rulebook diff warm": [], "rulebook diff --no-cache": [],
               "diff stage": [], "DeepDiff": []}
    for i in range(args.repeat):  # interleaved
        timings["diff -ru"].append(best(lambda: run_diff_ru(*folders), 1))
        timings["rulebook diff cold"].append(with_cache(caches / f"cold{i}", lambda: run_cli(root, old_id, new_id)))
        timings["rulebook diff warm"].append(with_cache(warm_cache, lambda: run_cli(root, old_id, new_id)))
        timings["rulebook diff --no-cache"].append(
            with_cache(caches / "unused", lambda: run_cli(root, old_id, new_id, "--no-cache")))
        timings["diff stage"].append(best(lambda: diff_editions(book, old, book, new), 1))
        timings["DeepDiff"].append(best(lambda: DeepDiff(old_json, new_json), 1))
    t = {k: min(v) for k, v in timings.items()}
    sub_cold = process(root, old_id, new_id, caches / "process-cold")
    sub_warm = process(root, old_id, new_id, caches / "process-cold")

    mb = sum(p.stat().st_size for p in root.rglob("*.yaml")) / 1e6
    print(f"rulebook: {args.terms} terms, 2 editions, {len(changed)} terms changed "
          f"({len(changed) / args.terms:.1%}), {mb:.1f} MB of YAML; generated in {gen_time:.1f}s; "
          f"{len(result.changes)} changes reported; load+check {load_time:.2f}s")
    print()
    print(f"{'what':<30}{'seconds':>10}")
    for name, seconds in t.items():
        print(f"{name:<30}{seconds:>10.3f}")
    print(f"{'rulebook diff cold (process)':<30}{sub_cold:>10.3f}")
    print(f"{'rulebook diff warm (process)':<30}{sub_warm:>10.3f}")
    print()
    ru = t["diff -ru"]
    print(f"DeepDiff / diff stage             {t['DeepDiff'] / t['diff stage']:8.1f}x   (target >= 5x)")
    print(f"DeepDiff / rulebook diff warm     {t['DeepDiff'] / t['rulebook diff warm']:8.1f}x   "
          "(DeepDiff not charged for loading)")
    print(f"rulebook diff warm / diff -ru     {t['rulebook diff warm'] / ru:8.1f}x   (target <= 10x)")
    print(f"warm process / diff -ru           {sub_warm / ru:8.1f}x   (with interpreter start-up and imports)")
    print(f"rulebook diff cold / diff -ru     {t['rulebook diff cold'] / ru:8.1f}x")
    print(f"cold / --no-cache                 {t['rulebook diff cold'] / t['rulebook diff --no-cache']:8.2f}x   "
          "(what filling the cache costs)")

    print()
    print("linearity: the warm command, the new edition changing only the first K changed terms")
    changed_files = sorted((root / "editions" / new_id).glob("*.yaml"))
    print(f"{'K':>6}{'seconds':>10}{'ms/term':>10}{'ms/term above K=0':>20}")
    base = 0.0
    cache_k = caches / "sweep"  # one cache: the variants share their term entries
    for k in [0] + _doubling(len(changed_files)):
        book_k = variant(root, new_id, changed_files, k, work / f"k{k}")
        with_cache(cache_k, lambda: run_cli(book_k, old_id, new_id))  # checks it, fills the cache
        seconds = min(with_cache(cache_k, lambda: run_cli(book_k, old_id, new_id)) for _ in range(args.repeat))
        base = seconds if k == 0 else base
        per = f"{1000 * seconds / k:10.2f}" if k else f"{'':>10}"
        above = f"{1000 * (seconds - base) / k:20.2f}" if k else f"{'':>20}"
        print(f"{k:>6}{seconds:>10.3f}{per}{above}", flush=True)
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
