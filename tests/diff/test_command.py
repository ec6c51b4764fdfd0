"""The rulebook diff and history commands: formats, colour, escaping, exit codes."""

from __future__ import annotations

import json
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulebook_compiler.cli import main

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
BUNDLED = Path(__file__).resolve().parents[2] / "rulebook"
HOSTILE = '<script>alert(1)</script> [click](javascript:alert(1)) | *bold* `code` & <img src=x onerror=y>'


def run(*args: str, env: dict | None = None):
    return CliRunner().invoke(main, list(args), env=env, catch_exceptions=False)


@pytest.fixture
def hostile(tmp_path):
    """The minimal rulebook whose v2 clause text holds markup that must not come through."""
    root = tmp_path / "book"
    shutil.copytree(FIXTURES / "minimal", root)
    path = root / "editions" / "v2" / "cure.yaml"
    path.write_text(path.read_text().replace("text: Cure cannot be used in battle.",
                                             "text: " + json.dumps("Cure cannot be used in battle. " + HOSTILE)))
    return root


def test_json_follows_the_contract(hostile):
    out = json.loads(run("diff", "v1", "v2", "--rulebook", str(hostile), "--format", "json").output)
    assert list(out) == ["old", "new", "summary", "changes", "vocabulary", "names", "rulings"]
    change = out["changes"][0]
    for key in ("fingerprint", "kind", "term", "clause", "old_clause", "new_clause", "old_text", "new_text",
                "old_location", "new_location", "matched_by", "redline", "behaviour", "impact"):
        assert key in change
    assert set(change["old_location"]) == {"file", "line", "column"}
    assert all(set(op) == {"op", "text"} and op["op"] in ("equal", "delete", "insert") for op in change["redline"])
    assert set(change["behaviour"]) >= {"name", "direction", "witnesses"}
    assert set(change["behaviour"]["witnesses"][0]) >= {"facts", "old", "new"}


def test_same_sources_give_the_same_bytes(hostile):
    for fmt in ("text", "markdown", "json", "html"):
        a = run("diff", "v1", "v2", "--rulebook", str(hostile), "--format", fmt).output
        b = run("diff", "v1", "v2", "--rulebook", str(hostile), "--format", fmt).output
        assert a == b


def test_markdown_starts_with_the_summary_table_and_escapes_rule_text(hostile):
    out = run("diff", "v1", "v2", "--rulebook", str(hostile), "--format", "markdown").output
    lines = out.splitlines()
    assert lines[0].startswith("## Rulebook changes: v1")
    assert lines[2] == "**2 rule changes**, 0 clarifications, 0 editorial"
    assert lines[4] == "| kind | changes |"
    assert "<script>" not in out and "<img" not in out
    assert "&lt;script&gt;" in out
    # No link can be formed; a word joiner follows the scheme's colon.
    assert "\\[click\\](javascript:\u2060alert(1))" in out
    assert "\\*bold\\*" in out and "\\`code\\`" in out and "\\|" in out
    assert out.index("| kind | changes |") < out.index("### ")


class _Tags(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)


def test_html_is_a_standalone_page_with_escaped_text(hostile):
    out = run("diff", "v1", "v2", "--rulebook", str(hostile), "--format", "html").output
    assert out.startswith("<!DOCTYPE html>") and out.rstrip().endswith("</html>")
    parser = _Tags()
    parser.feed(out)
    assert "script" not in parser.tags and "img" not in parser.tags
    assert "ins" in parser.tags
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in out


def test_text_has_no_colour_when_piped_or_with_no_color(hostile):
    out = run("diff", "v1", "v2", "--rulebook", str(hostile)).output
    assert "\x1b[" not in out and "{+" in out
    out = run("diff", "v1", "v2", "--rulebook", str(hostile), env={"NO_COLOR": "1"}).output
    assert "\x1b[" not in out


def test_text_colour_on_a_terminal(hostile, monkeypatch):
    from rulebook_compiler.commands import diff as command

    monkeypatch.setattr(command.sys.stdout, "isatty", lambda: True, raising=False)
    monkeypatch.delenv("NO_COLOR", raising=False)
    from rulebook_compiler.build import load_rulebook
    from rulebook_compiler.diff.engine import diff_editions

    book = load_rulebook(hostile)
    assert "\x1b[32m" in command.render(diff_editions(book, "v1", book, "v2"), "text")


def test_exit_code_like_git_diff(hostile):
    assert run("diff", "v1", "v2", "--rulebook", str(hostile), "--exit-code").exit_code == 1
    same = run("diff", "v1", "v1", "--rulebook", str(hostile), "--exit-code")
    assert (same.exit_code, same.stdout, same.stderr) == (0, "rulebook diff v1 -> v1: No changes.\n", "")
    assert run("diff", "v1", "v2", "--rulebook", str(hostile)).exit_code == 0


