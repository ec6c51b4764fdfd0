"""Decisions whose rules did not change, whose answers a changed constraint changed (issue 11, point 1).

A constraint says which situations can arise in play. Each side is read with its own constraints
(test_constraints_each_side.py), but a decision or predicate whose rules are unchanged was compared
only when its term changed: when only a constraint changed (added, withdrawn, or changed in its
condition under its id), a situation newly possible got an answer where the old edition had "no such
situation" (or one newly ruled out lost its answer), and nothing said so. As for a value an enum fact
gained (test_names_vocabulary_values.py), the names that read the facts a changed constraint tests are
compared, and those that answer differently somewhere are listed as changed by the vocabulary.

Fixtures (v2 changes no term file in any of them; vocabulary: poisoned, location in territory or hand):
- constraint-withdrawn-unchanged-rules-answer-anew: v2 withdraws hand-not-poisoned. cure.may_target
  (requires poisoned and in hand) now says yes to a poisoned character in hand, which v1 could not
  describe. move.may_move reads location only: every location is possible on both sides.
- constraint-added-rules-out-an-answered-situation: the reverse, v2 adds hand-not-poisoned.
- constraint-changed-unchanged-rules-answer-anew: v2 changes hand-not-poisoned under its id to rule
  out a poisoned character in a territory instead.
- constraint-reworded-same-condition-nothing-read-anew: v2 rewords it with the same condition.
"""

from __future__ import annotations

import json

from rulebook_compiler.diff import names as N
from tests.diff.test_changelog_vocabulary import _changelog
from tests.diff.test_names import _result, _run
from tests.diff.test_names_constraints import _fail_on_rule_change

WITHDRAWN = "constraint-withdrawn-unchanged-rules-answer-anew"
ADDED = "constraint-added-rules-out-an-answered-situation"
CHANGED = "constraint-changed-unchanged-rules-answer-anew"
REWORDED = "constraint-reworded-same-condition-nothing-read-anew"


def _names(fixture: str) -> list[tuple]:
    return [(n.kind, n.name, n.status, n.changes, n.constraints, N.rule_change(n),
             n.behaviour.extent() if n.behaviour else None,
             [(t.old, t.old_reason, t.new, t.new_reason, t.situations, [d.text for d in t.descriptions])
              for t in n.behaviour.transitions] if n.behaviour else None)
            for n in _result(fixture).names]


def test_a_withdrawn_constraint_lists_a_decision_with_unchanged_rules_that_now_answers_there():
    # Over the 4 situations of location and poisoned: v1 rules out a poisoned character in hand, v2
    # allows all 4. cure.may_target says yes there in v2, v1 had no such situation.
    assert _names(WITHDRAWN) == [
        ("decision", "cure.may_target", "changed", (), (("hand-not-poisoned", "withdrawn"),), True,
         "broadened in 1 of 4 situations; narrowed in none",
         [(None, "no situation", True, None, 1, ["whenever location is hand and poisoned"])]),
        ("constraint", "hand-not-poisoned", "removed", (), (), True, None, None),
    ]
    # move.may_move reads location, a fact the constraint tests: compared, and found the same
    assert [(b.name, b.direction) for b in _result(WITHDRAWN).behaviours] == [
        ("cure.may_target", "broadened"), ("move.may_move", "equivalent")]


def test_an_added_constraint_lists_a_decision_whose_answer_it_rules_out():
    assert _names(ADDED) == [
        ("decision", "cure.may_target", "changed", (), (("hand-not-poisoned", "added"),), True,
         "narrowed in 1 of 4 situations; broadened in none",
         [(True, None, None, "no situation", 1, ["whenever location is hand and poisoned"])]),
        ("constraint", "hand-not-poisoned", "added", (), (), True, None, None),
    ]


def test_a_constraint_changed_under_its_id_lists_the_decision_both_ways():
    # v1 rules out poisoned in hand, v2 poisoned in a territory: v2 says yes in hand where v1 had no
    # such situation, and has no such situation in a territory where v1 said no.
    assert _names(CHANGED)[0] == (
        "decision", "cure.may_target", "changed", (), (("hand-not-poisoned", "changed"),), True,
        "changed: broadened in 1 of 4 situations; narrowed in none; gone in 1",
        [(False, None, None, "no situation", 1, ["whenever location is territory and poisoned"]),
         (None, "no situation", True, None, 1, ["whenever location is hand and poisoned"])])


