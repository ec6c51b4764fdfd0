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