def test_history_of_a_term_through_the_bundled_editions():
    out = json.loads(run("history", "heal", "--rulebook", str(BUNDLED), "--format", "json").output)
    steps = [(s["old"]["edition"], s["new"]["edition"]) for s in out["steps"]]
    # Heal first appears in 2012 and changes in 3.0.0 and the draft; 5.0.0 carries it over unchanged.
    # (Only the editions up to 5.0.0, which are locked: a later edition may change Heal again.)
    assert [s for s in steps if s[1] in ("2012", "3.0.0", "4.0.0-draft", "5.0.0")] == [
        ("(none)", "2012"), ("2012", "3.0.0"), ("3.0.0", "4.0.0-draft")]
    assert all(c["term"] == "heal" for s in out["steps"] for c in s["changes"])
    assert {c["kind"] for c in out["steps"][0]["changes"]} == {"added"}


def test_identical_sides_say_no_changes_in_every_readable_format(hostile):
    # Text used to print nothing at all, while Markdown said "No changes.".
    text = run("diff", "v1", "v1", "--rulebook", str(hostile))
    assert (text.exit_code, text.stdout) == (0, "rulebook diff v1 -> v1: No changes.\n")
    markdown = run("diff", "v1", "v1", "--rulebook", str(hostile), "--format", "markdown")
    assert markdown.stdout == "## Rulebook changes: v1 → v1\n\nNo changes.\n"


def test_a_history_opens_with_the_edition_that_introduced_the_term(hostile):
    # Each step's header; the first used to read "rulebook diff (none) -> v1".
    text = run("history", "cure", "--rulebook", str(hostile)).stdout
    assert [line for line in text.splitlines() if line.startswith(("introduced", "rulebook diff"))] == [
        "introduced in v1: 3 added", "rulebook diff v1 -> v2: 1 added, 1 semantic"]
    markdown = run("history", "cure", "--rulebook", str(hostile), "--format", "markdown").stdout
    assert [line for line in markdown.splitlines() if line.startswith("## ")] == [
        "## Introduced in v1", "## Rulebook changes: v1 → v2"]
    steps = json.loads(run("history", "cure", "--rulebook", str(hostile), "--format", "json").stdout)["steps"]
    assert [(s["old"]["kind"], s["old"]["edition"], s["new"]["edition"]) for s in steps] == [
        ("none", "(none)", "v1"), ("edition", "v1", "v2")]


def test_history_of_an_unknown_term_names_the_terms():
    result = run("history", "hael", "--rulebook", str(BUNDLED))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.startswith("rulebook: error: unknown term 'hael'\n  hint: did you mean 'heal'? terms: abilities, ")


@pytest.mark.parametrize("variables", [{"PYTHONIOENCODING": "ascii"}, {"PYTHONIOENCODING": "latin-1"}],
                         ids=["ascii", "latin-1"])
def test_every_format_survives_a_stdout_that_is_not_utf8(tmp_path, monkeypatch, variables):
    # Each ended in a UnicodeEncodeError traceback once the diff was done: JSON,
    # Markdown and HTML are UTF-8 documents whatever the locale (the page says
    # charset=utf-8); the text for a terminal escapes what its encoding cannot carry.
    import os
    import subprocess
    import sys

    root = tmp_path / "book"
    shutil.copytree(FIXTURES / "minimal", root)
    path = root / "editions" / "v2" / "cure.yaml"
    path.write_text(path.read_text().replace("Cure cannot be used in battle.", "Cure 🃏 ne peut être jouée."),
                    encoding="utf-8")
    env = {**os.environ, "NO_COLOR": "1", "RULEBOOK_NO_CACHE": "1", **variables}
    monkeypatch.chdir(tmp_path)  # the same relative paths in and out of process

    def run_utf8(*args: str) -> bytes:
        proc = subprocess.run([sys.executable, "-m", "rulebook_compiler", *args, "--rulebook", str(root)],
                              cwd=tmp_path, env=env, capture_output=True, timeout=120)
        assert (proc.returncode, proc.stderr) == (0, b""), proc.stderr.decode(errors="replace")[-400:]
        return proc.stdout

    for fmt in ("json", "markdown", "html"):
        expected = run("diff", "v1", "v2", "--rulebook", str(root), "--format", fmt).stdout.encode("utf-8")
        assert run_utf8("diff", "v1", "v2", "--format", fmt) == expected, fmt
    steps = json.loads(run_utf8("history", "cure", "--format", "json").decode("utf-8"))["steps"]
    assert "Cure 🃏 ne peut être jouée." in json.dumps(steps, ensure_ascii=False)
    assert "Cure 🃏 ne peut être jouée." in run_utf8("history", "cure", "--format", "markdown").decode("utf-8")
    encoding = variables["PYTHONIOENCODING"]
    shown = {"ascii": "Cure \\U0001f0cf ne peut \\xeatre jou\\xe9e.", "latin-1": "Cure \\U0001f0cf ne peut être jouée."}
    assert f"    {{+{shown[encoding]}+}}" in run_utf8("diff", "v1", "v2").decode(encoding).splitlines()
