"""An incremental ``check``: what checking each file gave, and what other files can see of it, kept as data.

Designed as incremental compilers are (salsa's "early cutoff", mypy's per-module
interfaces): a full check records, in one JSON state per rulebook folder (the
cache's ``proofs`` table; never unpickled or evaluated, validated on reading):

- per file: its SHA-256, the problems of reading it alone (YAML, schema, the term
  built from it) and those of checking its term's names against its editions;
- per term: its *interface*, everything another file's checks read of it (id,
  the file's edition, clause ids, each rule's decision and exceptions, decisions,
  predicates, declared lineage and dates), without locations;
- per edition: its terms' interfaces, and the logic checks' problems per decision;
- the problems no single file gives (``global``), the lock's and the summary.

After an edit, only the edited term files are read again. When each still
builds a term with the same interface, nothing any other file's check reads
has changed, so their problems are the recorded ones: the edited terms'
names are checked against their editions (rebuilt from the interfaces), and
the logic of the decisions they declare or rule on is proved again (from
their files and the few other term files those decisions read). Anything
else (another kind of file changed, a file added or removed, an interface
changed, a problem across files, a published edition under the lock) is
checked in full, which records the state again. ``tests/test_recheck.py``
compares both ways on many edits, problem for problem.

A full check stores the rulebook for ``diff``; an incremental one gives the
terms it read again (``Outcome.terms``), from which rulebook_compiler/checking.py
writes the new files' stored rulebook out of the one the check before stored
(``Cache.store_edited``), so that a diff after either starts warm.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator, Mapping, cast

from .diagnostics import Diagnostic

if TYPE_CHECKING:
    from .cache import Fingerprint
    from .model import Edition, Rulebook, Term
    from .proofs import Proofs

FORMAT = 1  # of the state; compiler_key() changes with the compiler's sources anyway


@dataclass(frozen=True)
class Outcome:
    problems: list[Diagnostic]
    summary: str | None
    state: dict | None  # what the next check starts from; None when it cannot be kept
    read: int = 0  # term files read (an incremental check)
    book: "Rulebook | None" = None  # the model, when a full check built it
    proved: int = 0  # decisions whose logic was checked (without proofs to keep)
    terms: "Mapping[str, Term]" = field(default_factory=dict)  # an incremental check: each edited file's term
    # the declared sources, each there; None when one is not (a source put back changes no file the
    # fingerprint hashes: such an outcome is not kept whole)
    sources: list[str] | None = None
    # the published editions are as rulebook.lock records them (what build.check asks besides the
    # build): only then is the rulebook stored for diff (rulebook_compiler/checking.py)
    locked: bool = False


# -- the state: a base a full check writes, and what each check after it changes -------------------
#
# base: {"format", "normal", "global": rows no single file gives, "others": {file: rows} (rulebook.yaml,
#        vocabulary files, corrections), "files": {term file: [kind, id, interface key or null]},
#        "interfaces": {key: interface}, "editions": [[id, published, {term id: interface key}]],
#        "groups": [[edition, decision, edition reported at]] (the logic checks, in order),
#        "tokens": {edition: [its predicates, its vocabulary], as numbers} (what else the checks compare),
#        "sources": [...], "lock": digest of rulebook.lock, "shas": {file: sha256}}
# top:  {"format", "base": sha256 of the base's text, "shas": {file: sha256} where it differs from the
#        base's, "own": {term file: rows} (reading it alone and checking its names; only where some),
#        "logic": {group index: rows} (only where some) or null when unknown, "lock_problems": rows,
#        "summary", "budget_used", "book": the cache key of the rulebook stored for these files (absent when
#        none was; rulebook_compiler/cache.py), which the next incremental check's is made from}
# Files are named relative to the rulebook folder ("editions/a/cure.yaml"); rows as proofs.encode writes.


def state_key(compiler: str, root: Path) -> str:
    """One state per rulebook folder as the check names it (problems show paths relative to here)."""
    h = hashlib.sha256()
    for part in ("recheck-state", str(FORMAT), compiler, str(root.resolve()), os.path.relpath(root)):
        h.update(part.encode("utf-8", "surrogateescape") + b"\0")
    return h.hexdigest()


def dump(value) -> str:
    return json.dumps(value, ensure_ascii=True, separators=(",", ":"))


def base_key(text: str) -> str:
    return "recheck-base-" + hashlib.sha256(text.encode()).hexdigest()


def _rows(problems: list[Diagnostic]) -> list:
    from .proofs import diagnostic_row

    return [diagnostic_row(d) for d in problems]


def _problems(rows: Any) -> list[Diagnostic]:
    """The problems a state's rows hold (as proofs.decode reads them), else _Stale."""
    if rows == []:
        return []
    from .proofs import from_rows

    found = from_rows(rows)
    if found is None:
        raise _Stale("a problem row")
    return found


