"""``level.grade``: a change's kind, level and drift flags, from small constructed drafts.

Each case builds the draft the engine would make (``rulebook_compiler.diff.draft``) of one or two clauses,
with the answers the engine would compare, and asserts the exact grade. The expected values
follow the rules of ``rulebook_compiler.diff.level``'s and ``rulebook_compiler.diff.classify``'s docstrings.
"""

from __future__ import annotations

import pytest

from rulebook_compiler.diagnostics import Location
from rulebook_compiler.diff import level as L
from rulebook_compiler.diff.draft import Draft, Terms
from rulebook_compiler.diff.flags import Flag, flag
from rulebook_compiler.diff.match import Pairing, TermPair
from rulebook_compiler.diff.redline import redline
from rulebook_compiler.model import Clause, Section, Term, Vocabulary

HERE = Location("x.yaml", 1, 1)
NO_VOCABULARY = Vocabulary((), ())
UNMOVED_TEXT = "the machine-readable meaning changed but the text did not"  # classify.drift


def _clause(cid: str, text: str, term: str = "heal", number: str | None = None) -> Clause:
    return Clause(id=cid, term=term, section="rules", text=text, notes=None, links=(), defines=None, rules=(),
                  steps=None, table=None, loc=HERE, number=number)


def _term(tid: str, *clauses: Clause, name: str = "Heal") -> Term:
    return Term(id=tid, name=name, aliases=(), notes=None, decisions=(),
                sections=(Section("rules", "rules", "Rules", clauses),), edition="v", digest=tid, loc=HERE)


def _terms(old: tuple[Term, ...], new: tuple[Term, ...]) -> Terms:
    ids = sorted({t.id for t in old + new})
    olds, news = {t.id: t for t in old}, {t.id: t for t in new}
    pairs = {tid: TermPair(tid, olds.get(tid), news.get(tid)) for tid in ids}
    words = ({t.id: " ".join(c.text for c in t.clauses) for t in old},
             {t.id: " ".join(c.text for c in t.clauses) for t in new})
    return Terms(pairs, words, (frozenset(), frozenset()), (NO_VOCABULARY, NO_VOCABULARY))


def _draft(olds: tuple[Clause, ...], news: tuple[Clause, ...], kind: str | None = None,
           matched_by: str | None = "id", *, names: tuple[tuple[str, str], ...] = (), has_meaning: bool = False,
           meaning_changed: bool = False, moved: bool = False) -> Draft:
    pairing = Pairing(olds, news, matched_by, 1.0, moved)
    return Draft(header=False, term=(news or olds)[0].term, kind=kind, pairing=pairing, olds=olds, news=news,
                 old_text=" ".join(c.text for c in olds) if olds else None,
                 new_text=" ".join(c.text for c in news) if news else None,
                 old_loc=HERE if olds else None, new_loc=HERE if news else None, names=names,
                 meaning_changed=meaning_changed, steps_changed=False, structure=None, has_meaning=has_meaning)


def _grade(draft: Draft, terms: Terms, answers: L.Answers = L.Answers(), step_moved: bool = False) -> L.Grade:
    line = redline(draft.old_text or "", draft.new_text or "")
    return L.grade(L.Case(draft, line, L.text_of(draft), answers, terms, step_moved))


def flag_text(text: str) -> Flag:
    return flag(text)


def _one_to_one(old_text: str, new_text: str, **kw) -> L.Grade:
    old, new = _clause("targets", old_text), _clause("targets", new_text)
    return _grade(_draft((old,), (new,)), _terms((_term("heal", old),), (_term("heal", new),)), **kw)


def test_a_word_replaced_by_another_is_a_rewording_read_as_a_clarification():
    assert _one_to_one("A heal targets a character.", "A heal chooses a character.") == \
        L.Grade("reworded", L.CLARIFICATION, (), ())


def test_punctuation_alone_is_editorial():
    assert _one_to_one("A heal targets a character", "A heal targets a character.") == \
        L.Grade("editorial", L.EDITORIAL, (), ())


def test_a_cited_rule_number_that_changed_is_editorial_not_a_rewording():
    assert L.text_of(_draft((_clause("a", "See rule 711."),), (_clause("a", "See rule 712."),))) == "editorial"
    assert _one_to_one("See rule 711.", "See rule 712.") == L.Grade("editorial", L.EDITORIAL, (), ())


