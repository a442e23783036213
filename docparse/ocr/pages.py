"""OCR of PDF pages into the same page records a text layer gives.

:class:`OcrPass` sits between a backend's page stream and the layout
assembly (:meth:`docparse.backends.base.PdfBackend.parse`). For each page it
decides whether to OCR (:func:`needs_ocr`): with ``ocr="auto"`` only pages
with no text layer or whose text is mostly unmapped glyphs, with ``"force"``
every page. Such a page is rendered once at the engine's resolution
(:func:`render`), turned upright (:func:`read_upright`: pages scanned at
90/180/270 degrees), read by the engine, levelled (a scan set 1-2 degrees
askew) and rebuilt as a :class:`~docparse.backends.base.PageContent` of
words (spans), lines and blocks (:func:`page_content`). From there the page
goes through the same assembly as any text layer: columns, paragraphs,
headings by line height, running headers and page numbers.

Pages are read one at a time and only the page image of the current page is
held, so memory does not grow with the page count. Units on OCR'd pages get
provenance with ``source="ocr"`` and the mean confidence of the words inside
their box (:meth:`OcrPass.mark`); the document gets an ``ocr:pages=...`` flag.
What each OCR'd page cost is reported to :func:`ocr_records` listeners
(``docparse compare``), not stored in the document, so a parse stays
deterministic.
"""

from __future__ import annotations

import contextvars
import functools
import math
import re
import time
import warnings
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from docparse.backends.headings import numbering
from docparse.backends.lines import blocks_from_lines
from docparse.backends.pages import (
    Block,
    Line,
    PageContent,
    TableRegion,
    TextSpan,
    display_bbox,
)
from docparse.backends.preflight import load_pymupdf
from docparse.errors import CorruptDocumentError, MissingDependencyError, cause_text
from docparse.model import OCR_FLAG, BBox, Provenance
from docparse.ocr.engine import Image, OcrEngine, OcrLine, OcrMode, OcrWord, load_engine

if TYPE_CHECKING:
    from docparse.backends.pages import PdfConfig
    from docparse.builder import UnitDraft

#: The largest page image rendered (pixels): a page too large for the engine's
#: resolution is rendered at a lower one, so one page never takes more than
#: about 90 MB of RGB.
MAX_PIXELS = 30_000_000
#: A page image smaller than this on a side holds no readable text.
MIN_SIDE = 16
#: Pixel contrast below which a rendered page is blank (see :func:`blank`).
BLANK_CONTRAST = 24
#: Share of a page's characters that may be unmapped glyphs before its text
#: layer counts as broken.
UNMAPPED_SHARE = 0.5
#: Below this mean confidence the page is also read turned 180 degrees.
UPSIDE_DOWN_CONFIDENCE = 0.85
#: Lines read in each trial orientation when deciding which way up a page is.
ORIENTATION_SAMPLE = 12
#: Skew below this (radians, ~0.2 degrees) is left alone; above 10 degrees a
#: line's slope is not skew.
MIN_SKEW, MAX_SKEW = 0.0035, 0.175
#: Line heights within this share of the page's median are one body size, so
#: the noise of detected boxes does not split paragraphs.
SIZE_TOLERANCE = 0.2
#: A line whose ink covers this many times the page's median share of its box
#: is bold (strokes about 1.5 times as wide).
BOLD_INK = 1.3
#: An OCR'd page with fewer text lines than this is a picture with words in it
#: (a cover logo, a stamp, a photo's caption word), not a page of text: see
#: :func:`picture_text`.
MIN_TEXT_LINES = 3


#: Glyphs with no Unicode meaning, as one character class: U+FFFD, private use
#: (Co), surrogates (Cs) and the control characters (Cc) that are not white space.
#: A regex scan of a page's text is what lets :func:`needs_ocr` run on every page.
_UNMAPPED_CHARS = re.compile(
    "[\ufffd\ue000-\uf8ff\U000f0000-\U000ffffd\U00100000-\U0010fffd\ud800-\udfff"
    "\x00-\x08\x0e-\x1b\x7f-\x84\x86-\x9f]"
)


