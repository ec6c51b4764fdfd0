"""bench/gen.py: synthetic rulebooks pass the checker, are deterministic, and editions really change."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest
import yaml

from rulebook_compiler.build import check
from rulebook_compiler.logic import logic_problems

GEN = Path(__file__).resolve().parent.parent / "bench" / "gen.py"


def _load_gen():
    spec = importlib.util.spec_from_file_location("bench_gen", GEN)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up here
    spec.loader.exec_module(module)
    return module


gen = _load_gen()


def files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def small(tmp_path_factory) -> Path:
    return gen.generate(20, tmp_path_factory.mktemp("gen") / "book", editions=2, changed=0.25, seed=3)


def test_generated_rulebook_passes_check(small):
    book, problems = check(small)
    assert problems == []
    assert logic_problems(book) == []
    assert [e.id for e in book.editions] == ["1.0.0", "2.0.0"]
    assert len(book.latest.terms) == 20


def test_shape_is_like_the_glossary(small):
    book, _ = check(small)
    terms = book.edition("1.0.0").terms
    for term in terms:
        assert 4 <= len(term.sections) <= 6, term.id
        assert 8 <= len(term.clauses) <= 15 + 5, term.id  # steps add up to five clauses
        assert 1 <= len(term.decisions) <= 3
        for clause in term.clauses:
            assert 60 <= len(clause.text) <= 500 + 100, clause.ref  # plus linked names and step numbers
    clauses = [c for t in terms for c in t.clauses]
    assert any(c.defines for c in clauses)
    assert any(c.links for c in clauses)
    assert any(r.exception_to for c in clauses for r in c.rules)
    assert {r.kind for c in clauses for r in c.rules} >= {"requires", "forbids", "value"}
    assert any(t.aliases for t in terms)
    facts = book.latest.vocabulary.facts
    assert 24 <= len(facts) <= 60
    assert {f.type for f in facts} == {"bool", "enum"}
    assert book.latest.vocabulary.constraints


def test_tables_and_steps_occur_at_a_larger_size(tmp_path):
    root = gen.generate(60, tmp_path / "book", seed=1)
    book, problems = check(root)
    assert problems == [] and logic_problems(book) == []
    clauses = [c for t in book.latest.terms for c in t.clauses]
    assert any(c.table for c in clauses)
    assert any(c.steps for c in clauses)


def test_same_seed_gives_identical_bytes(small, tmp_path):
    again = gen.generate(20, tmp_path / "again", editions=2, changed=0.25, seed=3)
    assert files(again) == files(small)


def test_another_seed_gives_another_rulebook(small, tmp_path):
    other = gen.generate(20, tmp_path / "other", editions=2, changed=0.25, seed=4)
    assert files(other) != files(small)


def test_changed_terms_differ_between_editions(small):
    first, second = small / "editions" / "1.0.0", small / "editions" / "2.0.0"
    changed = sorted(p.name for p in second.iterdir())
    assert len(changed) == 5  # a quarter of 20
    for name in changed:
        before = yaml.safe_load((first / name).read_text())
        after = yaml.safe_load((second / name).read_text())
        assert before != after, name
        assert before["id"] == after["id"]
        # the anchor clause, which other terms may link to, keeps its id
        assert after["sections"][0]["clauses"][0]["id"] == before["sections"][0]["clauses"][0]["id"]
    book, _ = check(small)
    assert list(book.latest.changed) == [n[:-5] for n in changed]


def test_refuses_to_overwrite_a_folder_it_did_not_make(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(FileExistsError):
        gen.generate(3, tmp_path)
    assert (tmp_path / "notes.txt").read_text() == "mine"


def test_command_line(tmp_path, capsys):
    assert gen.main(["5", str(tmp_path / "cli"), "--editions", "3", "--seed", "2"]) == 0
    book, problems = check(tmp_path / "cli")
    assert problems == [] and len(book.editions) == 3
    assert gen.main(["0", str(tmp_path / "zero")]) == 2
    assert "need n >= 1" in capsys.readouterr().err


def test_vocabulary_names_are_distinct_for_every_seed():
    # seed 28 once drew the word 'discard' twice and declared has_discard twice
    import random

    for seed in range(200):
        vocab = gen.make_vocabulary(random.Random(f"{seed}:vocabulary"))
        names = [f["name"] for f in vocab.facts]
        assert len(names) == len(set(names)), seed
        assert len({c["id"] for c in vocab.constraints}) == len(vocab.constraints), seed


def test_many_seeds_and_editions_pass_check(tmp_path):
    for seed in (28, 29, 30):
        root = gen.generate(30, tmp_path / f"s{seed}", editions=3, changed=0.5, seed=seed)
        book, problems = check(root)
        assert problems == [], (seed, [str(p) for p in problems[:3]])
        assert logic_problems(book) == [], seed
