"""The diff of two editions: ``diff_editions(book_old, ed_old, book_new, ed_new)``.

Terms with equal content hashes are skipped first; the clauses of the others
are paired (``match``), each pairing classified (``classify``), the meaning
it touches compared as functions (``behaviour``), its reach listed
(``impact``), its text redlined (``redline``) and fingerprinted.

``run`` is those steps in order, each a function from typed values to typed
values: ``read_terms`` (the terms that differ) -> ``pair_clauses`` ->
``Context.of`` (what every change is finished with, made once) ->
``draft_changes`` (``rulebook_compiler.diff.draft``) -> ``compare_names`` (the names
the drafts touch, with those a vocabulary change reaches) -> ``asked_drafts``
-> ``finish_changes`` (each draft graded by ``level.grade``, made a
``Change`` and kept as a ``Pending`` with what the last steps read of it) ->
``charge_names`` and ``ruled_by`` -> ``conformance`` (the old suite's cases
that flip). Results are ``rulebook_compiler.diff.result``'s.
"""

from __future__ import annotations

import gc
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Mapping

from .. import progress
from ..conditions import to_json as cond_json
from ..diagnostics import Location
from ..model import Edition, Rulebook, Term, Vocabulary
from . import classify as K
from . import level as L
from . import names as N
from .behaviour import EQUIVALENT, Behaviour, Side as FunctionSide, shared_core, compare, constraints_apart, \
    merged_vocabulary, unanswered
from .clause_behaviour import clause_compare
from .conformance_impact import OldSuite
from .draft import Draft, Name, Terms, asked_draft, clause_draft, header_draft
from .fingerprint import fingerprint
from .impact import Use, Uses
from .inside import sub_changes
from .lineage import Group, declared_groups
from .match import Declared, Pairing, TermPair, changed_ids, match_clauses
from .redline import Redline, redline
from .result import (Change, DiffResult, LineageNote, Numbers, Place, Reach, SideInfo, StepMove, StructureEdit,
                     side_info)
from .rulings import RulingSide, diff_rulings
from .source import EditionSource, FullSource
from .steps import ProcedureChange, procedure_changes, renumbering, step_numbers
from .vocabulary import VocabularyChanges, lacking, readers, reordered, ruling, vocabulary_changes


def diff_editions(book_old: Rulebook, ed_old: Edition | str, book_new: Rulebook, ed_new: Edition | str,
                  *, old_info: SideInfo | None = None, new_info: SideInfo | None = None,
                  old_path=None, new_path=None, terms: Iterable[str] | None = None,
                  conformance: bool = True, rulings: bool = True) -> DiffResult:
    """The diff from one edition to another (of the same or of two rulebooks).

    ``old_path``/``new_path`` map a source Location to the file name shown (the
    default shows it as loaded); ``terms`` limits the diff to some term ids;
    ``conformance``: whether to say which cases of the old edition's suite flip;
    ``rulings``: whether to say which rulings flip, stop applying or stand (read from each book's folder).
    """
    old = book_old.edition(ed_old) if isinstance(ed_old, str) else ed_old
    new = book_new.edition(ed_new) if isinstance(ed_new, str) else ed_new
    result = diff_sources(FullSource(old), old.vocabulary, FullSource(new), new.vocabulary,
                        old_info=old_info, new_info=new_info, old_path=old_path, new_path=new_path, terms=terms,
                        lineage=declared_groups(book_old, old, book_new, new),
                        suite=OldSuite(book_old, old) if conformance else None)
    if not rulings:
        return result
    return replace(result, rulings=diff_rulings(RulingSide(Path(book_old.root), book_old, FullSource(old)),
                                                RulingSide(Path(book_new.root), book_new, FullSource(new))))


def diff_sources(old: EditionSource, vocabulary_old: Vocabulary, new: EditionSource, vocabulary_new: Vocabulary,
                 *, old_info: SideInfo | None = None, new_info: SideInfo | None = None,
                 old_path=None, new_path=None, terms: Iterable[str] | None = None,
                 lineage: tuple[Group, ...] = (), suite: OldSuite | None = None) -> DiffResult:
    """``diff_editions`` over two sources (``rulebook_compiler.diff.source``): whole editions or cached ones.

    ``lineage``: the declared lineage groups between the two (``rulebook_compiler.diff.lineage``);
    ``suite``: the old edition's conformance suite, whose flipped cases are reported (none without it).
    """
    # As while building (rulebook_compiler.build): the index and the drafts allocate many
    # long-lived objects and no cycles, and each automatic full collection would
    # rescan the whole model in memory (half the diff's time at 5,000 terms).
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _run(old, vocabulary_old, new, vocabulary_new, old_info=old_info, new_info=new_info,
                    old_path=old_path, new_path=new_path, terms=terms, lineage=lineage, suite=suite)
    finally:
        if enabled:
            gc.enable()


def _run(old: EditionSource, vocabulary_old: Vocabulary, new: EditionSource, vocabulary_new: Vocabulary,
         *, old_info, new_info, old_path, new_path, terms, lineage, suite=None) -> DiffResult:
    sides = Sides(old, new, old_path or _plain_path, new_path or _plain_path, (vocabulary_old, vocabulary_new))
    return run(sides, old_info or side_info(old.edition), new_info or side_info(new.edition),
               set(terms) if terms is not None else None, lineage, suite)


def _plain_path(loc: Location) -> str:
    return loc.path


def location_json(loc: Location, path) -> Place:
    return Place(path(loc), loc.line, loc.col)


