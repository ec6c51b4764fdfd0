"""The diff of two editions: ``diff_editions(book_old, ed_old, book_new, ed_new)``.

Terms with equal content hashes are skipped first; the clauses of the others
are paired (``match``), each pairing classified (``classify``), the meaning
it touches compared as functions (``behaviour``), its reach listed
(``impact``), its text redlined (``redline``) and fingerprinted.
"""

from __future__ import annotations

import gc
from pathlib import Path
from functools import cached_property
from dataclasses import dataclass, field, replace
from typing import Any, Iterable

from ..conditions import to_json as cond_json
from ..diagnostics import Location
from ..model import Edition, Rulebook, Term, Vocabulary
from .. import progress
from . import classify as K
from . import level as L
from . import names as N
from . import unaccounted as U
from ..rules_checked import words_digest
from .behaviour import EQUIVALENT, Behaviour, Side as FunctionSide, shared_core, compare, constraints_apart, \
    merged_vocabulary, unanswered
from .conformance_impact import OldSuite
from .clause_behaviour import clause_compare
from .vocabulary import NO_CHANGES, VocabularyChanges, lacking, readers, reordered, ruling, vocabulary_changes
from .fingerprint import fingerprint
from .flags import Flag, Ident, flag
from .inside import SubChange, sub_changes
from .lineage import Group, declared_groups
from .match import Declared, Pairing, TermPair, changed_ids, match_clauses
from .redline import Redline, redline
from .rulings import NONE as NO_RULINGS, RulingSide, RulingsDiff, diff_rulings
from .steps import only_number_changed, procedure_changes, renumbered, renumbering, step_numbers
from .source import EditionSource, FullSource
from .result import Change, DiffResult, LineageNote, Numbers, Place, StepMove, side_json


def diff_editions(book_old: Rulebook, ed_old: Edition | str, book_new: Rulebook, ed_new: Edition | str,
                  *, old_info: dict | None = None, new_info: dict | None = None,
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
                 *, old_info: dict | None = None, new_info: dict | None = None,
                 old_path=None, new_path=None, terms: Iterable[str] | None = None,
                 lineage: tuple[Group, ...] = (), suite: OldSuite | None = None) -> DiffResult:
    """``diff_editions`` over two sources (``compiler.diff.source``): whole editions or cached ones.

    ``lineage``: the declared lineage groups between the two (``compiler.diff.lineage``);
    ``suite``: the old edition's conformance suite, whose flipped cases are reported (none without it).
    """
    # As while building (compiler.build): the index and the drafts allocate many
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
    return _Differ(old, vocabulary_old, new, vocabulary_new, old_path or _plain_path,
                   new_path or _plain_path).run(old_info or side_json(old.edition),
                                                new_info or side_json(new.edition),
                                                set(terms) if terms is not None else None, lineage, suite)


def _plain_path(loc: Location) -> str:
    return loc.path


def location_json(loc: Location, path) -> Place:
    return Place(path(loc), loc.line, loc.col)


