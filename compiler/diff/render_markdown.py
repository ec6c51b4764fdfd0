"""The diff as Markdown for a pull-request comment: a summary table, then each term.

Rule text is untrusted: it is HTML-escaped and its Markdown marks are
backslash-escaped, so that no text can open a link, a table or a tag.
Deletions and insertions are ``<del>`` and ``<ins>``, which GitHub and
GitLab render.
"""

from __future__ import annotations

import html
import re

from .engine import Change, DiffResult
from .present import answer, by_term, clause_name, details, location, side_name, situation
from .redline import Redline, ops_markup

_MD = re.compile(r"([\\`*_{}\[\]()#!|~>])")
# A line that starts like a list item, a heading rule or a numbered step.
_LINE_START = re.compile(r"^(\s*)([-+=]|\d+(?=[.)]))", re.M)


def escape(text: str) -> str:
    """Text safe inside Markdown (and the HTML that Markdown allows)."""
    text = _MD.sub(r"\\\1", html.escape(text, quote=False))
    text = _LINE_START.sub(lambda m: m.group(1) + "\\" + m.group(2) if not m.group(2).isdigit()
                           else m.group(1) + m.group(2) + "\\", text)
    return text.replace("\n", "<br>")


def code(text: str) -> str:
    """An inline code span that no backtick in ``text`` can close."""
    text = text.replace("\n", " ")
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def render(result: DiffResult) -> str:
    old, new = side_name(result.old), side_name(result.new)
    lines = [f"## Rulebook changes: {escape(old)} → {escape(new)}", ""]
    if result.empty:
        lines.append("No changes.")
        return "\n".join(lines) + "\n"
    lines += ["| kind | changes |", "| --- | ---: |"]
    lines += [f"| {kind} | {n} |" for kind, n in result.summary.items() if n]
    lines.append(f"| **total** | **{len(result.changes)}** |")
    for term, changes in by_term(result):
        lines += ["", f"### {code(term)}", ""]
        seen: set[str] = set()  # a decision's witnesses are shown once per term
        for change in changes:
            lines.extend(_change(change, old, new, seen))
    return "\n".join(lines) + "\n"


def _change(change: Change, old: str, new: str, seen: set[str]) -> list[str]:
    out = [f"#### {change.kind}: {code(clause_name(change))}", ""]
    where = [f"{escape(old)}: {code(location(change.old_location))}" if change.old_location else None,
             f"{escape(new)}: {code(location(change.new_location))}" if change.new_location else None]
    out.append(" · ".join(w for w in where if w) + f" · fingerprint {code(change.fingerprint)}")
    out += [f"<br>_{escape(note)}_" for note in details(change)]
    out += ["", "> " + redline_markdown(change.redline).replace("<br>", "<br>\n> "), ""]
    for b in change.behaviours:
        out.append(f"**Behaviour** of {code(b.name)}: **{b.direction}**"
                   + ("" if b.exhaustive else f" (checked {b.checked} situations, not all)")
                   + (" (witnesses above)" if b.name in seen and b.witnesses else ""))
        if b.witnesses and b.name not in seen:
            out += ["", f"| situation | {escape(old)} | {escape(new)} | decided by |", "| --- | --- | --- | --- |"]
            for w in b.witnesses:
                deciders = f"{', '.join(w.old_clauses) or 'no rule'} → {', '.join(w.new_clauses) or 'no rule'}"
                out.append(f"| {escape(situation(dict(w.facts)))} | {escape(answer(w.old))} | "
                           f"{escape(answer(w.new))} | {escape(deciders)} |")
        seen.add(b.name)
        out.append("")
    if change.impact:
        uses = ", ".join(f"{code(u['ref'])} ({escape(u['via'])})" for u in change.impact)
        out += [f"Used by: {uses}", ""]
    for flag in change.drift:
        out += [f"⚠️ Drift: {escape(flag)}", ""]
    return out


def redline_markdown(line: Redline) -> str:
    return ops_markup(line, escape)