def run(sides: Sides, old_info: SideInfo, new_info: SideInfo, only: set[str] | None,
        lineage: tuple[Group, ...] = (), suite: OldSuite | None = None) -> DiffResult:
    """The diff's steps, each a function of what the steps before it made."""
    read = read_terms(sides, only, lineage)
    pairings = pair_clauses(sides, read, lineage)
    context = Context.of(sides, read, pairings)
    drafts = draft_changes(read, pairings)
    compared = compare_names(context, drafts, only)
    asked, asked_terms = asked_drafts(compared, drafts)
    pending = finish_changes(context, compared, drafts + asked, {**asked_terms, **context.terms_by_id})
    names = ruled_by(compared, context, charge_names(context, compared, pending))
    changes, names = conformance(context, compared, suite, pending, names)
    behaviours = tuple(compared.behaviours[k] for k in sorted(compared.behaviours))
    return DiffResult(old_info, new_info, tuple(changes), behaviours, sides.vocabulary_changes, names)


# -- the sides, the terms read, the context ---------------------------------------------------------


@dataclass(frozen=True)
class Sides:
    """The two sources, how each shows a file, and each side's vocabulary."""

    old: EditionSource
    new: EditionSource
    old_path: Callable[[Location], str]
    new_path: Callable[[Location], str]
    vocabularies: tuple[Vocabulary, Vocabulary]

    @cached_property
    def vocabulary(self) -> Vocabulary:
        """Both vocabularies merged: what the behaviours are compared over."""
        return merged_vocabulary(*self.vocabularies)

    @cached_property
    def vocabulary_changes(self) -> VocabularyChanges:
        return vocabulary_changes(*self.vocabularies)

    @property
    def own(self) -> tuple[Vocabulary | None, Vocabulary | None]:
        """Each side's own vocabulary, for witnesses it could not describe; None when both are the same."""
        old, new = self.vocabularies
        return (None, None) if old == new else (old, new)

    # Read on first need: by the behaviours of what changed, and by the impact of a
    # change of meaning that names nothing (a steps block added or removed).
    @cached_property
    def uses_old(self) -> Uses:
        return self.old.uses()

    @cached_property
    def uses_new(self) -> Uses:
        return self.new.uses()

    def uses(self) -> tuple[Uses, Uses]:
        return self.uses_old, self.uses_new

    def dependents(self, names: set[Name]) -> set[Name]:
        """The names that read these on either side, these included (``uses.dependents``)."""
        return self.uses_old.dependents(names) | self.uses_new.dependents(names)


@dataclass(frozen=True)
class Read:
    """The terms the diff reads: those that differ (``ids``), those read for a declared group only
    (``joined``), and each as a pair of its two sides."""

    ids: tuple[str, ...]
    joined: frozenset[str]
    pairs: tuple[TermPair, ...]
    digests: tuple[Mapping[str, str], Mapping[str, str]]


def read_terms(sides: Sides, only: set[str] | None, lineage: tuple[Group, ...]) -> Read:
    """The terms whose content hashes differ (those of ``only``, when given), with every term a
    declared group joins to one of them; only these are read (from the cache, they are loaded here)."""
    old_digests, new_digests = sides.old.digests(), sides.new.digests()
    ids = changed_ids(old_digests, new_digests)
    if only is not None:
        ids = [tid for tid in ids if tid in only]
    joined = set(_with_lineage_terms(ids, lineage, old_digests, new_digests)) - set(ids)
    ids = sorted(set(ids) | joined) if joined else ids
    pairs = tuple(TermPair(tid, sides.old.term(tid) if tid in old_digests else None,
                           sides.new.term(tid) if tid in new_digests else None) for tid in ids)
    return Read(tuple(ids), frozenset(joined), pairs, (old_digests, new_digests))


def pair_clauses(sides: Sides, read: Read, lineage: tuple[Group, ...]) -> list[Pairing]:
    """The clauses of each side paired with the other's (``match``), declared lineage first."""
    pairings = match_clauses(list(read.pairs), _declared(sides, lineage, set(read.ids), *read.digests))
    if read.joined:  # a term read for a declared group only: its other clauses are not this diff's
        pairings = [p for p in pairings if any(c.term not in read.joined for c in p.old + p.new)]
    return pairings


@dataclass(frozen=True)
class Context:
    """What every change is finished with, made once per diff from the terms read and their pairings."""

    sides: Sides
    read: Read
    terms: Terms  # what the level reads around a change
    steps: tuple[Mapping[str, tuple[str, int]], Mapping[str, tuple[str, int]]]  # each side: ref -> (procedure, n)
    # Each old clause's one new counterpart: a procedure reads a renamed step as the same step.
    counterpart: Mapping[str, str]
    drift: _DriftReader

    @staticmethod
    def of(sides: Sides, read: Read, pairings: list[Pairing]) -> Context:
        pairs = read.pairs
        terms = Terms({p.id: p for p in pairs}, _words(pairs), _paired(pairings), sides.vocabularies)
        return Context(sides, read, terms,
                       _step_numbers(pairs), _counterparts(pairings), _DriftReader(sides))

    @property
    def terms_by_id(self) -> dict[str, Term]:
        """Each term read, as the new side has it (else the old): for the order of changes."""
        return {p.id: term for p in self.read.pairs if (term := p.new or p.old) is not None}


def _words(pairs: tuple[TermPair, ...]) -> tuple[dict[str, str], dict[str, str]]:
    """Each side's words per term, for a sentence that moved to or from another clause (level)."""
    return ({p.id: " ".join(c.text for c in p.old.clauses) for p in pairs if p.old},
            {p.id: " ".join(c.text for c in p.new.clauses) for p in pairs if p.new})


def _paired(pairings: list[Pairing]) -> tuple[frozenset[str], frozenset[str]]:
    """The clauses of each side paired with the other's (the subrules a heading may head)."""
    both = [p for p in pairings if p.old and p.new]
    return frozenset(c.ref for p in both for c in p.old), frozenset(c.ref for p in both for c in p.new)


def _step_numbers(pairs: tuple[TermPair, ...]) -> tuple[dict[str, tuple[str, int]], dict[str, tuple[str, int]]]:
    """Each side's steps: ref -> (procedure, its place)."""
    return ({r: n for p in pairs for r, n in step_numbers(p.old).items()},
            {r: n for p in pairs for r, n in step_numbers(p.new).items()})