def unmapped_glyphs(page: PageContent) -> tuple[int, int]:
    """(unmapped glyphs, characters) of the page's text layer.

    Adds the glyphs the backend already left out of the text (its page-level
    ``unmapped_glyphs`` count) to those still in the text that map to nothing:
    backends that clean their text report the first, others leave the second.
    """
    # Line texts, not span texts: a line's text is its spans' texts with at
    # most spaces put between them, and neither count below counts a space.
    # The assembly reads every line's text anyway (the line keeps it), and a
    # page has a tenth as many lines as spans.
    text = "".join([ln.text for b in page.blocks for ln in b.lines])
    if page.tables:
        text += "".join([cell for t in page.tables for r in t.rows for cell in r])
    counted = getattr(page, "unmapped_glyphs", 0)
    dropped = counted if isinstance(counted, int) else 0
    if text.isprintable():
        # Printable text (most pages) holds no space but " " and, of the
        # unmapped characters, only U+FFFD (the others are controls, surrogates
        # and private-use characters): both counted at C speed, without the
        # split into words and the pattern's scan below.
        return dropped + text.count("\ufffd"), len(text) - text.count(" ") + dropped
    n = len("".join(text.split()))
    return dropped + len(_UNMAPPED_CHARS.findall(text)), n + dropped


def needs_ocr(page: PageContent, mode: OcrMode) -> bool:
    """Whether ``page`` is to be read by OCR under ``mode``."""
    if mode == "off":
        return False
    if mode == "force":
        return True
    if not page.has_text:
        return True
    unmapped, n = unmapped_glyphs(page)
    return n > 0 and unmapped > UNMAPPED_SHARE * n


@dataclass(frozen=True, slots=True)
class OcrPageRecord:
    """What OCR did on one page: CPU seconds (render + read), words, mean
    confidence, the rotation it turned the page by and the resolution.
    ``stages``: CPU seconds of ``render``, the engine's stages
    (:meth:`~docparse.ocr.engine.OcrEngine.stage_seconds`) and ``assembly``
    (the page record from the lines)."""

    path: str
    page: int
    seconds: float
    words: int
    confidence: float
    rotation: int
    dpi: float
    stages: tuple[tuple[str, float], ...] = ()


_RECORDS: contextvars.ContextVar[list[OcrPageRecord] | None] = contextvars.ContextVar(
    "docparse_ocr_records", default=None
)


@contextmanager
def ocr_records() -> Iterator[list[OcrPageRecord]]:
    """Collect an :class:`OcrPageRecord` for every page OCR'd inside the block.

    >>> with ocr_records() as records:  # doctest: +SKIP
    ...     doc = parse("scan.pdf")
    >>> sum(r.seconds for r in records)  # doctest: +SKIP
    """
    records: list[OcrPageRecord] = []
    token = _RECORDS.set(records)
    try:
        yield records
    finally:
        _RECORDS.reset(token)


def cpu_seconds() -> float:
    """CPU time of this process (all its threads) and of its finished children
    (the tesseract engine runs as a subprocess)."""
    import resource

    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def render(page: Any, dpi: float) -> tuple[Image, float]:
    """The displayed ``page`` (a PyMuPDF page) as RGB pixels, and pixels per point.

    The resolution is lowered for pages so large that the image would pass
    :data:`MAX_PIXELS`.
    """
    import numpy as np

    rect = page.rect
    area = max(float(rect.width) * float(rect.height), 1e-6)
    scale = min(dpi / 72.0, math.sqrt(MAX_PIXELS / area))
    pymupdf = load_pymupdf()
    pix = page.get_pixmap(
        matrix=pymupdf.Matrix(scale, scale), colorspace=pymupdf.csRGB, alpha=False
    )
    image = np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.height, pix.width, pix.n)
    return image[:, :, :3], scale


def blank(image: Image) -> bool:
    """No ink: every pixel within :data:`BLANK_CONTRAST` levels of the others.

    Pages a damaged PDF lost the content of render blank; reading them would
    cost a detector pass each for nothing.
    """
    sample = image[::4, ::4]
    return int(sample.max()) - int(sample.min()) < BLANK_CONTRAST


def _quality(lines: Sequence[OcrLine]) -> float:
    """Characters read, weighted by confidence: higher when the page is upright."""
    return sum(line.confidence * len(line.text) for line in lines)


def _mean_confidence(lines: Sequence[OcrLine]) -> float:
    n = sum(len(line.text) for line in lines)
    return _quality(lines) / n if n else 0.0


