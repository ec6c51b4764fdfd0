"""A content-addressed cache of rulebooks that passed the checks, and of their terms.

A rulebook is known by the hash of every file the build reads (``rulebook.yaml``,
``vocabulary.yaml``, ``corrections.yaml``, every file under ``editions/`` and how they are laid out)
and of ``rulebook.lock``, together with the compiler's version and a hash of the compiler's own source
files, so that any change to either gives another key. Only rulebooks that
passed ``build.check`` (their published editions as the lock records them) are stored, so an entry
that serves a rulebook says that these very files, lock included, passed it; for each:

- the rulebook without its terms (titles, editions, each edition's vocabulary);
- per edition, each term's id, content hash, file and stored model;
- per stored term, the names it defines, declares and gives rules for, and who
  uses which name (``rulebook_compiler.uses``), as rows that can be looked up
  without reading the rest.

A term's model is stored once per content (its file's hash and its edition),
so editions and revisions that share a term share its entry. Models are
stored as JSON data (``rulebook_compiler.modeljson``), compressed, with a checksum
that catches damage (not tampering: anyone who can write the cache can
recompute it). Nothing is unpickled or evaluated: reading an entry back
validates every field against the model's declared types and rebuilds the
model with the project's own code. An entry that does not validate (damaged,
truncated, forged, of another layout) is never trusted: it reads as
missing, the caller builds from the sources again, and the entry is rebuilt.
A diff that still fails on what an entry held is run again from the sources
(``rulebook_compiler.commands.diff``).

A cache that cannot be used (a full disk, a read-only folder or database, any
other error of SQLite or the file system) is never discarded: the run goes on
as with ``--no-cache`` and says so in one warning line on stderr. Only a file
that is not a database, a damaged one, or one of another layout is set aside
(renamed ``*.corrupt``) and started afresh.

The cache lives in ``$RULEBOOK_CACHE_DIR``, else ``$XDG_CACHE_HOME/rulebook-compiler``,
else ``~/.cache/rulebook-compiler``; never inside a rulebook folder or a command's output
(a site): one set there is not used, with one warning.
``RULEBOOK_NO_CACHE=1`` (or ``--no-cache``) bypasses it. It is one SQLite
database (as mypy's ``--sqlite-cache``): each store is one transaction, so a
crash leaves the previous state, and concurrent runs wait for each other.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import os
import sqlite3
import sys
import time
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable, Mapping

from .diagnostics import printable
from .rulebook_files import RULEBOOK_FILE, walk

if TYPE_CHECKING:
    from .model import Rulebook, Term

# The model, its codec and the build are imported where an entry is read or written, not
# here: a check of unchanged files reads one proof (rulebook_compiler/proofs.py) and needs none of them.

#: Bumped when the layout of the database changes (3: entries are JSON, not pickles;
#: 4: clauses and editions carry declared lineage; 5: facts may be ordered, conditions may
#: hold comparisons; 6: tables with several keys and otherwise; 7: each edition holds its
#: vocabulary; 8: a term's files are a list, a patched term naming the files it keeps values from;
#: 9: editor notes and the corrections log; 10: terms' updated/released, editions' version labels;
#: 11: clauses' printed numbers; 12: editions' not_held_before; 13: what check proved, per decision
#: and per rulebook: the ``proofs`` table, rulebook_compiler/proofs.py; 14: terms are indexed by rulebook first, so that
#: a rulebook made from another, as an incremental check makes it, appends to the index: ``store_edited``;
#: 15: clauses' rules_checked; 16: editions' chapters).
SCHEMA = 16
DB_NAME = f"cache-v{SCHEMA}.sqlite3"
#: Rulebooks kept; the least recently used beyond this are dropped with the terms only they use.
MAX_BOOKS = 32
#: Proofs kept (one per decision checked and one per rulebook); the oldest beyond this are dropped.
MAX_PROOFS = 200_000
#: The largest entry stored or read, uncompressed: a forged entry cannot make a run use more
#: memory than this to reject it. (A term 50 times the largest of the bundled rulebook's is 2 MB.)
MAX_ENTRY_BYTES = 64 * 1024 * 1024
#: SQLite's primary result codes for a file that is not a database or is damaged: the only
#: errors that set the file aside (a full disk or a read-only file keeps it, see ``Cache``).
_DAMAGED = frozenset({sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB})


class CacheError(Exception):
    """An entry that cannot be trusted (checksum, format) or a database that fails."""


class _ForeignSchema(sqlite3.DatabaseError):
    """A cache database of another layout."""


def cache_dir() -> Path:
    """Where the cache lives (see the module docstring)."""
    if os.environ.get("RULEBOOK_CACHE_DIR"):
        return Path(os.environ["RULEBOOK_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "rulebook-compiler"


def disabled_by_env() -> bool:
    """``RULEBOOK_NO_CACHE`` set to anything but empty or 0."""
    return os.environ.get("RULEBOOK_NO_CACHE", "") not in ("", "0")


@functools.lru_cache(maxsize=1)
def compiler_key() -> str:
    """The compiler's version, Python's and PyYAML's, and a hash of the compiler's source files."""
    import platform

    import yaml

    from . import __version__

    h = hashlib.sha256()
    h.update(f"{__version__}|{platform.python_version()}|{yaml.__version__}|"
             f"{getattr(yaml, '__with_libyaml__', False)}|{SCHEMA}\n".encode())
    package = Path(__file__).resolve().parent
    for path in sorted(package.rglob("*.py")):
        h.update(path.relative_to(package).as_posix().encode() + b"\0")
        h.update(hashlib.sha256(path.read_bytes()).digest())
    return h.hexdigest()


# -- what the build reads ----------------------------------------------------------


@dataclass(frozen=True)
class Fingerprint:
    """The hashes of every file the build reads, and the key they give."""

    key: str
    files: dict  # root-relative posix path -> sha256 of its bytes
    stats: dict = field(default_factory=dict, compare=False)  # path -> [size, mtime_ns, sha256] (see ``known``)
    taken: int = field(default=0, compare=False)  # time.time_ns() when it was taken
    hashed: int = field(default=0, compare=False)  # files read and hashed (the others came from ``known``)


# A file's hash is taken from ``known`` only when its size and modification time are as recorded
# and it was last modified at least this long before the record was taken: a file changed within
# the same tick of the clock as it was hashed would otherwise keep its old hash (git's "racy" files).
RACY_NS = 2_000_000_000


def fingerprint(root: Path | str, known: "Fingerprint | None" = None) -> Fingerprint | None:
    """Hash what ``build.check`` reads under ``root``, walked as it walks; None when it cannot be cached.

    With ``known`` (an earlier fingerprint of the same folder), a file whose size
    and modification time are as ``known`` recorded them, and that was not new
    then (``RACY_NS``), is not read again: its hash is taken from there, as mypy
    and git take theirs. Declared source texts are not read by the build, only
    looked for: their presence is verified when an entry is used (``Cache.lookup``).
    """
    root = Path(root)
    files: dict[str, str] = {}
    stats: dict[str, list] = {}
    taken = time.time_ns()
    trusted = known.stats if known is not None else {}
    before = (known.taken if known is not None else 0) - RACY_NS

    hashed = 0

    def sha(rel: str, path, stat) -> str:
        nonlocal hashed
        held = trusted.get(rel)
        if held is not None and held[0] == stat.st_size and held[1] == stat.st_mtime_ns < before:
            digest = held[2]
        else:
            digest = file_sha(path)
            hashed += 1
        stats[rel] = [stat.st_size, stat.st_mtime_ns, digest]
        return digest

    lines = [compiler_key()]
    try:
        if not root.is_dir() or not (root / RULEBOOK_FILE).is_file():
            return None
        # the walk the build lists its folders by (rulebook_compiler/rulebook_files.py)
        for mark, rel, path, status in walk(root):
            if status is not None:
                files[rel] = sha(rel, path, status())
                lines.append(f"f {rel} {files[rel]}")
            else:
                lines.append(f"{mark} {rel} {path}" if mark == "l" else f"{mark} {rel}")
    except OSError:
        return None
    key = hashlib.sha256("\n".join(lines).encode("utf-8", "surrogateescape")).hexdigest()
    return Fingerprint(key, files, stats, taken, hashed)


def known_fingerprint(data) -> Fingerprint | None:
    """A fingerprint kept as JSON data (``{"taken": ns, "stats": {path: [size, mtime_ns, sha256]}}``),
    or None when it is not exactly that."""
    if type(data) is not dict or type(data.get("taken")) is not int or type(data.get("stats")) is not dict:
        return None
    for rel, held in data["stats"].items():
        if not (type(held) is list and len(held) == 3 and type(held[0]) is int and type(held[1]) is int
                and type(held[2]) is str):
            return None
    return Fingerprint("", {}, data["stats"], data["taken"])


def file_sha(path) -> str:
    with open(path, "rb") as fh:
        return hashlib.sha256(fh.read()).hexdigest()


def shown_path(root: Path | str, rel: str) -> str:
    """A file's path as the build shows it (relative to the current folder)."""
    return os.path.relpath(Path(root) / rel)


