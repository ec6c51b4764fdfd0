"""What changed in a pairing or a term's heading, before behaviour is known: a ``Draft``.

The engine drafts each term's heading (``header_draft``), each pairing of
clauses (``clause_draft``) and each clause listed only because its decision's
``given`` changed (``asked_draft``); the level (``rulebook_compiler.diff.level``) and
the engine's last step read drafts, never dicts by key.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any, Mapping

from ..diagnostics import Location
from ..model import Clause, Term, Vocabulary
from . import classify as K
from .match import Pairing, TermPair

Name = tuple[str, str]  # (kind, name): ("decision", "cure.may_target"), ("predicate", "healable")


@dataclass(frozen=True)
class Draft:
    """One change found, its kind as pairing says (``added``/``removed``/``split``/``merged``, else None)."""

    header: bool  # a term's heading (name, aliases, decisions, sections), not a clause
    term: str
    kind: str | None
    pairing: Pairing | None
    olds: tuple[Clause, ...]
    news: tuple[Clause, ...]
    old_text: str | None
    new_text: str | None
    old_loc: Location | None
    new_loc: Location | None
    names: tuple[Name, ...]  # the decisions and predicates its clauses feed and define
    meaning_changed: bool  # the machine-readable meaning changed (and there is some)
    steps_changed: bool
    structure: tuple[Any, Any] | None  # each side's meaning as plain values, when it changed
    has_meaning: bool  # machine-readable meaning on either side: rules, a definition, steps, a table
    asked: tuple[str, ...] = ()  # unchanged, listed for these decisions whose ``given`` changed

    @property
    def clauses(self) -> tuple[Clause, ...]:
        return self.olds + self.news

    @property
    def one_to_one(self) -> bool:
        """A pairing of one old clause with one new one."""
        return self.pairing is not None and len(self.pairing.old) == 1 and len(self.pairing.new) == 1

    @cached_property
    def tested(self) -> frozenset[str]:
        """What the rules of the draft's clauses test (``classify.keys_tested``), read once per change:
        by the level and by the words they do not account for (``unaccounted``)."""
        return frozenset(K.keys_tested(self.clauses, {}))


@dataclass(frozen=True)
class Terms:
    """The terms a diff read, as the level reads them around a change: each term's pair, each side's
    words per term, and each side's clauses paired with the other's."""

    pair_of: Mapping[str, TermPair]
    words: tuple[Mapping[str, str], Mapping[str, str]]  # old, new: term id -> its clauses' words
    paired: tuple[frozenset[str], frozenset[str]]  # old, new: the refs of clauses paired with the other side's
    vocabularies: tuple[Vocabulary, Vocabulary]  # old, new: each side's own


def header_draft(pair: TermPair) -> Draft | None:
    """A term's heading where it differs; None where it is the same."""
    old_h = _header_json(pair.old) if pair.old else None
    new_h = _header_json(pair.new) if pair.new else None
    if old_h == new_h:
        return None
    names = _decisions_changed(old_h, new_h)
    return Draft(
        header=True, term=pair.id, kind=K.term_kind(pair.old is not None, pair.new is not None), pairing=None,
        olds=(), news=(),
        old_text=_header_text(pair.old) if pair.old else None,
        new_text=_header_text(pair.new) if pair.new else None,
        old_loc=pair.old.loc if pair.old else None, new_loc=pair.new.loc if pair.new else None,
        names=names, meaning_changed=bool(names), steps_changed=False,
        structure=(old_h, new_h), has_meaning=bool(names))


def _decisions_changed(old_h: dict | None, new_h: dict | None) -> tuple[Name, ...]:
    """The decisions a heading declares differently (or on one side only)."""
    old_d = {d["name"]: d for d in old_h["decisions"]} if old_h else {}
    new_d = {d["name"]: d for d in new_h["decisions"]} if new_h else {}
    return tuple(("decision", n) for n in sorted(old_d.keys() | new_d.keys()) if old_d.get(n) != new_d.get(n))


def clause_draft(p: Pairing) -> Draft | None:
    """A pairing's change; None where the clauses are the same (the term changed elsewhere)."""
    old_meaning = [K.meaning_json(c) for c in p.old]
    new_meaning = [K.meaning_json(c) for c in p.new]
    meaning_changed = old_meaning != new_meaning
    kind = K.pairing_kind(p)
    old_text, new_text = _text(p.old), _text(p.new)
    if kind is None and not meaning_changed and old_text == new_text and K.same_but_place(p):
        return None  # the term changed elsewhere; this clause did not (its printed number is what it is cited by)
    has_meaning = any(K.has_meaning(m) for m in old_meaning + new_meaning)
    named = meaning_changed or kind in ("added", "removed")
    return Draft(
        header=False, term=(p.new or p.old)[0].term, kind=kind, pairing=p,
        olds=p.old, news=p.new, old_text=old_text, new_text=new_text,
        old_loc=_loc(p.old), new_loc=_loc(p.new),
        names=tuple(K.names_of(p.old + p.new)) if named else (),
        meaning_changed=meaning_changed and has_meaning,
        steps_changed=K.steps_changed(p.old, p.new),
        structure=(old_meaning, new_meaning) if meaning_changed else None,
        has_meaning=has_meaning)


def _text(clauses: tuple[Clause, ...]) -> str | None:
    """The clauses' words, one after another; None for no clause."""
    return " ".join(c.text for c in clauses) if clauses else None


def _loc(clauses: tuple[Clause, ...]) -> Location | None:
    return clauses[0].loc if clauses else None


def asked_draft(old: Clause, new: Clause, decisions: tuple[str, ...]) -> Draft:
    """A clause whose text and rules are the same on both sides, listed for the decisions whose
    ``given`` changed (the engine lists it where its rules now answer where one side did not ask)."""
    return Draft(
        header=False, term=new.term, kind=None, pairing=Pairing((old,), (new,), "id", 1.0),
        olds=(old,), news=(new,), old_text=old.text, new_text=new.text,
        old_loc=old.loc, new_loc=new.loc, names=tuple(("decision", n) for n in decisions),
        meaning_changed=False, steps_changed=False, structure=None, has_meaning=True, asked=decisions)


def _header_json(term: Term) -> dict:
    from ..jsonform import decision_json

    # Notes are editors' annotations, not rule text: see classify.extras_json.
    return {"name": term.name, "aliases": list(term.aliases),
            "decisions": [decision_json(d) for d in term.decisions],
            "sections": [[s.key, s.kind, s.title] for s in term.sections]}


def _header_text(term: Term) -> str:
    """A term's heading as people read it: name, aliases, notes, decisions, sections."""
    from ..conditions import describe

    lines = [f"Term: {term.name}"]
    if term.aliases:
        lines.append("Aliases: " + ", ".join(term.aliases))
    for d in term.decisions:
        kind = d.type if d.type == "bool" else "one of " + ", ".join(d.values)
        given = f" (asked when {describe(d.given)})" if d.given is not None else ""
        lines.append(f"Decision {d.name} ({kind}): {d.meaning}{given}")
    for s in term.sections:
        lines.append(f"Section {s.key}: {s.title or s.kind}")
    return "\n".join(lines)
