"""The lock of published editions: a digest of what each one says, so that it never moves.

``rulebook.lock`` (JSON, beside ``rulebook.yaml``) holds, per published
edition, a digest of every term's own content (name, aliases, reader notes,
decisions, sections), of every clause (text, printed number, reader notes,
links and meaning), of every fact and constraint of the edition's own vocabulary, and
one digest of the whole. ``rulebook check`` compares each
published edition with its entry (``problems``); ``rulebook publish`` and
``rulebook correct`` (``rulebook_compiler.commands.publish``) write entries. A rulebook without
the file is not locked yet (a new project, or one that has not adopted the
lock): its first ``rulebook publish`` creates it, and from then on every
published edition must have its entry.

A digest is the SHA-256 of a canonical JSON form of the model: fields in
sorted order, locations left out (moving a clause to another line is not a
change of content), and so are the editors' notes (``editor_notes``, a rule's
``notes``) and declared lineage, which are not the publisher's content, and the build's own
bookkeeping (which edition's file gave a term, the hash of that file). A field
at its default value is left out too, so a field added to the model later
changes no digest of content that does not use it.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import typing
from pathlib import Path
from typing import Any, Mapping

from .conditions import Condition, to_json as condition_json
from .diagnostics import Diagnostic, Location
from .model import Clause, Edition, Rule, Rulebook, Term
from .rulebook_files import LOCK_FILE  # named with the other files a rulebook consists of

FORMAT = "rulebook-lock/1"

#: Fields that are not content: never part of a digest.
_NOT_CONTENT: Mapping[type, frozenset[str]] = {
    # id and term are the keys the digest is filed under; declared lineage is the editors' account
    # of how a clause relates to the edition before, not the publisher's content
    # rules_checked: the editors' record that they checked the rules against the words (editor data)
    Clause: frozenset({"id", "term", "editor_notes", "lineage", "rules_checked"}),
    Term: frozenset({"id", "sections", "edition", "digest", "editor_notes"}),  # clauses have their own digests
    Rule: frozenset({"notes"}),
}

_CONDITIONS = typing.get_args(Condition)

# {"digest": str, "terms": {term id: {"term": str, "clauses": {clause id: str}}},
#  "vocabulary": {"facts": {name: str}, "constraints": {id: str}}}
EditionEntry = dict
_VOCABULARY_KINDS = {"facts": "fact", "constraints": "constraint"}  # entry key -> the prefix of its refs


def canonical(value: Any) -> Any:
    """``value`` (model objects, conditions, tuples, plain values) as plain JSON values, without locations."""
    if value is None or type(value) in (str, bool, int):
        return value
    if isinstance(value, _CONDITIONS):
        return condition_json(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out = {}
        for name, default in _content_fields(type(value)):
            item = getattr(value, name)
            if default is not dataclasses.MISSING and item == default:
                continue
            out[name] = canonical(item)
        return out
    if isinstance(value, (tuple, list)):
        return [canonical(v) for v in value]
    return value


@functools.cache
def _content_fields(cls: type) -> tuple[tuple[str, Any], ...]:
    """The fields of a model class that are content, with their defaults."""
    skip = _NOT_CONTENT.get(cls, frozenset())
    return tuple((f.name, f.default) for f in dataclasses.fields(cls) if f.compare and f.name not in skip)


def digest(value: Any) -> str:
    text = json.dumps(canonical(value), sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _term_own(term: Term) -> dict:
    """What a term says besides its clauses: the order and titles of its sections included."""
    return {**canonical(term),
            "sections": [{"key": s.key, "kind": s.kind, "title": s.title, "clauses": [c.id for c in s.clauses]}
                         for s in term.sections]}


# id() of a term -> (the term, its entry): the term is held, so that its id names no other term
Known = dict[int, tuple[Term, dict]]


def edition_entry(edition: Edition, known: Known | None = None) -> EditionEntry:
    """The lock entry of an edition: a digest per term, per clause, per fact and per constraint of
    its own vocabulary, and one of the whole. ``known`` keeps the terms' entries by the identity of
    the term, for the next edition: editions share the terms they carry over (and loads that
    remember files, their unchanged terms: ``problems``)."""
    known = {} if known is None else known
    terms = {}
    for term in edition.terms:
        held = known.get(id(term))
        if held is None or held[0] is not term:
            held = known[id(term)] = (term, {"term": digest(_term_own(term)),
                                             "clauses": {clause.id: digest(clause) for clause in term.clauses}})
        terms[term.id] = held[1]
    vocabulary = {"facts": {f.name: digest(f) for f in edition.vocabulary.facts},
                  "constraints": {c.id: digest(c) for c in edition.vocabulary.constraints}}
    return {"digest": digest({"terms": terms, "vocabulary": vocabulary}), "terms": terms, "vocabulary": vocabulary}


def changed(old: EditionEntry, new: EditionEntry) -> list[str]:
    """What differs between two entries: term ids (the term's own content, or the term added or
    removed), clause refs (``term#clause``), ``fact:NAME`` and ``constraint:ID``, sorted."""
    found: set[str] = set()
    old_terms, new_terms = old.get("terms", {}), new.get("terms", {})
    for tid in old_terms.keys() | new_terms.keys():
        before, after = old_terms.get(tid), new_terms.get(tid)
        if before is None or after is None or before["term"] != after["term"]:
            found.add(tid)
        before_clauses = before["clauses"] if before else {}
        after_clauses = after["clauses"] if after else {}
        for cid in before_clauses.keys() | after_clauses.keys():
            if before_clauses.get(cid) != after_clauses.get(cid):
                found.add(f"{tid}#{cid}")
    for kind in _VOCABULARY_KINDS:
        before, after = old.get("vocabulary", {}).get(kind, {}), new.get("vocabulary", {}).get(kind, {})
        found.update(f"{_VOCABULARY_KINDS[kind]}:{name}" for name in before.keys() | after.keys()
                     if before.get(name) != after.get(name))
    return sorted(found)


# -- the file ---------------------------------------------------------------------------------------


def lock_text(entries: Mapping[str, EditionEntry]) -> str:
    """The lock file's text: sorted keys, one digest a line, so that a change shows as a small diff."""
    return json.dumps({"format": FORMAT, "editions": dict(entries)}, sort_keys=True, ensure_ascii=False,
                      indent=2) + "\n"


@dataclasses.dataclass(frozen=True)
class Lock:
    """The lock file as read: its entries by edition id."""

    entries: Mapping[str, EditionEntry]
    path: Path | None = None  # None: the rulebook has no lock file yet

    @property
    def present(self) -> bool:
        return self.path is not None

    def at(self, edition_id: str) -> Location:
        """Where the file gives an edition's entry: read again with positions, as only an error needs it."""
        from .yamlsource import load

        assert self.path is not None, "at() of a lock file that is present"
        doc, _ = load(self.path, shown_path(self.path))
        if doc is None or not isinstance(doc.data, dict) or not isinstance(doc.data.get("editions"), dict):
            return Location(shown_path(self.path))
        return doc.key_at(("editions", edition_id))


_HINT = f"{LOCK_FILE} is written by 'rulebook publish' and 'rulebook correct'; restore it from version control"


def read(root: Path | str) -> tuple[Lock | None, list[Diagnostic]]:
    """The lock of the rulebook in ``root``: an empty one if it has no lock file; None and the
    problems if the file is not a lock.

    Read as JSON (the C parser: the YAML loader that keeps positions took half of the lock's
    share of ``check``, bench/bench_lock.py); a file that is not a well-formed lock is read
    again with positions, for errors that say where.
    """
    path = Path(root) / LOCK_FILE
    if not path.is_file():
        return Lock({}), []
    try:
        data = json.loads(path.read_bytes())
    except (OSError, ValueError):
        data = None
    if _lock_data(data):
        return Lock(data["editions"], path), []
    return _located_problems(path)


def _lock_data(data: Any) -> bool:
    return (isinstance(data, dict) and data.get("format") == FORMAT and isinstance(data.get("editions"), dict)
            and all(_well_formed(eid, entry) for eid, entry in data["editions"].items()))


def _located_problems(path: Path) -> tuple[Lock | None, list[Diagnostic]]:
    from .yamlsource import load

    doc, problems = load(path, shown_path(path))
    if doc is None:
        return None, problems
    data = doc.data
    if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("editions"), dict):
        return None, [Diagnostic(doc.at(), f"not a lock file of format '{FORMAT}'", _HINT)]
    bad = [Diagnostic(doc.at(("editions", eid)), f"the lock entry of edition '{eid}' is malformed", _HINT)
           for eid, entry in data["editions"].items() if not _well_formed(eid, entry)]
    if bad:
        return None, bad
    return Lock(data["editions"], path), []  # YAML that JSON does not read, but a lock all the same


