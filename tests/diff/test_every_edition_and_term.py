"""``rulebook history T`` for every term and ``rulebook diff A B`` for every ordered
pair of editions, in every format, complete on the bundled rulebook.

The terms and editions are read from the loaded model, never listed here: the
test follows whatever the bundled rulebook holds.
"""

from __future__ import annotations

import itertools
import json

import pytest
from click.testing import CliRunner

from rulebook_compiler.cli import main
from rulebook_compiler.diff import engine, history
from rulebook_compiler.commands.diff import FORMATS

def run(*args: str):
    # catch_exceptions=False: a traceback fails the test with that traceback.
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


@pytest.fixture
def one_engine_run_per_pair(monkeypatch):
    """Each pair's diff is computed once and rendered in every format.

    The engine's result does not depend on the format (the renderers only read
    it); computing it four times would only add a minute to the suite.
    """
    real = engine.diff_sources
    done: dict[tuple[str, str], engine.DiffResult] = {}

    def memo(old, vocabulary_old, new, vocabulary_new, **kw):
        key = (kw["old_info"].spec, kw["new_info"].spec)
        if key not in done:
            done[key] = real(old, vocabulary_old, new, vocabulary_new, **kw)
        return done[key]

    monkeypatch.setattr(engine, "diff_sources", memo)
    return done


@pytest.fixture
def one_history_per_term(monkeypatch):
    """Each term's history is computed once and rendered in every format (as above)."""
    real = history.term_history
    done: dict[str, list[engine.DiffResult]] = {}

    def memo(book, term):
        if term not in done:
            done[term] = real(book, term)
        return done[term]

    monkeypatch.setattr(history, "term_history", memo)
    return done


def test_diff_of_every_ordered_pair_of_editions_in_every_format(bundled, one_engine_run_per_pair):
    pairs = list(itertools.permutations([e.id for e in bundled.editions], 2))
    assert pairs, "the bundled rulebook has fewer than two editions"
    for old, new in pairs:
        args = ("diff", old, new, "--rulebook", str(bundled.root))
        as_json = run(*args, "--format", "json")
        assert (as_json.exit_code, as_json.stderr) == (0, ""), (old, new)
        changed = bool(json.loads(as_json.stdout)["changes"])
        for fmt in FORMATS:
            plain = run(*args, "--format", fmt)
            assert (plain.exit_code, plain.stderr) == (0, ""), (old, new, fmt)
            strict = run(*args, "--format", fmt, "--exit-code")
            assert (strict.exit_code, strict.stderr, strict.stdout) == (int(changed), "", plain.stdout), \
                (old, new, fmt)


def test_history_of_every_term_in_every_format(bundled, one_history_per_term):
    terms = sorted({t.id for e in bundled.editions for t in e.terms})
    assert terms
    for term in terms:
        as_json = run("history", term, "--rulebook", str(bundled.root), "--format", "json")
        assert (as_json.exit_code, as_json.stderr) == (0, ""), term
        out = json.loads(as_json.stdout)
        # The first step is the edition that added the term, and every change is of that term.
        assert out["term"] == term
        first = out["steps"][0]["changes"][0]
        assert (first["kind"], first["clause"]) == ("added", None), term
        assert {c["term"] for s in out["steps"] for c in s["changes"]} == {term}
        for fmt in FORMATS:
            result = run("history", term, "--rulebook", str(bundled.root), "--format", fmt)
            assert (result.exit_code, result.stderr) == (0, ""), (term, fmt)
            assert result.stdout.strip(), (term, fmt)
            if fmt == "html":
                assert result.stdout.count("<!DOCTYPE html>") == 1, term  # one page, whatever the steps
