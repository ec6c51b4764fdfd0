"""Write rulebook_compiler/schemas/ from rulebook_compiler/schema.py: the schema files the package ships.

Run after changing the schema: python3 tools/write_schemas.py
(tests/test_schema_examples.py fails while the shipped files differ from the code).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rulebook_compiler.fileio import write_text  # noqa: E402
from rulebook_compiler.schema import SCHEMA_DIR, shipped_files  # noqa: E402


def main() -> None:
    files = shipped_files()
    SCHEMA_DIR.mkdir(exist_ok=True)
    for stale in sorted(SCHEMA_DIR.glob("*.json")):
        if stale.name not in files:
            stale.unlink()
    for name, text in files.items():
        write_text(SCHEMA_DIR / name, text)
        print(f"wrote {SCHEMA_DIR / name}")


if __name__ == "__main__":
    main()
