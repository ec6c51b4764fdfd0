"""The YAML loader's every refusal with its exact message and place, and how scalars resolve."""

from __future__ import annotations

import os

import pytest

from rulebook_compiler import yamlsource
from rulebook_compiler.yamlsource import MAX_FILE_BYTES, MAX_STRING, load, parse

TAG_HINT = "\n  hint: rulebook files hold only text, numbers, true/false, lists and mappings; remove the tag"
INDENT_HINT = "\n  hint: the items of a list, and the keys of a mapping, start in the same column"
CONTROL_HINT = "\n  hint: remove it; rule text holds printable characters, tabs and line breaks only"


def refused(raw: bytes) -> list[str]:
    doc, problems = parse(raw, "f.yaml")
    assert doc is None
    return [str(p) for p in problems]


@pytest.mark.parametrize("raw, expected", [
    (b"a: [1, 2\n", "f.yaml:2:1: error: invalid YAML: expected ',' or ']' in the list that opens with '[' at "
                    "line 1, column 4\n  hint: close the list with ']', and separate its items with ','"),
    (b"a: {b: 1\n", "f.yaml:2:1: error: invalid YAML: expected ',' or '}' in the mapping that opens with '{' at "
                    "line 1, column 4\n  hint: close the mapping with '}', and separate its items with ','"),
    (b"a: 'abc\n", "f.yaml:1:4: error: invalid YAML: the quoted text that starts here is never closed\n"
                   "  hint: end it with a matching quote (')"),
    (b'x: 1\na: "abc\nb: 1\n', "f.yaml:2:4: error: invalid YAML: the quoted text that starts here is never closed\n"
                              '  hint: end it with a matching quote (")'),
    (b"a:\n  - x\n - y\n", "f.yaml:3:2: error: invalid YAML: bad indentation: this is not a new key of the mapping "
                           "that starts at line 1, column 1" + INDENT_HINT),
    (b"a: b: c\n", "f.yaml:1:5: error: invalid YAML: ':' cannot start a key here\n  hint: if the ':' is part of "
                   "the text, put the whole text in quotes; otherwise check this line's indentation"),
    (b"a: 1\n---\nb: 2\n", "f.yaml:2:1: error: invalid YAML: a second document ('---') in one file\n  hint: a "
                           "rulebook file holds one document; remove the '---' line or split the file"),
    (b"a:\n\t- x\n", "f.yaml:2:1: error: invalid YAML: tab character where YAML allows only spaces\n"
                     "  hint: indent with spaces, not tabs"),
    # a tab after the column of the error is not what is wrong
    (b"a: 1\n]\tb\n", "f.yaml:2:1: error: invalid YAML: bad indentation: this is not a new key of the mapping "
                       "that starts at line 1, column 1" + INDENT_HINT),
    (b"a: 1\nb: 2\nc: *nope\n", "f.yaml:3:4: error: invalid YAML: found undefined alias"),
    (b"a: &x 1\nb: &x 2\n", "f.yaml:2:4: error: invalid YAML: second occurrence (found duplicate anchor; "
                           "first occurrence)"),
    (b"a: @x\n", "f.yaml:1:4: error: invalid YAML: found character that cannot start any token "
                 "(while scanning for the next token)"),
    (b"- a\n- b: c\n  d\n", "f.yaml:4:1: error: invalid YAML: could not find expected ':' "
                            "(while scanning a simple key)"),
    (b"", "f.yaml:1:1: error: file is empty\n  hint: a rulebook file holds a mapping of keys to values"),
    (b"# only a comment\n", "f.yaml:1:1: error: file is empty\n  hint: a rulebook file holds a mapping of keys to values"),
    (b"a: ok\nb: caf\xe9\n", "f.yaml:2:7: error: invalid UTF-8 byte 0xe9\n  hint: save the file as UTF-8"),
    (b"\xff", "f.yaml:1:1: error: invalid UTF-8 byte 0xff\n  hint: save the file as UTF-8"),
    (b"a: !!set {x}\n", "f.yaml:1:4: error: YAML tag '!!set' is not allowed" + TAG_HINT),
    (b"a: !!omap [x]\n", "f.yaml:1:4: error: YAML tag '!!omap' is not allowed" + TAG_HINT),
    (b"a: !custom x\n", "f.yaml:1:4: error: YAML tag '!custom' is not allowed" + TAG_HINT),
    (b"a: !!binary aGk=\n", "f.yaml:1:4: error: YAML tag '!!binary' is not allowed" + TAG_HINT),
    (b"base: &b {x: 1}\nc:\n  <<: *b\n  y: 2\n",
     "f.yaml:3:3: error: merge keys ('<<') are not allowed\n  hint: write the keys out in full"),
    (b"c:\n  <<: 1\n", "f.yaml:2:3: error: merge keys ('<<') are not allowed\n  hint: write the keys out in full"),
    (b"a: <<\n", "f.yaml:1:4: error: YAML tag '!!merge' is not allowed" + TAG_HINT),
    (b"[a]: 1\n", "f.yaml:1:1: error: a key must be a plain string"),
    (b"a: \"\\x7f\"\n", "f.yaml:1:4: error: control character U+007F is not allowed in text" + CONTROL_HINT),
    (b"a: \"\\x80\"\n", "f.yaml:1:4: error: control character U+0080 is not allowed in text" + CONTROL_HINT),
    (b"a: \"\\x9f\"\n", "f.yaml:1:4: error: control character U+009F is not allowed in text" + CONTROL_HINT),
    (b"a: \"x\\x01\"\n", "f.yaml:1:4: error: control character U+0001 is not allowed in text" + CONTROL_HINT),
    (b"a: \"\\x0b\"\n", "f.yaml:1:4: error: control character U+000B is not allowed in text" + CONTROL_HINT),
])
def test_refusals(raw, expected):
    assert refused(raw) == [expected]


