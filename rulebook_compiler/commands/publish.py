"""``rulebook publish`` and ``rulebook correct``: the only ways a published edition's lock changes.

Each writes the edition's entry in ``rulebook.lock`` (``rulebook_compiler.lock``) and
appends a dated entry to the corrections log, ``corrections.yaml``, which the
build reads into the model and the site shows; the entry records the digest
it locked (``lock``) and which of the refs it changed name what it removed
(``removed``), so that ``check`` can hold the log to the lock (``rulebook_compiler.review``). ``publish`` also
sets a draft's ``status: published`` in ``rulebook.yaml`` (``rulebook_compiler.rulebook_text``: that value
alone, the file's other bytes kept), first, so that the edition is checked as published before
anything is locked; neither edits any other file. The log is written before the lock:
if the second write fails, ``check`` still fails until the command is run again
(which then writes the lock alone: the log's last entry has its digest already).
"""

from __future__ import annotations

import datetime
import re
from pathlib import Path
from typing import NoReturn

import click

from ..counts import counted
from ..diagnostics import Diagnostic, printable
from ..where import default_root
from .common import fail, load_or_exit
from .options import deprecated_edition_argument, edition_given, edition_option, rulebook_option, say

CORRECTION_KINDS = ("transcription", "erratum")
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_SURROGATE = re.compile("[\ud800-\udfff]")
_LOG_HEAD = ("# The corrections log of this rulebook's published editions, oldest first.\n"
             "# Written by 'rulebook publish' and 'rulebook correct'; see docs/format.md.\n"
             "corrections:\n")


def _date(ctx, param, value: str | None) -> str:
    if value is None:
        return datetime.datetime.now(datetime.timezone.utc).date().isoformat()
    try:
        if not _DATE.fullmatch(value):
            raise ValueError
        datetime.date.fromisoformat(value)
    except ValueError:
        raise click.BadParameter(printable(f"'{value}' is not a date YYYY-MM-DD")) from None
    return value


_DATE_OPTION = click.option("--date", callback=_date, metavar="YYYY-MM-DD",
                            help="The day of the log entry (default: today, UTC).")
_REASON_OPTION = click.option("--reason", required=True, help="Why: the log and the site show it.")


@click.command()
@deprecated_edition_argument()
@edition_option(needed=True)
@_REASON_OPTION
@_DATE_OPTION
@rulebook_option()
def publish(old_edition: str | None, edition_id: str | None, reason: str, date: str, root: Path | None) -> None:
    """Lock the published edition: record its content in rulebook.lock and log it in corrections.yaml."""
    edition = edition_given(edition_id, old_edition)
    _run(_root(root), edition, "publish", reason, date, "rulebook publish")


@click.command()
@deprecated_edition_argument()
@edition_option(needed=True)
@_REASON_OPTION
@click.option("--kind", type=click.Choice(CORRECTION_KINDS), required=True,
              help="transcription: the editors fix their transcription of the text or of its meaning "
                   "(the rule is as published); erratum: the publisher changed a rule of the edition.")
@_DATE_OPTION
@rulebook_option()
def correct(old_edition: str | None, edition_id: str | None, reason: str, kind: str, date: str,
            root: Path | None) -> None:
    """Re-lock the published edition after a deliberate correction, and log what changed."""
    edition = edition_given(edition_id, old_edition)
    _run(_root(root), edition, kind, reason, date, "rulebook correct")


def _root(root: Path | None) -> Path:
    """The rulebook folder given, or the default one (a usage error when there is none)."""
    if root is None:
        from .options import default_rulebook_or_exit

        default_rulebook_or_exit()
    return root or default_root()


