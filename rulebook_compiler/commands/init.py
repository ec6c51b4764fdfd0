"""``rulebook init [DIR]``: write the starter project of ``rulebook_compiler.starter`` into a new or empty folder;
``rulebook init --update [DIR]``: bring its managed files up to date (``rulebook_compiler.starter_update``)."""

from __future__ import annotations

import os
from pathlib import Path

import click

from ..diagnostics import printable
from ..fileio import OutputError
from .options import quiet, say
from .. import starter  # through the module: tests replace starter.compiler_source
from .common import report


@click.command("init")
@click.argument("folder", metavar="[DIR]", required=False, default=".", type=click.Path(path_type=Path))
@click.option("--title", default=None, help="The rulebook's title (default: the folder's name).")
@click.option("--example", is_flag=True, help="Start with one demo term (a fact and a rule) to try things on.")
@click.option("--update", is_flag=True,
              help="Bring the hooks, workflows, editor settings and schemas of a rulebook made by init up to "
                   "date, keeping local edits; the rulebook's own files are not touched.")
def init(folder: Path, title: str | None, example: bool, update: bool) -> None:
    """Start a rulebook in DIR (default: here): one draft edition, a site, hooks, CI, editor schemas."""
    if folder.exists() and not folder.is_dir():
        raise click.BadParameter(printable(f"'{folder}' is a file, not a folder"), param_hint="'[DIR]'")
    if update:
        if title is not None or example:
            raise click.UsageError("--update takes no --title or --example: it leaves the rulebook's own files alone")
        _update(folder)
        return
    _start(folder, title, example)


def _start(folder: Path, title: str | None, example: bool) -> None:
    from .. import starter_update

    managed = starter.managed_files(starter.compiler_source())
    files = {**starter.content_files(title or folder.resolve().name or "Rulebook", example), **managed,
             starter_update.RECORD: starter_update.record_text(
                 {rel: starter_update.digest(text) for rel, text in managed.items()})}
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
            "choose a new or empty folder (or bring a project made by init up to date: rulebook init --update)"),
            param_hint="'[DIR]'")
    try:
        for rel, text in files.items():
            starter.write_new(folder / rel, text)
    except OutputError as exc:
        click.echo(f"rulebook: error: {printable(str(exc))}", err=True)
        raise SystemExit(1) from None
    here = "" if folder == Path(".") else f"cd {printable(str(folder))} && "
    what = (f"edition {starter.EDITION}, term '{starter.TERM}'" if example
            else f"draft edition {starter.EDITION}, no term yet: add rulebook/editions/{starter.EDITION}/TERM.yaml")
    say(f"Started a rulebook in {printable(str(folder))}/: rulebook/ ({what}), "
               ".pre-commit-config.yaml, .github/workflows/ (rulebook.yml, rulebook-comment.yml), "
               ".vscode/, .schemas/.\n"
               f"Next: {here}rulebook check && rulebook build")


def _update(folder: Path) -> None:
    from .. import starter_update as U

    if not (folder / "rulebook" / "rulebook.yaml").is_file():
        raise click.BadParameter(printable(f"'{folder}' holds no rulebook/rulebook.yaml: not a project init made"),
                                 param_hint="'[DIR]'")
    recorded, problems = U.read_record(folder)
    if problems:
        report(problems)
        raise SystemExit(1)
    today = starter.managed_files(starter.compiler_source())
    current, links = U.read_current(folder, today.keys() | recorded.keys())
    steps = U.plan(recorded, current, today, links)
    try:
        U.apply(folder, steps, U.new_record(steps, today, recorded))
    except (OutputError, OSError) as exc:
        click.echo(f"rulebook: error: {printable(str(exc))}", err=True)
        raise SystemExit(1) from None
    lines, warnings = U.report(steps)
    for line in lines:
        say(printable(line))
    for warning in warnings:  # located warnings, as check prints them; -q silences them with the rest
        if not quiet():
            click.echo(str(warning), err=True)
    if not lines and not warnings:
        say("Up to date.")
