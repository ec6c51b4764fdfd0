"""The "What changed" pages take the diff without the conformance impact, which they do not show.

Working out which cases of the old edition's suite flip generates that suite's
cases for every changed decision: minutes at 2,000 terms, for nothing on the page.
"""

from __future__ import annotations

from pathlib import Path

from compiler.build import load_rulebook
from compiler.site.changes import provider

MINIMAL = Path(__file__).resolve().parents[1] / "fixtures" / "minimal"


def test_the_changes_pages_diff_does_not_work_out_conformance_flips(monkeypatch):
    from compiler.diff import conformance_impact

    def refused(*args, **kwargs):
        raise AssertionError("the site's diff worked out conformance flips")

    monkeypatch.setattr(conformance_impact, "decision_flips", refused)
    book = load_rulebook(MINIMAL)
    report = provider(book)(book.editions[0], book.editions[1])
    assert [(c.term, c.kind) for c in report.changes] == [("cure", "semantic"), ("cure", "added")]
