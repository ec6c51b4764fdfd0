"""Changes inside a clause (rulebook_compiler.diff.inside): list items added, removed and moved, and
editorial fixes alongside word changes, each its own sub-change; long clauses shown as the
changed items and sentences with a little context.

Fixture: tests/fixtures/diff/inside (v1 -> v2): ``affected`` is a 560-character card list
that gains two items and gets a spelling fix (issue 11's Why case), ``order`` a semicolon
list where a step moves, ``before-battle`` a bullet list that loses a bullet, and
``resolution`` a long paragraph with 11 small edits in 6 of its 12 sentences.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from click.testing import CliRunner

from rulebook_compiler.cli import main
from rulebook_compiler.diff.inside import edits, shown_lines, sub_changes, units

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "diff" / "inside"
WHERE = "editions/v2/battle.yaml"


def _diff(*args: str) -> str:
    result = CliRunner().invoke(main, ["diff", "v1", "v2", "--rulebook", ".", *args], catch_exceptions=False)
    assert (result.exit_code, result.stderr) == (0, "")
    return result.stdout


@pytest.fixture
def in_fixture(monkeypatch):
    monkeypatch.chdir(FIXTURE)


def _subs(clause: str) -> list[dict]:
    changes = {c["clause"]: c for c in json.loads(_diff("--format", "json"))["changes"]}
    return changes[clause]["sub_changes"]


def _sub(kind, old_position, new_position, old, new, edit=None) -> dict:
    return {"kind": kind, "unit": "item", "old_position": old_position, "new_position": new_position,
            "old": old, "new": new, "edit": edit}


def test_a_long_list_that_gains_items_and_a_spelling_fix(in_fixture):
    assert _subs("affected") == [
        _sub("item-added", None, 2, None, "Bounce"),
        _sub("editorial", 6, 7, "Exhange", "Exchange", {"old": "Exhange", "new": "Exchange"}),
        _sub("item-added", None, 9, None, "Gain"),
    ]


def test_a_moved_item(in_fixture):
    assert _subs("order") == [_sub("item-moved", 2, 4, "discard a card", "discard a card")]


def test_a_removed_bullet(in_fixture):
    assert _subs("before-battle") == [_sub("item-removed", 2, None, "heal a character", None)]


def test_eleven_small_edits_are_eleven_sub_changes(in_fixture):
    found = [(s["kind"], s["unit"], s["new_position"], s["edit"]["old"], s["edit"]["new"])
             for s in _subs("resolution")]
    assert found == [
        ("words", "sentence", 2, "enhancements,", "enhancement cards"),
        ("editorial", "sentence", 2, "initative", "initiative"),
        ("words", "sentence", 3, "", "is played"),
        ("editorial", "sentence", 4, "strenght", "strength"),
        ("words", "sentence", 4, "every", "each"),
        ("words", "sentence", 5, "or equal to", ""),
        ("editorial", "sentence", 7, "", ","),
        ("editorial", "sentence", 7, "noone", "no one"),
        ("editorial", "sentence", 9, "owner's", "owner’s"),
        ("editorial", "sentence", 9, "choses", "chooses"),
        ("words", "sentence", 9, "after", "when"),
    ]


def _change_lines(text: str, clause: str) -> list[str]:
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("  ") and f"battle#{clause} " in line)
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("  ") and
                not lines[i].startswith("    ")), len(lines))
    return lines[start:end]


def test_a_long_clause_with_eleven_small_edits_shows_the_changed_sentences(in_fixture):
    assert _change_lines(_diff(), "resolution") == [
        f"  reworded  battle#resolution  {WHERE}:27:9",
        "    (long clause, so only the changed items and sentences are shown)",
        "    inside: 5 word changes, 6 editorial fixes",
        "      sentence 2, words and editorial: Each player may then play [-enhancements,-]{+enhancement cards+}"
        " one at a time, starting with the player who has [-initative-]{+initiative+}.",
        "      sentence 3, words: Initiative passes to the other player after each enhancement{+ is played+}.",
        "      sentence 4, words and editorial: … of the evil character and the [-strenght-]{+strength+}"
        " of the evil character with the … that moment have been applied and [-every-]{+each+}"
        " ongoing effect has been checked.",
        "      sentence 5, words: A character whose toughness is less than [-or equal to -]"
        "the opposing strength is discarded.",
        "      sentence 7, editorial: If neither character is discarded{+,+} the battle is a stalemate and"
        " [-noone-]{+no one+} wins.",
        "      sentence 9, words and editorial: Cards discarded in battle go to the [-owner's-]{+owner’s+}"
        " discard pile in the order the owner [-choses, after-]{+chooses, when+} the battle ends.",
    ]


def test_a_long_list_shows_the_changed_items_only(in_fixture):
    assert _change_lines(_diff(), "affected") == [
        f"  reworded  battle#affected  {WHERE}:8:9",
        "    (long clause, so only the changed items and sentences are shown)",
        "    inside: 2 items added, 1 editorial fix",
        "      item 2, added: {+Bounce+}",
        "      item 7, editorial: [-Exhange-]{+Exchange+}",
        "      item 9, added: {+Gain+}",
    ]


def test_a_short_list_keeps_its_redline_and_names_the_move(in_fixture):
    assert _change_lines(_diff(), "order") == [
        f"  reworded  battle#order  {WHERE}:18:9",
        "    Resolve in this order: draw a card; [-discard a card; -]heal a character; shuffle your deck"
        "{+; discard a card+}; end your turn.",
        "    inside: 1 item moved",
        "      item 2 -> 4, moved: discard a card",
    ]


def test_a_short_clause_keeps_its_redline_and_counts_its_edits(in_fixture):
    """Its one sentence is the redline: listing it again would only repeat it."""
    assert _change_lines(_diff(), "short") == [
        f"  reworded  battle#short  {WHERE}:46:9",
        "    A healing [-enhancement-]{+Enhancement+} can be played on a character [-of matching brigade-]"
        "{+that can use it+}.",
        "    inside: 1 word change, 1 editorial fix",
    ]


def test_a_step_number_is_not_a_sentence():
    """A step's printed number is the step's place (reported as renumbered), not an edit of its words."""
    assert [s.as_json() for s in sub_changes("2. Determine the outcome.", "4. Determine the outcome of battle.")] \
        == [{"kind": "words", "unit": "sentence", "old_position": 1, "new_position": 1,
             "old": "Determine the outcome.", "new": "Determine the outcome of battle.",
             "edit": {"old": "", "new": "of battle"}}]


def test_a_removed_sentence_comes_after_the_sentence_before_it():
    found = [(s.kind, s.old_position, s.new_position)
             for s in sub_changes("One rule. Two rules here. Three rules.", "One rule. Two rules there.")]
    assert found == [("words", 2, 2), ("item-removed", 3, None)]


def test_markdown_lists_the_changed_items(in_fixture):
    text = _diff("--format", "markdown")
    assert ("**Inside the clause** (long clause, so only the changed items and sentences are shown): "
            "2 items added, 1 editorial fix\n\n"
            "- item 2, added: <ins>Bounce</ins>\n"
            "- item 7, editorial: <del>Exhange</del><ins>Exchange</ins>\n"
            "- item 9, added: <ins>Gain</ins>\n") in text
    assert "Underdeck Shuffle" not in text  # the long list is not printed whole
    assert ("**Inside the clause**: 1 item removed\n\n"
            "- item 2, removed: <del>heal a character</del>\n") in text


def test_html_lists_the_changed_items(in_fixture):
    page = _diff("--format", "html")
    assert ('<div class="inside"><p>Inside the clause (long clause, so only the changed items and sentences are shown):'
            ' 2 items added, 1 editorial fix</p>\n<ul>\n<li>item 2, added: <ins>Bounce</ins></li>\n'
            '<li>item 7, editorial: <del>Exhange</del><ins>Exchange</ins></li>\n'
            '<li>item 9, added: <ins>Gain</ins></li>\n</ul>\n</div>') in page
    assert "Underdeck Shuffle" not in page


@pytest.mark.parametrize(("old", "new", "kind"), [
    ("doesn't", "doesn’t", "editorial"),        # typography
    ("Mutual Destruction", "mutual destruction", "editorial"),  # case
    ("noone", "no one", "editorial"),           # spacing
    ("recieve", "receive", "editorial"),        # two letters swapped
    ("occured", "occurred", "editorial"),       # a letter missing
    ("gain", "have", "words"),
    ("target", "targets", "words"),             # an inflection is a word change
    ("played", "plays", "words"),
    ("2", "3", "words"),                        # numbers are never spelling
    ("affect", "effect", "words"),              # another first letter
    ("there", "their", "words"),                # two edits in a short word
])
def test_what_counts_as_an_editorial_fix(old, new, kind):
    assert [(k, o, n) for k, o, n in edits(f"It {old} now.", f"It {new} now.")] == [(kind, old, new)]


def test_units_of_a_card_list_and_a_bullet_list():
    found = [(u.unit, u.core) for u in units("Lead: *Banish, Capture, Convert, Copy, and Use Other Enhancements.")]
    assert found == [("sentence", "Lead:"), ("item", "*Banish"), ("item", "Capture"), ("item", "Convert"),
                     ("item", "Copy"), ("item", "Use Other Enhancements")]
    assert [(u.unit, u.core) for u in units("Do this:\n1. draw\n2) heal\n- discard")] == [
        ("sentence", "Do this:"), ("item", "draw"), ("item", "heal"), ("item", "discard")]


def test_prose_with_a_few_commas_is_not_a_list():
    assert [u.unit for u in units("If a card is discarded, it goes to the discard pile, face up, at once.")] \
        == ["sentence"]


def test_a_renumbered_bullet_list_reports_only_the_removed_item():
    """Numbers that shift when a bullet is withdrawn are not edits of the bullets after it."""
    assert [s.as_json() for s in sub_changes("1. draw\n2. heal\n3. end", "1. draw\n2. end")] == [
        {"kind": "item-removed", "unit": "item", "old_position": 2, "new_position": None, "old": "heal",
         "new": None, "edit": None}]


def test_a_clause_replaced_whole_has_nothing_inside_to_show(in_fixture):
    """Every sentence removed and another added: the redline says it; a count would only repeat it."""
    assert _change_lines(_diff(), "replaced") == [
        f"  reworded  battle#replaced  {WHERE}:48:9",
        "    [-Choose a poisoned character-]{+Pick one character that suffers from poison+}.",
    ]


def test_a_full_stop_inside_a_word_does_not_end_a_sentence():
    """"evil.example" and "v1.2" are one word each: a sentence ends at a full stop followed by a space."""
    assert [u.core for u in units("See evil.example/x or v1.2 now. Then stop.")] == [
        "See evil.example/x or v1.2 now.", "Then stop."]


def test_a_short_paragraph_that_gains_a_sentence_counts_it(in_fixture):
    """The redline shows the new sentence; the count says a sentence came, and nothing is listed twice."""
    lines = _change_lines(_diff(), "gains-a-sentence")
    assert lines == [
        f"  reworded  battle#gains-a-sentence  {WHERE}:50:9",
        "    A hero may block. {+An evil character may block too. +}A blocked character fights.",
        "    inside: 1 sentence added",
    ]


def test_an_apostrophe_inside_brackets_does_not_close_them():
    found = [u.core for u in units("Abilities: Banish (the owner’s, or any), Bounce, Capture, Convert, Copy.")]
    assert found == ["Abilities:", "Banish (the owner’s, or any)", "Bounce", "Capture", "Convert", "Copy"]


def test_an_item_moved_and_recapitalised_is_a_move_and_an_editorial_fix():
    subs = sub_changes("Cards: Banish, Bounce, Capture, Convert, Copy.", "Cards: Banish, Capture, Convert, bounce, Copy.")
    assert [s.as_json() for s in subs] == [
        {"kind": "item-moved", "unit": "item", "old_position": 2, "new_position": 4, "old": "Bounce",
         "new": "bounce", "edit": None},
        {"kind": "editorial", "unit": "item", "old_position": 2, "new_position": 4, "old": "Bounce",
         "new": "bounce", "edit": {"old": "Bounce", "new": "bounce"}}]
    assert [label for label, _ in shown_lines(subs)] == ["item 2 -> 4, moved, editorial"]


# Pieces of rule text, list separators, markers and what a hostile source could hold.
_PIECES = ["Banish", "Bounce", "Exhange", "Exchange", "heal a character", "and Use Other", "draw", ", ", "; ",
           ". ", ": ", "\n- ", "\n1. ", "(", ")", "“", "”", '"', "’", " ", "e.g.", "\x1b[31m", "\u202e", "7"]
_TEXT = st.lists(st.sampled_from(_PIECES), max_size=30).map("".join)


@settings(max_examples=300, deadline=None)
@given(_TEXT, _TEXT)
def test_sub_changes_account_for_every_unit(old, new):
    """Every sub-change names units of its side; every new unit with no counterpart is added, every old
    one removed; the same text on both sides has none; and the lines the formats show are computed."""
    subs = sub_changes(old, new)
    a, b = units(old), units(new)
    assert sub_changes(old, old) == ()
    for s in subs:
        assert s.old is None or s.old in [u.core for u in a if u.unit == s.unit and u.position == s.old_position]
        assert s.new is None or s.new in [u.core for u in b if u.unit == s.unit and u.position == s.new_position]
    touched_new = {(s.unit, s.new_position) for s in subs}
    old_keys = [u.key for u in a]
    for u in b:
        if u.key not in old_keys:
            assert (u.unit, u.position) in touched_new
    touched_old = {(s.unit, s.old_position) for s in subs}
    new_keys = [u.key for u in b]
    for u in a:
        if u.key not in new_keys:
            assert (u.unit, u.position) in touched_old
    assert len(shown_lines(subs)) == len({(s.unit, s.old_position, s.new_position) for s in subs})
