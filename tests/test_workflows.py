"""The CI files: the two workflows ``rulebook init`` writes (== examples/ci/) and the action (action.yml).

The pull request's workflow runs what the branch holds (``rulebook build`` renders its templates
unsandboxed) with a read-only token; the comment workflow holds the token that writes and runs
nothing of the branch: it downloads the diff as data and posts it (docs/ci.md).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from rulebook_compiler import starter

ROOT = Path(__file__).resolve().parents[1]
MARKER = "<!-- rulebook-diff -->"
GITHUB = ("https://github.com/acme/rulebook-compiler.git", "0123456789abcdef0123456789abcdef01234567")
PR = ".github/workflows/rulebook.yml"
COMMENT = ".github/workflows/rulebook-comment.yml"


def load(text: str) -> dict:
    return yaml.load(text, Loader=yaml.BaseLoader)  # "on" stays a string; every scalar a string


def steps_of(doc: dict) -> list[dict]:
    if "runs" in doc:
        return doc["runs"]["steps"]
    return [step for job in doc["jobs"].values() for step in job["steps"]]


def every_file() -> dict[str, str]:
    """Name -> text of every workflow and action file the project writes or ships."""
    files = {f"init/{rel}": text for rel, text in starter.workflows(None).items()}
    files |= {f"init-github/{rel}": text for rel, text in starter.workflows(GITHUB).items()}
    files |= {f"examples/ci/{p.name}": p.read_text() for p in sorted((ROOT / "examples" / "ci").glob("*.yml"))}
    files["action.yml"] = (ROOT / "action.yml").read_text()
    return files


def check_jsonschema(schema: str, *paths: Path) -> subprocess.CompletedProcess:
    # The schemas are vendored in the package: no network (check-jsonschema, test extra).
    return subprocess.run([sys.executable, "-m", "check_jsonschema", "--builtin-schema", schema, *map(str, paths)],
                          capture_output=True, text=True, timeout=120)


def test_every_workflow_and_the_action_validate_against_githubs_schemas(tmp_path):
    paths = []
    for name, text in every_file().items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        paths.append(path)
    workflows = [p for p in paths if p.name != "action.yml"]
    assert len(workflows) == 6
    found = check_jsonschema("vendor.github-workflows", *workflows)
    assert (found.returncode, found.stdout) == (0, "ok -- validation done\n"), found.stdout + found.stderr
    action = check_jsonschema("vendor.github-actions", tmp_path / "action.yml")
    assert (action.returncode, action.stdout) == (0, "ok -- validation done\n"), action.stdout + action.stderr


def test_the_schema_check_rejects_a_broken_workflow(tmp_path):
    # So that the check above can fail: a permission level GitHub has not.
    broken = tmp_path / "broken.yml"
    broken.write_text(starter.workflows(None)[PR].replace("contents: read", "contents: banana"))
    assert check_jsonschema("vendor.github-workflows", broken).returncode == 1


def test_the_examples_are_what_init_writes_without_a_known_repository():
    assert {f"examples/ci/{Path(rel).name}": text for rel, text in starter.workflows(None).items()} == {
        name: text for name, text in every_file().items() if name.startswith("examples/")}


@pytest.mark.parametrize("source", [None, GITHUB], ids=["variables", "github"])
def test_the_pull_requests_workflow_holds_a_read_only_token(source):
    workflow = load(starter.workflows(source)[PR])
    assert workflow["on"] == ["push", "pull_request"]
    assert workflow["permissions"] == {"contents": "read"}
    assert [job.get("permissions") for job in workflow["jobs"].values()] == [None]
    checkout = steps_of(workflow)[0]
    assert checkout == {"uses": "actions/checkout@v4", "with": {"fetch-depth": "0", "persist-credentials": "false"}}


def test_init_uses_the_action_at_the_commit_it_was_installed_from():
    steps = steps_of(load(starter.workflows(GITHUB)[PR]))
    assert steps[1:] == [{"uses": f"acme/rulebook-compiler@{GITHUB[1]}", "with": {"fail-on": "published-change"}}]


def test_without_a_known_repository_the_action_comes_from_two_repository_variables():
    steps = steps_of(load(starter.workflows(None)[PR]))
    assert steps[1]["if"] == "vars.RULEBOOK_COMPILER_REPOSITORY == ''"
    assert steps[1]["run"].splitlines()[0] == (
        'echo "::error::set the repository variable RULEBOOK_COMPILER_REPOSITORY to rulebook-compiler\'s '
        'repository on GitHub (OWNER/NAME), and RULEBOOK_COMPILER_REF to a commit of it"')
    assert steps[2:] == [
        {"name": "Get rulebook-compiler", "uses": "actions/checkout@v4",
         "with": {"repository": "${{ vars.RULEBOOK_COMPILER_REPOSITORY }}", "ref": "${{ vars.RULEBOOK_COMPILER_REF }}",
                  "path": ".rulebook-compiler", "persist-credentials": "false"}},
        {"uses": "./.rulebook-compiler", "with": {"fail-on": "published-change"}}]


@pytest.mark.parametrize(("url", "commit", "uses"), [
    ("https://github.com/acme/rc.git", "abcdef1", "acme/rc@abcdef1"),
    ("https://github.com/acme/rc", "abcdef1", "acme/rc@abcdef1"),
    ("ssh://git@github.com/acme/rc.git", "abcdef1", "acme/rc@abcdef1"),
    ("https://gitlab.com/acme/rc.git", "abcdef1", None),  # 'uses:' takes GitHub repositories only
    ("https://github.com/acme/rc/extra", "abcdef1", None),
    ("https://github.com/acme/rc.git", "ab12\n    - id: injected", None),
    ("https://github.com/ac me/rc.git", "abcdef1", None),
])
def test_only_a_github_repository_at_a_hex_commit_becomes_a_uses_line(url, commit, uses):
    assert starter.github_action((url, commit)) == uses


def test_the_comment_workflow_runs_nothing_of_the_pull_request():
    workflow = load(starter.workflows(None)[COMMENT])
    pr_name = load(starter.workflows(None)[PR])["name"]
    assert workflow["on"] == {"workflow_run": {"workflows": [pr_name], "types": ["completed"]}}
    assert workflow["permissions"] == {"actions": "read", "pull-requests": "write"}
    (job,) = workflow["jobs"].values()
    assert job["if"] == "github.event.workflow_run.event == 'pull_request'"
    steps = steps_of(workflow)
    # No checkout, no local action, no shell: only the artifact's download and a script of its own.
    assert [s.get("uses") for s in steps] == ["actions/download-artifact@v4", "actions/github-script@v7"]
    assert [s for s in steps if "run" in s] == []
    assert steps[0]["with"] == {"name": "rulebook-diff", "run-id": "${{ github.event.workflow_run.id }}",
                                "github-token": "${{ github.token }}", "path": "${{ runner.temp }}/rulebook-diff"}
    # The event's values reach the script through the environment, not pasted into it.
    assert steps[1]["env"] == {"DIFF": "${{ runner.temp }}/rulebook-diff",
                               "HEAD_SHA": "${{ github.event.workflow_run.head_sha }}"}


def test_no_expression_is_pasted_into_a_script():
    """GitHub's hardening guide: ${{ }} in run: (or a github-script's script) is pasted in before the
    shell or JavaScript reads it, so a branch name or a title could run as code. Values go through env."""
    pasted = {name: [s.get("name", s.get("uses")) for s in steps_of(load(text))
                     if "${{" in s.get("run", "") + s.get("with", {}).get("script", "")]
              for name, text in every_file().items()}
    assert pasted == {name: [] for name in every_file()}


def test_the_action_and_the_comment_use_one_marker():
    diff = next(s for s in steps_of(load((ROOT / "action.yml").read_text())) if s.get("id") == "diff")
    assert f"  echo '{MARKER}'" in diff["run"].splitlines()
    script = steps_of(load(starter.workflows(None)[COMMENT]))[1]["with"]["script"]
    assert f"const marker = '{MARKER}';" in script.splitlines()


# -- the action's steps, run ------------------------------------------------------------------

FAKE_RULEBOOK = """#!/bin/sh
echo "rulebook $*" >> "$LOG"
case "$*" in
  *"--format markdown"*) [ -n "$EMPTY" ] || printf '## Rulebook changes: a \\342\\206\\222 b\\n\\nbody\\n'
                         exit "${MD_EXIT:-0}";;
  *"--format html"*) echo "<html>"; exit "${MD_EXIT:-0}";;