def test_every_problem_of_a_file_at_once():
    assert refused(b"a: !x 1\nb: 1\nb: 2\nc: \"\\x1f\"\n") == [
        "f.yaml:1:4: error: YAML tag '!x' is not allowed" + TAG_HINT,
        "f.yaml:3:1: error: duplicate key 'b'\n  hint: first given at line 2",
        "f.yaml:4:4: error: control character U+001F is not allowed in text" + CONTROL_HINT]


def test_text_up_to_the_length_limit_is_kept_and_longer_is_refused():
    assert MAX_STRING == 100_000
    doc, problems = parse(b"a: " + b"x" * MAX_STRING + b"\n", "f.yaml")
    assert (problems, len(doc.data["a"])) == ([], MAX_STRING)
    assert refused(b"a: ok\nb: " + b"x" * (MAX_STRING + 1) + b"\n") == [
        "f.yaml:2:4: error: text of 100,001 characters is longer than the limit of 100,000\n"
        "  hint: split it into several clauses"]


def test_the_alias_budget_counts_every_value_built(monkeypatch):
    monkeypatch.setattr(yamlsource, "MAX_NODES", 20)
    hint = ("\n  hint: an alias ('*name') repeats the value anchored as '&name'; "
            "aliases nested this deep are refused so that loading stays bounded")
    # the document, its two keys, a list of 7 under 'a' (8 values), and under 'b' a list
    # holding that list again through an alias (1 + 8): 1 + 2 + 8 + 9 = 20 values
    doc, problems = parse(b"a: &x [1, 2, 3, 4, 5, 6, 7]\nb: [*x]\n", "f.yaml")
    assert (problems, doc.data["b"]) == ([], [[1, 2, 3, 4, 5, 6, 7]])
    assert refused(b"a: &x [1, 2, 3, 4, 5, 6, 7, 8]\nb: [*x]\n") == [
        "f.yaml:2:1: error: 'b' expands to more than 20 values through aliases" + hint]
    assert refused(b"- &x [1, 2, 3, 4, 5]\n- [*x, *x, *x, *x]\n") == [
        "f.yaml:1:1: error: the file expands to more than 20 values through aliases" + hint]


