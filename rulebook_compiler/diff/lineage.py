"""Declared lineage between any two editions: each edition's own declarations, composed.

Each edition's ``lineage`` says what some of its clauses were in the edition
just before (``rulebook_compiler.lineage``). Between two editions further apart, the
declarations of the editions in between are followed in turn: a clause goes
on under its id from one edition to the next unless that edition declares
otherwise (``formerly``, ``merged_from`` and ``moved_from`` take a clause
whole; ``split_from`` leaves it going on where it is kept). A diff from a
later edition back to an earlier one reads the same groups the other way.

Only clauses that some declaration touches are grouped here; everything else
is left to ``match`` (ids, then similarity of words). Whether a grouped clause
exists on its side is for the caller to find out, from the terms it reads.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Hashable, Iterable, Sequence

from ..model import Edition, Lineage, Rulebook


@dataclass(frozen=True)
class Group:
    """Clauses of the old edition and the clauses of the new one they became, by declared lineage."""

    olds: tuple[str, ...]  # qualified refs, in the order found
    news: tuple[str, ...]
    kinds: tuple[str, ...]  # the lineage keys followed, sorted


def declared_groups(book_old: Rulebook, old: Edition, book_new: Rulebook, new: Edition) -> tuple[Group, ...]:
    """The groups that the declarations between two editions make (none if no book holds both in order)."""
    for book in (book_new, book_old):
        ids = [e.id for e in book.editions]
        if old.id in ids and new.id in ids:
            i, j = ids.index(old.id), ids.index(new.id)
            if i < j:
                return _compose([e.lineage for e in book.editions[i + 1:j + 1]])
            if i > j:
                return tuple(Group(g.news, g.olds, g.kinds)
                             for g in _compose([e.lineage for e in book.editions[j + 1:i + 1]]))
            return ()
    return ()


@dataclass(frozen=True)
class _Step:
    """One edition's declarations, indexed both ways (a scan per clause would be quadratic)."""

    by_clause: dict[str, Lineage]  # new ref -> its declaration
    by_source: dict[str, list[Lineage]]  # old ref -> the declarations that name it

    @classmethod
    def of(cls, items: tuple[Lineage, ...]) -> "_Step":
        by_source: dict[str, list[Lineage]] = {}
        for item in items:
            for source in item.sources:
                by_source.setdefault(source, []).append(item)
        return cls({item.clause: item for item in items}, by_source)


def _compose(declared: Sequence[tuple[Lineage, ...]]) -> tuple[Group, ...]:
    if not any(declared):
        return ()
    steps = [_Step.of(items) for items in declared]
    starts: dict[str, None] = {}
    for k, items in enumerate(declared):
        for item in items:
            for source in item.sources:
                for ref in _back(steps, k, source):
                    starts[ref] = None
    links: list[tuple[str, str, frozenset]] = []  # old ref, new ref, kinds
    for start in starts:
        paths: set[tuple[str, frozenset]] = {(start, frozenset())}
        for step in steps:
            paths = {nxt for ref, kinds in paths for nxt in _forward(step, ref, kinds)}
        links += [(start, ref, kinds) for ref, kinds in sorted(paths, key=lambda p: (p[0], sorted(p[1])))]
    return _components(links)


def _back(steps: Sequence[_Step], k: int, ref: str) -> list[str]:
    """The clauses of the first edition that ``ref`` (of the edition before step ``k``) comes from."""
    refs = [ref]
    for step in reversed(steps[:k]):
        refs = [source for r in refs
                for source in (step.by_clause[r].sources if r in step.by_clause else (r,))]
    return refs


def _forward(step: _Step, ref: str, kinds: frozenset) -> list[tuple[str, frozenset]]:
    """Where a clause goes in the next edition: what names it, and itself unless taken or replaced."""
    naming = step.by_source.get(ref, ())
    out = [(item.clause, kinds | {item.kind}) for item in naming]
    taken = any(item.continues for item in naming)
    replaced = ref in step.by_clause  # its id now names a clause with a lineage of its own
    if not taken and not replaced:
        out.append((ref, kinds))
    return out


def joined(links: Iterable[tuple[Hashable, Hashable]]) -> Callable[[tuple[str, Hashable]], tuple[str, Hashable]]:
    """Old-to-new links joined where they share a node (union-find): ``root(("old", x))`` and
    ``root(("new", y))`` are equal when x and y are linked, directly or through others."""
    parent: dict[tuple[str, Hashable], tuple[str, Hashable]] = {}

    def root(node):
        while parent.setdefault(node, node) != node:
            parent[node] = parent[parent[node]]
            node = parent[node]
        return node

    for old, new in links:
        parent[root(("old", old))] = root(("new", new))
    return root


def _components(links: list[tuple[str, str, frozenset]]) -> tuple[Group, ...]:
    """Links joined into groups where they share a clause; only groups with a declared link."""
    root = joined((old, new) for old, new, _ in links)
    groups: dict[tuple[str, Hashable], tuple[dict, dict, set]] = {}
    for old, new, kinds in links:
        olds, news, found = groups.setdefault(root(("old", old)), ({}, {}, set()))
        olds[old] = None
        news[new] = None
        found |= kinds
    out = [Group(tuple(olds), tuple(news), tuple(sorted(kinds))) for olds, news, kinds in groups.values() if kinds]
    return tuple(sorted(out, key=lambda g: (g.olds, g.news)))
