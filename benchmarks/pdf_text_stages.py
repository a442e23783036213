"""Where the pypdfium2 backend's text path spends its CPU time, against its baseline.

Parses each PDF with ``backend="pypdfium2"``, tables and OCR off (the speed
target of the backend: at most 3x ``get_textpage().get_text_range()`` over the
same pages), and splits the CPU time into stages by wrapping the functions
that do them:

=================  ===============================================================
stage              what it times
=================  ===============================================================
pdfium: ...        PDFium's page load, text page and close as the backend makes them
                   (the baseline's own work, timed as its parts are; the backend
                   calls PDFium on bare handles, the baseline through pypdfium2's
                   ``PdfPage`` and ``PdfTextPage`` objects)
pdfium pages       the rest of the backend's page loop outside the stages below:
                   document open and close, crop box, rotation, page records
page_runs          the runs read from the text page (rectangles, starts, texts, fonts)
lines / blocks     :func:`~docparse.backends.lines.lines_from_spans` and
                   :func:`~docparse.backends.lines.blocks_from_lines`
page_items         splitting blocks into paragraph candidates, reading order
furniture ... merge  the steps across pages of :func:`~docparse.backends.layout.assemble_pages`
                   (the font and size counts furniture starts from in "furniture", the
                   caption labels joined in "figures+footnotes")
drafts             the drafts' provenance and records, the captions linked to tables
assembly rest      the rest of the assembly: the page records (character counts), the
                   loop making each item's text and section path (joining lines), and
                   the API around the parse (the document's release among it)
gc (memo)          CPython's cyclic collector, inside whichever stages it ran in (not
                   a stage: printed below the table, from ``gc.callbacks``)
build              :func:`~docparse.builder.build_document`; tokens inside it shown apart
preflight          the PyMuPDF checks before the parse
=================  ===============================================================

Beside it, the baseline (open, ``get_textpage().get_text_range()`` per page,
close) over the same pages. Every page of every PDF is read (``--max-pages``
cuts each PDF to its first pages in place of a copy: the backend is given
``pages=(1, N)``).

What each side counts: both open the document, load each page and its text
page once, and close them; the baseline adds ``get_text_range`` (the
backend calls it too, inside ``page_runs``). The backend's side is the whole
``docparse.parse`` call: the PyMuPDF preflight, the assembly, the unit
builder and token counts are all in its total, none in the baseline. The
baseline's own split (page load, text page, ``get_text_range``, close) is
printed so that the backend's ``pdfium: ...`` stages can be read against it. Both run in one
process, PDF by PDF, baseline first (running it second changes it by about
1%: PDFium keeps nothing across documents).

``--repeat N`` runs each PDF's pair N times, back to back, and takes the
headline ratio from each PDF's least baseline and least backend time: the
machine's speed drifts within a run (two runs of one tree have differed by
0.3x), and a PDF's least time is the one least disturbed. The stage table is
then the mean of the N passes.

    python -m benchmarks.pdf_text_stages [--corpus DIR] [--max-pages N] [--repeat N] [PDF ...]
"""

from __future__ import annotations

import argparse
import functools
import gc
import importlib
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpus"

QUICK_ARGS = ["{corpus}/research/arxiv-2510.22211v1/2510.22211v1.pdf"]

CLOCK: Callable[[], float] = time.process_time

#: (module, function, stage) wrapped; inner stages are subtracted from outer ones.
WRAPPED = [
    ("docparse.backends.base", "preflight", "preflight"),
    ("docparse.backends.pypdfium2", "page_runs", "page_runs"),
    ("docparse.backends.pypdfium2", "lines_from_spans", "lines"),
    ("docparse.backends.pypdfium2", "blocks_from_lines", "blocks"),
    ("docparse.backends.layout", "page_items", "page_items"),
    ("docparse.backends.layout", "text_stats", "furniture"),
    ("docparse.backends.layout", "mark_furniture", "furniture"),
    ("docparse.backends.layout", "body_font", "furniture"),
    ("docparse.backends.layout", "join_caption_labels", "figures+footnotes"),
    ("docparse.backends.layout", "mark_figure_text", "figures+footnotes"),
    ("docparse.backends.layout", "mark_footnotes", "figures+footnotes"),
    ("docparse.backends.layout", "_classify", "classify"),
    ("docparse.backends.layout", "vocabulary", "vocabulary"),
    ("docparse.backends.layout", "_merge_continuations", "merge"),
    ("docparse.backends.layout", "_provenance", "drafts"),
    ("docparse.backends.layout", "records", "drafts"),
    ("docparse.backends.layout", "link_captions", "drafts"),
    ("docparse.builder", "count_tokens_batch", "tokens"),
    ("docparse.backends.base", "build_document", "build"),
]


