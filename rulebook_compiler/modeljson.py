"""The checked model as plain JSON values, and back, validated on the way back.

This is how the cache (``rulebook_compiler.cache``) stores rulebooks and terms: data
that is read back by the project's own code, never pickled or evaluated.

Each model class is written as a JSON array of its fields' values, in the
order the frozen dataclass declares them. Reading follows each field's
declared type (``str``, ``int``, ``bool``, ``None`` only where the type allows
it, ``tuple[X, ...]``, ``Answer``, ``Location``, conditions, the model
classes): a value of another type, an array with a field missing or one too
many, anything else, raises ``ModelDataError``. The codecs are made from the
fixed list of classes below; nothing read is used to find a class or a name.
Writing checks the same types, so what is written is what reading accepts.

Conditions are the one recursive type. Each is written as a flat array of its
nodes, outermost first, and rebuilt with an explicit stack: no depth of
condition makes writing or reading recurse, and the JSON nests no deeper than
the model's fixed shape.

A location is written as ``[file, line, col]`` where ``file`` is a
placeholder that the caller chooses (a term's file, ``rulebook.yaml``...) and
puts back when reading, so that an entry does not depend on the folder its
files were read from.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from typing import Any, Callable, Mapping, Union

from . import model
from .conditions import COMPARISONS, All, Any_, Cmp, Condition, Const, In, Not, Ref, walk
from .diagnostics import Location

#: The classes written as records; nothing else is (conditions and locations have their own forms).
RECORDS: tuple[type, ...] = (
    model.Fact, model.Constraint, model.Vocabulary, model.Predicate, model.Decision, model.Rule,
    model.Steps, model.TableRow, model.Table, model.Link, model.Clause, model.Section, model.Dated, model.Term,
    model.Edition, model.Correction, model.Rulebook, model.Lineage, model.Chapter,
)


class ModelDataError(ValueError):
    """Data that is not the model of the type asked for."""


Paths = Mapping[str, str]  # writing: shown path -> placeholder; reading: placeholder -> shown path
Codec = Callable[[Any, Paths], Any]


def to_data(obj: Any, paths: Paths) -> list:
    """``obj`` (one of ``RECORDS``) as JSON values; ModelDataError if a field does not have its type
    or a location's file has no placeholder in ``paths``."""
    return _record_codecs(type(obj))[0](obj, paths)


def from_data(cls: type, data: Any, paths: Paths) -> Any:
    """The ``cls`` (one of ``RECORDS``) that ``data`` holds; ModelDataError if it does not validate."""
    return _record_codecs(cls)[1](data, paths)


# -- leaves -----------------------------------------------------------------------------------------


def _exact(kind: type) -> tuple[Codec, Codec]:
    # type() is, not isinstance: True is not an int here, nor a str subclass a str.
    def check(value, paths):
        if type(value) is not kind:
            raise ModelDataError(f"{kind.__name__} expected, not {type(value).__name__}")
        return value
    return check, check


def _answer() -> tuple[Codec, Codec]:
    def check(value, paths):
        if type(value) is not bool and type(value) is not str:
            raise ModelDataError(f"true, false or a string expected, not {type(value).__name__}")
        return value
    return check, check


def _write_location(loc, paths: Paths) -> list:
    if type(loc) is not Location:
        raise ModelDataError(f"a location expected, not {type(loc).__name__}")
    try:
        placeholder = paths[loc.path]
    except (KeyError, TypeError):
        raise ModelDataError(f"a location in {loc.path!r}, a file this entry does not name") from None
    return [placeholder, _INT(loc.line, paths), _INT(loc.col, paths)]


def _read_location(value, paths: Paths) -> Location:
    if type(value) is not list or len(value) != 3:
        raise ModelDataError("a location is [file, line, col]")
    placeholder, line, col = value
    if type(placeholder) is not str or placeholder not in paths:
        raise ModelDataError(f"unknown file placeholder {placeholder!r}")
    return _make(Location, (("path", paths[placeholder]), ("line", _INT(line, paths)), ("col", _INT(col, paths))))


_STR = _exact(str)[0]
_INT = _exact(int)[0]
_BOOL = _exact(bool)[0]


def _make(cls: type, values) -> Any:
    """An instance of a frozen dataclass with these field values, as its ``__init__`` would make it
    (the model's classes have no ``__post_init__``) at a third of the cost: a warm diff reads many."""
    obj: Any = object.__new__(cls)
    obj.__dict__.update(values)
    return obj


# -- conditions: a flat array of nodes, outermost first ---------------------------------------------

# Node forms: ["c", bool, loc] ["r", name, loc] ["n", loc] ["a", count, loc] ["o", count, loc]
# ["i", fact, [values], single, loc] ["k", fact, op, bound, against_fact, loc] (a comparison);
# loc is null or [file, line, col].
_NODE_SIZES = {"c": 3, "r": 3, "n": 2, "a": 3, "o": 3, "i": 5, "k": 6}


def _comparison_op(value, paths: Paths) -> str:
    if type(value) is not str or value not in COMPARISONS:
        raise ModelDataError(f"a comparison is one of {', '.join(COMPARISONS)}, not {value!r}")
    return value