def _counterparts(pairings: list[Pairing]) -> dict[str, str]:
    """Each old clause's counterpart, so that a procedure reads a renamed step as the same step."""
    return {p.old[0].ref: p.new[0].ref for p in pairings if len(p.old) == 1 and len(p.new) == 1}


class _DriftReader:
    """Drift's reading of each side, made once per diff: predicate names, conditions, labels."""

    def __init__(self, sides: Sides):
        self.sides = sides
        self._names: dict[int, set[str]] = {}
        self._conditions: dict[int, tuple] = {}

    def predicate_names(self, side: EditionSource) -> set[str]:
        """The side's predicate names as a set, made once per diff (drift intersects it per change)."""
        if id(side) not in self._names:
            self._names[id(side)] = set(side.predicate_names())
        return self._names[id(side)]

    def conditions(self, edition: Edition | None) -> tuple[dict, K.PredicateKeys]:
        """The edition's predicate conditions and what each tests, made once per edition object: a side
        loaded whole hands the same edition for every change, so drift costs what the changes read."""
        if edition is None:
            return {}, K.PredicateKeys({})
        memo = self._conditions
        if id(edition) not in memo:
            predicates = {n: p.condition for n, p in edition.predicates.items()}
            memo[id(edition)] = (edition, predicates, K.PredicateKeys(predicates))  # the edition keeps its id
        return memo[id(edition)][1:]

    @cached_property
    def labels(self) -> K.Labels:
        return K.condition_labels(self.sides.vocabulary, self.predicate_names(self.sides.old)
                                  | self.predicate_names(self.sides.new))

    def side(self, source: EditionSource, clauses: tuple, text: str | None) -> K.Side:
        """What the clauses' conditions test, through the predicates they use (loaded only when compared)."""
        refs = K.predicate_refs(clauses) & self.predicate_names(source)
        edition = source.evaluable([("predicate", n) for n in sorted(refs)]) if refs else None
        predicates, covers = self.conditions(edition)
        return K.Side(text or "", K.keys_tested(clauses, predicates), tuple(l.phrase for c in clauses for l in c.links),
                      covers)


def _declared(sides: Sides, groups: tuple[Group, ...], ids: set[str], old_digests, new_digests) -> tuple[Declared, ...]:
    """The declared groups that touch the terms diffed, with their clauses as each side has them.

    A clause a side does not have (its term withdrawn since, say) is left
    out; a group left without a side is left to the guesses of ``match``.
    """
    old_side, new_side = _Clauses(sides.old, old_digests), _Clauses(sides.new, new_digests)
    found = []
    for group in groups:
        if not any(ref.split("#", 1)[0] in ids for ref in group.olds + group.news):
            continue
        olds, news = old_side.found(group.olds), new_side.found(group.news)
        if olds and news and [c.ref for c in olds] != [c.ref for c in news]:
            found.append(Declared(olds, news, group.kinds))
    return tuple(found)


def draft_changes(read: Read, pairings: list[Pairing]) -> list[Draft]:
    """Each heading that differs and each pairing that changed (``rulebook_compiler.diff.draft``), in order."""
    found = [header_draft(p) for p in read.pairs if p.id not in read.joined] + [
        clause_draft(p) for p in progress.track(pairings, "clauses")]
    return [d for d in found if d is not None]


# -- behaviour: the names compared ---------------------------------------------------------------


@dataclass(frozen=True)
class Compared:
    """The decisions and predicates compared as functions, and what the vocabulary's changes read."""

    behaviours: Mapping[Name, Behaviour]  # every name compared, dependents included
    one: Mapping[Name, N.NameChange]  # the names of one side only
    function_sides: tuple[FunctionSide, FunctionSide] | None  # None when nothing was compared
    readers: VocabularyReaders

    @property
    def editions(self) -> tuple[Edition, Edition]:
        assert self.function_sides is not None, "the editions of a diff that compared names"
        return self.function_sides[0].edition, self.function_sides[1].edition


@dataclass(frozen=True)
class VocabularyReaders:
    """The names whose answers a vocabulary change may change with their rules unchanged
    (``vocabulary_readers``): each with the facts it reads of those, the values each side lacks, the
    constraints that rule its situations in or out."""

    read: Mapping[Name, set[str]] = field(default_factory=dict)
    lacks: Mapping[Name, tuple[dict[str, tuple[str, ...]], dict[str, tuple[str, ...]]]] = field(default_factory=dict)
    ruled: Mapping[Name, tuple[tuple[str, str], ...]] = field(default_factory=dict)


def compare_names(context: Context, drafts: list[Draft], only: set[str] | None) -> Compared:
    """The names the changes touch, with those a vocabulary change may change, compared."""
    touched = {n for d in drafts if d.meaning_changed for n in d.names}
    # Names whose terms may not have changed, but whose answers a vocabulary change may have.
    found = vocabulary_readers(context.sides, only, touched)
    return _behaviours(context.sides, touched | set(found.read), found)


def vocabulary_readers(sides: Sides, only: set[str] | None, touched: set[Name]) -> VocabularyReaders:
    """The predicates and decisions whose answers a vocabulary change may change with their rules
    unchanged, on either side, directly or through the predicates they use: (kind, name) -> the facts
    they read of those whose change they read. An ordered fact whose order changed (``reordered``)
    changes every comparison that reads it; a value added to or withdrawn from an enum fact
    (``lacking``) gives new situations, for a name compared only for it (not one that ``touched``,
    the names of changed rules, reaches): with it, that name's ``behaviour.compare`` lacks, (kind,
    name) -> each side's lacking values of the facts it reads. A constraint added, withdrawn or
    changed in its condition (``ruling``) rules situations in or out: a name that reads a fact it
    ties, and that changed rules do not reach, is compared too (with each side's own constraints,
    as every name is), (kind, name) -> those constraints as (id, how). Such a fact may be read
    anywhere: every term of both sides (those of ``only``, when given) is read (loaded, from the
    cache) for it, and only then; a name is kept when one of those terms declares or defines it."""
    ordered = set(reordered(sides.vocabulary_changes))
    lacks = lacking(sides.vocabulary_changes)
    valued = set(lacks[0]) | set(lacks[1])  # facts with values added or withdrawn
    ruled = ruling(*sides.vocabularies)
    tied = {f for _, _, facts in ruled for f in facts}
    if not ordered | valued | tied:
        return VocabularyReaders()
    found = _fact_readers(sides, only, ordered | valued | tied)
    if not valued and not ruled:
        return VocabularyReaders(found)
    return _for_vocabulary(found, sides.dependents(touched), ordered, valued, lacks, ruled)