# -- entries: JSON data, compressed, with the file's path left out ----------------------------


def _dump(obj, paths: dict[str, str]) -> tuple[bytes, str]:
    """The entry of a model object and its checksum; CacheError if it cannot be written.

    ``paths`` maps each file its locations may name to a placeholder, so that an
    entry does not depend on the folder it was read from (a git side's temporary
    folder, another current folder).
    """
    try:
        from .modeljson import to_data

        text = json.dumps(to_data(obj, paths), ensure_ascii=True, allow_nan=False, separators=(",", ":"))
    except ValueError as exc:  # modeljson.ModelDataError
        raise CacheError(f"cannot store the model: {exc}") from exc
    if len(text) > MAX_ENTRY_BYTES:
        raise CacheError(f"an entry of {len(text)} bytes is larger than {MAX_ENTRY_BYTES}")
    data = zlib.compress(text.encode("ascii"), 1)
    return data, hashlib.sha256(data).hexdigest()


def _load(cls: type, data: bytes, checksum: str, paths: dict[str, str]):
    """The ``cls`` an entry holds, validated; CacheError for anything else (``paths``: placeholder -> path)."""
    if type(data) is not bytes or hashlib.sha256(data).hexdigest() != checksum:
        raise CacheError("checksum mismatch")
    try:
        inflate = zlib.decompressobj()
        raw = inflate.decompress(data, MAX_ENTRY_BYTES)
        if inflate.unconsumed_tail or not inflate.eof:
            raise CacheError("an entry larger than the limit, or truncated")
        # RecursionError: arrays nested deeper than the interpreter's limit (no entry we write nests so).
        from .modeljson import from_data

        return from_data(cls, json.loads(raw), paths)
    except (zlib.error, ValueError, RecursionError) as exc:  # ModelDataError and JSON's errors are ValueErrors
        raise CacheError(f"unreadable entry: {exc}") from exc


