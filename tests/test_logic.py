"""Logic checks where every situation's rules agree: the shortcut must not hide problems."""

from pathlib import Path

import pytest

from compiler.build import load_rulebook
from compiler.diagnostics import RulebookError
from compiler.logic import logic_problems


def messages(root: Path) -> list[str]:
    return [p.message for p in logic_problems(load_rulebook(root))]


def test_rules_that_override_each_other_are_refused_by_the_checker(tmp_path, write_rulebook):
    # Each of x and y is an exception to the other: a ring of overrides has no reading
    # (the evaluator would let each override itself), so the checker refuses it.
    root = write_rulebook(tmp_path, (
        "      - {id: z, text: Z., rules: [{decision: t.q, value: true, when: {not: a}}]}\n"
        "      - {id: x, text: X., rules: [{decision: t.q, forbids: a, exception_to: ['t#y']}]}\n"
        "      - {id: y, text: Y., rules: [{decision: t.q, forbids: a, exception_to: ['t#x']}]}\n"))
    with pytest.raises(RulebookError) as err:
        load_rulebook(root)
    assert [d.message for d in err.value.diagnostics] == [
        "exceptions for 't.q' form a cycle: t#x -> t#y -> t#x"]


def test_agreeing_rules_without_cycles_are_fine(tmp_path, write_rulebook):
    root = write_rulebook(tmp_path, (
        "      - {id: x, text: X., rules: [{decision: t.q, requires: {not: a}}]}\n"
        "      - {id: y, text: Y., rules: [{decision: t.q, forbids: a}]}\n"))
    assert messages(root) == []


def test_disagreeing_rules_are_still_a_conflict(tmp_path, write_rulebook):
    root = write_rulebook(tmp_path, (
        "      - {id: x, text: X., rules: [{decision: t.q, requires: a}]}\n"
        "      - {id: y, text: Y., rules: [{decision: t.q, forbids: b}]}\n"))
    assert messages(root) == [
        "decision 't.q' is in conflict when a=true, b=true: t#x says true; t#y says false, "
        "and no rule is an exception to the other"]


def _tied(tmp_path, write_rulebook, ties: int):
    """t.q over fact a, which constraints tie to c and to each of the others: a needs them all true."""
    extra = "".join(f"  - {{name: x{i}, type: bool, meaning: X.}}\n" for i in range(ties))
    constraints = "[" + ", ".join(f"{{id: c{i}, text: C., never: {{all: [a, {{not: x{i}}}]}}}}"
                                  for i in range(ties)) + "]"
    root = write_rulebook(tmp_path, (
        "      - {id: x, text: X., rules: [{decision: t.q, value: true, when: a}]}\n"
        "      - {id: y, text: Y., rules: [{decision: t.q, value: false, when: {not: a}}]}\n"),
        constraints=constraints)
    vocab = root / "vocabulary.yaml"
    vocab.write_text(vocab.read_text().replace("constraints:", extra + "constraints:"))
    return root


def test_a_search_over_the_step_budget_is_reported_not_run(tmp_path, write_rulebook, monkeypatch):
    # constraints tying a decision's fact to 20-30 others once made check run for minutes
    root = _tied(tmp_path, write_rulebook, 12)
    monkeypatch.setenv("RULEBOOK_MAX_CHECK_STEPS", "5_000")
    problems = logic_problems(load_rulebook(root))
    assert [(p.location.line, p.location.col, p.severity, p.code, p.message, p.hint) for p in problems] == [(
        4, 5, "warning", "logic-not-checked",
        "decision 't.q' is too large to check: its 1 facts and the 12 its constraints tie to them take more "
        "than 5,000 condition steps to search (2 situations); not checked for dead rules, and for conflicts "
        "and empty situations beyond those reported",
        "raise the limit with the environment variable RULEBOOK_MAX_CHECK_STEPS (it bounds the time of "
        "check), or make the decision and its constraints depend on fewer facts")]


def test_the_same_search_within_the_budget_is_checked(tmp_path, write_rulebook, monkeypatch):
    root = _tied(tmp_path, write_rulebook, 12)
    monkeypatch.setenv("RULEBOOK_MAX_CHECK_STEPS", "1000000")
    assert logic_problems(load_rulebook(root)) == []


