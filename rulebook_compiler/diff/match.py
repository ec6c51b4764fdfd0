"""Pairing the terms and clauses of two editions.

Terms whose content hash is equal are skipped before anything else, so the
work follows the size of the change. Within changed terms, clauses that
declared lineage groups (``rulebook_compiler.diff.lineage``) are paired as declared
first: nothing is guessed about them. The other clauses are paired by id. Clauses left over on both sides are then paired by the similarity
of their words: one to one (a renamed clause, or one moved to another
section or term), one old clause to two new ones (split), or two old ones to
one new (merged). Each pairing records how it was made and a confidence.
A clause kept under its id whose position changed among the clauses both
sides share is a move (a pure reordering is not a removal plus an addition).
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Hashable, Iterable, Iterator, Mapping, NamedTuple

from ..diagnostics import Diagnostic, Location
from ..model import Clause, Edition, Term
from .redline import words

#: Least word similarity for pairing leftovers within one term, and across terms.
SAME_TERM = 0.6
OTHER_TERM = 0.75
#: How much better a split or merge must fit than the best one-to-one pairing.
SPLIT_MARGIN = 0.1
#: Share of a part's words that must occur in the whole for a split or merge.
CONTAINMENT = 0.6
#: Least word similarity for keeping a clause's id paired with the same id, and what the id adds.
ID_FLOOR = 0.4
ID_BONUS = 0.2
#: Total weight that breaks ties in the assignment: far below any difference of two similarities.
TIE = 1e-6
#: Beyond this many leftover pairs, leftovers are compared only within their term.
GLOBAL_PAIRS = 250_000
#: Beyond this many pairs of leftovers in one term (old ones times new ones), that term's leftovers are
#: compared under their own id only, with a warning (``OverBudget``): each pair compared costs about
#: 0.1 ms (200 by 200 rewritten clauses: 5.6 s on a loaded 2-core machine), and a term of 800 took
#: 90 s (issue 23 point 7).
TERM_PAIRS = 40_000


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
    """Every clause of the changed terms, paired (see the module docstring); ``match_terms`` also
    says which terms were over ``TERM_PAIRS``."""
    return list(match_terms(pairs, declared).pairings)


@dataclass(frozen=True)
class OverBudget:
    """A term whose clauses left to pair (``old`` times ``new``) are more pairs than ``TERM_PAIRS``:
    they were paired under their own id only, not by their words."""

    term: str
    location: Location  # the term's file, on the new side where it has one
    old: int
    new: int
    budget: int

    def diagnostic(self) -> Diagnostic:
        return Diagnostic(
            self.location,
            f"term '{self.term}': {self.old:,} old and {self.new:,} new clauses left to pair make "
            f"{self.old * self.new:,} pairs, over TERM_PAIRS ({self.budget:,}): they were paired under "
            "their own id only",
            hint="a clause of this term renamed, moved, split or merged reads as removed and added; "
                 "the limit is TERM_PAIRS in rulebook_compiler/diff/match.py (docs/format.md, Limits)",
            severity="warning", code="term-pairs")


@dataclass(frozen=True)
class Matched:
    """Every clause paired, and the terms whose clauses were too many to compare pair by pair."""

    pairings: tuple[Pairing, ...]
    over_budget: tuple[OverBudget, ...] = ()


#: The terms over TERM_PAIRS that every match in a ``reported_over_budget()`` block found.
_over_budget_found: ContextVar[list[OverBudget] | None] = ContextVar("over_budget_found", default=None)


@contextmanager
def reported_over_budget() -> Iterator[list[OverBudget]]:
    """The terms over ``TERM_PAIRS`` that the matches made inside the block found, in their order:
    a command prints them as warnings, whichever pass of the diff matched the clauses."""
    found: list[OverBudget] = []
    token = _over_budget_found.set(found)
    try:
        yield found
    finally:
        _over_budget_found.reset(token)


def match_terms(pairs: list[TermPair], declared: tuple[Declared, ...] = ()) -> Matched:
    """Every clause of the changed terms, paired (see the module docstring), within ``TERM_PAIRS``."""
    result: list[Pairing] = [_declared(d) for d in declared]
    kept, left_old, left_new = _kept_and_left(pairs, {c.ref for d in declared for c in d.old},
                                              {c.ref for d in declared for c in d.new})
    over = _over_budget(pairs, left_old, left_new)
    found = _pair_leftovers(left_old, left_new, frozenset(o.term for o in over))
    result += _by_id(pairs, kept, found)
    result += [p for p in found if p.matched_by != "id"]
    reported = _over_budget_found.get()
    if reported is not None:
        reported.extend(over)
    return Matched(tuple(result), over)


def _by_id(pairs: list[TermPair], kept: list[tuple[Clause, Clause]], found: list[Pairing]) -> list[Pairing]:
    """The pairings under one id: those kept with their words, and those the leftovers paired by id
    (at their confidence); moved where their section or their place among the shared clauses changed."""
    kept = kept + [(p.old[0], p.new[0]) for p in found if p.matched_by == "id"]
    where = (_places(p.old for p in pairs), _places(p.new for p in pairs))
    moved = _moved_among_shared(kept, where)
    confidence = {p.old[0].ref: p.confidence for p in found if p.matched_by == "id"}
    return [Pairing((o,), (n,), "id", confidence.get(o.ref, 1.0), o.section != n.section or o.ref in moved)
            for o, n in kept]


def _kept_and_left(pairs: list[TermPair], taken_old: set[str], taken_new: set[str]
                   ) -> tuple[list[tuple[Clause, Clause]], list[Clause], list[Clause]]:
    """The clauses kept under their id with the same words, and those left to pair on each side;
    the clauses of declared lineage groups (``taken_old``, ``taken_new``) are neither."""
    left_old: list[Clause] = []
    left_new: list[Clause] = []
    kept: list[tuple[Clause, Clause]] = []
    for pair in pairs:
        old = _untaken(pair.old, taken_old)
        new = _untaken(pair.new, taken_new)
        new_by_id = {c.id: c for c in new}
        for clause in old:
            other = new_by_id.get(clause.id)
            # Same id, same words: nothing can fit better, so it needs no search.
            if other is not None and other.text == clause.text:
                kept.append((clause, other))
            else:
                left_old.append(clause)
        same = {o.id for o, _ in kept if o.term == pair.id}
        left_new.extend(c for c in new if c.id not in same)
    return kept, left_old, left_new


def _untaken(term: Term | None, taken: set[str]) -> tuple[Clause, ...]:
    return tuple(c for c in term.clauses if c.ref not in taken) if term else ()


def _places(terms: Iterable[Term | None]) -> dict[str, int]:
    """Each clause's place in its term."""
    return {c.ref: i for term in terms if term for i, c in enumerate(term.clauses)}


