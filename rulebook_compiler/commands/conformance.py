"""``rulebook conformance generate | run | mutants``."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from .common import edition_or_exit, load_or_exit
from .options import edition_option, rulebook_option, say, warn
from ..counts import counted
from ..diagnostics import printable  # ids from case and expectations files reach the terminal

EXHAUSTIVE_OPTION = click.option("--max-exhaustive", type=click.IntRange(min=0), default=0, show_default=True,
                                 metavar="N",
                                 help="Test every allowed situation of a decision that has at most N of them; "
                                      "the others (all, by default) get an MC/DC-sized set that kills every "
                                      "mutant that can be killed.")


@click.group()
def conformance() -> None:
    """Conformance suites: generate them, run an engine through them, measure their strength."""


@conformance.command()
@rulebook_option()
@edition_option(required=True)
@click.option("--out", type=click.Path(path_type=Path, file_okay=False), required=True,
              help="Folder to write cases.json and test_conformance.py into.")
@EXHAUSTIVE_OPTION
def generate(root: Path | None, edition_id: str, out: Path, max_exhaustive: int) -> None:
    """Write the edition's cases (cases.json) and a pytest module that runs them."""
    from ..where import default_root
    from ..outputs import output_folder, rulebook_input
    from ..conformance.cases import build_suite
    from ..conformance.suite import write_suite

    book = load_or_exit(root)  # before the folder is made: a rulebook that fails check writes nothing
    edition = edition_or_exit(book, edition_id)
    with output_folder(out, "rulebook conformance generate", [rulebook_input(root or default_root())]):
        suite = build_suite(book, edition, max_exhaustive)
        _warn_gaps(suite)
        cases_path, module_path = write_suite(suite, book.title, out)
    say(f"edition {edition.id}: {counted(len(suite.cases), 'case')} over {counted(len(suite.decisions), 'decision')}: "
               f"{cases_path}, {module_path}")


def _warn_gaps(suite) -> None:
    for d in suite.decisions:
        if d.unanswered:
            warn(f"{d.decision}: {d.unanswered} allowed situation(s) have no single answer "
                 "(conflict or empty; `rulebook check` shows them) and are left out")
        for label in d.uncovered:
            warn(f"{d.decision}: no situation shows that {label} changes the outcome")
    for why in suite.left_out:  # a ruling that fails check, or an unreadable _rulings.yaml
        warn(printable(why))
    _warn_over_limit(suite)


def _warn_over_limit(suite) -> None:
    """The decisions with more conditions than MAX_ATOMS: what their cases and mutants leave out."""
    from ..conformance.cases import MAX_ATOMS

    for d in suite.decisions:
        if d.atoms_over_limit:
            warn(f"{d.decision}: {d.atoms_over_limit:,} conditions, over the limit of {MAX_ATOMS:,}; "
                 "its cases show each rule standing and each answer, not each condition deciding, "
                 "and its mutants are not made\n  hint: name parts of its conditions with 'defines', or split "
                 "the decision; the limit is MAX_ATOMS in rulebook_compiler/conformance/cases.py (docs/conformance.md)")


@conformance.command()
@rulebook_option()
@edition_option(required=True)
@click.option("--engine", "engine_spec", metavar="MODULE:ATTR", help="A Python engine (ATTR may be a factory).")
@click.option("--engine-cmd", metavar="COMMAND", help="An engine in any language, speaking JSON lines.")
@click.option("--cases", "cases_file", type=click.Path(path_type=Path, dir_okay=False),
              help="Run this cases.json (checked against the rulebook) instead of generating the cases.")
@click.option("--expectations", type=click.Path(path_type=Path, dir_okay=False),
              help="The engine's known failures: case ids, one a line.")
@click.option("--write-expectations", type=click.Path(path_type=Path, dir_okay=False),
              help="Write the cases that fail now as an expectations file.")
@click.option("--timeout", type=click.FloatRange(min=0.01), default=5.0, show_default=True,
              help="Seconds the engine may take per case.")
@EXHAUSTIVE_OPTION
def run(root: Path | None, edition_id: str, engine_spec: str | None, engine_cmd: str | None,
        cases_file: Path | None, expectations: Path | None, write_expectations: Path | None,
        timeout: float, max_exhaustive: int) -> None:
    """Run an engine through the edition's cases: prints `N passed, M failed`, exit 1 on any failure.

    An engine that cannot be imported or started is a usage error (exit 2), before any case runs.
    """
    from ..conformance.runner import expectation_problems, expectations_text, run_cases, summary

    if bool(engine_spec) == bool(engine_cmd):
        raise click.UsageError("give --engine MODULE:ATTR or --engine-cmd COMMAND (one of them)")
    book = load_or_exit(root)
    edition = edition_or_exit(book, edition_id)
    if write_expectations:
        from ..outputs import output_file, rulebook_input

        output_file(write_expectations, [rulebook_input(book.root)], "--write-expectations")
    adapter = _adapter_or_exit(engine_spec, engine_cmd, edition.id, str(book.root), timeout)
    try:
        cases, values, bad = _cases(book, edition, cases_file, max_exhaustive)
        known = None
        if expectations:
            known, problems = expectation_problems(expectations, cases)
            if problems:
                for p in problems:
                    click.echo(printable(p, "\n"), err=True)  # a problem may end in a hint line
                sys.exit(1)
        for label, problem in bad:
            click.echo(printable(f"case {label}: {problem}"))
        verdicts = run_cases(adapter, cases, values, known)
    finally:
        adapter.close()
    for v in verdicts:
        if v.message and v.status != "known failure":
            click.echo(v.message)
    if write_expectations:
        from ..fileio import write_text

        write_text(write_expectations, expectations_text(verdicts, edition.id))
    say(summary(verdicts, len(bad)))
    if len(bad) or any(not v.ok for v in verdicts):
        sys.exit(1)


