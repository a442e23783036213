"""A sweep of the PDF backends over PDFs nobody tuned for, against their own text layer.

Every rule of the PDF backends was tuned on ``../shared/corpus`` and the
generated pairs; this sweep reads another folder (by default the 224 TeX
package manuals of ``/usr/share/doc/texlive-doc``) and reports, per file and
backend, what a demanding user would notice:

* status: ``ok``, a typed error (a :class:`~docparse.DocparseError`, the time
  limit included) or ``crash`` (any other exception);
* CPU seconds per page and the slowest page (CPU time between the backend's
  page records, the page's extraction and the assembly of the one before);
* content units and tables;
* text fidelity against the file's own text layer (pypdfium2's
  ``get_text_range`` of every page, line-end hyphens joined): word recall
  (share of the layer's words found in the units, multisets) and word
  precision (share of the units' words found in the layer), words normalised
  as :func:`text_words` does, furniture units included (their words are
  still read);
* unmapped glyphs (:attr:`docparse.PageInfo.n_unmapped`);
* oddities: pages whose layer has 5 words or more but no unit, units of one
  character, units (tables aside) of more than :data:`LONG_UNIT` words,
  glued words (a unit word missing from the layer that is two adjacent layer
  words run together) and split words (a layer word missing from the units
  that two adjacent unit words make), and cross-backend disagreement (the
  largest content unit count over the smallest, files read by two backends
  or more).

A summary table per backend closes the run, then the worst files per measure.

    python -m benchmarks.unseen_sweep [--dir D] [--backend B ...] [--max-files N] [--json OUT]

``--max-files N`` takes N files spread evenly over the sorted list (not the
first N: the folders differ by engine). ``--timeout`` is the per-file time
limit (``parse(config={"timeout": ...})``).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
import unicodedata
from collections import Counter
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from itertools import pairwise
from pathlib import Path
from typing import Any

import docparse
from benchmarks.pdf_coverage import TEXLIVE_DOC
from docparse.errors import DocparseError
from docparse.registry import get_parser

BACKENDS = ("pymupdf", "pdfplumber", "pypdfium2")

#: Arguments of a short run (``python -m benchmarks.run --quick``).
QUICK_ARGS = ["--dir", "{corpus}/research", "--max-files", "2", "--backend", "pypdfium2"]

#: Words a unit (tables aside) may have before it counts as a run-on unit.
LONG_UNIT = 400
#: Words a page's layer must have for a page without units to count as lost.
PAGE_WORDS = 5

#: A hyphen at a line end; PDFium marks a break TeX made as U+FFFE (or U+0002).
_HYPH = re.compile(r"(\w)(?:[-\u2010\u00ad]\s*\n|[\ufffe\x02]\s*)\s*(\w)")


def layer_pages(path: Path) -> list[str]:
    """Each page's text as the file's own text layer holds it (pypdfium2)."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(str(path))
    try:
        out = []
        for i in range(len(doc)):
            page = doc[i]
            tp = page.get_textpage()
            out.append(tp.get_text_range().replace("\r\n", "\n").replace("\r", "\n"))
            tp.close()
            page.close()
        return out
    finally:
        doc.close()


#: Scripts written without spaces between words: each character counts as a word.
_WORD = re.compile(r"[^\W_]+")
_SPACING = re.compile("[\u00a8\u00b4\u02c6\u02c7\u02d8-\u02dd\u00af\u00b8\u02c9\u02cb]")
_MARKS = re.compile("[\u0300-\u036f]")
_UNSPACED = re.compile(r"([\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff])")


def text_words(text: str) -> list[str]:
    """Lower-cased words of ``text`` after NFKC (ligatures): runs of letters
    and digits, so that punctuation splits words (``\\long\\def`` is two
    words whether or not a backend or the layer spaces it), each CJK
    character a word of its own (those scripts put no spaces between words,
    and a line may break anywhere), accents left out."""
    if not text.isascii():
        # Accents count for nothing: a layer may hold TeX's spacing accent
        # apart from its letter (``k¨afer``) where a backend merged them.
        text = _MARKS.sub("", unicodedata.normalize("NFKD", _SPACING.sub("", text)))
    text = unicodedata.normalize("NFKC", text).lower()
    return _WORD.findall(_UNSPACED.sub(r" \1 ", text))


