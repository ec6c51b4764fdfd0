"""What the diff reads of one edition, whether loaded whole or taken from the cache.

The diff needs, of each side: every term's content hash (to skip the equal
ones), the terms that differ, who uses which predicate (impact), the names of
all predicates (drift), and, for the predicates and decisions whose meaning it
compares, an edition holding every term their evaluation reads.
``FullSource`` answers from an edition in memory; ``rulebook_compiler.diff.cached``
answers from the cache's index and loads only the terms asked for.
"""

from __future__ import annotations

from typing import Iterable, Mapping, Protocol

from ..model import Edition, Term
from .impact import Uses

Name = tuple[str, str]  # ("predicate" | "decision", name)


class EditionSource(Protocol):
    """One side of a diff (see the module docstring)."""

    edition: Edition  # its id, title, date and status; its terms may be a subset

    def digests(self) -> Mapping[str, str]:
        """Term id -> content hash, for every term of the edition."""

    def term(self, term_id: str) -> Term:
        """One term of the edition."""

    def predicate_names(self) -> Iterable[str]:
        """Every predicate the edition defines."""

    def uses(self) -> Uses:
        """Who uses which predicate, in the whole edition."""

    def exists(self, name: Name) -> bool:
        """Whether the edition defines this predicate or declares this decision."""

    def evaluable(self, names: Iterable[Name]) -> Edition:
        """An edition in which these names evaluate as in the whole one."""


class FullSource:
    """A side whose whole edition is in memory."""

    def __init__(self, edition: Edition):
        self.edition = edition
        self._uses: Uses | None = None

    def digests(self) -> Mapping[str, str]:
        return {t.id: t.digest for t in self.edition.terms}

    def term(self, term_id: str) -> Term:
        return self.edition.term_by_id[term_id]

    def predicate_names(self) -> Iterable[str]:
        return self.edition.predicates.keys()

    def uses(self) -> Uses:
        if self._uses is None:
            self._uses = Uses(self.edition)
        return self._uses

    def exists(self, name: Name) -> bool:
        kind, key = name
        return key in (self.edition.predicates if kind == "predicate" else self.edition.decisions)

    def evaluable(self, names: Iterable[Name]) -> Edition:
        return self.edition
