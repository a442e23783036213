"""PyMuPDF's ruled-table finder run on inputs docparse has already read.

``page.find_tables`` spends most of its time not finding tables but making
its character list (``make_chars``): a ``rawdict`` text page of the clip,
then a ``Rect``, a ``Point`` and two matrix products per character, in
Python. For a ruled ("lines") search the characters answer two questions
only: does a cluster of drawn paths hold text (``chars_in_rect``), and does
a found table hold text (``cells_to_tables``). :func:`find_ruled_tables`
runs the same steps as ``find_tables`` (the same text page, the edges made
from the same paths by ``make_edges``, the same ``TableFinder``) with a
character list that holds just the fields those two tests read, computed
with plain arithmetic. The tables found are the same; their ``extract()``
and ``header`` are not for use (docparse reads cells from its own words).

Text strategies, the layout model and a PyMuPDF without these internals go
through ``page.find_tables`` itself (:func:`fast_path_available`).
"""

from __future__ import annotations

import logging
from typing import Any

from docparse.backends.base import load_pymupdf

_log = logging.getLogger(__name__)


def _table_module() -> Any:
    load_pymupdf()
    from pymupdf import table

    return table


_NEEDED = (
    "_CHARS_VAR",
    "_EDGES_VAR",
    "FLAGS",
    "UNSET",
    "TableSettings",
    "TableFinder",
    "make_edges",
    "white_spaces",
    "page_rotation_set0",
    "page_rotation_reset",
    "DEFAULT_SNAP_TOLERANCE",
    "DEFAULT_JOIN_TOLERANCE",
    "DEFAULT_MIN_WORDS_VERTICAL",
    "DEFAULT_MIN_WORDS_HORIZONTAL",
)


def fast_path_available() -> bool:
    """Whether the installed PyMuPDF has the table internals :func:`find_ruled_tables` runs."""
    try:
        table = _table_module()
    except ImportError:
        return False
    return all(hasattr(table, name) for name in _NEEDED)


def _settings(table: Any, strategy: str) -> dict[str, Any]:
    """``find_tables``' settings dict for ``strategy=...`` and every other argument default."""
    unset = table.UNSET
    return {
        "vertical_strategy": strategy,
        "horizontal_strategy": strategy,
        "explicit_vertical_lines": None,
        "explicit_horizontal_lines": None,
        "snap_tolerance": table.DEFAULT_SNAP_TOLERANCE,
        "snap_x_tolerance": unset,
        "snap_y_tolerance": unset,
        "join_tolerance": table.DEFAULT_JOIN_TOLERANCE,
        "join_x_tolerance": unset,
        "join_y_tolerance": unset,
        "edge_min_length": 3,
        "min_words_vertical": table.DEFAULT_MIN_WORDS_VERTICAL,
        "min_words_horizontal": table.DEFAULT_MIN_WORDS_HORIZONTAL,
        "intersection_tolerance": 3,
        "intersection_x_tolerance": unset,
        "intersection_y_tolerance": unset,
        "text_tolerance": 3,
        "text_x_tolerance": 3,
        "text_y_tolerance": 3,
    }


def text_chars(page: Any, textpage: Any) -> list[dict[str, Any]]:
    """The characters of ``textpage`` with the fields the ruled search reads.

    ``x0``/``x1``/``top``/``bottom``: the glyph box on the page; ``y0``/``y1``:
    the box through the page's transformation matrix (PDF space), as
    ``make_chars`` makes them; ``text``: the character. Spaces count, as in
    ``make_chars`` (a drawn box holding a space holds text for PyMuPDF); the
    printed characters are ``make_chars``' own, the spaces MuPDF adds between
    words may differ a little without ``TEXT_COLLECT_STYLES``.
    """
    _, b, _, d, _, f = page.transformation_matrix
    chars: list[dict[str, Any]] = []
    append = chars.append
    data = page.get_text("rawdict", textpage=textpage)
    for block in data["blocks"]:
        for line in block.get("lines", ()):
            for span in line["spans"]:
                for ch in span["chars"]:
                    x0, top, x1, bottom = ch["bbox"]
                    # The y extent of the transformed box (its four corners).
                    ys = [b * x0 + d * top, b * x1 + d * top, b * x0 + d * bottom]
                    ys.append(b * x1 + d * bottom)
                    append(
                        {
                            "x0": x0,
                            "x1": x1,
                            "top": top,
                            "bottom": bottom,
                            "y0": min(ys) + f,
                            "y1": max(ys) + f,
                            "text": ch["c"],
                        }
                    )
    return chars


def find_ruled_tables(
    page: Any, clip: Any, paths: list[dict[str, Any]], strategy: str
) -> list[Any]:
    """``page.find_tables(clip=clip, paths=paths, strategy=strategy, use_layout=False)``.

    ``strategy`` is ``lines`` or ``lines_strict``; ``paths`` are drawings in
    ``get_drawings()`` form (``make_edges`` edits them). Returns the found
    ``Table`` objects (cells, rows, bbox; see the module note on ``extract``).
    """
    pymupdf: Any = load_pymupdf()
    table = _table_module()
    tools = pymupdf.TOOLS
    table._CHARS_VAR.set([])
    table._EDGES_VAR.set([])
    # Glyph-tight boxes and no quad corrections, as find_tables reads the text.
    old_small = bool(tools.set_small_glyph_heights())
    tools.set_small_glyph_heights(True)
    old_quads = tools.unset_quad_corrections()
    # A rotated page is searched derotated, as find_tables does (its tables then come
    # in the displayed page's coordinates); find_tables would also work out each
    # table's header there, by reading every cell's text and rendering pixmaps.
    rotated = bool(page.rotation)
    if rotated:
        page, xref, rotation, mediabox = table.page_rotation_set0(page)
    try:
        tset = table.TableSettings.resolve(settings=_settings(table, strategy))
        page.table_settings = tset
        # Without TEXT_COLLECT_STYLES: it looks through every vector path for
        # strike-outs and underlines (0.4 s on a page of plot strokes) and changes
        # no character box.
        flags = table.FLAGS & ~pymupdf.TEXT_COLLECT_STYLES
        textpage = page.get_textpage(clip=clip, flags=flags)
        table._CHARS_VAR.set(text_chars(page, textpage))
        table.make_edges(page, clip=clip, tset=tset, paths=paths)
        finder = table.TableFinder(page, settings=tset)
        return list(finder.tables)
    except Exception as exc:  # noqa: BLE001 - find_tables' own contract: no table, a message
        _log.warning("page %s: ruled table search failed: %s", page.number + 1, exc)
        return []
    finally:
        if rotated:
            table.page_rotation_reset(page, xref, rotation, mediabox)
        tools.set_small_glyph_heights(old_small)
        tools.unset_quad_corrections(old_quads)
