"""Golden expectations on the bundled rulebook, checked against the rule texts.

Each expected value below is read from the sources (rulebook/sources/ and the
seeds' README), not from the diff's own output.
"""

from __future__ import annotations

from collections import Counter

import pytest

from rulebook_compiler.diff.engine import diff_editions
from rulebook_compiler.diff.redline import redline, words

from pathlib import Path

BUNDLED = Path(__file__).resolve().parents[2] / "rulebook"

COMPARISON_SOURCE = BUNDLED / "sources" / "000_92da00567fb1a1bd.txt"


def _diff(book, old, new):
    return diff_editions(book, old, book, new)


def _change(result, clause):
    found = [c for c in result.changes if c.clause == clause]
    assert len(found) == 1, [(c.kind, c.clause) for c in result.changes]
    return found[0]


def _behaviour(change, name):
    found = [b for b in change.behaviours if b.name == name]
    assert found, [b.name for b in change.behaviours]
    return found[0]


# The conditions that the default-conditions clauses name, in all three editions.
NAMED = ("being_discarded", "discarded_earlier_this_turn", "poisoned", "diseased", "paralyzed")


def _only(witness, *true_facts):
    """Of the conditions the texts name, exactly these hold in the witness (other facts may vary)."""
    facts = dict(witness.facts)
    return {k for k in NAMED if facts.get(k) is True} == set(true_facts)


def test_2012_to_3_0_0_an_only_paralyzed_character_becomes_healable(bundled):
    # 2012: healable if being discarded, poisoned or diseased; 3.0.0 adds "or is paralyzed".
    healable = _behaviour(_change(_diff(bundled, "2012", "3.0.0"), "healable"), "healable")
    # exactly one of the 34 allowed situations each way: the texts say which (the descriptions)
    assert [(t.old, t.new, t.situations, [d.text for d in t.descriptions]) for t in healable.transitions] == [
        (False, True, 1, ["whenever not being_discarded and not diseased and paralyzed and not poisoned"
                          " and target_is_character"]),
        (True, False, 1, ["whenever being_discarded and not diseased and not paralyzed and not poisoned"
                          " and target_is_character"])]
    assert healable.situations == 34
    assert any(_only(w, "paralyzed") and w.old is False and w.new is True for w in healable.witnesses)
    assert all(w.old_clauses == ("heal#healable",) for w in healable.witnesses)


def test_3_0_0_to_draft_healable_is_changed_both_ways(bundled):
    result = _diff(bundled, "3.0.0", "4.0.0-draft")
    change = _change(result, "healable")
    assert change.kind == "semantic"
    healable = _behaviour(change, "healable")
    # Narrowed: a character discarded earlier in the turn (in the discard pile) is no longer healable.
    # Broadened: a character being discarded now is.
    assert healable.direction == "changed"
    assert any(_only(w, "discarded_earlier_this_turn") and w.old is True and w.new is False
               for w in healable.witnesses)
    assert any(_only(w, "being_discarded") and w.old is False and w.new is True for w in healable.witnesses)
    target = _behaviour(change, "heal.may_target")
    assert target.direction == "changed"
    assert {(w.old, w.new) for w in target.witnesses} >= {(True, False), (False, True)}
    # Who decided: the new "cannot be healed once placed in a discard pile" clause stops the old healing.
    assert any(w.new_clauses == ("heal#not-from-discard-pile",) for w in target.witnesses if w.new is False)


def test_draft_rewrites_the_hands_or_decks_clause_in_place(bundled):
    # The comparison's bullet holds both: "Characters cannot be healed once they are placed in a
    # discard pile. discarded from hands or decks cannot be targeted by heal cards." The draft
    # declares it (formerly), so the diff pairs the two, never a removal and an addition.
    result = _diff(bundled, "3.0.0", "4.0.0-draft")
    old = "Characters discarded from hands or decks cannot be targeted by heal cards."
    assert old not in [c.old_text for c in result.changes if c.kind == "removed"]
    (change,) = [c for c in result.changes if c.old_text == old]
    assert (change.old_clause, change.new_clause, change.matched_by) == (
        "not-from-hand-or-deck", "not-from-discard-pile", "lineage")
    assert change.new_text == "Characters cannot be healed once they are placed in a discard pile."
    assert change.kind == "semantic"  # it decides differently: behaviour outranks the rename
    assert change.old_location.file.endswith("editions/3.0.0/heal.yaml")


def test_draft_splits_the_enhancement_paragraph(bundled):
    # 3.0.0's paragraph "... discard phase. A healing enhancement played in this way must be played
    # ..." is two paragraphs in the draft, the second reworded to "played from hand".
    result = _diff(bundled, "3.0.0", "4.0.0-draft")
    (change,) = [c for c in result.changes if c.kind == "split"]
    assert (change.old_clause, change.new_clause, change.matched_by) == (
        "enhancement-outside-battle", "enhancement-outside-battle+enhancement-from-hand", "lineage")


@pytest.mark.parametrize("old,new", [("2012", "3.0.0"), ("3.0.0", "4.0.0-draft"), ("4.0.0-draft", "5.0.0")])
def test_restore_abilities_clarification_unchanged_throughout(bundled, old, new):
    result = _diff(bundled, old, new)
    assert not [c for c in result.changes if "restore-abilities" in (c.old_clause, c.new_clause)]


def _blocks():
    """The two Heal blocks of the message-board post: the proposal, then the comparison."""
    lines = COMPARISON_SOURCE.read_text(encoding="utf-8").splitlines()
    heal = [line for line in lines if line.startswith("Heal")]
    assert len(heal) == 2
    return heal


def _default_conditions(block: str) -> str:
    return block.split("Default Conditions", 1)[1].split("Special Conditions", 1)[0]


def test_default_conditions_redline_carries_the_comparisons_deleted_and_inserted_words(bundled):
    """The method, from the sources alone where they allow it.

    The second Heal block C is a tracked-changes comparison pasted without its
    marks: every word kept, deleted or inserted appears in it once. The first
    block N is the proposal (the new text). As multisets of words,
    C = kept + deleted, N = kept + inserted, and the old text O = kept + deleted,
    so deleted = C - N and inserted = C - O. N and C come from the post; O is
    REG 3.0.0's default conditions as the rulebook holds them (no clean copy of
    3.0.0 is among the sources). The diff's redline of the section's clauses
    must delete exactly C - N and insert exactly C - O. The bullets (●) are not
    words; order within a replacement is not compared.
    """
    proposal, comparison = _blocks()
    c_words = Counter(words(_default_conditions(comparison)))
    n_words = Counter(words(_default_conditions(proposal)))

    def section_text(edition):
        term = bundled.edition(edition).term_by_id["heal"]
        return " ".join(c.text for c in term.clauses if c.section == "default-conditions")

    old, new = section_text("3.0.0"), section_text("4.0.0-draft")
    assert Counter(words(new)) == n_words  # the draft holds the proposal's words
    line = redline(old, new)
    assert Counter(line.deleted_words()) == c_words - n_words
    assert Counter(line.inserted_words()) == c_words - Counter(words(old))

    # The diff's own change for the healable clause: its redline's words are among those.
    change = _change(_diff(bundled, "3.0.0", "4.0.0-draft"), "healable")
    assert not Counter(change.redline.deleted_words()) - (c_words - n_words)
    assert not Counter(change.redline.inserted_words()) - (c_words - Counter(words(old)))
    assert change.redline.deleted_words() and change.redline.inserted_words()
