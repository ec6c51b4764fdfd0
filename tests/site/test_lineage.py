"""Since when clauses read as they do, and a term's versions."""

from compiler.site.lineage import ClauseMark, clause_marks, versions


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
    assert [v.edition.id for v in versions(bundled, "heal")] == ["2012", "3.0.0", "4.0.0-draft"]
    first, second = versions(minimal, "cure")
    assert first.previous is None and second.previous is first.term
    assert versions(bundled, "no-such-term") == []
