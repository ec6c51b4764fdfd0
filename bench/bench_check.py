"""Time ``rulebook check`` and ``rulebook export`` against the floor of parsing with libyaml.

    python bench/bench_check.py [--sizes 100,1000,5000] [--repeat 3] [--seed 0] [--workdir DIR]

For each size N it generates a synthetic rulebook (bench/gen.py) and times, in
one run and interleaved so that machine noise touches all alike (best of
``--repeat``):

- floor:  read every YAML file and ``yaml.load`` it with libyaml's CSafeLoader,
          keeping the results (what any loader must at least do);
- check:  ``build.check`` plus ``logic.logic_problems``: what ``rulebook check`` does;
- check (cli): the click command itself, in-process;
- export: ``load_rulebook`` + ``edition_json`` + ``dumps`` of the latest edition;
- export (cli): the click command, in-process, writing to a file;
- once each as a subprocess, which adds the interpreter's and imports' start-up.

It prints the seconds, MB of YAML, the ratios check/floor and export/floor, and
milliseconds per term at each N (linear growth keeps them flat). Then start-up:
``python -X importtime -c "import rulebook_compiler.cli"``, the wall time of
``rulebook --help`` against ``python -c pass``, and which heavy libraries a
``rulebook check`` imports (none should be).

Timings are compared as ratios within the run, never against fixed numbers.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

import yaml  # noqa: E402

from bench.gen import generate  # noqa: E402

HEAVY = ("deepdiff", "mkdocs", "jinja2", "material")
TARGET_RATIO = 3.0


@dataclass
class Row:
    n: int
    files: int
    mb: float
    gen: float
    floor: float
    check: float
    check_cli: float
    export: float
    export_cli: float
    check_sub: float
    export_sub: float


def yaml_files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*.yaml"))


def floor(files: list[Path]) -> list:
    """What parsing alone costs: libyaml's C loader on every file."""
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    return [yaml.load(path.read_bytes().decode("utf-8"), Loader=loader) for path in files]


def check_library(root: Path) -> None:
    from rulebook_compiler.build import check
    from rulebook_compiler.logic import logic_problems

    book, problems = check(root)
    if book is None:
        raise SystemExit(f"generated rulebook {root} does not load:\n" + "\n".join(map(str, problems[:5])))
    problems = logic_problems(book)
    if any(p.severity == "error" for p in problems):
        raise SystemExit(f"generated rulebook {root} has logic problems:\n" + "\n".join(map(str, problems[:5])))


def export_library(root: Path) -> str:
    from rulebook_compiler.build import load_rulebook
    from rulebook_compiler.export import dumps, edition_json

    book = load_rulebook(root)
    return dumps(edition_json(book, book.latest))


def run_cli(args: list[str]) -> None:
    """The click command as ``rulebook ARGS`` runs it, in this process."""
    from rulebook_compiler.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main.main(args, prog_name="rulebook", standalone_mode=False)
        except SystemExit as exc:
            if exc.code:
                raise RuntimeError(f"rulebook {' '.join(args)} exited {exc.code}: {err.getvalue()[:500]}")


def rulebook_command() -> list[str]:
    """The installed console script, else the module."""
    found = shutil.which("rulebook")
    return [found] if found else [sys.executable, "-m", "rulebook_compiler"]