def _widest(lines: Sequence[OcrLine], n: int) -> list[OcrLine]:
    return sorted(lines, key=lambda line: line.box[0] - line.box[2])[:n]


def read_upright(engine: OcrEngine, image: Image) -> tuple[list[OcrLine], int]:
    """Read ``image`` the right way up: the lines and ``k``, the quarter turns
    counter-clockwise that made the page upright.

    A page whose lines run down the page is turned by a quarter (both ways
    tried); a page read with low confidence is also tried upside down. Each
    trial reads only the :data:`ORIENTATION_SAMPLE` widest lines, and the
    page is read in full once more only when a turn wins: the one with more
    confident characters.
    """
    import numpy as np

    def turned(t: int) -> Image:
        return np.ascontiguousarray(np.rot90(image, t))

    lines = engine.recognize(image)
    k = 0
    tall = sum(len(line.text) for line in lines if line.vertical)
    if tall > 0.5 * sum(len(line.text) for line in lines):
        trials = [(_quality(engine.recognize(turned(t), ORIENTATION_SAMPLE)), t) for t in (1, 3)]
        k = max(trials)[1]
        lines = engine.recognize(turned(k))
    elif lines and _mean_confidence(lines) < UPSIDE_DOWN_CONFIDENCE:
        flipped = engine.recognize(turned(2), ORIENTATION_SAMPLE)
        upright = _widest(lines, ORIENTATION_SAMPLE)
        if _quality(_widest(flipped, ORIENTATION_SAMPLE)) > _quality(upright):
            lines, k = engine.recognize(turned(2)), 2
    return lines, k


def skew(lines: Sequence[OcrLine]) -> float:
    """The page's skew (radians, positive when lines climb to the right): the
    median slope of the long lines, weighted by their length; 0 when small."""
    slopes: list[tuple[float, float]] = []
    for line in lines:
        width = line.box[2] - line.box[0]
        if line.angle is not None and width > 3 * max(line.height, 1.0):
            slopes.append((line.angle, width))
    if not slopes:
        return 0.0
    slopes.sort()
    half = sum(w for _, w in slopes) / 2
    acc = 0.0
    for angle, w in slopes:
        acc += w
        if acc >= half:
            return angle if MIN_SKEW <= abs(angle) <= MAX_SKEW else 0.0
    return 0.0


_GLUED = re.compile(r"[^\W\d_]{5,}")


def split_glued(lines: Sequence[OcrLine]) -> list[OcrLine]:
    """Split words the recogniser glued together ("forMulti", "Researchon").

    The page's own words are the vocabulary: a word of five or more letters
    that occurs nowhere else on the page is cut where both parts (two letters
    or more) do, preferring the cut whose rarer part is most frequent. Scripts
    without spaces are left alone (their words never occur alone).
    """
    vocab: Counter[str] = Counter()
    for line in lines:
        for w in line.words:
            for token in _TOKEN.findall(w.text.lower()):
                vocab[token] += 1
    out: list[OcrLine] = []
    for line in lines:
        words: list[OcrWord] = []
        for w in line.words:
            words.extend(_split_word(w, vocab))
        out.append(replace(line, words=tuple(words)) if len(words) != len(line.words) else line)
    return out


_TOKEN = re.compile(r"[^\W\d_]+")


def _split_word(w: OcrWord, vocab: Counter[str]) -> list[OcrWord]:
    for m in _GLUED.finditer(w.text):
        low = m.group().lower()
        if vocab[low] > 1 or any(c >= "\u2e80" for c in low):
            continue
        best: tuple[int, int] | None = None
        for i in range(2, len(low) - 1):
            left, right = vocab[low[:i]], vocab[low[i:]]
            if left and right and (best is None or min(left, right) > best[0]):
                best = (min(left, right), i)
        if best is None:
            continue
        cut = m.start() + best[1]
        x0, y0, x1, y1 = w.box
        mid = x0 + (x1 - x0) * cut / len(w.text)
        return [
            OcrWord(w.text[:cut], (x0, y0, mid, y1), w.confidence),
            *_split_word(OcrWord(w.text[cut:], (mid, y0, x1, y1), w.confidence), vocab),
        ]
    return [w]


_ASCENDERS = frozenset("bdfhklt0123456789()[]{}|/$@!?'\"&%#")
_DESCENDERS = frozenset("gjpqy()[]{}|/$@_")


