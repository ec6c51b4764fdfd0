"""Untrusted words in what the vocabulary changed and in drift flags, exactly escaped in every format.

Fixture hostile-vocabulary: the edition titles, the question of turn.may_pass
(changed by the vocabulary alone: phase gained the value end) and the old and
new text of the changed constraint not-poisoned-in-battle hold ``</details>``,
a script, a mention, a table bar, a backtick, a ``javascript:`` link and a line
break before "- " or "# ". The text format shows them as written (a line break
as ``\\n``); Markdown escapes each mark, breaks the mention and the link with a
word joiner and writes the line break as ``<br>`` on the same line (no list
item, no heading starts); HTML escapes every angle bracket and quote; JSON
keeps the words exact. A drift flag that quotes a sentence moved and reworded
across a merge (the coin-flip fixture, with the hostile words in both
sentences) is escaped the same way. The same sources give the same bytes.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from rulebook_compiler.cli import main

ROOT = Path(__file__).resolve().parents[2]
DIFF = ROOT / "tests" / "fixtures" / "diff"
FIXTURE = DIFF / "hostile-vocabulary"
WJ = "\u2060"  # the word joiner that breaks a mention or a link in Markdown

QUESTION = ("Whether </details><script>alert('q')</script> @team | `x` [a](javascript:alert(1))\n"
            "# the player may pass.")
OLD_TEXT = ("Not poisoned </details><script>alert('old')</script> @team | `x` [a](javascript:alert(1))\n"
            "- in battle.")
NEW_TEXT = ("Not poisoned </details><script>alert('new')</script> @team | `x` [a](javascript:alert(2))\n"
            "- in main.")


def _run(*args: str, rulebook: Path = FIXTURE) -> str:
    result = CliRunner().invoke(main, [*args, "--rulebook", str(rulebook)], catch_exceptions=False)
    assert (result.exit_code, result.stderr) == (0, "")
    return result.stdout


def _diff(fmt: str) -> str:
    return _run("diff", "v1", "v2", "--no-cache", "--format", fmt)


def test_the_text_shows_the_words_as_written_and_a_line_break_as_an_escape():
    lines = _diff("text").splitlines()
    assert lines[lines.index("decisions, predicates and constraints:"):] == [
        "decisions, predicates and constraints:",
        "  changed  constraint not-poisoned-in-battle: " + NEW_TEXT.replace("\n", "\\n"),
        "    old text: " + OLD_TEXT.replace("\n", "\\n"),
        "    newly rules out 1 of 6 situations: whenever phase is main and poisoned",
        "    no longer rules out 1 situation: whenever phase is battle and poisoned",
        "  changed  decision turn.may_pass (turn): " + QUESTION.replace("\n", "\\n"),
        "    turn.may_pass broadened in 1 of 3 situations; narrowed in none",
        "      no such situation -> yes in 1 situation: whenever phase is end",
        "      when phase=end: old no such situation, new yes (turn#pass) "
        "[the old edition does not know value phase=end]",
        "    changed by the vocabulary: fact phase gained value end",
    ]


def test_markdown_escapes_the_constraint_s_old_and_new_text_in_the_decisions_list():
    lines = _diff("markdown").splitlines()
    start = lines.index("### Decisions, predicates and constraints")
    assert lines[start:lines.index("### Vocabulary")] == [
        "### Decisions, predicates and constraints",
        "",
        "- `not-poisoned-in-battle` (constraint, changed): Not poisoned &lt;/details&gt;&lt;script&gt;"
        f"alert('new')&lt;/script&gt; @{WJ}team \\| \\`x\\` \\[a\\](javascript:{WJ}alert(2))<br>- in main.",
        "  - old text: Not poisoned &lt;/details&gt;&lt;script&gt;"
        f"alert('old')&lt;/script&gt; @{WJ}team \\| \\`x\\` \\[a\\](javascript:{WJ}alert(1))<br>- in battle.",
        "  - newly rules out 1 of 6 situations: whenever phase is main and poisoned",
        "  - no longer rules out 1 situation: whenever phase is battle and poisoned",
        "- `turn.may_pass` (decision, changed): broadened in 1 of 3 situations; narrowed in none; "
        "changed by the vocabulary: fact `phase` gained value `end`",
        "  - no such situation → yes in 1 situation: whenever phase is end",
        "",
        "  | situation | v1 | v2 | decided by |",
        "  | --- | --- | --- | --- |",
        "  | `phase=end` (the old edition does not know value `phase=end`) | no such situation | yes | "
        "— → `turn#pass` |",
        "",
    ]
    assert "</details>" not in _diff("markdown")  # the fixture changes no clause: no term's <details> either


def test_html_escapes_the_question_and_the_constraint_s_texts():
    html = _diff("html")
    assert ('<p>Not poisoned &lt;/details&gt;&lt;script&gt;alert(&#39;new&#39;)&lt;/script&gt; @team | `x` '
            '[a](javascript:alert(2))\n- in main.</p><ul><li>old text: Not poisoned &lt;/details&gt;&lt;script&gt;'
            'alert(&#39;old&#39;)&lt;/script&gt; @team | `x` [a](javascript:alert(1))\n- in battle.</li>') in html
    assert ('<p>Whether &lt;/details&gt;&lt;script&gt;alert(&#39;q&#39;)&lt;/script&gt; @team | `x` '
            '[a](javascript:alert(1))\n# the player may pass.</p>') in html
    assert "<script>alert" not in html


def test_json_keeps_the_words_exact():
    names = {n["name"]: n for n in json.loads(_diff("json"))["names"]}
    assert (names["not-poisoned-in-battle"]["meaning"], names["not-poisoned-in-battle"]["old_meaning"]) == (
        NEW_TEXT, OLD_TEXT)
    assert names["turn.may_pass"]["meaning"] == QUESTION


def test_the_changelog_escapes_the_titles_and_the_vocabulary_s_item():
    assert _run("changelog", "--edition", "v2").splitlines() == [
        "# What changed in An end phase \\`x\\` \\| y &lt;script&gt;alert(1)&lt;/script&gt;",
        "",
        f"Changes from Two phases &lt;/details&gt; @{WJ}team (v1) to v2.",
        "",
        "## Turn",
        "",
        "### Rule changes",
        "",
        "- **Changed by the vocabulary** (`turn.may_pass`): Whether &lt;/details&gt;&lt;script&gt;"
        f"alert('q')&lt;/script&gt; @{WJ}team \\| \\`x\\` \\[a\\](javascript:{WJ}alert(1))<br>#{WJ} the player may pass.",
        "  - Changed by the vocabulary: fact phase gained value end.",
        "  - When phase is end: was **not possible**, now **yes**.",
    ]


HOSTILE = "</details> <b>@team</b> `x` | [a](javascript:alert(1))"


def test_a_drift_flag_quoting_a_moved_sentence_is_escaped_in_text_markdown_and_html(tmp_path):
    book = tmp_path / "coin"
    shutil.copytree(DIFF / "numbered-rules-coin-flip", book)
    for edition, before, after in (
            ("cr-2019-05-03", "may care whether\n", f"may care {HOSTILE} whether\n"),
            ("cr-2022-07-08", "effect. For all other effects that", f"effect. For all other {HOSTILE} effects that")):
        rules = book / "editions" / edition / "rules.yaml"
        text = rules.read_text(encoding="utf-8")
        assert text.count(before) == 1
        rules.write_text(text.replace(before, after), encoding="utf-8")
    old = f"An effect that instructs a player to flip a coin may care {HOSTILE} whether that player wins or loses the flip."
    new = (f"For all other {HOSTILE} effects that instruct a player to flip a coin, the player that flips the coin "
           "calls \"heads\" or \"tails.\"")
    tail = ": read as one sentence moved and reworded across the merge, and the answers are the same"

    def rendered(fmt: str) -> str:
        return _run("diff", "cr-2019-05-03", "cr-2022-07-08", "--no-cache", "--format", fmt, rulebook=book)

    assert f"    drift: the text no longer says “{old}” and now says “{new}”{tail}\n" in rendered("text")
    markdown_words = f"&lt;/details&gt; &lt;b&gt;@{WJ}team&lt;/b&gt; \\`x\\` \\| \\[a\\](javascript:{WJ}alert(1))"
    assert (f"⚠️ Drift: the text no longer says “{old.replace(HOSTILE, markdown_words)}” and now says "
            f"“{new.replace(HOSTILE, markdown_words)}”{tail}\n") in rendered("markdown")
    html_words = "&lt;/details&gt; &lt;b&gt;@team&lt;/b&gt; `x` | [a](javascript:alert(1))"
    assert (f'<p class="drift">Drift: the text no longer says “{old.replace(HOSTILE, html_words)}” and now says '
            f'“{new.replace(HOSTILE, html_words).replace(chr(34), "&#34;")}”{tail}</p>') in rendered("html")


_EVERY_OUTPUT = """
import sys
from pathlib import Path
from click.testing import CliRunner
from rulebook_compiler.build import load_rulebook
from rulebook_compiler.cli import main
from rulebook_compiler.site.changes import provider
from rulebook_compiler.site.pages import PageSpec
from rulebook_compiler.site.render import Renderer
for args in (["diff", "v1", "v2", "--no-cache", "--format", f] for f in ("text", "markdown", "json", "html")):
    sys.stdout.write(CliRunner().invoke(main, [*args, "--rulebook", sys.argv[1]]).stdout)
