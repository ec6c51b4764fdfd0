"""Import on top of an existing rulebook: keep the previous edition's ids, propose lineage, list decisions.

Each imported clause is matched with a clause of the previous edition, in
passes, each over what the passes before left: (1) the same words (a step's
or rule's printed number aside, so a renumbered one matches); (2) words
similar enough to be the same rule reworded (or the same short label, as
"Draw:" in a table written as lines); (3) the same printed number, with
words alike at least NUMBER_FLOOR (a rule reworded much keeps its number). Text always comes before
numbers, so a renumbered rule keeps its identity. A matched clause keeps its
id; a numbered step whose number changed takes an id of its words and
proposes ``formerly: step-N`` (a step id names a place, which it left).
What is left is looked for in parts: an imported clause made of several old
ones proposes ``merged_from``, one that is a part of an old one
``split_from``, one found whole in another term ``moved_from``. Lineage is
proposed only from where the old words went away (issue 23): never from a
clause that is still there unchanged, nor a part of a clause whose successor
still holds those words, nor from a term the import does not touch (it
carries over) unless every clause of that term went (then the term is
proposed withdrawn). Every
proposal, reworded match and clause removed is a :class:`Decision` for an
editor; a proposal is written into the term file (with an editor note), so
that ``rulebook check`` verifies it at once.
"""

from __future__ import annotations

import difflib
import functools
import re
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Mapping, Sequence

from ..model import Clause as OldClause, Edition, Term as OldTerm
from .emit import Clause, Term
from .ids import Ids, slug

#: Word similarity (difflib's ratio) from which two clauses are one rule reworded.
SIMILAR = 0.75
#: Share of a clause's words found, in order, in another clause, from which it is a part of that clause.
PART = 0.8
#: Word similarity under which the same printed number (or, unnumbered, the same place between the clauses kept
#: around it) does not make two clauses one rule, unless every old word is still there, in order (a rule that
#: gained a sentence). Measured on the Comprehensive Rules releases of 2019-2023 (docs/import.md, Ids): of the
#: same-numbered rules that no text pass takes, those between the same neighbours are the same rule reworded,
#: and 68 of 73 reach 0.33 (70 with the kept words); below 0.33 the pairs not in place outnumber them.
NUMBER_FLOOR = 0.33
#: Pairs of clauses (left by the passes within terms, times the base edition's clauses) compared to find
#: merges, moves and splits across terms; beyond, those are looked for within each term only. About
#: 20 seconds of comparisons at worst; raise it here for a larger import.
MAX_CROSS_PAIRS = 1_000_000
#: A label ("Draw: Top of deck") has at most this many words; two clauses with one label are one line of a table.
_LABEL_WORDS = 6
_NUMBER = re.compile(r"^\s*\d{1,3}[.)]?\s+")


@dataclass(frozen=True)
class Decision:
    """Something an editor must decide, at the imported clause (or term) it concerns."""

    line: int  # 0: the decision concerns no line of the document (a term it no longer has)
    ref: str
    text: str
    default: str  # what the written files do unless the editor decides otherwise


def words(text: str) -> tuple[str, ...]:
    """A clause's words for matching: a printed step number at its start left out."""
    return tuple(_NUMBER.sub("", text, count=1).split())


def similarity(a: Sequence[str], b: Sequence[str]) -> float:
    return difflib.SequenceMatcher(None, a, b, autojunk=False).ratio()


def _shared(a: Sequence[str], b: Sequence[str]) -> int:
    """How many words two clauses share, counted with repeats: a bound on any matching of their sequences.

    Cheap next to difflib's matching, which is quadratic in the words: the cross-term passes compare
    every clause left with every old clause, and test this bound first."""
    one, other = _bag(tuple(a)), _bag(tuple(b))
    return sum(min(one[word], other[word]) for word in one.keys() & other.keys())


@functools.lru_cache(maxsize=1 << 16)
def _bag(words: tuple[str, ...]) -> Counter:
    return Counter(words)


def may_be_alike(a: Sequence[str], b: Sequence[str], at_least: float) -> bool:
    """Whether ``similarity(a, b)`` can reach ``at_least`` (difflib's ratio is at most 2 * shared / total)."""
    total = len(a) + len(b)
    return total > 0 and 2 * _shared(a, b) >= at_least * total


def may_be_part(inner: Sequence[str], outer: Sequence[str]) -> bool:
    """Whether ``part_of(inner, outer)`` can reach PART."""
    return bool(inner) and _shared(inner, outer) >= PART * len(inner)


