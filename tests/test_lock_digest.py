"""The lock's functions on their own: the digest's canonical form, the file's text, what differs between two
entries, reading a file that is or is not a lock, and the terms' entries kept between loads.

Each expected value is written from the module's contract (rulebook_compiler/lock.py's docstring): a digest is the
SHA-256 of the canonical JSON (sorted keys, no spaces, UTF-8 as is), a field at its default left out.
"""

from __future__ import annotations

import dataclasses
import hashlib
import shutil
from pathlib import Path

import pytest

from rulebook_compiler import lock
from rulebook_compiler.build import load_rulebook
from rulebook_compiler.conditions import All, Ref
from rulebook_compiler.diagnostics import Location
from rulebook_compiler.model import Fact

FROZEN = Path(__file__).resolve().parent / "fixtures" / "lock" / "frozen"
HINT = "rulebook.lock is written by 'rulebook publish' and 'rulebook correct'; restore it from version control"


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def test_a_digest_is_the_sha256_of_the_sorted_compact_json_with_text_as_is():
    assert lock.digest({"b": [1, True, None], "a": "Soin é 🃏"}) == _sha('{"a":"Soin é 🃏","b":[1,true,null]}')


def test_a_model_object_s_canonical_form_leaves_out_locations_and_defaults():
    fact = Fact("poisoned", "bool", (), "The character is poisoned.", Location("v.yaml", 3, 5))
    assert lock.canonical(fact) == {"name": "poisoned", "type": "bool", "values": [],
                                    "meaning": "The character is poisoned."}
    ordered = dataclasses.replace(fact, type="enum", values=("low", "high"), ordered=True)
    assert lock.canonical(ordered) == {"name": "poisoned", "type": "enum", "values": ["low", "high"],
                                       "meaning": "The character is poisoned.", "ordered": True}
    assert lock.digest(fact) == _sha('{"meaning":"The character is poisoned.","name":"poisoned","type":"bool",'
                                     '"values":[]}')


def test_plain_values_and_conditions_in_canonical_form():
    assert [lock.canonical(v) for v in (None, "x", True, 3, 1.5, ("a", ("b",)), ["c"])] == \
        [None, "x", True, 3, 1.5, ["a", ["b"]], ["c"]]
    assert lock.canonical(All((Ref("a"), Ref("b")))) == {"all": ["a", "b"]}
    assert lock.canonical((All((Ref("a"), Ref("b"))),)) == [{"all": ["a", "b"]}]


def test_a_clause_s_canonical_form_leaves_out_what_is_not_content():
    clause = load_rulebook(FROZEN).edition("1.0").term_by_id["cure"].clauses[0]
    assert (clause.id, clause.term) == ("curable", "cure")
    marked = dataclasses.replace(clause, editor_notes="Typed twice.", rules_checked="2026-01-01")
    assert lock.canonical(marked) == lock.canonical(clause)
    # the fields without a default are always there (steps and table are None); number is left out at None
    assert sorted(lock.canonical(clause)) == ["defines", "links", "notes", "rules", "section", "steps", "table", "text"]
    assert sorted(lock.canonical(dataclasses.replace(clause, number="1.1"))) == [
        "defines", "links", "notes", "number", "rules", "section", "steps", "table", "text"]


def test_the_lock_file_s_text():
    assert lock.lock_text({"v2": {"digest": "é"}, "v1": {"digest": "x"}}) == (
        '{\n  "editions": {\n    "v1": {\n      "digest": "x"\n    },\n    "v2": {\n      "digest": "é"\n    }\n'
        '  },\n  "format": "rulebook-lock/1"\n}\n')


OLD = {"terms": {"kept": {"term": "1", "clauses": {"same": "1", "edited": "1", "gone": "1"}},
                 "retitled": {"term": "1", "clauses": {"same": "1"}},
                 "removed": {"term": "1", "clauses": {"only": "1"}}},
       "vocabulary": {"facts": {"same": "1", "edited": "1", "withdrawn": "1"},
                      "constraints": {"same": "1", "edited": "1", "withdrawn": "1"}}}
