"""The checked, immutable rulebook that every back end reads.

Built only by ``rulebook_compiler.build`` from sources that passed every check; back
ends (export, conformance, diff, site) read it and never change it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Mapping, Union

from .conditions import Condition
from .diagnostics import Location

Answer = Union[bool, str]


def clause_ref(term: str, clause: str) -> str:
    """How a clause is cited: ``heal#healable``."""
    return f"{term}#{clause}"


@dataclass(frozen=True)
class Fact:
    name: str
    type: str  # bool | enum
    values: tuple[str, ...]  # empty for bool
    meaning: str
    loc: Location = field(compare=False, repr=False)
    ordered: bool = False  # an enum whose values are listed in order: comparisons may test it

    @property
    def domain(self) -> tuple[Answer, ...]:
        return (False, True) if self.type == "bool" else self.values


@dataclass(frozen=True)
class Constraint:
    id: str
    text: str
    never: Condition
    loc: Location = field(compare=False, repr=False)


@dataclass(frozen=True)
class Vocabulary:
    """The facts an edition's conditions may test and the constraints between them.

    Each edition has its own (``Edition.vocabulary``): the rulebook's
    vocabulary.yaml as each edition's ``_vocabulary.yaml`` changes it.
    """

    facts: tuple[Fact, ...]
    constraints: tuple[Constraint, ...]

    @cached_property
    def by_name(self) -> Mapping[str, Fact]:
        return {f.name: f for f in self.facts}

    @cached_property
    def orders(self) -> Mapping[str, tuple[str, ...]]:
        """Each ordered fact's values in order: what comparisons are compiled against."""
        return {f.name: f.values for f in self.facts if f.ordered}


@dataclass(frozen=True)
class Predicate:
    name: str
    meaning: str | None
    condition: Condition
    clause: str  # qualified clause ref
    loc: Location = field(compare=False, repr=False)


@dataclass(frozen=True)
class Decision:
    name: str
    type: str  # bool | enum
    values: tuple[str, ...]
    meaning: str
    given: Condition | None
    term: str
    loc: Location = field(compare=False, repr=False)

    @property
    def domain(self) -> tuple[Answer, ...]:
        return (False, True) if self.type == "bool" else self.values


@dataclass(frozen=True)
class Rule:
    """One contribution of a clause to a decision, in normal form.

    ``kind`` is value, requires, forbids or permits; ``test`` is the condition
    of the last three; ``exception_to`` lists the clauses whose rules this one
    overrides wherever it answers.
    """

    decision: str
    clause: str
    kind: str
    when: Condition | None
    value: Answer | None
    test: Condition | None
    exception_to: tuple[str, ...]
    id: str | None
    notes: str | None
    loc: Location = field(compare=False, repr=False)
    from_table: bool = False  # stands for a row of the clause's table
    exception_locs: tuple[Location, ...] = field(default=(), compare=False, repr=False)

    @property
    def ref(self) -> str:
        return f"{self.clause}/{self.id}" if self.id else self.clause

    @property
    def answer(self) -> Answer:
        """A value rule's value (the schema requires one)."""
        assert self.value is not None, f"rule {self.ref} is a {self.kind} rule, with no value"
        return self.value

    @property
    def tested(self) -> Condition:
        """A requires or forbids rule's test (the schema requires one)."""
        assert self.test is not None, f"rule {self.ref} is a {self.kind} rule, with no test"
        return self.test


@dataclass(frozen=True)
class Steps:
    procedure: str
    order: tuple[str, ...]  # qualified clause refs


@dataclass(frozen=True)
class TableRow:
    keys: tuple[Answer, ...]  # the values of the table's key (its first, when it has several) the row matches
    value: Answer
    further: tuple[tuple[Answer, ...], ...] = ()  # the values of each further key, in the table's order
    loc: Location | None = field(default=None, compare=False, repr=False)
    # where each value of each key is written, as ``cells``
    value_locs: tuple[tuple[Location, ...], ...] = field(default=(), compare=False, repr=False)

    @property
    def cells(self) -> tuple[tuple[Answer, ...], ...]:
        """The values the row matches, for each of the table's keys in order."""
        return (self.keys,) + self.further