def label(text_words: Sequence[str]) -> tuple[str, ...] | None:
    """The words up to a colon that ends a short label ("Activate an Artifact:"), or None."""
    for i, word in enumerate(text_words[:_LABEL_WORDS]):
        if word.endswith(":"):
            return tuple(text_words[:i + 1])
    return None


def alike(a: Sequence[str], b: Sequence[str]) -> float:
    """How alike two clauses are: their word similarity, and at least SIMILAR when they share a label;
    0 for two that cannot reach SIMILAR (not compared word by word)."""
    own = label(a)
    if own is not None and own == label(b):
        return max(similarity(a, b), SIMILAR)
    return similarity(a, b) if may_be_alike(a, b, SIMILAR) else 0.0


def part_of(inner: Sequence[str], outer: Sequence[str]) -> float:
    """The share of ``inner``'s words found in ``outer``, in order."""
    if not inner:
        return 0.0
    found = difflib.SequenceMatcher(None, inner, outer, autojunk=False).get_matching_blocks()
    return sum(block.size for block in found) / len(inner)


@dataclass
class _Old:
    term: str
    clause: OldClause
    words: tuple[str, ...]
    number: str | None  # printed: the clause's number, or a step's number at the start of its text
    claimed: bool = False
    # the imported clause that took it (same words, reworded, by number, merged or moved into it)
    by: "_New | None" = field(default=None, repr=False, compare=False)

    @property
    def ref(self) -> str:
        return self.clause.ref


@dataclass
class _New:
    term: str
    clause: Clause
    words: tuple[str, ...]
    old: _Old | None = None
    how: str = ""  # exact | similar | number
    score: float = 1.0
    lineage: tuple[str, str | list[str]] | None = None
    why: str = ""


def _printed(clause: OldClause) -> str | None:
    number = getattr(clause, "number", None)
    if number is not None:
        return number
    match = re.match(r"\s*(\d{1,3})[.)]?\s", clause.text)
    return match[1] if match else None


def on_top(terms: Sequence[Term], previous: Edition, earlier: Sequence[Edition] = (),
           left_out: Sequence[Term] = (), whole: bool = False) -> tuple[list[Term], list[Decision]]:
    """The imported terms with the ids, lineage and notes the previous edition gives them, and the decisions.

    ``earlier``: the rulebook's editions up to ``previous``, against which entry metadata is compared;
    ``left_out``: the document's entries not imported (``--only``): their terms stay as they are; ``whole``: the
    document is imported whole, so a term it lacks is withdrawn (rulebook_compiler/importer/edition.py) and its words left
    it, for moves and splits as for a term imported."""
    terms, decisions = _metadata(terms, [*earlier, previous] if previous not in earlier else list(earlier))
    by_id = previous.term_by_id
    by_name = {t.name.casefold(): t for t in previous.terms}
    olds = {t.id: [_Old(t.id, c, words(c.text), _printed(c)) for c in t.clauses] for t in previous.terms}
    matched_terms, renamed = _terms_matched(terms, by_id, by_name, previous.id, decisions)
    news = {t.id: [_New(t.id, c, words(c.text)) for c in t.clauses] for t in renamed}
    pairs = [(news[t], olds[old.id]) for t, old in matched_terms.items() if old is not None]
    imported = set(olds) if whole else {old.id for old in matched_terms.values() if old is not None}
    kept = {t.id for t in (by_id.get(e.id) or by_name.get(e.name.casefold()) for e in left_out) if t is not None}
    _passes(pairs, news, olds, matched_terms, previous.id, imported, decisions)
    _carried_over([n for ns in news.values() for n in ns], olds, imported, kept, previous.id, decisions)
    out = [_term(t, news[t.id], matched_terms[t.id], olds, previous, decisions) for t in renamed]
    if not whole:  # a whole document withdraws every term it lacks (edition.withdraw_missing)
        out += _emptied(renamed, news, olds, previous, decisions)
    return out, decisions


def _terms_matched(terms: Sequence[Term], by_id: Mapping[str, OldTerm], by_name: dict[str, OldTerm],
                   previous: str, decisions: list[Decision]) -> tuple[dict[str, OldTerm | None], list[Term]]:
    """Each imported term's term of the previous edition (None for a new one), by the id it is imported as,
    and the imported terms under those ids."""
    retitled = _retitled(terms, by_id, by_name)
    matched_terms: dict[str, OldTerm | None] = {}
    renamed = []
    for term in terms:
        term, old = _old_term(term, by_id, by_name, retitled, previous, decisions)
        matched_terms[term.id] = old
        renamed.append(term)
    return matched_terms, renamed


