"""``rulebook serve``: the glossary on a local server that rebuilds after every edit.

mkdocs' own ``serve`` said nothing of where it served (its log is not shown),
and after a failed rebuild it answered no request until the next good build
("The server will appear stuck"), with no ``path:line:col``. Here:

- the rulebook is checked before each rebuild; its problems are printed as
  ``rulebook check`` prints them, and the last good site stays served, every
  HTML page carrying an overlay with the errors (as a dev server's error
  overlay does) until a build succeeds; the page reloads by itself either way;
- each build goes into a fresh folder, switched in only once complete, so a
  build that fails half-way leaves the last good site whole;
- "Serving on URL" is printed once the first build is served (the port is the
  one bound, so ``--dev-addr 127.0.0.1:0`` picks a free one);
- saves are noticed by the system's file events (``_native_observer``);
- a rebuild reads again only the files changed since, and builds and checks
  again only the terms they hold (``build.remembering``); when the edit changed
  terms but not the site's frame (editions, term names, the set of pages,
  mkdocs.yml), it writes only the pages those terms show on (their pages in
  every edition, their histories), in place, as mkdocs' ``--dirty`` build
  does, merges their search entries into the index (``affected``), and once
  edits pause, the pages over every term (the "What changed" pages around the
  edition, the printable glossary, which renders again only the changed terms).
  Anything else rebuilds the whole site. Either way the files served are those
  a whole build writes (tests/site/test_serve_incremental.py).

It drives mkdocs' ``LiveReloadServer`` (file watching, live reload, request
handling) with its own builder, in place of ``mkdocs.commands.serve``.
"""

from __future__ import annotations

import dataclasses
import gc
import html
import logging
import shutil
import signal
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator
from urllib.parse import urlsplit

import click
from jinja2 import BytecodeCache
from mkdocs.livereload import LiveReloadServer, _serve_url
from mkdocs.livereload import _Handler as _MkdocsHandler
from mkdocs.livereload import log as _mkdocs_log
from mkdocs.plugins import BasePlugin, event_priority

from ..build import file_stamp  # a file's (size, mtime): how remembering tells an unchanged one
from ..counts import counted
from ..diagnostics import printable
from ..model import Rulebook

OVERLAY_ID = "rulebook-error-overlay"
REBUILDS_BETWEEN_COLLECTIONS = 20
# The pages over every term (the printable glossary, "What changed") are written once edits
# have paused this long: a save that follows soon after never waits behind them.
QUIET_BEFORE_LATER_PAGES = 2.0  # seconds

# Inline styles: the overlay must show whatever the theme's stylesheets are.
_OVERLAY = (
    '<div id="{id}" role="alert" style="position:fixed;inset:0;z-index:100000;overflow:auto;'
    'background:rgba(0,0,0,.66);padding:2rem">'
    '<div style="max-width:64rem;margin:0 auto;background:#181818;color:#e8e8e8;border-top:.4rem solid #e36049;'
    'padding:1.2rem 1.5rem;font:14px/1.5 ui-monospace,monospace">'
    '<p style="margin:0 0 .8rem;color:#ff7b72;font-weight:bold">The rulebook has errors: '
    'this is the last good build.</p>'
    '<pre style="margin:0;white-space:pre-wrap;color:inherit;background:none">{errors}</pre>'
    '<p style="margin:.8rem 0 0;color:#aaa">Fix the file and save: the page reloads by itself.</p>'
    '</div></div>')


def overlay(errors: str) -> bytes:
    """The error overlay for ``errors``: file names and rule text escaped for HTML."""
    return _OVERLAY.format(id=OVERLAY_ID, errors=html.escape(printable(errors, "\n"))).encode()


# A request line longer than this is logged cut short (a path of thousands of characters fills the terminal).
LOGGED_REQUEST = 100  # characters


class _Handler(_MkdocsHandler):
    """mkdocs' request handler, logging the request line escaped for the terminal and cut short.

    The line is the client's: any page open in the browser can send a NUL or an escape sequence.
    """

    def log_request(self, code="-", size="-") -> None:
        line = self.requestline
        if len(line) > LOGGED_REQUEST:
            line = f"{line[:LOGGED_REQUEST]}... ({len(line)} characters)"
        level = logging.DEBUG if str(code) == "200" else logging.WARNING
        _mkdocs_log.log(level, f'"{printable(line)}" code {code}')  # its adapter stamps the time


