"""rulebook init: a new project in which check, build, diff and conformance generate work at once."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import jsonschema
import pytest
import yaml
from click.testing import CliRunner

from rulebook_compiler import starter
from rulebook_compiler.cli import main

FILES = sorted([
    ".github/workflows/rulebook-comment.yml", ".github/workflows/rulebook.yml", ".gitignore", ".pre-commit-config.yaml", ".vscode/settings.json",
    ".rulebook-init.json", ".schemas/corrections.schema.json", ".schemas/rulebook.json", ".schemas/rulebook.schema.json",
    ".schemas/rulings.schema.json",
    ".schemas/vocabulary-overlay.schema.json", ".schemas/vocabulary.schema.json",
    "rulebook/rulebook.yaml", "rulebook/vocabulary.yaml"])
EXAMPLE = "rulebook/editions/1.0/draw.yaml"


def rulebook(*args: str):
    return CliRunner().invoke(main, list(args), prog_name="rulebook")


def files_under(folder: Path) -> list[str]:
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())


def start(tmp_path, monkeypatch, *options: str) -> Path:
    monkeypatch.setattr(starter, "compiler_source", lambda: None)
    monkeypatch.chdir(tmp_path)
    result = rulebook("init", *options, "mygame")
    assert (result.exit_code, result.stderr) == (0, "")
    what = ("edition 1.0, term 'draw'" if options else
            "draft edition 1.0, no term yet: add rulebook/editions/1.0/TERM.yaml")
    assert result.stdout == (
        f"Started a rulebook in mygame/: rulebook/ ({what}), .pre-commit-config.yaml, "
        ".github/workflows/ (rulebook.yml, rulebook-comment.yml), .vscode/, .schemas/.\nNext: cd mygame && rulebook check && rulebook build\n")
    monkeypatch.chdir(tmp_path / "mygame")
    return tmp_path / "mygame"


@pytest.fixture
def started(tmp_path, monkeypatch) -> Path:
    """A project as 'rulebook init --example' makes it: one demo term."""
    return start(tmp_path, monkeypatch, "--example")


@pytest.fixture
def empty(tmp_path, monkeypatch) -> Path:
    """A project as 'rulebook init' makes it: a draft edition and no term, nothing to delete."""
    return start(tmp_path, monkeypatch)


def test_init_writes_the_project(started):
    assert files_under(started) == sorted([*FILES, EXAMPLE])
    assert yaml.safe_load((started / "rulebook" / "rulebook.yaml").read_text())["title"] == "mygame"


def test_init_without_example_has_no_demo_content_and_passes_check(empty):
    assert files_under(empty) == FILES
    assert yaml.safe_load((empty / "rulebook" / "vocabulary.yaml").read_text()) == {"facts": [], "constraints": []}
    check = rulebook("check")
    assert (check.exit_code, check.stdout, check.stderr) == (
        0, "mygame: 1 edition (1.0), 0 terms, latest 1.0 with 0 terms and 0 clauses: no problems\n", "")


def test_the_title_is_in_one_file(empty):
    # rulebook.yaml alone: without a mkdocs.yml, build and serve name the site with its title
    holding = [rel for rel in files_under(empty) if "mygame" in (empty / rel).read_text()]
    assert holding == ["rulebook/rulebook.yaml"]


def test_check_build_diff_and_conformance_work_at_once(started):
    check = rulebook("check")
    assert (check.exit_code, check.stdout) == (0, "mygame: 1 edition (1.0), 1 term, latest 1.0 with 1 term and "
                                                  "1 clause: no problems\n")
    build = rulebook("build")
    assert build.exit_code == 0, build.output
    page = (started / "public" / "terms" / "draw" / "index.html").read_text()
    assert "A player may draw a card unless their hand is full." in page
    assert "<title>Draw - mygame</title>" in page
    diff = rulebook("diff", "1.0", "1.0")
    assert (diff.exit_code, diff.stderr) == (0, "")
    generate = rulebook("conformance", "generate", "--edition", "1.0", "--out", "suites")
    assert generate.exit_code == 0, generate.output
    cases = json.loads((started / "suites" / "cases.json").read_text())
    assert sorted(c["name"] for c in cases["cases"]) == [
        "draw.may_draw[-]", "draw.may_draw[hand_full]"]


# picomatch, the glob matcher behind VS Code's YAML extension (pinned in tests/site/package.json).
PICOMATCH = Path(__file__).resolve().parent / "site" / "node_modules" / "picomatch"
# For each path, the schemas whose globs take it, as the editor decides: a glob led by '!' excludes,
# and the last glob that matches a path decides (vscode-json-languageservice's FilePatternAssociation).
SCHEMAS_FOR = """
const pm = require(process.argv[1]);
const [settings, paths] = JSON.parse(require("fs").readFileSync(0, "utf8"));
const taken = (path, globs) => globs.reduce(
  (held, glob) => pm.isMatch(path, glob.replace(/^!/, "")) ? !glob.startsWith("!") : held, false);