# -- the database -----------------------------------------------------------------------

_TABLES = """
CREATE TABLE IF NOT EXISTS meta(k TEXT PRIMARY KEY, v TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS books(id INTEGER PRIMARY KEY, key TEXT UNIQUE NOT NULL, skeleton BLOB NOT NULL,
    sum TEXT NOT NULL, sources TEXT NOT NULL, editions TEXT NOT NULL, used REAL NOT NULL);
CREATE TABLE IF NOT EXISTS terms(book INTEGER NOT NULL, edition TEXT NOT NULL, id TEXT NOT NULL,
    digest TEXT NOT NULL, file TEXT NOT NULL, blob TEXT NOT NULL, PRIMARY KEY(book, edition, id)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS terms_book_blob ON terms(book, edition, blob);
CREATE TABLE IF NOT EXISTS blobs(key TEXT PRIMARY KEY, data BLOB NOT NULL, sum TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS names(blob TEXT NOT NULL, kind TEXT NOT NULL, name TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS names_name ON names(kind, name);
CREATE TABLE IF NOT EXISTS uses(blob TEXT NOT NULL, pos INTEGER NOT NULL, name TEXT NOT NULL, clause TEXT NOT NULL,
    via TEXT NOT NULL, ukind TEXT NOT NULL, uname TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS uses_name ON uses(name);
CREATE INDEX IF NOT EXISTS uses_user ON uses(uname, ukind);
CREATE TABLE IF NOT EXISTS proofs(key TEXT PRIMARY KEY, data TEXT NOT NULL, used REAL NOT NULL) WITHOUT ROWID;
"""


def _to_stderr(message: str) -> None:
    sys.stderr.write(f"rulebook: warning: {message}\n")


def _reason(exc: BaseException) -> str:
    """What went wrong, in one line: an OSError's own words without the path (the warning names it)."""
    text = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc) or type(exc).__name__
    return printable(text)


def _damaged(exc: sqlite3.Error) -> bool:
    """Whether the error says the file is not a cache database at all (the only reason to set it aside)."""
    code = getattr(exc, "sqlite_errorcode", None)
    return isinstance(exc, _ForeignSchema) or (code is not None and code & 0xFF in _DAMAGED)


class _Inside(OSError):
    """A cache folder inside what it must not write into (the message says what)."""


def _held_by(folder: Path) -> str | None:
    """Why the cache may not live in ``folder``: inside a rulebook folder, or a command's output; or None.

    Written into a rulebook, the cache changes the sources it describes (under ``editions/`` the
    next check fails: "not a term file"); into a site or another output, the next run of its
    command replaces the folder, or refuses one it did not write. Real paths: a link leads where it
    points. A folder is a rulebook folder by its ``rulebook.yaml``, an output by its marker.
    """
    from .outputs import output_of

    real = Path(os.path.realpath(folder))
    for parent in (real, *real.parents):
        if (parent / "rulebook.yaml").is_file():
            return (f"it is inside the rulebook folder '{os.path.relpath(parent)}', whose sources it would "
                    "change")
        owner = output_of(parent)
        if owner is not None:
            return f"it is inside '{os.path.relpath(parent)}', the output of '{owner}'"
    return None


