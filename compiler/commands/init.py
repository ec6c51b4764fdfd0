"""``rulebook init [DIR]``: write the starter project of ``compiler.starter`` into a new or empty folder."""

from __future__ import annotations

import os
from pathlib import Path

import click

from ..diagnostics import printable
from ..fileio import OutputError
from .options import UsageProblem, say
from .. import starter  # through the module: tests replace starter.compiler_source


@click.command("init")
@click.argument("folder", metavar="[DIR]", required=False, default=".", type=click.Path(path_type=Path))
@click.option("--title", default=None, help="The rulebook's title (default: the folder's name).")
def init(folder: Path, title: str | None) -> None:
    """Start a rulebook in DIR (default: here): one edition, one term, a site, hooks, CI, editor schemas."""
    if folder.exists() and not folder.is_dir():
        raise click.BadParameter(printable(f"'{folder}' is a file, not a folder"), param_hint="'[DIR]'")
    files = starter.project_files(title or folder.resolve().name or "Rulebook", starter.compiler_source())
    links = starter.links_inside(folder, files)
    if links:
        raise click.BadParameter(printable(
            f"{', '.join(repr(str(folder / rel)) for rel in links)} "
            f"{'is a symbolic link' if len(links) == 1 else 'are symbolic links'}; init writes only inside "
            f"'{folder}' and wrote nothing: remove the link or choose another folder"), param_hint="'[DIR]'")
    taken = [rel for rel in files if os.path.lexists(folder / rel)]
    if taken:
        raise click.BadParameter(printable(
            f"'{folder}' already holds {', '.join(taken)}; init writes only new files and wrote none: "
            "choose a new or empty folder"), param_hint="'[DIR]'")
    try:
        for rel, text in files.items():
            starter.write_new(folder / rel, text)
    except OutputError as exc:
        click.echo(f"rulebook: error: {printable(str(exc))}", err=True)
        raise SystemExit(1) from None
    here = "" if folder == Path(".") else f"cd {printable(str(folder))} && "
    say(f"Started a rulebook in {printable(str(folder))}/: rulebook/ "
               f"(edition {starter.EDITION}, term '{starter.TERM}'), "
               "mkdocs.yml, .pre-commit-config.yaml, .github/workflows/ (rulebook.yml, rulebook-comment.yml), "
               ".vscode/, .schemas/.\n"
               f"Next: {here}rulebook check && rulebook build")