def _passes(pairs, news: dict[str, list[_New]], olds: dict[str, list[_Old]],
            matched_terms: dict[str, OldTerm | None], previous: str, imported: set[str],
            decisions: list[Decision]) -> None:
    """The matching passes, each over every term before the next, so that no term's weaker pass takes
    what another's stronger one would have matched."""
    pool = [o for os in olds.values() for o in os]
    for new_clauses, old_clauses in pairs:
        _same_words(new_clauses, old_clauses)
    loose = [n for ns in news.values() for n in ns if n.old is None]
    if len(loose) * len(pool) > MAX_CROSS_PAIRS:
        decisions.append(Decision(loose[0].clause.line, loose[0].term,
                                  f"{len(loose):,} clauses left unmatched times {len(pool):,} clauses of edition "
                                  f"'{previous}' is over MAX_CROSS_PAIRS ({MAX_CROSS_PAIRS:,}, in "
                                  "rulebook_compiler/importer/match.py): merges, moves and splits were looked for within "
                                  "each term only", "looked for within each term only"))
        for term_id, old in matched_terms.items():
            _merges([n for n in news[term_id] if n.old is None], olds[old.id] if old is not None else [], previous)
    else:
        _merges(loose, pool, previous)
    for step in (_similar, _same_number, _in_place):
        for new_clauses, old_clauses in pairs:
            step(new_clauses, old_clauses)
    left = [n for ns in news.values() for n in ns if n.old is None and n.lineage is None]
    if len(left) * len(pool) > MAX_CROSS_PAIRS:
        for term_id, old in matched_terms.items():
            _parts([n for n in left if n.term == term_id], olds[old.id] if old is not None else [], previous,
                   imported)
    else:
        _parts(left, pool, previous, imported)
    for new_clauses, old_clauses in pairs:
        _absorbed(new_clauses, old_clauses, previous)


def _emptied(terms: Sequence[Term], news: dict[str, list[_New]], olds: dict[str, list[_Old]], previous: Edition,
             decisions: list[Decision]) -> list[Term]:
    """Old terms not imported whose clauses the import moved or merged elsewhere: a withdrawal each is
    proposed (``_carried_over`` left such lineage only where all of them went)."""
    imported = {t.id for t in terms}
    went: dict[str, list[tuple[str, int]]] = {}
    for new_clauses in news.values():
        for new in new_clauses:
            if new.lineage and new.lineage[0] in ("moved_from", "merged_from"):
                refs = new.lineage[1] if isinstance(new.lineage[1], list) else [new.lineage[1]]
                for ref in refs:
                    if "#" in ref:
                        went.setdefault(ref.split("#", 1)[0], []).append((ref, new.clause.line))
    out = []
    for term_id in sorted(set(went) - imported):
        line = min(line for _, line in went[term_id])
        note = (f"rulebook import proposes to withdraw term '{term_id}': every clause it had in edition "
                f"'{previous.id}' is now in another term; confirm, or keep it with a text of its own")
        decisions.append(Decision(line, term_id, note, "withdrawn"))
        out.append(Term(term_id, previous.term_by_id[term_id].name, None, None, note, (), line, withdrawn=True))
    return out


def _retitled(terms: Sequence[Term], by_id: Mapping[str, OldTerm], by_name: dict[str, OldTerm]) -> dict[str, OldTerm]:
    """Imported entries that are an old term retitled ("Stale" printed as "Stale (Obsolete)"), by imported id: the
    name without its bracketed note is the old term's name, and no entry of the document is that term itself."""
    direct = {t.id for t in terms if t.id in by_id} | {by_name[t.name.casefold()].id for t in terms
                                                       if t.name.casefold() in by_name}
    out: dict[str, OldTerm] = {}
    for term in terms:
        old = by_name.get(_untitled(term.name).casefold())
        if old is not None and old.id not in direct and term.id not in by_id and old not in out.values():
            out[term.id] = old
    return out