class Cache:
    """The opened cache database.

    Every error of SQLite or of the file system (other than a file that is not a
    database) makes the cache unusable for the rest of the run: it is reported
    once through ``warn`` and the run goes on as with ``--no-cache``, reading
    nothing from it and writing nothing to it, so that nothing in it is lost.
    """

    def __init__(self, folder: Path, warn: Callable[[str], None] = _to_stderr):
        """Nothing is created until the cache is first used (the caller may decide not to).

        A folder inside a rulebook or a command's output is never used (``_held_by``), said at once.
        """
        self.folder = Path(folder)
        self.path = self.folder / DB_NAME
        self._db: sqlite3.Connection | None = None
        self._warn = warn
        self.failure: str | None = None  # why the cache cannot be used, once it cannot
        self.served: list[str] = []  # keys of the rulebooks read from the cache in this run
        held = _held_by(self.folder)
        if held is not None:
            self.fail(_Inside(held))

    @classmethod
    def open(cls, folder: Path | None = None, warn: Callable[[str], None] = _to_stderr) -> "Cache":
        """The cache in ``folder`` (default: ``cache_dir()``)."""
        return cls(folder or cache_dir(), warn)

    @property
    def usable(self) -> bool:
        return self.failure is None

    @property
    def db(self) -> sqlite3.Connection:
        """The connection; sqlite3.Error or OSError when it cannot be opened (callers go through ``_fail``)."""
        if self._db is None:
            if self.failure is not None:
                raise sqlite3.OperationalError(self.failure)
            self._db = self._connect()
        return self._db

    def _connect(self) -> sqlite3.Connection:
        self.folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        for attempt in range(2):
            db = sqlite3.connect(self.path, timeout=10, isolation_level=None)
            try:
                db.execute("PRAGMA journal_mode=WAL")
                db.execute("PRAGMA synchronous=NORMAL")  # WAL stays consistent; a power cut may lose the last store
                db.executescript(_TABLES)
                row = db.execute("SELECT v FROM meta WHERE k='schema'").fetchone()
                if row is None:
                    db.execute("INSERT OR IGNORE INTO meta VALUES('schema', ?)", (str(SCHEMA),))
                elif row[0] != str(SCHEMA):
                    raise _ForeignSchema("foreign schema")
                return db
            except sqlite3.Error as exc:
                db.close()
                # Not a database, damaged, or another layout: set it aside and start afresh.
                # Anything else (full, read-only, locked) leaves the file as it is.
                if attempt or not _damaged(exc):
                    raise
                self._discard_file()
        raise AssertionError("unreachable")  # pragma: no cover

    def _discard_file(self) -> None:
        for suffix in ("", "-wal", "-shm"):
            try:
                os.replace(str(self.path) + suffix, str(self.path) + suffix + ".corrupt")
            except OSError:
                pass

    def fail(self, exc: BaseException) -> None:
        """The cache cannot be used: said once, then left alone for the rest of the run."""
        if self.failure is None:
            self.failure = _reason(exc)
            self._warn(f"cannot use the cache in {printable(str(self.folder))}: {self.failure}; "
                       "continuing without it")
        self.close()

    def close(self) -> None:
        if self._db is not None:
            try:
                self._db.close()
            except sqlite3.Error:
                pass
            self._db = None

    # -- reading -------------------------------------------------------------------------------

    def lookup(self, root: Path | str, fp: Fingerprint) -> "CachedBook | None":
        """The stored rulebook with this fingerprint, if it passed check and its sources are still there."""
        if not self.usable:
            return None
        try:
            row = self.db.execute("SELECT id, skeleton, sum, sources, editions FROM books WHERE key=?",
                                  (fp.key,)).fetchone()
            if row is None:
                return None
            book_id, skeleton, checksum, sources, editions = row
            try:
                sources, sums = _string_list(sources), _string_map(editions)
                if not sources_present(Path(root), sources):
                    return None  # the build would report it: let it
                paths = {"rulebook.yaml": shown_path(root, "rulebook.yaml"),
                         "vocabulary.yaml": shown_path(root, "vocabulary.yaml"),
                         "corrections.yaml": shown_path(root, "corrections.yaml"), **_vocabulary_paths(root, fp)}
                from .model import Rulebook

                book = _load(Rulebook, skeleton, checksum, paths)
            except CacheError:
                self.forget(fp.key)
                return None
            self.db.execute("UPDATE books SET used=? WHERE id=?", (time.time(), book_id))
        except (sqlite3.Error, OSError) as exc:
            self.fail(exc)
            return None
        self.served.append(fp.key)
        return CachedBook(self, book_id, Path(root), dataclasses.replace(book, root=str(Path(root))), sums)

    # An entry that does not validate was not written by this compiler as it is: every entry of
    # the rulebooks it belongs to is dropped with it (their terms too, and so every rulebook
    # that shares one of those terms), so that the next store writes them all afresh.

    def forget(self, key: str) -> None:
        """Drop a rulebook's entry and its terms' (damaged, or not to be trusted)."""
        self._write(lambda: self._distrust(self._ids("SELECT id FROM books WHERE key=?", (key,))))

    def forget_served(self) -> None:
        """Drop every rulebook read from the cache in this run, and their terms (a diff failed on them)."""
        for key in self.served:
            self.forget(key)
        self.served.clear()

    def forget_book(self, book_id: int) -> None:
        """Drop a rulebook's entry by its row id, and its terms'."""
        self._write(lambda: self._distrust([book_id]))

    def forget_blob(self, blob: str) -> None:
        """Drop a damaged term, every rulebook that uses it and their terms."""
        self._write(lambda: self._distrust(self._ids("SELECT DISTINCT book FROM terms WHERE blob=?", (blob,)),
                                           [blob]))

    def _ids(self, sql: str, args: tuple) -> list:
        return [row[0] for row in self.db.execute(sql, args).fetchall()]

    def _distrust(self, book_ids: list, damaged: list | None = None) -> None:
        blobs = set(damaged or ())
        for book_id in book_ids:
            blobs.update(self._ids("SELECT DISTINCT blob FROM terms WHERE book=?", (book_id,)))
        # one pass over the term lists (they are indexed by rulebook, not by term)
        sharing = set(self._ids("SELECT DISTINCT book FROM terms WHERE blob IN (SELECT value FROM json_each(?))",
                                (json.dumps(sorted(blobs)),)))
        for book_id in sharing | set(book_ids):
            self._drop_book_rows(book_id)
        self._drop_blobs(sorted(blobs))

    def _drop_book(self, key: str) -> None:
        for book_id in self._ids("SELECT id FROM books WHERE key=?", (key,)):
            self._drop_book_rows(book_id)

    def _drop_book_rows(self, book_id: int) -> None:
        self.db.execute("DELETE FROM terms WHERE book=?", (book_id,))
        self.db.execute("DELETE FROM books WHERE id=?", (book_id,))

    def _write(self, change: Callable[[], None]) -> bool:
        """One transaction, unless the cache cannot be used; False (and the cache unusable) if it fails."""
        if not self.usable:
            return False
        try:
            with self._transaction():
                change()
            return True
        except (sqlite3.Error, OSError) as exc:
            self.fail(exc)
            return False

    # -- what check proved (rulebook_compiler/proofs.py) --------------------------------------------------

    def proofs(self, keys: list[str]) -> dict[str, str]:
        """The stored proofs among ``keys`` (JSON text, validated by the reader)."""
        if not self.usable or not keys:
            return {}
        try:
            return {k: d for k, d in self.db.execute(
                "SELECT key, data FROM proofs WHERE key IN (SELECT value FROM json_each(?))", (json.dumps(keys),))
                if type(k) is str and type(d) is str}
        except (sqlite3.Error, OSError) as exc:
            self.fail(exc)
            return {}

    def store_proofs(self, items: dict[str, str], replaced: tuple[str, ...] = ()) -> bool:
        """Record proofs (key -> JSON text), dropping those ``replaced`` names (a record a newer one
        replaces); the least recently stored beyond MAX_PROOFS are dropped."""
        now = time.time()

        def change() -> None:
            self.db.executemany("DELETE FROM proofs WHERE key=?", [(k,) for k in replaced if k not in items])
            self.db.executemany("INSERT OR REPLACE INTO proofs VALUES(?, ?, ?)",
                                [(k, v, now) for k, v in sorted(items.items())])
            self.db.execute("DELETE FROM proofs WHERE key NOT IN "
                            "(SELECT key FROM proofs ORDER BY used DESC LIMIT ?)", (MAX_PROOFS,))
        return bool(items) and self._write(change)

    # -- writing -------------------------------------------------------------------------------

    def store(self, root: Path | str, fp: Fingerprint, book: Rulebook) -> bool:
        """Record that the rulebook with this fingerprint passed ``build.check``; False if it could not."""
        import gc

        if not self.usable:
            return False
        # As while building (rulebook_compiler.build): many objects made, no cycles, and every
        # automatic full collection would rescan the whole model just loaded.
        enabled = gc.isenabled()
        gc.disable()
        try:
            entries = _term_entries(Path(root), fp, book)
            return self._write(lambda: self._store(Path(root), fp, book, entries))
        except CacheError:
            return False  # a model this cache cannot hold: the run goes on without storing it
        finally:
            if enabled:
                gc.enable()

    def _store(self, root: Path, fp: Fingerprint, book: Rulebook, entries: list["_Entry"]) -> None:
        self._store_terms(entries)
        self._drop_book(fp.key)  # another run may have stored it meanwhile
        skeleton = dataclasses.replace(
            book, root="", editions=tuple(dataclasses.replace(e, terms=()) for e in book.editions))
        data, checksum = _dump(skeleton, _meta_paths(root, book))
        editions = {}
        for edition in book.editions:
            editions[edition.id] = _terms_sum(
                (e.term.id, e.term.digest, e.file, e.blob) for e in entries if e.edition == edition.id)
        sources = sorted({s for e in book.editions for s in e.sources})
        cur = self.db.execute(
            "INSERT INTO books(key, skeleton, sum, sources, editions, used) VALUES(?,?,?,?,?,?)",
            (fp.key, data, checksum, json.dumps(sources), json.dumps(editions), time.time()))
        book_id = cur.lastrowid
        self.db.executemany("INSERT INTO terms VALUES(?, ?, ?, ?, ?, ?)",
                            [(book_id, e.edition, e.term.id, e.term.digest, e.file, e.blob)
                             for e in entries])
        self._prune()

    def _store_terms(self, entries: list["_Entry"]) -> None:
        """Each term's entry, names and uses, unless stored before (and not damaged: a store is where
        damage is mended)."""
        from .uses import uses_index

        known: set[str] = set()
        damaged: list[str] = []
        for key, data, checksum in self.db.execute(
                "SELECT key, CAST(data AS BLOB), sum FROM blobs WHERE key IN (SELECT value FROM json_each(?))",
                (json.dumps(sorted({e.blob for e in entries})),)):
            (known.add if type(data) is bytes and hashlib.sha256(data).hexdigest() == checksum
             else damaged.append)(key)
        self._drop_blobs(damaged)
        blobs, names, uses = [], [], []
        for e in entries:
            if e.blob in known:
                continue
            known.add(e.blob)
            blobs.append((e.blob, *_dump(e.term, {path: _placeholder(i) for i, path in enumerate(_term_files(e.term))})))
            names += [(e.blob, kind, name) for kind, name in _names(e.term)]
            uses += [(e.blob, pos, u.name, u.clause, u.via, u.user[0], u.user[1])
                     for pos, u in enumerate(u for us in uses_index([e.term]).values() for u in us)]
        self.db.executemany("INSERT INTO blobs VALUES(?, ?, ?)", blobs)
        self.db.executemany("INSERT INTO names VALUES(?, ?, ?)", names)
        self.db.executemany("INSERT INTO uses VALUES(?, ?, ?, ?, ?, ?, ?)", uses)

    def store_edited(self, root: Path | str, fp: Fingerprint, since: str, terms: Mapping[str, Term]) -> bool:
        """Record that the rulebook with this fingerprint passed ``build.check``, made from the one stored
        under ``since`` (an earlier fingerprint of the same folder) without the whole model; False if it
        could not be.

        ``terms`` maps each file that differs between the two (root-relative; only whole term files may)
        to the term it builds now. Everything else is as stored under ``since``: the rulebook without its
        terms (what differs is only term files, and a term file's edit that changes what its edition holds
        besides the term is not one an incremental check takes: rulebook_compiler/recheck.py), and the entries of
        the other terms, which are shared, not copied. The rows are what ``store`` writes for the same
        files (tests/test_recheck.py compares them)."""
        if not self.usable:
            return False
        if since == fp.key:
            return True
        try:
            return self._write(lambda: self._store_edited(Path(root), fp, since, terms))
        except CacheError:
            return False  # the rulebook before is gone or damaged, or another kind of file changed

    def _store_edited(self, root: Path, fp: Fingerprint, since: str, terms: Mapping[str, Term]) -> None:
        found = self.db.execute("SELECT id, skeleton, sum, sources, editions FROM books WHERE key=?",
                                (since,)).fetchone()
        if found is None:
            raise CacheError("no rulebook stored before")  # dropped as least recently used, say
        old_id, skeleton, checksum, sources, sums = found
        if type(skeleton) is not bytes or hashlib.sha256(skeleton).hexdigest() != checksum:
            raise CacheError("the rulebook before is damaged")
        sums = _string_map(sums)
        rows: dict[str, list[tuple]] = {edition: [] for edition in sums}
        for edition, *row in self.db.execute("SELECT edition, id, digest, file, blob FROM terms WHERE book=?",
                                             (old_id,)):
            if edition not in rows:
                raise CacheError("the term list before is damaged")
            rows[edition].append(tuple(row))
        if any(_terms_sum(held) != sums[edition] for edition, held in rows.items()):
            raise CacheError("the term list before is damaged")
        # the rows of the edited files' terms, made as store makes them; every other row is kept
        made: dict[str, _Entry] = {}
        for rel, term in terms.items():
            files, blob = _files_and_blob(root, fp, term)
            if files != json.dumps([rel]):
                raise CacheError(f"{rel} is not a whole term file")
            made[files] = _Entry(term.edition, term, files, blob)
        mentioned = tuple(json.dumps(rel) for rel in terms)
        new: dict[str, list[tuple]] = {}
        replaced = []
        for edition, held in rows.items():
            out = new[edition] = []
            for tid, digest, file, blob in held:
                entry = made.get(file)
                if entry is not None:
                    if entry.term.id != tid:
                        raise CacheError(f"{file} holds another term")
                    out.append((tid, entry.term.digest, file, entry.blob))
                    replaced.append((edition, *out[-1]))
                elif any(m in file for m in mentioned):  # a patch that keeps values from an edited file
                    raise CacheError(f"{file} depends on an edited file")
                else:
                    out.append((tid, digest, file, blob))
        self._store_terms(list(made.values()))
        self._drop_book(fp.key)
        cur = self.db.execute(
            "INSERT INTO books(key, skeleton, sum, sources, editions, used) VALUES(?,?,?,?,?,?)",
            (fp.key, skeleton, checksum, sources, json.dumps({e: _terms_sum(held) for e, held in new.items()}),
             time.time()))
        book_id = cur.lastrowid
        # the other rows copied within SQLite (a row each: O(terms), some milliseconds at 5,000, bench_recheck.py)
        self.db.execute("INSERT INTO terms SELECT ?, edition, id, digest, file, blob FROM terms "
                        "WHERE book=? AND file NOT IN (SELECT value FROM json_each(?))",
                        (book_id, old_id, json.dumps(sorted(made))))
        self.db.executemany("INSERT INTO terms VALUES(?, ?, ?, ?, ?, ?)", [(book_id, *row) for row in replaced])
        self._prune(collect=False)

    def _prune(self, collect: bool = True) -> None:
        """Drop the least recently used rulebooks beyond MAX_BOOKS; with ``collect``, the terms no rulebook uses.

        Finding those takes a pass over every term list, and dropping them one over every index row
        (0.3 s CPU at 5,000 terms): ``store_edited`` leaves them (a few superseded versions of edited
        terms, which nothing reads) to the next ``store``, which collects whatever is left.
        """
        old = [r[0] for r in self.db.execute("SELECT id FROM books ORDER BY used DESC LIMIT -1 OFFSET ?",
                                             (MAX_BOOKS,))]
        for book_id in old:
            self._drop_book_rows(book_id)
        if collect:
            self._drop_blobs([r[0] for r in self.db.execute(
                "SELECT key FROM blobs WHERE key NOT IN (SELECT blob FROM terms)")])

    def _drop_blobs(self, blobs: list[str]) -> None:
        if not blobs:
            return
        self.db.executemany("DELETE FROM blobs WHERE key=?", [(b,) for b in blobs])
        # One pass over the index rows (they have no index by term: it would slow every store).
        for table in ("names", "uses"):
            self.db.execute(f"DELETE FROM {table} WHERE blob NOT IN (SELECT key FROM blobs)")

    def _transaction(self):
        return _Transaction(self.db)


