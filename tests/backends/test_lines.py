"""The fast record makers of :mod:`docparse.backends.lines` and the line grouping."""

from __future__ import annotations

import dataclasses
import functools
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from docparse.backends.lines import (
    _attach_scripts,
    _dots_end,
    _rows,
    blocks_from_lines,
    lines_from_spans,
    make_line,
    new_bbox,
    new_block,
    new_line,
    new_span,
    union_boxes,
)
from docparse.backends.pages import Block, Line, TextSpan, line_facts
from docparse.model import BBox, CoordOrigin


def _fields(obj: object) -> list[tuple[str, object]]:
    return [(f.name, getattr(obj, f.name)) for f in dataclasses.fields(obj)]  # type: ignore[arg-type]


@pytest.mark.parametrize("cls", [BBox, TextSpan, Block])
def test_made_classes_check_nothing_on_init(cls: type) -> None:
    """The makers skip ``__init__``: they are right only while it only sets fields."""
    assert not hasattr(cls, "__post_init__")
    assert dataclasses.is_dataclass(cls)


def test_line_init_sets_only_its_facts() -> None:
    """Line's makers skip ``__init__`` and set the fields its ``__post_init__``
    sets (the facts ``line_facts`` works out): right while it sets no other."""
    assert [f.name for f in dataclasses.fields(Line) if not f.init] == ["text", "size", "bold"]
    box = BBox(1.0, 2.0, 30.0, 12.0)
    spans = (TextSpan("a", box, 9.96, True, "F"), TextSpan("b", box, 10.0, False, "G"))
    for made in (Line(spans, box), Line(spans[:1], box)):
        assert (made.text, made.size, made.bold) == line_facts(made.spans)
        with pytest.raises(dataclasses.FrozenInstanceError):
            made.text = ""  # type: ignore[misc]


def test_makers_give_what_the_dataclasses_give() -> None:
    box = new_bbox(1.0, 2.5, 3.0, 4.0)
    assert box == BBox(1.0, 2.5, 3.0, 4.0) and _fields(box) == _fields(BBox(1.0, 2.5, 3.0, 4.0))
    span = new_span("x", box, 9.5, True, "F")
    assert _fields(span) == _fields(TextSpan("x", box, 9.5, True, "F"))
    other = new_span("y", new_bbox(5.0, 2.5, 6.0, 4.0), 9.5, True, "F")
    line = new_line((span, other), box)
    assert _fields(line) == _fields(Line((span, other), box))
    assert (line.text, line.size, line.bold) == ("x y", 9.5, True)
    block = new_block((line,), box)
    assert _fields(block) == _fields(Block((line,), box))
    with pytest.raises(dataclasses.FrozenInstanceError):
        box.x0 = 0.0  # type: ignore[misc]


def test_lines_split_at_gutters_and_blocks_join_adjacent_lines() -> None:
    def span(text: str, x0: float, y0: float, size: float = 10.0) -> TextSpan:
        return TextSpan(text, BBox(x0, y0, x0 + 6.0 * len(text), y0 + size), size)

    words = [
        span("right", 300.0, 100.0),
        span("left", 50.0, 100.5),
        span("col", 80.0, 100.0),
        span("next", 50.0, 112.0),
        span("2", 76.0, 99.0, 6.0),  # a superscript on the first line
    ]
    lines = lines_from_spans(words)
    assert [ln.text for ln in lines] == ["left 2col", "right", "next"]
    blocks = blocks_from_lines(lines)
    assert [[ln.text for ln in b.lines] for b in blocks] == [["left 2col", "next"], ["right"]]
    assert blocks[0].bbox == BBox(50.0, 99.0, 98.0, 122.0)


@pytest.mark.parametrize(
    ("text", "size", "bold"),
    [("word", 9.96, True), ("  ", 12.0, True), ("x", 0.0, False), ("Title", 14.347, False)],
)
def test_one_span_line_sets_what_the_properties_give(text: str, size: float, bold: bool) -> None:
    span = TextSpan(text, BBox(1.0, 2.0, 30.0, 12.0), size, bold, "F")
    (made,) = lines_from_spans([span])
    plain = Line((span,), span.bbox)
    assert (made.text, made.size, made.bold) == (plain.text, plain.size, plain.bold)
    assert type(made.size) is type(plain.size) and type(made.bold) is type(plain.bold)


