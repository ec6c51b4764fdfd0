"""Adding an edition to the bundled rulebook edits no published file and moves no earlier output.

An invariant over the bundled rulebook, whatever editions it holds: a copy of
it gains an edition after its latest that adds a value to every enum fact
(each ruled out by a new constraint, so that the edition still checks), a
fact, and a term with a decision over that fact. Every earlier edition's
export and conformance suite must be the same bytes as before, and `check`
must pass with no file of an earlier edition touched.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from click.testing import CliRunner

from compiler.build import load_rulebook
from compiler.cli import main

BUNDLED = Path(__file__).resolve().parent.parent / "rulebook"

NEXT = "next-edition-for-test"


def _runner() -> CliRunner:
    return CliRunner(mix_stderr=False) if "mix_stderr" in CliRunner.__init__.__code__.co_varnames \
        else CliRunner()


def _outputs(book: Path, edition: str, out: Path) -> dict[str, bytes]:
    runner = _runner()
    export = runner.invoke(main, ["export", "--rulebook", str(book), "--edition", edition])
    assert export.exit_code == 0, export.output
    generate = runner.invoke(main, ["conformance", "generate", "--rulebook", str(book), "--edition", edition,
                                    "--out", str(out)])
    assert generate.exit_code == 0, generate.output
    return {"export": export.stdout.encode(), "cases.json": (out / "cases.json").read_bytes()}


def _add_next_edition(book: Path) -> None:
    latest = load_rulebook(book).latest
    enums = [f for f in latest.vocabulary.facts if f.type == "enum"]
    with (book / "rulebook.yaml").open("a", encoding="utf-8") as f:
        f.write(f"  - id: {NEXT}\n    title: A later edition\n    date: null\n    status: draft\n")
    folder = book / "editions" / NEXT
    folder.mkdir()
    lines = ["facts:", "  add:", "    - {name: test_new_fact, type: bool, meaning: A fact only the new edition has.}"]
    if enums:
        lines.append("  change:")
        lines += [f"    - {{name: {f.name}, add_values: [test_new_value]}}" for f in enums]
        lines += ["constraints:", "  add:"]
        lines += [f"    - {{id: no-new-{f.name.replace('_', '-')}, text: Not yet., "
                  f"never: {{is: {{{f.name}: test_new_value}}}}}}" for f in enums]
    (folder / "_vocabulary.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (folder / "test-new-term.yaml").write_text(
        "id: test-new-term\nname: Test New Term\n"
        "decisions:\n  - {name: test_new_term.answer, type: bool, meaning: What the new fact decides.}\n"
        "sections:\n  - key: definition\n    kind: definition\n    title: null\n    clauses:\n"
        "      - id: only\n        text: It holds when the new fact does.\n        rules:\n"
        "          - {decision: test_new_term.answer, value: true, when: test_new_fact}\n"
        "          - {decision: test_new_term.answer, value: false, when: {not: test_new_fact}}\n",
        encoding="utf-8")


def _files(book: Path) -> dict[str, bytes]:
    return {str(p.relative_to(book)): p.read_bytes() for p in sorted(book.rglob("*")) if p.is_file()}


def test_a_new_edition_leaves_every_earlier_edition_as_it_was(tmp_path):
    book = tmp_path / "rulebook"
    shutil.copytree(BUNDLED, book)
    earlier = [e.id for e in load_rulebook(book).editions]
    before = {e: _outputs(book, e, tmp_path / "before" / e) for e in earlier}
    files = _files(book)
    _add_next_edition(book)
    check = _runner().invoke(main, ["check", str(book)])
    assert (check.exit_code, check.stderr) == (0, "")
    for e in earlier:
        assert _outputs(book, e, tmp_path / "after" / e) == before[e], e
    # Nothing that was there was edited: the new edition is files of its own and a line of rulebook.yaml.
    after = _files(book)
    changed = sorted(name for name in files if after[name] != files[name])
    assert changed == ["rulebook.yaml"]
    added = sorted(set(after) - set(files))
    assert added == [f"editions/{NEXT}/_vocabulary.yaml", f"editions/{NEXT}/test-new-term.yaml"]
