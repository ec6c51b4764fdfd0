"""Which clause a decision's change is charged to (rulebook_compiler/diff/clause_behaviour.py).

A clause is charged where its own rules decide on either side; not where its rules
say the same on both sides and another clause's exception, changed, now overrides
it or no longer does (issue 11, point 1: "heal#battle-resolution-discard ... semantic
with their own answers unchanged"). A clause whose own exceptions changed is charged
where that precedence decides.
"""

from __future__ import annotations

from pathlib import Path

from rulebook_compiler.build import load_rulebook
from rulebook_compiler.diff.engine import diff_editions

DIFF = Path(__file__).resolve().parents[1] / "fixtures" / "diff"


def _changes(fixture: str) -> dict:
    book = load_rulebook(DIFF / fixture)
    return {c.clause: c for c in diff_editions(book, "v1", book, "v2").changes}


def _witnesses(change) -> list[tuple]:
    return [(dict(w.facts), w.old, w.new, w.old_clauses, w.new_clauses) for w in change.behaviour.witnesses]


def test_a_clause_overridden_by_a_changed_exception_is_not_charged_with_it():
    changes = _changes("overridden-by-a-changed-exception")
    assert [(k, c.kind, c.level) for k, c in changes.items()] == [
        ("controller", "reworded", "clarification"), ("brigade", "semantic", "rule-change")]
    assert [(b.name, b.direction) for b in changes["controller"].behaviours] == [("cure.may_play", "equivalent")]
    facts = {"brigade_matches": True, "can_use": False, "own_character": True}
    assert _witnesses(changes["brigade"]) == [
        (facts, True, False, ("cure#controller",), ("cure#brigade",)),
        (facts | {"brigade_matches": False, "can_use": True}, False, True, ("cure#brigade",), ("cure#controller",)),
    ]


def test_clauses_that_reverse_which_overrides_the_other_are_each_charged():
    changes = _changes("precedence-reversed")
    assert [(k, c.kind, c.level) for k, c in changes.items()] == [
        ("allowed", "semantic", "rule-change"), ("not-paralyzed", "semantic", "rule-change")]
    for clause in ("allowed", "not-paralyzed"):
        assert _witnesses(changes[clause]) == [
            ({"paralyzed": True}, False, True, ("cure#not-paralyzed",), ("cure#allowed",))]
