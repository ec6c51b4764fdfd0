"""The diff as a standalone HTML page.

Escaping is by construction: the page is a Jinja2 template with autoescape on,
so every value placed in it (rule text, ids, file names, side names) is
escaped, quotes included, in text and in attributes alike. The redline too is
a template (``redline_markup``): its runs are values, never pasted markup.
Before escaping, every value is shown as the terminal shows it (``shown``):
a browser obeys bidi controls too, and would show the reviewer a reordered text.
"""

from __future__ import annotations

from jinja2 import DictLoader, Environment, StrictUndefined
from markupsafe import Markup

from ..diagnostics import printable
from .behaviour import transition_words
from .result import Change, DiffResult
from . import names as N
from .present import (by_term, clause_name, deciders, details, introduced, location, outcome, renumbered_line,
                      side_name, situation, unknown_note, use_words)
from . import inside
from . import rulings as R
from .redline import DELETE, INSERT, Redline

STYLE = Markup("""
body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}
table{border-collapse:collapse;margin:.5rem 0}td,th{border:1px solid #ccc;padding:.2rem .5rem;text-align:left}
del{background:#fdd;color:#900}ins{background:#dfd;color:#060;text-decoration:none}
.kind{font-variant:small-caps;font-weight:bold}.loc,.fp{color:#666;font-size:.85em}
blockquote{border-left:4px solid #ccc;margin:.5rem 0;padding:.2rem .8rem;white-space:pre-wrap}
.drift{color:#a60}.inside li{white-space:pre-wrap}article{margin:1.2rem 0;border-top:1px solid #eee;padding-top:.5rem}
""")

_LAYOUT = """\
<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{{ title }}</title>
<style>{{ style }}</style>
</head>
<body>
<h1>{{ title }}</h1>
{% block body %}{% endblock %}
</body>
</html>
"""

_DIFF = """\
{% extends "layout" %}
{% block body %}
{% include "diff_body" %}
{% endblock %}
"""

# A diff's body: also one section of a whole-rulebook page (rulebook_compiler.diff.render_whole).
_DIFF_BODY = """\
{% if not groups and not vocabulary and not rulings %}
<p>No changes.</p>
{% else %}
<table class="summary"><tr><th>kind</th><th>changes</th></tr>
{%- for kind, n in summary %}<tr><td>{{ kind }}</td><td>{{ n }}</td></tr>{% endfor -%}
<tr><th>total</th><th>{{ total }}</th></tr></table>
{% if renumbered %}<p class="renumbered">{{ renumbered }}</p>{% endif %}
{% if rulings %}
<h2 id="rulings">Rulings</h2>
<p>{{ rulings_count }}</p>
<ul class="rulings">{% for line in rulings %}<li>{{ line }}</li>{% endfor %}</ul>
{% endif %}
{% if names %}
<h2 id="names">Decisions, predicates and constraints</h2>
{% for name in names %}
{{ name }}
{% endfor %}
{% endif %}
{% if vocabulary %}
<h2>Vocabulary</h2>
<ul>{% for line in vocabulary %}<li>{{ line }}</li>{% endfor %}</ul>
{% endif %}
{% for term, articles in groups %}
<section><h2 id="term-{{ term }}">{{ term }}</h2>
{% for article in articles %}
{{ article }}
{% endfor %}
</section>
{% endfor %}
{% endif %}
"""

# One page for a term's history: a section for each edition that changed it.
_HISTORY = """\
{% extends "layout" %}
{% block body %}
{% for heading, articles in steps %}
<section><h2>{{ heading }}</h2>
{% for article in articles %}
{{ article }}
{% endfor %}
</section>
{% endfor %}
{% endblock %}
"""

_CHANGE = """\
<article id="c-{{ c.fingerprint }}" class="change {{ c.kind }}">
<h3><span class="kind">{{ c.kind }}</span> {% if c.number %}<span class="number">{{ c.number }}</span> {% endif %}<code>{{ name }}</code></h3>
<p class="loc">{% for side, where in locations %}{{ side }}: {{ where }} · {% endfor -%}
<span class="fp">{{ c.fingerprint }}</span></p>
{% for note in notes %}
<p class="loc"><em>{{ note }}</em></p>
{% endfor %}
{% if not long %}
<blockquote class="redline">{{ redline }}</blockquote>
{% endif %}
{{ inside }}
{% for b in c.behaviours %}
{% if b in listed %}
<p>Behaviour of <code>{{ b.name }}</code>: <strong>{{ b.extent() }}</strong> (see <a href="#names">the decisions</a>)</p>
{% else %}
<p>Behaviour of <code>{{ b.name }}</code>: <strong>{{ b.extent() }}</strong></p>
{% include "behaviour" %}
{% endif %}
{% endfor %}
{% for r in c.names if r.status != "changed" %}
<p>{{ r.kind }} <code>{{ r.name }}</code> {{ r.status }} (see <a href="#names">the decisions</a>)</p>
{% endfor %}
{% if breaks(c.conformance) %}<p class="breaks"><strong>{{ breaks(c.conformance) }}</strong></p>{% endif %}
{% if c.impact %}
<p>Used by: {% for u in c.impact %}<code>{{ u.ref }}</code> ({{ use_words(u) }}){% if not loop.last %}, {% endif %}{% endfor %}</p>
{% endif %}
{% for flag in c.drift %}
<p class="drift">Drift: {{ flag }}</p>
{% endfor %}
</article>"""

