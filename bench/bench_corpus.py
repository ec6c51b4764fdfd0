"""A whole release pair of the Comprehensive Rules, end to end (issue 23, point 8).

    python bench/bench_corpus.py [--corpus DIR] [--old 2020-08-07] [--new 2020-09-25] [--scale 10]

Part 1, the real pair (texts: tests/corpus/cr/PROVENANCE.md; DIR defaults as the corpus test's:
$RULEBOOK_CR_CORPUS, else ../shared/corpus/cr): each command runs in a child process of its own,
timed on the wall clock, with that child's peak resident memory and CPU time (``os.wait4``). The commands are
the corpus test's: import OLD, import NEW on top of it, check, diff (JSON), changelog, build (the
site of both editions). Two baselines run in the same script on the same texts: ``diff -u OLD NEW``
(the text diff a reviewer would otherwise read) and a bare mkdocs build (mkdocs-material, nothing
but ``site_name`` and the theme) of NEW's text, one page per entry as the import cut it. Every
rulebook command is run with RULEBOOK_NO_CACHE=1: the figures are a first run's.

Part 2, each import step at SCALE times the document (synthetic, in process): OLD and NEW are
grown by repeating every numbered rule and glossary entry SCALE times (copy j of rule 100.1a is
rule 100.<1 + 1000j>a, its text tagged with j; entries are "NAME j"), then each step of an import
on top of OLD is timed (CPU seconds) at 1x and at SCALEx, best of --repeat: reading the source, marking lines
(the layout), assembling entries, converting to terms, matching on top of the old edition,
writing the term files. The ratio SCALEx / 1x is about SCALE for a linear step.
"""

from __future__ import annotations

import argparse
import lzma
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

RULE = re.compile(r"(\d{3})\.(\d+)([a-z]?)(\.?)( .*)")


def corpus_dir(given: str | None) -> Path:
    for folder in (given, os.environ.get("RULEBOOK_CR_CORPUS"), ROOT.parent / "shared" / "corpus" / "cr"):
        if folder and Path(folder).is_dir():
            return Path(folder)
    sys.exit("no corpus: pass --corpus DIR (tests/corpus/cr/PROVENANCE.md)")


def text(corpus: Path, release: str) -> bytes:
    return lzma.decompress((corpus / f"{release}.txt.xz").read_bytes())


# --- part 1: the real pair, command by command --------------------------------------------------

def child(args: list[str], cwd: Path, out: Path | None = None) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds (user + system, the child's and its waited-for children's) and peak
    resident KiB of one child process (exit status 0 required)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "RULEBOOK_NO_CACHE": "1"}
    start = time.perf_counter()
    with open(out or os.devnull, "wb") as sink:
        proc = subprocess.Popen(args, cwd=cwd, env=env, stdout=sink, stderr=subprocess.PIPE)
        assert proc.stderr is not None
        err = proc.stderr.read()
        _pid, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    # diff -u exits 1 when the texts differ, which they do
    if code not in ((0, 1) if args[0] == "diff" else (0,)):
        sys.exit(f"{' '.join(args)} exited {code}: {err.decode(errors='replace')[-2000:]}")
    return seconds, usage.ru_utime + usage.ru_stime, usage.ru_maxrss


def rulebook(*args: str) -> list[str]:
    return [sys.executable, "-m", "rulebook_compiler", *args]


def add_edition(book: Path, imported: Path, release: str) -> None:
    """As the corpus test's workaround (tests/corpus/test_cr_releases.py: add_edition)."""
    folder = book / "editions" / f"cr-{release}"
    shutil.copytree(imported, folder, ignore=shutil.ignore_patterns(".rulebook-output"))
    with (book / "rulebook.yaml").open("a", encoding="utf-8") as out:
        out.write(f"  - id: cr-{release}\n    title: Comprehensive Rules, {release}\n"
                  f"    date: \"{release}\"\n    status: draft\n")