@pytest.mark.parametrize(
    "spans",
    [
        [("a", 10.0, True), ("b", 10.0, True)],
        [("a", 10.0, True), (" ", 10.0, False), ("b", 10.0, True)],
        [("a", 10.0, False), ("bb", 8.04, True), ("ccc", 10.0, True)],
        [(" ", 9.0, True), ("  ", 9.0, False)],
    ],
)
def test_many_span_line_sets_what_the_properties_give(
    spans: list[tuple[str, float, bool]],
) -> None:
    made_spans = [
        TextSpan(t, BBox(10.0 * k, 2.0, 10.0 * k + 5.0, 12.0), size, bold)
        for k, (t, size, bold) in enumerate(spans)
    ]
    (made,) = lines_from_spans(made_spans)
    plain = Line(tuple(made_spans), made.bbox)
    assert (made.text, made.size, made.bold) == (plain.text, plain.size, plain.bold)
    assert type(made.bold) is type(plain.bold)


def _facts_spelled_out(spans: list[TextSpan]) -> tuple[str, float, bool]:
    """Line's text, size and bold as their docstrings define them, one at a time
    (the cross-check of the one-pass ``line_facts``)."""
    out: list[str] = []
    for prev, s in zip([None, *spans], spans, strict=False):
        if prev is not None:
            gap = s.bbox.x0 - prev.bbox.x1
            wide = gap > 0.15 * max(s.size, prev.size, 1.0)
            if wide and not prev.text.endswith(" ") and not s.text.startswith(" "):
                out.append(" ")
        out.append(s.text)
    by: dict[float, int] = {}
    for s in spans:
        by[round(s.size, 1)] = by.get(round(s.size, 1), 0) + len(s.text.strip())
    size = max(by, key=lambda k: by[k]) if by else 0.0
    printed = [s for s in spans if s.text.strip()]
    return "".join(out), size, bool(printed) and all(s.bold for s in printed)


_span_fields = st.tuples(
    st.sampled_from(["a", "bb", " ", "  ", " c", "d ", "", "x"]),
    st.floats(-5.0, 30.0),  # the gap to the span before
    st.floats(0.0, 14.0),
    st.booleans(),
)


@given(st.lists(_span_fields, max_size=6))
def test_make_line_sets_what_the_properties_give(
    fields: list[tuple[str, float, float, bool]],
) -> None:
    """make_line's text, size and bold (set in one pass) equal what Line's
    properties work out, for any spans: gaps (a space or not), blank and
    space-edged texts, mixed sizes, bold and roman."""
    spans = []
    x = 0.0
    for text, gap, size, bold in fields:
        x0 = x + gap
        spans.append(TextSpan(text, BBox(x0, 2.0, x0 + 4.0, 12.0), size, bold))
        x = x0 + 4.0
    box = BBox(0.0, 2.0, 50.0, 12.0)
    made = make_line(tuple(spans), box)
    plain = Line(tuple(spans), box)
    assert made == plain
    assert (plain.text, plain.size, plain.bold) == _facts_spelled_out(spans)
    assert (made.text, made.size, made.bold) == (plain.text, plain.size, plain.bold)
    assert type(made.size) is type(plain.size) and type(made.bold) is type(plain.bold)


_row_fields = st.tuples(
    st.sampled_from(["a", "bb", " c", "d ", "x", "e  f"]),
    # The gap to the span before, as a share of the larger size: about a
    # space's (0.15) and a gutter's (0.9) on either side.
    st.sampled_from([-0.5, 0.0, 0.1, 0.145, 0.155, 0.5, 0.85, 0.95, 2.0]),
    st.sampled_from([0.0, 0.5, 6.0, 9.96, 10.0, 14.0]),
    st.booleans(),
)


