"""``rulebook build --out``: never over an input, staging always removed, a crash-safe swap, one build at a time."""

from __future__ import annotations

import errno
import gc
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulebook_compiler.cli import main
from rulebook_compiler.site.render import SITE_DIR

ROOT = Path(__file__).resolve().parents[2]
MINIMAL = ROOT / "tests" / "fixtures" / "minimal"
OVERLAP = "an output may not overlap an input, choose another path"


def build(*args: str | Path):
    return CliRunner().invoke(main, ["build", *map(str, args)], prog_name="rulebook")


def usage(message: str) -> str:
    return f"rulebook: error: --out: {message}\n  hint: see 'rulebook build --help'\n"


def fails_and_changes_nothing(tmp_path: Path, snapshot, stderr: str) -> None:
    """Build proj/rulebook into tmp/site: exit 1 with exactly ``stderr``, and nothing under tmp changed."""
    before = snapshot(tmp_path)
    result = build("--rulebook", "proj/rulebook", "--out", "site")
    assert (result.exit_code, result.stderr) == (1, stderr)
    assert snapshot(tmp_path) == before


@pytest.fixture
def proj(tmp_path, monkeypatch) -> Path:
    """tmp/proj holds the rulebook (proj/rulebook) and a file of the user's; the current folder is tmp."""
    proj = tmp_path / "proj"
    shutil.copytree(MINIMAL, proj / "rulebook")
    (proj / "notes.txt").write_text("mine\n")
    monkeypatch.chdir(tmp_path)
    return proj


@pytest.fixture
def previous(tmp_path) -> Path:
    """tmp/site: the output of an earlier build (marked as such)."""
    site = tmp_path / "site"
    site.mkdir()
    (site / ".rulebook-output").write_text('{"command": "rulebook build"}\n')
    (site / "index.html").write_text("<p>the previous site</p>\n")
    return site


# -- where a site may go ----------------------------------------------------------------


@pytest.mark.parametrize("cwd, args, message", [
    ("", ["--rulebook", "proj/rulebook", "--out", "proj"],
     f"'proj' contains the rulebook folder 'proj/rulebook'; {OVERLAP}"),
    ("proj", ["--rulebook", "rulebook", "--out", "."], f"'.' contains the rulebook folder 'rulebook'; {OVERLAP}"),
    ("", ["--rulebook", "proj/rulebook", "--out", "proj/rulebook/site"],
     f"'proj/rulebook/site' is inside the rulebook folder 'proj/rulebook'; {OVERLAP}"),
    ("", ["--rulebook", "proj/rulebook", "--out", "proj/notes.txt"], "'proj/notes.txt' is a file, not a folder"),
    ("", ["--rulebook", str(MINIMAL), "--out", "proj"],
     "'proj' is not empty and holds no output of 'rulebook build' (no .rulebook-output file); "
     "choose a new or empty folder, or empty this one"),
], ids=["holds-the-rulebook", "current-folder", "inside-the-rulebook", "a-file", "folder-of-other-files"])
def test_refuses_an_output_over_an_input(proj, tmp_path, monkeypatch, snapshot, cwd, args, message):
    """Nothing is written, moved or left behind (the staging folder would go beside the output)."""
    monkeypatch.chdir(tmp_path / cwd)
    before = snapshot(tmp_path)
    result = build(*args)
    assert result.exit_code == 2
    assert result.stderr == usage(message)
    assert snapshot(tmp_path) == before


def test_refuses_the_root_of_the_git_work_tree(tmp_path, monkeypatch, snapshot):
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    monkeypatch.chdir(tmp_path)
    before = snapshot(tmp_path)
    result = build("--rulebook", str(MINIMAL), "--out", ".")
    assert result.exit_code == 2
    assert result.stderr == usage(f"'.' is the root of the git work tree '{tmp_path}'; {OVERLAP}")
    assert snapshot(tmp_path) == before


def test_refuses_the_current_folder_even_when_empty(tmp_path, monkeypatch):
    # A build replaces its folder whole: the shell that ran it would be left in a removed folder.
    (tmp_path / "empty").mkdir()
    monkeypatch.chdir(tmp_path / "empty")
    result = build("--rulebook", str(MINIMAL), "--out", ".")
    assert result.exit_code == 2
    assert result.stderr == usage("'.' is the current folder, which a build replaces whole; choose another path")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["empty"]
    assert list((tmp_path / "empty").iterdir()) == []


