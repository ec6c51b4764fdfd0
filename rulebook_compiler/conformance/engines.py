"""Engines under test: Python objects loaded from ``MODULE:ATTR``, or subprocesses speaking JSON lines.

Every adapter offers ``decide(case) -> answer`` and raises ``EngineFailure``
with a message that names the cause; the runner adds the case. An engine that
hangs is given up on after ``timeout`` seconds per case; a subprocess engine
that hangs, exits or writes garbage is restarted for the next case.

A subprocess engine runs in a process group of its own (a new session), and
the whole group is killed whenever the engine is stopped: on a timeout, when
it exits, and at the end of the run. An engine started through a wrapper
(``sh -c``, ``npm run``) leaves no children behind. Its stderr is drained by a
thread into a ring of the last ``STDERR_KEPT`` bytes, so a chatty engine
neither blocks on a full pipe nor fills memory or disk.
"""

from __future__ import annotations

import atexit
import importlib
import inspect
import json
import os
import re
import selectors
import shlex
import signal
import subprocess
import sys
import threading
import time
import weakref
from types import ModuleType
from typing import IO, Any, Mapping, Protocol

from ..model import Answer

DEFAULT_TIMEOUT = 5.0
PROTOCOL = "rulebook-jsonl/1"
STDERR_KEPT = 64 * 1024  # the last bytes of an engine's stderr kept for its failure message
EXIT_POLL = 0.05  # seconds between checks, while waiting for an answer, that the engine still runs
GROUP_GRACE = 2.0  # seconds to wait, after SIGKILL, for the rest of an engine's process group to go


class EngineFailure(Exception):
    """The engine gave no usable answer for one case."""


class EngineLoadError(Exception):
    """The engine could not be loaded or started at all: a usage error, reported before any case runs."""

    def __init__(self, message: str, hint: str | None = None):
        super().__init__(message)
        self.message = message
        self.hint = hint

    def report(self, option: str, value: str) -> str:
        """``OPTION VALUE: message`` and, where one fits, a ``  hint:`` line."""
        text = f"{option} {shown_value(value)}: {self.message}"
        return text + (f"\n  hint: {self.hint}" if self.hint else "")


def shown_value(value: str) -> str:
    """An option's value as typed when that is unambiguous, else quoted (control characters escaped)."""
    return value if re.fullmatch(r"[\w@%+=:,./-]+", value) else repr(value)


DECIDE_HINT = "an engine is an object with a decide(decision, facts) method, or a class or function that returns one"


class Engine(Protocol):
    """What a conformance suite needs of an engine."""

    def decide(self, decision: str, facts: Mapping[str, Answer]) -> Answer: ...


def load_engine(spec: str, edition: str | None = None, rulebook: str | None = None) -> Any:
    """The engine named by ``MODULE:ATTR`` (ATTR may be dotted).

    When ATTR is a class or a function without ``decide``, it is a factory and
    is called: with ``edition=`` and ``rulebook=`` for the parameters of those
    names it declares, with nothing otherwise. The result must have a callable
    ``decide``. The current folder is importable, as with ``python -m``.
    """
    module_name, sep, attr = spec.partition(":")
    if not sep or not module_name or not attr:
        raise EngineLoadError("not MODULE:ATTR",
                              "name a module and an object in it, for example examples.engines.reference:engine")
    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name and module_name.startswith(exc.name):
            raise EngineLoadError(f"engine module '{module_name}' not found",
                                  "put the folder that holds it on PYTHONPATH, or run from that folder") from None
        raise _import_failed(module_name, exc) from None
    except BaseException as exc:  # the module's own code failed: report, never crash
        raise _import_failed(module_name, exc) from None
    target: Any = module
    for part in attr.split("."):
        if not hasattr(target, part):
            names = sorted(n for n in dir(target)
                           if not n.startswith("_") and not isinstance(getattr(target, n, None), ModuleType))
            raise EngineLoadError(f"engine module '{module_name}' has no attribute '{attr}'",
                                  f"it has: {', '.join(names[:12])}" if names else None)
        target = getattr(target, part)
    engine = target
    if not callable(getattr(engine, "decide", None)) or inspect.isclass(engine):
        if not callable(engine):
            raise EngineLoadError(f"an object of type '{type(engine).__name__}' has no decide(decision, facts) "
                                  "method", DECIDE_HINT)
        try:
            engine = engine(**_factory_args(engine, edition, rulebook))
        except BaseException as exc:
            raise EngineLoadError(f"the factory raised {_brief(exc)}") from None
        if not callable(getattr(engine, "decide", None)):
            raise EngineLoadError(f"the factory returned an object of type '{type(engine).__name__}', which has "
                                  "no decide(decision, facts) method", DECIDE_HINT)
    return engine


