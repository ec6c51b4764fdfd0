"""Tables keyed by several facts, with an ``otherwise`` row (rulebook_compiler/tables.py, build, back ends).

tests/fixtures/tables/two-keys is a valid rulebook: 'Hold' answers by ability and card type,
'All Other Abilities' is an otherwise row for every line of the term's table, and a bool
key with an otherwise row in one clause. The other fixtures each break tables one way.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulebook_compiler.build import load_rulebook
from rulebook_compiler.conditions import to_json
from rulebook_compiler.evaluate import DecisionModel
from rulebook_compiler.export import edition_json

TABLES = Path(__file__).resolve().parent / "fixtures" / "tables"


@pytest.fixture(scope="module")
def book():
    return load_rulebook(TABLES / "two-keys")


def test_rows_and_the_otherwise_row_stand_for_exact_rules(book):
    rules = book.latest.rules
    assert [(r.clause, to_json(r.when), r.value, r.from_table) for r in rules["targeting.location"]] == [
        ("targeting#draw", {"is": {"ability": "draw"}}, "deck", True),
        ("targeting#hold", {"all": [{"is": {"ability": "hold"}}, {"is": {"card_type": "hero"}}]}, "territory", True),
        ("targeting#hold", {"all": [{"is": {"ability": "hold"}}, {"is": {"card_type": "evil_character"}}]},
         "battle", True),
        ("targeting#all-other", {"not": {"any": [
            {"is": {"ability": "draw"}},
            {"all": [{"is": {"ability": "hold"}}, {"is": {"card_type": "hero"}}]},
            {"all": [{"is": {"ability": "hold"}}, {"is": {"card_type": "evil_character"}}]}]}}, "in_play", True)]
    assert [(r.clause, to_json(r.when), r.value) for r in rules["targeting.may_redirect"]] == [
        ("targeting#redirect", {"all": [{"in": {"ability": ["heal", "band"]}}, {"not": "blocked"}]}, True),
        ("targeting#redirect", {"not": {"any": [{"all": [{"in": {"ability": ["heal", "band"]}},
                                                         {"not": "blocked"}]}]}}, False)]
    otherwise = rules["targeting.location"][-1]
    assert (otherwise.loc.line, otherwise.loc.col) == (35, 22)


def answers(book, decision: str) -> dict[tuple, object]:
    model = DecisionModel(book.latest.vocabulary, book.latest, decision)
    return {tuple(sorted(s.items())): model.evaluate(s).answer for s in model.states()}


@pytest.mark.parametrize("ability, card_type, expected", [
    ("draw", "lost_soul", "deck"), ("hold", "hero", "territory"), ("hold", "evil_character", "battle"),
    ("hold", "lost_soul", "in_play"), ("heal", "hero", "in_play"), ("band", "evil_character", "in_play")])
def test_the_otherwise_row_answers_where_no_row_does(book, ability, expected, card_type):
    found = answers(book, "targeting.location")
    assert found[(("ability", ability), ("card_type", card_type))] == expected


def test_a_bool_key_and_an_otherwise_row_in_one_clause(book):
    found = answers(book, "targeting.may_redirect")
    assert {k: v for k, v in found.items() if v} == {
        (("ability", "heal"), ("blocked", False)): True, (("ability", "band"), ("blocked", False)): True}
    assert len(found) == 8


def test_a_table_is_exported_as_written(book):
    clauses = {c["id"]: c for c in edition_json(book, book.latest)["terms"][0]["clauses"]}
    assert clauses["draw"]["table"] == {"decision": "targeting.location", "key": "ability",
                                        "rows": [{"keys": ["draw"], "value": "deck"}]}
    assert clauses["hold"]["table"] == {
        "decision": "targeting.location", "key": ["ability", "card_type"],
        "rows": [{"keys": {"ability": ["hold"], "card_type": ["hero"]}, "value": "territory"},
                 {"keys": {"ability": ["hold"], "card_type": ["evil_character"]}, "value": "battle"}]}
    assert clauses["all-other"]["table"] == {"decision": "targeting.location", "key": "ability", "rows": [],
                                             "otherwise": "in_play"}
    assert clauses["redirect"]["table"] == {
        "decision": "targeting.may_redirect", "key": ["ability", "blocked"],
        "rows": [{"keys": {"ability": ["heal", "band"], "blocked": [False]}, "value": True}], "otherwise": False}
    assert all(c["rules"] == [] for c in clauses.values())  # the rows are the table, not rules again


def test_the_suite_exercises_the_otherwise_row(book):
    from rulebook_compiler.conformance.cases import build_suite

    suite = build_suite(book, book.latest, max_exhaustive=4096)
    by_name = {c.name: c for c in suite.cases}
    case = by_name["targeting.location[ability=hold,card_type=lost_soul]"]
    assert (case.expected, [q.ref for q in case.clauses]) == ("in_play", ["targeting#all-other"])
    case = by_name["targeting.may_redirect[ability=draw]"]
    assert (case.expected, [q.ref for q in case.clauses]) == (False, ["targeting#redirect"])
    assert sum(1 for c in suite.cases if c.decision == "targeting.location" and c.expected == "in_play") == 7


def test_a_multi_key_table_is_a_real_table_on_its_term_page(book):
    from rulebook_compiler.site import pages as P
    from rulebook_compiler.site.render import Renderer

    spec = next(s for s in P.plan(book) if s.kind == P.TERM and s.term == "targeting")
    html = Renderer(book).render(spec, lambda uri: uri).html
    assert ('<div class="rb-table" data-search-exclude><table>\n'
            "<thead><tr><th>ability</th><th>card type</th><th>location</th></tr></thead>\n"
            "<tbody>\n"
            "<tr><td>hold</td><td>hero</td><td>territory</td></tr>\n"
            "<tr><td>hold</td><td>evil character</td><td>battle</td></tr>\n"
            "</tbody>\n"
            "</table></div>\n") in html
    assert ('<div class="rb-table" data-search-exclude><table>\n'
            "<thead><tr><th>ability</th><th>location</th></tr></thead>\n"
            "<tbody>\n"
            '<tr class="rb-table__otherwise"><td colspan="1">all other</td><td>in play</td></tr>\n'
            "</tbody>\n"
            "</table></div>\n") in html
    assert ("<tr><td>heal, band</td><td>no</td><td>yes</td></tr>\n"
            '<tr class="rb-table__otherwise"><td colspan="2">all other</td><td>no</td></tr>\n') in html
    assert html.count('<div class="rb-table" data-search-exclude><table>') == 3  # 'Draw: Top of Deck' reads as its own text


def test_overlapping_rows_that_disagree(problems_in):
    assert problems_in(TABLES, "overlapping-rows") == [
        "overlapping-rows/editions/t1/targeting.yaml:23:15: error: this row repeats the row at line 22 where "
        "ability is draw and card_type is hero\n"
        "  hint: list each combination of keys once in a table",
        "overlapping-rows/editions/t1/targeting.yaml:30:15: error: rows disagree where ability is hold and "
        "card_type is hero: this row answers 'battle', the row at line 21 answers 'territory'\n"
        "  hint: a term's tables for 'targeting.location' are one table; narrow one row's keys so that each "
        "situation has one answer",
        "overlapping-rows/editions/t1/targeting.yaml:37:29: error: key 'draw' is listed twice in this row"]


def test_keys_and_values_outside_the_vocabulary(problems_in):
    assert problems_in(TABLES, "keys-and-values-outside-the-vocabulary") == [
        "keys-and-values-outside-the-vocabulary/editions/t1/targeting.yaml:22:17: error: table key 'healable' is "
        "a predicate; a table is keyed by facts\n"
        "  hint: key the table by the facts that 'healable' tests, or write rules with 'when'",
        "keys-and-values-outside-the-vocabulary/editions/t1/targeting.yaml:22:27: error: table key 'abilty' is "
        "not a fact\n"
        "  hint: did you mean 'ability'?",
        "keys-and-values-outside-the-vocabulary/editions/t1/targeting.yaml:31:33: error: 'hodl' is not a value "
        "of fact 'ability'\n"
        "  hint: did you mean 'hold'?",
        "keys-and-values-outside-the-vocabulary/editions/t1/targeting.yaml:31:39: error: true is not a value of "
        "fact 'ability'\n"
        "  hint: unquoted yes, no, on, off, true and false are read as true or false; quote a value that is a "
        "word, values: draw, hold, heal, band",
        "keys-and-values-outside-the-vocabulary/editions/t1/targeting.yaml:31:53: error: 'maybe' is not a value "
        "of bool fact 'blocked'\n"
        "  hint: write true or false"]


def test_malformed_tables(problems_in):
    assert problems_in(TABLES, "malformed-tables") == [
        "malformed-tables/editions/t1/targeting.yaml:19:37: error: key 'ability' is listed twice",
        "malformed-tables/editions/t1/targeting.yaml:21:22: error: 'key' is a list, so a row's 'keys' maps each "
        "key fact to its value or values, like {ability: VALUE}",
        "malformed-tables/editions/t1/targeting.yaml:22:22: error: the row gives no value for key 'card_type'\n"
        "  hint: every row gives each key of its table a value or a list of values",
        "malformed-tables/editions/t1/targeting.yaml:22:38: error: 'blocked' is not a key of this table\n"
        "  hint: keys: ability, card_type",
        "malformed-tables/editions/t1/targeting.yaml:29:22: error: 'key' names one fact, so a row's 'keys' is "
        "the list of its values\n"
        "  hint: to map each key fact to its values, make 'key' a list: [ability]",
        "malformed-tables/editions/t1/targeting.yaml:32:16: error: a table needs 'rows', 'otherwise' or both",
        "malformed-tables/editions/t1/targeting.yaml:38:72: error: a second 'otherwise' for 'targeting.location' "
        "in term 'targeting'\n"
        "  hint: the first is at line 35; a term's tables for one decision are one table, with one 'otherwise'"]


def test_an_otherwise_row_that_answers_nothing_is_an_error(problems_in):
    assert problems_in(TABLES, "otherwise-covers-nothing") == [
        "otherwise-covers-nothing/editions/t1/targeting.yaml:23:22: error: 'otherwise' answers no situation: "
        "the rows for 'targeting.may_redirect' cover every combination of blocked, ability\n"
        "  hint: remove 'otherwise', or the rows whose situations it is meant to answer"]


def test_the_json_schema_describes_the_new_table_forms():
    from rulebook_compiler.schema import published_schema

    table = published_schema()["$defs"]["clause"]["properties"]["table"]
    assert table["required"] == ["decision", "key"]
    assert {name: "description" in prop for name, prop in table["properties"].items()} == {
        "decision": True, "key": True, "rows": True, "otherwise": True}
    assert json.dumps(table["properties"]["key"]["type"]) == '["string", "array"]'


def test_mutants_name_the_otherwise_row(book):
    from rulebook_compiler.conformance.mutants import mutants

    where = list(dict.fromkeys(m.clause for m in mutants(book, book.latest)))
    assert where == ["targeting#draw (table row 1)", "targeting#hold (table row 1)", "targeting#hold (table row 2)",
                     "targeting#all-other (otherwise row)", "targeting#redirect (table row 1)",
                     "targeting#redirect (otherwise row)"]


def test_a_value_an_edition_adds_to_a_key_falls_to_the_otherwise_row():
    book = load_rulebook(TABLES / "a-value-added")  # t2 adds the ability 'toss' and changes no term
    t1, t2 = (DecisionModel(e.vocabulary, e, "targeting.location") for e in book.editions)
    assert [s for s in t1.states() if s["ability"] == "toss"] == []
    found = {s["card_type"]: (t2.evaluate(s).answer, t2.evaluate(s).clauses)
             for s in t2.states() if s["ability"] == "toss"}
    assert found == {t: ("in_play", ("targeting#all-other",)) for t in ("hero", "evil_character", "lost_soul")}


def test_too_many_pairs_of_rows_to_compare_is_a_named_error(problems_in, monkeypatch):
    from rulebook_compiler import tables

    monkeypatch.setattr(tables, "MAX_TABLE_PAIRS", 0)  # the two Hold rows share ability=hold: one pair
    assert problems_in(TABLES, "two-keys") == [
        "two-keys/editions/t1/targeting.yaml:18:11: error: the rows of term 'targeting' for 'targeting.location' "
        "take more than 0 pairs to compare for overlaps\n"
        "  hint: key every row of the term's tables for 'targeting.location' by one fact in common, or split the "
        "decision; the limit is MAX_TABLE_PAIRS in rulebook_compiler/tables.py (docs/format.md, Limits)"]


def test_a_row_added_marks_its_own_clause_changed_not_the_otherwise_clause():
    from rulebook_compiler.site.lineage import clause_marks

    book = load_rulebook(TABLES / "a-row-added")  # t2 adds a Hold row; 'All Other Abilities' is as it was
    marks = clause_marks(book)["t2"]["targeting"]
    assert {c: m.changed_in for c, m in marks.items()} == {
        "draw": None, "hold": "t2", "all-other": None, "redirect": None}
