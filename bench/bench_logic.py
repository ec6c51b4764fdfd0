"""Time the logic checks (conflict, empty, dead) on large generated decisions and hostile inputs.

Issue 10's inputs: one decision over N = 10, 20, 40, 80 bool facts, with and
without 30 constraints tying them to 30 other facts; the tied-constraints input
(one fact tied to 30 others) and the 400 KB term with one wide condition, both
from bench/hostile.py. Each decision has a base rule (false everywhere) and N/2
exceptions, each to every rule before it, whose 'when' is a conjunction of 2-3
literals, so the decision checks clean and every rule is live or dead as the
constraints make it.

For each input it times, best of --repeat: the logic checks alone
(``logic.logic_problems`` on the loaded model), and ``rulebook check`` as a
subprocess (start-up, parse, schema, names, logic). The baseline in the same
run is ``python -c pass`` (the interpreter's start-up), so the figures are read
as ratios as well as seconds.

Run: python bench/bench_logic.py [--sizes 10,20,40,80] [--repeat 3] [--workdir DIR]
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from bench.bench_diff import best  # noqa: E402
from bench.hostile import CASES  # noqa: E402

LINKED = 30


def decision_rulebook(out: Path, n: int, linked: bool, seed: int = 7) -> Path:
    """A rulebook with one decision over n bool facts (and 30 tied facts when ``linked``)."""
    rnd = random.Random(seed * 1000 + n)
    facts = [f"f{i:02d}" for i in range(n)]
    others = [f"x{j:02d}" for j in range(LINKED)] if linked else []
    clauses = ["      - {id: c000, text: Base., rules: [{decision: t.q, value: false}]}\n"]
    for i in range(1, n // 2 + 1):
        lits = [f if rnd.random() < 0.6 else f"{{not: {f}}}" for f in rnd.sample(facts, rnd.choice((2, 3)))]
        earlier = ", ".join(f"'t#c{j:03d}'" for j in range(i))
        value = "true" if i % 2 else "false"
        clauses.append(f"      - {{id: c{i:03d}, text: C{i}., rules: [{{decision: t.q, value: {value}, "
                       f"when: {{all: [{', '.join(lits)}]}}, exception_to: [{earlier}]}}]}}\n")
    constraints = [f"  - {{id: k{j:02d}, text: K{j}., never: {{all: [{rnd.choice(facts)}, {{not: {x}}}]}}}}\n"
                   for j, x in enumerate(others)]
    (out / "editions" / "v1").mkdir(parents=True)
    (out / "rulebook.yaml").write_text(
        "title: Bench\npublisher: P\neditions:\n  - {id: v1, title: V1, date: null, status: draft}\n")
    (out / "vocabulary.yaml").write_text(
        "facts:\n" + "".join(f"  - {{name: {f}, type: bool, meaning: F.}}\n" for f in facts + others)
        + ("constraints:\n" + "".join(constraints) if constraints else "constraints: []\n"))
    (out / "editions" / "v1" / "t.yaml").write_text(
        "id: t\nname: T\ndecisions:\n  - {name: t.q, type: bool, meaning: Q.}\n"
        "sections:\n  - key: s\n    kind: definition\n    clauses:\n" + "".join(clauses))
    return out


def logic_seconds(root: Path, repeat: int) -> tuple[float, int]:
    from rulebook_compiler.build import load_rulebook
    from rulebook_compiler.logic import logic_problems

    book = load_rulebook(root)
    problems = logic_problems(book)
    return best(lambda: logic_problems(book), repeat), len(problems)


def check_seconds(root: Path, repeat: int) -> float:
    cmd = [sys.executable, "-m", "rulebook_compiler", "check", "--no-cache", str(root)]  # cold: no proof read back
    return best(lambda: subprocess.run(cmd, capture_output=True, check=False, cwd=HERE.parent), repeat)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10,20,40,80")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--workdir", type=Path)
    args = parser.parse_args(argv)
    work = args.workdir or Path(tempfile.mkdtemp(prefix="bench-logic-"))
    start_up = best(lambda: subprocess.run([sys.executable, "-c", "pass"], check=True), args.repeat)
    inputs: list[tuple[str, Path]] = []
    for n in (int(s) for s in args.sizes.split(",")):
        for linked in (False, True):
            name = f"{n} facts" + (f" + {LINKED} linked" if linked else "")
            inputs.append((name, decision_rulebook(work / f"d{n}{'-linked' if linked else ''}", n, linked)))
    inputs.append(("tied-constraints 30", CASES["tied-constraints"](work / "tied", 30)))
    inputs.append(("wide condition 400 KB", CASES["wide-condition"](work / "wide", 10_000)))
    print(f"python -c pass: {start_up * 1000:.0f} ms (best of {args.repeat})\n")
    print("| input | logic checks ms | rulebook check (subprocess) ms | check / start-up | problems |")
    print("|---|---|---|---|---|")
    for name, root in inputs:
        logic, problems = logic_seconds(root, args.repeat)
        check = check_seconds(root, args.repeat)
        print(f"| {name} | {logic * 1000:.1f} | {check * 1000:.0f} | {check / start_up:.1f}x | {problems} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