def _old_term(term: Term, by_id: Mapping[str, OldTerm], by_name: dict[str, OldTerm], retitled: dict[str, OldTerm],
              previous: str, decisions: list[Decision]) -> tuple[Term, OldTerm | None]:
    """The entry under the id of the old term it is (by id, by name, retitled), and that term or None."""
    old = by_id.get(term.id) or by_name.get(term.name.casefold())
    if old is None and term.id in retitled:
        old = retitled[term.id]
        decisions.append(Decision(term.line, old.id, f"entry '{term.name}' is term '{old.id}' of edition "
                                                     f"'{previous}' retitled: imported as '{old.id}'",
                                  "renamed, its id kept"))
        return replace(term, id=old.id), old
    if old is not None and old.id != term.id:
        decisions.append(Decision(term.line, term.id, f"entry '{term.name}' is term '{old.id}' of edition "
                                                      f"'{previous}' by its name: imported as '{old.id}'",
                                  "imported as the same term"))
        return replace(term, id=old.id), old
    if old is None:
        decisions.append(Decision(term.line, term.id, f"new term: edition '{previous}' has no term "
                                                      f"'{term.id}' nor one named '{term.name}'", "added"))
    return term, old


def _untitled(name: str) -> str:
    """A retitled entry's name without its note in brackets: "Stale (Obsolete)" is "Stale"; "" when it has none."""
    name = name.rstrip()
    cut = name.rfind("(")
    return name[:cut].rstrip() if name.endswith(")") and cut > 0 else ""


def _metadata(terms: Sequence[Term], editions: Sequence[Edition]) -> tuple[list[Term], list[Decision]]:
    """Entry metadata that names an edition of the rulebook which does not have the term: check refuses it, so
    the term is written without it (the default), and the editor decides."""
    by_label = {e.label: e for e in reversed(editions)}  # the first edition with a label
    out, decisions = [], []
    for term in terms:
        for key in ("released", "updated"):
            printed = getattr(term, key)
            edition = by_label.get(printed["version"]) if printed else None
            if edition is not None and term.id not in edition.term_by_id and term.name.casefold() not in {
                    t.name.casefold() for t in edition.terms}:
                decisions.append(Decision(term.line, term.id, f"'{key}' names version {printed['version']}, whose "
                                                              f"edition '{edition.id}' in the rulebook does not have "
                                                              "this term: check refuses it; correct it or leave it out",
                                          "left out"))
                term = replace(term, released=None) if key == "released" else replace(term, updated=None)
        out.append(term)
    return out, decisions


def _same_words(news: list[_New], olds: list[_Old]) -> None:
    for new in news:
        same = next((o for o in olds if not o.claimed and o.words == new.words), None)
        if same is not None:
            _claim(new, same, "exact", 1.0)


def _similar(news: list[_New], olds: list[_Old]) -> None:
    pairs = sorted(((alike(n.words, o.words), i, j) for i, n in enumerate(news) if n.old is None and not n.lineage
                    for j, o in enumerate(olds) if not o.claimed), key=lambda p: (-p[0], p[1], p[2]))
    for score, i, j in pairs:
        if score < SIMILAR:
            break
        if news[i].old is None and not olds[j].claimed:
            _claim(news[i], olds[j], "similar", score)


def same_rule(old: Sequence[str], new: Sequence[str]) -> bool:
    """Whether two clauses at one number or place are one rule: words alike at least NUMBER_FLOOR, or every old
    word still there (PART of them, in order: the rule gained words)."""
    return similarity(new, old) >= NUMBER_FLOOR or (may_be_part(old, new) and part_of(old, new) >= PART)


def _same_number(news: list[_New], olds: list[_Old]) -> None:
    for new in news:
        number = new.clause.printed
        if new.old is None and not new.lineage and number is not None:
            same = next((o for o in olds if not o.claimed and o.number == number
                         and same_rule(o.words, new.words)), None)
            if same is not None:
                _claim(new, same, "number", similarity(new.words, same.words))


def _in_place(news: list[_New], olds: list[_Old]) -> None:
    """An unnumbered clause left between two clauses kept (or a term's start or end), where the old term has
    exactly one clause left between the same two, is that clause reworded in place when ``same_rule``."""
    where = {id(o): i for i, o in enumerate(olds)}
    for i, new in enumerate(news):
        if new.old is None and not new.lineage and new.clause.printed is None:
            old = _between(news, i, olds, where)
            if old is not None and same_rule(old.words, new.words):
                _claim(new, old, "place", similarity(new.words, old.words))


