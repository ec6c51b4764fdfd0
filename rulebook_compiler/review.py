"""The published record is append-only: what ``check`` holds the corrections log to, alone and against a base.

Alone, in every ``check`` (one revision is all there is to read):

- each ref of an entry's ``changed`` names a term, clause, fact or constraint the
  edition has, or that its lock entry holds (an edit not yet recorded), unless
  the entry or a later one of the edition lists it under ``removed`` (what a
  correction took away exists only in the edition before it): ``ref_problems``,
  called by the build, so a forged entry naming nothing is never shown;
- the log and the lock agree (``log_problems``, called by ``lock.problems``):
  the edition's latest entry records the digest the lock holds, a correction's
  digest is not the one the entry before it locked (it changed nothing), no
  entry lacks a digest after one has it, and an edition whose publish the log
  records has its lock entry. Entries written before the log held digests
  (``lock``) have none, and stay valid: they are checked against the base.

Against a base (``rulebook check --against git:REV``), ``verdict`` compares the two
published records (``rulebook_compiler.record.compare``) and holds the head to them:
a published edition's content changed only with a new entry that names each
change, no entry removed or edited, a new entry only where the edition's lock
entry changed (and naming only what changed), no published edition removed
or set back to draft, no lock entry dropped while the log records the publish.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Mapping, Sequence

from .diagnostics import Diagnostic, Location, did_you_mean
from .model import Edition, Rulebook
from .record import LogChange, Record, RecordDiff, compare

LOG = "corrections.yaml"
LOCK = "rulebook.lock"


def _correct_command(edition_id: str) -> str:
    return f"rulebook correct --edition {edition_id} --kind transcription|erratum --reason TEXT"


# -- refs ---------------------------------------------------------------------------------------------


def edition_refs(edition: Edition) -> set[str]:
    """Every ref an entry of ``edition`` may name: terms, clauses, facts and constraints of its own vocabulary."""
    refs = {t.id for t in edition.terms} | {c.ref for t in edition.terms for c in t.clauses}
    refs.update(f"fact:{f.name}" for f in edition.vocabulary.facts)
    refs.update(f"constraint:{c.id}" for c in edition.vocabulary.constraints)
    return refs


def lock_refs(entry: Mapping | None) -> set[str]:
    """The refs of an edition as its lock entry records it: before a correction that ``rulebook correct``
    has not recorded yet, what the edit took away is still there (and the log's entries may name it)."""
    if not entry:
        return set()
    refs = {tid for tid in entry.get("terms", {})}
    refs.update(f"{tid}#{cid}" for tid, term in entry.get("terms", {}).items() for cid in term.get("clauses", {}))
    vocabulary = entry.get("vocabulary", {})
    refs.update(f"fact:{name}" for name in vocabulary.get("facts", {}))
    refs.update(f"constraint:{name}" for name in vocabulary.get("constraints", {}))
    return refs


_REF_HINT = ("name a term (TERM), a clause (TERM#CLAUSE), a fact (fact:NAME) or a constraint (constraint:ID) "
             "of the edition; what the correction removed goes under 'removed' too")


def removed_later(entries: Sequence[Mapping]) -> list[set[str]]:
    """For each entry of the log (as validated), the refs that it or a later entry of its edition lists
    under ``removed``: what a correction took away may be named by the entries before it, as by its own."""
    out: list[set[str]] = []
    later: dict[str, set[str]] = {}
    for raw in reversed(entries):
        so_far = later.setdefault(raw["edition"], set())
        so_far.update(raw.get("removed") or ())
        out.append(set(so_far))
    return out[::-1]


def ref_problems(edition_id: str, refs: set[str], changed: Sequence[str], removed: Sequence[str],
                 at: Callable[[str, int], Location]) -> list[Diagnostic]:
    """An entry's refs against its edition now (``refs``, ``edition_refs``): ``at(key, j)`` is where
    item ``j`` of ``changed`` or ``removed`` is."""
    out = []
    gone = set(removed)
    for j, ref in enumerate(changed):
        if ref not in refs and ref not in gone:
            out.append(Diagnostic(at("changed", j), f"the entry names '{ref}', which edition '{edition_id}' does "
                                  "not have", did_you_mean(ref, sorted(refs)) or _REF_HINT))
    for j, ref in enumerate(removed):
        if ref not in changed:
            out.append(Diagnostic(at("removed", j), f"'removed' names '{ref}', which 'changed' does not list",
                                  "list under 'removed' the refs of 'changed' that name what the correction removed"))
    return out


# -- the log and the lock, in one revision --------------------------------------------------------


def _field_at(book: Rulebook, index: int, key: str) -> Location:
    """Where entry ``index`` of the log gives ``key``: read again with positions, as only an error needs it."""
    from .yamlsource import load

    entry = book.corrections[index]
    doc, _ = load(Path(book.root) / LOG, entry.loc.path)
    return doc.at(("corrections", index, key)) if doc is not None else entry.loc


def _short(digest: str) -> str:
    return digest[:12]


def log_problems(book: Rulebook, lock_entries: Mapping[str, dict] | None) -> list[Diagnostic]:
    """The log against the lock (``lock_entries``: the lock's entries by edition; None: no lock file)."""
    out = []
    digest_seen = False
    before: dict[str, str | None] = {}  # each edition's digest as its latest entry so far locked it
    latest: dict[str, int] = {}
    for i, entry in enumerate(book.corrections):
        if entry.lock is None and digest_seen:
            out.append(Diagnostic(entry.loc, "this entry has no 'lock' digest, though an entry before it has one: "
                                  "it was not written by 'rulebook publish' or 'rulebook correct'",
                                  f"remove it; record a change with: {_correct_command(entry.edition)}"))
        elif entry.lock is not None:
            digest_seen = True
            if entry.kind != "publish" and before.get(entry.edition) == entry.lock:
                out.append(Diagnostic(_field_at(book, i, "lock"),
                                      f"this correction of edition '{entry.edition}' locks what the entry before "
                                      "it locked: nothing changed",
                                      "a correction records a change: remove this entry"))
        before[entry.edition] = entry.lock
        latest[entry.edition] = i
    for eid, i in latest.items():
        entry, held = book.corrections[i], (lock_entries or {}).get(eid)
        if entry.lock is not None and held is not None and held.get("digest") != entry.lock:
            out.append(Diagnostic(_field_at(book, i, "lock"),
                                  f"the last entry of edition '{eid}' in {LOG} records the lock digest "
                                  f"{_short(entry.lock)}, but {LOCK} holds {_short(str(held.get('digest')))}",
                                  "'rulebook publish' and 'rulebook correct' write the log and the lock together: "
                                  "restore both from version control, or run the command again"))
    return out + unlocked_publishes(book, lock_entries) + log_ref_problems(book, lock_entries)


def log_ref_problems(book: Rulebook, lock_entries: Mapping[str, dict] | None) -> list[Diagnostic]:
    """Each ref of an entry's ``changed`` and ``removed`` against its edition: a ref must name what the
    edition has now or its lock entry still holds, unless this entry or a later one of its edition lists
    it under ``removed`` (a forged entry names nothing there: ``nosuch#clause``)."""
    editions = book.edition_by_id
    gone = removed_later([{"edition": c.edition, "removed": c.removed} for c in book.corrections])
    refs: dict[str, set[str]] = {}  # each edition's, made once
    out: list[Diagnostic] = []
    doc = None
    for i, entry in enumerate(book.corrections):
        if not (entry.changed or entry.removed):
            continue
        if entry.edition not in refs:
            refs[entry.edition] = edition_refs(editions[entry.edition]) | lock_refs((lock_entries or {}).get(entry.edition))

        def at(key: str, j: int, i: int = i) -> Location:
            nonlocal doc
            if doc is None:  # read again with positions only when an error needs them
                from .yamlsource import load

                doc = load(Path(book.root) / LOG, book.corrections[i].loc.path)[0]
            return doc.at(("corrections", i, key, j)) if doc is not None else book.corrections[i].loc

        out += ref_problems(entry.edition, refs[entry.edition] | gone[i], entry.changed, entry.removed, at)
    return out


def unlocked_publishes(book: Rulebook, lock_entries: Mapping[str, dict] | None) -> list[Diagnostic]:
    """An edition whose publish the log records, and the lock does not hold: the lock or its entry was dropped."""
    out = []
    seen: set[str] = set()
    for entry in book.corrections:
        if entry.kind != "publish" or entry.edition in seen:
            continue
        seen.add(entry.edition)
        if lock_entries is None:
            out.append(Diagnostic(entry.loc, f"{LOCK} is missing, though {LOG} records the publish of edition "
                                  f"'{entry.edition}' here",
                                  f"a published edition stays locked: restore {LOCK} from version control"))
        elif entry.edition not in lock_entries:
            out.append(Diagnostic(entry.loc, f"{LOCK} has no entry for edition '{entry.edition}', though {LOG} "
                                  "records its publish here",
                                  f"a published edition stays locked: restore its entry of {LOCK} from version "
                                  "control"))
    return out


# -- against a base -----------------------------------------------------------------------------------


def verdict(base: Rulebook, head: Rulebook, against: str = "the base") -> list[Diagnostic]:
    """Every way ``head`` breaks the published record of ``base`` (named ``against`` in messages), sorted."""
    return review(base, head, against)[0]


def review(base: Rulebook, head: Rulebook, against: str) -> tuple[list[Diagnostic], str]:
    """``verdict``, and the line ``check --against`` prints when there is nothing to report."""
    from .counts import counted

    old, new = Record.of(base), Record.of(head)
    diff = compare(old, new)
    out = [*_editions(diff, old, head, against), *_log_edits(diff, head, against),
           *_new_entries(diff, old, head, against), *_unexplained(diff, old, new, base, head, against),
           *_unlocked(head, new)]
    added = sum(c.change == "added" for c in diff.log)
    line = (f"published record: append-only against {against} "
            f"({counted(len(new.published()), 'published edition')}, {counted(added, 'log entry', 'log entries')} "
            "added)")
    return sorted(set(out), key=lambda d: (d.location, d.message)), line


def _unlocked(head: Rulebook, new: Record) -> list[Diagnostic]:
    """``unlocked_publishes`` of the head, unless its lock is there but is not a lock (check says so)."""
    if new.lock is None and (Path(head.root) / LOCK).is_file():
        return []
    return unlocked_publishes(head, new.lock)


def _editions(diff: RecordDiff, old: Record, head: Rulebook, against: str) -> list[Diagnostic]:
    out = []
    for change in diff.editions:
        if not change.was_published:
            continue
        if change.change == "removed":
            out.append(Diagnostic(_where_it_was(change.id, diff, old, head),
                                  f"published edition '{change.id}' was removed from rulebook.yaml since {against}",
                                  f"a published edition is never removed: declare it again as {against} has it"))
        elif change.status is not None:
            assert change.new is not None  # a status changed: the edition is on both sides
            out.append(Diagnostic(change.new.loc,
                                  f"published edition '{change.id}' was set back to '{change.status[1]}' "
                                  f"since {against}",
                                  "a published edition stays published: set 'status: published' again"))
    return out


def _where_it_was(edition_id: str, diff: RecordDiff, old: Record, head: Rulebook) -> Location:
    """Where a removed edition stood in the head's rulebook.yaml: at the edition that now follows it."""
    order = [e.id for e in head.editions]
    if not order:  # pragma: no cover - a rulebook declares an edition (the schema)
        return Location(_shown(Path(head.root) / "rulebook.yaml"))
    base_order = [e.id for e in old.editions]
    after = base_order[base_order.index(edition_id) + 1:]
    following = next((e for e in after if e in head.edition_by_id), None)
    return head.edition_by_id[following or order[-1]].loc


_ENTRY_FIELDS = ("date", "edition", "kind", "reason", "changed", "removed", "lock")


def _log_edits(diff: RecordDiff, head: Rulebook, against: str) -> list[Diagnostic]:
    hint = (f"{LOG} is append-only: restore the entry as {against} has it; a new correction is a new entry "
            "at the end")
    out = []
    for change in diff.log:
        if change.change == "edited":
            fields = [f for f in _ENTRY_FIELDS if getattr(change.old, f) != getattr(change.new, f)]
            out.append(Diagnostic(change.now[1].loc,
                                  f"an entry of {LOG} was edited since {against} (its {', '.join(fields)})", hint))
        elif change.change == "removed":
            _, old = change.was
            out.append(Diagnostic(_log_place(change, head),
                                  f"an entry of {LOG} was removed since {against} "
                                  f"({old.date}, edition '{old.edition}', {old.kind})", hint))
    return out


def _log_place(change: LogChange, head: Rulebook) -> Location:
    """Where a removed entry stood in the head's log: the entry now in its place, else the list's end."""
    from .yamlsource import load

    log = head.corrections
    if change.place is not None and change.place < len(log):
        return log[change.place].loc
    if log:
        return log[-1].loc
    path = Path(head.root) / LOG
    shown = _shown(path)
    doc, _ = load(path, shown) if path.is_file() else (None, [])
    return doc.at(("corrections",)) if doc is not None else Location(shown)


def _shown(path: Path) -> str:
    import os

    try:
        return os.path.relpath(path)
    except ValueError:  # pragma: no cover - another drive on Windows
        return str(path)


def _new_entries(diff: RecordDiff, old: Record, head: Rulebook, against: str) -> list[Diagnostic]:
    """Each entry added: written by the commands (it has its digest), where the edition's lock entry changed."""
    locks = {c.edition: c for c in diff.lock}
    out = []
    for change in diff.log:
        entry = change.new
        if change.change != "added" or entry is None:
            continue
        if entry.lock is None:
            out.append(Diagnostic(entry.loc, f"an entry added since {against} without its 'lock' digest: it was "
                                  "not written by 'rulebook publish' or 'rulebook correct'",
                                  f"remove it, and record the change with: {_correct_command(entry.edition)}"))
            continue
        relocked = locks.get(entry.edition)
        if entry.kind == "publish":
            if old.lock is not None and entry.edition in old.lock:
                out.append(Diagnostic(entry.loc, f"a publish of edition '{entry.edition}' added since {against}, "
                                      f"where {LOCK} locked it already",
                                      "an edition is published once; remove this entry"))
            continue
        if relocked is None or relocked.change != "changed":
            out.append(Diagnostic(entry.loc, f"a correction of edition '{entry.edition}' added since {against}, but "
                                  f"its entry of {LOCK} did not change",
                                  "a correction records a change made with 'rulebook correct'; remove this entry"))
            continue
        out.extend(_refs_not_changed(head, change, relocked.refs, against))
    return out


def _refs_not_changed(head: Rulebook, change: LogChange, changed: Sequence[str], against: str) -> list[Diagnostic]:
    entry = change.new
    assert entry is not None and change.at_new is not None
    hint = f"what changed in edition '{entry.edition}': {', '.join(changed)}"
    return [Diagnostic(_item_at(head, change.at_new, "changed", j),
                       f"the entry names '{ref}', which did not change since {against}", hint)
            for j, ref in enumerate(entry.changed) if ref not in changed]


def _item_at(book: Rulebook, index: int, key: str, j: int) -> Location:
    from .yamlsource import load

    entry = book.corrections[index]
    doc, _ = load(Path(book.root) / LOG, entry.loc.path)
    return doc.at(("corrections", index, key, j)) if doc is not None else entry.loc


def _unexplained(diff: RecordDiff, old: Record, new: Record, base: Rulebook, head: Rulebook,
                 against: str) -> list[Diagnostic]:
    """Each change to a published edition's content that no entry added since the base names."""
    from .lock import changed, edition_entry

    out = []
    for change in diff.editions:
        if change.change != "changed" or not change.content or not change.was_published:
            continue
        eid = change.id
        before = (old.lock or {}).get(eid)
        if before is not None and new.lock is not None and new.lock.get(eid) == before:
            continue  # the lock did not move with the content: check's own lock problems say where
        before = before or edition_entry(base.edition_by_id[eid])
        named = {ref for c in diff.explained_by(eid) if c.new is not None and c.new.kind != "publish"
                 for ref in c.new.changed}
        edition = head.edition_by_id[eid]
        for ref in changed(before, edition_entry(edition)):
            if ref not in named:
                out.append(Diagnostic(_ref_place(edition, ref),
                                      f"published edition '{eid}' changed '{ref}' since {against}, and no new entry "
                                      f"of {LOG} names it",
                                      f"record it: {_correct_command(eid)} (it re-locks the edition and logs what "
                                      "changed), or undo the edit"))
    return out


def _ref_place(edition: Edition, ref: str) -> Location:
    """Where a ref is in the edition now; the edition's own line when it is gone."""
    kind, _, name = ref.partition(":")
    if name:
        items = {f"fact:{f.name}": f.loc for f in edition.vocabulary.facts}
        items.update({f"constraint:{c.id}": c.loc for c in edition.vocabulary.constraints})
        return items.get(ref, edition.loc)
    tid, _, cid = ref.partition("#")
    term = edition.term_by_id.get(tid)
    if term is None:
        return edition.loc
    clause = next((c for c in term.clauses if c.id == cid), None) if cid else None
    return clause.loc if clause is not None else term.loc
