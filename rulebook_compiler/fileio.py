"""Atomic writes: a failed run leaves the previous output as it was.

A folder is written into a staging folder beside it, named for the command
and its process id (``.site.build-1234.tmp``), then swapped in with two
renames (the old folder goes to ``.site.old`` first). A run that is killed
leaves at most that staging folder, which the next run removes once its
process is gone, or the ``.old`` folder, which the next run puts back or
removes (:func:`recover_swap`). Runs writing the same folder take a lock
(:func:`output_lock`) first, so that all this happens one run at a time.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator


class OutputError(Exception):
    """An output could not be written; the command reports it and exits 1."""

    def __init__(self, path: Path | str, reason: str):
        self.path, self.reason = str(path), reason
        super().__init__(f"cannot write '{path}': {reason}")


def _output(path: Path | str, exc: OSError) -> OutputError:
    return OutputError(path, exc.strerror or str(exc))


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_text(path: Path | str, text: str) -> None:
    """Write a file through a temporary sibling and an atomic rename."""
    if not isinstance(text, str):  # before anything is made: a write that cannot be leaves nothing behind
        raise TypeError(f"write_text writes a str, not {type(text).__name__}")
    write_bytes(path, text.encode("utf-8"))


def write_bytes(path: Path | str, data: bytes) -> None:
    """Write a file's bytes through a temporary sibling and an atomic rename."""
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        # Named for this process, so that a later run can tell a dead one's leftovers (remove_stale_temporaries).
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.{os.getpid()}-", suffix=".tmp")
    except OSError as exc:
        raise _output(path, exc) from None
    try:
        # mkstemp makes the file private; give it what a plain open() would have
        os.chmod(tmp, 0o666 & ~_umask())
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except BaseException as exc:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(exc, OSError):
            raise _output(path, exc) from None
        raise


def replace_dir(staging: Path, target: Path) -> None:
    """Put a fully written ``staging`` folder in place of ``target``.

    The old folder is moved aside first and removed only once the new one
    stands in its place, so at every moment one complete version exists
    (under one of two names: :func:`recover_swap` undoes a run killed between).
    """
    target = Path(target)
    old = None
    try:
        if os.path.lexists(target):
            old = old_dir(target)
            _remove(old)
            os.replace(target, old)
        try:
            os.replace(staging, target)
        except OSError:
            if old is not None:
                os.replace(old, target)
            raise
    except OSError as exc:
        raise _output(target, exc) from None
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def old_dir(target: Path) -> Path:
    """Where :func:`replace_dir` puts the previous folder while it swaps."""
    target = Path(target)
    return target.with_name(f".{target.name}.old")


def recover_swap(target: Path) -> None:
    """Finish the swap of a run killed between or after its two renames.

    With ``target`` missing, the old folder is all there is: it goes back.
    With both there, the new folder stood in place: the old one goes.
    The caller holds the lock and has made sure the old folder is its own.
    """
    target, old = Path(target), old_dir(target)
    try:
        if not os.path.lexists(old):
            return
        if os.path.lexists(target):
            _remove(old)
        else:
            os.replace(old, target)
    except OSError as exc:
        raise _output(target, exc) from None


def _slug(command: str) -> str:
    """'rulebook conformance generate' -> 'conformance-generate', for file names."""
    return re.sub(r"[^a-z0-9]+", "-", command.removeprefix("rulebook ").lower()).strip("-")


def staging_dir(target: Path, command: str = "rulebook build") -> Path:
    """A fresh folder beside ``target`` to build into, named for the command and this process."""
    target = Path(target)
    staging = target.with_name(f".{target.name}.{_slug(command)}-{os.getpid()}.tmp")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        _remove(staging)  # left by a dead process that had the same id
        staging.mkdir()  # mode 0o777 less the umask: a served site must be readable
    except OSError as exc:
        raise _output(target, exc) from None
    return staging


def remove_stale_staging(target: Path, command: str = "rulebook build") -> None:
    """Remove the staging folders that killed runs of ``command`` left beside ``target``.

    Only those whose process is gone: a live process may still be writing its own.
    """
    target = Path(target)
    name = re.compile(rf"\.{re.escape(target.name)}\.{re.escape(_slug(command))}-(\d+)\.tmp")
    try:
        entries = list(os.scandir(target.parent))
    except OSError:
        return  # no folder yet, so nothing left in it
    for entry in entries:
        match = name.fullmatch(entry.name)
        if match and not _alive(int(match[1])):
            shutil.rmtree(entry.path, ignore_errors=True)


def remove_stale_temporaries(folder: Path, of: str | None = None) -> None:
    """Remove the temporary files that :func:`write_text` left in ``folder`` (for the file ``of``, or any)
    in processes now gone."""
    name = re.compile(rf"\.{re.escape(of) if of else '.+'}\.(\d+)-[A-Za-z0-9_]+\.tmp")
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        match = name.fullmatch(entry.name)
        if match and entry.is_file(follow_symlinks=False) and not _alive(int(match[1])):
            Path(entry.path).unlink(missing_ok=True)


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process
    except (OverflowError, ValueError):
        return False  # no process has such an id
    return True


def _remove(path: Path) -> None:
    """Remove a file, link or folder tree if there is one."""
    if os.path.isdir(path) and not os.path.islink(path):
        shutil.rmtree(path)
    elif os.path.lexists(path):
        os.unlink(path)


@contextmanager
def output_lock(target: Path | str, command: str) -> Iterator[None]:
    """Hold the lock of ``target`` (``.NAME.lock`` beside it) or raise an OutputError naming its holder.

    A second run fails at once rather than waiting: a build that hangs would
    otherwise hang every later one without a word. The lock file names its
    holder and is removed on release; a run that finds a removed file under
    its lock takes the one now at the path (that is how flock locks are shared).
    """
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX: no lock
        yield
        return
    target = Path(target)
    lock = target.with_name(f".{target.name}.lock")
    while True:
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o666)
        except OSError as exc:
            raise _output(target, exc) from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = _holder(fd)
            os.close(fd)
            raise OutputError(target, f"{holder} is writing it; wait for it to end, or stop it") from None
        if _same_file(fd, lock):
            break
        os.close(fd)
    try:
        try:
            os.ftruncate(fd, 0)
            os.write(fd, f"{os.getpid()} {command}\n".encode())
        except OSError:
            pass  # the name of the holder is a courtesy; a full disk must not stop the run
        yield
    finally:
        lock.unlink(missing_ok=True)
        os.close(fd)


def _same_file(fd: int, path: Path) -> bool:
    try:
        here, there = os.fstat(fd), os.stat(path)
    except OSError:
        return False
    return (here.st_dev, here.st_ino) == (there.st_dev, there.st_ino)


def _holder(fd: int) -> str:
    """'process 1234 (rulebook build)' from a lock file; it is read back, so only digits and words pass."""
    try:
        text = os.pread(fd, 200, 0).decode("ascii")
    except (OSError, UnicodeDecodeError):
        text = ""
    match = re.fullmatch(r"(\d+) (rulebook [a-z ]+)\n", text)
    return f"process {match[1]} ({match[2]})" if match else "another process"
