"""``build.remembering``: loads read again only the files changed since (``rulebook serve``'s rebuilds)."""

from __future__ import annotations

import shutil
from pathlib import Path

from rulebook_compiler import build
from rulebook_compiler.build import check, load_rulebook, remembering

MINIMAL = Path(__file__).resolve().parent / "fixtures" / "minimal"


def test_a_remembered_load_gives_the_model_a_fresh_load_gives_and_reads_only_edited_files(tmp_path, monkeypatch):
    book = tmp_path / "book"
    shutil.copytree(MINIMAL, book)
    cure = book / "editions" / "v2" / "cure.yaml"
    read: list[str] = []
    real = build.load
    monkeypatch.setattr(build, "load", lambda path, shown=None: (read.append(Path(path).name), real(path, shown))[1])
    with remembering():
        first = load_rulebook(book)
        assert sorted(read) == ["cure.yaml", "cure.yaml", "rulebook.yaml", "vocabulary.yaml"]
        read.clear()
        assert load_rulebook(book) == first
        assert read == []
        cure.write_text(cure.read_text().replace("Targets must be curable.", "Targets must be cured."))
        edited = load_rulebook(book)
        assert read == ["cure.yaml"]
    assert edited.latest.clause_by_ref["cure#targets"].text == "Targets must be cured."
    read.clear()
    assert load_rulebook(book) == edited  # outside the block, every file is read again
    assert sorted(read) == ["cure.yaml", "cure.yaml", "rulebook.yaml", "vocabulary.yaml"]


def test_a_remembered_file_with_problems_reports_them_again(tmp_path):
    book = tmp_path / "book"
    shutil.copytree(MINIMAL, book)
    cure = book / "editions" / "v2" / "cure.yaml"
    cure.write_text(cure.read_text().replace("  - key: definition\n", "  - key: definition\n    bogus: 1\n"))
    with remembering():
        first, again = check(book), check(book)
    assert (first[0], again[0]) == (None, None)
    assert [p.message for p in first[1]] == ["unknown key 'bogus' in section 'definition'"]
    assert again[1] == first[1]


HEAL = """\
id: heal
name: Heal
sections:
  - key: definition
    kind: definition
    clauses:
      - id: restores
        text: Heal restores what a cure targets.
        links:
          - {phrase: cure targets, term: cure, clause: targets}
"""


def _two_terms(tmp_path: Path) -> Path:
    """The minimal rulebook with a second term in v2 whose clause links to cure#targets."""
    book = tmp_path / "book"
    shutil.copytree(MINIMAL, book)
    (book / "editions" / "v2" / "heal.yaml").write_text(HEAL)
    return book


def _counting(monkeypatch, name: str) -> list[str]:
    """Record the term id each call of ``Builder.<name>`` is for."""
    calls: list[str] = []
    real = getattr(build.Builder, name)

    def counted(self, *args):
        first = args[0] if name == "_term" else args[1]
        calls.append(first.data["id"] if name == "_term" else first.id)
        return real(self, *args)

    monkeypatch.setattr(build.Builder, name, counted)
    return calls


def test_a_remembered_load_builds_and_checks_again_only_the_edited_term(tmp_path, monkeypatch):
    book = _two_terms(tmp_path)
    cure = book / "editions" / "v2" / "cure.yaml"
    built, checked = _counting(monkeypatch, "_term"), _counting(monkeypatch, "_check_term_names")
    with remembering():
        first = load_rulebook(book)
        assert (sorted(built), sorted(checked)) == (["cure", "cure", "heal"], ["cure", "cure", "heal"])
        built.clear(), checked.clear()
        cure.write_text(cure.read_text().replace("Cure cannot be used in battle.", "Cure cannot be used in a battle."))
        edited = load_rulebook(book)
        assert (built, checked) == (["cure"], ["cure"])
    v1, v2 = (e.id for e in first.editions)
    assert edited.edition_by_id[v1].term_by_id["cure"] is first.edition_by_id[v1].term_by_id["cure"]
    assert edited.edition_by_id[v2].term_by_id["heal"] is first.edition_by_id[v2].term_by_id["heal"]
    assert edited.latest.clause_by_ref["cure#not-in-battle"].text == "Cure cannot be used in a battle."
    assert edited == load_rulebook(book)  # the same model as a load from scratch


def test_an_edit_that_breaks_an_unedited_terms_link_is_reported_there(tmp_path):
    book = _two_terms(tmp_path)
    cure = book / "editions" / "v2" / "cure.yaml"
    with remembering():
        assert check(book)[1] == []
        cure.write_text(cure.read_text().replace("id: targets", "id: target").replace("cure#targets", "cure#target"))
        broken = check(book)
        fresh = check(book)
    assert broken[0] is None
    assert [p.message for p in broken[1]] == ["link to clause 'cure#targets', which does not exist"]
    assert broken[1] == fresh[1]


def test_a_term_with_problems_is_checked_again_at_every_load(tmp_path):
    book = _two_terms(tmp_path)
    heal = book / "editions" / "v2" / "heal.yaml"
    heal.write_text(HEAL.replace("clause: targets", "clause: nowhere"))
    with remembering():
        first, again = check(book), check(book)
    assert [p.message for p in first[1]] == ["link to clause 'cure#nowhere', which does not exist"]
    assert again[1] == first[1]
