"""The published record of a rulebook, and how it changed between two revisions.

The record is what a committee must never see move unannounced: the editions
(their order, status and metadata), ``rulebook.lock`` (the digest of each
published edition) and ``corrections.yaml`` (the log of every lock and
correction). ``Record.of`` reads it from a checked rulebook; ``compare``
gives a ``RecordDiff`` of typed changes, which the whole-rulebook diff
reports first and the review verdict (``rulebook check --against``) judges.

The log is append-only, so its entries are matched in order, as a sequence
(``difflib``): an entry at the same place with other words is *edited*, one
that is gone is *removed*, one at the end is *added*.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from typing import Mapping

from .diagnostics import Location
from .model import Correction, Edition, Rulebook

# The metadata of an edition a reader sees, besides its status and its terms.
_METADATA = ("title", "date", "sources", "notes", "editor_notes", "version", "not_held_before", "chapters")


@dataclass(frozen=True)
class EditionMeta:
    """An edition as ``rulebook.yaml`` declares it, without its terms."""

    id: str
    status: str
    metadata: tuple[tuple[str, object], ...]  # (field, value) in _METADATA order
    loc: Location = field(compare=False, repr=False)

    @classmethod
    def of(cls, edition: Edition) -> "EditionMeta":
        return cls(edition.id, edition.status, tuple((name, getattr(edition, name)) for name in _METADATA),
                   edition.loc)


@dataclass(frozen=True)
class Record:
    """One revision's published record."""

    editions: tuple[EditionMeta, ...]
    lock: Mapping[str, dict] | None  # the lock's entries by edition id; None when there is no lock file
    log: tuple[Correction, ...]
    content: Mapping[str, str]  # each edition's content digest (``content_digests``), by id
    lock_loc: Location | None = field(default=None, compare=False)

    @classmethod
    def of(cls, book: Rulebook, content: Mapping[str, str] | None = None) -> "Record":
        """The record of a checked rulebook; ``content`` is computed from its editions when not given
        (a cached rulebook, whose editions hold no terms, passes the digests it keeps)."""
        from . import lock as L

        held, _ = L.read(book.root)
        entries = dict(held.entries) if held is not None and held.present else None
        where = Location(L.shown_path(held.path)) if held is not None and held.path is not None else None
        return cls(tuple(EditionMeta.of(e) for e in book.editions), entries, book.corrections,
                   content if content is not None else content_digests(book), where)

    @property
    def by_id(self) -> Mapping[str, EditionMeta]:
        return {e.id: e for e in self.editions}

    def published(self) -> tuple[str, ...]:
        """The ids of the editions this revision declares published, in order."""
        return tuple(e.id for e in self.editions if e.status == "published")


def content_digests(book: Rulebook) -> dict[str, str]:
    """Each edition's resolved content as one digest: the lock's digest (terms, clauses, vocabulary)."""
    from .lock import Known, edition_entry

    known: Known = {}
    return {e.id: edition_entry(e, known)["digest"] for e in book.editions}


# -- changes --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class EditionChange:
    """An edition added, removed, or changed in status, metadata or content."""

    id: str
    change: str  # added | removed | changed
    old: EditionMeta | None
    new: EditionMeta | None
    status: tuple[str, str] | None = None  # (old, new) when the status changed
    metadata: tuple[str, ...] = ()  # the metadata fields that differ
    content: bool = False  # its resolved content differs
    moved: bool = False  # it stands at another place in the order of editions

    @property
    def was_published(self) -> bool:
        return self.old is not None and self.old.status == "published"


@dataclass(frozen=True)
class LockChange:
    """An entry of ``rulebook.lock`` added, removed or changed (the edition re-locked)."""

    edition: str
    change: str  # added | removed | changed
    refs: tuple[str, ...] = ()  # what differs between the two entries (``lock.changed``), when changed


