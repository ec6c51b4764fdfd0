"""What the fuzzer found, kept: each folder of tests/fixtures/fuzz/ (but the seeds)
is a minimised rulebook that once broke a command; the whole pipeline of
conftest.py runs on it. A folder named in XFAIL shows a defect being fixed on
another branch: strict, so that the test fails once the fix lands and the mark
(and the matching KNOWN line in test_fuzz.py) is removed.
"""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

import pytest

_spec = importlib.util.spec_from_file_location("fuzz_mutate", Path(__file__).with_name("mutate.py"))
mutate = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(mutate)
SEEDS = mutate.SEEDS
FUZZ = mutate.FIXTURES / "fuzz"
XFAIL: dict[str, str] = {}

FOUND = sorted(p.name for p in FUZZ.iterdir() if p.is_dir() and not p.name.startswith("seed-"))


@pytest.mark.parametrize("name", sorted(SEEDS))
def test_seed_passes_every_command(pipeline, tmp_path, name):
    """The seeds of test_fuzz.py are valid and go through every command, the site build included."""
    root = tmp_path / "rb"
    shutil.copytree(SEEDS[name], root)
    run = pipeline(root, tmp_path / "out", seed=SEEDS[name], build=True)
    assert run.accepted
    assert run.failures == []


@pytest.mark.parametrize("name", [
    pytest.param(name, marks=pytest.mark.xfail(strict=True, reason=XFAIL[name])) if name in XFAIL else name
    for name in FOUND])
def test_found_by_fuzzing(pipeline, tmp_path, name):
    root = tmp_path / "rb"
    shutil.copytree(FUZZ / name, root, symlinks=True)
    run = pipeline(root, tmp_path / "out", seed=SEEDS["features"])
    assert run.failures == [], run.report()


def test_control_characters_in_a_file_name(pipeline, tmp_path):
    """Found by test_any_mutation (a term file copied under a name with U+008D): check
    printed the name raw in its errors (fixed on main, by the bounds part of issue 8). Made here, not kept in git: such a name is
    awkward for every tool that lists the repository."""
    root = tmp_path / "rb"
    shutil.copytree(SEEDS["features"], root)
    (root / "editions" / "v1" / "x\x8d\x1b[31m.yaml").write_bytes((root / "editions" / "v1" / "battle.yaml").read_bytes())
    run = pipeline(root, tmp_path / "out")
    assert not run.accepted
    assert run.failures == [], run.report()


LINEAGE = sorted(p.name for p in (mutate.FIXTURES / "lineage").iterdir() if p.is_dir())


@pytest.mark.parametrize("name", LINEAGE)
def test_every_lineage_fixture_goes_through_every_command_or_is_refused_by_check(pipeline, tmp_path, name):
    """Whatever lineage check accepts, every other command completes on it (issue 23): the lineage
    fixtures, accepted (rename, split, merge, move, chain, split-then-restored) or refused (error-*)."""
    root = tmp_path / "rb"
    shutil.copytree(mutate.FIXTURES / "lineage" / name, root)
    run = pipeline(root, tmp_path / "out")
    assert run.accepted is not name.startswith("error-")
    assert run.failures == [], run.report()
