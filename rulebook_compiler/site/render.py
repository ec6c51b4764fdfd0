"""Planned pages to HTML through the Jinja2 templates in ``rulebook_compiler/site/theme/templates``.

Templates autoescape: every value from the rulebook lands escaped, in text and
in attributes alike (quotes included), and no template marks anything safe
(``tests/site/test_escaping.py`` parses them to make sure). The one piece of
markup built in Python is clause text with its mention links
(``markup.linked_text``, through ``Markup.format``); redlines are rendered by a
template macro from the diff's runs.
"""

from __future__ import annotations

import string
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Mapping, Protocol

import jinja2
from markupsafe import Markup

from .. import numbers
from ..model import Clause, Correction, Edition, Link, Rulebook, Section, Table, Term
from .. import citations
from ..sections import section_title
from . import changes as changes_view, lineage, pages as P
from .markup import linked_text, unlinked_mentions

if TYPE_CHECKING:
    from ..diff.result import DiffResult
    from ..rulings import Ruling

from .folders import PACKAGE_SITE as SITE_DIR  # the default site, in the package (a project's site/ overrides it)
TEMPLATES_DIR = SITE_DIR / "templates"

QUESTIONS_SCRIPT = "assets/javascripts/rulebook-questions.js"  # the question pages' script (rulebook_compiler.site.questions)
Href = Callable[[str], str]  # target src_uri (+ optional #anchor) -> URL relative to the page


class TermNotice(Protocol):
    """A term's part of the changelog (``rulebook_compiler.diff.changelog.TermNotice``), as the page reads it:
    named by shape, since a back end does not import another."""

    term: str
    name: str
    rule_changes: tuple[Any, ...]
    clarifications: tuple[Any, ...]


@dataclass(frozen=True)
class PlayersItem:
    """One change in the players' notice: what it is, where a judge finds it, its renumbering, its words."""

    what: str
    citation: str
    numbers: tuple[str | None, str | None] | None
    text: str | None


@dataclass(frozen=True)
class PlayersTerm:
    term: str
    name: str
    rule_changes: tuple[PlayersItem, ...]
    clarifications: tuple[PlayersItem, ...]


@dataclass(frozen=True)
class TocEntry:
    level: int
    id: str
    title: str  # plain text; escaped where it becomes HTML


@dataclass(frozen=True)
class Rendered:
    html: str
    toc: tuple[TocEntry, ...]


@dataclass(frozen=True)
class TableView:
    answer: str  # what the table decides, as words ("default location" for targeting.default_location)
    keys: tuple[str, ...]  # the key facts, as words
    rows: tuple[tuple[tuple[str, ...], str], ...]  # each row: the values of each key, and the answer
    otherwise: str | None


def words(value) -> str:
    """A fact, value or answer as a reader says it: ``card type``, ``evil character``, yes/no."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return value.replace("_", " ")


def section_id(key: str) -> str:
    # '_' is not in the slug alphabet, so a section anchor never equals a clause id.
    return f"section_{key}"


def edition_anchor(edition_id: str) -> str:
    return f"edition_{edition_id}"


#: A section of more clauses than this shows each numbered rule's subrules folded (a closed
#: ``details`` under the rule, opened by a click or by a link to a clause in it): a comprehensive
#: rules section of hundreds of subrules reads as its list of rules (issue 23).
FOLD_OVER = 30

#: How many characters of a numbered rule's text its entry in the page's table of contents shows.
TOC_WORDS = 48


def toc_title(clause: Clause) -> str:
    """A numbered rule in the page's table of contents: its number as printed and its first words."""
    text = " ".join(clause.text.split())
    if len(text) > TOC_WORDS:
        text = text[:TOC_WORDS].rsplit(" ", 1)[0] + "…"
    return f"{clause.number} {text}"


def letter(name: str) -> str:
    first = name[:1].upper()
    return first if first in string.ascii_uppercase else "#"


