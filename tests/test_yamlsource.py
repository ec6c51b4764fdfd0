from rulebook_compiler.yamlsource import MAX_DEPTH, MAX_NODES, parse


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


def test_nesting_deeper_than_the_limit_is_a_located_error():
    # 500 nested lists once ended in a RecursionError traceback
    text = b"a: ok\nnotes: " + b"[" * 500 + b"]" * 500 + b"\n"
    doc, problems = parse(text, "deep.yaml")
    assert doc is None
    assert [str(p) for p in problems] == [
        f"deep.yaml:2:{7 + MAX_DEPTH}: error: lists and mappings nested more than {MAX_DEPTH} deep\n"
        f"  hint: a rulebook file needs far less; the limit is MAX_DEPTH = {MAX_DEPTH} "
        "in rulebook_compiler/yamlsource.py (docs/format.md, Limits)"]


def test_nesting_at_the_limit_is_accepted():
    depth = MAX_DEPTH - 1  # the top-level mapping is the first level
    doc, problems = parse(b"notes: " + b"[" * depth + b"x" + b"]" * depth + b"\n", "f.yaml")
    assert problems == []
    value = doc.data["notes"]
    for _ in range(depth):
        value = value[0]
    assert value == "x"


def test_very_deep_nesting_is_refused_without_a_traceback():
    for depth in (1_000, 5_000, 50_000):
        doc, problems = parse(b"a: " + b"[" * depth + b"]" * depth + b"\n", "f.yaml")
        assert doc is None
        assert len(problems) == 1
        assert problems[0].location.path == "f.yaml"
        assert "nested more than" in problems[0].message


def test_an_alias_bomb_is_refused_after_building_no_more_than_the_file_holds(monkeypatch):
    # A 400-deep list repeated through aliases took 17 s and 1.9 GB before it was refused:
    # each alias is now built once and counted by its size, so the work is that of the file.
    import rulebook_compiler.yamlsource as Y

    lines = ["l0: &l0 " + "[" * 40 + "]" * 40]
    for level in range(1, 9):
        lines.append(f"l{level}: &l{level} [" + ", ".join([f"*l{level - 1}"] * 9) + "]")
    built = []
    original = Y._Builder._open
    monkeypatch.setattr(Y._Builder, "_open",
                        lambda self, *args: built.append(1) or original(self, *args))
    doc, problems = parse("\n".join(lines).encode(), "bomb.yaml")
    assert doc is None
    assert [str(p) for p in problems] == [
        f"bomb.yaml:6:1: error: 'l5' expands to more than {MAX_NODES:,} values through aliases\n"
        "  hint: an alias ('*name') repeats the value anchored as '&name'; "
        "aliases nested this deep are refused so that loading stays bounded"]
    assert len(built) <= 1 + 40 + 8  # the top mapping, the 40 lists, one list per level


def test_a_repeated_alias_gives_equal_values_at_each_place():
    doc, problems = parse(b"a: &x {k: [1, 2]}\nb: *x\nc: [*x, *x]\n", "f.yaml")
    assert problems == []
    assert doc.data == {"a": {"k": [1, 2]}, "b": {"k": [1, 2]}, "c": [{"k": [1, 2]}, {"k": [1, 2]}]}
    # inside a repeat, a place is the alias's: the values repeated have none of their own there
    assert str(doc.at(("c", 1, "k", 0))) == "f.yaml:3:9"
    assert str(doc.at(("a", "k", 1))) == "f.yaml:1:15"


def test_an_alias_that_would_nest_too_deep_is_refused():
    inner = b"[" * (MAX_DEPTH - 5) + b"]" * (MAX_DEPTH - 5)
    doc, problems = parse(b"a: &x " + inner + b"\nb: [[[[[[[[*x]]]]]]]]\n", "f.yaml")
    assert doc is None
    assert [p.message for p in problems] == [f"lists and mappings nested more than {MAX_DEPTH} deep"]


def test_yaml_11_booleans_are_read_as_the_schema_expects():
    # Unquoted on/off/yes/no are YAML 1.1 booleans: where text is expected the schema
    # reports them with a hint to quote (tests/fixtures/broken/enum-values-unquoted-on-off);
    # quoted, they are text; as keys, they stay the text written.
    doc, problems = parse(b"a: on\nb: off\nc: yes\nd: no\ne: On\nf: NO\ng: 'on'\nh: \"off\"\non: 1\nno: 2\n",
                          "f.yaml")
    assert problems == []
    assert doc.data == {"a": True, "b": False, "c": True, "d": False, "e": True, "f": False,
                        "g": "on", "h": "off", "on": 1, "no": 2}
    assert [type(k) for k in doc.data] == [str] * 10


def test_a_recursive_alias_is_a_located_error():
    doc, problems = parse(b"a: ok\nb: &x [1, *x]\n", "f.yaml")
    assert doc is None
    assert [str(p) for p in problems] == [
        "f.yaml:2:11: error: alias '*x' inside the value it repeats\n"
        "  hint: an alias cannot repeat a value that contains it"]


def test_libyamls_own_nesting_limit_reads_as_ours():
    # PyYAML 6.0.4's libyaml refuses 1,000 flow levels itself, while scanning ahead
    # for a simple key, before our cap sees the 101st: the same named error, where it stopped.
    from yaml import Mark, MarkedYAMLError

    from rulebook_compiler.yamlsource import _syntax_error

    mark = Mark("f.yaml", 0, 0, 1002, None, None)
    exc = MarkedYAMLError(None, None, "exceeded maximum nesting depth", mark)
    exc.context = "while increasing flow level"
    problem = _syntax_error(exc, "f.yaml", "a: " + "[" * 1000)
    assert (problem.location.path, problem.location.line, problem.location.col) == ("f.yaml", 1, 1003)
    assert problem.message == f"lists and mappings nested more than {MAX_DEPTH} deep"
    assert problem.hint == (f"a rulebook file needs far less; the limit is MAX_DEPTH = {MAX_DEPTH} "
                            "in rulebook_compiler/yamlsource.py (docs/format.md, Limits)")
