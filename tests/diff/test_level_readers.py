"""The small readers of ``rulebook_compiler.diff.level``, each stated exactly on a constructed case: which
texts say what they define, which short items name a value, how a change's text kind and drift
are read, which sentences pair across a merge. Written for the mutants that the level tests left
alive (docs/mutation.md); each expected value follows the docstring of the function it tests.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from rulebook_compiler.build import load_rulebook
from rulebook_compiler.diagnostics import Location
from rulebook_compiler.diff import level as L
from rulebook_compiler.diff.classify import REWORDED, SAME, Labels, Side
from rulebook_compiler.diff.draft import Draft, Terms
from rulebook_compiler.diff.flags import Ident, flag
from rulebook_compiler.diff.match import Pairing, TermPair
from rulebook_compiler.diff.names import NameChange
from rulebook_compiler.diff.result import Conformance, Change, DiffResult
from rulebook_compiler.diff.rulings import Flip, RulingsDiff, Said
from rulebook_compiler.diff.redline import redline
from rulebook_compiler.model import Clause, Section, Term, Vocabulary

HERE = Location("x.yaml", 1, 1)
RULE_LESS = Path(__file__).resolve().parents[1] / "fixtures" / "diff" / "rule-less-clauses"


def _clause(cid: str, text: str) -> Clause:
    return Clause(id=cid, term="heal", section="rules", text=text, notes=None, links=(), defines=None, rules=(),
                  steps=None, table=None, loc=HERE, number=None)


def _term(*clauses: Clause) -> Term:
    return Term(id="heal", name="Heal", aliases=(), notes=None, decisions=(),
                sections=(Section("rules", "rules", "Rules", clauses),), edition="v", digest="heal", loc=HERE)


def _draft(olds: tuple[Clause, ...], news: tuple[Clause, ...], kind: str | None = None, *,
           has_meaning: bool = False, header: bool = False) -> Draft:
    return Draft(header=header, term="heal", kind=kind, pairing=Pairing(olds, news, "id", 1.0, False), olds=olds,
                 news=news, old_text=" ".join(c.text for c in olds) if olds else None,
                 new_text=" ".join(c.text for c in news) if news else None,
                 old_loc=HERE if olds else None, new_loc=HERE if news else None, names=(),
                 meaning_changed=False, steps_changed=False, structure=None, has_meaning=has_meaning)


def _terms(old: Term, new: Term) -> Terms:
    words = ({"heal": " ".join(c.text for c in old.clauses)}, {"heal": " ".join(c.text for c in new.clauses)})
    return Terms({"heal": TermPair("heal", old, new)}, words, (frozenset(), frozenset()),
                 (Vocabulary((), ()), Vocabulary((), ())))


# -- says_what_it_defines ------------------------------------------------------------------------


def test_a_text_that_quotes_words_says_what_it_defines_whatever_the_name():
    assert L.says_what_it_defines("The phrase “being discarded” means put in the pile.", "footnoted_ability") is True


@pytest.mark.parametrize("text, name, says", [
    ("A character is sick if it is poisoned.", "sick", True),
    ("A character is ill if it is poisoned.", "sick", False),
    # every word of the name, each by its first STEM letters ("poisonous" is "poisoned"), "_" and "." apart
    ("A character is poisonous.", "poisoned", True),
    ("A poisoned character is sick.", "poisoned.sick", True),
    ("A character is sick.", "poisoned_sick", False),
    ("A hero is sick.", "sick_hero", True),
    # a bare list names no word it defines
    ("*Banish, Capture, Discard", "footnoted_ability", False),
])
def test_a_text_says_what_it_defines_when_it_says_every_word_of_the_name(text, name, says):
    assert L.says_what_it_defines(text, name) is says


# -- covered: a short item naming a value ---------------------------------------------------------


def test_an_item_naming_a_value_is_covered_only_when_short_and_without_an_end_mark():
    """``_value_named``: a short clause (``SHORT_ITEM`` words) with no end mark names a value; "Attacker
    wins." is a sentence and "Attacker wins the duel and the prize" is no item: the words decide."""
    book = load_rulebook(RULE_LESS)
    edition = book.edition("v2")
    term, item = edition.term_by_id["duel"], edition.clause_by_ref["duel#attacker-wins"]
    assert L.covered(item, term, None, edition.vocabulary) == flag(
        "an item naming the value ", Ident("attacker_wins"), " of ", Ident("duel_outcome"), ", which its rules test")
    for text in ("Attacker wins.", "Attacker wins;", "Attacker wins the duel and the prize"):
        assert L.covered(replace(item, text=text), term, None, edition.vocabulary) is None