@given(st.lists(_row_fields, min_size=2, max_size=8))
def test_lines_of_a_row_set_what_the_properties_give(
    fields: list[tuple[str, float, float, bool]],
) -> None:
    """The lines lines_from_spans cuts a row into (measuring each gap once for
    the gutter and the space between words) have the text, size and bold
    Line's properties work out from their spans."""
    spans: list[TextSpan] = []
    x = 0.0
    for text, share, size, bold in fields:
        x0 = x + share * max(size, spans[-1].size if spans else 0.0, 1.0)
        spans.append(TextSpan(text, BBox(x0, 2.0, x0 + 4.0, 12.0), size, bold))
        x = x0 + 4.0
    for made in lines_from_spans(spans):
        plain = Line(made.spans, made.bbox)
        assert (made.text, made.size, made.bold) == (plain.text, plain.size, plain.bold)
        assert (made.text, made.size, made.bold) == _facts_spelled_out(list(made.spans))


def _words(row: str, y0: float, x0: float = 100.0, size: float = 10.0) -> list[TextSpan]:
    """Spans of ``row``'s words; ``|`` marks a gap wider than a column gutter."""
    out = []
    x = x0
    for piece in row.split("|"):
        for word in piece.split():
            w = 5.0 * len(word)
            out.append(TextSpan(word, BBox(x, y0, x + w, y0 + size), size))
            x += w + 2.5
        x += 20.0
    return out


def test_contents_entries_are_one_line_each() -> None:
    # A contents page: section number, title, dot leader, page number, with
    # gutter-wide gaps around the title; a chapter's line has no leader but
    # its page number ends where the entries' page numbers end.
    rows = [
        "7 | Tips | 67",
        "7.1 | debdiff | . . . . . . . . | 67",
        "7.2 | dget . . . . . . . . . . . | 67",
        "7.3 | debc . . . . . . . . . . . 67",
        "7.4 piuparts . . . . . . . . . | 68",
    ]
    spans: list[TextSpan] = []
    for k, row in enumerate(rows):
        words = _words(row, 100.0 + 12.0 * k)
        # The page numbers are set flush right.
        shift = 400.0 - words[-1].bbox.x1
        last = words[-1]
        b = last.bbox
        words[-1] = TextSpan(last.text, BBox(b.x0 + shift, b.y0, b.x1 + shift, b.y1), 10.0)
        spans += words
    lines = sorted(lines_from_spans(spans), key=lambda ln: ln.bbox.y0)
    assert [ln.text.replace(" .", "") for ln in lines] == [
        "7 Tips 67",
        "7.1 debdiff 67",
        "7.2 dget 67",
        "7.3 debc 67",
        "7.4 piuparts 68",
    ]


def test_rows_of_values_and_other_columns_stay_apart() -> None:
    # A statement's row led by dots to two values is a table row; a second
    # column beside a contents entry stays a line of its own, and so does
    # the next column's entry.
    lines = lines_from_spans(
        [
            *_words("Cash . . . . . . . . | 123 | 456", 100.0),
            *_words("1.2 | Scope . . . . . . | 4 | Other column text", 120.0),
            *_words("1.3 | Terms . . . . . . | 5 | 2.1 | Next column . . . . | 9", 140.0),
        ]
    )
    texts = sorted((ln.bbox.y0, ln.bbox.x0, ln.text.replace(" .", "")) for ln in lines)
    assert [t for _, _, t in texts] == [
        "Cash",
        "123",
        "456",
        "1.2 Scope 4",
        "Other column text",
        "1.3 Terms 5",
        "2.1 Next column 9",
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [("", False), (".", True), ("..", True), ("a.", False), ("a .", True), ("\u2026", True)],
)
def test_dots_end_reads_a_blank_word(text: str, expected: bool) -> None:
    assert _dots_end(text) is expected


def test_a_blank_span_in_a_cut_row_makes_no_error() -> None:
    def span(text: str, x0: float) -> TextSpan:
        return TextSpan(text, BBox(x0, 100.0, x0 + 20.0, 110.0), 10.0)

    # Gaps wider than a gutter cut the row; the blank span ends a piece.
    lines = lines_from_spans([span("Intro", 50.0), span(" ", 75.0), span("12", 300.0)])
    assert [ln.text for ln in lines] == ["Intro ", "12"]


