"""One side of a diff read from the cache (``rulebook_compiler.cache``): terms loaded only when needed.

Content hashes of every term come from the cache's term list, so the terms
that did not change are never loaded. Who uses which name comes from the
cache's rows. For the predicates and decisions whose meaning is compared, the
terms their evaluation reads are found from those rows first (the terms that
define or declare each name, the terms with rules for each decision, and so
on through every predicate their conditions use) and only those are loaded.
"""

from __future__ import annotations

import dataclasses
from typing import Iterable, Mapping

from ..cache import CacheError, CachedBook
from ..model import Edition, Term
from .impact import Use, Uses
from .source import Name


class CachedSource:
    """An edition of a cached rulebook (see ``rulebook_compiler.diff.source.EditionSource``)."""

    def __init__(self, cached: CachedBook, edition: Edition):
        self.cached = cached
        self.edition = edition  # its terms are not loaded
        self._rows = {tid: (digest, file, blob) for tid, digest, file, blob in cached.term_rows(edition.id)}
        self._predicates: set[str] | None = None
        self._uses: Uses | None = None

    def digests(self) -> Mapping[str, str]:
        return {tid: row[0] for tid, row in self._rows.items()}

    def term(self, term_id: str) -> Term:
        digest, file, blob = self._rows[term_id]
        term = self.cached.load_term(file, blob)
        if term.id != term_id or term.digest != digest:
            self.cached.cache.forget_blob(blob)
            raise CacheError(f"the entry of term {term_id} holds another term")
        return term

    def predicate_names(self) -> Iterable[str]:
        if self._predicates is None:
            self._predicates = {name for (name,) in self._select("SELECT n.name FROM names n JOIN terms t ON "
                                                                 "t.blob = n.blob", "n.kind = 'defines'", ())}
        return self._predicates

    def uses(self) -> Uses:
        if self._uses is None:
            self._uses = _CachedUses(self)
        return self._uses

    def exists(self, name: Name) -> bool:
        return bool(self._holders("defines" if name[0] == "predicate" else "declares", name[1]))

    def evaluable(self, names: Iterable[Name]) -> Edition:
        """The edition with only the terms that the evaluation of these names reads."""
        predicates = set(self.predicate_names())
        needed: set[str] = set()
        seen = set(names)
        stack = list(seen)
        while stack:
            kind, name = stack.pop()
            if kind == "predicate":
                needed |= self._holders("defines", name)
            else:
                needed |= self._holders("declares", name) | self._holders("rules", name)
            for (used,) in self._select("SELECT DISTINCT u.name FROM uses u CROSS JOIN terms t ON t.blob = u.blob",
                                        "u.uname = ? AND u.ukind = ?", (name, kind)):
                key = ("predicate", used)
                if used in predicates and key not in seen:
                    seen.add(key)
                    stack.append(key)
        return dataclasses.replace(self.edition, terms=tuple(self.term(tid) for tid in sorted(needed)))

    # -- rows ----------------------------------------------------------------------------------

    def _holders(self, kind: str, name: str) -> set[str]:
        """Ids of the terms that define, declare or give rules for a name."""
        return {tid for (tid,) in self._select("SELECT t.id FROM names n CROSS JOIN terms t ON t.blob = n.blob",
                                               "n.kind = ? AND n.name = ?", (kind, name))}

    def _select(self, head: str, where: str, args: tuple) -> list[tuple]:
        # CROSS JOIN keeps the index rows (few, by name) as the outer loop: the planner
        # would otherwise walk every term of the edition.
        return self.cached.query(f"{head} WHERE {where} AND t.book = ? AND t.edition = ?",
                                 args + (self.cached.id, self.edition.id))

    def uses_of(self, name: str) -> list[Use]:
        rows = self.cached.query(
            "SELECT t.id, u.clause, u.via, u.ukind, u.uname FROM uses u CROSS JOIN terms t ON t.blob = u.blob "
            "WHERE u.name = ? AND t.book = ? AND t.edition = ? ORDER BY t.id, u.pos",
            (name, self.cached.id, self.edition.id))
        return [Use(name, tid, clause, via, (ukind, uname)) for tid, clause, via, ukind, uname in rows]


class _CachedUses(Uses):
    """``Uses`` answered from the cache's rows, one name at a time."""

    def __init__(self, source: CachedSource):
        super().__init__(None)
        self._source = source
        self._memo: dict[str, list[Use]] = {}

    def of(self, name: str) -> list[Use]:
        if name not in self._memo:
            self._memo[name] = self._source.uses_of(name)
        return self._memo[name]

    @property
    def index(self) -> dict[str, list[Use]]:  # pragma: no cover - the whole index is never needed here
        raise NotImplementedError("a cached edition answers uses one name at a time")