NEW = {"terms": {"kept": {"term": "1", "clauses": {"same": "1", "edited": "2", "new": "1"}},
                 "retitled": {"term": "2", "clauses": {"same": "1"}},
                 "added": {"term": "1", "clauses": {"first": "1"}}},
       "vocabulary": {"facts": {"same": "1", "edited": "2", "added": "1"},
                      "constraints": {"same": "1", "edited": "2", "added": "1"}}}


def test_what_differs_between_two_entries():
    assert lock.changed(OLD, NEW) == [
        "added", "added#first", "constraint:added", "constraint:edited", "constraint:withdrawn", "fact:added",
        "fact:edited", "fact:withdrawn", "kept#edited", "kept#gone", "kept#new", "removed", "removed#only",
        "retitled"]
    assert lock.changed(OLD, OLD) == []
    assert lock.changed({}, {"terms": {"t": {"term": "1", "clauses": {}}}}) == ["t"]
    assert lock.changed({"terms": {"t": {"term": "1", "clauses": {"c": "1"}}}}, {}) == ["t", "t#c"]
    assert lock.changed({"vocabulary": {"facts": {"f": "1"}}}, {}) == ["fact:f"]
    assert lock.changed({}, {"vocabulary": {"constraints": {"c": "1"}}}) == ["constraint:c"]


# -- reading the file ---------------------------------------------------------------------------------


@pytest.fixture
def book(tmp_path, monkeypatch) -> Path:
    shutil.copytree(FROZEN, tmp_path / "frozen")
    monkeypatch.chdir(tmp_path)
    return Path("frozen")


def _problems(root: Path) -> list[str]:
    found, problems = lock.read(root)
    assert found is None
    return [str(p) for p in problems]


def test_a_rulebook_without_a_lock_file_has_an_empty_lock(book):
    (book / "rulebook.lock").unlink()
    (book / "corrections.yaml").unlink()  # else the log names the missing lock (rulebook_compiler/review.py)
    assert lock.read(book) == (lock.Lock({}, None), [])
    assert lock.Lock({}).present is False
    assert lock.problems(load_rulebook(book)) == []


def test_a_lock_file_is_read_with_its_path(book):
    found, problems = lock.read(book)
    assert (problems, found.present, found.path, sorted(found.entries)) == ([], True, book / "rulebook.lock", ["1.0"])
    assert str(found.at("1.0")) == "frozen/rulebook.lock:3:5"


def test_a_lock_written_as_yaml_that_json_does_not_read_is_read(book):
    path = book / "rulebook.lock"
    path.write_text("# a comment JSON does not allow\n" + path.read_text())
    found, problems = lock.read(book)
    assert (problems, found.path, sorted(found.entries)) == ([], path, ["1.0"])


@pytest.mark.parametrize("text", ['{"format": "rulebook-lock/2", "editions": {}}', '{"editions": {}}',
                                  '{"format": "rulebook-lock/1", "editions": []}', '["rulebook-lock/1"]'],
                         ids=["another-format", "no-format", "editions-a-list", "a-list"])
def test_a_file_that_is_not_a_lock(book, text):
    (book / "rulebook.lock").write_text(text + "\n")
    assert _problems(book) == [f"frozen/rulebook.lock:1:1: error: not a lock file of format 'rulebook-lock/1'\n"
                               f"  hint: {HINT}"]


ENTRY = {"digest": '"d"', "terms": '{"cure": {"term": "t", "clauses": {"curable": "c"}}}',
         "vocabulary": '{"facts": {"poisoned": "f"}, "constraints": {"once": "c"}}'}


def _entry(**changed: str) -> str:
    fields = {**ENTRY, **changed}
    return "{" + ", ".join(f'"{k}": {v}' for k, v in fields.items() if v is not None) + "}"


@pytest.mark.parametrize("entry", [
    _entry(digest="1"), _entry(digest=None), _entry(terms="[]"), _entry(terms='{"cure": []}'),
    _entry(terms='{"cure": {"term": 1, "clauses": {}}}'), _entry(terms='{"cure": {"clauses": {}}}'),
    _entry(terms='{"cure": {"term": "t"}}'), _entry(terms='{"cure": {"term": "t", "clauses": {"curable": 1}}}'),
    _entry(terms='{"cure": {"term": "t", "clauses": []}}'), _entry(vocabulary=None), _entry(vocabulary="[]"),
    _entry(vocabulary='{"facts": {}}'), _entry(vocabulary='{"constraints": {}}'),
    _entry(vocabulary='{"facts": {"poisoned": 1}, "constraints": {}}'),
    _entry(vocabulary='{"facts": {}, "constraints": {"once": null}}'), "[]"])
