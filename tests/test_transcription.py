"""Nothing lost in transcription: every rule sentence of every source is in its edition.

Each source is compared with the terms its edition adds or changes, after
removing what the seeds README lets a transcriber repair or drop: whitespace
(line breaks and the spaces lost at PDF line ends), list bullets, the wiki's
'[]' edit-link residue, page furniture, and, in the 3.0.0 reconstruction, its
header and certainty marks. What remains must be tiled exactly by the terms'
names, section titles and clause texts, in source order: nothing missing,
nothing added, no word changed.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rulebook_compiler.export import edition_json

SOURCES = Path(__file__).resolve().parent.parent / "rulebook" / "sources"


def _lines(name: str) -> list[str]:
    return (SOURCES / name).read_text(encoding="utf-8").splitlines()


def _reconstruction() -> list[str]:
    lines = _lines("heal-reg-3.0.0.reconstructed.txt")
    start = next(i for i, line in enumerate(lines) if set(line.strip()) == {"-"})
    return [re.sub(r"\[(certain|both|uncertain)\]", "", line) for line in lines[start + 1:]]


# edition -> the parts of the sources that hold its own wording
SOURCE_TEXT = {
    "2012": lambda: _lines("001_286a30dd4942d17f.txt"),
    "3.0.0": _reconstruction,
    # 000: line 1 is a banner, lines 2-3 the proposal (Heal, Battle Resolution), line 4 the
    # tracked-changes comparison (the provenance of 3.0.0, not a text of this edition), then a reply.
    "4.0.0-draft": lambda: _lines("000_92da00567fb1a1bd.txt")[1:3],
    "5.0.0": lambda: _lines("004_814ab67a04b04ebc.txt")[1:],
}
# 002 holds the same proposal with clean breaks (and Battle Resolution twice): a second witness.
SECOND_WITNESS = {"4.0.0-draft": lambda: _lines("002_a8af6e892156ac82.txt")[1:-1]}


def normalize(lines: list[str]) -> str:
    text = "".join(re.sub(r"^\s*-\s+", "", line) for line in lines)
    text = text.replace("[]", "").replace("●", "")
    return re.sub(r"\s+", "", text)


def term_blocks(export: dict) -> dict[str, list[str]]:
    """Per term the edition changes: its text with and without its name as a heading."""
    blocks = {}
    for term in export["terms"]:
        if term["id"] not in export["edition"]["changed"]:
            continue
        texts = {c["id"]: c["text"] for c in term["clauses"]}
        parts = []
        for section in term["sections"]:
            if section["title"]:
                parts.append(section["title"])
            parts.extend(texts[cid] for cid in section["clauses"])
        # the wiki page (001) prints the entry without its name
        blocks[term["id"]] = [normalize([term["name"], *parts]), normalize(parts)]
    return blocks


def tile(source: str, blocks: dict[str, list[str]]) -> list[str]:
    """The terms whose blocks, one after another, make up the source exactly."""
    pos, used = 0, []
    while pos < len(source):
        found = [(t, b) for t, variants in blocks.items() for b in variants if b and source.startswith(b, pos)]
        if not found:
            variants = [b for vs in blocks.values() for b in vs]
            best = max(variants, key=lambda b: _common_prefix(source[pos:], b))
            n = _common_prefix(source[pos:], best)
            pytest.fail(f"source text not matched at offset {pos + n}:\n"
                        f"  source: ...{source[max(pos + n - 40, 0):pos + n + 80]}\n"
                        f"  export: ...{best[max(n - 40, 0):n + 80]}")
        term, block = found[0]
        used.append(term)
        pos += len(block)
    return used


def _common_prefix(a: str, b: str) -> int:
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return n


@pytest.mark.parametrize("edition", list(SOURCE_TEXT))
def test_every_rule_sentence_is_in_its_edition(bundled, edition):
    export = edition_json(bundled, bundled.edition(edition))
    blocks = term_blocks(export)
    witnesses = [SOURCE_TEXT[edition]] + ([SECOND_WITNESS[edition]] if edition in SECOND_WITNESS else [])
    for source in witnesses:
        used = tile(normalize(source()), blocks)
        assert set(used) == set(blocks), "every term the edition changes comes from its sources"


def test_editions_cite_their_sources(bundled):
    cited = {e.id: {s.rsplit("/", 1)[-1] for s in e.sources} for e in bundled.editions}
    assert "001_286a30dd4942d17f.txt" in cited["2012"]
    assert "heal-reg-3.0.0.reconstructed.txt" in cited["3.0.0"]
    assert {"000_92da00567fb1a1bd.txt", "002_a8af6e892156ac82.txt"} <= cited["4.0.0-draft"]
    assert "004_814ab67a04b04ebc.txt" in cited["5.0.0"]


# Words glued where the PDF behind 004 broke its lines (read off the source by hand).
GLUED = ["andthe", "acharacter", "includessteps", "charactersadded", "theplayers", "Amodifier",
         "notthemselves", "anability", "onother", "abilitiesare", "discardeffect", "negateand",
         "ability,then", "Set-Aside,Shuffle", "andProtect", "target)a"]


def test_pdf_line_end_spaces_are_restored(bundled):
    texts = " ".join(c.text for t in bundled.edition("5.0.0").terms for c in t.clauses)
    assert [w for w in GLUED if w in texts] == []


def test_page_furniture_is_not_rules(bundled):
    texts = " ".join(c.text for e in bundled.editions for t in e.terms for c in t.clauses)
    for furniture in ("Event Calendar", "Thanks for sharing", "special offer", "Message Boards"):
        assert furniture not in texts


# What marks a modelling or transcription remark (docs/format.md, "Notes for readers, notes for
# editors"): a source file's name, a reconstruction mark, a reading of the text, a repair.
EDITORS_WORDS = re.compile(r"\.txt\b|\[(certain|both|uncertain)\]|\b(is|are) read as\b|\bmodell?ed\b|"
                           r"\b(restored|Ambiguous)\b")


def test_reader_notes_hold_no_editors_remarks():
    from rulebook_compiler.build import load_rulebook

    book = load_rulebook(SOURCES.parent)
    notes = {"rulebook": book.notes}
    for edition in book.editions:
        notes[edition.id] = edition.notes
        for term in edition.terms:
            notes[f"{edition.id}/{term.id}"] = term.notes
            notes.update({f"{edition.id}/{c.ref}": c.notes for c in term.clauses})
    found = {where: EDITORS_WORDS.findall(text) for where, text in notes.items() if text and EDITORS_WORDS.search(text)}
    assert found == {}


def test_2012_heal_targets_characters_only():
    # 2012 says twice that heal is for characters: "remove the effects ... from a character" and
    # "Heal abilities target the characters that are to be healed": a card that is not a character
    # is no target even where the heal card states a requirement it meets.
    from rulebook_compiler.build import load_rulebook
    from rulebook_compiler.evaluate import Evaluator

    book = load_rulebook(SOURCES.parent)
    evaluator = Evaluator(book, book.edition("2012"))
    model = evaluator.model("heal.may_target")
    state = {fact: False for fact in model.facts} | {
        "target_is_character": False, "card_specifies_target_requirement": True, "meets_card_requirement": True}
    assert evaluator.decide("heal.may_target", state) is False
    assert evaluator.decide("heal.may_target", state | {"target_is_character": True}) is True
    fixed = [c for c in book.corrections if c.edition == "2012" and c.kind == "transcription"]
    assert [c.changed for c in fixed] == [("heal#instantaneous",)]


def _imported(out: Path) -> dict[str, dict]:
    import yaml
    from click.testing import CliRunner

    from rulebook_compiler.cli import main

    result = CliRunner().invoke(main, ["import", str(SOURCES / "REG_PDF_11.0.0.txt"), "--layout", "reg",
                                       "--out", str(out)])
    assert result.exit_code == 0, result.output
    return {p.stem: yaml.safe_load(p.read_text(encoding="utf-8")) for p in sorted(out.glob("*.yaml"))
            if not p.name.startswith("_")}  # _sources.yaml: where the entries are, not a term


def _words(sections) -> list[str]:
    """An entry's words in order: named sections' titles and clause texts (where clauses begin is not compared)."""
    out = []
    for kind, title, texts in sections:
        out += (title.split() if kind == "named" and title else []) + " ".join(texts).split()
    return out


# The editors' repairs of what rulebook import reads (the edition's editor notes): the glossary's second
# Rescue and Reserve renamed, and three sub-headings of Brigade that the importer reads as entries.
RENAMED = {"rescue-2": "rescue-glossary", "reserve-2": "reserve-glossary"}
SUB_HEADINGS = {"brigade": ["single-brigade", "multi-brigade", "rainbow"]}


def _as_edited(imported: dict[str, dict]) -> dict[str, dict]:
    edited = {RENAMED.get(tid, tid): data for tid, data in imported.items()}
    for tid, subs in SUB_HEADINGS.items():
        for sub in subs:
            data = edited.pop(sub)
            edited[tid]["sections"] += [dict(s, kind="named", title=data["name"]) for s in data["sections"]]
    return edited


def test_11_0_0_is_what_rulebook_import_reads_plus_the_editors_decisions(tmp_path):
    """Importing the whole of 11.0.0's source again gives its terms, words and metadata; the editors add meaning,
    links and lineage, keep 5.0.0's clause ids, and repair the importer's reading (the edition's editor notes)."""
    from rulebook_compiler.build import load_rulebook

    book = load_rulebook(SOURCES.parent)
    edition = book.edition("11.0.0")
    before = book.editions[book.editions.index(edition) - 1]
    imported = _as_edited(_imported(tmp_path / "out"))
    assert sorted(imported) == sorted(t.id for t in edition.terms)
    for tid, data in imported.items():
        term = edition.term_by_id[tid]
        assert term.name == data["name"]
        for key in ("updated", "released"):
            got = getattr(term, key)
            got = (got.version, got.date) if got else None
            want = (data[key]["version"], data[key]["date"]) if key in data else None
            if want is not None and got is None:  # left out only where check would refuse it
                held = {e.label: e for e in book.editions}.get(want[0])
                assert held is not None and tid not in held.term_by_id, (tid, key)
            else:
                assert got == want, (tid, key)
        assert _words((s.kind, s.title, [c.text for c in s.clauses]) for s in term.sections) == _words(
            (s["kind"], s["title"], [c["text"] for c in s["clauses"]]) for s in data["sections"]), tid
        if tid in before.term_by_id:
            continue  # a term 5.0.0 has keeps 5.0.0's clause ids
        ids = [c["id"] for s in data["sections"] for c in s["clauses"]]
        by_text = {c.text: c.id for c in term.clauses}
        for s in data["sections"]:
            for c in s["clauses"]:
                if ids.count(c["id"]) == 1 and c["text"] in by_text:
                    assert by_text[c["text"]] == c["id"], (tid, c["id"])


def test_11_0_0_see_entries_link_to_what_they_name(tmp_path):
    """Every "See X" of the guide that names an entry links X to it; the three that name the rulebook's own
    sections ("See Diagram of a Card in the rulebook") are not terms and have no link."""
    import re

    from rulebook_compiler.build import load_rulebook

    edition = load_rulebook(SOURCES.parent).edition("11.0.0")
    unlinked = []
    for term in edition.terms:
        for clause in term.clauses:
            for see in re.finditer(r"\b[Ss]ee (?:also )?([^.(“]*)", clause.text):
                named = see[1].strip()
                if " in the rulebook" in named or named.startswith(("them", "the target")):
                    continue
                phrases = {link.phrase for link in clause.links}
                if not any(p in named for p in phrases):
                    unlinked.append((clause.ref, named))
    assert unlinked == []


def test_11_heal_lets_the_controller_heal_at_battle_resolution_as_5_0_0_does():
    # "A character to be discarded ... can be healed" in both editions: the controller may play a
    # healing Enhancement on it, within enhancement-from-hand's requirements (correction 2026-12-01).
    from rulebook_compiler.build import load_rulebook
    from rulebook_compiler.evaluate import Evaluator

    book = load_rulebook(SOURCES.parent)
    situation = {"being_discarded": True, "discard_cause": "battle_resolution", "phase": "battle",
                 "target_location": "battle", "target_is_character": True, "brigade_matches": True,
                 "character_can_use_enhancement": True}
    answers = {}
    for edition in ("5.0.0", "11.0.0"):
        evaluator = Evaluator(book, book.edition(edition))
        model = evaluator.model("heal.may_play_enhancement")
        state = {f: False for f in model.facts} | {f: v for f, v in situation.items() if f in model.facts}
        answers[edition] = [evaluator.decide("heal.may_play_enhancement", state | {"own_character": own})
                            for own in (True, False)]
    assert answers == {"5.0.0": [True, False], "11.0.0": [True, False]}
    # the first transcription correction of 11.0.0 (later ones, issue 24's departures, fix other clauses)
    fixed = [c for c in book.corrections if c.edition == "11.0.0" and c.kind == "transcription"]
    assert fixed[0].changed == ("heal#battle-resolution-discard", "heal#enhancement-from-hand")


def test_3_0_0_a_discard_pile_character_is_healed_by_the_brigade_it_had():
    # "Healing cards played on a character in a discard pile must ... be able to be played on that
    # character as it existed prior to being discarded (the ... brigade it had ...)": where the entry
    # makes the brigade a condition of playing (the preparation and discard phases), the clause's own
    # rule refuses a discard-pile character whose brigade (as it was) does not match (correction
    # 2026-12-01); in the battle phase the entry sets no brigade condition and the clause adds none.
    from rulebook_compiler.build import load_rulebook
    from rulebook_compiler.evaluate import Evaluator

    book = load_rulebook(SOURCES.parent)
    model = Evaluator(book, book.edition("3.0.0")).model("heal.may_play_enhancement")
    situation = {"target_location": "discard_pile", "discarded_earlier_this_turn": True, "own_character": True,
                 "has_initiative": True, "discard_cause": "none"}
    base = {f: False for f in model.facts} | {f: v for f, v in situation.items() if f in model.facts}

    def decided(phase: str, brigade_matches: bool) -> tuple:
        result = model.evaluate(base | {"phase": phase, "brigade_matches": brigade_matches})
        return result.answer, result.clauses

    assert {(phase, match): decided(phase, match) for phase in ("preparation", "battle") for match in (True, False)} == {
        ("preparation", True): (True, ("heal#enhancement-outside-battle",)),
        ("preparation", False): (False, ("heal#discard-pile-same-character", "heal#enhancement-outside-battle")),
        ("battle", True): (True, ("heal#in-or-outside-battle",)),
        ("battle", False): (True, ("heal#in-or-outside-battle",)),
    }
    fixed = [c for c in book.corrections if c.edition == "3.0.0" and c.kind == "transcription"]
    assert [c.changed for c in fixed] == [("heal#discard-pile-same-character",)]
