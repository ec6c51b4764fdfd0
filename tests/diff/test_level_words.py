"""Where no model answers, the words decide the level, conservatively (rulebook_compiler.diff.level).

Each case is a sentence pair of the kind the gold corpus holds (tests/diff/gold), reduced to what
the words change: a list item dropped narrows a rule, a word replaced is a clarification, a sentence
moved or restating is no new rule, a changed count is a rule change, a cited rule number is no word.
"""

from __future__ import annotations

import pytest

from rulebook_compiler.diff.level import lives_on, words_changed, words_rule_change
from rulebook_compiler.diff.redline import DELETE, INSERT, redline


@pytest.mark.parametrize(("old", "new", "rule_change"), [
    # A list item dropped, with nothing in its place: the rule narrows (CR 903.9 -> 903.9b).
    ("Put into its owner's hand, graveyard, or library.", "Put into its owner's hand or library.", True),
    # A word replaced by another: a clarification unless a model says otherwise (REG 11.0.0).
    ("Activate all abilities that add a character to a battle.",
     "Activate all abilities that move a character to a battle.", False),
    # Articles and prepositions added alone carry nothing ("Field of Battle" -> "In the Field of Battle").
    ("Withdraw: Field of Battle", "Withdraw: In the Field of Battle", False),
    # A sentence moved within the clause is no new sentence.
    ("All heal abilities are instantaneous. Heal abilities target characters.",
     "Heal abilities target characters. All heal abilities are instantaneous.", False),
    # A sentence that says it restates, or derives from words the clause already says.
    ("A deck must contain exactly 60 cards.",
     "A deck must contain exactly 60 cards. In other words, the minimum and maximum are both 60.", False),
    ("Modifiers are not themselves abilities.",
     "Modifiers are not themselves abilities. Since modifiers are not abilities, they cannot be negated.",
     False),
    # A sentence added or withdrawn otherwise is a rule change.
    ("Modifiers are not themselves abilities.",
     "Modifiers are not themselves abilities. They cannot be targeted by negate effects.", True),
    # A sentence rewritten past half its words is another sentence (CR 903.11g -> 903.12g).
    ("The first time a player takes a mulligan, they draw a new hand of as many cards as they had before.",
     "The first mulligan a player takes doesn't count toward the number of mulligans that player may take.",
     True),
    # A count changed (not a cited rule number).
    ("Each player's starting life total is 25.", "Each player's starting life total is 30.", True),
    ("This is an exception to rule 711.4a.", "This is an exception to rule 712.4a.", False),
])
def test_what_the_words_change(old, new, rule_change):
    assert words_rule_change("reworded", redline(old, new)) is rule_change


def test_a_sentence_given_to_another_clause_is_moved_not_withdrawn():
    """REG 2012 -> 3.0.0: the last sentence of heal#in-or-outside-battle became a clause of its own."""
    old = "Healing enhancements can be played. Healing cards played on a character must target the same character."
    new = "Healing enhancements can be played."
    elsewhere = "Healing cards played on a character must target the same character and its brigade."
    assert words_rule_change("split", redline(old, new)) is True
    assert words_rule_change("split", redline(old, new), (), (elsewhere,)) is False


@pytest.mark.parametrize("kind", ["added", "removed"])
def test_a_clause_added_or_removed_without_rules_is_a_rule_change(kind):
    text = "The following scenarios have special rules about cards being valid targets:"
    line = redline("", text) if kind == "added" else redline(text, "")
    assert words_rule_change(kind, line) is True


@pytest.mark.parametrize(("old", "new", "changed"), [
    ("Player", "A player", False),
    ("(see rule 711)", "(see rule 712)", False),
    ("Hand", "In hand", True),
    ("placed in", "put in", True),
])
def test_which_words_are_words_of_the_rule(old, new, changed):
    assert words_changed(old, new) is changed


def test_a_phrase_replaced_by_a_longer_story_brings_in_words():
    """REG 5.0.0 -> 11.0.0, ability-activation-order#step-9: another reference, a rule change."""
    old = "Activate all pending abilities with triggered effects, following the order provided in the " \
          "definition of triggered effect abilities."
    new = "Activate all pending abilities with triggered effects, following the order laid out under " \
          "Action Priority in the Glossary."
    assert words_rule_change("reworded", redline(old, new)) is True


def test_in_a_clause_with_rules_words_moved_within_a_sentence_are_the_models_to_judge():
    """tests/fixtures/diff/levels v2 -> v3: the rules answer as before."""
    line = redline("A cure targets a poisoned character.", "Only a poisoned character can be the target of a cure.")
    assert words_rule_change("reworded", line, modelled=True) is False
    assert words_rule_change("reworded", line, modelled=False) is True