@pytest.mark.parametrize("raw, value", [
    (b"a: 0x1F", 31), (b"a: 1_000", 1000), (b"a: -0x_1", -1), (b"a: 010", "010"), (b"a: 0o17", "0o17"),
    (b"a: !!int abc", "abc"), (b"a: !!int 1", 1),
    (b"a: 1_0.5", 10.5), (b"a: !!float 1", 1.0), (b"a: !!float abc", "abc"), (b"a: .inf", ".inf"),
    (b"a: ~", None), (b"a: Null", None), (b"a: null", None),
    (b"a: FALSE", False), (b"a: No", False), (b"a: off", False), (b"a: 'off'", "off"),
    (b"a: True", True), (b"a: YES", True), (b"a: !!bool yes", True),
    (b"a: 2012-10-10 10:10:10", "2012-10-10 10:10:10"), (b"a: [x, !!str 1]", ["x", "1"]),
    (b"\xef\xbb\xbfa: 1", 1),
])
def test_scalars(raw, value):
    doc, problems = parse(raw + b"\n", "f.yaml")
    assert problems == []
    assert doc.data == {"a": value}
    assert type(doc.data["a"]) is type(value)


def test_keys_are_text_whatever_they_look_like():
    doc, problems = parse(b"1: a\ntrue: b\nnull: c\n", "f.yaml")
    assert (problems, doc.data) == ([], {"1": "a", "true": "b", "null": "c"})


def test_places_of_the_document_and_of_unknown_paths():
    doc, _ = parse(b"\n\n  a: 1\n", "f.yaml")
    assert [str(doc.at(())), str(doc.at(("zz",))), str(doc.key_at(("a",))), str(doc.key_at(("zz",))),
            str(doc.at(("a",)))] == ["f.yaml:3:3", "f.yaml:3:3", "f.yaml:3:3", "f.yaml:3:3", "f.yaml:3:6"]


def test_load_names_the_file_as_shown(tmp_path):
    path = tmp_path / "t.yaml"
    path.write_bytes(b"a: [x\n")
    doc, problems = load(path, "editions/e1/t.yaml")
    assert doc is None
    assert [str(p) for p in problems] == [
        "editions/e1/t.yaml:2:1: error: invalid YAML: expected ',' or ']' in the list that opens with '[' at "
        "line 1, column 4\n  hint: close the list with ']', and separate its items with ','"]
    path.write_bytes(b"a: 1\n")
    doc, problems = load(path)
    assert (problems, doc.path, doc.data) == ([], str(path), {"a": 1})


def test_load_of_a_missing_file(tmp_path):
    doc, problems = load(tmp_path / "nope.yaml", "nope.yaml")
    assert doc is None
    assert [str(p) for p in problems] == ["nope.yaml: error: cannot read file: No such file or directory"]


def test_a_file_over_the_size_limit_is_not_read(tmp_path):
    assert MAX_FILE_BYTES == 16 * 1024 * 1024
    path = tmp_path / "big.yaml"
    with path.open("wb") as out:  # sparse: nothing is written, and nothing needs reading
        out.truncate(MAX_FILE_BYTES + 1)
    doc, problems = load(path, "big.yaml")
    assert doc is None
    assert [str(p) for p in problems] == [
        "big.yaml:1:1: error: file is 16,777,217 bytes, over the limit of 16,777,216 (16 MiB)\n"
        "  hint: split the term, or move long notes out of the rulebook"]


def test_a_file_at_the_size_limit_is_read(tmp_path):
    path = tmp_path / "big.yaml"
    with path.open("wb") as out:
        out.write(b"a: 1\n#")
        out.truncate(MAX_FILE_BYTES)
    assert os.path.getsize(path) == MAX_FILE_BYTES
    doc, problems = load(path, "big.yaml")
    assert doc is None  # read, and refused for what it holds: NUL bytes after the comment sign
    assert [p.message.split(":")[0] for p in problems] == ["invalid YAML"]