def bad_path(environ: dict) -> bool:
    """Whether the request's path is one no file is named by: not UTF-8, or with a control character.

    mkdocs drops what is not UTF-8 (``/%ff`` served the home page) and passes a NUL on to
    ``open``, whose ValueError it printed as a traceback (500).
    """
    try:
        path = environ["PATH_INFO"].encode("latin-1").decode("utf-8")
    except UnicodeError:
        return True
    return any(ord(char) < 0x20 or ord(char) == 0x7F for char in path)


class Server(LiveReloadServer):
    """mkdocs' live-reload server, with the errors of the last rebuild over every page."""

    errors: str | None = None  # set by the build loop, read by request threads (one assignment each)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.RequestHandlerClass = _Handler

    def _serve_request(self, environ, start_response):
        if bad_path(environ):
            start_response("400 Bad Request", [("Content-Type", "text/plain; charset=utf-8")])
            return [b"400 Bad Request: no file is named by this path\n"]
        return super()._serve_request(environ, start_response)

    def _inject_js_into_html(self, content: bytes, epoch: int) -> bytes:
        content = super()._inject_js_into_html(content, epoch)
        errors = self.errors
        if errors is None:
            return content
        end = content.rfind(b"</body>")
        end = len(content) if end < 0 else end
        return content[:end] + overlay(errors) + content[end:]


