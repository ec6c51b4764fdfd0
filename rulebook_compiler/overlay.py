"""Clause-level overlays: a term file that patches the term as the previous edition resolved it.

A patch file gives ``patch:``, a list of operations, instead of ``sections:``.
The operations apply in order (as JSON Patch's do) to the term as the previous
edition resolved it, and name what they change by its own key (as a strategic
merge patch does): a clause by its id, a section by its key. ``set`` changes
some keys of a clause and keeps the others; null removes a key (as JSON Merge
Patch). Any other key the file gives (name, aliases, notes, decisions...)
replaces the previous edition's, and null removes it.

The result is the term file the patch stands for, a ``Stitched`` document whose
every value reports the place that wrote it: the patch, or the earlier file it
was kept from. The builder reads it as it reads a file written whole, so a
patched term has the same model, checks and digest as that file would give,
and its problems point at the line that caused them.

A clause kept from the previous edition leaves its lineage keys behind (they
said what it was before that edition); the clauses a patch writes declare
theirs for the patch's edition.

A patch with any problem gives no term: every problem is reported, and the
term stays as the previous edition has it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from .diagnostics import Diagnostic, Location, did_you_mean
from .model import LINEAGE_KINDS
from .yamlsource import Document

PATCH_KEY = "patch"
#: Operations in one patch. A real one has a handful; each costs up to the length of its
#: section, so this keeps a hostile patch of a huge term bounded (bench/hostile.py long-patch).
MAX_PATCH_OPERATIONS = 1000
CLAUSE_OPS = ("change", "replace", "add", "remove", "move")
SECTION_OPS = ("add_section", "remove_section", "change_section", "move_section")
OPERATIONS = CLAUSE_OPS + SECTION_OPS
_CLAUSE_PLACES = ("before", "after", "section")
_SECTION_PLACES = ("before", "after")
#: What each operation takes besides its own key.
TAKES: dict[str, tuple[str, ...]] = {
    "change": ("set", *_CLAUSE_PLACES), "replace": ("with", *_CLAUSE_PLACES), "add": _CLAUSE_PLACES,
    "remove": (), "move": _CLAUSE_PLACES, "add_section": _SECTION_PLACES, "remove_section": (),
    "change_section": ("title", "kind"), "move_section": _SECTION_PLACES,
}
_OPERATION_KEYS = frozenset(OPERATIONS) | {k for ks in TAKES.values() for k in ks}
_NEEDS_PLACE = frozenset({"add", "move", "move_section"})
_DONE = {"change": "changed", "replace": "replaced", "add": "added", "remove": "removed", "move": "moved",
         "add_section": "added", "remove_section": "removed", "change_section": "changed",
         "move_section": "moved"}

Place = tuple[Document, tuple]  # a document and a path into it


def is_patch(data: Any) -> bool:
    """Whether a term file's data is a patch rather than a whole term."""
    return isinstance(data, dict) and PATCH_KEY in data


class Stitched(Document):
    """The term file a patch stands for: data no one wrote, each value at the place that wrote it.

    ``places`` maps paths of this document to places in others; a path is found
    at its longest placed prefix, so a clause kept whole needs one entry and a
    clause changed by ``set`` one more per key set.
    """

    def __init__(self, path: str, data: Any, places: dict[tuple, Place]):
        super().__init__(path, data)
        self._places = places

    @cached_property
    def bases(self) -> tuple[str, ...]:
        """The files besides this patch that its values come from, sorted."""
        docs = {id(doc): doc for doc, _ in self._places.values()}  # each once: a chain of patches stays linear
        found: set[str] = set()
        for doc in docs.values():
            found.add(doc.path)
            found.update(doc.bases if isinstance(doc, Stitched) else ())
        found.discard(self.path)
        return tuple(sorted(found))

    def at(self, path: tuple = ()) -> Location:
        doc, where = _place(self._places, tuple(path))
        return doc.at(where)

    def key_at(self, path: tuple) -> Location:
        doc, where = _place(self._places, tuple(path))
        return doc.key_at(where)