# -- text_of and reads_drift ------------------------------------------------------------------------


@pytest.mark.parametrize("text, kind", [("", SAME), ("Xxxx", REWORDED), ("A heal targets a character.", REWORDED)])
def test_an_added_clause_is_read_against_no_text(text, kind):
    """``text_of``: the missing side is the empty text (``classify.text_kind``): every word is new."""
    assert L.text_of(_draft((), (_clause("a", text),), "added")) == kind
    assert L.text_of(_draft((_clause("a", text),), (), "removed")) == kind


@pytest.mark.parametrize("kind, has_meaning, header, text, reads", [
    (None, True, False, REWORDED, True),
    (None, False, False, REWORDED, False),  # no rule: nothing to compare the words with
    (None, True, True, REWORDED, False),  # a heading
    (None, True, False, "editorial", False),  # no word changed
    ("added", True, False, REWORDED, False),
    ("removed", True, False, REWORDED, False),
    ("merged", True, False, REWORDED, True),
])
def test_drift_reads_a_rewording_of_a_clause_with_rules_neither_added_nor_removed(kind, has_meaning, header, text,
                                                                                    reads):
    old, new = _clause("a", "A heal targets a character."), _clause("a", "A heal chooses a character.")
    draft = _draft((old,), (new,), kind, has_meaning=has_meaning, header=header)
    assert L.reads_drift(draft, text) is reads
    assert L.reads_drift(replace(draft, asked=("heal.may_target",)), text) is False


def test_the_words_of_a_clause_with_rules_are_compared_with_what_its_rules_test():
    """``classify.drift`` through ``grade``: the new text names 'face down' and 'battle zone', which
    no rule of the clause tests on either side."""
    old, new = _clause("a", "A heal targets a card."), _clause("a", "A heal targets a face down card in the battle zone.")
    labels = Labels({"face down": frozenset({"face_down"}), "battle zone": frozenset({"zone=battle_zone"})},
                    {"zone": ("hand", "battle_zone")}, 2)
    draft = _draft((old,), (new,), has_meaning=True)
    case = L.Case(draft, redline(draft.old_text or "", draft.new_text or ""), REWORDED, L.Answers(),
                  _terms(_term(old), _term(new)), sides=(Side(old.text, set()), Side(new.text, set())), labels=labels)
    assert [f.text for f in L.grade(case).drift] == [
        "the text now names 'battle zone', 'face down', which no rule of this clause tests"]


# -- reworded_across -------------------------------------------------------------------------------


def test_sentences_of_function_words_only_stand_for_nothing():
    """``reworded_across``: more than ``REWRITTEN`` of each one's words (articles and prepositions aside)
    must be the other's; a sentence with none such shares nothing."""
    line = redline("A heal targets a character. To from by with.", "A heal targets a character. Of in at on.")
    assert L.reworded_across(line) == []


# -- fails: --fail-on -------------------------------------------------------------------------------


def _change(level: str, unchecked: tuple[str, ...] = (), conformance: dict | None = None) -> Change:
    return Change(kind="reworded", term="heal", clause="a", old_clause="heal#a", new_clause="heal#a",
                  old_text="A.", new_text="B.", old_location=None, new_location=None, matched_by="id",
                  confidence=1.0, redline=redline("A.", "B."), level=level, unchecked=unchecked,
                  conformance=conformance)


FLIP = Flip("r1", "May a heal target a poisoned character?", "heal.may_target", (("poisoned", True),), True,
            Said("decided", True, ("heal#a",)), Said("decided", False, ("heal#a",)))
#: A decision whose answers the vocabulary changed: a rule change with no clause change to carry it.
BY_FACTS = NameChange("decision", "heal.may_target", "changed", "heal", "May a heal target it?", facts=("poisoned",))


