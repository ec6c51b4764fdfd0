"""Time ``rulebook check`` on later editions written as patches against the same editions written whole.

    python bench/bench_overlay.py [--sizes 200,1000] [--editions 4] [--changed 0.05] [--repeat 3]
                                  [--seed 0] [--workdir DIR]

For each size N it generates a synthetic rulebook (bench/gen.py) whose later
editions rewrite their changed terms whole, and writes beside it the same
rulebook with each of those files turned into a patch (``to_patches``: the
clauses that differ, as ``change`` with ``set``; the ones added and removed;
name, notes and the other keys where they differ). A term whose sections
change, or whose clauses change order, stays whole, as an editor would keep it.
Both must resolve to the same model, every edition's export byte for byte;
then they are timed, interleaved, best of ``--repeat``:

- whole:   ``build.check`` + ``logic.logic_problems`` of the rulebook as generated;
- patched: the same of the rulebook with patches.

It prints the seconds, the ratio patched/whole, and the bytes the later
editions' files take in each form (what an editor writes and reviews). Timings
are compared as ratios within the run, never against fixed numbers.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import yaml  # noqa: E402

from bench.gen import dump, generate  # noqa: E402

__all__ = ["generate", "to_patches", "Counts"]


@dataclass
class Counts:
    patched: int = 0  # term files written as patches
    whole: int = 0  # later-edition term files kept whole (sections changed, clauses reordered)


def _load(path: Path) -> Any:
    return yaml.load(path.read_text(encoding="utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def _clause_ops(key: str, before: list[dict], after: list[dict]) -> list[dict] | None:
    """Operations that turn one section's clauses into another's; None if common clauses change order."""
    old = {c["id"]: c for c in before}
    new_ids = [c["id"] for c in after]
    if [i for i in new_ids if i in old] != [c["id"] for c in before if c["id"] in set(new_ids)]:
        return None
    ops: list[dict] = [{"remove": c["id"]} for c in before if c["id"] not in set(new_ids)]
    for i, clause in enumerate(after):
        was = old.get(clause["id"])
        if was is None:
            if i > 0:
                ops.append({"add": clause, "after": new_ids[i - 1]})
            else:
                following = next((x for x in new_ids if x in old), None)
                ops.append({"add": clause, **({"before": following} if following else {"section": key})})
        elif was != clause:
            changes = {k: v for k, v in clause.items() if was.get(k) != v}
            changes.update({k: None for k in was if k not in clause})
            ops.append({"change": clause["id"], "set": changes})
    return ops


def patch_of(before: dict, after: dict) -> dict | None:
    """The patch that makes ``after`` of ``before`` (two whole term files), or None to keep it whole."""
    shape = [({k: v for k, v in s.items() if k != "clauses"}) for s in before["sections"]]
    if shape != [({k: v for k, v in s.items() if k != "clauses"}) for s in after["sections"]]:
        return None
    ops: list[dict] = []
    for old, new in zip(before["sections"], after["sections"]):
        found = _clause_ops(old["key"], old["clauses"], new["clauses"])
        if found is None:
            return None
        ops += found
    head = {k: v for k, v in after.items() if k not in ("id", "sections") and before.get(k) != v}
    head.update({k: None for k in before if k not in after})
    if not ops and not head:
        return None
    return {"id": after["id"], **head, "patch": ops}


def to_patches(whole: Path, out: Path) -> Counts:
    """Copy the generated rulebook ``whole`` to ``out``, each later edition's term file as a patch where it can."""
    shutil.copytree(whole, out)
    editions = [e["id"] for e in _load(whole / "rulebook.yaml")["editions"]]
    latest: dict[str, dict] = {}  # term id -> its whole file as the editions so far give it
    counts = Counts()
    for k, edition in enumerate(editions):
        folder = whole / "editions" / edition
        for path in sorted(folder.glob("*.yaml")) if folder.is_dir() else ():
            data = _load(path)
            if k > 0 and data["id"] in latest:
                patch = patch_of(latest[data["id"]], data)
                if patch is None:
                    counts.whole += 1
                else:
                    (out / "editions" / edition / path.name).write_text(dump(patch), encoding="utf-8")
                    counts.patched += 1
            latest[data["id"]] = data
    return counts


def _check(root: Path) -> None:
    from rulebook_compiler.build import check
    from rulebook_compiler.logic import logic_problems

    book, problems = check(root)
    if book is None:
        raise SystemExit(f"{root} does not load:\n" + "\n".join(map(str, problems[:5])))
    if any(p.severity == "error" for p in logic_problems(book)):
        raise SystemExit(f"{root} has logic problems")


def _same(a: Path, b: Path) -> None:
    from rulebook_compiler.build import load_rulebook
    from rulebook_compiler.export import dumps, edition_json

    one, two = load_rulebook(a), load_rulebook(b)
    for edition in one.editions:
        if dumps(edition_json(one, edition)) != dumps(edition_json(two, two.edition(edition.id))):
            raise SystemExit(f"edition {edition.id} differs between {a} and {b}")


def _later_bytes(root: Path, first: str) -> int:
    return sum(p.stat().st_size for p in (root / "editions").rglob("*.yaml") if p.parent.name != first)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="200,1000")
    parser.add_argument("--editions", type=int, default=4)
    parser.add_argument("--changed", type=float, default=0.05)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workdir", type=Path)
    args = parser.parse_args(argv)
    work = args.workdir or Path(tempfile.mkdtemp(prefix="bench-overlay-"))
    print(f"{'N':>6} {'patches':>8} {'kept whole':>10} {'whole s':>8} {'patched s':>9} {'ratio':>6} "
          f"{'later KB whole':>14} {'later KB patched':>16}")
    for n in (int(s) for s in args.sizes.split(",")):
        whole, patched = work / f"whole-{n}", work / f"patched-{n}"
        shutil.rmtree(patched, ignore_errors=True)
        generate(n, whole, editions=args.editions, changed=args.changed, seed=args.seed)
        counts = to_patches(whole, patched)
        _same(whole, patched)
        best = {"whole": float("inf"), "patched": float("inf")}
        for _ in range(args.repeat):
            for name, root in (("whole", whole), ("patched", patched)):
                start = time.perf_counter()
                _check(root)
                best[name] = min(best[name], time.perf_counter() - start)
        first = _load(whole / "rulebook.yaml")["editions"][0]["id"]
        print(f"{n:>6} {counts.patched:>8} {counts.whole:>10} {best['whole']:>8.2f} {best['patched']:>9.2f} "
              f"{best['patched'] / best['whole']:>6.2f} {_later_bytes(whole, first) / 1024:>14.1f} "
              f"{_later_bytes(patched, first) / 1024:>16.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