def _over_budget(pairs: list[TermPair], olds: list[Clause], news: list[Clause]) -> tuple[OverBudget, ...]:
    """The terms whose leftovers, old times new, are more pairs than ``TERM_PAIRS``, by id."""
    old_in, new_in = Counter(c.term for c in olds), Counter(c.term for c in news)
    budget = TERM_PAIRS
    return tuple(OverBudget(p.id, _term_location(p), old_in[p.id], new_in[p.id], budget)
                 for p in sorted(pairs, key=lambda p: p.id) if old_in[p.id] * new_in[p.id] > budget)


def _term_location(pair: TermPair) -> Location:
    term = pair.new or pair.old
    assert term is not None  # a changed term is on one side at least
    return term.loc


def _moved_among_shared(kept: list[tuple[Clause, Clause]],
                        where: tuple[Mapping[str, int], Mapping[str, int]]) -> set[str]:
    """Refs of the clauses kept under their id that changed place among the clauses each term kept."""
    by_term: dict[str, list[tuple[Clause, Clause]]] = {}
    for o, n in kept:
        by_term.setdefault(o.term, []).append((o, n))
    moved: set[str] = set()
    for term, both in by_term.items():
        old_order = [o.id for o, _ in sorted(both, key=lambda x: where[0][x[0].ref])]
        new_order = [n.id for _, n in sorted(both, key=lambda x: where[1][x[1].ref])]
        in_order = lcs(old_order, new_order)
        moved |= {f"{term}#{cid}" for cid in old_order if cid not in in_order}
    return moved


def _declared(d: Declared) -> Pairing:
    moved = {c.term for c in d.old} != {c.term for c in d.new} or \
        {c.section for c in d.old} != {c.section for c in d.new}
    return Pairing(d.old, d.new, "lineage", 1.0, moved, d.kinds)


def lcs(a: list[str], b: list[str]) -> set[str]:
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
    fit: float | None = None  # the word similarity reported as confidence; the score when not set

    def __post_init__(self):
        if self.fit is None:
            object.__setattr__(self, "fit", self.score)

    @property
    def confidence(self) -> float:
        """``fit``, which __post_init__ set (to the score when not given)."""
        assert self.fit is not None
        return self.fit


@dataclass(frozen=True)
class _Leftovers:
    """The clauses left to pair on each side, their words, and which are taken (filled as they are)."""

    olds: list[Clause]
    news: list[Clause]
    okeys: list[list[str]]
    nkeys: list[list[str]]
    over: frozenset[str]  # the terms over TERM_PAIRS: their clauses are compared under their own id only
    used_old: set[int] = field(default_factory=set)
    used_new: set[int] = field(default_factory=set)


