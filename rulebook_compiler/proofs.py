"""What ``check`` proved, kept in the cache, so that a check proves again only what an edit can affect.

Two kinds of proof, both JSON data in the cache's ``proofs`` table (never
unpickled or evaluated: every field is validated on reading, and anything
else reads as missing, so the proof is made again):

- per decision: the logic checks' problems (conflicts, empty, dead rules) of
  one decision, keyed by a digest of everything they read: the decision, its
  rules with their locations, the predicates it reaches and the vocabulary,
  and the compiler itself (``cache.compiler_key``). An edit to one term
  changes the keys of the decisions it touches, and only theirs.
- per rulebook: the whole outcome of ``check`` (every problem and the summary
  line), keyed by the rulebook's fingerprint (every file the build reads) and
  the bytes of ``rulebook.lock``. An unchanged rulebook is not read again.
  The build only looks whether a declared source is there, so the outcome is
  kept only when all were, with their names, and serves only while they are.

``check`` also stores the rulebook it loaded in the cache, as ``diff`` does,
so that a diff after a check starts warm.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from .diagnostics import Diagnostic, Location

if TYPE_CHECKING:
    from .cache import Cache
    from .evaluate import DecisionModel
    from .model import Rulebook, Vocabulary

_FIELDS = 7  # path, line, col, severity, code, message, hint


def diagnostic_row(d: Diagnostic) -> list:
    loc = d.location
    return [loc.path, loc.line, loc.col, d.severity, d.code, d.message, d.hint]


def encode(problems: list[Diagnostic]) -> str:
    return json.dumps([diagnostic_row(d) for d in problems], ensure_ascii=True, separators=(",", ":"))


def decode(text: str) -> list[Diagnostic] | None:
    """The problems a proof holds, or None when it is not exactly what ``encode`` writes."""
    try:
        rows = json.loads(text)
    except (ValueError, RecursionError):
        return None
    return from_rows(rows)


def from_rows(rows: Any) -> list[Diagnostic] | None:
    """The problems of rows as ``encode`` writes them (parsed), or None when they are not exactly that."""
    if type(rows) is not list:
        return None
    out = []
    for row in rows:
        if type(row) is not list or len(row) != _FIELDS:
            return None
        path, line, col, severity, code, message, hint = row
        if not (type(path) is str and type(line) is int and type(col) is int and severity in ("error", "warning")
                and type(code) is str and type(message) is str and (hint is None or type(hint) is str)):
            return None
        out.append(Diagnostic(Location(path, line, col), message, hint, severity, code))
    return out


def _digest(*parts: str) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(part.encode("utf-8", "surrogateescape"))
        h.update(b"\0")
    return h.hexdigest()


class Proofs:
    """The per-decision proofs of one run: those the cache holds, and those made now."""

    def __init__(self, cache: "Cache | None"):
        from .cache import compiler_key

        self.cache = cache
        self.compiler = compiler_key()
        self.made: dict[str, str] = {}
        self.reused = 0
        self._vocabularies: dict[int, tuple["Vocabulary", str]] = {}
        self._keys: dict[int, tuple["DecisionModel", str]] = {}

    def _vocabulary(self, vocabulary: "Vocabulary") -> str:
        # one digest per vocabulary object (editions share them), kept with the object it digests
        held = self._vocabularies.get(id(vocabulary))
        if held is None or held[0] is not vocabulary:
            held = self._vocabularies[id(vocabulary)] = (vocabulary, _digest(repr(vocabulary)))
        return held[1]

    def key(self, model: "DecisionModel") -> str:
        """What a decision's logic checks read, as a digest (conditions' reprs hold no locations,
        so the rules' and the decision's own are added: the problems name them)."""
        held = self._keys.get(id(model))
        if held is not None and held[0] is model:
            return held[1]
        rules = model.rules
        key = _digest("decision", self.compiler, self._vocabulary(model.vocabulary),
                       repr((model.decision, model.decision.loc)),
                       repr(tuple((r, r.loc) for r in rules)),
                       repr(sorted(model.predicates.items())))
        self._keys[id(model)] = (model, key)
        return key

    def problems(self, model: "DecisionModel", prove: Callable[[], list[Diagnostic]],
                 stored: dict[str, str]) -> list[Diagnostic]:
        """The decision's problems: from ``stored`` when proved before, else ``prove()`` (and kept)."""
        key = self.key(model)
        if key in stored:
            found = decode(stored[key])
            if found is not None:
                self.reused += 1
                return found
        found = prove()
        self.made[key] = encode(found)
        return found

    def stored(self, models: list["DecisionModel"]) -> dict[str, str]:
        return self.cache.proofs([self.key(m) for m in models]) if self.cache is not None else {}


def whole_key(fingerprint_key: str, root: Path) -> str:
    """The key of a rulebook's whole check: its fingerprint, its lock file's bytes and where it is."""
    lock = root / "rulebook.lock"
    try:
        lock_digest = hashlib.sha256(lock.read_bytes()).hexdigest() if lock.is_file() else "-"
    except OSError:
        lock_digest = "?"
    # problems name files relative to the current folder, so the folder as shown is part of the key
    return _digest("rulebook", fingerprint_key, lock_digest, os.path.relpath(root))


def encode_outcome(problems: list[Diagnostic], summary: str | None, sources: list[str]) -> str:
    """A whole check's outcome, with the declared sources it found there (it holds while they are)."""
    return json.dumps({"problems": json.loads(encode(problems)), "summary": summary, "sources": sources},
                      ensure_ascii=True)


def decode_outcome(text: str) -> tuple[list[Diagnostic], str | None, list[str]] | None:
    try:
        data: Any = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if type(data) is not dict or set(data) != {"problems", "summary", "sources"}:
        return None
    if not (data["summary"] is None or type(data["summary"]) is str):
        return None
    sources = data["sources"]
    if type(sources) is not list or not all(type(s) is str for s in sources):
        return None
    problems = from_rows(data["problems"])
    return None if problems is None else (problems, data["summary"], sources)


def summary_line(book: "Rulebook") -> str:
    """What ``check`` prints when there is no problem: editions, terms, the latest edition's size."""
    from .counts import counted as count
    from .diagnostics import printable

    terms = {t.id for e in book.editions for t in e.terms}
    clauses = sum(len(t.clauses) for t in book.latest.terms)
    return (f"{printable(book.title)}: {count(len(book.editions), 'edition')} ({', '.join(e.id for e in book.editions)}), "
            f"{count(len(terms), 'term')}, latest {book.latest.id} with {count(len(book.latest.terms), 'term')} "
            f"and {count(clauses, 'clause')}: no problems")
