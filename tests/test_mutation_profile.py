"""tools/mutation.sh's own selections of tests (docs/mutation.md): each module of the incremental machinery
and the levels is judged by the tests that state its behaviour. A glob that matches no file, or a test
selector that matches no test, would silently judge the module's mutants by fewer tests than documented
(a renamed test file drops out of the selection without a word), so each is held to what exists.
"""

from __future__ import annotations

import ast
import fnmatch
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "tools" / "mutation.sh"


def selection_of(name: str) -> list[str]:
    """The script's own answer, from its shell function (run, not re-implemented)."""
    text = SCRIPT.read_text()
    function = text[text.index("selection_of() {"):text.index("\n}\n", text.index("selection_of() {")) + 3]
    done = subprocess.run(["bash", "-c", function + 'selection_of "$1"', "selection", name],
                          capture_output=True, text=True, check=True)
    return done.stdout.split()


def _test_names(path: Path) -> list[str]:
    tree = ast.parse(path.read_text())
    return [n.name for n in tree.body if isinstance(n, ast.FunctionDef) and n.name.startswith("test_")]


@pytest.mark.parametrize("module", ["lock", "cache", "recheck", "diff.level"])
def test_each_glob_of_a_module_s_selection_names_tests_that_exist(module):
    globs = selection_of(f"rulebook_compiler.{module}.x_f__mutmut_1")
    assert globs, f"{module} has no selection of its own"
    for glob in globs:
        file_glob, _, test_glob = glob.partition("::")
        files = sorted(ROOT.glob(file_glob))
        assert files, f"{glob}: no test file"
        if test_glob:
            assert any(fnmatch.fnmatch(t, test_glob) for f in files for t in _test_names(f)), \
                f"{glob}: no test"


def test_the_selections_and_the_modules_without_one():
    assert selection_of("rulebook_compiler.lock.x_changed__mutmut_3") == [
        "tests/test_lock*.py", "tests/test_review.py", "tests/test_record.py", "tests/test_overlay.py",
        "tests/test_rulebook_files.py"]
    assert selection_of("rulebook_compiler.diff.level.x_grade__mutmut_1") == [
        "tests/diff/test_level*.py", "tests/diff/test_levels.py", "tests/diff/test_gold*.py"]
    # judged by the whole selection ([tool.mutmut]): the core modules measured before issue 22
    for module in ("conditions", "evaluate", "logic", "build", "schema", "yamlsource", "diff.match", "diff.classify"):
        assert selection_of(f"rulebook_compiler.{module}.x_f__mutmut_1") == []
    # a module's name is matched whole: diff.levels is not diff.level
    assert selection_of("rulebook_compiler.diff.levels.x_f__mutmut_1") == []


def test_names_of_modules_judged_by_different_tests_are_refused_before_anything_runs(tmp_path):
    # a copy of the script, in a tree of its own: it works in the folder above its own
    (tmp_path / "tools").mkdir()
    script = tmp_path / "tools" / "mutation.sh"
    script.write_text(SCRIPT.read_text())
    done = subprocess.run(["bash", str(script), "rulebook_compiler.cache.x_lookup__mutmut_1",
                           "rulebook_compiler.lock.x_changed__mutmut_2"],
                          capture_output=True, text=True, env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)})
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tools"]  # no mutants/: refused before anything
    assert (done.returncode, done.stdout, done.stderr) == (
        2, "", "tools/mutation.sh: error: 'rulebook_compiler.cache.x_lookup__mutmut_1' and "
               "'rulebook_compiler.lock.x_changed__mutmut_2' are judged by different tests; run them apart\n"
               "  hint: or set MUTATION_TESTS for the run\n")
