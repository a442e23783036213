"""PDF backend on pdfplumber (pdfminer.six): words with font attributes and tables.

pdfplumber gives words, not blocks, so this module groups words into lines
(splitting a line at a gap wider than a column gutter) and lines into blocks
(vertically adjacent, horizontally overlapping, same font size) before the
shared assembly. Each page is closed after use so its cached layout objects
are freed and memory does not grow with the page count.
"""

from __future__ import annotations

import copy
import itertools
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
from docparse.backends.glyphs import count_unmapped, strip_unmapped
from docparse.backends.lines import blocks_from_lines, lines_from_spans
from docparse.backends.pdfminer_guard import guard_reference_cycles
from docparse.backends.rotation import turned_blocks, upright_turn
from docparse.backends.table_candidates import (
    PageInputs,
    ruled_clusters,
)
from docparse.backends.table_checks import plausible_table, prose_table, rich_table, text_line_count
from docparse.backends.table_combine import (
    SIDE_SLACK,
    grow_headers,
    join_cut_grids,
    join_strips,
    with_extra_tables,
)
from docparse.backends.table_grid import merge_symbol_cells
from docparse.backends.table_lists import keyed_list_tables
from docparse.backends.table_open_grid import with_open_grids
from docparse.backends.table_reading import RegionGrid, region_grids, shading_columns
from docparse.backends.table_regions import (
    TABLE_MARGIN,
    TextLine,
    banded_regions,
    caption_regions,
    is_rule,
    open_sides,
    rule_bounded_regions,
)
from docparse.backends.table_repair import (
    column_starts,
    prefer_fuller_grids,
    split_stacked_rows,
    spread_merged_cells,
)
from docparse.backends.table_whitespace import numeric_tables_beyond, whitespace_regions
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
        without_overlaid_spaces(tex_math_chars(chars))
    ):
        word["fontname"] = word_chars[0]["fontname"]
        words.append(word)
    return words


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
    starts = column_starts(boxes)
    for ri, row in enumerate(boxes):
        cells = [bucket.get((ri, ci), []) for ci in range(len(row))]
        spread = spread_merged_cells(cells, row, starts, _word_x)
        for part in split_stacked_rows(spread, _word_key):
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


def _word_x(w: Mapping[str, Any]) -> tuple[float, float, float]:
    return float(w["x0"]), float(w["x1"]), float(w["bottom"]) - float(w["top"])


def _grids(
    page: Any,
    config: PdfplumberConfig,
    settings: dict[str, Any],
    words: list[Mapping[str, Any]],
    clip: tuple[float, float, float, float] | None = None,
) -> list[TableRegion]:
    regions: list[TableRegion] = []
    x0, top, x1, bottom = page.bbox
    margin = TABLE_MARGIN * (bottom - top)
    box = (x0, top + margin, x1, bottom - margin)
    if clip is not None:
        box = (
            max(box[0], clip[0]),
            max(box[1], clip[1]),
            min(box[2], clip[2]),
            min(box[3], clip[3]),
        )
        if box[2] <= box[0] or box[3] <= box[1]:
            return []
    area = page.crop(box, relative=False, strict=False)
    for t in area.find_tables(table_settings=_settings(config, settings)):
        cells = merge_symbol_cells([[_clean(c) for c in row] for row in _cell_texts(t, words)])
        rows = tuple(tuple(r) for r in cells)
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


def page_inputs(
    page: Any, words: list[Mapping[str, Any]], lines: Sequence[Line] | None = None
) -> PageInputs:
    """The page's table inputs as plain tuples, made once (see :class:`PageInputs`).

    ``lines``: the page's visual lines when the caller has them already
    (:func:`lines_from_words` of ``words``), so they are not built twice.
    """
    # The edges pdfplumber's own ruled strategy reads (rects, lines and curves).
    segments = [
        (float(e["x0"]), float(e["top"]), float(e["x1"]), float(e["bottom"])) for e in page.edges
    ]
    fills = [
        (float(o["x0"]), float(o["top"]), float(o["x1"]), float(o["bottom"]))
        for o in page.rects
        if o.get("fill")
    ]
    return PageInputs(
        width=float(page.width),
        height=float(page.height),
        words=tuple(
            (float(w["x0"]), float(w["top"]), float(w["x1"]), float(w["bottom"]), str(w["text"]))
            for w in words
        ),
        lines=tuple(_text_lines(lines_from_words(words) if lines is None else lines)),
        segments=tuple(segments),
        fills=tuple(fills),
    )