def _pair_leftovers(olds: list[Clause], news: list[Clause], over: frozenset[str] = frozenset()) -> list[Pairing]:
    """One assignment over every candidate pairing: by id, by words, by meaning, split and merged.

    A clause's id is evidence (``ID_BONUS``), not a verdict: an id whose words
    changed beyond recognition while its old words reappear under another id
    pairs with that other id (a renumbering or a move), because the total fit
    of the assignment is larger. Splits and merges that fit clearly better than
    any single pairing are taken first; the rest is an optimal assignment
    (scipy's ``linear_sum_assignment``), not first come first served. The
    clauses of a term in ``over`` are compared with the other side's clauses of
    that term under their own id only (``TERM_PAIRS``).
    """
    if not olds or not news:
        return _unpaired(olds, news, set(), set())
    left = _Leftovers(olds, news, [_key(c) for c in olds], [_key(c) for c in news], over)
    candidates, best_single_old, best_single_new = _single_candidates(left)
    chosen = _take_groups(left, _groups(olds, news, left.okeys, left.nkeys, best_single_old, "split", over) +
                          _groups(news, olds, left.nkeys, left.okeys, best_single_new, "merge", over))
    singles = [c for k, c in candidates.items() if k[0] not in left.used_old and k[1] not in left.used_new]
    singles.sort(key=lambda c: _tie_order(c, olds, news))
    chosen += _assign(singles)
    left.used_old.update(i for c in chosen for i in c.olds)
    left.used_new.update(j for c in chosen for j in c.news)
    chosen += _kept_ids(left)
    chosen += _renumbered_ids(olds, news, left.okeys, left.nkeys, chosen, left.used_old, left.used_new)
    chosen = _words_that_live_on(olds, news, left.okeys, left.nkeys, chosen, left.used_old, left.used_new, over)
    return [_pairing(left, cand) for cand in chosen] + _unpaired(olds, news, left.used_old, left.used_new)


def _single_candidates(left: _Leftovers) -> tuple[dict[tuple[int, int], _Candidate], list[float], list[float]]:
    """The one-to-one candidates by (old, new) place, and the best fit of each clause among them."""
    global_ok = len(left.olds) * len(left.news) <= GLOBAL_PAIRS
    candidates: dict[tuple[int, int], _Candidate] = {}
    best_single_old = [0.0] * len(left.olds)
    best_single_new = [0.0] * len(left.news)
    # One matcher per new clause: difflib indexes its second sequence once, not once per old clause.
    matchers = [difflib.SequenceMatcher(None, (), k, autojunk=False) for k in left.nkeys]
    partners = _Partners(left.news, left.over, global_ok)
    for i, o in enumerate(left.olds):
        for j in partners.of(o):
            n = left.news[j]
            found = _single(o, n, left.okeys[i], left.nkeys[j], o.term == n.term, o.ref == n.ref, matchers[j])
            if found is None:
                continue
            score, how, fit = found
            best_single_old[i] = max(best_single_old[i], fit)
            best_single_new[j] = max(best_single_new[j], fit)
            candidates[(i, j)] = _Candidate(score, (i,), (j,), how, fit)
    return candidates, best_single_old, best_single_new


class _Partners:
    """The new clauses that an old one is compared with, in their order: all of them while the
    leftovers are within ``GLOBAL_PAIRS``, else those of its term only; and of a term over
    ``TERM_PAIRS``, the one under its own id only."""

    def __init__(self, news: list[Clause], over: frozenset[str], global_ok: bool) -> None:
        self.news, self.over, self.global_ok = news, over, global_ok
        self.in_term: dict[str, list[int]] = {}
        for j, n in enumerate(news):
            self.in_term.setdefault(n.term, []).append(j)
        self.at_ref = {n.ref: j for j, n in enumerate(news)}

    def of(self, o: Clause) -> Iterable[int]:
        if o.term not in self.over:
            return range(len(self.news)) if self.global_ok else self.in_term.get(o.term, ())
        own = self.at_ref.get(o.ref)
        if not self.global_ok:
            return () if own is None else (own,)
        return [j for j, n in enumerate(self.news) if n.term != o.term or j == own]


def _take_groups(left: _Leftovers, groups: list[_Candidate]) -> list[_Candidate]:
    """The splits and merges, best first, each taken unless a clause of it is taken already."""
    groups.sort(key=lambda c: (-c.score, sorted([left.olds[i].ref for i in c.olds] +
                                                [left.news[j].ref for j in c.news])))
    chosen: list[_Candidate] = []
    for cand in groups:
        if left.used_old.intersection(cand.olds) or left.used_new.intersection(cand.news):
            continue
        left.used_old.update(cand.olds)
        left.used_new.update(cand.news)
        chosen.append(cand)
    return chosen


