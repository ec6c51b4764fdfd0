"""A diff between editions with different vocabularies: compared over both, and it says which
situations an edition could not describe (tests/fixtures/vocab: edition b adds a fact and a
value and withdraws a fact)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from compiler.cli import main

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
         "old_unknown": ["phase=end"], "new_unknown": []}]
    assert witnesses(data, "cure.may_target") == [
        {"facts": {"diseased": True, "paralyzed": False, "poisoned": False, "stunned": False},
         "old": False, "new": True, "old_clauses": ["cure#targets"], "new_clauses": ["cure#targets"],
         "old_unknown": ["diseased"], "new_unknown": []},
        {"facts": {"diseased": True, "paralyzed": False, "poisoned": False, "stunned": True},
         "old": False, "new": True, "old_clauses": ["cure#not-stunned"], "new_clauses": ["cure#targets"],
         "old_unknown": ["diseased"], "new_unknown": ["stunned"]}]


def test_the_text_says_a_situation_the_old_edition_could_not_describe():
    lines = [line.strip() for line in diff().splitlines()]
    assert "when phase=end: old no answer (no rule), new later (cure#timing) " \
           "[the old edition does not know value phase=end]" in lines
    assert "when diseased, stunned: old no (cure#not-stunned), new yes (cure#targets) " \
           "[the old edition does not know fact diseased; the new edition does not know fact stunned]" in lines


def test_markdown_and_html_say_it_too():
    assert "| phase=end \\(the old edition does not know value phase=end\\) | no answer | later |" \
        in diff("--format", "markdown")
    assert "<td>phase=end <em>(the old edition does not know value phase=end)</em></td>" in diff("--format", "html")


def test_editions_of_one_vocabulary_say_nothing_of_it():
    result = CliRunner().invoke(main, ["diff", "origin", "a", "--rulebook", VOCAB, "--format", "json"])
    data = json.loads(result.output)
    found = [w for c in data["changes"] for b in [c["behaviour"], *c["other_behaviours"]] if b for w in b["witnesses"]]
    assert found
    assert {(tuple(w["old_unknown"]), tuple(w["new_unknown"])) for w in found} == {((), ())}