class Site:
    """Builds the site after each edit: the pages the edit changed in place, or all into a fresh folder."""

    def __init__(self, config_file: Path, rulebook: Path, dev_addr: str):
        self.config_file, self.rulebook, self.dev_addr = config_file, rulebook, dev_addr
        self.url = ""  # set once the server is bound
        self.server: Server | None = None
        self.book: Rulebook | None = None  # the rulebook the site served now was built from
        self.search: list[dict] = []  # that site's search entries (Material's search plugin)
        self.damaged = False  # a build in place failed half-way: the next one builds everything
        self.templates: dict[str, bytes] = {}  # compiled templates, kept from build to build
        self.theme_files: list[str] | None = None  # the theme's files, listed at the last whole build
        self.rebuilds = 0
        self.fragments: dict = {}  # rendered term bodies of the printout (Renderer.term_body), per frame
        self.pending: frozenset[str] = frozenset()  # pages over every term not yet written again
        self.quiet = QUIET_BEFORE_LATER_PAGES
        self.config_stamp = file_stamp(Path(config_file))  # mkdocs.yml as the site served was built with it
        self.marks: tuple | None = None  # (rulebook, its clauses' marks) of the site served

    def load_config(self, site_dir: str, only: frozenset[str] | None = None, later: bool = False):
        from mkdocs.config import load_config

        config = load_config(config_file=str(self.config_file), site_dir=site_dir, dev_addr=self.dev_addr)
        if self.url:
            config.site_url = self.url
        config.plugins["rulebook-serve"] = Incremental(only, self.search, self.templates, later, self.fragments,
                                                       self.marks)
        theme_env = config.theme.get_env

        def get_env():
            env = theme_env()
            env.bytecode_cache = _Compiled(self.templates)
            # mkdocs walks the theme's tens of thousands of files (icons) at every build, for its few
            # static files (0.5 s); a build of some pages takes the list of the last whole build.
            listed = env.list_templates

            def list_templates(*args, **kwargs) -> list[str]:
                if self.theme_files is None or only is None:
                    self.theme_files = listed(*args, **kwargs)
                return list(self.theme_files)

            env.list_templates = list_templates  # type: ignore[method-assign]  # the patch is the point
            return env

        config.theme.get_env = get_env  # type: ignore[method-assign]  # the patch is the point
        return config

    def build(self, config, dirty: bool = False) -> None:
        """One mkdocs build of ``config`` (into its site_dir); the plugin thawed whatever ends it."""
        from mkdocs.commands.build import build

        from .plugin import refuse_links_out

        # Before mkdocs, whose own error would only be "Aborted with a BuildError!" here: the message is the
        # overlay's, and a link added to docs_dir while serving is refused at the next rebuild.
        refuse_links_out(config, _site_option(config))
        try:
            with _dirty_build_quiet():
                build(config, serve_url=self.url or None, dirty=dirty)
        except BaseException as exc:
            if not isinstance(exc, Exception):
                # mkdocs tells plugins of an Exception only; after ^C too the rulebook plugin must thaw the GC.
                config.plugins.on_build_error(error=exc)
            raise
        self.search = config.plugins["rulebook-serve"].entries
        renderer = getattr(config.plugins.get("rulebook"), "renderer", None)
        if renderer is not None:
            self.marks = (renderer.book, renderer.marks)

    def rebuild(self) -> None:
        """After an edit: check; build what changed (or everything, elsewhere); on errors keep the last site."""
        from mkdocs.exceptions import MkDocsException

        from ..build import check
        from ..diagnostics import report

        assert self.server is not None
        start = time.monotonic()
        self._freeze()
        book, problems = check(self.rulebook)
        if book is None:
            report(problems)
            count = sum(p.severity == "error" for p in problems)
            self.fail("\n".join(str(p) for p in problems) + f"\n{counted(count, 'problem')} found")
            return
        stamp = file_stamp(Path(self.config_file))
        only = None if self.damaged or stamp != self.config_stamp else affected(self.book, book)
        try:
            if only is None:
                self._whole(book)
                self.config_stamp = stamp
                click.echo(f"Rebuilt the site in {time.monotonic() - start:.1f} s")
            else:
                now, later = _split(book, only | self.pending)
                if now:
                    self._pages(book, now)
                self.book, self.server.errors = book, None
                click.echo(f"Rebuilt {_pages(now)} in {time.monotonic() - start:.1f} s")
                self.pending = later
                if later:
                    self._release()
                    if not self._settled():
                        return  # another edit came: its rebuild writes these too
                    start = time.monotonic()
                    self._pages(book, later, later=True)
                    self.pending = frozenset()
                    click.echo(f"Rebuilt {_pages(later)} more (the printable glossary, \"What changed\") "
                               f"in {time.monotonic() - start:.1f} s")
        except (MkDocsException, SystemExit) as exc:
            message = printable(str(exc), "\n")
            click.echo(f"rulebook: error: the site was not rebuilt\n{message}", err=True)
            self.fail(f"the site was not rebuilt\n{message}")
            return
        self.book, self.server.errors = book, None

    def _settled(self) -> bool:
        """Whether edits have paused for ``quiet`` seconds (False as soon as another comes, or at ^C)."""
        server = self.server
        assert server is not None
        with server._rebuild_cond:
            server._rebuild_cond.wait_for(lambda: server._want_rebuild or server._shutdown, timeout=self.quiet)
            return not (server._want_rebuild or server._shutdown)

    def _freeze(self) -> None:
        """Freeze the heap as it is (the rulebook served, mkdocs' state) for the cyclic collector.

        Its full passes would rescan it every few thousand allocations, seconds at
        2,000 terms: more than a few pages take. (The rulebook plugin then skips its
        own collection before the build.) Objects freed by reference counting go as
        ever; garbage in cycles waits for the collection every REBUILDS_BETWEEN_COLLECTIONS
        rebuilds, paid once rather than at every rebuild.
        """
        from . import plugin

        self.rebuilds += 1
        if self.rebuilds % REBUILDS_BETWEEN_COLLECTIONS == 0:
            gc.unfreeze()
            gc.collect()
        gc.freeze()
        plugin.HOST_FREEZES = True

    def _whole(self, book) -> None:
        """Every page, into a fresh folder switched in once complete."""
        from .plugin import checked

        assert self.server is not None
        out = tempfile.mkdtemp(prefix="rulebook-serve-")
        self.fragments.clear()  # rendered in another frame (titles, editions, templates)
        self.pending = frozenset()
        try:
            with checked(self.rulebook, book):
                self.build(self.load_config(out))
        except BaseException:
            shutil.rmtree(out, ignore_errors=True)
            raise
        old, self.server.root = self.server.root, out
        shutil.rmtree(old, ignore_errors=True)
        self.damaged = False

    def _pages(self, book, only: frozenset[str], later: bool = False) -> None:
        """Only these pages, in the folder served (a dirty mkdocs build); a failure half-way: all next time."""
        from .plugin import checked

        assert self.server is not None
        self.damaged = True
        with checked(self.rulebook, book):
            self.build(self.load_config(self.server.root, only, later), dirty=True)
        self.damaged = False

    def _release(self) -> None:
        """Answer requests from now on (mkdocs holds them while a rebuild runs): the changed pages are written.

        The pages built next are written whole (``Incremental``), so a request never reads one half-written.
        """
        server = self.server
        assert server is not None
        with server._epoch_cond:
            server._visible_epoch = server._wanted_epoch
            server._epoch_cond.notify_all()

    def fail(self, errors: str) -> None:
        assert self.server is not None
        self.server.errors = errors
        click.echo("The last good site is still served; fix the errors and save to rebuild.", err=True)


