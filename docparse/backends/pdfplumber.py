"""PDF backend on pdfplumber (pdfminer.six): words with font attributes and tables.

pdfplumber gives words, not blocks, so this module groups words into lines
(splitting a line at a gap wider than a column gutter) and lines into blocks
(vertically adjacent, horizontally overlapping, same font size) before the
shared assembly. The tables are read by :mod:`~docparse.backends.pdfplumber_tables`
from the same words and lines. Each page is closed after use so its cached
layout objects are freed and memory does not grow with the page count.
"""

from __future__ import annotations

import copy
import logging
import re
from bisect import bisect_right
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from docparse.backends.base import (
    Block,
    Line,
    PageContent,
    PdfBackend,
    PdfConfig,
    PdfInfo,
    TableRegion,
    TableStrategy,
    TextSpan,
    encrypted_error,
)
from docparse.backends.glyphs import (
    ACCENT_CHARS,
    count_unmapped,
    place_accents,
    strip_unmapped,
)
from docparse.backends.lines import blocks_from_lines, lines_from_spans
from docparse.backends.pdfminer_guard import guard_reference_cycles
from docparse.backends.pdfplumber_tables import table_regions
from docparse.backends.rotation import turned_blocks, upright_turn
from docparse.backends.tex_fonts import tex_math_chars
from docparse.errors import (
    CorruptDocumentError,
    MissingDependencyError,
    ParseTimeoutError,
    cause_text,
)
from docparse.model import BBox

log = logging.getLogger(__name__)

