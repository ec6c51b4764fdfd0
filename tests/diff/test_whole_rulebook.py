"""``rulebook diff`` between two whole rulebooks (git:REV, folders): every edition, the lock and the log.

Each scenario is a scratch repository: commit A is tests/fixtures/diff/published-and-drafts (1.0
published and locked, drafts 2.0 and 3.0; 3.0 has its own ward), commit B the scenario's change.
Before the whole-rulebook diff, each of these printed "No changes." for ``git:A git:B`` (which
compared the latest edition, 3.0, alone) and exited 0 with ``--exit-code``.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulebook_compiler.cli import main

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "diff" / "published-and-drafts"
WJ = "\u2060"  # the word joiner the Markdown puts after what GitHub would link (render_markdown.inert)


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True).stdout


def run(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


@pytest.fixture
def repo(tmp_path, monkeypatch):
    """``change(book)`` edits the fixture's copy after commit A (tag A) and commits it as tag B."""
    book = tmp_path / "rulebook"
    shutil.copytree(FIXTURE, book)
    git(tmp_path, "init", "-q", "-b", "main")
    git(tmp_path, "config", "user.email", "t@example.org")
    git(tmp_path, "config", "user.name", "T")
    git(tmp_path, "add", ".")
    git(tmp_path, "commit", "-qm", "A")
    git(tmp_path, "tag", "A")
    monkeypatch.chdir(tmp_path)

    def commit(change, passes: bool = True) -> Path:
        change(book)
        assert run("check", str(book)).exit_code == (0 if passes else 1)  # as the scenario says
        git(tmp_path, "add", "-A")
        git(tmp_path, "commit", "-qm", "B", "--allow-empty")
        git(tmp_path, "tag", "B")
        return book
    return commit


def lines(*args: str, fmt: str = "text", status: int = 0) -> list[str]:
    result = run("diff", *args, "--format", fmt)
    assert result.exit_code == status, result.output
    return result.stdout.split("\n")


def exits(*args: str) -> tuple[int, int, int]:
    """The exit codes of ``--exit-code``, ``--fail-on rule-change`` and ``--fail-on published-change``."""
    return tuple(run("diff", *args, *flag).exit_code
                 for flag in (["--exit-code"], ["--fail-on", "rule-change"], ["--fail-on", "published-change"]))


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def correct(book: Path, kind: str, reason: str) -> None:
    result = run("correct", "--edition", "1.0", "--kind", kind, "--reason", reason, "--date", "2026-12-01", "--rulebook", str(book))
    assert result.exit_code == 0, result.output


def relock_cure(book: Path, kind: str = "erratum") -> None:
    """The published 1.0's 'Targets must be curable.' made 'Targets may be anything.', and re-locked."""
    edit(book / "editions" / "1.0" / "cure.yaml", "Targets must be curable.", "Targets may be anything.")
    correct(book, kind, "Targets freed.")


# -- the scenarios -------------------------------------------------------------------------------------


def test_an_older_draft_edited_is_reported_first(repo):
    repo(lambda book: edit(book / "editions" / "2.0" / "ward.yaml", "outside of battle", "outside a battle"))
    assert lines("git:A", "git:B")[:4] == [
        "rulebook diff git:A -> git:B: 1 edition changed",
        "editions:",
        "  2.0 (draft): content: 1 reworded",
        "",
    ]
    assert lines("git:A", "git:B")[4:9] == [
        "rulebook diff git:A:2.0 -> git:B:2.0: 1 reworded",
        "",
        "ward",
        "  reworded  ward#outside-battle  rulebook/editions/2.0/ward.yaml:11:9",
        "    A ward is played outside [-of-]{+a+} battle.",
    ]
    assert lines("git:A", "git:B", fmt="markdown")[:8] == [
        f"## Rulebook changes: git:{WJ}A → git:{WJ}B",
        "",
        "**1 edition changed**",
        "",
        "### Editions",
        "",
        "- `2.0` (draft): content: 1 reworded",
        "",
    ]
    # A reworded clause is a clarification: the most of every edition's diff is what --fail-on reads.
    assert exits("git:A", "git:B") == (1, 0, 0)
    assert run("diff", "git:A", "git:B", "--fail-on", "clarification").exit_code == 1
    # git:REV:EDITION keeps its meaning: the latest edition, 3.0, did not change.
    assert lines("git:A:3.0", "git:B:3.0")[:1] == ["rulebook diff git:A:3.0 -> git:B:3.0: No changes."]


