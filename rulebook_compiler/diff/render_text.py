"""The diff for a terminal: colour on a tty, plain ``[-old-]{+new+}`` marks otherwise.

Every line is composed as plain text and passed through ``printable`` (control
characters in file names, side names and rule text escaped) before any colour
is added: the only escape sequences in the output are the renderer's own.
"""

from __future__ import annotations

from collections.abc import Set

from ..diagnostics import printable
from .result import Change, DiffResult
from .behaviour import Behaviour, transition_lines
from . import names as N
from .conformance_impact import words as conformance_words
from .present import (by_term, clause_name, details, folded, folded_words, introduced, location, numbered_name,
                      one_sided, outcome, renumbered_line, side_name, situation, summary_line, unknown_note, use_words)
from . import inside
from . import rulings as R
from .redline import DELETE, INSERT, Redline

RED, GREEN, BOLD, DIM, RESET = "\x1b[31m", "\x1b[32m", "\x1b[1m", "\x1b[2m", "\x1b[0m"
# Rule text keeps its own line breaks (each is indented as a line) and tabs.
TEXT_KEEPS = "\n\t"


def render(result: DiffResult, colour: bool = False) -> str:
    """The whole diff as text; "No changes." when there is none (``--exit-code`` tells it like ``git diff``)."""
    paint = _painter(colour)
    first = introduced(result)
    header = f"introduced in {first}" if first else f"rulebook diff {side_name(result.old)} -> {side_name(result.new)}"
    if result.empty:
        return paint(BOLD, printable(f"{header}: No changes.")) + "\n"
    lines = [paint(BOLD, printable(f"{header}: {summary_line(result)}"))]
    lines += _heads(result, paint)
    lines += _terms(result, paint, colour)
    if result.names:
        lines += ["", paint(BOLD, "decisions, predicates and constraints:")]
        for name in result.names:
            lines.extend(_name(name, paint))
    return "\n".join(lines) + "\n"


def _heads(result: DiffResult, paint) -> list[str]:
    """The lines under the header: the renumbered clauses, the rulings and the vocabulary."""
    lines = []
    renumbered = renumbered_line(result)
    if renumbered:  # however many, one line: a whole renumbering does not push the rest down
        lines.append(printable(renumbered))
    if result.rulings.any:  # the first thing a committee asks of a rule change (issue 26.3)
        lines += ["", paint(BOLD, "rulings:") + " " + printable(R.count_line(result.rulings))]
        lines += ["  " + printable(line) for line in R.text_lines(result.rulings)]
    if not result.vocabulary.empty:
        lines += ["", paint(BOLD, "vocabulary:")] + ["  " + printable(line) for line in result.vocabulary.lines()]
    return lines


def _terms(result: DiffResult, paint, colour: bool) -> list[str]:
    """Each term's changes, then its clauses renumbered with the same words."""
    lines = []
    listed = {n.behaviour for n in result.names if n.behaviour is not None}
    for term, changes in by_term(result):
        lines.append("")
        lines.append(paint(BOLD, printable(term)))
        seen: set[Behaviour] = set()  # a behaviour's details are shown once per term
        for change in changes:
            if not folded(change):
                lines.extend(_change(change, paint, colour, seen, listed))
        lines.extend(_folded([c for c in changes if folded(c)], paint))
    return lines


def _name(name: N.NameChange, paint) -> list[str]:
    """A decision, predicate or constraint, once: what it answers, or how its answers changed."""
    out = ["  " + paint(BOLD, name.status) + printable(N.heading(name)[len(name.status):])]
    plain: list[str] = []
    if name.behaviour is not None:
        plain.extend(f"    {line}" for line in (N.clauses_words(name),) if line)
        plain.append(f"    {name.name} {name.behaviour.extent()}")
        plain.extend(f"      {line}" for line in transition_lines(name.behaviour) + witness_lines(name.behaviour))
        plain.extend(f"    {line}" for line in N.through_lines(name))
    else:
        plain.extend(f"    {line}" for line in (N.clauses_words(name),) if line)
        plain.extend(f"    {line}" for line in N.word_lines(name))
    if name.changes:
        plain.append(f"    {N.changed_by(name)}")
    if conformance_words(name.conformance):
        plain.append(f"    {conformance_words(name.conformance)}")
    return out + list(map(printable, plain))


