"""Per-stage CPU time of the PDF backends, side by side with the library calls they build on.

Run through ``python -m benchmarks.pdf_speed --profile``. Stages are timed by
wrapping the library and docparse functions that do each kind of work, with
exclusive time (a stage's time leaves out the stages it calls):

* ``text``: PyMuPDF ``Page.get_textpage`` / ``get_text``, pdfplumber
  ``Page.extract_words``, pypdfium2's text runs (``page_runs``);
* ``drawings``: PyMuPDF ``Page.get_drawings`` / ``get_cdrawings``, pypdfium2's path objects;
* ``candidates``: the shared table-region finders (ruled clusters, numeric rows,
  captions, booktabs rules, bands, label | value regions);
* ``grids``: PyMuPDF and pdfplumber ``find_tables``, docparse's ruled grid builder
  (``find_grids``, with the words it reads once per page, ``page_words``; on rotated
  pages ``find_ruled_tables`` and ``page_chars``), the shared word grid and the cell
  reading of found tables, and the keyed-list tables read from a page's words
  (``keyed_list_tables``);
* ``ocr``: pages read by OCR (``ocr="auto"``: pages with no text layer);
* ``assembly``: the rest of ``docparse.parse`` (blocks, layout, units, tokens).

Each backend's profile wraps its own library's calls (:data:`BACKEND_WRAPPERS`).

Beside them, over the same pages: raw ``get_text("dict")`` + ``get_drawings()``,
``find_tables(use_layout=False)`` on every page, ``pymupdf4llm.to_markdown``,
pdfplumber's ``extract_words()``, and (``--layout-model``) the pymupdf backend
with ``table_layout_model=True``. The slowest page of each backend is reported
(the time of the backend's page reader, assembly excluded).
"""

from __future__ import annotations

import gc
import importlib
import json
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

CLOCK: Callable[[], float] = time.process_time

#: Names of docparse's table code per stage, wrapped in every module that calls them
#: (a name imported with ``from ... import`` is looked up in the caller's module).
SHARED_STAGES = {
    "candidates": (
        "ruled_clusters",
        "can_split_columns",
        "numeric_regions",
        "caption_regions",
        "rule_bounded_regions",
        "banded_regions",
        "open_sides",
        "label_value_regions",
    ),
    "grids": (
        "region_grids",
        "word_grid",
        "region_table",
        "widen_to_open_sides",
        "grow_headers",
        "_cell_texts",
        "find_ruled_tables",
        "page_chars",
        "find_grids",
        "page_words",
        "keyed_list_tables",
    ),
}
STAGES = ("text", "drawings", "candidates", "grids", "ocr", "assembly")
#: Modules whose globals hold the stage functions above.
_STAGE_MODULES = (
    "docparse.backends.table_candidates",
    "docparse.backends.table_grid",
    "docparse.backends.table_reading",
    "docparse.backends.table_whitespace",
    "docparse.backends.table_combine",
    "docparse.backends.table_regions",
    "docparse.backends.table_checks",
    "docparse.backends.table_repair",
    "docparse.backends.pymupdf",
    "docparse.backends.pdfplumber",
    "docparse.backends.pdfplumber_tables",
    "docparse.backends.pypdfium2",
    "docparse.backends.pypdfium2_tables",
)