esac
"""


def action_step(tmp_path: Path, name: str, **env: str) -> tuple[subprocess.CompletedProcess, Path]:
    """Run the action's step ``name`` as GitHub runs a composite's bash step, with a fake rulebook and pip."""
    (step,) = [s for s in steps_of(load((ROOT / "action.yml").read_text())) if s.get("name") == name]
    bin_ = tmp_path / "bin"
    bin_.mkdir(exist_ok=True)
    for tool, text in (("rulebook", FAKE_RULEBOOK), ("pip", '#!/bin/sh\necho "pip $*" >> "$LOG"\n')):
        (bin_ / tool).write_text(text)
        (bin_ / tool).chmod(0o755)
    for name_ in ("GITHUB_OUTPUT", "GITHUB_STEP_SUMMARY", "LOG"):
        (tmp_path / name_).write_text("")
    base = {"PATH": f"{bin_}{os.pathsep}{os.path.dirname(shutil.which('cat'))}", "RULEBOOK": "rulebook",
            "BASE": "", "HEAD_SIDE": "git:HEAD", "FAIL_ON": "published-change", "PR_NUMBER": "",
            "OUT": str(tmp_path / "out"), "GITHUB_ACTION_PATH": "/actions/rc", "COMPILER": "",
            **{n: str(tmp_path / n) for n in ("GITHUB_OUTPUT", "GITHUB_STEP_SUMMARY", "LOG")}}
    run = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]], cwd=tmp_path,
                         env=base | env, capture_output=True, text=True, timeout=30)
    return run, tmp_path


def read(folder: Path, name: str) -> str:
    return (folder / name).read_text()


def test_on_a_pull_request_the_diff_goes_to_a_file_with_the_marker_first_and_to_the_summary(tmp_path):
    run, t = action_step(tmp_path, "Diff the rules", GITHUB_BASE_REF="main", PR_NUMBER="42")
    assert (run.returncode, run.stderr) == (0, "")
    markdown = f"{MARKER}\n## Rulebook changes: a → b\n\nbody\n"
    assert read(t, "out/rulebook-diff.md") == markdown
    assert read(t, "GITHUB_STEP_SUMMARY") == markdown
    assert (read(t, "out/rulebook-diff.html"), read(t, "out/pr-number")) == ("<html>\n", "42\n")
    assert sorted(p.name for p in (t / "out").iterdir()) == ["pr-number", "rulebook-diff.html", "rulebook-diff.md"]
    assert read(t, "GITHUB_OUTPUT") == (f"markdown={t}/out/rulebook-diff.md\nhtml={t}/out/rulebook-diff.html\n"
                                        "exit-code=0\n")
    assert read(t, "LOG").splitlines() == [
        "rulebook diff --rulebook rulebook git:origin/main git:HEAD --format markdown --fail-on published-change",
        "rulebook diff --rulebook rulebook git:origin/main git:HEAD --format html"]


def test_a_change_that_fail_on_names_is_still_written_and_the_exit_code_kept_for_the_last_step(tmp_path):
    run, t = action_step(tmp_path, "Diff the rules", BASE="git:v1", MD_EXIT="1")
    assert run.returncode == 0  # the artifacts are uploaded first; "Fail on what fail-on names" fails the job
    assert read(t, "out/rulebook-diff.md") == (
        f"{MARKER}\n## Rulebook changes: a → b\n\nbody\n\n"
        "_This check fails (rulebook diff exit 1): the job's log says why._\n")
    assert read(t, "GITHUB_OUTPUT").splitlines()[-1] == "exit-code=1"
    assert not (t / "out" / "pr-number").exists()  # not a pull request: nothing to comment on


def test_a_diff_that_failed_says_so_in_the_comment(tmp_path):
    run, t = action_step(tmp_path, "Diff the rules", BASE="git:v1", MD_EXIT="2", EMPTY="1", FAIL_ON="")
    assert run.returncode == 0
    assert read(t, "out/rulebook-diff.md") == f"{MARKER}\n_rulebook diff failed (exit 2): the job's log says why._\n"
    assert read(t, "LOG").splitlines()[0] == "rulebook diff --rulebook rulebook git:v1 git:HEAD --format markdown"


def test_a_push_is_not_diffed(tmp_path):
    run, t = action_step(tmp_path, "Diff the rules")
    assert (run.returncode, run.stdout) == (0, "No diff: not a pull request, and no base input.\n")
    assert (read(t, "GITHUB_OUTPUT"), read(t, "LOG"), (t / "out").exists()) == ("", "", False)


def test_the_action_installs_its_own_copy_of_the_compiler_unless_told_otherwise(tmp_path):
    run, t = action_step(tmp_path, "Install rulebook-compiler")
    assert (run.returncode, read(t, "LOG")) == (0, "pip install /actions/rc[site]\n")
    other = tmp_path / "other"
    other.mkdir()
    run, t = action_step(other, "Install rulebook-compiler", COMPILER="rulebook-compiler @ git+https://x/y@1")
    assert (run.returncode, read(t, "LOG")) == (0, "pip install rulebook-compiler @ git+https://x/y@1\n")


# -- the comment's script, run in Node with GitHub's API faked -------------------------------

HARNESS = """
const fs = require('fs');
const [scriptFile, stateFile] = process.argv.slice(2);
const state = JSON.parse(fs.readFileSync(stateFile, 'utf8'));
const calls = [];
const github = {
  rest: {
    pulls: { get: async (a) => { calls.push(['pulls.get', a]); return { data: { head: { sha: state.sha } } }; } },
    issues: {
      listComments: 'listComments',
      updateComment: async (a) => { calls.push(['updateComment', a]); },
      createComment: async (a) => { calls.push(['createComment', a]); },
    },
  },
  paginate: async (method, a) => { calls.push(['paginate', method, a]); return state.comments; },
};
const context = { repo: { owner: 'acme', repo: 'rules' } };
const core = { setFailed: (m) => calls.push(['setFailed', m]), notice: (m) => calls.push(['notice', m]) };
const AsyncFunction = Object.getPrototypeOf(async function () {}).constructor;
new AsyncFunction('require', 'github', 'context', 'core', fs.readFileSync(scriptFile, 'utf8'))(
  require, github, context, core).then(() => console.log(JSON.stringify(calls)));
