"""Outputs never touch inputs: where ``export --out`` and ``conformance generate --out`` may write.

``rulebook build --out`` (staging, swap, lock) is tested in tests/site/test_build_out.py.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulebook_compiler.cli import main

FIXTURES = Path(__file__).resolve().parent / "fixtures"
MINIMAL = FIXTURES / "minimal"


def invoke(*args: str | Path):
    return CliRunner().invoke(main, [str(a) for a in args], prog_name="rulebook")


def usage(command: str, message: str) -> str:
    """The whole stderr of a usage error of ``rulebook COMMAND`` about --out."""
    return f"rulebook: error: --out: {message}\n  hint: see 'rulebook {command} --help'\n"


OVERLAP = "an output may not overlap an input, choose another path"


@pytest.fixture
def proj(tmp_path) -> Path:
    """A project folder: the rulebook in proj/rulebook, and a file of the user's beside it."""
    proj = tmp_path / "proj"
    shutil.copytree(MINIMAL, proj / "rulebook")
    (proj / "notes.txt").write_text("mine\n")
    return proj


# -- export --out (a file) ------------------------------------------------------------


@pytest.mark.parametrize("out", ["rulebook/export.json", "rulebook/rulebook.yaml", "link/v1.json"],
                         ids=["new-file", "input-file", "through-a-symlink"])
def test_export_refuses_a_path_inside_the_rulebook(proj, monkeypatch, snapshot, out):
    (proj / "link").symlink_to(proj / "rulebook" / "editions")
    monkeypatch.chdir(proj)
    before = snapshot(proj)
    result = invoke("export", "--rulebook", "rulebook", "--out", out)
    assert result.exit_code == 2
    assert result.stderr == usage("export", f"'{out}' is inside the rulebook folder 'rulebook'; {OVERLAP}")
    assert snapshot(proj) == before


def test_export_refuses_a_folder(proj, monkeypatch):
    (proj / "out").mkdir()
    monkeypatch.chdir(proj)
    result = invoke("export", "--rulebook", "rulebook", "--out", "out")
    assert result.exit_code == 2
    assert result.stderr == usage("export", "'out' is a folder, not a file")
    assert list((proj / "out").iterdir()) == []


def test_export_refuses_a_pipe_or_device_rather_than_replace_it(proj, monkeypatch):
    # The atomic rename put a regular file where the FIFO was (and, as root, where
    # /dev/null was): the reader got nothing and the node was gone.
    os.mkfifo(proj / "pipe")
    monkeypatch.chdir(proj)
    result = invoke("export", "--rulebook", "rulebook", "--out", "pipe")
    assert result.exit_code == 2
    assert result.stderr == usage("export", "'pipe' is not a regular file (a pipe or a device); "
                                            "leave out --out to write to standard output")
    assert (proj / "pipe").is_fifo()


def test_export_overwrites_its_own_file(proj, monkeypatch):
    monkeypatch.chdir(proj)
    for _ in range(2):
        result = invoke("export", "--rulebook", "rulebook", "--out", "export.json")
        assert result.exit_code == 0, result.stderr
    assert json.loads((proj / "export.json").read_text())["edition"]["id"] == "v2"


def test_export_removes_what_a_killed_export_left(proj, monkeypatch, dead_pid):
    monkeypatch.chdir(proj)
    left = [f".export.json.{dead_pid}-a1b2c3.tmp", f".export.json.{os.getppid()}-d4e5f6.tmp",
            f".other.json.{dead_pid}-a1b2c3.tmp"]
    for name in left:
        (proj / name).write_text("partial")
    assert invoke("export", "--rulebook", "rulebook", "--out", "export.json").exit_code == 0
    assert sorted(p.name for p in proj.iterdir()) == sorted([*left[1:], "export.json", "notes.txt", "rulebook"])


def _no_space(fd, *args, **kwargs):
    """os.fdopen for a disk that is full: the file opens, every write fails."""
    class Full:
        def __enter__(self):
            return self

        def __exit__(self, *exc):
            os.close(fd)

        def write(self, text):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    return Full()


def test_export_on_a_full_disk_is_one_error_line_and_keeps_the_old_file(proj, monkeypatch, snapshot):
    monkeypatch.chdir(proj)
    (proj / "export.json").write_text("old\n")
    before = snapshot(proj)
    monkeypatch.setattr("rulebook_compiler.fileio.os.fdopen", _no_space)
    result = invoke("export", "--rulebook", "rulebook", "--out", "export.json")
    assert result.exit_code == 1
    assert result.stderr == "rulebook: error: cannot write 'export.json': No space left on device\n"
    assert snapshot(proj) == before


# -- conformance generate --out (a folder of its own) ----------------------------------


def generate(out, rulebook="rulebook"):
    return invoke("conformance", "generate", "--rulebook", rulebook, "--edition", "v1", "--out", out)


def test_generate_refuses_the_folder_that_holds_the_rulebook(proj, monkeypatch, snapshot):
    monkeypatch.chdir(proj)
    before = snapshot(proj)
    result = generate(".")
    assert result.exit_code == 2
    assert result.stderr == usage("conformance generate", f"'.' contains the rulebook folder 'rulebook'; {OVERLAP}")
    assert snapshot(proj) == before


