"""``rulebook build`` and ``rulebook serve``: mkdocs-material with the ``rulebook`` plugin.

Both use ``./mkdocs.yml`` when it exists and no ``--rulebook`` is given;
otherwise a configuration made for the rulebook (Material, search, the
plugin, the stylesheets of ``site/``). The rulebook is checked first: with
errors, they print them and exit 1 before anything is written. ``build``
writes into a staging folder beside the target and swaps it in only once
complete, so a failed build leaves the previous site as it was; where it may
write, and how a killed or concurrent build is handled: ``rulebook_compiler.outputs``.
"""

from __future__ import annotations

import os
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import click
import yaml  # _IgnoreTags below is made at import: the module loads yaml anyway

from ..diagnostics import printable  # paths may come from a repository's mkdocs.yml
from ..site.config import default_config
from .options import RULEBOOK_SITE_HELP, rulebook_option, say

DEFAULT_OUT = Path("public")
MKDOCS_YML = Path("mkdocs.yml")

_ROOT = rulebook_option(RULEBOOK_SITE_HELP)


def require_site_extra(command: str) -> None:
    """Exit 1, saying what to install, where mkdocs-material is not (the package's 'site' extra)."""
    import importlib.util

    try:
        missing = importlib.util.find_spec("mkdocs") is None or importlib.util.find_spec("material") is None
    except (ImportError, ValueError):  # a module set to None in sys.modules
        missing = True
    if missing:
        click.echo(f"rulebook: error: 'rulebook {command}' needs mkdocs-material, which is not installed\n"
                   "  hint: pip install 'rulebook-compiler[site]' (from a clone: pip install '.[site]')", err=True)
        sys.exit(1)


@contextmanager
def config_file(root: Path | None) -> Iterator[tuple[Path, Path]]:
    """(mkdocs.yml to use, rulebook folder it reads), after checking the rulebook (exit 1 on errors)."""
    from ..where import default_root
    from .common import load_or_exit
    from ..site.plugin import checked

    if root is None and MKDOCS_YML.is_file():
        import yaml

        # Check the rulebook the config names before mkdocs runs, for the CLI's own error format.
        try:
            raw = yaml.load(MKDOCS_YML.read_text(encoding="utf-8"), Loader=_IgnoreTags)
            named = next((p["rulebook"].get("rulebook", "rulebook") for p in raw.get("plugins", [])
                          if isinstance(p, dict) and isinstance(p.get("rulebook"), dict)), "rulebook")
        except Exception:  # mkdocs reports a broken mkdocs.yml itself, in its own words
            named = "rulebook"
        book = load_or_exit(Path(named))
        with checked(Path(named), book):
            yield MKDOCS_YML, Path(named)
        return
    from ..fileio import OutputError, write_text
    from .options import default_rulebook_or_exit

    if root is None:
        default_rulebook_or_exit()  # neither ./rulebook nor . holds one: a usage error, as in every command
    root = root or default_root()
    book = load_or_exit(root)
    try:
        tmp = tempfile.TemporaryDirectory(prefix="rulebook-mkdocs-")
    except OSError as exc:  # a full disk: one error line, as for the site itself
        raise OutputError(tempfile.gettempdir(), exc.strerror or str(exc)) from None
    with tmp, checked(root, book):
        path = Path(tmp.name) / "mkdocs.yml"
        write_text(path, default_config(root, book.title))
        yield path, root


class _IgnoreTags(yaml.SafeLoader):
    """mkdocs.yml may hold !ENV and !!python/name tags; their values do not matter here."""


_IgnoreTags.add_multi_constructor("", lambda loader, suffix, node: None)


@click.command("build")
@_ROOT
@click.option("--out", type=click.Path(path_type=Path), default=None,
              help="Folder to write the site to (default: site_dir of mkdocs.yml, else ./public).")
def build(root: Path | None, out: Path | None) -> None:
    """Build the published glossary (mkdocs-material) into OUT, atomically."""
    require_site_extra("build")
    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
    from mkdocs.commands.build import build as mkdocs_build
    from mkdocs.config import load_config
    from mkdocs.exceptions import MkDocsException

    from ..outputs import staged_folder

    with config_file(root) as (path, rulebook):
        config = load_config(config_file=str(path))
        target = Path(out) if out is not None else (
            Path(config.site_dir) if root is None and path == MKDOCS_YML else DEFAULT_OUT)
        _refuse_links_out(config, target)
        with staged_folder(target, "rulebook build", _inputs(config, path, rulebook)) as staging:
            config.site_dir = str(staging)
            try:
                mkdocs_build(config)
            except BaseException as exc:
                if not isinstance(exc, Exception):
                    # mkdocs tells plugins of an Exception only; after ^C too the rulebook plugin must thaw the GC.
                    config.plugins.on_build_error(error=exc)  # type: ignore[arg-type]  # ^C too, on purpose
                if not isinstance(exc, (MkDocsException, SystemExit)):
                    raise
                click.echo(printable(f"rulebook: error: the site was not built; {target} is unchanged\n{exc}", "\n"),
                           err=True)
                sys.exit(1)
    say(printable(f"Built the glossary in {target}/. To read it: python3 -m http.server -d {target} 8000, "
                         f"then open http://127.0.0.1:8000/ (or run 'rulebook serve')"))


def _refuse_links_out(config, target: Path) -> None:
    """Exit 1, each link at its place, where a site folder links outside itself (the plugin checks again
    under plain ``mkdocs build`` and ``rulebook serve``; here the errors come first, as ``check`` prints them)."""
    from ..counts import counted
    from ..site.links import outside_links
    from ..site.plugin import published_folders

    plugin = config.plugins.get("rulebook")
    problems = outside_links(published_folders(config, plugin.config.site if plugin is not None else "site"))
    if problems:
        for problem in problems:
            click.echo(str(problem), err=True)
        click.echo(printable(f"{counted(len(problems), 'problem')} found; the site was not built, "
                             f"{target} is unchanged"), err=True)
        sys.exit(1)


def _inputs(config, path: Path, rulebook: Path) -> list:
    """What a build reads, so that its output never lands on any of it."""
    from ..outputs import Input, rulebook_input
    from ..site.render import SITE_DIR

    from ..site.plugin import project_site_folders

    plugin = config.plugins.get("rulebook")
    site = plugin.config.site if plugin is not None else "site"
    inputs = [rulebook_input(rulebook), Input("the site templates", SITE_DIR),
              *(Input(what, where) for what, where in project_site_folders(config, site).own),
              Input("the docs folder (docs_dir)", Path(config.docs_dir)),
              *(Input("the theme", Path(d)) for d in config.theme.dirs)]
    if path == MKDOCS_YML:
        inputs.append(Input("the site configuration", MKDOCS_YML))
    return inputs


@click.command("serve")
@_ROOT
@click.option("--dev-addr", default="127.0.0.1:8000", show_default=True,
              help="Address to serve on (port 0: any free port).")
def serve(root: Path | None, dev_addr: str) -> None:
    """Serve the glossary locally; edits to the rulebook rebuild it (errors shown, the last good site kept)."""
    require_site_extra("serve")
    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
    from ..build import remembering
    from ..site.serve import ServeError, serve as serve_site

    with remembering(), config_file(root) as (path, rulebook):  # rebuilds read again only the files changed
        try:
            serve_site(path, rulebook, dev_addr)
        except ServeError as exc:
            click.echo(str(exc), err=True)
            sys.exit(1)
