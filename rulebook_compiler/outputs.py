"""Where a command may write its ``--out``: never over, into or around an input.

Shared by ``build``, ``export`` and ``conformance generate``. A path that
overlaps an input (the rulebook folder, which holds its sources; the site's
configuration and templates), is or contains the root of the current git work
tree, or is a folder of other files, is a usage error (exit 2) before anything
is written. A folder output is marked with a small ``.rulebook-output`` file
naming the command (as Sphinx marks its output with ``.buildinfo``), so that the
next run of the same command may replace it and no other command may.

Paths are compared as real paths: a symlink leads where it points.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator

import click

from .diagnostics import printable
from .fileio import (OutputError, old_dir, output_lock, recover_swap, remove_stale_staging,
                     remove_stale_temporaries, replace_dir, staging_dir, write_text)

MARKER = ".rulebook-output"
OVERLAP = "an output may not overlap an input, choose another path"
_MARKER_BYTES = 4096  # a marker is one short line; a larger file is not ours


@dataclass(frozen=True)
class Input:
    """Something a command reads: ``label`` says what it is, ``path`` is shown as the user gave it."""

    label: str
    path: Path


def rulebook_input(root: Path) -> Input:
    """The rulebook folder; the check keeps its sources (and every file it reads) inside it."""
    return Input("the rulebook folder", Path(root))


def _real(path: Path | str) -> Path:
    return Path(os.path.realpath(path))


def _refuse(message: str, option: str) -> click.BadParameter:
    # paths may come from a repository's mkdocs.yml (site_dir): escaped for the terminal
    return click.BadParameter(printable(message), param_hint=f"'{option}'")


def git_work_tree(start: Path | None = None) -> Path | None:
    """The root of the git work tree holding ``start`` (the current folder): the nearest folder with a ``.git``."""
    here = _real(start or Path.cwd())
    for folder in (here, *here.parents):
        if os.path.lexists(folder / ".git"):
            return folder
    return None


def _overlap(out: Path, real: Path, inputs: Iterable[Input], folder: bool) -> str | None:
    """Why ``out`` (really ``real``) overlaps an input, or None."""
    for given in inputs:
        other = _real(given.path)
        if real == other:
            return f"'{out}' is {given.label} '{given.path}'"
        if real.is_relative_to(other):
            return f"'{out}' is inside {given.label} '{given.path}'"
        if folder and other.is_relative_to(real):
            return f"'{out}' contains {given.label} '{given.path}'"
    tree = git_work_tree()
    if tree is not None and real == tree:
        return f"'{out}' is the root of the git work tree '{tree}'"
    if tree is not None and folder and tree.is_relative_to(real):
        return f"'{out}' contains the git work tree '{tree}'"
    return None


def output_of(folder: Path) -> str | None:
    """The command whose output ``folder`` is, from its marker; None without a readable one."""
    try:
        with open(Path(folder) / MARKER, "rb") as fh:
            data = json.loads(fh.read(_MARKER_BYTES))
    except (OSError, ValueError):
        return None
    command = data.get("command") if isinstance(data, dict) else None
    # Read back from disk and printed in messages: only a command's plain name passes.
    return command if isinstance(command, str) and re.fullmatch(r"rulebook [a-z ]+", command) else None


def marker_text(command: str) -> str:
    return json.dumps({"command": command}) + "\n"


def check_folder(out: Path, command: str, inputs: Iterable[Input], option: str = "--out") -> Path:
    """The real path of the folder ``out``, or a usage error saying why ``command`` may not write there."""
    real = _real(out)
    why = _overlap(out, real, inputs, folder=True)
    if why:
        raise _refuse(f"{why}; {OVERLAP}", option)
    if real.exists() and not real.is_dir():
        raise _refuse(f"'{out}' is a file, not a folder", option)
    try:
        empty = not real.exists() or next(os.scandir(real), None) is None
    except OSError as exc:
        raise OutputError(out, exc.strerror or str(exc)) from None
    owner = None if empty else output_of(real)
    if not empty and owner != command:
        if owner is not None:
            raise _refuse(f"'{out}' holds the output of '{owner}', not of '{command}'; choose another folder", option)
        raise _refuse(f"'{out}' is not empty and holds no output of '{command}' (no {MARKER} file); "
                      "choose a new or empty folder, or empty this one", option)
    return real


def check_file(out: Path, inputs: Iterable[Input], option: str = "--out") -> Path:
    """The real path of the file ``out``, or a usage error saying why it may not be written."""
    real = _real(out)
    if real.is_dir():
        raise _refuse(f"'{out}' is a folder, not a file", option)
    if real.exists() and not real.is_file():  # a rename would put a file where the node was
        raise _refuse(f"'{out}' is not a regular file (a pipe or a device); "
                      f"leave out {option} to write to standard output", option)
    why = _overlap(out, real, inputs, folder=False)
    if why:
        raise _refuse(f"{why}; {OVERLAP}", option)
    return real


def output_file(out: Path, inputs: Iterable[Input], option: str = "--out") -> Path:
    """:func:`check_file`, then remove the temporary files that killed runs writing ``out`` left beside it."""
    real = check_file(out, inputs, option)
    remove_stale_temporaries(real.parent, real.name)
    return real


@contextmanager
def output_folder(out: Path, command: str, inputs: Iterable[Input], option: str = "--out") -> Iterator[Path]:
    """Write files into the folder ``out``: checked, locked and marked as ``command``'s output.

    For outputs that share their folder with the user's own files (a
    conformance suite beside an engine's conftest.py): each file is written
    atomically in place; nothing else in the folder is touched but the
    temporary files of killed runs (:func:`rulebook_compiler.fileio.write_text`'s).
    """
    real = check_folder(out, command, inputs, option)
    try:
        with output_lock(real, command):
            remove_stale_temporaries(real)
            # Marked first: a run that fails halfway leaves a folder the next run may write again.
            write_text(real / MARKER, marker_text(command))
            yield real
    except OutputError as exc:
        if exc.path != str(real):
            raise  # about one file in the folder, named as the body gave it
        raise OutputError(out, exc.reason) from None


@contextmanager
def staged_folder(out: Path, command: str, inputs: Iterable[Input], option: str = "--out") -> Iterator[Path]:
    """Build a whole folder in a staging folder and swap it in for ``out`` once the body ends.

    Checked (nor may ``out`` hold the current folder) and locked first; a
    killed earlier run is cleaned up (its staging folder removed, a half-done
    swap finished). If the body, the marker or the swap fails in any way (an
    OSError such as a full disk becomes one OutputError), the staging folder
    goes and ``out`` stays as it was.
    """
    real = check_folder(out, command, inputs, option)
    here = _real(Path.cwd())
    if here.is_relative_to(real):  # the shell that ran the build would be left in a removed folder
        how = "is" if here == real else "contains"
        raise _refuse(f"'{out}' {how} the current folder, which a build replaces whole; choose another path", option)
    try:
        with output_lock(real, command):
            _recover(out, real, command)
            remove_stale_staging(real, command)
            staging = staging_dir(real, command)
            try:
                yield staging
                write_text(staging / MARKER, marker_text(command))
                replace_dir(staging, real)
            except BaseException as exc:
                shutil.rmtree(staging, ignore_errors=True)
                if isinstance(exc, (OSError, OutputError)):
                    reason = exc.reason if isinstance(exc, OutputError) else _reason(exc, staging)
                    raise OutputError(out, f"{reason}; '{out}' is unchanged") from None
                raise
    except OutputError as exc:
        raise OutputError(out, exc.reason) from None


def _recover(out: Path, real: Path, command: str) -> None:
    old = old_dir(real)
    if os.path.lexists(old) and output_of(old) != command:
        raise OutputError(out, f"'{old}' is in the way and holds no output of '{command}'; remove it")
    recover_swap(real)


def _reason(exc: OSError, staging: Path) -> str:
    """The error's words, and the file it names unless that is in the staging folder (a name the user never gave)."""
    reason = exc.strerror or str(exc)
    name = exc.filename
    if name and not _real(name).is_relative_to(_real(staging)):
        reason += f": '{name}'"
    return reason