def text_size(line: OcrLine) -> float:
    """The line's type size in pixels, ascender to descender.

    A detected box spans only the glyphs on the line: "1. Introduction" (no
    descenders) is about 0.78 of a line of the same type with "g" and "p",
    and a line of x-height letters only about 0.55. Scaling back makes line
    heights comparable, so headings are found by size and body lines agree.
    """
    height = line.height if line.height > 0 else line.box[3] - line.box[1]
    text = line.text
    if any(ord(c) >= 0x2E80 for c in text):
        return height  # CJK glyphs fill the em box
    up = any(c.isupper() or c in _ASCENDERS for c in text)
    down = any(c in _DESCENDERS for c in text)
    if up and down:
        return height
    return height / (0.78 if up or down else 0.55)


def ocr_tables(lines: Sequence[Line], page_width: float) -> tuple[TableRegion, ...]:
    """Tables on an OCR'd page, by the word/line table heuristics the backends share.

    A scan has no ruling strokes and no font, so the tables found are those
    next to a "Table N" caption (:func:`~docparse.backends.table_regions.caption_regions`),
    with columns at the gaps no word covers
    (:func:`~docparse.backends.table_regions.column_edges`), rows at the text lines,
    kept when the grid reads as a table
    (:func:`~docparse.backends.table_checks.ruled_off_plausible`).
    """
    import bisect

    from docparse.backends.table_checks import ruled_off_plausible
    from docparse.backends.table_regions import caption_regions, column_edges

    text_lines = [((ln.bbox.x0, ln.bbox.y0, ln.bbox.x1, ln.bbox.y1), ln.text) for ln in lines]
    words = [
        (s.bbox.x0, s.bbox.y0, s.bbox.x1, s.bbox.y1, s.text.strip())
        for ln in lines
        for s in ln.spans
        if s.text.strip()
    ]
    found: list[TableRegion] = []
    for clip in caption_regions(text_lines, page_width):
        edges = column_edges([w[:4] for w in words], clip)
        if len(edges) < 3:
            continue
        inside = sorted(
            (w for w in words if clip[1] <= (w[1] + w[3]) / 2 <= clip[3]),
            key=lambda w: (w[1] + w[3]) / 2,
        )
        rows: list[list[tuple[float, float, float, float, str]]] = []
        for w in inside:
            mid, half = (w[1] + w[3]) / 2, (w[3] - w[1]) / 2
            last = rows[-1][0] if rows else None
            if last is not None and mid - (last[1] + last[3]) / 2 <= 0.6 * half:
                rows[-1].append(w)
            else:
                rows.append([w])
        grid: list[tuple[str, ...]] = []
        for row in rows:
            cells: list[list[str]] = [[] for _ in edges[1:]]
            for w in sorted(row, key=lambda w: w[0]):
                col = min(max(bisect.bisect(edges, (w[0] + w[2]) / 2) - 1, 0), len(cells) - 1)
                cells[col].append(w[4])
            grid.append(tuple(" ".join(c) for c in cells))
        if ruled_off_plausible(grid):
            found.append(TableRegion(BBox(*clip), tuple(grid)))
    return tuple(found)