class Incremental(BasePlugin):
    """Added to each serve build: marks the pages not to write again, and keeps the search entries.

    ``only``: the docs files (``src_uri``) to write; None for a whole build.
    ``later``: pages written while requests are answered: each written whole
    (a temporary file renamed over the old), the search index left as it is.
    """

    def __init__(self, only: frozenset[str] | None, entries: list[dict], templates: dict[str, bytes],
                 later: bool = False, fragments: dict | None = None, marks: tuple | None = None):
        super().__init__()
        self.only, self.entries, self.templates, self.later = only, entries, templates, later
        self.fragments, self.marks = fragments, marks
        self.urls: set[str] = set()

    @event_priority(-100)  # after the rulebook plugin has made its renderer
    def on_config(self, config):
        # The templates compiled once for the whole session, not again at every rebuild: the
        # theme's (mkdocs makes a new environment for each build) and the rulebook plugin's.
        renderer = getattr(config.plugins.get("rulebook"), "renderer", None)
        if renderer is not None:
            renderer.env.bytecode_cache = _Compiled(self.templates)
            renderer.fragments = self.fragments
            if self.only is not None and self.marks is not None:
                # The same frame as the site served (``affected``): only the edited terms' marks change.
                from .lineage import clause_marks_since

                renderer.marks = clause_marks_since(renderer.book, *self.marks)
        if self.only is not None:
            # 404.html and the sitemap show the site's frame, unchanged since the whole build; written
            # again here they would date every page not built today (mkdocs dates a page when it reads it).
            config.theme.static_templates.clear()
        if self.later:
            config.plugins["rulebook-serve-index-kept"] = _IndexKept()
        return config


    @event_priority(-100)  # after the rulebook plugin has added its pages
    def on_files(self, files, config):
        if self.only is not None:
            for file in files.documentation_pages():
                if file.src_uri not in self.only:
                    file.is_modified = _unmodified  # mkdocs' dirty build reads and writes only modified pages
            self.urls = {file.url for file in files.documentation_pages() if file.src_uri in self.only}
        return files

    @event_priority(-100)  # last: what it returns is what mkdocs writes
    def on_post_page(self, output: str, page, config) -> str:
        if not self.later:
            return output
        from ..fileio import write_text

        write_text(Path(page.file.abs_dest_path), output)  # whole: a temporary file renamed over the old
        return ""  # written: mkdocs writes no empty page

    @event_priority(-100)  # after the search plugin has written its index
    def on_post_build(self, config) -> None:
        search = next((p for p in config.plugins.values() if hasattr(p, "search_index")), None)
        if search is None or self.later:
            return
        entries = search.search_index.entries  # the pages written in this build
        if self.only is not None:
            kept = [e for e in self.entries if e["location"].partition("#")[0] not in self.urls]
            entries = search.search_index.entries = kept + entries
            from mkdocs.utils import write_file

            index = search.search_index.generate_search_index(None)
            write_file(index.encode(), str(Path(config.site_dir) / "search" / "search_index.json"))
        self.entries = list(entries)