class _Transaction:
    def __init__(self, db: sqlite3.Connection):
        self.db = db

    def __enter__(self):
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type, exc, tb):
        if exc_type is None:
            self.db.execute("COMMIT")
        else:
            try:
                self.db.execute("ROLLBACK")
            except sqlite3.Error:
                pass  # SQLite rolled back already (a full disk does): the error that caused it is raised
        return False


def _string_list(text) -> list[str]:
    """A JSON list of strings from an index column; CacheError for anything else."""
    value = _json(text)
    if type(value) is not list or not all(type(v) is str for v in value):
        raise CacheError("a list of strings expected")
    return value


def _string_map(text) -> dict[str, str]:
    """A JSON object of strings from an index column; CacheError for anything else."""
    value = _json(text)
    if type(value) is not dict or not all(type(v) is str for v in value.values()):
        raise CacheError("an object of strings expected")
    return value


def _json(text):
    try:
        return json.loads(text)
    except (TypeError, ValueError, RecursionError) as exc:
        raise CacheError(f"unreadable index column: {exc}") from exc


def sources_present(root: Path, sources: Iterable[str]) -> bool:
    """Whether every source is a file inside the rulebook folder, as the build requires of a declared
    source (build._check_source); False for a name no file can have (a NUL in a forged entry)."""
    top = root.resolve()
    for source in sources:
        try:
            target = Path(os.path.realpath(root / source))  # as the build looks (build._check_source)
            if not target.is_relative_to(top) or not target.is_file():
                return False
        except OSError:  # a folder on the way cannot be searched: the build reports it
            return False
        except ValueError:  # a NUL in the name: a forged entry
            return False
    return True