def bare_mkdocs(project: Path, imported: Path) -> None:
    """A bare mkdocs project of the imported text: one page per entry, its clauses as paragraphs."""
    import yaml

    docs = project / "docs"
    docs.mkdir(parents=True)
    (project / "mkdocs.yml").write_text("site_name: CR\ntheme:\n  name: material\n", encoding="utf-8")
    index = []
    for path in sorted(imported.glob("*.yaml")):
        term = yaml.load(path.read_text(encoding="utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
        if term.get("withdrawn"):
            continue
        body = [f"# {term['name']}"]
        for section in term["sections"]:
            body += [f"{c.get('number', '')} {c['text']}".strip() for c in section["clauses"]]
        (docs / f"{term['id']}.md").write_text("\n\n".join(body) + "\n", encoding="utf-8")
        index.append(f"- [{term['name']}]({term['id']}.md)")
    (docs / "index.md").write_text("# CR\n\n" + "\n".join(index) + "\n", encoding="utf-8")


def real_pair(corpus: Path, old: str, new: str, work: Path) -> None:
    work.mkdir(parents=True)
    for release in (old, new):
        (work / f"{release}.txt").write_bytes(text(corpus, release))
    book = work / "book"
    (book / "editions").mkdir(parents=True)
    (book / "rulebook.yaml").write_text("title: CR\npublisher: Wizards of the Coast\neditions:\n", encoding="utf-8")
    (book / "vocabulary.yaml").write_text("facts: []\n", encoding="utf-8")
    rows: list[tuple[str, float, float, int]] = []
    rows.append(("diff -u (baseline)", *child(["diff", "-u", f"{old}.txt", f"{new}.txt"], work, work / "u.diff")))
    rows.append((f"import {old}", *child(rulebook("import", f"{old}.txt", "--layout", "numbered", "--out", "i1"), work)))
    add_edition(book, work / "i1", old)
    rows.append((f"import {new} on top", *child(rulebook("import", f"{new}.txt", "--layout", "numbered", "--out", "i2",
                                                          "--rulebook", "book"), work)))
    add_edition(book, work / "i2", new)
    rows.append(("check", *child(rulebook("check", "book"), work)))
    rows.append(("diff (json)", *child(rulebook("diff", f"cr-{old}", f"cr-{new}", "--rulebook", "book",
                                                "--format", "json"), work, work / "d.json")))
    rows.append(("changelog", *child(rulebook("changelog", f"cr-{new}", "--rulebook", "book"), work)))
    bare_mkdocs(work / "bare", work / "i2")
    rows.append(("bare mkdocs build (baseline)", *child([sys.executable, "-m", "mkdocs", "build", "-q"], work / "bare")))
    rows.append(("build (2 editions)", *child(rulebook("build", "--rulebook", "book", "--out", "site", "-q"), work)))
    cpu = {name: used for name, _wall, used, _kib in rows}
    unix, bare = cpu["diff -u (baseline)"], cpu["bare mkdocs build (baseline)"]
    print(f"## {old} -> {new}: {len(text(corpus, old)):,} and {len(text(corpus, new)):,} bytes\n")
    print("Ratios are of CPU seconds (the wall clock of a shared machine moves with its load).\n")
    print("| step | wall s | CPU s | peak MiB | CPU / diff -u | CPU / bare mkdocs |")
    print("|---|---|---|---|---|---|")
    for name, wall, used, kib in rows:
        print(f"| {name} | {wall:.2f} | {used:.2f} | {kib / 1024:.0f} | x{used / unix:,.0f} | x{used / bare:.2f} |")


# --- part 2: each import step at SCALE times the size ---------------------------------------------

def grown(raw: bytes, scale: int) -> list[str]:
    """The document with every rule and glossary entry repeated ``scale`` times (front and back
    matter, section headings and the contents once)."""
    lines = re.split(r"\r\n|\r|\n", raw.decode("utf-8-sig"))
    glossary = [i for i, line in enumerate(lines) if line.strip() == "Glossary"][-1]
    credits = [i for i, line in enumerate(lines) if line.strip() == "Credits"][-1]
    out = lines[:_first_rule(lines)]
    for block in _blocks(lines[len(out):glossary]):
        rule = RULE.fullmatch(block[0])
        if not rule or not rule.group(2):
            out += block
            continue
        for j in range(scale):
            number = f"{rule.group(1)}.{int(rule.group(2)) + 1000 * j}{rule.group(3)}{rule.group(4)}"
            out += [f"{number}{rule.group(5)}{f' (copy {j})' if j else ''}", *block[1:]]
    out.append(lines[glossary])
    for block in _blocks(lines[glossary + 1:credits]):
        for j in range(scale):
            out += [block[0] + (f" {j}" if j else ""), *block[1:]] if block[0].strip() else block
    return out + lines[credits:]


def _first_rule(lines: list[str]) -> int:
    contents_end = [i for i, line in enumerate(lines) if line.strip() == "Credits"][0]
    return contents_end + 1


def _blocks(lines: list[str]) -> list[list[str]]:
    """Runs of lines each ending with the blank lines after it."""
    blocks: list[list[str]] = []
    for line in lines:
        if not blocks or (line.strip() and not blocks[-1][-1].strip()):
            blocks.append([])
        blocks[-1].append(line)
    return blocks


def best(step: Callable[[], object], repeat: int) -> tuple[float, object]:
    """The least CPU time of ``repeat`` runs (this process's: the steps run in it, on one thread)."""
    times, value = [], None
    for _ in range(repeat):
        start = time.process_time()
        value = step()
        times.append(time.process_time() - start)
    return min(times), value


def import_steps(old_lines: list[str], new_lines: list[str], work: Path, repeat: int) -> dict[str, float]:
    from rulebook_compiler.build import load_rulebook
    from rulebook_compiler.importer.assemble import assemble
    from rulebook_compiler.importer.convert import convert
    from rulebook_compiler.importer.layouts import LAYOUTS
    from rulebook_compiler.importer.match import on_top
    from rulebook_compiler.importer.run import ImportResult, run_import
    from rulebook_compiler.importer.source import read_lines

    layout = LAYOUTS["numbered"]
    work.mkdir(parents=True)
    (work / "old.txt").write_text("\n".join(old_lines), encoding="utf-8")
    (work / "new.txt").write_text("\n".join(new_lines), encoding="utf-8")
    book = work / "book"
    (book / "editions" / "old").mkdir(parents=True)
    (book / "rulebook.yaml").write_text("title: S\npublisher: P\neditions:\n  - {id: old, title: Old, date: null, status: draft}\n",
                                        encoding="utf-8")
    (book / "vocabulary.yaml").write_text("facts: []\n", encoding="utf-8")
    run_import(work / "old.txt", layout).write(book / "editions" / "old")
    previous = load_rulebook(book).edition("old")
    source = work / "new.txt"
    shown = str(source)
    times: dict[str, float] = {}
    times["read"], (lines, _) = best(lambda: read_lines(source, shown), repeat)
    times["mark lines"], marks = best(lambda: layout.mark(lines), repeat)
    times["assemble"], doc = best(lambda: assemble(lines, marks, layout, shown), repeat)
    times["convert"], (terms, _) = best(lambda: convert(doc, layout, source.name, shown), repeat)
    times["match on top"], (matched, decisions) = best(lambda: on_top(terms, previous, [previous], []), repeat)
    result = ImportResult(tuple(matched), doc, (), tuple(decisions), shown)

    def write() -> None:
        out = work / "out"
        shutil.rmtree(out, ignore_errors=True)
        out.mkdir()
        result.write(out)
    times["write"], _ = best(write, repeat)
    times["clauses"] = float(sum(len(s.clauses) for t in matched for s in t.sections))
    return times


def scaled(corpus: Path, old: str, new: str, scale: int, repeat: int, work: Path) -> None:
    at = {}
    for k in (1, scale):
        at[k] = import_steps(grown(text(corpus, old), k), grown(text(corpus, new), k), work / f"x{k}", repeat)
    print(f"\n## Import steps at {scale}x the document (synthetic: {at[1]['clauses']:,.0f} -> "
          f"{at[scale]['clauses']:,.0f} clauses), best of {repeat}\n")
    print(f"| step | 1x CPU s | {scale}x CPU s | {scale}x / 1x |")
    print("|---|---|---|---|")
    for step in ("read", "mark lines", "assemble", "convert", "match on top", "write"):
        print(f"| {step} | {at[1][step]:.3f} | {at[scale][step]:.3f} | x{at[scale][step] / at[1][step]:.1f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus")
    parser.add_argument("--old", default="2020-08-07")
    parser.add_argument("--new", default="2020-09-25")
    parser.add_argument("--scale", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--skip-real", action="store_true", help="only part 2")
    args = parser.parse_args()
    corpus = corpus_dir(args.corpus)
    with tempfile.TemporaryDirectory(prefix="bench-corpus-") as tmp:
        if not args.skip_real:
            real_pair(corpus, args.old, args.new, Path(tmp) / "real")
        scaled(corpus, args.old, args.new, args.scale, args.repeat, Path(tmp) / "scaled")


if __name__ == "__main__":
    main()