class _Differ:
    def __init__(self, old: EditionSource, vocabulary_old: Vocabulary, new: EditionSource,
                 vocabulary_new: Vocabulary, old_path, new_path):
        self.old, self.new = old, new
        self.old_path, self.new_path = old_path, new_path
        self.vocabulary = merged_vocabulary(vocabulary_old, vocabulary_new)
        self.vocabulary_changes = vocabulary_changes(vocabulary_old, vocabulary_new)
        # Each side's own vocabulary, for witnesses it could not describe; None when both are the same.
        self.own = (None, None) if vocabulary_old == vocabulary_new else (vocabulary_old, vocabulary_new)
        self._vocabularies = (vocabulary_old, vocabulary_new)
        # Drift's reading of each side, made once per diff (see _predicate_names, _conditions).
        self._names_memo: dict[int, set[str]] = {}
        self._conditions_memo: dict[int, tuple] = {}

    def run(self, old_info: dict, new_info: dict, only: set[str] | None,
            lineage: tuple[Group, ...] = (), suite: OldSuite | None = None) -> DiffResult:
        old_digests, new_digests = self.old.digests(), self.new.digests()
        ids = changed_ids(old_digests, new_digests)
        if only is not None:
            ids = [tid for tid in ids if tid in only]
        joined = set(_with_lineage_terms(ids, lineage, old_digests, new_digests)) - set(ids)
        ids = sorted(set(ids) | joined) if joined else ids
        # Only the terms that differ are read (from the cache, they are loaded here).
        pairs = [TermPair(tid, self.old.term(tid) if tid in old_digests else None,
                          self.new.term(tid) if tid in new_digests else None) for tid in ids]
        self._pairs = pairs
        self._pair_of = {p.id: p for p in pairs}  # the level reads a clause's term on each side
        self._terms = {p.id: p.new or p.old for p in pairs}
        self._positions: dict[str, dict[str, int]] = {}  # term id -> clause id -> place (_order)
        # Each side's words per term, for a sentence that moved to or from another clause (level).
        self._words = ({p.id: " ".join(c.text for c in p.old.clauses) for p in pairs if p.old},
                       {p.id: " ".join(c.text for c in p.new.clauses) for p in pairs if p.new})
        self._steps = ({r: n for p in pairs for r, n in step_numbers(p.old).items()},
                       {r: n for p in pairs for r, n in step_numbers(p.new).items()})
        declared = self._declared(lineage, set(ids), old_digests, new_digests)
        pairings = match_clauses(pairs, declared)
        if joined:  # a term read for a declared group only: its other clauses are not this diff's
            pairings = [p for p in pairings if any(c.term not in joined for c in p.old + p.new)]
        # The clauses of each side paired with the other's (the subrules a heading may head), made once.
        self._paired = ({c.ref for p in pairings if p.old and p.new for c in p.old},
                        {c.ref for p in pairings if p.old and p.new for c in p.new})
        # Each old clause's counterpart, so that a procedure reads a renamed step as the same step.
        self._counterpart = {p.old[0].ref: p.new[0].ref for p in pairings if len(p.old) == 1 and len(p.new) == 1}
        found = [self._header(p) for p in pairs if p.id not in joined] + [self._clause_draft(p)
                                                    for p in progress.track(pairings, "clauses")]
        drafts = [d for d in found if d is not None]
        touched = {n for d in drafts if d["meaning_changed"] for n in d["names"]}
        # Names whose terms may not have changed, but whose answers a vocabulary change may have.
        self._read, self._lacks, self._ruled = self._vocabulary_readers(only, touched)
        touched |= set(self._read)
        self._one: dict[tuple[str, str], N.NameChange] = {}
        behaviours = self._behaviours(touched)
        drafts += self._asked_drafts(drafts, behaviours)
        self._clause_refs: dict[int, tuple[set[str], set[str]]] = {}  # id(change) -> its old and new clause refs
        self._steps_of: dict[int, tuple] = {}  # id(change) -> a procedure's old and new steps, where they changed
        self._predicates_of: dict[int, list[str]] = {}  # id(change) -> the predicates it changed
        finished = [self._finish(d, behaviours) for d in drafts]
        changes = [c for c in finished if c is not None]
        changes.sort(key=lambda c: self._order(c))
        names = self._ruled_by(self._names(behaviours, changes))
        if suite is not None:
            changes, names = self._conformance(suite, changes, names)
        return DiffResult(old_info, new_info, tuple(changes),
                          tuple(behaviours[k] for k in sorted(behaviours)), self.vocabulary_changes, names)

    def _conformance(self, suite: OldSuite, changes: list, names: tuple) -> tuple[list, tuple]:
        """The old suite's cases that flip, per decision and per change, for the decisions whose answers
        changed and those withdrawn only (compiler.diff.conformance_impact)."""
        from . import conformance_impact as C

        targets = [n for n in names if n.kind == "decision" and n.status in (N.CHANGED, N.REMOVED)]
        if not targets and not self._steps_of:
            return changes, names
        sid = suite.edition.id
        found, core, fn = {}, None, None
        if targets:
            fo, fn = self._function_sides
            found = {n.name: C.decision_flips(suite, n.name, fn if n.status == N.CHANGED else None, fo,
                                              self.vocabulary) for n in targets}
            core = shared_core(fo, fn, self.vocabulary)
            names = tuple(replace(n, conformance=C.summary(sid, [found[n.name]])) if n.name in found else n
                          for n in names)
        out = []
        for c in changes:
            mine = [found[r["name"]] for r in c.names if r["kind"] == "decision" and r["name"] in found]
            steps = [self._steps_flips(*self._steps_of[id(c)])] if id(c) in self._steps_of else []
            if (mine or steps) and c.clause is not None:
                olds, news = self._clause_refs[id(c)]
                c = replace(c, conformance=C.summary(sid, mine + steps, lambda d, f: d in steps or C.charged(
                    d, f, fn if self.new.exists(("decision", d.name)) else None, core, olds, news)))
            out.append(c)
        return out, names

    def _steps_flips(self, old_steps, new_steps):
        """The old suite's next-step cases of a procedure whose steps changed, and those that flip."""
        from .conformance_impact import steps_flips

        procedure_clause = next(c for p in self._pairs if p.old is not None for c in p.old.clauses
                                if c.steps == old_steps)
        terms = {ref.split("#", 1)[0] for ref in old_steps.order} | {procedure_clause.term}
        view = replace(self.old.edition, terms=tuple(self.old.term(t) for t in sorted(terms)))
        return steps_flips(view, old_steps, new_steps, self._counterpart)

    def _names(self, behaviours: dict, changes: list) -> tuple[N.NameChange, ...]:
        """Each decision, predicate and constraint of one side only, and each decision whose answers
        changed, once, with the changes that refer to it."""
        from .present import clause_name

        found = dict(self._one)
        for key, b in behaviours.items():
            if b.direction != EQUIVALENT:  # a decision or a predicate whose answers changed
                found[key] = N.changed(key[1], b, *self._editions, kind=key[0])
        for c in N.constraints(self._vocabularies[0], self._vocabularies[1], self.vocabulary):
            found[(c.kind, c.name)] = c
        # The decisions and predicates each changed predicate reaches (through the predicates and rules
        # that use it), on either side.
        changed_predicates = sorted(n for (k, n), b in behaviours.items()
                                    if k == "predicate" and b.direction != EQUIVALENT)
        reach = {p: self.uses_new.dependents({("predicate", p)}) | self.uses_old.dependents({("predicate", p)})
                 for p in changed_predicates}
        fact_changes = {c.name: c for c in self.vocabulary_changes.facts_changed}
        out = []
        for key in sorted(found, key=lambda k: (k[1], k[0])):
            charged = []
            for c in changes:
                through = [p for p in self._predicates_of.get(id(c), ()) if key in reach[p]]
                if any((r["kind"], r["name"]) == key for r in c.names):
                    charged.append(N.Charge(clause_name(c), c.fingerprint))
                elif through:
                    charged.append(N.Charge(clause_name(c), c.fingerprint, tuple(through)))
            uses = tuple(p for p in changed_predicates if key in reach[p] and key != ("predicate", p)) \
                if found[key].status == N.CHANGED else ()
            facts = tuple(sorted(self._read.get(key, ()))) if found[key].status == N.CHANGED else ()
            out.append(replace(found[key], changes=tuple(charged), predicates=uses, facts=facts,
                               fact_changes=tuple(fact_changes[f] for f in facts)))
        return tuple(out)

    def _declared(self, groups: tuple[Group, ...], ids: set[str], old_digests, new_digests) -> tuple[Declared, ...]:
        """The declared groups that touch the terms diffed, with their clauses as each side has them.

        A clause a side does not have (its term withdrawn since, say) is left
        out; a group left without a side is left to the guesses of ``match``.
        """
        old_side, new_side = _Clauses(self.old, old_digests), _Clauses(self.new, new_digests)
        found = []
        for group in groups:
            if not any(ref.split("#", 1)[0] in ids for ref in group.olds + group.news):
                continue
            olds, news = old_side.found(group.olds), new_side.found(group.news)
            if olds and news and [c.ref for c in olds] != [c.ref for c in news]:
                found.append(Declared(olds, news, group.kinds))
        return tuple(found)

    # -- drafts: what changed, before behaviour is known ----------------------------------

    def _header(self, pair: TermPair) -> dict | None:
        old_h = _header_json(pair.old) if pair.old else None
        new_h = _header_json(pair.new) if pair.new else None
        if old_h == new_h:
            return None
        old_d = {d["name"]: d for d in old_h["decisions"]} if old_h else {}
        new_d = {d["name"]: d for d in new_h["decisions"]} if new_h else {}
        names = [("decision", n) for n in sorted(old_d.keys() | new_d.keys()) if old_d.get(n) != new_d.get(n)]
        kind = "added" if pair.old is None else "removed" if pair.new is None else None
        return {
            "header": True, "term": pair.id, "kind": kind, "pairing": None,
            "olds": (), "news": (),
            "old_text": _header_text(pair.old) if pair.old else None,
            "new_text": _header_text(pair.new) if pair.new else None,
            "old_loc": pair.old.loc if pair.old else None, "new_loc": pair.new.loc if pair.new else None,
            "names": names, "meaning_changed": bool(names), "steps_changed": False,
            "structure": (old_h, new_h), "has_meaning": bool(names),
        }

    def _clause_draft(self, p: Pairing) -> dict | None:
        old_meaning = [K.meaning_json(c) for c in p.old]
        new_meaning = [K.meaning_json(c) for c in p.new]
        meaning_changed = old_meaning != new_meaning
        if p.matched_by is None:
            kind = "removed" if p.old else "added"
        elif p.matched_by == "split" or len(p.new) > 1:
            kind = "split"
        elif p.matched_by == "merge" or len(p.old) > 1:
            kind = "merged"
        else:
            kind = None
        old_text = " ".join(c.text for c in p.old) if p.old else None
        new_text = " ".join(c.text for c in p.new) if p.new else None
        if kind is None and not meaning_changed and old_text == new_text and not p.moved \
                and [K.extras_json(c) for c in p.old] == [K.extras_json(c) for c in p.new] \
                and [c.id for c in p.old] == [c.id for c in p.new] \
                and [c.number for c in p.old] == [c.number for c in p.new]:
            return None  # the term changed elsewhere; this clause did not (its printed number is what it is cited by)
        has_meaning = any(m["defines"] or m["rules"] or m["steps"] or m["table"] for m in old_meaning + new_meaning)
        return {
            "header": False, "term": (p.new or p.old)[0].term, "kind": kind, "pairing": p,
            "olds": p.old, "news": p.new, "old_text": old_text, "new_text": new_text,
            "old_loc": p.old[0].loc if p.old else None, "new_loc": p.new[0].loc if p.new else None,
            "names": K.names_of(p.old + p.new) if (meaning_changed or kind in ("added", "removed")) else [],
            "meaning_changed": meaning_changed and has_meaning,
            "steps_changed": K.steps_changed(p.old, p.new),
            "structure": (old_meaning, new_meaning) if meaning_changed else None,
            "has_meaning": has_meaning,
        }

    def _vocabulary_readers(self, only: set[str] | None, touched: set[tuple[str, str]]) -> tuple[dict, dict, dict]:
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
        ordered = set(reordered(self.vocabulary_changes))
        lacks = lacking(self.vocabulary_changes)
        valued = set(lacks[0]) | set(lacks[1])  # facts with values added or withdrawn
        ruled = ruling(*self._vocabularies)
        tied = {f for _, _, facts in ruled for f in facts}
        if not ordered | valued | tied:
            return {}, {}, {}
        found: dict[tuple[str, str], set[str]] = {}
        for side, uses in ((self.old, self.uses_old), (self.new, self.uses_new)):
            terms = [side.term(tid) for tid in sorted(side.digests()) if only is None or tid in only]
            owned = None if only is None else {("decision", d.name) for t in terms for d in t.decisions} | \
                {("predicate", c.defines.name) for t in terms for c in t.clauses if c.defines}
            for key, read in readers(terms, ordered | valued | tied).items():
                for user in uses.dependents({key}):
                    if owned is None or user in owned:
                        found.setdefault(user, set()).update(read)
        if not valued and not ruled:
            return found, {}, {}
        by_rules = self.uses_old.dependents(touched) | self.uses_new.dependents(touched)
        compared: dict[tuple[str, str], set[str]] = {}
        lacked: dict[tuple[str, str], tuple[dict[str, tuple[str, ...]], ...]] = {}
        by_constraints: dict[tuple[str, str], tuple[tuple[str, str], ...]] = {}
        for key, facts_read in found.items():
            if key in by_rules:  # compared for its rules, over both vocabularies as before
                facts_read = facts_read & ordered
            else:
                if facts_read & valued:
                    lacked[key] = tuple({f: v for f, v in side.items() if f in facts_read} for side in lacks)
                constraints = tuple((i, how) for i, how, facts in ruled if facts_read & facts)
                if constraints:
                    by_constraints[key] = constraints
                facts_read = facts_read & (ordered | valued)
            if facts_read or key in by_constraints:
                compared[key] = facts_read
        return compared, lacked, by_constraints

    def _ruled_by(self, names: tuple[N.NameChange, ...]) -> tuple[N.NameChange, ...]:
        """Each changed name compared for the changed constraints that test a fact it reads
        (``_vocabulary_readers``), with those of them that change which of its situations are allowed
        (``behaviour.constraints_apart``): listed as changed by the vocabulary when no change is charged.
        (A name that reads such a fact, but whose situations they leave as they were, changed for
        another reason or not at all.)"""
        out = []
        for n in names:
            ruled = self._ruled.get((n.kind, n.name)) if n.status == N.CHANGED else None
            if ruled:
                apart = constraints_apart(n.kind, n.name, *self._function_sides, self.vocabulary,
                                          tuple(i for i, _ in ruled))
                n = replace(n, constraints=tuple((i, how) for i, how in ruled if i in apart))
            out.append(n)
        return tuple(out)

    def _asked_drafts(self, drafts: list[dict], behaviours: dict) -> list[dict]:
        """Clauses whose text and rules are unchanged, with rules for a decision whose ``given`` changed:
        each a draft of its own, listed when its rules now answer where one side did not ask
        (``_unasked``; a clause whose answers are the same is not listed)."""
        seen = {c.ref for d in drafts for c in d["olds"] + d["news"]}
        asked: dict[str, list[str]] = {}  # clause ref -> the decisions whose given changed
        for (kind, name), b in sorted(behaviours.items()):
            if kind != "decision" or b.direction == EQUIVALENT:
                continue
            old, new = (e.decisions[name] for e in self._editions)
            if (None if old.given is None else cond_json(old.given)) == \
                    (None if new.given is None else cond_json(new.given)):
                continue
            for ref in dict.fromkeys(r.clause for e in self._editions for r in e.rules.get(name, ())):
                if ref not in seen:
                    asked.setdefault(ref, []).append(name)
        out = []
        for ref, names in asked.items():
            co, cn = (e.clause_by_ref.get(ref) for e in self._editions)
            if co is None or cn is None or K.meaning_json(co) != K.meaning_json(cn) or co.text != cn.text:
                continue  # a clause of one side only, or one that changed, is drafted with its term
            self._terms.setdefault(cn.term, self._editions[1].term_by_id[cn.term])  # for the order of changes
            out.append({
                "header": False, "term": cn.term, "kind": None, "pairing": Pairing((co,), (cn,), "id", 1.0),
                "olds": (co,), "news": (cn,), "old_text": co.text, "new_text": cn.text,
                "old_loc": co.loc, "new_loc": cn.loc, "names": [("decision", n) for n in names],
                "meaning_changed": False, "steps_changed": False, "structure": None, "has_meaning": True,
                "asked": tuple(names),
            })
        return out

    # -- behaviour ---------------------------------------------------------------------------

    # Read on first need: by the behaviours of what changed, and by the impact of a
    # change of meaning that names nothing (a steps block added or removed).
    @cached_property
    def uses_old(self):
        return self.old.uses()

    @cached_property
    def uses_new(self):
        return self.new.uses()

    def _behaviours(self, touched: set[tuple[str, str]]) -> dict[tuple[str, str], Behaviour]:
        if not touched:
            return {}
        names = self.uses_old.dependents(touched) | self.uses_new.dependents(touched)
        # A name on one side only is added or removed with its clauses: it is compared with
        # nothing, which says what it answers (compiler.diff.names), not as a change of behaviour.
        where = {k: (self.old.exists(k), self.new.exists(k)) for k in sorted(names)}
        both = [k for k, (o, n) in where.items() if o and n]
        one = [k for k, (o, n) in where.items() if o != n]
        if not both and not one:
            return {}
        fo = FunctionSide(None, self.old.evaluable(both + one), self.vocabulary, self.own[0])
        fn = FunctionSide(None, self.new.evaluable(both + one), self.vocabulary, self.own[1])
        self._function_sides = (fo, fn)
        self._editions = (fo.edition, fn.edition)
        for key in one:
            added = where[key][1]
            self._one[key] = replace(
                N.of_side(key[0], key[1], compare(key[0], key[1], fo, fn, self.vocabulary),
                          (fn if added else fo).edition, added),
                unanswered_reasons=unanswered(key[0], key[1], fo, fn, self.vocabulary, added))
        return {key: compare(key[0], key[1], fo, fn, self.vocabulary, self._lacks.get(key),
                             apart_only=key in self._ruled and not self._read[key]) for key in both}

    # -- the finished change ------------------------------------------------------------------

    def _finish(self, d: dict, behaviours: dict) -> Change | None:
        own = [behaviours[n] for n in d["names"] if n in behaviours] if d["meaning_changed"] else []
        if not d["header"]:
            own = [self._clause_behaviour(b, d["olds"], d["news"]) for b in own] + self._unasked(d, behaviours)
        changed = [b for b in own if b.direction != EQUIVALENT]
        # What changes a play: a predicate no rule reads, in a clause that gives no words their meaning,
        # is listed (``_refs``) and shown, but grades nothing (``_decides_no_play``).
        annotations = [b for b in changed if self._decides_no_play(b, d)]
        playing = [b for b in changed if b not in annotations]
        # Rules that move to or from a decision (or predicate) that one side does not have answer
        # differently there, though nothing is compared: the clause's rules changed what they answer.
        one_sided = d["meaning_changed"] and any(n not in behaviours for n in d["names"])
        behaviour_changed = bool(playing) or d["steps_changed"] or one_sided
        text = K.text_kind(d["old_text"] or "", d["new_text"] or "")
        if text == K.REWORDED and L.only_cited_numbers_changed(d["old_text"] or "", d["new_text"] or ""):
            text = K.EDITORIAL  # a cited rule's new number ("see rule 711" -> "712"): a number, not a word
        kind = d["kind"]
        p: Pairing | None = d["pairing"]
        moved_step = renumbering(*self._steps, p.old[0], p.new[0]) \
            if p is not None and len(p.old) == 1 and len(p.new) == 1 else None
        step = StepMove(**moved_step) if moved_step is not None else None
        line = redline(d["old_text"] or "", d["new_text"] or "")
        d["covered"] = self._covered(d)
        level = self._level(d, kind or "reworded", text, line, own, playing)
        if kind is None:
            # The rules were rewritten with the words, and the words say a rule changed though the
            # model's answers did not: the meaning changed as written (a clause whose rules were
            # rewritten and whose answers and words say nothing changed is reworded).
            if behaviour_changed or (d["meaning_changed"] and text == K.REWORDED and level == L.RULE_CHANGE):
                kind = "semantic"
            elif p is not None and {c.term for c in p.old} != {c.term for c in p.new}:
                kind = "moved"  # to another term: as such, whatever else changed but behaviour
            elif step is not None and only_number_changed(d["old_text"] or "", d["new_text"] or ""):
                kind = "renumbered"  # its id may have changed too: the lineage note says so
            elif p is not None and text != K.REWORDED and renumbered(p.old[0], p.new[0]):
                # Same words under another rule number (704.5k -> 704.5j): the numbering moved, not the rule.
                kind = "renumbered"
            elif p is not None and [c.id for c in p.old] != [c.id for c in p.new] and \
                    not (text == K.REWORDED and renumbered(p.old[0], p.new[0])):
                kind = "renamed"  # a rule number is no name: 903.11g reworded as 903.12g is reworded
            elif text == K.REWORDED:
                kind = "reworded"
            elif text == K.EDITORIAL or d["meaning_changed"] or d["header"] or \
                    (p is not None and [K.extras_json(c) for c in p.old] != [K.extras_json(c) for c in p.new]):
                kind = "editorial"
            elif p is not None and p.moved:
                kind = "moved"
            else:
                return None
        # Changed behaviour first; a meaning restated equivalently still shows as equivalent.
        shown = tuple(changed + [b for b in own if b.direction == EQUIVALENT])
        # (a clause listed for its decision's given has the same rules: no drift between its words and them)
        drift = (self._drift(d, text, bool(changed)) + self._carried_flags(d, line, level)
                 + self._reworded_flags(d, kind, line, level) + [annotation_flag(b.name) for b in annotations]
                 if not d.get("asked") else []) if kind not in ("added", "removed") else self._rule_less(d, level)
        words_flag, unchecked = self._unaccounted(d, kind, text, line, level)
        drift += [words_flag] if words_flag is not None else []
        olds, news = d["olds"], d["news"]
        term = d["term"]
        clause = None if d["header"] else (news[0].id if len(news) == 1 else olds[0].id)
        numbers = _numbers(p)
        change = Change(
            kind=kind, term=term, clause=clause,
            old_clause="+".join(c.id for c in olds) or None,
            new_clause="+".join(c.id for c in news) or None,
            old_text=d["old_text"], new_text=d["new_text"],
            old_location=location_json(d["old_loc"], self.old_path) if d["old_loc"] else None,
            new_location=location_json(d["new_loc"], self.new_path) if d["new_loc"] else None,
            matched_by=p.matched_by if p else None,
            confidence=p.confidence if p and p.matched_by else None,
            redline=line, behaviours=shown,
            impact=tuple(self._impact(d, behaviours)) if d["meaning_changed"] else (),
            moved=bool(p and p.moved),
            old_section=olds[0].section if olds else None,
            new_section=news[0].section if news else None,
            old_term=olds[0].term if olds else None,
            new_term=news[0].term if news else None,
            structure=tuple(_structure(*d["structure"])) if d["structure"] else (),
            drift=tuple(drift),
            fingerprint=fingerprint(term, clause, kind, d["old_text"], d["new_text"],
                                    numbers.as_json() if numbers else None),
            lineage=LineageNote(tuple(p.lineage), tuple(c.ref for c in olds), tuple(c.ref for c in news))
            if p and p.matched_by == "lineage" else None,
            step=step,
            level=level,
            numbers=numbers,
            number=None if d["header"] else _cited_number(news or olds),
            procedure=procedure_changes(p.old[0], p.new[0], self._counterpart)
            if p and len(p.old) == 1 and len(p.new) == 1 else None,
            names=self._refs(d, behaviours, own),
            sub_changes=() if d["header"] else sub_changes(d["old_text"], d["new_text"]),
            asked=d.get("asked", ()),
            unchecked=unchecked,
        )
        self._clause_refs[id(change)] = ({c.ref for c in olds}, {c.ref for c in news})
        self._predicates_of[id(change)] = [n for k, n in d["names"] if k == "predicate" and (k, n) in behaviours
                                           and behaviours[(k, n)].direction != EQUIVALENT] \
            if d["meaning_changed"] else []
        if p is not None and len(p.old) == 1 and p.old[0].steps is not None and d["steps_changed"]:
            self._steps_of[id(change)] = (p.old[0].steps, p.new[0].steps if len(p.new) == 1 else None)
        return change

    def _refs(self, d: dict, behaviours: dict, own: list[Behaviour]) -> tuple[dict, ...]:
        """The names this change adds or removes (of one side only), the decisions whose answers it
        changes where its own rules decide, and the predicates it defines whose answers changed: each
        listed once in ``DiffResult.names``."""
        mine = {(b.kind, b.name): b for b in own}
        out = []
        for key in sorted(set(d["names"]), key=lambda k: (k[1], k[0])):
            if key in self._one:
                out.append(self._one[key].ref)
            elif key in behaviours and behaviours[key].direction != EQUIVALENT \
                    and key in mine and mine[key].direction != EQUIVALENT:
                # a decision where its own rules decide; a predicate it defines (kept whole)
                out.append({"kind": key[0], "name": key[1], "status": N.CHANGED})
        return tuple(out)

    def _clause_behaviour(self, whole: Behaviour, olds: tuple, news: tuple) -> Behaviour:
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
        return clause_compare(whole.name, self._function_sides, self.vocabulary,
                              {c.ref for c in olds}, {c.ref for c in news})

    def _unasked(self, d: dict, behaviours: dict) -> list[Behaviour]:
        """For a clause whose rules are the same on both sides: the decisions they feed where they now
        answer in situations that one side does not ask (the decision's ``given`` changed), compared
        there only. "Not asked" -> an answer is a change of what the clause's rules decide."""
        if d["meaning_changed"] or not d["olds"] or not d["news"]:
            return []
        out = []
        for key in K.names_of(d["olds"] + d["news"]):
            whole = behaviours.get(key)
            if key[0] != "decision" or whole is None or whole.direction == EQUIVALENT:
                continue
            mine = clause_compare(key[1], self._function_sides, self.vocabulary,
                                  {c.ref for c in d["olds"]}, {c.ref for c in d["news"]}, only_unasked=True)
            if mine.direction != EQUIVALENT:
                out.append(mine)
        return out

    def _level(self, d: dict, kind: str, text: str, line: Redline, own: list, changed: list) -> str:
        """Answers first (the clause's own, by its model), then the words (``compiler.diff.level``):
        an added or removed clause with rules of its own that answer as the other side did, or with
        none where the model covers it (``_covered``), is a clarification, one that no model covers
        is read by its words; a rewording of a clause with rules is read by its sentences only (its
        words within a sentence are the model's to judge), less those that came or went with all of
        its rules. ``changed``: the clause's changed answers that change a play (``_decides_no_play``
        takes out those of a predicate that no rule reads and no word of the clause names)."""
        if self._answers_changed(d, own, changed):
            return L.RULE_CHANGE
        if d["header"]:
            return L.level(False, text == K.REWORDED or kind in ("added", "removed"))
        if kind in ("added", "removed"):
            if d["has_meaning"] or d["covered"] is not None:
                return L.CLARIFICATION  # the model answers for it, and answers as the other side does
            return L.RULE_CHANGE if L.words_rule_change(kind, line, *self._said_elsewhere(d)) else L.CLARIFICATION
        if text != K.REWORDED or not L.words_changed(d["old_text"] or "", d["new_text"] or ""):
            return L.EDITORIAL  # no word of the rule changed (punctuation, case, an article, a cited number)
        tested = self._tested(d) if d["has_meaning"] else frozenset()
        return L.RULE_CHANGE if L.words_rule_change(kind, line, *self._elsewhere(d), modelled=d["has_meaning"],
                                                    tested=tested, carried=self._carried(d),
                                                    subject=self._subject(d)) else L.CLARIFICATION

    @staticmethod
    def _tested(d: dict) -> frozenset[str]:
        """What the rules of the change's clauses test (``classify.keys_tested``), read once per change:
        by the level and by the words they do not account for (``_unaccounted``)."""
        if "tested" not in d:
            d["tested"] = frozenset(K.keys_tested(d["olds"] + d["news"], {}))
        return d["tested"]

    def _elsewhere(self, d: dict) -> tuple[str, str]:
        """The text of the change's terms on each side, for ``level.words_rule_change``: a sentence
        gained from, or given to, another clause of them is moved, not new or withdrawn."""
        terms = {c.term for c in d["olds"] + d["news"]}
        old, new = (" ".join(side.get(t, "") for t in sorted(terms)) for side in self._words)
        return old, new

    def _subject(self, d: dict) -> str:
        """What the change's clauses are about, for ``level.names_subject``: the titles of their
        sections and terms, on each side, one title from the next apart (" | ")."""
        titles = []
        for side, clauses in ((0, d["olds"]), (1, d["news"])):
            for c in clauses:
                term = (self._pair_of[c.term].old, self._pair_of[c.term].new)[side]
                assert term is not None  # the clause is on this side: so is its term
                titles += [term.name] + [s.title or "" for s in term.sections if s.key == c.section]
        return " | ".join(dict.fromkeys(titles))

    @staticmethod
    def _carried(d: dict) -> frozenset[str]:
        """The side (``DELETE``, ``INSERT``) whose sentences came or went with all of the clause's rules
        (the model answering as before, or the level says so first): the model says that what they
        said is said elsewhere."""
        ruled = [any(c.rules for c in d[side]) for side in ("olds", "news")]
        return frozenset({L.DELETE} if ruled == [True, False] else {L.INSERT} if ruled == [False, True] else ())

    def _carried_flags(self, d: dict, line: Redline, level: str) -> list[Flag]:
        """For a rewording read as no rule change: each whole sentence that came or went with the
        clause's rules, so that a rule the sentence held beside them still shows to a reviewer."""
        if level == L.RULE_CHANGE or d["header"]:
            return []
        return [L.carried_flag(op, sentence) for op, sentence in L.carried_sentences(line, self._carried(d))]

    def _reworded_flags(self, d: dict, kind: str, line: Redline, level: str) -> list[Flag]:
        """For a merge or split read as a clarification: each sentence read as moved and reworded
        across it (``level.moved_and_reworded``), old and new, so that a rule the model does not hold
        still shows to a reviewer."""
        if level != L.CLARIFICATION or d["header"]:
            return []
        return [L.reworded_flag(kind, old, new) for old, new in L.moved_and_reworded(
            kind, line, *self._elsewhere(d), modelled=d["has_meaning"], carried=self._carried(d),
            subject=self._subject(d))]

    def _unaccounted(self, d: dict, kind: str, text: str, line: Redline, level: str) -> tuple[Flag | None, tuple[str, ...]]:
        """For a clause with rules of its own whose answers are the same while its words change in
        substance (``unaccounted``): the drift flag naming the words its rules do not account for, and
        the new clauses with rules on which no record (``rules_checked``) says their rules were checked
        against these words, which ``--fail-on`` counts as a rule change. Not where the rules came or
        went with the words (``_carried``: what the words say came with the model, or it went)."""
        if level != L.CLARIFICATION or d["header"] or text != K.REWORDED or kind in ("added", "removed") \
                or d.get("asked") or self._carried(d):
            return None, ()
        news = [c for c in d["news"] if L.modelled(c)]
        if not news:
            return None, ()
        found = U.unaccounted(line, self._tested(d) | d.get("tested_through", frozenset()))
        if not found:
            return None, ()
        records = [U.Record(c.ref, c.rules_checked, words_digest(c.text)) for c in news]
        return U.unaccounted_flag(found, records), tuple(r.ref for r in records if not r.checked)

    def _said_elsewhere(self, d: dict) -> tuple[str, str]:
        """For an added or removed clause, where its words may live on (``level.lives_on``), one
        clause apart from the next (" | "): its term on the other side, and the clauses of its own
        side that have rules of their own (what they say, the model answers for; a clause that is
        as new as this one vouches for nothing)."""
        clause = (d["news"] or d["olds"])[0]
        pair = self._pair_of[clause.term]
        mine = pair.new if d["news"] else pair.old
        old, new = (" | ".join(c.text for c in term.clauses if c.ref != clause.ref and
                               (term is not mine or L.modelled(c))) if term else ""
                    for term in (pair.old, pair.new))
        return old, new

    def _rule_less(self, d: dict, level: str) -> list[Flag]:
        """For an added or removed clause with no rule of its own read as a clarification, a drift flag
        saying why, so that a rule the model does not hold still shows to a reviewer."""
        if level != L.CLARIFICATION or d["has_meaning"] or d["header"]:
            return []
        return [d["covered"] if d["covered"] is not None else L.LIVES_ON]

    def _covered(self, d: dict) -> Flag | None:
        """Why an added or removed clause with no rule of its own is no rule change, as a drift flag: the
        model covers it (``level.covered``), or it heads subrules that carry the other side's (``level.subrules_heading``)."""
        if d["header"] or d["kind"] not in ("added", "removed") or d["has_meaning"]:
            return None
        added = d["kind"] == "added"
        clause = (d["news"] if added else d["olds"])[0]
        pair = self._pair_of[clause.term]
        term, other = (pair.new, pair.old) if added else (pair.old, pair.new)
        assert term is not None  # the clause is on this side: so is its term
        reason = L.covered(clause, term, other, self._vocabularies[0 if not added else 1])
        if reason is not None:
            return flag(L.COVERED, reason)
        return L.subrules_heading(clause, term.clauses, self._paired[1 if added else 0], added)

    def _answers_changed(self, d: dict, own: list, changed: list) -> bool:
        """Some situation is answered differently: a compared name changed, a procedure's order did,
        or a clause brings or takes a name that the other side does not have (added or removed with it)."""
        if changed or d["steps_changed"]:
            return True
        if not d["meaning_changed"]:
            return False
        compared = {(b.kind, b.name) for b in own}
        return any(n not in compared for n in d["names"])

    def _decides_no_play(self, b: Behaviour, d: dict) -> bool:
        """A predicate whose changed answers change no play: no rule, predicate or decision's ``given``
        of either edition reads it, and no clause of the change that defines it gives words their
        meaning (``level.says_what_it_defines``: it quotes them, or says the predicate's name).
        Unread, a predicate changes a play only through the words cards print, which such a clause
        defines ("The phrase “being discarded” means ..."); what else is left is the editors'
        annotation of the text (a footnote's bare list), and the clause is graded by its words, as a
        modelled clause whose answers did not change."""
        if b.kind != "predicate" or self.uses_old.of(b.name) or self.uses_new.of(b.name):
            return False
        defining = [c for c in d["olds"] + d["news"] if c.defines is not None and c.defines.name == b.name]
        return bool(defining) and not any(L.says_what_it_defines(c.text, b.name) for c in defining)

    def _drift(self, d: dict, text: str, behaviour_changed: bool) -> list[Flag]:
        """Drift flags (``classify.drift``); a heading's text is its declarations, so only a clause's
        mentions of facts and values are compared with what its rules test. Their words quote the
        labels the texts name (no identifier)."""
        clause = not d["header"]
        reworded = clause and d["has_meaning"] and text == K.REWORDED
        old = self._drift_side(self.old, d["olds"], d["old_text"], reworded)
        new = self._drift_side(self.new, d["news"], d["new_text"], reworded)
        if reworded:  # what the rules test through the predicates they use, for ``_unaccounted``
            d["tested_through"] = frozenset(old.tested | new.tested)
        return [flag(f) for f in K.drift(text, behaviour_changed, clause and d["has_meaning"], old, new,
                                         self._labels())]

    def _drift_side(self, side, clauses: tuple, text: str | None, reworded: bool) -> K.Side:
        """What the clauses' conditions test, through the predicates they use (loaded only when compared)."""
        if not reworded:
            return K.Side(text or "", set())
        refs = K.predicate_refs(clauses) & self._predicate_names(side)
        edition = side.evaluable([("predicate", n) for n in sorted(refs)]) if refs else None
        predicates, covers = self._conditions(edition)
        return K.Side(text or "", K.keys_tested(clauses, predicates), tuple(l.phrase for c in clauses for l in c.links),
                      covers)

    def _predicate_names(self, side) -> set[str]:
        """The side's predicate names as a set, made once per diff (drift intersects it per change)."""
        memo = self._names_memo
        if id(side) not in memo:
            memo[id(side)] = set(side.predicate_names())
        return memo[id(side)]

    def _conditions(self, edition) -> tuple[dict, K.PredicateKeys]:
        """The edition's predicate conditions and what each tests, made once per edition object: a side
        loaded whole hands the same edition for every change, so drift costs what the changes read."""
        if edition is None:
            return {}, K.PredicateKeys({})
        memo = self._conditions_memo
        if id(edition) not in memo:
            predicates = {n: p.condition for n, p in edition.predicates.items()}
            memo[id(edition)] = (edition, predicates, K.PredicateKeys(predicates))  # the edition keeps its id
        return memo[id(edition)][1:]

    def _labels(self) -> K.Labels:
        if not hasattr(self, "_label_cache"):
            self._label_cache = K.condition_labels(
                self.vocabulary, self._predicate_names(self.old) | self._predicate_names(self.new))
        return self._label_cache

    def _impact(self, d: dict, behaviours: dict) -> list[dict]:
        """Clauses elsewhere that use what this change touched, transitively, in the new edition first."""
        own = {c.ref for c in d["olds"] + d["news"]}
        out: dict[tuple, dict] = {}
        sides: dict[tuple, set[str]] = {}
        for side, uses in (("new", self.uses_new), ("old", self.uses_old)):
            seen: set[str] = set()
            stack = [n for k, n in d["names"] if k == "predicate"] + [c.ref for c in d["olds"] + d["news"]]
            while stack:
                name = stack.pop()
                if name in seen:
                    continue
                seen.add(name)
                for use in uses.of(name):
                    ref = f"{use.term}#{use.clause}" if use.clause else use.term
                    if ref in own:
                        continue
                    key = (use.name, ref, use.via)
                    sides.setdefault(key, set()).add(side)
                    if key not in out:
                        entry = use.as_json()
                        b = behaviours.get(use.user)
                        entry["direction"] = b.direction if b else None
                        out[key] = entry
                    if use.user[0] == "predicate":
                        stack.append(use.user[1])
        # A use that one edition only has (a clause withdrawn, or new) says so.
        return [out[k] | {"side": "both" if len(sides[k]) == 2 else next(iter(sides[k]))} for k in sorted(out)]

    def _order(self, c: Change) -> tuple:
        """Document order: terms as the document gives them (``numbers.term_key``: by the first number they
        print, then those that print none by id), each term's changes as it lists its clauses."""
        from ..numbers import term_key

        term = self._terms.get(c.term)
        position = 0
        if c.clause is not None and term is not None:
            if c.term not in self._positions:  # once per term, not once per change (3,000 clauses a term)
                self._positions[c.term] = {x.id: i for i, x in enumerate(term.clauses)}
            ids = self._positions[c.term]
            first = (c.new_clause or c.old_clause or "").split("+")[0]
            position = 1 + ids.get(first, len(ids) + 1)
        place = term_key(term) if term is not None else (1, (), c.term)
        return (place, c.term, position, c.old_clause or "", c.new_clause or "", c.kind)


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