def _meta_paths(root: Path, book: Rulebook) -> dict[str, str]:
    """Placeholders of the files the skeleton's locations name: rulebook.yaml, vocabulary.yaml and
    editions' _vocabulary.yaml (by their path in the rulebook, as ``_vocabulary_paths`` puts them back)."""
    paths: dict[str, str] = {}
    top = os.path.abspath(root)
    for edition in book.editions:
        paths[edition.loc.path] = "rulebook.yaml"
        for item in edition.vocabulary.facts + edition.vocabulary.constraints:
            if item.loc.path not in paths:
                rel = Path(os.path.relpath(os.path.abspath(item.loc.path), top)).as_posix()
                paths[item.loc.path] = rel if rel.endswith("/" + _overlay_file()) else "vocabulary.yaml"
    for correction in book.corrections:
        paths[correction.loc.path] = "corrections.yaml"
    return paths


def _vocabulary_paths(root: Path | str, fp: Fingerprint) -> dict[str, str]:
    """Placeholder -> shown path of the editions' _vocabulary.yaml files (see ``_meta_paths``)."""
    return {rel: shown_path(root, rel) for rel in fp.files if rel.endswith("/" + _overlay_file())}


def _overlay_file() -> str:
    from .vocabulary import OVERLAY_FILE

    return OVERLAY_FILE


