"""A value added to an unordered fact, in the vocabulary alone (issue 11, point 1).

Fixture unordered-value-added: v2's vocabulary overlay adds the value end to
the unordered fact phase, and rewords a clause of another term; no rule
changes. v1 had no end phase: a situation in it is one the old edition could
not describe, so the old side gives no answer there ("no such situation"),
never the answer its rules would give if read over v2's vocabulary. A
decision that now answers in the end phase is listed as changed by the
vocabulary: turn.may_attack (requires phase battle: no there) and
turn.may_pass (requires phase not battle: yes there). turn.may_draw is not
asked in the end phase (its given), so nothing changed; concede.may_concede
does not read phase.
"""

from __future__ import annotations

import json

from click.testing import CliRunner

from rulebook_compiler.cli import main
from rulebook_compiler.diff.behaviour import CHANGED, NO_RULE, NO_SITUATION, Behaviour, Transition
from tests.diff.test_names import DIFF, _result, _run as run_fixture

FIXTURE = DIFF / "unordered-value-added"
UNKNOWN = "[the old edition does not know value phase=end]"
# concede's modelled clause gains "the game", a new noun its unchanged rules do not account for (issue 21.5)
COUNTED = "; 1 counted as a rule change: words its rules do not account for"


def _run(fmt: str) -> str:
    return run_fixture(FIXTURE.name, fmt)


def test_decisions_that_now_answer_in_the_new_value_are_listed_as_changed_by_the_vocabulary():
    result = _result(FIXTURE.name)
    assert [(c.kind, c.term, c.clause) for c in result.changes] == [("reworded", "concede", "always")]
    assert [(n.kind, n.name, n.status, n.changes, n.facts, n.behaviour.extent(),
             [(t.old, t.old_reason, t.new, t.situations, [d.text for d in t.descriptions])
              for t in n.behaviour.transitions]) for n in result.names] == [
        ("decision", "turn.may_attack", "changed", (), ("phase",),
         "changed: new in 1 of 3 situations; narrowed in none; broadened in none",
         [(None, "no situation", False, 1, ["whenever phase is end"])]),
        ("decision", "turn.may_pass", "changed", (), ("phase",),
         "broadened in 1 of 3 situations; narrowed in none",
         [(None, "no situation", True, 1, ["whenever phase is end"])]),
    ]
    # turn.may_draw is compared (it reads phase) and found the same: not asked in the end phase
    assert [(b.name, b.direction) for b in result.behaviours] == [
        ("turn.may_attack", "changed"), ("turn.may_draw", "equivalent"), ("turn.may_pass", "broadened")]


def test_the_text_says_the_fact_gained_a_value():
    lines = _run("text").splitlines()
    assert lines[0] == ("rulebook diff v1 -> v2: 1 reworded; answers changed by the vocabulary: 2 decisions" + COUNTED)
    assert lines[lines.index("decisions, predicates and constraints:"):] == [
        "decisions, predicates and constraints:",
        "  changed  decision turn.may_attack (turn): Whether the player may attack now.",
        "    turn.may_attack changed: new in 1 of 3 situations; narrowed in none; broadened in none",
        "      no such situation -> no in 1 situation: whenever phase is end",
        "      when phase=end: old no such situation, new no (turn#attack) " + UNKNOWN,
        "    changed by the vocabulary: fact phase gained value end",
        "  changed  decision turn.may_pass (turn): Whether the player may pass now.",
        "    turn.may_pass broadened in 1 of 3 situations; narrowed in none",
        "      no such situation -> yes in 1 situation: whenever phase is end",
        "      when phase=end: old no such situation, new yes (turn#pass) " + UNKNOWN,
        "    changed by the vocabulary: fact phase gained value end",
    ]


