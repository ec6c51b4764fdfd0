"""MC/DC-sized suites and exact mutant scores (issue 10 point 3): sizes, scores and timings.

Two tables:
  - generated decisions of N bool facts (10, 20, 40, 80), with and without 30
    constraints tying them to 30 other facts: time of `conformance generate`'s
    work (build_suite) and of `conformance mutants`' scoring (measure), cases,
    atoms, the bound 3 x (atoms + 1), allowed situations, mutants and score;
  - each bundled edition: per decision, cases, atoms, allowed situations (the
    exhaustive suite's size), the ratio of the two, and the edition's score.

The generated decision (``decision_rulebook``): a default rule (false), then
N/2 rules, each a conjunction of 2-3 literals of the N facts answering true
or false in turn, each an exception to the clause before it (so the last rule
that applies decides: no conflict, never empty). Linked: 30 other facts y0..y29
and 30 constraints, in pairs over one y: "never lit_a and not y" and "never
lit_b and (y or y')", so lit_a and lit_b never hold together, which the
allowed space only knows through an existential over the y's.

A third table, alone (``--wide``): hostile.py's wide condition of N items (3N conditions),
with the time of every condition's deciding region in one pass (flips.py) against the former
way, one variant of the decision per condition (up to --baseline-max items: it is quadratic).

Run: python bench/suites.py [--sizes 10,20,40,80] [--repeat 3] [--bundled rulebook]
     python bench/suites.py --wide 100,1000,10000 [--baseline-max 1000] [--repeat 1]
Times are CPU times (process_time), the best of --repeat runs, in ms; the ratios and sizes are the point.
"mutants ms" is `conformance mutants`' scoring after its own generation (it reuses the
diagrams of the variants generation made; the first measure of a fresh edition pays for them).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

RULEBOOK = ("title: Generated decision\npublisher: bench/suites.py\neditions:\n"
            "  - {id: v1, title: One, date: null, status: draft}\n")


def _literal(fact: str, positive: bool) -> str | dict:
    return fact if positive else {"not": fact}


def decision_rulebook(out: Path, n: int, linked: bool, seed: int = 7) -> Path:
    """A rulebook whose term ``t`` has one decision ``t.q`` over ``n`` bool facts (see the module's doc)."""
    rng = random.Random(seed * 1000 + n)
    facts = [f"x{i}" for i in range(n)]
    others = [f"y{j}" for j in range(30)] if linked else []
    clauses = [{"id": "c0", "text": "By default, no.", "rules": [{"decision": "t.q", "value": False}]}]
    for i in range(1, max(2, n // 2) + 1):
        lits = [_literal(f, rng.random() < 0.6) for f in rng.sample(facts, rng.choice((2, 3)))]
        clauses.append({"id": f"c{i}", "text": f"Clause {i}.",
                        "rules": [{"decision": "t.q", "value": i % 2 == 1, "when": {"all": lits},
                                   "exception_to": [f"t#c{i - 1}"]}]})
    constraints = []
    for j in range(0, len(others), 2):
        a, b = rng.sample(facts, 2)
        lit_a, lit_b = _literal(a, rng.random() < 0.5), _literal(b, rng.random() < 0.5)
        constraints.append({"id": f"k{j}", "text": f"K{j}.", "never": {"all": [lit_a, {"not": others[j]}]}})
        constraints.append({"id": f"k{j + 1}", "text": f"K{j + 1}.",
                            "never": {"all": [lit_b, {"any": [others[j], others[j + 1]]}]}})
    (out / "editions" / "v1").mkdir(parents=True, exist_ok=True)
    (out / "rulebook.yaml").write_text(RULEBOOK, encoding="utf-8")
    vocabulary = {"facts": [{"name": f, "type": "bool", "meaning": f"Fact {f}."} for f in facts + others],
                  "constraints": constraints}
    (out / "vocabulary.yaml").write_text(json.dumps(vocabulary, indent=1) + "\n", encoding="utf-8")
    term = {"id": "t", "name": "T", "decisions": [{"name": "t.q", "type": "bool", "meaning": "Q."}],
            "sections": [{"key": "s", "kind": "definition", "clauses": clauses}]}
    (out / "editions" / "v1" / "t.yaml").write_text(json.dumps(term, indent=1) + "\n", encoding="utf-8")
    return out


def _best(fn, repeat: int):
    best, value = float("inf"), None
    for _ in range(repeat):
        start = time.process_time()  # CPU time: the machine is shared, wall time says more of the others
        value = fn()
        best = min(best, time.process_time() - start)
    return best * 1000, value


def _atoms(edition, decision: str) -> int:
    from rulebook_compiler.conformance.cases import rule_atoms
    from rulebook_compiler.evaluate import DecisionModel

    return len(rule_atoms(DecisionModel(edition.vocabulary, edition, decision)))


def _fresh_suite(book, edition):
    """build_suite with nothing kept from a previous run (cases keeps the last edition's diagrams)."""
    from rulebook_compiler.conformance import cases

    cases._HELD.clear()
    return cases.build_suite(book, edition)


def generated_table(sizes: list[int], repeat: int) -> list[str]:
    from rulebook_compiler.build import load_rulebook
    from rulebook_compiler.conformance.mutants import measure

    lines = ["| facts | linked | generate ms | mutants ms | cases | atoms | 3 x (atoms + 1) | allowed "
             "| mutants scored | equivalent | score |", "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            for linked in (False, True):
                root = decision_rulebook(Path(tmp) / f"d{n}{'l' if linked else ''}", n, linked)
                book = load_rulebook(root)
                edition = book.edition_by_id["v1"]
                gen_ms, suite = _best(lambda: _fresh_suite(book, edition), repeat)
                mut_ms, report = _best(lambda: measure(book, edition, suite), repeat)
                (d,) = suite.decisions
                atoms = _atoms(edition, d.decision)
                lines.append(f"| {n} | {30 if linked else '-'} | {gen_ms:,.0f} | {mut_ms:,.0f} | {len(d.cases)} "
                             f"| {atoms} | {3 * (atoms + 1)} | {d.allowed:,} | {report.scored} "
                             f"| {report.count('equivalent')} | {report.score:.2f} |")
                print(lines[-1], flush=True)
    return lines


def _wide_rulebook(out: Path, items: int) -> Path:
    import importlib.util

    spec = importlib.util.spec_from_file_location("hostile", ROOT / "bench" / "hostile.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.wide_condition(out, items)


def _regions_one_pass(space, atoms) -> None:
    from rulebook_compiler.conformance.cases import _deciding

    for atom in atoms:
        _deciding(space, atom)


def _regions_per_variant(space, atoms) -> None:
    """The former way (before flips.py): each condition's deciding region from the decision with that
    condition negated, built whole (a variant per condition: quadratic)."""
    from rulebook_compiler.conformance.cases import _negated

    for atom in atoms:
        space.outcomes.difference(space.variant(_negated(space.model, atom)), space.allowed)
    space._variants.clear()


def wide_table(sizes: list[int], repeat: int, baseline_max: int) -> list[str]:
    """hostile.py's wide condition (an ``any`` of N items ``all[f0, fI, not f0]``: 3N conditions) at each size."""
    from rulebook_compiler.build import load_rulebook
    from rulebook_compiler.conformance import cases
    from rulebook_compiler.conformance.mutants import measure
    from rulebook_compiler.conformance.regions import DecisionSpace
    from rulebook_compiler.evaluate import DecisionModel

    lines = ["| items | conditions | regions, one pass ms | regions, a variant each ms (former) | ratio "
             "| generate ms | mutants ms | cases | 3 x (conditions + 1) | uncovered | mutants scored | equivalent "
             "| score |", "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            book = load_rulebook(_wide_rulebook(Path(tmp) / f"w{n}", n))
            edition = book.edition_by_id["v1"]
            model = DecisionModel(edition.vocabulary, edition, "t.q")
            atoms = cases.rule_atoms(model)
            space = DecisionSpace(model, cases.case_facts(book, edition, "t.q"))
            one_ms, _ = _best(lambda: (space._flips.clear(), space._part_flips.clear(),
                                       _regions_one_pass(space, atoms)), repeat)
            if n <= baseline_max:
                variant_ms, _ = _best(lambda: _regions_per_variant(space, atoms), 1)
                former, ratio = f"{variant_ms:,.0f}", f"{variant_ms / one_ms:,.0f}x"
            else:
                former, ratio = "not run", "-"
            gen_ms, suite = _best(lambda: _fresh_suite(book, edition), repeat)
            mut_ms, report = _best(lambda: measure(book, edition, suite), repeat)
            (d,) = suite.decisions
            lines.append(f"| {n:,} | {len(atoms):,} | {one_ms:,.0f} | {former} | {ratio} | {gen_ms:,.0f} "
                         f"| {mut_ms:,.0f} | {len(d.cases)} | {3 * (len(atoms) + 1):,} | {len(d.uncovered):,} "
                         f"| {report.scored:,} | {report.count('equivalent'):,} | {report.score:.2f} |")
            print(lines[-1], flush=True)
    return lines


def bundled_table(root: Path) -> list[str]:
    from rulebook_compiler.build import load_rulebook
    from rulebook_compiler.conformance.cases import build_suite
    from rulebook_compiler.conformance.mutants import measure

    book = load_rulebook(root)
    lines = ["| edition | decision | cases | atoms | 3 x (atoms + 1) | allowed (exhaustive) | ratio |",
             "| --- | --- | --- | --- | --- | --- | --- |"]
    scores = []
    for edition in book.editions:
        suite = build_suite(book, edition)
        report = measure(book, edition, suite)
        for d in suite.decisions:
            if d.strategy == "steps":
                continue
            atoms = _atoms(edition, d.decision)
            ratio = f"{len(d.cases) / d.allowed:.2f}" if d.allowed else "-"
            lines.append(f"| {edition.id} | {d.decision} | {len(d.cases)} | {atoms} | {3 * (atoms + 1)} "
                         f"| {d.allowed:,} | {ratio} |")
        total = sum(len(d.cases) for d in suite.decisions if d.strategy != "steps")
        allowed = sum(d.allowed or 0 for d in suite.decisions if d.strategy != "steps")
        scores.append(f"| {edition.id} | {total} | {allowed:,} | {total / allowed:.2f} "
                      f"| {report.count('killed')} of {report.scored} | {report.score:.2f} |")
    return lines + ["", "| edition | cases | allowed (exhaustive) | ratio | killed | score |",
                    "| --- | --- | --- | --- | --- | --- |"] + scores


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10,20,40,80")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--bundled", type=Path, default=ROOT / "rulebook")
    parser.add_argument("--wide", default="", help="Sizes of the wide condition (items): its table only.")
    parser.add_argument("--baseline-max", type=int, default=1000,
                        help="Time the former per-condition variants up to this many items (quadratic).")
    args = parser.parse_args(argv)
    if args.wide:
        wide_table([int(s) for s in args.wide.split(",")], args.repeat, args.baseline_max)
        return 0
    generated_table([int(s) for s in args.sizes.split(",")], args.repeat)
    print()
    print("\n".join(bundled_table(args.bundled)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
