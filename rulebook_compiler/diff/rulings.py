"""What a change of the rules does to the committee's rulings (issue 26.3).

For two editions, each ruling that applies to the old one (rulebook_compiler/rulings.py)
is one of:

- *flipped*: the new edition answers its situation otherwise than the old one
  (both answers, and the rules that give each, as ``rulebook ask`` finds them);
- *stopped*: it no longer applies to the new edition: withdrawn, superseded or
  restated there, or its decision, one of its facts (or values) or a clause it
  cites is gone;
- *standing*: the new edition answers it as the old one did.

The rulings the new edition adds are listed by id. Rulings are not part of the
model (nor of the cache's entry): they are read from each side's folder, the one
its rulebook was checked from (a git side's temporary copy, a cached side's
folder, whose fingerprint covers the ``_rulings.yaml`` files).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping

from ..ask import AskUsageError, Asked, Asker, fact_value
from ..decision_sets import answer_key
from ..diagnostics import Diagnostic
from ..model import Answer, Edition, Rulebook
from .. import rulings as R
from .source import EditionSource

if TYPE_CHECKING:
    from .sides import Side

Write = Callable[[str], str]

# Why a ruling stops applying (JSON's "reason").
WITHDRAWN, SUPERSEDED, REPLACED = "withdrawn", "superseded", "replaced"
DECISION_GONE, FACT_GONE, CLAUSE_GONE = "decision-gone", "fact-gone", "clause-gone"


@dataclass(frozen=True)
class Said:
    """One edition's answer to a ruling's situation, and the rules that give it."""

    status: str  # as rulebook_compiler.ask.Asked: decided | undecided | impossible | no_answer | conflict | not_asked
    answer: Answer | None
    rules: tuple[str, ...]

    @property
    def words(self) -> str:
        if self.status == "decided":
            return show(self.answer)
        return {"undecided": "undecided", "impossible": "ruled out by the constraints", "no_answer": "no rule answers",
                "conflict": "in conflict", "not_asked": "not asked"}[self.status]

    def as_json(self) -> dict[str, Any]:
        return {"status": self.status, "answer": self.answer, "rules": list(self.rules)}


@dataclass(frozen=True)
class Flip:
    id: str
    question: str
    decision: str
    facts: tuple[tuple[str, Answer], ...]
    ruling: Answer  # the ruling's own answer
    old: Said
    new: Said

    def as_json(self) -> dict[str, Any]:
        return {"id": self.id, "question": self.question, "decision": self.decision, "facts": dict(self.facts),
                "ruling": self.ruling, "old": self.old.as_json(), "new": self.new.as_json()}


@dataclass(frozen=True)
class Stopped:
    id: str
    question: str
    reason: str  # one of the reasons above
    said: str  # in words, before ``name``: "edition v2 has no clause "
    name: str = ""  # what is gone, or the edition or rulings that take its place
    by: tuple[str, ...] = ()  # the rulings that supersede or restate it

    @property
    def detail(self) -> str:
        return self.said + self.name

    def words(self, ident: Write = str, words: Write = str) -> str:
        return words(self.said) + (ident(self.name) if self.name else "")

    def as_json(self) -> dict[str, Any]:
        return {"id": self.id, "question": self.question, "reason": self.reason, "detail": self.detail,
                "by": list(self.by)}


@dataclass(frozen=True)
class RulingsDiff:
    flipped: tuple[Flip, ...] = ()
    stopped: tuple[Stopped, ...] = ()
    standing: tuple[str, ...] = ()
    added: tuple[str, ...] = ()
    problems: tuple[Diagnostic, ...] = ()  # a side's _rulings.yaml that could not be read: warned about

    @property
    def empty(self) -> bool:
        """Nothing a reviewer must read: no ruling flips, stops or is added (standing ones change nothing)."""
        return not (self.flipped or self.stopped or self.added)

    @property
    def any(self) -> bool:
        return bool(self.flipped or self.stopped or self.standing or self.added)

    def as_json(self) -> dict[str, Any]:
        return {"flipped": [f.as_json() for f in self.flipped], "stopped": [s.as_json() for s in self.stopped],
                "standing": list(self.standing), "added": list(self.added)}


NONE = RulingsDiff()


# -- comparing ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class RulingSide:
    """One side as the rulings need it: its folder, its rulebook and what the diff reads of the edition."""

    root: Path
    book: Rulebook
    source: EditionSource


def ruling_side(side: "Side") -> RulingSide:
    """A resolved side of ``rulebook diff`` (``rulebook_compiler.diff.sides.Side``): its folder is its rulebook's."""
    return RulingSide(Path(side.book.root), side.book, side.source)


