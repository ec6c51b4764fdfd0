"""The ``rulebook diff``, ``rulebook history`` and ``rulebook changelog`` commands.

Back-end modules (the diff engine, deepdiff) are imported inside the commands,
so that ``rulebook --help`` stays quick.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from .options import deprecated_edition_argument, edition_given, edition_option, quiet, rulebook_option

FORMATS = ["text", "markdown", "json", "html"]

_root_option = rulebook_option()
_format_option = click.option("--format", "fmt", type=click.Choice(FORMATS), default="text", show_default=True,
                              help="text (colour on a terminal), markdown (pull-request comment), json, html.")


def render(result, fmt: str) -> str:
    """The diff in one of the formats; text is coloured only on a terminal without NO_COLOR."""
    from ..diff.whole import RulebookDiff

    if isinstance(result, RulebookDiff):  # two whole rulebooks (rulebook_compiler.diff.whole)
        from ..diff import render_whole

        return render_whole.render(result, fmt, colour=sys.stdout.isatty() and "NO_COLOR" not in os.environ)
    if fmt == "json":
        from ..diff.render_json import render as out
        return out(result)
    if fmt == "markdown":
        from ..diff.render_markdown import render as out
        return out(result)
    if fmt == "html":
        from ..diff.render_html import render as out
        return out(result)
    from ..diff.render_text import render as text
    return text(result, colour=sys.stdout.isatty() and "NO_COLOR" not in os.environ)


def _write(output: str, fmt: str) -> None:
    """JSON, Markdown and HTML are UTF-8 documents whatever the locale; text is for the terminal.

    The terminal's stream escapes what its encoding cannot carry (``survive_any_encoding``).
    """
    if fmt == "text":
        sys.stdout.write(output)
    else:
        from ..diagnostics import write_utf8

        write_utf8(output)


def _fail(message: str, code: int) -> None:
    from ..diagnostics import printable

    # The message names what the user typed (a side, a term): escaped for the terminal.
    click.echo(f"rulebook: error: {printable(message)}", err=True)
    sys.exit(code)


@click.command("diff")
@click.argument("old")
@click.argument("new")
@_root_option
@_format_option
@click.option("--exit-code", is_flag=True, help="Exit 1 when there are differences, 0 when none (like git diff).")
@click.option("--no-cache", is_flag=True,
              help="Load and check both sides in full; neither read nor fill the cache (also RULEBOOK_NO_CACHE=1).")
@click.option("--fail-on", "fail_on",
              type=click.Choice(["editorial", "clarification", "rule-change", "breaks-conformance",
                                 "ruling-flips", "published-change"]), default=None,
              help="Exit 1 when some change is at this level or above (editorial < clarification < rule-change "
                   "< breaks-conformance: cases of the old edition's suite flip < ruling-flips: the new edition "
                   "answers a ruling of the old one otherwise < published-change: a published "
                   "edition changed, removed or re-locked, the lock deleted, a log entry removed or edited).")
def diff_command(old: str, new: str, root: Path | None, fmt: str, exit_code: bool, no_cache: bool,
                 fail_on: str | None) -> None:
    """What changed from OLD to NEW: in words, in structure and in behaviour.

    OLD and NEW are each an edition id, a rulebook folder, or git:REV (the
    rulebook as committed at REV; git:REV:EDITION picks an edition there).
    Two rulebooks (folders or git:REV) are compared whole: every edition,
    rulebook.lock and corrections.yaml, changes to published editions first.
    A rulebook that passed check before is read from the cache (see
    docs/diff.md): only the terms that differ, and those their meaning needs.
    """
    import gc

    # A short run that makes many long-lived objects and no cycles: automatic full
    # collections would only rescan them (as rulebook_compiler.build pauses it while loading).
    enabled = gc.isenabled()
    gc.disable()
    from ..diff.match import reported_over_budget

    try:
        with reported_over_budget() as over_budget:
            result = _diff_cached(old, new, root, no_cache)
        _write(render(result, fmt), fmt)
        _warn_rulings(result)
        _warn_over_budget(over_budget)
    finally:
        if enabled:
            gc.enable()
    problems = getattr(result, "problems", ())
    if problems:  # the report leads with them; the diff fails, as check does (issue 21.3)
        from .common import report

        report(list(problems))
        sys.exit(1)
    if exit_code and not result.empty:
        sys.exit(1)
    if fail_on is not None:
        from ..diff.whole import fails

        if fails(result, fail_on):
            sys.exit(1)


def _warn_rulings(result) -> None:
    """A side's ``_rulings.yaml`` that cannot be read leaves its rulings out of the Rulings section: said
    at its place, once however many editions' diffs read it (a diff side is checked without its rulings)."""
    from dataclasses import replace
    from ..diff.whole import RulebookDiff
    from .options import quiet

    if quiet():  # -q: nothing but errors
        return
    results = ([e.result for e in result.editions if e.result is not None] if isinstance(result, RulebookDiff)
               else [result])
    said = []
    for found in (p for r in results for p in r.rulings.problems):
        if found not in said:
            said.append(found)
            click.echo(str(replace(found, severity="warning",
                                   hint=(found.hint + "; " if found.hint else "")
                                   + "its rulings are left out of the diff's Rulings section")), err=True)


def _warn_over_budget(found) -> None:
    """A term whose clauses were too many to compare pair by pair (``TERM_PAIRS``): said once at its
    place, however many of the diff's passes matched it."""
    said: list[str] = []
    for text in (str(o.diagnostic()) for o in found):
        if text not in said:
            said.append(text)
            if not quiet():  # -q: errors only
                click.echo(text, err=True)