def test_refuses_the_site_templates(monkeypatch, snapshot):
    # In a clone, rulebook_compiler/site/theme holds the templates that every build reads.
    monkeypatch.chdir(ROOT)
    before = snapshot(SITE_DIR)
    result = build("--rulebook", str(MINIMAL), "--out", "rulebook_compiler/site/theme")
    assert result.exit_code == 2
    assert result.stderr == usage(f"'rulebook_compiler/site/theme' is the site templates '{SITE_DIR}'; {OVERLAP}")
    assert snapshot(SITE_DIR) == before


# -- a build that succeeds --------------------------------------------------------------


def test_rebuilds_its_own_output_and_cleans_what_killed_builds_left(proj, tmp_path, previous, snapshot, dead_pid):
    dead, alive = dead_pid, os.getppid()
    for pid in (dead, alive):
        (tmp_path / f".site.build-{pid}.tmp" / "terms").mkdir(parents=True)
    before = snapshot(proj)
    result = build("--rulebook", "proj/rulebook", "--out", "site")
    assert result.exit_code == 0, result.stderr
    assert (previous / "terms" / "cure" / "index.html").is_file()
    assert not (previous / "index.html").read_text().startswith("<p>the previous site")
    assert (previous / ".rulebook-output").read_text() == '{"command": "rulebook build"}\n'
    # The staging folder of the dead build is gone; a live process's is not ours to remove.
    assert sorted(p.name for p in tmp_path.iterdir()) == [f".site.build-{alive}.tmp", "proj", "site"]
    assert snapshot(proj) == before


def test_a_crash_after_the_swap_leaves_an_old_folder_that_the_next_build_removes(proj, tmp_path, previous):
    old = tmp_path / ".site.old"
    shutil.copytree(previous, old)
    result = build("--rulebook", "proj/rulebook", "--out", "site")
    assert result.exit_code == 0, result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["proj", "site"]


def test_a_link_to_the_output_stays_a_link_to_the_new_site(proj, tmp_path, previous):
    (tmp_path / "link").symlink_to(previous)
    result = build("--rulebook", "proj/rulebook", "--out", "link")
    assert result.exit_code == 0, result.stderr
    assert os.readlink(tmp_path / "link") == str(previous)
    assert (previous / "terms" / "cure" / "index.html").is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link", "proj", "site"]


def test_a_link_into_the_rulebook_is_refused_where_it_points(proj, tmp_path, snapshot):
    (tmp_path / "link").symlink_to(proj / "rulebook" / "editions")
    before = snapshot(tmp_path)
    result = build("--rulebook", "proj/rulebook", "--out", "link")
    assert result.exit_code == 2
    assert result.stderr == usage(f"'link' is inside the rulebook folder 'proj/rulebook'; {OVERLAP}")
    assert snapshot(tmp_path) == before


# -- a build that fails -----------------------------------------------------------------


def _failing_write(code: int | None):
    """mkdocs' write_file on a full disk (ENOSPC), without the right (EACCES), or interrupted (None: ^C)."""
    def write_file(content, output_path):
        if code is None:
            raise KeyboardInterrupt
        raise OSError(code, os.strerror(code), output_path)
    return write_file


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EACCES])
def test_a_write_error_is_one_line_and_keeps_the_previous_site(proj, tmp_path, previous, monkeypatch, code, snapshot):
    monkeypatch.setattr("mkdocs.utils.write_file", _failing_write(code))
    fails_and_changes_nothing(tmp_path, snapshot,
                              f"rulebook: error: cannot write 'site': {os.strerror(code)}; 'site' is unchanged\n")


def test_an_interrupted_build_removes_its_staging_folder(proj, tmp_path, previous, monkeypatch, snapshot):
    monkeypatch.setattr("mkdocs.utils.write_file", _failing_write(None))
    fails_and_changes_nothing(tmp_path, snapshot, "\nAborted!\n")
    assert gc.get_freeze_count() == 0, "the plugin hears of the interrupted build and thaws the GC"


def test_a_crash_between_the_renames_is_undone_by_the_next_build(proj, tmp_path, previous, monkeypatch, snapshot):
    # The state a build killed between its two renames leaves: the old site moved aside, no new one.
    old = tmp_path / ".site.old"
    previous.rename(old)
    site = snapshot(old)
    monkeypatch.setattr("mkdocs.utils.write_file", _failing_write(errno.ENOSPC))
    result = build("--rulebook", "proj/rulebook", "--out", "site")
    assert result.exit_code == 1
    assert result.stderr == "rulebook: error: cannot write 'site': No space left on device; 'site' is unchanged\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["proj", "site"]
    assert snapshot(tmp_path / "site") == site


