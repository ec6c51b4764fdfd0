"""From a rulebook folder to the checked model: load, validate, resolve, freeze.

Every problem in every file is collected before anything is reported; the
model is built only when there are none.
"""

from __future__ import annotations

import gc
import hashlib
import json
import os
import stat
from contextvars import ContextVar
from contextlib import contextmanager
from dataclasses import dataclass, replace as dc_replace
from pathlib import Path
from typing import Iterable, Iterator, Mapping, Protocol

from . import conditions as C
from . import lineage as L
from . import metadata, overlay, schema, tables
from . import progress, rulebook_files
from .diagnostics import Diagnostic, Location, RulebookError, did_you_mean, placed, suggestion_budget
from .rules_checked import words_digest
# the files a rulebook consists of, named once for the build and the cache's fingerprint
from .rulebook_files import (CORRECTIONS_FILE, EDITIONS_DIR, RULEBOOK_FILE, RULINGS_FILE, SOURCES_MAP_FILE,
                             VOCABULARY_FILE)
from .model import (Chapter, Clause, Correction, Dated, Decision, Edition, Link, Predicate, Rule, Rulebook, Section,
                    Steps, Table, TableRow, Term, Vocabulary, clause_ref)
from .vocabulary import OVERLAY_FILE, Resolved, apply_overlay, read_base
from .yamlsource import Document, load


@dataclass
class _TermFile:
    doc: Document
    edition: str
    term: Term | None  # None when withdrawn, broken or a patch (built when editions resolve)
    withdrawn: bool
    patch: bool = False  # patches the term as the previous edition resolved it (rulebook_compiler.overlay)


def load_rulebook(root: Path | str) -> Rulebook:
    """Load and check the rulebook in ``root``; raise RulebookError with every problem.

    The build alone: the published editions are compared with ``rulebook.lock`` by ``check``,
    which the commands call."""
    with cyclic_gc_paused(), suggestion_budget():
        return Builder(Path(root)).build()


# Files read and validated by earlier loads in this process, while ``remembering`` lasts:
# (path, kind) -> ((size, mtime), document, its problems). Documents are only read after loading.
_REMEMBERED: dict[tuple[Path, str], tuple[tuple[int, int], Document | None, list[Diagnostic]]] = {}
_remembering = False


@contextmanager
def remembering() -> Iterator[None]:
    """Loads in this block read and validate again only the files changed since (``rulebook serve``).

    A file is taken as unchanged while its size and modification time (in
    nanoseconds) are; what the files held is dropped when the block ends.
    """
    global _remembering
    _remembering = True
    try:
        yield
    finally:
        _remembering = False
        _REMEMBERED.clear()
        _forget_models()


def is_remembering() -> bool:
    """Whether loads now run inside ``remembering()`` (``rulebook serve``)."""
    return _remembering


# What loads in ``remembering`` keep besides the files, so that a load after a one-clause edit builds
# and checks again only what the edit can have changed (rulebook serve's rebuilds):
# - each term file's model, by (shown path, edition, file stem), reused while its document is the
#   very object remembered (the file unchanged), with the problems and lineage building it gave;
_TERM_FILES: dict[tuple[str, str, str], tuple[Document, "_TermFile", list[Diagnostic], tuple]] = {}
# - the (term digest, term's edition, interface number) keys whose name checks found no problem,
#   from the last load without problems; an edition's interface (``_interface``) is everything a
#   term's name check reads besides the term itself, numbered in _INTERFACES;
_NAMES_CHECKED: set[tuple] = set()
_INTERFACES: dict[tuple, int] = {}
# - each term's part of the interface, by its digest (which the file's content determines), and its
#   part of an edition's predicate and exception graphs, by ("graph", digest).
_SHAPES: dict = {}
# - the lock's entry of each term of a published edition (lock.Known), by the term's identity: an
#   unchanged file's term is the same object, so ``check`` digests again only the terms built again.
_LOCK_ENTRIES: dict = {}


def _forget_models() -> None:
    for held in (_TERM_FILES, _NAMES_CHECKED, _INTERFACES, _SHAPES, _LOCK_ENTRIES):
        held.clear()


def _interface(edition: Edition, vocabulary: Resolved, predicates: dict[str, Predicate],
               decisions: dict[str, Decision]) -> tuple:
    """What ``_check_term_names`` reads of an edition besides the term checked.

    The facts (with their values, and what was withdrawn), the predicates' names,
    the decisions' types and values, and each term's clause ids with the decisions
    its rules answer (what links and exceptions name). A term whose own content
    and edition's interface are as at an earlier check without problems has none.
    """
    shapes = []
    for term in edition.terms:
        shape = _SHAPES.get(term.digest)
        if shape is None:
            shape = _SHAPES[term.digest] = (term.id, tuple(
                (c.id, tuple(sorted({r.decision for r in c.rules}))) for c in term.clauses))
        shapes.append(shape)
    return (vocabulary.vocabulary, tuple(sorted(vocabulary.withdrawn.items())), frozenset(predicates),
            tuple(sorted((d.name, d.type, d.values) for d in decisions.values())), tuple(shapes))


def _defined(term: Term) -> tuple[Predicate, ...]:
    """The predicates a term's clauses define (while remembering, kept by the term's digest)."""
    if not _remembering:
        return tuple(c.defines for c in term.clauses if c.defines)
    key = ("defines", term.digest, term.edition)
    found = _SHAPES.get(key)
    if found is None or found[0] is not term:
        found = _SHAPES[key] = (term, tuple(c.defines for c in term.clauses if c.defines))
    return found[1]


def _edition_graphs(edition: Edition) -> tuple:
    """What the checks over a whole edition's predicates and exceptions read (cycles, depth): each
    term's predicate definitions and its rules' exceptions, by the term's digest."""
    graphs = []
    for term in edition.terms:
        key = ("graph", term.digest)
        graph = _SHAPES.get(key)
        if graph is None:
            graph = _SHAPES[key] = (
                tuple((c.defines.name, c.defines.condition) for c in term.clauses if c.defines),
                tuple((r.decision, r.clause, r.exception_to) for c in term.clauses for r in c.rules))
        graphs.append(graph)
    return tuple(graphs)


def file_stamp(path: Path) -> tuple[int, int] | None:
    try:
        stat = path.stat()
    except OSError:
        return None
    return (stat.st_size, stat.st_mtime_ns)


@contextmanager
def cyclic_gc_paused():
    """Pause the cyclic garbage collector while the model is built.

    Loading allocates hundreds of thousands of long-lived objects and no cycles
    worth collecting early; every automatic collection rescans the ones already
    made, which cost a third of the time of checking 1,000 terms
    (bench/bench_check.py). Reference counting still frees everything else.
    Within ``collector_skips_loads``, what the block made is frozen out of the
    collector before it is enabled again.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if _FREEZING.get():
            gc.freeze()
        if enabled:
            gc.enable()


_FREEZING: ContextVar[bool] = ContextVar("_FREEZING", default=False)


@contextmanager
def collector_skips_loads() -> Iterator[None]:
    """While the block runs, what each load builds is frozen out of the cyclic collector.

    Once enabled again, the collector would scan every object of the model at the
    first collection the next allocations set off, and again at each full one: the
    logic checks of 5,000 terms took 3.3 s of CPU instead of 0.9 s (bench/README.md).
    The model holds no cycles to free (a full collection right after a check finds
    none), and reference counting frees it when dropped. At the end of the block
    everything frozen goes back to the collector, so that a long-lived process
    (``serve``, a test run) still collects the cycles among what it drops. Where
    objects are frozen already (a host froze its heap, or an enclosing block did),
    nothing is frozen: ``gc.unfreeze`` at the end would thaw theirs too.
    """
    if gc.get_freeze_count():
        yield
        return
    token = _FREEZING.set(True)
    try:
        yield
    finally:
        _FREEZING.reset(token)
        gc.unfreeze()


class BuildObserver(Protocol):
    """What a build tells whoever watches it (rulebook_compiler/recheck.py records from it which file each
    problem comes from). Each call gives ``before``, the number of problems before the step: the
    step's own are ``builder.problems[before:]``."""

    def loaded(self, path: Path, before: int) -> None:
        """A file was read (``Builder.load``), or refused as a link outside the folder."""

    def reading_editions(self) -> None:
        """rulebook.yaml and vocabulary.yaml passed: every file is checked in full from here on."""

    def term_file(self, doc: Document, term_file: _TermFile, before: int) -> None:
        """A term file's document was made into a term (or found withdrawn, a patch, or broken)."""

    def names_checked(self, term: Term, before: int) -> None:
        """A term's names were checked against an edition."""

    def editions_resolved(self, editions: list[Edition]) -> None:
        """The editions, resolved (every term file was read)."""