def _well_formed(eid: Any, entry: Any) -> bool:
    def digests(value: Any) -> bool:
        return isinstance(value, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in value.items())

    return (isinstance(eid, str) and isinstance(entry, dict) and isinstance(entry.get("digest"), str)
            and isinstance(entry.get("terms"), dict)
            and all(isinstance(t, dict) and isinstance(t.get("term"), str) and digests(t.get("clauses"))
                    for t in entry["terms"].values())
            and isinstance(entry.get("vocabulary"), dict)
            and all(digests(entry["vocabulary"].get(kind)) for kind in _VOCABULARY_KINDS))


def shown_path(path: Path) -> str:
    import os

    try:
        return os.path.relpath(path)
    except ValueError:  # pragma: no cover - another drive on Windows
        return str(path)


# -- check ------------------------------------------------------------------------------------------


def problems(book: Rulebook, known: Known | None = None) -> list[Diagnostic]:
    """Every way the rulebook's published editions differ from its lock, each where it is; then every
    way the corrections log disagrees with the lock (rulebook_compiler/review.py).

    ``known``: the terms' entries from a load before, kept by the caller (a term is immutable, so
    its entry holds while it is the same object: ``build.remembering`` reuses the terms of files
    unchanged); left holding this rulebook's terms only.
    """
    from .review import log_problems

    lock, found = read(book.root)
    if lock is None:
        return found
    return _content_problems(book, lock, known) + log_problems(book, lock.entries if lock.present else None)