def test_a_published_edition_relocked_and_its_log_entry_thrown_away(repo):
    def change(book: Path) -> None:
        log = (book / "corrections.yaml").read_text(encoding="utf-8")
        relock_cure(book)
        (book / "corrections.yaml").write_text(log, encoding="utf-8")  # the entry correct wrote, thrown away
    repo(change)
    # 2.0 and 3.0 carry cure over from 1.0: their content changed with it.
    assert lines("git:A", "git:B")[:9] == [
        "rulebook diff git:A -> git:B: 3 editions changed; rulebook.lock: 1 entry changed",
        "published record:",
        "  published edition 1.0 changed: 1 reworded; 1 counted as a rule change: words its rules do not account for; no log entry explains it",
        "  rulebook.lock entry 1.0 changed (re-locked: cure#targets); no log entry explains it",
        "editions:",
        "  1.0 (published): content: 1 reworded; 1 counted as a rule change: words its rules do not account for",
        "  2.0 (draft): content: 1 reworded; 1 counted as a rule change: words its rules do not account for",
        "  3.0 (draft): content: 1 reworded; 1 counted as a rule change: words its rules do not account for",
        "rulebook.lock:",
    ]
    assert lines("git:A", "git:B", fmt="markdown")[:8] == [
        f"## Rulebook changes: git:{WJ}A → git:{WJ}B",
        "",
        "**3 editions changed; rulebook.lock: 1 entry changed**",
        "",
        "### Published record",
        "",
        "- ⚠️ published edition `1.0` changed: 1 reworded; 1 counted as a rule change: words its rules do not "
        "account for; no log entry explains it",
        "- ⚠️ `rulebook.lock` entry `1.0` changed (re-locked: `cure#targets`); no log entry explains it",
    ]
    assert exits("git:A", "git:B") == (1, 1, 1)
    page = run("diff", "git:A", "git:B", "--format", "html").stdout
    assert page.index('<h2 id="published-record">Published record</h2>') < page.index('<section class="edition">')
    assert ("<li>published edition <code>1.0</code> changed: 1 reworded; 1 counted as a rule change: words its rules "
            "do not account for; no log entry explains it</li>") in page


def test_the_lock_deleted(repo):
    repo(lambda book: (book / "rulebook.lock").unlink(), passes=False)
    # The log records 1.0's publish: check fails (rulebook_compiler/review.py), and the diff leads with it.
    assert lines("git:A", "git:B", status=1) == [
        "rulebook diff git:A -> git:B: rulebook check fails: 1 problem; rulebook.lock: deleted",
        "published record:",
        "  git:B does not pass rulebook check: B:rulebook/corrections.yaml:4:3: rulebook.lock is missing, "
        "though corrections.yaml records the publish of edition '1.0' here",
        "  rulebook.lock deleted (it locked 1.0); no log entry explains it",
        "rulebook.lock:",
        "  the file deleted",
        "  entry 1.0 removed",
        "",
    ]
    assert lines("git:A", "git:B", fmt="markdown", status=1)[:7] == [
        f"## Rulebook changes: git:{WJ}A → git:{WJ}B",
        "",
        "**rulebook check fails: 1 problem; rulebook.lock: deleted**",
        "",
        "### Published record",
        "",
        f"- ⚠️ `git:B` does not pass rulebook check: `B:rulebook/corrections.yaml:4:3`: rulebook.lock is "
        f"missing, though corrections.yaml records the publish of edition '1.0' here",
    ]
    assert exits("git:A", "git:B") == (1, 1, 1)