def _unbreak(m: re.Match[str]) -> str:
    # Hyphenation breaks words before a lower-case letter; a hyphen before
    # a capital is the text's own ("KOMA-Script", "Jean-Paul"), unless
    # PDFium marked the break as TeX's.
    if m[2].islower() or m[0][1] not in "-\u2010\u00ad":
        return m[1] + m[2]
    return m[1] + "-" + m[2]


def page_words(text: str) -> list[str]:
    """Words of a layer page (:func:`text_words`), line-end hyphens joined."""
    return text_words(_HYPH.sub(_unbreak, text))


def _pairs(words: list[str]) -> set[str]:
    return {a + b for a, b in pairwise(words)}


@dataclass(slots=True)
class Row:
    """One file read by one backend."""

    file: str
    backend: str
    pages: int
    status: str = "ok"
    error: str = ""
    cpu: float = 0.0
    slowest_page: int = 0
    slowest_cpu: float = 0.0
    units: int = 0
    tables: int = 0
    layer_words: int = 0
    unit_words: int = 0
    hit: int = 0
    unmapped: int = 0
    empty_pages: list[int] = field(default_factory=list)
    one_char: int = 0
    long_units: int = 0
    glued: int = 0
    split: int = 0
    glued_examples: list[str] = field(default_factory=list)
    split_examples: list[str] = field(default_factory=list)
    worst_page: int = 0
    worst_missing: int = 0
    missing_examples: list[str] = field(default_factory=list)

    @property
    def recall(self) -> float:
        return self.hit / self.layer_words if self.layer_words else 1.0

    @property
    def precision(self) -> float:
        return self.hit / self.unit_words if self.unit_words else 1.0

    @property
    def per_page(self) -> float:
        return self.cpu / self.pages if self.pages else 0.0


class _PageClock:
    """CPU time between the page records a backend yields, per page number."""

    def __init__(self, backend: str) -> None:
        self.cls = type(get_parser(backend))
        self.times: Counter[int] = Counter()
        self._orig: Any = None

    def __enter__(self) -> _PageClock:
        self._orig = self.cls.__dict__.get("iter_pages")
        orig = self.cls.iter_pages
        times = self.times

        def timed(this: Any, *args: Any, **kwargs: Any) -> Iterator[Any]:
            t = time.process_time()
            for page in orig(this, *args, **kwargs):
                now = time.process_time()
                times[page.number] += now - t
                yield page
                t = time.process_time()

        self.cls.iter_pages = timed  # type: ignore[method-assign]
        return self

    def __exit__(self, *exc: object) -> None:
        if self._orig is not None:
            self.cls.iter_pages = self._orig  # type: ignore[method-assign]
        else:
            del self.cls.iter_pages


def sweep_file(path: Path, backend: str, layer: list[str], timeout: float | None) -> Row:
    """Parse ``path`` with ``backend`` and measure it against ``layer``."""
    row = Row(str(path), backend, len(layer))
    config: dict[str, Any] = {"ocr": "off"}
    if timeout:
        config["timeout"] = timeout
    t0 = time.process_time()
    try:
        with _PageClock(backend) as clock:
            doc = docparse.parse(path, backend=backend, config=config)
    except DocparseError as exc:
        row.cpu = time.process_time() - t0
        row.status, row.error = type(exc).__name__, str(exc)[:200]
        return row
    except Exception as exc:  # noqa: BLE001 - a crash is what the sweep reports
        row.cpu = time.process_time() - t0
        row.status, row.error = "crash", f"{type(exc).__name__}: {str(exc)[:200]}"
        return row
    row.cpu = time.process_time() - t0
    if clock.times:
        row.slowest_page, row.slowest_cpu = clock.times.most_common(1)[0]
    content = doc.content_units()
    row.units = len(content)
    row.tables = sum(1 for u in content if u.table is not None)
    row.unmapped = sum(p.n_unmapped for p in doc.pages)
    ours: Counter[str] = Counter()
    per_page: dict[int, Counter[str]] = {}
    unit_pairs: set[str] = set()
    for u in doc.units:
        words = text_words(u.text)
        ours.update(words)
        unit_pairs |= _pairs(words)
        for p in u.pages:
            per_page.setdefault(p, Counter()).update(words)
        if u.kind == "furniture":
            continue
        if len(u.text.strip()) == 1:
            row.one_char += 1
        if u.table is None and len(u.text.split()) > LONG_UNIT:
            row.long_units += 1
    ref: Counter[str] = Counter()
    ref_pairs: set[str] = set()
    for i, text in enumerate(layer, 1):
        words = page_words(text)
        ref.update(words)
        ref_pairs |= _pairs(words)
        if len(words) >= PAGE_WORDS and i not in per_page:
            row.empty_pages.append(i)
        missing = Counter(words) - per_page.get(i, Counter())
        if missing.total() > row.worst_missing:
            row.worst_page, row.worst_missing = i, missing.total()
            row.missing_examples = [w for w, _ in missing.most_common(8)]
    row.layer_words, row.unit_words = sum(ref.values()), sum(ours.values())
    row.hit = sum((ref & ours).values())
    glued = [w for w in ours - ref if w in ref_pairs]
    split = [w for w in ref - ours if w in unit_pairs]
    row.glued, row.split = len(glued), len(split)
    row.glued_examples, row.split_examples = glued[:5], split[:5]
    return row


