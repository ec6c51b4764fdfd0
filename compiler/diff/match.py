"""Pairing the terms and clauses of two editions.

Terms whose content hash is equal are skipped before anything else, so the
work follows the size of the change. Within changed terms, clauses that
declared lineage groups (``compiler.diff.lineage``) are paired as declared
first: nothing is guessed about them. The other clauses are paired by id. Clauses left over on both sides are then paired by the similarity
of their words: one to one (a renamed clause, or one moved to another
section or term), one old clause to two new ones (split), or two old ones to
one new (merged). Each pairing records how it was made and a confidence.
A clause kept under its id whose position changed among the clauses both
sides share is a move (a pure reordering is not a removal plus an addition).
"""

from __future__ import annotations

import difflib
from collections import Counter
from dataclasses import dataclass
from typing import Mapping

from ..model import Clause, Edition, Term
from .redline import words

#: Least word similarity for pairing leftovers within one term, and across terms.
SAME_TERM = 0.6
OTHER_TERM = 0.75
#: How much better a split or merge must fit than the best one-to-one pairing.
SPLIT_MARGIN = 0.1
#: Share of a part's words that must occur in the whole for a split or merge.
CONTAINMENT = 0.6
#: Beyond this many leftover pairs, leftovers are compared only within their term.
GLOBAL_PAIRS = 250_000


@dataclass(frozen=True)
class TermPair:
    """A term that differs between the editions (one side may be missing)."""

    id: str
    old: Term | None
    new: Term | None


@dataclass(frozen=True)
class Pairing:
    """Old clauses paired with new ones; either side may be empty (added, removed)."""

    old: tuple[Clause, ...]
    new: tuple[Clause, ...]
    matched_by: str | None  # lineage | id | text | split | merge | None
    confidence: float
    moved: bool = False  # another section or term, or another place among shared clauses
    lineage: tuple[str, ...] = ()  # the lineage keys that declared it (matched_by "lineage")


def changed_terms(old: Edition, new: Edition) -> list[TermPair]:
    """Terms added, removed or with another content hash, by id."""
    pairs = []
    old_terms, new_terms = old.term_by_id, new.term_by_id
    for tid in sorted(old_terms.keys() | new_terms.keys()):
        o, n = old_terms.get(tid), new_terms.get(tid)
        if o is not None and n is not None and o.digest == n.digest:
            continue
        pairs.append(TermPair(tid, o, n))
    return pairs


def changed_ids(old: Mapping[str, str], new: Mapping[str, str]) -> list[str]:
    """Ids of the terms added, removed or with another content hash, from id -> hash maps, sorted."""
    return sorted(tid for tid in old.keys() | new.keys() if old.get(tid) != new.get(tid))


@dataclass(frozen=True)
class Declared:
    """A declared lineage group with its clauses found on both sides."""

    old: tuple[Clause, ...]
    new: tuple[Clause, ...]
    kinds: tuple[str, ...]


def match_clauses(pairs: list[TermPair], declared: tuple[Declared, ...] = ()) -> list[Pairing]:
    """Every clause of the changed terms, paired (see the module docstring)."""
    result: list[Pairing] = [_declared(d) for d in declared]
    taken_old = {c.ref for d in declared for c in d.old}
    taken_new = {c.ref for d in declared for c in d.new}
    left_old: list[Clause] = []
    left_new: list[Clause] = []
    for pair in pairs:
        old = tuple(c for c in pair.old.clauses if c.ref not in taken_old) if pair.old else ()
        new = tuple(c for c in pair.new.clauses if c.ref not in taken_new) if pair.new else ()
        new_by_id = {c.id: c for c in new}
        old_ids = {c.id for c in old}
        shared = [c.id for c in old if c.id in new_by_id]
        in_order = _lcs(shared, [c.id for c in new if c.id in old_ids])
        for clause in old:
            other = new_by_id.get(clause.id)
            if other is None:
                left_old.append(clause)
                continue
            moved = clause.section != other.section or clause.id not in in_order
            result.append(Pairing((clause,), (other,), "id", 1.0, moved))
        left_new.extend(c for c in new if c.id not in old_ids)
    result.extend(_pair_leftovers(left_old, left_new))
    return result


def _declared(d: Declared) -> Pairing:
    moved = {c.term for c in d.old} != {c.term for c in d.new} or \
        {c.section for c in d.old} != {c.section for c in d.new}
    return Pairing(d.old, d.new, "lineage", 1.0, moved, d.kinds)


def _lcs(a: list[str], b: list[str]) -> set[str]:
    """Ids that every longest common subsequence of the two orders keeps.

    Ids are unique, so a common subsequence is an increasing run of positions.
    Where several longest ones exist (two clauses swapped), the ids that only
    some of them keep count as moved: the answer is then the same whichever
    side is called old, as the mirror property needs.
    """
    if a == b:
        return set(a)
    where = {x: i for i, x in enumerate(b)}
    seq = [where[x] for x in a]
    best = _lis_length(seq)
    if len(seq) > 200:  # the exact test is quadratic; one longest run suffices here
        return {a[i] for i in _lis_members(seq)}
    return {a[i] for i in range(len(seq)) if _lis_length(seq[:i] + seq[i + 1:]) < best}


