"""Hypothesis strategies that damage a valid rulebook: its YAML tree, its lines, its strings, its files.

Loaded by file path from ``test_fuzz.py`` (the tests run under ``--import-mode=importlib``,
where test folders are not packages). A rulebook here is a dict of relative path -> bytes;
``write`` puts it in a folder.
"""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any, Callable

import yaml
from hypothesis import strategies as st

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
# Small valid rulebooks of the other tests, and one made for the fuzzer that uses every part of the format.
SEEDS = {"minimal": FIXTURES / "minimal", "features": FIXTURES / "fuzz" / "seed-features",
         "reorganised": FIXTURES / "diff" / "reorganised", "site-hostile": FIXTURES / "site" / "hostile",
         "conformance-hostile": FIXTURES / "conformance" / "hostile", "wide": FIXTURES / "conformance" / "wide",
         "ordered": FIXTURES / "ordered", "lineage-move": FIXTURES / "lineage" / "move"}

Files = dict[str, bytes]
Tree = dict[str, Any]  # relative path -> parsed YAML (term files, rulebook.yaml, vocabulary.yaml)

TEXT_KEYS = {"text", "name", "title", "notes", "meaning", "phrase", "publisher"}
ID_KEYS = {"id", "key", "term", "clause", "decision", "procedure", "name"}
CONDITION_KEYS = {"as", "when", "requires", "forbids", "permits", "never", "given"}
KNOWN_KEYS = sorted({
    "title", "publisher", "notes", "editions", "id", "date", "status", "sources", "facts", "constraints",
    "name", "type", "values", "meaning", "text", "never", "withdrawn", "aliases", "decisions", "given",
    "sections", "key", "kind", "clauses", "links", "phrase", "term", "clause", "defines", "as", "rules",
    "decision", "when", "value", "requires", "forbids", "permits", "exception_to", "steps", "procedure",
    "order", "table", "rows", "keys", "not", "all", "any", "is", "in",
    "ordered", "before", "at_most", "after", "at_least", "fact",
})

# Strings that have broken (or could break) a parser, an escaper or a terminal.
HOSTILE = [
    '"', "'", "\"'", "\\", "\\n", "<script>window.__pwned=1</script>", "</title><script>alert(1)</script>",
    "\"><img src=x onerror=alert(1)>", "{{ 7 * 7 }}", "{% raw %}", "{# c #}", "${HOME}", "$(id)", "`id`",
    "\x00", "\x07", "\x1b[31mred\x1b[0m", "\x1b]0;title\x07", "\r", "\r\n", "\t", "\x7f", "\x85", "\u2028",
    "\u202e", "\u200b", "\ufeff", "\ufffe", "😀", "👩‍👩‍👧", "𝔘𝔫𝔦", "\U0010ffff", "@everyone", "@org/team",
    "#1", "<https://example.invalid>", "[x](javascript:alert(1))", "![x](http://example.invalid/x.png)",
    "on", "off", "yes", "no", "y", "n", "true", "null", "~", "", " ", "a\nb", "---", "...", "- x", "x: y",
    "&a", "*a", "!!python/object/apply:os.system [id]", "%TAG", "# comment", "|", ">", "?", "0x1F", "1e3",
    ".inf", "2020-01-01", "12:30:00", "<!-- -->", "]]>", "&amp;", "&#x3C;", "%s%n", "../../etc/passwd",
    "con", "nul.txt", "a" * 300,
]
YAML11 = ["on", "off", "yes", "no", "y", "n", "Yes", "NO", "On", "~", "null", "Null", "true", "FALSE", "1e3",
          "0o17", "0x1f", "017", "1_000", ".inf", "-.nan", "2020-01-01", "12:30:00", "''", '""', "[]", "{}",
          "!!binary aGk=", "!!set {a}", "!!python/object/apply:os.system [\"true\"]", "!custom x", "&x y", "*x",
          "*undefined", "<<: *x", "|", ">-", "- a", "? a", "@x", "`x`", "%x"]