def bold_lines(image: Image, lines: Sequence[OcrLine]) -> frozenset[int]:
    """Indices of the ``lines`` printed bold: ink over :data:`BOLD_INK` times the
    median line's share of the word boxes (``image`` upright, as the lines were read)."""
    density: list[float] = []
    for line in lines:
        ink = area = 0
        for w in line.words:
            x0, y0, x1, y1 = (max(0, int(v)) for v in w.box)
            cut = image[y0:y1, x0:x1, 0]
            ink += int((cut < 128).sum())
            area += cut.size
        density.append(ink / area if area else 0.0)
    ranked = sorted(d for d in density if d > 0)
    if len(ranked) < 3:
        return frozenset()
    median = ranked[len(ranked) // 2]
    return frozenset(i for i, d in enumerate(density) if d > BOLD_INK * median)


def picture_text(lines: Sequence[OcrLine]) -> bool:
    """Whether the OCR ``lines`` of a page are words in a picture, not text with structure.

    Fewer than :data:`MIN_TEXT_LINES` lines, none of them numbered like a
    section (``3 Methods``, ``II. Results``), give the assembly no body text
    to measure a heading against: its type size comes from the height of
    the glyphs, and a logo's letters are as tall as a headline's (the
    "debian" swirl of a book cover reads as 160 pt). Such text is kept as
    figure text, so it never opens a section that would govern the pages
    after it (on a text PDF, pages read from the text layer).
    """
    texts = [line.text.strip() for line in lines if line.text.strip()]
    return len(texts) < MIN_TEXT_LINES and not any(numbering(t)[0] for t in texts)


def page_content(
    number: int,
    lines: Sequence[OcrLine],
    scale: float,
    size: tuple[int, int],
    turns: int,
    bold: frozenset[int] = frozenset(),
    *,
    tables: bool = True,
) -> tuple[PageContent, list[tuple[BBox, float]]]:
    """The page record of OCR ``lines`` read on an upright image of ``size`` (w, h pixels).

    Boxes are levelled by the page's :func:`skew` and turned into points;
    the record reads in the upright page and its ``rotation`` maps back to the
    displayed page. Also returns each word's box on the displayed page and
    its confidence, for provenance. ``bold``: indices of bold lines (:func:`bold_lines`);
    ``tables``: look for tables (:func:`ocr_tables`).
    """
    width, height = size[0] / scale, size[1] / scale
    angle = skew(lines)
    cx, cy = size[0] / 2, size[1] / 2
    cos, sin = math.cos(angle), math.sin(angle)

    def level(box: tuple[float, float, float, float]) -> BBox:
        mx, my = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        x = cx + (mx - cx) * cos - (my - cy) * sin
        y = cy + (mx - cx) * sin + (my - cy) * cos
        w, h = (box[2] - box[0]) / 2, (box[3] - box[1]) / 2
        return BBox(
            max(0.0, (x - w) / scale),
            max(0.0, (y - h) / scale),
            min(width, (x + w) / scale),
            min(height, (y + h) / scale),
        )

    sizes = [text_size(line) / scale for line in lines]
    median = sorted(sizes)[len(sizes) // 2] if sizes else 0.0
    rotation = (90 * turns) % 360
    out_lines: list[Line] = []
    words: list[tuple[BBox, float]] = []
    for index, line in enumerate(lines):
        size_pt = text_size(line) / scale
        if median and abs(size_pt - median) <= SIZE_TOLERANCE * median:
            size_pt = median
        else:
            size_pt = round(size_pt * 2) / 2
        spans: list[TextSpan] = []
        for i, w in enumerate(line.words):
            box = level(w.box)
            # A trailing space keeps words apart however close their boxes are.
            text = w.text if i == len(line.words) - 1 else w.text + " "
            spans.append(
                TextSpan(text=text, bbox=box, size=size_pt, bold=index in bold, font="ocr")
            )
            words.append((display_bbox(box, rotation, width, height), w.confidence))
        if spans:
            box_all = functools.reduce(BBox.union, (s.bbox for s in spans))
            out_lines.append(Line(tuple(spans), box_all))
    blocks: tuple[Block, ...] = blocks_from_lines(out_lines)
    if picture_text(lines):
        blocks = tuple(replace(b, role="figure") for b in blocks)
    found = ocr_tables(out_lines, width) if tables else ()
    content = PageContent(
        number=number, width=width, height=height, rotation=rotation, blocks=blocks, tables=found
    )
    return content, words


class OcrPass:
    """OCR inside one parse: replaces the pages that need it, then marks provenance.

    The engine is loaded at the first page that needs OCR, so a text PDF
    never needs one installed. With ``ocr="auto"`` a missing engine is a
    warning with its install line (the page stays without text); with
    ``ocr="force"`` it is :class:`~docparse.errors.MissingDependencyError`.
    """

    def __init__(self, path: Path, config: PdfConfig) -> None:
        self.path = path
        self.mode: OcrMode = config.ocr
        self.engine_name = config.ocr_engine
        self.dpi = config.ocr_dpi
        self.password = config.password
        self.tables = config.tables
        self.words: dict[int, list[tuple[BBox, float]]] = {}
        self._doc: Any = None
        self._engine: OcrEngine | None = None
        self._unavailable = False

    def pages(self, pages: Iterator[PageContent]) -> Iterator[PageContent]:
        """``pages`` with those that need OCR read by the engine instead."""
        if self.mode == "off":
            return pages  # no page needs OCR: the stream itself, without a step a page
        return self._replaced(pages)

    def _replaced(self, pages: Iterator[PageContent]) -> Iterator[PageContent]:
        try:
            for page in pages:
                if needs_ocr(page, self.mode):
                    engine = self._load()
                    if engine is not None:
                        page = self._read(engine, page)
                yield page
        finally:
            self.close()

    def _load(self) -> OcrEngine | None:
        if self._engine is None and not self._unavailable:
            try:
                self._engine = load_engine(self.engine_name)
            except MissingDependencyError as exc:
                if self.mode == "force":
                    raise
                self._unavailable = True
                warnings.warn(
                    f"{self.path}: pages without a text layer are not OCR'd: {exc.message}",
                    UserWarning,
                    stacklevel=2,
                )
        return self._engine

    def _open(self) -> Any:
        if self._doc is None:
            pymupdf = load_pymupdf()
            self._doc = pymupdf.open(self.path, filetype="pdf")
            if self._doc.needs_pass:
                self._doc.authenticate(self.password or "")
        return self._doc

    def _read(self, engine: OcrEngine, page: PageContent) -> PageContent:
        start = cpu_seconds()
        pymupdf = load_pymupdf()
        try:
            pdf_page = self._open().load_page(page.number - 1)
            image, scale = render(pdf_page, self.dpi or engine.dpi)
        except (RuntimeError, ValueError, pymupdf.mupdf.FzErrorBase) as exc:
            raise CorruptDocumentError(
                self.path,
                f"page {page.number} cannot be rendered for OCR: {cause_text(exc, self.path)}",
                cause=exc,
            ) from exc
        del pdf_page
        rendered = cpu_seconds()
        h, w = image.shape[:2]
        if min(h, w) < MIN_SIDE or blank(image):
            return page  # nothing to read: the page is not counted as OCR'd
        import numpy as np

        engine.stage_seconds()
        lines, turns = read_upright(engine, image)
        stages = {"render": rendered - start, **engine.stage_seconds()}
        read = cpu_seconds()
        lines = split_glued(lines)
        bold = bold_lines(np.rot90(image, turns), lines)
        del image
        upright = (w, h) if turns % 2 == 0 else (h, w)
        content, words = page_content(
            page.number, lines, scale, upright, turns, bold, tables=self.tables
        )
        # Raster images of the page stay known: a page OCR finds nothing on is
        # still an image page.
        content = replace(content, images=page.images)
        self.words[page.number] = words
        records = _RECORDS.get()
        if records is not None:
            end = cpu_seconds()
            stages["assembly"] = end - read
            records.append(
                OcrPageRecord(
                    path=str(self.path),
                    page=page.number,
                    seconds=end - start,
                    words=len(words),
                    confidence=round(_mean_confidence(lines), 4),
                    rotation=(90 * turns) % 360,
                    dpi=round(scale * 72.0, 1),
                    stages=tuple((k, round(v, 4)) for k, v in stages.items()),
                )
            )
        return content

    def close(self) -> None:
        if self._doc is not None:
            self._doc.close()
            self._doc = None

    def mark(self, drafts: Sequence[UnitDraft]) -> None:
        """Give the drafts' pieces on OCR'd pages ``source="ocr"`` and their words' confidence."""
        if not self.words:
            return
        for d in drafts:
            if any(p.page in self.words for p in d.provenance):
                d.provenance = tuple(self._marked(p) for p in d.provenance)

    def _marked(self, p: Provenance) -> Provenance:
        words = self.words.get(p.page)
        if words is None:
            return p
        inside = [c for b, c in words if p.bbox is None or _centre_in(b, p.bbox)]
        pool = inside or [c for _, c in words]
        confidence = round(sum(pool) / len(pool), 4) if pool else 0.0
        return Provenance(p.page, p.bbox, "ocr", confidence)

    def flags(self) -> list[str]:
        """``ocr:pages=...`` when pages were OCR'd."""
        if not self.words:
            return []
        return [f"{OCR_FLAG}:pages={','.join(map(str, sorted(self.words)))}"]


def _centre_in(b: BBox, box: BBox) -> bool:
    x, y = (b.x0 + b.x1) / 2, (b.y0 + b.y1) / 2
    return box.x0 - 1 <= x <= box.x1 + 1 and box.y0 - 1 <= y <= box.y1 + 1
