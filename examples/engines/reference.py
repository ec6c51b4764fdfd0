"""The reference engine: the rulebook's own evaluator, as an engine any suite can run.

    rulebook conformance run --edition 2012 --engine examples.engines.reference:engine

``engine`` is a factory: the runner passes the edition of the suite and the
rulebook folder it was generated from.
"""

from __future__ import annotations

from rulebook_compiler.build import load_rulebook
from rulebook_compiler.conformance.reference import ReferenceEngine


def engine(edition: str, rulebook: str = "rulebook") -> ReferenceEngine:
    """The evaluator of ``edition`` of the rulebook in folder ``rulebook``."""
    book = load_rulebook(rulebook)
    return ReferenceEngine(book, book.edition_by_id[edition])