hostile_text = st.one_of(
    st.sampled_from(HOSTILE),
    st.text(max_size=30),
    st.lists(st.sampled_from(HOSTILE), min_size=2, max_size=4).map("".join),
    st.builds(lambda unit, n: unit * n, st.sampled_from(["x", "é", "😀", "<b>", "{{x}}", "word "]),
              st.integers(1000, 20000)),
)
# The hostile strings that check accepts in text: no control characters other than tab and
# line breaks, not blank (so that examples get past check and reach the back ends).
printable_text = hostile_text.filter(lambda s: s.strip() != "" and re.search("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]", s) is None)
file_names = st.one_of(
    st.sampled_from(["a b", "ünï", "😀", "-x", ".hidden", "x\x1b[31m", "x\ny", "x\ty", "UPPER", "a..b", "x" * 200]),
    st.text(st.characters(exclude_characters="/\x00", codec="utf-8"), min_size=1, max_size=20)
    .filter(lambda s: s not in (".", "..")),
)


def read(root: Path) -> Files:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def write(files: Files, root: Path) -> None:
    root.mkdir(parents=True)
    for rel, data in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


# -- the YAML tree ------------------------------------------------------------------

def _paths(node: Any, here: tuple = ()) -> list[tuple]:
    """Every path from the root to a node below it."""
    found: list[tuple] = []
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, child in items:
        found.append(here + (key,))
        found.extend(_paths(child, here + (key,)))
    return found


def _get(node: Any, path: tuple) -> Any:
    for key in path:
        node = node[key]
    return node


def _containers(node: Any, here: tuple = ()) -> list[tuple]:
    found = [here] if isinstance(node, (dict, list)) else []
    return found + [p for p in _paths(node, here) if isinstance(_get(node, p[len(here):]), (dict, list))]


def _strings(node: Any) -> set[str]:
    if isinstance(node, dict):
        return set().union(*(_strings(v) | {str(k)} for k, v in node.items())) if node else set()
    if isinstance(node, list):
        return set().union(*(_strings(v) for v in node)) if node else set()
    return {node} if isinstance(node, str) else set()


def _last_key(path: tuple) -> Any:
    return next((k for k in reversed(path) if isinstance(k, str)), None)


def _pick_path(draw, trees: Tree, want: Callable[[tuple, Any], bool] = lambda p, v: True):
    """A (file, path) whose node passes want, or None."""
    choices = [(f, p) for f in sorted(trees) for p in _paths(trees[f]) if want(p, _get(trees[f], p))]
    return draw(st.sampled_from(choices)) if choices else None


def _set(trees: Tree, where: tuple[str, tuple], value: Any) -> None:
    f, path = where
    if not path:
        trees[f] = value
    else:
        _get(trees[f], path[:-1])[path[-1]] = value


def _delete(trees: Tree, where: tuple[str, tuple]) -> Any:
    f, path = where
    parent = _get(trees[f], path[:-1])
    value = parent[path[-1]]
    del parent[path[-1]]
    return value


def _insert(draw, trees: Tree, value: Any) -> None:
    f = draw(st.sampled_from(sorted(trees)))
    places = _containers(trees[f])
    if not places:
        trees[f] = value
        return
    parent = _get(trees[f], draw(st.sampled_from(places)))
    if isinstance(parent, list):
        parent.insert(draw(st.integers(0, len(parent))), value)
    else:
        parent[draw(st.sampled_from(KNOWN_KEYS + sorted(map(str, parent))))] = value


def _wrap(draw, value: Any) -> Any:
    for _ in range(draw(st.integers(1, 40))):
        kind = draw(st.sampled_from(["not", "all", "any"]))
        value = {"not": value} if kind == "not" else {kind: [value]}
    return value


