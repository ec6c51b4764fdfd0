"""Running cases through an engine: the verdict per case, expectations, the summary line."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Mapping

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
    return "\n".join(lines)


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
        text += f", {known} known failure{'s' if known != 1 else ''}"
    return text


@dataclass(frozen=True)
class Expectations:
    """An engine's known failures: case ids (or names), one a line; ``#`` starts a comment."""

    path: str
    ids: frozenset[str]
    lines: Mapping[str, int]


def read_expectations(path: Path) -> tuple[Expectations | None, list[str]]:
    """The expectations, or None and the problems (``path:line:col: error: ...``)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return None, [f"{path}:1:1: error: cannot read the expectations file: {getattr(exc, 'strerror', None) or exc}"]
    ids, lines = set(), {}
    for n, raw in enumerate(text.splitlines(), 1):
        entry = raw.split("#", 1)[0].strip()
        if entry:
            ids.add(entry)
            lines.setdefault(entry, n)
    return Expectations(str(path), frozenset(ids), lines), []


def stale_expectations(expectations: Expectations, cases: Iterable[Case]) -> list[str]:
    """Entries that name no case of the suite: a renamed decision or a typo."""
    known = set()
    for case in cases:
        known.add(case.id)
        known.add(case.name)
    return [f"{expectations.path}:{expectations.lines[e]}:1: error: '{e}' is not a case of this suite"
            for e in sorted(expectations.ids - known, key=lambda e: expectations.lines[e])]


def expectations_text(verdicts: list[Verdict], edition: str) -> str:
    """An expectations file listing the cases that fail now."""
    lines = [f"# Known failures of an engine on edition {edition}: one case id a line, name after '#'."]
    for v in verdicts:
        if not v.ok or v.status == KNOWN:
            lines.append(f"{v.case_id}  # {v.name}")
    return "\n".join(lines) + "\n"
