"""Since when clauses read as they do, and a term's versions."""

from rulebook_compiler.site.lineage import ClauseMark, clause_marks, versions


def test_minimal_marks(minimal):
    marks = clause_marks(minimal)
    assert marks["v1"]["cure"] == {"curable": ClauseMark("v1", None), "targets": ClauseMark("v1", None)}
    # v2 rewords "curable" (adds paralysis), keeps "targets", adds "not-in-battle".
    assert marks["v2"]["cure"] == {"curable": ClauseMark("v1", "v2"), "targets": ClauseMark("v1", None),
                                   "not-in-battle": ClauseMark("v2", None)}


def test_bundled_heal_marks(bundled):
    heal = clause_marks(bundled)["4.0.0-draft"]["heal"]
    # 3.0.0 added paralysis to "healable"; the proposal made it "being discarded" (the last change).
    assert heal["healable"].since == "2012" and heal["healable"].changed_in == "4.0.0-draft"
    assert heal["heal-while-being-discarded"] == ClauseMark("4.0.0-draft", None)
    # The 3.0.0 entry added the Territory Class exception to a 2012 clause.
    assert clause_marks(bundled)["3.0.0"]["heal"]["territory-class"] == ClauseMark("2012", "3.0.0")


def test_versions(bundled, minimal):
    # the locked editions' part of Heal's history (a later edition may change it again)
    assert [v.edition.id for v in versions(bundled, "heal")][:3] == ["2012", "3.0.0", "4.0.0-draft"]
    first, second = versions(minimal, "cure")
    assert first.previous is None and second.previous is first.term
    assert versions(bundled, "no-such-term") == []


def _lineage_book(name):
    from pathlib import Path

    from rulebook_compiler.build import load_rulebook

    return load_rulebook(Path(__file__).resolve().parents[1] / "fixtures" / "lineage" / name)


def test_a_renamed_clause_keeps_the_mark_of_what_it_was():
    marks = clause_marks(_lineage_book("rename"))["v2"]["cure"]
    # step-1 was reworded as it was renamed; step-2 kept its words under its new id.
    assert marks == {"order": ClauseMark("v1", "v2"), "reveal-the-cure": ClauseMark("v2", None),
                     "choose-a-character": ClauseMark("v1", "v2"), "remove-the-poison": ClauseMark("v1", "v2")}


def test_a_moved_clause_keeps_its_mark_in_its_new_term():
    assert clause_marks(_lineage_book("move"))["v2"]["heal"]["no-lost-souls"] == ClauseMark("v1", "v2")


def test_split_parts_and_a_merge_go_back_to_the_earliest_of_what_they_were():
    assert clause_marks(_lineage_book("split"))["v2"]["cure"] == {
        "timing-preparation": ClauseMark("v1", "v2"), "timing-discard": ClauseMark("v1", "v2"),
        "restored": ClauseMark("v1", None)}
    chain = clause_marks(_lineage_book("chain"))
    assert chain["v2"]["cure"]["b"] == ClauseMark("v1", None)  # renamed, same words
    assert chain["v3"]["cure"]["d"] == ClauseMark("v1", "v3")


def _history(name: str, term: str) -> str:
    from rulebook_compiler.site.pages import PageSpec
    from rulebook_compiler.site.render import Renderer

    spec = PageSpec(f"terms/{term}/history.md", "history", "History", False, term=term)
    return Renderer(_lineage_book(name)).render(spec, lambda uri: uri).html


def test_the_history_redlines_a_renamed_clause_against_what_it_was():
    html = _history("rename", "cure")
    # each clause cited as a judge says it: v2's fourth paragraph of How to Play (order, reveal-the-cure,
    # choose-a-character, remove-the-poison); the lineage tag keeps the editors' ids
    assert ('<a class="headerlink" href="#edition_v2-remove-the-poison">Cure, How to Play, ¶4</a> '
            '<span class="rb-tag rb-tag--lineage">renamed from step-2</span></h3>\n'
            '<p class="rb-text rb-redline"><del>2</del><ins>3</ins>. Remove the poison from it.</p>') in html
    # the old ids are where their words went, not removed
    assert '<h3 class="rb-cite">Cure, How to Play, ¶2 <span class="rb-tag rb-tag--lineage">renamed to choose-a-character</span></h3>' in html
    assert "rb-tag--removed" not in html


def test_the_history_of_a_merge_and_of_a_move():
    merge = _history("merge", "cure")
    assert '<span class="rb-tag rb-tag--lineage">merged from returns, restores</span>' in merge
    assert '<h3 class="rb-cite">Cure, How to Play, ¶2 <span class="rb-tag rb-tag--lineage">merged into back-to-territory</span></h3>' in merge
    assert "rb-tag--removed" not in merge
    assert '<span class="rb-tag rb-tag--lineage">moved from cure#lost-souls</span>' in _history("move", "heal")
    assert ('<h3 class="rb-cite">Cure, How to Play, ¶2 <span class="rb-tag rb-tag--lineage">moved to heal#no-lost-souls'
            '</span></h3>') in _history("move", "cure")


def test_what_changed_says_a_declared_merge_and_a_move_from_another_term():
    from rulebook_compiler.site.changes import provider
    from rulebook_compiler.site.pages import PageSpec
    from rulebook_compiler.site.render import Renderer

    def page(name):
        book = _lineage_book(name)
        spec = PageSpec("editions/v2/changes.md", "changes", "What changed", False, edition="v2")
        return Renderer(book, changes=provider(book)).render(spec, lambda uri: uri).html

    assert '<p class="rb-meta">returns+restores became back-to-territory (declared).</p>' in page("merge")
    assert '<span class="rb-tag rb-tag--merged">merged</span>' in page("merge")
    moved = page("move")
    assert '<p class="rb-meta">lost-souls became no-lost-souls (declared).</p>' in moved
    assert '<p class="rb-meta">Moved from Cure.</p>' in moved
