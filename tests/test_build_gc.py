"""Loading pauses the cyclic garbage collector and always restores it."""

import gc
from pathlib import Path

import pytest

from compiler.build import check, load_rulebook
from compiler.diagnostics import RulebookError

FIXTURES = Path(__file__).resolve().parent / "fixtures"


@pytest.fixture
def gc_state():
    before = gc.isenabled()
    yield
    (gc.enable if before else gc.disable)()


def test_collector_is_enabled_again_after_loading(gc_state):
    gc.enable()
    book = load_rulebook(FIXTURES / "minimal")
    assert book.latest.id == "v2"
    assert gc.isenabled()


def test_collector_is_enabled_again_after_problems(gc_state, tmp_path):
    gc.enable()
    with pytest.raises(RulebookError):
        load_rulebook(tmp_path / "missing")
    assert gc.isenabled()


def test_a_disabled_collector_stays_disabled(gc_state):
    gc.disable()
    book, problems = check(FIXTURES / "minimal")
    assert book is not None and problems == []
    assert not gc.isenabled()


def _tracked(obj) -> bool:
    """Whether the collector's generations hold ``obj`` (frozen objects are in none of them)."""
    return any(o is obj for o in gc.get_objects())


def test_what_a_load_built_is_never_scanned_again(gc_state):
    """The model a load builds is frozen out of the collector's generations: the first collection
    after loading would otherwise scan every object of it, and each later full one again (the
    logic check of 5,000 terms took 3.3 s of CPU instead of 0.9 s: bench/README.md)."""
    gc.enable()
    book = load_rulebook(FIXTURES / "minimal")
    term = book.latest.terms[0]
    assert gc.is_tracked(term)
    assert not _tracked(term)
    made_after = [term.id]
    assert _tracked(made_after)


def test_what_dies_after_freezing_is_still_freed(gc_state):
    """Reference counting still frees a frozen model once nothing holds it."""
    import weakref

    gc.enable()
    book = load_rulebook(FIXTURES / "minimal")
    edition = weakref.ref(book.latest)
    assert edition() is book.latest
    del book
    assert edition() is None
