"""``rulebook changelog EDITION``: the notice for players, against the edition before it.

Fixture: tests/fixtures/diff/levels (v1 first; v2 punctuation only; v3
reworded, same answers; v4 a rule that answers yes in more situations).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulebook_compiler.cli import main

LEVELS = Path(__file__).resolve().parents[1] / "fixtures" / "diff" / "levels"


def _changelog(*args: str):
    return CliRunner().invoke(main, ["changelog", "--edition", *args, "--rulebook", str(LEVELS)], catch_exceptions=False)


@pytest.mark.parametrize(("edition", "expected"), [
    ("v1", "# What changed in First\n\nv1 is the first edition: there is nothing to compare it with.\n"),
    ("v2", "# What changed in Punctuation\n\n"
           "Changes from First (v1) to v2, published 2020-02-01.\n\n"
           "Also 1 editorial change (spelling, punctuation, numbering or links; no word of a rule).\n"),
    ("v3", "# What changed in Reworded\n\n"
           "Changes from Punctuation (v2) to v3, published 2020-03-01.\n\n"
           "## Cure\n\n### Clarifications\n\n"
           "- **Clarified** (`cure#targets`): Only a poisoned character can be the target of a cure.\n"),
    ("v4", "# What changed in Rule change\n\nChanges from Reworded (v3) to v4.\n\n"
           "## Cure\n\n### Rule changes\n\n"
           "- **Rule changed** (`cure#targets`): Only a poisoned or paralyzed character can be the target of a cure.\n"
           "  - Whether a cure may target the character: now says yes in more situations.\n"
           "  - When paralyzed and not poisoned: was **no**, now **yes**.\n"),
])
def test_the_notice_says_what_plays_differently_then_what_was_clarified(edition, expected):
    result = _changelog(edition)
    assert (result.exit_code, result.stderr, result.stdout) == (0, "", expected)


FIXTURES = LEVELS.parent


@pytest.mark.parametrize(("fixture", "expected"), [
    # A version mid-line is no ordered list (no "1\\.0.0"); a new entry says it is new.
    ("new-entry", "# What changed in With Poison\n\n"
                  "Changes from First (1.0.0) to 2.0.0, published 2020-02-01.\n\n"
                  "## Poison\n\n### Rule changes\n\n"
                  "- **New entry** (`poison`)\n\n"
                  "- **New rule** (`poison#cannot-attack`): A poisoned character cannot attack.\n"),
    # Where the old edition did not ask the question, it was not asked (not "no answer").
    ("not-asked", "# What changed in Asked of everyone\n\n"
                  "Changes from Asked of the poisoned (1.0.0) to 2.0.0.\n\n"
                  "## Cure\n\n### Rule changes\n\n"
                  # The heading says which questions changed; the situations are said once, under the
                  # clause whose rule answers them.
                  "- **Entry heading changed** (`cure`)\n"
                  "  - Whether a cure may target the character: now answers differently in some situations.\n\n"
                  # Its rule is the same, but now answers where 1.0.0 did not ask: a rule change.
                  "- **Rule changed** (`cure#targets`): A cure may target a character if and only if it is "
                  "paralyzed.\n"
                  "  - Whether a cure may target the character: now answers differently in some situations.\n"
                  "  - When not paralyzed and not poisoned: was **not asked**, now **no**.\n"
                  "  - When paralyzed and not poisoned: was **not asked**, now **yes**.\n"),
    # A question one edition asks and the other does not is said as such, under the heading that
    # declares it and under the clause that answers it.
    ("drift-mentions", "# What changed in Second\n\n"
                       "Changes from First (1.0.0) to 2.0.0, published 2020-02-01.\n\n"
                       "## Cure\n\n### Rule changes\n\n"
                       "- **Entry heading changed** (`cure`)\n"
                       "  - Whether a cure may be played on a character in a discard pile: a new question.\n\n"
                       "- **Rule changed** (`cure#new-decision`): A cure is played on a character, even one in a "
                       "discard pile.\n"
                       "  - Whether a cure may be played on a character in a discard pile: a new question.\n\n"
                       "- **Rule changed** (`cure#tests-unnamed`): A cure can be played on a poisoned character, "
                       "once per turn.\n"
                       "  - Whether a cure may be played on the character: now says yes in fewer situations.\n"
                       "  - When location is hand and poisoned: was **yes**, now **no**.\n\n"
                       "### Clarifications\n\n"
                       "- **Clarified** (`cure#english-word`): A cure ability targets a poisoned character.\n\n"
                       "- **Clarified** (`cure#names-untested`): A cure may be used again on a poisoned or paralyzed "
                       "character.\n\n"
                       "- **Clarified** (`cure#stops-naming`): A cured character returns to its owner's hand.\n"),
])
def test_the_notice_for_2_0_0(fixture, expected):
    result = CliRunner().invoke(main, ["changelog", "--edition", "2.0.0", "--rulebook", str(FIXTURES / fixture)],
                                catch_exceptions=False)
    assert (result.exit_code, result.stderr, result.stdout) == (0, "", expected)


def test_a_clause_with_a_new_id_reads_as_changed_not_renamed():
    """Players never see a clause's id: a declared rename is a rule changed (or clarified) like any other."""
    rename = LEVELS.parents[1] / "lineage" / "rename"
    result = CliRunner().invoke(main, ["changelog", "--edition", "v2", "--rulebook", str(rename)], catch_exceptions=False)
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout.splitlines()[6:14] == [
        "### Rule changes", "",
        "- **Rule changed** (`cure#order`): To cure, follow these steps:", "",
        "- **New rule** (`cure#reveal-the-cure`): 1. Reveal the cure to your opponent.", "",
        "- **Rule changed** (`cure#choose-a-character`): 2. Pick one character that suffers from poison.", ""]