def test_a_whole_new_sentence_in_a_clause_no_model_covers_is_a_rule_change():
    assert _one_to_one("A heal targets a character.",
                       "A heal targets a character. It cannot be played twice in one turn.") == \
        L.Grade("reworded", L.RULE_CHANGE, (), ())


def test_an_answer_that_changes_a_play_makes_a_semantic_rule_change_whatever_the_words():
    answers = L.Answers(frozenset({("decision", "heal.may_target")}), playing=True, changed=True)
    assert _one_to_one("A heal targets a character.", "A heal targets a character.", answers=answers) == \
        L.Grade("semantic", L.RULE_CHANGE, (flag_text(UNMOVED_TEXT),), ())


def test_a_predicate_answering_differently_that_no_rule_reads_grades_nothing_but_is_flagged():
    """``Answers.annotations``: changed, but no play changes; the words decide (a word for a word)."""
    answers = L.Answers(frozenset({("predicate", "footnoted")}), playing=False, changed=True,
                        annotations=("footnoted",))
    grade = _one_to_one("A heal targets a character.", "A heal chooses a character.", answers=answers)
    assert (grade.kind, grade.level, [f.text for f in grade.drift], grade.unchecked) == (
        "reworded", L.CLARIFICATION,
        ["the predicate footnoted answers differently, but no rule or predicate of either edition reads it and "
         "the text names no word it defines: its words decide the level"], ())


def test_rules_rewritten_with_words_that_add_a_sentence_are_a_semantic_change():
    """The meaning changed and every name is compared the same, but the words add a sentence: the
    level reads a rule change from the words, and the kind follows it."""
    old, new = _clause("targets", "A heal targets a character."), \
        _clause("targets", "A heal targets a character. It cannot be played twice in one turn.")
    draft = _draft((old,), (new,), names=(("decision", "heal.may_target"),), has_meaning=True, meaning_changed=True)
    answers = L.Answers(frozenset({("decision", "heal.may_target")}))
    assert _grade(draft, _terms((_term("heal", old),), (_term("heal", new),)), answers) == \
        L.Grade("semantic", L.RULE_CHANGE, (), ())


def test_a_rule_moving_to_a_name_one_side_lacks_is_a_rule_change():
    """A name the draft's rules feed that was not compared (one side lacks it) changes what they answer."""
    old, new = _clause("targets", "A heal targets a character."), _clause("targets", "A heal targets a character.")
    draft = _draft((old,), (new,), names=(("decision", "heal.new"),), has_meaning=True, meaning_changed=True)
    assert _grade(draft, _terms((_term("heal", old),), (_term("heal", new),)), L.Answers(one_sided=True)) == \
        L.Grade("semantic", L.RULE_CHANGE, (), ())


def test_a_new_printed_number_with_the_same_words_is_renumbered_and_editorial():
    old, new = _clause("a", "A heal targets a character.", number="704.5k"), \
        _clause("a", "A heal targets a character.", number="704.5j")
    assert _grade(_draft((old,), (new,)), _terms((_term("heal", old),), (_term("heal", new),))) == \
        L.Grade("renumbered", L.EDITORIAL, (), ())


def test_a_step_at_another_place_whose_words_differ_only_by_its_number_is_renumbered():
    old, new = _clause("a", "1. Draw a card."), _clause("a", "2. Draw a card.")
    terms = _terms((_term("heal", old),), (_term("heal", new),))
    # The step's own number is no word of its rule: "1." is a sentence of one word, no number of a rule.
    assert _grade(_draft((old,), (new,)), terms, step_moved=True) == L.Grade("renumbered", L.CLARIFICATION, (), ())
    assert _grade(_draft((old,), (new,)), terms).kind == "reworded"


def test_another_id_with_the_same_words_is_renamed():
    old, new = _clause("targets", "A heal targets a character."), _clause("chooses", "A heal targets a character.")
    assert _grade(_draft((old,), (new,)), _terms((_term("heal", old),), (_term("heal", new),))) == \
        L.Grade("renamed", L.EDITORIAL, (), ())


def test_a_clause_moved_to_another_term_is_moved_whatever_its_words():
    old, new = _clause("a", "A heal targets a character."), _clause("a", "A heal chooses a character.", term="cure")
    terms = _terms((_term("heal", old),), (_term("cure", new, name="Cure"),))
    assert _grade(_draft((old,), (new,), moved=True), terms) == L.Grade("moved", L.CLARIFICATION, (), ())


