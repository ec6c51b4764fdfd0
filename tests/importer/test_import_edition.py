"""rulebook import --rulebook DIR --edition NEW: a whole document imported on top writes exactly the next edition.

The fixture's edition 'a' has four terms; the document (rulebook/sources/next.txt) rewords Battle, prints Kept
unchanged, retitles Stale "Stale (Obsolete)", adds New Rule and no longer has Gone.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from click.testing import CliRunner

from rulebook_compiler.build import check
from rulebook_compiler.cli import main

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "importer" / "whole-document-on-top" / "rulebook"
ENTRY = '  - {id: "b", title: "Imported from next.txt", date: null, status: draft, sources: ["sources/next.txt"]}'


def _rulebook(tmp_path: Path) -> Path:
    root = tmp_path / "rb"
    shutil.copytree(FIXTURE, root)
    return root


def _import_edition(root: Path, import_cli, *more: str):
    result = import_cli(root / "sources" / "next.txt", "--layout", "reg", "--rulebook", root, "--edition", "b",
                        *more)
    assert result.exit_code == 0, result.output
    return result


def test_the_edition_folder_holds_the_changed_added_renamed_and_withdrawn_terms_only(tmp_path, import_cli):
    root = _rulebook(tmp_path)
    _import_edition(root, import_cli)
    folder = root / "editions" / "b"
    assert sorted(p.name for p in folder.iterdir()) == ["_sources.yaml", "battle.yaml", "gone.yaml",
                                                        "new-rule.yaml", "stale.yaml"]
    assert (folder / "gone.yaml").read_text(encoding="utf-8") == (
        "id: gone\nwithdrawn: true\neditor_notes: term 'gone' of edition 'a' is not in the document\n")
    assert (folder / "stale.yaml").read_text(encoding="utf-8") == (
        "id: stale\nname: Stale (Obsolete)\nsections:\n- key: definition\n  kind: definition\n  title: null\n"
        "  clauses:\n  - id: a-stale-ability\n    text: A stale ability does nothing.\n")


def test_no_term_file_names_the_source_lines_the_sources_map_does(tmp_path, import_cli):
    root = _rulebook(tmp_path)
    _import_edition(root, import_cli)
    folder = root / "editions" / "b"
    assert "editor_notes" not in (folder / "new-rule.yaml").read_text(encoding="utf-8")
    assert (folder / "_sources.yaml").read_text(encoding="utf-8") == (
        "# Where each entry of the document is (rulebook import; editor data, which check does not read).\n"
        "source: next.txt\nlayout: reg\nterms:\n  battle: 8-12\n  kept: 14-16\n  new-rule: 18-20\n"
        "  stale: 22-24\n")


def test_rulebook_yaml_gains_the_edition_after_the_last_one_its_other_bytes_kept(tmp_path, import_cli):
    root = _rulebook(tmp_path)
    before = (root / "rulebook.yaml").read_text(encoding="utf-8")
    result = _import_edition(root, import_cli)
    last = "    status: draft   # the import's entry goes after this item\n"
    assert (root / "rulebook.yaml").read_text(encoding="utf-8") == before.replace(last, last + ENTRY + "\n")
    assert result.stdout.splitlines()[-1] == f"added edition 'b' to {root / 'rulebook.yaml'}: {ENTRY.strip()}"


def test_every_decision_is_listed_with_its_default(tmp_path, import_cli):
    root = _rulebook(tmp_path)
    result = _import_edition(root, import_cli)
    s = root / "sources" / "next.txt"
    assert result.stdout.splitlines()[:-1] == [
        f"imported 4 terms and 5 clauses into {root / 'editions' / 'b'} (3 written, 1 unchanged carried over; and "
        "1 withdrawal proposed); 0 lines not placed; 4 decisions for an editor, each with its default:",
        f"{s}: gone: term 'gone' of edition 'a' is not in the document: withdrawn? [default: withdrawn]",
        f"{s}:12:1: battle#only-one-battle: reworded since edition 'a' (words 89% alike): it keeps the id of "
        "battle#only-one-battle; same rule? [default: the same rule, its id kept]",
        f"{s}:18:1: new-rule: new term: edition 'a' has no term 'new-rule' nor one named 'New Rule' "
        "[default: added]",
        f"{s}:22:1: stale: entry 'Stale (Obsolete)' is term 'stale' of edition 'a' retitled: imported as 'stale' "
        "[default: renamed, its id kept]",
    ]


def test_the_defaults_pass_check_diff_changelog_and_history(tmp_path, import_cli):
    root = _rulebook(tmp_path)
    _import_edition(root, import_cli)
    book, problems = check(root)
    assert [str(p) for p in problems] == []
    assert [t.id for t in book.edition("b").terms] == ["battle", "kept", "new-rule", "stale"]
    assert book.edition("b").withdrawn == ("gone",)
    runner = CliRunner()
    for args in (["diff", "a", "b"], ["changelog", "b"], ["history", "battle"], ["history", "gone"]):
        args += ["--rulebook", str(root)]
        outcome = runner.invoke(main, args)
        assert (args[0], outcome.exit_code) == (args[0], 0), outcome.output


def test_an_edition_the_rulebook_has_is_a_usage_error(tmp_path, import_cli):
    root = _rulebook(tmp_path)
    result = import_cli(root / "sources" / "next.txt", "--layout", "reg", "--rulebook", root, "--edition", "a")
    assert result.exit_code == 2
    assert "edition 'a' is already in the rulebook" in result.stderr
    assert sorted(p.name for p in (root / "editions").iterdir()) == ["a"]


def test_a_source_outside_the_rulebook_is_a_usage_error_with_edition(tmp_path, import_cli):
    root = _rulebook(tmp_path)
    outside = tmp_path / "next.txt"
    shutil.copy(root / "sources" / "next.txt", outside)
    result = import_cli(outside, "--layout", "reg", "--rulebook", root, "--edition", "b")
    assert result.exit_code == 2
    assert "the source must lie inside the rulebook folder" in result.stderr
    assert sorted(p.name for p in (root / "editions").iterdir()) == ["a"]


def test_with_out_instead_the_lines_to_add_are_printed(tmp_path, import_cli):
    root = _rulebook(tmp_path)
    before = (root / "rulebook.yaml").read_bytes()
    result = import_cli(root / "sources" / "next.txt", "--layout", "reg", "--rulebook", root, "--out",
                        tmp_path / "out")
    assert result.exit_code == 0, result.output
    assert (root / "rulebook.yaml").read_bytes() == before
    assert result.stdout.splitlines()[-2:] == [
        f"to make it edition NEW, copy its files into {root / 'editions' / 'NEW'} and add to the editions in "
        f"{root / 'rulebook.yaml'}:",
        '  - {id: "NEW", title: "Imported from next.txt", date: null, status: draft, sources: ["sources/next.txt"]}']


def test_a_rulebook_yaml_that_cannot_be_written_leaves_no_edition_folder(tmp_path, import_cli, monkeypatch):
    from rulebook_compiler import fileio

    def full(path, text):
        raise fileio.OutputError(path, "No space left on device")

    root = _rulebook(tmp_path)
    before = (root / "rulebook.yaml").read_bytes()
    monkeypatch.setattr(fileio, "write_text", full)  # the command's, not the term files' (run.py's own name)
    result = import_cli(root / "sources" / "next.txt", "--layout", "reg", "--rulebook", root, "--edition", "b")
    assert result.exit_code == 1
    assert result.stderr == f"rulebook: error: cannot write '{root / 'rulebook.yaml'}': No space left on device\n"
    assert sorted(p.name for p in (root / "editions").iterdir()) == ["a"]
    assert (root / "rulebook.yaml").read_bytes() == before


def test_editions_in_a_flow_list_get_the_lines_printed_and_rulebook_yaml_kept(tmp_path, import_cli):
    root = _rulebook(tmp_path)
    flow = ('title: T\npublisher: P\neditions: [{id: a, title: "Edition a, typed by hand", date: "2020-01-01", '
            'status: draft}]\n')
    (root / "rulebook.yaml").write_text(flow, encoding="utf-8")
    result = _import_edition(root, import_cli)
    assert (root / "rulebook.yaml").read_text(encoding="utf-8") == flow
    assert result.stdout.splitlines()[-2:] == [
        f"rulebook.yaml's editions are not a block list: add this edition to them in {root / 'rulebook.yaml'}:",
        ENTRY]


def test_the_added_entry_reads_back_as_the_old_file_with_one_more_edition():
    from rulebook_compiler.importer.edition import add_edition

    text = "editions:\n  - id: a\n    notes: >-\n      folded\n      text\nnotes: x\n"
    entry = '  - {id: "b", title: "T", date: null, status: draft}'
    assert add_edition(text, entry) == ("editions:\n  - id: a\n    notes: >-\n      folded\n      text\n" + entry
                                        + "\nnotes: x\n")
