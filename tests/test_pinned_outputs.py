"""Every user-facing output, byte for byte, as pinned in tests/fixtures/pinned/digests.json (issue 22).

The refactors of issue 22 must keep behaviour identical; this is the proof. The outputs
(every format of ``rulebook diff`` for every ordered pair of editions, ``changelog`` of every
edition, ``history`` of every term, every file of ``rulebook build``) are those of
tools/pin_outputs.py, for the frozen copy of the bundled rulebook (tests/fixtures/pinned/reg,
never rulebook/ itself: adding an edition or a term there must break no test) and for every
fixture rulebook that passes check. They are recomputed here in-process, through the command
line entry point, and compared by SHA-256 and length.

After an intended change of output: ``python3 tools/pin_outputs.py --write``, and say in the
commit message which outputs changed and why (README.md, Development).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from rulebook_compiler.build import load_rulebook

TOOL = Path(__file__).resolve().parent.parent / "tools" / "pin_outputs.py"
REGENERATE = "if the change is intended: python3 tools/pin_outputs.py --write, and explain it in the commit message"


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("pin_outputs", TOOL)
    assert spec is not None and spec.loader is not None, TOOL
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


pin = _tool()
NONE: dict[str, list[str]] = {"differ": [], "missing": [], "unpinned": []}


@pytest.fixture(scope="module")
def pinned():
    return pin.load()


def _fail_listing(what: str, found: dict[str, list[str]]) -> None:
    """Every name that differs, is missing or is new, all at once."""
    if found != NONE:
        lines = [f"{kind}: {name}" for kind, names in found.items() for name in names]
        pytest.fail(f"{len(lines)} {what} not as pinned ({REGENERATE}):\n" + "\n".join(lines), pytrace=False)


def test_the_fixtures_left_out_are_those_that_fail_check(pinned):
    # A fixture that starts (or stops) failing check loses (or gains) all its outputs: named here first.
    with pin.stable_run():
        _, failing = pin.books()
    assert [b.name for b in failing] == list(pinned.not_pinned)


def test_every_command_output_is_as_pinned(pinned):
    with pin.stable_run():
        passing, _ = pin.books()
        now = pin.command_pins(passing)
    _fail_listing("command outputs", pin.differences(pinned.commands, now))
    assert len(now) == len(pinned.commands)


def test_every_file_of_the_built_sites_is_as_pinned(pinned):
    installed = pin.installed_versions()
    # The theme's files and markup are the theme's: the site's pins hold for the versions they were made with,
    # which the test extra installs (pyproject.toml); other versions are a failure that says so, not a skip.
    assert installed == pinned.site_versions, (
        f"the site pins were made with {pinned.site_versions}; installed: {installed}: install the test extra's "
        "versions, or regenerate with python3 tools/pin_outputs.py --write")
    with pin.stable_run():
        passing, _ = pin.books()
        now = {}
        for book in pin.site_books(passing):
            now.update(pin.site_pins(book))
    _fail_listing("site files", pin.differences(pinned.sites, now))
    assert len(now) == len(pinned.sites)


def test_a_cold_and_a_warm_cache_print_the_pinned_bytes(pinned, tmp_path):
    # The pins are made without the cache; a cache filled by the first run (cold) and read by the
    # second (warm) must change no byte. A part of the outputs, to keep the suite short: the frozen
    # copy's diffs from each edition to every later one, as the pull-request comment, and the
    # whole-rulebook diffs (which read from the cache only the terms that differ).
    with pin.stable_run(cache=tmp_path / "cache"):
        passing, _ = pin.books()
        reg = next(b for b in passing if b.name == "reg")
        editions = [e.id for e in load_rulebook(reg.folder).editions]
        later = {f"reg/diff/{a}..{b}.markdown" for i, a in enumerate(editions) for b in editions[i + 1:]}
        runs = [(n, argv) for n, argv in pin.command_outputs(reg) if n in later]
        runs += [(n, argv) for n, argv in pin.whole_outputs(passing) if n.endswith(".json")]
        cold = {n: pin._pin(*argv) for n, argv in runs}
        warm = {n: pin._pin(*argv) for n, argv in runs}
    assert len(runs) == 10 + 6
    expected = {n: pinned.commands[n] for n, _ in runs}
    _fail_listing("outputs with a cold cache", pin.differences(expected, cold))
    _fail_listing("outputs with a warm cache", pin.differences(expected, warm))
    assert any((tmp_path / "cache").iterdir())  # the runs did fill the cache


def test_the_pins_cover_the_frozen_copy_of_the_bundled_rulebook(pinned):
    # What tests/fixtures/pinned/reg holds (read from its rulebook.yaml and editions/): 5 editions,
    # so 20 ordered pairs in 4 formats; every edition's changelog in 2; its site's front page.
    diffs = [n for n in pinned.commands if n.startswith("reg/diff/")]
    assert len(diffs) == 5 * 4 * 4
    assert "reg/diff/3.0.0..5.0.0.markdown" in pinned.commands
    assert "reg/diff/11.0.0..2012.html" in pinned.commands
    assert sorted(n for n in pinned.commands if n.startswith("reg/changelog/")) == [
        f"reg/changelog/{e}.{f}" for e in ("11.0.0", "2012", "3.0.0", "4.0.0-draft", "5.0.0")
        for f in ("json", "markdown")]
    assert "reg/history/heal.text" in pinned.commands
    assert "reg/site/index.html" in pinned.sites
    assert "whole/fixtures/site/hostile..fixtures/site/hostile-drift.json" in pinned.commands


def test_differences_name_every_changed_missing_and_new_output():
    a, b = pin.Pin.of(b"a"), pin.Pin.of(b"b")
    pinned = {"same": a, "changed": a, "exit-changed": a, "gone": a}
    now = {"same": a, "changed": b, "exit-changed": pin.Pin.of(b"a", 1), "new": b}
    assert pin.differences(pinned, now) == {"differ": ["changed", "exit-changed"], "missing": ["gone"],
                                            "unpinned": ["new"]}


def test_the_pins_file_reads_back_as_written(tmp_path):
    pins = pin.Pins({"x/diff/1..2.json": pin.Pin.of(b"{}\n"), "x/diff/2..1.text": pin.Pin.of(b"", 1, b"error\n")},
                    {"x/site/index.html": pin.Pin.of(b"<html>")}, ("fixtures/broken/y",),
                    {"mkdocs": "1", "mkdocs-material": "2"})
    text = pin.dumps(pins)
    # one output a line, so that a commit's diff names the outputs it changed
    assert ('  "x/diff/2..1.text": {"bytes": 0, "exit": 1, "sha256": '
            '"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", "stderr_bytes": 6, '
            '"stderr_sha256": "' + pin._sha(b"error\n") + '"}') in text.splitlines()
    (tmp_path / "digests.json").write_text(text, encoding="utf-8")
    assert pin.load(tmp_path / "digests.json") == pins
