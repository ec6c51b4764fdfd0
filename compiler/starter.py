"""``rulebook init [DIR]``: a small working rulebook project to start from.

It writes a rulebook (rulebook.yaml, vocabulary.yaml, one edition with one
term that has one rule), the mkdocs.yml that builds its site, a pre-commit
configuration, a CI workflow and the editor's schema mapping
(.vscode/settings.json maps files by glob to the package's schema files,
copied into .schemas/, so no file needs a schema comment line). Right after it, ``check``, ``build``, ``diff`` and
``conformance generate`` work.

Every file is new: when any of them exists, nothing is written (usage error,
exit 2, naming each); nor when a folder on the way to one, inside DIR, is a
symbolic link (it would take the files out of DIR). Each is written through a temporary file and a hard link,
which fails rather than replace a file that appeared meanwhile. The files are
sources; init creates no output folder (``build`` makes and marks ``public/``).
"""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
from pathlib import Path, PurePosixPath
from typing import Iterable
from urllib.parse import unquote, urlparse

import click

from .fileio import OutputError

EDITION = "1.0"
TERM = "draw"

RULEBOOK_YAML = """\
# The rulebook: its editions, oldest first (docs/format.md in rulebook-compiler).
title: {title}
publisher: {title}
editions:
  - id: "{edition}"
    title: First edition
    date: null                  # YYYY-MM-DD once it is out
    status: draft               # 'rulebook publish {edition} --reason ...' locks it as published
"""

VOCABULARY_YAML = """\
# The facts that rules' conditions test.
facts:
  - name: hand_full
    type: bool
    meaning: The player's hand holds as many cards as it may.
constraints: []
"""

TERM_YAML = """\
# One term of the glossary; its file name is its id. Each clause is the rule's wording,
# with what it means for a machine beside it (rules: the decisions it answers).
id: {term}
name: Draw
aliases: [Draw a card]
decisions:
  - name: draw.may_draw
    type: bool
    meaning: Whether the player may draw a card.
sections:
  - key: definition
    kind: definition
    clauses:
      - id: full-hand
        text: A player may draw a card unless their hand is full.
        rules:
          - decision: draw.may_draw
            requires: {{not: hand_full}}
"""

MKDOCS_YML = """\
# The published glossary: 'rulebook build' (into public/) or 'rulebook serve'.
# Templates and styles come from rulebook-compiler; files under site/templates/,
# site/overrides/ or site/docs/assets/stylesheets/rulebook.css replace its own.
site_name: {title}
docs_dir: site/docs
site_dir: public
strict: true
theme:
  name: material
  features:
    - navigation.sections
    - search.highlight
plugins:
  - search
  - rulebook:
      rulebook: rulebook
"""

GITIGNORE = """\
public/
suites/
"""

WORKFLOW = """\
# Check the rulebook and build its site on every push; on a pull request, also
# print what changed in the rules.
name: rulebook

on: [push, pull_request]

permissions:
  contents: read

jobs:
  rulebook:
    runs-on: ubuntu-latest
    env:
      # The compiler, from the repository it was installed from when 'rulebook init' ran.
      RULEBOOK_COMPILER: {requirement}
    steps:
      - uses: actions/checkout@v4
        with:
          fetch-depth: 0            # the base branch's history, for git:REV sides
      - uses: actions/setup-python@v5
        with:
          python-version: "3.12"
      - name: Install rulebook-compiler
        run: |
          if [ -z "$RULEBOOK_COMPILER" ]; then
            echo "::error::set the repository variable RULEBOOK_COMPILER to a pip requirement, e.g. rulebook-compiler[site] @ git+https://github.com/OWNER/rulebook-compiler@COMMIT"
            exit 1
          fi
          pip install "$RULEBOOK_COMPILER"
      - run: rulebook check
      - run: rulebook build
      - name: What changed
        if: github.event_name == 'pull_request'
        env:
          BASE_REF: ${{{{ github.base_ref }}}}
        run: rulebook diff "git:origin/$BASE_REF" git:HEAD
"""

PRE_COMMIT_REMOTE = """\
# pre-commit (https://pre-commit.com): 'pre-commit install' once, then every commit runs rulebook check.
repos:
  - repo: {url}
    rev: {commit}
    hooks:
      - id: rulebook-check
"""

PRE_COMMIT_LOCAL = """\
# pre-commit (https://pre-commit.com): 'pre-commit install' once, then every commit runs rulebook check,
# with the rulebook command installed where pre-commit runs (this compiler was not installed from a
# git repository; with one, use: repo: URL, rev: COMMIT, hooks: [{id: rulebook-check}]).
repos:
  - repo: local
    hooks:
      - id: rulebook-check
        name: rulebook check
        entry: rulebook check
        language: system
        files: ^rulebook/
        pass_filenames: false
"""

SCHEMAS = ".schemas"
# Which shipped schema (compiler/schemas/) checks which files. A term file may be a term or a
# patch of one: rulebook.json accepts either. No bracket negation: VS Code's YAML extension
# matches with picomatch, which reads '[!_]' as "'!' or '_'"; a glob led by '!' excludes instead.
SCHEMA_GLOBS = (
    ("rulebook.schema.json", ("rulebook/rulebook.yaml",)),
    ("vocabulary.schema.json", ("rulebook/vocabulary.yaml",)),
    ("vocabulary-overlay.schema.json", ("rulebook/editions/*/_vocabulary.yaml",)),
    ("rulebook.json", ("rulebook/editions/*/*.yaml", "!rulebook/editions/*/_vocabulary.yaml")),
    ("corrections.schema.json", ("rulebook/corrections.yaml",)),
)