class Renderer:
    """Renders the pages of one rulebook."""

    def __init__(self, book: Rulebook, templates: Path | tuple[Path, ...] = TEMPLATES_DIR,
                 changes: Callable[[Edition, Edition], DiffResult | None] | None = None, show_editor_notes: bool = False,
                 rulings: Mapping[str, tuple[Ruling, ...]] | None = None):
        self.book = book
        self.rulings = rulings or {}  # edition id -> the rulings that apply to it (rulebook_compiler.rulings)
        self.show_editor_notes = show_editor_notes
        self._marks: Mapping | None = None  # worked out when first asked (serve may give them: ``marks``)
        self.changes = changes
        # ``rulebook serve``'s store of rendered term bodies (``term_body``), kept from build to build
        # while the site's frame is the same; None: render each every time.
        self.fragments: dict | None = None
        folders = (templates,) if isinstance(templates, Path) else templates  # searched in order
        self.env = jinja2.Environment(loader=jinja2.FileSystemLoader([str(t) for t in folders]), autoescape=True,
                                      undefined=jinja2.StrictUndefined, trim_blocks=True,
                                      lstrip_blocks=True, keep_trailing_newline=True)
        from ..counts import counted
        from ..diff.redline import DELETE, INSERT

        # ``current``: the edition the site shows by default (the latest published, ``pages.current``);
        # ``latest``: the newest edition, which may be a draft.
        self.env.globals.update(section_title=section_title, section_id=section_id, words=words,
                                edition_anchor=edition_anchor, book=book, latest=book.latest,
                                current=P.current(book), proposals=P.proposals(book), counted=counted,
                                P=P, r=self, DELETE=DELETE, INSERT=INSERT)

    @property
    def marks(self) -> Mapping[str, Mapping[str, Mapping[str, lineage.ClauseMark]]]:
        """Every clause's mark in every edition (``lineage.clause_marks``)."""
        if self._marks is None:
            self._marks = lineage.clause_marks(self.book)
        return self._marks

    @marks.setter
    def marks(self, marks: Mapping) -> None:
        self._marks = marks

    # -- helpers the templates call -------------------------------------------------

    def redline(self, old: str, new: str):
        """The word redline of two texts (``rulebook_compiler.diff.redline``), for the ``redline`` macro."""
        from ..diff.redline import redline

        return redline(old, new)

    def term_name(self, term_id: str, *editions: Edition) -> str:
        for edition in editions:
            if term_id in edition.term_by_id:
                return edition.term_by_id[term_id].name
        return term_id

    def clause_text(self, clause: Clause, edition: Edition, href: Href) -> Markup:
        def target(link: Link) -> str:
            uri = P.edition_term_uri(self.book, edition.id, link.term)
            return href(uri + (f"#{link.clause}" if link.clause else ""))

        return linked_text(clause.text, clause.links, target)

    def see_also(self, clause: Clause, edition: Edition, href: Href) -> list[tuple[str, Link]]:
        return [(href(P.edition_term_uri(self.book, edition.id, link.term)
                      + (f"#{link.clause}" if link.clause else "")), link)
                for link in unlinked_mentions(clause.text, clause.links)]

    def table_view(self, table: Table) -> TableView | None:
        """A table with several keys or an otherwise row, as the rows of an HTML table (None for a
        one-key table without one, which the clause's own text already reads as)."""
        if not table.several and table.otherwise is None:
            return None
        return TableView(words(table.decision.rpartition(".")[2]), tuple(words(f) for f in table.facts),
                         tuple((tuple(", ".join(words(v) for v in c) for c in row.cells), words(row.value))
                               for row in table.rows),
                         None if table.otherwise is None else words(table.otherwise))

    def number_anchors(self, term: Term) -> dict[str, str]:
        """Clause id -> the anchor its printed number gives it on the page (``numbers.anchors``)."""
        return numbers.anchors(term)

    def groups(self, section: Section, fold: bool) -> list[tuple[numbers.Group, bool]]:
        """The section's clauses by numbered rule, each group with whether its subrules fold: only in
        a section of more than ``FOLD_OVER`` clauses, and only a rule with clauses under it."""
        long = fold and len(section.clauses) > FOLD_OVER
        return [(g, long and g.head is not None and len(g.clauses) > 1) for g in numbers.groups(section.clauses)]

    def cited(self, number: str) -> str:
        return numbers.cited(number)

    def citation(self, term: Term, clause_id: str) -> str:
        """What a judge says for the clause (rulebook_compiler.citations): the entry, the section, its number or place."""
        found = citations.of_clause(term, clause_id)
        return str(found) if found is not None else f"{term.name}, {clause_id}"

    def for_players(self, notice: TermNotice, edition: Edition, previous: Edition) -> PlayersTerm:
        """A term's part of the players' notice in readers' words: each rule cited as a judge says it, an
        entry's heading by its name, and nothing about the model (the changes the vocabulary made to a
        decision's answers, the questions and situations: those are the editors' part of the page)."""
        def shown(items) -> tuple[PlayersItem, ...]:
            out = []
            for it in items:
                term_id, _, clause_id = it.ref.partition("#")
                if clause_id:
                    out.append(PlayersItem(it.what, self.ref_citation(it.ref, edition, previous), it.numbers, it.text))
                elif term_id in edition.term_by_id or term_id in previous.term_by_id:
                    out.append(PlayersItem(it.what, f"{self.term_name(term_id, edition, previous)}, entry heading",
                                           it.numbers, None))
            return tuple(out)
        return PlayersTerm(notice.term, notice.name, shown(notice.rule_changes), shown(notice.clarifications))

    def ref_citation(self, ref: str, *editions: Edition) -> str:
        """The citation of ``TERM#CLAUSE`` in the first of ``editions`` that has it (a removed clause
        is cited as the edition before had it); the term's name alone for an entry's heading."""
        for edition in editions:
            found = citations.of_joined_ref(edition, ref)
            if found is not None:
                return found
        term_id = ref.partition("#")[0]
        return self.term_name(term_id, *editions)

    def mark(self, edition: Edition, term: Term, clause: Clause) -> lineage.ClauseMark | None:
        return self.marks[edition.id].get(term.id, {}).get(clause.id)

    def in_force(self, edition: Edition, since: str) -> str:
        """The edition from which wording that came in with ``since`` is the rule, as ``edition`` is
        read: on a published edition, wording first posted in a draft is the rule from the first
        published edition that has it (never labelled a proposal); a draft reads as it is."""
        if edition.status != "published" or self.edition(since).status == "published":
            return since
        editions = self.book.editions
        start, end = editions.index(self.edition(since)), editions.index(edition)
        return next(e.id for e in editions[start:end + 1] if e.status == "published")

    def pairs(self, version: lineage.Version) -> list[tuple[Clause, str | None, str | None]]:
        """Each clause of a version, the text it is redlined against (None if new) and how its
        lineage reads when it declares one: the clause it was, or the clause of the same id."""
        before = {c.id: c for c in version.previous.clauses} if version.previous else {}
        declared = {item.clause: item for item in version.edition.lineage}  # the edition's own
        out: list[tuple[Clause, str | None, str | None]] = []
        for clause in version.term.clauses if version.term else ():
            item = declared.get(clause.ref)
            if item is None:
                old = before.get(clause.id)
                out.append((clause, old.text if old else None, None))
                continue
            previous = self._previous(version.edition)
            olds = [previous.clause_by_ref[ref] for ref in item.sources
                    if previous is not None and ref in previous.clause_by_ref]
            out.append((clause, " ".join(c.text for c in olds) if olds else None,
                        lineage.declared_words(item, clause.term)))
        return out

    def removed(self, version: lineage.Version) -> list[tuple[Clause, str | None]]:
        """Clauses of the version before that this version no longer has, each with where its
        words went when a clause of this edition declares it (None: removed)."""
        if version.previous is None or version.term is None:
            return []
        now = {c.id for c in version.term.clauses}
        went = lineage.successors(version.edition)
        return [(c, went.get(c.ref)) for c in version.previous.clauses if c.id not in now]

    def _previous(self, edition: Edition) -> Edition | None:
        index = self.book.editions.index(edition)
        return self.book.editions[index - 1] if index else None

    def gap_before(self, edition: Edition) -> Edition | None:
        """The edition before one that declares versions not held between them (None: no gap declared)."""
        index = self.book.editions.index(edition)
        return self.book.editions[index - 1] if index and edition.not_held_before else None

    def edition(self, edition_id: str) -> Edition:
        return self.book.edition_by_id[edition_id]

    def corrections(self, edition: Edition, ref: str) -> list[tuple[int, Correction]]:
        """The log's corrections of this edition that changed ``ref`` (a term id or a clause ref),
        with their numbers on the Corrections page."""
        return [(number, c) for number, c in enumerate(self.book.corrections, 1)
                if c.edition == edition.id and c.kind != "publish" and ref in c.changed]

    def changed_number(self, correction: Correction, ref: str) -> str | None:
        """The printed number of a clause a correction changed, as its edition has it now (None: none)."""
        clause = self.book.edition_by_id[correction.edition].clause_by_ref.get(ref)
        return numbers.cited(clause.number) if clause is not None and clause.number is not None else None

    def changed_target(self, correction: Correction, ref: str) -> str | None:
        """Where a ref that a correction changed is now in its edition (None if it is gone)."""
        edition = self.book.edition_by_id[correction.edition]
        term_id, _, clause_id = ref.partition("#")
        if term_id not in edition.term_by_id or (clause_id and ref not in edition.clause_by_ref):
            return None
        return P.edition_term_uri(self.book, edition.id, term_id) + (f"#{clause_id}" if clause_id else "")

    def changed_gone(self, correction: Correction, ref: str) -> bool:
        """Whether a ref that a correction changed is no longer in its edition: a fact or a constraint
        (``fact:NAME``, ``constraint:ID``, which have no page of their own) is looked up in its vocabulary."""
        edition = self.book.edition_by_id[correction.edition]
        kind, _, name = ref.partition(":")
        if kind == "fact" and name:
            return name not in {f.name for f in edition.vocabulary.facts}
        if kind == "constraint" and name:
            return name not in {c.id for c in edition.vocabulary.constraints}
        return self.changed_target(correction, ref) is None

    def term_body(self, spec: P.PageSpec, edition: Edition, term: Term, href: Href, base_level: int,
                  prefix: str, clause_headings: bool = True) -> Markup:
        """The ``term_body`` macro of ``_macros.html``, as the printable glossary shows each term.

        With ``fragments`` (``rulebook serve``), a term's body is rendered again only
        when the term (the very object: the model keeps an unchanged file's) or its
        clauses' marks changed; everything else it shows is the site's frame, and a
        change there rebuilds the whole site with an empty store.
        """
        macro = getattr(self.env.get_template("_macros.html").module, "term_body")  # a template's macros are dynamic
        if self.fragments is None:
            return macro(self, edition, term, href, base_level, prefix, False, clause_headings)
        key = (spec.src_uri, edition.id, term.id, base_level, prefix, self.show_editor_notes, clause_headings)
        marks = self.marks[edition.id].get(term.id, {})
        held = self.fragments.get(key)
        if held is not None and held[0] is term and held[1] == marks:
            return held[2]
        body = macro(self, edition, term, href, base_level, prefix, False, clause_headings)
        self.fragments[key] = (term, marks, body)
        return body

    # -- pages ---------------------------------------------------------------------------

    def render(self, spec: P.PageSpec, href: Href) -> Rendered:
        method = getattr(self, "_" + spec.kind.replace("-", "_"))
        template, context, toc = method(spec, href)
        html = self.env.get_template(template).render(spec=spec, href=href, **context)
        return Rendered(html, tuple(toc))

    def _term(self, spec: P.PageSpec, href: Href):
        edition = self.edition(spec.edition_id)
        term = edition.term_by_id[spec.term_id]
        toc = []
        for s in term.sections:
            toc.append(TocEntry(2, section_id(s.key), section_title(s)))
            # Each numbered rule (not its subrules) under its section: the way into a long section.
            toc += [TocEntry(3, g.head.id, toc_title(g.head)) for g in numbers.groups(s.clauses) if g.head is not None]
        if term.decisions:
            toc.append(TocEntry(2, "page_questions", "Questions"))
        if self.rulings_citing(edition, term):
            toc.append(TocEntry(2, "page_rulings", "Rulings"))
        return "term.html", {"edition": edition, "term": term}, toc

    _edition_term = _term

    def _chapter(self, spec: P.PageSpec, href: Href):
        edition = self.edition(spec.edition_id)
        index = spec.chapter or 1
        chapter = edition.chapters[index - 1]
        terms = [edition.term_by_id[t] for t in chapter.terms if t in edition.term_by_id]
        return "chapter.html", {"edition": edition, "chapter": chapter, "terms": terms, "index": index}, []

    def _question(self, spec: P.PageSpec, href: Href):
        from .questions import question

        edition = self.edition(spec.edition_id)
        term = edition.term_by_id[spec.term_id]
        asked = question(edition, spec.decision or "")

        def clause_url(ref: str) -> str:
            term_id, _, clause_id = ref.partition("#")
            return href(P.edition_term_uri(self.book, edition.id, term_id) + f"#{clause_id}")

        return "question.html", {"edition": edition, "term": term, "asked": asked,
                                 "data": Markup(asked.as_json(clause_url)),
                                 "script": href(QUESTIONS_SCRIPT)}, []

    def question_title(self, edition: Edition, decision: str) -> str:
        return P.question_title(edition, decision)

    def rulings_citing(self, edition: Edition, term: Term) -> list[Ruling]:
        """The rulings that apply to the edition and cite a clause of the term, by id."""
        prefix = term.id + "#"
        return sorted((r for r in self.rulings.get(edition.id, ()) if any(c.startswith(prefix) for c in r.cites)),
                      key=lambda r: r.id)

    def _history(self, spec: P.PageSpec, href: Href):
        found = lineage.versions(self.book, spec.term_id)
        toc = [TocEntry(2, edition_anchor(v.edition.id), v.edition.id) for v in reversed(found)]
        name = next(v.term.name for v in reversed(found) if v.term is not None)
        return "history.html", {"versions": list(reversed(found)), "term_id": spec.term_id, "name": name}, toc

    def _home(self, spec: P.PageSpec, href: Href):
        return "home.html", {}, []

    def _editions(self, spec: P.PageSpec, href: Href):
        return "editions.html", {}, []

    def _edition(self, spec: P.PageSpec, href: Href):
        edition = self.edition(spec.edition_id)
        index = self.book.editions.index(edition)
        return "edition.html", {"edition": edition, "first": index == 0,
                                "groups": self.az(edition)}, []

    def _az(self, spec: P.PageSpec, href: Href):
        shown = P.current(self.book)
        groups = self.az(shown)
        toc = [TocEntry(2, f"letter-{g if g != '#' else 'other'}", g) for g, _ in groups]
        return "az.html", {"groups": groups, "edition": shown}, toc

    def _changes(self, spec: P.PageSpec, href: Href):
        edition = self.edition(spec.edition_id)
        previous = self.book.editions[self.book.editions.index(edition) - 1]
        report = self.changes(previous, edition) if self.changes else None
        rows = []
        if report is not None:
            for change, anchor in zip(report.changes, changes_view.anchors(report.changes)):
                rows.append((change, anchor, changes_view.effects(self.book, previous, edition, change)))
        toc = [TocEntry(2, "summary", "Summary")]
        if report is not None and report.names:
            toc.append(TocEntry(2, "names", "Decisions, predicates and constraints"))
        if report is not None and not report.vocabulary.empty:
            toc.append(TocEntry(2, "vocabulary", "Vocabulary"))
        toc += [TocEntry(2, f"term-{t}", self.term_name(t, edition, previous))
                                                        for t in dict.fromkeys(c.term for c, _, _ in rows)]
        notice = None
        if report is not None:
            from ..diff.changelog import from_diff

            notice = from_diff(report, previous, edition)
            toc.insert(0, TocEntry(2, "notice", "For players"))
        return "changes.html", {"edition": edition, "previous": previous, "report": report,
                                "rows": rows, "words": changes_view, "notice": notice}, toc

    def _corrections(self, spec: P.PageSpec, href: Href):
        return "corrections.html", {"entries": list(enumerate(self.book.corrections, 1))}, []

    def _print(self, spec: P.PageSpec, href: Href):
        return "print.html", {"edition": P.current(self.book)}, []

    def az(self, edition: Edition) -> list[tuple[str, list[tuple[str, Term, bool]]]]:
        """Terms and their aliases by first letter: (letter, [(shown name, term, is alias)])."""
        entries = [(t.name, t, False) for t in edition.terms]
        entries += [(a, t, True) for t in edition.terms for a in t.aliases]
        entries.sort(key=lambda e: (e[0].casefold(), e[0], e[1].id, e[2]))
        groups: dict[str, list] = {}
        for entry in entries:
            groups.setdefault(letter(entry[0]), []).append(entry)
        return sorted(groups.items(), key=lambda g: (g[0] == "#", g[0]))
