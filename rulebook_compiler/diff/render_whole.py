"""A whole-rulebook diff (``rulebook_compiler.diff.whole``) in every format: text, Markdown, JSON and HTML.

Each format leads with the same things, in the same order: one summary line,
then the published record's alerts (a published edition changed, removed or
re-locked, a log entry removed, edited or matching nothing), then a line per
edition that changed and the changes to ``rulebook.lock`` and
``corrections.yaml``; then, for each edition whose content differs, that
edition's diff exactly as ``rulebook diff git:A:EDITION git:B:EDITION`` gives
it. Every line is made of parts (``whole.Part``): identifiers and words kept
apart where they are made, so that each format writes an identifier as code
and escapes the words as prose (``render_markdown.escape``, autoescape in
HTML, ``printable`` for the terminal).
"""

from __future__ import annotations

from ..diagnostics import printable
from .present import summary_line
from .whole import Alert, EditionDiff, Part, RulebookDiff, entry_parts

Line = tuple[Part, ...]

HEAD_TEXT = "rulebook diff"
NO_CHANGES = "No changes."


def render(diff: RulebookDiff, fmt: str, colour: bool = False) -> str:
    if fmt == "json":
        from ..jsonform import dumps

        return dumps(as_json(diff))
    if fmt == "markdown":
        return markdown(diff)
    if fmt == "html":
        return html(diff)
    return text(diff, colour)


# -- what every format says, as parts ---------------------------------------------------------------


def _count(n: int, noun: str, plural: str | None = None) -> str:
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


def summary(diff: RulebookDiff) -> str:
    """'1 edition added, 1 changed; rulebook.lock: 1 entry changed; corrections.yaml: 1 entry removed'."""
    parts = []
    if diff.problems:  # first: the diff fails on them whatever else it says
        parts.append(f"rulebook check fails: {_count(len(diff.problems), 'problem')}")
    if diff.changed:
        parts.append(_counts([e.change for e in diff.changed], "edition", "editions"))
    record = diff.record
    if record.lock_file != "same":
        parts.append(f"rulebook.lock: {record.lock_file}")
    elif record.lock:
        parts.append("rulebook.lock: " + _counts([c.change for c in record.lock], "entry", "entries"))
    if record.log:
        parts.append("corrections.yaml: " + _counts([c.change for c in record.log], "entry", "entries"))
    if diff.rulebook:
        parts.append("rulebook: " + ", ".join(diff.rulebook) + " changed")
    return "; ".join(parts)


def _counts(changes: list[str], noun: str, plural: str) -> str:
    """'1 entry changed, 2 removed': the noun once, with the first count."""
    found = [k for k in ("added", "changed", "edited", "removed") if k in changes]
    return ", ".join((_count(changes.count(k), noun, plural) if i == 0 else str(changes.count(k))) + f" {k}"
                     for i, k in enumerate(found))


def edition_line(e: EditionDiff) -> Line:
    """One edition that changed: '2.0 (draft): content: 1 reworded; status: draft -> published'."""
    out: list[Part] = [(e.id, True), (f" ({e.status}): ", False)]
    if e.change == "removed":
        return tuple(out + [("removed", False)])
    said = []
    if e.change == "added":
        said.append([("added", False)] + _compared(e))
    else:
        if e.result is not None:
            said.append([("content: ", False)] + _content(e))
        said += _record_words(e)
    for i, words in enumerate(said):
        out += ([("; ", False)] if i else []) + words
    return tuple(out)


def _compared(e: EditionDiff) -> list[Part]:
    if e.compared_with is None:
        return [(f", {_count(len(e.side.source.digests()), 'term')}", False)]
    base = e.compared_with.edition.id
    if e.result is None:
        return [(", the same content as ", False), (base, True)]
    return [(", compared with ", False), (base, True), (": ", False)] + _content(e)


