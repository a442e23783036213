"""pdfplumber's tables for the pdfplumber backend: its table finder run on docparse's words.

pdfplumber's ``find_tables`` draws the ruled grids (with the strategy the
configuration names); their cells are filled from the page's words, not from
``Table.extract`` (:func:`table_regions`). Tables no rule bounds (rows of
numbers, booktabs-style rules, captions, keyed lists) come from the shared
finders, which read the same words (see :mod:`~docparse.backends.table_candidates`).
The backend (:mod:`~docparse.backends.pdfplumber`) makes the words and the
visual lines once per page and hands them here.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol

from docparse.backends.base import Line, TableRegion, TableStrategy
from docparse.backends.table_candidates import (
    PageInputs,
    ruled_clusters,
)
from docparse.backends.table_checks import plausible_table, prose_table, rich_table, text_line_count
from docparse.backends.table_combine import (
    SIDE_SLACK,
    finish_tables,
    grow_headers,
    join_cut_grids,
    with_extra_tables,
)
from docparse.backends.table_grid import merge_symbol_cells
from docparse.backends.table_reading import (
    as_regions,
    region_box,
)
from docparse.backends.table_regions import (
    TABLE_MARGIN,
    TextLine,
    is_rule,
    open_sides,
)
from docparse.backends.table_repair import (
    column_starts,
    prefer_fuller_grids,
    split_stacked_rows,
    spread_merged_cells,
)
from docparse.backends.table_whitespace import numeric_tables_beyond, whitespace_regions
from docparse.model import BBox


class TableOptions(Protocol):
    """The table options of :class:`~docparse.backends.pdfplumber.PdfplumberConfig`
    (see there); a protocol, so this module does not import the backend's."""

    @property
    def table_strategy(self) -> TableStrategy: ...

    @property
    def table_settings(self) -> Mapping[str, Any] | None: ...

    @property
    def min_table_cells(self) -> int: ...


def _settings(config: TableOptions, strategy: dict[str, str]) -> dict[str, Any]:
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
    config: TableOptions,
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


def page_inputs(page: Any, words: list[Mapping[str, Any]], lines: Sequence[Line]) -> PageInputs:
    """The page's table inputs as plain tuples, made once (see :class:`PageInputs`).

    ``lines``: the page's visual lines (the backend's ``lines_from_words`` of
    ``words``, made once for its blocks and its tables).
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
        lines=tuple(_text_lines(lines)),
        segments=tuple(segments),
        fills=tuple(fills),
    )


def table_regions(
    page: Any,
    config: TableOptions,
    words: list[Mapping[str, Any]],
    visual_lines: Sequence[Line],
) -> tuple[TableRegion, ...]:
    """Tables of a pdfplumber page with the configured strategy.

    The page's inputs are made once (:func:`page_inputs`); ruled tables are
    searched only where rules cross and whitespace tables where rows of
    numbers are (see :mod:`~docparse.backends.table_candidates`).
    Zebra-striped tables found strip by strip are read again as one table
    (:func:`~docparse.backends.table_regions.banded_regions`); booktabs-style tables
    (horizontal rules only) and caption-anchored ones come on top, and keyed
    lists (an exhibit index) where no other table overlaps them
    (:func:`~docparse.backends.table_combine.finish_tables`). ``visual_lines``:
    the page's visual lines (:func:`page_inputs`).
    """
    inputs = page_inputs(page, words, visual_lines)
    found = list(_strategy_regions(page, config, words, inputs))
    if config.table_strategy == "text":
        return tuple(found)
    return finish_tables(found, inputs, _page_rules(page))


def _text_lines(lines: Iterable[Line]) -> list[TextLine]:
    return [((ln.bbox.x0, ln.bbox.y0, ln.bbox.x1, ln.bbox.y1), ln.text) for ln in lines]


def _overlaps(a: BBox, b: BBox) -> bool:
    return a.x0 < b.x1 and b.x0 < a.x1 and a.y0 < b.y1 and b.y0 < a.y1


def _page_rules(page: Any) -> list[tuple[float, float, float]]:
    """The page's horizontal rules ``(x0, y, x1)`` among its rectangles and lines."""
    return [
        (float(o["x0"]), float(o["top"] + o["bottom"]) / 2, float(o["x1"]))
        for o in itertools.chain(page.rects, page.lines)
        if is_rule(o["x0"], o["top"], o["x1"], o["bottom"])
    ]


def _strategy_regions(
    page: Any, config: TableOptions, words: list[Mapping[str, Any]], inputs: PageInputs
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
            found = as_regions(
                join_cut_grids(
                    grow_headers(
                        [(region_box(t), [list(r) for r in t.rows]) for t in found], inputs
                    ),
                    inputs,
                )
            )
    boxes = [(w["x0"], w["top"], w["x1"], w["bottom"]) for w in words]
    if strategy == "lines":
        return tuple(found)
    if any(rich_table(t.rows, text_line_count(region_box(t), boxes)) for t in found):
        # A statement ruled in part: its unruled rows are read from the words.
        beyond = as_regions(numeric_tables_beyond([region_box(t) for t in found], inputs, clusters))
        return tuple(
            with_extra_tables(found, beyond, region_box, lambda t: t.rows, side_slack=SIDE_SLACK)
        )
    if strategy == "lines_then_text":
        return tuple(found or _grids(page, config, _TEXT, words))
    # auto: tables read from the words where rows of numbers are.
    alt = as_regions(whitespace_regions(inputs, clusters, lumped=bool(found)))
    if alt:
        kept = [t for t in found if not any(_overlaps(t.bbox, a.bbox) for a in alt)]
        return tuple(sorted([*kept, *alt], key=lambda t: (t.bbox.y0, t.bbox.x0)))
    return tuple(found)


def _plausible_grids(
    page: Any,
    config: TableOptions,
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
    page: Any, config: TableOptions, words: list[Mapping[str, Any]], found: list[TableRegion]
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
    page: Any, config: TableOptions, words: list[Mapping[str, Any]], found: list[TableRegion]
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
        [(region_box(t), t.rows) for t in found], [(region_box(t), t.rows) for t in alt]
    )
    return [t if i is None else alt[i] for t, i in zip(found, choice, strict=True)]


#: Rectangles thinner than this (points) are drawn rules, not cell backgrounds.
_THIN = 2.0