def compiler_source() -> tuple[str, str] | None:
    """(git URL, commit) of the repository this compiler was installed from, when pip recorded one (PEP 610)."""
    import importlib.metadata

    try:
        direct = json.loads(importlib.metadata.distribution("rulebook-compiler").read_text("direct_url.json") or "0")
    except (importlib.metadata.PackageNotFoundError, ValueError):
        return None
    if not isinstance(direct, dict) or not isinstance(direct.get("url"), str):
        return None
    vcs = direct.get("vcs_info")
    if isinstance(vcs, dict) and vcs.get("vcs") == "git" and isinstance(vcs.get("commit_id"), str):
        return direct["url"], vcs["commit_id"]
    parsed = urlparse(direct["url"])
    if parsed.scheme != "file" or "dir_info" not in direct:
        return None
    clone = unquote(parsed.path)  # an install from a clone: where the clone came from, at its commit
    try:
        url, commit = (subprocess.run(["git", "-C", clone, *args], capture_output=True, text=True, timeout=10,
                                      check=True).stdout.strip()
                       for args in (("remote", "get-url", "origin"), ("rev-parse", "HEAD")))
    except (OSError, subprocess.SubprocessError):
        return None
    # Only a URL that another machine can reach (not a path on this one).
    return (url, commit) if urlparse(url).scheme in ("https", "http", "ssh", "git") else None


def schema_files() -> dict[str, str]:
    """The package's schema files that the editor's mapping names, copied into the project."""
    from .schema import shipped_files

    shipped = shipped_files()
    return {f"{SCHEMAS}/{name}": shipped[name] for name, _ in SCHEMA_GLOBS}


def yaml_string(text: str) -> str:
    """``text`` as a YAML double-quoted scalar, escaped by PyYAML's emitter.

    Not ``json.dumps``: YAML refuses DEL and C1 controls written raw and folds a raw
    NEL (U+0085) into a space; the emitter escapes whatever YAML cannot hold raw.
    """
    import yaml

    return yaml.safe_dump(text, allow_unicode=True, default_style='"', width=float("inf")).rstrip("\n")


def project_files(title: str, source: tuple[str, str] | None) -> dict[str, str]:
    """Relative path -> text of every file ``init`` writes."""
    quoted = yaml_string(title)
    requirement = (yaml_string(f"rulebook-compiler[site] @ git+{source[0]}@{source[1]}") if source
                   else "${{ vars.RULEBOOK_COMPILER }}")
    settings = {"yaml.schemas": {f"./{SCHEMAS}/{name}": list(globs) for name, globs in SCHEMA_GLOBS}}
    return {
        "rulebook/rulebook.yaml": RULEBOOK_YAML.format(title=quoted, edition=EDITION),
        "rulebook/vocabulary.yaml": VOCABULARY_YAML,
        f"rulebook/editions/{EDITION}/{TERM}.yaml": TERM_YAML.format(term=TERM),
        "mkdocs.yml": MKDOCS_YML.format(title=quoted),
        "site/docs/.gitkeep": "",
        ".gitignore": GITIGNORE,
        ".github/workflows/rulebook.yml": WORKFLOW.format(requirement=requirement),
        ".pre-commit-config.yaml": (PRE_COMMIT_REMOTE.format(url=yaml_string(source[0]), commit=yaml_string(source[1]))
                                    if source else PRE_COMMIT_LOCAL),
        ".vscode/settings.json": json.dumps(settings, indent=2) + "\n",
        **schema_files(),
    }


def links_inside(folder: Path, files: Iterable[str]) -> list[str]:
    """The folders inside ``folder`` on the way to ``files`` that are symbolic links, outermost only.

    Written through, a link to a folder elsewhere would take init's files out of ``folder``.
    (``folder`` itself may be one: it is the folder the user named.) A file that is a link is
    a file already there, refused as any other.
    """
    links: list[str] = []
    for rel in sorted({parent for rel in files for parent in PurePosixPath(rel).parents} - {PurePosixPath(".")}):
        if not any(link in rel.parents for link in map(PurePosixPath, links)) and (folder / rel).is_symlink():
            links.append(rel.as_posix())
    return links


def write_new(path: Path, text: str) -> None:
    """Write ``path`` atomically, never over a file: a hard link fails where a rename would replace."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.{os.getpid()}-", suffix=".tmp")
    except OSError as exc:
        raise OutputError(path, exc.strerror or str(exc)) from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
        os.chmod(tmp, 0o644)
        os.link(tmp, path)
    except OSError as exc:
        raise OutputError(path, exc.strerror or str(exc)) from None
    finally:
        Path(tmp).unlink(missing_ok=True)


@click.command("init")
@click.argument("folder", metavar="[DIR]", required=False, default=".", type=click.Path(path_type=Path))
@click.option("--title", default=None, help="The rulebook's title (default: the folder's name).")
def init(folder: Path, title: str | None) -> None:
    """Start a rulebook in DIR (default: here): one edition, one term, a site, hooks, CI, editor schemas."""
    from .diagnostics import printable

    if folder.exists() and not folder.is_dir():
        raise click.BadParameter(printable(f"'{folder}' is a file, not a folder"), param_hint="'[DIR]'")
    files = project_files(title or folder.resolve().name or "Rulebook", compiler_source())
    links = links_inside(folder, files)
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
            write_new(folder / rel, text)
    except OutputError as exc:
        click.echo(f"rulebook: error: {printable(str(exc))}", err=True)
        raise SystemExit(1) from None
    here = "" if folder == Path(".") else f"cd {printable(str(folder))} && "
    click.echo(f"Started a rulebook in {printable(str(folder))}/: rulebook/ (edition {EDITION}, term '{TERM}'), "
               "mkdocs.yml, .pre-commit-config.yaml, .github/workflows/rulebook.yml, .vscode/, .schemas/.\n"
               f"Next: {here}rulebook check && rulebook build")
