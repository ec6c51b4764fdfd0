"""Suite strength by mutation: kills, survivors, equivalent mutants, and the bundled rulebook's score."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from rulebook_compiler.build import load_rulebook
from rulebook_compiler.conformance.cases import build_suite
from rulebook_compiler.conformance.mutants import measure, mutants

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


def test_operators_on_minimal_v2():
    book = load_rulebook(FIXTURES / "minimal")
    found = {(m.operator, m.clause, m.detail) for m in mutants(book, book.edition_by_id["v2"])}
    assert ("remove an exception", "cure#not-in-battle", "no longer an exception to cure#targets") in found
    assert ("swap all/any", "cure#curable", "defines curable: any of 'poisoned or paralyzed' becomes all") in found
    assert ("negate an atom", "cure#curable", "defines curable: 'poisoned' becomes not") in found
    assert ("drop an operand", "cure#curable", "defines curable: drop 'paralyzed' from any") in found
    assert ("change an enum value", "cure#not-in-battle", "test: phase: battle becomes discard") in found


def test_exhaustive_suite_kills_all_and_a_thin_suite_does_not():
    book = load_rulebook(FIXTURES / "minimal")
    edition = book.edition_by_id["v2"]
    suite = build_suite(book, edition, max_exhaustive=4096)
    report = measure(book, edition, suite)
    assert report.score == 1.0 and report.count("killed") == report.scored > 0
    # keep only the cases outside battle: the battle exception's mutants survive
    (d,) = [d for d in suite.decisions if d.decision == "cure.may_target"]
    thin = replace(suite, decisions=(replace(d, cases=tuple(c for c in d.cases
                                                            if c.facts_dict["phase"] != "battle")),))
    weak = measure(book, edition, thin)
    survivors = {r.mutant.label for r in weak.results if r.status == "survived"}
    assert survivors == {"cure#not-in-battle: remove an exception: no longer an exception to cure#targets"}
    assert weak.score < 1.0


def test_equivalent_mutants_are_excluded():
    book = load_rulebook(FIXTURES / "conformance" / "redundant")
    edition = book.edition_by_id["r1"]
    report = measure(book, edition, build_suite(book, edition))
    equivalent = {r.mutant.detail for r in report.results if r.status == "equivalent"}
    # any: [poisoned, {all: [poisoned, diseased]}]: the second alternative changes nothing
    assert "test: drop 'poisoned and diseased' from any" in equivalent
    assert report.score == 1.0 and report.count("survived") == 0


@pytest.mark.parametrize("edition", ["2012", "3.0.0", "4.0.0-draft", "5.0.0"])
def test_bundled_score_is_one(bundled, edition):
    e = bundled.edition_by_id[edition]
    report = measure(bundled, e, build_suite(bundled, e))
    assert report.count("survived") == 0 and report.count("unknown") == 0
    assert report.score == 1.0


def test_cli_prints_score_and_sizes(cli):
    code, out, _ = cli("conformance", "mutants", "--rulebook", FIXTURES / "minimal", "--edition", "v2",
                       "--max-exhaustive", "4096")
    assert (code, out) == (0, "edition v2: cases per decision (against the exhaustive count):\n"
                              "  cure.may_target: 12 of 12 (exhaustive)\n"
                              "killed 10 of 10 mutants (score 1.00)\n")
    code, out, _ = cli("conformance", "mutants", "--rulebook", FIXTURES / "minimal", "--edition", "v2",
                       "--fail-under", "1")
    assert code == 0  # 1.00 is not under 1
    assert out == ("edition v2: cases per decision (against the exhaustive count):\n"
                   "  cure.may_target: 4 of 12 (mcdc)\n"
                   "killed 10 of 10 mutants (score 1.00)\n")


def test_the_mcdc_set_kills_the_mutant_the_covering_set_missed(cli):
    """covering-gap: the former covering set (drawn from a pool) let 'mode: two becomes four' survive
    (20 of 21); the MC/DC set adds the first situation that tells each mutant from the decision."""
    code, out, _ = cli("conformance", "mutants", "--rulebook", FIXTURES / "conformance" / "covering-gap",
                       "--edition", "x1", "--fail-under", "1")
    assert (code, out.splitlines()[-1]) == (0, "killed 21 of 21 mutants (score 1.00)")


@pytest.fixture
def without_mode_two(monkeypatch):
    """The suite without its cases in mode two: one mutant ('two becomes four') is left alive."""
    from rulebook_compiler.conformance import cases

    real = cases.build_suite

    def thin(book, edition, max_exhaustive=cases.MAX_EXHAUSTIVE):
        suite = real(book, edition, max_exhaustive)
        return replace(suite, decisions=tuple(replace(d, cases=tuple(c for c in d.cases
                                                                     if c.facts_dict.get("mode") != "two"))
                                              for d in suite.decisions))

    monkeypatch.setattr(cases, "build_suite", thin)


@pytest.mark.parametrize(("threshold", "exit_code"), [("0.95", 0), ("0.96", 1), ("1", 1)])
def test_fail_under_exits_1_only_below_the_threshold(cli, without_mode_two, threshold, exit_code):
    """20 of 21 mutants killed (0.952...): 0.95 passes, 0.96 fails."""
    code, out, _ = cli("conformance", "mutants", "--rulebook", FIXTURES / "conformance" / "covering-gap",
                       "--edition", "x1", "--fail-under", threshold)
    assert out.splitlines()[-2:] == ["survived: gate#mode: change an enum value: test: mode: two becomes four",
                                     "killed 20 of 21 mutants (score 0.95)"]
    assert code == exit_code


def test_table_rows_count_once():
    """The table fixture: 3 rows and 1 rule, so 3 + 1 rules in the model, 8 cases, 24 mutants (6 or 7 a row)."""
    book = load_rulebook(FIXTURES / "table")
    edition = book.edition_by_id["t1"]
    assert [(r.clause, r.from_table) for r in edition.rules["targeting.location"]] == [
        ("targeting#draw-discard", True), ("targeting#heal-band", True), ("targeting#heal-band", True),
        ("targeting#blocked", False)]
    suite = build_suite(book, edition, max_exhaustive=4096)
    (d,) = [d for d in suite.decisions if d.decision == "targeting.location"]
    assert (d.strategy, d.allowed, len(d.cases)) == ("exhaustive", 8, 8)
    found = [m.clause for m in mutants(book, edition)]
    assert {c: found.count(c) for c in found} == {
        "targeting#draw-discard (table row 1)": 7, "targeting#heal-band (table row 1)": 6,
        "targeting#heal-band (table row 2)": 6, "targeting#blocked": 5}
    assert measure(book, edition, suite).score == 1.0