console.log(JSON.stringify(Object.fromEntries(
  paths.map(path => [path, Object.keys(settings).filter(schema => taken(path, settings[schema]))]))));
"""


def editor_schemas(settings: dict[str, list[str]], paths: list[str]) -> dict[str, list[str]]:
    assert PICOMATCH.is_dir(), "picomatch is missing: npm ci --prefix tests/site (tools/test.sh runs it)"
    node = shutil.which("node")
    assert node, "Node.js is a test dependency (tools/test.sh installs it)"
    run = subprocess.run([node, "-e", SCHEMAS_FOR, str(PICOMATCH)], input=json.dumps([settings, paths]),
                         capture_output=True, text=True, check=True, timeout=60)
    return json.loads(run.stdout)


# A term file, a patch of one and an overlay in a second edition, besides the files init writes.
KINDS = {"rulebook/rulebook.yaml": "rulebook.schema.json", "rulebook/vocabulary.yaml": "vocabulary.schema.json",
         "rulebook/editions/1.0/draw.yaml": "rulebook.json", "rulebook/editions/2.0/draw.yaml": "rulebook.json",
         "rulebook/editions/2.0/_vocabulary.yaml": "vocabulary-overlay.schema.json",
         "rulebook/editions/2.0/a_b.yaml": "rulebook.json", "rulebook/corrections.yaml": "corrections.schema.json",
         "rulebook/editions/2.0/_rulings.yaml": "rulings.schema.json"}


def test_each_kind_of_file_gets_exactly_its_schema_in_the_editor(started):
    settings = json.loads((started / ".vscode" / "settings.json").read_text())["yaml.schemas"]
    assert editor_schemas(settings, sorted(KINDS)) == {path: [f"./.schemas/{schema}"]
                                                       for path, schema in sorted(KINDS.items())}


def test_the_editor_globs_use_no_bracket_negation():
    # '[!_]' is "not '_'" in fnmatch and bash but "'!' or '_'" in picomatch: a negated glob says it instead.
    globs = [glob for _, patterns in starter.SCHEMA_GLOBS for glob in patterns]
    assert [glob for glob in globs if "[" in glob] == []
    assert dict(starter.SCHEMA_GLOBS)["rulebook.json"] == (
        "rulebook/editions/*/*.yaml", "!rulebook/editions/*/_vocabulary.yaml", "!rulebook/editions/*/_rulings.yaml",
        "!rulebook/editions/*/_sources.yaml")  # rulebook import's sources map is no term file


def test_each_rulebook_file_is_valid_against_the_schema_the_editor_gives_it(started):
    settings = json.loads((started / ".vscode" / "settings.json").read_text())["yaml.schemas"]
    sources = [f for f in files_under(started) if f.startswith("rulebook/")]
    for source, (schema,) in editor_schemas(settings, sources).items():
        jsonschema.validate(yaml.safe_load((started / source).read_text()),
                            json.loads((started / schema).read_text()))
    # the copies are the package's files
    from rulebook_compiler.schema import shipped_files
    assert {s: (started / s).read_text() for s in settings} == {s: shipped_files()[Path(s).name] for s in settings}


def test_the_hook_and_the_workflow_without_a_known_repository(started):
    hooks = yaml.safe_load((started / ".pre-commit-config.yaml").read_text())["repos"]
    # pre-commit installs the compiler in its own environment, from where this one was installed
    assert hooks == [{"repo": "local", "hooks": [{"id": "rulebook-check", "name": "rulebook check",
                                                  "entry": "rulebook check", "language": "python",
                                                  "additional_dependencies": [starter.compiler_requirement()],
                                                  "files": "^rulebook/", "pass_filenames": False}]}]
    # The workflows are tests/test_workflows.py's: here, that init writes them as starter.workflows makes them.
    assert {rel: (started / rel).read_text() for rel in starter.workflows(None)} == starter.workflows(None)
    steps = yaml.safe_load((started / ".github" / "workflows" / "rulebook.yml").read_text())["jobs"]["rulebook"]["steps"]
    assert steps[-1] == {"uses": "./.rulebook-compiler", "with": {"fail-on": "published-change"}}


def test_the_hook_and_the_workflow_name_the_repository_the_compiler_came_from(tmp_path, monkeypatch):
    monkeypatch.setattr(starter, "compiler_source", lambda: ("https://github.com/x/rulebook-compiler.git", "ab12"))
    assert rulebook("init", str(tmp_path / "g")).exit_code == 0
    hooks = yaml.safe_load((tmp_path / "g" / ".pre-commit-config.yaml").read_text())["repos"]
    assert hooks == [{"repo": "https://github.com/x/rulebook-compiler.git", "rev": "ab12",
                      "hooks": [{"id": "rulebook-check"}]}]
    # A commit id shorter than seven hex digits is no 'uses:' ref: the workflow reads the variables.
    steps = yaml.safe_load((tmp_path / "g" / ".github" / "workflows" / "rulebook.yml").read_text())["jobs"][
        "rulebook"]["steps"]
    assert steps[-1]["uses"] == "./.rulebook-compiler"
    monkeypatch.setattr(starter, "compiler_source", lambda: ("https://github.com/x/rulebook-compiler.git", "ab12cd3"))
    assert rulebook("init", str(tmp_path / "h")).exit_code == 0
    steps = yaml.safe_load((tmp_path / "h" / ".github" / "workflows" / "rulebook.yml").read_text())["jobs"][
        "rulebook"]["steps"]
    assert steps[-1] == {"uses": "x/rulebook-compiler@ab12cd3", "with": {"fail-on": "published-change"}}


def test_init_writes_over_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".gitignore").write_text("mine\n")
    (tmp_path / "rulebook").mkdir()
    (tmp_path / "rulebook" / "rulebook.yaml").write_text("mine too\n")
    result = rulebook("init")
    assert result.exit_code == 2
    assert result.stderr == (
        "rulebook: error: DIR: '.' already holds rulebook/rulebook.yaml, .gitignore; init writes only "
        "new files and wrote none: choose a new or empty folder (or bring a project made by init up to date: "
        "rulebook init --update)\n  hint: see 'rulebook init --help'\n")
    assert files_under(tmp_path) == [".gitignore", "rulebook/rulebook.yaml"]
    assert (tmp_path / ".gitignore").read_text() == "mine\n"


# The second: a JSON string is not a YAML scalar by construction: YAML refuses DEL and C1
# controls written raw, and folds a raw NEL (U+0085) into a space.
@pytest.mark.parametrize("title", ['Quotes " and: colons # and <b>tags</b> 🃏',
                                   'Del \x7f, CSI \x9b, NEL \x85, "><script>alert(1)</script>: {{ x }}'])
def test_a_title_reaches_the_rulebook_and_the_site_as_written(tmp_path, monkeypatch, title):
    monkeypatch.chdir(tmp_path)
    assert rulebook("init", "--title", title, "g").exit_code == 0
    assert yaml.safe_load((tmp_path / "g" / "rulebook" / "rulebook.yaml").read_text())["title"] == title
    # the site's name is rulebook.yaml's title: no other file holds it
    word = title.split()[0]
    assert [rel for rel in files_under(tmp_path / "g") if word in (tmp_path / "g" / rel).read_text()] == [
        "rulebook/rulebook.yaml"]


def test_the_repository_and_commit_are_escaped_in_the_hook_and_the_workflow(tmp_path, monkeypatch):
    # The URL and commit come from the installed package's metadata (direct_url.json) or a
    # clone's git: written as YAML scalars by the emitter, so no character of theirs is YAML.
    url, commit = "https://example.org/a\x7fb: #c", "ab12\n    - id: injected"
    monkeypatch.setattr(starter, "compiler_source", lambda: (url, commit))
    assert rulebook("init", str(tmp_path / "g")).exit_code == 0
    hooks = yaml.safe_load((tmp_path / "g" / ".pre-commit-config.yaml").read_text())["repos"]
    assert hooks == [{"repo": url, "rev": commit, "hooks": [{"id": "rulebook-check"}]}]
    # Neither is a GitHub repository at a hex commit: the workflow names neither, it reads the variables.
    workflow = (tmp_path / "g" / ".github" / "workflows" / "rulebook.yml").read_text()
    assert workflow == starter.workflows(None)[".github/workflows/rulebook.yml"]


@pytest.mark.parametrize("links", [["rulebook"], [".schemas", ".vscode"]], ids=["one", "two"])
def test_init_writes_nothing_through_a_symbolic_link(tmp_path, monkeypatch, links):
    # A folder inside DIR that is a link to elsewhere: init would write its files there.
    monkeypatch.chdir(tmp_path)
    (tmp_path / "g").mkdir()
    for name in links:
        (tmp_path / f"outside-{name}").mkdir()
        (tmp_path / "g" / name).symlink_to(tmp_path / f"outside-{name}", target_is_directory=True)
    result = rulebook("init", "g")
    assert result.exit_code == 2
    assert result.stderr == (
        f"rulebook: error: DIR: {', '.join(repr('g/' + name) for name in sorted(links))} "
        f"{'is a symbolic link' if len(links) == 1 else 'are symbolic links'}; init writes only inside "
        "'g' and wrote nothing: remove the link or choose another folder\n  hint: see 'rulebook init --help'\n")
    assert [p.relative_to(tmp_path).as_posix() for p in sorted(tmp_path.rglob("*"))] == sorted(
        [*(f"outside-{name}" for name in links), "g", *(f"g/{name}" for name in links)])


def test_init_in_a_folder_named_through_a_link_writes_there(tmp_path, monkeypatch):
    # DIR itself may be a link: it is the folder the user named.
    monkeypatch.setattr(starter, "compiler_source", lambda: None)
    (tmp_path / "real").mkdir()
    (tmp_path / "g").symlink_to(tmp_path / "real", target_is_directory=True)
    assert rulebook("init", str(tmp_path / "g")).exit_code == 0
    assert files_under(tmp_path / "real") == FILES