def _write_condition(cond, paths: Paths) -> list:
    nodes = []
    for node in walk(cond):
        kind = type(node)
        loc = None if node.loc is None else _write_location(node.loc, paths)
        # type(node) is X, not kind is X: mypy narrows the former only
        if type(node) is Const:
            nodes.append(["c", _BOOL(node.value, paths), loc])
        elif type(node) is Ref:
            nodes.append(["r", _STR(node.name, paths), loc])
        elif type(node) is Not:
            nodes.append(["n", loc])
        elif type(node) is All or type(node) is Any_:
            if type(node.args) is not tuple:
                raise ModelDataError("a condition's arguments are a tuple")
            nodes.append(["a" if kind is All else "o", len(node.args), loc])
        elif type(node) is In:
            nodes.append(["i", _STR(node.fact, paths), _STR_TUPLE[0](node.values, paths),
                          _BOOL(node.single, paths), loc])
        elif type(node) is Cmp:
            nodes.append(["k", _STR(node.fact, paths), _comparison_op(node.op, paths), _STR(node.bound, paths),
                          _BOOL(node.against_fact, paths), loc])
        else:
            raise ModelDataError(f"a condition expected, not {kind.__name__}")
    return nodes


def _read_condition(value, paths: Paths) -> Condition:
    if type(value) is not list or not value:
        raise ModelDataError("a condition is a non-empty array of nodes")
    stack: list[Condition] = []
    for node in reversed(value):  # children before their parent: each parent takes its own from the stack
        if type(node) is not list or not node or type(node[0]) is not str:
            raise ModelDataError("a condition node is an array that starts with its form")
        form, size = node[0], len(node)
        if _NODE_SIZES.get(form) != size:
            raise ModelDataError(f"unknown condition node {form!r} of {size} items")
        loc = None if node[-1] is None else _read_location(node[-1], paths)
        if form == "c":
            stack.append(Const(_BOOL(node[1], paths), loc))
        elif form == "r":
            stack.append(Ref(_STR(node[1], paths), loc))
        elif form == "n":
            if not stack:
                raise ModelDataError("'not' without its argument")
            stack.append(Not(stack.pop(), loc))
        elif form == "i":
            stack.append(In(_STR(node[1], paths), _STR_TUPLE[1](node[2], paths), _BOOL(node[3], paths), loc))
        elif form == "k":
            stack.append(Cmp(_STR(node[1], paths), _comparison_op(node[2], paths), _STR(node[3], paths),
                             _BOOL(node[4], paths), loc))
        else:  # "a" or "o"
            count = _INT(node[1], paths)
            if not 0 <= count <= len(stack):
                raise ModelDataError(f"a node takes {count} arguments; {len(stack)} are there")
            args = tuple(stack.pop() for _ in range(count))
            stack.append((All if form == "a" else Any_)(args, loc))
    if len(stack) != 1:
        raise ModelDataError(f"a condition's nodes make {len(stack)} conditions, not one")
    return stack[0]


# -- types made of others -------------------------------------------------------------------------


def _optional(inner: tuple[Codec, Codec]) -> tuple[Codec, Codec]:
    write, read = inner
    return (lambda value, paths: None if value is None else write(value, paths),
            lambda value, paths: None if value is None else read(value, paths))


def _tuple_of(inner: tuple[Codec, Codec]) -> tuple[Codec, Codec]:
    write, read = inner

    def to(value, paths):
        if type(value) is not tuple:
            raise ModelDataError(f"a tuple expected, not {type(value).__name__}")
        return [write(v, paths) for v in value]

    def back(value, paths):
        if type(value) is not list:
            raise ModelDataError(f"an array expected, not {type(value).__name__}")
        return tuple([read(v, paths) for v in value])
    return to, back


_STR_TUPLE = _tuple_of(_exact(str))
_CONDITION_TYPES = frozenset(typing.get_args(Condition))


def _codecs(tp: Any) -> tuple[Codec, Codec]:
    """The writer and the reader of a declared type; TypeError for one the model does not use."""
    if tp in (str, int, bool):
        return _exact(tp)
    if tp is Location:
        return _write_location, _read_location
    if tp in RECORDS:
        return _record_codecs(tp)
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        return _tuple_of(_codecs(args[0]))
    if origin is Union or origin is types.UnionType:
        present = [a for a in args if a is not type(None)]
        if len(present) < len(args):  # X | None
            return _optional(_codecs(present[0] if len(present) == 1 else Union[tuple(present)]))
        if set(args) == _CONDITION_TYPES:
            return _write_condition, _read_condition
        if set(args) == {bool, str}:  # model.Answer
            return _answer()
    raise TypeError(f"no JSON form for the model type {tp!r}")


_RECORD_CODECS: dict[type, tuple[Codec, Codec]] = {}


def _record_codecs(cls: type) -> tuple[Codec, Codec]:
    if cls not in _RECORD_CODECS:
        if cls not in RECORDS:
            raise ModelDataError(f"{cls.__name__} is not a model class")
        hints = typing.get_type_hints(cls)
        names = tuple(f.name for f in dataclasses.fields(cls))
        parts = tuple(_codecs(hints[name]) for name in names)
        writers = tuple(zip(names, (w for w, _ in parts)))
        readers = tuple(r for _, r in parts)
        count = len(names)

        def to(obj, paths):
            if type(obj) is not cls:
                raise ModelDataError(f"{cls.__name__} expected, not {type(obj).__name__}")
            return [write(getattr(obj, name), paths) for name, write in writers]

        def back(value, paths):
            if type(value) is not list or len(value) != count:
                raise ModelDataError(f"{cls.__name__} is an array of its {count} fields")
            return _make(cls, zip(names, [read(v, paths) for read, v in zip(readers, value)]))
        _RECORD_CODECS[cls] = (to, back)
    return _RECORD_CODECS[cls]