def table_regions(
    page: Any,
    config: PdfplumberConfig,
    words: list[Mapping[str, Any]],
    visual_lines: Sequence[Line] | None = None,
) -> tuple[TableRegion, ...]:
    """Tables of a pdfplumber page with the configured strategy.

    The page's inputs are made once (:func:`page_inputs`); ruled tables are
    searched only where rules cross and whitespace tables where rows of
    numbers are (see :mod:`~docparse.backends.table_candidates`).
    Zebra-striped tables found strip by strip are read again as one table
    (:func:`~docparse.backends.table_regions.banded_regions`); booktabs-style tables
    (horizontal rules only) and caption-anchored ones come on top, from
    :func:`ruled_off_tables` and :func:`caption_regions`, and keyed lists (an
    exhibit index, :func:`keyed_list_tables`), where no other table overlaps
    them. ``visual_lines``: the page's lines when the caller has made them.
    """
    inputs = page_inputs(page, words, visual_lines)
    found = list(_strategy_regions(page, config, words, inputs))
    if config.table_strategy == "text":
        return tuple(found)
    lines = list(inputs.lines)
    found = _join_bands(found, inputs)
    found = with_extra_tables(found, ruled_off_tables(page, inputs), _box, lambda t: t.rows)
    extra = [
        *_as_regions(
            g
            for clip in caption_regions(lines, inputs.width)
            for g in region_grids(inputs.words, clip, lines=inputs.lines)
        ),
        *_as_regions(
            keyed_list_tables(
                inputs.words, TABLE_MARGIN * inputs.height, (1 - TABLE_MARGIN) * inputs.height
            )
        ),
    ]
    return tuple(with_extra_tables(found, extra, _box, lambda t: t.rows, replace=False))


def _as_regions(grids: Iterable[RegionGrid]) -> list[TableRegion]:
    out: list[TableRegion] = []
    for box, rows in grids:
        width = max(len(r) for r in rows)
        grid = tuple(tuple(r) + ("",) * (width - len(r)) for r in rows)
        x0, y0, x1, y1 = (float(v) for v in box)
        out.append(TableRegion(BBox(x0, y0, x1, y1), grid))
    return out


def _text_lines(lines: Iterable[Line]) -> list[TextLine]:
    return [((ln.bbox.x0, ln.bbox.y0, ln.bbox.x1, ln.bbox.y1), ln.text) for ln in lines]


def _join_bands(found: list[TableRegion], inputs: PageInputs) -> list[TableRegion]:
    regions = banded_regions([_box(t) for t in found], inputs.lines)
    if not regions:
        return found
    return join_strips(
        found,
        regions,
        lambda clip: _as_regions(
            region_grids(
                inputs.words, clip, shading_columns(inputs.fills, clip), lines=inputs.lines
            )
        ),
        lambda t: (t.bbox.y0, t.bbox.x0),
    )


def _overlaps(a: BBox, b: BBox) -> bool:
    return a.x0 < b.x1 and b.x0 < a.x1 and a.y0 < b.y1 and b.y0 < a.y1


