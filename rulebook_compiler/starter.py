"""The starter project of ``rulebook init [DIR]`` (``rulebook_compiler.commands.init``).

Two kinds of file. The rulebook's own (``content_files``): rulebook.yaml with the title
and one draft edition, and an empty vocabulary; ``--example`` adds one demo term with
one rule. Written once, never touched again. And the starter's (``managed_files``): a
pre-commit configuration, two CI workflows (one checks, diffs and builds a push or a pull
request with a read-only token; one posts the diff as the pull request's comment, running
none of it: docs/ci.md) and the editor's schema mapping (.vscode/settings.json maps files by
glob to the package's schema files, copied into .schemas/, so no file needs a schema
comment line). ``init --update`` keeps those up to date (``rulebook_compiler.starter_update``). No
file but rulebook.yaml holds the title: without a mkdocs.yml, ``build`` and ``serve`` name
the site with it. Right after ``init --example``, ``check``, ``build``, ``diff`` and
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
import re
import subprocess
import tempfile
from pathlib import Path, PurePosixPath
from typing import Iterable
from urllib.parse import unquote, urlparse

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
    status: draft               # 'rulebook publish --edition {edition} --reason ...' locks it as published
"""

EMPTY_VOCABULARY_YAML = """\
# The facts that rules' conditions test (docs/format.md in rulebook-compiler), none yet.
facts: []
constraints: []
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

GITIGNORE = """\
public/
suites/
"""

# The two workflows (docs/ci.md). The first runs what a pull request holds (its rules, and its site
# templates, which 'rulebook build' renders unsandboxed) with a read-only token; the second, run by
# the first one's end, holds the token that writes the comment and runs nothing of the pull request.
WORKFLOW = """\
# Check the rulebook and build its site on every push; on a pull request, also diff its rules
# against the base branch (the job summary shows it) and fail on a change to a published edition.
# It runs what the branch holds, so its token is read-only: rulebook-comment.yml posts the diff.
name: rulebook

on: [push, pull_request]

permissions:
  contents: read

jobs:
  rulebook:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
        with:
          fetch-depth: 0            # the base branch's history, for git:REV sides
          persist-credentials: false
@COMPILER@        with:
          fail-on: published-change
"""

# rulebook-compiler's action (action.yml at its repository's root), at the commit init ran from.
ACTION_KNOWN = """\
      # rulebook-compiler's action: check, diff, build, and upload the diff and the site.
      - uses: {uses}
"""

# Without a known GitHub repository: the action, checked out from where two repository variables say.
ACTION_FROM_VARIABLES = """\
      - name: Which rulebook-compiler
        if: vars.RULEBOOK_COMPILER_REPOSITORY == ''
        run: |
          echo "::error::set the repository variable RULEBOOK_COMPILER_REPOSITORY to rulebook-compiler's repository on GitHub (OWNER/NAME), and RULEBOOK_COMPILER_REF to a commit of it"
          exit 1
      - name: Get rulebook-compiler
        uses: actions/checkout@v4
        with:
          repository: ${{ vars.RULEBOOK_COMPILER_REPOSITORY }}
          ref: ${{ vars.RULEBOOK_COMPILER_REF }}
          path: .rulebook-compiler
          persist-credentials: false
      # rulebook-compiler's action: check, diff, build, and upload the diff and the site.
      - uses: ./.rulebook-compiler
"""

COMMENT_WORKFLOW = """\
# Post the rules diff of a pull request as one comment, updated on each push.
# It runs when the 'rulebook' workflow ends, with a token that may write comments, and runs
# nothing of the pull request: no checkout, no script of the repository. The diff it posts is
# untrusted data (a pull request can change what its own run uploads): the pull request's
# number must be digits and name a pull request at the commit that run was for, and the text
# goes to GitHub as a string read from the file, never into a command.
# GitHub runs a workflow_run workflow only from the default branch.
name: rulebook comment

on:
  workflow_run:
    workflows: [rulebook]
    types: [completed]

permissions:
  actions: read             # the artifact of the other run
  pull-requests: write      # the comment