def _between(news: list[_New], i: int, olds: list[_Old], where: dict[int, int]) -> _Old | None:
    """The one old clause left between the old clauses that the new clauses around ``news[i]`` keep."""
    before = news[i - 1].old if i > 0 else None
    after = news[i + 1].old if i + 1 < len(news) else None
    if (i > 0 and before is None) or (i + 1 < len(news) and after is None):
        return None  # a neighbour not kept: no place to be in
    low = where.get(id(before), -1) if before is not None else -1
    high = where.get(id(after), len(olds)) if after is not None else len(olds)
    left = [o for o in olds[low + 1:high] if not o.claimed]
    return left[0] if len(left) == 1 else None


def _claim(new: _New, old: _Old, how: str, score: float) -> None:
    new.old, new.how, new.score = old, how, score
    old.claimed, old.by = True, new


def _merges(loose: list[_New], olds: list[_Old], previous: str) -> None:
    """An imported clause that holds the words of two or more old clauses, whole, and is made of them (their
    words together are most of its own: a reworded clause much like its neighbours holds theirs too) merges
    them."""
    for new in loose:
        whole = [o for o in olds if not o.claimed and may_be_part(o.words, new.words)
                 and part_of(o.words, new.words) >= PART]
        if len(whole) >= 2 and part_of(tuple(w for o in whole for w in o.words), new.words) >= PART:
            for o in whole:
                o.claimed, o.by = True, new
            new.lineage = ("merged_from", [_ref(o, new.term) for o in whole])
            new.why = f"its words hold those of {', '.join(o.ref for o in whole)} of edition '{previous}'"


def _parts(loose: list[_New], olds: list[_Old], previous: str, imported: set[str]) -> None:
    """Moves and splits among the clauses the passes left: a split only from an old clause whose words
    left their place (``_left``)."""
    for new in loose:
        same = next((o for o in olds if not o.claimed and o.term != new.term
                     and may_be_alike(o.words, new.words, SIMILAR) and similarity(o.words, new.words) >= SIMILAR),
                    None)
        if same is not None:
            same.claimed, same.by = True, new
            new.lineage = ("moved_from", same.ref)
            new.why = f"{same.ref} of edition '{previous}' has {_alike(similarity(same.words, new.words))}"
            continue
        candidates = [o for o in olds if may_be_part(new.words, o.words) and _left(new.words, o, imported)]
        outer = max(candidates, key=lambda o: (part_of(new.words, o.words), o.term == new.term), default=None)
        if outer is not None and part_of(new.words, outer.words) >= PART:
            new.lineage = ("split_from", _ref(outer, new.term))
            new.why = f"its words are part of {outer.ref} of edition '{previous}'"


def _absorbed(news: list[_New], olds: list[_Old], previous: str) -> None:
    """An old clause of the term left by every pass whose words (PART of them, in order) are now in a clause of
    the term that carries on another old clause (kept, moved or merged) not holding them: its sentences moved
    into that neighbour, which merges it (issue 23). Never from a clause still there: only the unclaimed."""
    for o in (o for o in olds if not o.claimed):
        holders = [n for n in news if _carries_on(n) and may_be_part(o.words, n.words)
                   and part_of(o.words, n.words) >= PART and not any(part_of(o.words, w) >= PART
                                                                     for w in _was(n, olds))]
        if holders:
            _merge_into(max(holders, key=lambda n: part_of(o.words, n.words)), o, previous)


def _carries_on(new: _New) -> bool:
    """Whether the clause continues an old one: keeps its id, or moved or merged it (a split part does not)."""
    return new.old is not None or (new.lineage is not None and new.lineage[0] != "split_from")


def _merge_into(new: _New, o: _Old, previous: str) -> None:
    kept = new.old is not None and new.lineage is None
    before = [_ref(new.old, new.term)] if kept and new.old is not None else _named(new)
    o.claimed, o.by = True, new
    new.lineage = ("merged_from", before + [_ref(o, new.term)])
    here = new.old.ref if kept and new.old is not None else f"{new.term}#{new.clause.id}"
    new.why = (f"{o.ref} of edition '{previous}' is gone and every word of it is here, in {here}"
               + (f" ({_how(new)})" if kept else ""))


def _was(new: _New, olds: list[_Old]) -> list[tuple[str, ...]]:
    """The words of what ``new`` carries on (the old clause it keeps, or the one(s) its lineage names)."""
    if new.old is not None and new.lineage is None:
        return [new.old.words]
    return [o.words for o in olds if o.by is new]