class StageClock:
    """Exclusive CPU time per stage of wrapped callables (nested calls are subtracted)."""

    def __init__(self) -> None:
        self.totals: Counter[str] = Counter()
        self.pages: list[tuple[str, int, float]] = []
        self._stack: list[float] = []
        self._stages: list[str] = []
        self._undo: list[tuple[Any, str, Any]] = []

    def wrap(self, owner: Any, attr: str, stage: str, library: bool = False) -> None:
        """Charge ``owner.attr``'s exclusive time to ``stage``.

        ``library``: a library read (text, drawings) made from inside another
        wrapped call is that call's work (``find_tables`` reads the page's
        characters itself) and is charged to the caller's stage.
        """
        original = owner.__dict__.get(attr) if isinstance(owner, type) else getattr(owner, attr)
        if original is None or isinstance(original, property):
            return
        clock = self

        def timed(*args: Any, **kwargs: Any) -> Any:
            charged = clock._stages[-1] if library and clock._stages else stage
            start = CLOCK()
            clock._stack.append(0.0)
            clock._stages.append(charged)
            try:
                return original(*args, **kwargs)
            finally:
                elapsed = CLOCK() - start
                clock._stages.pop()
                inner = clock._stack.pop()
                clock.totals[charged] += elapsed - inner
                if clock._stack:
                    clock._stack[-1] += elapsed

        setattr(owner, attr, timed)
        self._undo.append((owner, attr, original))

    def wrap_page(self, owner: Any, attr: str, doc: str) -> None:
        """Time each call of a backend's page reader (inclusive), recorded per page."""
        original = owner.__dict__[attr]
        clock = self

        def timed(self_: Any, page: Any, index: int, *args: Any, **kwargs: Any) -> Any:
            start = CLOCK()
            try:
                return original(self_, page, index, *args, **kwargs)
            finally:
                clock.pages.append((doc, index + 1, CLOCK() - start))

        setattr(owner, attr, timed)
        self._undo.append((owner, attr, original))

    def restore(self) -> None:
        for owner, attr, original in reversed(self._undo):
            setattr(owner, attr, original)
        self._undo.clear()


def _shared_modules() -> list[Any]:
    out = []
    for name in _STAGE_MODULES:
        try:
            out.append(importlib.import_module(name))
        except ImportError:
            continue
    return out


def _wrap_pymupdf(clock: StageClock, doc: str) -> None:
    import pymupdf

    from docparse.backends.pymupdf import PyMuPDFBackend

    clock.wrap(pymupdf.Page, "get_text", "text", library=True)
    clock.wrap(pymupdf.Page, "get_textpage", "text", library=True)
    clock.wrap(pymupdf.Page, "get_drawings", "drawings", library=True)
    clock.wrap(pymupdf.Page, "get_cdrawings", "drawings", library=True)
    clock.wrap(pymupdf.Page, "find_tables", "grids")
    clock.wrap_page(PyMuPDFBackend, "_page", doc)


def _wrap_pdfplumber(clock: StageClock, doc: str) -> None:
    from pdfplumber.page import Page

    from docparse.backends.pdfplumber import PdfplumberBackend

    clock.wrap(Page, "extract_words", "text", library=True)
    clock.wrap(Page, "find_tables", "grids")
    clock.wrap_page(PdfplumberBackend, "_page", doc)


def _wrap_pypdfium2(clock: StageClock, doc: str) -> None:
    from docparse.backends import pypdfium2

    clock.wrap(pypdfium2, "page_runs", "text")
    clock.wrap(pypdfium2, "_rules", "drawings")
    clock.wrap_page(pypdfium2.Pypdfium2Backend, "_page", doc)


#: Each backend's own library calls and page reader (stage functions shared by all
#: backends are wrapped for every one of them).
BACKEND_WRAPPERS: dict[str, Callable[[StageClock, str], None]] = {
    "pymupdf": _wrap_pymupdf,
    "pdfplumber": _wrap_pdfplumber,
    "pypdfium2": _wrap_pypdfium2,
}


@contextmanager
def staged(backend: str, doc: str, clock: StageClock) -> Iterator[None]:
    """Wrap the stage functions for one parse with ``backend``."""
    from docparse.ocr.pages import OcrPass

    if backend not in BACKEND_WRAPPERS:
        raise ValueError(f"no stage profile for backend {backend!r}")
    for module in _shared_modules():
        for stage, names in SHARED_STAGES.items():
            for name in names:
                if hasattr(module, name):
                    clock.wrap(module, name, stage)
    clock.wrap(OcrPass, "_read", "ocr")
    try:
        BACKEND_WRAPPERS[backend](clock, doc)
        yield
    finally:
        clock.restore()


# ------------------------------------------------------------------------------ side calls


def raw_pymupdf(path: Path) -> None:
    import pymupdf

    with pymupdf.open(path) as doc:
        for page in doc:
            page.get_text("dict")
            page.get_drawings()


def find_tables_plain(path: Path) -> int:
    import pymupdf

    n = 0
    with pymupdf.open(path) as doc:
        for page in doc:
            n += len(page.find_tables(use_layout=False).tables)
    return n


