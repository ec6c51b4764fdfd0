"""The lock's digest covers every field of the model that is content, and leaves out only the
reviewed ones (issue 21, point 4).

A test that left a clause's printed number (``number``) out of the digest passed the whole suite:
nothing changed a field and looked at the digest. Here every field of every model class that the lock
digests is changed in turn, in an edition that gives each a value (tests/fixtures/lock-every-field),
and the digest of the edition must change. The fields left out are listed here, each with why: a
field added to the model is content (and must change the digest) unless it is added to
``lock._NOT_CONTENT`` and to the list below, a decision made in review.
"""

from __future__ import annotations

import dataclasses
from functools import lru_cache
from pathlib import Path

import pytest

from rulebook_compiler import lock
from rulebook_compiler.build import load_rulebook
from rulebook_compiler.model import (Clause, Constraint, Dated, Decision, Edition, Fact, Link, Predicate, Rule, Section, Steps,
                            Table, TableRow, Term, Vocabulary)

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "lock-every-field"

#: Every model class the lock's digest of an edition reaches (through its terms and its vocabulary).
DIGESTED = {Term, Decision, Section, Clause, Link, Predicate, Rule, Steps, Table, TableRow, Dated, Vocabulary, Fact,
            Constraint}

#: The fields that are not content, and why (``lock._NOT_CONTENT`` must be exactly this).
NOT_CONTENT = {
    # the keys each digest is filed under; the editors' remarks; declared lineage (the editors' account)
    Clause: {"id", "term", "editor_notes", "lineage", "rules_checked"},  # rules_checked: the editors' record (issue 21.5)
    # the key; sections are digested apart (lock._term_own: key, kind, title, clause ids; each clause
    # its own digest); the build's bookkeeping (the edition whose file gave it, the file's hash); remarks
    Term: {"id", "sections", "edition", "digest", "editor_notes"},
    Rule: {"notes"},  # the editors' notes on a rule
}

#: Fields not compared (``field(compare=False)``): where things are written, never content.
LOCATIONS = {
    Term: {"loc", "bases"}, Decision: {"loc"}, Clause: {"loc"}, Link: {"loc"}, Predicate: {"loc"},
    Rule: {"loc", "exception_locs"}, Table: {"loc", "key_locs", "otherwise_loc"}, TableRow: {"loc", "value_locs"},
    Dated: {"loc", "date_loc"}, Fact: {"loc"}, Constraint: {"loc"},
}

#: An edition's own fields that its lock entry does not digest: it digests its terms and its vocabulary.
#: The rest is rulebook.yaml's entry of the edition (and the build's bookkeeping), which the lock does
#: not hold by design (docs/format.md, "Published editions are locked": edition metadata is not locked).
EDITION_NOT_LOCKED = {"id", "title", "date", "status", "sources", "notes", "changed", "withdrawn", "loc", "lineage",
                      "editor_notes", "version", "not_held_before", "chapters"}


@lru_cache(maxsize=None)
def _edition() -> Edition:
    return load_rulebook(FIXTURE).edition("v1")


def _content(cls: type) -> list[str]:
    return [f.name for f in dataclasses.fields(cls) if f.compare and f.name not in NOT_CONTENT.get(cls, set())]


def _walk(value, path: tuple = ()):
    """(path, instance) of every model object the digest reads, from ``value`` down: a path is a
    tuple of (field, index or None). Conditions are leaves (the digest writes them whole)."""
    if isinstance(value, lock._CONDITIONS) or not dataclasses.is_dataclass(value):
        return
    yield path, value
    for name in _content(type(value)) + (["sections"] if isinstance(value, Term) else []):
        item = getattr(value, name)
        if isinstance(item, tuple):
            for i, element in enumerate(item):
                yield from _walk(element, path + ((name, i),))
        else:
            yield from _walk(item, path + ((name, None),))


def _instances(edition: Edition) -> list[tuple[tuple, object]]:
    out = [(((name, None),) + p, v) for name in ("vocabulary",) for p, v in _walk(getattr(edition, name))]
    for i, term in enumerate(edition.terms):
        out += [((("terms", i),) + p, v) for p, v in _walk(term)]
    return out


def _replace_at(root, path: tuple, new):
    if not path:
        return new
    (name, index), rest = path[0], path[1:]
    child = getattr(root, name)
    if index is None:
        changed = _replace_at(child, rest, new)
    else:
        changed = child[:index] + (_replace_at(child[index], rest, new),) + child[index + 1:]
    return dataclasses.replace(root, **{name: changed})


def _changed(found: list[tuple[tuple, object]], name: str) -> tuple[tuple, object]:
    """The first instance with ``name`` set to another's value, where one differs; else changed by its type."""
    path, first = found[0]
    own = lock.canonical(getattr(first, name))
    for _, other in found[1:]:
        value = getattr(other, name)
        if lock.canonical(value) != own:
            return path, dataclasses.replace(first, **{name: value})
    value = getattr(first, name)
    if isinstance(value, bool):
        return path, dataclasses.replace(first, **{name: not value})
    if isinstance(value, str):
        return path, dataclasses.replace(first, **{name: value + " (changed)"})
    if isinstance(value, tuple) and value:
        return path, dataclasses.replace(first, **{name: value[:-1]})
    pytest.fail(f"every {type(first).__name__}.{name} of {FIXTURE.name} is {value!r}: give one another value")


def test_the_fields_left_out_of_the_digest_are_the_reviewed_ones():
    assert {cls: set(names) for cls, names in lock._NOT_CONTENT.items()} == NOT_CONTENT


def test_the_fields_not_compared_are_where_things_are_written():
    assert {cls: {f.name for f in dataclasses.fields(cls) if not f.compare} for cls in DIGESTED} == \
        {cls: LOCATIONS.get(cls, set()) for cls in DIGESTED}


def test_an_edition_s_entry_digests_its_terms_and_its_vocabulary_only():
    assert {f.name for f in dataclasses.fields(Edition)} - {"terms", "vocabulary"} == EDITION_NOT_LOCKED


def test_the_fixture_reaches_every_model_class_the_digest_reads():
    assert {type(v) for _, v in _instances(_edition())} == DIGESTED


@pytest.mark.parametrize(("cls", "name"), [(cls, name) for cls in sorted(DIGESTED, key=lambda c: c.__name__)
                                           for name in _content(cls)],
                         ids=lambda x: x.__name__ if isinstance(x, type) else x)
def test_changing_any_content_field_changes_the_edition_s_digest(cls, name):
    edition = _edition()
    found = [(p, v) for p, v in _instances(edition) if type(v) is cls]
    path, new = _changed(found, name)
    changed = _replace_at(edition, path, new)
    assert lock.edition_entry(changed)["digest"] != lock.edition_entry(edition)["digest"]


def test_a_printed_number_is_in_the_clause_s_digest():
    clause = _edition().clause_by_ref["cure#curable"]
    assert clause.number == "1.1"
    assert lock.digest(dataclasses.replace(clause, number="1.2")) != lock.digest(clause)
    assert lock.digest(dataclasses.replace(clause, number=None)) != lock.digest(clause)