def _variant(draw, value: Any) -> Any:
    text = str(value)
    return draw(st.sampled_from([text + "\n", text.upper(), " " + text, text + "-2", "ü" + text, text + "#x",
                                 text.replace("-", "_"), text.replace("_", "-"), text + ".yaml", "", "-" + text]))


def _retyped(draw, value: Any) -> Any:
    return draw(st.sampled_from([None, True, False, 0, -1, 1.5, "", [], {}, [value], {"not": value}, str(value),
                                 {"x": value}, [[value]]]) | hostile_text)


TREE_OPS = ["drop", "duplicate", "move", "rename-key", "pooled-string", "retype", "hostile", "swap", "deepen",
            "vary-id", "printable", "duplicate-renamed", "transplant", "drop-part", "reword", "lineage"]
LINEAGE_KEYS = ["formerly", "split_from", "merged_from", "moved_from"]
PART_KEYS = {"steps", "table", "rules", "defines", "links", "when", "given", "exception_to", "notes", "aliases",
             "title", "withdrawn", "sources", "constraints", "decisions", "values", "meaning", "id"}


def _clause_refs(trees: Tree) -> list[str]:
    """Every clause of the term files as TERM#CLAUSE, of every edition (the names lineage may give)."""
    refs = set()
    for f, tree in trees.items():
        if f.startswith("editions/") and isinstance(tree, dict) and isinstance(tree.get("id"), str):
            refs |= {f"{tree['id']}#{_get(tree, p)['id']}" for p in _paths(tree) if _is_clause(_get(tree, p))}
    return sorted(refs)


def _is_clause(node: Any) -> bool:
    return isinstance(node, dict) and isinstance(node.get("id"), str) and isinstance(node.get("text"), str)


def _lineage(draw, refs: list[str], own_term: str | None, kinds: list[str] = LINEAGE_KEYS) -> tuple[str, Any]:
    """A lineage key with clauses of the rulebook, mostly as check asks them named (formerly: an id
    of the clause's own term; moved_from: a clause of another term), sometimes not."""
    kind = draw(st.sampled_from(kinds))
    own = [r for r in refs if r.split("#", 1)[0] == own_term]
    other = [r for r in refs if r.split("#", 1)[0] != own_term]
    pool = own if kind == "formerly" and own else other if kind == "moved_from" and other else refs
    if draw(st.integers(0, 4)) == 0:
        pool = refs
    pool = sorted(set(pool))
    picked = draw(st.lists(st.sampled_from(pool), min_size=2 if kind == "merged_from" and len(pool) > 1 else 1,
                           max_size=3, unique=True))
    named = [r.split("#", 1)[1] if r.split("#", 1)[0] == own_term and (kind == "formerly" or draw(st.booleans()))
             else r for r in picked]
    return kind, (named if kind == "merged_from" else named[0])


def lineage_op(draw, trees: Tree) -> None:
    """A clause given lineage naming clauses that exist (an importer's proposal, true or not)."""
    refs = _clause_refs(trees)
    where = _pick_path(draw, trees, lambda p, v: _is_clause(v))
    if not where or not refs:
        return
    clause = _get(trees[where[0]], where[1])
    for key in LINEAGE_KEYS:
        clause.pop(key, None)
    term = trees[where[0]].get("id") if isinstance(trees[where[0]], dict) else None
    kind, value = _lineage(draw, refs, term)
    clause[kind] = value


