"""``vocabulary.ruling``: the constraints whose change may change what unchanged rules answer, with the
facts each tests (issue 11, point 1; the diff's use of it: test_constraints_readers.py)."""

from __future__ import annotations

from rulebook_compiler.conditions import All, In, Ref
from rulebook_compiler.diff.vocabulary import ruling
from rulebook_compiler.model import Constraint, Fact, Location, Vocabulary

AT = Location("vocabulary.yaml", 1, 1)
FACTS = (Fact("poisoned", "bool", (), "Poisoned.", AT),
         Fact("location", "enum", ("territory", "hand"), "Where.", AT),
         Fact("paralyzed", "bool", (), "Paralyzed.", AT))
IN_HAND = All((Ref("poisoned"), In("location", ("hand",))))


def _vocabulary(*constraints: Constraint) -> Vocabulary:
    return Vocabulary(FACTS, constraints)


def test_added_withdrawn_and_changed_in_condition_each_with_the_facts_they_test():
    old = _vocabulary(Constraint("gone", "Never both.", All((Ref("poisoned"), Ref("paralyzed"))), AT),
                      Constraint("moved", "Not poisoned in hand.", IN_HAND, AT))
    new = _vocabulary(Constraint("moved", "Not paralyzed.", Ref("paralyzed"), AT),
                      Constraint("new", "Not in hand.", In("location", ("hand",)), AT))
    assert ruling(old, new) == (("gone", "withdrawn", frozenset({"paralyzed", "poisoned"})),
                                ("new", "added", frozenset({"location"})),
                                ("moved", "changed", frozenset({"location", "paralyzed", "poisoned"})))


def test_a_constraint_reworded_or_given_another_id_with_the_same_condition_is_left_out():
    old = _vocabulary(Constraint("a", "Not poisoned in hand.", IN_HAND, AT),
                      Constraint("b", "Never paralyzed.", Ref("paralyzed"), AT))
    new = _vocabulary(Constraint("a", "No character in hand is poisoned.", IN_HAND, AT),
                      Constraint("c", "No character is paralyzed.", Ref("paralyzed"), AT))
    assert ruling(old, new) == ()