jobs:
  comment:
    if: github.event.workflow_run.event == 'pull_request'
    runs-on: ubuntu-latest
    steps:
      - name: Download the diff
        id: download
        continue-on-error: true     # none when that run stopped before the diff: its log says why
        uses: actions/download-artifact@v4
        with:
          name: rulebook-diff
          run-id: ${{ github.event.workflow_run.id }}
          github-token: ${{ github.token }}
          path: ${{ runner.temp }}/rulebook-diff
      - name: Post or update the comment
        if: steps.download.outcome == 'success'
        uses: actions/github-script@v7
        env:
          DIFF: ${{ runner.temp }}/rulebook-diff
          HEAD_SHA: ${{ github.event.workflow_run.head_sha }}
        with:
          script: |
            const fs = require('fs');
            const path = require('path');
            const marker = '<!-- rulebook-diff -->';
            const file = (name) => path.join(process.env.DIFF, name);
            const number = fs.readFileSync(file('pr-number'), 'utf8').trim();
            if (!/^[0-9]{1,10}$/.test(number)) {
              core.setFailed('the artifact names no pull request (pr-number is not a number)');
              return;
            }
            const { owner, repo } = context.repo;
            const issue_number = Number(number);
            const { data: pull } = await github.rest.pulls.get({ owner, repo, pull_number: issue_number });
            if (pull.head.sha !== process.env.HEAD_SHA) {
              core.notice(`pull request ${issue_number} is no longer at ${process.env.HEAD_SHA}: its newer run comments`);
              return;
            }
            if (fs.statSync(file('rulebook-diff.md')).size > 1000000) {
              core.setFailed('rulebook-diff.md is over 1 MB: not a diff rulebook diff wrote');
              return;
            }
            const text = fs.readFileSync(file('rulebook-diff.md'), 'utf8');
            const body = (text.startsWith(marker + '\\n') ? text : marker + '\\n' + text).slice(0, 65000);
            const comments = await github.paginate(github.rest.issues.listComments, { owner, repo, issue_number });
            const mine = comments.find(c => c.user?.login === 'github-actions[bot]' && (c.body ?? '').startsWith(marker));
            if (mine) {
              await github.rest.issues.updateComment({ owner, repo, comment_id: mine.id, body });
            } else {
              await github.rest.issues.createComment({ owner, repo, issue_number, body });
            }
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
# pre-commit (https://pre-commit.com): 'pre-commit install' once, then every commit runs rulebook check.
# pre-commit installs the compiler into an environment of its own (language: python), so the hook
# runs outside any venv. This compiler was not installed from a git repository that another machine
# can reach; with one, use: repo: URL, rev: TAG-OR-COMMIT, hooks: [{{id: rulebook-check}}].
repos:
  - repo: local
    hooks:
      - id: rulebook-check
        name: rulebook check
        entry: rulebook check
        language: python
        additional_dependencies: [{requirement}]
        files: ^rulebook/
        pass_filenames: false
