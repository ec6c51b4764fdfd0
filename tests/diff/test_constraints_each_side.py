"""Each edition's answers read with its own constraints (issue 11, point 1: "A clause is semantic
when its rules answer differently somewhere").

Both fixtures copy constraint-changed's vocabularies (v2 withdraws hand-not-paralyzed, changes
not-poisoned-there under the same id from "never poisoned in the discard pile" to "never poisoned
in hand", adds territory-not-both, rewords paralyzed-not-in-discard-pile) and change only the rule
of cure#poisoned, its words unchanged. v1's rule: cure.may_target requires poisoned.

A situation one side's own constraints rule out and the other's allow is one that side could not
describe: it gives no answer there ("no such situation", JSON reason "no situation"), as for a value
an enum fact gained (test_names_vocabulary_values.py). Read over both editions' constraints at once
(the withdrawn one kept, the changed one in its new condition only), the first fixture's new yes was
hidden ("editorial, equivalent in all 6 situations") and the second's witness said "old yes" where v1
had no such situation.
"""

from __future__ import annotations

import json

from rulebook_compiler.diff.behaviour import NO_SITUATION
from tests.diff.test_names import _result, _run

WITHDRAWN = "constraint-withdrawn-answers-anew"
SAME_ID = "constraint-changed-same-id-no-situation"


def _clause(fixture: str):
    result = _result(fixture)
    assert [(c.kind, c.term, c.clause, c.level) for c in result.changes] == [
        ("semantic", "cure", "poisoned", "rule-change")]
    [behaviour] = result.changes[0].behaviours
    return behaviour


def _transition(t) -> tuple:
    return (t.old, t.old_reason, t.new, t.new_reason, t.situations, [d.text for d in t.descriptions])


def _witness(behaviour, facts: dict):
    [w] = [w for w in behaviour.witnesses if dict(w.facts) == facts]
    return (w.old, w.old_reason, w.old_clauses, w.new, w.new_reason, w.new_clauses)


def test_a_yes_where_a_withdrawn_constraint_ruled_the_situation_out_is_a_rule_change():
    # Over the 12 situations of poisoned, paralyzed and location, v1's constraints allow 7 and v2's 7;
    # 9 are allowed by one or the other. A paralyzed character in hand, not poisoned: v1 could not
    # have it (hand-not-paralyzed), v2 now says yes there (the clause's new rule). The others come
    # with the changed constraints: v2 says yes to a poisoned character in the discard pile (which
    # v1's not-poisoned-there ruled out) and has none poisoned in hand, nor poisoned and paralyzed
    # in a territory (territory-not-both).
    b = _clause(WITHDRAWN)
    assert (b.name, b.direction, b.extent()) == (
        "cure.may_target", "changed", "changed: narrowed in 2 of 9 situations; broadened in 2")
    assert [_transition(t) for t in b.transitions] == [
        (True, None, None, NO_SITUATION, 2,
         ["whenever paralyzed and poisoned", "whenever location is hand and poisoned"]),
        (None, NO_SITUATION, True, None, 2,
         ["whenever location is not territory and paralyzed", "whenever location is discard_pile and poisoned"]),
    ]
    assert _witness(b, {"location": "hand", "paralyzed": True, "poisoned": False}) == (
        None, NO_SITUATION, (), True, None, ("cure#poisoned",))


def test_the_text_says_the_clause_answers_where_the_old_edition_had_no_such_situation():
    lines = _run(WITHDRAWN).splitlines()
    assert lines[0] == "rulebook diff v1 -> v2: 1 semantic"
    [start] = [i for i, line in enumerate(lines) if line.startswith("  semantic  cure#poisoned  ")]
    assert lines[start + 1:start + 4] == [
        "    A cure may target a poisoned character.",
        "    behaviour: cure.may_target changed: narrowed in 2 of 9 situations; broadened in 2 (see decisions below)",
        "    drift: the machine-readable meaning changed but the text did not",
    ]
    assert "      when location=hand, paralyzed: old no such situation, new yes (cure#poisoned)" in lines


def test_a_constraint_changed_under_its_id_gives_no_old_yes_where_the_old_condition_ruled_out():
    # Over the 6 situations of poisoned and location: v1 rules out poisoned in the discard pile,
    # v2 poisoned in hand; each side gives no answer where its own condition rules out.
    b = _clause(SAME_ID)
    assert (b.direction, b.extent()) == ("changed", "changed: narrowed in 1 of 6 situations; broadened in none; new in 1")
    assert [_transition(t) for t in b.transitions] == [
        (True, None, None, NO_SITUATION, 1, ["whenever location is hand and poisoned"]),  # v2 has none
        (None, NO_SITUATION, False, None, 1, ["whenever location is discard_pile and poisoned"]),  # v1 had none
    ]
    assert _witness(b, {"location": "discard_pile", "poisoned": True}) == (
        None, NO_SITUATION, (), False, None, ("cure#poisoned",))
    assert _witness(b, {"location": "hand", "poisoned": True}) == (
        True, None, ("cure#poisoned",), None, NO_SITUATION, ())


def test_json_gives_the_reason_no_situation_in_the_witness():
    data = json.loads(_run(SAME_ID, "json"))
    [change] = data["changes"]
    assert change["behaviour"]["name"] == "cure.may_target"
    [witness] = [w for w in change["behaviour"]["witnesses"]
                 if w["facts"] == {"location": "discard_pile", "poisoned": True}]
    assert (witness["old"], witness["old_reason"], witness["new"], witness["new_reason"]) == (
        None, "no situation", False, None)