def bases(doc: Document) -> tuple[Location, ...]:
    """Where the earlier files that a term file's values come from start; () for a file written whole."""
    return tuple(Location(path, 1, 1) for path in doc.bases) if isinstance(doc, Stitched) else ()


def apply(base: Document, patch: Document, previous: str,
          head_keys: frozenset[str]) -> tuple[Stitched | None, list[Diagnostic]]:
    """The term ``patch`` makes of ``base`` (the term as edition ``previous`` resolved it),
    or None and every problem. ``head_keys``: the keys besides ``patch`` that a patch may replace."""
    return _Patcher(base, patch, previous).run(head_keys)


@dataclass(eq=False)  # compared by identity: list.index finds it without comparing fields
class _Clause:
    raw: dict
    places: dict[tuple, Place]  # paths inside the clause -> where they were written; () always

    @property
    def id(self) -> Any:
        return self.raw.get("id")


@dataclass(eq=False)
class _Section:
    fields: dict  # the section's keys but 'clauses'
    places: dict[tuple, Place]
    clauses: list[_Clause]

    @property
    def key(self) -> Any:
        return self.fields.get("key")


def _place(places: dict[tuple, Place], rel: tuple) -> Place:
    """Where ``rel`` stands, from the places of its longest placed prefix."""
    for k in range(len(rel), -1, -1):
        hit = places.get(rel[:k])
        if hit is not None:
            return hit[0], hit[1] + rel[k:]
    raise KeyError(rel)  # pragma: no cover - () is always placed


def _section(doc: Document, path: tuple, raw: dict, clause: Any) -> _Section:
    """A section as ``raw`` at ``path`` of ``doc`` gives it, each clause as ``clause`` makes it."""
    fields = {k: v for k, v in raw.items() if k != "clauses"}
    places: dict[tuple, Place] = {(): (doc, path)}
    places.update({(k,): (doc, path + (k,)) for k in fields})
    clauses = [_Clause(clause(c), {(): (doc, path + ("clauses", j))}) for j, c in enumerate(raw.get("clauses") or [])]
    return _Section(fields, places, clauses)


def _restand(old: _Clause, patch: Document, path: tuple, changed: dict) -> dict[tuple, Place]:
    """The places of a clause that the operation at ``path`` changes or moves: the clause now stands
    there (where a diff or a problem of the whole clause points); the keys it keeps, where they were."""
    places: dict[tuple, Place] = {(): (patch, path)}
    places.update({(k,): _place(old.places, (k,)) for k in old.raw if k not in changed})
    places.update({rel: p for rel, p in old.places.items() if rel and rel[0] not in changed})
    return places


def _without_lineage(raw: dict) -> dict:
    """A clause kept from an earlier edition: its lineage said what it was before that edition,
    and is not news in this one (a whole file that copies the clause leaves it out too)."""
    if not any(k in raw for k in LINEAGE_KINDS):
        return raw
    return {k: v for k, v in raw.items() if k not in LINEAGE_KINDS}


