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
