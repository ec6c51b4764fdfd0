"""The words can overrule the model (issue 21, point 5): a clause with rules of its own whose words
change in substance while its answers do not carries a drift flag naming the words its rules do not
account for, and ``--fail-on rule-change`` counts it as a rule change until the editors record
(``rules_checked``: the digest of the words they checked the rules against) that they checked.

Before (main at 94a431c), "A character in a discard pile may not heal." -> "... may not heal or play
a Supporter." with the same rule was a clarification with no drift flag, and ``--fail-on
rule-change`` exited 0: the model was trusted over the words.

Fixtures (tests/fixtures/diff/): words-overrule-the-model (v1 -> v2 adds "or play a Supporter", no
record), words-overrule-the-model-checked (the same with the record in v2; v3 adds "or draw a card"
and carries none), words-reworded-editorially (the same words reordered, in the plural, capitalised).

A record is the first 12 hex digits of the SHA-256 of the clause's words, case and typography
folded, joined by one space (docs/format.md, "rules_checked"); the digests below are worked out
from the texts here, not read from the diff.
"""

from __future__ import annotations

import dataclasses
import hashlib
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulebook_compiler.build import load_rulebook
from rulebook_compiler.cli import main
from rulebook_compiler.diff.engine import diff_editions
from rulebook_compiler.diff.level import fails
from rulebook_compiler.diff.unaccounted import unaccounted

DIFF = Path(__file__).resolve().parents[1] / "fixtures" / "diff"
UNCHECKED = DIFF / "words-overrule-the-model"
CHECKED = DIFF / "words-overrule-the-model-checked"
EDITORIAL = DIFF / "words-reworded-editorially"


def _digest(words: str) -> str:
    return hashlib.sha256(words.encode("utf-8")).hexdigest()[:12]


# "A character in a discard pile may not heal or play a Supporter." and v3's words.
V2 = _digest("a character in a discard pile may not heal or play a supporter")
V3 = _digest("a character in a discard pile may not heal or play a supporter or draw a card")

SUPPORTER_UNCHECKED = (
    "the text now says “or play a Supporter” (new: play, Supporter), which its rules do not account for: "
    "counted as a rule change by --fail-on until the editors record that they checked the rules against "
    f"these words (add rules_checked: \"{V2}\" to discard-pile#no-healing)")
SUPPORTER_CHECKED = (
    "the text now says “or play a Supporter” (new: play, Supporter); the editors recorded on "
    f"discard-pile#no-healing (rules_checked: \"{V2}\") that its rules were checked against these words, "
    "so its answers decide the level")
CARD_UNCHECKED = (
    "the text now says “or draw a card” (new: draw, card), which its rules do not account for: "
    "counted as a rule change by --fail-on until the editors record that they checked the rules against "
    f"these words (add rules_checked: \"{V3}\" to discard-pile#no-healing)")


def _run(rulebook: Path, old: str, new: str, *more: str) -> tuple[int, list[str], str]:
    result = CliRunner().invoke(main, ["diff", old, new, "--no-cache", "--rulebook", str(rulebook), *more],
                                catch_exceptions=False, env={"NO_COLOR": "1"})
    return result.exit_code, result.stdout.splitlines(), result.stderr


def _drift(lines: list[str], start: str) -> list[str]:
    return [line.strip() for line in lines if line.strip().startswith(start)]


def test_the_digests_here_are_those_of_the_fixtures_words():
    assert (V2, V3) == ("1c9c8013783c", "e3150ec827b2")


def test_words_that_add_a_prohibition_the_rules_do_not_hold_are_flagged_in_text():
    code, lines, err = _run(UNCHECKED, "v1", "v2")
    assert (code, err) == (0, "")
    assert _drift(lines, "drift:") == ["drift: " + SUPPORTER_UNCHECKED]


def test_the_flag_names_the_record_and_the_clause_as_code_in_markdown():
    code, lines, err = _run(UNCHECKED, "v1", "v2", "--format", "markdown")
    assert (code, err) == (0, "")
    assert _drift(lines, "⚠️ Drift:") == [
        "⚠️ Drift: the text now says “or play a Supporter” (new: play, Supporter), which its rules do not "
        "account for: counted as a rule change by `--fail-on` until the editors record that they checked the "
        f"rules against these words (add `rules_checked: \"{V2}\"` to `discard-pile#no-healing`)"]


