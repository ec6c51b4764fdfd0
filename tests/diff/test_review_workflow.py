"""The review hook: pre-commit runs check. The CI workflows and the action: tests/test_workflows.py."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]


def test_pre_commit_hook_runs_rulebook_check():
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    hook = next(h for h in hooks if h["id"] == "rulebook-check")
    assert hook["entry"] == "rulebook check" and hook["pass_filenames"] is False
    assert re.search(hook["files"], "rulebook/editions/3.0.0/heal.yaml")
    assert re.search(hook["files"], "rulebook/vocabulary.yaml")
    assert not re.search(hook["files"], "README.md")