def _import_failed(module_name: str, exc: BaseException) -> EngineLoadError:
    return EngineLoadError(f"engine module '{module_name}' failed to import: {_brief(exc)}",
                           f"run python3 -c 'import {module_name}' to see where")


def _factory_args(factory: Any, edition: str | None, rulebook: str | None) -> dict[str, Any]:
    try:
        params = inspect.signature(factory).parameters
    except (TypeError, ValueError):
        return {}
    given = {"edition": edition, "rulebook": rulebook}
    return {k: v for k, v in given.items() if k in params and v is not None}


def _brief(exc: BaseException) -> str:
    text = str(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def open_adapter(spec: str | None, command: str | None, edition: str, rulebook: str | None,
                 timeout: float = DEFAULT_TIMEOUT) -> "PythonAdapter | SubprocessAdapter":
    """The adapter for a Python engine (``spec``) or a command, loaded or started now.

    Raises EngineLoadError when the engine cannot be imported, has no such attribute, or its
    command cannot start: a usage error, before any case runs.
    """
    if command is not None:
        adapter = SubprocessAdapter(command, edition, timeout)
        adapter.start()
        return adapter
    assert spec is not None
    return PythonAdapter(load_engine(spec, edition, rulebook), timeout)


class PythonAdapter:
    """Calls ``engine.decide`` in a worker thread, so a hang costs one timeout, not the run."""

    def __init__(self, engine: Any, timeout: float = DEFAULT_TIMEOUT):
        self.engine = engine
        self.timeout = timeout

    def decide(self, decision: str, facts: Mapping[str, Answer], case_id: str = "") -> Any:
        box: dict[str, Any] = {}

        def call() -> None:
            try:
                box["answer"] = self.engine.decide(decision, dict(facts))
            except BaseException as exc:  # whatever the engine raises is its failure on this case
                box["error"] = exc

        worker = threading.Thread(target=call, daemon=True, name=f"engine {case_id}")
        worker.start()
        worker.join(self.timeout)
        if worker.is_alive():
            # The thread cannot be killed; it is a daemon, so it does not keep the run alive.
            raise EngineFailure(f"engine did not answer within {self.timeout:g} s (timeout)")
        if "error" in box:
            raise EngineFailure(f"engine raised {_brief(box['error'])}")
        return box.get("answer")

    def close(self) -> None:
        close = getattr(self.engine, "close", None)
        if callable(close):
            try:
                close()
            except Exception:
                pass


class DirectAdapter:
    """No thread, no timeout: for engines known to terminate (the reference evaluator and its mutants)."""

    def __init__(self, engine: Any):
        self.engine = engine

    def decide(self, decision: str, facts: Mapping[str, Answer], case_id: str = "") -> Any:
        try:
            return self.engine.decide(decision, dict(facts))
        except Exception as exc:
            raise EngineFailure(f"engine raised {_brief(exc)}") from None

    def close(self) -> None:
        pass


class SubprocessAdapter:
    """An engine in any language: one JSON request per line on its stdin, one JSON answer per line on its stdout.

    Request: ``{"id": CASE_ID, "edition": ID, "decision": NAME, "facts": {...}}``.
    Answer: ``{"id": CASE_ID, "answer": true | "value"}`` or ``{"id": CASE_ID, "error": "why"}``
    (``id`` may be left out). See docs/conformance.md.
    """

    MAX_LINE = 1 << 20

    def __init__(self, command: str, edition: str, timeout: float = DEFAULT_TIMEOUT):
        try:
            self.argv = shlex.split(command)
        except ValueError as exc:
            raise EngineLoadError(f"cannot be split into words: {exc}", "quote as a POSIX shell does") from None
        if not self.argv:
            raise EngineLoadError("is empty", 'give the command that starts the engine, for example "node engine.js"')
        self.command = command
        self.edition = edition
        self.timeout = timeout
        self.proc: subprocess.Popen | None = None
        self.stderr: _StderrRing | None = None
        self.buffer = b""
        self.starts = 0
        _LIVE.add(self)

    def start(self) -> None:
        """Start the engine now: a command that cannot start is a usage error (EngineLoadError)."""
        try:
            self._spawn()
        except OSError as exc:
            raise EngineLoadError(f"cannot start {self.argv[0]!r}: {exc.strerror or exc}",
                                  "give the program's path, or put its folder on PATH") from None

    def _start(self) -> subprocess.Popen:
        if self.proc is not None and self.proc.poll() is None:
            return self.proc
        try:
            return self._spawn()
        except OSError as exc:
            raise EngineFailure(f"engine command {self.argv[0]!r} could not start: {exc.strerror or exc}") from None

    def _spawn(self) -> subprocess.Popen:
        self.stop()  # a previous process's group, if any, goes first
        # A session of its own: the engine and every child it starts form one process group,
        # which stop() kills whole; nor does a Ctrl-C meant for the runner reach it.
        self.proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, bufsize=0, start_new_session=True)
        self.stderr = _StderrRing(self.proc.stderr)
        os.set_blocking(_pipe(self.proc.stdout).fileno(), False)
        self.buffer = b""
        self.starts += 1
        return self.proc

    def decide(self, decision: str, facts: Mapping[str, Answer], case_id: str = "") -> Any:
        proc = self._start()
        request = json.dumps({"id": case_id, "edition": self.edition, "decision": decision, "facts": dict(facts)},
                             ensure_ascii=False) + "\n"
        try:
            _pipe(proc.stdin).write(request.encode())
            _pipe(proc.stdin).flush()
        except (BrokenPipeError, OSError):
            raise EngineFailure(self._exit_message("before reading the request")) from None
        line = self._read_line(proc)
        try:
            reply = json.loads(line)
        except ValueError:
            self.stop()  # out of step with us: start afresh for the next case
            raise EngineFailure(f"engine wrote {_clip(line)} instead of a JSON answer line") from None
        if not isinstance(reply, dict) or not ("answer" in reply or "error" in reply):
            self.stop()
            raise EngineFailure(f"engine wrote {_clip(line)}: an answer line is an object with "
                                "'answer' (or 'error')")
        if "id" in reply and reply["id"] != case_id:
            self.stop()
            raise EngineFailure(f"engine answered case {reply['id']!r} when asked case {case_id!r}")
        if "error" in reply and "answer" not in reply:
            raise EngineFailure(f"engine reported an error: {_clip(str(reply['error']))}")
        return reply["answer"]

    def _read_line(self, proc: subprocess.Popen) -> str:
        deadline = time.monotonic() + self.timeout
        with selectors.DefaultSelector() as sel:
            sel.register(_pipe(proc.stdout), selectors.EVENT_READ)
            while b"\n" not in self.buffer:
                left = deadline - time.monotonic()
                if left <= 0:
                    self.stop()
                    raise EngineFailure(f"engine did not answer within {self.timeout:g} s (timeout); restarted it")
                if not sel.select(min(left, EXIT_POLL)):
                    # Nothing to read. The engine may have exited while a child of it (a wrapper's
                    # background job) holds its output open: that is its exit, not a hang.
                    if proc.poll() is not None:
                        raise EngineFailure(self._exit_message("without answering"))
                    continue
                chunk = _pipe(proc.stdout).read(65536)
                if chunk is None:
                    continue
                if not chunk:
                    raise EngineFailure(self._exit_message("without answering"))
                self.buffer += chunk
                if len(self.buffer) > self.MAX_LINE:
                    self.stop()
                    raise EngineFailure(f"engine wrote a line of more than {self.MAX_LINE} bytes")
        line, self.buffer = self.buffer.split(b"\n", 1)
        return line.decode("utf-8", errors="replace").strip()

    def _exit_message(self, when: str) -> str:
        proc, ring = self.proc, self.stderr
        code = None
        if proc is not None:
            try:
                code = proc.wait(timeout=2)
            except subprocess.TimeoutExpired:
                code = None
        self.stop()  # the group killed, its stderr pipe ends and the ring holds all there is
        tail = ring.last_line() if ring is not None else ""
        how = f"exited with status {code}" if code is not None else "closed its output"
        return f"engine process {how} {when}" + (f"; its stderr ends: {_clip(tail)}" if tail else "")

    def stop(self) -> None:
        """Kill the engine's whole process group (the engine, its wrapper, their children) and reap it."""
        proc, self.proc = self.proc, None
        ring, self.stderr = self.stderr, None
        if proc is not None:
            for stream in (proc.stdin, proc.stdout):
                try:
                    _pipe(stream).close()
                except OSError:
                    pass
            _kill_group(proc)
        if ring is not None:
            ring.join(GROUP_GRACE)

    close = stop