"""
BOT = {"login": "github-actions[bot]"}


def comment(tmp_path: Path, number: str, markdown: str, comments: list[dict], sha: str = "c0ffee") -> list:
    """What the comment workflow's script asks of GitHub, given the artifact's files."""
    step = steps_of(load(starter.workflows(None)[COMMENT]))[1]
    (tmp_path / "diff").mkdir()
    (tmp_path / "diff" / "pr-number").write_text(number)
    (tmp_path / "diff" / "rulebook-diff.md").write_text(markdown)
    (tmp_path / "script.js").write_text(step["with"]["script"])
    (tmp_path / "state.json").write_text(json.dumps({"sha": sha, "comments": comments}))
    (tmp_path / "harness.js").write_text(HARNESS)
    run = subprocess.run(["node", "harness.js", "script.js", "state.json"], cwd=tmp_path, capture_output=True,
                         text=True, timeout=60, env={"PATH": os.environ["PATH"], "DIFF": str(tmp_path / "diff"),
                                                     "HEAD_SHA": "c0ffee"})
    assert (run.returncode, run.stderr) == (0, "")
    return json.loads(run.stdout)


LIST = ["paginate", "listComments", {"owner": "acme", "repo": "rules", "issue_number": 7}]
GET = ["pulls.get", {"owner": "acme", "repo": "rules", "pull_number": 7}]


def test_the_first_diff_of_a_pull_request_is_a_new_comment(tmp_path):
    body = f"{MARKER}\n## Rulebook changes\n"
    assert comment(tmp_path, "7\n", body, []) == [
        GET, LIST, ["createComment", {"owner": "acme", "repo": "rules", "issue_number": 7, "body": body}]]


def test_a_later_push_updates_the_bots_comment_not_someone_elses_with_the_marker(tmp_path):
    body = f"{MARKER}\nnew\n"
    comments = [{"id": 1, "user": {"login": "mallory"}, "body": f"{MARKER}\nquoted"},
                {"id": 4, "user": None, "body": f"{MARKER}\na deleted account's"},
                {"id": 5, "user": BOT, "body": None},
                {"id": 2, "user": BOT, "body": "a comment of another workflow"},
                {"id": 3, "user": BOT, "body": f"{MARKER}\nold\n"}]
    assert comment(tmp_path, "7", body, comments) == [
        GET, LIST, ["updateComment", {"owner": "acme", "repo": "rules", "comment_id": 3, "body": body}]]


def test_a_body_without_the_marker_gets_it_and_is_cut_to_githubs_limit(tmp_path):
    calls = comment(tmp_path, "7", "x" * 70_000, [])
    body = calls[-1][1]["body"]
    assert (body[:len(MARKER) + 3], len(body)) == (f"{MARKER}\nxx", 65_000)


@pytest.mark.parametrize("number", ["7; curl evil | sh", "", "-1", "7e3", "12345678901"])
def test_a_pull_request_number_that_is_not_digits_posts_nothing(tmp_path, number):
    assert comment(tmp_path, number, f"{MARKER}\n", []) == [
        ["setFailed", "the artifact names no pull request (pr-number is not a number)"]]


def test_a_number_that_names_a_pull_request_at_another_commit_posts_nothing(tmp_path):
    # The artifact is the pull request's to write: it may name another pull request than its own.
    assert comment(tmp_path, "7", f"{MARKER}\n", [], sha="another") == [
        GET, ["notice", "pull request 7 is no longer at c0ffee: its newer run comments"]]


def test_the_last_step_fails_the_job_with_the_diffs_exit_code(tmp_path):
    action = load((ROOT / "action.yml").read_text())
    (last,) = [s for s in steps_of(action) if s.get("name") == "Fail on what fail-on names"]
    assert steps_of(action)[-1] is last  # after both uploads
    assert last["if"] == ("(steps.diff.outputs.exit-code != '' && steps.diff.outputs.exit-code != '0') "
                          "|| steps.check.outputs.exit-code != '0'")
    run, _ = action_step(tmp_path, "Fail on what fail-on names", STATUS="1", CHECK="0")
    assert (run.returncode, run.stdout) == (1, "::error::rulebook diff exited with 1: a change at the fail-on level, "
                                               "or an error (the step 'Diff the rules' says which)\n")
    run, _ = action_step(tmp_path, "Fail on what fail-on names", STATUS="0", CHECK="1")
    assert (run.returncode, run.stdout) == (1, "::error::rulebook check exited with 1: the rulebook fails check, or "
                                               "its published record is not append-only against the base (the step "
                                               "'Check the rulebook' says where)\n")


@pytest.mark.parametrize("base, ref, called", [
    ("", "main", "rulebook check --against git:origin/main rulebook"),  # a pull request: its base branch
    ("git:v1", "", "rulebook check --against git:v1 rulebook"),
    ("git:v1:1.0", "", "rulebook check rulebook"),  # an edition: no whole base to review against
    ("", "", "rulebook check rulebook"),  # a push
])
def test_the_check_reviews_the_published_record_against_the_base(tmp_path, base, ref, called):
    action = load((ROOT / "action.yml").read_text())
    names = [s.get("name") for s in steps_of(action)]
    assert names.index("Check the rulebook") > names.index("Upload the diff")  # a failing check is still shown
    run, t = action_step(tmp_path, "Check the rulebook", BASE=base, GITHUB_BASE_REF=ref)
    assert (run.returncode, read(t, "LOG"), read(t, "GITHUB_OUTPUT")) == (0, called + "\n", "exit-code=0\n")
