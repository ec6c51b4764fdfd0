"""A predicate whose answers changed is an entry of its own in the decisions list (issue 11, point 1).

Fixture predicate-answers-changed: v2 widens the predicate ``curable`` (its
clause cure#curable) to paralyzed characters; the decision cure.may_target uses
it from cure#targets, whose text and rules are unchanged. The predicate is
listed once, changed, with its counts both ways, descriptions, witnesses and
the clause that defines it; the decision that uses it refers to it, and so does
the clause change that made it.
"""

from __future__ import annotations

import json
import os

from rulebook_compiler.diff.names import NameRef

from tests.diff.test_names import DIFF, _result, _run as run_fixture

FIXTURE = DIFF / "predicate-answers-changed"

PREDICATE_BEHAVIOUR = {
    "name": "curable", "kind": "predicate", "direction": "broadened",
    "witnesses": [{"facts": {"paralyzed": True, "poisoned": False}, "old": False, "new": True,
                   "old_clauses": ["cure#curable"], "new_clauses": ["cure#curable"], "old_unknown": [],
                   "new_unknown": [], "old_reason": None, "new_reason": None}],
    "situations": 4, "changed": 1, "broadened": 1, "narrowed": 0,
    "transitions": [{"old": False, "old_reason": None, "new": True, "new_reason": None, "situations": 1,
                     "descriptions": [{"facts": {"paralyzed": [True], "poisoned": [False]}, "situations": 1,
                                       "text": "whenever paralyzed and not poisoned"}],
                     "undescribed": 0}]}


def _run(fmt: str) -> str:
    return run_fixture(FIXTURE.name, fmt)


def test_a_changed_predicate_is_listed_with_its_counts_descriptions_and_defining_clause():
    result = _result(FIXTURE.name)
    by_name = {(n.kind, n.name): n.as_json() for n in result.names}
    assert sorted(by_name) == [("decision", "cure.may_target"), ("predicate", "curable")]
    assert by_name[("predicate", "curable")] == {
        "kind": "predicate", "name": "curable", "status": "changed", "term": "cure",
        "meaning": "A cure can help the character.", "old_clauses": ["cure#curable"],
        "new_clauses": ["cure#curable"], "changes": ["cure#curable"], "situations": 4, "unanswered": None,
        "answers": [], "behaviour": PREDICATE_BEHAVIOUR, "conformance": None, "unanswered_reasons": {},
        "predicates": [], "facts": [], "old_meaning": None,
        "charged": [{"clause": "cure#curable", "fingerprint": result.changes[0].fingerprint, "through": []}],
        "constraints": []}
    decision = by_name[("decision", "cure.may_target")]
    # the decision refers to the predicate's entry
    assert (decision["status"], decision["predicates"], decision["changes"], decision["unanswered"]) == (
        "changed", ["curable"], ["cure#curable (through curable)"], None)
    [change] = result.changes
    assert (change.clause, change.kind, change.level, change.names) == (
        "curable", "semantic", "rule-change", (NameRef("predicate", "curable", "changed"),))


def test_the_text_lists_the_predicate_once_and_the_clause_and_the_decision_refer_to_it():
    lines = _run("text").splitlines()
    assert lines[:6] == [
        "rulebook diff v1 -> v2: 1 semantic",
        "",
        "cure",
        f"  semantic  cure#curable  {os.path.relpath(FIXTURE)}/editions/v2/cure.yaml:11:9",
        "    A character is curable if it is poisoned{+ or paralyzed+}.",
        "    behaviour: curable broadened in 1 of 4 situations; narrowed in none (see decisions below)",
    ]
    assert lines[lines.index("decisions, predicates and constraints:"):] == [
        "decisions, predicates and constraints:",
        "  changed  predicate curable (cure): A cure can help the character.",
        "    defined in cure#curable",
        "    curable broadened in 1 of 4 situations; narrowed in none",
        "      no -> yes in 1 situation: whenever paralyzed and not poisoned",
        "      when paralyzed: old no (cure#curable), new yes (cure#curable)",
        "    changed by cure#curable",
        "  changed  decision cure.may_target (cure): Whether a cure may target the character.",
        "    cure.may_target broadened in 1 of 4 situations; narrowed in none",
        "      no -> yes in 1 situation: whenever paralyzed and not poisoned",
        "      when paralyzed: old no (cure#targets), new yes (cure#targets)",
        "    uses changed predicate curable",
        "    changed by cure#curable (through curable)",
        "    breaks conformance: 1 of 2 cases of v1's suite flips: cure.may_target-c624ac2d96b4 "
        "(expected no, now yes)",
    ]


