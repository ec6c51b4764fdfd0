"""Logic checks where every situation's rules agree: the shortcut must not hide problems."""

from pathlib import Path

import pytest

from rulebook_compiler.build import load_rulebook
from rulebook_compiler.diagnostics import RulebookError
from rulebook_compiler.logic import logic_problems


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


def test_constraints_tying_a_fact_to_many_others_are_checked_whatever_the_step_budget(
        tmp_path, write_rulebook, monkeypatch):
    # the step budget bounded enumeration; the symbolic check needs none, and reads none
    root = _tied(tmp_path, write_rulebook, 40)
    monkeypatch.setenv("RULEBOOK_MAX_CHECK_STEPS", "1")
    assert logic_problems(load_rulebook(root)) == []


def test_a_tied_fact_that_must_be_false_leaves_a_situation_without_answer(tmp_path, write_rulebook):
    # with a rule for a only, 'not a' has no answer; the constraints allow it (x0..x39 free)
    root = _tied(tmp_path, write_rulebook, 40)
    text = (root / "editions" / "e1" / "t.yaml").read_text()
    (root / "editions" / "e1" / "t.yaml").write_text(
        text.replace("      - {id: y, text: Y., rules: [{decision: t.q, value: false, when: {not: a}}]}\n", ""))
    assert [p.message for p in logic_problems(load_rulebook(root))] == [
        "decision 't.q' has no answer when a=false"]


def test_every_conflict_is_reported_in_the_order_of_its_first_situation(tmp_path, write_rulebook):
    root = write_rulebook(tmp_path, (
        "      - {id: x, text: X., rules: [{decision: t.q, requires: {not: a}}]}\n"
        "      - {id: y, text: Y., rules: [{decision: t.q, forbids: {not: b}}]}\n"
        "      - {id: z, text: Z., rules: [{decision: t.q, permits: {all: [a, b]}}]}\n"))
    assert [p.message for p in logic_problems(load_rulebook(root))] == [
        "decision 't.q' is in conflict when a=false, b=false: t#x says true; t#y says false, "
        "and no rule is an exception to the other",
        "decision 't.q' is in conflict when a=true, b=true: t#x says false; t#z says true, "
        "and no rule is an exception to the other"]


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


def test_past_the_limit_of_conflicts_listed_the_rest_are_counted(tmp_path, write_rulebook, monkeypatch):
    import rulebook_compiler.logic

    monkeypatch.setattr(rulebook_compiler.logic, "MAX_CONFLICTS_SHOWN", 1)
    root = write_rulebook(tmp_path, (
        "      - {id: x, text: X., rules: [{decision: t.q, requires: {not: a}}]}\n"
        "      - {id: y, text: Y., rules: [{decision: t.q, forbids: {not: b}}]}\n"
        "      - {id: z, text: Z., rules: [{decision: t.q, permits: {all: [a, b]}}]}\n"))
    assert [(p.location.line, p.message, p.hint) for p in logic_problems(load_rulebook(root))] == [
        (9, "decision 't.q' is in conflict when a=false, b=false: t#x says true; t#y says false, "
            "and no rule is an exception to the other",
         "mark one rule 'exception_to' the other's clause, or narrow a 'when'"),
        (4, "decision 't.q' is in conflict in 2 situations in all, with more sets of rules in conflict than the 1 shown",
         "resolve those shown and check again; the limit is MAX_CONFLICTS_SHOWN in rulebook_compiler/logic.py "
         "(docs/format.md, Limits)")]