def _for_vocabulary(found: dict[Name, set[str]], by_rules: set[Name], ordered: set[str], valued: set[str],
                    lacks: tuple[dict[str, tuple[str, ...]], dict[str, tuple[str, ...]]],
                    ruled: Iterable[tuple[str, str, frozenset[str]]]) -> VocabularyReaders:
    """The names compared for a vocabulary change (see ``vocabulary_readers``): a name that changed rules
    reach is compared over both vocabularies as before, for the ordered facts it reads; another for the
    values it reads that a side lacks, and the constraints that tie a fact it reads."""
    ruled = list(ruled)
    compared: dict[Name, set[str]] = {}
    lacked: dict[Name, tuple[dict[str, tuple[str, ...]], dict[str, tuple[str, ...]]]] = {}
    by_constraints: dict[Name, tuple[tuple[str, str], ...]] = {}
    for key, facts_read in found.items():
        if key in by_rules:  # compared for its rules, over both vocabularies as before
            facts_read = facts_read & ordered
        else:
            if facts_read & valued:
                old_lacks, new_lacks = ({f: v for f, v in side.items() if f in facts_read} for side in lacks)
                lacked[key] = (old_lacks, new_lacks)
            constraints = tuple((i, how) for i, how, facts in ruled if facts_read & facts)
            if constraints:
                by_constraints[key] = constraints
            facts_read = facts_read & (ordered | valued)
        if facts_read or key in by_constraints:
            compared[key] = facts_read
    return VocabularyReaders(compared, lacked, by_constraints)


def _fact_readers(sides: Sides, only: set[str] | None, facts: set[str]) -> dict[Name, set[str]]:
    """(kind, name) -> the facts of ``facts`` it reads, directly or through the predicates it uses, on
    either side: every term of both sides (of ``only``, when given) read for it; a name is kept, with
    ``only``, when one of those terms declares or defines it."""
    found: dict[Name, set[str]] = {}
    for side, uses in ((sides.old, sides.uses_old), (sides.new, sides.uses_new)):
        terms = [side.term(tid) for tid in sorted(side.digests()) if only is None or tid in only]
        owned = None if only is None else {("decision", d.name) for t in terms for d in t.decisions} | \
            {("predicate", c.defines.name) for t in terms for c in t.clauses if c.defines}
        for key, read in readers(terms, facts).items():
            for user in uses.dependents({key}):
                if owned is None or user in owned:
                    found.setdefault(user, set()).update(read)
    return found


def _behaviours(sides: Sides, touched: set[Name], found: VocabularyReaders) -> Compared:
    """Every name that reads what changed, compared: one on both sides as functions (``compare``); one
    on one side only is added or removed with its clauses, compared with nothing, which says what it
    answers (rulebook_compiler.diff.names), not as a change of behaviour."""
    if not touched:
        return Compared({}, {}, None, found)
    names = sides.dependents(touched)
    where = {k: (sides.old.exists(k), sides.new.exists(k)) for k in sorted(names)}
    both = [k for k, (o, n) in where.items() if o and n]
    one = [k for k, (o, n) in where.items() if o != n]
    if not both and not one:
        return Compared({}, {}, None, found)
    vocabulary = sides.vocabulary
    fo = FunctionSide(None, sides.old.evaluable(both + one), vocabulary, sides.own[0])
    fn = FunctionSide(None, sides.new.evaluable(both + one), vocabulary, sides.own[1])
    only_side = {}
    for key in one:
        added = where[key][1]
        only_side[key] = replace(
            N.of_side(key[0], key[1], compare(key[0], key[1], fo, fn, vocabulary), (fn if added else fo).edition,
                      added),
            unanswered_reasons=unanswered(key[0], key[1], fo, fn, vocabulary, added))
    behaviours = {key: compare(key[0], key[1], fo, fn, vocabulary, found.lacks.get(key),
                               apart_only=key in found.ruled and not found.read[key]) for key in both}
    return Compared(behaviours, only_side, (fo, fn), found)


def asked_drafts(compared: Compared, drafts: list[Draft]) -> tuple[list[Draft], dict[str, Term]]:
    """Clauses whose text and rules are unchanged, with rules for a decision whose ``given`` changed:
    each a draft of its own, listed when its rules now answer where one side did not ask
    (``_unasked``; a clause whose answers are the same is not listed); with their terms, for the
    order of changes."""
    asked = _given_changed(compared, {c.ref for d in drafts for c in d.clauses})
    out: list[Draft] = []
    terms: dict[str, Term] = {}
    for ref, names in asked.items():
        co, cn = (e.clause_by_ref.get(ref) for e in compared.editions)
        if co is None or cn is None or K.meaning_json(co) != K.meaning_json(cn) or co.text != cn.text:
            continue  # a clause of one side only, or one that changed, is drafted with its term
        terms.setdefault(cn.term, compared.editions[1].term_by_id[cn.term])
        out.append(asked_draft(co, cn, tuple(names)))
    return out, terms


def _given_changed(compared: Compared, seen: set[str]) -> dict[str, list[str]]:
    """Clause ref -> the decisions whose answers and ``given`` changed that its rules feed, for the
    clauses not ``seen`` (drafted already)."""
    asked: dict[str, list[str]] = {}
    for (kind, name), b in sorted(compared.behaviours.items()):
        if kind != "decision" or b.direction == EQUIVALENT:
            continue
        old, new = (e.decisions[name] for e in compared.editions)
        if (None if old.given is None else cond_json(old.given)) == \
                (None if new.given is None else cond_json(new.given)):
            continue
        for ref in dict.fromkeys(r.clause for e in compared.editions for r in e.rules.get(name, ())):
            if ref not in seen:
                asked.setdefault(ref, []).append(name)
    return asked


