"""The diff of two whole rulebooks: every edition on either side, matched by id, and the published record.

``rulebook diff`` between two rulebooks (two folders, or two ``git:REV`` sides
without an edition) compares what a pull request can change, not only the
latest edition: each edition's content (the engine's diff, run only for the
editions whose content differs), each edition's status, metadata and place,
``rulebook.lock`` and ``corrections.yaml`` (``rulebook_compiler.record``), and the
rulebook's own title and notes. The report leads with its ``alerts``: what a
committee must see first, a published edition changed, removed or re-locked,
a log entry removed, edited or added with nothing to match it, each with the
log entry that explains it, or none.

Cost follows the change: an edition's content is one key made of its terms'
content hashes and its vocabulary, which a cached side reads from the cache's
term list (``CachedBook.term_rows``) without loading a term; only the
editions whose keys differ are diffed, and the engine then loads only the
terms that differ.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from dataclasses import dataclass
from functools import cached_property
from typing import Callable, Mapping

from ..diagnostics import Diagnostic
from ..model import Correction, Edition
from ..record import EditionChange, LogChange, Record, RecordDiff, compare
from .result import DiffResult
from .sides import Side

#: ``--fail-on published-change``: the level above ``ruling-flips`` (rulebook_compiler.diff.level).
PUBLISHED_CHANGE = "published-change"

#: The rulebook's own fields a reader sees, besides its editions.
_RULEBOOK_FIELDS = ("title", "publisher", "notes", "editor_notes")

#: The correction kinds (``rulebook correct``): each re-locks its edition.
_CORRECTIONS = ("transcription", "erratum")


def is_whole(side: Side) -> bool:
    """A side that names a rulebook, not one of its editions: a folder, or ``git:REV`` without ``:EDITION``."""
    return side.kind == "folder" or (side.kind == "git" and ":" not in side.spec[len("git:"):])


# -- content --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Content:
    """An edition's resolved content as the engine compares it: each term's content hash, and its vocabulary."""

    terms: Mapping[str, str]  # term id -> content hash
    vocabulary: str  # the digest of its vocabulary (``lock.digest``)
    # The digest of the rulings that apply to it (rulebook_compiler.diff.rulings.applying_keys): not part of ``key``,
    # which the published record compares (rulings are not locked), but an edition whose rulings differ is
    # diffed, for its Rulings section.
    rulings: str = ""

    @property
    def compared(self) -> tuple[str, str]:
        return self.key, self.rulings

    @cached_property
    def key(self) -> str:
        text = json.dumps([sorted(self.terms.items()), self.vocabulary], separators=(",", ":"))
        return hashlib.sha256(text.encode("utf-8")).hexdigest()


def contents(side: Side) -> dict[str, Content]:
    """Each edition's ``Content``; from the cache's term list when the side is cached (no term is loaded)."""
    from pathlib import Path

    from ..lock import digest
    from .rulings import applying_keys

    rulings = applying_keys(Path(side.book.root), side.book)
    vocabularies: dict[int, str] = {}  # editions share their vocabulary objects
    out = {}
    for edition in side.book.editions:
        if id(edition.vocabulary) not in vocabularies:
            vocabularies[id(edition.vocabulary)] = digest(edition.vocabulary)
        if side.cached is None:
            terms = {t.id: t.digest for t in edition.terms}
        else:
            terms = {tid: term_digest for tid, term_digest, _, _ in side.cached.term_rows(edition.id)}
        out[edition.id] = Content(terms, vocabularies[id(edition.vocabulary)], rulings.get(edition.id, ""))
    return out


# -- the report -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class EditionDiff:
    """One edition of either side: how it changed, and the engine's diff of its content when it differs."""

    id: str
    change: str  # same | changed | added | removed
    old: Side | None  # the side at this edition (None when added)
    new: Side | None  # (None when removed)
    result: DiffResult | None = None  # None: the content is the same (or the edition is removed)
    # For an added edition: the old side's edition its content is compared with (the one before it).
    compared_with: Side | None = None
    # Terms whose sources differ where the engine reports no change (editors' notes, declared lineage).
    unshown: tuple[str, ...] = ()
    meta: EditionChange | None = None  # how ``rulebook.yaml`` changed it (``record.compare``), if it did

    @property
    def status(self) -> str:
        """Its status on the old side (on the new one for an edition added): what a reviewer knew it as."""
        return self.side.edition.status

    @property
    def content_changed(self) -> bool:
        return self.result is not None and not self.result.empty

    @property
    def diffed(self) -> DiffResult:
        """The result of an edition whose content differs (a caller that knows it has one)."""
        assert self.result is not None, f"edition {self.id} has no diff of its content"
        return self.result

    @property
    def side(self) -> Side:
        """The side at this edition: the old one's, the new one's for an edition added."""
        side = self.old or self.new
        assert side is not None, f"edition {self.id} is on neither side"
        return side


