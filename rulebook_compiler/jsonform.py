"""The model's decisions, tables and rules as JSON, and the JSON text: the export's contract
(``rulebook_compiler.export``), which the diff's JSON repeats for the rules it compares (``rulebook_compiler.diff``).

Below both back ends, so that neither imports the other.
"""

from __future__ import annotations

import json
from typing import Any

from .conditions import to_json as cond_json
from .model import Decision, Rule, Table


def decision_json(d: Decision) -> dict[str, Any]:
    return {
        "name": d.name,
        "type": d.type,
        "values": list(d.values),
        "meaning": d.meaning,
        "given": cond_json(d.given) if d.given is not None else None,
    }


def table_json(t: Table) -> dict[str, Any]:
    """A table in the form it is written: one key and lists of its values, or a list of keys and
    rows that map each to its values; ``otherwise`` only where given (older exports keep their bytes)."""
    if t.several:
        out: dict[str, Any] = {"decision": t.decision, "key": list(t.facts),
                               "rows": [{"keys": {f: list(c) for f, c in zip(t.facts, r.cells)}, "value": r.value}
                                        for r in t.rows]}
    else:
        out = {"decision": t.decision, "key": t.key,
               "rows": [{"keys": list(r.keys), "value": r.value} for r in t.rows]}
    if t.otherwise is not None:
        out["otherwise"] = t.otherwise
    return out


def rule_json(r: Rule) -> dict[str, Any]:
    out: dict[str, Any] = {"decision": r.decision, "id": r.id, "kind": r.kind,
                           "when": cond_json(r.when) if r.when is not None else None}
    if r.kind == "value":
        out["value"] = r.value
    else:
        out[r.kind] = cond_json(r.tested)
    out["exception_to"] = list(r.exception_to)
    out["notes"] = r.notes
    return out


def dumps(data: Any) -> str:
    """Deterministic JSON text, ending in a newline."""
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"
