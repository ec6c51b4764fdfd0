"""Drift flags in the Markdown comment: the clause refs, procedures, facts, values and predicates a flag
names are code spans, exact to copy; its words are escaped prose (issue 11; "escape by construction,
not by list"). Before, a flag was one string escaped as prose, so a clause ref in it carried word
joiners (``commander#⁠r903-⁠9a``) and could not be copied. Text and HTML show the same words as before.

Fixtures: numbered-rules-commander (CR 903.9, 2022, heads 903.9a-c, which carry 2019's rules),
rule-less-clauses (Duel's lead-ins, items and steps the editors' model covers),
unread-list-predicate-changes (a predicate no rule reads whose answers changed).
"""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from rulebook_compiler.cli import main

DIFF = Path(__file__).resolve().parents[1] / "fixtures" / "diff"


def _run(fixture: str, old: str, new: str, fmt: str) -> list[str]:
    result = CliRunner().invoke(main, ["diff", old, new, "--no-cache", "--format", fmt, "--rulebook",
                                       str(DIFF / fixture)], catch_exceptions=False)
    assert (result.exit_code, result.stderr) == (0, "")
    return result.stdout.splitlines()


def _flags(lines: list[str], start: str) -> list[str]:
    return [line for line in lines if line.lstrip().startswith(start)]


HEADING = ("no rule of its own; the heading of commander#r903-9a, commander#r903-9b, commander#r903-9c, "
           "of which commander#r903-9a, commander#r903-9b, commander#r903-9c carry rules of the edition before")


def test_markdown_writes_the_subrules_a_heading_flag_names_as_code():
    lines = _run("numbered-rules-commander", "cr-2019-05-03", "cr-2022-07-08", "markdown")
    assert _flags(lines, "⚠️ Drift:") == [
        "⚠️ Drift: no rule of its own; the heading of `commander#r903-9a`, `commander#r903-9b`, "
        "`commander#r903-9c`, of which `commander#r903-9a`, `commander#r903-9b`, `commander#r903-9c` "
        "carry rules of the edition before"]


def test_text_and_html_show_the_heading_flag_as_before():
    text = _run("numbered-rules-commander", "cr-2019-05-03", "cr-2022-07-08", "text")
    assert _flags(text, "drift:") == ["    drift: " + HEADING]
    html = _run("numbered-rules-commander", "cr-2019-05-03", "cr-2022-07-08", "html")
    assert _flags(html, '<p class="drift">') == [f'<p class="drift">Drift: {HEADING}</p>']


def test_markdown_writes_what_the_model_covers_a_clause_as_as_code():
    lines = _run("rule-less-clauses", "v1", "v2", "markdown")
    covered = "⚠️ Drift: no rule of its own; the editors' model covers it as "
    assert _flags(lines, "⚠️ Drift:") == [
        covered + "a lead-in to `duel#attacker-wins`",
        covered + "an item naming the value `attacker_wins` of `duel_outcome`, which its rules test",
        covered + "an item naming the value `defender_wins` of `duel_outcome`, which its rules test",
        covered + "an item naming the value `draw` of `duel_outcome`, which its rules test",
        covered + "a lead-in to `duel#order`",
        covered + "a step of `duel.order`, whose other steps carry its rules",
        covered + "a step of `duel.order`, whose other steps carry its rules",
        "⚠️ Drift: no rule of its own; every word of it is said elsewhere: in the other edition or in a "
        "clause with rules of its own",
    ]


def test_markdown_writes_the_unread_predicate_a_flag_names_as_code():
    lines = _run("unread-list-predicate-changes", "v1", "v2", "markdown")
    assert _flags(lines, "⚠️ Drift:") == [
        "⚠️ Drift: the predicate `footnoted_ability` answers differently, but no rule or predicate of either "
        "edition reads it and the text names no word it defines: its words decide the level"]



def test_a_flag_quoting_rule_text_shows_the_controls_it_holds_in_every_format(tmp_path):
    # A flag quotes rule text, and a browser obeys U+202E and U+2066 as a terminal does (the reviewer
    # would read the sentence reordered): the text, the Markdown and the HTML report show them escaped,
    # as each shows the redline's. Before, the HTML report wrote a flag kept as data (flags.Flag) as it
    # was. Fixture numbered-rules-coin-flip: a sentence moved and reworded across a merge.
    import shutil

    book = tmp_path / "coin"
    shutil.copytree(DIFF / "numbered-rules-coin-flip", book)
    rules = book / "editions" / "cr-2022-07-08" / "rules.yaml"
    text = rules.read_text(encoding="utf-8")
    assert text.count("effect. For all other effects that") == 1
    rules.write_text(text.replace("effect. For all other effects that",
                                  "effect. For all other \u202eeffects\u2066 that"), encoding="utf-8")
    old = "An effect that instructs a player to flip a coin may care whether that player wins or loses the flip."
    new = ("For all other \\u202eeffects\\u2066 that instruct a player to flip a coin, the player that flips the "
           "coin calls {q}heads{q} or {q}tails.{q}")
    said = (f"the text no longer says “{old}” and now says “{new}”: read as one sentence moved and reworded "
            "across the merge, and the answers are the same")

    def moved(fmt: str) -> str:
        lines = _run(str(book), "cr-2019-05-03", "cr-2022-07-08", fmt)
        return next(line for line in lines if "now says “For all other" in line)

    assert moved("text") == "    drift: " + said.format(q='"')
    assert moved("markdown") == "⚠️ Drift: " + said.format(q='"')
    assert moved("html") == '<p class="drift">Drift: ' + said.format(q="&#34;") + "</p>"
