"""One vocabulary of options (issue 25.1, docs/cli.md), held to by walking the click tree.

Every command of ``rulebook`` (found from the group, not listed by hand: a new one must be
classified here) spells the rulebook folder ``--rulebook DIR`` with one default and one error,
names an edition ``--edition ID``, takes ``-q`` and then prints nothing but errors (and the data it
was asked for), and reports a usage error as ``rulebook: error: ...`` and a hint, exit 2.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from rulebook_compiler.cli import main
from rulebook_compiler.commands import options

FIXTURES = Path(__file__).resolve().parent / "fixtures"
MINIMAL = FIXTURES / "minimal"
GOOD_ENGINE = f"{sys.executable} {FIXTURES / 'conformance' / 'engines' / 'good.py'}"  # right on v1
IMPORT_SOURCE = FIXTURES / "importer" / "on-top" / "source-b.txt"


def _walk(group: click.Group, path: tuple[str, ...] = ()) -> dict[str, click.Command]:
    """Every command under ``group`` by its path ("conformance run"), groups left out."""
    found: dict[str, click.Command] = {}
    for name, command in group.commands.items():
        if isinstance(command, click.Group):
            found.update(_walk(command, path + (name,)))
        else:
            found[" ".join(path + (name,))] = command
    return found


COMMANDS = _walk(main)

# what each command is, for the rules below (a command missing here fails the first test)
NO_RULEBOOK = {"init", "schema"}  # init writes one; schema prints the file formats
OWN_HELP = {"build": options.RULEBOOK_SITE_HELP, "serve": options.RULEBOOK_SITE_HELP,
            "import": options.RULEBOOK_IMPORT_HELP}
EDITION_REQUIRED = {"conformance generate", "conformance run", "conformance mutants"}
EDITION_LATEST = {"ask", "export", "import", "pdf"}
EDITION_OR_OLD_POSITIONAL = {"publish", "correct", "changelog"}  # --edition, or the deprecated positional
NO_EDITION = {"check", "diff", "history", "build", "serve", "init", "schema"}  # diff's sides are not editions


def _option(command: click.Command, name: str) -> click.Parameter:
    (param,) = [p for p in command.params if p.name == name and not getattr(p, "hidden", False)]
    return param


def test_the_walk_finds_every_command_and_each_is_classified():
    assert sorted(COMMANDS) == sorted(
        ["ask", "build", "changelog", "check", "conformance generate", "conformance mutants", "conformance run",
         "correct", "diff", "export", "history", "import", "init", "pdf", "publish", "schema", "serve"])
    classes = [EDITION_REQUIRED, EDITION_LATEST, EDITION_OR_OLD_POSITIONAL, NO_EDITION]
    assert sorted(name for c in classes for name in c) == sorted(COMMANDS)


@pytest.mark.parametrize("name", sorted(set(COMMANDS) - NO_RULEBOOK))
def test_the_rulebook_folder_is_one_option_everywhere(name):
    command = COMMANDS[name]
    root = _option(command, "root")
    assert (root.opts, root.secondary_opts, root.metavar, root.default, root.help) == (
        ["--rulebook"], [], "DIR", None, OWN_HELP.get(name, options.RULEBOOK_HELP))
    # no other spelling of it: --rulebook-dir, --root, --dir
    spelled = {o for p in command.params if isinstance(p, click.Option) for o in p.opts}
    assert {o for o in spelled if o.startswith(("--rulebook-", "--root", "--dir"))} == set()


@pytest.mark.parametrize("name", sorted(NO_RULEBOOK))
def test_the_commands_without_a_rulebook_have_no_rulebook_option(name):
    assert [p.name for p in COMMANDS[name].params if p.name == "root"] == []


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_an_edition_is_named_with_edition_everywhere(name):
    command = COMMANDS[name]
    visible = [p for p in command.params if not getattr(p, "hidden", False)]
    # no visible argument names an edition (the old positional EDITION is hidden from the usage line)
    usage = command.collect_usage_pieces(click.Context(command, info_name=name))
    assert [piece for piece in usage if "EDITION" in piece.upper()] == []
    editions = [p for p in visible if isinstance(p, click.Option) and any("edition" in o for o in p.opts)]
    if name in NO_EDITION:
        assert editions == []
        return
    (edition,) = editions
    required = name in EDITION_REQUIRED
    # import's --edition is the edition it writes, a new id (the one it follows is --after ID)
    assert (edition.opts, edition.secondary_opts, edition.metavar, edition.required) == (
        ["--edition"], [], "NEW" if name == "import" else "ID", required)
    if name not in ("import", "pdf"):  # their help says what the edition is for (written; printed, by default shown)
        assert edition.help == (options.EDITION_REQUIRED_HELP if required or name in EDITION_OR_OLD_POSITIONAL
                                else options.EDITION_HELP)


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_command_takes_q(name):
    (quiet,) = [p for p in COMMANDS[name].params if isinstance(p, click.Option) and "-q" in p.opts]
    assert (sorted(quiet.opts), quiet.is_flag, quiet.help) == (["--quiet", "-q"], True, options.QUIET_HELP)


# -- -q: nothing but errors --------------------------------------------------------------------

def _run(args: list[str]):
    return CliRunner().invoke(main, args, prog_name="rulebook")


@pytest.fixture
def project(tmp_path, monkeypatch):
    """A folder holding ./rulebook (the default every command finds), as the current folder."""
    shutil.copytree(MINIMAL, tmp_path / "rulebook")
    monkeypatch.chdir(tmp_path)
    return tmp_path


# each command as run with -q where it reports (stdout must be empty) ...
REPORTS = {
    "check": ["check"],
    "conformance generate": ["conformance", "generate", "--edition", "v1", "--out", "suite"],
    "conformance run": ["conformance", "run", "--edition", "v1", "--engine-cmd", GOOD_ENGINE],
    "build": ["build", "--out", "public"],
    "publish": ["publish", "--edition", "v1", "--reason", "First printing.", "--date", "2026-01-01"],
    "init": ["init", "new"],
    "import": ["import", str(IMPORT_SOURCE), "--layout", "reg", "--out", "imported"],
}
# ... and where its output is the data asked for (stdout as without -q)
DATA = {
    "ask": ["ask", "cure.may_target", "--fact", "poisoned=true", "--fact", "paralyzed=false",
            "--fact", "phase=battle"],
    "schema": ["schema", "--kind", "rulebook"],
    "export": ["export", "--edition", "v1"],
    "diff": ["diff", "v1", "v2"],
    "history": ["history", "cure"],
    "changelog": ["changelog", "--edition", "v2"],
    "conformance mutants": ["conformance", "mutants", "--edition", "v1"],
}
# correct needs a published edition changed since its lock (test below); serve runs until stopped;
# pdf drives Chromium, in a process of its own (tests/site/test_pdf.py runs it with -q)
NOT_RUN_HERE = {"correct", "serve", "pdf"}


def test_each_command_is_run_quietly_below():
    assert sorted([*REPORTS, *DATA, *NOT_RUN_HERE]) == sorted(COMMANDS)


@pytest.mark.parametrize("name", sorted(REPORTS))
def test_q_prints_nothing_when_all_is_well(tmp_path, monkeypatch, name):
    results = []
    for run, quiet in (("loud", []), ("quiet", ["-q"])):  # each in a fresh project: publish, init write
        shutil.copytree(MINIMAL, tmp_path / run / "rulebook")
        monkeypatch.chdir(tmp_path / run)
        results.append(_run([*REPORTS[name], *quiet]))
    loud, quiet = results
    assert (loud.exit_code, loud.stdout != "") == (0, True), loud.output  # there was a summary to silence
    assert (quiet.exit_code, quiet.stdout, quiet.stderr) == (0, "", "")


@pytest.mark.parametrize("name", sorted(DATA))
def test_q_keeps_the_data_asked_for_and_nothing_else(project, name):
    loud = _run(DATA[name])
    quiet = _run([*DATA[name], "-q"])
    assert loud.exit_code == 0, loud.output
    assert (quiet.exit_code, quiet.stdout, quiet.stderr) == (0, loud.stdout, "")


def test_q_silences_correct_too(project):
    assert _run(["publish", "--edition", "v1", "--reason", "First printing.", "--date", "2026-01-01"]).exit_code == 0
    term = project / "rulebook" / "editions" / "v1" / "cure.yaml"
    term.write_text(term.read_text().replace("if it is poisoned.", "when it is poisoned."))
    result = _run(["correct", "--edition", "v1", "--kind", "transcription", "--reason", "A typo.",
                   "--date", "2026-01-02", "-q"])
    assert (result.exit_code, result.stdout, result.stderr) == (0, "", "")


def test_q_keeps_the_errors(project):
    result = _run(["export", "--edition", "v9", "-q"])
    assert (result.exit_code, result.stdout, result.stderr) == (
        2, "", "rulebook: error: unknown edition 'v9'\n  hint: editions: v1, v2\n")


# -- usage errors: exit 2, rulebook: error: and a hint ---------------------------------------

# what each command needs besides the rulebook folder to get as far as reading it
NEEDS = {
    "ask": ["cure.may_target"], "diff": ["v1", "v2"], "history": ["cure"],
    "conformance run": ["--engine-cmd", GOOD_ENGINE], "conformance generate": ["--out", "suite"],
    "publish": ["--reason", "R."], "correct": ["--reason", "R.", "--kind", "erratum"],
    "import": [str(IMPORT_SOURCE), "--layout", "reg", "--out", "imported"],
}
EDITION_GIVEN = {name: ["--edition", "v1"] for name in EDITION_REQUIRED | EDITION_OR_OLD_POSITIONAL}


def _args(name: str, *rest: str) -> list[str]:
    return [*name.split(), *rest, *NEEDS.get(name, []), *EDITION_GIVEN.get(name, [])]


@pytest.mark.parametrize("name", sorted(set(COMMANDS) - NO_RULEBOOK))
def test_a_missing_rulebook_folder_is_a_usage_error(project, name):
    result = _run(_args(name, "--rulebook", "no/such"))
    assert (result.exit_code, result.stdout, result.stderr) == (
        2, "", "rulebook: error: no such rulebook folder: 'no/such'\n"
               "  hint: give the folder that holds rulebook.yaml\n")


@pytest.mark.parametrize("name", sorted(set(COMMANDS) - NO_RULEBOOK))
def test_a_file_for_the_rulebook_folder_is_a_usage_error(project, name):
    result = _run(_args(name, "--rulebook", "rulebook/rulebook.yaml"))
    assert (result.exit_code, result.stdout, result.stderr) == (
        2, "", "rulebook: error: 'rulebook/rulebook.yaml' is a file, not a rulebook folder\n"
               f"  hint: give the folder that holds it: rulebook {name} --rulebook rulebook\n")


def test_check_takes_the_folder_as_its_path_with_the_same_errors(project):
    result = _run(["check", "rulebook/rulebook.yaml"])
    assert (result.exit_code, result.stdout, result.stderr) == (
        2, "", "rulebook: error: 'rulebook/rulebook.yaml' is a file, not a rulebook folder\n"
               "  hint: give the folder that holds it: rulebook check rulebook\n")
    result = _run(["check", "no/such"])
    assert (result.exit_code, result.stderr) == (
        2, "rulebook: error: no such rulebook folder: 'no/such'\n  hint: give the folder that holds rulebook.yaml\n")
    result = _run(["check", "rulebook", "--rulebook", "."])
    assert (result.exit_code, result.stderr) == (
        2, "rulebook: error: two rulebook folders: 'rulebook' and --rulebook '.'\n"
           "  hint: give the rulebook folder once, as PATH or with --rulebook DIR\n")
    assert _run(["check", "--rulebook", "rulebook", "-q"]).exit_code == 0


# the commands that fall back on ./rulebook, else the current folder (diff's sides may be folders
# that need no rulebook; import without --rulebook imports fresh)
DEFAULTED = sorted(set(COMMANDS) - NO_RULEBOOK - {"diff", "import"})


@pytest.mark.parametrize("name", DEFAULTED)
def test_no_rulebook_here_is_a_usage_error(tmp_path, monkeypatch, name):
    monkeypatch.chdir(tmp_path)
    result = _run(_args(name))
    hint = ("name the rulebook folder: rulebook check PATH; for the pre-commit hook, add args: [PATH] under "
            "id: rulebook-check in .pre-commit-config.yaml" if name == "check"
            else f"name the rulebook folder: rulebook {name} --rulebook PATH")
    assert (result.exit_code, result.stdout, result.stderr) == (
        2, "", f"rulebook: error: no rulebook.yaml in this folder, nor in ./rulebook\n"
               f"  hint: {hint} (or start one: rulebook init)\n")


# import's unknown --edition is reported by its own body (left to the import's owner): not here
EDITION_CHECKED = sorted((EDITION_REQUIRED | EDITION_LATEST | EDITION_OR_OLD_POSITIONAL) - {"import"})


@pytest.mark.parametrize("name", EDITION_CHECKED)
def test_an_unknown_edition_is_the_same_usage_error_everywhere(project, name):
    result = _run([*name.split(), *NEEDS.get(name, []), "--edition", "v9"])
    assert (result.exit_code, result.stdout, result.stderr) == (
        2, "", "rulebook: error: unknown edition 'v9'\n  hint: editions: v1, v2\n")


def test_an_unknown_option_is_a_usage_error_in_the_one_format(project):
    result = _run(["export", "--edtion", "v1"])
    assert (result.exit_code, result.stdout, result.stderr) == (
        2, "", "rulebook: error: No such option '--edtion'. Did you mean '--edition'?\n"
               "  hint: see 'rulebook export --help'\n")


@pytest.mark.parametrize("name", sorted(EDITION_OR_OLD_POSITIONAL))
def test_a_missing_edition_is_a_usage_error(project, name):
    result = _run([*name.split(), *NEEDS.get(name, [])])
    assert (result.exit_code, result.stdout, result.stderr) == (
        2, "", f"rulebook: error: missing option '--edition'\n  hint: name the edition: rulebook {name} --edition ID\n")


# -- the old spellings still work, with a warning -------------------------------------------

def test_the_positional_edition_still_works_with_a_deprecation_warning(project):
    result = _run(["changelog", "v2"])
    assert (result.exit_code, result.stdout, result.stderr) == (
        0, _run(["changelog", "--edition", "v2"]).stdout,
        "rulebook: warning: 'rulebook changelog EDITION' is deprecated; use 'rulebook changelog --edition v2'\n")
    result = _run(["changelog", "v1", "--edition", "v2"])
    assert (result.exit_code, result.stderr) == (
        2, "rulebook: error: two editions: 'v1' and --edition 'v2'\n  hint: give the edition once, with --edition ID\n")


def test_imports_base_still_works_with_a_deprecation_warning(project):
    result = _run(["import", str(IMPORT_SOURCE), "--layout", "reg", "--out", "imported",
                   "--rulebook", str(FIXTURES / "importer" / "on-top" / "rulebook"), "--base", "a", "-q"])
    assert (result.exit_code, result.stdout, result.stderr) == (
        0, "", "rulebook: warning: --base is deprecated; use --after\n")


# -- one error, not a cascade -----------------------------------------------------------------

def test_one_misspelt_key_is_one_error_and_no_hint_to_rewrite_a_correct_patch(monkeypatch):
    # broken/typo-key: v1's cure.yaml says 'nmae:'; heal links to cure; v2 patches cure (rightly).
    # Before: 4 problems, the last advising to write v2's patch "as the whole term".
    monkeypatch.chdir(FIXTURES / "broken")
    result = _run(["check", "typo-key"])
    assert (result.exit_code, result.stdout, result.stderr) == (
        1, "", "typo-key/editions/v1/cure.yaml:2:1: error: unknown key 'nmae' at the top level\n"
               "  hint: did you mean 'name'? (the file lacks required key 'name')\n"
               "1 problem found\n")