@dataclass(frozen=True)
class Table:
    """Value rules over key facts, written compactly. A term's tables for one
    decision are one table (``rulebook_compiler/tables.py``): ``otherwise`` answers every
    situation that none of their rows covers."""

    decision: str
    key: str  # the key fact (the first, when there are several)
    rows: tuple[TableRow, ...]
    further_keys: tuple[str, ...] = ()  # the key facts after the first
    otherwise: Answer | None = None
    several: bool = False  # written with a list of keys (rows then map each key to its values)
    loc: Location | None = field(default=None, compare=False, repr=False)
    key_locs: tuple[Location, ...] = field(default=(), compare=False, repr=False)
    otherwise_loc: Location | None = field(default=None, compare=False, repr=False)

    @property
    def facts(self) -> tuple[str, ...]:
        return (self.key,) + self.further_keys


@dataclass(frozen=True)
class Link:
    phrase: str
    term: str
    clause: str | None
    loc: Location | None = field(default=None, compare=False, repr=False)


#: The lineage keys a clause may declare, in the order the docs list them.
LINEAGE_KINDS = ("formerly", "split_from", "merged_from", "moved_from")


@dataclass(frozen=True)
class Lineage:
    """What a clause was in the edition before the one whose file gives it.

    ``kind`` is one of ``LINEAGE_KINDS``; ``clause`` and ``sources`` are
    qualified refs (``term#clause``). No location: an edition's list of them
    is kept with the edition (and in the cache's copy of it), whose locations
    name rulebook.yaml only.
    """

    clause: str
    kind: str
    sources: tuple[str, ...]

    @property
    def continues(self) -> bool:
        """Whether the clause continues its sources whole (a split takes only a part)."""
        return self.kind != "split_from"


@dataclass(frozen=True)
class Clause:
    id: str
    term: str
    section: str
    text: str
    notes: str | None
    links: tuple[Link, ...]
    defines: Predicate | None
    rules: tuple[Rule, ...]  # includes the rules a table stands for
    steps: Steps | None
    table: Table | None
    loc: Location = field(compare=False, repr=False)
    lineage: Lineage | None = None  # declared: what this clause was in the edition before
    editor_notes: str | None = None  # modelling and transcription remarks, not the publisher's
    number: str | None = None  # the number the publisher prints ("100.1a"): data, apart from the id
    # The digest of the words its rules were checked against (rulebook_compiler.rules_checked): editor data.
    rules_checked: str | None = None

    @property
    def ref(self) -> str:
        return clause_ref(self.term, self.id)


@dataclass(frozen=True)
class Section:
    key: str
    kind: str
    title: str | None
    clauses: tuple[Clause, ...]


@dataclass(frozen=True)
class Dated:
    """An entry's "Last Updated" or "Released" as the publisher prints it: a date and the
    publisher's version label ("3/13/2026 (v11.0.0)" is date 2026-03-13, version 11.0.0)."""

    date: str | None
    version: str
    loc: Location = field(compare=False, repr=False)  # where the version is written
    date_loc: Location | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Term:
    id: str
    name: str
    aliases: tuple[str, ...]
    notes: str | None
    decisions: tuple[Decision, ...]
    sections: tuple[Section, ...]
    edition: str  # the edition whose file gave this version of the term
    digest: str  # hash of the term's content, for skipping unchanged terms
    loc: Location = field(compare=False, repr=False)
    # A patched term (rulebook_compiler.overlay): the earlier term files it keeps values from, whose
    # lines some of its locations name; () for a term written whole.
    bases: tuple[Location, ...] = field(default=(), compare=False, repr=False)
    editor_notes: str | None = None
    updated: Dated | None = None  # "Last Updated", as the entry prints it
    released: Dated | None = None  # "Released", as the entry prints it

    @cached_property  # asked for often while checking: made once (a frozen dataclass keeps it in __dict__)
    def clauses(self) -> tuple[Clause, ...]:
        return tuple(c for s in self.sections for c in s.clauses)


