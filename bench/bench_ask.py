"""Time ``rulebook ask`` against ``rulebook check`` on a rulebook (default: the bundled one), in one run.

    python bench/bench_ask.py [--rulebook DIR] [--repeat 7]

Each command runs as a subprocess, as a user types it (the interpreter's and the
imports' start-up included), interleaved so that machine noise touches all
alike: ``rulebook ask`` of one question per edition's ruling (the first ruling
of the latest edition's ``_rulings.yaml``, asked with its facts), ``rulebook
check`` with the cache off (RULEBOOK_NO_CACHE=1) and ``rulebook check`` with a
warm private cache (RULEBOOK_CACHE_DIR, filled by one run before timing). It
prints each one's median and best seconds and the ratios ask/check, the
closing figure of issue 26. Timings are compared as ratios within the run,
never against fixed numbers.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent


def _question(rulebook: Path) -> list[str]:
    """``ask`` arguments for the first ruling of the latest edition that has rulings."""
    book = yaml.safe_load((rulebook / "rulebook.yaml").read_text(encoding="utf-8"))
    for edition in reversed(book["editions"]):
        path = rulebook / "editions" / str(edition["id"]) / "_rulings.yaml"
        rulings = (yaml.safe_load(path.read_text(encoding="utf-8")) or {}).get("rulings") if path.is_file() else None
        if rulings:
            ruling = rulings[0]
            facts = [f"--fact={k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in ruling["facts"].items()]
            return ["ask", "--rulebook", str(rulebook), "--edition", str(edition["id"]), ruling["decision"], *facts]
    sys.exit(f"{rulebook}: no edition has rulings to ask")


def _time(args: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "rulebook_compiler", *args], env=env, cwd=ROOT, capture_output=True)
    elapsed = time.perf_counter() - start
    if done.returncode not in (0, 1):
        sys.exit(f"rulebook {' '.join(args)} exited {done.returncode}: {done.stderr.decode()}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rulebook", type=Path, default=ROOT / "rulebook")
    parser.add_argument("--repeat", type=int, default=7)
    opts = parser.parse_args()
    base = {**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1"}
    with tempfile.TemporaryDirectory() as cache:
        cold = {**base, "RULEBOOK_NO_CACHE": "1"}
        warm = {**base, "RULEBOOK_CACHE_DIR": cache}
        warm.pop("RULEBOOK_NO_CACHE", None)
        ask = _question(opts.rulebook)
        runs = {"ask": (ask, cold), "check (no cache)": (["check", str(opts.rulebook)], cold),
                "check (warm cache)": (["check", str(opts.rulebook)], warm)}
        _time(["check", str(opts.rulebook)], warm)  # fills the cache
        times: dict[str, list[float]] = {name: [] for name in runs}
        for _ in range(opts.repeat):
            for name, (args, env) in runs.items():
                times[name].append(_time(args, env))
    print(f"rulebook {' '.join(ask)}")
    for name, found in times.items():
        print(f"{name:20} median {statistics.median(found):.2f} s, best {min(found):.2f} s ({opts.repeat} runs)")
    ask_median = statistics.median(times["ask"])
    for name in ("check (no cache)", "check (warm cache)"):
        print(f"ask / {name}: {ask_median / statistics.median(times[name]):.2f}")


if __name__ == "__main__":
    main()
