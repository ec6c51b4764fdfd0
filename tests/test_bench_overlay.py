"""bench/bench_overlay.py: every later edition of a generated rulebook, written as patches, resolves
to exactly what its whole term files give (every edition's export, byte for byte)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from rulebook_compiler.build import load_rulebook
from rulebook_compiler.export import dumps, edition_json

BENCH = Path(__file__).resolve().parent.parent / "bench"


def _load(name: str):
    spec = importlib.util.spec_from_file_location(f"bench_{name}", BENCH / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up here
    spec.loader.exec_module(module)
    return module


def test_generated_editions_as_patches_resolve_to_the_whole_files(tmp_path):
    overlay = _load("bench_overlay")
    whole = overlay.generate(30, tmp_path / "whole", editions=3, changed=0.3, seed=4)
    counts = overlay.to_patches(whole, tmp_path / "patched")
    patches = sorted(p.relative_to(tmp_path / "patched").as_posix()
                     for p in (tmp_path / "patched" / "editions").rglob("*.yaml") if "\npatch:" in p.read_text())
    assert counts.patched == len(patches) > 10
    assert counts.patched + counts.whole == 18  # 9 changed terms in each of the two later editions
    a, b = load_rulebook(whole), load_rulebook(tmp_path / "patched")
    for edition in a.editions:
        assert dumps(edition_json(b, b.edition(edition.id))) == dumps(edition_json(a, edition))
        assert b.edition(edition.id).terms == edition.terms