# -- the finished change ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Pending:
    """A finished change with what the last steps read of it: its clauses' refs on each side, the
    predicates whose answers it changed, and a procedure's old and new steps where they changed."""

    change: Change
    olds: frozenset[str]
    news: frozenset[str]
    predicates: tuple[str, ...] = ()
    steps: tuple[Any, Any] | None = None


def finish_changes(context: Context, compared: Compared, drafts: list[Draft],
                   terms: Mapping[str, Term]) -> list[Pending]:
    """Each draft graded and finished (None where nothing a reviewer reads changed), in document order."""
    found = [finish(context, compared, d) for d in drafts]
    pending = [p for p in found if p is not None]
    positions: dict[str, dict[str, int]] = {}
    pending.sort(key=lambda p: _order(p.change, terms, positions))
    return pending


def finish(context: Context, compared: Compared, d: Draft) -> Pending | None:
    """A draft graded (``level.grade``) and made a ``Change``, with what the last steps read of it."""
    own = _own(compared, d)
    answers = _answers(context, compared, d, own)
    step = _step(context, d)
    line = redline(d.old_text or "", d.new_text or "")
    text = L.text_of(d)
    reads = L.reads_drift(d, text)
    graded = L.grade(L.Case(d, line, text, answers, context.terms, step is not None, _drift_sides(context, d, reads),
                            context.drift.labels if reads else K.NO_LABELS))
    if graded.kind is None:
        return None
    # Changed behaviour first; a meaning restated equivalently still shows as equivalent.
    shown = tuple([b for b in own if b.direction != EQUIVALENT] + [b for b in own if b.direction == EQUIVALENT])
    impact = tuple(_impact(context.sides, d, compared.behaviours)) if d.meaning_changed else ()
    change = _change(context, d, graded, line, step, shown, _refs(compared, d, own), impact)
    return Pending(change, frozenset(c.ref for c in d.olds), frozenset(c.ref for c in d.news),
                   _predicates_changed(compared, d), _steps_changed(d))


def _answers(context: Context, compared: Compared, d: Draft, own: list[Behaviour]) -> L.Answers:
    """What the draft's compared behaviours say of its answers. What changes a play: a predicate no
    rule reads, in a clause that gives no words their meaning, is listed (``_refs``) and shown, but
    grades nothing (``_decides_no_play``). Rules that move to or from a decision (or predicate) that
    one side does not have answer differently there, though nothing is compared (``one_sided``)."""
    changed = [b for b in own if b.direction != EQUIVALENT]
    annotations = [b for b in changed if _decides_no_play(context.sides, b, d)]
    return L.Answers(frozenset((b.kind, b.name) for b in own), any(b not in annotations for b in changed),
                     bool(changed), d.meaning_changed and any(n not in compared.behaviours for n in d.names),
                     tuple(b.name for b in annotations))


def _drift_sides(context: Context, d: Draft, reads: bool) -> tuple[K.Side, K.Side]:
    """What drift reads of each side: what the clauses' rules test where it compares (``level.reads_drift``)."""
    if not reads:
        return K.Side(d.old_text or "", set()), K.Side(d.new_text or "", set())
    return (context.drift.side(context.sides.old, d.olds, d.old_text),
            context.drift.side(context.sides.new, d.news, d.new_text))


def _steps_changed(d: Draft) -> tuple[Any, Any] | None:
    """A procedure's old and new steps, where the draft changed them (for the old suite's next-step cases)."""
    p = d.pairing
    if p is None or len(p.old) != 1 or p.old[0].steps is None or not d.steps_changed:
        return None
    return p.old[0].steps, p.new[0].steps if len(p.new) == 1 else None


def _own(compared: Compared, d: Draft) -> list[Behaviour]:
    """The behaviours compared for the draft: of its names, as far as its clauses decide them, and
    the decisions its unchanged rules now answer where one side does not ask (``_unasked``)."""
    own = [compared.behaviours[n] for n in d.names if n in compared.behaviours] if d.meaning_changed else []
    if d.header:
        return own
    return [_clause_behaviour(compared, b, d.olds, d.news) for b in own] + _unasked(compared, d)


def _step(context: Context, d: Draft) -> StepMove | None:
    """A one-to-one pairing that is a step of the same procedure at another place."""
    p = d.pairing
    if p is None or not d.one_to_one:
        return None
    moved = renumbering(*context.steps, p.old[0], p.new[0])
    return StepMove(**moved) if moved is not None else None


def _predicates_changed(compared: Compared, d: Draft) -> tuple[str, ...]:
    """The predicates whose answers the draft's change of meaning changed."""
    if not d.meaning_changed:
        return ()
    return tuple(n for k, n in d.names if k == "predicate" and (k, n) in compared.behaviours
                 and compared.behaviours[(k, n)].direction != EQUIVALENT)