def test_markdown_and_json_list_them_with_the_rule_changes():
    md = _run("markdown").splitlines()
    assert md[2] == "**0 rule changes**, 1 clarification, 0 editorial; " \
                    "**answers changed by the vocabulary**: 2 decisions; **1 counted as a rule change**: words its " \
                    "rules do not account for"
    start = md.index("### Rule changes")
    assert md[start:start + 5] == [
        "### Rule changes",
        "",
        "- `turn.may_attack` (decision, changed by the vocabulary): "
        "changed: new in 1 of 3 situations; narrowed in none; broadened in none",
        "- `turn.may_pass` (decision, changed by the vocabulary): broadened in 1 of 3 situations; narrowed in none",
        "",
    ]
    assert "- `turn.may_pass` (decision, changed): broadened in 1 of 3 situations; narrowed in none; " \
           "changed by the vocabulary: fact `phase` gained value `end`" in md
    data = json.loads(_run("json"))
    assert [(n["name"], n["facts"], n["changes"], n["behaviour"]["witnesses"]) for n in data["names"]] == [
        ("turn.may_attack", ["phase"], [], [
            {"facts": {"phase": "end"}, "old": None, "new": False, "old_clauses": [], "new_clauses": ["turn#attack"],
             "old_unknown": ["phase=end"], "new_unknown": [], "old_reason": "no situation", "new_reason": None}]),
        ("turn.may_pass", ["phase"], [], [
            {"facts": {"phase": "end"}, "old": None, "new": True, "old_clauses": [], "new_clauses": ["turn#pass"],
             "old_unknown": ["phase=end"], "new_unknown": [], "old_reason": "no situation", "new_reason": None}]),
    ]


def test_fail_on_rule_change_fails_when_a_new_value_gives_new_answers():
    result = CliRunner().invoke(main, ["diff", "v1", "v2", "--no-cache", "--fail-on", "rule-change",
                                       "--rulebook", str(FIXTURE)], catch_exceptions=False)
    assert (result.exit_code, result.stderr) == (1, "")


def test_the_reverse_says_the_fact_lost_the_value():
    """v2 -> v1: the end phase is withdrawn; the new side gives no answer there."""
    from rulebook_compiler.build import load_rulebook
    from rulebook_compiler.diff.engine import diff_editions
    from rulebook_compiler.diff import names as N

    book = load_rulebook(FIXTURE)
    result = diff_editions(book, "v2", book, "v1")
    assert [(n.name, n.facts, [(t.old, t.new, t.new_reason, t.situations) for t in n.behaviour.transitions],
             N.through_lines(n)) for n in result.names] == [
        ("turn.may_attack", ("phase",), [(False, None, "no situation", 1)],
         ["changed by the vocabulary: fact phase lost value end"]),
        ("turn.may_pass", ("phase",), [(True, None, "no situation", 1)],
         ["changed by the vocabulary: fact phase lost value end"]),
    ]


def test_the_size_line_names_the_situations_new_or_gone_apart_from_other_changes():
    """A situation one side could not describe is new (or gone), not 'otherwise changed': here 2 of 9
    situations new (old no such situation, new no), 1 gone (old no, new no such situation), 1 where
    no rule answers now (old no), and 1 newly yes (broadened, whichever side lacked it)."""
    def way(old, old_reason, new, new_reason, n):
        return Transition(old, old_reason, new, new_reason, n, (), 0)

    b = Behaviour("turn.may_attack", "decision", CHANGED, (), 9, (
        way(None, NO_SITUATION, False, None, 2), way(False, None, None, NO_SITUATION, 1),
        way(False, None, None, NO_RULE, 1), way(None, NO_SITUATION, True, None, 1)))
    assert b.extent() == "changed: broadened in 1 of 9 situations; narrowed in none; new in 2; gone in 1; " \
                         "otherwise changed in 1"
    gone = Behaviour("turn.may_attack", "decision", CHANGED, (), 9, (way(False, None, None, NO_SITUATION, 3),))
    assert gone.extent() == "changed: gone in 3 of 9 situations; narrowed in none; broadened in none"
