"""Progress of the long commands on a terminal, with counts, elapsed time and a summary line.

Each command runs inside ``display()`` (``rulebook_compiler.cli`` wraps every command);
its loops report through ``track(items, what)`` (or ``counter(what, total)``
where the loop is another library's, as mkdocs' pages), one call at each
loop point. The display starts at the first of those calls, and only when
standard output and standard error are both terminals and ``--quiet`` was not
given: piped output stays as it was, byte for byte, and rich (a terminal
library) is imported only then, so ``check``'s start-up stays light
(tests/test_startup.py). Bars go to standard error and vanish at the end,
leaving one summary line: ``rulebook check in 8.4 s: term files 2,002, decisions 5,961``.
"""

from __future__ import annotations

import functools
import os
import sys
import time
from collections.abc import Sized
from contextlib import contextmanager
from typing import TYPE_CHECKING, Callable, Iterable, Iterator, TypeVar

import click

if TYPE_CHECKING:  # rich is imported only when a terminal is attached (startup time)
    from rich.console import Console
    from rich.progress import Progress

T = TypeVar("T")

_quiet = False
_session: "_Session | None" = None  # the running command's, while display() lasts


def shown() -> bool:
    """Whether progress is shown now: a terminal on both streams, no --quiet, not a dumb terminal, rich installed."""
    return (not _quiet and sys.stdout.isatty() and sys.stderr.isatty()
            and os.environ.get("TERM") != "dumb" and _have_rich())


@functools.cache
def _have_rich() -> bool:
    """rich is a dependency; a package installed without its dependencies still runs, without bars."""
    import importlib.util

    return importlib.util.find_spec("rich") is not None


class _Session:
    """One command's display: bars while its loops run, then one summary line when it ends."""

    def __init__(self) -> None:
        self.command = ""  # the command path (``rulebook conformance generate``), known once a loop reports
        self.start = time.monotonic()
        self.console: Console | None = None  # rich's, once a loop reported
        self.bars: Progress | None = None  # rich's Progress while a loop runs: stopped (and cleared) between loops
        self.totals: dict[str, int] = {}  # what -> count, in the order first reported

    def _bars(self) -> Progress:
        if self.console is None:
            from rich.console import Console

            ctx = click.get_current_context(silent=True)
            self.command = ctx.command_path if ctx is not None else "rulebook"
            self.console = Console(stderr=True)
        if self.bars is None:
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

            # The command's standard output is left alone (it may be data: a diff, JSON); lines it
            # writes to standard error while a bar runs are printed above the bars.
            self.bars = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                                 TimeElapsedColumn(), console=self.console, transient=True,
                                 redirect_stdout=False, redirect_stderr=True)
            self.bars.start()
        return self.bars

    def counter(self, what: str, total: int | None) -> tuple[Callable[[], None], Callable[[], None]]:
        """(advance by one, finish): the bar goes at its total or at finish; the display when none is left."""
        bars = self._bars()
        task = bars.add_task(f"{self.command}: {what}", total=total)
        self.totals.setdefault(what, 0)
        done = [0, False]  # items done, finished

        def finish() -> None:
            if not done[1]:
                done[1] = True
                bars.remove_task(task)
                if not bars.tasks and self.bars is bars:
                    bars.stop()
                    self.bars = None

        def advance() -> None:
            self.totals[what] += 1
            if done[1]:
                return
            done[0] += 1
            bars.advance(task)
            if total is not None and done[0] >= total:
                finish()

        return advance, finish

    def close(self) -> None:
        if self.console is None:
            return
        if self.bars is not None:
            self.bars.stop()
        counts = ", ".join(f"{what} {n:,}" for what, n in self.totals.items())
        self.console.print(f"{self.command} in {time.monotonic() - self.start:.1f} s: {counts}",
                           highlight=False, markup=False, soft_wrap=True)


@contextmanager
def display() -> Iterator[None]:
    """Progress for one command; the summary line when it ends, if anything was shown."""
    global _session, _quiet
    if _session is not None:  # a command run inside another
        yield
        return
    _session, _quiet = _Session(), False
    try:
        yield
    finally:
        session, _session = _session, None
        if session is not None:  # None: stopped by the command (stop)
            session.close()


def stop() -> None:
    """No progress for the rest of this command (``serve``: it runs until ^C and prints its own lines)."""
    global _session
    if _session is not None:
        _session.close()
    _session = None


def counter(what: str, total: int | None = None) -> Callable[[], None]:
    """A function to call once per item done, for a loop that is not ours; a no-op when nothing is shown."""
    if _session is None or not shown() or total == 0:
        return _nothing
    return _session.counter(what, total)[0]


def track(items: Iterable[T], what: str, total: int | None = None) -> Iterable[T]:
    """``items`` as they are, counted on the display when one is shown (``what``: a plural noun)."""
    if _session is None or not shown():
        return items
    if total is None and isinstance(items, Sized):  # what has __len__
        total = len(items)
    return _tracked(items, *_session.counter(what, total))


def _tracked(items: Iterable[T], advance: Callable[[], None], finish: Callable[[], None]) -> Iterator[T]:
    try:
        for item in items:
            yield item
            advance()
    finally:
        finish()


def _nothing() -> None:
    pass


def is_quiet() -> bool:
    """Whether the running command was given ``-q/--quiet``."""
    return _quiet


def _set_quiet(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    global _quiet
    _quiet = _quiet or value


def add_quiet_option(command: click.Command, help_text: str) -> None:
    """Give ``command`` (and a group's subcommands) ``-q/--quiet``: no progress display (and, in the
    command layer, no summary or warning: ``rulebook_compiler.commands.options``)."""
    command.params.append(click.Option(["--quiet", "-q"], is_flag=True, expose_value=False, callback=_set_quiet,
                                       help=help_text))
    for sub in getattr(command, "commands", {}).values():
        add_quiet_option(sub, help_text)
