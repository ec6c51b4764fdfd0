"""Decisions and predicates whose answers changed through the vocabulary alone (issue 11, point 1).

Fixture vocabulary-only: v2 changes no term file. Its vocabulary overlay
inserts special_initiative into the ordered fact battle_step, before resolve,
and adds the value end to the (unordered) fact phase. The predicate
before_resolution ({before: {battle_step: resolve}}) and the decision
battle.may_play_enhancement that requires it now answer yes in the new step,
which v1 could not describe (its side gives "no such situation" there):
both are listed as changed, with counts, descriptions and witnesses, charged
to the vocabulary. battle.may_retreat requires {is: {phase: main}}: in the end
phase, a situation v1 could not describe, it now answers no; it is listed too,
its old side giving "no such situation" there (test_names_vocabulary_values.py
shows that case alone).
"""

from __future__ import annotations

import json

from click.testing import CliRunner

from rulebook_compiler.build import load_rulebook
from rulebook_compiler.cli import main
from rulebook_compiler.diff.engine import diff_editions
from tests.diff.test_names import DIFF, _result, _run as run_fixture

FIXTURE = DIFF / "vocabulary-only"
UNKNOWN = "[the old edition does not know value battle_step=special_initiative]"


def _run(fmt: str) -> str:
    return run_fixture(FIXTURE.name, fmt)


def test_names_changed_only_through_the_vocabulary_are_listed_with_counts():
    result = _result(FIXTURE.name)
    assert result.changes == ()
    assert [(n.kind, n.name, n.status, n.changes, n.predicates, n.facts, n.behaviour.extent(),
             [(t.old, t.new, t.situations, [d.text for d in t.descriptions]) for t in n.behaviour.transitions])
            for n in result.names] == [
        ("decision", "battle.may_play_enhancement", "changed", (), ("before_resolution",), ("battle_step",),
         "broadened in 1 of 4 situations; narrowed in none",
         [(None, True, 1, ["whenever battle_step is special_initiative"])]),
        ("decision", "battle.may_retreat", "changed", (), (), ("phase",),
         "changed: new in 1 of 3 situations; narrowed in none; broadened in none",
         [(None, False, 1, ["whenever phase is end"])]),
        ("predicate", "before_resolution", "changed", (), (), ("battle_step",),
         "broadened in 1 of 4 situations; narrowed in none",
         [(None, True, 1, ["whenever battle_step is special_initiative"])]),
    ]
    # only the names that read a changed fact are compared
    assert [(b.kind, b.name) for b in result.behaviours] == [
        ("decision", "battle.may_play_enhancement"), ("decision", "battle.may_retreat"),
        ("predicate", "before_resolution")]


def test_the_text_lists_them_under_the_decisions_charged_to_the_vocabulary():
    lines = _run("text").splitlines()
    assert lines == [
        "rulebook diff v1 -> v2: no clause changed; answers changed by the vocabulary: 2 decisions, 1 predicate",
        "",
        "vocabulary:",
        "  fact changed: battle_step (values added: special_initiative; "
        "order: declare_attack < declare_block < special_initiative < resolve)",
        "  fact changed: phase (values added: end)",
        "",
        "decisions, predicates and constraints:",
        "  changed  decision battle.may_play_enhancement (battle): Whether an enhancement may be played now.",
        "    battle.may_play_enhancement broadened in 1 of 4 situations; narrowed in none",
        "      no such situation -> yes in 1 situation: whenever battle_step is special_initiative",
        "      when battle_step=special_initiative: old no such situation, new yes (battle#enhancements) "
        + UNKNOWN,
        "    uses changed predicate before_resolution",
        "    changed by the vocabulary: fact battle_step gained value special_initiative",
        "  changed  decision battle.may_retreat (battle): Whether the hero may retreat.",
        "    battle.may_retreat changed: new in 1 of 3 situations; narrowed in none; broadened in none",
        "      no such situation -> no in 1 situation: whenever phase is end",
        "      when phase=end: old no such situation, new no (battle#retreat) "
        "[the old edition does not know value phase=end]",
        "    changed by the vocabulary: fact phase gained value end",
        "  changed  predicate before_resolution (battle): The step comes before resolution.",
        "    defined in battle#before-resolution",
        "    before_resolution broadened in 1 of 4 situations; narrowed in none",
        "      no such situation -> yes in 1 situation: whenever battle_step is special_initiative",
        "      when battle_step=special_initiative: old no such situation, "
        "new yes (battle#before-resolution) " + UNKNOWN,
        "    changed by the vocabulary: fact battle_step gained value special_initiative",
    ]