@dataclass(frozen=True)
class Chapter:
    """A chapter of the guide as an edition prints it: its title and its terms, in the order printed."""
    title: str
    terms: tuple[str, ...]
    loc: Location = field(compare=False, repr=False)
    term_locs: tuple[Location, ...] = field(default=(), compare=False, repr=False)


@dataclass(frozen=True)
class Edition:
    id: str
    title: str
    date: str | None
    status: str
    sources: tuple[str, ...]
    notes: str | None
    terms: tuple[Term, ...]  # resolved: overlays applied, sorted by id
    changed: tuple[str, ...]  # ids of terms this edition's own files add or change
    withdrawn: tuple[str, ...]
    loc: Location = field(compare=False, repr=False)
    # The lineage its own files declare, by clause ref: what the diff of any two
    # editions composes (a cached edition holds this, not its terms).
    lineage: tuple[Lineage, ...] = ()
    # The facts and constraints this edition knows, and only those: its checks, suites,
    # situations and pages use them alone (an edition never sees a later one's).
    vocabulary: Vocabulary = field(default=Vocabulary((), ()))
    editor_notes: str | None = None
    version: str | None = None  # the publisher's version label, when it is not the id
    not_held_before: str | None = None  # for readers: the versions between the previous edition and this one not held
    chapters: tuple[Chapter, ...] = ()  # the guide's chapters and order of terms, where declared (not locked)

    @property
    def label(self) -> str:
        """The publisher's version label: ``version``, else the id."""
        return self.version if self.version is not None else self.id

    @cached_property
    def term_by_id(self) -> Mapping[str, Term]:
        return {t.id: t for t in self.terms}

    @cached_property
    def clause_by_ref(self) -> Mapping[str, Clause]:
        return {c.ref: c for t in self.terms for c in t.clauses}

    @cached_property
    def predicates(self) -> Mapping[str, Predicate]:
        return {c.defines.name: c.defines for t in self.terms for c in t.clauses if c.defines}

    @cached_property
    def decisions(self) -> Mapping[str, Decision]:
        return {d.name: d for t in self.terms for d in t.decisions}

    @cached_property
    def rules(self) -> Mapping[str, tuple[Rule, ...]]:
        """Rules by decision, in term and clause order."""
        found: dict[str, list[Rule]] = {name: [] for name in self.decisions}
        for term in self.terms:
            for clause in term.clauses:
                for rule in clause.rules:
                    found.setdefault(rule.decision, []).append(rule)
        return {k: tuple(v) for k, v in found.items()}


@dataclass(frozen=True)
class Correction:
    """One entry of the corrections log (``corrections.yaml``): a published edition locked or corrected.

    ``kind`` is ``publish`` (the edition's first lock), ``transcription`` (the editors fix
    their transcription of the text or of its meaning: the rule is as published) or
    ``erratum`` (the publisher changed a rule of the published edition). ``changed`` lists
    what the entry changed: clause refs (``heal#healable``) and term ids (the term's own
    name, aliases, notes, decisions or sections).
    """

    date: str
    edition: str
    kind: str
    reason: str
    changed: tuple[str, ...]
    loc: Location = field(compare=False, repr=False)
    # Written by 'rulebook publish' and 'rulebook correct' since the log holds them (rulebook_compiler/review.py);
    # an entry written before has neither: the refs of ``changed`` that name what it removed (they
    # exist in the edition before it, not after), and the SHA-256 digest of the edition it locked.
    removed: tuple[str, ...] = ()
    lock: str | None = None

    @property
    def is_rule_change(self) -> bool:
        return self.kind == "erratum"


@dataclass(frozen=True)
class Rulebook:
    root: str
    title: str
    publisher: str
    notes: str | None
    editions: tuple[Edition, ...]
    editor_notes: str | None = None
    corrections: tuple[Correction, ...] = ()  # the corrections log, oldest first

    @cached_property
    def edition_by_id(self) -> Mapping[str, Edition]:
        return {e.id: e for e in self.editions}

    @property
    def latest(self) -> Edition:
        return self.editions[-1]

    def edition(self, edition_id: str | None) -> Edition:
        """The edition with this id (the latest for None); KeyError if unknown."""
        return self.latest if edition_id is None else self.edition_by_id[edition_id]
