"""Rulings: the committee's answers to questions, kept as data and held against the model.

Each edition folder may hold ``_rulings.yaml`` (docs/format.md, "Rulings"). A
ruling applies from its edition on, until a later edition withdraws it, replaces
it (a ruling with the same id) or supersedes it (``supersedes``). ``rulebook
check`` asks each edition, as ``rulebook ask`` would (rulebook_compiler/ask.py), every
ruling that applies to it, and reports at the ruling's lines: an answer that
differs from the ruling's, a situation the constraints rule out or the facts do
not decide, a decision, fact, value or cited clause the edition does not know.

Rulings are read after the model is built and are not part of it: the lock and
the digests of published editions do not change when a ruling is added.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Iterator

from .ask import AskUsageError, Asked, Asker, fact_value
from .build import EDITIONS_DIR, RULINGS_FILE
from .decision_sets import answer_key
from .diagnostics import Diagnostic, Location, did_you_mean
from .evaluate import show_state
from .model import Answer, Edition, Rulebook
from .yamlsource import Document, load


@dataclass(frozen=True)
class Source:
    who: str
    where: str
    date: str


@dataclass(frozen=True)
class Ruling:
    id: str
    edition: str  # the edition whose _rulings.yaml gives it
    question: str
    decision: str
    facts: tuple[tuple[str, Answer], ...]  # as written, in order
    answer: Answer
    cites: tuple[str, ...]
    source: Source
    status: str  # official | committee
    supersedes: tuple[str, ...]
    notes: str | None
    doc: Document  # where each of its values is written
    index: int  # its place in the file's list

    def at(self, *path) -> Location:
        return self.doc.at(("rulings", self.index) + path)


@dataclass(frozen=True)
class Rulings:
    """The rulings that apply to each edition (edition id -> rulings, by id), and the problems of reading them."""

    applying: tuple[tuple[str, tuple[Ruling, ...]], ...]
    problems: tuple[Diagnostic, ...]


def read(root: Path, book: Rulebook) -> Rulings:
    """Every edition's _rulings.yaml, schema-checked, carried over edition to edition."""
    from . import schema
    from .cache import shown_path

    problems: list[Diagnostic] = []
    active: dict[str, Ruling] = {}
    applying = []
    for edition in book.editions:
        rel = f"{EDITIONS_DIR}/{edition.id}/{RULINGS_FILE}"
        path = Path(root) / rel
        if path.is_file():
            doc, found = _load(Path(root), path, shown_path(root, rel))
            problems += found
            if doc is not None:
                found = schema.validate(doc, "rulings")
                problems += found
                if not found:
                    _apply(doc, edition.id, active, problems)
        applying.append((edition.id, tuple(active.values())))
    return Rulings(tuple(applying), tuple(problems))


def _load(root: Path, path: Path, shown: str) -> tuple[Document | None, list[Diagnostic]]:
    if not path.resolve().is_relative_to(root.resolve()):  # as the build refuses links out of the folder
        return None, [Diagnostic(Location(shown), "a symbolic link to outside the rulebook folder",
                                 "a rulebook reads only files inside its folder; copy the file in")]
    doc, problems = load(path, shown)
    if doc is not None and not isinstance(doc.data, dict):
        return None, problems + [Diagnostic(doc.at(), "the file must hold a mapping of keys to values")]
    return doc, problems


def _apply(doc: Document, edition: str, active: dict[str, Ruling], problems: list[Diagnostic]) -> None:
    """This edition's withdrawals, replacements and new rulings, on the rulings carried to it."""
    for i, rid in enumerate(doc.data.get("withdrawn", [])):
        if rid not in active or active[rid].edition == edition:
            problems.append(_no_earlier(doc.at(("withdrawn", i)), "withdraws", rid, active))
        else:
            del active[rid]
    seen: set[str] = set()
    for i, raw in enumerate(doc.data.get("rulings", [])):
        ruling = _ruling(doc, edition, i, raw)
        if ruling.id in seen:
            problems.append(Diagnostic(ruling.at("id"), f"ruling '{ruling.id}' is given twice in this file",
                                       "give each ruling a unique id"))
            continue
        seen.add(ruling.id)
        for j, old in enumerate(ruling.supersedes):
            if old not in active or active[old].edition == edition:
                problems.append(_no_earlier(ruling.at("supersedes", j), "supersedes", old, active))
            else:
                del active[old]
        active.pop(ruling.id, None)  # an earlier edition's ruling of this id is replaced from here on
        active[ruling.id] = ruling


def _no_earlier(loc: Location, verb: str, rid: str, active: dict[str, Ruling]) -> Diagnostic:
    return Diagnostic(loc, f"{verb} ruling '{rid}', which no earlier edition's rulings hold",
                      did_you_mean(rid, active) or "name a ruling of an earlier edition that still applies")


def _ruling(doc: Document, edition: str, index: int, raw: dict) -> Ruling:
    source = raw["source"]
    return Ruling(raw["id"], edition, raw["question"], raw["decision"], tuple(raw["facts"].items()), raw["answer"],
                  tuple(raw["cites"]), Source(source["who"], source["where"], str(source["date"])), raw["status"],
                  tuple(raw.get("supersedes", ())), raw.get("notes"), doc, index)


# -- holding the model to them ----------------------------------------------------