def _kept_ids(left: _Leftovers) -> list[_Candidate]:
    """A clause rewritten under its id, whose words went nowhere else and that nothing else
    replaced: a rewording at a low confidence, not a removal plus an addition."""
    new_at = {c.ref: j for j, c in enumerate(left.news) if j not in left.used_new}
    found = []
    for i, old in enumerate(left.olds):
        at = new_at.get(old.ref)
        if i not in left.used_old and at is not None:
            found.append(_Candidate(0.0, (i,), (at,), "id", similarity(left.okeys[i], left.nkeys[at])))
            left.used_old.add(i)
            left.used_new.add(at)
    return found


def _pairing(left: _Leftovers, cand: _Candidate) -> Pairing:
    paired_old = tuple(left.olds[i] for i in cand.olds)
    paired_new = tuple(left.news[j] for j in cand.news)
    moved = {c.term for c in paired_old} != {c.term for c in paired_new} or \
        {c.section for c in paired_old} != {c.section for c in paired_new}
    return Pairing(paired_old, paired_new, cand.how, round(cand.confidence, 3), moved)


def _unpaired(olds: list[Clause], news: list[Clause], used_old: set[int], used_new: set[int]) -> list[Pairing]:
    return [Pairing((c,), (), None, 0.0) for i, c in enumerate(olds) if i not in used_old] + \
        [Pairing((), (c,), None, 0.0) for j, c in enumerate(news) if j not in used_new]


def _tie_order(c: _Candidate, olds: list[Clause], news: list[Clause]) -> tuple:
    """Where candidates fit alike, the order in which ``_assign`` prefers them: the same from
    either side (diff(B, A) mirrors diff(A, B)), so the key names each clause by its ref and its
    words, never by side or position. A clause kept under its id comes first: an id whose words
    or meaning still agree is a rewording, not a renaming (issue 11 point 2)."""
    o, n = olds[c.olds[0]], news[c.news[0]]
    return -c.score, c.how != "id", sorted([(o.ref, o.text), (n.ref, n.text)])


def _single(o: Clause, n: Clause, okey: list[str], nkey: list[str], same_term: bool,
            kept_id: bool, matcher: difflib.SequenceMatcher | None = None) -> tuple[float, str, float] | None:
    """(score in the assignment, how, confidence) of pairing two clauses; None when they are no candidate.

    Pairs under one id need their words to agree (``ID_FLOOR``) or their meaning
    to be the same; others need the similarity floors. Two clauses with the
    same machine-readable meaning (same rules of the same decision) are a
    candidate whatever their words.
    """
    floor = ID_FLOOR if kept_id else SAME_TERM if same_term else OTHER_TERM
    same_meaning = same_term and _meaning(o) is not None and _meaning(o) == _meaning(n)
    if not same_meaning:
        m = matcher or difflib.SequenceMatcher(None, (), nkey, autojunk=False)  # over nkey
        m.set_seq1(okey)
        if m.real_quick_ratio() < floor or m.quick_ratio() < floor:
            return None
    fit = similarity(okey, nkey)
    if fit < floor and not same_meaning:
        return None
    score = max(fit, SAME_TERM) if same_meaning else fit
    if kept_id:
        return score + ID_BONUS, "id", fit
    return score, "text", fit


def _meaning(c: Clause):
    """A clause's rules as comparable values, without ids; None when it has none."""
    if not c.rules and c.defines is None and c.table is None and c.steps is None:
        return None
    from .classify import meaning_json  # classify imports nothing of match: no cycle

    return repr(meaning_json(c))


def _assign(candidates: list[_Candidate]) -> list[_Candidate]:
    """The one-to-one candidates that together fit best (an optimal assignment).

    ``candidates`` come best first; among assignments of equal fit, the one
    that takes the earlier candidates wins (a weight far below any real
    difference of similarity is added by rank). The candidates fall apart
    into groups that share no clause (most are one pair); each group is solved
    on its own by the Hungarian method (``max_weight_assignment``).
    """
    tie = TIE / (len(candidates) + 1)
    weight = {(c.olds[0], c.news[0]): c.score + tie * (len(candidates) - rank) for rank, c in enumerate(candidates)}
    by_cell = {(c.olds[0], c.news[0]): c for c in candidates}
    chosen = []
    for rows, cols in _components(list(weight)):
        if len(rows) == 1 and len(cols) == 1:
            chosen.append(by_cell[(rows[0], cols[0])])
            continue
        matrix = [[weight.get((r, c), 0.0) for c in cols] for r in rows]
        chosen += [by_cell[(rows[i], cols[j])] for i, j in max_weight_assignment(matrix)
                   if (rows[i], cols[j]) in by_cell]
    return sorted(chosen, key=lambda c: (c.olds, c.news))


