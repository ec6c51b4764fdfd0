"""The Markdown comment fits GitHub's limit (65,536 UTF-16 units) by construction, whatever the size.

Past its budget the comment leaves out details first (test_render_markdown.py); with every detail
left out, the summary's own lists (rule changes, decisions, vocabulary) show their first items and
then "and K more". Measured at 300 changed terms end to end (bench/gen.py) and at 3,000 on a
DiffResult made of ten renamed copies of the 300 (a diff of 3,000 generated terms takes minutes).
"""

from __future__ import annotations

import dataclasses
import importlib.util
import re
import sys
from pathlib import Path

import pytest

from rulebook_compiler.diff.render_markdown import (COMMENT_BUDGET, LISTS_CUT, MIN_BUDGET, fit, render, shares,
                                           utf16_length)

GEN = Path(__file__).resolve().parents[2] / "bench" / "gen.py"
MORE = re.compile(r"^- _… and (\d+) more \(the full report lists them\)_$")
GITHUB_LIMIT = 65_536


def _gen():
    spec = importlib.util.spec_from_file_location("bench_gen", GEN)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up here
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def three_hundred(tmp_path_factory):
    """Every one of 300 generated terms changed between two editions (85,521 units before the fix)."""
    from rulebook_compiler.build import load_rulebook
    from rulebook_compiler.diff.engine import diff_editions

    root = _gen().generate(300, tmp_path_factory.mktemp("gen") / "book", editions=2, changed=1.0, seed=1)
    book = load_rulebook(root)
    return diff_editions(book, "1.0.0", book, "2.0.0")


def copies(result, n: int, prefix: str = "copy"):
    """``result`` with its changes and names repeated ``n`` times, each copy's terms and names renamed."""
    def renamed(k: int, text: str | None) -> str | None:
        return None if text is None else f"{prefix}{k}-{text}"

    changes = tuple(dataclasses.replace(c, term=renamed(k, c.term), old_term=renamed(k, c.old_term),
                                        new_term=renamed(k, c.new_term))
                    for k in range(n) for c in result.changes)
    names = tuple(dataclasses.replace(m, name=renamed(k, m.name)) for k in range(n) for m in result.names)
    return dataclasses.replace(result, changes=changes, names=names)


def sections(out: str) -> dict[str, list[str]]:
    """The comment's lines under each "### " heading, up to the next blank line after its list."""
    found: dict[str, list[str]] = {}
    lines = out.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("### "):
            body = lines[i + 2:]
            found[line[4:]] = body[:body.index("")] if "" in body else body
    return found


def listed(items: list[str], prefix: str = "- ") -> tuple[int, int]:
    """(items shown at the top level of a list, the K of its "and K more" line or 0)."""
    more = [int(m.group(1)) for m in map(MORE.match, items) if m]
    return sum(line.startswith(prefix) and not MORE.match(line) for line in items), (more[0] if more else 0)


def test_300_changed_terms_fit_a_comment_with_every_rule_change_accounted_for(three_hundred):
    result = three_hundred
    terms = len({c.term for c in result.changes})
    assert terms == 300
    assert utf16_length(render(result, budget=10 ** 9)) > GITHUB_LIMIT  # it needs shortening
    out = render(result)
    assert utf16_length(out) <= COMMENT_BUDGET
    rules = sum(c.level == "rule-change" for c in result.changes)
    shown, more = listed(sections(out)["Rule changes"])
    assert shown + more == rules
    # Each term is a <details> block or counted in the last line: none goes unmentioned.
    blocks = sum(line.startswith("<details><summary>") for line in out.splitlines())
    hidden = int(re.fullmatch(r"_Left out: the details of (\d+) terms\._", out.splitlines()[-1]).group(1))
    assert blocks + hidden == terms


