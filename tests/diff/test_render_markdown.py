"""The Markdown PR comment: untrusted text pings no one and links nothing.

GitHub turns ``@name`` into a mention (a notification), ``#12``,
``owner/repo#12`` and ``GH-12`` into issue links, hex words into commit links,
``https://...``, ``www.`` and e-mail addresses into links and ``:tada:`` into
an emoji. A word joiner (U+2060, invisible, no line break) after the character
that starts each of these keeps the text reading the same and links nothing.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulebook_compiler.cli import main
from rulebook_compiler.diff.redline import DELETE, EQUAL, INSERT, Op, Redline
from rulebook_compiler.diff.render_markdown import code, escape, redline_markdown

WJ = "\u2060"
FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "diff" / "mentions"

CASES = {
    "mention": ("ask @octocat", f"ask @{WJ}octocat"),
    "team-mention": ("@org/judges", f"@{WJ}org/judges"),
    "issue": ("see #12", f"see #{WJ}12"),
    "cross-repo-issue": ("owner/repo#34", f"owner/repo#{WJ}34"),
    "gh-issue": ("GH-56", f"GH-{WJ}56"),
    "commit-sha": ("deadbeef1234", f"deadbe{WJ}ef1234"),
    "full-sha": ("0123456789abcdef0123456789abcdef01234567",
                 WJ.join(["012345", "6789ab", "cdef01", "234567", "89abcd", "ef0123", "4567"])),
    "url": ("https://evil.example/x", f"https:{WJ}//evil.example/x"),
    "www": ("www.evil.example", f"www{WJ}.evil.example"),
    "email": ("judge@evil.example", f"judge@{WJ}evil.example"),
    "emoji-shortcode": (":tada:", f":{WJ}tada:"),
    "plain-prose": ("A cure, once played, cannot be undone.", "A cure, once played, cannot be undone."),
    "colon-before-a-space": ("There are 2 exceptions: a and b.", "There are 2 exceptions: a and b."),
    "colon-at-the-end": ("There are 2 exceptions:", "There are 2 exceptions:"),
    "short-hex-word": ("a decade", "a decade"),
}


@pytest.mark.parametrize("text,expected", list(CASES.values()), ids=list(CASES))
def test_escape_makes_mentions_and_links_inert(text, expected):
    assert escape(text) == expected


@pytest.mark.parametrize(("text", "block", "inline"), [
    ("5.0.0", "5.0.0", "5.0.0"),  # a list marker is followed by a space, a tab or the line's end
    ("5. x", "5\\. x", "5. x"),  # an ordered list, only where a line starts
    ("5.", "5\\.", "5."),  # (what follows the text is not known)
    ("- x", "\\- x", "- x"),
    ("1) a\n2) b", "1\\) a<br>2) b", "1) a<br>2) b"),  # a line break is "<br>": no block starts after it
    ("*x*", "\\*x\\*", "\\*x\\*"),
])
def test_inline_text_is_escaped_without_line_start_marks(text, block, inline):
    assert (escape(text), escape(text, inline=True)) == (block, inline)


def test_code_spans_keep_paths_exact_but_break_mentions():
    # GitHub links nothing inside a code span; only a mention is broken there, so
    # that a reply by e-mail that quotes it notifies no one (as Dependabot does).
    assert code("book/editions/v2/cure.yaml:8:9") == "`book/editions/v2/cure.yaml:8:9`"
    assert code("@team/x.yaml") == f"`@{WJ}team/x.yaml`"


@pytest.fixture
def book(tmp_path, monkeypatch):
    shutil.copytree(FIXTURE, tmp_path / "book")
    monkeypatch.chdir(tmp_path)
    return "book"


def test_the_comment_for_a_rule_text_full_of_mentions_and_links(book):
    result = CliRunner().invoke(main, ["diff", "v1", "v2", "--rulebook", book, "--format", "markdown"],
                                catch_exceptions=False)
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == (
        "## Rulebook changes: v1 → v2\n"
        "\n"
        "**1 rule change**, 0 clarifications, 0 editorial\n"
        "\n"
        "| kind | changes |\n"
        "| --- | ---: |\n"
        "| reworded | 1 |\n"
        "| **total** | **1** |\n"
        "\n"
        "### Rule changes\n"
        "\n"
        "- `cure#ask` (reworded): the words add, drop or rewrite a rule\n"
        "\n"
        "<details><summary><code>cure</code>: 1 rule change</summary>\n"
        "\n"
        "#### reworded: `cure#ask`\n"
        "\n"
        "v1: `book/editions/v1/cure.yaml:8:9` · v2: `book/editions/v2/cure.yaml:8:9` · "
        "fingerprint `e61c643c970b0a78`\n"
        "\n"
        f"> Ask <del>the judge.</del><ins>@{WJ}octocat or @{WJ}org/judges (see #{WJ}12, "
        f"owner/repo#{WJ}34, GH-{WJ}56, commit deadbe{WJ}ef1234, https:{WJ}//evil.example/x, "
        f"www{WJ}.evil.example, judge@{WJ}evil.example) :{WJ}tada:</ins>\n"
        "\n"
        "</details>\n")


def test_a_side_named_like_a_mention_is_inert(book):
    shutil.copytree("book", "@org")
    result = CliRunner().invoke(main, ["diff", "v1", "@org", "--rulebook", book, "--format", "markdown"],
                                catch_exceptions=False)
    assert result.stdout.splitlines()[0] == f"## Rulebook changes: v1 → @{WJ}org (v2)"


# A carriage return ends a line for CommonMark as a line feed does: raw, it would
# start a list item, a heading rule or a new block outside the quote. Bidi controls
# would show the reviewer a reordered text ("Trojan Source"). Each is shown as the
# terminal shows it (``rulebook_compiler.diagnostics.printable``).
HIDDEN = {
    # The backslash that shows them needs none: a letter follows it.
    "carriage-return-list": ("a\r- item", "a\\r- item"),
    "carriage-return-rule": ("a\r---", "a\\r---"),
    "right-to-left-override": ("cannot \u202eelbisiv", "cannot \\u202eelbisiv"),
    "isolates": ("x\u2066y\u2069", "x\\u2066y\\u2069"),
    "line-separator": ("a\u2028b", "a\\u2028b"),
}


@pytest.mark.parametrize("text,expected", list(HIDDEN.values()), ids=list(HIDDEN))
def test_escape_shows_line_breaks_and_bidi_controls_that_commonmark_or_a_browser_would_obey(text, expected):
    assert escape(text) == expected


def test_code_spans_show_them_too():
    assert code("book\r# heading/v1.yaml") == "`book\\r# heading/v1.yaml`"
    assert code("a\u202eb") == "`a\\u202eb`"


def test_dollars_open_no_math():
    # GitHub renders $...$ as LaTeX: "$\color{red}..." could restyle or fake text
    assert escape("costs $5, or $10") == "costs \\$5, or \\$10"
    assert escape("$$\\color{red}{x}$$") == "\\$\\$\\color{red}{x}\\$\\$"


def test_a_folder_name_with_a_carriage_return_adds_no_line(book):
    shutil.copytree("book", "new\r- [x] approved")
    result = CliRunner().invoke(main, ["diff", "v1", "new\r- [x] approved", "--rulebook", book,
                                       "--format", "markdown"], catch_exceptions=False)
    assert (result.exit_code, result.stderr) == (0, "")
    assert "\r" not in result.stdout
    assert result.stdout.splitlines()[0] == "## Rulebook changes: v1 → new\\r- \\[x\\] approved (v2)"


# -- the comment's budget ---------------------------------------------------------------------

NUMBERED = Path(__file__).resolve().parents[1] / "fixtures" / "diff" / "numbered-rules"
SHORTENED = ("_Shortened to fit a GitHub comment: left out {}. The full report: "
             "`rulebook diff cr-2017-04-28 cr-2020-04-17 --format html` "
             "(the example workflow uploads it as the rulebook-diff artifact)._")


@pytest.fixture(scope="module")
def numbered():
    from rulebook_compiler.build import load_rulebook
    from rulebook_compiler.diff.engine import diff_editions

    book = load_rulebook(NUMBERED)
    return diff_editions(book, "cr-2017-04-28", book, "cr-2020-04-17")


def test_the_summary_comes_first_then_a_details_block_per_term(numbered):
    from rulebook_compiler.diff.render_markdown import render

    out = render(numbered)
    # The four editorial changes are renumberings with the same words: one line in the summary, one fold.
    assert out.splitlines()[2:27] == [
        "**1 rule change**, 1 clarification, 4 editorial", "",
        "| kind | changes |", "| --- | ---: |", "| removed | 1 |", "| renumbered | 4 |", "| reworded | 1 |",
        "| **total** | **6** |", "",
        "Renumbered: 4 clauses (`r704-5k` → `r704-5j`, `r704-5m` → `r704-5k`, `r704-5n` → `r704-5m`, and 1 more)", "",
        "### Rule changes", "", "- `sba#r704-5j` (removed): a rule withdrawn", "",
        "<details><summary>Renumbered, same words: 4 clauses</summary>", "",
        "- `sba#r704-5k -> sba#r704-5j`", "- `sba#r704-5m -> sba#r704-5k`", "- `sba#r704-5n -> sba#r704-5m`",
        "- `sba#r704-5p -> sba#r704-5n`", "", "</details>", "",
        "<details><summary><code>sba</code>: 1 rule change, 1 clarification</summary>"]
    assert out.endswith("</details>\n") and "Shortened" not in out


# The fixture's editorial changes are renumberings with the same words, which show no redline: the
# comment (1,660 characters in full) fits only once their list, the details of editorial changes, is out.
@pytest.mark.parametrize(("budget", "left_out"), [
    (1500, "the redlines of editorial changes, the redlines of clarifications, the details of editorial changes"),
    (1000, "the redlines of editorial changes, the redlines of clarifications, the details of editorial changes, "
           "the details of clarifications, the situation tables of rule changes, the details of 1 of 1 rule change"),
])
def test_past_its_budget_the_comment_sheds_editorial_redlines_first_and_says_so(numbered, budget, left_out):
    from rulebook_compiler.diff.render_markdown import render, utf16_length

    out = render(numbered, budget)
    assert SHORTENED.format(left_out) in out.splitlines()
    assert "- `sba#r704-5j` (removed): a rule withdrawn" in out.splitlines()  # the rule changes stay
    assert utf16_length(out) <= budget
    # The rule change's redline goes last of all.
    assert ("<del>If a player controls two or more planeswalkers" in out) == (budget > 1000)


def test_a_diff_of_many_long_changes_fits_a_github_comment_and_keeps_every_rule_change(tmp_path):
    """300 long clauses reworded, and 3 rule changes: over 64,000 characters in full."""
    from rulebook_compiler.build import load_rulebook
    from rulebook_compiler.diff.engine import diff_editions
    from rulebook_compiler.diff.render_markdown import COMMENT_BUDGET, render, utf16_length

    root = tmp_path / "book"
    shutil.copytree(Path(__file__).resolve().parents[1] / "fixtures" / "diff" / "levels", root)
    long = " ".join(f"word{i}" for i in range(60))

    def term(edition: str, tail: str, rule: str) -> None:
        clauses = "".join(f"      - id: c{i}\n        text: Clause {i} {long}{tail}\n" for i in range(300))
        rules = "".join(f"      - id: r{i}\n        text: Rule {i}.\n        rules:\n"
                        f"          - {{decision: cure.may_target, requires: {rule}}}\n" for i in range(3))
        (root / "editions" / edition / "cure.yaml").write_text(
            "id: cure\nname: Cure\ndecisions:\n  - name: cure.may_target\n    type: bool\n"
            "    meaning: Whether a cure may target the character.\nsections:\n  - key: s\n    kind: definition\n"
            f"    clauses:\n{clauses}{rules}", encoding="utf-8")
    term("v1", " once", "poisoned")
    term("v2", " twice", "paralyzed")
    book = load_rulebook(root)
    result = diff_editions(book, "v1", book, "v2")
    assert utf16_length(render(result, budget=10 ** 9)) > 64_000
    out = render(result)
    assert utf16_length(out) <= COMMENT_BUDGET
    assert [line for line in out.splitlines() if line.startswith("- `cure#r")] == [
        f"- `cure#r{i}` (semantic): `cure.may_target` changed: narrowed in 1 of 4 situations; broadened in 1; "
        "**breaks conformance**: 2 of 2 cases of v1's suite flip" for i in range(3)]


def test_past_every_other_part_the_most_rule_change_details_that_fit_are_kept(tmp_path):
    """Three rule changes with long texts: a budget with room for the details of one keeps one."""
    from rulebook_compiler.build import load_rulebook
    from rulebook_compiler.diff.engine import diff_editions
    from rulebook_compiler.diff.render_markdown import SHEDDING, _render, render, utf16_length

    root = tmp_path / "book"
    shutil.copytree(Path(__file__).resolve().parents[1] / "fixtures" / "diff" / "levels", root)
    for edition, rule in (("v1", "poisoned"), ("v2", "paralyzed")):
        rules = "".join(f"      - id: r{i}\n        text: Rule {i} {' '.join(['word'] * 200)} {edition}.\n"
                        f"        rules:\n          - {{decision: cure.may_target, requires: {rule}}}\n"
                        for i in range(3))
        (root / "editions" / edition / "cure.yaml").write_text(
            "id: cure\nname: Cure\ndecisions:\n  - name: cure.may_target\n    type: bool\n"
            "    meaning: Whether a cure may target the character.\nsections:\n  - key: s\n    kind: definition\n"
            f"    clauses:\n{rules}", encoding="utf-8")
    book = load_rulebook(root)
    result = diff_editions(book, "v1", book, "v2")
    words = [w for _, w in SHEDDING[:-1]] + ["the details of 2 of 3 rule changes"]
    one = _render(result, {k for k, _ in SHEDDING}, words, 1)
    assert render(result, utf16_length(one)) == one
    assert [line for line in one.splitlines() if line.startswith("#### ")] == ["#### semantic: `cure#r0`"]


# Only what Markdown would obey where it stands gets a backslash: a mark that acts anywhere (code,
# emphasis, a link's brackets, a table bar, strikethrough, math), "_" unless inside a word, "\" before
# punctuation, a heading or list mark where a block starts. What the text's neighbours are is not
# known at its ends, so there the worst is assumed: "(" after a "]", "!" before a "[".
POSITIONS = {
    "parentheses": ("the target(s) of a cure (see Heal)", "the target(s) of a cure (see Heal)"),
    "leading-parenthesis": ("(a) first", "\\(a) first"),
    "link": ("[x](javascript:alert(1))", "\\[x\\](javascript:\u2060alert(1))"),
    "image": ("![x](y)", "!\\[x\\](y)"),
    "trailing-bang": ("Attack!", "Attack\\!"),
    "script": ("<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;"),
    "emphasis": ("*a* and **b**", "\\*a\\* and \\*\\*b\\*\\*"),
    "code": ("`x` and ``y``", "\\`x\\` and \\`\\`y\\`\\`"),
    "table-bar": ("a | b", "a \\| b"),
    "strikethrough": ("~~no~~", "\\~\\~no\\~\\~"),
    "snake-case": ("heal.may_target", "heal.may_target"),
    "underscore-emphasis": ("_x_ and __y__", "\\_x\\_ and \\_\\_y\\_\\_"),
    "leading-heading-mark": ("# Not a heading", "\\#\u2060 Not a heading"),
    "heading-mark-mid-line": ("card #1", "card #\u20601"),
    "braces": ("{x}", "{x}"),
    "backslash-before-a-letter": ("a\\b", "a\\b"),
    "backslash-before-punctuation": ("a\\*", "a\\\\\\*"),
    "trailing-backslash": ("end\\", "end\\\\"),
    "backslash-before-an-escaped-tag": ("\\<b>", "\\\\&lt;b&gt;"),
}


@pytest.mark.parametrize("text,expected", list(POSITIONS.values()), ids=list(POSITIONS))
def test_escape_adds_a_backslash_only_where_markdown_would_act(text, expected):
    assert escape(text) == expected


def test_each_line_of_a_redline_is_escaped_where_it_starts_a_line_of_the_blockquote():
    # The comment's blockquote puts each "<br>" of a redline on a line of its own ("<br>\n> "), so a
    # rule's own line that starts with a list mark, a step number or a heading rule would open a block
    # there (a "<del>" opened in one list item and closed in another).
    line = Redline((Op(EQUAL, "Before:\n- draw\n"), Op(DELETE, "1. heal\n---"), Op(INSERT, "+ x\\\ny")))
    assert redline_markdown(line) == ("Before:<br>\\- draw<br><del>1\\. heal<br>\\---</del>"
                                      "<ins>\\+ x\\\\<br>y</ins>")


def test_the_comment_quotes_a_bullet_list_with_its_marks_escaped(monkeypatch):
    monkeypatch.chdir(FIXTURE.parent / "inside")
    result = CliRunner().invoke(main, ["diff", "v1", "v2", "--rulebook", ".", "--format", "markdown"],
                                catch_exceptions=False)
    assert ("> Before a battle, in this order:<br>\n"
            "> \\- draw a card<br>\n"
            "> \\- <del>heal a character<br>\n"
            "> \\- </del>discard a card\n") in result.stdout


# -- identifiers: code spans, exact to copy ---------------------------------------------------
# A clause ref, a fact, a value or a term id written as prose would carry a word joiner after its
# "#" or "-" before a digit (what GitHub links), so what a reviewer copies finds nothing; in a code
# span GitHub links nothing, so each is written as one.

def _diff_markdown(root: Path | str, old: str = "v1", new: str = "v2") -> list[str]:
    result = CliRunner().invoke(main, ["diff", old, new, "--rulebook", str(root), "--format", "markdown",
                                       "--no-cache"], catch_exceptions=False)
    assert (result.exit_code, result.stderr) == (0, "")
    return result.stdout.splitlines()


def _table(lines: list[str]) -> list[str]:
    return [line for line in lines if line.startswith("  | ")]


def test_the_witness_table_writes_its_clause_refs_facts_and_values_as_code_spans(tmp_path):
    # A term id with a digit after a hyphen ("cure-2020") is what GitHub would link as PREFIX-12.
    root = tmp_path / "book"
    shutil.copytree(FIXTURE.parent / "per-clause", root)
    for edition in ("v1", "v2"):
        path = root / "editions" / edition / "cure.yaml"
        (path.parent / "cure-2020.yaml").write_text(
            path.read_text(encoding="utf-8").replace("id: cure\n", "id: cure-2020\n"), encoding="utf-8")
        path.unlink()
    lines = _diff_markdown(root)
    assert _table(lines) == [
        "  | situation | v1 | v2 | decided by |",
        "  | --- | --- | --- | --- |",
        "  | `phase=battle` | no | no rule answers | `cure-2020#no-battle` → — |",
        "  | `phase=discard` | no rule answers | no | — → `cure-2020#no-battle` |"]
    assert "<details><summary><code>cure-2020</code>: 1 rule change, 1 clarification</summary>" in lines


def test_the_witness_table_writes_an_answer_that_is_a_value_as_a_code_span():
    assert _table(_diff_markdown(FIXTURE.parent / "split-same-answers")) == [
        "  | situation | v1 | v2 | decided by |",
        "  | --- | --- | --- | --- |",
        "  | `ability=rescue` | `bondage` | `bondage_or_play` | `targeting#rescue` → `targeting#rescue` |"]


def test_the_witness_table_names_what_an_edition_does_not_know_as_code_spans():
    # vocabulary-only: v1 had no step special_initiative (enhancements and before_resolution now yes
    # there) and no phase end (retreat requires phase main: no there); one table per decision.
    head = ["  | situation | v1 | v2 | decided by |", "  | --- | --- | --- | --- |"]
    step = "`battle_step=special_initiative` (the old edition does not know value `battle_step=special_initiative`)"
    assert _table(_diff_markdown(FIXTURE.parent / "vocabulary-only")) == [
        *head, f"  | {step} | no such situation | yes | — → `battle#enhancements` |",
        *head, "  | `phase=end` (the old edition does not know value `phase=end`) | no such situation | no | "
               "— → `battle#retreat` |",
        *head, f"  | {step} | no such situation | yes | — → `battle#before-resolution` |"]


def test_a_witness_table_cell_holds_hostile_ids_in_code_spans_that_no_bar_or_backtick_ends():
    # The checker's patterns keep such ids out of a rulebook; the table is safe without them. In a
    # table cell, GitHub splits at every "|" not escaped, inside a code span too, and unescapes "\|"
    # before it reads the span: so a bar is written "\|", and the span is exact again.
    from rulebook_compiler.diff.behaviour import Witness
    from rulebook_compiler.diff.render_markdown import _witness_table

    witness = Witness(facts=(("a|b", True), ("`x", "@y")), old="v|`w`", new=False,
                      old_clauses=("t#c|d", "t#e@f"), new_clauses=(), old_unknown=("a|b",))

    class Shown:
        witnesses = (witness,)

    assert _witness_table(Shown, "v1", "v2") == [
        "", "| situation | v1 | v2 | decided by |", "| --- | --- | --- | --- |",
        f"| `a\\|b`, `` `x=@{WJ}y `` (the old edition does not know fact `a\\|b`) | `` v\\|`w` `` | no | "
        f"`t#c\\|d`, `t#e@{WJ}f` → — |"]


def test_the_list_of_rule_changes_names_each_decision_as_a_code_span():
    lines = _diff_markdown(FIXTURE.parent / "conformance-flips")
    assert [line for line in lines if line.startswith("- `cure#") or line.startswith("- `cure (")] == [
        "- `cure (heading)` (semantic): decision `cure.in_battle` removed",
        "- `cure#targets` (semantic): `cure.may_target` broadened in 1 of 4 situations; narrowed in none; "
        "**breaks conformance**: 1 of 2 cases of v1's suite flips",
        "- `cure#in-battle` (removed): decision `cure.in_battle` removed; "
        "**breaks conformance**: 1 of 1 case of v1's suite flips"]


def test_a_change_s_notes_name_clauses_and_decisions_as_code_spans():
    assert "<br>_split from `targeting#paralyze` (declared)_" in _diff_markdown(
        FIXTURE.parent / "split-same-answers")
    assert ("<br>_text and rules unchanged; `cure.may_target` is asked in other situations: its given changed_"
            in _diff_markdown(FIXTURE.parent / "given-changed-clause-unchanged"))


def test_a_procedure_s_step_note_names_the_procedure_and_its_steps_as_code_spans():
    assert ("<br>_steps of `duel.order`: 3 steps -&gt; 4; inserted `step-1b` (step 2); "
            "renumbered `step-2` (2 -&gt; 3), `step-3` (3 -&gt; 4)_") in _diff_markdown(
        FIXTURE.parent / "rule-less-clauses", "v2", "v3")