class Builder:
    def __init__(self, root: Path, observer: BuildObserver | None = None):
        self.root = root
        self.observer = observer
        self.problems: list[Diagnostic] = []
        self.signatures: dict[tuple, int] = {}  # editions' (term, digest) lists, numbered
        self.vocabulary_overlays: dict[str, Document] = {}  # edition id -> its _vocabulary.yaml
        self.overlay_misshapen = False  # an overlay failed its schema (besides unknown keys)
        self.withdrawn_by: dict[str, str] = {}  # term id -> the edition that withdrew it last
        # ids of terms whose file has errors of its own: a link, patch or withdrawal naming one follows
        # from those errors and is folded into them, not reported again (issue 25.1)
        self.broken_terms: set[str] = set()
        self.declared: dict[str, list[L.Declared]] = {}  # a term file's path -> its clauses' lineage
        self.names_checked: set[tuple] = set()  # while remembering: this load's keys into _NAMES_CHECKED
        self.root_resolved = root.resolve()
        self.inside: set[Path] = {root}  # folders found inside the rulebook folder (``outside``)
        # each declared source -> whether it is there: no fingerprint hashes them, so a check's result is
        # kept only with them and holds only while they are (rulebook_compiler/checking.py)
        self.sources: dict[str, bool] = {}

    # -- helpers --------------------------------------------------------------

    def shown(self, path: Path) -> str:
        try:
            return os.path.relpath(path)
        except ValueError:  # pragma: no cover - another drive on Windows
            return str(path)

    def error(self, loc: Location | None, message: str, hint: str | None = None) -> None:
        self.problems.append(Diagnostic(placed(loc), message, hint))

    def outside(self, path: Path) -> bool:
        """Whether a path in the rulebook folder leads outside it (through a symbolic link),
        reported as an error; a rulebook reads only its own files, as its sources."""
        if path.parent in self.inside and not path.is_symlink():
            return False  # a plain entry of a folder found inside (one lstat, not a realpath per file)
        if path.resolve().is_relative_to(self.root_resolved):
            if path.is_dir() and not path.is_symlink():
                self.inside.add(path)
            return False
        self.error(Location(self.shown(path)), "a symbolic link to outside the rulebook folder",
                   "a rulebook reads only files inside its folder, as for 'sources'; "
                   "copy the file in instead of linking to it")
        return True

    def load(self, path: Path, kind: str) -> Document | None:
        """One file read and validated (the last load's, while remembering it unchanged); None when
        it cannot be used. Its problems are added to ``problems``."""
        before = len(self.problems)
        doc = self._remembered_load(path, kind)
        if self.observer is not None:
            self.observer.loaded(path, before)
        return doc

    def read(self, path: Path, kind: str) -> Document | None:
        """One file read and validated as ``load`` reads it, but never remembered nor told the observer:
        what recheck reads of a file it knows did not change."""
        return self._load(path, kind)

    def _remembered_load(self, path: Path, kind: str) -> Document | None:
        if self.outside(path):
            return None
        stamp = file_stamp(path) if _remembering else None
        if stamp is not None and _REMEMBERED.get((path, kind), (None,))[0] == stamp:
            _, doc, problems = _REMEMBERED[(path, kind)]
            self.problems.extend(problems)
            return doc
        before = len(self.problems)
        doc = self._load(path, kind)
        if stamp is not None:
            _REMEMBERED[(path, kind)] = (stamp, doc, self.problems[before:])
        return doc

    def _load(self, path: Path, kind: str) -> Document | None:
        doc, problems = load(path, self.shown(path))
        self.problems.extend(problems)
        if doc is None:
            return None
        if not isinstance(doc.data, dict):
            self.error(doc.at(),
                       f"the file must hold a mapping of keys to values, not {schema.describe_value(doc.data)}")
            return None
        if kind == "term" and overlay.is_patch(doc.data):
            kind = "term-patch"
        found = schema.validate(doc, kind)
        self.problems.extend(found)
        return doc

    # -- the whole ------------------------------------------------------------

    def build(self) -> Rulebook:
        try:
            return self._build()
        except OSError as exc:
            # What the loads below do not report themselves (a source file looked for in a folder
            # that cannot be searched, a link into one): one error, beside those found so far.
            where = Path(exc.filename) if exc.filename else self.root
            self.error(Location(self.shown(where)), f"cannot read: {exc.strerror or exc}")
            raise RulebookError(self.problems) from None

    def cannot_read_folder(self, folder: Path, exc: OSError) -> None:
        self.error(Location(self.shown(folder)), f"cannot read folder: {exc.strerror or exc}")

    def listing(self, folder: Path) -> list[Path] | None:
        """The folder's entries, sorted; None once it is reported that it cannot be read."""
        try:
            # listed as the fingerprint lists it (rulebook_compiler/rulebook_files.py)
            entries = [Path(e.path) for e in rulebook_files.entries(folder)]
            if entries:
                entries[0].lstat()  # a folder that can be listed but not searched (no x permission)
        except OSError as exc:
            self.cannot_read_folder(folder, exc)
            return None
        return entries

    def _main_file(self) -> Path:
        """rulebook.yaml in the rulebook folder; RulebookError when there is none, or it cannot be told."""
        try:
            root_is_file, root_is_dir = self.root.is_file(), self.root.is_dir()
            main_is_file = root_is_dir and (self.root / RULEBOOK_FILE).is_file()
        except OSError as exc:  # the folder, or one it is in, cannot be searched
            self.cannot_read_folder(self.root, exc)
            raise RulebookError(self.problems) from None
        if root_is_file:
            raise RulebookError([Diagnostic(Location(self.shown(self.root)), "this is a file, not a rulebook folder",
                                            f"pass the folder that holds {RULEBOOK_FILE}"
                                            + (f": {self.shown(self.root.parent)}"
                                               if self.root.name == RULEBOOK_FILE else ""))])
        if not root_is_dir:
            raise RulebookError([Diagnostic(Location(self.shown(self.root)), "no such rulebook folder")])
        if not main_is_file:
            raise RulebookError([Diagnostic(Location(self.shown(self.root)),
                                            f"no {RULEBOOK_FILE} in this folder",
                                            "a rulebook folder holds rulebook.yaml, vocabulary.yaml and editions/")])
        return self.root / RULEBOOK_FILE

    def _build(self) -> Rulebook:
        main = self.load(self._main_file(), "rulebook")
        vocab_doc = None
        if (self.root / VOCABULARY_FILE).is_file():
            vocab_doc = self.load(self.root / VOCABULARY_FILE, "vocabulary")
        else:
            self.error(Location(self.shown(self.root / VOCABULARY_FILE)), "missing vocabulary file",
                       "declare the facts that conditions test in vocabulary.yaml (it may be 'facts: []')")
        # Unknown keys are ignored by the build, so they need not hide the problems of the terms.
        if main is None or any(p.code != "unknown-key" for p in self.problems):
            # Editions cannot be read without a valid rulebook.yaml; still check term files' syntax.
            self._scan_term_files(None)
            raise RulebookError(self.problems)
        editions_meta = self._editions(main)
        vocabulary = read_base(vocab_doc, self.problems) if vocab_doc else Resolved(Vocabulary((), ()))
        files = self._scan_term_files(editions_meta)
        if self.overlay_misshapen:
            # As with vocabulary.yaml: a value of the wrong kind (a mapping as 'type') would reach the
            # vocabulary's facts, and the facts what they name; the editions are not read further.
            raise RulebookError(self.problems)
        editions = self._resolve(editions_meta, files, vocabulary)
        metadata.check(editions, self.error)
        corrections = self._corrections(editions)
        if self.problems:
            raise RulebookError(self.problems)
        if _remembering:  # every check of this load found nothing: the next load may skip them
            _NAMES_CHECKED.update(self.names_checked)
        data = main.data
        return Rulebook(root=str(self.root), title=data["title"], publisher=data["publisher"],
                        notes=data.get("notes"), editions=tuple(editions),
                        editor_notes=data.get("editor_notes"), corrections=corrections)

    # -- corrections.yaml -------------------------------------------------------

    def _corrections(self, editions: list[Edition]) -> tuple[Correction, ...]:
        """The corrections log, if the rulebook has one: every entry names an edition it declares. What
        its entries say changed is held to the editions and the lock with the lock (``lock.problems``,
        rulebook_compiler/review.py), so that a revision whose log is forged still loads for the diff that shows it."""
        path = self.root / CORRECTIONS_FILE
        if not path.is_file():
            return ()
        doc = self.load(path, "corrections")
        if doc is None or any(p.location.path == doc.path and p.code != "unknown-key" for p in self.problems):
            return ()
        known = {e.id for e in editions}
        found = []
        for i, raw in enumerate(doc.data["corrections"]):
            if raw["edition"] not in known:
                self.error(doc.at(("corrections", i, "edition")),
                           f"correction of edition '{raw['edition']}', which rulebook.yaml does not declare",
                           did_you_mean(raw["edition"], sorted(known)))
                continue
            found.append(Correction(raw["date"], raw["edition"], raw["kind"], raw["reason"],
                                    tuple(raw.get("changed") or ()), doc.at(("corrections", i)),
                                    tuple(raw.get("removed") or ()), raw.get("lock")))
        return tuple(found)

    # -- rulebook.yaml ----------------------------------------------------------

    def _editions(self, main: Document) -> list[dict]:
        if self.observer is not None:
            self.observer.reading_editions()
        seen: dict[str, int] = {}
        labels: dict[str, str] = {}  # the publisher's version labels: edition ids, unless 'version' gives one
        result = []
        for i, ed in enumerate(main.data["editions"]):
            path = ("editions", i)
            if ed["id"] in seen:
                self.error(main.at(path + ("id",)), f"duplicate edition id '{ed['id']}'",
                           f"first given as edition {seen[ed['id']] + 1}")
                continue
            seen[ed["id"]] = i
            label = ed.get("version", ed["id"])
            if label in labels:
                self.error(main.at(path + ("version" if "version" in ed else "id",)),
                           f"edition '{ed['id']}' has the version label '{label}', as edition '{labels[label]}' does",
                           "an edition's version label is its 'version', else its id; give one of them another "
                           "'version'")
            labels.setdefault(label, ed["id"])
            for j, source in enumerate(ed.get("sources") or []):
                self._check_source(main, path + ("sources", j), source)
            chapters = tuple(Chapter(c["title"], tuple(c["terms"]), main.at(path + ("chapters", k)),
                                     tuple(main.at(path + ("chapters", k, "terms", j)) for j in range(len(c["terms"]))))
                             for k, c in enumerate(ed.get("chapters") or ()))
            result.append({**ed, "loc": main.at(path), "chapters": chapters,
                           "chapters_loc": main.at(path + ("chapters",)) if "chapters" in ed else None})
        return result

    def _check_chapters(self, edition: Edition, where: Location | None) -> None:
        """Each term a chapter names is the edition's and in no other chapter; where chapters are given, every
        term of the edition is in one (said once, at 'chapters')."""
        placed: dict[str, str] = {}
        for chapter in edition.chapters:
            for tid, loc in zip(chapter.terms, chapter.term_locs):
                if tid not in edition.term_by_id:
                    self.error(loc, f"chapter '{chapter.title}' of edition '{edition.id}' names term '{tid}', "
                                    "which the edition does not have", did_you_mean(tid, edition.term_by_id))
                elif tid in placed:
                    self.error(loc, f"term '{tid}' is in chapter '{placed[tid]}' of edition '{edition.id}' already",
                               "a term is in one chapter")
                else:
                    placed[tid] = chapter.title
        missing = [t.id for t in edition.terms if t.id not in placed]
        if edition.chapters and missing:
            self.error(where or edition.loc, f"edition '{edition.id}' has chapters, and "
                                             f"term{'s' if len(missing) > 1 else ''} "
                                             f"{', '.join(repr(t) for t in missing)} "
                                             f"{'are' if len(missing) > 1 else 'is'} in none of them",
                       "add it to the chapter the guide prints it in")
    def _check_source(self, doc: Document, path: tuple, source: str) -> None:
        self.sources[source] = False
        # realpath, not Path.resolve: before Python 3.13 resolve raises RuntimeError on a symlink loop
        target = Path(os.path.realpath(self.root / source))
        if not target.is_relative_to(self.root_resolved):
            self.error(doc.at(path), f"source '{source}' lies outside the rulebook folder",
                       "keep source texts in the rulebook's sources/ folder")
            return
        try:
            present = stat.S_ISREG(target.stat().st_mode)
        except (FileNotFoundError, NotADirectoryError):
            present = False
        except OSError as exc:  # a folder on the way cannot be searched, a symbolic link loops
            self.error(doc.at(path), f"cannot read source file '{source}': {exc.strerror or exc}")
            return
        self.sources[source] = present
        if not present:
            existing = [str(p.relative_to(self.root)) for p in (self.root / "sources").glob("*")] \
                if (self.root / "sources").is_dir() else []
            self.error(doc.at(path), f"source file '{source}' does not exist",
                       did_you_mean(source, existing)
                       or f"put the source text at {source} in the rulebook folder, or correct the path")

    def _no_repeats(self, doc: Document, path: tuple, items: Iterable[str], what: str) -> None:
        seen: set = set()
        for j, item in enumerate(items):
            if item in seen:
                self.error(doc.at(path + (j,)), f"{what} '{item}' is listed twice")
            seen.add(item)

    # -- editions/ --------------------------------------------------------------

    def _scan_term_files(self, editions: list[dict] | None) -> dict[str, list[_TermFile]]:
        """Load every term file, grouped by edition folder."""
        base = self.root / EDITIONS_DIR
        known = [e["id"] for e in editions] if editions is not None else None
        grouped: dict[str, list[_TermFile]] = {}
        if not base.is_dir() or self.outside(base):
            return grouped
        for folder in self.listing(base) or ():
            if self._edition_folder(folder, known):
                files = self._scan_edition(folder)
                if files:
                    grouped[folder.name] = files
        return grouped

    def _edition_folder(self, folder: Path, known: list[str] | None) -> bool:
        """Whether an entry of editions/ is an edition's folder to read; an error when it is not
        (a file, or a folder rulebook.yaml does not declare); silently not when outside the rulebook
        (``outside`` said so)."""
        if folder.is_dir() and self.outside(folder):
            return False
        if not folder.is_dir():
            self.error(Location(self.shown(folder)), "unexpected file in editions/",
                       "editions/ holds one folder per edition id")
            return False
        if known is not None and folder.name not in known:
            self.error(Location(self.shown(folder)),
                       f"folder for edition '{folder.name}', which rulebook.yaml does not declare",
                       did_you_mean(folder.name, known)
                       or f"add '{folder.name}' to the editions in rulebook.yaml, or rename the folder")
            return False
        return True

    def _scan_edition(self, folder: Path) -> list[_TermFile]:
        """The term files of one edition's folder, in its order; its vocabulary overlay kept aside."""
        first_file: dict[str, str] = {}  # term id -> the file that gave it first
        files = []
        for path in progress.track(self.listing(folder) or (), "term files"):
            if not self._term_file_name(path, folder):
                continue
            doc = self.load(path, "term")
            if doc is None:
                continue
            term_file = self._remembered_term_file(doc, folder.name, path.stem)
            term_id = doc.data.get("id")
            if isinstance(term_id, str):
                # cure.yaml beside cure.yml, or a file whose id is not its name
                if term_id in first_file:
                    self.error(doc.at(("id",)), f"term '{term_id}' is given twice in edition '{folder.name}'",
                               f"also in {first_file[term_id]}; keep one file per term")
                    continue
                first_file[term_id] = doc.path
            files.append(term_file)
        return files

    def _term_file_name(self, path: Path, folder: Path) -> bool:
        """Whether a file of an edition's folder is a term file; the overlay is loaded here, the rulings
        left for later, and anything else is an error."""
        if path.name == OVERLAY_FILE and path.is_file():
            before = len(self.problems)
            overlay = self.load(path, "vocabulary-overlay")
            self.overlay_misshapen |= any(p.code != "unknown-key" for p in self.problems[before:])
            if overlay is not None:
                self.vocabulary_overlays[folder.name] = overlay
            return False
        if path.name == RULINGS_FILE and path.is_file():
            return False  # the edition's rulings: read and checked after the model (rulebook_compiler/rulings.py)
        if path.name == SOURCES_MAP_FILE and path.is_file():
            return False  # where rulebook import found the terms: editor data, which nothing reads
        if path.name.startswith("_"):  # never a term file: a term id does not start with '_'
            self.error(Location(self.shown(path)), "unknown file in an edition folder",
                       did_you_mean(path.name, [OVERLAY_FILE, RULINGS_FILE, SOURCES_MAP_FILE])
                       or f"an edition folder holds TERM-ID.yaml files and, optionally, {OVERLAY_FILE}, "
                          f"{RULINGS_FILE} and {SOURCES_MAP_FILE}")
            return False
        if path.suffix not in (".yaml", ".yml") or not path.is_file():
            self.error(Location(self.shown(path)), "not a term file",
                       f"an edition folder holds TERM-ID.yaml files and, optionally, {OVERLAY_FILE}")
            return False
        return True

    def _remembered_term_file(self, doc: Document, edition: str, stem: str) -> _TermFile:
        """``_term_file``; while remembering, the last load's when the file is unchanged (the same document)."""
        if not _remembering:
            return self._term_file(doc, edition, stem)
        key = (doc.path, edition, stem)
        found = _TERM_FILES.get(key)
        if found is not None and found[0] is doc:
            _, term_file, problems, declared = found
            self.problems.extend(problems)
            if declared:
                self.declared[doc.path] = list(declared)
            return term_file
        before = len(self.problems)
        term_file = self._term_file(doc, edition, stem)
        _TERM_FILES[key] = (doc, term_file, self.problems[before:], tuple(self.declared.get(doc.path, ())))
        return term_file

    def term_file(self, doc: Document, edition: str, stem: str) -> _TermFile:
        """A term file's document made into a term, as the build makes it (never remembered)."""
        return self._term_file(doc, edition, stem)

    def _term_file(self, doc: Document, edition: str, stem: str) -> _TermFile:
        before = len(self.problems)
        term_file = self._made_term_file(doc, edition, stem)
        if self.observer is not None:
            self.observer.term_file(doc, term_file, before)
        return term_file

    def _made_term_file(self, doc: Document, edition: str, stem: str) -> _TermFile:
        data = doc.data
        term_id = data.get("id")
        # An id that is not a slug is reported by the schema; never suggest it as a file name.
        if isinstance(term_id, str) and term_id != stem and schema.compiled_pattern(schema.SLUG).fullmatch(term_id):
            self.error(doc.at(("id",)), f"term id '{term_id}' does not match the file name '{stem}.yaml'",
                       f"rename the file to '{term_id}.yaml'")
        if data.get("withdrawn"):
            extra = [k for k in data if k not in ("id", "withdrawn", "notes", "editor_notes")]
            if extra:
                self.error(doc.key_at((extra[0],)),
                           "a withdrawn term holds only 'id', 'withdrawn', 'notes' and 'editor_notes'")
            return _TermFile(doc, edition, None, True)
        if overlay.is_patch(data):
            return _TermFile(doc, edition, None, False, patch=True)
        for key in ("name", "sections"):
            if key not in data and not self._misspelt(doc, key):
                self.error(doc.at(), f"the file lacks required key '{key}'")
        # Unknown keys are ignored by the build, so the rest of the file is still checked.
        if any(p.location.path == doc.path and p.code != "unknown-key" for p in self.problems):
            return _TermFile(doc, edition, None, False)
        return _TermFile(doc, edition, self._term(doc, edition), False)

    def _misspelt(self, doc: Document, key: str) -> bool:
        """Whether ``key``, required and missing, is the file's misspelt top-level key: then its
        unknown-key error says both (the missing key follows from it) and breaks the file as the
        missing key would (issue 25.1)."""
        for i, p in enumerate(self.problems):
            if (p.code == "unknown-key" and p.location.path == doc.path and p.hint == f"did you mean '{key}'?"
                    and p.message.endswith(" at the top level")):
                self.problems[i] = dc_replace(p, hint=f"did you mean '{key}'? (the file lacks required key '{key}')",
                                              code=schema.MISSPELT_KEY)
                return True
        return False

    # -- one term ---------------------------------------------------------------

    def _term(self, doc: Document, edition: str) -> Term:
        data = doc.data
        tid = data["id"]
        decisions = []
        seen_decisions: set[str] = set()
        for i, raw in enumerate(data.get("decisions") or []):
            path = ("decisions", i)
            if raw["name"] in seen_decisions:
                self.error(doc.at(path + ("name",)), f"duplicate decision '{raw['name']}'")
            seen_decisions.add(raw["name"])
            values = tuple(raw.get("values") or ())
            if raw["type"] == "enum" and len(values) < 2:
                self.error(doc.at(path), f"enum decision '{raw['name']}' needs at least two 'values'")
            if raw["type"] == "bool" and values:
                self.error(doc.key_at(path + ("values",)), "a bool decision has no 'values'")
            self._no_repeats(doc, path + ("values",), values, "value")
            given = C.parse(doc, path + ("given",), raw["given"], self.problems) if "given" in raw else None
            decisions.append(Decision(raw["name"], raw["type"], values, raw["meaning"], given, tid, doc.at(path)))
        sections = []
        section_keys: dict[str, int] = {}
        clause_ids: dict[str, tuple] = {}
        for i, raw in enumerate(data["sections"]):
            path = ("sections", i)
            if raw["key"] in section_keys:
                self.error(doc.at(path + ("key",)), f"duplicate section key '{raw['key']}'")
            section_keys[raw["key"]] = i
            if raw["kind"] == "named" and not raw.get("title"):
                self.error(doc.at(path), "a section of kind 'named' needs a 'title'")
            clauses = []
            for j, craw in enumerate(raw["clauses"]):
                cpath = path + ("clauses", j)
                cid = craw["id"]
                if cid in clause_ids:
                    first = doc.at(clause_ids[cid])
                    self.error(doc.at(cpath + ("id",)), f"duplicate clause id '{cid}' in term '{tid}'",
                               f"first used at line {first.line}")
                    continue
                clause_ids[cid] = cpath + ("id",)
                clauses.append(self._clause(doc, cpath, craw, tid, raw["key"]))
            sections.append(Section(raw["key"], raw["kind"], raw.get("title"), tuple(clauses)))
        for section in sections:
            for clause in section.clauses:
                if clause.steps:
                    for k, ref in enumerate(clause.steps.order):
                        step = ref.split("#", 1)[1]
                        if step not in clause_ids:
                            self.error(doc.at(_clause_path(doc, clause.id) + ("steps", "order", k)),
                                       f"step '{step}' is not a clause of term '{tid}'",
                                       did_you_mean(step, clause_ids))
        sections = self._otherwise(tid, sections)
        digest = hashlib.sha256(json.dumps(data, sort_keys=True, ensure_ascii=False).encode()).hexdigest()[:16]
        return Term(tid, data["name"], tuple(data.get("aliases") or ()), data.get("notes"), tuple(decisions),
                    tuple(sections), edition, digest, doc.at(), overlay.bases(doc),
                    editor_notes=data.get("editor_notes"),
                    updated=_dated(doc, "updated"), released=_dated(doc, "released"))

    def _clause(self, doc: Document, path: tuple, raw: dict, tid: str, section: str) -> Clause:
        ref = clause_ref(tid, raw["id"])
        text = raw["text"]
        links = []
        for k, lraw in enumerate(raw.get("links") or []):
            if lraw["phrase"] not in text:
                self.error(doc.at(path + ("links", k, "phrase")),
                           f"linked phrase {lraw['phrase']!r} does not occur in the clause text")
            links.append(Link(lraw["phrase"], lraw["term"], lraw.get("clause"), doc.at(path + ("links", k))))
        defines = None
        if "defines" in raw:
            d = raw["defines"]
            cond = C.parse(doc, path + ("defines", "as"), d["as"], self.problems)
            if cond is not None:
                defines = Predicate(d["name"], d.get("meaning"), cond, ref, doc.at(path + ("defines",)))
        rules = []
        rule_ids: set[str] = set()
        for k, rraw in enumerate(raw.get("rules") or []):
            rule = self._rule(doc, path + ("rules", k), rraw, ref)
            if rule is None:
                continue
            if rule.id and rule.id in rule_ids:
                self.error(doc.at(path + ("rules", k, "id")), f"duplicate rule id '{rule.id}' in clause '{ref}'")
            rule_ids.add(rule.id or "")
            rules.append(rule)
        steps = None
        if "steps" in raw:
            s = raw["steps"]
            self._no_repeats(doc, path + ("steps", "order"), s["order"], "step")
            steps = Steps(s["procedure"], tuple(clause_ref(tid, x) for x in s["order"]))
        table = None
        if "table" in raw:
            table, table_rules = self._table(doc, path + ("table",), raw["table"], ref)
            rules.extend(table_rules)
        declared = L.read(doc, path, raw, tid, self.error)
        if declared is not None:
            self.declared.setdefault(doc.path, []).append(declared)
        return Clause(raw["id"], tid, section, text, raw.get("notes"), tuple(links), defines, tuple(rules),
                      steps, table, doc.at(path), declared.lineage if declared else None,
                      editor_notes=raw.get("editor_notes"), number=raw.get("number"),
                      rules_checked=self._rules_checked(doc, path, raw))

    def _rules_checked(self, doc: Document, path: tuple, raw: dict) -> str | None:
        """The clause's record that its rules were checked against its words (rulebook_compiler.rules_checked):
        an error where it names a digest that is not its words', with the one to write once checked."""
        recorded = raw.get("rules_checked")
        if recorded is None:
            return None
        expected = words_digest(raw["text"])
        if recorded == expected:
            return recorded
        at, text_at = doc.at(path + ("rules_checked",)), doc.at(path + ("text",))
        if at.path == text_at.path:
            self.error(at, f"rules_checked \"{recorded}\" is not the digest of this clause's words: the rules were "
                           "checked against other words",
                       f"once its rules are checked against its words, write rules_checked: \"{expected}\"")
        else:  # a patch changed the text and kept the record of the file it patches: said at the text
            self.error(text_at, f"the text changed, and the rules_checked \"{recorded}\" kept from {at.path} was "
                                "made against other words",
                       f"once its rules are checked against its words, set rules_checked: \"{expected}\" with the "
                       "text (or rules_checked: null)")
        return recorded

    def _rule(self, doc: Document, path: tuple, raw: dict, ref: str) -> Rule | None:
        kinds = [k for k in ("value", "requires", "forbids", "permits") if k in raw]
        if len(kinds) != 1:
            self.error(doc.at(path), "a rule has exactly one of 'value', 'requires', 'forbids', 'permits'"
                       + (f"; this one has {', '.join(kinds)}" if kinds else ""))
            return None
        kind = kinds[0]
        when = C.parse(doc, path + ("when",), raw["when"], self.problems) if "when" in raw else None
        test = None
        if kind != "value":
            test = C.parse(doc, path + (kind,), raw[kind], self.problems)
            if test is None:
                return None
        exceptions = tuple(raw.get("exception_to") or ())
        if ref in exceptions:
            self.error(doc.at(path + ("exception_to",)), "a clause cannot be an exception to itself")
        return Rule(raw["decision"], ref, kind, when, raw.get("value"), test, exceptions, raw.get("id"),
                    raw.get("notes"), doc.at(path),
                    exception_locs=tuple(doc.at(path + ("exception_to", i)) for i in range(len(exceptions))))

    def _table(self, doc: Document, path: tuple, raw: dict, ref: str) -> tuple[Table, list[Rule]]:
        several = isinstance(raw["key"], list)
        facts = tuple(raw["key"]) if several else (raw["key"],)
        if several:
            self._no_repeats(doc, path + ("key",), facts, "key")
        rows, rules = [], []
        seen: dict[str, int] = {}
        for i, row in enumerate(raw.get("rows") or []):
            rpath = path + ("rows", i)
            read = self._row_cells(doc, rpath + ("keys",), row["keys"], facts, several)
            if read is None:
                continue
            cells, locs, cell_locs = read
            if not several:
                for j, key in enumerate(cells[0]):
                    if key in seen:
                        self.error(locs[0][j], f"key '{key}' is listed twice in this row" if seen[key] == i
                                   else f"key '{key}' is already in row {seen[key] + 1}")
                    seen[key] = i
            rows.append(TableRow(cells[0], row["value"], cells[1:], doc.at(rpath), locs))
            when = tables.row_condition(facts, cells, cell_locs, doc.at(rpath + ("keys",)))
            rules.append(Rule(raw["decision"], ref, "value", when, row["value"], None, (), None, None,
                              doc.at(rpath), from_table=True))
        if "rows" not in raw and "otherwise" not in raw:
            self.error(doc.at(path), "a table needs 'rows', 'otherwise' or both")
        key_locs = tuple(doc.at(path + ("key", i)) for i in range(len(facts))) if several else (doc.at(path + ("key",)),)
        table = Table(raw["decision"], facts[0], tuple(rows), facts[1:], raw.get("otherwise"), several,
                      doc.at(path), key_locs, doc.at(path + ("otherwise",)) if "otherwise" in raw else None)
        return table, rules

    def _row_cells(self, doc: Document, path: tuple, keys, facts: tuple[str, ...], several: bool):
        """A row's values for each key fact, with where each value and each key's values are written."""
        if not several:
            if not isinstance(keys, list):
                self.error(doc.at(path), "'key' names one fact, so a row's 'keys' is the list of its values",
                           f"to map each key fact to its values, make 'key' a list: [{facts[0]}]")
                return None
            return (tuple(keys),), (tuple(doc.at(path + (j,)) for j in range(len(keys))),), (doc.at(path),)
        if not isinstance(keys, dict):
            self.error(doc.at(path), "'key' is a list, so a row's 'keys' maps each key fact to its value or values, "
                                     f"like {{{facts[0]}: VALUE}}")
            return None
        ok = True
        for fact in keys:
            if fact not in facts:
                self.error(doc.key_at(path + (fact,)), f"'{fact}' is not a key of this table",
                           did_you_mean(fact, facts) or "keys: " + ", ".join(dict.fromkeys(facts)))
                ok = False
        cells, locs = [], []
        for fact in facts:
            if fact not in keys:
                self.error(doc.at(path), f"the row gives no value for key '{fact}'",
                           "every row gives each key of its table a value or a list of values")
                ok = False
                continue
            value = keys[fact]
            if isinstance(value, list):
                cells.append(tuple(value))
                locs.append(tuple(doc.at(path + (fact, j)) for j in range(len(value))))
                self._no_repeats(doc, path + (fact,), value, "value")
            else:
                cells.append((value,))
                locs.append((doc.at(path + (fact,)),))
        if not ok:
            return None
        return tuple(cells), tuple(locs), tuple(doc.at(path + (f,)) for f in facts)

    def _otherwise(self, tid: str, sections: list[Section]) -> list[Section]:
        """Check each of the term's tables (one per decision) for overlapping rows and a second
        'otherwise', and give the clause that holds 'otherwise' the rule it stands for."""
        added: dict[str, Rule] = {}
        for decision, clauses in tables.groups(c for s in sections for c in s.clauses).items():
            rows = [(t, r) for _, t in clauses for r in t.rows]
            found = tables.overlaps(rows)
            if found is None:
                self.error(clauses[0][1].loc, f"the rows of term '{tid}' for '{decision}' take more than "
                           f"{tables.MAX_TABLE_PAIRS:,} pairs to compare for overlaps",
                           f"key every row of the term's tables for '{decision}' by one fact in common, or split "
                           f"the decision; the limit is MAX_TABLE_PAIRS in rulebook_compiler/tables.py (docs/format.md, Limits)")
            for o in found or ():
                self._overlap(o, decision)
            holders = [(c, t) for c, t in clauses if t.otherwise is not None]
            for _, extra in holders[1:]:
                self.error(extra.otherwise_loc, f"a second 'otherwise' for '{decision}' in term '{tid}'",
                           f"the first is at {self._near(holders[0][1].otherwise_loc, extra.otherwise_loc)}; "
                           "a term's tables for one decision are one table, with one 'otherwise'")
            if holders:
                table = holders[0][1]
                when = tables.otherwise_condition(rows, table.otherwise_loc)
                added[holders[0][0].ref] = Rule(decision, holders[0][0].ref, "value", when, table.otherwise, None, (),
                                             None, None, placed(table.otherwise_loc), from_table=True)
        if not added:
            return sections
        return [dc_replace(s, clauses=tuple(dc_replace(c, rules=c.rules + (added[c.ref],)) if c.ref in added else c
                                            for c in s.clauses)) for s in sections]

    def _overlap(self, o: tables.Overlap, decision: str) -> None:
        if o.table is not None and not o.table.several:
            return  # a key listed twice in a one-key table is reported as such by _table
        where = tables.show(o.where)
        there = self._near(o.first.loc, o.second.loc)
        if o.first.value != o.second.value:
            self.error(o.second.loc, f"rows disagree where {where}: this row answers {_shown(o.second.value)}, "
                                     f"the row at {there} answers {_shown(o.first.value)}",
                       f"a term's tables for '{decision}' are one table; narrow one row's keys so that each "
                       "situation has one answer")
        elif o.table is not None:
            self.error(o.second.loc, f"this row repeats the row at {there} where {where}",
                       "list each combination of keys once in a table")

    @staticmethod
    def _near(there_or_none: Location | None, here_or_none: Location | None) -> str:
        there, here = placed(there_or_none), placed(here_or_none)
        return f"line {there.line}" if there.path == here.path else str(there)

    # -- editions, overlays and the names they resolve ------------------------------

    def _resolve(self, metas: list[dict], files: dict[str, list[_TermFile]],
                 vocabulary: Resolved) -> list[Edition]:
        editions: list[Edition] = []
        current: dict[str, Term] = {}
        resolved: dict[str, Document | None] = {}  # what each term's file reads as; None if broken
        checked: set[tuple] = set()  # (term digest, edition names) pairs already checked
        for meta in metas:
            overlay = self.vocabulary_overlays.get(meta["id"])
            if overlay is not None:
                vocabulary = apply_overlay(vocabulary, overlay, meta["id"], self.problems)
            changed, withdrawn = [], []
            for tf in files.get(meta["id"], []):
                tid = tf.doc.data.get("id")
                if tf.withdrawn:
                    if tid not in current and tid in self.broken_terms:
                        pass  # the term's own file has errors: withdrawing it follows from them
                    elif tid not in current:
                        self.error(tf.doc.at(("id",)),
                                   f"edition '{meta['id']}' withdraws term '{tid}', which no earlier edition has",
                                   (did_you_mean(tid, current) if isinstance(tid, str) else None)
                                   or "check the term id, or remove this file")
                    else:
                        del current[tid]
                        resolved.pop(tid, None)
                        self.withdrawn_by[tid] = meta["id"]
                        withdrawn.append(tid)
                elif tf.patch:
                    patched = resolved[tid] = self._patched(tf, meta["id"], current, resolved)
                    if patched is not None:
                        current[tid] = self._term(patched, meta["id"])
                        changed.append(tid)
                elif tf.term is not None:
                    current[tid] = tf.term
                    resolved[tid] = tf.doc
                    changed.append(tid)
                elif isinstance(tid, str):  # an id that is not a string names no term (the schema says so)
                    resolved[tid] = None
                    self.broken_terms.add(tid)
                else:  # no id (misspelt, say), or not a string: the file's name is the id it must have
                    self.broken_terms.add(Path(tf.doc.path).stem)
            terms = tuple(current[k] for k in sorted(current))
            declared = [d for tf in files.get(meta["id"], [])
                        if tf.term is not None or (tf.patch and tf.doc.data.get("id") in changed)
                        for d in self.declared.get(tf.doc.path, ())]
            edition = Edition(meta["id"], meta["title"], meta["date"], meta["status"],
                              tuple(meta.get("sources") or ()), meta.get("notes"), terms,
                              tuple(sorted(changed)), tuple(sorted(withdrawn)), meta["loc"],
                              tuple(sorted((d.lineage for d in declared), key=lambda x: x.clause)),
                              vocabulary=vocabulary.vocabulary, editor_notes=meta.get("editor_notes"),
                              version=meta.get("version"), not_held_before=meta.get("not_held_before"),
                              chapters=meta["chapters"])
            self._check_chapters(edition, meta["chapters_loc"])
            L.check_edition(edition.id, editions[-1] if editions else None, declared,
                            edition.clause_by_ref.get,
                            self.error)
            self._check_edition(edition, vocabulary, checked)
            editions.append(edition)
        if self.observer is not None:
            self.observer.editions_resolved(editions)
        return editions

    def _patched(self, tf: _TermFile, edition: str, current: dict[str, Term],
                 resolved: dict[str, Document | None]) -> Document | None:
        """The term file a patch stands for (rulebook_compiler.overlay), or None when it cannot be had."""
        tid = tf.doc.data.get("id")
        if not isinstance(tid, str) or any(p.location.path == tf.doc.path and p.code != "unknown-key"
                                           for p in self.problems):
            return None
        if tid in current:
            pass
        elif tid in self.broken_terms:  # the earlier file has errors of its own, reported there; this
            return None  # patch may be right, so no hint to rewrite it (issue 25.1)
        elif tid in self.withdrawn_by:
            self.error(tf.doc.key_at((overlay.PATCH_KEY,)),
                       f"edition '{edition}' patches term '{tid}', which edition '{self.withdrawn_by[tid]}' withdrew",
                       "write the whole term, with 'name' and 'sections' instead of 'patch', to bring it back")
            return None
        else:
            self.error(tf.doc.key_at((overlay.PATCH_KEY,)),
                       f"edition '{edition}' patches term '{tid}', which no earlier edition has",
                       did_you_mean(tid, current)
                       or "write the whole term, with 'name' and 'sections' instead of 'patch'")
            return None
        base = resolved.get(tid)
        if base is None:  # the earlier version has problems of its own, reported there
            return None
        doc, problems = overlay.apply(base, tf.doc, current[tid].edition, overlay_head_keys())
        self.problems.extend(problems)
        return doc

    def _check_edition(self, edition: Edition, vocabulary: Resolved, checked: set) -> None:
        facts = vocabulary.vocabulary.by_name
        predicates: dict[str, Predicate] = {}
        for term in edition.terms:
            for p in _defined(term):
                if p.name in facts:
                    self.error(p.loc, f"predicate '{p.name}' has the name of a fact",
                               "rename the predicate; facts and predicates share one namespace")
                elif p.name in predicates:
                    self.error(p.loc, f"predicate '{p.name}' is defined twice in edition '{edition.id}'",
                               f"also defined by {predicates[p.name].clause}")
                else:
                    predicates[p.name] = p
        decisions: dict[str, Decision] = {}
        for term in edition.terms:
            for d in term.decisions:
                if d.name in decisions and decisions[d.name].term != term.id:
                    self.error(d.loc, f"decision '{d.name}' is declared twice in edition '{edition.id}'",
                               f"also declared by term '{decisions[d.name].term}'")
                decisions.setdefault(d.name, d)
        names = vocabulary.names(predicates)
        graphs = (_edition_graphs(edition),) if _remembering else None
        if graphs is None or graphs not in _NAMES_CHECKED:  # as at an earlier load without problems: none
            self._check_cycles(edition, predicates)
            self._check_exception_cycles(edition)
        if graphs is not None:
            self.names_checked.add(graphs)
        # What a term's references resolve against is the whole edition and its vocabulary:
        # a term need not be checked again in an edition whose every term and vocabulary are as before.
        signature = (tuple((t.id, t.digest) for t in edition.terms), vocabulary.vocabulary)
        # A number stands for it in the keys: hashing the whole list for every
        # term made this quadratic in the number of terms.
        token = self.signatures.setdefault(signature, len(self.signatures))
        # While remembering, nor one an earlier load checked without problems under the same
        # interface (``_interface``: what the check reads besides the term), as after an edit elsewhere.
        interface = _INTERFACES.setdefault(_interface(edition, vocabulary, predicates, decisions),
                                           len(_INTERFACES)) if _remembering else None
        for term in edition.terms:
            key = (term.digest, term.edition, token)
            if key in checked:
                continue
            checked.add(key)
            if interface is not None:
                clean = (term.digest, term.edition, interface)
                self.names_checked.add(clean)
                if clean in _NAMES_CHECKED:
                    continue
            before = len(self.problems)
            self._check_term_names(edition, term, names, decisions)
            if self.observer is not None:
                self.observer.names_checked(term, before)

    def check_term_names(self, edition: Edition, term: Term, names: C.Names,
                         decisions: Mapping[str, Decision]) -> None:
        """One term's names checked against an edition (or what recheck rebuilds of one from the
        interfaces of its terms), its problems added to ``problems``."""
        self._check_term_names(edition, term, names, decisions)

    def _check_term_names(self, edition: Edition, term: Term, names: C.Names,
                          decisions: Mapping[str, Decision]) -> None:
        for d in term.decisions:
            if d.given is not None:
                C.check_names(d.given, names, self.problems)
        for clause in term.clauses:
            for link in clause.links:
                target = edition.term_by_id.get(link.term)
                if target is None and link.term in self.broken_terms:
                    continue  # the term's own file has errors; the link follows from them
                if target is None:
                    self.error(link.loc or clause.loc,
                               f"link to term '{link.term}', which edition '{edition.id}' does not have",
                               did_you_mean(link.term, edition.term_by_id))
                elif link.clause and link.clause not in {c.id for c in target.clauses}:
                    self.error(link.loc or clause.loc, f"link to clause '{link.term}#{link.clause}', which does not exist",
                               did_you_mean(link.clause, [c.id for c in target.clauses])
                               or _kept_from(edition, term, target))
            if clause.defines:
                C.check_names(clause.defines.condition, names, self.problems)
            for rule in clause.rules:
                self._check_rule(edition, rule, names, decisions)
        for decision, clauses in tables.groups(term.clauses).items():
            self._check_table(decision, clauses, names)

    def _check_table(self, decision: str, clauses: list[tuple[Clause, Table]], names: C.Names) -> None:
        """Key facts and their values against the vocabulary; an 'otherwise' that answers nothing."""
        ok = True
        for _, table in clauses:
            for fact, loc in zip(table.facts, table.key_locs):
                if fact not in names.facts:
                    ok = False
                    if fact in names.predicates:
                        self.error(loc, f"table key '{fact}' is a predicate; a table is keyed by facts",
                                   f"key the table by the facts that '{fact}' tests, or write rules with 'when'")
                    else:
                        self.error(loc, f"table key '{fact}' is not a fact",
                                   did_you_mean(fact, names.facts) or "declare it in vocabulary.yaml")
            for row in table.rows:
                for fact, cell, locs in zip(table.facts, row.cells, row.value_locs):
                    for value, loc in zip(cell, locs):
                        if fact in names.facts and not self._key_value(fact, value, names.facts[fact], loc):
                            ok = False
        holder = next((t for _, t in clauses if t.otherwise is not None), None)
        if ok and holder is not None:
            rows = [(t, r) for _, t in clauses for r in t.rows]
            domains = {f: (False, True) if v is None else v for f, v in names.facts.items()}
            if tables.uncovered(rows, domains) is False:
                keys = list(dict.fromkeys(f for t, _ in rows for f in t.facts))
                self.error(holder.otherwise_loc,
                           f"'otherwise' answers no situation: the rows for '{decision}' cover every "
                           f"combination of {', '.join(keys)}",
                           "remove 'otherwise', or the rows whose situations it is meant to answer")

    def _key_value(self, fact: str, value, values: tuple[str, ...] | None, loc: Location) -> bool:
        """Whether a table row's value is a value of its key fact (reported if not)."""
        if values is None:
            if isinstance(value, bool):
                return True
            self.error(loc, f"'{value}' is not a value of bool fact '{fact}'", "write true or false")
        elif isinstance(value, bool):
            self.error(loc, f"{str(value).lower()} is not a value of fact '{fact}'",
                       "unquoted yes, no, on, off, true and false are read as true or false; "
                       "quote a value that is a word, values: " + ", ".join(values))
        elif value not in values:
            self.error(loc, f"'{value}' is not a value of fact '{fact}'",
                       did_you_mean(value, values) or "values: " + ", ".join(values))
        else:
            return True
        return False

    def _check_rule(self, edition: Edition, rule: Rule, names: C.Names, decisions: Mapping[str, Decision]) -> None:
        decision = decisions.get(rule.decision)
        if decision is None:
            self.error(rule.loc, f"rule for unknown decision '{rule.decision}'",
                       did_you_mean(rule.decision, decisions) or "declare it under 'decisions' of a term")
        else:
            if rule.kind != "value" and decision.type != "bool":
                self.error(rule.loc, f"'{rule.kind}' needs a bool decision; '{decision.name}' is an enum",
                           "use 'value' with 'when'")
            if rule.kind == "value":
                if decision.type == "bool" and not isinstance(rule.value, bool):
                    self.error(rule.loc, f"decision '{decision.name}' is bool; value {rule.value!r} is not true/false")
                elif decision.type == "enum" and rule.value not in decision.values:
                    self.error(rule.loc, f"{rule.value!r} is not a value of decision '{decision.name}'",
                               did_you_mean(str(rule.value), decision.values)
                               or "values: " + ", ".join(decision.values))
        for cond in (rule.when, rule.test):
            if cond is not None and not rule.from_table:  # a table's keys are checked as such
                C.check_names(cond, names, self.problems)
        for target, where in zip(rule.exception_to, rule.exception_locs or [rule.loc] * len(rule.exception_to)):
            clause = edition.clause_by_ref.get(target)
            if clause is None:
                self.error(where, f"exception to unknown clause '{target}'",
                           did_you_mean(target, edition.clause_by_ref))
            elif not any(r.decision == rule.decision for r in clause.rules):
                others = sorted({r.decision for r in clause.rules})
                self.error(where, f"exception to '{target}', which has no rule for '{rule.decision}'",
                           f"its rules are for: {', '.join(others)}" if others else "that clause has no rules")

    def _check_cycles(self, edition: Edition, predicates: dict[str, Predicate]) -> None:
        uses = {name: sorted(C.refs(p.condition) & predicates.keys()) for name, p in predicates.items()}
        cycles = find_cycles(uses)
        for cycle in cycles:
            first = cycle[0]
            members = sorted(set(cycle))
            hint = (f"define '{first}' without using '{first}' itself" if len(members) == 1 else
                    "define one of " + ", ".join(f"'{m}'" for m in members) + " without using the others")
            self.error(predicates[first].loc, "predicate definitions form a cycle: " + " -> ".join(cycle), hint)
        if not cycles:
            self._check_predicate_depth(predicates, uses)

    def _check_predicate_depth(self, predicates: dict[str, Predicate], uses: dict[str, list[str]]) -> None:
        """Each place where a chain of predicates goes over MAX_PREDICATE_DEPTH, once."""
        conditions = {name: p.condition for name, p in predicates.items()}
        memo: dict[str, int] = {}
        deep = {name: C.depth(cond, conditions, memo) for name, cond in conditions.items()}
        limit = C.MAX_PREDICATE_DEPTH
        for name in sorted(predicates):
            # report where the chain crosses the limit, not every predicate above it
            if deep[name] <= limit or any(deep[u] > limit for u in uses[name]):
                continue
            chain = [name]
            while uses[chain[-1]]:
                chain.append(max(uses[chain[-1]], key=lambda u: (deep[u], u)))
            shown = chain if len(chain) <= 5 else chain[:3] + ["..."] + chain[-1:]
            self.error(predicates[name].loc,
                       f"predicate '{name}' nests {deep[name]} deep through the predicates it uses "
                       f"({' -> '.join(shown)}), over the limit of {limit}",
                       "define it with fewer predicates in a chain; the limit is "
                       f"MAX_PREDICATE_DEPTH = {limit} in rulebook_compiler/conditions.py (docs/format.md, Limits)")

    def _check_exception_cycles(self, edition: Edition) -> None:
        """An exception overrides what it names; a ring of them would override itself."""
        for decision, rules in edition.rules.items():
            if not any(r.exception_to for r in rules):
                continue
            overrides: dict[str, list[str]] = {}
            where: dict[tuple[str, str], Location] = {}
            clauses = {r.clause for r in rules}
            for rule in rules:
                targets = overrides.setdefault(rule.clause, [])
                for target, loc in zip(rule.exception_to, rule.exception_locs):
                    if target in clauses and target not in targets:
                        targets.append(target)
                        where[(rule.clause, target)] = loc
            for cycle in find_cycles({k: sorted(v) for k, v in overrides.items()}):
                self.error(where[(cycle[-2], cycle[-1])],
                           f"exceptions for '{decision}' form a cycle: " + " -> ".join(cycle),
                           "an exception overrides the rule it names; one of these must not be an exception "
                           "to the other")