def pymupdf4llm_markdown(path: Path) -> None:
    import pymupdf4llm

    # OCR off: docparse reads the text layer only, and so must the comparison.
    pymupdf4llm.to_markdown(str(path), show_progress=False, use_ocr=False)


def plumber_words(path: Path) -> None:
    import pdfplumber

    with pdfplumber.open(path) as pdf:
        for page in pdf.pages:
            page.extract_words()
            page.close()


def timed(fn: Callable[[], Any]) -> float:
    gc.collect()
    start = CLOCK()
    fn()
    return CLOCK() - start


@dataclass
class Profile:
    """Totals of one profile run."""

    pages: int = 0
    stages: dict[str, Counter[str]] = field(default_factory=dict)
    totals: Counter[str] = field(default_factory=Counter)
    slowest: dict[str, tuple[str, int, float]] = field(default_factory=dict)
    #: Every page's reader time per backend: ``(doc, page, seconds)``.
    page_times: dict[str, list[tuple[str, int, float]]] = field(default_factory=dict)
    over_1s: Counter[str] = field(default_factory=Counter)
    tables: Counter[str] = field(default_factory=Counter)


class SideCache:
    """CPU seconds of the library calls beside the backends, kept in a JSON file.

    The calls beside (raw PyMuPDF reads, ``find_tables``, ``pymupdf4llm``,
    ``extract_words``) do not run docparse code, so their times on a document
    do not change when docparse does: over every page of the corpus they cost
    far more than the backends, and a run with ``--side-cache FILE`` times each
    (document, pages, call) once and reads it back in later runs. The file is
    written after every document, so an interrupted run resumes where it stopped.
    """

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.times: dict[str, float] = {}
        if path is not None and path.exists():
            self.times = {str(k): float(v) for k, v in json.loads(path.read_text()).items()}

    def get(self, key: str, fn: Callable[[], Any]) -> tuple[float, bool]:
        """The cached time of ``key``, or ``fn`` timed now; and whether it was cached."""
        if self.path is not None and key in self.times:
            return self.times[key], True
        sec = timed(fn)
        self.times[key] = sec
        return sec, False

    def save(self) -> None:
        if self.path is not None:
            tmp = self.path.with_suffix(".tmp")
            tmp.write_text(json.dumps(self.times, indent=0, sort_keys=True))
            tmp.replace(self.path)


def profile_doc(
    path: Path,
    name: str,
    n_pages: int,
    backends: list[str],
    prof: Profile,
    layout_model: bool,
    side_calls: bool = True,
    markdown: bool = True,
    cache: SideCache | None = None,
    find_tables: bool = True,
) -> None:
    import docparse

    cache = cache or SideCache(None)

    prof.pages += n_pages
    row: list[str] = []
    for b in backends:
        clock = StageClock()
        with staged(b, name, clock):
            start = CLOCK()
            doc = docparse.parse(path, backend=b)
            total = CLOCK() - start
        n_tables = sum(1 for u in doc.units if u.table is not None)
        prof.tables[b] += n_tables
        stages = prof.stages.setdefault(b, Counter())
        for k, v in clock.totals.items():
            stages[k] += v
        stages["assembly"] += total - sum(clock.totals.values())
        prof.totals[b] += total
        prof.page_times.setdefault(b, []).extend(clock.pages)
        for doc_name, page, sec in clock.pages:
            if b not in prof.slowest or sec > prof.slowest[b][2]:
                prof.slowest[b] = (doc_name, page, sec)
            prof.over_1s[b] += sec > 1.0
        row.append(f"{b} {total:6.2f}s {n_tables} tables")
    side: dict[str, Callable[[], Any]] = {}
    if "pymupdf" in backends and side_calls:
        side["raw get_text(dict)+get_drawings()"] = lambda: raw_pymupdf(path)
        if find_tables:
            side["find_tables(use_layout=False)"] = lambda: find_tables_plain(path)
        if markdown:
            side["pymupdf4llm.to_markdown"] = lambda: pymupdf4llm_markdown(path)
        if layout_model:
            side["pymupdf table_layout_model=True"] = lambda: docparse.parse(
                path, backend="pymupdf", config={"table_layout_model": True}
            )
    if "pdfplumber" in backends and side_calls:
        side["pdfplumber extract_words()"] = lambda: plumber_words(path)
    for label, fn in side.items():
        # The layout-model parse runs docparse code: never cached.
        if label.startswith("pymupdf table_layout_model"):
            sec, cached = timed(fn), False
        else:
            sec, cached = cache.get(f"{name}|{n_pages}|{label}", fn)
        prof.totals[label] += sec
        mark = "*" if cached else ""
        row.append(f"{label.split('(')[0].split('.')[0]} {sec:6.2f}s{mark}")
    cache.save()
    print(f"  {n_pages:4d}p {name}: " + ", ".join(row), file=sys.stderr, flush=True)


