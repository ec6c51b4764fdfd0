"""In a merge or split, a sentence moved and reworded is no new or withdrawn sentence (rulebook_compiler.diff.level).

A merge's old text is its parts' texts one after another, in an order the editors never chose,
and a redline shows no move: a sentence of the parts that moved and was reworded shows as one
sentence deleted whole and another inserted whole. In a clause with rules of its own (whose
answers the model shows the same) words within a sentence are the model's to judge; a sentence
that pairs, one to one, with a rewritten sentence of the other side is such words. A sentence no
sentence of the other side stands for still counts, even when each of its words is found elsewhere.

The texts are Magic: The Gathering Comprehensive Rules 705.1 and 705.2 (2019-05-03) and 705.2
(2022-07-08), as in tests/fixtures/diff/numbered-rules-coin-flip.
"""

from __future__ import annotations

import hashlib
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulebook_compiler.build import load_rulebook
from rulebook_compiler.cli import main
from rulebook_compiler.diff.engine import diff_editions
from rulebook_compiler.diff.level import moved_and_reworded, words_rule_change
from rulebook_compiler.diff.redline import redline

R705_1 = ("An effect that instructs a player to flip a coin may care whether that player wins or loses the "
          "flip. To flip a coin for such an effect, the player flips the coin and calls \"heads\" or "
          "\"tails.\" If the call matches the result, the player wins the flip. Otherwise, the player loses "
          "the flip. Only the player who flips the coin wins or loses the flip; no other players are involved.")
R705_2 = ("If an effect instructs a player to flip a coin and that effect cares only whether the coin comes "
          "up heads or tails without specifying a winner or loser of the flip, that player flips a coin "
          "without making a call. No player wins or loses this kind of flip.")
MERGED = ("Some effects that instruct a player to flip a coin care only about whether the coin comes up heads "
          "or tails. No player wins or loses a coin flip for this kind of effect. For all other effects that "
          "instruct a player to flip a coin, the player that flips the coin calls \"heads\" or \"tails.\" If "
          "the call matches the result, the player wins the flip. Otherwise, the player loses the flip. Only "
          "the player who flips the coin wins or loses the flip; no other players are involved.")
PARTS = f"{R705_1} {R705_2}"
COIN_FLIP = Path(__file__).resolve().parents[1] / "fixtures" / "diff" / "numbered-rules-coin-flip"
# What the fixture's rules of 705 test, on both sides (rulebook_compiler.diff.classify.keys_tested).
TESTED = frozenset({"effect_cares_about", "effect_cares_about=win_or_lose", "effect_cares_about=heads_or_tails_only",
                    "player", "player=flipper", "player=other", "call_matches_result"})


def test_the_merged_coin_flip_rules_move_and_reword_their_sentences():
    """2019's 705.2 leads 2022's 705.2, reworded; 705.1's first sentence is the "all other effects"
    of its third. Each whole sentence pairs with a rewritten one of the other side."""
    assert words_rule_change("merged", redline(PARTS, MERGED), modelled=True, tested=TESTED) is False
    # Split back, likewise.
    assert words_rule_change("split", redline(MERGED, PARTS), modelled=True, tested=TESTED) is False


@pytest.mark.parametrize(("old", "new", "key", "kind"), [
    ("cr-2019-05-03", "cr-2022-07-08", ("r705-1+r705-2", "r705-2"), "merged"),
    ("cr-2022-07-08", "cr-2019-05-03", ("r705-2", "r705-1+r705-2"), "split"),
])
def test_the_fixtures_coin_flip_merge_and_split_are_clarifications(old, new, key, kind):
    """Its model answers every flip as before (test_match_numbered.py), and the words now agree."""
    book = load_rulebook(COIN_FLIP)
    changes = {(c.old_clause, c.new_clause): c for c in diff_editions(book, old, book, new).changes}
    assert (changes[key].kind, changes[key].level) == (kind, "clarification")


@pytest.mark.parametrize("kind", ["merged", "split"])
def test_where_no_model_judges_the_words_within_a_sentence_a_moved_sentence_still_counts(kind):
    line = redline(PARTS, MERGED) if kind == "merged" else redline(MERGED, PARTS)
    assert words_rule_change(kind, line, modelled=False) is True


def test_a_rewording_in_place_is_read_as_before():
    """Only a merge or split puts the parts one after another in an order no one chose."""
    assert words_rule_change("reworded", redline(PARTS, MERGED), modelled=True, tested=TESTED) is True


