"""Tables: what their rows and their ``otherwise`` row mean, and the checks on them.

A printed table is often transcribed one line per clause ("Draw: Top of Deck",
"Hold: ...", "All Other Abilities: In Play"), so the rows of all of a term's
tables for one decision are read as one table: rows must not overlap with
different answers, and an ``otherwise`` row answers every situation that none
of them covers. A row matches where each of its table's key facts has one of
the values the row gives it; a fact that its table does not key on is free.

The conditions built here are exact in any vocabulary: the otherwise row's is
"none of the rows match", never a list of the values left over, so an edition
that adds values to a key fact sends them to the otherwise row.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence, cast

from .conditions import All, Any_, Condition, Const, In, Not, Ref
from .diagnostics import Location
from .model import Answer, Clause, Table, TableRow

# Covering the key space with rows is computed as boxes left over; past this many
# boxes visited the otherwise row is not checked for covering nothing (the logic
# checks still report it as a dead rule).
MAX_TABLE_PIECES = 1_000_000
# Pairs of rows compared for overlaps, at most (a located error beyond): rows that
# share no key fact all meet, and comparing every pair of many is quadratic.
MAX_TABLE_PAIRS = 1_000_000


def cell_condition(fact: str, values: Sequence[Answer], loc: Location | None) -> Condition:
    """A key fact has one of these values: ``in``/``is`` for an enum fact, the fact or its
    negation for a bool one (true and false together: always)."""
    if values and all(isinstance(v, bool) for v in values):
        if True in values and False in values:
            return Const(True, loc)
        return Ref(fact, loc) if True in values else Not(Ref(fact, loc), loc)
    # not all bools: an enum fact's, whose values the schema checked are names
    return In(fact, cast(tuple[str, ...], tuple(values)), len(values) == 1, loc)


def row_condition(facts: Sequence[str], cells: Sequence[Sequence[Answer]],
                  locs: Sequence[Location | None], loc: Location | None) -> Condition:
    """Where a row matches: every key fact has one of its values."""
    parts = [cell_condition(f, c, l) for f, c, l in zip(facts, cells, locs)]
    return parts[0] if len(parts) == 1 else All(tuple(parts), loc)


def otherwise_condition(rows: Sequence[tuple[Table, TableRow]], loc: Location | None) -> Condition | None:
    """Where none of the rows matches (None: always, when there are no rows).

    Rows that all test one enum fact read as ``not in`` their values together;
    otherwise ``not any`` of the rows' conditions.
    """
    if not rows:
        return None
    conds = [row_condition(t.facts, r.cells, [loc] * len(r.cells), loc) for t, r in rows]
    ins = [c for c in conds if isinstance(c, In)]
    if len(ins) == len(conds) and all(c.fact == ins[0].fact for c in ins):
        values = tuple(dict.fromkeys(v for c in ins for v in c.values))
        return Not(In(ins[0].fact, values, len(values) == 1, loc), loc)
    return Not(Any_(tuple(conds), loc), loc)


def groups(clauses: Iterable[Clause]) -> dict[str, list[tuple[Clause, Table]]]:
    """A term's clauses with tables, each with its table, by decision: each list is one table."""
    found: dict[str, list[tuple[Clause, Table]]] = {}
    for clause in clauses:
        if clause.table is not None:
            found.setdefault(clause.table.decision, []).append((clause, clause.table))
    return found


Box = dict[str, frozenset]  # a row as the set of values it allows for each fact it keys on


def box(table: Table, row: TableRow) -> Box:
    return {f: frozenset(c) for f, c in zip(table.facts, row.cells)}


@dataclass(frozen=True)
class Overlap:
    first: TableRow  # the row written first
    second: TableRow
    table: Table | None  # the table that holds both rows, if one does
    where: tuple[tuple[str, Answer], ...]  # one situation both rows match, over the facts either keys on