def report(prof: Profile, backends: list[str], n_docs: int) -> str:
    """The per-stage table and the side-by-side ratios (markdown)."""
    pages = max(prof.pages, 1)
    out = [f"Per-stage CPU time (s), {n_docs} PDFs, {prof.pages} pages", ""]
    out.append(
        "| backend | " + " | ".join(STAGES) + " | total | ms/page | slowest page | pages > 1 s |"
    )
    out.append("|---|" + "---|" * (len(STAGES) + 4))
    for b in backends:
        st = prof.stages.get(b, Counter())
        doc, page, sec = prof.slowest.get(b, ("-", 0, 0.0))
        cells = " | ".join(f"{st[s]:.2f}" for s in STAGES)
        out.append(
            f"| {b} | {cells} | {prof.totals[b]:.2f} | {1000 * prof.totals[b] / pages:.1f} "
            f"| {sec:.2f} s ({doc} p{page}) | {prof.over_1s[b]} |"
        )
    side = [(label, sec) for label, sec in prof.totals.items() if label not in backends]
    ours = prof.totals.get("pymupdf", 0.0)
    if side:
        out += ["", "| call over the same pages | CPU s | ms/page | docparse pymupdf vs it |"]
        out.append("|---|---|---|---|")
        for label, sec in side:
            ratio = f"{ours / sec:.2f}x" if sec and "pymupdf" in backends else "-"
            out.append(f"| {label} | {sec:.2f} | {1000 * sec / pages:.1f} | {ratio} |")
    out.append("")
    if "pdfplumber" in backends and prof.totals.get("pdfplumber extract_words()"):
        r = prof.totals["pdfplumber"] / prof.totals["pdfplumber extract_words()"]
        out.append(f"* pdfplumber backend / its extract_words(): {r:.2f}x (target <= 2x)")
    if "pymupdf" in backends:
        raw = prof.totals.get("raw get_text(dict)+get_drawings()", 0.0)
        md = prof.totals.get("pymupdf4llm.to_markdown", 0.0)
        if raw:
            ocr = prof.stages.get("pymupdf", Counter())["ocr"]
            out.append(
                f"* pymupdf backend / raw get_text+get_drawings: {ours / raw:.2f}x (target <= 4x); "
                f"without the OCR of pages that have no text layer ({ocr:.2f} s, work the raw "
                f"reads never do): {(ours - ocr) / raw:.2f}x"
            )
        if ours and md:
            out.append(
                f"* pymupdf4llm.to_markdown / pymupdf backend: {md / ours:.1f}x (target >= 10x)"
            )
    out.append("* table units per backend: " + ", ".join(f"{b} {prof.tables[b]}" for b in backends))
    for b in backends:
        worst = sorted(prof.page_times.get(b, []), key=lambda t: -t[2])[:5]
        if worst:
            pages_s = ", ".join(f"{doc} p{page} {sec:.2f} s" for doc, page, sec in worst)
            out.append(f"* slowest pages ({b}, page reader): {pages_s}")
    return "\n".join(out)


def update_doc(doc: Path, label: str, text: str, command: str) -> None:
    """Put ``text`` between the ``<!-- pdf_speed LABEL -->`` markers of ``doc``."""
    begin, end = f"<!-- pdf_speed {label} -->", f"<!-- /pdf_speed {label} -->"
    block = f"{begin}\n`python -m benchmarks.pdf_speed {command}`:\n\n{text}\n{end}"
    current = doc.read_text(encoding="utf-8")
    if begin in current and end in current:
        head, rest = current.split(begin, 1)
        current = head + block + rest.split(end, 1)[1]
    else:
        current = current.rstrip("\n") + "\n\n" + block + "\n"
    doc.write_text(current, encoding="utf-8")
