"""The two sides of a diff: an edition id, a rulebook folder, or ``git:REV[:EDITION]``.

A git side is read from the repository's object store (``git ls-tree`` and
``git cat-file``) into a temporary folder, byte for byte as committed; the work
tree and the index are never touched. Paths in that side's problems are shown
as git shows them, ``REV:path``.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from ..diagnostics import Diagnostic, Location, did_you_mean
from ..model import Edition, Rulebook
from .result import SideInfo, side_info
from .source import EditionSource, FullSource

if TYPE_CHECKING:
    from ..cache import CachedBook


class SideError(Exception):
    """A side could not be resolved: a one-line message, or that side's check problems."""

    def __init__(self, message: str, problems: list[Diagnostic] | None = None):
        super().__init__(message)
        self.message = message
        self.problems = problems or []


@dataclass(frozen=True)
class Side:
    """One resolved side: what the user named, the rulebook and the edition."""

    spec: str
    kind: str  # edition | folder | git
    book: Rulebook = field(repr=False)
    edition: Edition = field(repr=False)
    revision: str | None = None  # the commit, for git sides
    base: str = ""  # how source paths are shown (a repo-relative folder for git sides)
    cached: CachedBook | None = field(default=None, repr=False, compare=False)  # a cache.CachedBook when read from the cache
    # What ``rulebook check`` finds wrong with the published record of a whole-rulebook side (the lock and
    # the log: ``lock.problems``), named as a reviewer finds the files; an edition side has none: it is refused.
    problems: tuple[Diagnostic, ...] = field(default=(), repr=False, compare=False)

    @property
    def source(self) -> EditionSource:
        """What the diff reads: the whole edition, or the cache's entry of it."""
        if self.cached is None:
            return FullSource(self.edition)
        from .cached import CachedSource

        return CachedSource(self.cached, self.edition)

    def info(self) -> SideInfo:
        """The side as the diff describes it (``DiffResult.old`` / ``new``)."""
        return side_info(self.edition, self.spec, self.kind, self.revision)

    def as_json(self) -> dict:
        return self.info().as_json()

    @property
    def label(self) -> str:
        if self.kind == "edition":
            return self.edition.id
        return f"{self.spec} ({self.edition.id})" if not self.spec.endswith(":" + self.edition.id) else self.spec