def overlaps(rows: Sequence[tuple[Table, TableRow]]) -> list[Overlap] | None:
    """Every pair of rows that match some situation together, in the order written.

    Only rows that share a value of one fact can overlap, where every row keys
    on that fact: pairs are drawn from the buckets of the fact whose buckets
    give the fewest (a one-key table's rows meet in no bucket at all), not
    from all pairs, which made a 6,000-line table take a minute. None when
    more than MAX_TABLE_PAIRS pairs would be compared.
    """
    boxes = [box(t, r) for t, r in rows]
    candidates = _candidates(boxes)
    if candidates is None:
        return None
    found = []
    for i, j in sorted(candidates):
        a, b = boxes[i], boxes[j]
        if all(a[f] & b[f] for f in a.keys() & b.keys()):
            found.append(Overlap(rows[i][1], rows[j][1], rows[i][0] if rows[i][0] is rows[j][0] else None,
                                 _witness(rows[i], rows[j], a, b)))
    return found


def _candidates(boxes: Sequence[Box]) -> set[tuple[int, int]] | None:
    """Pairs (i, j), i < j, of rows that may overlap (None: more than MAX_TABLE_PAIRS)."""
    common = set(boxes[0]).intersection(*boxes[1:]) if boxes else set()
    best: dict[object, list[int]] | None = None
    for fact in sorted(common):
        buckets: dict[object, list[int]] = {}
        for i, b in enumerate(boxes):
            for value in b[fact]:
                buckets.setdefault((type(value), value), []).append(i)
        if best is None or _pairs(buckets) < _pairs(best):
            best = buckets
    if best is None:  # no fact that every row keys on: rows of different keys always meet
        if len(boxes) * (len(boxes) - 1) // 2 > MAX_TABLE_PAIRS:
            return None
        return {(i, j) for j in range(len(boxes)) for i in range(j)}
    if _pairs(best) > MAX_TABLE_PAIRS:
        return None
    return {(i, j) for members in best.values() for n, j in enumerate(members) for i in members[:n] if i != j}


def _pairs(buckets: Mapping) -> int:
    return sum(len(m) * (len(m) - 1) // 2 for m in buckets.values())


def _witness(first: tuple[Table, TableRow], second: tuple[Table, TableRow], a: Box, b: Box):
    where: list[tuple[str, Answer]] = []
    for table, row in (first, second):
        for fact, cell in zip(table.facts, row.cells):
            if fact in dict(where):
                continue
            common = [v for v in cell if v in a.get(fact, cell) and v in b.get(fact, cell)]
            where.append((fact, common[0]))
    return tuple(where)


def show(where: Iterable[tuple[str, Answer]]) -> str:
    """``ability is hold and card_type is hero``; bool facts as ``blocked`` / ``not blocked``."""
    parts = []
    for fact, value in where:
        if value is True:
            parts.append(fact)
        elif value is False:
            parts.append(f"not {fact}")
        else:
            parts.append(f"{fact} is {value}")
    return " and ".join(parts)


def uncovered(rows: Sequence[tuple[Table, TableRow]], domains: Mapping[str, Sequence[Answer]]) -> bool | None:
    """Whether some combination of the key facts' values matches no row (None: too many to tell).

    Box subtraction: start from the whole space of the facts the rows key on and
    take each row away; what is left is a list of disjoint boxes.
    """
    facts = list(dict.fromkeys(f for t, _ in rows for f in t.facts))
    if len(facts) == 1:  # one key (the usual table): covered when the rows name every value
        named = {v for _, r in rows for v in r.keys}
        return any(v not in named for v in domains[facts[0]])
    left: list[Box] = [{f: frozenset(domains[f]) for f in facts}]
    visited = 0
    for table, row in rows:
        cut = box(table, row)
        pieces: list[Box] = []
        visited += len(left)
        if visited > MAX_TABLE_PIECES:
            return None
        for piece in left:
            if not all(piece[f] & cut[f] for f in cut):
                pieces.append(piece)
                continue
            rest = dict(piece)
            for f in cut:  # what the row does not allow of this fact, the others narrowed so far
                outside = rest[f] - cut[f]
                if outside:
                    pieces.append({**rest, f: outside})
                rest[f] = rest[f] & cut[f]
        left = pieces
        if not left:
            return False
    return bool(left)
