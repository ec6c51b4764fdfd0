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

from rulebook_compiler.build import load_rulebook
from rulebook_compiler.cli import main

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


def _unused(name: str, taken, sep: str = "_") -> str:
    """``name``, or ``name_2``, ``name_3``... (``sep`` between): the first that ``taken`` does not hold."""
    n, found = 1, name
    while found in taken:
        n += 1
        found = f"{name}{sep}{n}"
    return found


def _add_next_edition(book: Path) -> str:
    """Add the edition; its id (new names throughout, whatever the rulebook already holds)."""
    rulebook = load_rulebook(book)
    latest = rulebook.latest
    edition = _unused(NEXT, {e.id for e in rulebook.editions}, "-")
    fact = _unused("test_new_fact", latest.vocabulary.by_name)
    enums = [(f, _unused("test_new_value", f.values)) for f in latest.vocabulary.facts if f.type == "enum"]
    with (book / "rulebook.yaml").open("a", encoding="utf-8") as f:
        f.write(f"  - id: {edition}\n    title: A later edition\n    date: null\n    status: draft\n")
    folder = book / "editions" / edition
    folder.mkdir()
    lines = ["facts:", "  add:", f"    - {{name: {fact}, type: bool, meaning: A fact only the new edition has.}}"]
    constraints = {c.id for c in latest.vocabulary.constraints}
    if enums:
        lines.append("  change:")
        lines += [f"    - {{name: {f.name}, add_values: [{value}]}}" for f, value in enums]
        lines += ["constraints:", "  add:"]
        lines += [f"    - {{id: {_unused('no-new-' + f.name.replace('_', '-'), constraints, '-')}, text: Not yet., "
                  f"never: {{is: {{{f.name}: {value}}}}}}}" for f, value in enums]
    (folder / "_vocabulary.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (folder / "test-new-term.yaml").write_text(
        "id: test-new-term\nname: Test New Term\n"
        "decisions:\n  - {name: test_new_term.answer, type: bool, meaning: What the new fact decides.}\n"
        "sections:\n  - key: definition\n    kind: definition\n    title: null\n    clauses:\n"
        "      - id: only\n        text: It holds when the new fact does.\n        rules:\n"
        f"          - {{decision: test_new_term.answer, value: true, when: {fact}}}\n"
        f"          - {{decision: test_new_term.answer, value: false, when: {{not: {fact}}}}}\n",
        encoding="utf-8")
    return edition


def _files(book: Path) -> dict[str, bytes]:
    return {str(p.relative_to(book)): p.read_bytes() for p in sorted(book.rglob("*")) if p.is_file()}


def test_a_new_edition_leaves_every_earlier_edition_as_it_was(tmp_path):
    book = tmp_path / "rulebook"
    shutil.copytree(BUNDLED, book)
    earlier = [e.id for e in load_rulebook(book).editions]
    before = {e: _outputs(book, e, tmp_path / "before" / e) for e in earlier}
    files = _files(book)
    edition = _add_next_edition(book)
    check = _runner().invoke(main, ["check", str(book)])
    assert (check.exit_code, check.stderr) == (0, "")
    for e in earlier:
        assert _outputs(book, e, tmp_path / "after" / e) == before[e], e
    # Nothing that was there was edited: the new edition is files of its own and a line of rulebook.yaml.
    after = _files(book)
    changed = sorted(name for name in files if after[name] != files[name])
    assert changed == ["rulebook.yaml"]
    added = sorted(set(after) - set(files))
    assert added == [f"editions/{edition}/_vocabulary.yaml", f"editions/{edition}/test-new-term.yaml"]
