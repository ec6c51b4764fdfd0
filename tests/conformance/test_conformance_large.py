"""Conformance commands on decisions whose situations cannot be listed (issue 10 point 3).

Once, a decision whose one fact is tied by constraints to many others made
``conformance generate`` search every combination of those others (30 took
more than 300 s), and a step budget gave such a decision no cases. The suites
and the mutants' scores are now found on BDDs: the same decisions get their
cases and every mutant is scored, with no bound to set. A decision of many
conditions gets each shown deciding and its mutants scored, up to MAX_ATOMS.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from rulebook_compiler.build import load_rulebook
from rulebook_compiler.conformance.cases import build_suite, rule_atoms
from rulebook_compiler.conformance.mutants import measure
from rulebook_compiler.evaluate import DecisionModel

ROOT = Path(__file__).resolve().parent.parent.parent


@pytest.fixture
def tied(tmp_path, monkeypatch, hostile) -> Path:
    hostile.tied_constraints(tmp_path / "tied", 30)
    monkeypatch.chdir(tmp_path)
    return Path("tied")


def test_generate_gives_a_decision_tied_to_30_facts_its_cases(cli, tied):
    code, out, err = cli("conformance", "generate", "--rulebook", tied, "--edition", "v1", "--out", "suite")
    assert (code, out, err) == (0, "edition v1: 2 cases over 1 decision: suite/cases.json, suite/test_conformance.py\n",
                                "")
    data = json.loads(Path("suite/cases.json").read_text(encoding="utf-8"))
    assert data["decisions"] == [{"decision": "t.q", "type": "bool", "values": [], "facts": ["a"],
                                  "strategy": "mcdc", "allowed": 2, "cases": 2, "unanswered": 0, "uncovered": []}]
    assert sorted((c["name"], c["expected"]) for c in data["cases"]) == [("t.q[-]", False), ("t.q[a]", True)]


def test_every_mutant_of_a_long_exception_chain_is_scored(cli, hostile, tmp_path, monkeypatch):
    # exception-chain 4: 16 rules in 4 clauses, each clause an exception to the one before; the former
    # step budget left 86 of its 88 mutants unscored
    hostile.exception_chain(tmp_path / "chain", 4)
    monkeypatch.chdir(tmp_path)
    code, out, err = cli("conformance", "mutants", "--rulebook", "chain", "--edition", "v1")
    assert (code, err) == (0, "")
    assert out == ("edition v1: cases per decision (against the exhaustive count):\n"
                   "  t.q: 2 of 2 (mcdc)\n"
                   "80 equivalent mutants excluded (they change no answer in any allowed situation):\n"
                   "  t#c1: 28\n"
                   "  t#c2: 28\n"
                   "  t#c3: 24\n"
                   "killed 8 of 8 mutants (score 1.00)\n")


def _generated(tmp_path: Path, facts: int, linked: bool):
    spec = importlib.util.spec_from_file_location("bench_suites", ROOT / "bench" / "suites.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return load_rulebook(module.decision_rulebook(tmp_path / "d", facts, linked))


@pytest.mark.parametrize("facts", [40, 80])
@pytest.mark.parametrize("linked", [False, True], ids=["alone", "30-linked"])
def test_a_large_decision_gets_an_mcdc_sized_suite_that_kills_every_mutant(tmp_path, facts, linked):
    book = _generated(tmp_path, facts, linked)
    edition = book.edition_by_id["v1"]
    suite = build_suite(book, edition)
    (d,) = suite.decisions
    atoms = len(rule_atoms(DecisionModel(edition.vocabulary, edition, "t.q")))
    assert (d.strategy, d.unanswered) == ("mcdc", 0)
    assert 0 < len(d.cases) <= 3 * (atoms + 1)
    report = measure(book, edition, suite)
    assert (report.count("survived"), report.score) == (0, 1.0)
    assert report.scored > 100


def _wide_atoms_shown_deciding(book, edition, cases) -> set[str]:
    """The conditions that some case shows deciding, by brute force: negating that one condition
    (in its rule, as it stands) changes the reference evaluator's outcome in the case."""
    from rulebook_compiler.conformance.cases import _negated

    model = DecisionModel(edition.vocabulary, edition, "t.q")
    shown = set()
    for atom in rule_atoms(model):
        variant = DecisionModel(edition.vocabulary, edition, "t.q", rules=_negated(model, atom))
        if any(model.outcome(c.facts_dict) != variant.outcome(c.facts_dict) for c in cases):
            shown.add(atom.label)
    return shown


