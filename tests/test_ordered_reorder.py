"""An edition may restate an ordered fact's order (``order`` in _vocabulary.yaml's ``change``).

tests/fixtures/ordered-reordered: r1 orders battle_step declare_attack < declare_block < resolve
and says enhancements are played {before: {battle_step: resolve}}; r2 inserts
special_initiative before resolve. The unchanged clause reads in each edition's own order.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rulebook_compiler.build import check as check_folder, load_rulebook
from rulebook_compiler.conformance.cases import build_suite
from rulebook_compiler.evaluate import DecisionModel

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "ordered-reordered"
DECISION = "battle.may_play_enhancement"


def test_each_edition_reads_the_comparison_in_its_own_order():
    book = load_rulebook(FIXTURE)
    assert [e.vocabulary.orders["battle_step"] for e in book.editions] == [
        ("declare_attack", "declare_block", "resolve"),
        ("declare_attack", "declare_block", "special_initiative", "resolve")]
    for edition, admitted in (("r1", ["declare_attack", "declare_block"]),
                              ("r2", ["declare_attack", "declare_block", "special_initiative"])):
        e = book.edition(edition)
        model = DecisionModel(e.vocabulary, e, DECISION)
        assert [s["battle_step"] for s in model.states() if model.outcome(s) is True] == admitted
        suite = build_suite(book, e, max_exhaustive=4096)
        assert [(c.facts_dict["battle_step"], c.expected) for c in suite.cases] == [
            (v, v in admitted) for v in e.vocabulary.orders["battle_step"]]


def test_the_diff_compares_each_side_in_its_own_order(tmp_path, monkeypatch):
    """A value the old order lacks is not admitted by the old side; the values both know agree."""
    from rulebook_compiler.diff.behaviour import Side, compare, merged_vocabulary

    book = load_rulebook(FIXTURE)
    old, new = book.edition("r1"), book.edition("r2")
    merged = merged_vocabulary(old.vocabulary, new.vocabulary)
    behaviour = compare("decision", DECISION, Side(book, old, merged, old.vocabulary),
                        Side(book, new, merged, new.vocabulary), merged)
    assert behaviour.direction == "broadened"
    assert [(dict(w.facts), w.old, w.new) for w in behaviour.witnesses] == [
        ({"battle_step": "special_initiative"}, False, True)]


def _variant(tmp_path: Path, overlay: str) -> Path:
    root = tmp_path / "rb"
    shutil.copytree(FIXTURE, root)
    (root / "editions" / "r2" / "_vocabulary.yaml").write_text(overlay)
    return root


@pytest.mark.parametrize("overlay, expected", [
    ("facts:\n  change:\n    - name: battle_step\n      order: [declare_attack, resolve, declare_block, resolve]\n",
     ["editions/r2/_vocabulary.yaml:4:14: error: the order of fact 'battle_step' must list each of its values "
      "once: resolve twice\n"
      "  hint: its values: declare_attack, declare_block, resolve"]),
    ("facts:\n  change:\n    - name: battle_step\n      add_values: [special_initiative]\n"
     "      order: [declare_attack, declare_block, special_initiatve, resolve]\n",
     ["editions/r2/_vocabulary.yaml:5:14: error: the order of fact 'battle_step' must list each of its values "
      "once: special_initiatve is not one of them, special_initiative missing\n"
      "  hint: its values: declare_attack, declare_block, resolve, special_initiative"]),
    ("facts:\n  add:\n    - {name: phase, type: enum, values: [a, b], meaning: P.}\n"
     "  change:\n    - name: battle_step\n      order: [resolve, declare_block, declare_attack]\n",
     []),
])
def test_a_restated_order_must_be_the_facts_values(tmp_path, monkeypatch, overlay, expected):
    root = _variant(tmp_path, overlay)
    monkeypatch.chdir(root)
    _, problems = check_folder(".")
    assert [str(p) for p in problems] == expected


def test_only_an_ordered_fact_has_an_order_to_restate(tmp_path, monkeypatch):
    root = _variant(tmp_path, "facts:\n  add:\n    - {name: phase, type: enum, values: [a, b], meaning: P.}\n")
    (root / "editions" / "r3").mkdir()
    (root / "rulebook.yaml").write_text((root / "rulebook.yaml").read_text()
                                        + "  - {id: r3, title: Three, date: null, status: draft}\n")
    (root / "editions" / "r3" / "_vocabulary.yaml").write_text(
        "facts:\n  change:\n    - name: phase\n      order: [b, a]\n")
    monkeypatch.chdir(root)
    _, problems = check_folder(".")
    assert [str(p) for p in problems] == [
        "editions/r3/_vocabulary.yaml:4:14: error: fact 'phase' is not ordered; it has no order to restate\n"
        "  hint: declare it 'ordered: true' where it is added, or drop 'order'"]
