"""Numbered rules: an inserted rule, a rule subdivided into subrules, subrules joined back.

Fixture: tests/fixtures/diff/numbered-rules-commander, rules 903.4-903.12h of the Magic: The
Gathering Comprehensive Rules as effective 2019-05-03 and 2022-07-08 (verbatim, source in its
rulebook.yaml). Issue 11, "Why": id-first pairing trusted blindly; splits and merges of numbered
rules; a merge shows as a removal. Before this, 903.9 -> 903.9a + 903.9b read as "renamed
903.9 -> 903.9b, clarification" (a rule change hidden) plus an added 903.9a, and 903.11g and 903.11d
as removed while 903.12g and 903.12d were added.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from rulebook_compiler.build import load_rulebook
from rulebook_compiler.diff.engine import diff_editions

COMMANDER = Path(__file__).resolve().parents[1] / "fixtures" / "diff" / "numbered-rules-commander"
OLD, NEW = "cr-2019-05-03", "cr-2022-07-08"


@lru_cache(maxsize=None)
def _changes(old: str, new: str):
    book = load_rulebook(COMMANDER)
    return {(c.old_clause, c.new_clause): c for c in diff_editions(book, old, book, new).changes}


def _row(c):
    return c.kind, c.level, c.matched_by, c.confidence


def test_an_inserted_rule_does_not_pair_the_rules_after_it_by_their_old_numbers():
    changes = _changes(OLD, NEW)
    # The new 903.11 took the number of Brawl: Brawl is renumbered, the new rule is added.
    assert _row(changes[("r903-11", "r903-12")]) == ("renumbered", "editorial", "text", 1.0)
    assert _row(changes[(None, "r903-11")]) == ("added", "rule-change", None, None)
    assert ("r903-11", "r903-11") not in changes


def test_a_rewritten_subrule_keeps_its_place_in_the_renumbering():
    """903.11g's words are mostly new (the London mulligan), but its neighbours 903.11a-f moved to
    903.12a-f: it is 903.12g reworded, a rule change, not a removal plus an addition."""
    changes = _changes(OLD, NEW)
    assert _row(changes[("r903-11g", "r903-12g")]) == ("reworded", "rule-change", "text", 0.359)
    assert _row(changes[("r903-11d", "r903-12d")]) == ("reworded", "clarification", "text", 0.595)
    assert not [k for k in changes if k in (("r903-11g", None), (None, "r903-12g"))]


def test_a_rule_subdivided_into_subrules_is_a_split_and_a_rule_change():
    changes = _changes(OLD, NEW)
    assert _row(changes[("r903-9", "r903-9a+r903-9b")]) == ("split", "rule-change", "split", 0.647)
    # The new 903.9 heads 903.9a and 903.9b, which carry 2019's 903.9 (rulebook_compiler.diff.level.split_heading).
    assert _row(changes[(None, "r903-9")]) == ("added", "clarification", None, None)


def test_subrules_joined_back_are_a_merge_not_a_removal():
    changes = _changes(NEW, OLD)
    assert _row(changes[("r903-9a+r903-9b", "r903-9")]) == ("merged", "rule-change", "merge", 0.647)
    assert sorted(k[0] for k, c in changes.items() if c.kind == "removed") == [
        "r903-11", "r903-4b", "r903-4e", "r903-9"]
    assert changes[("r903-9", None)].level == "clarification"  # the heading of the subrules joined back


def test_a_cited_rule_number_is_no_word_of_the_rule():
    """903.4c -> 903.4d cites the double-faced card rules under their new number (711 -> 712)."""
    changes = _changes(OLD, NEW)
    assert _row(changes[("r903-4c", "r903-4d")]) == ("renumbered", "editorial", "text", 0.923)
    assert _row(changes[("r903-11h", "r903-12h")]) == ("renumbered", "editorial", "text", 0.97)


COIN_FLIP = Path(__file__).resolve().parents[1] / "fixtures" / "diff" / "numbered-rules-coin-flip"


@lru_cache(maxsize=None)
def _coin_flip(old: str, new: str):
    book = load_rulebook(COIN_FLIP)
    return {(c.old_clause, c.new_clause): c for c in diff_editions(book, old, book, new).changes}


def test_two_rules_merged_under_the_number_of_one_are_a_merge_not_a_removal():
    """CR 705.1 (a flip someone wins) and 705.2 (heads or tails, no call) became one 705.2, and
    705.3 became 705.1 (fixture numbered-rules-coin-flip, 2019-05-03 -> 2022-07-08). Before, the
    old 705.1 paired with the new 705.2 alone and the old 705.2, whose words (80%) live on in it,
    was reported removed: as though flips of heads or tails had lost their rule."""
    changes = _coin_flip(OLD, NEW)
    merged = changes[("r705-1+r705-2", "r705-2")]
    assert (merged.kind, merged.matched_by, merged.confidence) == ("merged", "merge", 0.698)
    assert _row(changes[("r705-3", "r705-1")])[0] == "reworded"
    assert [k for k, c in changes.items() if c.kind in ("removed", "added") and k[0] and k[0].startswith("r705")] == []


def test_one_rule_split_in_two_under_its_number_and_another_is_a_split():
    """The same pair read back in time: 705.2 split into 705.1 and 705.2."""
    changes = _coin_flip(NEW, OLD)
    split = changes[("r705-2", "r705-1+r705-2")]
    assert (split.kind, split.matched_by, split.confidence) == ("split", "split", 0.698)
    assert [k for k, c in changes.items() if c.kind in ("removed", "added") and (k[1] or "").startswith("r705")] == []


def _answers(change):
    return [(b.name, b.direction, b.situations, b.witnesses) for b in change.behaviours]


def test_the_merged_coin_flip_rules_answer_every_flip_as_before():
    """The fixture models the call (coin_flip.calls) and who wins or loses (coin_flip.result) on
    both sides: 2019's 705.2 says "without making a call" and "No player wins or loses"; 2022's
    705.2 says "No player wins or loses" and "For all other effects ... calls". Every situation of
    both decisions is answered alike, in either direction. (The words then grade it a clarification:
    its whole sentences were moved and reworded, tests/diff/test_level_merged_sentences.py.)"""
    merged = _coin_flip(OLD, NEW)[("r705-1+r705-2", "r705-2")]
    split = _coin_flip(NEW, OLD)[("r705-2", "r705-1+r705-2")]
    expected = [("coin_flip.calls", "equivalent", 4, ()), ("coin_flip.result", "equivalent", 8, ())]
    assert _answers(merged) == expected
    assert _answers(split) == expected


def test_a_withdrawn_rule_worded_like_the_rule_beside_it_stays_removed():
    """CR 704.5j, the planeswalker uniqueness rule (2017), shares most of its words with the legend
    rule beside it, which kept its words under 704.5j (2020). Those words add nothing to the legend
    rule: the withdrawn rule is removed, not merged into it (fixture numbered-rules)."""
    book = load_rulebook(COMMANDER.parent / "numbered-rules")
    changes = {(c.old_clause, c.new_clause): c for c in
               diff_editions(book, "cr-2017-04-28", book, "cr-2020-04-17").changes}
    assert _row(changes[("r704-5j", None)]) == ("removed", "rule-change", None, None)
    assert _row(changes[("r704-5k", "r704-5j")]) == ("renumbered", "editorial", "text", 1.0)
