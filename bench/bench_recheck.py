"""Cost follows the change: check cold, again unchanged, and again after a one-term edit.

For each N it generates a rulebook (bench/gen.py) and times, in this process,
with a cache folder of its own:

- **floor**: libyaml's C loader on every file (bench_check.py's baseline);
- **logic**: the logic checks alone on the loaded model (``logic_problems``);
- **cold --no-cache**: ``rulebook check --no-cache`` (everything, nothing kept);
- **cold, filling the cache**: ``rulebook check`` with an empty cache (it also
  stores the rulebook and what it proved);
- **unchanged**: ``rulebook check`` again (the whole outcome read back);
- **one term edited**: one clause's rule condition of one term changed, then
  ``rulebook check`` (only the edited file read again, rulebook_compiler/recheck.py),
  ``--edits`` times, each on another term: the median and the worst, and how
  many decisions were proved;
- **diff after the edits**: ``rulebook diff`` of a copy taken before the edits
  against the edited folder, the first run after the last check: both sides
  are read from the cache (the copy has the files the cold check stored; the
  edited folder, what the incremental checks stored), so only the edited terms
  are loaded; and the same diff ``--no-cache`` (both sides loaded in full).

The floor and ``--no-cache`` run interleaved, best of ``--repeat``, in wall and
CPU time (the machine is shared: the CPU time moves less with the load, which
is printed at the start and the end).

Run: python bench/bench_recheck.py [--sizes 100,2000,5000] [--repeat 3] [--edits 5] [--seed 0] [--workdir DIR]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bench_check import floor, run_cli, yaml_files  # noqa: E402
from bench.gen import generate  # noqa: E402


def timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def timed2(fn) -> tuple[float, float]:
    """Wall and CPU time of fn(): on a shared machine the CPU time moves less with the load."""
    wall, cpu = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - wall, time.process_time() - cpu


def edit_one_term(root: Path) -> Path:
    """Negate one 'requires' of a term in the middle (a rule change; it still answers everywhere)."""
    files = sorted((root / "editions").rglob("*.yaml"))
    for path in files[len(files) // 2:]:
        text = path.read_text()
        found = re.search(r"requires: (\w+)\}", text)
        if found:
            path.write_text(text[:found.start()] + f"requires: {{not: {found.group(1)}}}}}" + text[found.end():])
            return path
    raise SystemExit("no rule to edit")


def logic_seconds(root: Path) -> float:
    """The logic checks alone, on a book loaded here (and freed on return)."""
    from rulebook_compiler.build import load_rulebook
    from rulebook_compiler.logic import logic_problems

    book = load_rulebook(root)
    return timed(lambda: logic_problems(book))


def measure(n: int, work: Path, seed: int, repeat: int, edits: int) -> dict:
    from rulebook_compiler.checking import check_rulebook

    root = work / f"book-{n}"
    generate(n, root, seed=seed)
    os.environ["RULEBOOK_CACHE_DIR"] = str(work / f"cache-{n}")
    files = yaml_files(root)
    floors, nocache = [], []
    for _ in range(repeat):  # interleaved, so that both meet the same load
        floors.append(timed2(lambda: floor(files)))
        nocache.append(timed2(lambda: run_cli(["check", "--no-cache", str(root)])))
    row = {"n": n, "floor": min(w for w, _ in floors), "floor_cpu": min(c for _, c in floors),
           "nocache": min(w for w, _ in nocache), "nocache_cpu": min(c for _, c in nocache)}
    row["logic"] = logic_seconds(root)  # the loaded book is freed before the checks below
    row["cold"] = timed(lambda: run_cli(["check", str(root)]))
    row["unchanged"] = timed(lambda: run_cli(["check", str(root)]))
    before = work / f"book-{n}-before"
    shutil.rmtree(before, ignore_errors=True)
    shutil.copytree(root, before)
    walls, cpus, incremental, proved = [], [], 0, 0
    for _ in range(edits):  # a different term each time
        edit_one_term(root)
        result: list = []
        wall, cpu = timed2(lambda: result.append(check_rulebook(root)))
        walls.append(wall)
        cpus.append(cpu)
        incremental += result[0].incremental
        proved += result[0].proved
    row.update(edited=statistics.median(walls), edited_max=max(walls), edited_cpu=statistics.median(cpus),
               incremental=incremental, edits=edits, proved=proved)
    diff = ["diff", str(before), str(root), "--rulebook", str(root), "--format", "json"]
    row["diff"], row["diff_cpu"] = timed2(lambda: run_cli(diff))
    row["diff_nocache"] = timed(lambda: run_cli([*diff, "--no-cache"]))
    return row


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="100,2000,5000")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=3, help="best of this many floors and full checks")
    parser.add_argument("--edits", type=int, default=5, help="one-term edits, each checked (median and max)")
    parser.add_argument("--workdir", type=Path)
    args = parser.parse_args(argv)
    work = args.workdir or Path(tempfile.mkdtemp(prefix="bench-recheck-"))
    print("load average at the start: " + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    print("| N | floor s | check --no-cache s | /floor | /floor, CPU time | logic s | check cold (fills cache) s "
          "| unchanged s | one term edited s, median (max) | CPU s | read only the edited file | decisions proved "
          "| diff after the edits s | CPU s | diff --no-cache s |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for n in (int(s) for s in args.sizes.split(",")):
        r = measure(n, work, args.seed, args.repeat, args.edits)
        print(f"| {n:,} | {r['floor']:.2f} | {r['nocache']:.2f} | {r['nocache'] / r['floor']:.2f}x "
              f"| {r['nocache_cpu'] / r['floor_cpu']:.2f}x | {r['logic']:.2f} | {r['cold']:.2f} "
              f"| {r['unchanged']:.3f} | {r['edited']:.2f} ({r['edited_max']:.2f}) | {r['edited_cpu']:.2f} "
              f"| {r['incremental']} of {r['edits']} | {r['proved']:,} | {r['diff']:.2f} | {r['diff_cpu']:.2f} "
              f"| {r['diff_nocache']:.2f} |", flush=True)
    print("load average at the end: " + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
