"""One import: read, mark, assemble, convert; what it found and how to write it."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from ..diagnostics import Diagnostic, Location, did_you_mean
from ..fileio import write_text
from ..model import Edition
from .assemble import Document, assemble
from .convert import convert
from .edition import SOURCES_MAP, sources_map, split_unchanged, withdraw_missing
from .emit import Term, term_yaml
from .layouts import Layout
from .match import Decision, on_top
from .source import read_lines


@dataclass(frozen=True)
class ImportResult:
    terms: tuple[Term, ...]
    document: Document | None
    problems: tuple[Diagnostic, ...]
    decisions: tuple[Decision, ...] = ()
    shown: str = ""
    carried: tuple[Term, ...] = ()  # imported on top as the previous edition has them: not written
    on_top: bool = False
    source_name: str = ""
    layout: str = ""

    @property
    def fatal(self) -> bool:
        return any(p.severity == "error" for p in self.problems)

    @property
    def unplaced(self) -> tuple[Diagnostic, ...]:
        return tuple(p for p in self.problems if p.code == "unplaced")

    def files(self) -> dict[str, str]:
        out = {f"{t.id}.yaml": term_yaml(t) for t in self.terms}
        if self.terms or self.carried:
            out[SOURCES_MAP] = sources_map([*self.terms, *self.carried], self.source_name, self.layout)
        return out

    def write(self, folder: Path) -> None:
        for name, text in self.files().items():
            write_text(folder / name, text)

    def summary(self, out: Path) -> list[str]:
        """What was imported, then one line per decision for an editor (untrusted text: print with printable)."""
        every = [*self.terms, *self.carried]
        clauses = sum(len(s.clauses) for t in every for s in t.sections)
        withdrawn = sum(t.withdrawn for t in self.terms)
        written = len(self.terms) - withdrawn
        kept = (f"{written} written, {len(self.carried)} unchanged carried over" + ("; and " if withdrawn else "")
                if self.on_top else "and " if withdrawn else "")
        shown_withdrawn = f"{_count(withdrawn, 'withdrawal')} proposed" if withdrawn else ""
        head = (f"imported {_count(len(every) - withdrawn, 'term')} and {_count(clauses, 'clause')} into {out}"
                + (f" ({kept}{shown_withdrawn})" if kept or shown_withdrawn else "")
                + f"; {_count(len(self.unplaced), 'line')} not placed")
        if self.decisions:
            head += f"; {_count(len(self.decisions), 'decision')} for an editor, each with its default:"
        return [head] + [f"{self.shown}{f':{d.line}:1' if d.line else ''}: {d.ref}: {d.text} [default: {d.default}]"
                         for d in self.decisions]


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def run_import(source: Path, layout: Layout, only: Sequence[str] = (), previous: Edition | None = None,
               earlier: Sequence[Edition] = ()) -> ImportResult:
    """Import ``source``; on top of ``previous`` (an edition of a rulebook), with its ids and lineage."""
    shown = str(source)
    lines, problems = read_lines(source, shown)
    if lines is None:
        return ImportResult((), None, tuple(problems))
    doc = assemble(lines, layout.mark(lines), layout, shown)
    terms, more = convert(doc, layout, shown)
    problems = list(doc.problems) + more
    if not doc.entries:  # "imported 0 terms" would pass for success
        line, col, hint = layout.no_entry(lines)
        problems.append(Diagnostic(Location(shown, line, col),
                                   f"layout '{layout.name}' found no entry in the document", hint))
    left_out: list[Term] = []
    if only:
        every = terms
        terms, missing = _only(terms, only, shown)
        problems += missing
        left_out = [t for t in every if t not in terms]
    decisions: list[Decision] = []
    carried: list[Term] = []
    if previous is not None:
        terms, decisions = on_top(terms, previous, earlier, left_out, whole=not only)
        if not only:  # with --only the entries left out carry over, and so does what the document lacks
            terms, withdrawals = withdraw_missing(terms, previous)
            decisions += withdrawals
        terms, carried = split_unchanged(terms, previous)
    return ImportResult(tuple(terms), doc, tuple(sorted(problems, key=lambda p: (p.location.line, p.location.col))),
                        tuple(sorted(decisions, key=lambda d: d.line)), shown, tuple(carried), previous is not None,
                        source.name, layout.name)


def _only(terms: list[Term], names: Sequence[str], shown: str) -> tuple[list[Term], list[Diagnostic]]:
    by_name = {t.name: t for t in terms}
    problems = []
    for name in names:
        if name not in by_name:
            problems.append(Diagnostic(Location(shown), f"no entry is named '{name}'",
                                       did_you_mean(name, by_name)))
    wanted = set(names)
    return [t for t in terms if t.name in wanted], problems