def _content_problems(book: Rulebook, lock: Lock, known: Known | None) -> list[Diagnostic]:
    found: list[Diagnostic] = []
    if not lock.present:  # no lock file: nothing is locked until the first publish
        return found
    declared = {e.id: e for e in book.editions}
    if known is None:
        known = {}  # the terms' entries, shared by the editions that carry a term over
    else:
        live = {id(t) for e in book.editions if e.status == "published" for t in e.terms}
        for gone in known.keys() - live:
            del known[gone]
    for eid in sorted(lock.entries):
        if eid not in declared:
            found.append(Diagnostic(lock.at(eid), f"the lock has edition '{eid}', which rulebook.yaml does not declare",
                                    "a published edition is never removed; declare it again in rulebook.yaml"))
    for edition in book.editions:
        entry = lock.entries.get(edition.id)
        if edition.status != "published":
            if entry is not None:
                found.append(Diagnostic(edition.loc, f"edition '{edition.id}' is locked as published, "
                                                     f"but its status is '{edition.status}'",
                                        "a published edition stays published: set 'status: published' again"))
            continue
        if entry is None:
            found.append(Diagnostic(edition.loc, f"published edition '{edition.id}' is not in {LOCK_FILE}",
                                    f"lock it with: rulebook publish --edition {edition.id} --reason TEXT"))
            continue
        now = edition_entry(edition, known)
        if now["digest"] != entry["digest"]:
            found.extend(_differences(edition, entry, now))
    return found


def _differences(edition: Edition, old: EditionEntry, new: EditionEntry) -> list[Diagnostic]:
    hint = (f"a published edition does not change: undo the edit, or record a deliberate correction with "
            f"rulebook correct --edition {edition.id} --kind transcription|erratum --reason TEXT")
    head = f"published edition '{edition.id}' differs from {LOCK_FILE}:"
    out = []
    for ref in changed(old, new):
        kind, _, name = ref.partition(":")
        if name:
            out.append(_vocabulary_difference(edition, head, hint, kind, name))
            continue
        tid, _, cid = ref.partition("#")
        term = edition.term_by_id.get(tid)
        if not cid:
            if term is None:
                out.append(Diagnostic(edition.loc, f"{head} term '{tid}' was removed", hint))
            elif tid not in old["terms"]:
                out.append(Diagnostic(term.loc, f"{head} term '{tid}' was added", hint))
            else:
                out.append(Diagnostic(term.loc, f"{head} term '{tid}' changed (its name, aliases, notes, "
                                                f"decisions or sections)", hint))
            continue
        if term is None or tid not in old["terms"]:
            continue  # the term's own line says it
        clause = next((c for c in term.clauses if c.id == cid), None)
        if clause is None:
            out.append(Diagnostic(term.loc, f"{head} term '{tid}', clause '{cid}' was removed", hint))
        elif cid not in old["terms"][tid]["clauses"]:
            out.append(Diagnostic(clause.loc, f"{head} term '{tid}', clause '{cid}' was added", hint))
        else:
            out.append(Diagnostic(clause.loc, f"{head} term '{tid}', clause '{cid}' changed", hint))
    return sorted(out, key=lambda d: (d.location, d.message))


def _vocabulary_difference(edition: Edition, head: str, hint: str, kind: str, name: str) -> Diagnostic:
    items = {f.name: f for f in edition.vocabulary.facts} if kind == "fact" else \
        {c.id: c for c in edition.vocabulary.constraints}
    item = items.get(name)
    if item is None:
        return Diagnostic(edition.loc, f"{head} {kind} '{name}' was withdrawn", hint)
    return Diagnostic(item.loc, f"{head} {kind} '{name}' changed or was added", hint)