def test_a_constraint_reworded_with_the_same_condition_lists_nothing_and_compares_nothing():
    result = _result(REWORDED)
    assert [(n.kind, n.name, n.status) for n in result.names] == [("constraint", "hand-not-poisoned", "changed")]
    assert result.behaviours == ()


def test_the_text_says_which_constraint_changed_the_answers():
    assert _run(WITHDRAWN).splitlines() == [
        "rulebook diff v1 -> v2: no clause changed; answers changed by the vocabulary: 1 decision",
        "",
        "vocabulary:",
        "  constraint withdrawn: hand-not-poisoned",
        "",
        "decisions, predicates and constraints:",
        "  changed  decision cure.may_target (cure): Whether a cure may target the character.",
        "    cure.may_target broadened in 1 of 4 situations; narrowed in none",
        "      no such situation -> yes in 1 situation: whenever location is hand and poisoned",
        "      when location=hand, poisoned: old no such situation, new yes (cure#poisoned-in-hand)",
        "    changed by the vocabulary: constraint hand-not-poisoned withdrawn",
        "  removed  constraint hand-not-poisoned: A character in hand is not poisoned.",
        "    ruled out 1 of 4 situations",
    ]


def test_markdown_html_and_json_say_which_constraint_changed_the_answers():
    md = _run(ADDED, "markdown").splitlines()
    assert md[2] == "**0 rule changes**, 0 clarifications, 0 editorial; " \
                    "**answers changed by the vocabulary**: 1 decision"
    # v1 is published: its suite's case of a poisoned character in hand (yes) has no such situation in v2
    flips = "**breaks conformance**: 1 of 3 cases of v1's suite flips"
    assert "- `cure.may_target` (decision, changed by the vocabulary): " \
           "narrowed in 1 of 4 situations; broadened in none; " + flips in md
    assert "- `cure.may_target` (decision, changed): narrowed in 1 of 4 situations; broadened in none; " \
           "changed by the vocabulary: constraint `hand-not-poisoned` added; " + flips in md
    html = _run(ADDED, "html")
    assert "<p>changed by the vocabulary: constraint <code>hand-not-poisoned</code> added</p>" in html
    data = json.loads(_run(ADDED, "json"))
    assert [(n["name"], n["facts"], n["constraints"]) for n in data["names"]] == [
        ("cure.may_target", [], [{"id": "hand-not-poisoned", "change": "added"}]),
        ("hand-not-poisoned", [], []),
    ]


def test_fail_on_rule_change_counts_the_decision_and_lets_a_reworded_constraint_through():
    assert (_fail_on_rule_change(WITHDRAWN), _fail_on_rule_change(REWORDED)) == (1, 0)


def test_the_changelog_lists_the_decision_under_its_term_s_rule_changes():
    assert _changelog(WITHDRAWN) == (
        "# What changed in Poisoned in hand\n\n"
        "Changes from None in hand poisoned (v1) to v2.\n\n"
        "## Cure\n\n### Rule changes\n\n"
        "- **Changed by the vocabulary** (`cure.may_target`): Whether a cure may target the character.\n"
        "  - Changed by the vocabulary: constraint hand-not-poisoned withdrawn.\n"
        "  - When location is hand and poisoned: was **not possible**, now **yes**.\n")


def test_a_predicate_with_unchanged_rules_is_listed_with_the_decision_that_uses_it():
    """Fixture constraint-withdrawn-predicate-answers-anew: curable (poisoned and in hand), which
    cure.may_target requires; v2 withdraws hand-not-poisoned. Both now say yes to a poisoned character
    in hand; the decision also refers to the predicate's entry."""
    assert [(n.kind, n.name, n.behaviour.extent() if n.behaviour else None, N.through_lines(n))
            for n in _result("constraint-withdrawn-predicate-answers-anew").names] == [
        ("predicate", "curable", "broadened in 1 of 4 situations; narrowed in none",
         ["changed by the vocabulary: constraint hand-not-poisoned withdrawn"]),
        ("decision", "cure.may_target", "broadened in 1 of 4 situations; narrowed in none",
         ["uses changed predicate curable", "changed by the vocabulary: constraint hand-not-poisoned withdrawn"]),
        ("constraint", "hand-not-poisoned", None, []),
    ]