sys.stdout.write(CliRunner().invoke(main, ["changelog", "--edition", "v2", "--rulebook", sys.argv[1]]).stdout)
book = load_rulebook(Path(sys.argv[1]))
spec = PageSpec("editions/v2/changes.md", "changes", "What changed", False, edition="v2")
sys.stdout.write(Renderer(book, changes=provider(book)).render(spec, lambda uri: uri).html)
"""
# What each output holds once: the text's header, the comment's, the JSON's and the HTML report's
# changed constraint, the changelog's title, the site page's list.
MARKS = (b"rulebook diff v1 -> v2: ", b"## Rulebook changes: v1", b'"kind": "constraint"',
         b'<h3><span class="kind">changed</span> constraint', b"# What changed in An end phase",
         b'<ul class="rb-names">')


def test_the_same_sources_give_the_same_bytes_whatever_the_hash_seed():
    """Every format of the diff, the changelog and the site's What changed page, in two processes whose
    sets and dicts of strings iterate in different orders."""
    outputs = []
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(ROOT)}
        done = subprocess.run([sys.executable, "-c", _EVERY_OUTPUT, str(FIXTURE)], capture_output=True, env=env,
                              cwd=ROOT, timeout=300, check=True)
        outputs.append(done.stdout)
    assert [outputs[0].count(mark) for mark in MARKS] == [1] * len(MARKS)
    assert outputs[0] == outputs[1]
