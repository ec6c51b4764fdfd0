"""A clause with no rule of its own is read by the editors' model where the model covers it, and by
its words where nothing does (rulebook_compiler.diff.level, ``covered``).

Fixture: tests/fixtures/diff/rule-less-clauses. v2 adds Duel, which its editors modelled (a
decision; a procedure some of whose steps carry rules; outcomes that are the values of a fact its
rules test; a clause that says again what a clause with rules says), and Parley, with the same
shape and no model at all. v3 inserts a step with no rule
into Duel's procedure.
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from rulebook_compiler.cli import main
from rulebook_compiler.diff.level import subrules_heading
from rulebook_compiler.model import Clause
from rulebook_compiler.diagnostics import Location

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "diff" / "rule-less-clauses"
COVERED = "no rule of its own; the editors' model covers it as "


def _changes(old: str, new: str) -> dict[tuple[str, str | None], tuple]:
    result = CliRunner().invoke(main, ["diff", old, new, "--rulebook", str(FIXTURE), "--format", "json"],
                                catch_exceptions=False)
    assert (result.exit_code, result.stderr) == (0, "")
    return {(c["term"], c["clause"]): (c["kind"], c["level"], c["drift"]) for c in json.loads(result.stdout)["changes"]}


def test_in_a_modelled_entry_the_model_covers_lead_ins_items_and_steps_but_not_statements():
    found = {k: v for k, v in _changes("v1", "v2").items() if k[0] == "duel"}
    assert found == {
        ("duel", None): ("added", "rule-change", []),
        # A lead-in to items that the model names: no rule of its own.
        ("duel", "outcomes"): ("added", "clarification", [
            COVERED + "a lead-in to duel#attacker-wins"]),
        # Items that name a value of a fact the entry's rules test (duel_outcome).
        ("duel", "attacker-wins"): ("added", "clarification", [
            COVERED + "an item naming the value attacker_wins of duel_outcome, which its rules test"]),
        ("duel", "defender-wins"): ("added", "clarification", [
            COVERED + "an item naming the value defender_wins of duel_outcome, which its rules test"]),
        ("duel", "draw"): ("added", "clarification", [
            COVERED + "an item naming the value draw of duel_outcome, which its rules test"]),
        # A lead-in to a clause with meaning of its own (here a procedure; REG 5.0.0's table of
        # default locations is one too).
        ("duel", "resolution"): ("added", "clarification", [
            COVERED + "a lead-in to duel#order"]),
        ("duel", "order"): ("added", "rule-change", []),
        # Steps of a procedure whose steps the editors gave rules one by one: these got none.
        ("duel", "step-1"): ("added", "clarification", [
            COVERED + "a step of duel.order, whose other steps carry its rules"]),
        ("duel", "step-2"): ("added", "rule-change", []),
        ("duel", "step-3"): ("added", "clarification", [
            COVERED + "a step of duel.order, whose other steps carry its rules"]),
        # A statement that no rule models is read by its words, in a modelled entry too.
        ("duel", "declined"): ("added", "rule-change", []),
        # Every word of it is said by a clause with rules of its own (step-2).
        ("duel", "keeps"): ("added", "clarification", [
            "no rule of its own; every word of it is said elsewhere: in the other edition or in a clause with "
            "rules of its own"]),
        # A lead-in to items that no rule models or names: its words decide.
        ("duel", "cannot-duel"): ("added", "rule-change", []),
        ("duel", "captured"): ("added", "rule-change", []),
    }


def test_where_nothing_is_modelled_the_words_decide():
    found = {k: v for k, v in _changes("v1", "v2").items() if k[0] == "parley"}
    assert found == {
        ("parley", None): ("added", "clarification", []),  # a heading that declares no decision
        ("parley", "outcomes"): ("added", "rule-change", []),
        ("parley", "truce"): ("added", "rule-change", []),
        ("parley", "war"): ("added", "rule-change", []),
        ("parley", "order"): ("added", "rule-change", []),
        ("parley", "step-1"): ("added", "rule-change", []),
        ("parley", "step-2"): ("added", "rule-change", []),
        ("parley", "declined"): ("added", "rule-change", []),
    }


def test_a_step_inserted_into_a_procedure_both_sides_have_changes_its_order():
    assert _changes("v2", "v3") == {("duel", "order"): ("semantic", "rule-change", []),
                                    ("duel", "step-1b"): ("added", "rule-change", [])}


def _clause(cid: str, text: str = "", number: str | None = None) -> Clause:
    return Clause(id=cid, term="commander", section="rules", text=text, notes=None, links=(), defines=None,
                  rules=(), steps=None, table=None, loc=Location("x", 1, 1), number=number)


def test_a_new_rule_whose_subrules_all_carry_rules_of_the_edition_before_is_their_heading():
    """CR 903.9 (2019) split into 903.9a and 903.9b (2022), and 903.9a became 903.9c, under a new 903.9:
    "A commander may return to the command zone during a Commander game." The subrules carry what
    was said; the heading introduces them. So CR 704.6 (2022), "Some variant games include additional
    state-based actions that aren't normally applicable:", over 704.6a-f, 2019's 704.5t-x."""
    heading = _clause("r903-9", "A commander may return to the command zone during a Commander game.")
    subrules = [_clause("r903-9a"), _clause("r903-9b"), _clause("r903-9c")]
    side = [_clause("r903-8"), heading, *subrules, _clause("r903-10")]
    carried = {c.ref for c in subrules}
    assert subrules_heading(heading, side, carried).text == (
        "no rule of its own; the heading of commander#r903-9a, commander#r903-9b, commander#r903-9c, "
        "of which commander#r903-9a, commander#r903-9b, commander#r903-9c carry rules of the edition before")
    assert subrules_heading(heading, side, carried, added=False).text == (
        "no rule of its own; the heading of commander#r903-9a, commander#r903-9b, commander#r903-9c, "
        "of which commander#r903-9a, commander#r903-9b, commander#r903-9c live on in the edition after")
    # A new subrule among them is graded on its own (CR 704.6d); the heading still heads them.
    assert subrules_heading(heading, side, carried - {"commander#r903-9b"}).text == (
        "no rule of its own; the heading of commander#r903-9a, commander#r903-9b, commander#r903-9c, "
        "of which commander#r903-9a, commander#r903-9c carry rules of the edition before")
    # Printed numbers, where the clauses have them, rather than ids.
    numbered = [_clause("new", "Some variant games include more actions:", "704.6"),
                _clause("a", number="704.6a"), _clause("b", number="704.6b")]
    assert subrules_heading(numbered[0], numbered, {"commander#a", "commander#b"}) is not None
    # Not a heading: subrules that are all new, no subrules, a rule of more than one sentence.
    assert subrules_heading(heading, side, set()) is None
    assert subrules_heading(_clause("r903-8", heading.text), side, carried) is None
    assert subrules_heading(_clause("r903-9", heading.text + " It returns at once."), side, carried) is None
