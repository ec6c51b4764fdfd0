"""Atomic writes: a failed run leaves the previous output as it was."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path


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
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as exc:
        raise _output(path, exc) from None
    try:
        # mkstemp makes the file private; give it what a plain open() would have
        os.chmod(tmp, 0o666 & ~_umask())
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException as exc:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(exc, OSError):
            raise _output(path, exc) from None
        raise


def replace_dir(staging: Path, target: Path) -> None:
    """Put a fully written ``staging`` folder in place of ``target``.

    The old folder is moved aside first and removed only once the new one
    stands in its place, so at every moment one complete version exists.
    """
    target = Path(target)
    old = None
    try:
        if target.exists():
            old = target.with_name(f".{target.name}.old")
            if old.exists():
                shutil.rmtree(old)
            os.replace(target, old)
        os.replace(staging, target)
    except OSError as exc:
        raise _output(target, exc) from None
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def staging_dir(target: Path) -> Path:
    """A fresh folder beside ``target`` to build into."""
    target = Path(target)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp"))
    except OSError as exc:
        raise _output(target, exc) from None
    os.chmod(staging, 0o777 & ~_umask())  # mkdtemp makes it private; a served site must be readable
    return staging
