"""Loading pauses the cyclic garbage collector and always restores it."""

import gc
from pathlib import Path

import pytest

from rulebook_compiler.build import check, load_rulebook
from rulebook_compiler.diagnostics import RulebookError

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


def test_during_a_check_s_logic_checks_the_model_is_never_scanned(gc_state, monkeypatch, tmp_path):
    """Within a check, what the load built is frozen out of the collector: every collection the
    logic checks' allocations set off would otherwise scan all of it (at 5,000 terms the logic
    checks took 3.3 s of CPU instead of 0.9 s: bench/README.md)."""
    from rulebook_compiler import logic
    from rulebook_compiler.checking import check_rulebook

    seen = []
    real = logic.logic_problems

    def probe(book, *args, **kwargs):
        term = book.latest.terms[0]
        seen.append((gc.is_tracked(term), _tracked(term), _tracked([term.id])))
        return real(book, *args, **kwargs)

    monkeypatch.setattr(logic, "logic_problems", probe)
    monkeypatch.setenv("RULEBOOK_CACHE_DIR", str(tmp_path / "cache"))
    gc.enable()
    gc.unfreeze()  # nothing frozen before the check: it freezes only then
    for use_cache in (False, True):
        checked = check_rulebook(FIXTURES / "minimal", use_cache=use_cache)
        assert checked.problems == []
    assert seen == [(True, False, True), (True, False, True)]


def test_nothing_stays_frozen_after_a_check_or_a_load(gc_state):
    """A long-lived process (serve, a test run) still collects the cycles among what it drops:
    the check gives what it froze back to the collector, and a plain load freezes nothing."""
    from rulebook_compiler.checking import check_rulebook

    gc.enable()
    gc.unfreeze()
    checked = check_rulebook(FIXTURES / "minimal", use_cache=False)
    assert (checked.problems, gc.get_freeze_count()) == ([], 0)
    book = load_rulebook(FIXTURES / "minimal")
    assert (book.latest.id, gc.get_freeze_count()) == ("v2", 0)
    assert _tracked(book.latest.terms[0])


def test_a_check_leaves_frozen_what_was_frozen_before_it(gc_state):
    """A host that froze its heap (``rulebook serve`` does, a pre-forking server may) keeps it frozen
    across a check: the check gives back only what it froze itself."""
    from rulebook_compiler.checking import check_rulebook

    gc.enable()
    gc.unfreeze()
    held = [["the host's heap"]]
    gc.freeze()
    try:
        checked = check_rulebook(FIXTURES / "minimal", use_cache=False)
        assert (checked.problems, _tracked(held), _tracked(held[0])) == ([], False, False)
    finally:
        gc.unfreeze()
