"""A rule change that breaks conformance: cases of the previous edition's suite that flip (issue 11, point 5).

Fixture tests/fixtures/diff/conformance-flips: v2 broadens cure.may_target to
paralyzed characters and withdraws cure.in_battle; cure.goes_home is the same.
v1's suite (rulebook_compiler.conformance.cases) has two cases of cure.may_target, one of
cure.in_battle and two of cure.goes_home.
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from rulebook_compiler.build import load_rulebook
from rulebook_compiler.cli import main
from rulebook_compiler.diff import conformance_impact
from rulebook_compiler.diff.engine import diff_editions

DIFF = Path(__file__).resolve().parents[1] / "fixtures" / "diff"
FLIPS = DIFF / "conformance-flips"

NOT_POISONED = {"id": "cure.may_target-c624ac2d96b4", "name": "cure.may_target[-]", "expected": False,
                "now": ["yes"]}
IN_BATTLE = {"id": "cure.in_battle-630062f6388b", "name": "cure.in_battle[-]", "expected": True,
             "now": ["not defined"]}


def _result(fixture: Path = FLIPS):
    book = load_rulebook(fixture)
    return diff_editions(book, "v1", book, "v2")


def _json(conformance):
    """A change's (or a name's) flipped cases as the JSON writes them."""
    return None if conformance is None else conformance.as_json()


def _run(*args: str, fixture: Path = FLIPS):
    result = CliRunner().invoke(main, ["diff", "v1", "v2", "--rulebook", str(fixture), *args],
                                catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def test_each_change_says_how_many_cases_of_the_previous_suite_flip():
    changes = {c.old_clause or c.new_clause: c for c in _result().changes}
    assert _json(changes["targets"].conformance) == {"suite": "v1", "of": 2, "flipped": 1, "examples": [NOT_POISONED]}
    assert _json(changes["in-battle"].conformance) == {"suite": "v1", "of": 1, "flipped": 1, "examples": [IN_BATTLE]}
    assert changes[None].conformance is None  # the heading decides no case


def test_each_decision_says_how_many_of_its_cases_flip():
    assert [(n.name, n.status, _json(n.conformance)) for n in _result().names] == [
        ("cure.in_battle", "removed", {"suite": "v1", "of": 1, "flipped": 1, "examples": [IN_BATTLE]}),
        ("cure.may_target", "changed", {"suite": "v1", "of": 2, "flipped": 1, "examples": [NOT_POISONED]})]


def test_only_the_decisions_whose_answers_changed_are_evaluated(monkeypatch):
    asked = []
    real = conformance_impact.decision_cases

    def recording(book, edition, name, *args):
        asked.append(name)
        return real(book, edition, name, *args)

    monkeypatch.setattr(conformance_impact, "decision_cases", recording)
    _result()
    assert sorted(asked) == ["cure.in_battle", "cure.may_target"]  # not cure.goes_home


def test_the_text_format_flags_it():
    code, out, err = _run("--no-cache")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines.count("    breaks conformance: 1 of 2 cases of v1's suite flips: "
                       "cure.may_target-c624ac2d96b4 (expected no, now yes)") == 2  # the clause and the decision
    assert lines.count("    breaks conformance: 1 of 1 case of v1's suite flips: "
                       "cure.in_battle-630062f6388b (expected yes, now not defined)") == 2


def test_json_and_markdown_carry_it():
    code, out, err = _run("--no-cache", "--format", "json")
    data = json.loads(out)
    assert [(c["old_clause"], c["conformance"]) for c in data["changes"]] == [
        (None, None), ("targets", {"suite": "v1", "of": 2, "flipped": 1, "examples": [NOT_POISONED]}),
        ("in-battle", {"suite": "v1", "of": 1, "flipped": 1, "examples": [IN_BATTLE]})]
    code, out, err = _run("--no-cache", "--format", "markdown")
    assert "- `cure#targets` (semantic): `cure.may_target` broadened in 1 of 4 situations; narrowed in none; " \
           "**breaks conformance**: 1 of 2 cases of v1's suite flips" in out.splitlines()


def test_fail_on_breaks_conformance():
    assert _run("--no-cache", "--fail-on", "breaks-conformance")[0] == 1
    # a rule change (a decision added) that flips no case of the previous suite
    assert _run("--no-cache", "--fail-on", "rule-change", fixture=DIFF / "rules-for-a-new-question")[0] == 1
    assert _run("--no-cache", "--fail-on", "breaks-conformance", fixture=DIFF / "rules-for-a-new-question")[0] == 0


def test_the_cached_run_finds_the_same_flips(tmp_path, monkeypatch):
    """A diff read from the cache builds the old suite from the terms it loads, with the same case ids."""
    monkeypatch.setenv("RULEBOOK_CACHE_DIR", str(tmp_path))
    cold = _run("--format", "json")
    warm = _run("--format", "json")
    assert cold == warm == _run("--no-cache", "--format", "json")


def test_a_procedure_s_next_step_cases_flip_where_its_steps_changed():
    """tests/fixtures/diff/steps-in-words: turn.order a, b, c, d becomes a, x, c, b, y, d, z; only
    the first step still follows the start."""
    changes = {c.new_clause: c for c in _result(DIFF / "steps-in-words").changes}
    assert _json(changes["order"].conformance) == {"suite": "v1", "of": 5, "flipped": 4, "examples": [
        {"id": "turn.order.next_step-230ab4d5bc4d", "name": "turn.order.next_step[current_step=turn#a]",
         "expected": "turn#b", "now": ["turn#x"]},
        {"id": "turn.order.next_step-6d201340a7e9", "name": "turn.order.next_step[current_step=turn#b]",
         "expected": "turn#c", "now": ["turn#y"]}]}


def test_the_old_suite_is_the_generator_s_own_though_made_from_the_terms_each_decision_reads():
    """OldSuite hands the generator only the terms a decision reads (its mutants of predicates scan
    every predicate of the edition for every decision); the cases are those of the whole edition."""
    from rulebook_compiler.conformance.cases import decision_cases

    for root, edition in ((FLIPS, "v1"), (DIFF.parent / "ordered", "o2"), (DIFF / "per-clause", "v1")):
        book = load_rulebook(root)
        whole = book.edition_by_id[edition]
        suite = conformance_impact.OldSuite(book, whole)
        assert {n: suite.cases(n) for n in whole.decisions} == \
            {n: decision_cases(book, whole, n).cases for n in whole.decisions}


def test_the_comment_names_the_flipped_cases_exact_to_copy():
    """A case id in the comment is a code span (found as written by a search), not prose broken by
    word joiners where it looks like a commit hash."""
    lines = _run("--no-cache", "--format", "markdown")[1].splitlines()
    assert [line for line in lines if line.startswith("**Breaks conformance**")] == [
        "**Breaks conformance**: 1 of 2 cases of v1's suite flips: `cure.may_target-c624ac2d96b4` (expected no, now yes)",
        "**Breaks conformance**: 1 of 1 case of v1's suite flips: `cure.in_battle-630062f6388b` "
        "(expected yes, now not defined)"]