@pytest.mark.parametrize("result, floor, fails", [
    # ruling-flips: a ruling of the old edition answered otherwise, and nothing else
    (DiffResult({}, {}, (), rulings=RulingsDiff(flipped=(FLIP,))), L.RULING_FLIPS, True),
    (DiffResult({}, {}, (_change(L.RULE_CHANGE, conformance=Conformance("suite-v1", 4, 2, ())),)), L.RULING_FLIPS, False),
    # breaks-conformance: a flipped ruling, or a change or entry whose old suite has cases that flip
    (DiffResult({}, {}, (), rulings=RulingsDiff(flipped=(FLIP,))), L.BREAKS_CONFORMANCE, True),
    (DiffResult({}, {}, (_change(L.RULE_CHANGE, conformance=Conformance("suite-v1", 4, 2, ())),)), L.BREAKS_CONFORMANCE, True),
    (DiffResult({}, {}, (_change(L.RULE_CHANGE, conformance=Conformance("suite-v1", 4, 0, ())),)), L.BREAKS_CONFORMANCE, False),
    (DiffResult({}, {}, (_change(L.RULE_CHANGE),)), L.BREAKS_CONFORMANCE, False),
    (DiffResult({}, {}, (), names=(replace(BY_FACTS, conformance=Conformance("suite-v1", 4, 1, ())),)), L.BREAKS_CONFORMANCE, True),
    # a level: each change at its own, or as a rule change while unchecked
    (DiffResult({}, {}, (_change(L.CLARIFICATION),)), L.CLARIFICATION, True),
    (DiffResult({}, {}, (_change(L.CLARIFICATION),)), L.RULE_CHANGE, False),
    (DiffResult({}, {}, (_change(L.CLARIFICATION, unchecked=("heal#a",)),)), L.RULE_CHANGE, True),
    (DiffResult({}, {}, (_change(L.EDITORIAL),)), L.CLARIFICATION, False),
    # an entry that changes play with no clause change
    (DiffResult({}, {}, (), names=(BY_FACTS,)), L.RULE_CHANGE, True),
    (DiffResult({}, {}, (), names=(replace(BY_FACTS, facts=()),)), L.RULE_CHANGE, False),
    (DiffResult({}, {}, (), names=(BY_FACTS,)), L.CLARIFICATION, True),
])
def test_fail_on_counts_each_change_at_its_level_and_each_entry_that_changes_play(result, floor, fails):
    assert L.fails(result, floor) is fails


# -- level, items, stems, subjects, carried sentences, edits -----------------------------------------


@pytest.mark.parametrize("answers, words, found", [
    (True, True, L.RULE_CHANGE), (True, False, L.RULE_CHANGE), (False, True, L.CLARIFICATION),
    (False, False, L.EDITORIAL)])
def test_the_level_is_the_answers_first_then_the_words(answers, words, found):
    assert L.level(answers, words) == found


@pytest.mark.parametrize("old, new, items", [
    # the last item is new; "poison" (the first, cut to one word) and "disease" are on the old side
    ("A cure removes poison or disease.", "A cure removes poison, disease, or paralysis.", ["paralysis"]),
    # the first item, cut to as many words as the longest middle one: "venom", not "cure removes venom"
    ("A cure removes disease or paralysis.", "A cure removes venom, disease, or paralysis.", ["venom"]),
    # a middle item of two words: the first and last are cut to two
    ("Remove venom or disease.", "Remove venom, foul disease, or deep paralysis.", ["foul disease", "deep paralysis"]),
    # a middle item of SHORT_ITEM words is an item; one of more is no list at all
    ("Remove poison or paralysis.", "Remove poison, the curse of old kings, or paralysis.", ["the curse of old kings"]),
    ("Remove poison or paralysis.", "Remove poison, the curse of the old dragon king, or paralysis.", []),
    # a text whose first "list" is none still has its later lists read
    ("Remove poison or paralysis. Heal venom or fire.",
     "Remove poison, the curse of the old dragon king, or paralysis. Heal venom, sleep, or fire.", ["sleep"]),
    # the items of every list, in the order found
    ("Remove venom or fire. Heal poison or pain.", "Remove venom, sleep, or fire. Heal poison, curse, or pain.",
     ["sleep", "curse"]),
])
def test_items_in_or_out_names_each_list_item_the_other_side_lacks(old, new, items):
    assert L.items_in_or_out(old, new, frozenset()) == items