def _adapter_or_exit(spec: str | None, command: str | None, edition: str, rulebook: str, timeout: float):
    """The engine's adapter, or exit 2 with ``error: OPTION VALUE: why`` and a hint line."""
    from ..conformance.engines import EngineLoadError, open_adapter

    try:
        return open_adapter(spec, command, edition, rulebook, timeout)
    except EngineLoadError as exc:
        option, value = ("--engine-cmd", command) if command is not None else ("--engine", spec or "")
        click.echo(f"rulebook: error: {exc.report(option, value)}", err=True)
        sys.exit(2)


def _cases(book, edition, cases_file: Path | None, max_exhaustive: int):
    """The cases to run, the values of each decision, and the cases that do not hold up (label, problem)."""
    from ..conformance.cases import build_suite

    suite = build_suite(book, edition, max_exhaustive)
    values = {d.decision: d.values for d in suite.decisions}
    if cases_file is None:
        return suite.cases, values, []
    from ..conformance.suite import CaseFileError, read_case_file

    try:
        loaded = read_case_file(cases_file, edition.id)
    except CaseFileError as exc:
        click.echo(f"rulebook: error: {exc}", err=True)
        sys.exit(1)
    for warning in loaded.warnings:
        warn(str(warning))
    if loaded.source_digest != suite.digest:
        warn(f"{cases_file}: generated from another version of edition {edition.id}; "
             "each case is checked against the current one")
    good, bad = [], list(loaded.bad)
    for case in loaded.cases:
        problem = _against_reference(book, edition, suite, case)
        if problem:
            bad.append((f"{case.name} ({case.id})", problem))
        else:
            good.append(case)
    present = {c.id for c in loaded.cases} | {label for label, _ in loaded.bad}
    for case in suite.cases:
        if case.id not in present:
            bad.append((f"{case.name} ({case.id})", f"missing from {cases_file}: edition {edition.id} has this case "
                        "(removed by hand, or a stale file; regenerate it)"))
    return tuple(good), values, bad


def _against_reference(book, edition, suite, case) -> str | None:
    from ..evaluate import show_state
    from ..conformance.reference import ReferenceEngine
    from ..conformance.runner import show

    decisions = {d.decision: d for d in suite.decisions}
    d = decisions.get(case.decision)
    if d is None:
        return f"edition {edition.id} has no decision '{case.decision}'"
    if tuple(sorted(case.facts_dict)) != tuple(sorted(d.facts)):
        return (f"its facts ({', '.join(sorted(case.facts_dict)) or 'none'}) are not those the decision depends on "
                f"in edition {edition.id} ({', '.join(d.facts) or 'none'})")
    try:
        answer = ReferenceEngine(book, edition).decide(case.decision, case.facts_dict)
    except (ValueError, KeyError) as exc:
        return f"edition {edition.id} gives no answer when {show_state(case.facts_dict)}: {exc}"
    if answer != case.expected:
        return (f"the case file expects {show(case.expected)} but edition {edition.id} decides {show(answer)} "
                "(a stale or hand-edited case file; regenerate it)")
    return None


@conformance.command()
@rulebook_option()
@edition_option(required=True)
@EXHAUSTIVE_OPTION
@click.option("--fail-under", type=click.FloatRange(0, 1), default=None,
              help="Exit 1 when the score is below this.")
@click.option("--show-excluded", is_flag=True, help="List the equivalent and unused mutants one by one.")
def mutants(root: Path | None, edition_id: str, max_exhaustive: int, fail_under: float | None,
            show_excluded: bool) -> None:
    """Mutate every condition and count the mutants the edition's suite kills."""
    from ..conformance.cases import build_suite
    from ..conformance.mutants import measure

    book = load_or_exit(root)
    edition = edition_or_exit(book, edition_id)
    suite = build_suite(book, edition, max_exhaustive)
    _warn_over_limit(suite)
    report = measure(book, edition, suite)
    click.echo(f"edition {edition.id}: cases per decision (against the exhaustive count):")
    for d in suite.decisions:
        click.echo(f"  {d.decision}: {len(d.cases)} of {d.allowed} ({d.strategy})")
    for r in report.results:
        if r.status == "survived":
            click.echo(f"survived: {r.mutant.label}")
    _excluded(report, "equivalent", "they change no answer in any allowed situation", show_excluded)
    _excluded(report, "unused", "they mutate predicates that no decision uses", show_excluded)
    click.echo(f"killed {report.count('killed')} of {counted(report.scored, 'mutant')} (score {report.score:.2f})")
    if fail_under is not None and report.score < fail_under:
        sys.exit(1)


def _excluded(report, status: str, why: str, show_all: bool) -> None:
    """Say how many mutants are left out of the score and why; by clause, or one by one."""
    found = [r.mutant for r in report.results if r.status == status]
    if not found:
        return
    click.echo(f"{counted(len(found), status + ' mutant')} excluded ({why}):")
    if show_all:
        for m in found:
            click.echo(f"  {m.label}")
        return
    by_clause: dict[str, int] = {}
    for m in found:
        by_clause[m.clause] = by_clause.get(m.clause, 0) + 1
    for clause, n in by_clause.items():
        click.echo(f"  {clause}: {n}")
