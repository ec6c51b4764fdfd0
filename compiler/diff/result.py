"""What a diff found: ``Change`` and ``DiffResult``, and the small records their fields hold.

A leaf of the diff: the renderers, the changelog, history and the site read
results from here and never import the engine (``compiler.diff.engine``),
which builds them. Each record writes the JSON keys of docs/diff.md
(``as_json``); the contract is the one the dicts before them wrote.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..model import Edition

from . import classify as K
from . import level as L
from . import names as N
from .behaviour import Behaviour
from .flags import Flag
from .inside import SubChange
from .redline import Redline
from .rulings import NONE as NO_RULINGS, RulingsDiff
from .vocabulary import NO_CHANGES, VocabularyChanges


@dataclass(frozen=True)
class Place:
    """Where a clause is written: ``{"file", "line", "column"}`` (the file as the diff shows it)."""

    file: str
    line: int
    column: int

    def as_json(self) -> dict[str, Any]:
        return {"file": self.file, "line": self.line, "column": self.column}


@dataclass(frozen=True)
class StepMove:
    """A step of a procedure at another place: ``{"procedure", "old", "new"}`` (1-based)."""

    procedure: str
    old: int
    new: int

    def as_json(self) -> dict[str, Any]:
        return {"procedure": self.procedure, "old": self.old, "new": self.new}


@dataclass(frozen=True)
class Numbers:
    """The printed rule numbers of a clause when they differ: ``{"old": "704.5k", "new": "704.5j"}``."""

    old: str | None
    new: str | None

    def as_json(self) -> dict[str, Any]:
        return {"old": self.old, "new": self.new}


@dataclass(frozen=True)
class LineageNote:
    """A pairing by declared lineage: ``{"keys": [lineage keys], "from": [old refs], "to": [new refs]}``."""

    keys: tuple[str, ...]
    olds: tuple[str, ...]
    news: tuple[str, ...]

    def as_json(self) -> dict[str, Any]:
        return {"keys": list(self.keys), "from": list(self.olds), "to": list(self.news)}


def _json(record: Any) -> Any:
    return None if record is None else record.as_json()


@dataclass(frozen=True)
class Change:
    """One reviewed change: a clause (or a term's heading) that differs."""

    kind: str
    term: str
    clause: str | None
    old_clause: str | None
    new_clause: str | None
    old_text: str | None
    new_text: str | None
    old_location: Place | None
    new_location: Place | None
    matched_by: str | None
    confidence: float | None
    redline: Redline
    behaviours: tuple[Behaviour, ...] = ()
    impact: tuple[dict, ...] = ()
    moved: bool = False
    old_section: str | None = None
    new_section: str | None = None
    old_term: str | None = None  # differs from new_term when a clause moved to another term
    new_term: str | None = None
    structure: tuple[dict, ...] = ()
    drift: tuple[Flag, ...] = ()  # each its words and the identifiers it names (compiler.diff.flags)
    fingerprint: str = ""
    # When matched by declared lineage: {"keys": [lineage keys], "from": [old refs], "to": [new refs]}.
    lineage: LineageNote | None = None
    # A step of a procedure at another place: {"procedure", "old", "new"} (1-based).
    step: StepMove | None = None
    # editorial | clarification | rule-change (compiler.diff.level).
    level: str = L.EDITORIAL
    # The printed rule numbers when they differ: {"old": "704.5k", "new": "704.5j"}.
    numbers: Numbers | None = None
    # The printed number the change's clause is cited by (compiler.numbers.cited): the new side's, the
    # old side's for a withdrawn rule, "+"-joined for several (a split's parts); None when none prints one.
    number: str | None = None
    # A procedure whose steps changed (compiler.diff.steps.procedure_changes).
    procedure: dict | None = None
    # The decisions, predicates and constraints this change adds, removes or changes, each listed once
    # in DiffResult.names: [{"kind", "name", "status"}] (compiler.diff.names).
    names: tuple[dict, ...] = ()
    # Cases of the previous edition's suite that flip where this change's clauses decide:
    # {"suite", "of", "flipped", "examples"}; None when none was evaluated (compiler.diff.conformance_impact).
    conformance: dict | None = None
    # What changed inside the clause: items added, removed, moved; each edit (compiler.diff.inside).
    sub_changes: tuple[SubChange, ...] = ()
    # A clause whose text and rules are unchanged, listed because its decisions' ``given`` changed
    # and its rules now answer where one side did not ask: those decisions.
    asked: tuple[str, ...] = ()
    # The new clauses whose words the change alters in substance while their answers stay the same,
    # and on which no record says their rules were checked against the new words (rules_checked):
    # ``--fail-on`` counts the change as a rule change (compiler.diff.unaccounted).
    unchecked: tuple[str, ...] = ()

    @property
    def behaviour(self) -> Behaviour | None:
        return self.behaviours[0] if self.behaviours else None

    def as_json(self) -> dict[str, Any]:
        return {
            "fingerprint": self.fingerprint,
            "kind": self.kind,
            "term": self.term,
            "clause": self.clause,
            "old_clause": self.old_clause,
            "new_clause": self.new_clause,
            "old_text": self.old_text,
            "new_text": self.new_text,
            "old_location": _json(self.old_location),
            "new_location": _json(self.new_location),
            "matched_by": self.matched_by,
            "redline": self.redline.as_json(),
            "behaviour": self.behaviour.as_json() if self.behaviour else None,
            "impact": list(self.impact),
            # Beyond the fixed contract: more detail for tools that want it.
            "confidence": self.confidence,
            "moved": self.moved,
            "old_term": self.old_term,
            "new_term": self.new_term,
            "old_section": self.old_section,
            "new_section": self.new_section,
            "other_behaviours": [b.as_json() for b in self.behaviours[1:]],
            "structure": list(self.structure),
            "drift": [f.text for f in self.drift],
            "redline_coarse": self.redline.coarse,
            "lineage": _json(self.lineage),
            "step": _json(self.step),
            "level": self.level,
            "numbers": _json(self.numbers),
            "number": self.number,
            "procedure": self.procedure,
            "names": list(self.names),
            "conformance": self.conformance,
            "sub_changes": [s.as_json() for s in self.sub_changes],
            "asked": list(self.asked),
            "unchecked": list(self.unchecked),
        }


@dataclass(frozen=True)
class DiffResult:
    """Every change between two editions, in term and clause order."""

    old: dict
    new: dict
    changes: tuple[Change, ...]
    behaviours: tuple[Behaviour, ...] = field(default=())  # every name compared, dependents included
    vocabulary: VocabularyChanges = NO_CHANGES  # facts, values and constraints the new edition changed
    # Decisions, predicates and constraints of one side only, and decisions whose answers changed:
    # each listed once, with what it answers (compiler.diff.names).
    names: tuple[N.NameChange, ...] = ()
    # The old edition's rulings: flipped, no longer applying, standing; those added (compiler.diff.rulings).
    rulings: RulingsDiff = NO_RULINGS

    @property
    def summary(self) -> dict[str, int]:
        counts = {k: 0 for k in K.KINDS}
        for change in self.changes:
            counts[change.kind] += 1
        return counts

    @property
    def empty(self) -> bool:
        return not self.changes and self.vocabulary.empty and self.rulings.empty

    def as_json(self) -> dict[str, Any]:
        return {"old": self.old, "new": self.new, "summary": self.summary,
                "changes": [c.as_json() for c in self.changes], "vocabulary": self.vocabulary.as_json(),
                "names": [n.as_json() for n in self.names], "rulings": self.rulings.as_json()}


def side_json(edition: Edition, spec: str | None = None, kind: str = "edition",
              revision: str | None = None) -> dict:
    return {"spec": spec or edition.id, "kind": kind, "edition": edition.id, "title": edition.title,
            "date": edition.date, "status": edition.status, "revision": revision}