def _change(context: Context, d: Draft, graded: L.Grade, line: Redline, step: StepMove | None,
            shown: tuple[Behaviour, ...], names: tuple[N.NameRef, ...], impact: tuple[Reach, ...]) -> Change:
    """The finished change of a graded draft."""
    assert graded.kind is not None, "a change of a draft graded as one"
    p, olds, news, kind = d.pairing, d.olds, d.news, graded.kind
    clause = None if d.header else (news[0].id if len(news) == 1 else olds[0].id)
    numbers = _numbers(p)
    return Change(
        kind=kind, term=d.term, clause=clause, old_clause=_ids(olds), new_clause=_ids(news),
        old_text=d.old_text, new_text=d.new_text,
        old_location=_place(d.old_loc, context.sides.old_path), new_location=_place(d.new_loc, context.sides.new_path),
        matched_by=p.matched_by if p else None, confidence=_confidence(p),
        redline=line, behaviours=shown, impact=impact, moved=bool(p and p.moved),
        old_section=olds[0].section if olds else None, new_section=news[0].section if news else None,
        old_term=olds[0].term if olds else None, new_term=news[0].term if news else None,
        structure=tuple(_structure(*d.structure)) if d.structure else (),
        drift=graded.drift,
        fingerprint=fingerprint(d.term, clause, kind, d.old_text, d.new_text, numbers.as_json() if numbers else None),
        lineage=_lineage_note(p), step=step, level=graded.level, numbers=numbers,
        number=None if d.header else _cited_number(news or olds),
        procedure=_procedure(context, d), names=names,
        sub_changes=() if d.header else sub_changes(d.old_text, d.new_text),
        asked=d.asked, unchecked=graded.unchecked)


def _ids(clauses: tuple) -> str | None:
    """The clauses' ids, "+"-joined (a merge's or split's parts); None for none."""
    return "+".join(c.id for c in clauses) or None


def _place(loc: Location | None, path: Callable[[Location], str]) -> Place | None:
    return location_json(loc, path) if loc else None


def _confidence(p: Pairing | None) -> float | None:
    """How sure the match is, for a pairing matched by something."""
    return p.confidence if p and p.matched_by else None


def _lineage_note(p: Pairing | None) -> LineageNote | None:
    """The declared lineage that paired the clauses, when it did."""
    if p is None or p.matched_by != "lineage":
        return None
    return LineageNote(tuple(p.lineage), tuple(c.ref for c in p.old), tuple(c.ref for c in p.new))


def _procedure(context: Context, d: Draft) -> ProcedureChange | None:
    """How a one-to-one pairing's procedure changed its steps (``steps.procedure_changes``)."""
    p = d.pairing
    if p is None or not d.one_to_one:
        return None
    return procedure_changes(p.old[0], p.new[0], context.counterpart)


def _refs(compared: Compared, d: Draft, own: list[Behaviour]) -> tuple[N.NameRef, ...]:
    """The names this change adds or removes (of one side only), the decisions whose answers it
    changes where its own rules decide, and the predicates it defines whose answers changed: each
    listed once in ``DiffResult.names``."""
    mine = {(b.kind, b.name): b for b in own}
    behaviours = compared.behaviours
    out = []
    for key in sorted(set(d.names), key=lambda k: (k[1], k[0])):
        if key in compared.one:
            out.append(compared.one[key].ref)
        elif key in behaviours and behaviours[key].direction != EQUIVALENT \
                and key in mine and mine[key].direction != EQUIVALENT:
            # a decision where its own rules decide; a predicate it defines (kept whole)
            out.append(N.NameRef(key[0], key[1], N.CHANGED))
    return tuple(out)


def _clause_behaviour(compared: Compared, whole: Behaviour, olds: tuple, news: tuple) -> Behaviour:
    """A decision's change as far as these clauses decide it.

    The situations compared are those where the clauses' rules decide
    (stand), on either side: elsewhere the new side is taken to answer as
    the old one did. A rule that moved here from another clause with the
    same answers changes nothing here; a decision that changed only where
    other clauses decide is listed under those, not under every clause
    that feeds it. A predicate is its clause's own: it is kept whole.
    """
    if whole.kind != "decision" or whole.direction == EQUIVALENT:
        return whole
    assert compared.function_sides is not None  # a behaviour was compared
    return clause_compare(whole.name, compared.function_sides, compared.function_sides[0].vocabulary,
                          {c.ref for c in olds}, {c.ref for c in news})


def _unasked(compared: Compared, d: Draft) -> list[Behaviour]:
    """For a clause whose rules are the same on both sides: the decisions they feed where they now
    answer in situations that one side does not ask (the decision's ``given`` changed), compared
    there only. "Not asked" -> an answer is a change of what the clause's rules decide."""
    if d.meaning_changed or not d.olds or not d.news:
        return []
    out = []
    for key in K.names_of(d.clauses):
        whole = compared.behaviours.get(key)
        if key[0] != "decision" or whole is None or whole.direction == EQUIVALENT:
            continue
        assert compared.function_sides is not None  # a behaviour was compared
        mine = clause_compare(key[1], compared.function_sides, compared.function_sides[0].vocabulary,
                              {c.ref for c in d.olds}, {c.ref for c in d.news}, only_unasked=True)
        if mine.direction != EQUIVALENT:
            out.append(mine)
    return out


def _decides_no_play(sides: Sides, b: Behaviour, d: Draft) -> bool:
    """A predicate whose changed answers change no play: no rule, predicate or decision's ``given``
    of either edition reads it, and no clause of the change that defines it gives words their
    meaning (``level.says_what_it_defines``: it quotes them, or says the predicate's name).
    Unread, a predicate changes a play only through the words cards print, which such a clause
    defines ("The phrase “being discarded” means ..."); what else is left is the editors'
    annotation of the text (a footnote's bare list), and the clause is graded by its words, as a
    modelled clause whose answers did not change."""
    if b.kind != "predicate" or sides.uses_old.of(b.name) or sides.uses_new.of(b.name):
        return False
    defining = [c for c in d.clauses if c.defines is not None and c.defines.name == b.name]
    return bool(defining) and not any(L.says_what_it_defines(c.text, b.name) for c in defining)


def _impact(sides: Sides, d: Draft, behaviours: Mapping[Name, Behaviour]) -> list[Reach]:
    """Clauses elsewhere that use what this change touched, transitively, in the new edition first."""
    own = {c.ref for c in d.clauses}
    out: dict[tuple, Use] = {}
    found: dict[tuple, set[str]] = {}
    for side, uses in (("new", sides.uses_new), ("old", sides.uses_old)):
        for key, use in _reached(uses, [n for k, n in d.names if k == "predicate"] + [c.ref for c in d.clauses], own):
            found.setdefault(key, set()).add(side)
            out.setdefault(key, use)
    return [_reach(out[k], behaviours, found[k]) for k in sorted(out)]


