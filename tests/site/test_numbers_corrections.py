"""The corrections log cites a changed clause by its printed number too (issue 23.3).

tests/fixtures/lock/frozen has a published, locked edition 1.0; its clause cure#curable is given the
number 100.1 and the change recorded with 'rulebook correct' (a transcription correction)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from click.testing import CliRunner

from rulebook_compiler.cli import main

FROZEN = Path(__file__).resolve().parents[1] / "fixtures" / "lock" / "frozen"


def test_the_corrections_page_cites_the_number_before_the_ref(tmp_path):
    root = tmp_path / "frozen"
    shutil.copytree(FROZEN, root)
    cure = root / "editions" / "1.0" / "cure.yaml"
    text = cure.read_text(encoding="utf-8")
    cure.write_text(text.replace("      - id: curable\n", "      - id: curable\n        number: \"100.1.\"\n"),
                    encoding="utf-8")
    runner = CliRunner()
    result = runner.invoke(main, ["correct", "--edition", "1.0", "--kind", "transcription", "--date", "2026-02-03",
                                  "--reason", "The booklet numbers it.", "--rulebook", str(root)])
    assert result.exit_code == 0, result.output
    site = tmp_path / "site"
    result = runner.invoke(main, ["build", "--rulebook", str(root), "--out", str(site)])
    assert result.exit_code == 0, result.output
    html = (site / "corrections" / "index.html").read_text(encoding="utf-8")
    # (where the link leads depends on which edition the site shows by default: not this test's point)
    changed = [re.sub(r' href="[^"]*"', "", line) for line in html.splitlines() if line.startswith("<p>Changed: ")]
    assert changed == ["<p>Changed: 100.1 <a><code>cure#curable</code></a></p>"]