def _lis_length(seq: list[int]) -> int:
    import bisect

    tails: list[int] = []
    for x in seq:
        k = bisect.bisect_left(tails, x)
        if k == len(tails):
            tails.append(x)
        else:
            tails[k] = x
    return len(tails)


def _lis_members(seq: list[int]) -> set[int]:
    """Indexes of one longest increasing run (patience sorting with back links)."""
    import bisect

    tails: list[int] = []
    tail_idx: list[int] = []
    back = [-1] * len(seq)
    for i, x in enumerate(seq):
        k = bisect.bisect_left(tails, x)
        if k == len(tails):
            tails.append(x)
            tail_idx.append(i)
        else:
            tails[k] = x
            tail_idx[k] = i
        back[i] = tail_idx[k - 1] if k else -1
    out, i = set(), tail_idx[-1] if tail_idx else -1
    while i >= 0:
        out.add(i)
        i = back[i]
    return out


def _key(c: Clause) -> list[str]:
    return [w.casefold().replace("’", "'") for w in words(c.text)]


def similarity(a: list[str], b: list[str]) -> float:
    """Word-level similarity in [0, 1]: difflib's ratio over the word sequences.

    difflib's ratio depends on which sequence comes first; the larger of the
    two readings is taken so that old-to-new and new-to-old pair alike.
    """
    if not a and not b:
        return 1.0
    return max(difflib.SequenceMatcher(None, a, b, autojunk=False).ratio(),
               difflib.SequenceMatcher(None, b, a, autojunk=False).ratio())


def _containment(part: list[str], whole: list[str]) -> float:
    if not part:
        return 0.0
    common = Counter(part) & Counter(whole)
    return sum(common.values()) / len(part)


@dataclass(frozen=True)
class _Candidate:
    score: float
    olds: tuple[int, ...]
    news: tuple[int, ...]
    how: str


def _pair_leftovers(olds: list[Clause], news: list[Clause]) -> list[Pairing]:
    if not olds or not news:
        return [Pairing((c,), (), None, 0.0) for c in olds] + [Pairing((), (c,), None, 0.0) for c in news]
    okeys = [_key(c) for c in olds]
    nkeys = [_key(c) for c in news]
    global_ok = len(olds) * len(news) <= GLOBAL_PAIRS
    candidates: list[_Candidate] = []
    best_single_old = [0.0] * len(olds)
    best_single_new = [0.0] * len(news)
    for i, o in enumerate(olds):
        for j, n in enumerate(news):
            same = o.term == n.term
            if not same and not global_ok:
                continue
            floor = SAME_TERM if same else OTHER_TERM
            m = difflib.SequenceMatcher(None, okeys[i], nkeys[j], autojunk=False)
            if m.real_quick_ratio() < floor or m.quick_ratio() < floor:
                continue
            score = similarity(okeys[i], nkeys[j])
            best_single_old[i] = max(best_single_old[i], score)
            best_single_new[j] = max(best_single_new[j], score)
            if score >= floor:
                candidates.append(_Candidate(score, (i,), (j,), "text"))
    candidates += _groups(olds, news, okeys, nkeys, best_single_old, "split")
    candidates += _groups(news, olds, nkeys, okeys, best_single_new, "merge")
    # Best fit first; ties broken by the clauses involved, named the same from either side.
    candidates.sort(key=lambda c: (-c.score, sorted([olds[i].ref for i in c.olds] + [news[j].ref for j in c.news])))
    used_old: set[int] = set()
    used_new: set[int] = set()
    out: list[Pairing] = []
    for cand in candidates:
        if used_old.intersection(cand.olds) or used_new.intersection(cand.news):
            continue
        used_old.update(cand.olds)
        used_new.update(cand.news)
        o = tuple(olds[i] for i in cand.olds)
        n = tuple(news[j] for j in cand.news)
        moved = {c.term for c in o} != {c.term for c in n} or {c.section for c in o} != {c.section for c in n}
        out.append(Pairing(o, n, cand.how, round(cand.score, 3), moved))
    out += [Pairing((c,), (), None, 0.0) for i, c in enumerate(olds) if i not in used_old]
    out += [Pairing((), (c,), None, 0.0) for j, c in enumerate(news) if j not in used_new]
    return out


def _groups(wholes: list[Clause], parts: list[Clause], wkeys: list[list[str]], pkeys: list[list[str]],
            best_single: list[float], how: str) -> list[_Candidate]:
    """One clause on one side that two clauses of the same term on the other side make up."""
    found = []
    for i, whole in enumerate(wholes):
        near = [j for j, p in enumerate(parts)
                if p.term == whole.term and _containment(pkeys[j], wkeys[i]) >= CONTAINMENT]
        if len(near) < 2 or len(near) > 12:  # more than a dozen is no split anyone wrote
            continue
        best = None
        for a_pos, a in enumerate(near):
            for b in near[a_pos + 1:]:
                score = similarity(wkeys[i], pkeys[a] + pkeys[b])
                if best is None or score > best[0]:
                    best = (score, a, b)
        if best and best[0] >= SAME_TERM and best[0] >= best_single[i] + SPLIT_MARGIN:
            score, a, b = best
            if how == "split":
                found.append(_Candidate(score, (i,), (a, b), how))
            else:
                found.append(_Candidate(score, (a, b), (i,), how))
    return found
