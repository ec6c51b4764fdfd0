"""Constraints as entries of the diff's decisions list (issue 11, point 1).

Fixture constraint-changed: v2 changes no term file; its vocabulary overlay
changes the constraint not-poisoned-there under the same id (a poisoned
character was never in the discard pile, now never in hand), withdraws
hand-not-paralyzed, adds territory-not-both and rewords
paralyzed-not-in-discard-pile with the same condition. A constraint of one side only
says how many situations of its facts it rules out; one changed under the
same id is listed as changed, with its former words and the situations it now
rules out and those it no longer rules out, counted and described.
"""

from __future__ import annotations

import json

from click.testing import CliRunner

from rulebook_compiler.cli import main
from rulebook_compiler.diff import names as N
from tests.diff.test_names import DIFF, _result, _run as run_fixture

FIXTURE = DIFF / "constraint-changed"


def _run(fmt: str) -> str:
    return run_fixture(FIXTURE.name, fmt)


def test_a_constraint_changed_under_its_id_is_listed_with_what_it_now_rules_out_and_allows():
    result = _result(FIXTURE.name)
    assert [(n.kind, n.name, n.status, n.meaning, n.old_meaning, n.situations,
             [(a.answer, a.situations, [d.text for d in a.descriptions]) for a in n.answers])
            for n in result.names] == [
        ("constraint", "hand-not-paralyzed", "removed", "A character in hand is not paralyzed.", None, 6,
         [("ruled out", 1, [])]),
        ("constraint", "not-poisoned-there", "changed", "A character in hand is not poisoned.",
         "A character in the discard pile is not poisoned.", 6,
         [("newly ruled out", 1, ["whenever location is hand and poisoned"]),
          ("no longer ruled out", 1, ["whenever location is discard_pile and poisoned"])]),
        ("constraint", "paralyzed-not-in-discard-pile", "changed", "A character in the discard pile is not paralyzed.",
         "A paralyzed character is not in the discard pile.", 6, [("ruled out", 1, [])]),
        ("constraint", "territory-not-both", "added",
         "A character in a territory is not both poisoned and paralyzed.", None, 12, [("ruled out", 1, [])]),
    ]


def test_the_text_lists_each_constraint_once():
    lines = _run("text").splitlines()
    assert lines[lines.index("decisions, predicates and constraints:"):] == [
        "decisions, predicates and constraints:",
        "  removed  constraint hand-not-paralyzed: A character in hand is not paralyzed.",
        "    ruled out 1 of 6 situations",
        "  changed  constraint not-poisoned-there: A character in hand is not poisoned.",
        "    old text: A character in the discard pile is not poisoned.",
        "    newly rules out 1 of 6 situations: whenever location is hand and poisoned",
        "    no longer rules out 1 situation: whenever location is discard_pile and poisoned",
        "  changed  constraint paralyzed-not-in-discard-pile: A character in the discard pile is not paralyzed.",
        "    old text: A paralyzed character is not in the discard pile.",
        "    rules out the same 1 of 6 situations",
        "  added  constraint territory-not-both: A character in a territory is not both poisoned and paralyzed.",
        "    rules out 1 of 12 situations",
    ]


def test_markdown_html_and_json_list_the_changed_constraint():
    md = _run("markdown").splitlines()
    start = md.index("- `not-poisoned-there` (constraint, changed): A character in hand is not poisoned.")
    assert md[start:start + 4] == [
        "- `not-poisoned-there` (constraint, changed): A character in hand is not poisoned.",
        "  - old text: A character in the discard pile is not poisoned.",
        "  - newly rules out 1 of 6 situations: whenever location is hand and poisoned",
        "  - no longer rules out 1 situation: whenever location is discard_pile and poisoned",
    ]
    html = _run("html")
    assert '<article id="name-constraint-not-poisoned-there" class="name changed">' in html
    data = json.loads(_run("json"))
    [changed] = [n for n in data["names"] if n["name"] == "not-poisoned-there"]
    assert changed == {
        "kind": "constraint", "name": "not-poisoned-there", "status": "changed", "term": None,
        "meaning": "A character in hand is not poisoned.", "old_clauses": [], "new_clauses": [], "changes": [],
        "situations": 6, "unanswered": None,
        "answers": [{"answer": "newly ruled out", "situations": 1,
                     "descriptions": ["whenever location is hand and poisoned"]},
                    {"answer": "no longer ruled out", "situations": 1,
                     "descriptions": ["whenever location is discard_pile and poisoned"]}],
        "behaviour": None, "conformance": None, "unanswered_reasons": {}, "predicates": [], "facts": [],
        "old_meaning": "A character in the discard pile is not poisoned.", "charged": [], "constraints": []}


def _fail_on_rule_change(fixture: str) -> int:
    result = CliRunner().invoke(main, ["diff", "v1", "v2", "--no-cache", "--fail-on", "rule-change",
                                       "--rulebook", str(DIFF / fixture)], catch_exceptions=False)
    assert result.stderr == ""
    return result.exit_code


def test_a_constraint_that_rules_situations_out_or_back_in_is_a_rule_change():
    """A constraint says which situations can arise in play: one added or withdrawn that rules out
    some situation, or changed to rule out others, changes play; one reworded with the same
    condition does not."""
    by_name = {n.name: N.rule_change(n) for n in _result(FIXTURE.name).names}
    assert by_name == {"hand-not-paralyzed": True, "not-poisoned-there": True,
                       "paralyzed-not-in-discard-pile": False, "territory-not-both": True}


def test_fail_on_rule_change_fails_when_a_constraint_rules_out_other_situations():
    assert _fail_on_rule_change(FIXTURE.name) == 1


def test_fail_on_rule_change_lets_a_constraint_reworded_with_the_same_condition_through():
    """Fixture constraint-reworded: v2 only rewords paralyzed-not-in-discard-pile."""
    assert [(n.name, n.status, [(a.answer, a.situations) for a in n.answers])
            for n in _result("constraint-reworded").names] == [
        ("paralyzed-not-in-discard-pile", "changed", [("ruled out", 1)])]
    assert _fail_on_rule_change("constraint-reworded") == 0
