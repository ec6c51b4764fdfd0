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
  one bound, so ``--dev-addr 127.0.0.1:0`` picks a free one).

It drives mkdocs' ``LiveReloadServer`` (file watching, live reload, request
handling) with its own builder, in place of ``mkdocs.commands.serve``.
"""

from __future__ import annotations

import html
import shutil
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit

import click
from mkdocs.livereload import LiveReloadServer, _serve_url

from ..diagnostics import printable

OVERLAY_ID = "rulebook-error-overlay"

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


class Server(LiveReloadServer):
    """mkdocs' live-reload server, with the errors of the last rebuild over every page."""

    errors: str | None = None  # set by the build loop, read by request threads (one assignment each)

    def _inject_js_into_html(self, content: bytes, epoch: int) -> bytes:
        content = super()._inject_js_into_html(content, epoch)
        errors = self.errors
        if errors is None:
            return content
        end = content.rfind(b"</body>")
        end = len(content) if end < 0 else end
        return content[:end] + overlay(errors) + content[end:]


class Site:
    """Builds the site into a fresh folder each time; the server serves the last complete one."""

    def __init__(self, config_file: Path, rulebook: Path, dev_addr: str):
        self.config_file, self.rulebook, self.dev_addr = config_file, rulebook, dev_addr
        self.url = ""  # set once the server is bound
        self.server: Server | None = None

    def load_config(self, site_dir: str):
        from mkdocs.config import load_config

        config = load_config(config_file=str(self.config_file), site_dir=site_dir, dev_addr=self.dev_addr)
        if self.url:
            config.site_url = self.url
        return config

    def build(self, config) -> None:
        """One mkdocs build of ``config`` (into its site_dir); the plugin thawed whatever ends it."""
        from mkdocs.commands.build import build

        try:
            build(config, serve_url=self.url or None)
        except BaseException as exc:
            if not isinstance(exc, Exception):
                # mkdocs tells plugins of an Exception only; after ^C too the rulebook plugin must thaw the GC.
                config.plugins.on_build_error(error=exc)
            raise

    def rebuild(self) -> None:
        """After an edit: check, then build into a new folder and switch to it; on errors keep the old one."""
        from mkdocs.exceptions import MkDocsException

        from ..build import check
        from ..cli import report
        from .plugin import checked

        assert self.server is not None
        start = time.monotonic()
        book, problems = check(self.rulebook)
        if book is None:
            report(problems)
            count = sum(p.severity == "error" for p in problems)
            self.fail("\n".join(str(p) for p in problems) + f"\n{count} problem{'s' if count != 1 else ''} found")
            return
        out = tempfile.mkdtemp(prefix="rulebook-serve-")
        try:
            with checked(self.rulebook, book):
                self.build(self.load_config(out))
        except (MkDocsException, SystemExit) as exc:
            shutil.rmtree(out, ignore_errors=True)
            message = printable(str(exc), "\n")
            click.echo(f"error: the site was not rebuilt\n{message}", err=True)
            self.fail(f"the site was not rebuilt\n{message}")
            return
        except BaseException:
            shutil.rmtree(out, ignore_errors=True)
            raise
        old, self.server.root = self.server.root, out
        self.server.errors = None
        shutil.rmtree(old, ignore_errors=True)
        click.echo(f"Rebuilt the site in {time.monotonic() - start:.1f} s")

    def fail(self, errors: str) -> None:
        assert self.server is not None
        self.server.errors = errors
        click.echo("The last good site is still served; fix the errors and save to rebuild.", err=True)


def serve(config_file: Path, rulebook: Path, dev_addr: str) -> None:
    """Build once (the rulebook lent by ``checked``), then serve and rebuild after each edit until ^C."""
    import os

    from mkdocs.exceptions import MkDocsException

    from .. import progress

    progress.stop()  # it runs until ^C, printing its own lines: no bars to keep on screen
    site = Site(config_file, rulebook, dev_addr)
    first = tempfile.mkdtemp(prefix="rulebook-serve-")
    config = None
    try:
        config = site.load_config(first)
        host, port = config.dev_addr
        mount = urlsplit(config.site_url or "/").path
        server = site.server = Server(builder=site.rebuild, host=host, port=port, root=first, mount_path=mount)
        try:
            server.server_bind()
        except OSError as exc:
            click.echo(printable(f"rulebook: error: cannot serve on {host}:{port}: {exc.strerror or exc}"), err=True)
            click.echo("  hint: choose another address with --dev-addr HOST:PORT (port 0: any free port)", err=True)
            sys.exit(1)
        site.url = server.url = _serve_url(host, server.server_address[1], mount)
        config.site_url = site.url
        try:
            site.build(config)
        except (MkDocsException, SystemExit) as exc:
            click.echo(printable(f"error: the site was not built\n{exc}", "\n"), err=True)
            sys.exit(1)
        server.error_handler = lambda code: _error_page(server.root, code)
        server.watch(config.docs_dir)
        if config.config_file_path:
            server.watch(config.config_file_path)
        server = config.plugins.on_serve(server, config=config, builder=site.rebuild)
        for item in config.watch:
            server.watch(item)
        server.server_activate()
        server.observer.start()
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


def _error_page(root: str, code: int) -> bytes | None:
    """The site's own 404 page (as mkdocs serve answers), from the folder served now."""
    if code in (404, 500):
        page = Path(root) / f"{code}.html"
        if page.is_file():
            return page.read_bytes()
    return None