def find_cycles(graph: dict[str, list[str]]) -> list[list[str]]:
    """Each cycle of a graph once, as the path that closes it (``a -> b -> a``).

    Nodes are visited in sorted order, so the same graph gives the same cycles.
    Depth-first with an explicit stack: a chain of any length needs no recursion.
    """
    state: dict[str, int] = {}  # 1 on the current path, 2 done
    found: list[list[str]] = []
    seen: set[frozenset] = set()
    for start in sorted(graph):
        if start in state:
            continue
        trail: list[str] = [start]
        on_trail: dict[str, int] = {start: 0}  # node -> its index in trail
        state[start] = 1
        stack = [iter(graph.get(start, ()))]
        while stack:
            nxt = next(stack[-1], None)
            if nxt is None:
                stack.pop()
                done = trail.pop()
                del on_trail[done]
                state[done] = 2
            elif state.get(nxt) == 1:
                cycle = trail[on_trail[nxt]:] + [nxt]
                if frozenset(cycle) not in seen:
                    seen.add(frozenset(cycle))
                    found.append(cycle)
            elif nxt not in state:
                state[nxt] = 1
                on_trail[nxt] = len(trail)
                trail.append(nxt)
                stack.append(iter(graph.get(nxt, ())))
    return found


def _dated(doc: Document, key: str) -> Dated | None:
    raw = doc.data.get(key)
    if raw is None:
        return None
    return Dated(raw.get("date"), raw["version"], doc.at((key, "version")),
                 doc.at((key, "date")) if "date" in raw else None)