def remove_first_edition(book: Path) -> None:
    """1.0 gone with its folder, its lock entry and its log entry; 2.0 keeps cure (its file moved there)."""
    text = (book / "rulebook.yaml").read_text(encoding="utf-8")
    (book / "rulebook.yaml").write_text(re.sub(r'  - id: "1.0"\n(    .*\n)+', "", text), encoding="utf-8")
    shutil.move(book / "editions" / "1.0" / "cure.yaml", book / "editions" / "2.0" / "cure.yaml")
    (book / "editions" / "1.0").rmdir()
    lock = json.loads((book / "rulebook.lock").read_text(encoding="utf-8"))
    del lock["editions"]["1.0"]
    (book / "rulebook.lock").write_text(json.dumps(lock, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    (book / "corrections.yaml").write_text("corrections: []\n", encoding="utf-8")


def test_a_published_edition_removed_with_its_lock_entry_and_log(repo):
    repo(remove_first_edition)
    assert lines("git:A", "git:B") == [
        "rulebook diff git:A -> git:B: 1 edition removed; rulebook.lock: 1 entry removed; "
        "corrections.yaml: 1 entry removed",
        "published record:",
        "  published edition 1.0 removed; no log entry explains it",
        "  rulebook.lock entry 1.0 removed; no log entry explains it",
        "  corrections.yaml entry 1 removed (was: 2026-01-01, 1.0, publish: 'First printing.')",
        "editions:",
        "  1.0 (published): removed",
        "rulebook.lock:",
        "  entry 1.0 removed",
        "corrections.yaml:",
        "  entry 1 removed: 2026-01-01, 1.0, publish: 'First printing.'",
        "",
    ]
    assert lines("git:A", "git:B", fmt="markdown")[:9] == [
        f"## Rulebook changes: git:{WJ}A → git:{WJ}B",
        "",
        "**1 edition removed; rulebook.lock: 1 entry removed; corrections.yaml: 1 entry removed**",
        "",
        "### Published record",
        "",
        "- ⚠️ published edition `1.0` removed; no log entry explains it",
        "- ⚠️ `rulebook.lock` entry `1.0` removed; no log entry explains it",
        f"- ⚠️ `corrections.yaml` entry 1 removed (was: 2026-{WJ}01-{WJ}01, `1.0`, publish: 'First printing.')",
    ]
    assert exits("git:A", "git:B") == (1, 1, 1)


FORGED = "- date: '2026-02-02'\n  edition: '1.0'\n  kind: erratum\n  reason: Cure may target anything.\n"


def test_a_forged_log_entry(repo):
    repo(lambda book: (book / "corrections.yaml").write_text(
        (book / "corrections.yaml").read_text(encoding="utf-8") + FORGED, encoding="utf-8"))
    assert lines("git:A", "git:B") == [
        "rulebook diff git:A -> git:B: corrections.yaml: 1 entry added",
        "published record:",
        "  corrections.yaml entry 2 added (2026-02-02, 1.0, erratum: 'Cure may target anything.'), "
        "but edition 1.0 is not re-locked in rulebook.lock",
        "corrections.yaml:",
        "  entry 2 added: 2026-02-02, 1.0, erratum: 'Cure may target anything.'",
        "",
    ]
    assert lines("git:A", "git:B", fmt="markdown")[:7] == [
        f"## Rulebook changes: git:{WJ}A → git:{WJ}B",
        "",
        "**corrections.yaml: 1 entry added**",
        "",
        "### Published record",
        "",
        f"- ⚠️ `corrections.yaml` entry 2 added (2026-{WJ}02-{WJ}02, `1.0`, erratum: 'Cure may target anything.'), "
        "but edition `1.0` is not re-locked in `rulebook.lock`",
    ]
    assert exits("git:A", "git:B") == (1, 1, 1)


def test_an_honest_erratum_is_shown_with_the_entry_that_explains_it(repo):
    repo(relock_cure)
    explained = "explained by corrections.yaml entry 2: 2026-12-01 erratum 'Targets freed.'"
    assert lines("git:A", "git:B")[:4] == [
        "rulebook diff git:A -> git:B: 3 editions changed; rulebook.lock: 1 entry changed; "
        "corrections.yaml: 1 entry added",
        "published record:",
        f"  published edition 1.0 changed: 1 reworded; 1 counted as a rule change: words its rules do not account for; {explained}",
        f"  rulebook.lock entry 1.0 changed (re-locked: cure#targets); {explained}",
    ]
    md_explained = f"explained by `corrections.yaml` entry 2: 2026-{WJ}12-{WJ}01 erratum 'Targets freed.'"
    assert lines("git:A", "git:B", fmt="markdown")[:8] == [
        f"## Rulebook changes: git:{WJ}A → git:{WJ}B",
        "",
        "**3 editions changed; rulebook.lock: 1 entry changed; corrections.yaml: 1 entry added**",
        "",
        "### Published record",
        "",
        f"- ⚠️ published edition `1.0` changed: 1 reworded; 1 counted as a rule change: words its rules do not account for; {md_explained}",
        f"- ⚠️ `rulebook.lock` entry `1.0` changed (re-locked: `cure#targets`); {md_explained}",
    ]
    # Honest or not, a published edition changed: --fail-on published-change asks a person to look.
    assert exits("git:A", "git:B") == (1, 1, 1)
    # The one-edition form says it of the published edition too.
    assert run("diff", "git:A:1.0", "git:B:1.0", "--fail-on", "published-change").exit_code == 1
    assert run("diff", "git:A:3.0", "git:B:3.0", "--fail-on", "published-change").exit_code == 0


def test_identical_revisions_print_no_changes(repo):
    repo(lambda book: None)
    result = run("diff", "git:A", "git:B", "--exit-code")
    assert (result.exit_code, result.stdout) == (0, "rulebook diff git:A -> git:B: No changes.\n")
    assert run("diff", "git:A", "git:B", "--format", "markdown").stdout == \
        f"## Rulebook changes: git:{WJ}A → git:{WJ}B\n\nNo changes.\n"
    out = json.loads(run("diff", "git:A", "git:B", "--format", "json").stdout)
    assert (out["empty"], out["alerts"], [e["change"] for e in out["editions"]]) == (True, [], ["same"] * 3)
    assert "<p>No changes.</p>" in run("diff", "git:A", "git:B", "--format", "html").stdout
    assert exits("git:A", "git:B") == (0, 0, 0)


def test_a_change_to_the_base_vocabulary_is_reported_in_every_edition(repo):
    def change(book: Path) -> None:
        edit(book / "vocabulary.yaml", "The character is poisoned.", "The character is poisoned (any poison).")
        correct(book, "transcription", "Poison, any.")
    repo(change)
    out = lines("git:A", "git:B")
    assert out[:8] == [
        "rulebook diff git:A -> git:B: 3 editions changed; rulebook.lock: 1 entry changed; "
        "corrections.yaml: 1 entry added",
        "published record:",
        "  published edition 1.0 changed: the vocabulary only; explained by corrections.yaml entry 2: "
        "2026-12-01 transcription 'Poison, any.'",
        "  rulebook.lock entry 1.0 changed (re-locked: fact:poisoned); explained by corrections.yaml entry 2: "
        "2026-12-01 transcription 'Poison, any.'",
        "editions:",
        "  1.0 (published): content: the vocabulary only",
        "  2.0 (draft): content: the vocabulary only",
        "  3.0 (draft): content: the vocabulary only",
    ]
    assert out.count("  fact changed: poisoned (meaning changed)") == 3


# -- folders, JSON, cost -----------------------------------------------------------------------------------


def test_two_folders_are_compared_whole(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    shutil.copytree(FIXTURE, "a")
    shutil.copytree(FIXTURE, "b")
    edit(Path("b", "editions", "2.0", "ward.yaml"), "outside of battle", "outside a battle")
    text = (Path("b") / "rulebook.yaml").read_text(encoding="utf-8")
    (Path("b") / "rulebook.yaml").write_text(text.replace("title: Third", "title: The third"), encoding="utf-8")
    assert lines("a", "b", "--rulebook", "a")[:5] == [
        "rulebook diff a -> b: 2 editions changed",
        "editions:",
        "  2.0 (draft): content: 1 reworded",
        "  3.0 (draft): field changed: title",
        "",
    ]
    assert lines("a", "b", "--rulebook", "a")[5] == "rulebook diff a (2.0) -> b (2.0): 1 reworded"


def test_an_added_edition_is_compared_with_the_one_before_it(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    shutil.copytree(FIXTURE, "a")
    shutil.copytree(FIXTURE, "b")
    with open(Path("b", "rulebook.yaml"), "a", encoding="utf-8") as fh:
        fh.write('  - id: "4.0"\n    title: Fourth\n    date: null\n    status: draft\n')
    Path("b", "editions", "4.0").mkdir()
    Path("b", "editions", "4.0", "ward.yaml").write_text(
        Path("b", "editions", "3.0", "ward.yaml").read_text(encoding="utf-8").replace("only ", ""), encoding="utf-8")
    assert lines("a", "b", "--rulebook", "a")[:5] == [
        "rulebook diff a -> b: 1 edition added",
        "editions:",
        "  4.0 (draft): added, compared with 3.0: 1 reworded; 1 counted as a rule change: words its rules do not account for",
        "",
        "rulebook diff a (3.0) -> b (4.0): 1 reworded; 1 counted as a rule change: words its rules do not account for",
    ]
    # "only" dropped from a modelled clause whose rules stay: counted as a rule change (issue 21.5)
    assert exits("a", "b", "--rulebook", "a") == (1, 1, 0)


def test_json_has_the_record_and_each_edition_diff_as_the_one_edition_form_gives_it(repo):
    repo(lambda book: edit(book / "editions" / "2.0" / "ward.yaml", "outside of battle", "outside a battle"))
    out = json.loads(run("diff", "git:A", "git:B", "--format", "json").stdout)
    assert list(out) == ["format", "old", "new", "empty", "published_change", "summary", "alerts", "record",
                         "editions"]
    assert (out["format"], out["old"]["spec"], out["old"]["kind"], out["empty"], out["published_change"]) == \
        ("rulebook-diff/1", "git:A", "git", False, False)
    assert out["record"]["editions"] == [{"id": "2.0", "change": "changed", "old_status": "draft",
                                          "new_status": "draft", "metadata": [], "content": True, "moved": False}]
    assert [(e["id"], e["change"], e["diff"] is None) for e in out["editions"]] == \
        [("1.0", "same", True), ("2.0", "changed", False), ("3.0", "same", True)]
    alone = json.loads(run("diff", "git:A:2.0", "git:B:2.0", "--format", "json").stdout)
    assert out["editions"][1]["diff"] == alone


def test_editions_whose_content_is_the_same_are_not_diffed(repo, monkeypatch):
    repo(lambda book: edit(book / "editions" / "2.0" / "ward.yaml", "outside of battle", "outside a battle"))
    import rulebook_compiler.commands.diff as command

    pairs = []
    engine = command.diff_pair

    def counted(a, b):
        pairs.append((a.spec, b.spec))
        return engine(a, b)
    monkeypatch.setattr(command, "diff_pair", counted)
    run("diff", "git:A", "git:B")  # cold: both revisions checked in full and stored
    # Warm: both sides come from the cache; the content of each edition is compared by its terms'
    # digests, and no term is loaded but the two versions of the one that changed.
    from rulebook_compiler.diff.cached import CachedSource

    loaded = []
    term = CachedSource.term
    monkeypatch.setattr(CachedSource, "term", lambda self, tid: loaded.append((self.edition.id, tid)) or term(self, tid))
    monkeypatch.setattr("rulebook_compiler.build.check", lambda root: pytest.fail(f"{root} was loaded in full"))
    assert lines("git:A", "git:B")[0] == "rulebook diff git:A -> git:B: 1 edition changed"
    assert pairs == [("git:A:2.0", "git:B:2.0")] * 2
    assert sorted(set(loaded)) == [("2.0", "ward")]


def test_untrusted_log_text_is_escaped_in_every_format(repo):
    hostile = "<script>alert(1)</script> @here #12 *b* `c`"  # (check refuses control characters in it)
    repo(lambda book: (book / "corrections.yaml").write_text(
        (book / "corrections.yaml").read_text(encoding="utf-8")
        + FORGED.replace("Cure may target anything.", json.dumps(hostile)), encoding="utf-8"))
    assert f"(2026-02-02, 1.0, erratum: '{hostile}')" in run("diff", "git:A", "git:B").stdout
    markdown = run("diff", "git:A", "git:B", "--format", "markdown").stdout
    assert "<script>" not in markdown
    assert f"erratum: '&lt;script&gt;alert(1)&lt;/script&gt; @{WJ}here #{WJ}12 \\*b\\* \\`c\\`')" in markdown
    page = run("diff", "git:A", "git:B", "--format", "html").stdout
    assert "<script>" not in page
    assert "erratum: &#39;&lt;script&gt;alert(1)&lt;/script&gt; @here #12 *b* `c`&#39;)" in page


def test_markdown_keeps_the_record_and_cuts_the_details_to_the_budget(repo):
    from rulebook_compiler.commands.diff import _diff
    from rulebook_compiler.diff.render_markdown import utf16_length
    from rulebook_compiler.diff.render_whole import markdown

    repo(relock_cure)
    whole = _diff("git:A", "git:B", None, None)
    full = markdown(whole)
    head = full.split("\n## Rulebook changes: git:")[0]
    budget = utf16_length(head) + 1000  # the record, and room for each edition's one line, not its diff
    short = markdown(whole, budget=budget)
    assert utf16_length(full) > budget >= utf16_length(short)
    head = full.split("\n## Rulebook changes: git:")[0]
    assert short.startswith(head)
    assert "_Left out to fit a GitHub comment (1 reworded; 1 counted as a rule change: words its rules do not " \
           "account for). The full report: " \
           "`rulebook diff git:A:3.0 git:B:3.0 --format html`._" in short
    # Not even a line per edition fits: one line says so, and the record is still whole.
    tiny = markdown(whole, budget=utf16_length(head) + 400)
    assert tiny == head + "\n_The diffs of 3 editions left out to fit a GitHub comment; the full report: " \
                          "`--format html`._\n"


def test_publishing_a_draft_is_reported_and_is_no_published_change(repo):
    def change(book: Path) -> None:
        edit(book / "rulebook.yaml", 'title: Second\n    date: null\n    status: draft',
             'title: Second\n    date: "2026-12-01"\n    status: published')
        result = run("publish", "--edition", "2.0", "--reason", "Second printing.", "--date", "2026-12-01", "--rulebook", str(book))
        assert result.exit_code == 0, result.output
    repo(change)
    assert lines("git:A", "git:B") == [
        "rulebook diff git:A -> git:B: 1 edition changed; rulebook.lock: 1 entry added; corrections.yaml: 1 entry added",
        "editions:",
        "  2.0 (draft): status: draft -> published; field changed: date",
        "rulebook.lock:",
        "  entry 2.0 added",
        "corrections.yaml:",
        "  entry 2 added: 2026-12-01, 2.0, publish: 'Second printing.'",
        "",
    ]
    # Nothing published before changed: a publish is a change, not a change to the published record.
    assert exits("git:A", "git:B") == (1, 0, 0)


def test_sources_that_differ_in_nothing_the_diff_reports_are_named(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    shutil.copytree(FIXTURE, "a")
    shutil.copytree(FIXTURE, "b")
    edit(Path("b", "editions", "2.0", "ward.yaml"), "name: Ward\n", "name: Ward\neditor_notes: Checked twice.\n")
    result = run("diff", "a", "b", "--rulebook", "a", "--exit-code")
    assert (result.exit_code, result.stdout) == (1, (
        "rulebook diff a -> b: 1 edition changed\n"
        "editions:\n"
        "  2.0 (draft): content: the sources of ward differ, in nothing the diff reports "
        "(editors' notes, declared lineage)\n"))


def test_a_published_edition_set_back_to_draft(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    shutil.copytree(FIXTURE, "a")
    shutil.copytree(FIXTURE, "b")
    edit(Path("b", "rulebook.yaml"), "status: published", "status: draft")
    assert lines("a", "b", "--rulebook", "a", status=1) == [
        "rulebook diff a -> b: rulebook check fails: 1 problem; 1 edition changed",
        "published record:",
        "  b does not pass rulebook check: b/rulebook.yaml:5:5: edition '1.0' is locked as published, but its "
        "status is 'draft'",
        "  published edition 1.0 set back to draft; no log entry explains it",
        "editions:",
        "  1.0 (published): status: published -> draft",
        "",
    ]
    assert exits("a", "b", "--rulebook", "a") == (1, 1, 1)


def test_editions_moved_in_the_order(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    shutil.copytree(FIXTURE, "a")
    shutil.copytree(FIXTURE, "b")
    text = Path("b", "rulebook.yaml").read_text(encoding="utf-8")
    second, third = text.split('  - id: "2.0"\n')[1].split('  - id: "3.0"\n')
    Path("b", "rulebook.yaml").write_text(text.split('  - id: "2.0"\n')[0] + '  - id: "3.0"\n' + third
                                          + '  - id: "2.0"\n' + second, encoding="utf-8")
    # 3.0 has its own ward and carries cure from 1.0 wherever it stands: no edition's content changed.
    assert lines("a", "b", "--rulebook", "a") == [
        "rulebook diff a -> b: 2 editions changed",
        "editions:",
        "  2.0 (draft): moved in the order of editions",
        "  3.0 (draft): moved in the order of editions",
        "",
    ]
    assert exits("a", "b", "--rulebook", "a") == (1, 0, 0)


def test_a_publish_entry_does_not_explain_a_relock(repo):
    def change(book: Path) -> None:
        relock_cure(book)
        edit(book / "corrections.yaml", "kind: erratum", "kind: publish")  # the entry correct wrote, renamed
    repo(change)
    assert lines("git:A", "git:B")[:5] == [
        "rulebook diff git:A -> git:B: 3 editions changed; rulebook.lock: 1 entry changed; "
        "corrections.yaml: 1 entry added",
        "published record:",
        "  published edition 1.0 changed: 1 reworded; 1 counted as a rule change: words its rules do not account for; no log entry explains it",
        "  rulebook.lock entry 1.0 changed (re-locked: cure#targets); no log entry explains it",
        "  corrections.yaml entry 2 added (2026-12-01, 1.0, publish: 'Targets freed.'), "
        "but edition 1.0 is not locked anew in rulebook.lock",
    ]


def test_a_correction_that_names_other_refs_than_the_lock_changed(repo):
    def change(book: Path) -> None:
        relock_cure(book)
        edit(book / "corrections.yaml", "- cure#targets", "- cure#curable")  # as if written by hand
    repo(change)
    assert lines("git:A", "git:B")[3] == (
        "  rulebook.lock entry 1.0 changed (re-locked: cure#targets; the log names cure#curable); "
        "explained by corrections.yaml entry 2: 2026-12-01 erratum 'Targets freed.'")


def test_the_same_bytes_cold_warm_and_without_the_cache(repo):
    repo(relock_cure)
    formats = ("text", "markdown", "json", "html")
    cold = {fmt: run("diff", "git:A", "git:B", "--format", fmt).stdout for fmt in formats}  # fills the cache
    warm = {fmt: run("diff", "git:A", "git:B", "--format", fmt).stdout for fmt in formats}
    uncached = {fmt: run("diff", "git:A", "git:B", "--format", fmt, "--no-cache").stdout for fmt in formats}
    assert warm == cold == uncached
    assert cold["text"].startswith("rulebook diff git:A -> git:B: 3 editions changed")


# -- the two scenarios of issue 21 that live in one clause, seen through git:A git:B -------------------


def test_a_printed_number_changed_and_nothing_else(repo):
    # A: 3.0's clause printed as 3.1 (committed by the first repo() call), B: printed as 3.2, the same words.
    ward = FIXTURE / "editions" / "3.0" / "ward.yaml"
    assert "      - id: outside-battle\n" in ward.read_text(encoding="utf-8")

    def number(value: str):
        return lambda book: edit(book / "editions" / "3.0" / "ward.yaml", "      - id: outside-battle\n",
                                 f"      - id: outside-battle\n        number: \"{value}\"\n")
    repo(number("3.1"))
    git(Path.cwd(), "tag", "-d", "A")
    git(Path.cwd(), "tag", "-d", "B")
    git(Path.cwd(), "tag", "A")
    repo(lambda book: edit(book / "editions" / "3.0" / "ward.yaml", 'number: "3.1"', 'number: "3.2"'))
    assert lines("git:A", "git:B")[:10] == [
        "rulebook diff git:A -> git:B: 1 edition changed",
        "editions:",
        "  3.0 (draft): content: 1 renumbered",
        "",
        "rulebook diff git:A:3.0 -> git:B:3.0: 1 renumbered",
        "renumbered: 1 clause (3.1 -> 3.2)",
        "",
        "ward",
        "  renumbered, same words: 1 clause",
        "    ward#outside-battle  3.1 -> 3.2  rulebook/editions/3.0/ward.yaml:11:9",
    ]
    markdown = lines("git:A", "git:B", fmt="markdown")
    assert markdown[:6] == [f"## Rulebook changes: git:{WJ}A → git:{WJ}B", "", "**1 edition changed**", "",
                            "### Editions", ""]
    assert markdown[6] == "- `3.0` (draft): content: 1 renumbered"
    assert "Renumbered: 1 clause (`3.1` → `3.2`)" in markdown[:20]
    assert exits("git:A", "git:B") == (1, 0, 0)


def test_words_that_add_a_prohibition_the_rules_do_not_have(repo):
    repo(lambda book: edit(book / "editions" / "3.0" / "ward.yaml", "A ward is played only outside of battle.",
                           "A ward is played only outside of battle and never on a Lost Soul."))
    counted = "1 counted as a rule change: words its rules do not account for"
    text = lines("git:A", "git:B")
    assert text[:3] == ["rulebook diff git:A -> git:B: 1 edition changed", "editions:",
                        f"  3.0 (draft): content: 1 reworded; {counted}"]
    # the record to write: the SHA-256 of the new words, lower case, one space apart (rulebook_compiler/rules_checked.py)
    import hashlib

    assert hashlib.sha256(b"a ward is played only outside of battle and never on a lost soul").hexdigest()[:12] \
        == "1aca459bc9d6"
    assert text[9] == (
        "    drift: the text now says “and never on a Lost Soul” (new: never, Lost, Soul), which its rules do not "
        "account for: counted as a rule change by --fail-on until the editors record that they checked the rules "
        "against these words (add rules_checked: \"1aca459bc9d6\" to ward#outside-battle)")
    markdown = lines("git:A", "git:B", fmt="markdown")
    assert markdown[6] == f"- `3.0` (draft): content: 1 reworded; {counted}"
    assert markdown[10] == ("**0 rule changes**, 1 clarification, 0 editorial; **1 counted as a rule change**: "
                            "words its rules do not account for")
    # the model is trusted over the words no longer: --fail-on rule-change fails until the record is written
    assert exits("git:A", "git:B") == (1, 1, 0)