class _Stale(Exception):
    """The state cannot serve this check: check in full."""


def _rel(root: Path, path: Path) -> str | None:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return None


# -- the full check, recorded ----------------------------------------------------------------


def full(root: Path, proofs: "Proofs | None", record: bool) -> Outcome:
    """What ``check`` finds, exactly as build.check + logic + lock do; with ``record``, the state too."""
    from .build import Builder, cyclic_gc_paused
    from .diagnostics import RulebookError, suggestions_left, suggestion_budget
    from .lock import problems as lock_problems
    from .logic import logic_problems
    from .proofs import summary_line

    from . import build

    # while serve remembers files (build.remembering), a load reuses unchanged files' terms without
    # building them again: what each file gives cannot be noted, so nothing is recorded
    record = record and not build.is_remembering()
    recorder = _Recorder(root) if record else None
    builder = recorder.builder if recorder is not None else Builder(root)
    with cyclic_gc_paused(), suggestion_budget():
        try:
            book, problems = builder.build(), []
        except RulebookError as exc:
            book, problems = None, exc.diagnostics
        left = suggestions_left.get()
    sources = sorted(builder.sources) if all(builder.sources.values()) else None
    if book is None:
        state = recorder.state(None, [], [], None, left) if recorder is not None else None
        return Outcome(problems, None, state, sources=sources)
    groups: list = []
    found = logic_problems(book, proofs, groups)
    from .rulings import problems as ruling_problems

    found += ruling_problems(root, book)  # the committee's rulings held to the model (rulebook_compiler/rulings.py)
    lock = lock_problems(book)
    summary = summary_line(book)
    state = recorder.state(book, groups, lock, summary, left) if recorder is not None else None
    return Outcome(found + lock, summary, state, book=book, proved=len(groups), sources=sources, locked=not lock)