def _kept_from(edition: Edition, term: Term, target: Term) -> str | None:
    """Why a link that was good in an earlier edition fails in this one: its target changed, it did not."""
    if term.edition == edition.id or target.edition != edition.id:
        return None
    return (f"edition '{edition.id}' changes term '{target.id}' but keeps term '{term.id}' from edition "
            f"'{term.edition}'; change the link in edition '{edition.id}' too")


def overlay_head_keys() -> frozenset[str]:
    """The keys of a patch file that replace the previous edition's (all but 'id' and 'patch')."""
    return frozenset(schema.ROOTS["term-patch"]["properties"]) - {"id", overlay.PATCH_KEY}


def _shown(value) -> str:
    """An answer as written in YAML: 'hand', true."""
    return str(value).lower() if isinstance(value, bool) else f"'{value}'"


def _clause_path(doc: Document, clause_id: str) -> tuple:
    for i, section in enumerate(doc.data.get("sections") or []):
        for j, clause in enumerate(section.get("clauses") or []):
            if clause.get("id") == clause_id:
                return ("sections", i, "clauses", j)
    return ()


def check(root: Path | str, locked: bool = True) -> tuple[Rulebook | None, list[Diagnostic]]:
    """Load and check; return the model or the problems, never raising for bad sources.

    What every command that reads the rulebook calls: a published edition that differs from
    ``rulebook.lock`` fails it (``lock.problems``, the lines ``rulebook check`` prints), so that a
    rulebook that fails check builds nothing. ``locked=False`` only for the commands that write
    the lock (``rulebook publish``, ``rulebook correct``): an edition they record differs from it.
    The logic checks are ``rulebook check``'s alone (rulebook_compiler/checking.py).
    """
    try:
        book = load_rulebook(root)
    except RulebookError as exc:
        return None, exc.diagnostics
    if locked:
        from .lock import problems as lock_problems

        problems = lock_problems(book, _LOCK_ENTRIES if _remembering else None)
        if problems:
            return None, problems
    return book, []