def test_a_clause_moved_within_its_term_with_nothing_else_changed_is_moved_and_editorial():
    old, new = _clause("a", "A heal targets a character."), _clause("a", "A heal targets a character.")
    assert _grade(_draft((old,), (new,), moved=True), _terms((_term("heal", old),), (_term("heal", new),))) == \
        L.Grade("moved", L.EDITORIAL, (), ())


def test_a_pairing_with_nothing_a_reviewer_reads_changed_grades_as_no_change():
    old, new = _clause("a", "A heal targets a character."), _clause("a", "A heal targets a character.")
    assert _grade(_draft((old,), (new,)), _terms((_term("heal", old),), (_term("heal", new),))).kind is None


def test_an_added_clause_no_model_covers_whose_words_are_new_is_a_rule_change():
    kept = _clause("targets", "A heal targets a character.")
    added = _clause("twice", "A heal cannot be played twice in one turn.")
    terms = _terms((_term("heal", kept),), (_term("heal", kept, added),))
    assert _grade(_draft((), (added,), "added", None), terms) == L.Grade("added", L.RULE_CHANGE, (), ())


def test_an_added_clause_whose_words_all_live_on_elsewhere_is_a_clarification_flagged_as_such():
    kept = _clause("targets", "A heal targets a character in a discard pile.")
    added = _clause("again", "A heal targets a character in a discard pile.")
    terms = _terms((_term("heal", kept),), (_term("heal", _clause("targets", "Heals are cards."), added),))
    assert _grade(_draft((), (added,), "added", None), terms) == L.Grade("added", L.CLARIFICATION, (L.LIVES_ON,), ())


def test_words_live_on_only_within_one_text_never_across_two():
    """The typed ``Said``: each clause apart, so a run of words is not matched across two of them."""
    assert L.lives_on("A heal targets a character.", ("A heal removes poison.", "Target a character.")) is False
    assert L.lives_on("A heal targets a character.", ("Poison. A heal targets a character.",)) is True


@pytest.mark.parametrize("kind,across", [("merged", True), ("split", True), ("reworded", False)])
def test_a_reading_says_where_sentences_may_move_across_the_parts(kind, across):
    """``Reading.across``: a merge or split of a modelled clause, the one place ``moved_pairs`` reads."""
    assert L.Reading(kind, redline("A. B.", "A B."), modelled=True).across is across
    assert L.Reading(kind, redline("A. B.", "A B."), modelled=False).across is False


def test_a_heading_of_an_added_term_is_added_and_a_clarification():
    draft = Draft(header=True, term="heal", kind="added", pairing=None, olds=(), news=(), old_text=None,
                  new_text="Term: Heal", old_loc=None, new_loc=HERE, names=(), meaning_changed=False,
                  steps_changed=False, structure=(None, {}), has_meaning=False)
    assert _grade(draft, _terms((), (_term("heal"),))) == L.Grade("added", L.CLARIFICATION, (), ())


def test_a_heading_whose_decisions_changed_is_a_rule_change_of_kind_semantic():
    draft = Draft(header=True, term="heal", kind=None, pairing=None, olds=(), news=(), old_text="Term: Heal",
                  new_text="Term: Heal", old_loc=HERE, new_loc=HERE, names=(("decision", "heal.x"),),
                  meaning_changed=True, steps_changed=False, structure=({}, {}), has_meaning=True)
    assert _grade(draft, _terms((_term("heal"),), (_term("heal"),)), L.Answers(playing=True, changed=True)) == \
        L.Grade("semantic", L.RULE_CHANGE, (flag_text(UNMOVED_TEXT),), ())


def test_a_heading_whose_name_changed_only_is_reworded_and_a_clarification():
    draft = Draft(header=True, term="heal", kind=None, pairing=None, olds=(), news=(), old_text="Term: Heal",
                  new_text="Term: Healing", old_loc=HERE, new_loc=HERE, names=(), meaning_changed=False,
                  steps_changed=False, structure=({}, {}), has_meaning=False)
    assert _grade(draft, _terms((_term("heal"),), (_term("heal"),))) == L.Grade("reworded", L.CLARIFICATION, (), ())