def tree_op(draw, trees: Tree, op: str) -> None:
    """Apply one structure mutation to the parsed files, in place."""
    if op == "lineage":
        lineage_op(draw, trees)
    elif op == "drop":
        where = _pick_path(draw, trees)
        if where:
            _delete(trees, where)
    elif op == "reword":
        # a text edited in place (words in, out, repeated), as between two editions: work for the redline
        where = _pick_path(draw, trees, lambda p, v: isinstance(v, str) and _last_key(p) == "text")
        if where:
            words = _get(trees[where[0]], where[1]).split(" ")
            for _ in range(draw(st.integers(1, 4))):
                at = draw(st.integers(0, len(words)))
                kind = draw(st.sampled_from(["insert", "delete", "repeat"]))
                if kind == "insert":
                    words.insert(at, draw(st.sampled_from(["not", "never", "the", "a", "😀", "<b>", "@x"])))
                elif kind == "delete" and at < len(words) and len(words) > 1:
                    del words[at]
                elif kind == "repeat" and len(words) <= 200:  # at most 10,000 words
                    words = words * draw(st.integers(2, 50))
            _set(trees, where, " ".join(words))
    elif op == "drop-part":
        # one part of a meaning removed, so that an edition differs from the one before by that part alone
        where = _pick_path(draw, trees, lambda p, v: p[-1] in PART_KEYS)
        if where:
            _delete(trees, where)
    elif op == "duplicate":
        where = _pick_path(draw, trees, lambda p, v: isinstance(p[-1], int))
        if where:
            f, path = where
            parent = _get(trees[f], path[:-1])
            parent.insert(draw(st.integers(0, len(parent))), copy.deepcopy(parent[path[-1]]))
    elif op == "move":
        where = _pick_path(draw, trees)
        if where:
            _insert(draw, trees, _delete(trees, where))
    elif op == "rename-key":
        where = _pick_path(draw, trees, lambda p, v: isinstance(p[-1], str))
        if where:
            f, path = where
            parent = _get(trees[f], path[:-1])
            new = draw(st.sampled_from(KNOWN_KEYS) | hostile_text)
            value = parent.pop(path[-1])
            parent[new] = value
    elif op == "pooled-string":
        pool = sorted(set().union(*(_strings(t) for t in trees.values())))
        where = _pick_path(draw, trees, lambda p, v: isinstance(v, str))
        if where and pool:
            _set(trees, where, draw(st.sampled_from(pool)))
    elif op == "retype":
        where = _pick_path(draw, trees)
        if where:
            _set(trees, where, _retyped(draw, _get(trees[where[0]], where[1])))
    elif op == "hostile":
        where = _pick_path(draw, trees, lambda p, v: isinstance(v, str) and (
            _last_key(p) in TEXT_KEYS or _last_key(p) == "aliases"))
        where = where or _pick_path(draw, trees, lambda p, v: isinstance(v, str))
        if where:
            _set(trees, where, draw(hostile_text))
    elif op == "printable":
        where = _pick_path(draw, trees, lambda p, v: isinstance(v, str) and (
            _last_key(p) in TEXT_KEYS or _last_key(p) == "aliases"))
        if where:
            _set(trees, where, draw(printable_text))
    elif op == "duplicate-renamed":
        # a copy of a list item under a new id, as an editor copies a clause, rule or section
        where = _pick_path(draw, trees, lambda p, v: isinstance(p[-1], int) and isinstance(v, dict))
        if where:
            f, path = where
            parent = _get(trees[f], path[:-1])
            item = copy.deepcopy(parent[path[-1]])
            for key, suffix in (("id", "-copy"), ("key", "-copy"), ("name", "_copy")):
                if isinstance(item.get(key), str):
                    item[key] += suffix
            parent.insert(draw(st.integers(0, len(parent))), item)
    elif op == "transplant":
        # a keyed part (steps, rules, when, links...) moved or copied to another mapping, same key
        where = _pick_path(draw, trees, lambda p, v: isinstance(p[-1], str))
        if where:
            f, path = where
            targets = [(g, p) for g in sorted(trees) for p in _containers(trees[g])
                       if isinstance(_get(trees[g], p), dict) and not (g == f and p[:len(path)] == path)]
            if targets:
                value = copy.deepcopy(_get(trees[f], path))
                if draw(st.booleans()):
                    _delete(trees, where)
                g, p = draw(st.sampled_from(targets))
                if _exists(trees, (g, p)):
                    _get(trees[g], p)[path[-1]] = value
    elif op == "swap":
        a, b = _pick_path(draw, trees), _pick_path(draw, trees)
        if a and b:
            va, vb = copy.deepcopy(_get(trees[a[0]], a[1])), copy.deepcopy(_get(trees[b[0]], b[1]))
            _set(trees, a, vb)
            if _exists(trees, b):
                _set(trees, b, va)
    elif op == "deepen":
        where = _pick_path(draw, trees, lambda p, v: _last_key(p) in CONDITION_KEYS)
        if where:
            _set(trees, where, _wrap(draw, _get(trees[where[0]], where[1])))
    elif op == "vary-id":
        where = _pick_path(draw, trees, lambda p, v: isinstance(v, str) and _last_key(p) in ID_KEYS | {"order"})
        if where:
            _set(trees, where, _variant(draw, _get(trees[where[0]], where[1])))