def test_generate_refuses_the_rulebook_folder_and_folders_inside_it(proj, monkeypatch, snapshot):
    monkeypatch.chdir(proj)
    before = snapshot(proj)
    for out, how in (("rulebook", "is"), ("rulebook/editions/v1", "is inside")):
        result = generate(out)
        assert result.exit_code == 2
        assert result.stderr == usage("conformance generate", f"'{out}' {how} the rulebook folder 'rulebook'; {OVERLAP}")
    assert snapshot(proj) == before


def test_generate_refuses_a_folder_of_other_files(proj, monkeypatch, snapshot):
    (proj / "tests").mkdir()
    (proj / "tests" / "test_engine.py").write_text("def test(): pass\n")
    monkeypatch.chdir(proj)
    before = snapshot(proj)
    result = generate("tests")
    assert result.exit_code == 2
    assert result.stderr == usage(
        "conformance generate",
        "'tests' is not empty and holds no output of 'rulebook conformance generate' (no .rulebook-output file); "
        "choose a new or empty folder, or empty this one")
    assert snapshot(proj) == before


def test_generate_writes_again_into_its_own_folder_and_keeps_files_added_there(proj, monkeypatch):
    monkeypatch.chdir(proj)
    assert generate("suite").exit_code == 0
    assert json.loads((proj / "suite" / ".rulebook-output").read_text()) == {"command": "rulebook conformance generate"}
    (proj / "suite" / "conftest.py").write_text("# the engine's adapter\n")
    result = generate("suite")
    assert result.exit_code == 0, result.stderr
    assert sorted(p.name for p in (proj / "suite").iterdir()) == [
        ".rulebook-output", "cases.json", "conftest.py", "test_conformance.py"]
    assert sorted(p.name for p in proj.iterdir()) == ["notes.txt", "rulebook", "suite"], "no lock file left"


def test_a_failed_generate_can_be_run_again(proj, monkeypatch):
    """The folder is marked before the first file is written: a half-written suite does not lock the user out."""
    monkeypatch.chdir(proj)
    real_fdopen = os.fdopen
    writes = []

    def full_after_one_file(fd, *args, **kwargs):
        writes.append(fd)
        return real_fdopen(fd, *args, **kwargs) if len(writes) <= 2 else _no_space(fd)

    monkeypatch.setattr("rulebook_compiler.fileio.os.fdopen", full_after_one_file)
    result = generate("suite")
    assert result.exit_code == 1
    assert result.stderr == "rulebook: error: cannot write 'suite/test_conformance.py': No space left on device\n"
    assert sorted(p.name for p in (proj / "suite").iterdir()) == [".rulebook-output", "cases.json"]
    monkeypatch.setattr("rulebook_compiler.fileio.os.fdopen", real_fdopen)
    result = generate("suite")
    assert result.exit_code == 0, result.stderr
    assert sorted(p.name for p in (proj / "suite").iterdir()) == [".rulebook-output", "cases.json",
                                                                  "test_conformance.py"]


def test_generate_removes_temporary_files_that_killed_runs_left(proj, monkeypatch, dead_pid):
    monkeypatch.chdir(proj)
    assert generate("suite").exit_code == 0
    left = [f".cases.json.{dead_pid}-a1b2c3.tmp", f".test_conformance.py.{os.getppid()}-d4e5f6.tmp", ".notes.tmp"]
    for name in left:
        (proj / "suite" / name).write_text("partial")
    assert generate("suite").exit_code == 0
    assert sorted(p.name for p in (proj / "suite").iterdir()) == sorted(
        [".rulebook-output", "cases.json", "test_conformance.py", *left[1:]])


def test_generate_refuses_the_output_of_another_command(proj, monkeypatch, snapshot):
    (proj / "site").mkdir()
    (proj / "site" / ".rulebook-output").write_text('{"command": "rulebook build"}\n')
    (proj / "site" / "index.html").write_text("<p>site</p>\n")
    monkeypatch.chdir(proj)
    before = snapshot(proj)
    result = generate("site")
    assert result.exit_code == 2
    assert result.stderr == usage("conformance generate", "'site' holds the output of 'rulebook build', not of "
                                  "'rulebook conformance generate'; choose another folder")
    assert snapshot(proj) == before


def test_generate_refuses_a_file(proj, monkeypatch, snapshot):
    monkeypatch.chdir(proj)
    before = snapshot(proj)
    result = generate("notes.txt")
    assert result.exit_code == 2
    assert result.stderr == "rulebook: error: --out: Directory 'notes.txt' is a file.\n  hint: see 'rulebook conformance generate --help'\n"
    assert snapshot(proj) == before


def test_generate_refuses_the_root_of_the_git_work_tree(tmp_path, monkeypatch):
    repo = tmp_path / "repo"
    repo.mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    (repo / "src").mkdir()
    monkeypatch.chdir(repo / "src")  # anywhere in the work tree: its root is found from the current folder
    result = generate(repo, rulebook=MINIMAL)
    assert result.exit_code == 2
    assert result.stderr == usage("conformance generate",
                                  f"'{repo}' is the root of the git work tree '{repo}'; {OVERLAP}")
    result = generate(tmp_path, rulebook=MINIMAL)
    assert result.exit_code == 2
    assert result.stderr == usage("conformance generate", f"'{tmp_path}' contains the git work tree '{repo}'; {OVERLAP}")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["repo"]
