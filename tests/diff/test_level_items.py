"""A list item added to or removed from a clause with rules of its own is a rule change unless a rule
of the clause tests it (rulebook_compiler.diff.level, ``items_in_or_out``); a clause whose rules now answer
where the old edition did not ask changed behaviour (rulebook_compiler.diff.clause_behaviour).

Fixtures: tests/fixtures/diff/item-added-untested (2.0.0 adds "paralysis" to the effects a cure
removes; the clause's rule, whom a cure may target, tests only "poisoned"), tests/fixtures/diff/not-asked
(2.0.0 asks cure.may_target of every character, 1.0.0 only of a poisoned one; cure#targets' rule is
the same on both sides).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulebook_compiler.cli import main
from rulebook_compiler.diff.level import items_in_or_out

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "diff"


def _changes(fixture: str) -> list[tuple]:
    result = CliRunner().invoke(main, ["diff", "1.0.0", "2.0.0", "--rulebook", str(FIXTURES / fixture),
                                       "--format", "json"], catch_exceptions=False)
    assert (result.exit_code, result.stderr) == (0, "")
    return [(c["term"], c["clause"], c["kind"], c["level"]) for c in json.loads(result.stdout)["changes"]]


def test_an_item_no_rule_tests_added_to_a_modelled_clause_is_a_rule_change():
    assert _changes("item-added-untested") == [("cure", "removes", "reworded", "rule-change")]


def test_a_clause_whose_rules_now_answer_where_the_old_edition_did_not_ask_is_a_rule_change():
    assert _changes("not-asked") == [("cure", None, "semantic", "rule-change"),
                                     ("cure", "targets", "semantic", "rule-change")]


@pytest.mark.parametrize(("old", "new", "tested", "found"), [
    # Added, no rule tests it.
    ("the effects of poison or disease.", "the effects of poison, disease, or paralysis.", set(), ["paralysis"]),
    # Removed, no rule tests it.
    ("in hand, graveyard, or library.", "in hand or library.", set(), ["graveyard"]),
    # The clause's rules test it (a fact named by the item): the model's to judge.
    ("the effects of poison or disease.", "the effects of poison, disease, or paralysis.", {"paralyzed"}, []),
    ("a poisoned, paralyzed, or sleeping character", "a poisoned or sleeping character", {"paralyzed"}, []),
    # Items reordered or re-punctuated: nothing in or out.
    ("poison, disease, or paralysis", "disease, paralysis, or poison", set(), []),
    ("poison (disease)", "poison, disease", set(), []),
    # "or not" ends a list as an idiom, it adds no item.
    ("A paralyzed character cannot be cured.", "A character that is paralyzed, poisoned or not, cannot be cured.",
     {"paralyzed", "poisoned"}, []),
    # A value of several words names its hyphenated word whole ("Set-Aside"), not every word
    # that begins the same way ("Set-Apart" is another item).
    ("Banish, Capture, Heal, and Shuffle", "Banish, Capture, Heal, Set-Aside, and Shuffle",
     {"ability", "ability=set_aside"}, []),
    ("Banish, Capture, Heal, and Shuffle", "Banish, Capture, Heal, Set-Apart, and Shuffle",
     {"ability", "ability=set_aside"}, ["Set-Apart"]),
    # Words moved within a sentence are no list item.
    ("A cure targets a poisoned character.", "Only a poisoned character can be the target of a cure.", set(), []),
])
def test_items_in_or_out(old, new, tested, found):
    assert items_in_or_out(old, new, frozenset(tested)) == found