def diff_rulings(old: RulingSide, new: RulingSide) -> RulingsDiff:
    """The rulings of ``old``'s edition, each flipped, stopped or standing in ``new``'s (module docstring)."""
    old_read, new_read = _read(old), _read(new)
    before = dict(old_read.applying).get(old.source.edition.id, ())
    after = {r.id: r for r in dict(new_read.applying).get(new.source.edition.id, ())}
    problems = old_read.problems + tuple(p for p in new_read.problems if p not in old_read.problems)
    if not before and not after:
        return RulingsDiff(problems=problems)
    old_ask, new_ask = _Answers(old.source), _Answers(new.source)
    flipped, stopped, standing = [], [], []
    for ruling in before:
        gone = _stopped(ruling, after, old.source, new.source)
        if gone is not None:
            stopped.append(gone)
            continue
        was, now = old_ask.said(ruling), new_ask.said(ruling)
        if _same(was, now):
            standing.append(ruling.id)
        else:
            flipped.append(Flip(ruling.id, ruling.question, ruling.decision, ruling.facts, ruling.answer, was, now))
    known = {r.id for r in before}
    added = tuple(rid for rid, r in after.items() if rid not in known or r.edition != _edition_of(before, rid))
    return RulingsDiff(tuple(flipped), tuple(stopped), tuple(standing), added, problems)


def applying_keys(root: Path, book: Rulebook) -> dict[str, str]:
    """Edition id -> a digest of the rulings that apply to it, as written (a whole-rulebook diff diffs an
    edition whose rulings differ though its terms do not); problems reading them are the diff's to warn of."""
    import hashlib
    import json

    out = {}
    for edition_id, applying in R.read(root, book).applying:
        rows = [[r.id, r.edition, r.question, r.decision, [[n, v] for n, v in r.facts], r.answer, list(r.cites),
                 r.status, list(r.supersedes)] for r in applying]
        out[edition_id] = hashlib.sha256(json.dumps(rows, separators=(",", ":")).encode("utf-8")).hexdigest()
    return out


def _same(a: Said, b: Said) -> bool:
    """The same outcome: one status, and for a decided one the same value as the model compares values."""
    def key(said: Said) -> tuple[str, tuple[str, Answer] | None]:
        return said.status, None if said.answer is None else answer_key(said.answer)

    return key(a) == key(b)


def _read(side: RulingSide) -> R.Rulings:
    return R.read(side.root, side.book)


def _edition_of(rulings: Iterable[R.Ruling], rid: str) -> str | None:
    return next((r.edition for r in rulings if r.id == rid), None)


def _stopped(ruling: R.Ruling, after: Mapping[str, R.Ruling], old: EditionSource,
             new: EditionSource) -> Stopped | None:
    """Why the ruling no longer applies to the new edition, or None when it still does. What the old
    edition lacked too (a clause gone before it) is no change: the ruling's answers are compared."""
    if ruling.id not in after:
        by = tuple(r.id for r in after.values() if ruling.id in r.supersedes)
        if by:
            return Stopped(ruling.id, ruling.question, SUPERSEDED, "superseded by ", ", ".join(by), by)
        return Stopped(ruling.id, ruling.question, WITHDRAWN, "withdrawn by edition ", new.edition.id)
    restated = after[ruling.id]
    if restated.edition != ruling.edition:
        return Stopped(ruling.id, ruling.question, REPLACED, "restated by edition ", restated.edition, (ruling.id,))
    gone = _gone(ruling, new)
    if gone is None:
        return None
    before = _gone(ruling, old)
    return None if before is not None and (before.reason, before.name) == (gone.reason, gone.name) else gone


def _gone(ruling: R.Ruling, source: EditionSource) -> Stopped | None:
    """The first of the ruling's decision, facts and cited clauses the edition lacks."""
    edition = source.edition
    if not source.exists(("decision", ruling.decision)):
        return Stopped(ruling.id, ruling.question, DECISION_GONE, f"edition {edition.id} has no decision ",
                       ruling.decision)
    for name, value in ruling.facts:
        try:
            fact_value(edition.vocabulary, edition.id, name, value, "--situation")
        except AskUsageError:
            said = (f"edition {edition.id} has no value {show(value)} of fact "
                    if name in edition.vocabulary.by_name else f"edition {edition.id} has no fact ")
            return Stopped(ruling.id, ruling.question, FACT_GONE, said, name)
    for ref in ruling.cites:
        if not _has_clause(source, ref):
            return Stopped(ruling.id, ruling.question, CLAUSE_GONE, f"edition {edition.id} has no clause ", ref)
    return None