def _content(e: EditionDiff) -> list[Part]:
    if not e.diffed.empty:
        return [(summary_line(e.diffed), False)]
    # The terms' sources differ, and nothing the diff reports: said, with the terms, never left out.
    out: list[Part] = [("the sources of ", False)]
    for i, term in enumerate(e.unshown):
        out += [(", " if i else "", False), (term, True)]
    return out + [(" differ, in nothing the diff reports (editors' notes, declared lineage)", False)]


def _record_words(e: EditionDiff) -> list[list[Part]]:
    """What ``rulebook.yaml`` says of the edition that changed: its status, its fields, its place."""
    meta = e.meta
    out: list[list[Part]] = []
    if meta is None:
        return out
    if meta.status:
        out.append([(f"status: {meta.status[0]} -> {meta.status[1]}", False)])
    if meta.metadata:
        noun = "field" if len(meta.metadata) == 1 else "fields"
        out.append([(f"{noun} changed: {', '.join(meta.metadata)}", False)])
    if meta.moved:
        out.append([("moved in the order of editions", False)])
    return out


def lock_lines(diff: RulebookDiff) -> list[Line]:
    record = diff.record
    out: list[Line] = []
    if record.lock_file != "same":
        out.append(((f"the file {record.lock_file}", False),))
    for c in record.lock:
        line: list[Part] = [("entry ", False), (c.edition, True), (f" {c.change}", False)]
        if c.refs:
            line.append((": ", False))
            for i, ref in enumerate(c.refs):
                line += [(", " if i else "", False), (ref, True)]
        out.append(tuple(line))
    return out


def log_lines(diff: RulebookDiff) -> list[Line]:
    out: list[Line] = []
    for c in diff.record.log:
        if c.change == "edited":
            out.append(((f"entry {c.was[0]} edited: ", False), *entry_parts(c.was[1]), (" -> ", False),
                        *entry_parts(c.now[1])))
        elif c.change == "removed":
            out.append(((f"entry {c.was[0]} removed: ", False), *entry_parts(c.was[1])))
        else:
            out.append(((f"entry {c.now[0]} added: ", False), *entry_parts(c.now[1])))
    return out


def sections(diff: RulebookDiff) -> list[tuple[str, list[Line]]]:
    """The record's sections after the alerts, each with its lines (none left out)."""
    found: list[tuple[str, list[Line]]] = [("editions", [edition_line(e) for e in diff.changed]), ("rulebook.lock", lock_lines(diff)), ("corrections.yaml", log_lines(diff)),
             ("rulebook", [((f"{name} changed", False),) for name in diff.rulebook])]
    return [(head, lines) for head, lines in found if lines]


def detailed(diff: RulebookDiff) -> list[EditionDiff]:
    """The editions whose diff is shown in full after the record: those whose content differs."""
    return [e for e in diff.editions if e.content_changed]


def _plain(line: Line) -> str:
    return "".join(text for text, _ in line)


# -- text ---------------------------------------------------------------------------------------------


def text(diff: RulebookDiff, colour: bool = False) -> str:
    from .render_text import BOLD, RESET, render as edition_text

    def paint(style: str, line: str) -> str:
        return f"{style}{line}{RESET}" if colour else line
    head = f"{HEAD_TEXT} {diff.old.spec} -> {diff.new.spec}"
    if diff.empty:
        return paint(BOLD, printable(f"{head}: {NO_CHANGES}")) + "\n"
    lines = [paint(BOLD, printable(f"{head}: {summary(diff)}"))]
    if diff.alerts:
        lines.append(paint(BOLD, "published record:"))
        lines += ["  " + printable(a.text) for a in diff.alerts]
    for name, items in sections(diff):
        lines.append(paint(BOLD, f"{name}:"))
        lines += ["  " + printable(_plain(line)) for line in items]
    out = "\n".join(lines) + "\n"
    for e in detailed(diff):
        out += "\n" + edition_text(e.diffed, colour)
    return out


# -- Markdown -----------------------------------------------------------------------------------------


def _md(line: Line) -> str:
    from .render_markdown import code, escape

    return "".join(code(t) if ident else escape(t, inline=True) for t, ident in line)


