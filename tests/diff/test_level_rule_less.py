"""A clause with no rule of its own is read by the editors' model where the model covers it, and by
its words where nothing does (compiler.diff.level, ``covered``).

Fixture: tests/fixtures/diff/rule-less-clauses. v2 adds Duel, which its editors modelled (a
decision; a procedure some of whose steps carry rules; outcomes that are the values of a fact its
rules test), and Parley, with the same shape and no model at all. v3 inserts a step with no rule
into Duel's procedure.
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from compiler.cli import main

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
            COVERED + "a lead-in to duel#attacker-wins, which the model covers"]),
        # Items that name a value of a fact the entry's rules test (duel_outcome).
        ("duel", "attacker-wins"): ("added", "clarification", [
            COVERED + "an item naming the value attacker_wins of duel_outcome, which its rules test"]),
        ("duel", "defender-wins"): ("added", "clarification", [
            COVERED + "an item naming the value defender_wins of duel_outcome, which its rules test"]),
        ("duel", "draw"): ("added", "clarification", [
            COVERED + "an item naming the value draw of duel_outcome, which its rules test"]),
        ("duel", "order"): ("added", "rule-change", []),
        # Steps of a procedure whose steps the editors gave rules one by one: these got none.
        ("duel", "step-1"): ("added", "clarification", [
            COVERED + "a step of duel.order, whose other steps carry its rules"]),
        ("duel", "step-2"): ("added", "rule-change", []),
        ("duel", "step-3"): ("added", "clarification", [
            COVERED + "a step of duel.order, whose other steps carry its rules"]),
        # A statement that no rule models is read by its words, in a modelled entry too.
        ("duel", "declined"): ("added", "rule-change", []),
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
