"""The mkdocs plugin ``rulebook``: ``mkdocs build`` and ``mkdocs serve`` straight from the YAML.

Configuration (mkdocs.yml)::

    plugins:
      - search
      - rulebook:
          rulebook: rulebook        # the rulebook folder, relative to mkdocs.yml
          index_editions: false     # also put older editions' term pages in the search index
          web_fonts: false          # true: let the theme load its fonts from Google Fonts

The plugin checks the rulebook when the configuration is loaded, so a rulebook
with errors stops the build before anything is written (``rulebook build`` and
``rulebook serve`` lend it the model they have just checked: see ``checked``). It adds every page
(``rulebook_compiler.site.pages.plan``) as a generated file whose Markdown is only front
matter; the page body is rendered from the model in ``on_page_content``, so
rule text never goes through Markdown.
"""

from __future__ import annotations

import gc
import logging
import re
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

from mkdocs.config import config_options as opt
from mkdocs.config.base import Config
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin
from mkdocs.structure.files import File, Files, InclusionLevel
from mkdocs.structure.toc import get_toc
from mkdocs.utils import get_relative_url
from markupsafe import Markup, escape

from .. import progress
from ..counts import counted
from ..diagnostics import Diagnostic
from ..model import Rulebook
from . import pages as P
from .changes import provider as changes_provider
from .folders import PACKAGE_SITE, STYLESHEET, site_folders
from .links import outside_links
from .render import QUESTIONS_SCRIPT, Renderer

log = logging.getLogger("mkdocs.plugins.rulebook")



# Set by ``rulebook serve``, which freezes the heap for the cyclic GC itself before every rebuild.
HOST_FREEZES = False

# Rulebooks a caller has just checked (``rulebook build``/``serve``), by resolved folder:
# the plugin takes one instead of loading and checking the same files a second time.
_CHECKED: dict[Path, Rulebook] = {}


@contextmanager
def checked(root: Path, book: Rulebook) -> Iterator[None]:
    """Lend the plugin a rulebook the caller has just checked, for the next build from ``root``.

    The plugin takes it once (a ``serve`` rebuild after an edit loads the files
    again); it is withdrawn when the block ends, used or not.
    """
    key = Path(root).resolve()
    _CHECKED[key] = book
    try:
        yield
    finally:
        _CHECKED.pop(key, None)


class RulebookConfig(Config):
    rulebook = opt.Type(str, default="rulebook")
    index_editions = opt.Type(bool, default=False)
    # The editors' modelling and transcription notes (editor_notes) are for editors: shown only when asked.
    show_editor_notes = opt.Type(bool, default=False)
    # The project's own site folder, relative to mkdocs.yml: its files override the package's (rulebook_compiler.site.folders).
    site = opt.Type(str, default="site")
    # No request leaves the site (readers' visits are theirs; it reads offline): the theme's web
    # fonts are off unless asked for, and the pages use the system's fonts.
    web_fonts = opt.Type(bool, default=False)


