"""The fuzzer's harness: run every command on a rulebook in-process and say what went wrong.

The property (issue 8): no traceback, no hang, no exit status outside 0/1, and the
sources are the same bytes afterwards; whatever `check` accepts, export, diff (every
format, between editions and against the seed), history of every term, the
changelog of every edition but the first and conformance generate complete with status 0, and so does the site build.

Commands run through click's CliRunner (about a hundred times faster than a
subprocess); CliRunner turns an uncaught exception into ``result.exception``, which
counts as a traceback here. Each call is bounded by SIGALRM: ``Hang`` derives from
BaseException so that neither CliRunner nor the code under test swallows it.
"""

from __future__ import annotations

import json
import os
import re
import signal
import traceback
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from click.testing import CliRunner

FORMATS = ("text", "markdown", "json", "html")
SECONDS = 60  # per command; the slowest accepted example of the CI profile takes well under 1 s
BUILD_SECONDS = 180


# What a terminal must never receive from rule text or file names: an escape sequence
# could rewrite the screen (text output has tabs and line breaks only).
TERMINAL_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


class Hang(BaseException):
    """A command ran longer than its bound."""


@dataclass(frozen=True)
class Call:
    args: tuple[str, ...]
    exit_code: int
    stdout: str
    stderr: str
    traceback: str | None  # the uncaught exception, formatted, or a "hang" note

    def shown(self) -> str:
        """The command, its status, the end of its stderr and of its traceback."""
        tail = "\n".join(self.traceback.strip().splitlines()[-6:]) if self.traceback else ""
        text = (f"$ rulebook {' '.join(self.args)}\nexit {self.exit_code}\n--- stderr\n{self.stderr[-2000:]}"
                + (f"--- traceback (end)\n{tail}" if tail else ""))
        return re.sub("[\x00-\x08\x0b-\x1f\x7f-\x9f]", lambda m: f"\\x{ord(m.group()):02x}", text)


def invoke(args: list[str], seconds: int = SECONDS) -> Call:
    """One command in-process, bounded in time; an uncaught exception is kept as its traceback."""
    from rulebook_compiler.cli import main

    def alarm(signum, frame):
        raise Hang(f"no answer after {seconds} s")

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(seconds)
    try:
        result = CliRunner().invoke(main, args)
    except Hang as exc:
        return Call(tuple(args), -1, "", "", f"hang: {exc}")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    error = None
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        error = "".join(traceback.format_exception(*result.exc_info))
    elif "Traceback (most recent call last)" in result.stderr:
        error = result.stderr
    return Call(tuple(args), result.exit_code, result.stdout, result.stderr, error)


def snapshot(root: Path) -> dict[str, bytes | str]:
    """Every file and folder under root (symlinks as their target), to compare before and after."""
    found: dict[str, bytes | str] = {}
    for folder, dirs, files in os.walk(root):
        for name in dirs + files:
            path = Path(folder) / name
            rel = str(path.relative_to(root))
            if path.is_symlink():
                found[rel] = "-> " + os.readlink(path)
            elif path.is_dir():
                found[rel] = "dir"
            else:
                found[rel] = path.read_bytes()
    return found


@dataclass
class Run:
    """The calls made on one rulebook and what was wrong with them."""

    calls: list[Call] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    accepted: bool = False

    def call(self, args: list[str], ok: tuple[int, ...], seconds: int = SECONDS) -> Call:
        made = invoke(args, seconds)
        self.calls.append(made)
        if made.traceback is not None:
            self.failures.append(f"traceback or hang\n{made.shown()}")
        elif made.exit_code not in ok:
            self.failures.append(f"exit {made.exit_code}, expected one of {ok}\n{made.shown()}")
        elif made.exit_code == 1 and "error:" not in made.stderr:
            self.failures.append(f"exit 1 without an error line\n{made.shown()}")
        terminal = made.stderr + (made.stdout if args[0] == "check" or "text" in args else "")
        raw = TERMINAL_CONTROL.search(terminal)
        if raw:
            self.failures.append(f"control character U+{ord(raw.group()):04X} printed raw to the terminal\n"
                                 f"{made.shown()}")
        return made

    def report(self) -> str:
        return "\n\n".join(self.failures)


def run_pipeline(root: Path, out: Path, seed: Path | None = None, build: bool = False) -> Run:
    """check; then, if it accepts, every other command; sources must not change."""
    from rulebook_compiler.build import check

    before = snapshot(root)
    run = Run()
    verdict = run.call(["check", str(root)], ok=(0, 1))
    if verdict.exit_code == 0 and verdict.traceback is None:
        run.accepted = True
        book, _ = check(root)
        editions = [e.id for e in book.editions]
        terms = sorted({t.id for e in book.editions for t in e.terms})
        _downstream(run, root, out, seed, editions, terms)
        if build:
            run.call(["build", "--rulebook", str(root), "--out", str(out / "site")], ok=(0,),
                     seconds=BUILD_SECONDS)
    after = snapshot(root)
    if after != before:
        changed = sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
        run.failures.append(f"sources changed: {changed}")
    return run


def _downstream(run: Run, root: Path, out: Path, seed: Path | None, editions: list[str], terms: list[str]) -> None:
    rb = ["--rulebook", str(root)]
    exported = [run.call(["export", *rb, "--edition", e], ok=(0,)) for e in editions]
    for made in exported:
        if made.exit_code == 0:
            try:
                json.loads(made.stdout)
            except ValueError as exc:
                run.failures.append(f"export is not JSON: {exc}\n{made.shown()}")
    again = invoke(["export", *rb, "--edition", editions[-1]])
    if again.stdout != exported[-1].stdout:
        run.failures.append("export twice gave different bytes")
    pairs = list(zip(editions, editions[1:]))
    if len(editions) > 2:
        pairs.append((editions[0], editions[-1]))
    for fmt in FORMATS:
        for old, new in pairs:
            run.call(["diff", old, new, *rb, "--format", fmt], ok=(0,))
        if seed is not None:
            run.call(["diff", str(seed), str(root), "--format", fmt], ok=(0,))
            run.call(["diff", str(root), str(seed), "--format", fmt, "--no-cache"], ok=(0,))
        for term in terms:
            run.call(["history", term, *rb, "--format", fmt], ok=(0,))
    for edition in editions[1:]:  # the notice for players, against the edition before
        for fmt in ("markdown", "json"):
            run.call(["changelog", "--edition", edition, *rb, "--format", fmt], ok=(0,))
    for i, edition in enumerate(editions):
        run.call(["conformance", "generate", *rb, "--edition", edition, "--out", str(out / f"conformance-{i}")],
                 ok=(0,))


@pytest.fixture(scope="session")
def pipeline():
    """run_pipeline(root, out, seed=None, build=False) -> Run (see above)."""
    return run_pipeline