class _Recorder:
    """Watches a build (``build.BuildObserver``): notes which file each problem comes from, and each
    term's interface."""

    def __init__(self, root: Path):
        from .build import Builder

        self.builder = Builder(root, self)
        self.root = root
        self.own: dict[str, list[int]] = {}  # a file (root-relative) -> indexes of its own problems
        self.rel: dict[str, str] = {}  # a file as shown -> root-relative
        self.files: dict[str, list] = {}  # a term file -> [kind, id, its term]
        self.whole: dict[int, str] = {}  # id() of a term built from a whole term file -> that file
        self.normal = False
        self.resolved: list = []  # the editions, when every file was read

    @property
    def problems(self) -> list[Diagnostic]:
        return self.builder.problems

    def _note(self, rel: str | None, before: int) -> None:
        self.own.setdefault(rel or "", []).extend(range(before, len(self.problems)))

    # -- what the build tells (build.BuildObserver) ------------------------------------------

    def loaded(self, path: Path, before: int) -> None:
        rel = _rel(self.root, path)
        if rel is not None:
            self.rel[self.builder.shown(path)] = rel
            self._note(rel, before)

    def editions_resolved(self, editions: list) -> None:
        self.resolved = editions

    def reading_editions(self) -> None:
        self.normal = True  # past rulebook.yaml and vocabulary.yaml: every file is checked in full

    def term_file(self, doc, tf, before: int) -> None:
        rel = self.rel.get(doc.path)
        self._note(rel, before)
        data = doc.data
        kind = "withdrawn" if tf.withdrawn else "patch" if tf.patch else "term" if tf.term is not None else "broken"
        if rel is not None:
            self.files[rel] = [kind, data.get("id") if isinstance(data.get("id"), str) else None, tf.term,
                               "updated" in data or "released" in data]
            if tf.term is not None:
                self.whole[id(tf.term)] = rel

    def names_checked(self, term, before: int) -> None:
        rel = self.whole.get(id(term))
        if rel is not None and self.files[rel][2] is term:
            self._note(rel, before)

    # -- the state ------------------------------------------------------------------------------

    def _file_of(self, term) -> str | None:
        rel = self.whole.get(id(term))
        return rel if rel is not None and self.files[rel][2] is term else None

    def state(self, book: "Rulebook | None", groups, lock, summary, left) -> dict | None:
        from .diagnostics import SUGGESTION_BUDGET

        if left is None:
            return None
        owned = {i for rel, rows in self.own.items() if rel for i in rows}
        rows_of = {rel: _rows(_dedup([self.problems[i] for i in rows])) for rel, rows in self.own.items() if rel}
        interfaces: dict[str, list] = {}
        files = self._files(interfaces)
        editions = self._editions(interfaces)
        base = {"format": FORMAT, "normal": self.normal,
                "global": _rows(_dedup([p for i, p in enumerate(self.problems) if i not in owned])),
                "others": {rel: rows for rel, rows in rows_of.items() if rel not in files and rows},
                "files": files, "interfaces": interfaces, "editions": editions,
                "groups": [[e, d, first] for e, d, first, _ in groups],
                "tokens": _tokens(book) if book is not None else None,
                "sources": sorted({s for e in self.resolved for s in e.sources}) if self.normal else [],
                "lock": lock_digest(self.root)}
        top = {"format": FORMAT, "shas": {},
               "own": {rel: rows for rel, rows in rows_of.items() if rel in files and rows},
               "logic": _logic_rows(groups) if book is not None else None,
               "lock_problems": _rows(lock), "summary": summary, "budget_used": SUGGESTION_BUDGET - left}
        return {"base": base, "top": top}

    def _files(self, interfaces: dict[str, list]) -> dict[str, list]:
        """Each file read: [kind, term id, its term's interface key, dated]; the interfaces go into
        ``interfaces``."""
        files = {}
        for rel, (kind, tid, term, dated) in self.files.items():
            key = None
            if term is not None:
                key, interfaces[key] = interface(term, rel)
            files[rel] = [kind, tid, key, dated]
        return files

    def _editions(self, interfaces: dict[str, list]) -> list[list]:
        """Each edition resolved (of a normal rulebook): [id, published, term id -> interface key]; the
        interfaces not yet known go into ``interfaces``."""
        editions = []
        for edition in self.resolved if self.normal else ():
            terms = {}
            for term in edition.terms:
                key, data = interface(term, self._file_of(term))
                interfaces.setdefault(key, data)
                terms[term.id] = key
            editions.append([edition.id, edition.status == "published", terms])
        return editions


def _versions(files: Mapping[str, list], order: Mapping[str, int]) -> dict[str, list]:
    """Term id -> its files: (its edition's place, kind, declares dates)."""
    versions: dict[str, list] = {}
    for rel, (kind, tid, _, dated) in files.items():
        versions.setdefault(tid, []).append((order.get(rel.split("/")[1], -1), kind, dated))
    return versions


def _logic_rows(groups) -> dict[str, list]:
    """The logic checks' problems of each group that found some, by the group's place."""
    return {str(i): _rows(found) for i, (_, _, _, found) in enumerate(groups) if found}