def _md_alert(alert: Alert) -> str:
    from .render_markdown import code, escape

    return "- ⚠️ " + alert.written(code, lambda t: escape(t, inline=True))


def markdown_head(diff: RulebookDiff) -> list[str]:
    """The comment's first part, always kept: the summary, the alerts and the record's sections."""
    from .render_markdown import escape

    lines = [f"## Rulebook changes: {escape(diff.old.spec, inline=True)} → {escape(diff.new.spec, inline=True)}", ""]
    if diff.empty:
        return lines + [NO_CHANGES]
    lines += [f"**{escape(summary(diff), inline=True)}**"]
    if diff.alerts:
        lines += ["", "### Published record", ""] + [_md_alert(a) for a in diff.alerts]
    for name, items in sections(diff):
        title = {"editions": "Editions", "rulebook": "Rulebook"}.get(name, f"`{name}`")
        lines += ["", f"### {title}", ""] + [f"- {_md(line)}" for line in items]
    return lines


def markdown(diff: RulebookDiff, budget: int | None = None) -> str:
    """The pull-request comment, within ``budget`` (``render_markdown.COMMENT_BUDGET``): the record and
    the editions' summaries first and always; then each edition's diff, shortened by its own budget
    (``render_markdown.render``), a fair share of what is left, the smallest first so that what a
    small one leaves goes to the larger ones; one that cannot fit even shortened is one line that
    says how to see it."""
    from .render_markdown import COMMENT_BUDGET, render as edition_markdown, utf16_length

    budget = COMMENT_BUDGET if budget is None else budget
    head = _fit_head(markdown_head(diff), budget - _RESERVE)
    out = "\n".join(head) + "\n"
    shown = detailed(diff)
    if not shown:
        return out
    left = budget - utf16_length(out)
    full = {e.id: edition_markdown(e.diffed, budget=budget) for e in shown}
    parts: dict[str, str] = {}
    for i, e in enumerate(sorted(shown, key=lambda e: (utf16_length(full[e.id]), e.id))):
        share = left // (len(shown) - i) - 1  # the blank line before it
        part = full[e.id]
        if utf16_length(part) > share:
            part = edition_markdown(e.diffed, budget=share)
        if utf16_length(part) > share:
            part = _left_out(e)
        parts[e.id] = part
        left -= utf16_length(part) + 1
    whole = out + "".join("\n" + parts[e.id] for e in shown)
    if utf16_length(whole) <= budget:
        return whole
    # So many editions that even their one-line parts do not fit: one line for all of them.
    return out + (f"\n_The diffs of {_count(len(shown), 'edition')} left out to fit a GitHub comment; the full "
                  "report: `--format html`._\n")


#: What the head leaves of the budget, at least: room for the line that says the editions' diffs are left out.
_RESERVE = 300


def _fit_head(lines: list[str], budget: int) -> list[str]:
    """The head within ``budget``: it is short unless the record changed in thousands of places; then its
    last lines are left out, and it says so (the alerts come first, so they are kept)."""
    from .render_markdown import utf16_length

    total = sum(utf16_length(line) + 1 for line in lines)
    if total <= budget:
        return lines
    kept, used = [], 200  # room for the note
    for line in lines:
        if used + utf16_length(line) + 1 > budget:
            break
        kept.append(line)
        used += utf16_length(line) + 1
    return kept + ["", f"_{len(lines) - len(kept)} more lines left out to fit a GitHub comment; the full "
                       "report: `--format html`._"]


def _left_out(e: EditionDiff) -> str:
    from .render_markdown import code, escape
    from .present import side_name

    info_old, info_new = e.diffed.old, e.diffed.new
    command = code(f"rulebook diff {info_old.spec} {info_new.spec} --format html")
    return (f"## Rulebook changes: {escape(side_name(info_old), inline=True)} → "
            f"{escape(side_name(info_new), inline=True)}\n\n"
            f"_Left out to fit a GitHub comment ({escape(summary_line(e.diffed), inline=True)}). The full report: "
            f"{command}._\n")


# -- JSON ---------------------------------------------------------------------------------------------