@dataclass(frozen=True)
class _Entry:
    edition: str
    term: Term
    file: str  # a JSON list of the term's files, root-relative: its own, then those it keeps values from
    blob: str


def _term_files(term: Term) -> list[str]:
    """The files a term's locations name, as shown: its own first (a patched term's bases after)."""
    return [term.loc.path, *(b.path for b in term.bases)]


def _placeholder(i: int) -> str:
    return "T" if i == 0 else f"T{i}"


def _term_entries(root: Path, fp: Fingerprint, book: Rulebook) -> list[_Entry]:
    out = []
    seen: dict[str, tuple[str, str]] = {}  # shown path -> (files, blob): a term kept by later editions
    for edition in book.editions:
        for term in edition.terms:
            shown = term.loc.path
            if shown not in seen:
                seen[shown] = _files_and_blob(root, fp, term)
            files, blob = seen[shown]
            out.append(_Entry(edition.id, term, files, blob))
    return out


def _files_and_blob(root: Path, fp: Fingerprint, term: Term) -> tuple[str, str]:
    """The JSON list of a term's files (root-relative: its own, then those it keeps values from) and the
    key of its entry; CacheError when one of them was not hashed."""
    top = os.path.abspath(root)
    rels, shas = [], []
    for path in _term_files(term):
        rel = Path(os.path.relpath(os.path.abspath(path), top)).as_posix()
        sha = fp.files.get(rel)
        if sha is None or shown_path(root, rel) != path:
            raise CacheError(f"term file {path} is not among the hashed files")
        rels.append(rel)
        shas.append(sha)
    # A patched term is what all its files make it: any of them changed, another entry.
    key = f"{compiler_key()}|{term.edition}|{'|'.join(shas)}"
    return json.dumps(rels), hashlib.sha256(key.encode()).hexdigest()