def _rows_spelled_out(spans: list[TextSpan]) -> list[list[TextSpan]]:
    """The rows of ``_rows`` as its docstring defines them: every span is
    tried against the last row, then the three above it, one at a time."""
    rows: list[list[TextSpan]] = []
    anchors: list[tuple[float, float]] = []
    for s in spans:
        mid = (s.bbox.y0 + s.bbox.y1) / 2
        half = max(s.bbox.y1 - s.bbox.y0, 1.0) / 2
        for k in range(len(rows) - 1, max(len(rows) - 5, -1), -1):
            kmid, khalf = anchors[k]
            if abs(mid - kmid) <= 0.6 * min(half, khalf):
                rows[k].append(s)
                break
        else:
            rows.append([s])
            anchors.append((mid, half))
    return rows


_heights = st.sampled_from([0.2, 1.0, 4.0, 6.0, 10.0, 10.5, 24.0, math.nan])
_tops = st.one_of(
    st.floats(0.0, 200.0), st.sampled_from([0.0, 5.0, 10.0, 12.0, math.nan, math.inf])
)


@given(st.lists(st.tuples(_tops, _heights), max_size=40))
def test_rows_are_the_spelled_out_rows(tops: list[tuple[float, float]]) -> None:
    """_rows passes over the rows above the last when a span's centre is
    below them all by more than any of them can reach: the rows come out as
    trying every one of them gives (NaN and infinite boxes too)."""
    spans = sorted(
        (TextSpan("w", BBox(0.0, top, 5.0, top + h), 10.0) for top, h in tops),
        key=lambda s: s.bbox.y0,
    )
    rows, anchors = _rows(spans)
    assert [list(map(id, r)) for r in rows] == [list(map(id, r)) for r in _rows_spelled_out(spans)]
    assert len(anchors) == len(rows)


_boxed_fields = st.tuples(
    st.floats(-5.0, 30.0),  # the gap to the span before
    st.floats(1.0, 20.0),  # width
    st.floats(-3.0, 3.0),  # top's shift
    st.floats(2.0, 14.0),  # height
)


@given(st.lists(_boxed_fields, min_size=1, max_size=10))
def test_line_boxes_hold_their_spans(fields: list[tuple[float, float, float, float]]) -> None:
    """Each line's box is the union of its spans' boxes (grown as a row is
    cut, in union_boxes' order)."""
    spans = []
    x = 0.0
    for gap, width, shift, height in fields:
        x0 = x + gap
        spans.append(
            TextSpan("ab", BBox(x0, 100.0 + shift, x0 + width, 100.0 + shift + height), 10.0)
        )
        x = x0 + width
    for made in lines_from_spans(spans):
        assert made.bbox == union_boxes([s.bbox for s in made.spans])
        assert made.bbox == functools.reduce(BBox.union, [s.bbox for s in made.spans])


def test_line_boxes_keep_their_origin() -> None:
    def span(x0: float, origin: CoordOrigin) -> TextSpan:
        return TextSpan("ab", BBox(x0, 100.0, x0 + 9.0, 110.0, origin), 10.0)

    (line,) = lines_from_spans([span(10.0, "bottom-left"), span(20.0, "bottom-left")])
    assert line.bbox == BBox(10.0, 100.0, 29.0, 110.0, "bottom-left")
    with pytest.raises(ValueError, match="origins"):
        lines_from_spans([span(10.0, "top-left"), span(20.0, "bottom-left")])
    # Apart (a gap wider than a gutter), two origins make two lines.
    assert len(lines_from_spans([span(10.0, "top-left"), span(80.0, "bottom-left")])) == 2