def test_markdown_lists_the_predicate_and_the_decision_refers_to_it():
    lines = _run("markdown").splitlines()
    start = lines.index("### Decisions, predicates and constraints")
    assert lines[start:start + 18] == [
        "### Decisions, predicates and constraints",
        "",
        "- `curable` (predicate, changed): broadened in 1 of 4 situations; narrowed in none; "
        "defined in `cure#curable`; changed by `cure#curable`",
        "  - no → yes in 1 situation: whenever paralyzed and not poisoned",
        "",
        "  | situation | v1 | v2 | decided by |",
        "  | --- | --- | --- | --- |",
        "  | `paralyzed` | no | yes | `cure#curable` → `cure#curable` |",
        "- `cure.may_target` (decision, changed): broadened in 1 of 4 situations; narrowed in none; "
        "uses changed predicate `curable`; changed by `cure#curable` (through `curable`); "
        "**breaks conformance**: 1 of 2 cases of v1's suite flips",
        "  - no → yes in 1 situation: whenever paralyzed and not poisoned",
        "",
        "  | situation | v1 | v2 | decided by |",
        "  | --- | --- | --- | --- |",
        "  | `paralyzed` | no | yes | `cure#targets` → `cure#targets` |",
        "",
        "<details><summary><code>cure</code>: 1 rule change</summary>",
        "",
        "#### semantic: `cure#curable`",
    ]
    assert "**Behaviour** of `curable`: **broadened in 1 of 4 situations; narrowed in none** " \
           "(see the decisions above)" in lines


def test_html_lists_the_predicate_with_its_defining_clause_and_the_decision_refers_to_it():
    html = _run("html")
    assert '<article id="name-predicate-curable" class="name changed">\n' \
           '<h3><span class="kind">changed</span> predicate <code>curable</code> (cure)</h3>\n' \
           '<p>A cure can help the character.</p><p>defined in cure#curable</p>' in html
    assert "<p>uses changed predicate <code>curable</code></p>" in html
    assert html.count("no → yes in 1 situation: whenever paralyzed and not poisoned") == 2


def test_json_refers_from_the_change_to_the_predicate():
    data = json.loads(_run("json"))
    assert [(n["kind"], n["name"], n["status"], n["predicates"]) for n in data["names"]] == [
        ("predicate", "curable", "changed", []), ("decision", "cure.may_target", "changed", ["curable"])]
    assert [c["names"] for c in data["changes"]] == [[{"kind": "predicate", "name": "curable", "status": "changed"}]]


def test_a_change_charged_through_predicates_is_written_from_its_data():
    """What the text shows ('cure#a (through curable, healable)') and the Markdown shows as code
    ('`cure#a` (through `curable`, `healable`)'), written from the charge, never parsed back."""
    from rulebook_compiler.diff.names import Charge, NameChange, changed_by
    from rulebook_compiler.diff.render_markdown import _name

    name = NameChange("decision", "cure.may_target", "removed", "cure", None,
                      changes=(Charge("cure#a", "f1", ("curable", "healable")), Charge("cure#a-b -> cure#c", "f2"),
                               Charge("cure (heading)", "f3")))
    assert changed_by(name) == "removed with cure#a (through curable, healable), cure#a-b -> cure#c, cure (heading)"
    assert _name(name, "v1", "v2", set())[0] == (
        "- `cure.may_target` (decision, removed): ; removed with `cure#a` (through `curable`, `healable`), "
        "`cure#a-b -> cure#c`, `cure (heading)`")
