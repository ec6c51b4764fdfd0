"""Sides of a diff: edition ids, folders and git revisions, read without touching the work tree."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulebook_compiler.cli import main

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "diff" / "reorganised"


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True).stdout


@pytest.fixture
def repo(tmp_path, monkeypatch):
    """A repository whose first commit has edition v1 only and whose second adds v2."""
    book = tmp_path / "rulebook"
    shutil.copytree(FIXTURE, book)
    v2 = book / "editions" / "v2"
    shutil.move(v2, tmp_path / "v2-later")
    (book / "rulebook.yaml").write_text((FIXTURE / "rulebook.yaml").read_text().split("  - id: v2")[0])
    git(tmp_path, "init", "-q", "-b", "main")
    git(tmp_path, "config", "user.email", "t@example.org")
    git(tmp_path, "config", "user.name", "T")
    git(tmp_path, "add", ".")
    git(tmp_path, "commit", "-qm", "v1")
    shutil.move(tmp_path / "v2-later", v2)
    shutil.copy(FIXTURE / "rulebook.yaml", book / "rulebook.yaml")
    git(tmp_path, "add", ".")
    git(tmp_path, "commit", "-qm", "v2")
    git(tmp_path, "tag", "first", "HEAD~1")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_git_revisions_diff_like_the_editions(repo):
    # Compared whole: v2, added, is compared with v1, the edition before it, as `diff v1 v2` does.
    whole = json.loads(run("diff", "git:first", "git:HEAD", "--format", "json").output)
    assert [(e["id"], e["change"], e["compared_with"]) for e in whole["editions"]] == \
        [("v1", "same", None), ("v2", "added", "v1")]
    by_git = whole["editions"][1]["diff"]
    by_edition = json.loads(run("diff", "v1", "v2", "--format", "json").output)
    assert by_git["summary"] == by_edition["summary"]
    assert [c["fingerprint"] for c in by_git["changes"]] == [c["fingerprint"] for c in by_edition["changes"]]
    assert by_git["old"]["kind"] == "git" and len(by_git["old"]["revision"]) == 40
    # Locations are the files as the repository names them, not a temporary folder.
    assert by_git["changes"][0]["new_location"]["file"] == "rulebook/editions/v2/cure.yaml"


def test_git_rev_with_an_edition_picks_it(repo):
    out = json.loads(run("diff", "git:HEAD:v1", "git:HEAD:v2", "--format", "json").output)
    assert (out["old"]["edition"], out["new"]["edition"]) == ("v1", "v2")
    assert out["summary"]["split"] == 1


def test_reading_a_revision_leaves_the_work_tree_and_index_alone(repo):
    (repo / "rulebook" / "editions" / "v2" / "cure.yaml").write_text("id: cure\nwithdrawn: true\n")
    before = git(repo, "status", "--porcelain")
    result = run("diff", "git:first", "git:HEAD")
    assert result.exit_code == 0
    assert git(repo, "status", "--porcelain") == before
    assert (repo / "rulebook" / "editions" / "v2" / "cure.yaml").read_text() == "id: cure\nwithdrawn: true\n"


def test_unknown_revision_is_one_line_naming_what_exists(repo):
    result = run("diff", "git:nope", "git:HEAD")
    assert result.exit_code == 2
    assert result.output.strip().count("\n") == 0
    assert "unknown revision 'nope'" in result.output and "branches: main" in result.output
    assert "tags: first" in result.output


def test_unknown_edition_at_a_revision_names_the_editions_there(repo):
    result = run("diff", "git:first:v2", "git:HEAD")
    assert result.exit_code == 2
    assert "revision 'first' has no edition 'v2'; editions: v1" in result.output


def test_unknown_edition_or_path_names_the_editions(repo):
    result = run("diff", "v3", "v2")
    assert result.exit_code == 2 and result.output.count("\n") == 1
    assert "unknown edition, revision or folder 'v3'" in result.output and "editions: v1, v2" in result.output


def test_a_side_that_fails_check_reports_that_sides_errors(repo):
    (repo / "rulebook" / "editions" / "v2" / "cure.yaml").write_text("id: cure\nname: [\n")
    git(repo, "commit", "-qam", "broken")
    result = run("diff", "git:HEAD~1", "git:HEAD")
    assert result.exit_code == 1
    assert "'git:HEAD' does not pass rulebook check" in result.output
    assert "HEAD:rulebook/editions/v2/cure.yaml:" in result.output
    assert "Traceback" not in result.output


def test_a_folder_side(repo, tmp_path):
    other = tmp_path / "copy"
    shutil.copytree(repo / "rulebook", other)
    out = json.loads(run("diff", "v1", str(other), "--format", "json").output)
    assert out["new"]["kind"] == "folder" and out["new"]["edition"] == "v2"
    assert out["summary"]["merged"] == 1


def _commit_links(repo: Path, links: dict[str, str]) -> None:
    """Commit symbolic links (path -> target, both relative to the repository) on top of HEAD."""
    for path, target in links.items():
        (repo / path).symlink_to(target)
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "links")


def _refused(*links: tuple[str, str]) -> str:
    """The stderr of a git:HEAD side holding these links (path, target), in path order."""
    lines = ["rulebook: 'git:HEAD' cannot be read:"]
    for path, target in links:
        lines += [f"HEAD:{path}: error: a symbolic link (to '{target}'); a git: side reads no links",
                  "  hint: commit the file or folder itself in place of the link"]
    count = len(links)
    return "\n".join(lines + [f"{count} problem{'s' if count != 1 else ''} found"]) + "\n"


def test_committed_symlinks_are_refused_with_their_paths(repo):
    # One pointing out of the work tree, one to a file of the repository outside
    # the rulebook, one inside it: every link is refused, all at once.
    links = {"rulebook/editions/v1/same.yaml": "cure.yaml",
             "rulebook/editions/v2/passwd.yaml": "/etc/passwd",
             "rulebook/editions/v2/up.yaml": "../../../outside.yaml"}
    _commit_links(repo, links)
    result = run("diff", "git:HEAD~1", "git:HEAD")
    assert (result.exit_code, result.stdout, result.stderr) == (1, "", _refused(*links.items()))


def test_a_rulebook_folder_committed_as_a_symlink_is_refused(repo):
    git(repo, "mv", "rulebook", "real")
    _commit_links(repo, {"rulebook": "real"})
    # The work tree's folder is a folder again (uncommitted), so that ./rulebook
    # names the same path in the repository as at HEAD~1.
    (repo / "rulebook").unlink()
    shutil.copytree(repo / "real", repo / "rulebook")
    result = run("diff", "git:HEAD~1", "git:HEAD")
    assert (result.exit_code, result.stdout, result.stderr) == (1, "", _refused(("rulebook", "real")))


def test_the_revisions_own_gitattributes_change_nothing_that_is_read(repo):
    # git archive obeys the .gitattributes of the tree it archives: a pull request
    # could mark its changed term file export-ignore (the edition then inherited the
    # term as it was, and the diff showed no change) or rewrite rule text (export-subst).
    v1 = repo / "rulebook" / "editions" / "v1" / "cure.yaml"
    v1.write_text(v1.read_text().replace("Targets must be curable.", "Targets must be curable $Format:%H$."))
    (repo / ".gitattributes").write_text("rulebook/editions/v2/cure.yaml export-ignore\n*.yaml export-subst\n")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "attributes")
    # The work tree is HEAD: read from the repository, each edition is what is committed.
    result = run("diff", "git:HEAD", "rulebook", "--format", "json")  # two whole rulebooks
    assert (result.exit_code, json.loads(result.stdout)["empty"]) == (0, True)
    result = run("diff", "git:HEAD:v1", "v1", "--format", "json")
    assert (result.exit_code, json.loads(result.stdout)["changes"]) == (0, [])


def test_a_large_committed_file_is_streamed_not_held_in_memory(repo):
    # A pull request can commit any file into the rulebook folder (sources/ is only
    # looked for, never read by check): the side was read whole into memory, twice
    # (git's output, then the unpacked copy). Streamed, memory stays flat.
    import os
    import sys

    size = 96 * 1024 * 1024
    sources = repo / "rulebook" / "sources"
    sources.mkdir()
    with open(sources / "scan.bin", "wb") as fh:
        fh.write(os.urandom(1024) * (size // 1024))  # git compresses it well; it is still 96 MiB read
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "a large source")
    (sources / "scan.bin").unlink()  # only the revision has it
    # Python's own allocations, traced in the child (its RSS would count what it forked from)
    probe = ("import sys, tracemalloc\n"
             "from rulebook_compiler.cli import main\n"
             "tracemalloc.start()\n"
             "try:\n"
             "    main.main(['diff', 'git:HEAD', 'git:HEAD~1', '--no-cache'], prog_name='rulebook')\n"
             "except SystemExit as exc:\n"
             "    assert not exc.code, exc.code\n"
             "print(tracemalloc.get_traced_memory()[1])\n")
    done = subprocess.run([sys.executable, "-c", probe], cwd=repo, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])})
    assert done.returncode == 0, done.stderr[-500:]
    peak = int(done.stdout.split()[-1])
    assert peak < size // 4, f"peak {peak} bytes allocated for a {size}-byte file"


def test_a_side_that_cannot_be_copied_out_is_a_located_error(repo, tmp_path):
    # A full disk (here: a file-size limit, EFBIG) while copying the revision out
    # ended in an OSError traceback.
    import os
    import sys

    (repo / "rulebook" / "sources").mkdir()
    (repo / "rulebook" / "sources" / "scan.bin").write_bytes(b"x" * (2 << 20))
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "a 2 MiB source")
    temp = tmp_path / "temp"
    temp.mkdir()
    probe = ("import resource, signal\n"
             "signal.signal(signal.SIGXFSZ, signal.SIG_IGN)\n"
             "resource.setrlimit(resource.RLIMIT_FSIZE, (1 << 20, 1 << 20))\n"
             "from rulebook_compiler.cli import main\n"
             "main.main(['diff', 'git:HEAD~1', 'git:HEAD', '--no-cache'], prog_name='rulebook')\n")
    done = subprocess.run([sys.executable, "-c", probe], cwd=repo, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "TMPDIR": str(temp),
                               "PYTHONPATH": str(Path(__file__).resolve().parents[2])})
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == (
        "rulebook: 'git:HEAD' cannot be read:\n"
        f"HEAD:rulebook/sources/scan.bin: error: cannot be copied to the temporary folder {temp}: File too large\n"
        "  hint: make room there, or set TMPDIR to a folder with room\n"
        "1 problem found\n")
    assert list(temp.iterdir()) == []


def _diff_as_another_user(as_another_user, *args: str):
    runner = CliRunner()
    assert runner.invoke(main, ["diff", "v1", "v2", "--rulebook", "book"]).exit_code == 0  # imports done
    with as_another_user():
        return runner.invoke(main, ["diff", *args], catch_exceptions=False)


def test_a_default_rulebook_folder_that_cannot_be_searched_is_a_check_error(unreadable_book):
    own, as_another_user = unreadable_book
    (own / "book").chmod(0o600)
    result = _diff_as_another_user(as_another_user, "v1", "v2", "--rulebook", "book")
    assert (result.exit_code, result.stdout, result.stderr) == (1, "", (
        "rulebook: 'book' does not pass rulebook check:\n"
        "book: error: cannot read folder: Permission denied\n"
        "1 problem found\n"))


def test_a_folder_side_inside_a_folder_that_cannot_be_searched_is_a_check_error(unreadable_book):
    own, as_another_user = unreadable_book
    shutil.copytree(own / "book", own / "locked" / "old")
    (own / "locked").chmod(0o700)
    result = _diff_as_another_user(as_another_user, "locked/old", "v2", "--rulebook", "book")
    assert (result.exit_code, result.stdout, result.stderr) == (1, "", (
        "rulebook: 'locked/old' does not pass rulebook check:\n"
        "locked/old: error: cannot read folder: Permission denied\n"
        "1 problem found\n"))


def test_an_edition_folder_that_cannot_be_listed_is_a_check_error(unreadable_book):
    own, as_another_user = unreadable_book
    (own / "book" / "editions" / "v1").chmod(0o300)
    result = _diff_as_another_user(as_another_user, "v1", "v2", "--rulebook", "book")
    assert (result.exit_code, result.stdout, result.stderr) == (1, "", (
        "rulebook: 'book' does not pass rulebook check:\n"
        "book/editions/v1: error: cannot read folder: Permission denied\n"
        "1 problem found\n"))