Part = tuple[str, bool]  # (text, True when it is an identifier: an edition id, a ref, a file name)


@dataclass(frozen=True)
class Alert:
    """What a committee must see first: a change to the published record.

    ``explained``: the log entries this change adds that explain it; None for an alert that no
    entry can explain (a log entry's own removal or edit, shown with its words instead).
    """

    kind: str  # published-changed | published-removed | unpublished | lock-changed | lock-removed
    # | lock-deleted | log-removed | log-edited | log-unmatched | check (a side fails check's record rules)
    edition: str | None
    parts: tuple[Part, ...]
    explained: tuple[LogChange, ...] | None = ()

    def written(self, ident: Callable[[str], str] = str, words: Callable[[str], str] = str) -> str:
        """The alert in words, its identifiers through ``ident`` and its prose through ``words``."""
        parts = list(self.parts)
        if self.explained is not None:
            parts += explanation(self.explained)
        return "".join(ident(text) if is_ident else words(text) for text, is_ident in parts)

    @property
    def text(self) -> str:
        return self.written()


def explanation(explained: tuple[LogChange, ...]) -> list[Part]:
    """'; explained by corrections.yaml entry 2: 2026-12-01 erratum 'reason'', or that none explains it."""
    if not explained:
        return [("; no log entry explains it", False)]
    out: list[Part] = []
    for change in explained:
        number, entry = change.now
        out += [("; explained by ", False), ("corrections.yaml", True),
                (f" entry {number}: {entry.date} {entry.kind} '{entry.reason}'", False)]
    return out


def entry_parts(entry: Correction) -> list[Part]:
    """A log entry in words: '2026-12-01, 1.0, erratum: 'reason''."""
    return [(f"{entry.date}, ", False), (entry.edition, True), (f", {entry.kind}: '{entry.reason}'", False)]


@dataclass(frozen=True)
class RulebookDiff:
    """Two whole rulebooks compared: the record, the rulebook's own fields, and every edition."""

    old: Side
    new: Side
    record: RecordDiff
    rulebook: tuple[str, ...]  # the rulebook's own fields that differ (``_RULEBOOK_FIELDS``)
    editions: tuple[EditionDiff, ...]  # every edition of either side: the old side's order, then those added

    @property
    def empty(self) -> bool:
        return (self.record.empty and not self.rulebook and not self.problems
                and all(e.change == "same" for e in self.editions))

    @property
    def problems(self) -> tuple[Diagnostic, ...]:
        """What ``rulebook check`` finds wrong with either side's published record (the lock, the log):
        such a side is still compared, so that the reviewer sees what it changed, and the diff fails."""
        return self.old.problems + self.new.problems

    @property
    def changed(self) -> tuple[EditionDiff, ...]:
        return tuple(e for e in self.editions if e.change != "same")

    @cached_property
    def alerts(self) -> tuple[Alert, ...]:
        return alerts(self)

    @property
    def published_change(self) -> bool:
        """Whether ``--fail-on published-change`` exits 1: some change to the published record."""
        return bool(self.alerts)


def build(old: Side, new: Side, diff: Callable[[Side, Side], DiffResult]) -> RulebookDiff:
    """The whole-rulebook diff of two resolved sides; ``diff`` runs the engine on a pair of editions."""
    content = contents(old), contents(new)
    record = compare(Record.of(old.book, {k: c.key for k, c in content[0].items()}),
                     Record.of(new.book, {k: c.key for k, c in content[1].items()}))
    fields = tuple(f for f in _RULEBOOK_FIELDS if getattr(old.book, f) != getattr(new.book, f))
    before, after = old.book.edition_by_id, new.book.edition_by_id
    order = [*before, *(e for e in after if e not in before)]
    editions = tuple(_edition(eid, old, new, content, record.edition(eid), diff) for eid in order)
    return RulebookDiff(old, new, record, fields, editions)


