"""Running cases through an engine: the verdict per case, expectations, the summary line."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Mapping

from ..counts import counted
from ..diagnostics import printable
from ..evaluate import show_state
from .cases import Case
from .engines import EngineFailure

PASSED, FAILED, KNOWN, FIXED = "passed", "failed", "known failure", "unexpectedly passed"


@dataclass(frozen=True)
class Verdict:
    case_id: str
    name: str
    status: str  # passed | failed | known failure | unexpectedly passed
    message: str = ""

    @property
    def ok(self) -> bool:
        return self.status in (PASSED, KNOWN)


def show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return repr(value) if not value.isidentifier() else value
    return repr(value)


def check_answer(case: Case, values: tuple[str, ...] | None, answer: Any) -> str | None:
    """Why ``answer`` fails the case, or None when it is right."""
    expected = case.expected
    if isinstance(expected, bool):
        if not isinstance(answer, bool):
            return f"engine returned {_typed(answer)}; this decision answers true or false"
    elif not isinstance(answer, str):
        return f"engine returned {_typed(answer)}; this decision answers a string (one of its values)"
    elif values and answer not in values:
        return f"engine returned {show(answer)}, which is not a value of the decision ({', '.join(values)})"
    if answer != expected:
        return f"expected {show(expected)}, engine answered {show(answer)}"
    return None


def _typed(value: Any) -> str:
    text = repr(value)
    if len(text) > 80:
        text = text[:80] + "..."
    return f"{text} ({type(value).__name__})"


def failure_text(case: Case, reason: str) -> str:
    """The message of a failed case: the cause, the situation, the deciding clauses quoted."""
    lines = [f"{case.name} ({case.id}): {reason}", f"  situation: {show_state(case.facts_dict)}"]
    for quote in case.clauses:
        lines.append(f"  {quote.ref}: \"{quote.text}\"")
    if case.ruling is not None:  # where the answer comes from: the ruling, not only the rules
        r = case.ruling
        lines.append(f"  ruling {r.id} ({r.status}, edition {r.edition}): {r.question}")
        lines.append(f"    source: {r.who}, {r.where}, {r.date}")
    # Rule text, case names and engines' words reach a terminal (and pytest's report).
    return "\n".join(map(printable, lines))


def run_case(adapter: Any, case: Case, values: tuple[str, ...] | None) -> str | None:
    """The failure message of one case, or None when the engine answers right. Never raises."""
    try:
        answer = adapter.decide(case.decision, case.facts_dict, case.id)
    except EngineFailure as exc:
        return failure_text(case, str(exc))
    except Exception as exc:  # an adapter bug must not end the run
        return failure_text(case, f"engine adapter failed: {type(exc).__name__}: {exc}")
    reason = check_answer(case, values, answer)
    return None if reason is None else failure_text(case, reason)


def verdict(case: Case, failure: str | None, expected_to_fail: bool) -> Verdict:
    if failure is None:
        if expected_to_fail:
            return Verdict(case.id, case.name, FIXED,
                           f"{case.name} ({case.id}): passes but the expectations file lists it as a known "
                           "failure; remove it from the file")
        return Verdict(case.id, case.name, PASSED)
    return Verdict(case.id, case.name, KNOWN if expected_to_fail else FAILED, failure)


def run_cases(adapter: Any, cases: Iterable[Case], values: Mapping[str, tuple[str, ...]],
              expectations: "Expectations | None" = None) -> list[Verdict]:
    known = expectations.ids if expectations else frozenset()
    out = []
    for case in cases:
        failure = run_case(adapter, case, values.get(case.decision))
        out.append(verdict(case, failure, case.id in known or case.name in known))
    return out


def summary(verdicts: list[Verdict], extra_failures: int = 0) -> str:
    passed = sum(v.status == PASSED for v in verdicts)
    failed = sum(not v.ok for v in verdicts) + extra_failures
    known = sum(v.status == KNOWN for v in verdicts)
    text = f"{passed} passed, {failed} failed"
    if known:
        text += f", {counted(known, 'known failure')}"
    return text


@dataclass(frozen=True)
class Expectations:
    """An engine's known failures: case ids (or names), one a line; ``#`` starts a comment.

    An entry that holds whitespace, ``#`` or ``"`` (a step's case name holds a clause ref,
    ``door.order.next_step[current_step=door#knock]``) is written as a JSON string.
    """

    path: str
    ids: frozenset[str]
    lines: Mapping[str, tuple[int, int]]  # entry -> (line, column) where it is first listed


QUOTE_HINT = "a quoted entry is a JSON string: \"name\", with \\\" for a quote inside it"
_BARE = re.compile(r'[^\s#"]+')


def read_expectations(path: Path) -> tuple[Expectations | None, list[str]]:
    """The expectations and the problems (``path:line:col: error: ...``); None when the file cannot be read."""
    expectations, problems = _read(path)
    return expectations, [_located(path, p) for p in problems]


def expectation_problems(path: Path, cases: Iterable[Case]) -> tuple[Expectations | None, list[str]]:
    """The file read and checked against the cases: every problem, in the order of its lines."""
    expectations, problems = _read(path)
    if expectations is not None:
        problems += _stale(expectations, cases)
    return expectations, [_located(path, p) for p in sorted(problems)]


def _located(path: Path | str, problem: tuple[int, int, str]) -> str:
    line, col, message = problem
    return f"{path}:{line}:{col}: error: {message}"


def _read(path: Path) -> tuple[Expectations | None, list[tuple[int, int, str]]]:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return None, [(1, 1, f"cannot read the expectations file: {getattr(exc, 'strerror', None) or exc}")]
    ids: set[str] = set()
    lines: dict[str, tuple[int, int]] = {}
    problems = []
    # Lines end at \n only: str.splitlines() would also end one at a U+2028 inside a quoted name.
    for n, raw in enumerate(text.split("\n"), 1):
        entry, col, problem = _entry(raw.rstrip("\r"))
        if problem:
            problems.append((n, col, problem))
        elif entry is not None:
            ids.add(entry)
            lines.setdefault(entry, (n, col))
    return Expectations(str(path), frozenset(ids), lines), problems


def _entry(line: str) -> tuple[str | None, int, str | None]:
    """The entry of one line and its column, or the problem with the line (with a hint line)."""
    start = len(line) - len(line.lstrip())
    if start == len(line) or line[start] == "#":
        return None, 0, None
    if line[start] == '"':
        try:
            entry, end = json.JSONDecoder().raw_decode(line, start)
        except ValueError:
            return None, start + 1, f"the quoted entry does not end on its line\n  hint: {QUOTE_HINT}"
    else:
        match = _BARE.match(line, start)
        assert match is not None  # line[start] is neither a space, '#' nor '"'
        entry, end = match.group(), match.end()
    rest = line[end:].lstrip()
    if rest and not rest.startswith("#"):
        col = len(line) - len(rest) + 1
        return None, col, (f"one entry a line: {rest.split()[0]!r} follows {entry!r}\n"
                           "  hint: quote a case name that holds spaces or '#' as a JSON string: \"name\"")
    return entry, start + 1, None


def _stale(expectations: Expectations, cases: Iterable[Case]) -> list[tuple[int, int, str]]:
    known = set()
    for case in cases:
        known.add(case.id)
        known.add(case.name)
    at = expectations.lines
    return [(*at[e], f"'{printable(e)}' is not a case of this suite")  # a quoted entry may hold a line break
            for e in sorted(expectations.ids - known, key=lambda e: at[e])]


def expectations_text(verdicts: list[Verdict], edition: str) -> str:
    """An expectations file listing the cases that fail now: ids, each with its name as a comment."""
    lines = [f"# Known failures of an engine on edition {edition}: one case id a line, name after '#'."]
    for v in verdicts:
        if not v.ok or v.status == KNOWN:
            name = v.name if v.name.isprintable() else json.dumps(v.name, ensure_ascii=False)
            lines.append(f"{quoted_entry(v.case_id)}  # {name}")
    return "\n".join(lines) + "\n"


def quoted_entry(entry: str) -> str:
    """An entry as the reader reads it back: bare when it can be, else a JSON string."""
    return entry if _BARE.fullmatch(entry) else json.dumps(entry, ensure_ascii=False)