def _exists(trees: Tree, where: tuple[str, tuple]) -> bool:
    try:
        _get(trees[where[0]], where[1])
    except (KeyError, IndexError, TypeError):
        return False
    return True


# -- files ----------------------------------------------------------------------------

FILE_OPS = ["delete-file", "copy-term", "rename-file", "new-edition-folder", "empty-file", "overlay-term",
            "lineage-term"]


def _lineage_term(draw, files: Files, terms: list[str]) -> None:
    """A new term in the latest edition's folder (its other terms carried over) whose one clause is
    worded like a clause of the rulebook and declares lineage from it, or from other clauses: the
    proposals of issue 23 that check accepted and the diff could not read. Or a new edition after
    the latest, holding that term only (and the term its words were taken from)."""
    trees = _parse_quietly({t: files[t] for t in terms})
    clauses = [(f, _get(tree, p)) for f, tree in sorted(trees.items()) if isinstance(tree, dict)
               and isinstance(tree.get("id"), str) for p in _paths(tree) if _is_clause(_get(tree, p))]
    if not clauses:
        return
    folder = _latest_folder(draw, files)
    if folder is None:
        return
    f, model = draw(st.sampled_from(clauses))
    source = f"{trees[f]['id']}#{model['id']}"
    kind, value = _lineage(draw, [source] + _clause_refs(trees), None, ["split_from", "merged_from", "moved_from"])
    if kind != "merged_from" and draw(st.booleans()):
        value = source  # the very clause it is worded like
    text = model["text"] if draw(st.booleans()) else model["text"] + " " + draw(st.sampled_from(["Also.", "Not."]))
    term = {"id": "proposed", "name": "Proposed",
            "sections": [{"key": "definition", "kind": "definition",
                          "clauses": [{"id": draw(st.sampled_from([model["id"], "part"])), "text": text,
                                       kind: value}]}]}
    files[f"{folder}/proposed.yaml"] = yaml.safe_dump(term, sort_keys=False).encode("utf-8")
    if draw(st.booleans()):  # the words did leave: a true split, move or merge
        _take_from(trees[f], model["id"], kind, f"{folder}/{Path(f).name}", files)


def _take_from(tree: Any, clause: str, kind: str, where: str, files: Files) -> None:
    """The term a clause was taken from, written into the new edition's folder: the clause's last
    word gone (a split), or the clause gone (a move, a merge)."""
    tree = copy.deepcopy(tree)
    for path in _paths(tree):
        node = _get(tree, path)
        if not (_is_clause(node) and node["id"] == clause):
            continue
        if kind == "split_from":
            words = node["text"].split(" ")
            node["text"] = " ".join(words[:-1]) if len(words) > 1 else node["text"] + " Less."
        else:
            del _get(tree, path[:-1])[path[-1]]
        break
    files[where] = yaml.safe_dump(tree, sort_keys=False).encode("utf-8")