def test_a_second_build_at_the_same_time_says_which_process_holds_the_lock(proj, tmp_path, previous, snapshot):
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys; from rulebook_compiler.fileio import output_lock\n"
         "with output_lock(sys.argv[1], 'rulebook build'):\n print('locked', flush=True); sys.stdin.read()",
         str(previous)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        assert holder.stdout.readline() == "locked\n"
        fails_and_changes_nothing(tmp_path, snapshot, f"rulebook: error: cannot write 'site': process {holder.pid} "
                                  "(rulebook build) is writing it; wait for it to end, or stop it\n")
    finally:
        holder.communicate("", timeout=30)
    assert holder.returncode == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["proj", "site"], "the lock file goes with its holder"


def test_an_old_folder_that_is_not_a_site_is_left_alone(proj, tmp_path, previous, snapshot):
    (tmp_path / ".site.old").mkdir()
    (tmp_path / ".site.old" / "keep.txt").write_text("someone's\n")
    fails_and_changes_nothing(tmp_path, snapshot, f"rulebook: error: cannot write 'site': '{tmp_path / '.site.old'}' "
                              "is in the way and holds no output of 'rulebook build'; remove it\n")


def test_a_failed_swap_is_one_line_and_keeps_the_previous_site(proj, tmp_path, previous, monkeypatch, snapshot):
    real_replace = os.replace

    def replace(src, dst):
        if ".build-" in str(src):  # the new site into place; the old one was moved aside just before
            raise OSError(errno.EXDEV, os.strerror(errno.EXDEV))
        real_replace(src, dst)

    monkeypatch.setattr("rulebook_compiler.fileio.os.replace", replace)
    fails_and_changes_nothing(tmp_path, snapshot,
                              "rulebook: error: cannot write 'site': Invalid cross-device link; 'site' is unchanged\n")


def test_a_site_that_plain_mkdocs_built_may_be_rebuilt(proj, tmp_path):
    """`mkdocs build` with the plugin marks its site_dir as `rulebook build` does: the two take turns."""
    config = tmp_path / "mkdocs.yml"
    config.write_text(json.dumps({"site_name": "x", "docs_dir": str(SITE_DIR / "docs"),
                                  "theme": {"name": "material"},
                                  "plugins": [{"rulebook": {"rulebook": str(proj / "rulebook")}}]}))
    run = subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(config), "-d", str(tmp_path / "site")],
                         capture_output=True, text=True, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert run.returncode == 0, run.stderr
    assert (tmp_path / "site" / ".rulebook-output").read_text() == '{"command": "rulebook build"}\n'
    result = build("--rulebook", "proj/rulebook", "--out", "site")
    assert result.exit_code == 0, result.stderr


def test_a_full_disk_before_the_site_is_one_line(proj, tmp_path, monkeypatch, snapshot):
    # The configuration made for a rulebook is written to a temporary folder first.
    def mkdtemp(*args, **kwargs):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr("tempfile.mkdtemp", mkdtemp)
    before = snapshot(tmp_path)
    result = build("--rulebook", "proj/rulebook", "--out", "site")
    assert (result.exit_code, result.stderr) == (
        1, f"rulebook: error: cannot write '{tempfile.gettempdir()}': No space left on device\n")
    assert snapshot(tmp_path) == before


def test_an_output_path_is_printed_escaped(proj, tmp_path):
    # The path can come from a mkdocs.yml in the repository (site_dir); raw, its
    # escape sequences would retitle or clear the terminal (or a CI log).
    out = "site\x1b]0;owned\x07"
    result = build("--rulebook", "proj/rulebook", "--out", out)
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout.startswith("Built the glossary in site\\x1b]0;owned\\x07/. To read it: python3 -m http.server "
                                    "-d site\\x1b]0;owned\\x07 8000, ")
    (tmp_path / "file\x1b[2J").write_text("mine\n")
    result = build("--rulebook", "proj/rulebook", "--out", "file\x1b[2J")
    assert (result.exit_code, result.stderr) == (2, usage("'file\\x1b[2J' is a file, not a folder"))