def ruled_off_tables(page: Any, inputs: PageInputs) -> list[TableRegion]:
    """Tables bounded by horizontal rules only (LaTeX booktabs), see :func:`rule_bounded_regions`,
    and tables ruled inside with no frame (:func:`with_open_grids`).

    Each region is read from its words (:func:`region_grids`).
    """
    rules = [
        (float(o["x0"]), float(o["top"] + o["bottom"]) / 2, float(o["x1"]))
        for o in itertools.chain(page.rects, page.lines)
        if is_rule(o["x0"], o["top"], o["x1"], o["bottom"])
    ]
    bounded = rule_bounded_regions(rules, inputs.lines, inputs.height) if len(rules) > 1 else []
    return _as_regions(
        g
        for clip, breaks in with_open_grids(bounded, inputs.segments, inputs.words)
        for g in region_grids(inputs.words, clip, lines=inputs.lines, breaks=breaks)
    )


def _strategy_regions(
    page: Any, config: PdfplumberConfig, words: list[Mapping[str, Any]], inputs: PageInputs
) -> tuple[TableRegion, ...]:
    strategy = config.table_strategy
    if strategy == "text":
        return tuple(_grids(page, config, _TEXT, words))
    clusters = ruled_clusters(inputs.segments, inputs.words)
    found = [t for clip in clusters for t in _grids(page, config, _LINES, words, clip)]
    if found:
        found = _prefer_strict(page, config, words, found)
        found = _close_open_sides(page, config, words, found)
        if strategy == "auto":
            found = _as_regions(
                join_cut_grids(
                    grow_headers([(_box(t), [list(r) for r in t.rows]) for t in found], inputs),
                    inputs,
                )
            )
    boxes = [(w["x0"], w["top"], w["x1"], w["bottom"]) for w in words]
    if strategy == "lines":
        return tuple(found)
    if any(rich_table(t.rows, text_line_count(_box(t), boxes)) for t in found):
        # A statement ruled in part: its unruled rows are read from the words.
        beyond = _as_regions(numeric_tables_beyond([_box(t) for t in found], inputs, clusters))
        return tuple(
            with_extra_tables(found, beyond, _box, lambda t: t.rows, side_slack=SIDE_SLACK)
        )
    if strategy == "lines_then_text":
        return tuple(found or _grids(page, config, _TEXT, words))
    # auto: tables read from the words where rows of numbers are.
    alt = _as_regions(whitespace_regions(inputs, clusters, lumped=bool(found)))
    if alt:
        kept = [t for t in found if not any(_overlaps(t.bbox, a.bbox) for a in alt)]
        return tuple(sorted([*kept, *alt], key=lambda t: (t.bbox.y0, t.bbox.x0)))
    return tuple(found)


def _plausible_grids(
    page: Any,
    config: PdfplumberConfig,
    settings: dict[str, Any],
    words: list[Mapping[str, Any]],
    clip: tuple[float, float, float, float] | None = None,
) -> list[TableRegion]:
    height = float(page.height) or 1.0
    return [
        t
        for t in _grids(page, config, settings, words, clip)
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
    :func:`~docparse.backends.table_regions.open_sides` finds the table going on
    beyond it, the mixed strategy with those sides closed reads the whole
    table. Its grid replaces a ruled grid it contains when it holds more
    non-empty cells.
    """
    settings = _sided(page, words)
    if "explicit_vertical_lines" not in settings:
        return found
    # Only the band of the ruled grids, across the page: the open sides are beside them.
    band = (
        float(page.bbox[0]),
        min(t.bbox.y0 for t in found) - 2,
        float(page.bbox[2]),
        max(t.bbox.y1 for t in found) + 2,
    )
    alt = _plausible_grids(page, config, settings, words, band)
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
    backgrounds included; see :func:`~docparse.backends.table_repair.prefer_fuller_grids`.
    """
    thin = [
        o
        for o in itertools.chain(page.lines, page.rects)
        if o["object_type"] == "line"
        or o.get("stroke")
        or min(float(o["width"]), float(o["height"])) <= _THIN
    ]
    # Without cell backgrounds the strict reading is the same grid.
    backgrounds = any(
        o.get("fill") and min(float(o["width"]), float(o["height"])) > _THIN for o in page.rects
    )
    if len(thin) < 4 or not backgrounds:
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