def test_the_stems_of_what_rules_test_split_values_and_words_and_leave_out_function_words():
    assert L.tested_stems(frozenset({"zone=battle_zone"})) == {"zone", "battl"}
    assert L.tested_stems(frozenset({"card_in_hand"})) == {"card", "hand"}
    assert L.tested_stems(frozenset({"_drawn"})) == {"drawn"}


@pytest.mark.parametrize("sentence, subject, names", [
    ("Some cards refer to flipping a coin.", ("Flipping a Coin",), True),  # every title word, no other
    ("Some cards refer to flipping a coin.", ("Coin Flips", "Flipping Things"), True),
    ("Some cards refer to flipping a coin twice.", ("Flipping a Coin",), False),
    ("Cards refer to flipping a coin.", ("Flipping a Coin",), False),  # no quantifier: a statement
])
def test_a_sentence_names_its_subject_when_it_only_refers_to_its_titles_words(sentence, subject, names):
    assert L.names_subject(sentence, subject) is names


def test_a_carried_sentence_flag_says_which_way_it_went():
    assert L.carried_flag(L.INSERT, "A heal is free.").text == \
        "the text now says “A heal is free.”: it came with the clause's rules, and the answers are the same"
    assert L.carried_flag(L.DELETE, "A heal is free.").text == \
        "the text no longer says “A heal is free.”: it went with the clause's rules, and the answers are the same"


@pytest.mark.parametrize("old, new, groups", [
    ("Zones A XX B.", "Zones D XX E.", 2),  # a word that stays parts two edits
    ("Zones A,, B.", "Zones D,, E.", 1),  # commas that stay join them
])
def test_edits_are_parted_by_words_that_stay_and_joined_by_punctuation(old, new, groups):
    assert len(L.edits(redline(old, new))) == groups


# -- where an added or removed clause's words may live on; sentences that follow from the text --------


def _added_or_removed(kind: str, old: Term, new: Term, clause: Clause) -> L.Grade:
    draft = _draft((), (clause,), kind) if kind == "added" else _draft((clause,), (), kind)
    draft = replace(draft, pairing=None)
    line = redline(draft.old_text or "", draft.new_text or "")
    return L.grade(L.Case(draft, line, L.text_of(draft), L.Answers(), _terms(old, new)))


def test_a_clause_with_no_rule_as_new_as_the_added_one_vouches_for_nothing():
    """``Case.said_elsewhere``: on its own side, only clauses with rules of their own count; "twice"
    says again only what the new, rule-less "once" says."""
    kept = _clause("targets", "A heal targets a character.")
    once, twice = _clause("once", "A heal cannot be played twice in one turn."), \
        _clause("twice", "A heal cannot be played twice in one turn.")
    assert _added_or_removed("added", _term(kept), _term(kept, once, twice), twice) == \
        L.Grade("added", L.RULE_CHANGE, (), ())
    assert _added_or_removed("removed", _term(kept, once, twice), _term(kept), twice) == \
        L.Grade("removed", L.RULE_CHANGE, (), ())
    # said by the other side, it lives on
    assert _added_or_removed("added", _term(kept, once), _term(kept, twice), twice) == \
        L.Grade("added", L.CLARIFICATION, (L.LIVES_ON,), ())


def _reworded(old_text: str, new_text: str, has_meaning: bool = False) -> L.Grade:
    old, new = _clause("a", old_text), _clause("a", new_text)
    draft = _draft((old,), (new,), has_meaning=has_meaning)
    return L.grade(L.Case(draft, redline(old_text, new_text), L.text_of(draft), L.Answers(),
                          _terms(_term(old), _term(new))))


@pytest.mark.parametrize("new, found", [
    # every word of "Since X" is said elsewhere in the new text: the sentence follows from it
    ("A hero is poisoned. Since a hero is poisoned, a heal cannot target it.", L.CLARIFICATION),
    # "poisoned" is said nowhere else: a new rule
    ("A hero is here. Since a hero is poisoned, a heal cannot target it.", L.RULE_CHANGE),
    # the sentence's own words do not count as elsewhere
    ("A hero is here. Since XX, a heal cannot target it.", L.RULE_CHANGE),
])
def test_a_since_sentence_is_no_new_rule_only_when_its_reason_is_said_elsewhere(new, found):
    old = new.split(". ")[0] + "."
    assert _reworded(old, new).level == found


