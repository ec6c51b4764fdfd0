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
  ``rulebook check`` (every file parsed again; only the decisions whose inputs
  changed proved again), with how many decisions were reused and proved.

Run: python bench/bench_recheck.py [--sizes 100,2000,5000] [--seed 0] [--workdir DIR]
"""

from __future__ import annotations

import argparse
import os
import re
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


def measure(n: int, work: Path, seed: int) -> dict:
    from compiler.build import load_rulebook
    from compiler.checking import check_rulebook
    from compiler.logic import logic_problems

    root = work / f"book-{n}"
    generate(n, root, seed=seed)
    os.environ["RULEBOOK_CACHE_DIR"] = str(work / f"cache-{n}")
    files = yaml_files(root)
    row = {"n": n, "floor": timed(lambda: floor(files))}
    book = load_rulebook(root)
    row["logic"] = timed(lambda: logic_problems(book))
    row["nocache"] = timed(lambda: run_cli(["check", "--no-cache", str(root)]))
    row["cold"] = timed(lambda: run_cli(["check", str(root)]))
    row["unchanged"] = timed(lambda: run_cli(["check", str(root)]))
    edit_one_term(root)
    start = time.perf_counter()
    result = check_rulebook(root)
    row["edited"] = time.perf_counter() - start
    row["reused"], row["proved"] = result.reused, result.proved
    return row


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="100,2000,5000")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workdir", type=Path)
    args = parser.parse_args(argv)
    work = args.workdir or Path(tempfile.mkdtemp(prefix="bench-recheck-"))
    print("| N | floor s | logic s | check --no-cache s | /floor | check cold (fills cache) s | unchanged s "
          "| one term edited s | decisions reused / proved |")
    print("|---|---|---|---|---|---|---|---|---|")
    for n in (int(s) for s in args.sizes.split(",")):
        r = measure(n, work, args.seed)
        print(f"| {n:,} | {r['floor']:.2f} | {r['logic']:.2f} | {r['nocache']:.2f} | {r['nocache'] / r['floor']:.2f}x "
              f"| {r['cold']:.2f} | {r['unchanged']:.3f} | {r['edited']:.2f} | {r['reused']:,} / {r['proved']:,} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