class Resolver:
    """Resolves side specs against a default rulebook folder; keeps what it loads.

    With a ``cache`` (``rulebook_compiler.cache.Cache``), a rulebook whose files are those
    of an entry that passed check is not loaded: its sides read the entry. One
    that is not there is loaded and checked in full, and stored when it passes.
    Passing includes the lock (``build.check``): a published edition that differs
    from ``rulebook.lock`` fails its side, and the fingerprint covers the lock, so an
    entry stored under one lock never serves the files under another.
    """

    def __init__(self, default_root: Path, cache=None):
        self.default_root = Path(default_root)
        self.cache = cache
        self._books: dict[str, _Loaded] = {}
        self._temps: list[tempfile.TemporaryDirectory] = []

    def close(self) -> None:
        for temp in self._temps:
            temp.cleanup()
        self._temps.clear()

    def __enter__(self) -> "Resolver":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- the three kinds ---------------------------------------------------------

    def resolve(self, spec: str) -> Side:
        if spec.startswith("git:"):
            return self._git(spec)
        default = self._default_book_if_any()
        if default is not None and spec in default.book.edition_by_id:
            default.refuse()
            return Side(spec, "edition", default.book, default.book.edition_by_id[spec], cached=default.cached)
        path = Path(spec)
        if _is(path.is_dir):
            loaded = self._load(path, spec)
            return Side(spec, "folder", loaded.book, loaded.book.latest, cached=loaded.cached,
                        problems=loaded.problems)
        if default is None:
            raise SideError(f"unknown edition, revision or folder '{spec}'; no rulebook in "
                            f"'{self.default_root}' to take editions from; name a rulebook folder or git:REV[:EDITION]")
        hint = did_you_mean(spec, [e.id for e in default.book.editions])
        raise SideError(f"unknown edition, revision or folder '{spec}'"
                        + (f" ({hint})" if hint else "")
                        + f"; editions: {', '.join(e.id for e in default.book.editions)}; "
                        "or name a rulebook folder, or git:REV[:EDITION]")

    def _default_book_if_any(self) -> "_Loaded | None":
        if not _is((self.default_root / "rulebook.yaml").is_file):
            return None
        return self._load(self.default_root, str(self.default_root))

    def _load(self, root: Path, shown: str, rename=None) -> "_Loaded":
        """The rulebook, its cache entry (None when loaded whole) and its published record's problems
        (the lock and the log, which check reports); SideError if it fails check otherwise.

        The record's problems do not stop the load: a whole-rulebook diff is how a reviewer sees what
        such a revision changed, so it shows them first and fails (rulebook_compiler.diff.whole); a side that
        names an edition refuses them (``_Loaded.refuse``), as every other command does.
        """
        from ..build import check
        from ..lock import problems as record_problems

        key = str(Path(root).resolve())
        if key not in self._books:
            fp = self._fingerprint(root)
            cached = self.cache.lookup(root, fp) if fp is not None else None
            if cached is not None:  # stored only when it passed check, the lock included
                self._books[key] = _Loaded(cached.book, cached, (), shown)
                return self._books[key]
            book, problems = check(root, locked=False)
            if book is None:
                if rename is not None:
                    problems = [rename(p) for p in problems]
                raise SideError(f"'{shown}' does not pass rulebook check", problems)
            found = record_problems(book)
            if not found and fp is not None and self._fingerprint(root) == fp:  # unchanged while it was read
                self.cache.store(root, fp, book)
            self._books[key] = _Loaded(book, None, tuple(rename(p) for p in found) if rename else tuple(found),
                                       shown)
        return self._books[key]

    def _fingerprint(self, root: Path):
        """The rulebook's fingerprint when the cache may be used for it."""
        from ..cache import fingerprint

        if self.cache is None:
            return None
        top = Path(root).resolve()
        if self.cache.folder.resolve().is_relative_to(top):
            return None  # a cache inside the sources would change what it describes
        return fingerprint(root)

    # -- git ---------------------------------------------------------------------------

    def _git(self, spec: str) -> Side:
        rest = spec[len("git:"):]
        rev, edition_id = (rest.rsplit(":", 1) + [None])[:2] if ":" in rest else (rest, None)
        if not rev:
            raise SideError(f"'{spec}' names no revision; write git:REV or git:REV:EDITION")
        top, commit, rel = self._revision(spec, rev)
        folder = self._checkout(top, commit, rel, spec, rev)
        loaded = self._load(folder, spec, _renamer(os.path.relpath(folder), f"{rev}:{rel + '/' if rel else ''}"))
        book, cached = loaded.book, loaded.cached
        if edition_id is not None:
            loaded.refuse()
        edition = book.latest if edition_id is None else _edition_at(book, edition_id, rev)
        return Side(spec, "git", book, edition, commit, base=f"{rel}/" if rel else "", cached=cached,
                    problems=loaded.problems if edition_id is None else ())

    def _revision(self, spec: str, rev: str) -> tuple[str, str, str]:
        """The repository's top folder, the commit ``rev`` names, and the rulebook folder's path in it
        ("" at the top, with "/" between folders)."""
        root = self.default_root.resolve()
        top = _git_out(["rev-parse", "--show-toplevel"], root)
        if top is None:
            raise SideError(f"'{spec}': '{self.default_root}' is not inside a git repository")
        commit = _git_out(["rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"], root)
        if commit is None:
            raise SideError(f"unknown revision '{rev}'; {_known_refs(root)}")
        rel = os.path.relpath(root, top)
        return top, commit, "" if rel == "." else rel.replace(os.sep, "/")

    def _checkout(self, top: str, commit: str, rel: str, spec: str, rev: str) -> Path:
        """The rulebook folder as committed, written into a temporary folder that lasts as the resolver."""
        temp = tempfile.TemporaryDirectory(prefix="rulebook-diff-")
        self._temps.append(temp)
        if not _read_tree(top, commit, rel, temp.name, spec, rev):
            raise SideError(f"revision '{rev}' has no rulebook folder '{rel or '.'}'")
        folder = Path(temp.name) / rel if rel else Path(temp.name)
        if not (folder / "rulebook.yaml").is_file():
            raise SideError(f"revision '{rev}' has no rulebook.yaml in '{rel or '.'}'")
        return folder