def _tokens(book: "Rulebook") -> dict:
    """Per edition, what the logic checks compare of it besides a decision's rules (logic.logic_problems):
    its predicates and its vocabulary, each as a number."""
    from .logic import predicates_key

    tokens: dict = {}
    vocabularies: dict = {}
    return {e.id: [tokens.setdefault(predicates_key(e), len(tokens)),
                   vocabularies.setdefault(e.vocabulary, len(vocabularies))] for e in book.editions}


def _dedup(problems: list[Diagnostic]) -> list[Diagnostic]:
    return list(dict.fromkeys(problems))


def lock_digest(root: Path) -> str:
    lock = root / "rulebook.lock"
    try:
        return hashlib.sha256(lock.read_bytes()).hexdigest() if lock.is_file() else "-"
    except OSError:
        return "?"


def interface(term: "Term", rel: str | None) -> tuple[str, list]:
    """What another file's checks read of a term, without locations, and its key.

    ``rel`` is the whole term file it was built from (None: a patch built it; 1: the
    usual ``editions/EDITION/ID.yaml``). What is only compared (the decisions' and
    predicates' whole definitions, each rule's exceptions, lineage, dates) is kept
    as one digest of its text; names, clause ids and the decisions each clause rules
    on (an index among the term's own, else the name) are kept as such: an edition's
    view for checking names is rebuilt from them; and the decisions of other terms it
    rules on, so that a decision's rules are found without reading every clause.
    """
    own = {d.name: i for i, d in enumerate(term.decisions)}
    # kept as text, read only for the few terms an edited term links or excepts to: decoding every
    # term's clauses as lists was a third of reading the record back
    clauses = dump([[c.id, *(own.get(d, d) for d in dict.fromkeys(r.decision for r in c.rules))]
                    for c in term.clauses])
    decisions = [[d.name, d.type, *d.values] for d in term.decisions]
    predicates = [c.defines.name for c in term.clauses if c.defines is not None]
    compared = repr(([*term.decisions], [c.defines for c in term.clauses if c.defines is not None],
                     [(r.decision, r.exception_to) for c in term.clauses for r in c.rules],
                     [c.lineage for c in term.clauses if c.lineage is not None], term.updated, term.released))
    foreign = sorted({r.decision for c in term.clauses for r in c.rules} - own.keys())
    data = [term.id, term.edition, 1 if rel == f"editions/{term.edition}/{term.id}.yaml" else rel, clauses,
            decisions, predicates, hashlib.sha256(compared.encode("utf-8", "surrogateescape")).hexdigest()[:32],
            foreign]
    return hashlib.sha256(dump(data).encode()).hexdigest()[:20], data


def _file(data: list) -> str | None:
    """The whole term file an interface's term was built from (None: a patch built it)."""
    return f"editions/{data[1]}/{data[0]}.yaml" if data[2] == 1 else data[2]


def _ruled(data: list, clause: list) -> list[str]:
    """The decisions a clause of an interface's term rules on."""
    return [data[4][d][0] if type(d) is int else d for d in clause[1:]]


# -- the incremental check --------------------------------------------------------------------


def incremental(root: Path, fp: "Fingerprint", base: Any, top: Any, proofs: "Proofs") -> Outcome | None:
    """The check of the rulebook as ``fp`` finds it, from the state a check before kept, or None when
    only a full check can tell."""
    try:
        return _Incremental(root, fp, base, top, proofs).run()
    except _Stale:
        return None
    except (KeyError, IndexError, TypeError, ValueError, AttributeError):  # a state not as written: forged
        return None