@pytest.mark.parametrize("old, new, pairs", [
    # one old sentence split in two, each new one standing for it: it pairs with the one most alike
    ("Each time, heroes draw cards.", "Heroes draw cards at dawn. Heroes draw cards at dusk.",
     [("Each time, heroes draw cards.", "Heroes draw cards at dawn.")]),
    # two old sentences merged into one: the one new sentence pairs once
    ("Heroes draw cards at dawn. Heroes draw cards at dusk.", "Each time, heroes draw cards.",
     [("Heroes draw cards at dawn.", "Each time, heroes draw cards.")]),
])
def test_each_sentence_stands_in_one_moved_and_reworded_pair_only(old, new, pairs):
    assert L.reworded_across(redline(old, new)) == pairs


def test_articles_changed_alone_are_editorial_though_the_text_is_reworded():
    """``words_changed``: articles carry no rule; the text kind is ``reworded`` (its words differ)."""
    assert L.text_of(_draft((_clause("a", "A heal targets a character."),),
                            (_clause("a", "The heal targets the character."),))) == REWORDED
    assert _reworded("A heal targets a character.", "The heal targets the character.").level == L.EDITORIAL


def _section_of(term: Term, clause: Clause) -> tuple[Clause, ...]:
    return next(s.clauses for s in term.sections if s.key == clause.section)


def test_a_lead_in_is_covered_by_the_next_clause_of_its_section_only():
    """``covered``: a lead-in (ending with a colon) to a clause modelled or covered as an item; one that
    ends its section leads in to nothing, and only the next clause counts."""
    edition = load_rulebook(RULE_LESS).edition("v2")
    term, lead = edition.term_by_id["duel"], edition.clause_by_ref["duel#outcomes"]
    section = _section_of(term, lead)
    at = section.index(lead)
    item = section[at + 1]

    def arranged(*clauses: Clause) -> Term:
        return replace(term, sections=tuple(replace(s, clauses=clauses) if s.key == lead.section else s
                                            for s in term.sections))
    others = [c for c in section if c not in (lead, item)]
    # the lead-in and its item last: the item is the next clause
    assert L.covered(lead, arranged(*others, lead, item), None, edition.vocabulary) == \
        flag("a lead-in to ", Ident(item.ref))
    # the lead-in last of its section: nothing follows it
    assert L.covered(lead, arranged(*others, item, lead), None, edition.vocabulary) is None


def test_a_sentence_of_sentence_words_words_is_a_sentence_of_a_rule():
    """``SENTENCE_WORDS``: in a clause with rules of its own (only whole sentences count), four words
    inserted whole are a new sentence, a rule change; three are none."""
    assert _reworded("A heal targets a character.", "A heal targets a character. Heals cost nothing more.",
                     has_meaning=True).level == L.RULE_CHANGE
    assert _reworded("A heal targets a character.", "A heal targets a character. Heals cost nothing.",
                     has_meaning=True).level == L.CLARIFICATION


def test_a_pairing_with_nothing_changed_grades_as_no_change_at_the_editorial_level():
    old, new = _clause("a", "A heal targets a character."), _clause("a", "A heal targets a character.")
    draft = _draft((old,), (new,))
    line = redline(old.text, new.text)
    assert L.grade(L.Case(draft, line, L.text_of(draft), L.Answers(), _terms(_term(old), _term(new)))) == \
        L.Grade(None, L.EDITORIAL)
    # listed for its decision's given, with the words changed: no drift between its words and its rules
    asked = replace(_draft((old,), (_clause("a", "A heal chooses a character."),)), asked=("heal.may_target",))
    case = L.Case(asked, redline(asked.old_text or "", asked.new_text or ""), REWORDED, L.Answers(),
                  _terms(_term(old), _term(new)))
    assert L.drift_flags(case, "reworded", L.CLARIFICATION) == ((), ())