def pdf_files(folder: Path, max_files: int | None) -> list[Path]:
    """The PDFs under ``folder``, sorted; ``max_files`` of them spread evenly."""
    files = sorted(folder.rglob("*.pdf"))
    if max_files and len(files) > max_files:
        step = len(files) / max_files
        files = [files[int(i * step)] for i in range(max_files)]
    return files


def _short(path: str, root: Path) -> str:
    p = Path(path)
    return str(p.relative_to(root)) if p.is_relative_to(root) else path


def summary(rows: list[Row], backends: list[str]) -> list[str]:
    """The per-backend table."""
    head = (
        f"{'backend':11} {'files':>5} {'ok':>4} {'typed':>5} {'crash':>5} {'pages':>6}"
        f" {'ms/page':>7} {'slowest':>7} {'units':>7} {'tables':>6} {'recall':>7} {'precis':>7}"
        f" {'unmapped':>8} {'lostpg':>6} {'1-char':>6} {'long':>5} {'glued':>6} {'split':>6}"
    )
    out = [head]
    for b in backends:
        rs = [r for r in rows if r.backend == b]
        ok = [r for r in rs if r.status == "ok"]
        crash = sum(1 for r in rs if r.status == "crash")
        pages = sum(r.pages for r in ok)
        cpu = sum(r.cpu for r in ok)
        layer = sum(r.layer_words for r in ok)
        words = sum(r.unit_words for r in ok)
        hit = sum(r.hit for r in ok)
        slowest = max((r.slowest_cpu for r in ok), default=0.0)
        out.append(
            f"{b:11} {len(rs):>5} {len(ok):>4} {len(rs) - len(ok) - crash:>5} {crash:>5}"
            f" {pages:>6} {1000 * cpu / max(pages, 1):>7.1f} {slowest:>7.2f}"
            f" {sum(r.units for r in ok):>7} {sum(r.tables for r in ok):>6}"
            f" {hit / max(layer, 1):>7.2%} {hit / max(words, 1):>7.2%}"
            f" {sum(r.unmapped for r in ok):>8} {sum(len(r.empty_pages) for r in ok):>6}"
            f" {sum(r.one_char for r in ok):>6} {sum(r.long_units for r in ok):>5}"
            f" {sum(r.glued for r in ok):>6} {sum(r.split for r in ok):>6}"
        )
    return out


def disagreement(rows: list[Row]) -> list[tuple[float, str, dict[str, int]]]:
    """(largest/smallest content unit count, file, counts) of files read by two backends."""
    by_file: dict[str, dict[str, int]] = {}
    for r in rows:
        if r.status == "ok":
            by_file.setdefault(r.file, {})[r.backend] = r.units
    out = []
    for f, counts in by_file.items():
        if len(counts) >= 2:
            lo, hi = min(counts.values()), max(counts.values())
            out.append((hi / max(lo, 1), f, counts))
    return sorted(out, reverse=True)