def run_subprocess(args: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(rulebook_command() + args, check=True, cwd=ROOT, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def measure(n: int, work: Path, repeat: int, seed: int) -> Row:
    root = work / f"n{n}"
    start = time.perf_counter()
    if not (root / "rulebook.yaml").is_file():
        generate(n, root, seed=seed)
    gen = time.perf_counter() - start
    files = yaml_files(root)
    size = sum(p.stat().st_size for p in files)
    out = work / f"export-{n}.json"
    best: dict[str, float] = {}
    for _ in range(repeat):
        runs = {
            "floor": lambda: floor(files),
            "check": lambda: check_library(root),
            "check_cli": lambda: run_cli(["check", "--no-cache", str(root)]),
            "export": lambda: export_library(root),
            "export_cli": lambda: run_cli(["export", "--rulebook", str(root), "--out", str(out)]),
        }
        for name, fn in runs.items():
            best[name] = min(best.get(name, float("inf")), timed(fn))
    check_sub = run_subprocess(["check", "--no-cache", str(root)])
    export_sub = run_subprocess(["export", "--rulebook", str(root), "--out", str(out)])
    return Row(n, len(files), size / 1e6, gen, best["floor"], best["check"], best["check_cli"],
               best["export"], best["export_cli"], check_sub, export_sub)


def print_table(rows: list[Row]) -> None:
    print("| N | files | MB YAML | floor s | check s | check cli s | export s | export cli s "
          "| check/floor | export/floor | floor ms/term | check ms/term | export ms/term "
          "| check subprocess s | export subprocess s |")
    print("|" + "---|" * 15)
    for r in rows:
        print(f"| {r.n:,} | {r.files:,} | {r.mb:.1f} | {r.floor:.2f} | {r.check:.2f} | {r.check_cli:.2f} "
              f"| {r.export:.2f} | {r.export_cli:.2f} | {r.check / r.floor:.2f}x | {r.export / r.floor:.2f}x "
              f"| {1000 * r.floor / r.n:.2f} | {1000 * r.check / r.n:.2f} | {1000 * r.export / r.n:.2f} "
              f"| {r.check_sub:.2f} | {r.export_sub:.2f} |")
    big = rows[-1]
    print()
    print(f"libyaml floor: {big.mb / big.floor:.1f} MB/s at N={big.n:,}")
    verdict = "within" if big.check / big.floor <= TARGET_RATIO else "OVER"
    print(f"check/floor at N={big.n:,}: {big.check / big.floor:.2f}x ({verdict} the {TARGET_RATIO:g}x target)")
    if len(rows) > 1:
        ref = rows[-2]
        growth = (big.check / big.n) / (ref.check / ref.n)
        fgrowth = (big.floor / big.n) / (ref.floor / ref.n)
        print(f"growth of check time per term from N={ref.n:,} to N={big.n:,}: {growth:.2f}x "
              f"(floor's: {fgrowth:.2f}x; 1.00 is linear)")
    print(f"start-up share of a subprocess check at N={big.n:,}: {big.check_sub - big.check_cli:+.2f} s")


# -- start-up ------------------------------------------------------------------------

def import_time() -> tuple[float, list[tuple[float, str]]]:
    """Cumulative import time of rulebook_compiler.cli (s) and the five slowest imports under it."""
    proc = subprocess.run([sys.executable, "-X", "importtime", "-c", "import rulebook_compiler.cli"],
                          cwd=ROOT, capture_output=True, text=True, check=True)
    entries = []
    for line in proc.stderr.splitlines():
        m = re.match(r"import time:\s+(\d+) \|\s+(\d+) \|(\s*)(\S+)", line)
        if m:
            entries.append((int(m.group(2)) / 1e6, int(m.group(1)) / 1e6, len(m.group(3)), m.group(4)))
    total = next(cum for cum, _, _, name in entries if name == "rulebook_compiler.cli")
    slowest = sorted(((own, name) for _, own, _, name in entries), reverse=True)[:5]
    return total, slowest


def wall(args: list[str], repeat: int = 5) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(args, cwd=ROOT, stdout=subprocess.DEVNULL, check=True)
        best = min(best, time.perf_counter() - start)
    return best


HEAVY_PROBE = """
import contextlib, io, sys
from rulebook_compiler.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    try:
        main.main(["check", sys.argv[1]], prog_name="rulebook", standalone_mode=False)
    except SystemExit as exc:
        assert not exc.code, exc.code
print(" ".join(sorted({m.split('.')[0] for m in sys.modules} & set(sys.argv[2:]))))
"""


def heavy_imports(root: Path) -> list[str]:
    """Heavy libraries in sys.modules after ``rulebook check`` ran."""
    proc = subprocess.run([sys.executable, "-c", HEAVY_PROBE, str(root), *HEAVY],
                          cwd=ROOT, capture_output=True, text=True, check=True)
    return proc.stdout.split()


def print_startup() -> None:
    total, slowest = import_time()
    print(f"`python -X importtime -c \"import rulebook_compiler.cli\"`: {1000 * total:.0f} ms cumulative; "
          "slowest own times: " + ", ".join(f"{name} {1000 * t:.0f} ms" for t, name in slowest))
    python = wall([sys.executable, "-c", "pass"])
    imported = wall([sys.executable, "-c", "import rulebook_compiler.cli"])
    helped = wall(rulebook_command() + ["--help"])
    print(f"wall, best of 5: `python -c pass` {1000 * python:.0f} ms; `import rulebook_compiler.cli` "
          f"{1000 * imported:.0f} ms; `rulebook --help` {1000 * helped:.0f} ms "
          f"({helped / python:.1f}x bare python)")
    found = heavy_imports(ROOT / "tests" / "fixtures" / "minimal")
    print("heavy libraries imported by `rulebook check`: " + (", ".join(found) if found else "none")
          + f" (looked for {', '.join(HEAVY)})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="100,1000,5000", help="comma-separated term counts")
    parser.add_argument("--repeat", type=int, default=3, help="best of this many runs (default 3)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workdir", type=Path,
                        help="keep generated rulebooks here and reuse them (default: a temporary folder)")
    args = parser.parse_args(argv)
    sizes = [int(s.replace("_", "")) for s in args.sizes.split(",")]
    work = args.workdir or Path(tempfile.mkdtemp(prefix="rulebook-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    print(f"python {sys.version.split()[0]}, PyYAML {yaml.__version__}, libyaml "
          f"{'yes' if getattr(yaml, '__with_libyaml__', False) else 'NO'}, {os.cpu_count()} CPUs, "
          f"best of {args.repeat}, seed {args.seed}")
    try:
        rows = []
        for n in sizes:
            rows.append(measure(n, work, args.repeat, args.seed))
            print(f"  N={n:,} done", file=sys.stderr)
        print()
        print_table(rows)
        print()
        print_startup()
    finally:
        if args.workdir is None:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