def _latest_folder(draw, files: Files) -> str | None:
    """The folder of rulebook.yaml's last edition, or of a new edition after it (added)."""
    try:
        book = yaml.safe_load(files.get("rulebook.yaml", b""))
        editions = [e["id"] for e in book["editions"]]
    except (yaml.YAMLError, ValueError, TypeError, KeyError):
        return None
    if draw(st.booleans()):  # as the format intends: the new edition's folder holds the changed terms only
        book["editions"][-1]["status"] = "published"
        book["editions"][-1]["date"] = book["editions"][-1].get("date") or "2030-01-01"
        book["editions"].append({"id": "next", "title": "Next", "date": None, "status": "draft"})
        files["rulebook.yaml"] = yaml.safe_dump(book, sort_keys=False).encode("utf-8")
        return "editions/next"
    return f"editions/{editions[-1]}" if isinstance(editions[-1], str) else None

def file_op(draw, files: Files, op: str) -> None:
    terms = sorted(f for f in files if f.startswith("editions/"))
    if op == "delete-file" and files:
        del files[draw(st.sampled_from(sorted(files)))]
    elif op == "copy-term" and terms:
        src = draw(st.sampled_from(terms))
        folders = sorted({str(Path(t).parent) for t in terms})
        files[f"{draw(st.sampled_from(folders))}/{draw(file_names)}.yaml"] = files[src]
    elif op == "rename-file" and terms:
        src = draw(st.sampled_from(terms))
        suffix = draw(st.sampled_from([".yaml", ".yml", ".YAML", ".txt", ""]))
        files[f"{Path(src).parent}/{draw(file_names)}{suffix}"] = files.pop(src)
    elif op == "new-edition-folder" and terms:
        files[f"editions/{draw(file_names)}/{Path(draw(st.sampled_from(terms))).name}"] = files[terms[0]]
    elif op == "overlay-term" and terms:
        # the same term given again (unchanged) in another edition
        src = draw(st.sampled_from(terms))
        folders = sorted({str(Path(t).parent) for t in terms})
        files[f"{draw(st.sampled_from(folders))}/{Path(src).name}"] = files[src]
    elif op == "lineage-term" and terms:
        _lineage_term(draw, files, terms)
    elif op == "empty-file" and files:
        files[draw(st.sampled_from(sorted(files)))] = draw(st.sampled_from([b"", b"\n", b"---\n", b"[]\n", b"x\n"]))


# -- lines ----------------------------------------------------------------------------

LINE_OPS = ["delete-line", "duplicate-line", "swap-lines", "indent", "insert-line", "yaml11-value", "insert-text",
            "truncate", "crlf", "bom", "anchor-alias", "bad-bytes", "second-document"]