class _Incremental:
    def __init__(self, root: Path, fp: "Fingerprint", base: Any, top: Any, proofs: "Proofs"):
        from .build import RULINGS_FILE, Builder

        if (type(base) is not dict or type(top) is not dict or base.get("format") != FORMAT
                or top.get("format") != FORMAT or not base.get("normal") or base.get("global")):
            raise _Stale("state")
        shas = {**base["shas"], **top["shas"]}
        if set(shas) != set(fp.files):
            raise _Stale("files added or removed")
        if any(rel.endswith("/" + RULINGS_FILE) for rel in fp.files):
            # an edited rule can change what any ruling's decision answers: rulings are checked in full
            raise _Stale("rulings")
        self.root, self.fp, self.base, self.top, self.proofs = root, fp, base, top, proofs
        self.builder = Builder(root)
        self._resolved: dict | None = None  # _vocabularies(), once
        self.changed = sorted(rel for rel, sha in fp.files.items() if shas[rel] != sha)
        self.terms: dict[str, Any] = {}  # a term file -> the term built from it now
        self._indexes: dict[str, tuple] = {}

    def run(self) -> Outcome | None:
        from .diagnostics import SUGGESTION_BUDGET, suggestions_left, suggestion_budget

        base, top = self.base, self.top
        sources = self._fresh_sources()
        # the terms whose files have errors, as the full check found them (build.Builder.broken_terms):
        # what follows from those errors stays folded into them here too
        self.builder.broken_terms = {tid if isinstance(tid, str) else Path(rel).stem
                                     for rel, (kind, tid, _, _) in base["files"].items() if kind == "broken"}
        order = {e[0]: i for i, e in enumerate(base["editions"])}
        versions = _versions(base["files"], order)
        own = dict(top["own"])
        with suggestion_budget():
            for rel in self.changed:
                self._reread(rel, order, versions, own)
            left = suggestions_left.get()
        used = top["budget_used"]
        if type(used) is not int or left is None or used + (SUGGESTION_BUDGET - left) > SUGGESTION_BUDGET:
            raise _Stale("suggestions")
        new = {**top, "own": own, "budget_used": used + (SUGGESTION_BUDGET - left),
               "shas": {rel: sha for rel, sha in {**top["shas"], **self.fp.files}.items()
                        if base["shas"].get(rel) != sha}}
        return self._outcome(new, own, sources)

    def _fresh_sources(self) -> list[str]:
        """The sources the recorded check read, after making sure that the lock is the one it read and
        that they are all there."""
        if not self.changed or lock_digest(self.root) != self.base["lock"]:
            raise _Stale("the lock")
        from .cache import sources_present

        sources = _strings(self.base["sources"])
        if not sources_present(self.root, sources):
            raise _Stale("a source")
        return sources

    def _reread(self, rel: str, order: Mapping[str, int], versions: Mapping[str, list], own: dict) -> None:
        """An edited whole term file read and checked again, its problems in ``own``; _Stale when it is
        no whole term file, another version builds on it or dates depend on it, or its interface changed."""
        files, interfaces = self.base["files"], self.base["interfaces"]
        kind, tid, key, _ = files.get(rel) or (None, None, None, None)
        if kind != "term" or rel.count("/") != 2 or not rel.startswith("editions/") or tid is None \
                or key is None:
            raise _Stale("not a whole term file")
        # a later patch builds on this file; dates are checked against the term's every version
        at = order.get(rel.split("/")[1], -1)
        later = sorted(v for v in versions[tid] if v[0] > at)
        if at < 0 or (later and later[0][1] == "patch") or any(v[2] for v in versions[tid]):
            raise _Stale("a patch or dates depend on this file")
        found, term = self._read(rel)
        if interface(term, rel) != (key, interfaces[key]):
            raise _Stale("an interface changed")
        found = _rows(_dedup(found + self._names(term, key)))
        own.pop(rel, None)
        if found:
            own[rel] = found

    def _outcome(self, new: dict, own: dict, sources: list[str]) -> Outcome:
        """The check's outcome from the problems of the files read again and the state recorded."""
        from .diagnostics import sort_key

        base, top = self.base, self.top
        problems = [p for rows in own.values() for p in _problems(rows)]
        problems += [p for rows in base["others"].values() for p in _problems(rows)]
        if problems:
            # a build with problems has no logic: what it was is not known from here on
            new.update(logic=None, summary=None, lock_problems=[])
            return Outcome(sorted(set(problems), key=sort_key), None, {"base": base, "top": new}, len(self.changed),
                           sources=sources)
        if top["logic"] is None or type(top["summary"]) is not str:
            raise _Stale("no logic recorded")
        new["logic"] = logic = dict(top["logic"])
        found = self._logic(logic)
        lock = _problems(top["lock_problems"])
        return Outcome(found + lock, top["summary"], {"base": base, "top": new}, len(self.changed),
                       terms={rel: self.terms[rel] for rel in self.changed}, sources=sources, locked=not lock)

    # -- the edited files --------------------------------------------------------------------

    def _read(self, rel: str):
        """The problems of reading one term file alone, and its term (else _Stale)."""
        builder = self.builder
        before = len(builder.problems)
        file = self.root / rel
        doc = builder.load(file, "term")
        term = None
        if doc is not None:
            term = builder.term_file(doc, rel.split("/")[1], file.stem).term
        if term is None:
            raise _Stale("the term is not built")
        self._same(rel)
        self.terms[rel] = term
        return builder.problems[before:], term

    def _same(self, rel: str) -> None:
        """A file read now holds what the fingerprint hashed (else what was read is not what is kept)."""
        from .cache import file_sha

        try:
            same = file_sha(self.root / rel) == self.fp.files.get(rel)
        except OSError:
            same = False
        if not same:
            raise _Stale("a file changed while it was read")

    def _editions_with(self, tid: str, key: str) -> list:
        return [e for e in self.base["editions"] if e[2].get(tid) == key]

    def _names(self, term: "Term", key: str) -> list[Diagnostic]:
        """The term's names checked in each edition that has it, against the others' interfaces."""
        found: list[Diagnostic] = []
        vocabularies = self._vocabularies()
        builder = self.builder
        seen: set[tuple] = set()
        for edition_id, published, terms in self._editions_with(term.id, key):
            if published and self.base["lock"] != "-":
                raise _Stale("a published edition under the lock")
            # As the build does (build.Builder, "a term need not be checked again in an edition whose every
            # term and vocabulary are as before"): checked in each, a new draft that carries every term of
            # the one before gave a problem more warm than cold.
            signature = (tuple(terms.items()), vocabularies[edition_id].vocabulary)
            if signature in seen:
                continue
            seen.add(signature)
            env = _Edition(edition_id, terms, self.base["interfaces"])
            declared, _, predicates = self._index(edition_id)
            before = len(builder.problems)
            # the interfaces' view of the edition has what check_term_names reads of one
            builder.check_term_names(cast("Edition", env), term, vocabularies[edition_id].names(predicates), env.decisions(declared))
            found += builder.problems[before:]
            del builder.problems[before:]
        return found

    def _vocabularies(self) -> dict:
        """Each edition's vocabulary, resolved as the build resolves it (these files did not change)."""
        if self._resolved is not None:
            return self._resolved
        from .build import VOCABULARY_FILE
        from .vocabulary import OVERLAY_FILE, apply_overlay, read_base

        scratch: list[Diagnostic] = []
        doc = self.builder.read(self.root / VOCABULARY_FILE, "vocabulary")
        if doc is None:
            raise _Stale("the vocabulary")
        self._same(VOCABULARY_FILE)
        vocabulary = read_base(doc, scratch)
        out = {}
        for edition_id, _, _ in self.base["editions"]:
            rel = f"editions/{edition_id}/{OVERLAY_FILE}"
            if rel in self.fp.files:
                odoc = self.builder.read(self.root / rel, "vocabulary-overlay")
                if odoc is None:
                    raise _Stale("an overlay")
                self._same(rel)
                vocabulary = apply_overlay(vocabulary, odoc, edition_id, scratch)
            out[edition_id] = vocabulary
        self._resolved = out
        return out

    # -- the logic of the decisions the edited terms touch ----------------------------------------

    def _logic(self, logic: dict) -> list[Diagnostic]:
        """The logic checks' problems, those of the decisions the edited terms touch made again.

        A decision is checked once for editions that give it the same rules over the same
        predicates and vocabulary (logic.logic_problems): which editions those are is worked
        out again, and if it is not as before, the check is made in full.
        """
        from dataclasses import replace

        from .logic import decision_problems
        from .symbolic import vocabulary_core

        spans = {e[0] for rel, term in self.terms.items() if rel in self.changed
                 for e in self._editions_with(term.id, interface(term, rel)[0])}
        touched = sorted({name for rel, term in self.terms.items() if rel in self.changed
                          for name in _decisions_of(term)})
        groups = self.base["groups"]
        tokens = self.base["tokens"]
        at = {(edition, name): i for i, (edition, name, _) in enumerate(groups)}
        todo = []
        for name in touched:
            first_had: dict = {}
            done: set = set()
            pattern = []
            models = {}
            for edition_id, _, _ in self.base["editions"]:
                if name not in self._index(edition_id)[0]:
                    continue
                model = models[edition_id] = self._model(edition_id, name)
                key = (model.decision, model.rules, tokens[edition_id][0])
                first = first_had.setdefault(key, edition_id)
                if (key, tokens[edition_id][1]) in done:
                    continue
                done.add((key, tokens[edition_id][1]))
                pattern.append([edition_id, name, first])
            if pattern != [g for g in groups if g[1] == name]:
                raise _Stale("the editions a decision is checked in")
            todo += [(at[(e, name)], e, name, first, models[e]) for e, name, first in pattern if e in spans]
        stored = self.proofs.stored([m for *_, m in todo])
        cores: dict = {}
        for i, edition, name, first, model in todo:
            core = cores.get(id(model.vocabulary))
            if core is None:
                core = cores[id(model.vocabulary)] = vocabulary_core(model.vocabulary)
            found = self.proofs.problems(model, partial(decision_problems, model, core), stored)
            if first != edition:
                found = [replace(p, message=f"{p.message}, in edition '{edition}', whose vocabulary differs "
                                            f"from that of edition '{first}'") for p in found]
            logic.pop(str(i), None)
            if found:
                logic[str(i)] = _rows(found)
        return [p for i in sorted(logic, key=int) for p in _problems(logic[i])]

    def _model(self, edition_id: str, name: str):
        """The decision's model in that edition, from the term files that declare it, rule on it or define
        the predicates it reaches."""
        from .conditions import refs
        from .evaluate import DecisionModel

        terms = self._terms_of(edition_id)
        declared, ruled, predicates = self._index(edition_id)
        decision = None
        rules = []
        for tid in sorted({*ruled.get(name, ()), *([declared[name]] if name in declared else [])}):
            term = self._term(terms[tid])
            if tid == declared.get(name):
                decision = next(d for d in term.decisions if d.name == name)
            rules += [r for c in term.clauses for r in c.rules if r.decision == name]
        if decision is None:
            raise _Stale("a decision")
        stack = [c for r in rules for c in (r.when, r.test) if c is not None]
        if decision.given is not None:
            stack.append(decision.given)
        conditions: dict = {}
        while stack:
            for ref in sorted(refs(stack.pop())):
                if ref in predicates and ref not in conditions:
                    term = self._term(terms[predicates[ref]])
                    conditions[ref] = next(c.defines for c in term.clauses
                                           if c.defines is not None and c.defines.name == ref).condition
                    stack.append(conditions[ref])
        vocabulary = self._vocabularies()[edition_id].vocabulary
        # _Decisions has what DecisionModel reads of an edition
        return DecisionModel(vocabulary, cast("Edition", _Decisions({name: decision})), name, rules=tuple(rules),
                             predicates=conditions)

    def _terms_of(self, edition_id: str) -> dict:
        return next(e[2] for e in self.base["editions"] if e[0] == edition_id)

    def _index(self, edition_id: str) -> tuple[dict, dict, dict]:
        """An edition's decisions and predicates, each by the first term (in id order) that declares or
        defines it, and the terms that rule on each decision another term declares."""
        if edition_id not in self._indexes:
            terms, interfaces = self._terms_of(edition_id), self.base["interfaces"]
            declared: dict[str, str] = {}
            ruled: dict[str, list[str]] = {}
            predicates: dict[str, str] = {}
            for tid in sorted(terms):
                data = interfaces[terms[tid]]
                for d in data[4]:
                    declared.setdefault(d[0], tid)
                for p in data[5]:
                    predicates.setdefault(p, tid)
                for name in data[7]:
                    ruled.setdefault(name, []).append(tid)
            self._indexes[edition_id] = declared, ruled, predicates
        return self._indexes[edition_id]

    def _term(self, key: str) -> "Term":
        """A term as the build makes it, from its whole term file (an edited one is read already)."""
        rel = _file(self.base["interfaces"][key])
        if rel is None:
            raise _Stale("a term a patch makes")
        if rel not in self.terms:
            self._read(rel)
        return self.terms[rel]