def _reach(use: Use, behaviours: Mapping[Name, Behaviour], sides: set[str]) -> Reach:
    """A use as the change lists it: with how what it depends on changed, and the side that has it when
    one edition only does (a clause withdrawn, or new)."""
    b = behaviours.get(use.user)
    ref = f"{use.term}#{use.clause}" if use.clause else use.term
    return Reach(use.name, use.term, use.clause, ref, use.via, b.direction if b else None,
                 "both" if len(sides) == 2 else next(iter(sides)))


def _reached(uses: Uses, start: list[str], own: set[str]) -> Iterator[tuple[tuple, Any]]:
    """((name, ref, via), use): each use of the names in ``start``, through the predicates that use
    them, by clauses other than ``own``, as one side's uses list them."""
    seen: set[str] = set()
    stack = list(start)
    while stack:
        name = stack.pop()
        if name in seen:
            continue
        seen.add(name)
        for use in uses.of(name):
            ref = f"{use.term}#{use.clause}" if use.clause else use.term
            if ref in own:
                continue
            yield (use.name, ref, use.via), use
            if use.user[0] == "predicate":
                stack.append(use.user[1])


def _order(c: Change, terms: Mapping[str, Term], positions: dict[str, dict[str, int]]) -> tuple:
    """Document order: terms as the document gives them (``numbers.term_key``: by the first number they
    print, then those that print none by id), each term's changes as it lists its clauses."""
    from ..numbers import term_key

    term = terms.get(c.term)
    position = 0
    if c.clause is not None and term is not None:
        if c.term not in positions:  # once per term, not once per change (3,000 clauses a term)
            positions[c.term] = {x.id: i for i, x in enumerate(term.clauses)}
        ids = positions[c.term]
        first = (c.new_clause or c.old_clause or "").split("+")[0]
        position = 1 + ids.get(first, len(ids) + 1)
    place = term_key(term) if term is not None else (1, (), c.term)
    return (place, c.term, position, c.old_clause or "", c.new_clause or "", c.kind)


# -- the names charged, the conformance cases that flip ------------------------------------------


def charge_names(context: Context, compared: Compared, pending: list[Pending]) -> tuple[N.NameChange, ...]:
    """Each decision, predicate and constraint of one side only, and each decision whose answers
    changed, once, with the changes that refer to it."""
    found = _names_found(context, compared)
    changed_predicates = sorted(n for (k, n), b in compared.behaviours.items()
                                if k == "predicate" and b.direction != EQUIVALENT)
    # The decisions and predicates each changed predicate reaches (through the predicates and rules
    # that use it), on either side.
    reach = {p: context.sides.dependents({("predicate", p)}) for p in changed_predicates}
    fact_changes = {c.name: c for c in context.sides.vocabulary_changes.facts_changed}
    out = []
    for key in sorted(found, key=lambda k: (k[1], k[0])):
        changed = found[key].status == N.CHANGED
        uses = tuple(p for p in changed_predicates if key in reach[p] and key != ("predicate", p)) if changed else ()
        facts = tuple(sorted(compared.readers.read.get(key, ()))) if changed else ()
        out.append(replace(found[key], changes=_charges(key, pending, reach), predicates=uses, facts=facts,
                           fact_changes=tuple(fact_changes[f] for f in facts)))
    return tuple(out)


def _names_found(context: Context, compared: Compared) -> dict[Name, N.NameChange]:
    """The names listed: those of one side only, those whose answers changed, the constraints changed."""
    found = dict(compared.one)
    for key, b in compared.behaviours.items():
        if b.direction != EQUIVALENT:  # a decision or a predicate whose answers changed
            found[key] = N.changed(key[1], b, *compared.editions, kind=key[0])
    for c in N.constraints(*context.sides.vocabularies, context.sides.vocabulary):
        found[(c.kind, c.name)] = c
    return found


def _charges(key: Name, pending: list[Pending], reach: Mapping[str, set[Name]]) -> tuple[N.Charge, ...]:
    """The changes that refer to a name, or change a predicate that reaches it (``through``)."""
    from .present import clause_name

    charged = []
    for p in pending:
        c = p.change
        through = [n for n in p.predicates if key in reach[n]]
        if any((r.kind, r.name) == key for r in c.names):
            charged.append(N.Charge(clause_name(c), c.fingerprint))
        elif through:
            charged.append(N.Charge(clause_name(c), c.fingerprint, tuple(through)))
    return tuple(charged)


def ruled_by(compared: Compared, context: Context, names: tuple[N.NameChange, ...]) -> tuple[N.NameChange, ...]:
    """Each changed name compared for the changed constraints that test a fact it reads
    (``vocabulary_readers``), with those of them that change which of its situations are allowed
    (``behaviour.constraints_apart``): listed as changed by the vocabulary when no change is charged.
    (A name that reads such a fact, but whose situations they leave as they were, changed for
    another reason or not at all.)"""
    out = []
    for n in names:
        ruled = compared.readers.ruled.get((n.kind, n.name)) if n.status == N.CHANGED else None
        if ruled:
            assert compared.function_sides is not None  # the name was compared
            apart = constraints_apart(n.kind, n.name, *compared.function_sides, context.sides.vocabulary,
                                      tuple(i for i, _ in ruled))
            n = replace(n, constraints=tuple((i, how) for i, how in ruled if i in apart))
        out.append(n)
    return tuple(out)


def conformance(context: Context, compared: Compared, suite: OldSuite | None, pending: list[Pending],
                names: tuple[N.NameChange, ...]) -> tuple[list[Change], tuple[N.NameChange, ...]]:
    """The old suite's cases that flip, per decision and per change, for the decisions whose answers
    changed and those withdrawn only (rulebook_compiler.diff.conformance_impact)."""
    from . import conformance_impact as C

    changes = [p.change for p in pending]
    if suite is None:
        return changes, names
    targets = [n for n in names if n.kind == "decision" and n.status in (N.CHANGED, N.REMOVED)]
    if not targets and not any(p.steps is not None for p in pending):
        return changes, names
    sid = suite.edition.id
    flips = _decision_flips(context, compared, suite, targets)
    names = tuple(replace(n, conformance=C.summary(sid, [flips.found[n.name]])) if n.name in flips.found else n
                  for n in names)
    return [_charged_flips(context, flips, sid, p) for p in pending], names


