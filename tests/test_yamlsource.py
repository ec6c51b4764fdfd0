from compiler.yamlsource import MAX_NODES, parse


def test_positions_of_values_and_keys():
    doc, problems = parse(b"a: 1\nb:\n  - x\n  - {c: d}\n", "f.yaml")
    assert problems == []
    assert doc.data == {"a": 1, "b": ["x", {"c": "d"}]}
    assert str(doc.at(("b", 1, "c"))) == "f.yaml:4:9"  # the d of "  - {c: d}"
    assert str(doc.key_at(("b",))) == "f.yaml:2:1"
    # a path below a scalar falls back to the nearest known parent
    assert str(doc.at(("b", 0, "nothing"))) == "f.yaml:3:5"


def test_dates_stay_strings_and_scalars_resolve():
    doc, _ = parse(b"d: 2012-10-10\nn: null\nt: yes\ni: 12\nf: 1.5\ns: '2012'\n", "f.yaml")
    assert doc.data == {"d": "2012-10-10", "n": None, "t": True, "i": 12, "f": 1.5, "s": "2012"}


def test_duplicate_key_is_reported_with_the_first_place():
    doc, problems = parse(b"a: 1\nb: 2\na: 3\n", "f.yaml")
    assert doc is None
    assert [str(p) for p in problems] == ["f.yaml:3:1: error: duplicate key 'a'\n  hint: first given at line 1"]


def test_alias_bomb_is_stopped_by_the_node_budget():
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    for i in range(1, 9):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i-1}"] * 10) + "]")
    doc, problems = parse("\n".join(lines).encode(), "bomb.yaml")
    assert doc is None
    assert f"more than {MAX_NODES:,} values through aliases" in problems[0].message


def test_custom_tags_are_refused():
    doc, problems = parse(b"a: !!python/object:os.system {}\n", "f.yaml")
    assert doc is None
    assert "YAML tag '!!python/object:os.system' is not allowed" in problems[0].message


def test_bad_utf8_is_located():
    doc, problems = parse(b"a: ok\nb: caf\xe9\n", "f.yaml")
    assert doc is None
    assert str(problems[0]).startswith("f.yaml:2:7: error: invalid UTF-8 byte 0xe9")


def test_control_characters_are_refused():
    # A double-quoted "\e" is YAML's escape character: in rule text it would drive the
    # terminal that prints a diff, so no back end ever receives one.
    doc, problems = parse(b'a: ok\ntext: "Heal \\e[2J now"\n', "f.yaml")
    assert doc is None
    assert [str(p) for p in problems] == [
        "f.yaml:2:7: error: control character U+001B is not allowed in text\n"
        "  hint: remove it; rule text holds printable characters, tabs and line breaks only"]
    doc, problems = parse(b'text: "tab\\there\\nnext line"\n', "f.yaml")
    assert problems == [] and doc.data == {"text": "tab\there\nnext line"}