# A behaviour's transitions and witnesses (``b``).
_BEHAVIOUR = """\
{% if b.transitions %}
<ul>
{%- for head, parts in transitions(b) %}
<li>{{ head }}:{% if parts | length == 1 %} {{ parts[0] }}{% else %}<ul>{% for p in parts %}<li>{{ p }}</li>{% endfor %}</ul>{% endif %}</li>
{%- endfor %}
</ul>
{% endif %}
{% if b.witnesses %}
<table><tr><th>situation</th><th>{{ old }}</th><th>{{ new }}</th><th>decided by</th></tr>
{%- for w in b.witnesses -%}
<tr><td>{{ situation(w.facts) }}{% if unknown(w) %} <em>({{ unknown(w) }})</em>{% endif %}</td><td>{{ outcome(w.old, w.old_reason) }}</td><td>{{ outcome(w.new, w.new_reason) }}</td>
{#- #}<td>{{ deciders(w) }}</td></tr>
{%- endfor %}</table>
{% endif %}
"""

# A decision, predicate or constraint (``n``), listed once: what it answers, or how its answers changed.
_NAME = """\
<article id="name-{{ n.kind }}-{{ n.name }}" class="name {{ n.status }}">
<h3><span class="kind">{{ n.status }}</span> {{ n.kind }} <code>{{ n.name }}</code>{% if n.term %} ({{ n.term }}){% endif %}</h3>
{% if n.meaning %}<p>{{ n.meaning }}</p>{% endif %}
{% if n.behaviour %}
{% if clauses %}<p>{{ clauses }}</p>{% endif %}
<p><strong>{{ n.behaviour.extent() }}</strong></p>
{% with b = n.behaviour %}{% include "behaviour" %}{% endwith %}
{% for part in through %}<p>{% for words, names in part %}{% if not loop.first %} {% endif %}{{ words }}{% for x in names %}{% if loop.first %} {% endif %}<code>{{ x }}</code>{% if not loop.last %}, {% endif %}{% endfor %}{% endfor %}</p>{% endfor %}
{% else %}
{% if clauses %}<p>{{ clauses }}</p>{% endif %}
{% if words %}
<ul>
{%- for head, parts in words %}
<li>{{ head }}{% if parts | length == 1 %}: {{ parts[0] }}{% elif parts %}:<ul>{% for p in parts %}<li>{{ p }}</li>{% endfor %}</ul>{% endif %}</li>
{%- endfor %}
</ul>
{% endif %}
{% endif %}
{% if n.changes %}<p>{{ changed_by }}</p>{% endif %}
{% if breaks(n.conformance) %}<p class="breaks"><strong>{{ breaks(n.conformance) }}</strong></p>{% endif %}
</article>"""

# A redline's runs, each escaped; the note says when the comparison was coarse.
_REDLINE = (
    "{% for op in line.ops %}{% if op.op == DELETE %}<del>{{ op.text }}</del>"
    "{% elif op.op == INSERT %}<ins>{{ op.text }}</ins>{% else %}{{ op.text }}{% endif %}{% endfor %}"
    '{% if line.coarse %} <small class="redline-coarse">({{ line.coarse }})</small>{% endif %}')

# What changed inside a clause (rulebook_compiler.diff.inside): a count, then each changed item or sentence.
_INSIDE = """\
{% if subs %}
<div class="inside"><p>Inside the clause{% if note %} ({{ note }}){% endif %}: {{ counts }}</p>
{% if lines %}
<ul>
{% for label, line in lines %}
<li>{{ label }}: {{ line }}</li>
{% endfor %}
</ul>
{% endif %}
</div>
{% endif %}"""