def _edition(eid: str, old: Side, new: Side, content: tuple[dict[str, Content], dict[str, Content]],
             meta: EditionChange | None, diff: Callable[[Side, Side], DiffResult]) -> EditionDiff:
    """One edition of either side; its content diffed only when its key differs from its counterpart's
    (itself on the old side, or for an edition added, the edition before it)."""
    before, after = old.book.edition_by_id, new.book.edition_by_id
    a = _at(old, before[eid]) if eid in before else None
    b = _at(new, after[eid]) if eid in after else None
    base = a if a is not None else _predecessor(old, new, eid)
    result, unshown = None, tuple[str, ...]()
    if base is not None and b is not None and content[0][base.edition.id].compared != content[1][eid].compared:
        result = diff(base, b)
        if result.empty:
            unshown = _differing(content[0][base.edition.id], content[1][eid])
    # An edition whose record is the same is changed when its diff is not empty (its rulings, say)
    changed = meta is not None or (result is not None and not result.empty)
    change = "added" if a is None else "removed" if b is None else "changed" if changed else "same"
    return EditionDiff(eid, change, a, b, result, base if a is None else None, unshown, meta)


def _at(side: Side, edition: Edition) -> Side:
    """The side at one of its editions: as ``git:REV:EDITION`` names it (a folder keeps its path)."""
    spec = f"{side.spec}:{edition.id}" if side.kind == "git" else side.spec
    return dataclasses.replace(side, spec=spec, edition=edition)


def _predecessor(old: Side, new: Side, eid: str) -> Side | None:
    """For an edition added: the old side's edition that comes before it on the new side, if any."""
    ids = [e.id for e in new.book.editions]
    for earlier in reversed(ids[:ids.index(eid)]):
        if earlier in old.book.edition_by_id:
            return _at(old, old.book.edition_by_id[earlier])
    return None


def _differing(old: Content, new: Content) -> tuple[str, ...]:
    return tuple(sorted(t for t in old.terms.keys() | new.terms.keys() if old.terms.get(t) != new.terms.get(t)))


# -- what the committee sees first ------------------------------------------------------------------


def alerts(diff: RulebookDiff) -> tuple[Alert, ...]:
    """The changes to the published record, each with what explains it: editions first (the old side's
    order), then the lock, then the log."""
    record = diff.record
    out: list[Alert] = [*_check_alerts(diff.old), *_check_alerts(diff.new)]
    for edition in diff.editions:
        out += _edition_alerts(edition, record)
    out += _lock_alerts(diff)
    out += _log_alerts(record)
    return tuple(out)


def _check_alerts(side: Side) -> list[Alert]:
    """One alert per problem ``rulebook check`` finds with a side's lock or log, as check words it."""
    return [Alert("check", None, ((side.spec, True), (" does not pass rulebook check: ", False),
                                  (str(p.location), True), (f": {p.message}", False)), None) for p in side.problems]


def corrections(record: RecordDiff, edition_id: str) -> tuple[LogChange, ...]:
    """The log entries this change adds that can explain a change to a published edition's content or
    lock: its corrections (``transcription``, ``erratum``). A ``publish`` entry locks an edition not
    locked yet; nothing in the log's kinds explains an edition removed, set back to draft or unlocked."""
    return tuple(c for c in record.explained_by(edition_id) if c.now[1].kind in _CORRECTIONS)


def _edition_alerts(edition: EditionDiff, record: RecordDiff) -> list[Alert]:
    if edition.old is None or edition.old.edition.status != "published":
        return []
    eid = edition.id
    if edition.new is None:
        return [Alert("published-removed", eid, (("published edition ", False), (eid, True), (" removed", False)))]
    out = []
    if edition.content_changed:
        from .present import summary_line

        out.append(Alert("published-changed", eid, (("published edition ", False), (eid, True),
                                                    (f" changed: {summary_line(edition.diffed)}", False)),
                         corrections(record, eid)))
    if edition.new.edition.status != "published":
        out.append(Alert("unpublished", eid, (("published edition ", False), (eid, True),
                                              (f" set back to {edition.new.edition.status}", False))))
    return out