def test_a_decision_of_600_conditions_gets_each_shown_deciding_and_every_mutant_scored(tmp_path, monkeypatch,
                                                                                       hostile, cli):
    # the 400 KB condition (30,000 conditions) once made generate run for hours: each condition was
    # shown deciding on a variant of the decision, quadratic work, and past MAX_ATOMS (400) it was not
    # tried (its mutants were not made); every condition's deciding region now comes from one pass
    hostile.wide_condition(tmp_path / "wide", 200)  # any of 200 items all[f0, fI, not f0]: 600 conditions
    monkeypatch.chdir(tmp_path)
    book = load_rulebook(Path("wide"))
    edition = book.edition_by_id["v1"]
    # an item's fI never decides (f0 and not f0 keep it false); each f0 does, where fI holds; and the
    # rule 'top' never applies, so it is never seen overriding 'base'
    never = [f"t#top: when f{1 + i % 15}" for i in range(200)] + ["t#top: exception to t#base"]
    code, out, err = cli("conformance", "generate", "--rulebook", "wide", "--edition", "v1", "--out", "out")
    assert (code, err.splitlines()) == (0, [f"rulebook: warning: t.q: no situation shows that {label} changes the outcome"
                                            for label in never])
    suite = build_suite(book, edition)
    (d,) = suite.decisions
    atoms = rule_atoms(DecisionModel(edition.vocabulary, edition, "t.q"))
    assert (len(atoms), d.strategy, d.uncovered, d.unanswered) == (600, "mcdc", tuple(never), 0)
    assert 0 < len(d.cases) <= 3 * (len(atoms) + 1)
    assert _wide_atoms_shown_deciding(book, edition, d.cases) == {a.label for a in atoms} - set(never)
    code, out, err = cli("conformance", "mutants", "--rulebook", "wide", "--edition", "v1")
    assert (code, err) == (0, "")
    report = measure(book, edition, suite)
    assert (report.count("survived"), report.score) == (0, 1.0)
    assert report.scored > 600  # every f0 of the 200 items is negated, dropped, ...
    assert out.splitlines()[-1] == f"killed {report.scored} of {report.scored} mutants (score 1.00)"


def test_a_decision_over_the_limit_of_conditions_gets_its_standing_cases_and_says_so(tmp_path, monkeypatch, hostile):
    # past MAX_ATOMS (100,000 conditions: memory grows with them) a decision's conditions are not
    # shown deciding and its mutants are not made; the limit is lowered here to keep the input small
    from click.testing import CliRunner

    from rulebook_compiler.cli import main
    from rulebook_compiler.conformance import cases

    monkeypatch.setattr(cases, "MAX_ATOMS", 599)
    hostile.wide_condition(tmp_path / "wide", 200)  # 600 conditions
    monkeypatch.chdir(tmp_path)
    warning = ["rulebook: warning: t.q: 600 conditions, over the limit of 599; its cases show each rule standing and each "
               "answer, not each condition deciding, and its mutants are not made",
               "  hint: name parts of its conditions with 'defines', or split the decision; the limit is MAX_ATOMS "
               "in rulebook_compiler/conformance/cases.py (docs/conformance.md)"]
    generate = CliRunner().invoke(main, ["conformance", "generate", "--rulebook", "wide", "--edition", "v1",
                                         "--out", "out"])
    assert (generate.exit_code, generate.stderr.splitlines()) == (0, warning)
    cases_json = json.loads(Path("out/cases.json").read_text())
    (decision,) = cases_json["decisions"]
    assert (decision["strategy"], decision["cases"], len(cases_json["cases"])) == ("mcdc", 1, 1)  # top is dead
    scored = CliRunner().invoke(main, ["conformance", "mutants", "--rulebook", "wide", "--edition", "v1"])
    assert (scored.exit_code, scored.stderr.splitlines()) == (0, warning)
    assert scored.stdout.splitlines()[-1] == "killed 0 of 0 mutants (score 1.00)"