def test_a_malformed_entry_is_named_where_it_is(book, entry):
    text = '{"format": "rulebook-lock/1",\n "editions": {"1.0": ' + _entry() + ',\n  "2.0": ' + entry + '}}\n'
    (book / "rulebook.lock").write_text(text)
    assert _problems(book) == [f"frozen/rulebook.lock:3:10: error: the lock entry of edition '2.0' is malformed\n"
                               f"  hint: {HINT}"]


def test_a_well_formed_entry_of_any_digests_is_read(book):
    (book / "rulebook.lock").write_text('{"format": "rulebook-lock/1", "editions": {"1.0": ' + _entry() + '}}\n')
    found, problems = lock.read(book)
    assert (problems, found.entries["1.0"]["digest"]) == ([], "d")


def test_every_malformed_entry_is_named(book):
    text = '{"format": "rulebook-lock/1", "editions": {\n"1.0": [],\n"2.0": {}}}\n'
    (book / "rulebook.lock").write_text(text)
    assert _problems(book) == [f"frozen/rulebook.lock:2:8: error: the lock entry of edition '1.0' is malformed\n"
                               f"  hint: {HINT}",
                               f"frozen/rulebook.lock:3:8: error: the lock entry of edition '2.0' is malformed\n"
                               f"  hint: {HINT}"]


def test_a_lock_that_is_not_yaml_either(book):
    (book / "rulebook.lock").write_text('{"format": [}\n')
    assert len(_problems(book)) == 1
    assert _problems(book)[0].startswith("frozen/rulebook.lock:1:13: error: invalid YAML: ")


# -- the terms' entries kept between loads --------------------------------------------------------------


def test_an_edition_s_entry_keeps_each_term_s_entry_by_the_term(book):
    edition = load_rulebook(book).edition("1.0")
    known: lock.Known = {}
    entry = lock.edition_entry(edition, known)
    assert entry == lock.read(book)[0].entries["1.0"]
    assert {key: held[0] for key, held in known.items()} == {id(t): t for t in edition.terms}
    assert [held[1] for held in known.values()] == [entry["terms"][t.id] for t in edition.terms]
    # a term held is not digested again; one whose id another object had is
    (cure,) = edition.terms
    held = {id(cure): (cure, {"term": "held", "clauses": {}})}
    assert lock.edition_entry(edition, held)["terms"] == {"cure": {"term": "held", "clauses": {}}}
    other = {id(cure): (dataclasses.replace(cure), {"term": "held", "clauses": {}})}
    assert lock.edition_entry(edition, other)["terms"] == entry["terms"]


def test_the_check_leaves_the_kept_entries_of_this_rulebook_s_published_terms_only(book):
    rulebook = load_rulebook(book)
    stale = object()
    known: lock.Known = {id(stale): (stale, {})}  # type: ignore[dict-item]
    assert lock.problems(rulebook, known) == []
    assert sorted(known) == sorted(id(t) for t in rulebook.edition("1.0").terms)


def test_a_changed_term_kept_from_before_is_digested_again(book):
    rulebook = load_rulebook(book)
    known: lock.Known = {}
    assert lock.problems(rulebook, known) == []
    (book / "editions/1.0/cure.yaml").write_text((book / "editions/1.0/cure.yaml").read_text()
                                                 .replace("name: Cure", "name: Cures"))
    assert [p.message for p in lock.problems(load_rulebook(book), known)] == [
        "published edition '1.0' differs from rulebook.lock: term 'cure' changed (its name, aliases, notes, "
        "decisions or sections)"]


@pytest.mark.parametrize("text", ["[]\n", '{"editions": []}\n', '{"format": "rulebook-lock/1"}\n', "[\n"],
                         ids=["a-list", "editions-a-list", "no-editions", "not-yaml"])