class RulebookPlugin(BasePlugin[RulebookConfig]):
    """Generates the glossary's pages from a checked rulebook."""

    def on_config(self, config):
        from ..build import check

        root = Path(self.config.rulebook)
        if not root.is_absolute():
            root = Path(config.config_file_path or ".").parent / root
        self.root = root
        _refuse_site_dir_over(Path(config.site_dir), root)
        book = _CHECKED.pop(root.resolve(), None)
        problems: list[Diagnostic] = []
        if book is None:
            book, problems = check(root)
        if book is None:
            text = "\n".join(str(p) for p in problems)
            raise PluginError(f"the rulebook has problems, nothing was built:\n{text}\n"
                              f"{counted(len(problems), 'problem')} found")
        self.book = book
        if not isinstance(config.site_name, Markup):
            # Material prints the site name as HTML (raw in text and in aria-label); it is plain text.
            config.site_name = escape(config.site_name)
        self.specs = {s.src_uri: s for s in P.plan(book, self.config.index_editions)}
        self.read, self.written = (progress.counter(what, len(self.specs)) for what in ("pages read", "pages written"))
        self.folders = project_site_folders(config, self.config.site)
        refuse_links_out(config, self.config.site)
        config.theme.dirs = theme_dirs(config.theme.dirs, config.theme.custom_dir, self.folders.overrides)
        self.renderer = Renderer(book, templates=self.folders.templates, changes=changes_provider(book),
                                 show_editor_notes=self.config.show_editor_notes, rulings=_rulings(root, book))
        self.date = build_date(book)
        if not self.config.web_fonts:
            config.theme["font"] = False
        if STYLESHEET not in config.extra_css:
            config.extra_css.append(STYLESHEET)
        if config.nav is None:
            config.nav = navigation(book)
        self._freeze()
        return config

    def on_env(self, env, config, files):
        # The theme's templates do not autoescape: every title the plugin gives them is
        # Markup (escaped text), and striptags must not turn it back into markup.
        env.filters["striptags"] = striptags
        return env

    # The model (tens of thousands of objects per thousand terms, no garbage) lives
    # through the whole build; frozen, the cyclic GC's full collections stop rescanning
    # it for every few thousand objects mkdocs allocates (a fifth of the page work at
    # 5,000 terms). Thawed when the build ends, so a serve rebuild can free it.
    _frozen = False

    def _freeze(self) -> None:
        # The host process froze objects itself (``rulebook serve`` says so: counting the frozen
        # objects walks them all, 0.3 s at 2,000 terms); unfreezing later would undo that.
        if HOST_FREEZES or gc.get_freeze_count():
            return
        gc.collect()
        gc.freeze()
        self._frozen = True

    def _thaw(self) -> None:
        if self._frozen:
            gc.unfreeze()
            self._frozen = False

    def on_post_build(self, config) -> None:
        self._thaw()
        # Marked as `rulebook build` marks it, so that either may build into this site_dir again.
        from ..fileio import write_text
        from ..outputs import MARKER, marker_text

        write_text(Path(config.site_dir) / MARKER, marker_text("rulebook build"))

    def on_build_error(self, error) -> None:
        self._thaw()

    def on_files(self, files: Files, config) -> Files:
        for spec in self.specs.values():
            if files.get_file_from_path(spec.src_uri) is not None:
                raise PluginError(f"{spec.src_uri} in docs_dir clashes with a page the rulebook plugin generates")
            files.append(File.generated(config, spec.src_uri, content="",
                                        inclusion=InclusionLevel.NOT_IN_NAV))
        present = files.get_file_from_path(STYLESHEET)
        if present is not None and present.abs_src_path is not None \
                and Path(present.abs_src_path) == PACKAGE_SITE / "docs" / STYLESHEET:
            files.remove(present)  # the package's docs_dir (rulebook build's default): the project's may override it
            present = None
        if present is None:
            files.append(File.generated(config, STYLESHEET, abs_src_path=str(self.folders.stylesheet)))
        if any(spec.kind == P.QUESTION for spec in self.specs.values()) and files.get_file_from_path(QUESTIONS_SCRIPT) is None:
            files.append(File.generated(config, QUESTIONS_SCRIPT, abs_src_path=str(PACKAGE_SITE / "docs" / QUESTIONS_SCRIPT)))
        self.files = files
        return files

    def on_page_markdown(self, markdown: str, page, config, files):
        spec = self.specs.get(page.file.src_uri)
        if spec is not None:
            term = self.book.edition_by_id[spec.edition_id].term_by_id[spec.term_id] if spec.kind == P.TERM else None
            page.meta.update(page_meta(spec, (term.name, *term.aliases) if term is not None else ()))
            # Reproducible sitemap and gzip timestamps: the rulebook's date, not today's.
            page.update_date = self.date
        return markdown

    def on_page_content(self, html: str, page, config, files):
        spec = self.specs.get(page.file.src_uri)
        if spec is None:
            return html
        self.read()
        here = page.file.url

        def href(target: str) -> str:
            uri, _, anchor = target.partition("#")
            found = self.files.get_file_from_path(uri)
            assert found is not None, f"a link to {uri}, which the plan has no page for"
            url = get_relative_url(found.url, here)
            return url + ("#" + anchor if anchor else "")

        rendered = self.renderer.render(spec, href)
        page.toc = get_toc([{"level": e.level, "id": e.id, "name": escape(e.title), "children": []}
                            for e in rendered.toc])
        return rendered.html

    def on_post_page(self, output: str, page, config) -> str:
        if page.file.src_uri in self.specs:
            self.written()
        return output

    def on_serve(self, server, config, builder):
        # Edits to the YAML rebuild the site, as edits to docs_dir do.
        server.watch(str(self.root))
        return server


def _refuse_site_dir_over(site_dir: Path, root: Path) -> None:
    """Stop a plain ``mkdocs build`` whose site_dir overlaps the rulebook, before mkdocs empties it.

    (``rulebook build`` checks its ``--out`` itself, and builds into a staging folder.)
    """
    site, book = site_dir.resolve(), root.resolve()
    relation = "is" if site == book else "is inside" if site.is_relative_to(book) else \
        "contains" if book.is_relative_to(site) else None
    if relation:
        raise PluginError(f"site_dir '{site_dir}' {relation} the rulebook folder '{root}'; "
                          "mkdocs empties site_dir before it builds: choose another site_dir")


HOME_SEARCH_BOOST = 0.1