_BOLD_FONT = re.compile(r"bold|black|heavy|semibold|demi|cmbx|,b\b|-b\b", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class PdfplumberConfig(PdfConfig):
    """Options of the pdfplumber backend.

    ``table_strategy``: ``auto`` (default; see
    :data:`~docparse.backends.base.TableStrategy`), ``lines`` (ruled tables),
    ``text`` (whitespace-aligned tables), or ``lines_then_text``.
    ``table_settings``: extra pdfplumber ``table_settings`` entries
    (for example ``{"snap_tolerance": 4}``) applied on top of the strategy.
    ``min_table_cells``: smaller tables are ignored. ``x_tolerance_ratio``:
    a gap between two characters of a line wider than this fraction of the
    type size starts a new word (0.15: the fraction the shared line text
    reads as a space, :func:`~docparse.backends.lines.lines_from_spans`);
    ``None`` uses ``x_tolerance`` instead, a gap in points whatever the type
    size. ``y_tolerance``: how far apart (points) the tops of two characters
    of one line may be. All three are pdfplumber's word-building settings.
    """

    table_strategy: TableStrategy = "auto"
    table_settings: Mapping[str, Any] | None = None
    min_table_cells: int = 4
    x_tolerance: float = 1.5
    x_tolerance_ratio: float | None = 0.15
    y_tolerance: float = 3.0


def _bold(fontname: str) -> bool:
    return bool(_BOLD_FONT.search(fontname))


def _span(w: Mapping[str, Any]) -> TextSpan:
    return TextSpan(
        text=str(w["text"]),
        bbox=BBox(float(w["x0"]), float(w["top"]), float(w["x1"]), float(w["bottom"])),
        size=float(w.get("size", 0.0)),
        bold=_bold(str(w.get("fontname", ""))),
        font=str(w.get("fontname", "")),
    )


def page_words(
    chars: Sequence[dict[str, Any]],
    x_tolerance: float,
    y_tolerance: float,
    x_tolerance_ratio: float | None = None,
) -> list[dict[str, Any]]:
    """The words of a page's ``chars``, made by pdfplumber's word extractor, with their
    type size and font name.

    Where two characters of a line are apart by more than ``x_tolerance_ratio``
    times the type size of the first (``x_tolerance`` points when it is
    ``None``), a new word starts. A gap in points is a word space in small
    type and not in large: 1.5 pt glued the words of a 6 pt disclosure
    report (``ForestLaboratories,Inc.``, its spaces 1.2 pt wide).

    Two things a reader never sees split a word here, so they are undone
    before pdfplumber makes words: a space character drawn over a glyph
    (filings pad amounts with spaces, and one may start inside a digit:
    ``1 ,696`` for ``1,696``, :func:`without_overlaid_spaces`), and a change
    of font inside a word (a subset font holding one glyph: ``e q uity``).
    Words are still split where the type size changes (a subscript or a
    note mark set against its word); a word's font is that of its first
    character, as pdfplumber gives it.
    """
    from pdfplumber.utils.text import WordExtractor  # optional dependency: imported on use

    extractor = WordExtractor(
        x_tolerance=x_tolerance,
        y_tolerance=y_tolerance,
        x_tolerance_ratio=x_tolerance_ratio,
        extra_attrs=["size"],
    )
    words: list[dict[str, Any]] = []
    for word, word_chars in extractor.iter_extract_tuples(
        without_overlaid_spaces(with_placed_accents(tex_math_chars(chars)))
    ):
        word["fontname"] = word_chars[0]["fontname"]
        words.append(word)
    return words


def with_placed_accents(chars: Sequence[dict[str, Any]]) -> Sequence[dict[str, Any]]:
    """``chars`` with each of TeX's spacing accents merged into the letter
    drawn before or after it that it sits over (``F¨ullw¨orter`` reads
    ``Füllwörter``, see :func:`docparse.backends.glyphs.place_accents`).

    pdfplumber orders a line's characters by ``x0``, and an accent starts
    before or after its letter as their widths fall: the drawing order
    (pdfminer's) is where the accent's letter is next to it. A neighbour
    counts only when the two boxes share some height (an accent over a
    capital is raised, not on another line).
    """
    marks = [i for i, c in enumerate(chars) if c["text"] in ACCENT_CHARS]
    if not marks:
        return chars
    out: list[dict[str, Any] | None] = list(chars)
    for i in marks:
        accent = out[i]
        if accent is None or not accent["upright"]:
            continue
        top, bottom = float(accent["top"]), float(accent["bottom"])
        window = range(max(i - 1, 0), min(i + 2, len(out)))
        glyphs = []
        for k in window:
            c = out[k]
            if c is None or (k != i and not (c["top"] < bottom and top < c["bottom"])):
                glyphs.append(("", 0.0, 0.0))
            else:
                glyphs.append((str(c["text"]), float(c["x0"]), float(c["x1"])))
        texts = place_accents(glyphs)
        if texts is None:
            continue
        for k, (was, _, _), text in zip(window, glyphs, texts, strict=True):
            c = out[k]
            # Only what place_accents changed: a neighbour left out above
            # stands in the window as "" and is kept as it is.
            if c is not None and text != was:
                out[k] = {**c, "text": text} if text else None
    return [c for c in out if c is not None]


def without_overlaid_spaces(chars: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """``chars`` without the spaces that start inside a glyph of their line by more than
    half their width (a space drawn over a digit, wherever it comes in the drawing order)."""
    glyphs: dict[int, list[tuple[float, float, float]]] = {}
    for c in chars:
        if c["upright"] and not str(c["text"]).isspace():
            top = float(c["top"])
            glyphs.setdefault(int(top), []).append((float(c["x0"]), float(c["x1"]), top))
    for row in glyphs.values():
        row.sort()
    starts = {k: [g[0] for g in row] for k, row in glyphs.items()}

    def overlaid(c: dict[str, Any]) -> bool:
        x0, x1, top = float(c["x0"]), float(c["x1"]), float(c["top"])
        for k in (int(top) - 1, int(top), int(top) + 1):
            row = glyphs.get(k)
            if not row:
                continue
            i = bisect_right(starts[k], x0) - 1
            if i >= 0 and abs(row[i][2] - top) < 1 and row[i][1] - x0 > 0.5 * (x1 - x0):
                return True
        return False

    return [c for c in chars if not (c["upright"] and str(c["text"]).isspace() and overlaid(c))]


def lines_from_words(words: list[Mapping[str, Any]]) -> list[Line]:
    """pdfplumber words as visual lines (:func:`~docparse.backends.lines.lines_from_spans`)."""
    return lines_from_spans([_span(w) for w in words if str(w["text"]).strip()])


def char_directions(chars: Iterable[Mapping[str, Any]]) -> Iterator[tuple[float, float, int]]:
    """Each character's writing direction on the displayed page, y down
    (for :func:`~docparse.backends.rotation.upright_turn`)."""
    for c in chars:
        a, b = c["matrix"][:2]
        # pdfminer's matrices are in PDF space, y up.
        yield float(a), -float(b), 1


def turned_page(page: Any, turn: int) -> Any:
    """``page`` read again with ``turn`` degrees more of clockwise ``/Rotate``.

    The page dictionary is copied, so the document itself is not changed.
    """
    from pdfplumber.page import Page

    rotation = (int(page.rotation) + turn) % 360
    obj = copy.copy(page.page_obj)
    obj.attrs = dict(obj.attrs, Rotate=rotation)
    obj.rotate = rotation
    return Page(page.pdf, obj, page.page_number, page.initial_doctop)


def _time_limit_inside(exc: BaseException) -> ParseTimeoutError | None:
    """The ``parse(timeout=...)`` alarm that a library wrapped, if ``exc`` is one.

    The alarm raises :class:`ParseTimeoutError` wherever Python code runs;
    pdfplumber re-raises everything pdfminer raises as ``PdfminerException(e)``,
    so without this the backend's handlers would report a slow page as corrupt.
    """
    seen: set[int] = set()
    todo: list[BaseException] = [exc]
    while todo:
        e = todo.pop()
        if id(e) in seen:
            continue
        seen.add(id(e))
        if isinstance(e, ParseTimeoutError):
            return e
        todo.extend(a for a in e.args if isinstance(a, BaseException))
        todo.extend(x for x in (e.__cause__, e.__context__) if x is not None)
    return None


def _corrupt(path: Path, message: str, exc: BaseException) -> Exception:
    """A :class:`CorruptDocumentError`, or the time limit when that is what ``exc`` hides."""
    timeout = _time_limit_inside(exc)
    if timeout is not None:
        return timeout
    return CorruptDocumentError(path, message, cause=exc)


class PdfplumberBackend(PdfBackend):
    """PDF backend on pdfplumber: slower than PyMuPDF, pure Python, good tables."""

    name: ClassVar[str] = "pdfplumber"
    config_class: ClassVar[type[Any]] = PdfplumberConfig

    def iter_pages(self, path: Path, config: Any, info: PdfInfo) -> Iterator[PageContent]:
        try:
            import pdfplumber
            from pdfminer.pdfdocument import PDFPasswordIncorrect
            from pdfminer.pdfparser import PDFSyntaxError
        except ImportError as exc:  # pragma: no cover - core dependency
            raise MissingDependencyError("pdfplumber backend", "pip install pdfplumber") from exc
        from pdfplumber.utils.exceptions import MalformedPDFException, PdfminerException

        # pdfplumber builds its Page objects (boxes, rotation) from the raw page
        # dictionaries with no type checks: a malformed /MediaBox or /Rotate
        # raises TypeError/IndexError/ValueError there.
        page_tree_errors = (
            PdfminerException,
            MalformedPDFException,
            TypeError,
            IndexError,
            ValueError,
            KeyError,
            AttributeError,
        )
        guard_reference_cycles()
        try:
            pdf = pdfplumber.open(path, password=config.password or "")
        except PDFPasswordIncorrect as exc:
            raise encrypted_error(path, wrong_password=config.password is not None) from exc
        except (PDFSyntaxError, PdfminerException) as exc:
            raise _corrupt(
                path, f"{path} cannot be parsed as a PDF: {cause_text(exc, path)}", exc
            ) from exc
        try:
            # PyMuPDF (the preflight) repairs a broken xref table; pdfminer may
            # then see fewer pages, or none, of the same file.
            try:
                n_read = len(pdf.pages)
            except page_tree_errors as exc:
                raise _corrupt(
                    path,
                    f"the page objects cannot be read by pdfplumber: {type(exc).__name__}: {exc}",
                    exc,
                ) from exc
            if n_read < info.last:
                raise CorruptDocumentError(
                    path,
                    f"pdfminer reads {n_read} of its {info.n_pages} pages (damaged "
                    "cross-reference table?); backend='pymupdf' repairs such files",
                )
            for index in info.page_indices:
                page = pdf.pages[index]
                try:
                    yield self._page(page, index, config)
                except (PdfminerException, MalformedPDFException) as exc:
                    raise _corrupt(
                        path, f"page {index + 1} cannot be read by pdfminer: {exc}", exc
                    ) from exc
                finally:
                    page.close()
        except PdfminerException as exc:
            raise _corrupt(
                path, f"{path} cannot be parsed as a PDF: {cause_text(exc, path)}", exc
            ) from exc
        finally:
            try:
                pdf.close()
            except page_tree_errors as exc:
                # close() walks the page tree again and fails on the page that
                # was just reported; only the file handle is left to release.
                pdf.stream.close()
                timeout = _time_limit_inside(exc)
                if timeout is not None:
                    raise timeout from None

    def _page(self, page: Any, index: int, config: PdfplumberConfig) -> PageContent:
        turn = upright_turn(char_directions(page.chars))
        if not turn:
            return self._read(page, index, config)
        # Text set sideways is read on the page turned upright (see rotation.py).
        # What stays upright on the displayed page (a running head, the page
        # number) runs across the turned page's text: it is read here, as lines
        # of its own, and kept out of the lines and tables read turned.
        across = [w for w in self._words(page, config) if w["upright"]]
        kept = turned_blocks(
            blocks_from_lines(lines_from_words(across)), turn, page.width, page.height
        )
        upright = turned_page(page, turn)
        try:
            return self._read(upright, index, config, turn, kept)
        finally:
            upright.close()

    @staticmethod
    def _words(page: Any, config: PdfplumberConfig) -> list[Any]:
        """pdfplumber's words of ``page`` (:func:`page_words`)."""
        return page_words(
            page.chars, config.x_tolerance, config.y_tolerance, config.x_tolerance_ratio
        )

    def _read(
        self,
        page: Any,
        index: int,
        config: PdfplumberConfig,
        turn: int = 0,
        across: Sequence[Block] = (),
    ) -> PageContent:
        words = self._words(page, config)
        if turn:
            words = [w for w in words if w["upright"]]
        unmapped = sum(count_unmapped(str(w["text"])) for w in words)
        if unmapped:
            for w in words:
                w["text"] = strip_unmapped(str(w["text"]))
            words = [w for w in words if w["text"]]
        # One set of visual lines serves the blocks and the table finders.
        lines = lines_from_words(words)
        blocks = (*blocks_from_lines(lines), *across)
        tables: tuple[TableRegion, ...] = ()
        if config.tables and blocks:
            tables = table_regions(page, config, words, lines)
        images: tuple[BBox, ...] = ()
        if not blocks:
            images = tuple(
                BBox(float(i["x0"]), float(i["top"]), float(i["x1"]), float(i["bottom"]))
                for i in page.images
            )
        x0, top, x1, bottom = page.bbox
        return PageContent(
            number=index + 1,
            width=float(x1 - x0),
            height=float(bottom - top),
            # pdfminer applies /Rotate (turned too, for sideways text) to coordinates;
            # the assembly turns the boxes back to the displayed page.
            rotation=(360 - turn) % 360,
            blocks=blocks,
            tables=tables,
            images=images,
            unmapped_glyphs=unmapped,
        )