def test_3000_changed_terms_fit_a_comment_and_each_list_says_how_many_more(three_hundred):
    result = copies(three_hundred, 10)
    assert len({c.term for c in result.changes}) == 3000
    out = render(result)
    assert utf16_length(out) <= COMMENT_BUDGET
    rules = sum(c.level == "rule-change" for c in result.changes)
    assert (f"_Shortened to fit a GitHub comment: left out the redlines of editorial changes, the redlines of "
            "clarifications, the details of editorial changes, the details of clarifications, the situation tables "
            f"of rule changes, the details of {rules} of {rules} rule changes, {LISTS_CUT}. The full report: "
            "`rulebook diff 1.0.0 2.0.0 --format html` (the example workflow uploads it as the rulebook-diff "
            "artifact)._") in out.splitlines()
    assert LISTS_CUT == ("the items of the summary's lists past the first ones that fit "
                         "(each list says how many more)")
    found = sections(out)
    shown, more = listed(found["Rule changes"])
    assert (shown + more, more > 0) == (rules, True)
    names_shown, names_more = listed(found["Decisions, predicates and constraints"])
    assert (names_shown + names_more, names_more > 0) == (len(result.names), True)
    # No details are left, and the last line counts every term.
    assert "<details>" not in out
    assert out.splitlines()[-1] == "_Left out: the details of 3000 terms._"


@pytest.mark.parametrize("budget", [MIN_BUDGET, 20_000, COMMENT_BUDGET])
def test_any_budget_from_the_minimum_up_is_kept(three_hundred, budget):
    assert utf16_length(render(copies(three_hundred, 10), budget)) <= budget


def test_the_budget_counts_utf16_units_not_characters(three_hundred):
    """A playing card (U+1F0CF) is one character in Python and two UTF-16 units on GitHub."""
    result = copies(three_hundred, 10, prefix="\U0001F0CF" * 8)
    out = render(result)
    assert len(out) < utf16_length(out) <= COMMENT_BUDGET
    assert utf16_length(out) > COMMENT_BUDGET - 2_000  # filled up to the budget as GitHub counts


def test_hostile_side_names_still_fit_the_minimum_budget(three_hundred):
    # What nothing shortens holds the side names; each is clipped, then escaped (up to tenfold).
    evil = "\U000e0001@#" * 5_000
    result = copies(three_hundred, 10)
    result = dataclasses.replace(result, old=dataclasses.replace(result.old, spec=evil, edition="x"),
                                 new=dataclasses.replace(result.new, spec="git:" + evil, edition="y"))
    out = render(result, MIN_BUDGET)
    assert utf16_length(out) <= MIN_BUDGET
    assert out.splitlines()[0].endswith("…")


def test_shares_give_small_parts_what_they_need_and_split_the_rest():
    assert shares([10, 100, 100], 150) == [10, 70, 70]
    assert shares([100, 10, 100], 1000) == [100, 10, 100]
    assert shares([5, 50], -3) == [0, 0]
    assert shares([], 100) == []


def test_fit_keeps_a_short_part_whole_and_gives_the_rest_to_a_long_one():
    texts = fit([lambda b: "x" * 10, lambda b: "y" * min(b, 10 ** 6)], budget=20_000)
    assert texts == ["x" * 10, "y" * 19_989]
    assert utf16_length("\n".join(texts)) == 20_000


def test_fit_refuses_a_budget_that_cannot_hold_each_part_at_its_minimum():
    with pytest.raises(ValueError, match=r"^a budget of 15000 holds no 2 parts of at least 8000 each$"):
        fit([lambda b: "", lambda b: ""], budget=15_000)


def test_fit_renders_several_diffs_into_one_comment(three_hundred):
    big = copies(three_hundred, 10)
    texts = fit([lambda b: render(three_hundred, b), lambda b: render(big, b)], COMMENT_BUDGET, "\n---\n")
    assert utf16_length("\n---\n".join(texts)) <= COMMENT_BUDGET
    assert [t.splitlines()[0] for t in texts] == ["## Rulebook changes: 1.0.0 → 2.0.0"] * 2
