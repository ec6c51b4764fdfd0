"""rulebook_compiler.record: the published record of two revisions, compared (editions, lock, log)."""

from __future__ import annotations

import shutil
from pathlib import Path

from rulebook_compiler.build import load_rulebook
from rulebook_compiler.record import Record, compare

FROZEN = Path(__file__).parent / "fixtures" / "lock" / "frozen"


def _copy(tmp_path: Path, name: str) -> Path:
    root = tmp_path / name
    shutil.copytree(FROZEN, root)
    return root


def _record(root: Path) -> Record:
    return Record.of(load_rulebook(root))


def test_the_same_rulebook_has_no_record_changes(tmp_path):
    root = _copy(tmp_path, "a")
    assert compare(_record(root), _record(root)).empty is True


def test_a_published_edition_edited_is_a_content_change(tmp_path):
    old, new = _copy(tmp_path, "a"), _copy(tmp_path, "b")
    cure = new / "editions" / "1.0" / "cure.yaml"
    text = cure.read_text(encoding="utf-8")
    assert "Cure" in text
    cure.write_text(text.replace("Cure", "Kure", 1), encoding="utf-8")
    diff = compare(_record(old), _record(new))
    # 2.0 carries cure over from 1.0: its resolved content changed with it
    assert [(c.id, c.change, c.content, c.status, c.metadata) for c in diff.editions] == \
        [("1.0", "changed", True, None, ()), ("2.0", "changed", True, None, ())]
    assert diff.lock == () and diff.log == () and diff.lock_file == "same"


def test_lock_deleted_and_a_draft_published_and_a_log_entry_edited(tmp_path):
    old, new = _copy(tmp_path, "a"), _copy(tmp_path, "b")
    (new / "rulebook.lock").unlink()
    yaml_text = (new / "rulebook.yaml").read_text(encoding="utf-8")
    (new / "rulebook.yaml").write_text(yaml_text.replace("status: draft", "status: published"), encoding="utf-8")
    log = (new / "corrections.yaml").read_text(encoding="utf-8")
    (new / "corrections.yaml").write_text(log.replace("First printing.", "A later printing."), encoding="utf-8")
    diff = compare(_record(old), _record(new))
    assert diff.lock_file == "deleted"
    assert [(c.edition, c.change) for c in diff.lock] == [("1.0", "removed")]
    assert [(c.id, c.change, c.status) for c in diff.editions] == [("2.0", "changed", ("draft", "published"))]
    assert [(c.change, c.old.reason, c.new.reason, c.at_old, c.at_new) for c in diff.log] == \
        [("edited", "First printing.", "A later printing.", 0, 0)]


def test_an_edition_removed_and_log_entries_added_and_removed(tmp_path):
    old, new = _copy(tmp_path, "a"), _copy(tmp_path, "b")
    yaml_text = (new / "rulebook.yaml").read_text(encoding="utf-8")
    (new / "rulebook.yaml").write_text(yaml_text.split('  - id: "2.0"')[0], encoding="utf-8")
    shutil.rmtree(new / "editions" / "2.0")
    log = (new / "corrections.yaml").read_text(encoding="utf-8")
    (new / "corrections.yaml").write_text(
        log + "- date: '2026-02-02'\n  edition: '1.0'\n  kind: erratum\n  reason: Forged.\n", encoding="utf-8")
    diff = compare(_record(old), _record(new))
    assert [(c.id, c.change, c.was_published) for c in diff.editions] == [("2.0", "removed", False)]
    assert [(c.change, c.edition, c.at_new) for c in diff.log] == [("added", "1.0", 1)]
    assert [c.new.reason for c in diff.explained_by("1.0")] == ["Forged."]
    assert compare(_record(new), _record(old)).log[0].change == "removed"