def test_an_entry_s_place_in_a_file_that_is_no_longer_a_lock_is_the_file(book, text):
    (book / "rulebook.lock").write_text(text)
    assert str(lock.Lock({}, book / "rulebook.lock").at("1.0")) == "frozen/rulebook.lock"


def test_places_are_shown_relative_to_the_current_folder_when_the_lock_is_read_by_its_full_path(book):
    path = book / "rulebook.lock"
    found, _ = lock.read(Path.cwd() / book)
    assert str(found.at("1.0")) == "frozen/rulebook.lock:3:5"
    path.write_text('{"format": "rulebook-lock/2", "editions": {}}\n')
    assert [str(p) for p in lock.read(Path.cwd() / book)[1]] == [
        f"frozen/rulebook.lock:1:1: error: not a lock file of format 'rulebook-lock/1'\n  hint: {HINT}"]
    path.write_text("[\n")
    assert lock.read(Path.cwd() / book)[1][0].location.path == "frozen/rulebook.lock"


def test_every_edition_is_held_to_the_lock_after_a_draft(book):
    """A draft before published editions (the first set back to draft, the second and a third published
    without a lock entry): each is named."""
    text = (book / "rulebook.yaml").read_text()
    text = text.replace("    status: published\n", "    status: was\n").replace("    status: draft\n", "    status: published\n")
    text = text.replace("    status: was\n", "    status: draft\n")
    (book / "rulebook.yaml").write_text(text + '  - {id: "3.0", title: Third, date: "2024-01-01", status: published}\n')
    assert [str(p) for p in lock.problems(load_rulebook(book))] == [
        "frozen/rulebook.yaml:5:5: error: edition '1.0' is locked as published, but its status is 'draft'\n"
        "  hint: a published edition stays published: set 'status: published' again",
        "frozen/rulebook.yaml:11:5: error: published edition '2.0' is not in rulebook.lock\n"
        "  hint: lock it with: rulebook publish --edition 2.0 --reason TEXT",
        "frozen/rulebook.yaml:15:5: error: published edition '3.0' is not in rulebook.lock\n"
        "  hint: lock it with: rulebook publish --edition 3.0 --reason TEXT"]


def test_every_difference_from_a_doctored_lock_is_named_in_order(book):
    """The lock names more than the rulebook has (two terms, one with a clause; a fact), and the rulebook has
    a constraint the lock lacks: each is its own line, at its place, with the same hint, and none stops the
    lines after it (mutation testing, issue 22: the removed term's and the withdrawn fact's lines were stated
    by no test, nor that a constraint is looked up among the constraints)."""
    import json
    (book / "vocabulary.yaml").write_text((book / "vocabulary.yaml").read_text().replace(
        "constraints: []\n", "constraints:\n  - id: not-both\n    text: Not both.\n"
                             "    never: {all: [poisoned, in_battle]}\n"))
    data = json.loads((book / "rulebook.lock").read_text())
    entry = data["editions"]["1.0"]
    # its digest as published (the corrections log records it): the added constraint makes it differ
    entry["terms"]["gone"] = {"term": "1", "clauses": {"only": "1"}}
    entry["terms"]["lost"] = {"term": "1", "clauses": {}}
    entry["vocabulary"]["facts"]["withdrawn"] = "1"
    (book / "rulebook.lock").write_text(json.dumps(data))
    head = "published edition '1.0' differs from rulebook.lock:"
    hint = ("  hint: a published edition does not change: undo the edit, or record a deliberate correction with "
            "rulebook correct --edition 1.0 --kind transcription|erratum --reason TEXT")
    assert [str(p) for p in lock.problems(load_rulebook(book))] == [
        f"frozen/rulebook.yaml:5:5: error: {head} fact 'withdrawn' was withdrawn\n{hint}",
        f"frozen/rulebook.yaml:5:5: error: {head} term 'gone' was removed\n{hint}",
        f"frozen/rulebook.yaml:5:5: error: {head} term 'lost' was removed\n{hint}",
        f"frozen/vocabulary.yaml:9:5: error: {head} constraint 'not-both' changed or was added\n{hint}"]