def test_the_level_stays_the_answers_verdict_and_json_lists_the_clause_unchecked():
    import json

    code, lines, err = _run(UNCHECKED, "v1", "v2", "--format", "json")
    change, = json.loads("\n".join(lines))["changes"]
    assert (change["kind"], change["level"], change["unchecked"], change["drift"]) == (
        "reworded", "clarification", ["discard-pile#no-healing"], [SUPPORTER_UNCHECKED])


def test_fail_on_rule_change_counts_a_flagged_change_without_the_record():
    assert _run(UNCHECKED, "v1", "v2", "--fail-on", "rule-change")[0] == 1
    # Still a clarification: --fail-on clarification fails as it always did.
    assert _run(UNCHECKED, "v1", "v2", "--fail-on", "clarification")[0] == 1


def test_with_the_record_the_answers_decide_and_the_record_is_shown():
    code, lines, err = _run(CHECKED, "v1", "v2", "--fail-on", "rule-change")
    assert (code, err) == (0, "")
    assert _drift(lines, "drift:") == ["drift: " + SUPPORTER_CHECKED]


def test_words_changed_again_after_the_record_count_again():
    code, lines, err = _run(CHECKED, "v2", "v3", "--fail-on", "rule-change")
    assert (code, err) == (1, "")
    assert _drift(lines, "drift:") == ["drift: " + CARD_UNCHECKED]


def test_a_record_made_against_other_words_counts_as_none():
    # A model built elsewhere (not through check, which rejects it) whose clause keeps v2's record
    # under v3's words: the diff compares the record with the words itself.
    book = load_rulebook(CHECKED)
    v3 = book.edition("v3")
    term = v3.term_by_id["discard-pile"]
    clause = dataclasses.replace(term.clauses[0], rules_checked=V2)
    section = dataclasses.replace(term.sections[0], clauses=(clause,))
    stale = dataclasses.replace(v3, terms=(dataclasses.replace(term, sections=(section,), digest="stale"),))
    result = diff_editions(book, "v2", book, stale, conformance=False)
    change, = result.changes
    assert [f.text for f in change.drift] == [
        "the text now says “or draw a card” (new: draw, card), which its rules do not account for: counted as a "
        "rule change by --fail-on until the editors record that they checked the rules against these words "
        f"(the record on discard-pile#no-healing, rules_checked: \"{V2}\", was made against other words; "
        f"write rules_checked: \"{V3}\" there)"]
    assert (change.level, change.unchecked, fails(result, "rule-change")) == (
        "clarification", ("discard-pile#no-healing",), True)


def test_an_editorial_rewording_of_a_modelled_clause_gets_no_flag():
    import json

    code, lines, err = _run(EDITORIAL, "v1", "v2", "--fail-on", "rule-change", "--format", "json")
    assert (code, err) == (0, "")
    assert [(c["kind"], c["level"], c["unchecked"], c["drift"]) for c in json.loads("\n".join(lines))["changes"]] == [
        ("reworded", "clarification", [], [])]


def test_a_record_naming_a_digest_that_is_not_the_words_is_a_located_error(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # check names files relative to the current folder
    book = tmp_path / "book"
    shutil.copytree(CHECKED, book)
    v3 = book / "editions" / "v3" / "discard-pile.yaml"
    v3.write_text(v3.read_text(encoding="utf-8") + f'        rules_checked: "{V2}"\n', encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(book), "--no-cache"], catch_exceptions=False)
    assert result.exit_code == 1
    where = "book/editions/v3/discard-pile.yaml:15:24"  # the record's value, on the line appended
    assert [line for line in result.stderr.splitlines() if "rules_checked" in line] == [
        f"{where}: error: rules_checked \"{V2}\" is not the digest of this clause's words: the rules were "
        "checked against other words",
        f"  hint: once its rules are checked against its words, write rules_checked: \"{V3}\""]


