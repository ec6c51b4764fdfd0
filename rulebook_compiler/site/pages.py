"""The pages of the site, planned from the model: where each lives and what it shows.

The site shows one edition by default (``current``): the latest *published*
edition, so that a draft posted for feedback never takes the place of the rules
in force; only a rulebook with no published edition yet (a new game) shows its
latest draft there, bannered as a proposal. Every other edition, a later draft
included, is read at its own path (``/editions/ID/terms/TERM/``).

Only the current edition's term pages (and the home page) go into the search
index; other editions, histories, "What changed" and the printable glossary
repeat text that the index already holds once.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..model import Edition, Rulebook, Term
from ..numbers import in_document_order

HOME, AZ, TERM, HISTORY, EDITIONS, EDITION, CHANGES, EDITION_TERM, PRINT = (
    "home", "az", "term", "history", "editions", "edition", "changes", "edition-term", "print")
CORRECTIONS = "corrections"
QUESTION = "question"
CHAPTER = "chapter"


@dataclass(frozen=True)
class PageSpec:
    """One page: its source path in the docs tree, what it shows, and its plain-text title."""

    src_uri: str
    kind: str
    title: str
    searchable: bool
    edition: str | None = None
    term: str | None = None
    decision: str | None = None  # a question page's decision
    chapter: int | None = None  # a chapter page's chapter, from 1 in the edition's order

    @property
    def edition_id(self) -> str:
        """The edition of a page that shows one (its kind says so)."""
        assert self.edition is not None, f"a {self.kind} page shows no edition"
        return self.edition

    @property
    def term_id(self) -> str:
        """The term of a page that shows one (its kind says so)."""
        assert self.term is not None, f"a {self.kind} page shows no term"
        return self.term


def current(book: Rulebook) -> Edition:
    """The edition the site shows by default: the latest published one, else the latest draft."""
    return next((e for e in reversed(book.editions) if e.status == "published"), book.latest)


def proposals(book: Rulebook) -> list[Edition]:
    """The drafts newer than the current edition, newest first: previews, never the default."""
    after = book.editions[book.editions.index(current(book)) + 1:]
    return [e for e in reversed(after) if e.status == "draft"]


def home_uri() -> str:
    return "index.md"


def az_uri() -> str:
    return "terms/index.md"


def term_uri(term_id: str) -> str:
    return f"terms/{term_id}/index.md"


def history_uri(term_id: str) -> str:
    return f"terms/{term_id}/history/index.md"


def editions_uri() -> str:
    return "editions/index.md"


def edition_uri(edition_id: str) -> str:
    return f"editions/{edition_id}/index.md"


def changes_uri(edition_id: str) -> str:
    return f"editions/{edition_id}/changes/index.md"


def edition_term_uri(book: Rulebook, edition_id: str, term_id: str) -> str:
    """A term as an edition has it: the main term page for the current edition."""
    if edition_id == current(book).id:
        return term_uri(term_id)
    return f"editions/{edition_id}/terms/{term_id}/index.md"


def chapter_slug(index: int, title: str) -> str:
    """A chapter's path part: its place and its title's words ("2-modifier-listing"), so that two chapters
    of one title stay apart and any title makes a safe path."""
    words = "-".join(re.findall(r"[a-z0-9]+", title.lower()))[:60].strip("-")
    return f"{index}-{words}" if words else str(index)


def chapter_uri(index: int, title: str) -> str:
    return f"chapters/{chapter_slug(index, title)}/index.md"


def guide_order(edition: Edition) -> list[tuple[str | None, list[Term]]]:
    """The edition's terms as the guide prints them: by its chapters where it declares them (each
    chapter's title and terms), else one run in the document's order (no title)."""
    if not edition.chapters:
        return [(None, in_document_order(edition.terms))]
    return [(c.title, [edition.term_by_id[t] for t in c.terms if t in edition.term_by_id]) for c in edition.chapters]


def question_title(edition: Edition, decision: str) -> str:
    """A decision's meaning as players read it, the title of its question: an aside in brackets that
    names a decision of the edition (the editors' cross-reference, "(whether the heal may target it
    is heal.may_target)") is left out; the rest is the editors' words as written."""
    names = set(edition.decisions)

    def aside(found: re.Match) -> str:
        return "" if any(n in found.group(0) for n in names) else found.group(0)

    return re.sub(r" ?\([^()]*\)", aside, edition.decisions[decision].meaning)


def question_uri(book: Rulebook, edition_id: str, term_id: str, decision: str) -> str:
    """A decision's question page (rulebook_compiler.site.questions), under the term page of the edition that
    declares it, so that a published edition's term page links it alike whether current or not."""
    return edition_term_uri(book, edition_id, term_id).removesuffix("index.md") + f"ask/{decision}/index.md"


def print_uri() -> str:
    return "print/index.md"


def corrections_uri() -> str:
    return "corrections/index.md"


def plan(book: Rulebook, index_editions: bool = False) -> list[PageSpec]:
    """Every page of the site, in a stable order (it is also the search index's order)."""
    shown = current(book)
    pages = [PageSpec(home_uri(), HOME, book.title, True),
             PageSpec(az_uri(), AZ, "Terms A–Z", False)]
    for i, chapter in enumerate(shown.chapters, 1):
        pages.append(PageSpec(chapter_uri(i, chapter.title), CHAPTER, chapter.title, False, shown.id, chapter=i))
    for term in shown.terms:
        pages.append(PageSpec(term_uri(term.id), TERM, term.name, True, shown.id, term.id))
    names: dict[str, str] = {}
    for edition in book.editions:
        for term in edition.terms:
            names[term.id] = term.name
    for term_id in sorted(names):
        pages.append(PageSpec(history_uri(term_id), HISTORY, f"{names[term_id]}: history", False,
                              None, term_id))
    pages.append(PageSpec(editions_uri(), EDITIONS, "Editions", False))
    for i, edition in enumerate(book.editions):
        pages.append(PageSpec(edition_uri(edition.id), EDITION, edition.title, False, edition.id))
        if i > 0:
            pages.append(PageSpec(changes_uri(edition.id), CHANGES, f"What changed in {edition.id}",
                                  False, edition.id))
        if edition is not shown:
            for term in edition.terms:
                pages.append(PageSpec(edition_term_uri(book, edition.id, term.id), EDITION_TERM,
                                      f"{term.name} ({edition.id})", index_editions, edition.id, term.id))
    for edition in book.editions:  # every edition's term pages list their questions
        for term in edition.terms:
            for d in term.decisions:
                pages.append(PageSpec(question_uri(book, edition.id, term.id, d.name), QUESTION,
                                      f"Ask: {question_title(edition, d.name).rstrip('.')}", False,
                                      edition.id, term.id, d.name))
    if book.corrections:  # a rulebook that has never locked an edition has no log to show
        pages.append(PageSpec(corrections_uri(), CORRECTIONS, "Corrections", False))
    pages.append(PageSpec(print_uri(), PRINT, f"{book.title}: printable glossary", False, shown.id))
    return pages
