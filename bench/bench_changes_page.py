"""What showing "breaks conformance" costs the site's "What changed" page.

    python bench/bench_changes_page.py [--sizes 100,2000] [--repeat 3] [--workdir DIR]

For each size N it generates a synthetic rulebook (bench/gen.py, N terms, 2
editions, 5% of terms changed, as bench_serve.py does), loads it once, and
renders the latest edition's "What changed" page in-process (the diff over the
whole edition, the notice for players, the page's template), taking turns:

- baseline: the diff without its conformance impact (``conformance=False``),
            which is what the page took before it showed which cases flip;
- page:     the page as the site builds it (``rulebook_compiler.site.changes.provider``:
            the diff with the old suite generated for the changed decisions).

It prints the best CPU seconds of each, the ratio page/baseline, the number of
changes and of those that break conformance, and the load average. A ratio,
never a fixed number: the machine is shared.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

from bench.gen import generate  # noqa: E402


def render_page(book, changes) -> tuple[float, object]:
    from rulebook_compiler.site.pages import PageSpec
    from rulebook_compiler.site.render import Renderer

    edition = book.editions[-1]
    spec = PageSpec(f"editions/{edition.id}/changes.md", "changes", "What changed", False, edition=edition.id)
    reports = []

    def recorded(old, new):
        reports.append(changes(old, new))
        return reports[-1]

    start = time.process_time()
    Renderer(book, changes=recorded).render(spec, lambda uri: uri)
    return time.process_time() - start, reports[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="100,2000")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--workdir", type=Path, default=None)
    args = parser.parse_args()

    from rulebook_compiler.build import load_rulebook
    from rulebook_compiler.diff.engine import diff_editions
    from rulebook_compiler.site.changes import provider

    work = args.workdir or Path(tempfile.mkdtemp(prefix="bench-changes-"))
    print(f"load average {os.getloadavg()[0]:.1f}")
    print(f"{'terms':>6} {'baseline s':>10} {'page s':>8} {'ratio':>6} {'changes':>8} {'breaking':>8}")
    for n in (int(s) for s in args.sizes.split(",")):
        folder = work / f"book-{n}"
        generate(n, folder, editions=2, changed=0.05, seed=0)
        book = load_rulebook(folder)
        without = lambda old, new: diff_editions(book, old, book, new, conformance=False)  # noqa: E731
        best = {"baseline": float("inf"), "page": float("inf")}
        report = None
        for i in range(args.repeat):
            for name in (("baseline", "page") if i % 2 == 0 else ("page", "baseline")):
                seconds, got = render_page(book, without if name == "baseline" else provider(book))
                best[name] = min(best[name], seconds)
                if name == "page":
                    report = got
        breaking = sum(1 for c in report.changes if c.conformance is not None and c.conformance.flipped)
        print(f"{n:>6} {best['baseline']:>10.2f} {best['page']:>8.2f} {best['page'] / best['baseline']:>6.2f} "
              f"{len(report.changes):>8} {breaking:>8}", flush=True)
    print(f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