class _IndexKept(BasePlugin):
    """Added to the builds of pages written while requests are answered: Material's search index is
    left as it is (the pages have no entries; it would be written with none, and not whole).

    The search plugin stays enabled while the pages are built: it gives every page its search
    box and strips the ``data-search-*`` marks, as in a whole build.
    """

    @event_priority(100)  # before the search plugin writes its index
    def on_post_build(self, config) -> None:
        for plugin in config.plugins.values():
            if hasattr(plugin, "search_index"):
                plugin.config.enabled = False


class _Compiled(BytecodeCache):
    """A jinja2 bytecode cache in memory (jinja2 ships only file and memcached ones)."""

    def __init__(self, store: dict[str, bytes]):
        self.store = store

    def load_bytecode(self, bucket) -> None:
        if bucket.key in self.store:
            bucket.bytecode_from_string(self.store[bucket.key])

    def dump_bytecode(self, bucket) -> None:
        self.store[bucket.key] = bucket.bytecode_to_string()


def _site_option(config) -> str:
    """The rulebook plugin's ``site`` option (the project's site folder), as the plugin reads it."""
    plugin = config.plugins.get("rulebook")
    return plugin.config.site if plugin is not None else "site"


def _unmodified() -> bool:
    return False


class _NoDirtyWarning(logging.Filter):
    """mkdocs warns of every dirty build; in strict mode a warning fails the build."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith("A 'dirty' build is being performed")


@contextmanager
def _dirty_build_quiet() -> Iterator[None]:
    logger, quiet = logging.getLogger("mkdocs.commands.build"), _NoDirtyWarning()
    logger.addFilter(quiet)
    try:
        yield
    finally:
        logger.removeFilter(quiet)


def affected(old, new) -> frozenset[str] | None:
    """The pages (docs ``src_uri``) an edit from ``old`` to ``new`` changes; None: build the whole site.

    Only terms changed: the pages that show those terms. The frame of the site
    changed (the rulebook's or an edition's fields, a term added, withdrawn or
    renamed, an alias, the vocabulary, the corrections log, the set of pages),
    or no earlier site: None.
    """
    from . import pages as P

    if old is None or _frame(old) != _frame(new):
        return None
    plan = P.plan(new)
    if [(s.src_uri, s.title) for s in P.plan(old)] != [(s.src_uri, s.title) for s in plan]:
        return None
    changed, in_editions = set(), set()
    for i, (before, after) in enumerate(zip(old.editions, new.editions)):
        for term in after.terms:
            if _content(before.term_by_id[term.id]) != _content(term):
                changed.add(term.id)
                in_editions.update({after.id} | ({new.editions[i + 1].id} if i + 1 < len(new.editions) else set()))
    if not changed:
        return frozenset()
    return frozenset(s.src_uri for s in plan
                     if s.term in changed or s.kind == P.PRINT or (s.kind == P.CHANGES and s.edition in in_editions))


def _split(book, only: frozenset[str]) -> tuple[frozenset[str], frozenset[str]]:
    """(the pages of the changed terms, the pages over many terms: the printout, "What changed")."""
    from . import pages as P

    later = only & ({P.print_uri()} | {P.changes_uri(e.id) for e in book.editions})
    return only - later, later


def _pages(uris: frozenset[str]) -> str:
    return counted(len(uris), "page")


def _frame(book) -> tuple:
    """What a rulebook's pages show besides the terms' own content."""
    return (_fields(book, "editions"),
            tuple((_fields(e, "terms"), tuple((t.id, t.name, t.aliases) for t in e.terms)) for e in book.editions))


def _fields(obj, leave_out: str) -> tuple:
    """A frozen dataclass's compared fields but one, as a tuple (``replace`` would build a new one)."""
    return tuple(getattr(obj, f.name) for f in dataclasses.fields(obj) if f.compare and f.name != leave_out)


def _content(term) -> tuple:
    return (term.digest, term.notes, term.editor_notes, term.updated, term.released, term.edition)


class ServeError(Exception):
    """The site cannot be served (the address is taken, the first build failed): the lines to print;
    the command (``rulebook_compiler.commands.site``) prints them and exits 1."""


