"""The plugin's costs: one load of the rulebook per ``rulebook build``, the GC left as found."""

from __future__ import annotations

import gc
from pathlib import Path

import rulebook_compiler.build

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def counting_check(monkeypatch) -> list[Path]:
    calls: list[Path] = []
    real = rulebook_compiler.build.check

    def check(root, **options):
        calls.append(Path(root).resolve())
        return real(root, **options)

    monkeypatch.setattr(rulebook_compiler.build, "check", check)
    return calls


def test_rulebook_build_loads_the_rulebook_once(tmp_path, monkeypatch, build):
    calls = counting_check(monkeypatch)
    assert build(FIXTURES / "minimal", tmp_path / "site").exit_code == 0
    assert calls == [(FIXTURES / "minimal").resolve()]
    assert (tmp_path / "site" / "terms" / "cure" / "index.html").is_file()


def test_rulebook_build_through_mkdocs_yml_loads_once(tmp_path, monkeypatch, build):
    calls = counting_check(monkeypatch)
    assert build(None, tmp_path / "site").exit_code == 0
    assert len(calls) == 1


def test_a_lent_rulebook_serves_one_build_only(tmp_path, monkeypatch):
    """As under ``rulebook serve``: the first build takes the lent model, a rebuild reads the files again."""
    from mkdocs.commands.build import build as mkdocs_build
    from mkdocs.config import load_config

    from rulebook_compiler.site import plugin
    from rulebook_compiler.site.config import default_config

    root = FIXTURES / "minimal"
    book, _ = rulebook_compiler.build.check(root)
    config_file = tmp_path / "mkdocs.yml"
    config_file.write_text(default_config(root, book.title), encoding="utf-8")
    calls = counting_check(monkeypatch)
    with plugin.checked(root, book):
        for n in range(2):
            mkdocs_build(load_config(config_file=str(config_file), site_dir=str(tmp_path / f"site{n}")))
        assert calls == [root.resolve()], "the first build used the lent model, the second loaded"
        assert plugin._CHECKED == {}
    with plugin.checked(root, book):
        assert plugin._CHECKED
    assert plugin._CHECKED == {}, "withdrawn when the command ends, used or not"


def test_build_leaves_the_gc_unfrozen(tmp_path, build):
    before = gc.get_freeze_count()
    assert build(FIXTURES / "minimal", tmp_path / "site").exit_code == 0
    assert gc.get_freeze_count() == before == 0
    failed = build(FIXTURES / "broken" / "many-problems-in-many-files", tmp_path / "other")
    assert failed.exit_code == 1
    assert gc.get_freeze_count() == 0


def test_build_leaves_a_host_process_freeze_alone(tmp_path, build):
    held = [object() for _ in range(3)]
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        assert frozen > 0 and held
        assert build(FIXTURES / "minimal", tmp_path / "site").exit_code == 0
        # Frozen objects freed by reference counting leave the count; none join it.
        assert 0 < gc.get_freeze_count() <= frozen, "neither thawed nor frozen further"
    finally:
        gc.unfreeze()