def witness_lines(b: Behaviour) -> list[str]:
    """Each witness: the situation, both answers and the clauses that gave them."""
    return [f"when {situation(dict(w.facts))}: old {outcome(w.old, w.old_reason, w.old_clauses)}"
            f", new {outcome(w.new, w.new_reason, w.new_clauses)}"
            + (f" [{unknown_note(w)}]" if unknown_note(w) else "") for w in b.witnesses]


def _painter(colour: bool):
    if not colour:
        return lambda style, text: text
    return lambda style, text: f"{style}{text}{RESET}"


def _change(change: Change, paint, colour: bool, seen: set[Behaviour], listed: Set[Behaviour] = frozenset()) -> list[str]:
    where = printable(location(change.new_location or change.old_location))
    out = [f"  {paint(BOLD, change.kind)}  {printable(numbered_name(change))}  {paint(DIM, where)}"]
    plain: list[str] = [f"    ({note})" for note in details(change)]
    out.extend(map(printable, plain))
    shown = inside.view(change)
    if not (shown and shown.long):
        out.extend("    " + line for line in redline_text(change.redline, colour).split("\n"))
    out.extend(_inside(shown, colour))
    plain = []
    for b in change.behaviours:
        plain += _behaviour(b, seen, listed)
    plain += _uses(change)
    out.extend(map(printable, plain))
    for flag in change.drift:
        out.append("    " + paint(BOLD, "drift: ") + printable(flag.text))
    return out


def _behaviour(b: Behaviour, seen: set[Behaviour], listed: Set[Behaviour]) -> list[str]:
    """A behaviour of a change: its extent, then its transitions and witnesses the first time in the term."""
    # A decision's whole change is listed once, under the decision; a clause's own part of it
    # (rulebook_compiler.diff.clause_behaviour) is its own, shown once per term.
    shown_before = b in seen and bool(b.witnesses or b.transitions)
    plain = [f"    behaviour: {b.name} {b.extent()}"
             + (" (see decisions below)" if b in listed else " (as above)" if shown_before else "")]
    if b in seen or b in listed:
        return plain
    seen.add(b)
    return plain + [f"      {line}" for line in transition_lines(b) + witness_lines(b)]


def _uses(change: Change) -> list[str]:
    """Names added or removed with the change, the conformance it breaks, and its uses."""
    plain = []
    added_or_removed = one_sided(change)
    if added_or_removed:
        plain.append("    " + ", ".join(added_or_removed) + " (see decisions below)")
    if conformance_words(change.conformance):
        plain.append(f"    {conformance_words(change.conformance)}")
    if change.impact:
        plain.append("    used by: " + "; ".join(f"{u.ref} ({use_words(u)})" for u in change.impact))
    return plain


def _folded(changes: list[Change], paint) -> list[str]:
    """A term's clauses renumbered with the same words (``present.folded``), together: one line each."""
    if not changes:
        return []
    from ..counts import counted

    out = [f"  {paint(BOLD, 'renumbered')}, same words: {counted(len(changes), 'clause')}"]
    for c in changes:
        where = printable(location(c.new_location or c.old_location))
        out.append("    " + printable(folded_words(c, between="  ")) + f"  {paint(DIM, where)}")
    return out


def _inside(shown: inside.View | None, colour: bool) -> list[str]:
    """What changed inside the clause (rulebook_compiler.diff.inside): a count, then each changed item or sentence."""
    if shown is None:
        return []
    # Composed as plain text and passed through ``printable`` like every other line (the module's rule),
    # though the note, the counts and the labels are the diff's own words.
    out = [printable(f"    ({shown.note})")] if shown.note else []
    out.append(printable("    inside: " + shown.counts))
    for label, line in shown.lines:
        out.append(printable(f"      {label}: ") + redline_text(line, colour).replace("\n", "\n        "))
    return out


def redline_text(line: Redline, colour: bool) -> str:
    """Deletions and insertions marked by colour, or as ``[-...-]`` and ``{+...+}``."""
    parts = []
    for op in line.ops:
        text = printable(op.text, TEXT_KEEPS)
        if op.op == DELETE:
            parts.append(f"{RED}{text}{RESET}" if colour else f"[-{text}-]")
        elif op.op == INSERT:
            parts.append(f"{GREEN}{text}{RESET}" if colour else f"{{+{text}+}}")
        else:
            parts.append(text)
    return "".join(parts)
