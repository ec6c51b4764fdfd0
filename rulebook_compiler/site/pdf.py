"""The printed guide: one edition as a single HTML document, printed to PDF by Chromium.

The document is the printout's (the site's ``print`` page) without the site around it: a
title page, then each entry from a new page, with its dates as printed, its sections and
its clauses cited as the site cites them (``rulebook_compiler.citations``). Entries and sections
are headings, so Chromium's document outline makes them the PDF's bookmarks; a clause's
citation is a paragraph, not a heading, so the bookmarks stay a table of contents.
Links to another entry go to that entry in the document.

Engine: Chromium's print to PDF, driven by Playwright (the ``pdf`` extra) with Debian's
``chromium``, which the browser tests drive already. Measured on the bundled rulebook's
printout (a 47-page A4): Chromium 7.9 s; WeasyPrint 70 14.8 s, and it laid the
mkdocs-material page out as 2 pages (bench/bench_pdf.py measures this document).

Chromium stamps the time of printing into the PDF's information dictionary; it is set to
the edition's date, so that the same sources give the same bytes.
"""

from __future__ import annotations

import os
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

from markupsafe import Markup, escape

from ..model import Edition, Rulebook
from . import pages as P
from .render import Renderer

CHROMIUM_CANDIDATES = ("chromium", "chromium-browser", "google-chrome")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PAGE_SETUP = {"format": "A4", "margin": {"top": "18mm", "bottom": "18mm", "left": "16mm", "right": "16mm"}}
_PDF_DATE = re.compile(rb"(/(?:CreationDate|ModDate) \(D:)([0-9]{14})")

PRINT_CSS = """
@page { size: A4; }
/* no ligatures: text copied or extracted from the PDF is the rule's letters ("fi", not U+FB01) */
body { font-family: "DejaVu Serif", Georgia, serif; font-size: 10.5pt; line-height: 1.4; color: #000;
       font-variant-ligatures: none; }
h1, h2, h3 { font-family: "DejaVu Sans", Helvetica, sans-serif; }
.cover { text-align: center; padding-top: 35vh; }
.cover h1 { font-size: 26pt; margin: 0 0 .5em; }
.entry { break-before: page; }
h2.chapter { break-before: page; font-size: 20pt; text-align: center; padding-top: 30vh; }
.entry > h2, .entry > h3 { font-size: 16pt; border-bottom: 1px solid #000; padding-bottom: .2em; }
.entry h3, .entry h4 { font-size: 12pt; margin-top: 1.2em; }
.rb-cite { font-size: 8.5pt; font-weight: bold; margin: .9em 0 .1em; break-after: avoid; }
.rb-cite a, a { color: inherit; text-decoration: none; }
.rb-number { margin-right: .4em; }
.rb-text { margin: 0 0 .3em; }
.rb-dates, .rb-meta, .rb-since, .rb-note, .rb-correction, .rb-gap, .rb-aliases { font-size: 8.5pt; }
.rb-since, .rb-meta { color: #333; }
table { border-collapse: collapse; font-size: 9pt; }
td, th { border: 1px solid #999; padding: 2px 5px; }
details > summary { display: none; }
"""

FOOTER = ('<div style="font-size:8px;width:100%;text-align:center;font-family:sans-serif">'
          '<span class="pageNumber"></span> / <span class="totalPages"></span></div>')


class PdfError(Exception):
    """The PDF could not be made: no browser, or the print failed; the command says why."""


@dataclass(frozen=True)
class Printed:
    """The PDF's bytes, and the document they were printed from."""

    pdf: bytes
    html: str


def document(book: Rulebook, edition: Edition, renderer: Renderer) -> str:
    """The edition as one HTML document: title page, then every entry from a new page."""
    targets = {P.edition_term_uri(book, edition.id, t.id): t.id for t in edition.terms}
    targets.update({P.term_uri(t.id): t.id for t in edition.terms} if edition is P.current(book) else {})

    def href(uri: str) -> str:
        page, _, anchor = uri.partition("#")
        term_id = targets.get(page)
        if term_id is None:
            return "#"  # a page of the site the document does not hold (history, the log)
        return f"#{term_id}--{anchor}" if anchor else f"#{term_id}"

    spec = P.PageSpec("print/index.md", "print", book.title, False, edition.id)
    parts = [Markup('<section class="cover"><h1 id="title">{}</h1><p>Edition {}{}</p></section>').format(
        book.title, edition.label, Markup(" of {}").format(edition.date) if edition.date else "")]
    for index, (title, terms) in enumerate(P.guide_order(edition), 1):
        # chapters, where declared, are the first level of bookmarks and entries the second
        level = 3 if title else 2
        if title:
            parts.append(Markup('<h2 class="chapter" id="chapter-{}">{}</h2>').format(index, title))
        for term in terms:
            body = renderer.term_body(spec, edition, term, href, level + 1, term.id + "--", clause_headings=False)
            parts.append(Markup('<section class="entry"><h{} id="{}">{}</h{}>\n{}</section>').format(
                level, term.id, term.name, level, body))
    title = escape(f"{book.title}, edition {edition.label}")
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>{title}</title>'
            f"<style>{PRINT_CSS}</style></head><body>\n" + "\n".join(parts) + "\n</body></html>\n")


def chromium() -> str:
    """The path of the Chromium to print with: $RULEBOOK_CHROMIUM, else the first on PATH."""
    named = os.environ.get("RULEBOOK_CHROMIUM")
    if named:
        return named
    for name in CHROMIUM_CANDIDATES:
        found = shutil.which(name)
        if found:
            return found
    raise PdfError("no Chromium to print with: install Debian's chromium (apt-get install chromium), "
                   "or name one in RULEBOOK_CHROMIUM")


def print_pdf(html: str, workdir: Path, edition_date: str | None) -> bytes:
    """``html`` printed by Chromium: A4, page numbers in the footer, headings as bookmarks."""
    try:
        from playwright.sync_api import Error, sync_playwright
    except ImportError:
        raise PdfError("printing needs Playwright: pip install 'rulebook-compiler[pdf]'") from None
    source = workdir / "guide.html"
    source.write_text(html, encoding="utf-8")
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium(), args=CHROMIUM_ARGS)
            try:
                page = browser.new_page()
                page.goto(source.as_uri(), wait_until="load")
                pdf = page.pdf(outline=True, tagged=True, display_header_footer=True, header_template="<div></div>",
                               footer_template=FOOTER, print_background=False, **PAGE_SETUP)  # type: ignore[arg-type]
            finally:
                browser.close()
    except Error as exc:
        raise PdfError(f"Chromium could not print the guide: {str(exc).splitlines()[0]}") from None
    return fixed_dates(pdf, edition_date)


def fixed_dates(pdf: bytes, edition_date: str | None) -> bytes:
    """The PDF with its creation and modification times set to the edition's day, midnight: the same
    number of digits, so no offset in the file moves."""
    day = (edition_date or "2000-01-01").replace("-", "").encode("ascii") + b"000000"
    return _PDF_DATE.sub(lambda found: found.group(1) + day, pdf)


def printed(book: Rulebook, edition: Edition, workdir: Path, renderer: Renderer | None = None) -> Printed:
    """The edition's printed guide."""
    html = document(book, edition, renderer or Renderer(book))
    return Printed(print_pdf(html, workdir, edition.date), html)