def _strings(value: Any) -> list[str]:
    if type(value) is not list or not all(type(v) is str for v in value):
        raise _Stale("a list of names")
    return value


def _decisions_of(term: "Term") -> set[str]:
    return {d.name for d in term.decisions} | {r.decision for c in term.clauses for r in c.rules}


class _Decisions:
    """What DecisionModel reads of an edition: its decisions."""

    def __init__(self, decisions: dict):
        self.decisions = decisions


# -- an edition as the interfaces of its terms give it (what check_term_names reads) ----------------


@dataclass(frozen=True)
class _RuleView:
    decision: str


@dataclass(frozen=True)
class _ClauseView:
    id: str
    rules: tuple


@dataclass(frozen=True)
class _TermView:
    id: str
    edition: str
    clauses: tuple


@dataclass(frozen=True)
class _DecisionView:
    name: str
    type: str
    values: tuple
    term: str


class _Lazy(Mapping):
    def __init__(self, keys, make):
        self._keys, self._make, self._made = keys, make, {}

    def __getitem__(self, key):
        if key not in self._made:
            if key not in self._keys:
                raise KeyError(key)
            self._made[key] = self._make(key)
        return self._made[key]

    def __iter__(self) -> Iterator:
        return iter(self._keys)

    def __len__(self) -> int:
        return len(self._keys)

    def __contains__(self, key) -> bool:
        return key in self._keys