def _named(new: _New) -> list[str]:
    assert new.lineage is not None
    value = new.lineage[1]
    return list(value) if isinstance(value, list) else [value]


def _how(new: _New) -> str:
    return {"number": f"matched by its number {new.clause.printed}", "similar": "reworded",
            "place": "reworded in place"}.get(new.how, "the same words")


def _left(part: Sequence[str], old: _Old, imported: set[str]) -> bool:
    """Whether these words (a part of the old clause) left it: its term is imported, and the clause is
    gone from it or what took it does not hold them (a clause that is still there unchanged holds all)."""
    if old.term not in imported:
        return False  # the term carries over, and the clause with it
    return old.by is None or part_of(part, old.by.words) < PART


def _carried_over(news: list[_New], olds: dict[str, list[_Old]], imported: set[str], kept: set[str],
                  previous: str, decisions: list[Decision]) -> None:
    """A move or merge from a term the import does not touch stands only when the document no longer
    has that term (``kept``: entries left out with --only) and every clause of it went (it is proposed
    withdrawn, ``_emptied``); otherwise the term carries over with the clause, and the proposal is a
    decision instead (check would refuse a clause claimed twice)."""
    taken: dict[str, set[str]] = {}
    for new in news:
        for ref in _sources(new):
            taken.setdefault(ref.split("#", 1)[0], set()).add(ref)
    touched = imported | kept
    stands = imported | {t for t, refs in taken.items() if t not in touched and len(refs) == len(olds[t])}
    for new in news:
        carried = [ref for ref in _sources(new) if ref.split("#", 1)[0] not in stands]
        if not carried or new.lineage is None:  # carried names the lineage's sources: it has some
            continue
        kind, value = new.lineage
        shown = ", ".join(value) if isinstance(value, list) else value
        term = carried[0].split("#", 1)[0]
        score = similarity(new.words, tuple(w for o in olds[term] if o.ref in carried for w in o.words))
        decisions.append(Decision(new.clause.line, f"{new.term}#{new.clause.id}",
                                  f"its words are like those of {', '.join(carried)} of edition '{previous}' "
                                  f"({_alike(score)}), which term '{term}' carries over (it is not in the "
                                  f"import): no {kind} proposed; if they moved here, withdraw or change term "
                                  f"'{term}' and add {kind}: {shown}", f"no {kind}; term '{term}' carries over"))
        for o in olds[term]:
            if o.by is new:
                o.claimed, o.by = False, None
        new.lineage, new.why = None, ""


def _sources(new: _New) -> list[str]:
    """The qualified old clauses a move or merge names (none for other lineage)."""
    if not new.lineage or new.lineage[0] not in ("moved_from", "merged_from"):
        return []
    value = new.lineage[1]
    return [_qualified(ref, new.term) for ref in (value if isinstance(value, list) else [value])]


def _alike(score: float) -> str:
    return "the same words" if score == 1.0 else f"words {score:.0%} alike"


def _ref(old: _Old, term: str) -> str:
    return old.clause.id if old.term == term else old.ref


def _term(term: Term, news: list[_New], old: OldTerm | None, olds: dict[str, list[_Old]], previous: Edition,
          decisions: list[Decision]) -> Term:
    reserved = {o.clause.id for o in olds.get(old.id, [])} if old is not None else set()
    kept = {n.old.clause.id for n in news if n.old is not None and not _leaves_step_id(n)}
    taken = Ids(kept | reserved)  # a new clause takes neither a kept id nor one the old term had
    reuse = _reused(news, kept)  # ids the old term had: no other new clause takes them
    by_clause = {id(n.clause): n for n in news}
    sections = []
    for section in term.sections:
        clauses = []
        for clause in section.clauses:
            new = by_clause[id(clause)]
            clauses.append(_clause(new, term, reserved, taken, previous.id, decisions, reuse))
        sections.append(replace(section, clauses=tuple(clauses)))
    if old is not None:
        claimed = {n.old.ref for n in news if n.old is not None}
        split = {_qualified(ref, term.id) for n in news if n.lineage and n.lineage[0] == "split_from"
                 for ref in (n.lineage[1] if isinstance(n.lineage[1], list) else [n.lineage[1]])}
        for o in olds[old.id]:
            if o.ref not in claimed and not o.claimed and o.ref not in split:
                decisions.append(Decision(term.line, o.ref, f"clause '{o.clause.id}' of edition '{previous.id}' is "
                                                            "not in the import: removed? (a term file replaces the "
                                                            "whole term; a patch could keep it)", "removed"))
        if old.decisions:
            names = ", ".join(d.name for d in old.decisions)
            decisions.append(Decision(term.line, term.id, f"edition '{previous.id}' declares decisions of this "
                                                          f"term ({names}): carry over those that still hold",
                                          "not carried over"))
    return replace(term, sections=tuple(sections))