def problems(root: Path, book: Rulebook) -> list[Diagnostic]:
    """What ``rulebook check`` reports about the rulings: reading them, then each edition's answers."""
    rulings = read(root, book)
    out = list(rulings.problems)
    said: set[tuple[Location, str]] = set()  # a ruling's problem is reported once, at the first edition it has it
    for edition_id, applying in rulings.applying:
        if not applying:
            continue
        edition = book.edition_by_id[edition_id]
        asker = Asker(edition)  # one BDD manager for the edition's questions, each decision's diagrams once
        for ruling in applying:
            for found in _held(edition, ruling, asker):
                if (found.location, found.message) in said:
                    continue
                said.add((found.location, found.message))
                if ruling.edition != edition.id:  # carried over: say which edition fails it
                    found = replace(found, message=f"{found.message}, in edition '{edition.id}'",
                                    hint=(f"{found.hint}; " if found.hint else "") + _withdraw_hint(edition, ruling))
                out.append(found)
    return sorted(out, key=lambda d: (d.location.path, d.location.line, d.location.col))


def held(edition: Edition, ruling: Ruling, asker: Asker) -> list[Diagnostic]:
    """The ruling's problems in ``edition`` (none: the edition answers as the ruling does), as ``check``
    words them before naming a carried-over ruling's edition."""
    return list(_held(edition, ruling, asker))


def situation(edition: Edition, ruling: Ruling) -> dict[str, Answer] | None:
    """The ruling's facts as the edition's values, or None when the edition does not know one."""
    return _facts(edition, ruling)[0]


def _held(edition: Edition, ruling: Ruling, asker: Asker) -> Iterator[Diagnostic]:
    """The ruling's problems in one edition, worded alike in every edition."""
    facts, found = _facts(edition, ruling)
    yield from found
    found = list(_cites(edition, ruling))
    yield from found
    decision = edition.decisions.get(ruling.decision)
    if decision is None:
        hint = did_you_mean(ruling.decision, edition.decisions)
        yield Diagnostic(ruling.at("decision"), f"ruling '{ruling.id}' asks about decision '{ruling.decision}', "
                         "which the edition does not have",
                         hint)
        return
    if ruling.answer not in decision.domain or not any(answer_key(ruling.answer) == answer_key(v)
                                                       for v in decision.domain):
        yield Diagnostic(ruling.at("answer"), f"ruling '{ruling.id}' answers {_show(ruling.answer)}, which is not "
                         f"a value of decision '{ruling.decision}'",
                         f"its values: {', '.join(_show(v) for v in decision.domain)}")
        return
    if facts is None:
        return
    yield from _answered(ruling, asker.ask(ruling.decision, facts))


def _facts(edition: Edition, ruling: Ruling) -> tuple[dict[str, Answer] | None, list[Diagnostic]]:
    out: dict[str, Answer] = {}
    found = []
    for name, value in ruling.facts:
        try:
            out[name] = fact_value(edition.vocabulary, "", name, value, "--situation")
        except AskUsageError as exc:
            found.append(Diagnostic(ruling.at("facts", name), f"ruling '{ruling.id}': {exc}"))
    return (None if found else out), found


def _cites(edition: Edition, ruling: Ruling) -> Iterator[Diagnostic]:
    for i, ref in enumerate(ruling.cites):
        if ref not in edition.clause_by_ref:
            hint = did_you_mean(ref, edition.clause_by_ref)
            yield Diagnostic(ruling.at("cites", i), f"ruling '{ruling.id}' cites clause '{ref}', which the edition "
                             "does not have",
                             hint or "cite a clause as TERM#CLAUSE, as the edition has it")


def _answered(ruling: Ruling, asked: Asked) -> Iterator[Diagnostic]:
    """The model's answer against the ruling's."""
    state = show_state(dict(ruling.facts)) if ruling.facts else "(any situation)"
    if asked.status == "impossible":
        names = ", ".join(f"{c.id} ({c.text})" for c in asked.ruled_out_by)
        yield Diagnostic(ruling.at("facts"), f"ruling '{ruling.id}' asks of a situation the constraints rule out"
                         f": {state}; constraint {names}",
                         "the ruling's facts describe no real game state: correct them, or the constraint")
        return
    if asked.status == "undecided":
        needs = ", ".join(m.fact for m in asked.missing)
        could = " or ".join(o.words() for o in asked.possible)
        yield Diagnostic(ruling.at("facts"), f"ruling '{ruling.id}': these facts do not decide "
                         f"'{ruling.decision}': it could be {could}, depending on {needs}",
                         "give the ruling the facts that decide it, or check the rules it reads")
        return
    if asked.answer is not None and answer_key(asked.answer) == answer_key(ruling.answer):
        return
    said = _show(asked.answer) if asked.status == "decided" else {
        "not_asked": f"nothing: the decision is not asked here (only when {asked.given})",
        "no_answer": "nothing: no rule answers", "conflict": "in conflict"}[asked.status]
    rules = "; ".join(f"{c.rule} says {' or '.join(_show(v) for v in c.says)}" for c in asked.applied)
    yield Diagnostic(ruling.at("answer"), f"ruling '{ruling.id}' answers {_show(ruling.answer)} when {state}, but "
                     f"the edition answers {said}" + (f": {rules}" if rules else ""),
                     "the rules or the ruling are wrong: fix the rules that answered (in a published edition, "
                     f"through 'rulebook correct'), or the ruling; 'rulebook ask {ruling.decision}' shows why")


def _withdraw_hint(edition: Edition, ruling: Ruling) -> str:
    return (f"if the ruling no longer holds from this edition on, withdraw it in editions/{edition.id}/{RULINGS_FILE} "
            f"(withdrawn: [{ruling.id}])")


def _show(value: Answer | None) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)