def page_meta(spec: P.PageSpec, names: tuple[str, ...] = ()) -> dict:
    """The page's metadata, given through the plugin API rather than front matter.

    Its title is HTML-escaped: themes print titles as HTML. ``names``, a term page's name and
    aliases, are its search tags: Material's search weighs a tag above a title and a title above
    the text, so a search for a name or an alias ranks the term that has it first, above a term
    whose title or text holds some of its words ("restore abilities": Heal, not Abilities). Without
    Material's tags plugin, tags are not shown on the page.
    """
    meta: dict[str, Any] = {"title": escape(spec.title)}
    if names:
        meta["tags"] = [escape(name) for name in names]  # the index holds escaped text, titles included
        # Material scores every tag that holds a query's word alike ("Battle" and "Add to Battle" for
        # battle), then keeps the index's order: of those, the shorter name is the nearer match, so a
        # term page's score is multiplied by 1 + 1/(words in its name): Battle 2, Add to Battle 1.5.
        # A name that holds more of the query's words still wins ("Add to Battle" for add to battle).
        meta["search"] = {"boost": round(1 + 2 / max(1, len(re.findall(r"\w+", names[0]))), 3)}
    if not spec.searchable:
        meta["search"] = {"exclude": True}
    elif spec.kind == P.HOME:
        # Readers search for rules: the home page's words about the rulebook rank below every
        # term page and clause that matches (Material's search multiplies its scores by this).
        meta["search"] = {"boost": HOME_SEARCH_BOOST}
    return meta


def navigation(book) -> list:
    """Home, the chapters, A–Z, editions, print: a handful of entries whatever the number of terms."""
    # A draft is a proposal wherever it is named, the navigation included.
    editions = [{escape(f"{e.id}: {e.title}" + (" (proposal)" if e.status == "draft" else "")): P.edition_uri(e.id)}
                for e in reversed(book.editions)]
    corrections = [{"Corrections": P.corrections_uri()}] if book.corrections else []
    shown = P.current(book)
    # The guide's chapters, where the edition shown declares them: a handful, as the guide has
    chapters = ([{"Chapters": [{escape(c.title): P.chapter_uri(i, c.title)} for i, c in enumerate(shown.chapters, 1)]}]
                if shown.chapters else [])
    return [{"Home": P.home_uri()},
            *chapters,
            {"Terms A–Z": P.az_uri()},
            {"Editions": [{"All editions": P.editions_uri()}] + editions + corrections},
            {"Printable glossary": P.print_uri()}]


def project_site(config, site: str) -> Path:
    """The project's own site folder (the plugin option ``site``, relative to mkdocs.yml)."""
    folder = Path(site)
    if not folder.is_absolute():
        folder = Path(config.config_file_path or ".").parent / folder
    return folder


def project_site_folders(config, site: str):
    """The site folders of the project whose mkdocs.yml this is (``site`` relative to it)."""
    return site_folders(project_site(config, site))


def published_folders(config, site: str) -> list[tuple[str, Path]]:
    """The folders whose files a build publishes or renders with, each with what it is, docs_dir first:
    every symbolic link in them must stay inside (``rulebook_compiler.site.links``)."""
    own = project_site(config, site)
    folders = [("the docs folder (docs_dir)", Path(config.docs_dir))]
    if config.theme.custom_dir:
        folders.append(("the theme's custom_dir", Path(config.theme.custom_dir)))
    return folders + [("the project's site docs", own / "docs"), ("the project's theme overrides", own / "overrides"),
                      ("the project's site templates", own / "templates")]


def refuse_links_out(config, site: str) -> None:
    """Stop the build, before anything is written, at any link that would publish a file from elsewhere."""
    problems = outside_links(published_folders(config, site))
    if problems:
        text = "\n".join(map(str, problems))
        raise PluginError(f"{text}\n{counted(len(problems), 'problem')} found; nothing was built")


def theme_dirs(dirs: list[str], custom_dir: str | None, overrides: tuple[Path, ...]) -> list[str]:
    """The theme's template folders with the project's overrides first and the package's after custom_dir."""
    *own, package = (str(d) for d in overrides)
    rest = [d for d in dirs if d not in own and d != package]
    custom = 1 if custom_dir and rest[:1] == [custom_dir] else 0
    return [*own, *rest[:custom], package, *rest[custom:]]


def build_date(book) -> str:
    """The latest date any edition gives, as YYYY-MM-DD (1970-01-01 when none is dated)."""
    dates = sorted((e.date for e in book.editions if e.date), key=_full_date)
    return _full_date(dates[-1]) if dates else "1970-01-01"


def _full_date(date: str) -> str:
    parts = (date.split("-") + ["01", "01"])[:3]
    return "-".join(parts)


def striptags(value) -> Markup:
    """Jinja2's ``striptags``, its text escaped again: it un-escapes ``&lt;script&gt;`` into ``<script>``.

    Material prints the result raw (``<title>{{ page.title | striptags }}``) or escapes it
    (``| striptags | e``); escaped Markup is right for both.
    """
    if hasattr(value, "__html__"):
        value = value.__html__()
    return escape(Markup(str(value)).striptags())


def _rulings(root: Path, book) -> dict:
    """Edition id -> the rulings that apply to it, for the term pages; a problem stops the build, as
    ``rulebook check`` reports it."""
    from ..rulings import read

    found = read(root, book)
    if found.problems:
        text = "\n".join(str(p) for p in found.problems)
        raise PluginError(f"the rulebook's rulings have problems, nothing was built:\n{text}")
    return dict(found.applying)
