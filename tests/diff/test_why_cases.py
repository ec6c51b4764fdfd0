"""The mislabellings that issue 11 lists under "Why", each on a small fixture named for what it shows.

Each test failed on the diff before issue 11 (main at f415986): rules moved to
a decision of one side only read "reworded"; a clause that restated its rule
was "semantic" because another clause changed the decision; an undeclared
merge read as a rename plus a removal; an inserted subrule of a numbered rules
document read as rewordings (tests/diff/test_gold.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from compiler.build import load_rulebook
from compiler.diff.engine import diff_editions

DIFF = Path(__file__).resolve().parents[1] / "fixtures" / "diff"


def _changes(fixture: str):
    book = load_rulebook(DIFF / fixture)
    return diff_editions(book, "v1", book, "v2").changes


def test_rules_that_move_to_a_decision_of_one_side_only_are_a_rule_change_not_a_rewording():
    assert [(c.clause, c.kind, c.level) for c in _changes("rules-to-a-new-decision")] == [
        (None, "semantic", "rule-change"), ("step-2", "semantic", "rule-change")]


def test_a_decision_that_changed_elsewhere_is_not_charged_to_a_clause_whose_answers_did_not():
    changes = {c.clause: c for c in _changes("per-clause")}
    assert [(k, c.kind, c.level) for k, c in changes.items()] == [
        ("no-paralyzed", "reworded", "clarification"), ("no-battle", "semantic", "rule-change")]
    assert [b.direction for b in changes["no-paralyzed"].behaviours] == ["equivalent"]
    # The witnesses of the clause that changed are its own: it decides each of them on some side.
    witnesses = changes["no-battle"].behaviour.witnesses
    assert [(dict(w.facts)["phase"], w.old, w.new, w.old_clauses, w.new_clauses) for w in witnesses] == [
        ("battle", False, None, ("cure#no-battle",), ()),
        ("discard", None, False, (), ("cure#no-battle",)),
    ]


def test_two_clauses_joined_without_declared_lineage_are_a_merge_not_a_removal():
    assert [(c.old_clause, c.new_clause, c.kind, c.matched_by) for c in _changes("undeclared-merge")] == [
        ("not-from-discard-pile+while-being-discarded", "heal-while-being-discarded", "merged", "merge")]


def test_used_by_says_which_uses_one_edition_only_has():
    changes = {c.clause: c for c in _changes("used-by-withdrawn")}
    assert [(u["ref"], u["direction"], u["side"]) for u in changes["curable"].impact] == [
        ("cure#in-battle", None, "old"), ("cure#targets", "broadened", "both")]


def test_the_text_format_words_a_use_of_the_old_edition_only(monkeypatch):
    from click.testing import CliRunner

    from compiler.cli import main

    monkeypatch.setenv("NO_COLOR", "1")
    out = CliRunner().invoke(main, ["diff", "v1", "v2", "--rulebook", str(DIFF / "used-by-withdrawn")]).stdout
    assert ("    used by: cure#in-battle (rule for cure.in_battle, old edition only); "
            "cure#targets (rule for cure.may_target, broadened)") in out.splitlines()