@dataclass(frozen=True)
class LogChange:
    """An entry of ``corrections.yaml`` added, removed or edited; ``at_old``/``at_new``: 0-based places."""

    change: str  # added | removed | edited
    old: Correction | None
    new: Correction | None
    at_old: int | None
    at_new: int | None
    # a removed entry: the 0-based place in the new log where it stood (the entry now there, or the
    # end), so that a review can point at it
    place: int | None = None

    @property
    def edition(self) -> str:
        return self.entry.edition

    @property
    def entry(self) -> Correction:
        """The entry as it is now (as it was, when removed)."""
        entry = self.new or self.old
        assert entry is not None, "a log change has an entry on one side at least"
        return entry

    @property
    def was(self) -> tuple[int, Correction]:
        """The entry removed or edited: its 1-based number in the old log, and itself."""
        assert self.at_old is not None and self.old is not None, f"{self.change} entry has no old side"
        return self.at_old + 1, self.old

    @property
    def now(self) -> tuple[int, Correction]:
        """The entry added or edited: its 1-based number in the new log, and itself."""
        assert self.at_new is not None and self.new is not None, f"{self.change} entry has no new side"
        return self.at_new + 1, self.new


@dataclass(frozen=True)
class RecordDiff:
    editions: tuple[EditionChange, ...] = ()
    lock_file: str = "same"  # same | added | deleted
    lock: tuple[LockChange, ...] = ()
    log: tuple[LogChange, ...] = ()

    @property
    def empty(self) -> bool:
        return not self.editions and self.lock_file == "same" and not self.lock and not self.log

    def edition(self, edition_id: str) -> EditionChange | None:
        return next((c for c in self.editions if c.id == edition_id), None)

    def explained_by(self, edition_id: str) -> tuple[LogChange, ...]:
        """The log entries this change adds for an edition: what explains a change to it."""
        return tuple(c for c in self.log if c.change == "added" and c.edition == edition_id)


def compare(old: Record, new: Record) -> RecordDiff:
    """How the record changed from ``old`` to ``new``."""
    lock_file = "same"
    if old.lock is not None and new.lock is None:
        lock_file = "deleted"
    elif old.lock is None and new.lock is not None:
        lock_file = "added"
    return RecordDiff(_editions(old, new), lock_file, _lock(old.lock or {}, new.lock or {}),
                      _log(old.log, new.log))


def _editions(old: Record, new: Record) -> tuple[EditionChange, ...]:
    before, after = old.by_id, new.by_id
    order_old = [e for e in before if e in after]
    order_new = [e for e in after if e in before]
    moved = {e for e, f in zip(order_old, order_new) if e != f} if order_old != order_new else set()
    out = []
    for eid in [*before, *(e for e in after if e not in before)]:
        a, b = before.get(eid), after.get(eid)
        if a is None or b is None:
            out.append(EditionChange(eid, "added" if a is None else "removed", a, b))
            continue
        status = (a.status, b.status) if a.status != b.status else None
        metadata = tuple(name for (name, x), (_, y) in zip(a.metadata, b.metadata) if x != y)
        content = old.content.get(eid) != new.content.get(eid)
        if status or metadata or content or eid in moved:
            out.append(EditionChange(eid, "changed", a, b, status, metadata, content, eid in moved))
    return tuple(out)


def _lock(old: Mapping[str, dict], new: Mapping[str, dict]) -> tuple[LockChange, ...]:
    from .lock import changed

    out = []
    for eid in sorted(old.keys() | new.keys()):
        a, b = old.get(eid), new.get(eid)
        if a is None:
            out.append(LockChange(eid, "added"))
        elif b is None:
            out.append(LockChange(eid, "removed"))
        elif a.get("digest") != b.get("digest"):
            out.append(LockChange(eid, "changed", tuple(changed(a, b))))
    return tuple(out)


def _entry_key(c: Correction) -> tuple:
    return (c.date, c.edition, c.kind, c.reason, c.changed, c.removed, c.lock)


def _log(old: tuple[Correction, ...], new: tuple[Correction, ...]) -> tuple[LogChange, ...]:
    out: list[LogChange] = []
    matcher = difflib.SequenceMatcher(a=[_entry_key(c) for c in old], b=[_entry_key(c) for c in new],
                                      autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        paired = min(i2 - i1, j2 - j1) if tag == "replace" else 0
        out.extend(LogChange("edited", old[i1 + k], new[j1 + k], i1 + k, j1 + k) for k in range(paired))
        out.extend(LogChange("removed", old[i], None, i, None, j1 + paired) for i in range(i1 + paired, i2))
        out.extend(LogChange("added", None, new[j], None, j) for j in range(j1 + paired, j2))
    return tuple(out)