@dataclass(frozen=True)
class _Flips:
    """The old suite's cases of each decision that changed or was withdrawn, and those that flip."""

    found: Mapping[str, Any]  # decision -> conformance_impact.DecisionFlips
    core: Any = None
    new: FunctionSide | None = None


def _decision_flips(context: Context, compared: Compared, suite: OldSuite, targets: list[N.NameChange]) -> _Flips:
    from . import conformance_impact as C

    if not targets:
        return _Flips({})
    assert compared.function_sides is not None  # the decisions were compared
    fo, fn = compared.function_sides
    vocabulary = context.sides.vocabulary
    found = {n.name: C.decision_flips(suite, n.name, fn if n.status == N.CHANGED else None, fo, vocabulary)
             for n in targets}
    return _Flips(found, shared_core(fo, fn, vocabulary), fn)


def _charged_flips(context: Context, flips: _Flips, sid: str, p: Pending) -> Change:
    """A change with the flipped cases its clauses decide: its decisions', and its procedure's steps'."""
    from . import conformance_impact as C

    c = p.change
    mine = [flips.found[r.name] for r in c.names if r.kind == "decision" and r.name in flips.found]
    steps = [_steps_flips(context, *p.steps)] if p.steps is not None else []
    if not (mine or steps) or c.clause is None:
        return c
    new, olds, news = context.sides.new, set(p.olds), set(p.news)
    return replace(c, conformance=C.summary(sid, mine + steps, lambda d, f: d in steps or C.charged(
        d, f, flips.new if new.exists(("decision", d.name)) else None, flips.core, olds, news)))


def _steps_flips(context: Context, old_steps, new_steps):
    """The old suite's next-step cases of a procedure whose steps changed, and those that flip."""
    from .conformance_impact import steps_flips

    old = context.sides.old
    procedure_clause = next(c for p in context.read.pairs if p.old is not None for c in p.old.clauses
                            if c.steps == old_steps)
    terms = {ref.split("#", 1)[0] for ref in old_steps.order} | {procedure_clause.term}
    view = replace(old.edition, terms=tuple(old.term(t) for t in sorted(terms)))
    return steps_flips(view, old_steps, new_steps, context.counterpart)


def _with_lineage_terms(ids: list[str], groups: tuple[Group, ...], old_digests, new_digests) -> list[str]:
    """The terms diffed: those asked for, and every term that a declared group joins to one of them.

    A declared group may join a changed term's clause to a clause of a term that the
    diff does not read otherwise: one the same on both sides (a part split off it, whose
    own words came back since), or one left out by ``terms`` (history of one term). The
    group's clauses are read with their terms, as pairs (issue 23: a KeyError); the
    caller keeps only the changes that touch a term asked for.
    """
    terms_of = [{ref.split("#", 1)[0] for ref in g.olds + g.news} for g in groups]
    by_term: dict[str, list[int]] = {}
    for k, terms in enumerate(terms_of):
        for t in terms:
            by_term.setdefault(t, []).append(k)
    chosen, todo, seen = set(ids), list(ids), set()
    while todo:  # a term added may be joined to others by groups of its own: each group is read once
        for k in by_term.get(todo.pop(), ()):
            if k not in seen:
                seen.add(k)
                fresh = {t for t in terms_of[k] - chosen if t in old_digests or t in new_digests}
                chosen |= fresh
                todo += sorted(fresh)
    return sorted(chosen)


class _Clauses:
    """The clauses of one side by ref, each term read and indexed once."""

    def __init__(self, source: EditionSource, digests):
        self.source, self.digests = source, digests
        self.terms: dict[str, dict[str, tuple[int, object]]] = {}

    def found(self, refs) -> tuple:
        """The clauses the side has of these refs, in the order a reader meets them: by term,
        then as the term lists them."""
        hits = []
        for ref in refs:
            tid, cid = ref.split("#", 1)
            if tid not in self.digests:
                continue
            if tid not in self.terms:
                self.terms[tid] = {c.id: (i, c) for i, c in enumerate(self.source.term(tid).clauses)}
            if cid in self.terms[tid]:
                hits.append((tid, *self.terms[tid][cid]))
        return tuple(clause for _, _, clause in sorted(hits, key=lambda h: h[:2]))


def _cited_number(clauses) -> str | None:
    """The printed numbers of a change's clauses as a citation: "702.1", "702.1a+702.1b"; None when none prints one."""
    from ..numbers import cited

    found = [cited(c.number) for c in clauses if c.number is not None]
    return "+".join(found) or None


def _numbers(p: Pairing | None) -> Numbers | None:
    """The printed rule numbers of a one-to-one pairing, when they differ."""
    if p is None or len(p.old) != 1 or len(p.new) != 1 or p.old[0].number == p.new[0].number:
        return None
    return Numbers(p.old[0].number, p.new[0].number)


def _structure(old: Any, new: Any) -> list[StructureEdit]:
    """The machine-readable parts diffed with deepdiff: path, old value, new value."""
    from deepdiff import DeepDiff  # heavy: only when some meaning changed

    tree = DeepDiff(old, new, view="tree", ignore_order=False)
    out = []
    for report, levels in tree.items():
        for level in levels:
            out.append(StructureEdit(report, level.path(), _plain(level.t1), _plain(level.t2)))
    out.sort(key=lambda e: (e.path, e.change))
    return out


def _plain(value: Any) -> Any:
    if value is None or isinstance(value, (bool, int, float, str, list, dict)):
        return value
    return None  # deepdiff's "not present"
