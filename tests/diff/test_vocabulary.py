"""A diff between editions with different vocabularies: compared over both, and it says which
situations an edition could not describe (tests/fixtures/vocab: edition b adds a fact and a
value and withdraws a fact)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from rulebook_compiler.cli import main
from rulebook_compiler.diff.render_markdown import escape

VOCAB = str(Path(__file__).resolve().parents[1] / "fixtures" / "vocab")


def diff(*args: str):
    result = CliRunner().invoke(main, ["diff", "a", "b", "--rulebook", VOCAB, *args])
    assert result.exit_code == 0, result.output
    return result.output


def witnesses(data: dict, name: str) -> list[dict]:
    found = {b["name"]: b for c in data["changes"] for b in [c["behaviour"], *c["other_behaviours"]] if b}
    return found[name]["witnesses"]


def test_the_json_names_what_each_edition_does_not_know():
    data = json.loads(diff("--format", "json"))
    assert witnesses(data, "cure.timing") == [
        {"facts": {"phase": "end"}, "old": None, "new": "later", "old_clauses": [], "new_clauses": ["cure#timing"],
         "old_unknown": ["phase=end"], "new_unknown": [], "old_reason": "no rule", "new_reason": None}]
    # Under the withdrawn cure#not-stunned, the situations it decided (issue 11: per clause; the
    # diseased character that cure#curable's change admits is shown under cure#curable).
    assert witnesses(data, "cure.may_target") == [
        {"facts": {"diseased": True, "paralyzed": False, "poisoned": False, "stunned": True},
         "old": False, "new": True, "old_clauses": ["cure#not-stunned"], "new_clauses": ["cure#targets"],
         "old_unknown": ["diseased"], "new_unknown": ["stunned"], "old_reason": None, "new_reason": None},
        {"facts": {"diseased": False, "paralyzed": True, "poisoned": False, "stunned": True},
         "old": False, "new": True, "old_clauses": ["cure#not-stunned"], "new_clauses": ["cure#targets"],
         "old_unknown": [], "new_unknown": ["stunned"], "old_reason": None, "new_reason": None}]


def test_the_text_says_a_situation_the_old_edition_could_not_describe():
    lines = [line.strip() for line in diff().splitlines()]
    assert "when phase=end: old no rule answers, new later (cure#timing) " \
           "[the old edition does not know value phase=end]" in lines
    assert "when diseased, stunned: old no (cure#not-stunned), new yes (cure#targets) " \
           "[the old edition does not know fact diseased; the new edition does not know fact stunned]" in lines


def test_markdown_and_html_say_it_too():
    assert "| `phase=end` (the old edition does not know value `phase=end`) | no rule answers | `later` |" \
        in diff("--format", "markdown")
    assert "<td>phase=end <em>(the old edition does not know value phase=end)</em></td>" in diff("--format", "html")


def test_editions_of_one_vocabulary_say_nothing_of_it():
    result = CliRunner().invoke(main, ["diff", "origin", "a", "--rulebook", VOCAB, "--format", "json"])
    data = json.loads(result.output)
    found = [w for c in data["changes"] for b in [c["behaviour"], *c["other_behaviours"]] if b for w in b["witnesses"]]
    assert found
    assert {(tuple(w["old_unknown"]), tuple(w["new_unknown"])) for w in found} == {((), ())}


VOCABULARY_LINES = ["fact added: diseased", "fact withdrawn: stunned",
                    "fact changed: phase (values added: end; meaning changed)",
                    "constraint added: no-disease-at-the-end", "constraint withdrawn: stunned-only-in-battle"]


def test_the_json_says_how_the_vocabulary_changed():
    assert json.loads(diff("--format", "json"))["vocabulary"] == {
        "facts": {"added": ["diseased"], "withdrawn": ["stunned"], "changed": [
            {"name": "phase", "values_added": ["end"], "values_withdrawn": [],
             "meaning": {"old": "The phase of the turn.", "new": "The phase of the turn, the end phase included."},
             "type": None, "order": None}]},
        "constraints": {"added": ["no-disease-at-the-end"], "withdrawn": ["stunned-only-in-battle"], "changed": []}}
    same = CliRunner().invoke(main, ["diff", "origin", "a", "--rulebook", VOCAB, "--format", "json"])
    assert json.loads(same.output)["vocabulary"] == {
        "facts": {"added": [], "withdrawn": [], "changed": []},
        "constraints": {"added": [], "withdrawn": [], "changed": []}}


def test_text_markdown_and_html_list_the_vocabulary_changes():
    text = diff().splitlines()
    start = text.index("vocabulary:")
    assert text[start + 1:start + 6] == ["  " + line for line in VOCABULARY_LINES]
    markdown = diff("--format", "markdown")
    # Escaped as every text the Markdown renderer writes (GitHub must not read a link or markup in it).
    assert "### Vocabulary\n\n" + "".join(f"- {escape(line)}\n" for line in VOCABULARY_LINES) in markdown
    html = diff("--format", "html")
    assert "<h2>Vocabulary</h2>\n<ul>" + "".join(f"<li>{line}</li>" for line in VOCABULARY_LINES) + "</ul>" in html


def test_an_edition_that_changes_only_the_vocabulary_is_not_without_changes(tmp_path):
    import shutil

    book = tmp_path / "book"
    shutil.copytree(VOCAB, book)
    (book / "editions" / "b" / "cure.yaml").unlink()
    (book / "editions" / "b" / "_vocabulary.yaml").write_text(
        "facts:\n  add:\n    - {name: raining, type: bool, meaning: It rains.}\n")
    result = CliRunner().invoke(main, ["diff", "a", "b", "--rulebook", str(book), "--exit-code"])
    assert (result.exit_code, result.output) == (
        1, "rulebook diff a -> b: the vocabulary only\n\nvocabulary:\n  fact added: raining\n")


def test_an_ordered_fact_changed_shows_its_new_order():
    fixture = str(Path(VOCAB).parent / "ordered-reordered")
    result = CliRunner().invoke(main, ["diff", "r1", "r2", "--rulebook", fixture, "--format", "json"])
    assert json.loads(result.output)["vocabulary"]["facts"]["changed"] == [
        {"name": "battle_step", "values_added": ["special_initiative"], "values_withdrawn": [], "meaning": None,
         "type": None, "order": {"old": ["declare_attack", "declare_block", "resolve"],
                                 "new": ["declare_attack", "declare_block", "special_initiative", "resolve"]}}]
    text = CliRunner().invoke(main, ["diff", "r1", "r2", "--rulebook", fixture]).output
    assert "  fact changed: battle_step (values added: special_initiative; order: declare_attack < declare_block " \
           "< special_initiative < resolve)\n" in text