def line_op(draw, data: bytes, op: str) -> bytes:
    """One mutation of a file's text."""
    text = data.decode("utf-8", errors="surrogateescape")
    lines = text.split("\n")
    index = st.integers(0, max(0, len(lines) - 1))
    if op == "delete-line":
        del lines[draw(index)]
    elif op == "duplicate-line":
        i = draw(index)
        lines.insert(i, lines[i])
    elif op == "swap-lines":
        i, j = draw(index), draw(index)
        lines[i], lines[j] = lines[j], lines[i]
    elif op == "indent":
        i = draw(index)
        lines[i] = draw(st.sampled_from(["", " ", "  ", "    ", "\t"])) + lines[i].lstrip(
            " " if draw(st.booleans()) else "")
    elif op == "insert-line":
        lines.insert(draw(index), draw(st.sampled_from(["", " "])) + draw(hostile_text))
    elif op == "yaml11-value":
        valued = [i for i, line in enumerate(lines) if ": " in line]
        if valued:
            i = draw(st.sampled_from(valued))
            lines[i] = lines[i].split(": ", 1)[0] + ": " + draw(st.sampled_from(YAML11) | hostile_text)
    elif op == "insert-text":
        text = "\n".join(lines)
        at = draw(st.integers(0, len(text)))
        return (text[:at] + draw(st.sampled_from([":", "-", '"', "'", "{", "[", "#", "&a ", "*a", "!!str ", "\t",
                                                  "\x00", "\x1b", "\\"]) | hostile_text) + text[at:]
                ).encode("utf-8", errors="surrogateescape")
    elif op == "truncate":
        return data[:draw(st.integers(0, len(data)))]
    elif op == "crlf":
        return data.replace(b"\n", b"\r\n")
    elif op == "bom":
        return b"\xef\xbb\xbf" + data
    elif op == "anchor-alias":
        valued = [i for i, line in enumerate(lines) if ": " in line and not line.rstrip().endswith(":")]
        if len(valued) >= 2:
            i, j = sorted((draw(st.sampled_from(valued)), draw(st.sampled_from(valued))))
            key, value = lines[i].split(": ", 1)
            lines[i] = f"{key}: &anchor {value}"
            lines[j] = lines[j].split(": ", 1)[0] + ": *anchor"
    elif op == "bad-bytes":
        at = draw(st.integers(0, len(data)))
        return data[:at] + draw(st.sampled_from([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x00", b"\xfe\xff"])) + data[at:]
    elif op == "second-document":
        return data + draw(st.sampled_from([b"\n---\nid: x\n", b"\n...\n", b"\n--- !!map\n"]))
    return "\n".join(lines).encode("utf-8", errors="surrogateescape")


# -- strategies -----------------------------------------------------------------------

def _parse(files: Files) -> Tree:
    return {f: yaml.safe_load(data) for f, data in files.items() if f.endswith((".yaml", ".yml"))}


def _dump(draw, trees: Tree, files: Files, dirty: set[str]) -> None:
    for f in dirty:
        if f in files:
            files[f] = yaml.safe_dump(trees[f], sort_keys=False, allow_unicode=draw(st.booleans()),
                                      default_flow_style=draw(st.sampled_from([False, None]))).encode("utf-8")


@st.composite
def mutated(draw, seeds: dict[str, Path], tree_ops=TREE_OPS, file_ops=FILE_OPS, line_ops=LINE_OPS,
            max_ops: int = 3) -> tuple[str, Files, list[str]]:
    """(seed name, damaged files, the mutations applied) from one of the seeds."""
    name = draw(st.sampled_from(sorted(seeds)))
    files = read(seeds[name])
    trees = _parse(files)
    applied: list[str] = []
    dirty: set[str] = set()
    for _ in range(draw(st.integers(1, max_ops))):
        kind = draw(st.sampled_from([k for k, ops in (("tree", tree_ops), ("file", file_ops), ("line", line_ops))
                                     if ops]))
        if kind == "tree":
            op = draw(st.sampled_from(tree_ops))
            before = copy.deepcopy(trees)
            tree_op(draw, trees, op)
            dirty |= {f for f in trees if trees[f] != before.get(f)}
        elif kind == "file":
            op = draw(st.sampled_from(file_ops))
            _dump(draw, trees, files, dirty)
            dirty = set()
            file_op(draw, files, op)
            trees = _parse_quietly(files)
        else:
            op = draw(st.sampled_from(line_ops))
            _dump(draw, trees, files, dirty)
            dirty = set()
            if files:
                f = draw(st.sampled_from(sorted(files)))
                files[f] = line_op(draw, files[f], op)
            trees = _parse_quietly(files)
        applied.append(op)
    _dump(draw, trees, files, dirty)
    return name, files, applied


def _parse_quietly(files: Files) -> Tree:
    """The files that still parse (the tree ops work on those only)."""
    trees: Tree = {}
    for f, data in files.items():
        if f.endswith((".yaml", ".yml")):
            try:
                trees[f] = yaml.safe_load(data)
            except (yaml.YAMLError, ValueError, RecursionError):
                continue
    return trees