def shown(value):
    """Each value a template prints: its text with what a browser obeys shown escaped (Markup is already
    HTML). Whatever it is: a value the template writes as its ``str`` (a drift flag, ``flags.Flag``)
    is text too."""
    if isinstance(value, Markup):
        return value
    return printable(str(value), "\n\t")  # the blockquote keeps the text's lines and tabs


LOADER = DictLoader({"layout": _LAYOUT, "diff": _DIFF, "diff_body": _DIFF_BODY, "history": _HISTORY,
                      "change": _CHANGE, "redline": _REDLINE, "behaviour": _BEHAVIOUR, "name": _NAME,
                      "inside": _INSIDE})
ENV = Environment(loader=LOADER,
                   finalize=shown, autoescape=True, undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                   keep_trailing_newline=True)


def render(result: DiffResult) -> str:
    old, new = side_name(result.old), side_name(result.new)
    return ENV.get_template("diff").render(title=f"Rulebook changes: {old} → {new}", style=STYLE,
                                            **_body_values(result))


def body(result: DiffResult) -> Markup:
    """The diff's page without its frame: a section of another page."""
    return Markup(ENV.get_template("diff_body").render(**_body_values(result)))


def _body_values(result: DiffResult) -> dict:
    old, new = side_name(result.old), side_name(result.new)
    listed = {n.behaviour for n in result.names if n.behaviour is not None}
    groups = [(term, [change_html(c, old, new, listed) for c in changes]) for term, changes in by_term(result)]
    return dict(groups=groups, summary=[(k, n) for k, n in result.summary.items() if n],
                total=len(result.changes), vocabulary=result.vocabulary.lines(),
                renumbered=renumbered_line(result),
                rulings=_ruling_items(result.rulings) if result.rulings.any else [],
                rulings_count=R.count_line(result.rulings),
                names=[name_html(n, old, new) for n in result.names])


def _ruling_items(rulings: R.RulingsDiff) -> list[str]:
    """One item per ruling listed (a flip's answers joined to its question)."""
    items: list[str] = []
    for line in R.text_lines(rulings):
        if line.startswith("  ") and items:
            items[-1] += " — " + line.strip()
        else:
            items.append(line)
    return items


def name_html(name: N.NameChange, old: str, new: str) -> Markup:
    """A decision, predicate or constraint, listed once (``rulebook_compiler.diff.names``)."""
    return Markup(ENV.get_template("name").render(
        n=name, clauses=N.clauses_words(name), words=N.words(name) if name.behaviour is None else [],
        through=N.through(name),
        changed_by=N.changed_by(name), **_behaviour_helpers(old, new)))


def _behaviour_helpers(old: str, new: str) -> dict:
    from .conformance_impact import words as breaks

    return dict(old=old, new=new, breaks=breaks, situation=lambda facts: situation(dict(facts)), unknown=unknown_note,
                outcome=outcome, deciders=deciders, transitions=lambda b: [transition_words(t, "→") for t in b.transitions])


def render_history(term: str, steps: list[DiffResult]) -> str:
    """A term's history (``history.term_history``) as one page."""
    sections = []
    for step in steps:
        old, new = side_name(step.old), side_name(step.new)
        first = introduced(step)
        sections.append((f"Introduced in {first}" if first else f"{old} → {new}",
                         [change_html(c, old, new) for c in step.changes]))
    return ENV.get_template("history").render(title=f"History of {term}", style=STYLE, steps=sections)


def change_html(change: Change, old: str, new: str, listed: frozenset | set = frozenset()) -> Markup:
    """One change as an ``<article>`` (the site may embed it); ``listed``: the decisions' whole
    behaviours shown in the page's list of decisions, which the change refers to."""
    shown = inside.view(change)
    locations = [(side, location(loc)) for side, loc in ((old, change.old_location), (new, change.new_location))
                 if loc]
    return Markup(ENV.get_template("change").render(
        c=change, name=clause_name(change), locations=locations, notes=details(change),
        redline=redline_markup(change.redline), use_words=use_words, listed=listed,
        long=bool(shown and shown.long), inside=inside_markup(shown), **_behaviour_helpers(old, new)))


def inside_markup(shown: inside.View | None) -> Markup:
    """The changed items and sentences of a clause (``inside.view``), each redline a template of its own."""
    return Markup(ENV.get_template("inside").render(
        subs=shown is not None, note=shown.note if shown else None, counts=shown.counts if shown else "",
        lines=[(label, redline_markup(line)) for label, line in shown.lines] if shown else []))


def redline_markup(line: Redline) -> Markup:
    """A computed redline as HTML: deletions in ``<del>``, insertions in ``<ins>``."""
    return Markup(ENV.get_template("redline").render(line=line, DELETE=DELETE, INSERT=INSERT))