def _has_clause(source: EditionSource, ref: str) -> bool:
    """Whether the edition has the clause ``term#clause``: only its term is read (from the cache, if cached)."""
    term_id = ref.split("#", 1)[0]
    if term_id not in source.digests():
        return False
    return any(c.ref == ref for c in source.term(term_id).clauses)


class _Answers:
    """One side's answers to rulings: an ``Asker`` per edition evaluated (the whole edition when in memory,
    from the cache the terms each decision's evaluation reads)."""

    def __init__(self, source: EditionSource):
        self.source = source
        self._askers: dict[str, Asker] = {}
        self._editions: dict[str, Edition] = {}

    def said(self, ruling: R.Ruling) -> Said:
        if not self.source.exists(("decision", ruling.decision)):
            return Said("not_asked", None, ())
        try:
            facts = {n: fact_value(self.source.edition.vocabulary, "", n, v, "--situation") for n, v in ruling.facts}
        except AskUsageError:
            return Said("impossible", None, ())
        return _said(self._asker(ruling.decision).ask(ruling.decision, facts))

    def _asker(self, decision: str) -> Asker:
        if decision not in self._askers:
            edition = self.source.evaluable([("decision", decision)])
            self._askers[decision] = Asker(edition)
        return self._askers[decision]


def _said(asked: Asked) -> Said:
    return Said(asked.status, asked.answer, tuple(c.rule for c in asked.applied))


# -- in words (text, Markdown and HTML write these with their own escaping) ----------------------------

def show(value: Answer | None) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def facts_words(facts: Iterable[tuple[str, Answer]]) -> str:
    return ", ".join(f"{name}={show(value)}" for name, value in facts) or "any situation"


def said_words(said: Said, ident: Write = str, words: Write = str) -> str:
    rules = f" ({', '.join(ident(r) for r in said.rules)})" if said.rules else ""
    return words(said.words) + rules


def count_line(diff: RulingsDiff) -> str:
    """How many of the old edition's rulings flip, stop applying and stand; how many the new one adds."""
    parts = [f"{len(diff.flipped)} flipped", f"{len(diff.stopped)} no longer applying",
             f"{len(diff.standing)} standing"]
    return ", ".join(parts) + (f"; {len(diff.added)} added" if diff.added else "")


def flip_words(flip: Flip, ident: Write = str, words: Write = str) -> str:
    """What the two editions answer to the ruling's situation."""
    return (f"{ident(flip.decision)} {words('when ' + facts_words(flip.facts))}: "
            f"{words('old')} {said_words(flip.old, ident, words)}, {words('new')} {said_words(flip.new, ident, words)}"
            f"{words('; the ruling says ' + show(flip.ruling))}")


def standing_words(diff: RulingsDiff, ident: Write = str, limit: int | None = None) -> str:
    """The standing rulings' ids, the first ``limit`` of them (all with None), then how many more."""
    shown = diff.standing if limit is None else diff.standing[:limit]
    more = len(diff.standing) - len(shown)
    return ", ".join(map(ident, shown)) + (f" and {more} more" if more else "")


def text_lines(diff: RulingsDiff) -> list[str]:
    """The section's items for a terminal and a page, after ``count_line`` (plain: the caller escapes)."""
    lines = []
    for f in diff.flipped:
        lines += [f"flipped {f.id}: {f.question}", f"  {flip_words(f)}"]
    lines += [f"no longer applying {s.id}: {s.detail}" for s in diff.stopped]
    if diff.standing:
        lines.append(f"standing: {standing_words(diff)}")
    if diff.added:
        lines.append(f"added: {', '.join(diff.added)}")
    return lines


#: The standing rulings named in a pull-request comment; the rest are counted.
STANDING_SHOWN = 20


def markdown_items(diff: RulingsDiff, ident: Write, words: Write) -> list[str]:
    """The section's list items for a pull-request comment, each one line (``ident``: a code span,
    ``words``: escaped prose): flips first, then those that stop applying, the standing and the added."""
    items = [f"- **flipped** {ident(f.id)}: {words(f.question)}<br>{flip_words(f, ident, words)}"
             for f in diff.flipped]
    items += [f"- **no longer applying** {ident(s.id)}: {s.words(ident, words)}" for s in diff.stopped]
    if diff.standing:
        items.append(f"- standing: {standing_words(diff, ident, STANDING_SHOWN)}")
    if diff.added:
        shown = diff.added[:STANDING_SHOWN]
        more = len(diff.added) - len(shown)
        items.append(f"- added: {', '.join(map(ident, shown))}" + (f" and {more} more" if more else ""))
    return items