def serve(config_file: Path, rulebook: Path, dev_addr: str) -> None:
    """Build once (the rulebook lent by ``checked``), then serve and rebuild after each edit until ^C;
    ``ServeError`` when it cannot start."""
    import os

    from mkdocs.exceptions import MkDocsException

    from .. import progress

    progress.stop()  # it runs until ^C, printing its own lines: no bars to keep on screen
    signal.signal(signal.SIGTERM, _interrupt)  # terminated as by ^C: the built folders are removed
    site = Site(config_file, rulebook, dev_addr)
    first = tempfile.mkdtemp(prefix="rulebook-serve-")
    config = None
    try:
        config = site.load_config(first)
        host, port = config.dev_addr
        mount = urlsplit(config.site_url or "/").path
        server = site.server = Server(builder=site.rebuild, host=host, port=port, root=first, mount_path=mount)
        # Told of each save by the system (inotify), not by looking at every file twice a second:
        # at 2,000 terms a look took longer than a rebuild's own work (mkdocs polls).
        server.observer = _native_observer()
        try:
            server.server_bind()
        except OSError as exc:
            raise ServeError(printable(f"rulebook: error: cannot serve on {host}:{port}: {exc.strerror or exc}")
                             + "\n  hint: choose another address with --dev-addr HOST:PORT (port 0: any free port)"
                             ) from None
        site.url = server.url = _serve_url(host, server.server_address[1], mount)
        config.site_url = site.url
        try:
            site.build(config)
        except (MkDocsException, SystemExit) as exc:
            raise ServeError(printable(f"rulebook: error: the site was not built\n{exc}", "\n")) from None
        site.book = config.plugins["rulebook"].book
        server.error_handler = lambda code: _error_page(server.root, code)
        server.watch(config.docs_dir)
        if config.config_file_path:
            server.watch(config.config_file_path)
        server = config.plugins.on_serve(server, config=config, builder=site.rebuild)
        for item in config.watch:
            server.watch(item)
        server.server_activate()
        _start_watching(server)
        click.echo(f"Serving on {site.url}")
        server.serve_thread.start()
        try:
            server._build_loop()  # mkdocs' own loop: waits for edits, calls site.rebuild, reloads browsers
        except KeyboardInterrupt:
            click.echo("Shutting down...", err=True)
        finally:
            server.shutdown()
    finally:
        if config is not None:
            config.plugins.on_shutdown()
        if site.server is not None and os.path.isdir(site.server.root):
            shutil.rmtree(site.server.root, ignore_errors=True)
        shutil.rmtree(first, ignore_errors=True)


def _native_observer():
    """watchdog's observer for the system (inotify on Linux), told of writes only.

    The system also reports files opened and read, so a rebuild reading the
    rulebook would set off the next one, and so on, forever. (Filtered in a
    handler, not with ``schedule(event_filter=...)``, which watchdog has only from 4.0.)
    """
    from watchdog.events import FileSystemEventHandler
    from watchdog.observers import Observer

    class OnlyWrites(FileSystemEventHandler):
        def __init__(self, handler):
            super().__init__()
            self.handler = handler

        def dispatch(self, event) -> None:
            if event.event_type in _WRITES:
                self.handler.dispatch(event)

    class Writes(Observer):  # type: ignore[valid-type,misc]  # watchdog picks Observer per platform: a variable
        def schedule(self, event_handler, path, *args, **kwargs):
            return super().schedule(OnlyWrites(event_handler), path, *args, **kwargs)

    return Writes()


_WRITES = frozenset({"created", "deleted", "modified", "moved", "closed"})  # not opened, closed_no_write


def _start_watching(server: Server) -> None:
    """Start the observer; where the system's notices fail (inotify's limits), poll as mkdocs does."""
    try:
        server.observer.start()
    except OSError:
        from watchdog.observers.polling import PollingObserver

        paths = list(server._watched_paths)
        server.observer = PollingObserver(timeout=0.5)
        server._watched_paths.clear()
        server._watch_refs.clear()
        for path in paths:
            server.watch(path)
        server.observer.start()


def _interrupt(signum, frame) -> None:
    raise KeyboardInterrupt


def _error_page(root: str, code: int) -> bytes | None:
    """The site's own 404 page (as mkdocs serve answers), from the folder served now."""
    if code in (404, 500):
        page = Path(root) / f"{code}.html"
        if page.is_file():
            return page.read_bytes()
    return None