def test_markdown_html_and_json_list_them():
    md = _run("markdown").splitlines()
    assert "- `battle.may_play_enhancement` (decision, changed): broadened in 1 of 4 situations; narrowed in none; " \
           "uses changed predicate `before_resolution`; changed by the vocabulary: fact `battle_step` " \
           "gained value `special_initiative`" in md
    assert "- `before_resolution` (predicate, changed): broadened in 1 of 4 situations; narrowed in none; " \
           "defined in `battle#before-resolution`; changed by the vocabulary: fact `battle_step` " \
           "gained value `special_initiative`" in md
    html = _run("html")
    assert '<article id="name-decision-battle.may_play_enhancement" class="name changed">' in html
    assert html.count("<p>changed by the vocabulary: fact <code>battle_step</code> gained value "
                      "<code>special_initiative</code></p>") == 2
    assert html.count("<p>changed by the vocabulary: fact <code>phase</code> gained value <code>end</code></p>") == 1
    data = json.loads(_run("json"))
    assert [(n["kind"], n["name"], n["status"], n["facts"], n["predicates"], n["changes"],
             n["behaviour"]["broadened"], n["behaviour"]["situations"]) for n in data["names"]] == [
        ("decision", "battle.may_play_enhancement", "changed", ["battle_step"], ["before_resolution"], [], 1, 4),
        ("decision", "battle.may_retreat", "changed", ["phase"], [], [], 0, 3),
        ("predicate", "before_resolution", "changed", ["battle_step"], [], [], 1, 4)]
    assert data["changes"] == []


def test_fail_on_rule_change_fails_when_the_vocabulary_changed_answers():
    """No clause changed, but answers did: CI's --fail-on rule-change must not let it through."""
    result = CliRunner().invoke(main, ["diff", "v1", "v2", "--no-cache", "--fail-on", "rule-change",
                                       "--rulebook", str(FIXTURE)], catch_exceptions=False)
    assert (result.exit_code, result.stderr) == (1, "")


def test_the_markdown_summary_lists_them_with_the_rule_changes():
    """A reviewer reads the summary first: answers changed with no clause changed are said there."""
    md = _run("markdown").splitlines()
    assert md[2] == "**0 rule changes**, 0 clarifications, 0 editorial; " \
                    "**answers changed by the vocabulary**: 2 decisions, 1 predicate"
    start = md.index("### Rule changes")
    assert md[start:start + 6] == [
        "### Rule changes",
        "",
        "- `battle.may_play_enhancement` (decision, changed by the vocabulary): "
        "broadened in 1 of 4 situations; narrowed in none",
        "- `battle.may_retreat` (decision, changed by the vocabulary): "
        "changed: new in 1 of 3 situations; narrowed in none; broadened in none",
        "- `before_resolution` (predicate, changed by the vocabulary): "
        "broadened in 1 of 4 situations; narrowed in none",
        "",
    ]


def test_a_diff_limited_to_some_terms_compares_only_their_names():
    """`terms=` (a term's history): names that other terms declare or define are not compared."""
    book = load_rulebook(FIXTURE)
    assert diff_editions(book, "v1", book, "v2", terms=["cure"]).names == ()
    assert [n.name for n in diff_editions(book, "v1", book, "v2", terms=["battle"]).names] == [
        "battle.may_play_enhancement", "battle.may_retreat", "before_resolution"]


def test_a_side_read_from_the_cache_lists_the_same(monkeypatch):
    """The terms that read the reordered fact are loaded from the cache's entry: same bytes as --no-cache."""
    from rulebook_compiler.diff.cached import CachedSource

    loaded = []
    read = CachedSource.term
    monkeypatch.setattr(CachedSource, "term", lambda self, tid: loaded.append(tid) or read(self, tid))
    runs, loads = [], []
    for _ in range(2):  # the first loads and checks in full and fills the cache; the second reads it
        runs.append(CliRunner().invoke(main, ["diff", "v1", "v2", "--format", "json", "--rulebook", str(FIXTURE)],
                                       catch_exceptions=False).stdout)
        loads.append(set(loaded))
        loaded.clear()
    assert runs == [_run("json")] * 2
    assert loads == [set(), {"battle"}]
