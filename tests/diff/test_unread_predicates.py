"""A predicate that no rule reads grades its clause only where the clause gives words their meaning.

Issue 11, point 8 (REG 5.0.0 -> 11.0.0 ``targeting#other-abilities-footnote``,
labelled a clarification). Fixture unread-list-predicate-changes: a footnote
lists abilities, modelled as a predicate that no rule or predicate of either
edition reads; v2's list changes. No play changes: the clause is graded by its
words (reworded, a clarification), and the predicate's changed answers are
still listed, under its own entry and on the clause. Fixture
unread-defined-words-change: two clauses that give words their meaning (a
quoted phrase, a word the clause names), also unread; their meanings change,
and each stays a rule change, though their words alone would not say so.
"""

from __future__ import annotations

from rulebook_compiler.build import load_rulebook
from rulebook_compiler.diff import level as L
from rulebook_compiler.diff.classify import keys_tested
from rulebook_compiler.diff.engine import diff_editions
from rulebook_compiler.diff.names import NameRef
from rulebook_compiler.diff.redline import redline
from tests.diff.test_names import DIFF, _result

LISTED = NameRef("predicate", "footnoted_ability", "changed")
ANNOTATION = ("the predicate footnoted_ability answers differently, but no rule or predicate of either edition "
              "reads it and the text names no word it defines: its words decide the level")


def test_an_unread_list_predicate_whose_list_changes_is_a_clarification_still_listed():
    result = _result("unread-list-predicate-changes")
    by_clause = {c.clause: c for c in result.changes}
    assert [(k, c.kind, c.level) for k, c in by_clause.items()] == [
        ("set-aside", "added", "clarification"), ("all-other", "editorial", "editorial"),
        ("footnote", "reworded", "clarification")]
    footnote = by_clause["footnote"]
    assert footnote.names == (LISTED,)
    assert [f.text for f in footnote.drift] == [ANNOTATION]
    assert [(b.name, b.direction, b.broadened, b.narrowed) for b in footnote.behaviours] == [
        ("footnoted_ability", "changed", 2, 1)]
    [entry] = result.names
    assert (entry.kind, entry.name, entry.status, [c.text for c in entry.changes]) == (
        "predicate", "footnoted_ability", "changed", ["reach#footnote"])


def test_the_reverse_of_an_unread_list_change_is_a_clarification_too():
    book = load_rulebook(DIFF / "unread-list-predicate-changes")
    by_clause = {c.clause: c for c in diff_editions(book, "v2", book, "v1").changes}
    assert (by_clause["footnote"].kind, by_clause["footnote"].level, by_clause["footnote"].names) == (
        "reworded", "clarification", (LISTED,))


def test_an_unread_predicate_of_words_the_clause_defines_is_a_rule_change():
    result = _result("unread-defined-words-change")
    assert [(c.clause, c.kind, c.level, c.names, c.drift) for c in result.changes] == [
        ("being-discarded-phrase", "semantic", "rule-change",
         (NameRef("predicate", "being_discarded_phrase", "changed"),), ()),
        ("sick", "semantic", "rule-change", (NameRef("predicate", "sick", "changed"),), ())]


def test_the_words_of_the_defined_words_alone_would_say_clarification():
    """What the fixture shows rests on the answers: read as a modelled clause's words, neither
    change adds a sentence, a number or an untested list item."""
    book = load_rulebook(DIFF / "unread-defined-words-change")
    for change in _result("unread-defined-words-change").changes:
        clauses = [book.edition(e).term_by_id[change.term] for e in ("v1", "v2")]
        tested = frozenset(keys_tested([c for t in clauses for c in t.clauses if c.id == change.clause], {}))
        assert L.words_rule_change("reworded", redline(change.old_text, change.new_text),
                                   modelled=True, tested=tested) is False, change.clause


def test_a_clause_says_what_it_defines_by_quoting_it_or_by_its_name():
    assert L.says_what_it_defines("The phrase “being discarded” means “about to be discarded”.",
                                  "being_discarded_phrase") is True
    assert L.says_what_it_defines("A character is sick if it is poisoned.", "sick") is True
    assert L.says_what_it_defines("A step is before resolution if it comes before the battle is resolved.",
                                  "before_resolution") is True
    assert L.says_what_it_defines("*Banish, Capture, Heal, and Shuffle", "footnoted_ability") is False


def test_a_value_of_several_words_names_its_hyphenated_item():
    """"Set-Aside" leaving a list whose clause tests ``ability=set_aside`` is no untested item."""
    old, new = "*Banish, Capture, Heal, Set-Aside, and Shuffle", "*Banish, Capture, Gain, Heal, and Shuffle"
    tested = frozenset({"ability", "ability=set_aside", "ability=gain"})
    assert L.items_in_or_out(old, new, tested) == []
    # Without the value, "Set-Aside" is an untested item gone, and "Gain" one come; each said once,
    # though found both as a list item and within the sentence's list.
    assert L.items_in_or_out(old, new, frozenset({"ability", "ability=heal"})) == ["Gain", "Set-Aside"]
