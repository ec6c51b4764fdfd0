"""The diff as a standalone HTML page; every piece of rule text is escaped."""

from __future__ import annotations

from html import escape

from .engine import Change, DiffResult
from .present import answer, by_term, clause_name, details, location, side_name, situation
from .redline import ops_html

STYLE = """
body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}
table{border-collapse:collapse;margin:.5rem 0}td,th{border:1px solid #ccc;padding:.2rem .5rem;text-align:left}
del{background:#fdd;color:#900}ins{background:#dfd;color:#060;text-decoration:none}
.kind{font-variant:small-caps;font-weight:bold}.loc,.fp{color:#666;font-size:.85em}
blockquote{border-left:4px solid #ccc;margin:.5rem 0;padding:.2rem .8rem;white-space:pre-wrap}
.drift{color:#a60}article{margin:1.2rem 0;border-top:1px solid #eee;padding-top:.5rem}
"""


def render(result: DiffResult) -> str:
    old, new = side_name(result.old), side_name(result.new)
    title = f"Rulebook changes: {old} → {new}"
    body = [f"<h1>{escape(title)}</h1>"]
    if result.empty:
        body.append("<p>No changes.</p>")
    else:
        rows = "".join(f"<tr><td>{escape(k)}</td><td>{n}</td></tr>" for k, n in result.summary.items() if n)
        body.append(f"<table class=\"summary\"><tr><th>kind</th><th>changes</th></tr>{rows}"
                    f"<tr><th>total</th><th>{len(result.changes)}</th></tr></table>")
        for term, changes in by_term(result):
            body.append(f"<section><h2 id=\"term-{escape(term)}\">{escape(term)}</h2>")
            body.extend(change_html(c, old, new) for c in changes)
            body.append("</section>")
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"<title>{escape(title)}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n"
            + "\n".join(body) + "\n</body>\n</html>\n")


def change_html(change: Change, old: str, new: str) -> str:
    """One change as an ``<article>`` (the site may embed it)."""
    out = [f"<article id=\"c-{escape(change.fingerprint)}\" class=\"change {escape(change.kind)}\">",
           f"<h3><span class=\"kind\">{escape(change.kind)}</span> <code>{escape(clause_name(change))}</code></h3>"]
    locs = []
    if change.old_location:
        locs.append(f"{escape(old)}: {escape(location(change.old_location))}")
    if change.new_location:
        locs.append(f"{escape(new)}: {escape(location(change.new_location))}")
    out.append(f"<p class=\"loc\">{' · '.join(locs)} · <span class=\"fp\">{escape(change.fingerprint)}</span></p>")
    out.extend(f"<p class=\"loc\"><em>{escape(note)}</em></p>" for note in details(change))
    out.append(f"<blockquote class=\"redline\">{ops_html(change.redline)}</blockquote>")
    for b in change.behaviours:
        more = "" if b.exhaustive else f" (checked {b.checked} situations, not all)"
        out.append(f"<p>Behaviour of <code>{escape(b.name)}</code>: <strong>{escape(b.direction)}</strong>"
                   f"{escape(more)}</p>")
        if b.witnesses:
            rows = "".join(
                f"<tr><td>{escape(situation(dict(w.facts)))}</td><td>{escape(answer(w.old))}</td>"
                f"<td>{escape(answer(w.new))}</td><td>{escape(', '.join(w.old_clauses) or 'no rule')} → "
                f"{escape(', '.join(w.new_clauses) or 'no rule')}</td></tr>" for w in b.witnesses)
            out.append(f"<table><tr><th>situation</th><th>{escape(old)}</th><th>{escape(new)}</th>"
                       f"<th>decided by</th></tr>{rows}</table>")
    if change.impact:
        uses = ", ".join(f"<code>{escape(u['ref'])}</code> ({escape(u['via'])})" for u in change.impact)
        out.append(f"<p>Used by: {uses}</p>")
    out.extend(f"<p class=\"drift\">Drift: {escape(flag)}</p>" for flag in change.drift)
    out.append("</article>")
    return "\n".join(out)