def _components(cells: list[tuple[int, int]]) -> list[tuple[list[int], list[int]]]:
    """The candidate pairs grouped so that no clause is in two groups: (old rows, new columns) each."""
    from .lineage import joined

    root = joined(cells)
    groups: dict[tuple[str, Hashable], tuple[set[int], set[int]]] = {}
    for r, c in cells:
        rows, cols = groups.setdefault(root(("old", r)), (set(), set()))
        rows.add(r)
        cols.add(c)
    return [(sorted(rows), sorted(cols)) for rows, cols in sorted(groups.values(), key=lambda g: min(g[0]))]


def max_weight_assignment(weight: list[list[float]]) -> list[tuple[int, int]]:
    """Rows paired with columns, each at most once, for the largest total weight (weights >= 0).

    The Hungarian method with potentials (Kuhn-Munkres, O(n^2 m)), on costs
    ``-weight``; every row of the shorter side is paired.
    """
    if not weight or not weight[0]:
        return []
    if len(weight) > len(weight[0]):
        flipped = max_weight_assignment([list(col) for col in zip(*weight)])
        return sorted((i, j) for j, i in flipped)
    n, m = len(weight), len(weight[0])
    state = _Potentials([0.0] * (n + 1), [0.0] * (m + 1), [0] * (m + 1), [0] * (m + 1))
    for i in range(1, n + 1):
        state.row_of[0] = i
        state.augment(_free_column(weight, state))
    return sorted((state.row_of[j] - 1, j - 1) for j in range(1, m + 1) if state.row_of[j])


@dataclass(frozen=True)
class _Potentials:
    """The Hungarian method's state, 1-based with column 0 the row being added."""

    u: list[float]  # each row's potential
    v: list[float]  # each column's potential
    row_of: list[int]  # row_of[j]: the 1-based row paired with column j, 0 for none
    way: list[int]  # way[j]: the column before j on the shortest path found

    def augment(self, j0: int) -> None:
        """Flip the pairings along the path found, from the free column ``j0`` back to column 0."""
        while j0:
            j1 = self.way[j0]
            self.row_of[j0] = self.row_of[j1]
            j0 = j1


def _free_column(weight: list[list[float]], s: _Potentials) -> int:
    """The free column that the row in ``s.row_of[0]`` reaches by a shortest path (Dijkstra on the
    reduced costs), the potentials updated on the way."""
    m = len(s.v) - 1
    least = [float("inf")] * (m + 1)
    used = [False] * (m + 1)
    j0 = 0
    while True:
        used[j0] = True
        delta, j1 = _nearest(weight, s, j0, least, used)
        for j in range(m + 1):
            if used[j]:
                s.u[s.row_of[j]] += delta
                s.v[j] -= delta
            else:
                least[j] -= delta
        j0 = j1
        if s.row_of[j0] == 0:
            return j0


def _nearest(weight: list[list[float]], s: _Potentials, j0: int, least: list[float],
             used: list[bool]) -> tuple[float, int]:
    """The reduced costs through column ``j0`` taken into ``least``: the least of them and its column."""
    i0, delta, j1 = s.row_of[j0], float("inf"), 0
    for j in range(1, len(least)):
        if not used[j]:
            cur = -weight[i0 - 1][j - 1] - s.u[i0] - s.v[j]
            if cur < least[j]:
                least[j], s.way[j] = cur, j0
            if least[j] < delta:
                delta, j1 = least[j], j
    return delta, j1


def _groups(wholes: list[Clause], parts: list[Clause], wkeys: list[list[str]], pkeys: list[list[str]],
            best_single: list[float], how: str, over: frozenset[str] = frozenset()) -> list[_Candidate]:
    """One clause on one side that two clauses of the same term on the other side make up (not
    looked for in a term over ``TERM_PAIRS``)."""
    found = []
    for i, whole in enumerate(wholes):
        if whole.term in over:
            continue
        near = [j for j, p in enumerate(parts)
                if p.term == whole.term and _containment(pkeys[j], wkeys[i]) >= CONTAINMENT]
        if len(near) < 2 or len(near) > 12:  # more than a dozen is no split anyone wrote
            continue
        best = _best_parts(wkeys[i], near, pkeys)
        if best and best[0] >= SAME_TERM and best[0] >= best_single[i] + SPLIT_MARGIN:
            score, a, b = best
            if how == "split":
                found.append(_Candidate(score, (i,), (a, b), how))
            else:
                found.append(_Candidate(score, (a, b), (i,), how))
    return found