def annotation_flag(predicate: str) -> Flag:
    """The drift flag of a predicate whose changed answers grade nothing (``_Differ._decides_no_play``)."""
    return flag("the predicate ", Ident(predicate), " answers differently, but no rule or predicate of either edition "
                "reads it and the text names no word it defines: its words decide the level")


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


def _header_json(term: Term) -> dict:
    from ..jsonform import decision_json

    # Notes are editors' annotations, not rule text: see classify.extras_json.
    return {"name": term.name, "aliases": list(term.aliases),
            "decisions": [decision_json(d) for d in term.decisions],
            "sections": [[s.key, s.kind, s.title] for s in term.sections]}


def _header_text(term: Term) -> str:
    """A term's heading as people read it: name, aliases, notes, decisions, sections."""
    from ..conditions import describe

    lines = [f"Term: {term.name}"]
    if term.aliases:
        lines.append("Aliases: " + ", ".join(term.aliases))
    for d in term.decisions:
        kind = d.type if d.type == "bool" else "one of " + ", ".join(d.values)
        given = f" (asked when {describe(d.given)})" if d.given is not None else ""
        lines.append(f"Decision {d.name} ({kind}): {d.meaning}{given}")
    for s in term.sections:
        lines.append(f"Section {s.key}: {s.title or s.kind}")
    return "\n".join(lines)


def _structure(old: Any, new: Any) -> list[dict]:
    """The machine-readable parts diffed with deepdiff: path, old value, new value."""
    from deepdiff import DeepDiff  # heavy: only when some meaning changed

    tree = DeepDiff(old, new, view="tree", ignore_order=False)
    out = []
    for report, levels in tree.items():
        for level in levels:
            out.append({"change": report, "path": level.path(),
                        "old": _plain(level.t1), "new": _plain(level.t2)})
    out.sort(key=lambda e: (e["path"], e["change"]))
    return out


def _plain(value: Any) -> Any:
    if value is None or isinstance(value, (bool, int, float, str, list, dict)):
        return value
    return None  # deepdiff's "not present"
