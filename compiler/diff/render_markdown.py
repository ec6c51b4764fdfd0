"""The diff as Markdown for a pull-request comment: a summary table, then each term.

Every untrusted string (rule text, ids, file names, side names) reaches the
comment through ``escape`` (prose) or ``code`` (an inline code span), never
raw. ``escape`` HTML-escapes it, backslash-escapes its Markdown marks (no text
can open a link, a table, a tag or math) and makes inert what GitHub would turn
into a notification or a link (``inert``). Both first show what must not reach
a reader raw as the terminal shows it (``diagnostics.printable``): a carriage
return would end the line for CommonMark and open a block outside the quote, a
bidi control would reorder what the reviewer reads. Deletions and insertions
are ``<del>`` and ``<ins>``, which GitHub and GitLab render.
"""

from __future__ import annotations

import html
import re

from ..diagnostics import printable
from .behaviour import transition_words
from .engine import Change, DiffResult
from .present import answer, by_term, clause_name, details, introduced, location, side_name, situation, unknown_note
from .redline import DELETE, INSERT, Redline

_MD = re.compile(r"([\\`*_{}\[\]()#!|~>$])")  # "$" opens math on GitHub
# A line that starts like a list item, a heading rule or a numbered step.
_LINE_START = re.compile(r"^(\s*)([-+=]|\d+(?=[.)]))", re.M)


# Line breaks (each becomes <br>, or a space in code) and tabs are the text's own.
KEEPS = "\n\t"

# U+2060 WORD JOINER: invisible and no line break, so the text reads the same.
# Dependabot puts U+200B after a mention's "@", Renovate after "@" and "#".
WORD_JOINER = "\u2060"
# What GitHub links in a comment's text, each broken right after its first
# character that no link can start without: "@" (mentions, e-mail addresses,
# user@sha), "#" (#12, owner/repo#12), ":" (https://..., :emoji:), "www" before
# a dot, "-" before a digit (GH-12 and a repository's own PREFIX-12 autolinks),
# and words of 7 or more hex digits (commit SHAs), cut every 6.
_LINKABLE = re.compile(r"[@#:]|(?i:www)(?=\.)|-(?=\d)|(?<![0-9A-Za-z])[0-9A-Fa-f]{7,}(?![0-9A-Za-z])")


def _break(match: re.Match) -> str:
    found = match.group()
    if len(found) < 7:
        return found + WORD_JOINER
    return WORD_JOINER.join(found[i:i + 6] for i in range(0, len(found), 6))


def inert(text: str) -> str:
    """The text with nothing GitHub would turn into a mention, a reference or a link."""
    return _LINKABLE.sub(_break, text)


def escape(text: str) -> str:
    """Untrusted text safe as Markdown prose: no markup, no mention, no link."""
    text = _MD.sub(r"\\\1", inert(html.escape(printable(text, KEEPS), quote=False)))
    text = _LINE_START.sub(lambda m: m.group(1) + "\\" + m.group(2) if not m.group(2).isdigit()
                           else m.group(1) + m.group(2) + "\\", text)
    return text.replace("\n", "<br>")


def code(text: str) -> str:
    """An inline code span that no backtick in ``text`` can close.

    GitHub links nothing inside a code span, so paths and ids stay exact to copy;
    only "@" gets the word joiner, so that a reply by e-mail that quotes the
    comment (plain text) mentions no one.
    """
    text = printable(text, KEEPS).replace("\n", " ").replace("@", "@" + WORD_JOINER)
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def render(result: DiffResult) -> str:
    old, new = side_name(result.old), side_name(result.new)
    first = introduced(result)
    lines = [f"## Introduced in {escape(first)}" if first else f"## Rulebook changes: {escape(old)} → {escape(new)}", ""]
    if result.empty:
        lines.append("No changes.")
        return "\n".join(lines) + "\n"
    lines += ["| kind | changes |", "| --- | ---: |"]
    lines += [f"| {kind} | {n} |" for kind, n in result.summary.items() if n]
    lines.append(f"| **total** | **{len(result.changes)}** |")
    if not result.vocabulary.empty:
        lines += ["", "### Vocabulary", ""] + [f"- {escape(line)}" for line in result.vocabulary.lines()]
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
        out.append(f"**Behaviour** of {code(b.name)}: **{escape(b.extent())}**"
                   + (" (witnesses above)" if b.name in seen and b.witnesses else ""))
        if b.name not in seen:
            out += _transitions(b)
        if b.witnesses and b.name not in seen:
            out += ["", f"| situation | {escape(old)} | {escape(new)} | decided by |", "| --- | --- | --- | --- |"]
            for w in b.witnesses:
                deciders = f"{', '.join(w.old_clauses) or 'no rule'} → {', '.join(w.new_clauses) or 'no rule'}"
                note = unknown_note(w)
                shown = situation(dict(w.facts)) + (f" ({note})" if note else "")
                out.append(f"| {escape(shown)} | {escape(answer(w.old))} | "
                           f"{escape(answer(w.new))} | {escape(deciders)} |")
        seen.add(b.name)
        out.append("")
    if change.impact:
        uses = ", ".join(f"{code(u['ref'])} ({escape(u['via'])})" for u in change.impact)
        out += [f"Used by: {uses}", ""]
    for flag in change.drift:
        out += [f"⚠️ Drift: {escape(flag)}", ""]
    return out


def _transitions(b) -> list[str]:
    """Each way the answer changed, as a list: its size, then its descriptions nested under it."""
    lines = []
    for t in b.transitions:
        head, parts = transition_words(t, "→")
        lines.append(f"- {escape(head)}:" + (f" {escape(parts[0])}" if len(parts) == 1 else ""))
        lines += [f"  - {escape(part)}" for part in parts] if len(parts) > 1 else []
    return [""] + lines if lines else []


def redline_markdown(line: Redline) -> str:
    """Deletions in ``<del>``, insertions in ``<ins>``, every run through ``escape``."""
    marks = {DELETE: "<del>{}</del>", INSERT: "<ins>{}</ins>"}
    return "".join(marks.get(op.op, "{}").format(escape(op.text)) for op in line.ops)
