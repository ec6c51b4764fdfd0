"""The export gives an edition's not_held_before only where it declares one."""

import json
from pathlib import Path

from click.testing import CliRunner

from rulebook_compiler.cli import main

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "site" / "history-gap"


def test_only_the_edition_that_declares_it_exports_it():
    out = {}
    for edition in ("v1", "v3"):
        result = CliRunner().invoke(main, ["export", "--rulebook", str(FIXTURE), "--edition", edition])
        assert result.exit_code == 0, result.output
        out[edition] = json.loads(result.stdout)["edition"]
    assert "not_held_before" not in out["v1"]
    assert out["v3"]["not_held_before"] == "Versions 2 & 2.1 (2019 to 2025) are not held."