@pytest.mark.parametrize("size", [9.96, 9.96, 0.0, -0.0, 10, 0.04, -0.04, math.nan, 1e300])
def test_one_span_line_sizes_round_as_round_does(size: float) -> None:
    """A one-span line's size is ``round(size, 1)``, kept for the next line of
    that size: the same value, type and sign of zero (twice for the memo)."""
    for _ in range(2):
        (made,) = lines_from_spans([TextSpan("w", BBox(1.0, 2.0, 30.0, 12.0), size)])
        expected = round(size, 1)
        assert type(made.size) is type(expected)
        assert repr(made.size) == repr(expected)


def _attached_spelled_out(
    rows: list[list[TextSpan]], anchors: list[tuple[float, float]]
) -> list[list[TextSpan]]:
    """_attach_scripts as its docstring says, every test on every neighbour."""
    keep = [True] * len(rows)
    for k, row in enumerate(rows):
        if len(row) > 2 or any(len(s.text) > 3 for s in row):
            continue
        lo = min(s.bbox.y0 for s in row)
        hi = max(s.bbox.y1 for s in row)
        for j in (k + 1, k - 1):
            if 0 <= j < len(rows) and keep[j]:
                amid, ahalf = anchors[j]
                overlap = min(hi, amid + ahalf) - max(lo, amid - ahalf)
                if overlap > 0.5 * (hi - lo) and anchors[k][1] < 0.85 * ahalf:
                    rows[j].extend(row)
                    keep[k] = False
                    break
    return [row for row, k in zip(rows, keep, strict=True) if k]


@given(
    st.lists(
        st.tuples(
            st.sampled_from(["2", "ab", "word"]),
            st.sampled_from([0.0, 1.0, 3.0, 6.0, math.nan]),
            # Half heights of about 0.85 of another's (4.1 and 5, 5 and 6).
            st.sampled_from([1.0, 8.2, 10.0, 12.0, math.nan]),
            st.integers(1, 3),
        ),
        max_size=6,
    )
)
def test_scripts_attach_as_spelled_out(fields: list[tuple[str, float, float, int]]) -> None:
    """_attach_scripts measures a short row's extent only when a neighbour is
    larger: the rows come out as testing every neighbour gives."""

    def made() -> tuple[list[list[TextSpan]], list[tuple[float, float]]]:
        # The font names the span (NaN boxes compare unequal); a row's second
        # and third spans reach higher and lower than its first.
        rows = [
            [
                TextSpan(
                    text, BBox(9.0 * i, top - i, 9.0 * i + 5.0, top + h + i), 10.0, font=f"{k}.{i}"
                )
                for i in range(n)
            ]
            for k, (text, top, h, n) in enumerate(fields)
        ]
        anchors = [
            ((r[0].bbox.y0 + r[0].bbox.y1) / 2, max(r[0].bbox.height, 1.0) / 2) for r in rows
        ]
        return rows, anchors

    fast = _attach_scripts(*made())
    slow = _attached_spelled_out(*made())
    assert [[s.font for s in r] for r in fast] == [[s.font for s in r] for r in slow]


def test_a_larger_heading_level_with_a_line_of_the_other_column_is_cut_at_the_gutter() -> None:
    # Two columns 10 pt apart (LaTeX's \columnsep): a 14 pt heading's space is wider
    # than the gutter, so its row was one line across both columns (twocolumn-4,
    # pypdfium2 and pdfplumber: "... condition pressure Relation certain").
    rows = [
        _words(f"left line {i} of text | right line {i} of text", 100.0 + 12 * i) for i in range(5)
    ]
    edge = rows[0][5].bbox.x0  # where the right column's lines start
    left = _words("condition pressure", 160.0, x0=edge - 10.0 - 87.5)
    heading = TextSpan("Relation certain", BBox(edge, 158.0, edge + 90.0, 172.0), 14.3)
    gap = edge - left[-1].bbox.x1
    assert 0.9 * 10.0 < gap < 0.9 * 14.3
    texts = [ln.text for ln in lines_from_spans([s for r in rows for s in r] + left + [heading])]
    assert "condition pressure" in texts and "Relation certain" in texts
    # The same row with no gutter on the page stays one line.
    texts = [ln.text for ln in lines_from_spans([*left, heading])]
    assert texts == ["condition pressure Relation certain"]