@pytest.mark.parametrize(("facts", "words"), [
    ((), ()),
    ((("paralyzed", (True,)), ("poisoned", (False,))), ("paralyzed", "not poisoned")),
    ((("target_location", ("territory",)),), ("target location is territory",)),
    ((("target_location", ("territory", "battle")),), ("target location is territory or battle",)),
    ((("target_location", ("territory", "battle", "hand")),), ("target location is territory, battle or hand",)),
    ((("target_location", ("territory", "battle", "hand", "deck")),), ("target location is not discard pile",)),
])
def test_the_facts_that_matter_by_their_labels(facts, words):
    from rulebook_compiler.diff.changelog import condition_words

    domains = {"paralyzed": (False, True), "poisoned": (False, True),
               "target_location": ("territory", "battle", "hand", "deck", "discard_pile")}
    assert condition_words(facts, domains) == words


# A false yes/no fact reads as English: "not" goes where the label's verb takes it.
NEGATED = {
    "copula": ("target_is_character", "target is not character"),
    "modal-can": ("character_can_use_enhancement", "character cannot use enhancement"),
    "modal-would": ("would_be_discarded_by_outcome", "would not be discarded by outcome"),
    "participle-first": ("being_discarded", "not being discarded"),
    "past-participle-first": ("discarded_earlier_this_turn", "not discarded earlier this turn"),
    "past-participle-after-subject": ("modifier_granted_to_other_cards", "modifier not granted to other cards"),
    "plural-then-participle": ("number_of_targets_limited", "number of targets not limited"),
    "adjective": ("paralyzed", "not paralyzed"),
    "preposition-first": ("in_battle", "not in battle"),
    "verb-after-subject": ("brigade_matches", "brigade does not match"),
    "verb-ies": ("card_specifies_target_requirement", "card does not specify target requirement"),
    "verb-first": ("meets_card_requirement", "does not meet card requirement"),
    "has": ("has_initiative", "does not have initiative"),
    "has-after-subject": ("hero_has_lost_soul_access", "hero does not have lost soul access"),
    "noun-phrase": ("own_character", "not own character"),
    "noun-ending-in-ss": ("territory_class", "not territory class"),
    "plural-noun-then-preposition": ("cards_in_hand", "not cards in hand"),
}


@pytest.mark.parametrize(("name", "words"), list(NEGATED.values()), ids=list(NEGATED))
def test_a_false_fact_reads_as_english(name, words):
    from rulebook_compiler.diff.changelog import condition_words

    assert condition_words(((name, (False,)),), {name: (False, True)}) == (words,)
    assert condition_words(((name, (True,)),), {name: (False, True)}) == (name.replace("_", " "),)


