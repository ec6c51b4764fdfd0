"""Conformance commands on a decision whose situations are too costly to search (issue 8, "Bounded everything").

bench/hostile.py's tied-constraints rulebook ties the one fact of ``t.q`` to
twelve others: each of its two situations needs 4,096 combinations tried. Once
such a decision (at 30 ties) made ``conformance generate`` run for more than
300 s while ``check`` stopped at its step budget; every command that searches
situations now shares that budget ($RULEBOOK_MAX_CHECK_STEPS, lowered here so
that the test is short) and says which decision it did not search.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

# A second term whose decision is cheap: its cases are generated all the same.
U_TERM = """id: u
name: U
decisions:
  - {name: u.q, type: bool, meaning: Q.}
sections:
  - key: s
    kind: definition
    clauses:
      - {id: pos, text: Yes., rules: [{decision: u.q, value: true, when: x0}]}
      - {id: neg, text: No., rules: [{decision: u.q, value: false, when: {not: x0}}]}
"""

HINT = ("  hint: raise the limit with the environment variable RULEBOOK_MAX_CHECK_STEPS (it bounds the time of "
        "each decision's search), or make the decision and its constraints depend on fewer facts\n")


def _warning(what: str, left: str) -> str:
    return (f"tied/editions/v1/t.yaml:4:5: warning: decision 't.q' is too large to {what}: its situations take "
            f"more than 1,000 condition steps to search; {left}\n" + HINT)


@pytest.fixture
def tied(tmp_path, monkeypatch, hostile) -> Path:
    root = hostile.tied_constraints(tmp_path / "tied", 12)
    (root / "editions" / "v1" / "u.yaml").write_text(U_TERM, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("RULEBOOK_MAX_CHECK_STEPS", "1000")
    return Path("tied")


def test_generate_writes_the_cases_it_can_and_names_the_decision_it_did_not_search(cli, tied):
    code, out, err = cli("conformance", "generate", "--rulebook", tied, "--edition", "v1", "--out", "suite")
    assert code == 0
    assert err == _warning("generate cases for", "it has no cases")
    assert out == "edition v1: 2 cases over 2 decisions: suite/cases.json, suite/test_conformance.py\n"
    data = json.loads(Path("suite/cases.json").read_text(encoding="utf-8"))
    by_decision = {d["decision"]: d for d in data["decisions"]}
    assert by_decision["t.q"] == {"decision": "t.q", "type": "bool", "values": [], "facts": ["a"],
                                  "strategy": "too-large", "allowed": None, "cases": 0, "unanswered": 0,
                                  "uncovered": []}
    assert (by_decision["u.q"]["strategy"], by_decision["u.q"]["cases"]) == ("exhaustive", 2)
    assert sorted(c["name"] for c in data["cases"]) == ["u.q[-]", "u.q[x0]"]


def test_run_runs_the_cases_it_can(cli, tied, monkeypatch):
    Path("u_engine.py").write_text("class U:\n    def decide(self, decision, facts):\n        return facts['x0']\n", encoding="utf-8")
    monkeypatch.syspath_prepend(".")
    code, out, err = cli("conformance", "run", "--rulebook", tied, "--edition", "v1", "--engine", "u_engine:U")
    assert (code, out) == (0, "2 passed, 0 failed\n")
    assert err == _warning("generate cases for", "it has no cases to run")


def test_mutants_of_the_decision_are_not_scored(cli, tied):
    code, out, err = cli("conformance", "mutants", "--rulebook", tied, "--edition", "v1", "--fail-under", "1")
    assert code == 0
    assert err == _warning("score mutants of", "its mutants are not scored")
    assert out == ("edition v1: cases per decision (against the exhaustive count):\n"
                   "  t.q: 0 of ? (too-large)\n"
                   "  u.q: 2 of 2 (exhaustive)\n"
                   "4 not-scored mutants excluded (their decisions are too large to search):\n"
                   "  t#base: 1\n"
                   "  t#top: 3\n"
                   "killed 4 of 4 mutants (score 1.00)\n")


@pytest.mark.parametrize("command", [("generate", "--out", "suite"), ("mutants",)])
def test_a_limit_that_is_not_a_number_is_a_usage_error(cli, tied, monkeypatch, command):
    monkeypatch.setenv("RULEBOOK_MAX_CHECK_STEPS", "ten")
    code, out, err = cli("conformance", command[0], "--rulebook", tied, "--edition", "v1", *command[1:])
    assert (code, out) == (2, "")
    assert err == ("rulebook: error: RULEBOOK_MAX_CHECK_STEPS must be a positive whole number, not 'ten'\n"
                   "  hint: unset it for the default, 10,000,000\n")


def test_mutants_stop_scoring_a_decision_when_running_them_spends_the_budget(cli, hostile, tmp_path, monkeypatch):
    # exception-chain 80 (6,400 rules, 38,000 mutants, each a model of 6,400 rules) ran for
    # more than 60 s in 2.3 GB; each decision's mutant runs now share one step budget
    hostile.exception_chain(tmp_path / "chain", 4)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("RULEBOOK_MAX_CHECK_STEPS", "1000")
    code, out, err = cli("conformance", "mutants", "--rulebook", "chain", "--edition", "v1")
    assert code == 0
    assert err == ("chain/editions/v1/t.yaml:4:5: warning: decision 't.q' is too large to score all mutants of: "
                   "its situations take more than 1,000 condition steps to search; the mutants left are not scored\n"
                   + HINT)
    assert out == ("edition v1: cases per decision (against the exhaustive count):\n"
                   "  t.q: 2 of 2 (exhaustive)\n"
                   "86 not-scored mutants excluded (their decisions are too large to search):\n"
                   "  t#c0: 2\n"
                   "  t#c1: 28\n"
                   "  t#c2: 28\n"
                   "  t#c3: 28\n"
                   "killed 2 of 2 mutants (score 1.00)\n")