def _renamer(shown_tmp: str, shown_as: str) -> Callable[[Diagnostic], Diagnostic]:
    """A problem's place in the temporary folder ``shown_tmp`` named as in the revision (``shown_as``)."""
    def rename(p: Diagnostic) -> Diagnostic:
        path = p.location.path
        if path == shown_tmp or path.startswith(shown_tmp + os.sep):
            path = shown_as + path[len(shown_tmp):].lstrip(os.sep).replace(os.sep, "/")
        return Diagnostic(Location(path, p.location.line, p.location.col), p.message, p.hint,
                          p.severity, p.code)
    return rename


def _edition_at(book: Rulebook, edition_id: str, rev: str) -> Edition:
    if edition_id not in book.edition_by_id:
        raise SideError(f"revision '{rev}' has no edition '{edition_id}'; editions: "
                        + ", ".join(e.id for e in book.editions))
    return book.edition_by_id[edition_id]


@dataclass(frozen=True)
class _Loaded:
    """A rulebook as a side reads it: the model, its cache entry, and its published record's problems."""

    book: Rulebook
    cached: CachedBook | None
    problems: tuple[Diagnostic, ...]
    shown: str

    def refuse(self) -> None:
        """A side that names an edition reads no rulebook that fails its lock or its log (issue 21.3)."""
        if self.problems:
            raise SideError(f"'{self.shown}' does not pass rulebook check", list(self.problems))


LINK_HINT = "commit the file or folder itself in place of the link"


def _read_tree(top: str, commit: str, rel: str, into: str, spec: str, rev: str) -> bool:
    """Write the files committed under ``rel`` at ``commit`` into ``into``; False if there are none.

    Not ``git archive``: it obeys the ``.gitattributes`` of the tree it archives,
    so a revision could hide one of its files (``export-ignore``: the edition then
    inherits the term as it was) or rewrite its text (``export-subst``, ``eol``)
    and the diff would show other content than the revision commits. Here each
    file is its blob, byte for byte, streamed to disk (a large committed file
    costs no memory). Only folders and regular files are read: every link is
    refused, wherever it points (a link inside the rulebook is checked out as a
    plain file holding its target where git does not make links,
    ``core.symlinks=false`` as on Windows, so its meaning would depend on the
    reviewer's machine; one pointing outside would read files that are not the
    revision's), as is a path that would leave the folder; each is a located
    problem, all at once. Submodules are not part of the revision's own files.
    """
    pathspec = [rel] if rel else []
    listing = _git_bytes(["--literal-pathspecs", "ls-tree", "-r", "-z", commit, "--", *pathspec], top)
    if not listing:
        return False
    entries = []  # (mode, object id, path)
    for record in listing.split(b"\0"):
        if record:
            meta, _, raw_name = record.partition(b"\t")
            mode, kind, oid = meta.decode().split(" ")
            if kind == "blob":
                entries.append((mode, oid, os.fsdecode(raw_name)))
    with _Blobs(top) as blobs:
        problems = []
        for mode, oid, name in entries:
            if mode == "120000":
                target = bytearray()
                blobs.copy(oid, lambda chunk: target.extend(chunk[:max(0, _LINK_SHOWN - len(target))]))
                problems.append(Diagnostic(Location(f"{rev}:{name}"),
                                           f"a symbolic link (to {os.fsdecode(bytes(target))!r}); "
                                           "a git: side reads no links", LINK_HINT, code="git-link"))
            elif any(part in ("", ".", "..") for part in name.split("/")):  # only a forged tree holds these
                problems.append(Diagnostic(Location(f"{rev}:{name}"), "a path that leaves the rulebook folder",
                                           code="git-path"))
        if problems:
            raise SideError(f"'{spec}' cannot be read", sorted(problems, key=lambda p: p.location.path))
        for _, oid, name in entries:
            path = Path(into, *name.split("/"))
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                with open(path, "wb") as fh:
                    blobs.copy(oid, fh.write)
            except OSError as exc:  # a full disk: one located line, not a traceback
                raise SideError(f"'{spec}' cannot be read", [Diagnostic(
                    Location(f"{rev}:{name}"),
                    f"cannot be copied to the temporary folder {tempfile.gettempdir()}: {exc.strerror or exc}",
                    "make room there, or set TMPDIR to a folder with room", code="git-copy")]) from None
    return True


