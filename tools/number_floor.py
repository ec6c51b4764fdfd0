"""The measure behind NUMBER_FLOOR (rulebook_compiler/importer/match.py): same-numbered rules that no text pass takes.

Usage: python3 tools/number_floor.py FOLDER   (Comprehensive Rules releases as text, named YYYY-MM-DD.txt,
e.g. archive/txt/2019-*.txt to 2023-*.txt of github.com/xremming/rulesraker; the 2024 releases on are kept for
an independent check and must not be used)

For each pair of consecutive releases, a rule printed under the same number in both whose words are not 0.75
alike (the importer's rewording pass) and neither side of which is 0.75 alike to another rule of its section
(the text passes would take it) is left for the number pass. It is "in place" when the rules printed just
before and after it are the same rules (0.75 alike) under the same numbers. Prints, per threshold, how many of
each kind reach it, with and without "every old word still there" (80%, in order).
"""

from __future__ import annotations

import difflib
import re
import sys
from pathlib import Path

RULE = re.compile(r"^(\d{3}\.\d+[a-z]?\.?)\s+(.*)$")


def rules(path: Path) -> dict[str, tuple[str, ...]]:
    text = path.read_bytes().decode("utf-8", "replace").lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    body = text.split("\nCredits\n")[1] if "\nCredits\n" in text else text
    out: dict[str, tuple[str, ...]] = {}
    for line in body.split("\nGlossary\n")[0].split("\n"):
        match = RULE.match(line.strip())
        if match and match[1].rstrip(".") not in out:
            out[match[1].rstrip(".")] = tuple(match[2].split())
    return out


def alike(a, b) -> float:
    return difflib.SequenceMatcher(None, a, b, autojunk=False).ratio()


def held(a, b) -> float:
    found = difflib.SequenceMatcher(None, a, b, autojunk=False).get_matching_blocks()
    return sum(m.size for m in found) / len(a) if a else 0.0


def pairs(old: dict, new: dict) -> list[tuple[bool, float, float]]:
    sections_old: dict[str, list] = {}
    sections_new: dict[str, list] = {}
    for n, w in old.items():
        sections_old.setdefault(n.split(".")[0], []).append(w)
    for n, w in new.items():
        sections_new.setdefault(n.split(".")[0], []).append(w)
    keys, out = list(new), []
    for i, n in enumerate(keys):
        o, w = old.get(n), new[n]
        if o is None or o == w or alike(o, w) >= 0.75:
            continue
        section = n.split(".")[0]
        if any(alike(o, x) >= 0.75 for x in sections_new[section] if x != w) or \
                any(alike(w, x) >= 0.75 for x in sections_old.get(section, []) if x != o):
            continue  # a text pass takes one side
        around = [keys[i - 1] if i else None, keys[i + 1] if i + 1 < len(keys) else None]
        in_place = all(k is not None and k in old and alike(old[k], new[k]) >= 0.75 for k in around)
        out.append((in_place, alike(o, w), held(o, w)))
    return out


def main(folder: str) -> None:
    files = sorted(Path(folder).glob("20*.txt"))
    found: list[tuple[bool, float, float]] = []
    for a, b in zip(files, files[1:]):
        found += pairs(rules(a), rules(b))
    placed = [p for p in found if p[0]]
    other = [p for p in found if not p[0]]
    print(f"{len(files)} releases; left for the number pass: {len(placed)} in place, {len(other)} not")
    for floor in (0.2, 0.25, 0.3, 0.33, 0.4, 0.5):
        print(f"{floor}: in place {sum(s >= floor for _, s, _ in placed)} "
              f"({sum(s >= floor or h >= 0.8 for _, s, h in placed)} with kept words), "
              f"not in place {sum(s >= floor for _, s, _ in other)} "
              f"({sum(s >= floor or h >= 0.8 for _, s, h in other)})")


if __name__ == "__main__":
    main(sys.argv[1])
