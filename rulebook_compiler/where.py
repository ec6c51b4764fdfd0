"""Where the rulebook is when a command is given no path: ./rulebook, else the current folder.

When neither holds a rulebook.yaml, the error names the rulebook folders found
a level or two below (a repository with its rulebook in a subfolder) and how
to pass one, to the command and to the pre-commit hook (``args``), which runs
at the repository's root.
"""

from __future__ import annotations

from pathlib import Path

from .diagnostics import Diagnostic, Location

RULEBOOK_FILE = "rulebook.yaml"
_SEARCH = ("*/" + RULEBOOK_FILE, "*/*/" + RULEBOOK_FILE, "*/*/*/" + RULEBOOK_FILE)  # bounded: three levels


def default_root() -> Path:
    """``./rulebook`` when it holds a rulebook, else the current folder."""
    here = Path("rulebook")
    return here if (here / RULEBOOK_FILE).is_file() else Path(".")


def missing_default_rulebook(command: str = "rulebook check") -> Diagnostic | None:
    """The error when neither ./rulebook nor the current folder holds a rulebook, else None; its hint
    names the folder as ``command`` takes it (``check`` as its PATH, the others with --rulebook)."""
    if (default_root() / RULEBOOK_FILE).is_file():
        return None
    found = sorted({p.parent.as_posix() for pattern in _SEARCH for p in Path(".").glob(pattern)})
    path = found[0] if len(found) == 1 else "PATH"
    named = f"{command} {path}" if command.endswith(" check") else f"{command} --rulebook {path}"
    hint = f"name the rulebook folder: {named}"
    if command.endswith(" check"):
        hint += f"; for the pre-commit hook, add args: [{path}] under id: rulebook-check in .pre-commit-config.yaml"
    if not found:
        hint += " (or start one: rulebook init)"
    elif len(found) > 1:
        hint += f"; rulebook folders here: {', '.join(found)}"
    return Diagnostic(Location("."), f"no {RULEBOOK_FILE} in this folder, nor in ./rulebook", hint)