def _kill_group(proc: subprocess.Popen) -> None:
    """SIGKILL the group whose leader is ``proc`` (even when the leader has exited), then wait for it to die.

    The group id stays reserved while any member lives, so it cannot name another process.
    """
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    proc.wait()
    deadline = time.monotonic() + GROUP_GRACE
    while _group_alive(proc.pid) and time.monotonic() < deadline:
        time.sleep(0.005)


def _group_alive(pgid: int) -> bool:
    """Whether a member of the group still runs. A zombie does not: its parent (init, for an orphan)
    reaps it when it will, which on some systems takes a second or more."""
    try:
        os.killpg(pgid, 0)
    except (ProcessLookupError, PermissionError):
        return False
    try:
        entries = os.listdir("/proc")
    except OSError:
        return True  # no /proc: the group exists, zombies or not
    for name in entries:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue
        # after the command's ')': state, ppid, pgrp, ...
        if len(fields) > 2 and int(fields[2]) == pgid and fields[0] not in (b"Z", b"X"):
            return True
    return False


class _StderrRing:
    """The last ``limit`` bytes an engine wrote to stderr, drained by a thread as they come."""

    def __init__(self, stream: Any, limit: int = STDERR_KEPT):
        self._stream = stream
        self._limit = limit
        self._data = bytearray()
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._drain, daemon=True, name="engine stderr")
        self._thread.start()

    def _drain(self) -> None:
        # The thread owns the stream and closes it at EOF: closing it from another thread while
        # a read is blocked could hand the descriptor number to an unrelated file.
        try:
            while chunk := self._stream.read(65536):
                with self._lock:
                    self._data += chunk
                    if len(self._data) > self._limit:
                        del self._data[:-self._limit]
        except (OSError, ValueError):
            pass
        finally:
            try:
                self._stream.close()
            except OSError:
                pass

    def join(self, timeout: float) -> None:
        """Wait for the end of the stream (a child that escaped the group may hold it open: give up then)."""
        self._thread.join(timeout)

    def last_line(self) -> str:
        with self._lock:
            text = self._data.decode("utf-8", errors="replace").strip()
        return text.splitlines()[-1] if text else ""


# Engines still running when the interpreter exits (a run that ended without closing them) are stopped.
_LIVE: "weakref.WeakSet[SubprocessAdapter]" = weakref.WeakSet()


@atexit.register
def _stop_all() -> None:
    for adapter in list(_LIVE):
        adapter.stop()


def _pipe(stream: IO[bytes] | None) -> IO[bytes]:
    """A stream of an engine process, which opens all three as pipes."""
    assert stream is not None, "an engine's streams are pipes"
    return stream


def _clip(text: str, limit: int = 120) -> str:
    text = text if len(text) <= limit else text[:limit] + "..."
    return repr(text)