def test_the_markdown_escapes_only_what_would_act_where_it_stands():
    """Rule text is untrusted: a tag, a link, emphasis, code, a table bar or a heading mark must not act,
    and "(s)" or a snake_case word need no backslash (tests/fixtures/diff/changelog-markdown)."""
    result = CliRunner().invoke(main, ["changelog", "--edition", "v2", "--rulebook", str(FIXTURES / "changelog-markdown")],
                                catch_exceptions=False)
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == (
        "# What changed in Second\n\n"
        "Changes from First (v1) to v2, published 2020-02-01.\n\n"
        "## Cure (the #\u20601 card)\n\n"
        "### Rule changes\n\n"
        "- **Rule changed** (`cure#targets`): The target(s) of a cure: a poisoned or paralyzed character "
        "&lt;script&gt;alert(1)&lt;/script&gt; \\[x\\](javascript:\u2060alert(1)) \\*not bold\\* \\`not code\\` "
        "a \\| b \\~\\~no\\~\\~ may_target \\_x\\_ \\!\n"
        "  - \\#\u2060 Whether a cure may target the character (see \\[rules\\](javascript:\u2060alert(2))) "
        "\\| \\*x\\*: now says yes in more situations.\n"
        "  - When paralyzed and not poisoned: was **no**, now **yes**.\n\n"
        "- **Rule changed** (`cure#once`): Use it once (per turn), as a cure_ability says.\n")


def test_the_notice_as_json_keeps_each_situation():
    result = _changelog("v4", "--format", "json")
    assert json.loads(result.stdout) == {
        "edition": "v4", "previous": "v3", "editorial": 0,
        "terms": [{"term": "cure", "name": "Cure", "clarifications": [], "rule_changes": [{
            "ref": "cure#targets", "what": "Rule changed",
            "text": "Only a poisoned or paralyzed character can be the target of a cure.",
            "questions": ["Whether a cure may target the character: now says yes in more situations"],
            "played": [{"holds": ["paralyzed", "not poisoned"], "old": "no", "new": "yes"}],
            "numbers": None, "number": None}]}], "renumbered": []}


def test_an_unknown_edition_is_named_with_the_editions():
    result = _changelog("v9")
    assert (result.exit_code, result.stdout, result.stderr) == (
        2, "", "rulebook: error: unknown edition 'v9'\n  hint: editions: v1, v2, v3, v4\n")


def _changes_page(edition: str, root: Path = LEVELS) -> str:
    from rulebook_compiler.build import load_rulebook
    from rulebook_compiler.site.changes import provider
    from rulebook_compiler.site.pages import PageSpec
    from rulebook_compiler.site.render import Renderer

    book = load_rulebook(root)
    spec = PageSpec(f"editions/{edition}/changes.md", "changes", "What changed", False, edition=edition)
    return Renderer(book, changes=provider(book)).render(spec, lambda uri: uri).html


def test_the_what_changed_page_opens_with_the_notice_for_players():
    page = _changes_page("v4")
    notice = page[page.index('<h2 id="notice">'):page.index('<h2 id="summary">')]
    # folded by entry, each rule cited as a judge says it; the situations are the editors' part below
    assert notice == (
        '<h2 id="notice">For players</h2>\n'
        '<p>1 entry plays differently or reads more clearly: open one to read its changes.</p>\n'
        '<details class="rb-notice-term" id="notice-cure">\n'
        '<summary><strong>Cure</strong>: 1 rule change</summary>\n'
        '<p class="rb-meta">Rule changes</p>\n<ul class="rb-notice">\n'
        '<li><strong>Rule changed</strong> (Cure, Definition, ¶1): Only a poisoned or paralyzed character can be '
        'the target of a cure.</li>\n'
        '</ul>\n</details>\n')


def test_the_what_changed_page_of_an_editorial_edition_says_no_rule_plays_differently():
    page = _changes_page("v2")
    assert ('<h2 id="notice">For players</h2>\n<p>No rule plays differently; 1 editorial change '
            '(spelling, punctuation, numbering or links).</p>\n<h2 id="summary">') in page