"""

SCHEMAS = ".schemas"
# Which shipped schema (rulebook_compiler/schemas/) checks which files. A term file may be a term or a
# patch of one: rulebook.json accepts either. No bracket negation: VS Code's YAML extension
# matches with picomatch, which reads '[!_]' as "'!' or '_'"; a glob led by '!' excludes instead.
SCHEMA_GLOBS = (
    ("rulebook.schema.json", ("rulebook/rulebook.yaml",)),
    ("vocabulary.schema.json", ("rulebook/vocabulary.yaml",)),
    ("vocabulary-overlay.schema.json", ("rulebook/editions/*/_vocabulary.yaml",)),
    ("rulings.schema.json", ("rulebook/editions/*/_rulings.yaml",)),
    ("rulebook.json", ("rulebook/editions/*/*.yaml", "!rulebook/editions/*/_vocabulary.yaml",
                       "!rulebook/editions/*/_rulings.yaml", "!rulebook/editions/*/_sources.yaml")),
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


def github_action(source: tuple[str, str] | None) -> str | None:
    """``OWNER/NAME@COMMIT`` of rulebook-compiler's action when the compiler came from a GitHub repository
    at a commit (what ``uses:`` takes); None otherwise. Only names GitHub allows and hex commits pass, so
    the value is written into the workflow as it is."""
    if source is None:
        return None
    url, commit = source
    parsed = urlparse(url)
    match = re.fullmatch(r"/([A-Za-z0-9-]{1,39})/([A-Za-z0-9._-]{1,100}?)(?:\.git)?/?", parsed.path)
    if parsed.hostname != "github.com" or not match or not re.fullmatch(r"[0-9a-f]{7,40}", commit):
        return None
    return f"{match.group(1)}/{match.group(2)}@{commit}"


def workflows(source: tuple[str, str] | None) -> dict[str, str]:
    """The two workflow files: the pull request's (read-only) and the one that posts its comment."""
    uses = github_action(source)
    steps = ACTION_KNOWN.format(uses=uses) if uses else ACTION_FROM_VARIABLES
    return {".github/workflows/rulebook.yml": WORKFLOW.replace("@COMPILER@", steps),
            ".github/workflows/rulebook-comment.yml": COMMENT_WORKFLOW}


def content_files(title: str, example: bool) -> dict[str, str]:
    """The rulebook's own files: written once by ``init``, never touched by ``init --update``.

    Without ``example`` the edition has no term yet (check passes on it); with it, one demo term
    and the fact its rule tests."""
    quoted = yaml_string(title)
    files = {"rulebook/rulebook.yaml": RULEBOOK_YAML.format(title=quoted, edition=EDITION),
             "rulebook/vocabulary.yaml": VOCABULARY_YAML if example else EMPTY_VOCABULARY_YAML}
    if example:
        files[f"rulebook/editions/{EDITION}/{TERM}.yaml"] = TERM_YAML.format(term=TERM)
    return files


def managed_files(source: tuple[str, str] | None) -> dict[str, str]:
    """The files the starter keeps up to date (``init --update``): hooks, CI, editor settings, schemas.

    None of them holds the title (rulebook.yaml does, alone): the site's name comes from it,
    as ``rulebook build`` and ``serve`` make the mkdocs configuration when there is no mkdocs.yml."""
    settings = {"yaml.schemas": {f"./{SCHEMAS}/{name}": list(globs) for name, globs in SCHEMA_GLOBS}}
    return {
        ".gitignore": GITIGNORE,
        **workflows(source),
        ".pre-commit-config.yaml": pre_commit_config(source),
        ".vscode/settings.json": json.dumps(settings, indent=2) + "\n",
        **schema_files(),
    }


def project_files(title: str, source: tuple[str, str] | None, example: bool = False) -> dict[str, str]:
    """Relative path -> text of every file ``init`` writes (the record of the managed ones aside)."""
    return {**content_files(title, example), **managed_files(source)}


def pre_commit_config(source: tuple[str, str] | None) -> str:
    """The hook from the repository the compiler came from, else a local hook that pre-commit installs
    into its own environment (``language: python``): from the folder the compiler was installed from
    when there is one, else by name and version, so it runs outside the user's venv too."""
    if source is not None:
        return PRE_COMMIT_REMOTE.format(url=yaml_string(source[0]), commit=yaml_string(source[1]))
    return PRE_COMMIT_LOCAL.format(requirement=yaml_string(compiler_requirement()))


def compiler_requirement() -> str:
    """What pip installs this compiler from, as a requirement: its folder (PEP 610's file URL), else
    its name at its version."""
    import importlib.metadata

    try:
        dist = importlib.metadata.distribution("rulebook-compiler")
        direct = json.loads(dist.read_text("direct_url.json") or "0")
        version = dist.version
    except (importlib.metadata.PackageNotFoundError, ValueError):
        return "rulebook-compiler"
    if isinstance(direct, dict) and isinstance(direct.get("url"), str) and "dir_info" in direct \
            and urlparse(direct["url"]).scheme == "file":
        return f"rulebook-compiler @ {direct['url']}"
    return f"rulebook-compiler=={version}"


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
