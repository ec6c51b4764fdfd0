"""rulebook init --update: the starter's fixes reach a project made before them, local edits kept."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulebook_compiler import starter
from rulebook_compiler import starter_update as U
from rulebook_compiler.cli import main


def rulebook(*args: str):
    return CliRunner().invoke(main, list(args), prog_name="rulebook")


def files_under(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture
def project(tmp_path, monkeypatch) -> Path:
    monkeypatch.setattr(starter, "compiler_source", lambda: None)
    monkeypatch.chdir(tmp_path)
    assert rulebook("init", "--example", "g").exit_code == 0
    return tmp_path / "g"


def starter_of_tomorrow(monkeypatch, changes: dict[str, str | None]) -> dict[str, str]:
    """A later starter: ``changes`` replaces (or, with None, drops) some of today's files."""
    today = starter.managed_files(None)
    later = {rel: text for rel, text in {**today, **changes}.items() if text is not None}
    monkeypatch.setattr(starter, "managed_files", lambda source: later)
    return later


# --- the plan: three texts per file -------------------------------------------------------------

BASE, EDITED, NEW = "base\n", "edited here\n", "starter's new\n"


@pytest.mark.parametrize("recorded, here, today, kind", [
    (BASE, BASE, NEW, "updated"),          # unedited: take the starter's
    (BASE, EDITED, BASE, "kept"),          # edited, starter unchanged: keep the edit
    (BASE, EDITED, NEW, "conflict"),       # both changed: keep, and write the new one beside it
    (BASE, NEW, NEW, "up-to-date"),        # edited into what the starter has now
    (BASE, None, NEW, "removed-here"),     # removed on purpose: not restored
    (None, None, NEW, "added"),            # new in the starter
    (None, EDITED, NEW, "conflict"),       # no record (a project older than it): a difference is an edit
    (None, NEW, NEW, "up-to-date"),
], ids=["updated", "kept", "conflict", "same", "removed-here", "added", "no-record", "no-record-same"])
def test_plan_of_a_starter_file(recorded, here, today, kind):
    record = {} if recorded is None else {"f": U.digest(recorded)}
    step, = U.plan(record, {"f": here}, {"f": today})
    assert (step.kind, step.text) == (kind, today if kind in ("updated", "added", "conflict") else None)


@pytest.mark.parametrize("here, kind", [(BASE, "obsolete-removed"), (EDITED, "obsolete-kept"), (None, "up-to-date")])
def test_plan_of_a_file_the_starter_no_longer_has(here, kind):
    step, = U.plan({"old": U.digest(BASE)}, {"old": here}, {})
    assert step.kind == kind


def test_a_link_is_never_written_through():
    step, = U.plan({"f": U.digest(BASE)}, {}, {"f": NEW}, frozenset({"f"}))
    assert step.kind == "link"


# --- the command -------------------------------------------------------------------------------

def test_a_fresh_project_is_up_to_date_and_the_update_writes_nothing(project):
    before = files_under(project)
    result = rulebook("init", "--update", "g")
    assert (result.exit_code, result.stdout, result.stderr) == (0, "Up to date.\n", "")
    assert files_under(project) == before


def test_an_update_brings_fixes_and_keeps_local_edits(project, monkeypatch):
    workflow, settings, hooks = ".github/workflows/rulebook.yml", ".vscode/settings.json", ".pre-commit-config.yaml"
    (project / settings).write_text('{"mine": true}\n')  # edited here; the starter's will not change
    (project / hooks).write_text("# mine\n")  # edited here, and the starter's will change
    (project / ".gitignore").unlink()  # removed on purpose
    own = {rel: data for rel, data in files_under(project).items() if rel.startswith("rulebook/")}
    later = starter_of_tomorrow(monkeypatch, {workflow: "# fixed workflow\n", hooks: "# fixed hooks\n",
                                              ".github/new.yml": "# a new starter file\n"})
    result = rulebook("init", "--update", "g")
    assert (result.exit_code, result.stdout, result.stderr) == (0, (
        "added .github/new.yml\n"
        "updated .github/workflows/rulebook.yml\n"
        "kept .vscode/settings.json (edited here; the starter's is unchanged)\n"
        "not restored .gitignore (removed here)\n"), (
        ".pre-commit-config.yaml:1:1: warning: edited here and changed in the starter: kept as it is\n"
        "  hint: the starter's new version is in .pre-commit-config.yaml.rulebook-new: merge it by hand, "
        "then delete it\n"))
    assert (project / workflow).read_text() == "# fixed workflow\n"
    assert (project / ".github/new.yml").read_text() == "# a new starter file\n"
    assert (project / settings).read_text() == '{"mine": true}\n'
    assert (project / hooks).read_text() == "# mine\n"
    assert (project / (hooks + ".rulebook-new")).read_text() == "# fixed hooks\n"
    assert not (project / ".gitignore").exists()
    # the rulebook's own files are not touched
    assert {rel: data for rel, data in files_under(project).items() if rel.startswith("rulebook/")} == own
    # the base of every starter file is now today's starter: a second update has nothing to do
    assert json.loads((project / U.RECORD).read_text())["files"] == {rel: U.digest(t) for rel, t in later.items()}
    again = rulebook("init", "--update", "g")
    assert (again.exit_code, again.stdout, again.stderr) == (0, (
        "kept .pre-commit-config.yaml (edited here; the starter's is unchanged)\n"
        "kept .vscode/settings.json (edited here; the starter's is unchanged)\n"
        "not restored .gitignore (removed here)\n"), "")