def _best_parts(whole: list[str], near: list[int], pkeys: list[list[str]]) -> tuple[float, int, int] | None:
    """The two of the ``near`` parts that together fit the whole best: (fit, part, part)."""
    best = None
    for a_pos, a in enumerate(near):
        for b in near[a_pos + 1:]:
            # Either order: a split may print its parts the other way round.
            score = max(similarity(whole, pkeys[a] + pkeys[b]), similarity(whole, pkeys[b] + pkeys[a]))
            if best is None or score > best[0]:
                best = (score, a, b)
    return best


# A rule number as an id: the number and the letters of its subrule ("r903-11d" -> "r903-11", "d").
_RULE_ID = re.compile(r"\A(.*\d)([a-z]*)\Z")
#: Fewest words that a pairing loses (or gains) to a clause left alone, for a split (or merge).
LOST_WORDS = 2
#: Share of those words that the clause left alone must hold.
LOST_SHARE = 2 / 3
#: Fewest words of a clause left alone before its words are looked for elsewhere.
LIVES_ON_WORDS = 8
#: Share of the other clause's words that must come from a clause left alone to pair them (its own
#: words live on there, ``CONTAINMENT``): a new rule that took a few words of a withdrawn one stays new.
COMES_FROM = 0.5


def _renumbered_ids(olds, news, okeys, nkeys, chosen, used_old, used_new) -> list[_Candidate]:
    """Clauses left alone under an id that the numbering moved: where the pairs found say that rule
    903.11's subrules are now 903.12's (903.11a -> 903.12a, ...), a 903.11g left alone pairs with a
    903.12g left alone, as a rewording at a low confidence (its place in the numbering is kept)."""
    stem = _number_shifts(olds, news, chosen)
    left_new = {(c.term, c.id): j for j, c in enumerate(news) if j not in used_new}
    found = []
    for i, o in enumerate(olds):
        m = _RULE_ID.match(o.id)
        if i in used_old or m is None or (o.term, m.group(1)) not in stem:
            continue
        j = left_new.pop((o.term, stem[(o.term, m.group(1))] + m.group(2)), None)
        if j is not None:
            found.append(_Candidate(0.0, (i,), (j,), "text", similarity(okeys[i], nkeys[j])))
            used_old.add(i)
            used_new.add(j)
    return found


def _number_shifts(olds: list[Clause], news: list[Clause], chosen: list[_Candidate]) -> dict[tuple[str, str], str]:
    """(term, old rule number) -> the new number that the one-to-one pairings found move its subrules
    to, where they all agree (one consistent shift only)."""
    shifts: dict[tuple[str, str], set[str]] = {}
    for c in chosen:
        shift = _number_shift(olds, news, c)
        if shift is not None:
            shifts.setdefault(shift[0], set()).add(shift[1])
    return {k: next(iter(v)) for k, v in shifts.items() if len(v) == 1}


def _number_shift(olds: list[Clause], news: list[Clause], c: _Candidate) -> tuple[tuple[str, str], str] | None:
    """((term, old rule number), new rule number) of a one-to-one pairing of one subrule to another
    of the same letters under another number in the same term; None for any other pairing."""
    if len(c.olds) != 1 or len(c.news) != 1:
        return None
    o, n = olds[c.olds[0]], news[c.news[0]]
    a, b = _RULE_ID.match(o.id), _RULE_ID.match(n.id)
    if o.term == n.term and a and b and a.group(2) == b.group(2) and a.group(1) != b.group(1):
        return (o.term, a.group(1)), b.group(1)
    return None


def _stems(key: list[str]) -> list[str]:
    from .level import FUNCTION_WORDS, STEM  # level reads no pairing: no cycle

    return [w[:STEM] for w in key if w not in FUNCTION_WORDS]