FORMAT = "rulebook-diff/1"


def _side(side) -> dict:
    return {"spec": side.spec, "kind": side.kind, "revision": side.revision, "title": side.book.title}


def _entry(entry, at: int | None) -> dict | None:
    if entry is None or at is None:
        return None
    return {"entry": at + 1, "date": entry.date, "edition": entry.edition, "kind": entry.kind,
            "reason": entry.reason, "changed": list(entry.changed)}


def as_json(diff: RulebookDiff) -> dict:
    """The documented shape (docs/diff.md, Whole rulebooks): keys in this order, always all of them."""
    record = diff.record
    return {
        "format": FORMAT,
        "old": _side(diff.old),
        "new": _side(diff.new),
        "empty": diff.empty,
        "published_change": diff.published_change,
        "summary": summary(diff),
        "alerts": [{"kind": a.kind, "edition": a.edition, "text": a.text,
                    "explained_by": None if a.explained is None else [_entry(c.new, c.at_new) for c in a.explained]}
                   for a in diff.alerts],
        "record": {
            "editions": [{"id": c.id, "change": c.change, "old_status": c.old.status if c.old else None,
                          "new_status": c.new.status if c.new else None, "metadata": list(c.metadata),
                          "content": c.content, "moved": c.moved} for c in record.editions],
            "lock_file": record.lock_file,
            "lock": [{"edition": c.edition, "change": c.change, "refs": list(c.refs)} for c in record.lock],
            "log": [{"change": c.change, "old": _entry(c.old, c.at_old), "new": _entry(c.new, c.at_new)}
                    for c in record.log],
            "rulebook": list(diff.rulebook),
        },
        "editions": [{"id": e.id, "change": e.change,
                      "old": e.old.as_json() if e.old else None, "new": e.new.as_json() if e.new else None,
                      "compared_with": e.compared_with.edition.id if e.compared_with else None,
                      "diff": e.result.as_json() if e.result is not None else None,
                      "unshown": list(e.unshown)} for e in diff.editions],
    }


# -- HTML ---------------------------------------------------------------------------------------------

_WHOLE = """\
{% extends "layout" %}
{% block body %}
{% if empty %}
<p>No changes.</p>
{% else %}
<p><strong>{{ summary }}</strong></p>
{% if alerts %}
<h2 id="published-record">Published record</h2>
<ul class="alerts">
{% for line in alerts %}<li>{% include "parts" %}</li>
{% endfor %}
</ul>
{% endif %}
{% for name, lines in sections %}
<h2>{{ name }}</h2>
<ul>
{% for line in lines %}<li>{% include "parts" %}</li>
{% endfor %}
</ul>
{% endfor %}
{% for heading, body in editions %}
<section class="edition"><h2>{{ heading }}</h2>
{{ body }}
</section>
{% endfor %}
{% endif %}
{% endblock %}
"""

_PARTS = "{% for t, ident in line %}{% if ident %}<code>{{ t }}</code>{% else %}{{ t }}{% endif %}{% endfor %}"


def html(diff: RulebookDiff) -> str:
    from jinja2 import ChoiceLoader, DictLoader

    from . import render_html as H
    from .present import side_name

    env = H.ENV.overlay(loader=ChoiceLoader([DictLoader({"whole": _WHOLE, "parts": _PARTS}), H.LOADER]))
    alerts = [tuple(a.parts) + tuple(_explanation(a)) for a in diff.alerts]
    editions = [(f"Rulebook changes: {side_name(e.diffed.old)} → {side_name(e.diffed.new)}", H.body(e.diffed))
                for e in detailed(diff)]
    return env.get_template("whole").render(
        title=f"Rulebook changes: {diff.old.spec} → {diff.new.spec}", style=H.STYLE, empty=diff.empty,
        summary=summary(diff), alerts=alerts, sections=sections(diff), editions=editions)


def _explanation(alert: Alert) -> list[Part]:
    from .whole import explanation

    return [] if alert.explained is None else explanation(alert.explained)
