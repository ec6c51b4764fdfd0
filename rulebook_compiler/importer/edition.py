"""An import on top as the next edition: the files it writes (and those it does not), and its rulebook.yaml entry.

An edition's folder holds what changes (docs/format.md): a term the document
prints as the previous edition has it carries over and is not written (its
meaning, notes and links with it); a term the previous edition has and the
document does not is withdrawn (a decision, whose default is the withdrawal):
nothing carries over silently. Where each entry is in the document goes to
one sources map per edition (``_sources.yaml``), not into the terms, so that
a term file differs from the previous edition's only where the term does.
"""

from __future__ import annotations

import json
from typing import Sequence

import yaml

from ..model import Dated, Edition, Term as OldTerm
from ..rulebook_files import SOURCES_MAP_FILE
from .emit import Term
from .match import Decision

#: The edition's sources map, beside its term files.
SOURCES_MAP = SOURCES_MAP_FILE


def withdraw_missing(terms: Sequence[Term], previous: Edition) -> tuple[list[Term], list[Decision]]:
    """A withdrawal for each term of ``previous`` that the import has neither imported nor withdrawn."""
    present = {t.id for t in terms}
    out, decisions = list(terms), []
    for old in previous.terms:
        if old.id not in present:
            note = f"term '{old.id}' of edition '{previous.id}' is not in the document"
            decisions.append(Decision(0, old.id, note + ": withdrawn?", "withdrawn"))
            out.append(Term(old.id, old.name, None, None, note, (), 0, withdrawn=True))
    return out, decisions


def split_unchanged(terms: Sequence[Term], previous: Edition) -> tuple[list[Term], list[Term]]:
    """(the terms to write, the terms the document prints as ``previous`` has them: they carry over)."""
    written: list[Term] = []
    carried: list[Term] = []
    for term in terms:
        old = previous.term_by_id.get(term.id)
        (carried if old is not None and not term.withdrawn and same_term(term, old) else written).append(term)
    return written, carried


def same_term(new: Term, old: OldTerm) -> bool:
    """Whether the imported term prints what the old one does, under the same ids, and proposes no lineage."""
    if (new.name, _dated(new.updated), _dated(new.released)) != (old.name, _old_dated(old.updated),
                                                                  _old_dated(old.released)):
        return False
    if [(s.key, s.kind, s.title, len(s.clauses)) for s in new.sections] != \
            [(s.key, s.kind, s.title, len(s.clauses)) for s in old.sections]:
        return False
    return all(c.lineage is None and (c.id, c.text, c.number) == (o.id, o.text, o.number)
               for c, o in zip(new.clauses, old.clauses))


def _dated(printed: dict | None) -> tuple[str | None, str] | None:
    return None if printed is None else (printed.get("date"), printed["version"])


def _old_dated(printed: Dated | None) -> tuple[str | None, str] | None:
    return None if printed is None else (printed.date, printed.version)


def sources_map(terms: Sequence[Term], source_name: str, layout: str) -> str:
    """Where each imported entry is in the document, by term id (the withdrawn are not in it)."""
    data = {"source": source_name, "layout": layout,
            "terms": {t.id: f"{t.lines[0]}-{t.lines[1]}" for t in sorted(terms, key=lambda t: t.id)
                      if not t.withdrawn}}
    return ("# Where each entry of the document is (rulebook import; editor data, which check does not read).\n"
            + yaml.safe_dump(data, sort_keys=False, allow_unicode=True, default_flow_style=False, width=10_000))


def edition_entry(edition_id: str, source_name: str, source_rel: str | None, indent: str = "  ") -> str:
    """The edition's item in rulebook.yaml's editions, on one line (JSON strings are YAML's double-quoted)."""
    sources = f", sources: [{json.dumps(source_rel)}]" if source_rel is not None else ""
    return (f"{indent}- {{id: {json.dumps(edition_id)}, title: {json.dumps('Imported from ' + source_name)}, "
            f"date: null, status: draft{sources}}}")


def add_edition(text: str, entry: str) -> str | None:
    """``text`` (a rulebook.yaml) with ``entry`` after the last item of its block list of editions, every other
    byte as it was; None when the editions are not a block list with an item (the lines are printed instead)."""
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError:
        return None
    if not isinstance(root, yaml.MappingNode):
        return None
    editions = next((v for k, v in root.value if isinstance(k, yaml.ScalarNode) and k.value == "editions"), None)
    if not isinstance(editions, yaml.SequenceNode) or editions.flow_style or not editions.value:
        return None
    end = _last_scalar(editions.value[-1]).end_mark  # a collection's end mark is past the comments after it
    # after the line the last item ends on (a block scalar ends at the start of the line after it)
    at = end.index if end.column == 0 else _line_end(text, end.index)
    line = entry.lstrip(" ")
    prefix = "" if at == 0 or text[at - 1] == "\n" else "\n"
    edited = text[:at] + prefix + _item_indent(text, editions) + line + "\n" + text[at:]
    return edited if _reads_as_one_more(text, edited, line) else None


def _reads_as_one_more(text: str, edited: str, line: str) -> bool:
    """The edit proved before it is written: the edited file reads as the old one with
    the entry after its last edition, every scalar as its text (BaseLoader, as the project's loader reads)."""
    try:
        before, after = yaml.load(text, Loader=yaml.BaseLoader), yaml.load(edited, Loader=yaml.BaseLoader)
        added = yaml.load(line, Loader=yaml.BaseLoader)
    except yaml.YAMLError:
        return False
    return (isinstance(before, dict) and isinstance(added, list)
            and after == {**before, "editions": [*before["editions"], *added]})


def _last_scalar(node: yaml.Node) -> yaml.Node:
    while isinstance(node, (yaml.MappingNode, yaml.SequenceNode)) and node.value:
        last = node.value[-1]
        node = last[1] if isinstance(node, yaml.MappingNode) else last
    return node


def _line_end(text: str, index: int) -> int:
    newline = text.find("\n", index)
    return len(text) if newline < 0 else newline + 1


def _item_indent(text: str, editions: yaml.SequenceNode) -> str:
    """The spaces before the first item's dash."""
    first = editions.value[0].start_mark
    start = text.rfind("\n", 0, first.index) + 1
    dash = text.find("-", start)
    return " " * (dash - start) if 0 <= dash - start <= first.column else ""