@pytest.mark.parametrize("sentence", [
    # Every word of it is found elsewhere in the texts; no rewritten sentence of the parts stands for it.
    "Other players may flip the coin.",
    "The player who loses the flip calls the coin.",
])
def test_a_new_sentence_made_of_words_found_elsewhere_in_a_merge_still_counts(sentence):
    assert words_rule_change("merged", redline(PARTS, f"{MERGED} {sentence}"), modelled=True, tested=TESTED) is True
    assert words_rule_change("split", redline(f"{MERGED} {sentence}", PARTS), modelled=True, tested=TESTED) is True



# Each sentence read as moved and reworded, old and new, in the old text's order: a drift flag, so
# that a rule the model does not hold still shows to a reviewer (as every clarification by the words).
OLD_1 = "An effect that instructs a player to flip a coin may care whether that player wins or loses the flip."
OLD_2 = ("If an effect instructs a player to flip a coin and that effect cares only whether the coin comes up "
         "heads or tails without specifying a winner or loser of the flip, that player flips a coin without "
         "making a call.")
OLD_3 = "No player wins or loses this kind of flip."
NEW_1 = "Some effects that instruct a player to flip a coin care only about whether the coin comes up heads or tails."
NEW_2 = "No player wins or loses a coin flip for this kind of effect."
NEW_3 = ("For all other effects that instruct a player to flip a coin, the player that flips the coin calls "
         "\"heads\" or \"tails.\"")


def _flag(old: str, new: str, across: str) -> str:
    return (f"the text no longer says “{old}” and now says “{new}”: read as one sentence moved and reworded "
            f"across the {across}, and the answers are the same")


MERGE_FLAGS = (_flag(OLD_1, NEW_3, "merge"), _flag(OLD_2, NEW_1, "merge"), _flag(OLD_3, NEW_2, "merge"))
SPLIT_FLAGS = (_flag(NEW_1, OLD_2, "split"), _flag(NEW_2, OLD_3, "split"), _flag(NEW_3, OLD_1, "split"))
# The redline's edits (rulebook_compiler.diff.unaccounted): what 2022 says in place of 2019's first sentence and the
# start of its second, and 2019's third and fourth sentences, which 2022 drops ("No player wins or loses a
# coin flip for this kind of effect." is NEW_2).
EDIT_2022 = f"{NEW_1} {NEW_2} For all other effects that instruct a player to flip a coin"
EDIT_2019 = f"{OLD_1} To flip a coin for such an effect"
DROPPED_2019 = f"{OLD_2} {OLD_3}".rstrip(".")
# Words new to the other side, one more or fewer "may" and "if" (counted), and no article, preposition or
# word of grammar; "only", "or" and "not" are as many on both sides.
MERGE_WORDS = (f"the text now says “{EDIT_2022}” where it said “{EDIT_2019}” (new: Some, all; gone: may, such) and "
               f"no longer says “{DROPPED_2019}” (gone: If, without, specifying, winner, making)")
SPLIT_WORDS = (f"the text now says “{EDIT_2019}” where it said “{EDIT_2022}” (new: may, such; gone: Some, all) and "
               f"now says “{DROPPED_2019}” (new: If, without, specifying, winner, making)")


def _digest(text: str) -> str:
    """A record of the words (docs/format.md, rules_checked): SHA-256 of the words, case folded, one space apart."""
    return hashlib.sha256(" ".join(re.findall(r"\w+(?:['’\-]\w+)*", text.casefold())).encode()).hexdigest()[:12]


def _unchecked(says: str, book, edition: str, refs: list[str]) -> str:
    """The flag of words the clauses' unchanged rules do not account for, no record on any."""
    todo = "; ".join(f'add rules_checked: "{_digest(book.edition(edition).clause_by_ref[r].text)}" to {r}' for r in refs)
    return (f"{says}, which its rules do not account for: counted as a rule change by --fail-on until the editors "
            f"record that they checked the rules against these words ({todo})")


