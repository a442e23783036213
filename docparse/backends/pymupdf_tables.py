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

``chars_in_rect`` itself scans every character of the page for each joined
box of paths (a page of ~100 boxes and ~7,000 characters: a second). The
list docparse hands over is a :class:`CharList`, which keeps the character
boxes sorted by ``y0``; while it is the current character list, PyMuPDF's
``chars_in_rect`` answers from it by bisection (:func:`install_indexed_check`),
with the same comparisons, so the answer is the same.

Text strategies, the layout model and a PyMuPDF without these internals go
through ``page.find_tables`` itself (:func:`fast_path_available`).
"""

from __future__ import annotations

import logging
import math
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from operator import itemgetter
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
    "chars_in_rect",
    "CHARS",
    "DEFAULT_SNAP_TOLERANCE",
    "DEFAULT_JOIN_TOLERANCE",
    "DEFAULT_MIN_WORDS_VERTICAL",
    "DEFAULT_MIN_WORDS_HORIZONTAL",
)


class CharList(list[dict[str, Any]]):
    """A character list that answers "is any character inside this box".

    PyMuPDF's test (``chars_in_rect``): some character with ``rect[0] <= x0``,
    ``x1 <= rect[2]``, ``rect[1] <= y0`` and ``y1 <= rect[3]``. The boxes are
    sorted by ``y0`` when first asked, so a query looks only at the characters
    whose ``y0`` lies in the box's y range. Characters with a NaN ``y0`` fail
    that test whatever the box and are left out of the index. The list
    must not change after the first query.
    """

    _index: tuple[list[float], list[tuple[float, float, float, float]]] | None = None
    _tallest: float = 0.0
    _by_top: tuple[list[float], list[dict[str, Any]], float] | None = None

    def rows_between(self, y0: float, y1: float) -> list[dict[str, Any]]:
        """A superset of the characters whose ``top``/``bottom`` range overlaps (y0, y1).

        Those with ``top`` in ``(y0 - tallest, y1)``, the tallest character's
        height taken as the reach; characters with a NaN ``top`` or ``bottom``
        overlap nothing and are left out.
        """
        if self._by_top is None:
            ordered = sorted(
                (c for c in self if not (math.isnan(c["top"]) or math.isnan(c["bottom"]))),
                key=itemgetter("top"),
            )
            tallest = max((c["bottom"] - c["top"] for c in ordered), default=0.0)
            self._by_top = ([c["top"] for c in ordered], ordered, max(tallest, 0.0))
        tops, ordered, tallest = self._by_top
        start = bisect_right(tops, y0 - tallest) if math.isfinite(tallest) else 0
        return ordered[start : bisect_left(tops, y1)]

    def _boxes(self) -> tuple[list[float], list[tuple[float, float, float, float]]]:
        if self._index is None:
            # Sorted on y0 alone (a NaN y0 would break the order; NaN elsewhere
            # fails the comparisons of the query as it does in PyMuPDF's test).
            boxes = sorted(
                ((c["y0"], c["x0"], c["x1"], c["y1"]) for c in self if not math.isnan(c["y0"])),
                key=itemgetter(0),
            )
            self._index = ([b[0] for b in boxes], boxes)
            self._tallest = max((b[3] - b[0] for b in boxes), default=0.0)
        return self._index

    def any_inside(self, rect: Iterable[float]) -> bool:
        """Whether some character box lies inside ``rect`` (x0, y0, x1, y1), edges included."""
        y0s, boxes = self._boxes()
        rx0, ry0, rx1, ry1 = (float(v) for v in rect)
        # y bounds are checked again below: a NaN box bound makes bisect's range meaningless.
        for cy0, cx0, cx1, cy1 in boxes[bisect_left(y0s, ry0) : bisect_right(y0s, ry1)]:
            if rx0 <= cx0 and cx1 <= rx1 and ry0 <= cy0 and cy1 <= ry1:
                return True
        return False

    def meets(self, rect: Iterable[float]) -> bool:
        """Whether some character box meets ``rect`` (PDF-space y like ``any_inside``), edges
        included."""
        y0s, boxes = self._boxes()
        rx0, ry0, rx1, ry1 = (float(v) for v in rect)
        reach = self._tallest
        start = bisect_left(y0s, ry0 - reach - 1e-3) if math.isfinite(reach) else 0
        for cy0, cx0, cx1, cy1 in boxes[start : bisect_right(y0s, ry1)]:
            if cx0 <= rx1 and cx1 >= rx0 and cy0 <= ry1 and cy1 >= ry0:
                return True
        return False


def install_indexed_check(table: Any) -> None:
    """Make ``table.chars_in_rect`` use a :class:`CharList` index when it can.

    ``make_edges`` calls the module's ``chars_in_rect(CHARS, rect)`` with the
    context's character list behind ``CHARS``. The replacement asks the index
    when that list (or the list passed) is a :class:`CharList` and otherwise
    calls PyMuPDF's own function, so other callers see no change. Idempotent.
    """
    original = table.chars_in_rect
    if getattr(original, "_docparse_indexed", False):
        return

    def chars_in_rect(chars: Any, rect: Any) -> bool:
        current = chars if isinstance(chars, CharList) else None
        if current is None and chars is table.CHARS:
            found = table._CHARS_VAR.get()
            current = found if isinstance(found, CharList) else None
        if current is not None:
            return current.any_inside(rect)
        return bool(original(chars, rect))

    marked: Callable[[Any, Any], bool] = chars_in_rect
    marked._docparse_indexed = True  # type: ignore[attr-defined]
    table.chars_in_rect = marked


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


def text_chars(page: Any, textpage: Any) -> CharList:
    """The characters of ``textpage`` with the fields the ruled search reads.

    ``x0``/``x1``/``top``/``bottom``: the glyph box on the page; ``y0``/``y1``:
    the box through the page's transformation matrix (PDF space), as
    ``make_chars`` makes them; ``text``: the character. Spaces count, as in
    ``make_chars`` (a drawn box holding a space holds text for PyMuPDF); the
    printed characters are ``make_chars``' own, the spaces MuPDF adds between
    words may differ a little without ``TEXT_COLLECT_STYLES``.
    """
    _, b, _, d, _, f = page.transformation_matrix
    chars = CharList()
    append = chars.append
    data = page.get_text("rawdict", textpage=textpage)
    spans = [s for block in data["blocks"] for ln in block.get("lines", ()) for s in ln["spans"]]
    if b == 0:
        # The usual matrix: y through it does not depend on x, so the transformed
        # box's y extent is that of its top and bottom (the same floats as the
        # four corners give: b * x is a zero added).
        for span in spans:
            for ch in span["chars"]:
                x0, top, x1, bottom = ch["bbox"]
                ya, yb = d * top, d * bottom
                append(
                    {
                        "x0": x0,
                        "x1": x1,
                        "top": top,
                        "bottom": bottom,
                        "y0": (ya if ya < yb else yb) + f,
                        "y1": (yb if ya < yb else ya) + f,
                        "text": ch["c"],
                    }
                )
        return chars
    for span in spans:
        for ch in span["chars"]:
            append(_word_record((b, d, f), ch["bbox"], ch["c"]))
    return chars


class _TextState:
    """MuPDF's text settings while find_tables reads characters: glyph-tight boxes, no quad
    corrections (restored on exit)."""

    def __enter__(self) -> None:
        tools = load_pymupdf().TOOLS
        self._small = bool(tools.set_small_glyph_heights())
        tools.set_small_glyph_heights(True)
        self._quads = tools.unset_quad_corrections()

    def __exit__(self, *exc: object) -> None:
        tools = load_pymupdf().TOOLS
        tools.set_small_glyph_heights(self._small)
        tools.unset_quad_corrections(self._quads)


def _text_flags(table: Any) -> int:
    # Without TEXT_COLLECT_STYLES: it looks through every vector path for
    # strike-outs and underlines (0.4 s on a page of plot strokes, 5 ms on every
    # page of a filing) and changes no character box.
    return int(table.FLAGS & ~load_pymupdf().TEXT_COLLECT_STYLES)


def page_chars(page: Any, clip: Any = None) -> CharList:
    """The characters of an unrotated ``page`` (in ``clip``) as the ruled search reads them.

    One text page, made as ``find_tables`` makes its clip's (the same flags,
    glyph-tight boxes). A page searched in several clips reads its text once,
    clipped to the box around them all: :func:`chars_in_clip` picks each clip's
    characters from it; for a single clip it is that clip's own text page.
    """
    table = _table_module()
    with _TextState():
        return text_chars(page, page.get_textpage(clip=clip, flags=_text_flags(table)))


def _word_record(m: tuple[float, float, float], w: Any, text: str) -> dict[str, Any]:
    b, d, f = m
    x0, top, x1, bottom = w[0], w[1], w[2], w[3]
    # The y extent of the box through the page matrix (its four corners).
    ys = (b * x0 + d * top, b * x1 + d * top, b * x0 + d * bottom, b * x1 + d * bottom)
    return {
        "x0": x0,
        "x1": x1,
        "top": top,
        "bottom": bottom,
        "y0": min(ys) + f,
        "y1": max(ys) + f,
        "text": text,
    }


@dataclass(slots=True)
class PageWords:
    """A page's printed words, read once, standing in for its characters (see :class:`WordProbe`).

    ``words``: one record per word in :func:`text_chars`' fields (a word's box
    is the union of its characters'); ``gaps``: for each text span holding
    spaces, a box of no height on its baseline, where its spaces are (their
    glyph-tight boxes have no height), as wide as the span and a little more.
    """

    page: Any
    words: CharList
    gaps: CharList
    #: Exact character reads made for ambiguous boxes, and the characters of the
    #: whole region once there were too many of them.
    reads: int = 0
    chars: CharList | None = None
    region: tuple[float, float, float, float] | None = None


def page_words(
    page: Any,
    clip: Any = None,
    textpage: Any = None,
    spans: Iterable[dict[str, Any]] | None = None,
) -> PageWords:
    """The words of an unrotated ``page`` (in ``clip``), from :func:`page_chars`' text page.

    Reading words costs a fraction of reading characters (a tuple per word, not
    a dict per character); :class:`WordProbe` answers the ruled search from them.

    ``textpage``: a text page of the whole page already made (the backend's
    own, for its text): the words are read from it, with glyph-tight boxes,
    instead of from a new one (making a text page is the cost of a read; the
    boxes differ from :func:`page_chars`' only in a glyph's side bearings).
    ``spans``: that page's ``get_text("dict")`` spans, for the gaps (only their
    x extent, size and baseline are read, which glyph-tight boxes leave as they are).
    """
    table = _table_module()
    _, b, _, d, _, f = page.transformation_matrix
    m = (b, d, f)
    whole = textpage is not None
    with _TextState():
        if textpage is None:
            textpage = page.get_textpage(clip=clip, flags=_text_flags(table))
        found = page.get_text("words", textpage=textpage, sort=False)
        if spans is None:
            spans = [
                s
                for block in page.get_text("dict", textpage=textpage)["blocks"]
                for line in block.get("lines", ())
                for s in line["spans"]
            ]
    if whole and clip is not None:
        # The words of the clip alone (they are asked about inside it), as a
        # clipped text page holds them.
        cx0, cy0, cx1, cy1 = (float(v) for v in clip)
        found = [w for w in found if w[0] < cx1 and w[2] > cx0 and w[1] < cy1 and w[3] > cy0]
    words = CharList(_word_record(m, w, w[4]) for w in found)
    gaps = CharList()
    for span in spans:
        if not any(ch.isspace() for ch in span["text"]):
            continue
        # A glyph-tight space has no height, on the baseline; a box with no
        # height adds nothing to the span's box, so a line's last space may lie
        # past it: a font size of room on either side.
        x0, _, x1, _ = span["bbox"]
        room = float(span["size"]) + 1
        base = float(span["origin"][1])
        gaps.append(_word_record(m, (x0 - room, base, x1 + room, base), " "))
    region = (
        None if clip is None else (float(clip[0]), float(clip[1]), float(clip[2]), float(clip[3]))
    )
    return PageWords(page, words, gaps, region=region)


#: Box height (pt) under which no printed glyph is taken to fit (a rule's box).
_FLAT = 0.1

#: Boxes answered from an exact read of the characters in (and around) them
#: before the whole region's characters are read once instead.
_EXACT_READS = 6


class WordProbe:
    """The characters of one search clip as the ruled search asks about them.

    "Does a printed character overlap this box" (the tables' test) is answered
    from the words: a word overlaps it exactly when one of its characters does.
    "Does a character lie inside this box" (the joined-paths test; PyMuPDF's
    compares PDF-space ``y0``/``y1`` with the page-space box) is answered from
    the words when a whole word lies inside (yes) or no word or gap between
    words reaches into the box (no); otherwise the characters there are read
    (a text page of that box alone), so the answer is the characters' own.
    """

    def __init__(self, source: PageWords, clip: Any) -> None:
        self.source = source
        self.clip = clip
        self.words = chars_in_clip(source.words, clip)
        self.gaps = chars_in_clip(source.gaps, clip)
        #: The clip's characters out of the region's (``source.chars``), picked once:
        #: every later ambiguous box is answered from them (and their index).
        self._region_chars: CharList | None = None

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return iter(self.words)

    def any_inside(self, rect: Iterable[float]) -> bool:
        """PyMuPDF's ``chars_in_rect`` for the clip's characters (see the class note)."""
        box = tuple(float(v) for v in rect)
        if self.words.any_inside(box):
            return True
        # A printed glyph has a height: a box of (next to) none holds spaces only.
        flat = box[3] - box[1] <= _FLAT
        if not ((not flat and self.words.meets(box)) or self.gaps.meets(box)):
            return False
        return self._exact(box).any_inside(box)

    def _exact(self, box: tuple[float, ...]) -> CharList:
        src = self.source
        if src.chars is None and src.reads < _EXACT_READS:
            region = _page_region(src.page, box)
            if region is not None:
                src.reads += 1
                return chars_in_clip(page_chars(src.page, region), self.clip)
        if src.chars is None:
            src.chars = page_chars(src.page, src.region)
        if self._region_chars is None:
            self._region_chars = chars_in_clip(src.chars, self.clip)
        return self._region_chars


def _page_region(page: Any, box: tuple[float, ...]) -> tuple[float, float, float, float] | None:
    """The page-space box whose characters can lie inside ``box`` in PDF-space y, 1 pt wider.

    ``None`` unless the page matrix keeps y apart from x (then the whole region is read).
    """
    _, b, _, d, _, f = page.transformation_matrix
    if b != 0 or d == 0:
        return None
    ya, yb = (box[1] - f) / d, (box[3] - f) / d
    return (box[0] - 1, min(ya, yb) - 1, box[2] + 1, max(ya, yb) + 1)


def chars_in_clip(chars: Iterable[dict[str, Any]], clip: Any) -> CharList:
    """The characters of ``clip``: those whose box overlaps it (touching is no overlap).

    A text page made with the clip holds the same printed characters but for a
    few across its edges: MuPDF drops a glyph whose outline misses the clip even
    when its box (the advance width) reaches in. The search reads characters
    only to ask whether a joined box of paths or a found table holds text, and
    its tables are those of a clip text page on every page of the test PDFs.
    A :class:`CharList` answers from its index on ``top`` (no scan of the page's
    characters per clip); the order of the characters may then differ, which
    neither question reads.
    """
    cx0, cy0, cx1, cy1 = (float(v) for v in clip)
    if isinstance(chars, CharList):
        return CharList(
            c
            for c in chars.rows_between(cy0, cy1)
            if c["x0"] < cx1 and c["x1"] > cx0 and c["top"] < cy1 and c["bottom"] > cy0
        )
    return CharList(
        c for c in chars if c["x0"] < cx1 and c["x1"] > cx0 and c["top"] < cy1 and c["bottom"] > cy0
    )


def find_ruled_tables(
    page: Any,
    clip: Any,
    paths: list[dict[str, Any]],
    strategy: str,
    chars: CharList | None = None,
) -> list[Any]:
    """``page.find_tables(clip=clip, paths=paths, strategy=strategy, use_layout=False)``.

    ``strategy`` is ``lines`` or ``lines_strict``; ``paths`` are drawings in
    ``get_drawings()`` form (``make_edges`` edits them). ``chars``: the clip's
    characters (:func:`chars_in_clip` of :func:`page_chars`) when the caller
    has read them, else a text page of the clip is read here; an unrotated
    page only. Returns the found ``Table`` objects (cells, rows, bbox; see the
    module note on ``extract``).
    """
    table = _table_module()
    install_indexed_check(table)
    table._CHARS_VAR.set([])
    table._EDGES_VAR.set([])
    # A rotated page is searched derotated, as find_tables does (its tables then come
    # in the displayed page's coordinates); find_tables would also work out each
    # table's header there, by reading every cell's text and rendering pixmaps.
    rotated = bool(page.rotation)
    if rotated:
        if chars is not None:
            raise ValueError("characters read beforehand are for unrotated pages only")
        page, xref, rotation, mediabox = table.page_rotation_set0(page)
    try:
        with _TextState():
            tset = table.TableSettings.resolve(settings=_settings(table, strategy))
            page.table_settings = tset
            if chars is None:
                textpage = page.get_textpage(clip=clip, flags=_text_flags(table))
                chars = text_chars(page, textpage)
            table._CHARS_VAR.set(chars)
            table.make_edges(page, clip=clip, tset=tset, paths=paths)
            finder = table.TableFinder(page, settings=tset)
            return list(finder.tables)
    except Exception as exc:  # noqa: BLE001 - find_tables' own contract: no table, a message
        _log.warning("page %s: ruled table search failed: %s", page.number + 1, exc)
        return []
    finally:
        if rotated:
            table.page_rotation_reset(page, xref, rotation, mediabox)