def test_the_what_changed_page_says_not_asked_where_the_old_edition_did_not_ask():
    page = _changes_page("2.0.0", FIXTURES / "not-asked")
    # in the editors' part: the notice for players carries no "not asked" (a word of the model)
    notice = page[page.index('<h2 id="notice">'):page.index('<h2 id="summary">')]
    assert "not asked" not in notice
    assert "<p>1.0.0: <strong>not asked</strong> → 2.0.0: <strong>yes</strong> (cure#targets)</p>" in page
    assert "no answer" not in page


def test_a_heading_clarified_says_what_changed_in_it():
    """Name, aliases and the words of a question (tests/fixtures/diff/heading-reworded): not an empty item."""
    result = CliRunner().invoke(main, ["changelog", "--edition", "v2", "--rulebook", str(FIXTURES / "heading-reworded")],
                                catch_exceptions=False)
    assert (result.exit_code, result.stderr, result.stdout) == (0, "", (
        "# What changed in Second\n\n"
        "Changes from First (v1) to v2, published 2020-02-01.\n\n"
        "## Cures\n\n"
        "### Clarifications\n\n"
        "- **Entry heading clarified** (`cure`): Now named Cures (was Cure); also called Remedy; "
        "no longer called Mend.\n"
        "  - Whether a cure may target the character: the question reworded (was “Whether the cure may target "
        "a character”).\n"))


# -- the text's glitches: each as a reader of the posted notice saw it --------------------------------

def _levels_changed(tmp_path: Path, edits: dict[str, tuple[str, str]]) -> Path:
    """tests/fixtures/diff/levels copied, with each file's one ``old`` text replaced by ``new``."""
    import shutil

    root = tmp_path / "levels"
    shutil.copytree(LEVELS, root)
    for rel, (old, new) in edits.items():
        text = (root / rel).read_text(encoding="utf-8")
        assert text.count(old) == 1
        (root / rel).write_text(text.replace(old, new), encoding="utf-8")
    return root


def _notice(root: Path, edition: str) -> str:
    result = CliRunner().invoke(main, ["changelog", "--edition", edition, "--rulebook", str(root)], catch_exceptions=False)
    assert (result.exit_code, result.stderr) == (0, "")
    return result.stdout


def test_an_ampersand_is_written_as_itself(tmp_path):
    # In Markdown "&" is itself unless it begins a character reference ("&amp;", "&#169;"): the notice
    # said "Rules &amp; errata" to whoever reads the text as posted. One that would begin a reference
    # is still escaped, so that "&amp;" in the rule text shows as written (a "#" takes its word joiner
    # as everywhere: "#169" would link an issue).
    root = _levels_changed(tmp_path, {
        "rulebook.yaml": ("title: Rule change,", 'title: "Rules & errata, Q&A",'),
        "editions/v4/cure.yaml": ("Only a poisoned or paralyzed character can",
                                  "Only a poisoned or paralyzed character (AT&T, R & D, &amp; &copy; &#169; &#x41;) can")})
    lines = _notice(root, "v4").splitlines()
    assert (lines[0], lines[8]) == (
        "# What changed in Rules & errata, Q&A",
        "- **Rule changed** (`cure#targets`): Only a poisoned or paralyzed character "
        "(AT&T, R & D, &amp;amp; &amp;copy; &amp;#\u2060169; &amp;#\u2060x41;) can be the target of a cure.")


@pytest.mark.parametrize("date", ["2020-02", "2020"])
def test_a_date_of_a_month_or_a_year_has_no_invisible_character(tmp_path, date):
    # "2013-08" came out as "2013-\u206008": the word joiner that keeps "GH-12" from linking, applied
    # to a date, which links nothing (YYYY-MM and YYYY are dates as rulebook.yaml writes them).
    root = _levels_changed(tmp_path, {"rulebook.yaml": ('date: "2020-02-01"', f'date: "{date}"')})
    assert _notice(root, "v2").splitlines()[2] == f"Changes from First (v1) to v2, published {date}."


def test_a_draft_is_not_said_to_be_published(tmp_path):
    root = _levels_changed(tmp_path, {"rulebook.yaml": ("title: Rule change, date: null,",
                                                        'title: Rule change, date: "2020-04",')})
    assert _notice(root, "v4").splitlines()[2] == "Changes from Reworded (v3) to v4, a draft dated 2020-04."