def test_a_file_the_starter_dropped_is_removed_only_if_unedited(project, monkeypatch):
    (project / ".github/workflows/rulebook-comment.yml").write_text("# mine\n")
    starter_of_tomorrow(monkeypatch, {".gitignore": None, ".github/workflows/rulebook-comment.yml": None})
    result = rulebook("init", "--update", "g")
    assert (result.exit_code, result.stdout, result.stderr) == (0, (
        "removed (no longer a starter file, unedited) .gitignore\n"
        "kept .github/workflows/rulebook-comment.yml (edited here; no longer a starter file)\n"), "")
    assert not (project / ".gitignore").exists()
    assert (project / ".github/workflows/rulebook-comment.yml").read_text() == "# mine\n"


def test_a_project_made_before_the_record_takes_only_what_it_can_tell(project, monkeypatch):
    # An older init wrote no record and a mkdocs.yml: unknown to the starter now, so left alone.
    (project / U.RECORD).unlink()
    (project / "mkdocs.yml").write_text("site_name: g\n")
    (project / ".gitignore").write_text("public/\n")  # an older starter's
    result = rulebook("init", "--update", "g")
    assert (result.exit_code, result.stdout) == (0, "")
    assert result.stderr == (
        ".gitignore:1:1: warning: edited here and changed in the starter: kept as it is\n"
        "  hint: the starter's new version is in .gitignore.rulebook-new: merge it by hand, then delete it\n")
    assert (project / "mkdocs.yml").read_text() == "site_name: g\n"
    assert (project / ".gitignore.rulebook-new").read_text() == starter.GITIGNORE
    assert sorted(json.loads((project / U.RECORD).read_text())["files"]) == sorted(starter.managed_files(None))


def test_a_link_is_reported_and_left_alone(project, monkeypatch, tmp_path):
    outside = tmp_path / "outside.yml"
    outside.write_text("# elsewhere\n")
    (project / ".github/workflows/rulebook.yml").unlink()
    (project / ".github/workflows/rulebook.yml").symlink_to(outside)
    starter_of_tomorrow(monkeypatch, {".github/workflows/rulebook.yml": "# fixed\n"})
    result = rulebook("init", "--update", "g")
    assert (result.exit_code, result.stdout, result.stderr) == (0, "", (
        ".github/workflows/rulebook.yml:1:1: warning: is a symbolic link: not updated\n"
        "  hint: replace the link with the file to have it updated\n"))
    assert outside.read_text() == "# elsewhere\n"


def test_a_broken_record_is_an_error_and_nothing_is_written(project):
    (project / U.RECORD).write_text("{not json")
    before = files_under(project)
    result = rulebook("init", "--update", "g")
    assert result.exit_code == 1
    assert result.stderr.startswith("g/.rulebook-init.json:1:1: error: cannot read the starter's record: ")
    assert result.stderr.endswith(
        "  hint: delete .rulebook-init.json: the update then treats every file that differs as edited here\n"
        "1 problem found\n")
    assert files_under(project) == before


def test_update_outside_a_project_and_with_content_options_are_usage_errors(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = rulebook("init", "--update", ".")
    assert (result.exit_code, result.stderr) == (2, (
        "rulebook: error: DIR: '.' holds no rulebook/rulebook.yaml: not a project init made\n"
        "  hint: see 'rulebook init --help'\n"))
    result = rulebook("init", "--update", "--example", ".")
    assert (result.exit_code, result.stderr) == (2, (
        "rulebook: error: --update takes no --title or --example: it leaves the rulebook's own files alone\n"
        "  hint: see 'rulebook init --help'\n"))
    assert list(tmp_path.iterdir()) == []
