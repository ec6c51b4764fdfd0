"""Symbolic links in the folders a site publishes from, refused where they lead outside them.

mkdocs copies every file of ``docs_dir`` into the site and reads templates
from the theme's folders, following symbolic links: a committed
``site/docs/env.txt -> /proc/self/environ`` would publish the build machine's
environment, ``passwd.txt -> /etc/passwd`` its accounts. As the rulebook
folder does for its own files (``rulebook_compiler.build``), a build refuses any link in
those folders that leads outside the folder it is in, before anything is
written, each with its place. A folder that is itself a link is read where it
points: the links inside it are judged against that real folder.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterable

from ..diagnostics import Diagnostic, Location

HINT = ("a site publishes only the files inside its folders: copy the file in instead of linking to it, "
        "or remove the link")


def outside_links(folders: Iterable[tuple[str, Path]]) -> list[Diagnostic]:
    """Every symbolic link under each (what, folder) whose target lies outside that folder, in path order."""
    problems: dict[str, Diagnostic] = {}
    seen: set[Path] = set()
    for what, folder in folders:
        # realpath, not Path.resolve: before Python 3.13 resolve raises RuntimeError on a symbolic link loop
        base = Path(os.path.realpath(folder))
        if base in seen or not base.is_dir():
            continue
        seen.add(base)
        for link in _links(folder):
            target = Path(os.path.realpath(link))
            if not target.is_relative_to(base):
                shown = _shown(link)
                problems[shown] = Diagnostic(Location(shown), f"a symbolic link to outside {what} ('{_shown(folder)}'): "
                                                             f"it leads to '{target}'", HINT, code="site-link-outside")
    return [problems[k] for k in sorted(problems)]


def _links(folder: Path) -> Iterable[Path]:
    """The symbolic links under a folder, files and folders alike; links to folders are not entered."""
    for top, dirs, files in os.walk(folder, followlinks=False):
        for name in sorted(dirs + files):
            path = Path(top) / name
            if path.is_symlink():
                yield path


def _shown(path: Path) -> str:
    try:
        return os.path.relpath(path)
    except ValueError:  # pragma: no cover - another drive on Windows
        return str(path)