@pytest.mark.parametrize(("old", "new", "tested", "found"), [
    # Words inserted: an action and a noun new to the clause ("or" only joins them).
    ("A character may not heal.", "A character may not heal or play a Supporter.", set(),
     [("or play a Supporter", "", ("play", "Supporter"), ())]),
    # A negation, where the old text has one elsewhere: counted, not only found.
    ("A hero may heal. A villain may not heal.", "A hero may not heal. A villain may not heal.", set(),
     [("not", "", ("not",), ())]),
    # A modal verb for another.
    ("A hero may heal.", "A hero must heal.", set(), [("must", "may", ("must",), ("may",))]),
    # "or" for "and": an alternative where there was none.
    ("A hero may heal and play.", "A hero may heal or play.", set(), [("or", "and", ("or",), ())]),
    # Words dropped.
    ("A hero may heal unless poisoned.", "A hero may heal.", set(), [("", "unless poisoned", (), ("unless", "poisoned"))]),
    # A word the rules test is accounted for; untested, it is not.
    ("A cure may target a character.", "A cure may target a poisoned character.", {"poisoned"}, []),
    ("A cure may target a character.", "A cure may target a poisoned character.", set(),
     [("poisoned", "", ("poisoned",), ())]),
    # The same edit twice is said once.
    ("A modifier gains a bonus and gains a name.", "A modifier has a bonus and has a name.", set(),
     [("has", "gains", (), ("gains",))]),
    # Purely editorial: spelling, punctuation and case, order, the plural, a word the old text has.
    ("The colour of a card.", "The color of a card.", set(), []),
    ("a character may not heal", "A character may NOT heal!", set(), []),
    ("A character in a discard pile may not heal.", "In a discard pile, a character may not heal.", set(), []),
    ("A character may not heal.", "Characters may not heal.", set(), []),
    ("A character may not heal. Healing restores a character.",
     "A character may not be healed. Healing restores a character.", set(), []),
])
def test_what_words_the_rules_do_not_account_for(old, new, tested, found):
    from rulebook_compiler.diff.redline import redline

    assert [(u.now, u.before, u.new, u.gone) for u in unaccounted(redline(old, new), frozenset(tested))] == found


def test_a_patch_that_changes_the_words_and_keeps_the_record_is_an_error_at_its_text(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    book = tmp_path / "book"
    shutil.copytree(CHECKED, book)
    v3 = book / "editions" / "v3" / "discard-pile.yaml"
    patch = ("id: discard-pile\npatch:\n  - change: no-healing\n    set:\n"
             "      text: A character in a discard pile may not heal or play a Supporter or draw a card.\n")
    v3.write_text(patch, encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(book), "--no-cache"], catch_exceptions=False)
    assert (result.exit_code, result.stderr.splitlines()[:2]) == (1, [
        f"book/editions/v3/discard-pile.yaml:5:13: error: the text changed, and the rules_checked \"{V2}\" kept "
        "from book/editions/v2/discard-pile.yaml was made against other words",
        f"  hint: once its rules are checked against its words, set rules_checked: \"{V3}\" with the text "
        "(or rules_checked: null)"])
    # Removed with the text, the record is gone: the change counts until the editors check again.
    v3.write_text(patch + "      rules_checked: null\n", encoding="utf-8")
    assert CliRunner().invoke(main, ["check", str(book), "--no-cache"], catch_exceptions=False).exit_code == 0
    code, lines, err = _run(book, "v2", "v3", "--fail-on", "rule-change")
    assert (code, err, _drift(lines, "drift:")) == (1, "", ["drift: " + CARD_UNCHECKED])


def test_the_record_is_read_back_from_the_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("RULEBOOK_CACHE_DIR", str(tmp_path / "cache"))
    args = ["diff", "v1", "v2", "--rulebook", str(CHECKED), "--fail-on", "rule-change"]
    cold = CliRunner().invoke(main, args, catch_exceptions=False, env={"NO_COLOR": "1"})

    def refuse(root):
        raise AssertionError(f"{root} was loaded in full, not read from the cache")

    monkeypatch.setattr("rulebook_compiler.build.check", refuse)  # the warm run reads the terms from the cache
    warm = CliRunner().invoke(main, args, catch_exceptions=False, env={"NO_COLOR": "1"})
    assert [(r.exit_code, _drift(r.stdout.splitlines(), "drift:")) for r in (cold, warm)] == [
        (0, ["drift: " + SUPPORTER_CHECKED])] * 2