def _run(root: Path, edition_id: str, kind: str, reason: str, date: str, command: str) -> None:
    from .. import lock
    from ..build import CORRECTIONS_FILE
    from ..fileio import output_lock, write_text
    from ..review import edition_refs

    _check_reason(reason)
    with output_lock(root / lock.LOCK_FILE, command):
        book = load_or_exit(root, locked=False)  # the edition to record differs from the lock, or is not in it
        if edition_id not in book.edition_by_id:
            from .options import unknown_edition

            raise unknown_edition(edition_id, [e.id for e in book.editions])
        edition = book.edition_by_id[edition_id]
        status_set = kind == "publish" and edition.status != "published"
        if status_set:
            book = _set_published(root, edition_id)
            edition = book.edition_by_id[edition_id]
        current, problems = lock.read(root)
        if current is None:
            fail(problems)
        old = current.entries.get(edition_id)
        new = lock.edition_entry(edition)
        if edition.status != "published":
            fail([Diagnostic(edition.loc, f"edition '{edition_id}' is a {edition.status}, not published",
                              f"publish it first: rulebook publish --edition {edition_id} --reason TEXT")])
        if kind == "publish" and old is not None:
            fail([Diagnostic(current.at(edition_id), f"edition '{edition_id}' is already published and locked",
                              f"to change it, record a correction: rulebook correct --edition {edition_id} "
                              "--kind transcription|erratum --reason TEXT")])
        if kind != "publish" and old is None:
            fail([Diagnostic(edition.loc, f"edition '{edition_id}' is not locked yet, so there is nothing to correct",
                              f"lock it first: rulebook publish --edition {edition_id} --reason TEXT")])
        changes = [] if old is None else lock.changed(old, new)
        if kind != "publish" and not changes:
            fail([Diagnostic(current.at(edition_id),
                              f"edition '{edition_id}' is as {lock.LOCK_FILE} records it: nothing to correct",
                              "edit the edition's files first; a correction records a change")])
        log = root / CORRECTIONS_FILE
        # what the change took away is named on the side before it (check finds it nowhere now), and
        # the digest locked lets check tell the log from the lock apart (rulebook_compiler/review.py)
        now = edition_refs(edition)
        if not _logged_already(book, edition_id, new["digest"]):
            write_text(log, log_text(log.read_text(encoding="utf-8") if log.is_file() else None,
                                     {"date": date, "edition": edition_id, "kind": kind, "reason": reason,
                                      "changed": changes, "removed": [r for r in changes if r not in now],
                                      "lock": new["digest"]}))
        write_text(root / lock.LOCK_FILE, lock.lock_text({**current.entries, edition_id: new}))
    what = counted(len(changes), "change") if kind != "publish" else "locked"
    status = "status set to published in rulebook.yaml; " if status_set else ""
    say(printable(f"{edition_id}: {what}; {status}recorded in {CORRECTIONS_FILE} and {lock.LOCK_FILE}"))


def _set_published(root: Path, edition_id: str):
    """Set the draft's ``status: published`` in rulebook.yaml (its other bytes kept), and the
    rulebook as it then reads: a published edition is checked as one (a problem puts the
    file back as it was and exits 1, nothing else written)."""
    from ..fileio import write_text
    from ..loading import LoadError, load
    from ..rulebook_files import RULEBOOK_FILE
    from ..rulebook_text import set_edition_status
    from ..yamlsource import load as load_yaml

    path = root / RULEBOOK_FILE
    text = path.read_text(encoding="utf-8")
    doc, problems = load_yaml(path)
    if doc is None:
        fail(problems)
    edit = set_edition_status(doc, text, edition_id, "published")
    if edit.problem is not None or edit.text is None:
        fail([edit.problem] if edit.problem is not None else [])
    write_text(path, edit.text)
    try:
        return load(root, locked=False)
    except LoadError as exc:
        write_text(path, text)
        fail(exc.problems)


def _logged_already(book, edition_id: str, digest: str) -> bool:
    """The edition's last log entry records this very digest: a run before wrote the log, not the lock."""
    last = next((c for c in reversed(book.corrections) if c.edition == edition_id), None)
    return last is not None and last.lock == digest


def _check_reason(reason: str) -> None:
    """A usage error unless ``reason`` is words the log can hold: checked before anything is written."""
    from ..yamlsource import control_character

    if not reason.strip():
        raise click.BadParameter("give a reason in words", param_hint="'--reason'")
    bad = control_character(reason)
    surrogate = _SURROGATE.search(reason)
    if bad is None and surrogate is None:
        return
    if bad is not None:
        what = f"control character U+{ord(bad):04X} '{printable(bad)}'"
    else:  # how Python hands on command-line bytes that are not UTF-8
        assert surrogate is not None  # one of the two, as returned above
        char = surrogate.group()
        what = f"U+{ord(char):04X} '{printable(char)}', which is not a character (the command line was not UTF-8)"
    raise click.BadParameter(f"it holds {what}; the corrections log holds printable characters, tabs and "
                             "line breaks only", param_hint="'--reason'")


def log_text(existing: str | None, entry: dict) -> str:
    """The log with ``entry`` appended: its text kept as it is, one entry added at the end."""
    import yaml

    item = {k: v for k, v in entry.items() if v != []}
    added = yaml.safe_dump([item], sort_keys=False, allow_unicode=True, default_flow_style=False, width=88)
    if existing is None:
        return _LOG_HEAD + added
    text = existing if existing.endswith("\n") else existing + "\n"
    appended = text + added
    # A log whose list is not written as a block at the margin cannot take a block item after
    # it: write the whole list again (only its comments are lost).
    before = yaml.safe_load(existing) or {}
    if yaml.safe_load(appended) == {**before, "corrections": [*(before.get("corrections") or []), item]}:
        return appended
    return _LOG_HEAD + yaml.safe_dump([*(before.get("corrections") or []), item], sort_keys=False,
                                      allow_unicode=True, default_flow_style=False, width=88)