#: (method of the backend's ``TextCalls``, stage): the baseline's parts as the
#: backend makes them (through PDFium's bare page handles, where the baseline
#: goes through pypdfium2's ``PdfPage`` and ``PdfTextPage``).
PDFIUM_CALLS = [
    ("load_page", "pdfium: page load"),
    ("load_textpage", "pdfium: text page"),
    ("close_textpage", "pdfium: page close"),
    ("close_page", "pdfium: page close"),
]


class Stages:
    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}
        self._stack: list[float] = []  # time spent in inner stages, per open call
        self.active = True  # off while the baseline runs: its PDFium calls are its own
        self.collector = 0.0  # the cyclic collector's CPU seconds inside the parses
        self.collections = [0, 0, 0]  # the parses' collections, by generation
        self._gc_start = 0.0

    def on_gc(self, phase: str, info: dict[str, Any]) -> None:
        """A ``gc.callbacks`` entry: times the collections made while a parse runs."""
        if not self.active:
            return
        if phase == "start":
            self._gc_start = CLOCK()
        else:
            self.collector += CLOCK() - self._gc_start
            self.collections[info["generation"]] += 1

    def add(self, stage: str, seconds: float) -> None:
        self.seconds[stage] = self.seconds.get(stage, 0.0) + seconds

    def wrap(self, module: str | type, name: str, stage: str) -> None:
        """Time ``name`` of ``module`` (a module's name, or a class) as ``stage``."""
        mod = importlib.import_module(module) if isinstance(module, str) else module
        original = getattr(mod, name)
        stages = self

        @functools.wraps(original)
        def timed(*args: Any, **kwargs: Any) -> Any:
            if not stages.active:
                return original(*args, **kwargs)
            stages._stack.append(0.0)
            start = CLOCK()
            try:
                return original(*args, **kwargs)
            finally:
                spent = CLOCK() - start
                inner = stages._stack.pop()
                stages.add(stage, spent - inner)  # exclusive of wrapped inner stages
                if stages._stack:
                    stages._stack[-1] += spent

        setattr(mod, name, timed)

    def wrap_pages(self) -> None:
        """The backend's page loop: time inside it not taken by an inner stage."""
        from docparse.backends.pypdfium2 import Pypdfium2Backend

        original = Pypdfium2Backend.iter_pages
        stages = self

        def timed(self_: Any, *args: Any, **kwargs: Any) -> Iterator[Any]:
            pages = original(self_, *args, **kwargs)
            while True:
                stages._stack.append(0.0)
                start = CLOCK()
                try:
                    page = next(pages)
                except StopIteration:
                    return
                finally:
                    spent = CLOCK() - start
                    inner = stages._stack.pop()
                    stages.add("pdfium pages", spent - inner)
                    if stages._stack:
                        stages._stack[-1] += spent
                yield page

        Pypdfium2Backend.iter_pages = timed  # type: ignore[method-assign]


#: The baseline's CPU seconds by part, summed over the PDFs of the run.
BASELINE_PARTS = dict.fromkeys(
    ("page load", "text page", "get_text_range", "page close", "document open + close"), 0.0
)


