"""Matching inside one term has a budget (issue 23 point 7): ``TERM_PAIRS`` pairs of leftovers.

Every old leftover of a term was compared with every new one, and each with every part of a
possible split or merge: 90 s at 800 clauses, x3.9 per doubling. Beyond the budget (old
leftovers times new ones), the term's leftovers are compared under their own id only, and the
match reports the term (``OverBudget``), which the commands print as a located warning. The
tests count comparisons (``_single``: one clause against another; ``_containment``: a part
against a whole), not seconds.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulebook_compiler.cli import main
from rulebook_compiler.diff import match
from rulebook_compiler.diff.match import OverBudget, TermPair, match_terms
from tests.diff.test_match_pairing import LOC, _term

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
N = 30


def _counted(monkeypatch) -> dict[str, int]:
    calls = {"_single": 0, "_containment": 0}
    for name in calls:
        real = getattr(match, name)

        def counting(*args, _real=real, _name=name, **kwargs):
            calls[_name] += 1
            return _real(*args, **kwargs)

        monkeypatch.setattr(match, name, counting)
    return calls


def _rewritten() -> TermPair:
    """N clauses, each renamed with one word of five changed (0.8 alike), but "c0" kept under its id."""
    old = {f"c{i}": f"a{i} b{i} c{i} d{i} e{i}" for i in range(N)}
    new = {("c0" if i == 0 else f"d{i}"): f"a{i} b{i} c{i} d{i} z{i}" for i in range(N)}
    return TermPair("t", _term("t", old, "1"), _term("t", new, "2"))


def _pairs(matched) -> list[tuple[tuple[str, ...], tuple[str, ...], str | None]]:
    return sorted((tuple(c.ref for c in p.old), tuple(c.ref for c in p.new), p.matched_by) for p in matched.pairings)


def test_within_the_budget_every_pair_of_the_term_is_compared(monkeypatch):
    monkeypatch.setattr(match, "TERM_PAIRS", N * N)
    calls = _counted(monkeypatch)
    matched = match_terms([_rewritten()])
    # every old leftover against every new one, and each clause as a whole against the other side's parts
    assert calls == {"_single": N * N, "_containment": 2 * N * N}
    assert matched.over_budget == ()
    assert _pairs(matched) == sorted([(("t#c0",), ("t#c0",), "id")] +
                                     [((f"t#c{i}",), (f"t#d{i}",), "text") for i in range(1, N)])


def test_beyond_the_budget_the_term_is_compared_under_its_own_ids_only_and_said(monkeypatch):
    monkeypatch.setattr(match, "TERM_PAIRS", N * N - 1)
    calls = _counted(monkeypatch)
    matched = match_terms([_rewritten()])
    assert calls == {"_single": 1, "_containment": 0}  # c0 with c0: the one clause kept under its id
    assert matched.over_budget == (OverBudget("t", LOC, N, N, N * N - 1),)
    assert _pairs(matched) == sorted([(("t#c0",), ("t#c0",), "id")] +
                                     [((f"t#c{i}",), (), None) for i in range(1, N)] +
                                     [((), (f"t#d{i}",), None) for i in range(1, N)])
    assert str(matched.over_budget[0].diagnostic()) == (
        "t.yaml:1:1: warning: term 't': 30 old and 30 new clauses left to pair make 900 pairs, over TERM_PAIRS "
        "(899): they were paired under their own id only\n"
        "  hint: a clause of this term renamed, moved, split or merged reads as removed and added; the "
        "limit is TERM_PAIRS in rulebook_compiler/diff/match.py (docs/format.md, Limits)")


@pytest.mark.parametrize("clauses", [100, 200])
def test_beyond_the_budget_the_comparisons_grow_with_the_clauses_not_their_square(monkeypatch, clauses):
    monkeypatch.setattr(match, "TERM_PAIRS", 0)
    calls = _counted(monkeypatch)
    old = {f"c{i}": f"a{i} b{i}" for i in range(clauses)}
    new = {f"c{i}": f"a{i} z{i}" for i in range(clauses)}
    matched = match_terms([TermPair("t", _term("t", old, "1"), _term("t", new, "2"))])
    assert calls == {"_single": clauses, "_containment": 0}
    assert [(o.term, o.old, o.new) for o in matched.over_budget] == [("t", clauses, clauses)]


def test_the_budget_is_per_term_another_term_is_still_compared_pair_by_pair(monkeypatch):
    monkeypatch.setattr(match, "TERM_PAIRS", N * N - 1)
    small = TermPair("s", _term("s", {"x": "p q r s t"}, "1"), _term("s", {"y": "p q r s u"}, "2"))
    matched = match_terms([small, _rewritten()])
    assert [o.term for o in matched.over_budget] == ["t"]
    assert (("s#x",), ("s#y",), "text") in _pairs(matched)


def test_the_diff_command_warns_at_the_term_over_the_budget(tmp_path, monkeypatch):
    root = tmp_path / "book"
    shutil.copytree(FIXTURES / "minimal", root)
    # v1 -> v2: the clause "curable" is reworded (1 old leftover), "not-in-battle" added (2 new)
    monkeypatch.setattr(match, "TERM_PAIRS", 1)
    monkeypatch.chdir(tmp_path)
    got = CliRunner().invoke(main, ["diff", "v1", "v2", "--rulebook", "book"], env={"RULEBOOK_NO_CACHE": "1"},
                             catch_exceptions=False)
    assert got.exit_code == 0
    assert got.stderr.splitlines() == [
        "book/editions/v2/cure.yaml:1:1: warning: term 'cure': 1 old and 2 new clauses left to pair make 2 pairs, "
        "over TERM_PAIRS (1): they were paired under their own id only",
        "  hint: a clause of this term renamed, moved, split or merged reads as removed and added; the "
        "limit is TERM_PAIRS in rulebook_compiler/diff/match.py (docs/format.md, Limits)"]
    monkeypatch.setattr(match, "TERM_PAIRS", 2)
    within = CliRunner().invoke(main, ["diff", "v1", "v2", "--rulebook", "book"], env={"RULEBOOK_NO_CACHE": "1"},
                                catch_exceptions=False)
    assert (within.stderr, within.stdout) == ("", got.stdout)
