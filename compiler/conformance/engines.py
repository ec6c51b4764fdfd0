"""Engines under test: Python objects loaded from ``MODULE:ATTR``, or subprocesses speaking JSON lines.

Every adapter offers ``decide(case) -> answer`` and raises ``EngineFailure``
with a message that names the cause; the runner adds the case. An engine that
hangs is given up on after ``timeout`` seconds per case; a subprocess engine
that hangs, exits or writes garbage is restarted for the next case.
"""

from __future__ import annotations

import importlib
import inspect
import json
import os
import selectors
import shlex
import subprocess
import sys
import tempfile
import threading
import time
from typing import Any, Mapping, Protocol

from ..model import Answer

DEFAULT_TIMEOUT = 5.0
PROTOCOL = "rulebook-jsonl/1"


class EngineFailure(Exception):
    """The engine gave no usable answer for one case."""


class EngineLoadError(Exception):
    """The engine could not be loaded at all."""


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
        raise EngineLoadError(f"engine {spec!r} is not MODULE:ATTR (for example examples.engines.reference:engine)")
    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name and module_name.startswith(exc.name):
            raise EngineLoadError(f"engine module '{module_name}' not found (is it on PYTHONPATH, "
                                  "or in the current folder?)") from None
        raise EngineLoadError(f"engine module '{module_name}' failed to import: {_brief(exc)}") from None
    except BaseException as exc:  # the module's own code failed: report, never crash
        raise EngineLoadError(f"engine module '{module_name}' failed to import: {_brief(exc)}") from None
    target: Any = module
    for part in attr.split("."):
        if not hasattr(target, part):
            names = sorted(n for n in dir(target) if not n.startswith("_"))
            raise EngineLoadError(f"engine module '{module_name}' has no attribute '{attr}'"
                                  + (f"; it has: {', '.join(names[:12])}" if names else ""))
        target = getattr(target, part)
    engine = target
    if not callable(getattr(engine, "decide", None)) or inspect.isclass(engine):
        if not callable(engine):
            raise EngineLoadError(f"engine '{spec}' has no decide(decision, facts) method "
                                  f"(it is a {type(engine).__name__})")
        try:
            engine = engine(**_factory_args(engine, edition, rulebook))
        except BaseException as exc:
            raise EngineLoadError(f"engine factory '{spec}' raised {_brief(exc)}") from None
    if not callable(getattr(engine, "decide", None)):
        raise EngineLoadError(f"engine '{spec}' has no decide(decision, facts) method "
                              f"(the factory returned a {type(engine).__name__})")
    return engine


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
            raise EngineLoadError(f"engine command {command!r} cannot be parsed: {exc}") from None
        if not self.argv:
            raise EngineLoadError("engine command is empty")
        self.command = command
        self.edition = edition
        self.timeout = timeout
        self.proc: subprocess.Popen | None = None
        self.stderr = None
        self.buffer = b""
        self.starts = 0

    def _start(self) -> subprocess.Popen:
        if self.proc is not None and self.proc.poll() is None:
            return self.proc
        self.stop()
        self.stderr = tempfile.TemporaryFile()
        try:
            self.proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=self.stderr, bufsize=0)
        except OSError as exc:
            self.proc = None
            raise EngineFailure(f"engine command {self.argv[0]!r} could not start: {exc.strerror or exc}") from None
        os.set_blocking(self.proc.stdout.fileno(), False)
        self.buffer = b""
        self.starts += 1
        return self.proc

    def decide(self, decision: str, facts: Mapping[str, Answer], case_id: str = "") -> Any:
        proc = self._start()
        request = json.dumps({"id": case_id, "edition": self.edition, "decision": decision, "facts": dict(facts)},
                             ensure_ascii=False) + "\n"
        try:
            proc.stdin.write(request.encode())
            proc.stdin.flush()
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
            sel.register(proc.stdout, selectors.EVENT_READ)
            while b"\n" not in self.buffer:
                left = deadline - time.monotonic()
                if left <= 0:
                    self.stop()
                    raise EngineFailure(f"engine did not answer within {self.timeout:g} s (timeout); restarted it")
                if not sel.select(left):
                    continue
                chunk = proc.stdout.read(65536)
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
        proc = self.proc
        code = None
        if proc is not None:
            try:
                code = proc.wait(timeout=2)
            except subprocess.TimeoutExpired:
                code = None
        tail = self._stderr_tail()
        self.stop()
        how = f"exited with status {code}" if code is not None else "closed its output"
        return f"engine process {how} {when}" + (f"; its stderr ends: {tail}" if tail else "")

    def _stderr_tail(self) -> str:
        if self.stderr is None:
            return ""
        try:
            self.stderr.seek(0)
            data = self.stderr.read()[-400:].decode("utf-8", errors="replace").strip()
        except (OSError, ValueError):
            return ""
        return _clip(data.splitlines()[-1]) if data else ""

    def stop(self) -> None:
        proc, self.proc = self.proc, None
        if proc is not None:
            for stream in (proc.stdin, proc.stdout):
                try:
                    stream.close()
                except OSError:
                    pass
            if proc.poll() is None:
                proc.kill()
            proc.wait()
        if self.stderr is not None:
            self.stderr.close()
            self.stderr = None

    close = stop


def _clip(text: str, limit: int = 120) -> str:
    text = text if len(text) <= limit else text[:limit] + "..."
    return repr(text)
