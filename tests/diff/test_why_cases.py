"""The mislabellings that issue 11 lists under "Why", each on a small fixture named for what it shows.

Each test failed on the diff before issue 11 (main at f415986): rules moved to
a decision of one side only read "reworded"; a clause that restated its rule
was "semantic" because another clause changed the decision; an undeclared
merge read as a rename plus a removal; an inserted subrule of a numbered rules
document read as rewordings (tests/diff/test_gold.py).
"""

from __future__ import annotations

from pathlib import Path


from rulebook_compiler.build import load_rulebook
from rulebook_compiler.diff.engine import diff_editions

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
    assert [(u.ref, u.direction, u.side) for u in changes["curable"].impact] == [
        ("cure#in-battle", None, "old"), ("cure#targets", "broadened", "both")]


def test_the_text_format_words_a_use_of_the_old_edition_only(monkeypatch):
    from click.testing import CliRunner

    from rulebook_compiler.cli import main

    monkeypatch.setenv("NO_COLOR", "1")
    out = CliRunner().invoke(main, ["diff", "v1", "v2", "--rulebook", str(DIFF / "used-by-withdrawn")]).stdout
    assert ("    used by: cure#in-battle (rule for cure.in_battle, old edition only); "
            "cure#targets (rule for cure.may_target, broadened)") in out.splitlines()


def test_a_procedure_says_in_words_which_steps_were_inserted_reordered_and_renumbered():
    changes = {c.clause: c for c in _changes("steps-in-words")}
    assert changes["order"].procedure is not None
    assert changes["order"].procedure.as_json() == {
        "procedure": "turn.order", "old_count": 4, "new_count": 7,
        "inserted": [["x", 2], ["y", 5], ["z", 7]], "removed": [],
        "moved": [["c", 3, 3], ["b", 2, 4]], "renumbered": [["d", 4, 6]]}
    from rulebook_compiler.diff.present import details

    assert details(changes["order"]) == [
        "steps of turn.order: 4 steps -> 7; inserted x (step 2), y (step 5), z (step 7); "
        "reordered c (step 3), b (step 2 -> 4); renumbered d (4 -> 6)"]


def test_a_removed_step_is_named_with_its_old_place():
    from rulebook_compiler.diff.steps import ProcedureChange, procedure_words

    assert procedure_words(ProcedureChange("p", 3, 2, inserted=(), removed=(("b", 2),), moved=(),
                                           renumbered=(("c", 3, 2),))) == \
        "p: 3 steps -> 2; removed b (was step 2); renumbered c (3 -> 2)"


def test_an_added_clause_whose_own_answers_are_the_same_has_no_changed_behaviour():
    """The decision changed (paralyzed characters no longer asked), but only where the withdrawn
    clause decided: the added one gives the same answer wherever it decides (where it is asked)."""
    changes = {c.old_clause or c.new_clause: c for c in _changes("added-same-answers")}
    assert [(b.name, b.direction) for b in changes["new-rule"].behaviours] == [("cure.placed_in", "equivalent")]
    assert [(b.name, b.direction, [(dict(w.facts), w.old, w.new) for w in b.witnesses])
            for b in changes["old-rule"].behaviours] == [
        ("cure.placed_in", "changed", [({"paralyzed": True, "poisoned": False}, "home", None)])]