def _diff_cached(old: str, new: str, root: Path | None, no_cache: bool):
    """The diff through the cache, unless it is bypassed; a damaged entry is dropped and read again."""
    from ..cache import Cache, CacheError, disabled_by_env

    cache = None if no_cache or disabled_by_env() else Cache.open()
    try:
        try:
            return _diff(old, new, root, cache)
        except CacheError:
            # A damaged entry was dropped when found; this run reads the sources
            # (and stores them again), the next one reads the cache.
            return _diff(old, new, root, cache)
    except CacheError:
        return _diff(old, new, root, None)
    except Exception as exc:
        if cache is None or not cache.served:
            raise
        # An entry that validated but holds what no check would pass (forged, say): the
        # entries read are dropped and the diff runs from the sources; if it fails again,
        # that failure is the diff's own and is raised (without the warning).
        cache.forget_served()
        result = _diff(old, new, root, None)
        from .options import warn

        warn(f"a cache entry could not be used ({type(exc).__name__}); it was dropped and the sources read instead")
        return result
    finally:
        if cache is not None:
            cache.close()


def _diff(old: str, new: str, root: Path | None, cache):
    from ..where import default_root
    from .common import report
    from ..diff.sides import Resolver, SideError

    with Resolver(root or default_root(), cache) as resolver:
        try:
            a = resolver.resolve(old)
            b = resolver.resolve(new)
        except SideError as exc:
            if exc.problems:
                from ..diagnostics import printable

                click.echo(f"rulebook: {printable(exc.message)}:", err=True)
                report(exc.problems)
                sys.exit(1)
            _fail(exc.message, 2)
        from ..diff.whole import build, is_whole

        if is_whole(a) and is_whole(b):
            return build(a, b, diff_pair)
        for side in (a, b):  # a folder diffed against an edition: read as an edition, refused as one
            if side.problems:
                from ..diagnostics import printable

                click.echo(f"rulebook: '{printable(side.spec)}' does not pass rulebook check:", err=True)
                report(list(side.problems))
                sys.exit(1)
        return diff_pair(a, b)


def diff_pair(a, b):
    """The engine's diff of one resolved edition against another (``sides.Side``)."""
    from ..diff.engine import diff_sources
    from ..diff.lineage import declared_groups
    from ..diff.sides import source_path

    from dataclasses import replace
    from ..diff.rulings import diff_rulings, ruling_side

    result = diff_sources(a.source, a.edition.vocabulary, b.source, b.edition.vocabulary,
                          old_info=a.info(), new_info=b.info(),
                          old_path=lambda loc: source_path(a, loc), new_path=lambda loc: source_path(b, loc),
                          lineage=declared_groups(a.book, a.edition, b.book, b.edition), suite=old_suite(a))
    return replace(result, rulings=diff_rulings(ruling_side(a), ruling_side(b)))


def old_suite(side):
    """The old side's conformance suite (made per decision when asked): from the cache, each edition
    holds only the terms that a decision's evaluation reads."""
    from ..diff.conformance_impact import OldSuite

    if side.cached is None:
        return OldSuite(side.book, side.edition)
    from ..diff.cached import CachedSource

    return OldSuite(side.book, side.edition,
                    lambda edition, name: CachedSource(side.cached, edition).evaluable([("decision", name)]))


@click.command("history")
@click.argument("term")
@_root_option
@_format_option
def history_command(term: str, root: Path | None, fmt: str) -> None:
    """One term through all editions: each edition that changed it, as a diff."""
    from .common import load_or_exit
    from ..diagnostics import did_you_mean
    from ..diff.history import term_history

    book = load_or_exit(root)
    known = sorted({t.id for e in book.editions for t in e.terms})
    if term not in known:
        from ..diagnostics import printable
        from .options import UsageProblem

        hint = did_you_mean(term, known)
        raise UsageProblem(printable(f"unknown term '{term}'"),
                           printable((f"{hint} " if hint else "") + f"terms: {', '.join(known)}"))
    from ..diff.match import reported_over_budget

    with reported_over_budget() as over_budget:
        steps = term_history(book, term)
    _warn_over_budget(over_budget)
    if fmt == "json":
        from ..export import dumps
        _write(dumps({"term": term, "steps": [s.as_json() for s in steps]}), fmt)
        return
    if fmt == "html":
        from ..diff.render_html import render_history

        _write(render_history(term, steps), fmt)  # one page, not a page for each step
        return
    _write(("\n" if fmt == "text" else "\n\n").join(render(s, fmt) for s in steps), fmt)


@click.command("changelog")
@deprecated_edition_argument()
@_root_option
@edition_option(needed=True)
@click.option("--format", "fmt", type=click.Choice(["markdown", "json"]), default="markdown", show_default=True,
              help="markdown (the notice to post), json (its parts).")
def changelog_command(old_edition: str | None, root: Path | None, edition_id: str | None, fmt: str) -> None:
    """The notice for players that comes with the edition: what plays differently since the one before it.

    Per term, the rule changes with the situations that now play differently,
    then the clarifications; editorial changes are only counted (docs/diff.md).
    """
    from .common import edition_or_exit, load_or_exit
    from ..diff.changelog import changelog, render_markdown

    edition = edition_given(edition_id, old_edition)
    book = load_or_exit(root)
    edition_or_exit(book, edition)
    from ..diff.match import reported_over_budget

    with reported_over_budget() as over_budget:
        log = changelog(book, edition)
    _warn_over_budget(over_budget)
    if fmt == "json":
        from ..export import dumps

        _write(dumps(_changelog_json(log)), fmt)
        return
    _write(render_markdown(log), fmt)


def _changelog_json(log) -> dict:
    from dataclasses import asdict

    return {"edition": log.edition.id, "previous": log.previous.id if log.previous else None,
            "terms": [asdict(t) for t in log.terms], "editorial": log.editorial,
            "renumbered": [asdict(r) for r in log.renumbered]}