def baseline(path: Path, max_pages: int) -> int:
    import pypdfium2

    parts = BASELINE_PARTS
    start = CLOCK()
    in_pages = 0.0
    pdf = pypdfium2.PdfDocument(str(path))
    try:
        n = len(pdf) if max_pages <= 0 else min(len(pdf), max_pages)
        for i in range(n):
            t1 = CLOCK()
            page = pdf[i]
            t2 = CLOCK()
            textpage = page.get_textpage()
            t3 = CLOCK()
            textpage.get_text_range()
            t4 = CLOCK()
            textpage.close()
            page.close()
            t5 = CLOCK()
            parts["page load"] += t2 - t1
            parts["text page"] += t3 - t2
            parts["get_text_range"] += t4 - t3
            parts["page close"] += t5 - t4
            in_pages += t5 - t1
        return n
    finally:
        pdf.close()
        parts["document open + close"] += CLOCK() - start - in_pages


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("pdfs", nargs="*", type=Path)
    ap.add_argument("--corpus", type=Path, default=None)
    ap.add_argument("--max-pages", type=int, default=0, help="0: every page")
    ap.add_argument(
        "--repeat",
        type=int,
        default=1,
        help="run each PDF's baseline and parse this many times; least time of each",
    )
    args = ap.parse_args(argv)
    corpus = (args.corpus or CORPUS).resolve()
    pdfs = args.pdfs or sorted(corpus.rglob("*.pdf"))
    if not pdfs:
        print("no PDFs (pass paths, or put the shared corpus beside the project)", file=sys.stderr)
        return 2

    import docparse
    from docparse.text import count_tokens

    count_tokens("warm up the cl100k encoding")
    stages = Stages()
    for module, name, stage in WRAPPED:
        stages.wrap(module, name, stage)
    stages.wrap_pages()
    from docparse.backends.pypdfium2_calls import TextCalls

    # The backend's own PDFium page calls, timed as the baseline's parts are:
    # "pdfium pages" is then only what the backend adds around them.
    for name, stage in PDFIUM_CALLS:
        stages.wrap(TextCalls, name, stage)
    config: dict[str, Any] = {"tables": False, "ocr": "off"}

    def parse(path: Path, n: int) -> Any:
        pages = {"pages": (1, n)} if args.max_pages > 0 else {}
        return docparse.parse(path, backend="pypdfium2", config={**config, **pages})

    parse(pdfs[0], 1)  # imports: not part of the timing
    stages.seconds.clear()
    repeat = max(args.repeat, 1)
    base = total = spent = 0.0
    pages = 0
    gc.callbacks.append(stages.on_gc)
    try:
        for pdf in pdfs:
            bases, totals = [], []
            for _ in range(repeat):
                stages.active = False
                start = CLOCK()
                n = baseline(pdf, args.max_pages)
                bases.append(CLOCK() - start)
                stages.active = True
                start = CLOCK()
                parse(pdf, n)
                totals.append(CLOCK() - start)
            base += min(bases)
            total += min(totals)
            spent += sum(totals)
            pages += n
    finally:
        gc.callbacks.remove(stages.on_gc)
    if repeat > 1:
        for part in BASELINE_PARTS:
            BASELINE_PARTS[part] /= repeat
        for stage in stages.seconds:
            stages.seconds[stage] /= repeat
        stages.collector /= repeat
    stages.add("assembly rest + api", spent / repeat - sum(stages.seconds.values()))
    pages = max(pages, 1)
    print(f"\npypdfium2 backend (tables off, OCR off), {len(pdfs)} PDFs, {pages} pages, CPU time\n")
    if repeat > 1:
        print(
            f"(each PDF {repeat} times: totals are the sums of each PDF's least time, "
            "the baseline's parts and the stages the means of the passes)\n"
        )
    print(
        f"* baseline get_textpage().get_text_range(): {base:.2f} s, "
        f"{1000 * base / pages:.2f} ms/page"
    )
    split = ", ".join(f"{k} {v:.2f} s" for k, v in BASELINE_PARTS.items())
    print(f"  (its parts: {split})")
    print(
        f"* backend: {total:.2f} s, {1000 * total / pages:.2f} ms/page, "
        f"**{total / base if base else float('nan'):.2f}x** the baseline (target <= 3x)\n"
    )
    print("| stage | CPU s | ms/page | x baseline |")
    print("|---|---|---|---|")
    for stage, seconds in stages.seconds.items():
        print(
            f"| {stage} | {seconds:.2f} | {1000 * seconds / pages:.2f} | "
            f"{seconds / base if base else float('nan'):.2f} |"
        )
    gens = "/".join(str(n) for n in stages.collections)
    print(
        f"\ngc (memo, inside the stages above): {stages.collector:.2f} s of cyclic collection, "
        f"{gens} collections of generation 0/1/2 over the {repeat} pass(es)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