def test_a_noun_that_names_a_quotation_adds_no_word_of_the_rule():
    """REG 5.0.0 -> 11.0.0, heal#restore-abilities: "The phrase" prefixed to a quoted phrase."""
    assert words_rule_change("reworded", redline("“Restore abilities” means “heal”.",
                                                 "The phrase “Restore abilities” means “heal”.")) is False
    assert words_rule_change("reworded", redline("“Restore” means “heal”.",
                                                 "The term “Restore” means “heal” in battle.")) is True


# REG 2012 -> 3.0.0, heal#discard-pile-same-character: 2012's sentence, and the words of a clause of
# 3.0.0 that has rules of its own.
CARRIED = ("Healing cards played on a character in a discard pile must target the same character and must be "
           "able to be played on that character as it existed prior to being discarded (the character type and "
           "brigade it had prior to being discarded), not as it is at face value in discard pile.")
OLD_SIDE = ("Healing enhancements can be played. Healing cards played on a character in a discard pile must "
            "target the same character.")
RULED_SIBLING = ("If a character was discarded earlier in the turn, a heal ability must be able to target or be "
                 "played on that character as it existed prior to being discarded (the character type and "
                 "brigade it had prior to being discarded), not as it is at face value in discard pile.")


def test_an_added_clause_whose_words_all_live_on_brings_no_rule():
    assert words_rule_change("added", redline("", CARRIED), (OLD_SIDE,), (RULED_SIBLING,)) is False
    assert words_rule_change("removed", redline(CARRIED, ""), (RULED_SIBLING,), (OLD_SIDE,)) is False
    # Half of it is said nowhere else: a rule change.
    assert words_rule_change("added", redline("", CARRIED), (OLD_SIDE,), ()) is True
    # One word of its own ("twice") is enough.
    assert words_rule_change("added", redline("", CARRIED + " It can be healed twice."), (OLD_SIDE,),
                             (RULED_SIBLING,)) is True


def test_words_live_on_in_runs_of_words_not_one_word_here_and_one_there():
    assert lives_on("A heal targets a character.", ("A heal removes poison.", "Target a character.")) is False
    assert lives_on("A heal targets a character.", ("Whether a heal targets a character matters.",)) is True


def test_sentences_that_came_or_went_with_all_of_a_clauses_rules_are_the_models_to_judge():
    """tests/fixtures/diff/rule-moved-with-its-sentence, cure#removes v1 -> v2."""
    line = redline("A cure removes poison. A cure can only target a poisoned character.", "A cure removes poison.")
    assert words_rule_change("reworded", line, modelled=True) is True
    assert words_rule_change("reworded", line, modelled=True, carried=frozenset({DELETE})) is False
    # Only on the side the rules came or went with.
    assert words_rule_change("reworded", line, modelled=True, carried=frozenset({INSERT})) is True


# CR 705.3 (2019) -> 705.1 (2022), in "705. Flipping a Coin": a lead-in sentence prefixed.
COIN = "A coin used in a flip must be a two-sided object with easily distinguished sides."
COIN_SECTION = "705. Flipping a Coin"


@pytest.mark.parametrize(("sentence", "rule_change"), [
    # Its subject (the words of its section's title) and a referring phrase: it states no rule.
    ("Some cards refer to flipping a coin.", False),
    ("Many effects refer to flipping coins.", False),
    # A word of its own beyond the title is something the sentence says.
    ("Some cards refer to flipping a coin twice.", True),
    # Not a referring phrase: "allow a player to" grants something.
    ("Some cards allow a player to flip a coin.", True),
])
def test_a_sentence_that_only_names_its_subject_states_no_rule(sentence, rule_change):
    line = redline(COIN, f"{sentence} {COIN}")
    assert words_rule_change("reworded", line, subject=(COIN_SECTION,)) is rule_change
    # Withdrawn likewise.
    back = redline(f"{sentence} {COIN}", COIN)
    assert words_rule_change("reworded", back, subject=(COIN_SECTION,)) is rule_change


def test_a_referring_sentence_needs_the_subject_it_names():
    """Without the title of its section, "Some cards refer to flipping a coin." is a new sentence."""
    line = redline(COIN, f"Some cards refer to flipping a coin. {COIN}")
    assert words_rule_change("reworded", line) is True
    assert words_rule_change("reworded", line, subject=("704. State-Based Actions",)) is True
