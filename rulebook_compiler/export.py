"""The resolved edition as JSON: the contract that scripts and other tools read.

Top level: ``format``, ``rulebook``, ``edition``, ``terms``, ``facts``,
``constraints``, ``corrections`` (the corrections log's entries for this
edition). ``notes`` are for readers, ``editor_notes`` are the editors'
modelling and transcription remarks. Keys and order are stable; the same model
gives the same bytes.

``clause_records`` is the JSON-lines form (``--format jsonl``): one
self-contained record per clause, the unit that search indexes and rules bots
retrieve and cite (docs/format.md, "Export for retrieval").
"""

from __future__ import annotations

import json
from typing import Any, Iterator

from .conditions import to_json as cond_json
from .jsonform import decision_json, dumps, rule_json, table_json
from .model import Clause, Dated, Edition, Fact, Link, Rulebook, Term
from .sections import section_title
from .urls import permalink

__all__ = ["FORMAT", "clause_json", "clause_records", "decision_json", "dumps", "edition_json",
           "edition_meta_json", "fact_json", "jsonl", "jsonl_line", "permalink", "rule_json", "table_json",
           "term_json"]  # decision_json, dumps, rule_json, table_json: from rulebook_compiler.jsonform

FORMAT = "rulebook-export/1"


def edition_json(book: Rulebook, edition: Edition) -> dict[str, Any]:
    """One edition, overlays applied, as plain JSON values."""
    return {
        "format": FORMAT,
        "rulebook": {"title": book.title, "publisher": book.publisher},
        "edition": edition_meta_json(edition),
        "terms": [term_json(t) for t in edition.terms],
        "facts": [fact_json(f) for f in edition.vocabulary.facts],
        "constraints": [
            {"id": c.id, "text": c.text, "never": cond_json(c.never)} for c in edition.vocabulary.constraints
        ],
        "corrections": [
            {"date": c.date, "kind": c.kind, "reason": c.reason, "changed": list(c.changed)}
            for c in book.corrections if c.edition == edition.id
        ],
    }


def edition_meta_json(edition: Edition) -> dict[str, Any]:
    """The edition's own fields; ``version`` only where it declares a version label of its own,
    so that the exports of editions without one keep their bytes."""
    out: dict[str, Any] = {"id": edition.id, "title": edition.title, "date": edition.date, "status": edition.status}
    if edition.version is not None:
        out["version"] = edition.version
    out |= {"sources": list(edition.sources), "notes": edition.notes, "editor_notes": edition.editor_notes,
            "changed": list(edition.changed), "withdrawn": list(edition.withdrawn)}
    if edition.not_held_before is not None:  # only where declared, as 'version'
        out["not_held_before"] = edition.not_held_before
    if edition.chapters:  # only where declared
        out["chapters"] = [{"title": c.title, "terms": list(c.terms)} for c in edition.chapters]
    return out


def fact_json(f: Fact) -> dict[str, Any]:
    """A fact; ``ordered: true`` only on an ordered one, so that the export of a vocabulary
    without ordered facts keeps its bytes."""
    out: dict[str, Any] = {"name": f.name, "type": f.type, "values": list(f.values), "meaning": f.meaning}
    if f.ordered:
        out["ordered"] = True
    return out


def term_json(term: Term) -> dict[str, Any]:
    """A term; ``updated`` and ``released`` only where the entry declares them (older exports keep their bytes)."""
    out: dict[str, Any] = {
        "id": term.id,
        "name": term.name,
        "aliases": list(term.aliases),
        "notes": term.notes,
        "editor_notes": term.editor_notes,
        "from_edition": term.edition,
    }
    for key, dated in (("updated", term.updated), ("released", term.released)):
        if dated is not None:
            out[key] = {"date": dated.date, "version": dated.version}
    return out | {
        "decisions": [decision_json(d) for d in term.decisions],
        "sections": [
            {"key": s.key, "kind": s.kind, "title": s.title, "clauses": [c.id for c in s.clauses]}
            for s in term.sections
        ],
        "clauses": [clause_json(c) for c in term.clauses],
    }


def clause_json(c: Clause) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": c.id,
        "ref": c.ref,
        "section": c.section,
        "text": c.text,
        "notes": c.notes,
        "editor_notes": c.editor_notes,
        "links": [{"phrase": l.phrase, "term": l.term, "clause": l.clause} for l in c.links],
        "defines": None,
        "rules": [rule_json(r) for r in c.rules if not r.from_table],
        "steps": None,
        "table": None,
    }
    if c.defines:
        out["defines"] = {"name": c.defines.name, "meaning": c.defines.meaning,
                          "as": cond_json(c.defines.condition)}
    if c.steps:
        out["steps"] = {"procedure": c.steps.procedure, "order": list(c.steps.order)}
    if c.table:
        out["table"] = table_json(c.table)
    if c.number is not None:  # only where printed: exports of unnumbered clauses keep their bytes
        out["number"] = c.number
    if c.rules_checked is not None:  # editor data, only where recorded (rulebook_compiler.rules_checked)
        out["rules_checked"] = c.rules_checked
    return out


def _dated(d: Dated | None) -> dict[str, Any] | None:
    return None if d is None else {"date": d.date, "version": d.version}


def _link(base_url: str, link: Link) -> dict[str, Any]:
    return {"phrase": link.phrase, "term": link.term, "clause": link.clause,
            "url": permalink(base_url, link.term, link.clause)}


def clause_records(edition: Edition, base_url: str = "") -> Iterator[dict[str, Any]]:
    """One record per clause of the edition, in the order of its terms and their sections.

    The permalink does not depend on the edition, so adding an edition leaves the records of the
    ones before it byte-identical; it opens the clause as the site's latest edition has it, and
    the record's ``text`` is this edition's. Reader notes only: editor notes stay with editors.
    """
    meta = {"id": edition.id, "version": edition.version, "date": edition.date, "status": edition.status}
    for term in edition.terms:
        for section in term.sections:
            for c in section.clauses:
                yield {
                    "ref": c.ref, "term": term.id, "term_name": term.name, "aliases": list(term.aliases),
                    # The printed number players cite ("702.1."), null when the clause prints none.
                    "clause": c.id, "number": c.number,
                    "section": section.key, "section_title": section_title(section),
                    "text": c.text, "notes": c.notes, "url": permalink(base_url, term.id, c.id),
                    "edition": meta, "updated": _dated(term.updated), "released": _dated(term.released),
                    "links": [_link(base_url, l) for l in c.links],
                }


# Line terminators that JSON leaves unescaped in strings but str.splitlines() and some
# JSON-lines readers split on: escaped, so that one record is one line for every reader.
_LINE_BREAKS = str.maketrans({"\u2028": "\\u2028", "\u2029": "\\u2029", "\x85": "\\u0085"})


def jsonl_line(record: dict[str, Any]) -> str:
    """One record as one line of JSON, ending in a newline."""
    return json.dumps(record, ensure_ascii=False).translate(_LINE_BREAKS) + "\n"


def jsonl(edition: Edition, base_url: str = "") -> str:
    return "".join(jsonl_line(r) for r in clause_records(edition, base_url))