def _words_that_live_on(olds, news, okeys, nkeys, chosen, used_old, used_new,
                        over: frozenset[str] = frozenset()) -> list[_Candidate]:
    """No clause is reported removed (or added) while its words live on in (or come from) another.

    - A pairing whose old clause loses words (``LOST_WORDS`` or more) that a new clause of the same
      term left alone holds (``LOST_SHARE`` of them) is a split into both: rule 903.9's graveyard and
      exile go to a new 903.9a while its other words stay in 903.9b. The same the other way is a merge;
      where both could be, the one whose clause holds more of the words.
    - A clause left alone on either side whose words live on in the other: ``_left_alone``.

    Neither is looked for in a term over ``TERM_PAIRS`` (``over``).
    """
    ostems = [_stems(k) for k in okeys]
    nstems = [_stems(k) for k in nkeys]
    out = list(chosen)
    # The pairings are looked at in an order that names no side, and each takes the part (or whole)
    # that holds more of its words, so that a clause two pairings could take goes to the same one
    # from either side (diff(B, A) mirrors diff(A, B)).
    singles = [k for k, c in enumerate(chosen) if len(c.olds) == 1 and len(c.news) == 1
               and olds[c.olds[0]].term not in over and news[c.news[0]].term not in over]
    singles.sort(key=lambda k: sorted([(olds[chosen[k].olds[0]].ref, olds[chosen[k].olds[0]].text),
                                       (news[chosen[k].news[0]].ref, news[chosen[k].news[0]].text)]))
    for k in singles:
        c = chosen[k]
        i, j = c.olds[0], c.news[0]
        lost = set(ostems[i]) - set(nstems[j])
        gained = set(nstems[j]) - set(ostems[i])
        options = []
        part = _holder(lost, news, j, nstems, used_new)
        if part is not None:
            options.append((-len(lost & set(nstems[part])), news[part].ref, news[part].text, "split", part))
        whole = _holder(gained, olds, i, ostems, used_old)
        if whole is not None:
            options.append((-len(gained & set(ostems[whole])), olds[whole].ref, olds[whole].text, "merge", whole))
        if not options:
            continue
        *_, how, holder = min(options)
        if how == "split":
            used_new.add(holder)
            out[k] = _Candidate(c.score, (i,), tuple(sorted((j, holder))), "split",
                                similarity(okeys[i], _joined(nkeys, sorted((j, holder)))))
        else:
            used_old.add(holder)
            out[k] = _Candidate(c.score, tuple(sorted((i, holder))), (j,), "merge",
                                similarity(_joined(okeys, sorted((i, holder))), nkeys[j]))
    sides = {"old": _Side(olds, okeys, ostems, used_old), "new": _Side(news, nkeys, nstems, used_new)}
    return _left_alone(sides, out, over)


class _Side(NamedTuple):
    """One side's leftovers: the clauses, their words, their stems, and the places taken."""

    clauses: list[Clause]
    keys: list[list[str]]
    stems: list[list[str]]
    used: set[int]


def _left_alone(sides: Mapping[str, _Side], out: list[_Candidate], over: frozenset[str]) -> list[_Candidate]:
    """A clause left alone on either side whose words live on in the other side (``CONTAINMENT``
    of them) is not reported removed (or added):

    - with a clause of the other side left alone whose words come from it too (``COMES_FROM``: a
      new rule that took a few words of a withdrawn one stays new, REG 3.0.0 -> 4.0.0-draft
      heal#healed-from-discard-pile): paired, and split (or merged) with a second one that holds
      words the first does not (``LOST_WORDS``);
    - else with a clause of the other side already paired one to one: that pairing takes it in, a
      merge (or a split): CR 705.1 and 705.2 became one 705.2 while 705.3 took the number 705.1.

    The clauses are taken in an order that names no side, and each test reads the same from
    either side, so that diff(B, A) mirrors diff(A, B). ``sides``: "old" and "new".
    """
    alone = sorted((s.clauses[i].ref, s.clauses[i].text, side, i)
                   for side, s in sides.items()
                   for i in range(len(s.clauses)) if i not in s.used and len(s.stems[i]) >= LIVES_ON_WORDS
                   and s.clauses[i].term not in over)
    pairs_in = _pairings_by_term(sides["old"].clauses, sides["new"].clauses, out)
    for _, _, side, i in alone:
        if i in sides[side].used:
            continue
        if not _paired_alone(i, side, sides, out):
            _taken_in(i, side, sides, out, pairs_in)
    return out


def _pairings_by_term(olds: list[Clause], news: list[Clause], out: list[_Candidate]) -> dict[str, list[int]]:
    """The places in ``out`` of the one-to-one pairings within one term, by term."""
    pairs_in: dict[str, list[int]] = {}
    for k, cand in enumerate(out):
        if len(cand.olds) == 1 and len(cand.news) == 1 and olds[cand.olds[0]].term == news[cand.news[0]].term:
            pairs_in.setdefault(olds[cand.olds[0]].term, []).append(k)
    return pairs_in


def _other(side: str) -> str:
    return "new" if side == "old" else "old"


def _paired_alone(i: int, side: str, sides: Mapping[str, _Side], out: list[_Candidate]) -> bool:
    """Clause ``i`` of ``side`` paired with the clauses of the other side left alone that its words
    live on in (see ``_left_alone``), added to ``out``; False when there is none."""
    this, that = sides[side], sides[_other(side)]
    own = this.stems[i]
    words = set(own)
    near = sorted((-_held(own, set(that.stems[j])), that.clauses[j].ref, j)
                  for j, o in enumerate(that.clauses) if j not in that.used and o.term == this.clauses[i].term
                  and _held(that.stems[j], words) >= COMES_FROM * len(that.stems[j]))
    if not near or -near[0][0] < CONTAINMENT * len(own):
        return False
    first = near[0][2]
    rest = words - set(that.stems[first])
    second = next((j for _, _, j in near[1:] if len(rest & set(that.stems[j])) >= LOST_WORDS), None)
    parts = tuple(sorted(p for p in (first, second) if p is not None))
    this.used.add(i)
    that.used.update(parts)
    how = "text" if len(parts) == 1 else ("split" if side == "old" else "merge")
    fit = _group_fit(this.keys[i], [that.keys[p] for p in parts])
    out.append(_Candidate(0.0, (i,), parts, how, fit) if side == "old" else _Candidate(0.0, parts, (i,), how, fit))
    return True