def test_a_conflict_found_before_the_budget_ran_out_is_still_reported(tmp_path, write_rulebook, monkeypatch):
    root = write_rulebook(tmp_path, (
        "      - {id: x, text: X., rules: [{decision: t.q, requires: {not: a}}]}\n"
        "      - {id: y, text: Y., rules: [{decision: t.q, forbids: {not: b}}]}\n"))
    # each situation costs 4 steps (two 'not's and two names); the conflict is in the first one
    monkeypatch.setenv("RULEBOOK_MAX_CHECK_STEPS", "7")
    assert [(p.severity, p.message.split(":")[0]) for p in logic_problems(load_rulebook(root))] == [
        ("error", "decision 't.q' is in conflict when a=false, b=false"),
        ("warning", "decision 't.q' is too large to check")]
    monkeypatch.setenv("RULEBOOK_MAX_CHECK_STEPS", str(4 * 4))
    assert [(p.severity, p.message.split(":")[0]) for p in logic_problems(load_rulebook(root))] == [
        ("error", "decision 't.q' is in conflict when a=false, b=false")]


@pytest.mark.parametrize("value", ["0", "-5", "many", "1e6"])
def test_a_bad_step_budget_is_an_error(tmp_path, write_rulebook, monkeypatch, value):
    root = write_rulebook(tmp_path, "      - {id: x, text: X., rules: [{decision: t.q, value: true}]}\n")
    monkeypatch.setenv("RULEBOOK_MAX_CHECK_STEPS", value)
    assert [str(p) for p in logic_problems(load_rulebook(root))] == [
        f"RULEBOOK_MAX_CHECK_STEPS: error: RULEBOOK_MAX_CHECK_STEPS must be a positive whole number, not {value!r}\n"
        "  hint: unset it for the default, 10,000,000"]


def test_an_edition_whose_predicates_changed_is_checked_again(tmp_path, write_rulebook):
    # Term t is the same object in e1 and e2 (e2 does not change it); the predicate its
    # rule uses is redefined by term u in e2, so that the rule can never apply there.
    # The per-edition shortcut must not take e2's decision for e1's.
    root = write_rulebook(tmp_path, (
        "      - {id: x, text: X., rules: [{decision: t.q, value: false}]}\n"
        "      - {id: y, text: Y., rules: [{decision: t.q, value: true, when: p, exception_to: ['t#x']}]}\n"))
    (root / "rulebook.yaml").write_text(
        "title: T\npublisher: P\neditions:\n  - {id: e1, title: E, date: null, status: draft}\n"
        "  - {id: e2, title: F, date: null, status: draft}\n")
    (root / "editions" / "e2").mkdir()
    u = ("id: u\nname: U\nsections:\n  - key: s\n    kind: definition\n    clauses:\n"
         "      - {{id: d, text: D., defines: {{name: p, as: {as_}}}}}\n")
    (root / "editions" / "e1" / "u.yaml").write_text(u.format(as_="a"))
    (root / "editions" / "e2" / "u.yaml").write_text(u.format(as_="{all: [a, {not: a}]}"))
    book = load_rulebook(root)
    assert book.edition("e1").term_by_id["t"] is book.edition("e2").term_by_id["t"]
    assert [(p.location.line, p.message) for p in logic_problems(book)] == [
        (10, "rule of t#y for 't.q' can never apply in an allowed situation (dead rule)")]


def test_a_search_over_the_budget_without_constraints_names_only_the_decisions_facts(
        tmp_path, write_rulebook, monkeypatch):
    root = write_rulebook(tmp_path, (
        "      - {id: x, text: X., rules: [{decision: t.q, value: true, when: {all: [a, b]}}]}\n"
        "      - {id: y, text: Y., rules: [{decision: t.q, value: false, when: {not: {all: [a, b]}}}]}\n"))
    monkeypatch.setenv("RULEBOOK_MAX_CHECK_STEPS", "3")
    assert [(p.severity, p.message) for p in logic_problems(load_rulebook(root))] == [(
        "warning",
        "decision 't.q' is too large to check: its 2 facts take more than 3 condition steps to search "
        "(4 situations); not checked for dead rules, and for conflicts and empty situations beyond those reported")]
