"""What a diff found: ``Change`` and ``DiffResult``, and the small records their fields hold.

A leaf of the diff: the renderers, the changelog, history and the site read
results from here and never import the engine (``rulebook_compiler.diff.engine``),
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
from .steps import ProcedureChange
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


@dataclass(frozen=True)
class Reach:
    """A clause elsewhere that uses what a change touched: ``{"name", "term", "clause", "ref", "via",
    "direction", "side"}`` (``clause`` "" for a decision's ``given``; ``side`` "old", "new" or "both")."""

    name: str
    term: str
    clause: str
    ref: str
    via: str  # "predicate P", "rule for D", "given of D"
    direction: str | None  # how what it depends on changed, when compared
    side: str

    def as_json(self) -> dict[str, Any]:
        return {"name": self.name, "term": self.term, "clause": self.clause, "ref": self.ref, "via": self.via,
                "direction": self.direction, "side": self.side}


@dataclass(frozen=True)
class StructureEdit:
    """A machine-readable part diffed with deepdiff: ``{"change", "path", "old", "new"}``."""

    change: str  # deepdiff's report: values_changed, type_changes, iterable_item_added ...
    path: str
    old: Any
    new: Any

    def as_json(self) -> dict[str, Any]:
        return {"change": self.change, "path": self.path, "old": self.old, "new": self.new}


@dataclass(frozen=True)
class FlippedCase:
    """A case of the old suite that flips: ``{"id", "name", "expected", "now"}``."""

    id: str
    name: str
    expected: Any  # the answer the case expects
    now: tuple[str, ...]  # what the new edition gives where it flips

    def as_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "expected": self.expected, "now": list(self.now)}


@dataclass(frozen=True)
class Conformance:
    """The old suite's cases where a change (or a name) decides, and those that flip:
    ``{"suite", "of", "flipped", "examples"}`` (rulebook_compiler.diff.conformance_impact)."""

    suite: str
    of: int
    flipped: int
    examples: tuple[FlippedCase, ...]

    def as_json(self) -> dict[str, Any]:
        return {"suite": self.suite, "of": self.of, "flipped": self.flipped,
                "examples": [e.as_json() for e in self.examples]}


@dataclass(frozen=True)
class SideInfo:
    """One side of a diff as the command line named it: ``{"spec", "kind", "edition", "title", "date",
    "status", "revision"}``."""

    spec: str
    kind: str  # edition | folder | git | none ...
    edition: str
    title: str | None
    date: str | None
    status: str | None
    revision: str | None = None

    def as_json(self) -> dict[str, Any]:
        return {"spec": self.spec, "kind": self.kind, "edition": self.edition, "title": self.title,
                "date": self.date, "status": self.status, "revision": self.revision}


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
    impact: tuple[Reach, ...] = ()  # the clauses elsewhere that use what it touched, transitively
    moved: bool = False
    old_section: str | None = None
    new_section: str | None = None
    old_term: str | None = None  # differs from new_term when a clause moved to another term
    new_term: str | None = None
    structure: tuple[StructureEdit, ...] = ()  # the machine-readable parts that differ (deepdiff)
    drift: tuple[Flag, ...] = ()  # each its words and the identifiers it names (rulebook_compiler.diff.flags)
    fingerprint: str = ""
    # When matched by declared lineage: {"keys": [lineage keys], "from": [old refs], "to": [new refs]}.
    lineage: LineageNote | None = None
    # A step of a procedure at another place: {"procedure", "old", "new"} (1-based).
    step: StepMove | None = None
    # editorial | clarification | rule-change (rulebook_compiler.diff.level).
    level: str = L.EDITORIAL
    # The printed rule numbers when they differ: {"old": "704.5k", "new": "704.5j"}.
    numbers: Numbers | None = None
    # The printed number the change's clause is cited by (rulebook_compiler.numbers.cited): the new side's, the
    # old side's for a withdrawn rule, "+"-joined for several (a split's parts); None when none prints one.
    number: str | None = None
    # A procedure whose steps changed (rulebook_compiler.diff.steps.procedure_changes).
    procedure: ProcedureChange | None = None
    # The decisions, predicates and constraints this change adds, removes or changes, each listed once
    # in DiffResult.names: [{"kind", "name", "status"}] (rulebook_compiler.diff.names).
    names: tuple[N.NameRef, ...] = ()
    # Cases of the previous edition's suite that flip where this change's clauses decide:
    # {"suite", "of", "flipped", "examples"}; None when none was evaluated (rulebook_compiler.diff.conformance_impact).
    conformance: Conformance | None = None
    # What changed inside the clause: items added, removed, moved; each edit (rulebook_compiler.diff.inside).
    sub_changes: tuple[SubChange, ...] = ()
    # A clause whose text and rules are unchanged, listed because its decisions' ``given`` changed
    # and its rules now answer where one side did not ask: those decisions.
    asked: tuple[str, ...] = ()
    # The new clauses whose words the change alters in substance while their answers stay the same,
    # and on which no record says their rules were checked against the new words (rules_checked):
    # ``--fail-on`` counts the change as a rule change (rulebook_compiler.diff.unaccounted).
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
            "impact": [u.as_json() for u in self.impact],
            # Beyond the fixed contract: more detail for tools that want it.
            "confidence": self.confidence,
            "moved": self.moved,
            "old_term": self.old_term,
            "new_term": self.new_term,
            "old_section": self.old_section,
            "new_section": self.new_section,
            "other_behaviours": [b.as_json() for b in self.behaviours[1:]],
            "structure": [e.as_json() for e in self.structure],
            "drift": [f.text for f in self.drift],
            "redline_coarse": self.redline.coarse,
            "lineage": _json(self.lineage),
            "step": _json(self.step),
            "level": self.level,
            "numbers": _json(self.numbers),
            "number": self.number,
            "procedure": _json(self.procedure),
            "names": [r.as_json() for r in self.names],
            "conformance": _json(self.conformance),
            "sub_changes": [s.as_json() for s in self.sub_changes],
            "asked": list(self.asked),
            "unchecked": list(self.unchecked),
        }


@dataclass(frozen=True)
class DiffResult:
    """Every change between two editions, in term and clause order."""

    old: SideInfo
    new: SideInfo
    changes: tuple[Change, ...]
    behaviours: tuple[Behaviour, ...] = field(default=())  # every name compared, dependents included
    vocabulary: VocabularyChanges = NO_CHANGES  # facts, values and constraints the new edition changed
    # Decisions, predicates and constraints of one side only, and decisions whose answers changed:
    # each listed once, with what it answers (rulebook_compiler.diff.names).
    names: tuple[N.NameChange, ...] = ()
    # The old edition's rulings: flipped, no longer applying, standing; those added (rulebook_compiler.diff.rulings).
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
        return {"old": self.old.as_json(), "new": self.new.as_json(), "summary": self.summary,
                "changes": [c.as_json() for c in self.changes], "vocabulary": self.vocabulary.as_json(),
                "names": [n.as_json() for n in self.names], "rulings": self.rulings.as_json()}


def side_info(edition: Edition, spec: str | None = None, kind: str = "edition",
              revision: str | None = None) -> SideInfo:
    return SideInfo(spec or edition.id, kind, edition.id, edition.title, edition.date, edition.status, revision)
