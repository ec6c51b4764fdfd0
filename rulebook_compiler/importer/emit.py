"""Imported terms as term files (docs/format.md): YAML written the same way every time."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import yaml

#: A clause's text longer than this is folded over lines (">-"), as hand-written term files are.
_FOLD = 72


@dataclass(frozen=True)
class Clause:
    id: str
    text: str
    number: str | None = None
    lineage: tuple[str, Any] | None = None  # ('formerly', 'step-2') ... proposed, for an editor to confirm
    editor_notes: str | None = None
    printed: str | None = None  # the number printed (in the text or not), for matching; not written
    line: int = 0  # where the clause starts in the source, for messages; not written
    kind: str = "paragraph"  # the block it comes from: paragraph, bullet, step, rule


@dataclass(frozen=True)
class Section:
    key: str
    kind: str
    title: str | None
    clauses: tuple[Clause, ...]


@dataclass(frozen=True)
class Term:
    id: str
    name: str
    updated: dict | None
    released: dict | None
    editor_notes: str | None
    sections: tuple[Section, ...]
    line: int = 0  # the entry's heading in the source
    withdrawn: bool = False  # a withdrawal: only id and editor_notes are written
    lines: tuple[int, int] = (0, 0)  # the first and last line of the entry, for the sources map; not written

    @property
    def clauses(self) -> tuple[Clause, ...]:
        return tuple(c for s in self.sections for c in s.clauses)


class _Dumper(yaml.SafeDumper):
    """Block style, long texts folded; PyYAML falls back to quoting wherever folding would change a text."""


def _str(dumper: yaml.SafeDumper, value: str):
    style = ">" if len(value) > _FOLD and value == value.strip() and "\n" not in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _str)


def term_data(term: Term) -> dict:
    if term.withdrawn:
        return {"id": term.id, "withdrawn": True, "editor_notes": term.editor_notes}
    data: dict[str, Any] = {"id": term.id, "name": term.name}
    if term.updated:
        data["updated"] = term.updated
    if term.released:
        data["released"] = term.released
    if term.editor_notes:
        data["editor_notes"] = term.editor_notes
    data["sections"] = [_section(s) for s in term.sections]
    return data


def _section(section: Section) -> dict:
    return {"key": section.key, "kind": section.kind, "title": section.title,
            "clauses": [_clause(c) for c in section.clauses]}


def _clause(clause: Clause) -> dict:
    data: dict[str, Any] = {"id": clause.id}
    if clause.number is not None:
        data["number"] = clause.number
    data["text"] = clause.text
    if clause.lineage is not None:
        data[clause.lineage[0]] = clause.lineage[1]
    if clause.editor_notes:
        data["editor_notes"] = clause.editor_notes
    return data


def term_yaml(term: Term) -> str:
    return yaml.dump(term_data(term), Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=80,
                     default_flow_style=False)
