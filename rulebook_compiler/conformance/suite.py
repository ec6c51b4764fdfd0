"""A suite on disk: ``cases.json`` (language-neutral) and a generated pytest module.

The case file is the contract for engines in any language (docs/conformance.md).
Each case carries a ``check`` hash of its content and the file a ``fingerprint``
of the case list, so a hand edit is found and named; the id is derived from the
decision and the facts, so an edit of either is found as well.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..model import Answer
from .cases import RULING_PREFIX, Case, Quote, RulingRef, Suite, case_id, case_name, ruling_case_id

FORMAT = "rulebook-conformance/1"
CASES_FILE = "cases.json"
MODULE_FILE = "test_conformance.py"


def case_json(case: Case) -> dict[str, Any]:
    body = {
        "id": case.id,
        "name": case.name,
        "decision": case.decision,
        "kind": case.kind,
        "facts": case.facts_dict,
        "expected": case.expected,
        "clauses": [{"ref": q.ref, "text": q.text} for q in case.clauses],
    }
    if case.ruling is not None:
        body["ruling"] = ruling_json(case.ruling)
    body["check"] = _check(body)
    return body


def ruling_json(ruling: RulingRef) -> dict[str, Any]:
    return {"id": ruling.id, "edition": ruling.edition, "question": ruling.question, "status": ruling.status,
            "cites": list(ruling.cites), "source": {"who": ruling.who, "where": ruling.where, "date": ruling.date}}


def _check(body: dict[str, Any]) -> str:
    content = {k: v for k, v in body.items() if k != "check"}
    return hashlib.sha256(json.dumps(content, sort_keys=True, ensure_ascii=False).encode()).hexdigest()[:16]


def _fingerprint(edition: str, checks: list[Any]) -> str:
    return hashlib.sha256(json.dumps([edition, checks]).encode()).hexdigest()[:16]


def suite_json(suite: Suite, title: str) -> dict[str, Any]:
    cases = [case_json(c) for c in suite.cases]
    return {
        "format": FORMAT,
        "rulebook": title,
        "edition": suite.edition,
        "edition_title": suite.title,
        "source_digest": suite.digest,
        "fingerprint": _fingerprint(suite.edition, [c["check"] for c in cases]),
        "decisions": [
            {"decision": d.decision, "type": d.type, "values": list(d.values), "facts": list(d.facts),
             "strategy": d.strategy, "allowed": d.allowed, "cases": len(d.cases),
             "unanswered": d.unanswered, "uncovered": list(d.uncovered)}
            for d in suite.decisions
        ],
        "cases": cases,
    }


def dumps(data: Any) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def pyrepr(value: Any) -> str:
    """A Python literal for JSON-like data: the only way rule text enters generated code."""
    _json_only(value)
    return repr(value)


def _json_only(value: Any) -> None:
    if value is None or isinstance(value, (bool, int, float, str)):
        return
    if isinstance(value, list):
        for v in value:
            _json_only(v)
        return
    if isinstance(value, dict):
        for k, v in value.items():
            if not isinstance(k, str):
                raise TypeError(f"non-string key {k!r}")
            _json_only(v)
        return
    raise TypeError(f"not JSON data: {type(value).__name__}")


def render_module(data: dict[str, Any]) -> str:
    """The pytest module for a suite: data through ``pyrepr`` only, never pasted as code."""
    import jinja2

    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(Path(__file__).parent / "templates")),
                             autoescape=False, keep_trailing_newline=True, undefined=jinja2.StrictUndefined,
                             trim_blocks=True, lstrip_blocks=True)
    env.filters["pyrepr"] = pyrepr
    return env.get_template("test_conformance.py.j2").render(
        edition=data["edition"], rulebook=data["rulebook"], cases=data["cases"], digest=data["source_digest"],
        decisions={d["decision"]: d["values"] for d in data["decisions"]})


def write_suite(suite: Suite, title: str, out: Path) -> tuple[Path, Path]:
    """Write cases.json and the pytest module into ``out``, each atomically."""
    from ..fileio import write_text

    data = suite_json(suite, title)
    module = render_module(data)
    out = Path(out)
    write_text(out / CASES_FILE, dumps(data))
    write_text(out / MODULE_FILE, module)
    return out / CASES_FILE, out / MODULE_FILE


@dataclass(frozen=True)
class CaseFile:
    """A case file read back: the cases that hold up, and a problem per case that does not."""

    path: str
    edition: str
    source_digest: str | None
    values: dict[str, tuple[str, ...]]
    cases: tuple[Case, ...]
    bad: tuple[tuple[str, str], ...]  # (case id or position, problem)
    warnings: tuple[str, ...]


class CaseFileError(Exception):
    """The file cannot be used at all (unreadable, not a case file, another edition)."""


def read_case_file(path: Path, edition: str | None = None) -> CaseFile:
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise CaseFileError(f"{path}: cannot read the case file: {exc.strerror or exc}") from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise CaseFileError(f"{path}: not a JSON case file: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("cases"), list):
        raise CaseFileError(f"{path}: not a case file of format {FORMAT} "
                            "(write one with `rulebook conformance generate`)")
    file_edition = data.get("edition")
    if edition is not None and file_edition != edition:
        raise CaseFileError(f"{path}: the cases are for edition {file_edition!r}, not {edition!r}; "
                            f"generate the suite of {edition!r} or run with --edition {file_edition}")
    values = {}
    for d in data.get("decisions") or []:
        if isinstance(d, dict) and isinstance(d.get("decision"), str) and isinstance(d.get("values"), list):
            values[d["decision"]] = tuple(v for v in d["values"] if isinstance(v, str))
    cases: list[Case] = []
    bad: list[tuple[str, str]] = []
    checks: list[Any] = []  # each case's check as written, to fingerprint
    for n, raw in enumerate(data["cases"], 1):
        label: str = raw["id"] if isinstance(raw, dict) and isinstance(raw.get("id"), str) else f"case #{n}"
        checks.append(raw.get("check") if isinstance(raw, dict) else None)
        case, problem = case_from_json(raw)
        if problem or case is None:
            bad.append((label, problem or "not a case"))
        else:
            cases.append(case)
    warnings = []
    if data.get("fingerprint") != _fingerprint(str(file_edition), checks):
        warnings.append(f"{path}: the case list does not match its fingerprint: cases were added, removed, "
                        "reordered or edited by hand; regenerate with `rulebook conformance generate`")
    return CaseFile(str(path), str(file_edition), data.get("source_digest"), values, tuple(cases), tuple(bad),
                    tuple(warnings))


def case_from_json(raw: Any) -> tuple[Case | None, str | None]:
    if not isinstance(raw, dict):
        return None, "not an object"
    need = {"id": str, "name": str, "decision": str, "facts": dict, "clauses": list}
    for key, kind in need.items():
        if not isinstance(raw.get(key), kind):
            return None, f"'{key}' is missing or not a {kind.__name__}"
    expected = raw.get("expected")
    if not isinstance(expected, (bool, str)):
        return None, "'expected' is missing or not true, false or a string"
    facts: dict[str, Answer] = raw["facts"]
    if not all(isinstance(v, (bool, str)) for v in facts.values()):
        return None, "a fact's value is not true, false or a string"
    kind = raw.get("kind", "rule")
    ruling, problem = _ruling_of(raw) if kind == "ruling" else (None, None)
    if problem:
        return None, problem
    if ruling is None and raw["id"] != case_id(raw["decision"], facts):
        return None, "its id does not match its decision and facts (edited by hand?)"
    if raw.get("check") != _check(raw):
        return None, "its content does not match its check hash (edited by hand?); regenerate the suite"
    quotes = _quotes_of(raw["clauses"])
    if quotes is None:
        return None, "a clause quote is not {ref, text}"
    name = ruling_case_id(ruling.id) if ruling is not None else case_name(raw["decision"], facts)
    return Case(raw["id"], name, raw["decision"], tuple(sorted(facts.items())), expected, quotes,
                kind if kind in ("rule", "steps", "ruling") else "rule", ruling), None


def _quotes_of(clauses: list[Any]) -> tuple[Quote, ...] | None:
    """A case's clause quotes, or None when one is not {ref, text}."""
    if not all(isinstance(q, dict) and isinstance(q.get("ref"), str) and isinstance(q.get("text"), str)
               for q in clauses):
        return None
    return tuple(Quote(q["ref"], q["text"]) for q in clauses)


def _ruling_of(raw: dict[str, Any]) -> tuple[RulingRef | None, str | None]:
    """A ruling case's ruling, whose id its own id must carry: ``ruling:ID``."""
    r = raw.get("ruling")
    strings = ("id", "edition", "question", "status")
    if (not isinstance(r, dict) or not all(isinstance(r.get(k), str) for k in strings)
            or not isinstance(r.get("cites"), list) or not all(isinstance(c, str) for c in r["cites"])
            or not isinstance(r.get("source"), dict)
            or not all(isinstance(r["source"].get(k), str) for k in ("who", "where", "date"))):
        return None, ("a case of kind 'ruling' needs 'ruling': {id, edition, question, status, cites, "
                      "source: {who, where, date}}")
    if raw["id"] != RULING_PREFIX + r["id"]:
        return None, f"its id does not match its ruling's ('{RULING_PREFIX}{r['id']}'; edited by hand?)"
    source = r["source"]
    return RulingRef(r["id"], r["edition"], r["question"], r["status"], tuple(r["cites"]), source["who"],
                     source["where"], source["date"]), None
