"""``rulebook export --format jsonl``: one record per clause, for search indexes and rules bots."""

import json
from pathlib import Path

from click.testing import CliRunner

from rulebook_compiler.cli import main
from rulebook_compiler.export import jsonl_line

RECORDS = str(Path(__file__).resolve().parent / "fixtures" / "export" / "clause-records")


def _runner() -> CliRunner:
    return CliRunner(mix_stderr=False) if "mix_stderr" in CliRunner.__init__.__code__.co_varnames \
        else CliRunner()


def export(*args: str):
    return _runner().invoke(main, ["export", "--rulebook", RECORDS, "--format", "jsonl", *args])


def _records(output: str) -> dict[str, dict]:
    assert output.endswith("\n")
    return {r["ref"]: r for r in map(json.loads, output.splitlines())}


def test_one_record_per_clause_with_permalink_edition_dates_and_links():
    result = export("--base-url", "https://rules.example.org/glossary")
    assert result.exit_code == 0, result.output
    records = _records(result.stdout)
    assert list(records) == ["battle#what", "cure#what", "cure#not-in-battle"]
    assert records["cure#not-in-battle"] == {
        "ref": "cure#not-in-battle", "term": "cure", "term_name": "Cure", "aliases": ["Mend"],
        "clause": "not-in-battle", "number": None, "section": "battle-use", "section_title": "In a Battle",
        "text": "A cure cannot be used during a Battle.", "notes": None,
        "url": "https://rules.example.org/glossary/terms/cure/#not-in-battle",
        "edition": {"id": "e2", "version": "2.0.0", "date": "2021-06", "status": "draft"},
        "updated": {"date": "2021-06-02", "version": "2.0.0"},
        "released": {"date": "2020-01-01", "version": "1.0.0"},
        "links": [{"phrase": "Battle", "term": "battle", "clause": "what",
                   "url": "https://rules.example.org/glossary/terms/battle/#what"}],
    }
    # reader notes go out, editor notes stay in; a section without a title has the site's heading
    assert (records["cure#what"]["notes"], "editor_notes" in records["cure#what"]) == (
        "Poison is a status, not a card.", False)
    assert (records["battle#what"]["section_title"], records["battle#what"]["updated"],
            records["battle#what"]["released"]) == ("Definition", None, None)


def test_an_earlier_edition_gives_its_own_text_and_dates_and_the_same_permalinks():
    records = _records(export("--edition", "e1", "--base-url", "https://rules.example.org/").stdout)
    assert {ref: (r["text"], r["edition"]["id"], r["updated"], r["url"]) for ref, r in records.items()} == {
        "battle#what": ("A battle is fought between two characters.", "e1", None,
                        "https://rules.example.org/terms/battle/#what"),
        "cure#what": ("A cure removes poison.", "e1", None, "https://rules.example.org/terms/cure/#what"),
    }


def test_without_a_base_url_the_links_are_relative_to_the_site_root():
    records = _records(export().stdout)
    assert (records["cure#what"]["url"], records["cure#not-in-battle"]["links"][0]["url"]) == (
        "terms/cure/#what", "terms/battle/#what")


def test_the_same_sources_give_the_same_bytes():
    assert export("--base-url", "https://x.org").stdout_bytes == export("--base-url", "https://x.org/").stdout_bytes


def test_a_base_url_that_is_not_http_is_a_usage_error():
    result = export("--base-url", "javascript:alert(1)")
    assert result.exit_code == 2
    assert result.stderr.splitlines()[0] == (
        "rulebook: error: --base-url: 'javascript:alert(1)' is not an http(s) URL "
        "(such as https://rules.example.org/)")


def test_a_base_url_is_refused_with_the_json_format():
    result = _runner().invoke(main, ["export", "--rulebook", RECORDS, "--format", "json",
                                     "--base-url", "https://x.org"])
    assert result.exit_code == 2
    assert result.stderr.splitlines()[0] == "rulebook: error: --base-url applies to --format jsonl only"


def test_a_record_is_one_line_whatever_the_text_holds():
    """U+2028, U+2029 and U+0085 end a line for str.splitlines() and some JSON-lines readers."""
    line = jsonl_line({"text": "a\u2028b\u2029c\x85d\ne"})
    assert line == '{"text": "a\\u2028b\\u2029c\\u0085d\\ne"}\n'
    assert line.splitlines() == [line[:-1]]
    assert json.loads(line) == {"text": "a\u2028b\u2029c\x85d\ne"}


def test_out_file_is_written_atomically(tmp_path):
    target = tmp_path / "clauses.jsonl"
    result = export("--out", str(target))
    assert result.exit_code == 0, result.output
    assert target.read_bytes() == export().stdout_bytes


def test_the_readme_example_loads_an_export(tmp_path, monkeypatch):
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    _, marker, rest = readme.partition("<!-- jsonl-example -->\n```python\n")
    assert marker
    code = rest.partition("```")[0]
    assert export("--base-url", "https://x.org", "--out", str(tmp_path / "clauses.jsonl")).exit_code == 0
    monkeypatch.chdir(tmp_path)
    scope: dict = {}
    exec(compile(code, "README.md", "exec"), scope)  # the project's own README, not input
    assert {d["id"]: d for d in scope["documents"]}["cure#not-in-battle"] == {
        "id": "cure#not-in-battle", "text": "Cure, In a Battle: A cure cannot be used during a Battle.",
        "source": "https://x.org/terms/cure/#not-in-battle", "edition": "e2", "last_updated": "2021-06-02"}


NUMBERED = str(Path(__file__).resolve().parent / "fixtures" / "clause-number")


def test_each_record_gives_the_number_the_publisher_prints_and_null_where_there_is_none():
    # tests/fixtures/clause-number: 100.1. and 100.1a printed, the third clause unnumbered (issue 23.3).
    result = _runner().invoke(main, ["export", "--rulebook", NUMBERED, "--format", "jsonl"])
    assert result.exit_code == 0, result.output
    assert [(r["ref"], r["number"]) for r in map(json.loads, result.stdout.splitlines())] == [
        ("general#rules-apply", "100.1."), ("general#two-player-game", "100.1a"), ("general#unnumbered", None)]