_LINK_SHOWN = 4096  # bytes of a link's target kept for its message
_CHUNK = 1 << 20


class _Blobs:
    """One ``git cat-file --batch`` process; each blob is copied out in chunks as it is asked for."""

    def __init__(self, cwd: str):
        try:
            self.proc = subprocess.Popen(["git", "cat-file", "--batch"], cwd=cwd, stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        except FileNotFoundError:
            raise SideError("git is not installed; git: sides need it") from None
        stdin, stdout = self.proc.stdin, self.proc.stdout
        assert stdin is not None and stdout is not None  # both are pipes
        self.stdin, self.stdout = stdin, stdout

    def __enter__(self) -> "_Blobs":
        return self

    def __exit__(self, *exc) -> None:
        self.stdin.close()
        self.proc.kill()
        self.proc.wait()
        self.stdout.close()

    def copy(self, oid: str, write) -> None:
        """Pass the blob's bytes to ``write``, a chunk at a time."""
        self.stdin.write(f"{oid}\n".encode())
        self.stdin.flush()
        header = self.stdout.readline().split()  # "<oid> blob <size>", the content, then a newline
        if len(header) != 3 or header[1] != b"blob":
            raise SideError(f"git cat-file cannot read object {oid}")
        left = int(header[2])
        while left:
            chunk = self.stdout.read(min(left, _CHUNK))
            if not chunk:
                raise SideError(f"git cat-file ended inside object {oid}")
            write(chunk)
            left -= len(chunk)
        self.stdout.read(1)


def _git_bytes(args: list[str], cwd: str) -> bytes:
    """What ``git ARGS`` writes, as bytes; empty when it fails."""
    try:
        done = subprocess.run(["git", *args], cwd=cwd, capture_output=True)
    except FileNotFoundError:
        raise SideError("git is not installed; git: sides need it") from None
    return done.stdout if done.returncode == 0 else b""


def _is(test) -> bool:
    """``test()``, or True when it cannot be told (a folder that cannot be searched): the load that
    follows then reports why, as ``check`` does, instead of the side being taken for something else."""
    try:
        return test()
    except OSError:
        return True


def _git_out(args: list[str], cwd: Path) -> str | None:
    try:
        done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True)
    except FileNotFoundError:
        raise SideError("git is not installed; git: sides need it") from None
    return done.stdout.strip() if done.returncode == 0 else None


def _known_refs(cwd: Path) -> str:
    branches = (_git_out(["for-each-ref", "--format=%(refname:short)", "refs/heads"], cwd) or "").split()
    tags = (_git_out(["for-each-ref", "--format=%(refname:short)", "refs/tags"], cwd) or "").split()
    text = "branches: " + (", ".join(branches) or "none")
    if tags:
        text += "; tags: " + ", ".join(tags)
    return text + "; or any commit (HEAD, HEAD~1, a hash)"


def source_path(side: Side, loc: Location) -> str:
    """A clause's file as a reviewer finds it: repo-relative for git sides."""
    if side.kind != "git":
        return loc.path.replace(os.sep, "/")
    root = Path(side.book.root)
    shown_root = os.path.relpath(root)
    path = loc.path
    if path.startswith(shown_root + os.sep):
        path = path[len(shown_root) + 1:]
    return side.base + path.replace(os.sep, "/")
