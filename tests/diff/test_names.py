"""Decisions, predicates and constraints as changes of their own (issue 11, point 1): one entry each.

A name that exists on one side only is reported added or removed, with what it
answers; a decision whose answers changed is listed once, with its counts and
descriptions, and the clause changes refer to it instead of repeating it. The
fixtures are the cases listed under "Why" in issue 11, each in small:
rules-to-a-new-decision (battle-resolution#step-2), rules-for-a-new-question
(Modifiers, Ability Activation Order), split-same-answers (targeting#paralyze),
per-clause (heal#removes-effects, heal#battle-resolution-discard).
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from rulebook_compiler.build import load_rulebook
from rulebook_compiler.cli import main
from rulebook_compiler.diff.engine import diff_editions
from rulebook_compiler.diff.names import NameRef

DIFF = Path(__file__).resolve().parents[1] / "fixtures" / "diff"


def _result(fixture: str):
    book = load_rulebook(DIFF / fixture)
    return diff_editions(book, "v1", book, "v2")


def _run(fixture: str, fmt: str = "text") -> str:
    result = CliRunner().invoke(main, ["diff", "v1", "v2", "--no-cache", "--format", fmt,
                                       "--rulebook", str(DIFF / fixture)], catch_exceptions=False)
    assert (result.exit_code, result.stderr) == (0, "")
    return result.stdout


def _line(lines: list[str], start: str) -> int:
    """The index of the one line that starts so (a change's first line, before its location)."""
    [found] = [i for i, line in enumerate(lines) if line.startswith(start)]
    return found


def test_decisions_of_one_side_only_are_reported_removed_and_added_with_what_they_answer():
    """battle-resolution#step-2: its rules went to decisions of one side only; each decision is an entry."""
    result = _result("rules-to-a-new-decision")
    fingerprints = {c.clause: c.fingerprint for c in result.changes}
    charged = [{"clause": "battle (heading)", "fingerprint": fingerprints[None], "through": []},
               {"clause": "battle#step-2", "fingerprint": fingerprints["step-2"], "through": []}]
    assert [n.as_json() for n in result.names] == [
        {"kind": "decision", "name": "battle.may_rescue", "status": "removed", "term": "battle",
         "meaning": "Whether a rescue may be attempted.", "old_clauses": ["battle#step-2"], "new_clauses": [],
         "changes": ["battle (heading)", "battle#step-2"], "situations": 2, "unanswered": 1,
         "answers": [{"answer": False, "situations": 1, "descriptions": ["whenever paralyzed"]}],
         "behaviour": None,
         # the one case of v1's suite for it (rulebook_compiler.diff.conformance_impact)
         "conformance": {"suite": "v1", "of": 1, "flipped": 1, "examples": [
             {"id": "battle.may_rescue-1fe9723f7ee4", "name": "battle.may_rescue[paralyzed]", "expected": False,
              "now": ["not defined"]}]},
         "unanswered_reasons": {"no rule": 1}, "predicates": [], "facts": [],
         "old_meaning": None, "charged": charged, "constraints": []},
        {"kind": "decision", "name": "battle.rescue_succeeds", "status": "added", "term": "battle",
         "meaning": "Whether a rescue succeeds.", "old_clauses": [], "new_clauses": ["battle#step-2"],
         "changes": ["battle (heading)", "battle#step-2"], "situations": 2, "unanswered": 1,
         "answers": [{"answer": False, "situations": 1, "descriptions": ["whenever paralyzed"]}],
         "behaviour": None, "conformance": None, "unanswered_reasons": {"no rule": 1}, "predicates": [],
         "facts": [], "old_meaning": None, "charged": charged, "constraints": []},
    ]
    step = next(c for c in result.changes if c.clause == "step-2")
    assert (step.kind, step.level) == ("semantic", "rule-change")
    assert step.names == (NameRef("decision", "battle.may_rescue", "removed"),
                          NameRef("decision", "battle.rescue_succeeds", "added"))


def test_the_text_format_lists_each_decision_once_and_the_clause_refers_to_it():
    lines = _run("rules-to-a-new-decision").splitlines()
    assert lines[_line(lines, "  semantic  battle#step-2  ") + 2] == \
        "    decision battle.may_rescue removed, decision battle.rescue_succeeds added (see decisions below)"
    assert lines[lines.index("decisions, predicates and constraints:"):] == [
        "decisions, predicates and constraints:",
        "  removed  decision battle.may_rescue (battle): Whether a rescue may be attempted.",
        "    rules in battle#step-2 (old)",
        "    answered no in 1 of 2 situations: whenever paralyzed",
        "    no rule answers in 1 situation",
        "    removed with battle (heading), battle#step-2",
        "    breaks conformance: 1 of 1 case of v1's suite flips: battle.may_rescue-1fe9723f7ee4 "
        "(expected no, now not defined)",
        "  added  decision battle.rescue_succeeds (battle): Whether a rescue succeeds.",
        "    rules in battle#step-2",
        "    answers no in 1 of 2 situations: whenever paralyzed",
        "    no rule answers in 1 situation",
        "    added with battle (heading), battle#step-2",
    ]


def test_a_clause_that_gains_rules_for_a_new_question_is_a_rule_change_and_the_question_is_added():
    """Modifiers and Ability Activation Order: a clause gained rules for a decision v1 does not have."""
    result = _result("rules-for-a-new-question")
    lead = next(c for c in result.changes if c.clause == "lead-in")
    assert (lead.kind, lead.level, lead.names) == (
        "semantic", "rule-change", (NameRef("decision", "order.activates_now", "added"),))
    assert [(n.name, n.status, n.new_clauses, n.situations, n.unanswered,
             [(a["answer"], a["situations"], a["descriptions"]) for a in n.as_json()["answers"]])
            for n in result.names] == [
        ("order.activates_now", "added", ("order#lead-in",), 4, 2,
         [(False, 1, ["whenever not in_current_step and plays_other_cards"]),
          (True, 1, ["whenever in_current_step and plays_other_cards"])])]


def test_a_split_whose_answers_are_the_same_is_not_charged_with_the_decision_s_change():
    """targeting#paralyze: Transfer gets a line of its own, no answer changes; targeting#rescue changes."""
    result = _result("split-same-answers")
    assert [(c.old_clause, c.new_clause, c.kind, c.level, [(b.name, b.direction) for b in c.behaviours], c.names)
            for c in result.changes] == [
        ("paralyze", "paralyze+transfer", "split", "clarification", [("targeting.location", "equivalent")], ()),
        ("rescue", "rescue", "semantic", "rule-change", [("targeting.location", "changed")],
         (NameRef("decision", "targeting.location", "changed"),))]
    [name] = result.names
    assert (name.name, name.status, [c.text for c in name.changes], name.behaviour.extent()) == (
        "targeting.location", "changed", ["targeting#rescue"], "changed: answer changed in 1 of 3 situations")


def test_the_decision_s_change_is_shown_once_with_its_witnesses():
    """The split shows no witnesses of other clauses; the decision's change and witnesses appear once."""
    out = _run("split-same-answers")
    lines = out.splitlines()
    assert out.count("when ability=rescue: old bondage (targeting#rescue), new bondage_or_play (targeting#rescue)") == 1
    assert "witnesses above" not in out
    assert lines[lines.index("decisions, predicates and constraints:"):] == [
        "decisions, predicates and constraints:",
        "  changed  decision targeting.location (targeting): Where an ability looks for its target by default.",
        "    targeting.location changed: answer changed in 1 of 3 situations",
        "      bondage -> bondage_or_play in 1 situation: whenever ability is rescue",
        "      when ability=rescue: old bondage (targeting#rescue), new bondage_or_play (targeting#rescue)",
        "    changed by targeting#rescue",
        "    breaks conformance: 1 of 2 cases of v1's suite flips: targeting.location-4b7cee49fd90 "
        "(expected bondage, now bondage_or_play)",
    ]
    rescue = _line(lines, "  semantic  targeting#rescue  ")
    assert lines[rescue + 2:rescue + 3] == [
        "    behaviour: targeting.location changed: answer changed in 1 of 3 situations (see decisions below)"]


def test_a_clause_s_own_witnesses_are_shown_when_another_clause_of_the_decision_was_listed_first():
    """heal#removes-effects before heal#battle-resolution-discard: the first restates its rule
    (equivalent), the second changes it; the second's witnesses were hidden as 'witnesses above'."""
    out = _run("per-clause")
    assert "witnesses above" not in out
    assert out.count("when phase=battle: old no (cure#no-battle), new no rule answers") == 1


def test_json_lists_the_names_and_each_change_refers_to_them():
    data = json.loads(_run("rules-to-a-new-decision", "json"))
    assert [(n["name"], n["status"]) for n in data["names"]] == [
        ("battle.may_rescue", "removed"), ("battle.rescue_succeeds", "added")]
    assert [c["names"] for c in data["changes"]] == [
        [{"kind": "decision", "name": "battle.may_rescue", "status": "removed"},
         {"kind": "decision", "name": "battle.rescue_succeeds", "status": "added"}]] * 2


def test_markdown_and_html_list_each_decision_once():
    md = _run("split-same-answers", "markdown")
    assert md.count("bondage → bondage_or_play in 1 situation") == 1
    assert "- `targeting.location` (decision, changed): changed: answer changed in 1 of 3 situations; " \
           "changed by `targeting#rescue`; **breaks conformance**: 1 of 2 cases of v1\'s suite flips" in md.splitlines()
    html = _run("split-same-answers", "html")
    assert html.count("bondage → bondage_or_play in 1 situation") == 1
    assert '<h2 id="names">Decisions, predicates and constraints</h2>' in html


def test_a_decision_changed_through_a_predicate_names_the_change_of_the_predicate():
    """tests/fixtures/vocab: cure.may_target changes where cure#not-stunned is withdrawn, and where
    cure#curable's predicate (which its rule uses) now holds of diseased characters."""
    book = load_rulebook(DIFF.parent / "vocab")
    [may_target] = [n for n in diff_editions(book, "a", book, "b").names if n.name == "cure.may_target"]
    assert [c.text for c in may_target.changes] == ["cure#curable (through curable)", "cure#not-stunned"]
    assert [(c.clause, c.through) for c in may_target.changes] == [("cure#curable", ("curable",)),
                                                                   ("cure#not-stunned", ())]
