"""The "What changed" pages take the diff with its conformance impact, whose cost follows the change.

Working out which cases of the old edition's suite flip generates that suite's
cases; the page shows them (tests/site/test_changes_page.py). Generating them
for every decision of the edition made a 2,000-term build run over 13 minutes:
the diff generates them only for the decisions whose answers changed or that
were withdrawn.
"""

from __future__ import annotations

from pathlib import Path

from rulebook_compiler.build import load_rulebook
from rulebook_compiler.site.changes import provider

# v2 broadens cure.may_target and withdraws cure.in_battle; cure.goes_home is unchanged.
FLIPS = Path(__file__).resolve().parents[1] / "fixtures" / "diff" / "conformance-flips"


def test_the_changes_pages_diff_generates_the_old_suite_of_the_changed_decisions_only(monkeypatch):
    from rulebook_compiler.diff import conformance_impact

    asked = []
    generate = conformance_impact.decision_cases

    def recorded(book, edition, name):
        asked.append((edition.id, name))
        return generate(book, edition, name)

    monkeypatch.setattr(conformance_impact, "decision_cases", recorded)
    book = load_rulebook(FLIPS)
    report = provider(book)(book.editions[0], book.editions[1])
    assert sorted(asked) == [("v1", "cure.in_battle"), ("v1", "cure.may_target")]
    assert [(c.term, c.clause, c.conformance and c.conformance.flipped) for c in report.changes] == [
        ("cure", None, None), ("cure", "targets", 1), ("cure", "in-battle", 1)]