def _taken_in(i: int, side: str, sides: Mapping[str, _Side], out: list[_Candidate],
              pairs_in: Mapping[str, list[int]]) -> None:
    """Clause ``i`` of ``side`` taken into the one-to-one pairing whose clause on the other side holds
    its words (``_pairing_that_holds``), in ``out``: a merge (or a split); nothing when there is none."""
    this, that = sides[side], sides[_other(side)]
    taken = _pairing_that_holds(i, side, this.clauses[i].term, this.stems, that.clauses, that.stems, out, pairs_in)
    if taken is None:
        return
    k, cand = taken
    this.used.add(i)
    okeys, nkeys = sides["old"].keys, sides["new"].keys
    if side == "old":
        parts = tuple(sorted((cand.olds[0], i)))
        out[k] = _Candidate(cand.score, parts, cand.news, "merge", _group_fit(nkeys[cand.news[0]], [okeys[p] for p in parts]))
    else:
        parts = tuple(sorted((cand.news[0], i)))
        out[k] = _Candidate(cand.score, cand.olds, parts, "split", _group_fit(okeys[cand.olds[0]], [nkeys[p] for p in parts]))


def _held(stems: list[str], words: set[str]) -> int:
    return sum(w in words for w in stems)


def _pairing_that_holds(i: int, side: str, term: str, stems, others, other_stems,
                        out: list[_Candidate], pairs_in: Mapping[str, list[int]]) -> tuple[int, _Candidate] | None:
    """The one-to-one pairing (its place in ``out``) whose clause on the other side holds most of
    the words of clause ``i`` of ``side`` (``CONTAINMENT`` at least) in the same term, and words of
    it that the pairing's clause on ``side`` lacks (``LOST_WORDS``): a withdrawn rule worded like
    the rule kept beside it adds nothing to that rule and is no part of it. None when there is none.
    ``pairs_in``: the places in ``out`` of the pairings of each term."""
    own = stems[i]
    words = set(own)
    best = None
    for k in pairs_in.get(term, ()):
        cand = out[k]
        if len(cand.olds) != 1 or len(cand.news) != 1:  # taken into a merge or split already
            continue
        j, mate = (cand.news[0], cand.olds[0]) if side == "old" else (cand.olds[0], cand.news[0])
        theirs = set(other_stems[j])
        if len((theirs - set(stems[mate])) & words) < LOST_WORDS:
            continue
        held = _held(own, theirs)
        if held >= CONTAINMENT * len(own) and (best is None or (-held, others[j].ref) < best[0]):
            best = ((-held, others[j].ref), k, cand)
    return None if best is None else (best[1], best[2])


def _group_fit(whole: list[str], parts: list[list[str]]) -> float:
    """The word similarity of a clause to its parts joined, in the better of the two orders: a split
    may print its parts the other way round."""
    if len(parts) == 1:
        return similarity(whole, parts[0])
    return max(similarity(whole, parts[0] + parts[1]), similarity(whole, parts[1] + parts[0]))


def _holder(words: set[str], clauses, paired: int, stems, used) -> int | None:
    """The clause left alone beside ``clauses[paired]`` that holds most of ``words`` (see
    ``_words_that_live_on``). Beside: a subrule of the same rule (903.9a and 903.9b) where the ids
    are rule numbers, else the next clause left alone before or after it in the same term."""
    if len(words) < LOST_WORDS:
        return None
    near = clauses[paired]
    rule = _RULE_ID.match(near.id)
    left = [x for x in range(len(clauses)) if x not in used or x == paired]

    def beside(k: int, c) -> bool:
        if c.term != near.term:
            return False
        m = _RULE_ID.match(c.id)
        if rule and m:
            return m.group(1) == rule.group(1)
        return abs(left.index(k) - left.index(paired)) == 1 if k in left else False
    best = max(((len(words & set(stems[k])), -k) for k, c in enumerate(clauses)
                if k not in used and k != paired and beside(k, c)), default=None)
    if best is None or best[0] < LOST_WORDS or best[0] < LOST_SHARE * len(words):
        return None
    return -best[1]


def _joined(keys: list[list[str]], parts) -> list[str]:
    return [w for p in parts for w in keys[p]]