def _kept(new: _New) -> str:
    """", all of its old words kept" where the match rests on them rather than on the similarity."""
    assert new.old is not None
    return ", all of its old words kept" if new.score < NUMBER_FLOOR else ""


def _default(new: _New) -> str:
    """What the written clause does about its decision."""
    if new.lineage is not None:
        return f"{new.lineage[0]} as proposed"
    return "the same rule, its id kept"


def _qualified(ref: str, term: str) -> str:
    return ref if "#" in ref else f"{term}#{ref}"


def _leaves_step_id(new: _New) -> bool:
    """A numbered step matched to ``step-N`` whose printed number is no longer N (``new.old`` is set)."""
    assert new.old is not None
    old_id = new.old.clause.id
    return (re.fullmatch(r"step-\d+", old_id) is not None and new.clause.printed is not None
            and old_id != f"step-{new.clause.printed}")


def _clause(new: _New, term: Term, reserved: set[str], taken: Ids, previous: str, decisions: list[Decision],
            reuse: dict[int, str]) -> Clause:
    clause, note = new.clause, None
    if new.old is not None and not _leaves_step_id(new):
        clause = replace(clause, id=new.old.clause.id)
        ref = new.old.ref
        note = _match_note(new, clause, previous)
        if new.old.clause.rules or new.old.clause.defines or new.old.clause.steps or new.old.clause.table:
            decisions.append(Decision(clause.line, ref, f"{new.old.ref} has meaning in edition '{previous}' "
                                                        "(rules, defines, steps or table): carry over what still "
                                                        "holds", "not carried over"))
    else:
        fresh = clause.id
        if new.old is not None:  # a step renumbered: an id of its words, and where it was
            fresh = slug(" ".join(new.words), 5) or fresh
            if new.lineage is None:
                new.lineage = ("formerly", new.old.clause.id)
                new.why = f"it was step {new.old.number} of edition '{previous}' ({_alike(new.score)})"
        wanted = fresh if fresh not in reserved else slug(" ".join(new.words), 5) or fresh
        clause = replace(clause, id=reuse[id(new)] if id(new) in reuse else taken.take(wanted))
        ref = f"{term.id}#{clause.id}"
    if new.lineage is not None:
        kind, value = new.lineage
        shown = ", ".join(value) if isinstance(value, list) else value
        note = f"rulebook import proposes {kind}: {shown}, as {new.why}; confirm or remove it"
        clause = replace(clause, lineage=(kind, value))
    if note is not None:
        clause = replace(clause, editor_notes=note)
        decisions.append(Decision(clause.line, ref, note, _default(new)))
    return clause


def _match_note(new: _New, clause: Clause, previous: str) -> str | None:
    """What an editor is asked about a clause that keeps an old clause's id by other than the same words."""
    assert new.old is not None
    if new.how == "similar":
        return (f"reworded since edition '{previous}' ({_alike(new.score)}): it keeps the id of "
                f"{new.old.ref}; same rule?")
    if new.how == "number":
        return (f"matched to {new.old.ref} of edition '{previous}' by its number {clause.printed} alone "
                f"({_alike(new.score)}{_kept(new)}): same rule?")
    if new.how == "place":
        return (f"reworded in place since edition '{previous}' ({_alike(new.score)}{_kept(new)}, between the "
                f"same clauses): it keeps the id of {new.old.ref}; same rule?")
    return None


def _reused(news: list[_New], kept: set[str]) -> dict[int, str]:
    """A merge that keeps no id of its own takes that of the first clause of its term it merges (a rule's
    sentences moved into it keep its permalink), when no clause kept that id."""
    out: dict[int, str] = {}
    for new in news:
        if new.old is None and new.lineage is not None and new.lineage[0] == "merged_from":
            own = next((ref for ref in _named(new) if "#" not in ref and ref not in kept
                        and ref not in out.values()), None)
            if own is not None:
                out[id(new)] = own
    return out
