"""Assembled entries as terms with fresh ids (before any matching against an earlier edition)."""

from __future__ import annotations

from collections import Counter

from ..diagnostics import Diagnostic, Location
from .assemble import Document, Entry, Printed
from .emit import Clause, Section, Term
from .ids import Ids, clause_slug, slug
from .layouts import Layout


def convert(doc: Document, layout: Layout, shown: str) -> tuple[list[Term], list[Diagnostic]]:
    """One term per entry, in the document's order; ids unique in the import."""
    problems: list[Diagnostic] = []
    taken = Ids()
    terms = []
    titles = [slug(layout.title(e.name)) for e in doc.entries]
    shared = repeated(titles)
    for entry, title in zip(doc.entries, titles):
        # a title that several entries print ("100. General", "200. General") takes the entry's name whole
        wanted = (title if title not in shared else slug(entry.name)) or "term"
        term_id = taken.take(wanted)
        if term_id != wanted:
            problems.append(Diagnostic(Location(shown, entry.line, entry.col),
                                       f"entry '{entry.name}' has the id '{wanted}' of an earlier entry: "
                                       f"imported as '{term_id}'", "rename one of the term files by hand",
                                       severity="warning", code="duplicate-entry"))
        terms.append(term(entry, term_id, layout, shown, problems))
    return terms, problems


def repeated(titles: list[str]) -> frozenset[str]:
    """The titles printed by more than one entry, counted once for all (not once per entry)."""
    return frozenset(t for t, n in Counter(titles).items() if n > 1)


def term(entry: Entry, term_id: str, layout: Layout, shown: str,
         problems: list[Diagnostic]) -> Term:
    # where the entry is goes to the edition's sources map (run.py), not into the term: a term file that
    # named its lines would differ from the previous edition's whenever a line above it moved (issue 23)
    notes: list[str] = []
    dated = {}
    for key, printed in (("updated", entry.updated), ("released", entry.released)):
        dated[key] = _dated(printed, shown, notes, problems)
    keys = Ids()
    ids = Ids()  # clause ids are unique in the term, not only in a section
    sections = []
    for part in entry.parts:
        key = keys.take("definition" if part.title is None else (slug(part.title) or "section"))
        clauses = tuple(Clause(ids.take(clause_slug(b.text, b.kind, b.number, layout.number_in_text)),
                               b.text, None if layout.number_in_text else b.number,
                               printed=b.number, line=b.line, kind=b.kind)
                        for b in part.blocks)
        sections.append(Section(key, part.kind, part.title, clauses))
    return Term(term_id, entry.name, dated["updated"], dated["released"], " ".join(notes) or None,
                tuple(sections), entry.line, lines=entry.lines)


def _dated(printed: Printed | None, shown: str, notes: list[str], problems: list[Diagnostic]) -> dict | None:
    """Entry metadata as the format holds it; a line without a version label goes to the editor notes."""
    if printed is None:
        return None
    if printed.text.endswith(":"):  # the label alone: "Last Updated: " with no date and no version
        notes.append(f"The entry prints \"{printed.text}\" with no date and no version.")
        problems.append(Diagnostic(Location(shown, printed.line, 1),
                                   f"'{printed.text}' is empty: kept in the term's editor notes",
                                   "add the date and version by hand if the editors know them",
                                   severity="warning", code="no-version"))
        return None
    if printed.version is None:
        notes.append(f"The entry prints \"{printed.text}\" without a version label.")
        problems.append(Diagnostic(Location(shown, printed.line, 1),
                                   f"'{printed.text}' names no version: kept in the term's editor notes",
                                   "add the version label by hand if the editors know it",
                                   severity="warning", code="no-version"))
        return None
    if printed.date is None:
        problems.append(Diagnostic(Location(shown, printed.line, 1),
                                   f"'{printed.text}' has no date M/D/YYYY: only its version is kept",
                                   severity="warning", code="no-date"))
        return {"version": printed.version}
    return {"date": printed.date, "version": printed.version}