@pytest.mark.parametrize(("old", "new", "key", "flags", "words", "refs"), [
    ("cr-2019-05-03", "cr-2022-07-08", ("r705-1+r705-2", "r705-2"), MERGE_FLAGS, MERGE_WORDS, ["rules#r705-2"]),
    ("cr-2022-07-08", "cr-2019-05-03", ("r705-2", "r705-1+r705-2"), SPLIT_FLAGS, SPLIT_WORDS,
     ["rules#r705-1", "rules#r705-2"]),
])
def test_each_sentence_read_as_moved_and_reworded_carries_a_drift_flag(old, new, key, flags, words, refs):
    book = load_rulebook(COIN_FLIP)
    changes = {(c.old_clause, c.new_clause): c for c in diff_editions(book, old, book, new).changes}
    # Then the words the rules do not account for: the level stays a clarification, but --fail-on
    # rule-change counts it until the editors record that they checked (rulebook_compiler.diff.unaccounted).
    assert tuple(f.text for f in changes[key].drift) == flags + (_unchecked(words, book, new, refs),)
    assert (changes[key].level, changes[key].unchecked) == ("clarification", tuple(refs))


def test_the_pairs_read_as_moved_and_reworded_come_in_the_old_texts_order():
    assert moved_and_reworded("merged", redline(PARTS, MERGED), modelled=True) == [
        (OLD_1, NEW_3), (OLD_2, NEW_1), (OLD_3, NEW_2)]
    # Where no model judges the words within a sentence, or in a rewording in place, none is read as moved.
    assert moved_and_reworded("merged", redline(PARTS, MERGED), modelled=False) == []
    assert moved_and_reworded("reworded", redline(PARTS, MERGED), modelled=True) == []


def test_a_merge_that_is_a_rule_change_anyway_carries_no_moved_sentence_flag(tmp_path):
    """A new sentence that no rewritten one stands for makes the merge a rule change: its redline
    shows every sentence to a reviewer, and no flag says the moved ones are the same."""
    involved = "no other players are involved."
    book = load_rulebook(_edited(tmp_path, involved, f"{involved} Other players may flip the coin."))
    changes = {(c.old_clause, c.new_clause): c
               for c in diff_editions(book, "cr-2019-05-03", book, "cr-2022-07-08").changes}
    merged = changes[("r705-1+r705-2", "r705-2")]
    assert (merged.kind, merged.level, merged.drift) == ("merged", "rule-change", ())


def _edited(tmp_path: Path, old: str, new: str) -> Path:
    """A copy of the fixture whose 2022 text says ``new`` for its one ``old``."""
    shutil.copytree(COIN_FLIP, tmp_path / "book")
    rules = tmp_path / "book" / "editions" / "cr-2022-07-08" / "rules.yaml"
    text = rules.read_text(encoding="utf-8")
    assert text.count(old) == 1
    rules.write_text(text.replace(old, new), encoding="utf-8")
    return tmp_path / "book"


def _rendered(fmt: str, book: Path = COIN_FLIP) -> str:
    result = CliRunner().invoke(main, ["diff", "cr-2019-05-03", "cr-2022-07-08", "--rulebook", str(book),
                                       "--format", fmt], catch_exceptions=False)
    assert (result.exit_code, result.stderr) == (0, "")
    return result.stdout


def test_the_moved_sentence_flags_show_in_text_markdown_and_html():
    text, markdown, page = _rendered("text"), _rendered("markdown"), _rendered("html")
    for flag in MERGE_FLAGS:
        assert f"    drift: {flag}\n" in text
        assert f"⚠️ Drift: {flag}\n" in markdown
        # The quotes of "heads" or "tails." are escaped, as in every drift flag.
        assert f'<p class="drift">Drift: {flag.replace(chr(34), "&#34;")}</p>' in page
    assert page.count("&#34;heads&#34; or &#34;tails.&#34;”: read as one sentence moved") == 1


def test_a_moved_sentences_markup_is_escaped_in_its_flag(tmp_path):
    """Rule text is untrusted: the sentence quoted in the flag is escaped where it lands."""
    book = _edited(tmp_path, "coin flip for this kind of effect.", "coin flip for this <i>kind</i> of *effect* [sic].")
    sentence = "No player wins or loses a coin flip for this {} of {} {}."
    flag = _flag(OLD_3, "{}", "merge")
    assert flag.format(sentence.format("<i>kind</i>", "*effect*", "[sic]")) in _rendered("text", book)
    assert flag.format(sentence.format("&lt;i&gt;kind&lt;/i&gt;", r"\*effect\*", r"\[sic\]")) \
        in _rendered("markdown", book)
    assert flag.format(sentence.format("&lt;i&gt;kind&lt;/i&gt;", "*effect*", "[sic]")) in _rendered("html", book)