class _Clauses(Mapping):
    """An edition's clauses by ref (``term#clause``), made as they are asked for."""

    def __init__(self, edition: "_Edition"):
        self._edition = edition

    def _find(self, ref):
        tid, _, cid = ref.partition("#") if isinstance(ref, str) else ("", "", "")
        term = self._edition.term_by_id.get(tid)
        return next((c for c in term.clauses if c.id == cid), None) if term is not None and cid else None

    def __getitem__(self, ref):
        found = self._find(ref)
        if found is None:
            raise KeyError(ref)
        return found

    def __contains__(self, ref) -> bool:
        return self._find(ref) is not None

    def __iter__(self) -> Iterator:
        return iter(dict.fromkeys(f"{t.id}#{c.id}" for t in self._edition.term_by_id.values() for c in t.clauses))

    def __len__(self) -> int:
        return sum(1 for _ in self)


class _Edition:
    def __init__(self, edition_id: str, terms: dict, interfaces: dict):
        self.id = edition_id
        self._terms, self._interfaces = terms, interfaces
        self.term_by_id = _Lazy(terms, self._term)
        self.clause_by_ref = _Clauses(self)

    def _term(self, tid: str) -> _TermView:
        data = self._interfaces[self._terms[tid]]
        return _TermView(data[0], data[1], tuple(_ClauseView(c[0], tuple(_RuleView(d) for d in _ruled(data, c)))
                                                 for c in json.loads(data[3])))

    def decisions(self, declared: dict[str, str]) -> Mapping:
        """The edition's decisions by name, each as the first term (in id order) that declares it
        (``declared``) declares it."""
        def view(name: str) -> _DecisionView:
            tid = declared[name]
            _, kind, *values = next(d for d in self._interfaces[self._terms[tid]][4] if d[0] == name)
            return _DecisionView(name, kind, tuple(values), tid)
        return _Lazy(declared, view)
