"""``rulebook init --update``: the starter's managed files brought up to date, local edits kept.

``init`` records, in ``.rulebook-init.json``, the digest of each managed file as it wrote
it (the hooks, the workflows, the editor settings and schemas: ``starter.managed_files``).
An update compares three texts per file, as copier and dpkg's conffiles do: the one
recorded (what the starter wrote last), the one in the project, and the starter's today.

- unedited since it was written: replaced by today's;
- edited here, and the starter's unchanged since: kept;
- edited here and changed in the starter: kept, today's written beside it as
  ``FILE.rulebook-new`` to merge by hand (a warning);
- removed here: left removed (a note);
- no longer a starter file: removed if unedited, else kept (a note).

The rulebook's own files are never touched. The plan is a pure function of the texts;
``apply`` writes it, each file atomically, never through a symbolic link.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from .diagnostics import Diagnostic, Location

RECORD = ".rulebook-init.json"
FORMAT = "rulebook-init/1"
NEW_SUFFIX = ".rulebook-new"

Kind = Literal["added", "updated", "up-to-date", "kept", "conflict", "removed-here", "obsolete-removed",
               "obsolete-kept", "link"]


@dataclass(frozen=True)
class Step:
    """What the update does with one file, and the text it writes there (if any)."""

    path: str
    kind: Kind
    text: str | None = None  # the file's new text (added, updated), or the .rulebook-new's (conflict)


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def record_text(digests: dict[str, str]) -> str:
    """The record: the digest of each managed file as the starter last wrote it."""
    return json.dumps({"format": FORMAT, "files": dict(sorted(digests.items()))}, indent=2, sort_keys=True) + "\n"


def read_record(folder: Path) -> tuple[dict[str, str], list[Diagnostic]]:
    """The digests recorded per file; {} without a record (a project made before it existed)."""
    path = folder / RECORD
    if not path.is_file():
        return {}, []
    shown = str(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        return {}, [Diagnostic(Location(shown, 1, 1), f"cannot read the starter's record: {exc}",
                               f"delete {RECORD}: the update then treats every file that differs as edited here")]
    files = data.get("files") if isinstance(data, dict) and data.get("format") == FORMAT else None
    if not isinstance(files, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in files.items()):
        return {}, [Diagnostic(Location(shown, 1, 1), f"not a starter record of format '{FORMAT}'",
                               f"delete {RECORD}: the update then treats every file that differs as edited here")]
    return files, []


def plan(recorded: dict[str, str], current: dict[str, str | None], starter: dict[str, str],
         links: frozenset[str] = frozenset()) -> list[Step]:
    """One step per file the starter has or the record names, in path order."""
    steps = []
    for rel in sorted(starter.keys() | recorded.keys()):
        if rel in links:
            steps.append(Step(rel, "link"))
        elif rel in starter:
            steps.append(_managed(rel, recorded.get(rel), current.get(rel), starter[rel]))
        else:
            steps.append(_obsolete(rel, recorded[rel], current.get(rel)))
    return steps


def _managed(rel: str, recorded: str | None, here: str | None, today: str) -> Step:
    if here is None:
        return Step(rel, "removed-here") if recorded is not None else Step(rel, "added", today)
    if here == today:
        return Step(rel, "up-to-date")
    if recorded is not None and digest(here) == recorded:
        return Step(rel, "updated", today)
    if recorded is not None and digest(today) == recorded:
        return Step(rel, "kept")
    return Step(rel, "conflict", today)


def _obsolete(rel: str, recorded: str, here: str | None) -> Step:
    if here is None:
        return Step(rel, "up-to-date")
    return Step(rel, "obsolete-removed") if digest(here) == recorded else Step(rel, "obsolete-kept")


def new_record(steps: list[Step], starter: dict[str, str], recorded: dict[str, str]) -> dict[str, str]:
    """The digests to record after ``steps``: today's starter text is the base of every file it has
    (a conflict's too: its text is in the .rulebook-new); a file kept after leaving the starter
    keeps its old entry, so that a later update still knows it was the starter's."""
    out = {rel: digest(text) for rel, text in starter.items()}
    out.update({s.path: recorded[s.path] for s in steps if s.kind == "obsolete-kept"})
    return out


def report(steps: list[Step]) -> tuple[list[str], list[Diagnostic]]:
    """Lines for what was done, and warnings for what needs a hand."""
    said = {"added": "added", "updated": "updated", "obsolete-removed": "removed (no longer a starter file, unedited)"}
    lines = [f"{said[s.kind]} {s.path}" for s in steps if s.kind in said]
    lines += [f"kept {s.path} (edited here; the starter's is unchanged)" for s in steps if s.kind == "kept"]
    lines += [f"not restored {s.path} (removed here)" for s in steps if s.kind == "removed-here"]
    lines += [f"kept {s.path} (edited here; no longer a starter file)" for s in steps if s.kind == "obsolete-kept"]
    warnings = [Diagnostic(Location(s.path, 1, 1), "edited here and changed in the starter: kept as it is",
                           f"the starter's new version is in {s.path}{NEW_SUFFIX}: merge it by hand, then delete it",
                           severity="warning")
                for s in steps if s.kind == "conflict"]
    warnings += [Diagnostic(Location(s.path, 1, 1), "is a symbolic link: not updated",
                            "replace the link with the file to have it updated", severity="warning")
                 for s in steps if s.kind == "link"]
    return lines, warnings


def read_current(folder: Path, paths: set[str]) -> tuple[dict[str, str | None], frozenset[str]]:
    """The project's text of each path (None where it is missing), and the paths that are links
    (on the way or at the end: writing through one would leave the folder)."""
    texts: dict[str, str | None] = {}
    links = set()
    for rel in sorted(paths):
        if any((folder / part).is_symlink() for part in _prefixes(rel)):
            links.add(rel)
            continue
        path = folder / rel
        try:
            texts[rel] = path.read_text(encoding="utf-8") if path.is_file() else None
        except (OSError, UnicodeDecodeError):
            texts[rel] = "\0unreadable"  # never equal to a text: treated as edited here
    return texts, frozenset(links)


def _prefixes(rel: str) -> list[str]:
    parts = rel.split("/")
    return ["/".join(parts[:i]) for i in range(1, len(parts) + 1)]


def apply(folder: Path, steps: list[Step], record: dict[str, str]) -> None:
    """Write the plan: each file atomically (OutputError on failure), the record last."""
    from .fileio import write_text

    for step in steps:
        if step.kind in ("added", "updated") and step.text is not None:
            write_text(folder / step.path, step.text)
        elif step.kind == "conflict" and step.text is not None:
            write_text(folder / (step.path + NEW_SUFFIX), step.text)
        elif step.kind == "obsolete-removed":
            os.unlink(folder / step.path)
    write_text(folder / RECORD, record_text(record))
