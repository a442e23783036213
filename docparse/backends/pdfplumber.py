"""PDF backend on pdfplumber (pdfminer.six): words with font attributes and tables.

pdfplumber gives words, not blocks, so this module groups words into lines
(splitting a line at a gap wider than a column gutter) and lines into blocks
(vertically adjacent, horizontally overlapping, same font size) before the
shared assembly. Each page is closed after use so its cached layout objects
are freed and memory does not grow with the page count.
"""

from __future__ import annotations

import itertools
import logging
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from docparse.backends.base import (
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
from docparse.backends.lines import blocks_from_lines, lines_from_spans
from docparse.backends.pdfminer_guard import guard_reference_cycles
from docparse.backends.tables import (
    TABLE_MARGIN,
    TextLine,
    banded_regions,
    caption_regions,
    column_edges,
    columns_within,
    grid_fill,
    is_rule,
    join_strips,
    numeric_fraction,
    open_sides,
    plausible_table,
    prefer_fuller_grids,
    prose_table,
    rich_table,
    rule_bounded_regions,
    ruled_off_plausible,
    shading_columns,
    split_stacked_rows,
    text_line_count,
)
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
    ``min_table_cells``: smaller tables are ignored. ``x_tolerance`` /
    ``y_tolerance``: pdfplumber's word-building tolerances.
    """

    table_strategy: TableStrategy = "auto"
    table_settings: Mapping[str, Any] | None = None
    min_table_cells: int = 4
    x_tolerance: float = 1.5
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


def lines_from_words(words: list[Mapping[str, Any]]) -> list[Line]:
    """pdfplumber words as visual lines (:func:`~docparse.backends.lines.lines_from_spans`)."""
    return lines_from_spans([_span(w) for w in words if str(w["text"]).strip()])


def _settings(config: PdfplumberConfig, strategy: dict[str, str]) -> dict[str, Any]:
    s: dict[str, Any] = dict(strategy)
    if config.table_settings:
        s.update(config.table_settings)
    return s


def _clean(c: Any) -> str:
    return " ".join(str(c).split()) if c is not None else ""


def _join_words(ws: list[Mapping[str, Any]]) -> str:
    """Words in reading order; no space where extra_attrs split a word (``CO`` ``2``)."""
    text = ""
    prev: Mapping[str, Any] | None = None
    for w in ws:
        if prev is None:
            text = str(w["text"])
        else:
            same_line = abs(float(w["top"]) - float(prev["top"])) < 3
            touching = float(w["x0"]) - float(prev["x1"]) < 0.5
            text += ("" if same_line and touching else " ") + str(w["text"])
        prev = w
    return text


def _cell_texts(t: Any, words: list[Mapping[str, Any]]) -> list[list[str]]:
    """Cell strings rebuilt from the page's words.

    ``Table.extract`` concatenates characters and loses the spaces of PDFs
    that position words instead of printing space characters; words are
    assigned to the cell holding their centre instead.
    """
    boxes = [list(r.cells) for r in t.rows]
    bucket: dict[tuple[int, int], list[Mapping[str, Any]]] = {}
    for w in words:
        cx = (float(w["x0"]) + float(w["x1"])) / 2
        cy = (float(w["top"]) + float(w["bottom"])) / 2
        placed = False
        for ri, row in enumerate(boxes):
            for ci, cell in enumerate(row):
                if cell is not None and cell[0] <= cx <= cell[2] and cell[1] <= cy <= cell[3]:
                    bucket.setdefault((ri, ci), []).append(w)
                    placed = True
                    break
            if placed:
                break
    grid: list[list[str]] = []
    for ri, row in enumerate(boxes):
        cells = [bucket.get((ri, ci), []) for ci in range(len(row))]
        for part in split_stacked_rows(cells, _word_key):
            grid.append(
                [
                    _join_words(
                        sorted(ws or [], key=lambda w: (round(float(w["top"]) / 3), w["x0"]))
                    )
                    for ws in part
                ]
            )
    return grid


def _word_key(w: Mapping[str, Any]) -> tuple[float, float, str]:
    return float(w["top"]), float(w["bottom"]), str(w["text"])


def _grids(
    page: Any, config: PdfplumberConfig, settings: dict[str, Any], words: list[Mapping[str, Any]]
) -> list[TableRegion]:
    regions: list[TableRegion] = []
    x0, top, x1, bottom = page.bbox
    margin = TABLE_MARGIN * (bottom - top)
    area = page.crop((x0, top + margin, x1, bottom - margin), relative=False, strict=False)
    for t in area.find_tables(table_settings=_settings(config, settings)):
        rows = tuple(tuple(_clean(c) for c in row) for row in _cell_texts(t, words))
        if sum(1 for r in rows for c in r if c) < config.min_table_cells or prose_table(rows):
            continue
        width = max((len(r) for r in rows), default=0)
        rows = tuple(r + ("",) * (width - len(r)) for r in rows)
        x0, top, x1, bottom = t.bbox
        regions.append(TableRegion(BBox(float(x0), float(top), float(x1), float(bottom)), rows))
    return regions


_LINES = {"vertical_strategy": "lines", "horizontal_strategy": "lines"}
_TEXT = {"vertical_strategy": "text", "horizontal_strategy": "text"}
_MIXED = {"vertical_strategy": "lines", "horizontal_strategy": "text"}


def table_regions(
    page: Any, config: PdfplumberConfig, words: list[Mapping[str, Any]]
) -> tuple[TableRegion, ...]:
    """Tables of a pdfplumber page with the configured strategy.

    Zebra-striped tables found strip by strip are read again as one table
    (:func:`~docparse.backends.tables.banded_regions`); booktabs-style tables
    (horizontal rules only) come on top, from :func:`ruled_off_tables`, where
    no other table overlaps them.
    """
    found = list(_strategy_regions(page, config, words))
    if config.table_strategy == "text":
        return tuple(found)
    # The page's text lines, made once for the three region finders below.
    lines = _text_lines(words)
    found = _join_bands(page, config, found, words, lines)
    extra = [
        *ruled_off_tables(page, config, words, lines),
        *_captioned_tables(page, config, words, lines),
    ]
    for t in extra:
        if not any(_overlaps(t.bbox, f.bbox) for f in found):
            found.append(t)
    return tuple(found)


def _captioned_tables(
    page: Any, config: PdfplumberConfig, words: list[Mapping[str, Any]], lines: list[TextLine]
) -> list[TableRegion]:
    """Tables with no lines at all, found next to their caption (:func:`caption_regions`)."""
    out: list[TableRegion] = []
    for clip in caption_regions(lines, float(page.width)):
        out.extend(_region_tables(page, config, clip, words))
    return out


def _text_lines(words: list[Mapping[str, Any]]) -> list[TextLine]:
    return [
        ((ln.bbox.x0, ln.bbox.y0, ln.bbox.x1, ln.bbox.y1), ln.text)
        for ln in lines_from_words(words)
    ]


def _join_bands(
    page: Any,
    config: PdfplumberConfig,
    found: list[TableRegion],
    words: list[Mapping[str, Any]],
    lines: list[TextLine],
) -> list[TableRegion]:
    regions = banded_regions([_box(t) for t in found], lines)
    if not regions:
        return found
    fills = [(r["x0"], r["top"], r["x1"], r["bottom"]) for r in page.rects if r.get("fill")]
    return join_strips(
        found,
        regions,
        lambda clip: _region_tables(page, config, clip, words, shading_columns(fills, clip)),
        lambda t: (t.bbox.y0, t.bbox.x0),
    )


def _overlaps(a: BBox, b: BBox) -> bool:
    return a.x0 < b.x1 and b.x0 < a.x1 and a.y0 < b.y1 and b.y0 < a.y1


def ruled_off_tables(
    page: Any, config: PdfplumberConfig, words: list[Mapping[str, Any]], lines: list[TextLine]
) -> list[TableRegion]:
    """Tables bounded by horizontal rules only (LaTeX booktabs), see :func:`rule_bounded_regions`.

    Each region is read by :func:`_region_tables`.
    """
    rules = [
        (float(o["x0"]), float(o["top"] + o["bottom"]) / 2, float(o["x1"]))
        for o in itertools.chain(page.rects, page.lines)
        if is_rule(o["x0"], o["top"], o["x1"], o["bottom"])
    ]
    if len(rules) < 2:
        return []
    out: list[TableRegion] = []
    for clip in rule_bounded_regions(rules, lines, float(page.height)):
        out.extend(_region_tables(page, config, clip, words))
    return out


def _region_tables(
    page: Any,
    config: PdfplumberConfig,
    clip: tuple[float, float, float, float],
    words: list[Mapping[str, Any]],
    columns: list[float] | None = None,
) -> list[TableRegion]:
    """The table in a region known to hold one: the same reading as the PyMuPDF
    backend's ``_region_grids``, with pdfplumber's explicit lines and crop."""
    area = page.crop(clip, relative=False, strict=False)
    text = _settings(config, _TEXT)
    text.update(min_words_vertical=2, min_words_horizontal=1)
    boxes = [
        (w["x0"], w["top"], w["x1"], w["bottom"])
        for w in words
        if clip[1] <= (w["top"] + w["bottom"]) / 2 <= clip[3]
    ]
    if columns:
        columns = columns_within(columns, boxes)
        if len(columns) >= 3:
            explicit = dict(text, vertical_strategy="explicit", explicit_vertical_lines=columns)
            return _clip_regions(area, explicit, words)
    choices = [_clip_regions(area, text, words)]
    edges = column_edges(boxes, clip)
    if len(edges) >= 3:
        explicit = dict(text, vertical_strategy="explicit", explicit_vertical_lines=edges)
        choices.append(_clip_regions(area, explicit, words))
    return max(choices, key=lambda c: grid_fill((t.bbox, t.rows) for t in c))


def _clip_regions(
    area: Any, settings: dict[str, Any], words: list[Mapping[str, Any]]
) -> list[TableRegion]:
    out: list[TableRegion] = []
    for t in area.find_tables(table_settings=settings):
        rows = [tuple(_clean(c) for c in row) for row in _cell_texts(t, words)]
        # The text strategy leaves an empty row between two spaced text lines.
        rows = [r for r in rows if any(r)]
        if not ruled_off_plausible(rows):
            continue
        width = max(len(r) for r in rows)
        grid = tuple(r + ("",) * (width - len(r)) for r in rows)
        x0, top, x1, bottom = t.bbox
        out.append(TableRegion(BBox(float(x0), float(top), float(x1), float(bottom)), grid))
    return out


def _strategy_regions(
    page: Any, config: PdfplumberConfig, words: list[Mapping[str, Any]]
) -> tuple[TableRegion, ...]:
    strategy = config.table_strategy
    if strategy == "text":
        return tuple(_grids(page, config, _TEXT, words))
    found = _grids(page, config, _LINES, words)
    if found:
        found = _prefer_strict(page, config, words, found)
        found = _close_open_sides(page, config, words, found)
    boxes = [(w["x0"], w["top"], w["x1"], w["bottom"]) for w in words]
    if strategy == "lines" or any(
        rich_table(t.rows, text_line_count((t.bbox.x0, t.bbox.y0, t.bbox.x1, t.bbox.y1), boxes))
        for t in found
    ):
        return tuple(found)
    if strategy == "lines_then_text":
        return tuple(found or _grids(page, config, _TEXT, words))
    if not found and numeric_fraction(str(w["text"]) for w in words) < 0.15:
        return tuple(found)
    for settings in (_MIXED, _TEXT):
        alt = _plausible_grids(page, config, settings, words)
        if alt:
            return tuple(alt)
    return tuple(found)


def _plausible_grids(
    page: Any, config: PdfplumberConfig, settings: dict[str, Any], words: list[Mapping[str, Any]]
) -> list[TableRegion]:
    height = float(page.height) or 1.0
    return [
        t
        for t in _grids(page, config, settings, words)
        if plausible_table(t.rows, (t.bbox.y1 - t.bbox.y0) / height)
    ]


def _sided(page: Any, words: list[Mapping[str, Any]]) -> dict[str, Any]:
    """Ruled columns, text-aligned rows, and the open sides of the ruled columns closed."""
    rules = [
        (float(e["x0"]), float(e["top"]), float(e["bottom"]))
        for e in page.edges
        if e["orientation"] == "v"
    ]
    boxes = [(w["x0"], w["top"], w["x1"], w["bottom"]) for w in words]
    sides = [
        {
            "object_type": "line_edge",
            "orientation": "v",
            "x0": x,
            "x1": x,
            "top": t,
            "bottom": b,
            "width": 0.0,
            "height": b - t,
        }
        for x, t, b in open_sides(rules, boxes)
    ]
    return dict(_MIXED, explicit_vertical_lines=sides) if sides else dict(_MIXED)


def _close_open_sides(
    page: Any, config: PdfplumberConfig, words: list[Mapping[str, Any]], found: list[TableRegion]
) -> list[TableRegion]:
    """Ruled grids that leave out an unruled stub or last column, read again with them.

    The ``lines`` strategy stops at the outermost drawn rule; where
    :func:`~docparse.backends.tables.open_sides` finds the table going on
    beyond it, the mixed strategy with those sides closed reads the whole
    table. Its grid replaces a ruled grid it contains when it holds more
    non-empty cells.
    """
    settings = _sided(page, words)
    if "explicit_vertical_lines" not in settings:
        return found
    alt = _plausible_grids(page, config, settings, words)
    out: list[TableRegion] = []
    for t in found:
        better = [
            a
            for a in alt
            if a.bbox.x0 <= t.bbox.x0 + 2
            and a.bbox.x1 >= t.bbox.x1 - 2
            # Text rows start at the words, ruled rows at the rule above them.
            and min(a.bbox.y1, t.bbox.y1) - max(a.bbox.y0, t.bbox.y0) >= 0.9 * t.bbox.height
            and _filled(a.rows) > _filled(t.rows)
        ]
        out.append(max(better, key=lambda a: _filled(a.rows)) if better else t)
    return out


def _filled(rows: Sequence[Sequence[str]]) -> int:
    return sum(1 for r in rows for c in r if c.strip())


def _prefer_strict(
    page: Any, config: PdfplumberConfig, words: list[Mapping[str, Any]], found: list[TableRegion]
) -> list[TableRegion]:
    """Ruled grids re-read from strokes and thin rules only, where that reads them better.

    pdfplumber's ``lines`` strategy takes the edges of every rectangle, cell
    backgrounds included; see :func:`~docparse.backends.tables.prefer_fuller_grids`.
    """
    thin = [
        o
        for o in itertools.chain(page.lines, page.rects)
        if o["object_type"] == "line"
        or o.get("stroke")
        or min(float(o["width"]), float(o["height"])) <= _THIN
    ]
    if len(thin) < 4:
        return found
    strict = dict(
        vertical_strategy="explicit",
        horizontal_strategy="explicit",
        explicit_vertical_lines=thin,
        explicit_horizontal_lines=thin,
    )
    try:
        alt = _grids(page, config, strict, words)
    except ValueError:  # fewer than two lines of one orientation
        return found
    choice = prefer_fuller_grids(
        [(_box(t), t.rows) for t in found], [(_box(t), t.rows) for t in alt]
    )
    return [t if i is None else alt[i] for t, i in zip(found, choice, strict=True)]


def _box(t: TableRegion) -> tuple[float, float, float, float]:
    return (t.bbox.x0, t.bbox.y0, t.bbox.x1, t.bbox.y1)


#: Rectangles thinner than this (points) are drawn rules, not cell backgrounds.
_THIN = 2.0


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
        words = page.extract_words(
            x_tolerance=config.x_tolerance,
            y_tolerance=config.y_tolerance,
            extra_attrs=["size", "fontname"],
        )
        blocks = blocks_from_lines(lines_from_words(words))
        tables: tuple[TableRegion, ...] = ()
        if config.tables and blocks:
            tables = table_regions(page, config, words)
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
            rotation=0,  # pdfminer already applies /Rotate to coordinates
            blocks=blocks,
            tables=tables,
            images=images,
        )