def _terms_sum(rows: Iterable[tuple]) -> str:
    h = hashlib.sha256()
    for row in sorted(rows):
        h.update("\0".join(row).encode() + b"\n")
    return h.hexdigest()


def _names(term: Term) -> list[tuple[str, str]]:
    found: dict[tuple[str, str], None] = {}
    for d in term.decisions:
        found[("declares", d.name)] = None
    for section in term.sections:
        for clause in section.clauses:
            if clause.defines:
                found[("defines", clause.defines.name)] = None
            for rule in clause.rules:
                found[("rules", rule.decision)] = None
    return list(found)


class CachedBook:
    """A rulebook known to pass check: its editions and vocabulary now, its terms when asked."""

    def __init__(self, cache: Cache, book_id: int, root: Path, book: Rulebook, sums: dict):
        self.cache = cache
        self.id = book_id
        self.root = root
        self.book = book  # editions without their terms
        self.sums = sums
        self._terms: dict[str, Term] = {}

    def term_rows(self, edition: str) -> list[tuple[str, str, str, str]]:
        """(id, digest, file, blob) of every term of the edition, checked against their stored sum."""
        rows = self.query("SELECT id, digest, file, blob FROM terms WHERE book=? AND edition=?", (self.id, edition))
        if not all(type(v) is str for row in rows for v in row) or _terms_sum(rows) != self.sums.get(edition):
            self.cache.forget_book(self.id)
            raise CacheError(f"the term list of edition {edition} is damaged")
        return rows

    def load_term(self, file: str, blob: str) -> Term:
        """One term's model, its locations naming its files as seen from here (``file``: their JSON list)."""
        if blob not in self._terms:
            rows = self.query("SELECT CAST(data AS BLOB), sum FROM blobs WHERE key=?", (blob,))
            row = rows[0] if rows else None
            try:
                if row is None:
                    raise CacheError(f"term entry {blob[:12]} is missing")
                paths = {_placeholder(i): shown_path(self.root, rel) for i, rel in enumerate(_string_list(file))}
                from .model import Term

                term = _load(Term, row[0], row[1], paths)
            except CacheError:
                self.cache.forget_blob(blob)  # with this rulebook, which uses it
                raise
            self._terms[blob] = term
        return self._terms[blob]

    def query(self, sql: str, args: tuple) -> list[tuple]:
        """Rows of the cache's index; CacheError when the database fails."""
        try:
            return self.cache.db.execute(sql, args).fetchall()
        except sqlite3.Error as exc:
            self.cache.fail(exc)  # the database, not the entry: nothing is dropped
            raise CacheError(str(exc)) from exc