def worst(rows: list[Row], root: Path, n: int) -> list[str]:
    """The worst ``n`` files per measure."""
    ok = [r for r in rows if r.status == "ok"]
    measures: list[tuple[str, Any, Any]] = [
        ("lowest recall", lambda r: r.recall, lambda r: f"{r.recall:.2%}"),
        ("lowest precision", lambda r: r.precision, lambda r: f"{r.precision:.2%}"),
        ("CPU ms per page", lambda r: -r.per_page, lambda r: f"{1000 * r.per_page:.1f}"),
        (
            "slowest page",
            lambda r: -r.slowest_cpu,
            lambda r: f"p{r.slowest_page} {r.slowest_cpu:.2f} s",
        ),
        ("pages lost", lambda r: -len(r.empty_pages), lambda r: f"{r.empty_pages[:8]}"),
        (
            "words missing from one page",
            lambda r: -r.worst_missing,
            lambda r: f"p{r.worst_page} {r.worst_missing} {r.missing_examples[:4]}",
        ),
        ("glued words", lambda r: -r.glued, lambda r: f"{r.glued} {r.glued_examples[:3]}"),
        ("split words", lambda r: -r.split, lambda r: f"{r.split} {r.split_examples[:3]}"),
        ("one-character units", lambda r: -r.one_char, lambda r: f"{r.one_char}"),
        ("long units", lambda r: -r.long_units, lambda r: f"{r.long_units}"),
        ("unmapped glyphs", lambda r: -r.unmapped, lambda r: f"{r.unmapped}"),
    ]
    out = []
    for title, key, show in measures:
        ranked = sorted(ok, key=key)[:n]
        out.append(f"-- {title}")
        out.extend(f"   {r.backend:10} {_short(r.file, root)[:60]:60} {show(r)}" for r in ranked)
    bad = [r for r in rows if r.status != "ok"]
    if bad:
        out.append("-- not ok")
        out.extend(
            f"   {r.backend:10} {_short(r.file, root)[:60]:60} {r.status} {r.error[:80]}"
            for r in bad
        )
    dis = disagreement(rows)[:n]
    if dis:
        out.append("-- unit counts across backends (largest/smallest)")
        out.extend(f"   {ratio:5.2f} {_short(f, root)[:60]:60} {c}" for ratio, f, c in dis)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dir", type=Path, default=TEXLIVE_DOC)
    ap.add_argument("--backend", action="append", choices=BACKENDS)
    ap.add_argument("--max-files", type=int)
    ap.add_argument("--timeout", type=float, default=300.0, help="seconds per file and backend")
    ap.add_argument("--worst", type=int, default=5, help="files listed per measure")
    ap.add_argument("--json", type=Path, help="write every row here")
    args = ap.parse_args(argv)
    if not args.dir.is_dir():
        print(f"{args.dir}: no such folder; nothing to sweep")
        return 0
    backends = args.backend or list(BACKENDS)
    rows: list[Row] = []
    files = pdf_files(args.dir, args.max_files)
    for b in backends if files else []:
        # The first parse imports the backend's modules: not a page's time.
        sweep_file(files[0], b, [], args.timeout)
    for path in files:
        try:
            layer = layer_pages(path)
        except Exception as exc:  # noqa: BLE001 - pdfium refusing a file is a finding too
            print(f"{_short(str(path), args.dir)}: no text layer read ({exc})")
            layer = []
        for b in backends:
            r = sweep_file(path, b, layer, args.timeout)
            rows.append(r)
            print(
                f"{_short(r.file, args.dir)[-50:]:50} {b:10} {r.status:8} p={r.pages:<4}"
                f" {1000 * r.per_page:6.1f} ms/p u={r.units:<5} rec={r.recall:.3f}"
                f" pre={r.precision:.3f} lost={len(r.empty_pages)} glued={r.glued} split={r.split}"
            )
            sys.stdout.flush()
    print()
    print("\n".join(summary(rows, backends)))
    print()
    print("\n".join(worst(rows, args.dir, args.worst)))
    if args.json:
        args.json.write_text(
            json.dumps([asdict(r) for r in rows], ensure_ascii=False, indent=0), encoding="utf-8"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