def _lock_alerts(diff: RulebookDiff) -> list[Alert]:
    record = diff.record
    out = []
    if record.lock_file == "deleted":
        held = [c.edition for c in record.lock if c.change == "removed"]
        out.append(Alert("lock-deleted", None, (("rulebook.lock", True), (" deleted", False)) + _held(held)))
    for change in record.lock:
        if change.change == "changed":
            refs = ", ".join(change.refs) or "its digest"
            why = corrections(record, change.edition)
            out.append(Alert("lock-changed", change.edition,
                             (("rulebook.lock", True), (" entry ", False), (change.edition, True),
                              (" changed (re-locked: ", False), (refs, True)) + _named_otherwise(change, why)
                             + ((")", False),), why))
        elif change.change == "removed" and record.lock_file != "deleted":
            out.append(Alert("lock-removed", change.edition, (("rulebook.lock", True), (" entry ", False),
                                                              (change.edition, True), (" removed", False))))
    return out


def _named_otherwise(change, why: tuple[LogChange, ...]) -> tuple[Part, ...]:
    """'; the log entry names nosuch#clause': what the explaining entries name where it is not what the lock
    changed (``rulebook correct`` writes exactly the lock's refs, so only an entry written by hand differs)."""
    named = sorted({ref for c in why for ref in c.now[1].changed})
    if not why or named == sorted(change.refs):
        return ()
    return (("; the log names ", False), (", ".join(named) or "nothing", bool(named)))


def _held(editions: list[str]) -> tuple[Part, ...]:
    if not editions:
        return ()
    parts: list[Part] = [(" (it locked ", False)]
    for i, eid in enumerate(editions):
        parts += [(", " if i else "", False), (eid, True)]
    return tuple(parts) + ((")", False),)


def _log_alerts(record: RecordDiff) -> list[Alert]:
    out = []
    relocked = {c.edition for c in record.lock if c.change == "changed"}
    locked = {c.edition for c in record.lock if c.change == "added"}
    for change in record.log:
        if change.change == "removed":
            out.append(Alert("log-removed", change.edition,
                             (("corrections.yaml", True), (f" entry {change.was[0]} removed (was: ", False),
                              *entry_parts(change.was[1]), (")", False)), None))
        elif change.change == "edited":
            out.append(Alert("log-edited", change.edition,
                             (("corrections.yaml", True), (f" entry {change.was[0]} edited (was: ", False),
                              *entry_parts(change.was[1]), ("; now: ", False), *entry_parts(change.now[1]), (")", False)),
                             None))
        elif not _matched(change.now[1], relocked, locked):
            what = "re-locked" if change.now[1].kind in _CORRECTIONS else "locked anew"
            out.append(Alert("log-unmatched", change.edition,
                             (("corrections.yaml", True), (f" entry {change.now[0]} added (", False),
                              *entry_parts(change.now[1]), ("), but edition ", False), (change.edition, True),
                              (f" is not {what} in ", False), ("rulebook.lock", True)), None))
    return out


def _matched(entry: Correction, relocked: set[str], locked: set[str]) -> bool:
    """Whether an added log entry records a change to the lock: a correction re-locks its edition,
    a ``publish`` locks it for the first time."""
    return entry.edition in (relocked if entry.kind in _CORRECTIONS else locked)


# -- --fail-on ------------------------------------------------------------------------------------------


def fails(result, floor: str) -> bool:
    """Whether ``--fail-on floor`` exits 1: a change to the published record is above every other level,
    so it fails every floor; below it, the most of any edition's diff (``level.fails``)."""
    from .level import fails as edition_fails

    if isinstance(result, RulebookDiff):
        if result.published_change:
            return True
        return floor != PUBLISHED_CHANGE and any(
            edition_fails(e.result, floor) for e in result.editions if e.result is not None)
    return published_edition_changed(result) or (floor != PUBLISHED_CHANGE and edition_fails(result, floor))


def published_edition_changed(result: DiffResult) -> bool:
    """A diff of one edition against itself (``git:A:1.0 git:B:1.0``) where it was published and changed."""
    return (not result.empty and result.old.status == "published"
            and result.old.edition == result.new.edition and result.old.kind != "none")