class _Patcher:
    def __init__(self, base: Document, patch: Document, previous: str):
        self.patch = patch
        self.previous = previous
        self.tid = patch.data["id"]
        self.problems: list[Diagnostic] = []
        self.top: dict[str, tuple[Any, Place]] = {
            k: (v, (base, (k,))) for k, v in base.data.items() if k != "sections"}
        self.sections = [_section(base, ("sections", i), s, _without_lineage)
                         for i, s in enumerate(base.data.get("sections") or [])]
        # Where each clause and section is, so that an operation finds its target in one step.
        self.index: dict[Any, tuple[_Section, _Clause]] = {}
        self.section_index: dict[Any, _Section] = {}
        for section in reversed(self.sections):  # the first of a repeated key or id wins, as a whole file reads
            self.enter(section)
        self.done: dict[str, tuple[str, int]] = {}  # clause id -> (what this patch did to it, line)
        self.done_sections: dict[str, tuple[str, int]] = {}
        self.removed: dict[str, tuple[tuple, str]] = {}  # clause id -> (where it went, 'removed' or 'renamed')

    def error(self, loc: Location, message: str, hint: str | None = None) -> None:
        self.problems.append(Diagnostic(loc, message, hint))

    def enter(self, section: _Section) -> None:
        self.section_index[section.key] = section
        for clause in reversed(section.clauses):
            self.index[clause.id] = (section, clause)

    def run(self, head_keys: frozenset[str]) -> tuple[Stitched | None, list[Diagnostic]]:
        data = self.patch.data
        head = [k for k in data if k in head_keys]
        for key in head:
            if data[key] is None:
                self.top.pop(key, None)
            else:
                self.top[key] = (data[key], (self.patch, (key,)))
        self.top["id"] = (self.tid, (self.patch, ("id",)))
        operations = data[PATCH_KEY]
        if len(operations) > MAX_PATCH_OPERATIONS:
            self.error(self.patch.key_at((PATCH_KEY,)),
                       f"a patch of {len(operations):,} operations is over the limit of {MAX_PATCH_OPERATIONS:,}",
                       f"write the term whole instead; the limit is MAX_PATCH_OPERATIONS = {MAX_PATCH_OPERATIONS} "
                       "in rulebook_compiler/overlay.py (docs/format.md, Limits)")
            return None, self.problems
        if not operations and not head:
            self.error(self.patch.key_at((PATCH_KEY,)), "the patch changes nothing",
                       f"give operations under '{PATCH_KEY}', or remove this file to keep term "
                       f"'{self.tid}' as edition '{self.previous}' has it")
        for i, op in enumerate(operations):
            self.operation((PATCH_KEY, i), op)
        self.check_references()
        if self.problems:
            return None, self.problems
        return self.stitch(), []

    # -- one operation ----------------------------------------------------------------

    def operation(self, path: tuple, op: dict) -> None:
        kind = self._kind(path, op)
        if kind is None:
            return
        places = self._places(path, op, kind)
        if places is None:
            return
        if kind in _NEEDS_PLACE and not places:
            self.error(self.patch.at(path), f"'{kind}' needs a place: "
                       + ("'before', 'after' or 'section'" if kind in CLAUSE_OPS else "'before' or 'after'"))
            return
        getattr(self, "_" + kind)(path, op, places[0] if places else None)

    def _kind(self, path: tuple, op: dict) -> str | None:
        """The operation's one kind ('change', 'add', ...); None, said, when it has none or several (a
        misspelt one the schema has said)."""
        kinds = [k for k in OPERATIONS if k in op]
        if not kinds and any(k not in _OPERATION_KEYS for k in op):
            return None  # a misspelt operation: the schema has said so, with the key it meant
        if len(kinds) != 1:
            self.error(self.patch.at(path), "an operation has exactly one of "
                       + ", ".join(f"'{k}'" for k in OPERATIONS) + "; this one has "
                       + (" and ".join(f"'{k}'" for k in kinds) if kinds else "none"))
            return None
        return kinds[0]

    def _places(self, path: tuple, op: dict, kind: str) -> list[str] | None:
        """The place keys the operation gives ('before', 'after', 'section'), at most one; None, said,
        when it gives a key its kind does not take or two places."""
        takes = TAKES[kind]
        extra = [k for k in op if k != kind and k in _OPERATION_KEYS and k not in takes]
        for key in extra:
            self.error(self.patch.key_at(path + (key,)), f"'{key}' does not go with '{kind}'",
                       f"'{kind}' takes " + (", ".join(f"'{t}'" for t in takes) if takes else
                                             "only the " + ("section key" if kind in SECTION_OPS else "clause id")))
        places = [k for k in _CLAUSE_PLACES if k in op and k in takes]
        if len(places) > 1:
            self.error(self.patch.key_at(path + (places[1],)),
                       f"an operation goes to one place; this one has '{places[0]}' and '{places[1]}'")
        return None if extra or len(places) > 1 else places

    def line(self, path: tuple) -> int:
        return self.patch.at(path).line

    def _change(self, path: tuple, op: dict, where: str | None) -> None:
        cid = op["change"]
        found = self.target(path, "change")
        changes = op.get("set")
        if not changes:
            self.error(self.patch.at(path + ("set",)) if "set" in op else self.patch.at(path),
                       "'set' changes nothing" if "set" in op else "'change' needs 'set': the keys of the clause to change",
                       "give the keys to change under 'set'; null removes one")
            return
        if found is None:  # (the schema keeps 'set' from removing 'id' or 'text')
            return
        section, j = found
        old = section.clauses[j]
        raw = {k: v for k, v in old.raw.items() if k not in changes}
        raw.update({k: v for k, v in changes.items() if v is not None})
        places = _restand(old, self.patch, path, changes)
        places.update({(k,): (self.patch, path + ("set", k)) for k, v in changes.items() if v is not None})
        new = _Clause(raw, places)
        if "text" in changes and "links" not in changes and not self.links_kept(path, raw, places):
            return
        if new.id != cid and not self.free(new.id, self.patch.at(path + ("set", "id"))):
            return
        self.settle(path, op, where, found, new, "change")

    def links_kept(self, path: tuple, raw: dict, places: dict[tuple, Place]) -> bool:
        """Whether the links a changed text keeps still find their phrases; if not, said at the new text
        (the builder would say it at the link, in the earlier edition's file, which is not to change)."""
        ok = True
        for k, link in enumerate(raw.get("links") or []):
            if isinstance(link, dict) and isinstance(link.get("phrase"), str) and link["phrase"] not in raw["text"]:
                doc, where = _place(places, ("links", k))
                self.error(self.patch.at(path + ("set", "text")),
                           f"the new text drops the linked phrase {link['phrase']!r}",
                           f"the link is kept from {doc.at(where)}; give the clause's 'links' under 'set' too")
                ok = False
        return ok

    def _replace(self, path: tuple, op: dict, where: str | None) -> None:
        found = self.target(path, "replace")
        if "with" not in op:
            self.error(self.patch.at(path), "'replace' needs 'with': the clause as it now reads")
            return
        if found is None:
            return
        new = _Clause(op["with"], {(): (self.patch, path + ("with",))})
        if new.id != op["replace"] and not self.free(new.id, self.patch.at(path + ("with", "id"))):
            return
        self.settle(path, op, where, found, new, "replace")

    def _add(self, path: tuple, op: dict, where: str) -> None:
        new = _Clause(op["add"], {(): (self.patch, path + ("add",))})
        if not self.free(new.id, self.patch.at(path + ("add", "id"))):
            return
        spot = self.clause_place(path, op, where, None)
        if spot is None:
            return
        spot[0].clauses.insert(spot[1], new)
        self.index[new.id] = (spot[0], new)
        self.done[new.id] = ("added", self.line(path))

    def _remove(self, path: tuple, op: dict, where: None) -> None:
        found = self.target(path, "remove")
        if found is None:
            return
        section, j = found
        cid = section.clauses.pop(j).id
        del self.index[cid]
        self.done[cid] = ("removed", self.line(path))
        self.removed[cid] = (path + ("remove",), "removed")

    def _move(self, path: tuple, op: dict, where: str) -> None:
        found = self.target(path, "move")
        if found is not None:
            old = found[0].clauses[found[1]]
            self.settle(path, op, where, found, _Clause(old.raw, _restand(old, self.patch, path, {})), "move")

    def _add_section(self, path: tuple, op: dict, where: str | None) -> None:
        raw = op["add_section"]
        key = raw["key"]
        fresh = True
        if any(s.key == key for s in self.sections):
            self.error(self.patch.at(path + ("add_section", "key")), f"term '{self.tid}' already has a section '{key}'",
                       f"to change it, use 'change_section: {key}'")
            fresh = False
        for j, clause in enumerate(raw.get("clauses") or []):
            fresh = self.free(clause["id"], self.patch.at(path + ("add_section", "clauses", j, "id"))) and fresh
        spot = self.section_place(path, op, where, None)
        if spot is None or not fresh:
            return
        section = _section(self.patch, path + ("add_section",), raw, lambda c: c)
        self.sections.insert(spot, section)
        self.enter(section)
        self.done_sections[key] = ("added", self.line(path))
        for clause in section.clauses:
            self.done[clause.id] = ("added", self.line(path))

    def _remove_section(self, path: tuple, op: dict, where: None) -> None:
        section = self.section_target(path, "remove_section")
        if section is None:
            return
        busy = [c.id for c in section.clauses if c.id in self.done]
        for cid in busy:
            what, line = self.done[cid]
            self.error(self.patch.at(path + ("remove_section",)),
                       f"section '{section.key}' holds clause '{cid}', which was {what} by the operation at line {line}",
                       "remove the section, or change its clauses, not both")
        if busy:
            return
        self.sections.remove(section)
        del self.section_index[section.key]
        self.done_sections[section.key] = ("removed", self.line(path))
        for clause in section.clauses:
            self.index.pop(clause.id, None)
            self.done[clause.id] = ("removed", self.line(path))
            self.removed[clause.id] = (path + ("remove_section",), "removed")

    def _change_section(self, path: tuple, op: dict, where: None) -> None:
        section = self.section_target(path, "change_section")
        changes = {k: op[k] for k in TAKES["change_section"] if k in op}
        if not changes:
            self.error(self.patch.at(path), "'change_section' needs 'title' or 'kind'")
            return
        if section is None:
            return
        for key, value in changes.items():
            section.fields.pop(key, None)
            section.places.pop((key,), None)
            if value is not None:
                section.fields[key] = value
                section.places[(key,)] = (self.patch, path + (key,))
        section.places[()] = (self.patch, path)
        self.done_sections[section.key] = ("changed", self.line(path))

    def _move_section(self, path: tuple, op: dict, where: str) -> None:
        section = self.section_target(path, "move_section")
        if section is None:
            return
        index = self.sections.index(section)
        del self.sections[index]
        spot = self.section_place(path, op, where, section.key)
        if spot is None:
            self.sections.insert(index, section)
            return
        self.sections.insert(spot, section)
        self.done_sections[section.key] = ("moved", self.line(path))

    # -- what operations name -------------------------------------------------------------

    def find(self, cid: Any) -> tuple[_Section, int] | None:
        hit = self.index.get(cid)
        return None if hit is None else (hit[0], hit[0].clauses.index(hit[1]))

    def clause_ids(self) -> list[str]:
        return [c.id for s in self.sections for c in s.clauses]

    def unknown_clause(self, loc: Location, cid: str) -> None:
        if cid in self.done and self.done[cid][0] == "removed":
            self.error(loc, f"clause '{cid}' was removed by the operation at line {self.done[cid][1]}")
        else:
            self.error(loc, f"term '{self.tid}' has no clause '{cid}'",
                       did_you_mean(cid, self.clause_ids())
                       or f"the clauses of term '{self.tid}' are listed in the file of edition '{self.previous}'")

    def target(self, path: tuple, kind: str) -> tuple[_Section, int] | None:
        """The clause an operation names, or None and the problem said."""
        cid = self.patch.data[PATCH_KEY][path[1]][kind]
        loc = self.patch.at(path + (kind,))
        if cid in self.done and self.done[cid][0] != "removed":
            what, line = self.done[cid]
            self.error(loc, f"clause '{cid}' was already {what} by the operation at line {line}",
                       "give each clause one operation; 'change' and 'replace' can also move it, "
                       "with 'before', 'after' or 'section'")
            return None
        found = self.find(cid)
        if found is None:
            self.unknown_clause(loc, cid)
        return found

    def free(self, cid: Any, loc: Location) -> bool:
        """Whether a clause id is free for a new clause; if not, the problem said."""
        if self.find(cid) is None:
            return True
        done = self.done.get(cid)
        self.error(loc, f"term '{self.tid}' already has a clause '{cid}'",
                   f"added by the operation at line {done[1]}" if done and done[0] == "added"
                   else f"to change it, use 'change: {cid}'")
        return False

    def clause_place(self, path: tuple, op: dict, where: str, moving: Any) -> tuple[_Section, int] | None:
        """Where ``before``, ``after`` or ``section`` puts a clause, or None and the problem said."""
        name = op[where]
        loc = self.patch.at(path + (where,))
        if where == "section":
            section = self.find_section(name, loc)
            return None if section is None else (section, len(section.clauses))
        if name == moving:
            self.error(loc, f"clause '{name}' cannot be placed {where} itself")
            return None
        found = self.find(name)
        if found is None:
            self.unknown_clause(loc, name)
            return None
        return found[0], found[1] + (where == "after")

    def settle(self, path: tuple, op: dict, where: str | None, found: tuple[_Section, int],
               new: _Clause, kind: str) -> None:
        """Put ``new`` where the clause ``found`` was, or at ``where``."""
        section, j = found
        old = section.clauses[j]
        if where is None:
            section.clauses[j] = new
        else:
            del section.clauses[j]
            spot = self.clause_place(path, op, where, old.id)
            if spot is None:
                section.clauses.insert(j, old)
                return
            spot[0].clauses.insert(spot[1], new)
            section = spot[0]
        del self.index[old.id]
        self.index[new.id] = (section, new)
        self.done[old.id] = self.done[new.id] = (_DONE[kind], self.line(path))
        if new.id != old.id:
            self.removed[old.id] = (path + ({"change": "set", "replace": "with"}[kind], "id"), "renamed")

    def find_section(self, key: Any, loc: Location) -> _Section | None:
        if key in self.section_index:
            return self.section_index[key]
        if key in self.done_sections and self.done_sections[key][0] == "removed":
            self.error(loc, f"section '{key}' was removed by the operation at line {self.done_sections[key][1]}")
        else:
            self.error(loc, f"term '{self.tid}' has no section '{key}'",
                       did_you_mean(key, [s.key for s in self.sections]))
        return None

    def section_target(self, path: tuple, kind: str) -> _Section | None:
        key = self.patch.data[PATCH_KEY][path[1]][kind]
        loc = self.patch.at(path + (kind,))
        if key in self.done_sections and self.done_sections[key][0] != "removed":
            what, line = self.done_sections[key]
            self.error(loc, f"section '{key}' was already {what} by the operation at line {line}",
                       "give each section one operation")
            return None
        return self.find_section(key, loc)

    def section_place(self, path: tuple, op: dict, where: str | None, moving: Any) -> int | None:
        if where is None:
            return len(self.sections)
        name = op[where]
        loc = self.patch.at(path + (where,))
        if name == moving:
            self.error(loc, f"section '{name}' cannot be placed {where} itself")
            return None
        section = self.find_section(name, loc)
        return None if section is None else self.sections.index(section) + (where == "after")

    # -- the result ---------------------------------------------------------------------

    def check_references(self) -> None:
        """A removed clause that the term's own clauses still cite, reported at the removal."""
        gone = {cid: went for cid, went in self.removed.items() if self.find(cid) is None}
        if not gone:
            return
        for section in self.sections:
            for clause in section.clauses:
                raw = clause.raw
                cited = [(link.get("clause"), "links to it") for link in raw.get("links") or []
                         if link.get("term") == self.tid]
                cited += [(step, "lists it as a step") for step in (raw.get("steps") or {}).get("order") or []]
                cited += [(ref.split("#", 1)[1], "has a rule that is an exception to it")
                          for rule in raw.get("rules") or [] for ref in rule.get("exception_to") or []
                          if ref.split("#", 1)[0] == self.tid]
                for cid, how in cited:
                    if cid in gone:
                        where, what = gone[cid]
                        self.error(self.patch.at(where), f"clause '{cid}' is {what}, but clause "
                                   f"'{clause.id}' {how}", f"change clause '{clause.id}' in this patch too")

    def stitch(self) -> Stitched:
        places: dict[tuple, Place] = {(): (self.patch, ())}
        data: dict[str, Any] = {}
        for key, (value, place) in self.top.items():
            data[key] = value
            places[(key,)] = place
        sections = []
        for i, section in enumerate(self.sections):
            sections.append({**section.fields, "clauses": [c.raw for c in section.clauses]})
            for rel, place in section.places.items():
                places[("sections", i) + rel] = place
            for j, clause in enumerate(section.clauses):
                for rel, place in clause.places.items():
                    places[("sections", i, "clauses", j) + rel] = place
        data["sections"] = sections
        return Stitched(self.patch.path, data, places)
