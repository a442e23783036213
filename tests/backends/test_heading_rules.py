"""is_heading and numbering read their tests cheapest first, join_number_blocks only the
blocks near a number: the same answers as the rules read in order, over every block."""

from __future__ import annotations

from collections import Counter

from hypothesis import example, given, settings
from hypothesis import strategies as st

from docparse.backends.headings import (
    _APPENDIX,
    _BULLET_CHARS,
    _DECIMAL,
    _LETTER,
    _ROMAN,
    _SECTION_NUMBER,
    body_sizes,
    is_heading,
    is_section_number,
    join_number_blocks,
    numbering,
    text_fonts,
)
from docparse.backends.items import CAPTION, Item, PageItems
from docparse.backends.pages import Block, BlockRole, Line, TableRegion, TextSpan
from docparse.model import BBox


def _numbering_spelled_out(text: str) -> tuple[str, int]:
    m = _DECIMAL.match(text) or _APPENDIX.match(text)
    if m:
        return "decimal", m.group(1).count(".") + 1
    if _ROMAN.match(text):
        return "roman", 1
    if _LETTER.match(text):
        return "letter", 1
    return "", 0


def _is_heading_spelled_out(
    it: Item, body: float, body_font: str, running: frozenset[str], sizes: frozenset[float]
) -> bool:
    """The rules in their own order: the gates, then the larger, bold and numbered branches."""
    text = it.text
    words = text.split()
    if not words or len(words) > 18 or len(it.lines) > 3:
        return False
    if sum(c.isalpha() for c in text) < 3:
        return False
    scheme, depth = numbering(text)
    if text.endswith((".", ",", ";")) and not scheme and len(words) > 6:
        return False
    if CAPTION.match(text) or _BULLET_CHARS.match(text) or body <= 0:
        return False
    if it.size >= body * 1.12 and round(it.size * 2) / 2 not in sizes:
        return not text.endswith(".") or len(words) <= 8
    if it.bold and it.size >= body * 0.9:
        return len(words) <= 12 and (text[:1].isupper() or bool(scheme))
    if not scheme or len(it.lines) > 2 or len(words) > 12 or text.endswith((".", ",", ";", ":")):
        return False
    title = text.split(None, 1)[1] if len(words) > 1 else ""
    letters = [c for c in title if c.isalpha()]
    capitals = len(letters) >= 3 and all(c.isupper() for c in letters)
    # Small type, unless a decimal-numbered title in small capitals (most letters a size down).
    if it.size < body * 0.9 and (it.size < body * 0.75 or not capitals or not text[:1].isdecimal()):
        return False
    distinct = bool(body_font) and it.font not in (body_font, *running) and it.size >= body * 0.9
    if len(it.lines) > 1 and not (capitals or distinct):
        return False
    if scheme == "letter":
        return capitals or (distinct and len(words) <= 8)
    return capitals or (scheme == "decimal" and depth >= 2) or distinct


_WORD = st.sampled_from(
    [
        *("2.1", "A.3", "II.", "B.", "B", "Table", "1", "\u0661.\u0662", "Method", "RESULTS"),
        *("and", "the", "x", "σµ", "•", "end.", "end:", "a,", "(a)", "Fig.", "3)", "Über", "iv."),
    ]
)
_TEXT = st.lists(_WORD, max_size=22).map(" ".join)


@given(
    st.lists(_TEXT, min_size=1, max_size=4),
    st.sampled_from([6.0, 8.0, 9.0, 10.0, 11.0, 12.0, 14.0]),
    st.booleans(),
    st.sampled_from(["Body", "Bold", "Mono"]),
    st.sampled_from([0.0, 9.0, 10.0]),
    st.sampled_from([frozenset(), frozenset({10.0}), frozenset({12.0})]),
)
@settings(max_examples=600)
def test_is_heading_answers_as_its_rules_read_in_order(
    lines: list[str], size: float, bold: bool, font: str, body: float, sizes: frozenset[float]
) -> None:
    it = Item(1, BBox(72.0, 72.0, 300.0, 84.0), tuple(lines), size, bold, font=font)
    running = frozenset({"Mono"})
    expected = _is_heading_spelled_out(it, body, "Body", running, sizes)
    assert is_heading(it, body, "Body", running, sizes) is expected


# A capital before white space or a roman numeral's next letter: past the shortcut.
@example("B RESULTS")
@example("B\u2003ONLINE RESOURCES")
@example("IV. MATH")
@example("A.1 Proofs")
@example("Z")
@given(_TEXT)
def test_numbering_answers_as_its_patterns(text: str) -> None:
    assert numbering(text) == _numbering_spelled_out(text)


def _body_sizes_spelled_out(pages: list[PageItems]) -> frozenset[float]:
    c: Counter[float] = Counter()
    for p in pages:
        for it in p.items:
            if it.table is None and it.size > 0:
                c[round(it.size * 2) / 2] += it.chars
    total = sum(c.values())
    return frozenset(size for size, n in c.items() if n >= 0.25 * total)


@given(
    st.lists(
        st.tuples(
            st.sampled_from([0.0, -1.0, 7.0, 7.2, 7.25, 7.3, 9.75, 10, 10.0, 10.24, float("nan")]),
            st.sampled_from(["", "ab", "a longer line of text"]),
            st.booleans(),
        ),
        max_size=30,
    )
)
def test_body_sizes_counts_as_rounding_each_item(items: list[tuple[float, str, bool]]) -> None:
    """Summed by exact size, then by half point: the sizes counting each item's
    rounded size give."""
    table = TableRegion(BBox(0.0, 0.0, 1.0, 1.0), (("x",),))
    made = [
        Item(1, BBox(72.0, 72.0, 300.0, 84.0), (text,), size, False, table=table if t else None)
        for size, text, t in items
    ]
    pages = [PageItems(1, 600.0, 800.0, made[:10]), PageItems(2, 600.0, 800.0, made[10:])]
    assert body_sizes(pages) == _body_sizes_spelled_out(pages)


_SPACE = st.sampled_from(["", " ", "  ", "\t", "\n", "\u00a0", "\u2003", "\u3000", "\x1c"])


@given(_SPACE, st.lists(_WORD, max_size=2).map(" ".join), _SPACE)
def test_section_number_alone_is_the_pattern_on_the_stripped_text(
    before: str, text: str, after: str
) -> None:
    padded = before + text + after
    assert is_section_number(padded) is bool(_SECTION_NUMBER.fullmatch(padded.strip()))


def test_numbering_reads_other_decimal_digits() -> None:
    assert numbering("\u0661.\u0662 Method") == ("decimal", 2)
    assert numbering("\u00b2 Note") == ("", 0)  # a superscript two is no decimal digit


def _join_number_blocks_by_scan(blocks: list[Block]) -> list[Block]:
    """join_number_blocks with every block read for every number (no bisection)."""
    numbers = [
        b
        for b in blocks
        if b.role is None
        and len(b.lines) == 1
        and b.lines[0].bold
        and is_section_number(b.lines[0].text)
    ]
    joined: dict[int, Block] = {}
    used: set[int] = set()
    for num in numbers:
        ln = num.lines[0]
        size = max(ln.size, 1.0)
        for b in blocks:
            if b is num or b.role is not None or not b.lines or id(b) in used:
                continue
            first = b.lines[0]
            gap = first.bbox.x0 - ln.bbox.x1
            if 0 <= gap < 4 * size and abs(first.bbox.y1 - ln.bbox.y1) < 0.5 * size:
                target = joined.get(id(b), b)
                joined[id(b)] = Block((ln, *target.lines), target.bbox.union(ln.bbox), None)
                used.add(id(num))
                break
    return [joined.get(id(b), b) for b in blocks if id(b) not in used]


_BLOCK = st.tuples(
    st.sampled_from(["2.1", "A", "IV.", "Method", "Results and more"]),
    st.sampled_from([40.0, 60.0, 75.0, 90.0]),  # left edge
    st.sampled_from([100.0, 104.0, 105.0, 110.0, float("nan")]),  # bottom
    st.sampled_from([8.0, 10.0]),
    st.booleans(),
    st.sampled_from([None, None, "heading"]),
)


@given(st.lists(_BLOCK, max_size=8))
@settings(max_examples=400)
def test_join_number_blocks_reads_the_blocks_near_a_number_as_a_scan_of_all(
    fields: list[tuple[str, float, float, float, bool, BlockRole | None]],
) -> None:
    blocks = []
    for text, x0, y1, size, bold, role in fields:
        box = BBox(x0, y1 - size, x0 + 6.0 * len(text), y1)
        line = Line((TextSpan(text, box, size, bold),), box)
        blocks.append(Block((line,), box, role))
    got = join_number_blocks(blocks)
    want = _join_number_blocks_by_scan(blocks)
    assert [[ln.text for ln in b.lines] for b in got] == [[ln.text for ln in b.lines] for b in want]
    assert [b.bbox for b in got] == [b.bbox for b in want]


def test_a_numbered_title_in_small_capitals_is_a_heading() -> None:
    # amsart: "1. INTRODUCTION" with all but the initials drawn as capitals a
    # size down, so the line's size is that smaller one (9.6 of a 12 pt body).
    caps = Item(1, BBox(203.0, 242.0, 409.0, 253.0), ("1. DISTINCT EXTEND THEORY",), 9.6, False)
    assert is_heading(caps, 12.0, "Body")
    # The same size in lower case, or much smaller: a note, no heading.
    note = Item(1, BBox(72.0, 700.0, 300.0, 710.0), ("1. Distinct extend theory",), 9.6, False)
    assert not is_heading(note, 12.0, "Body")
    tiny = Item(1, BBox(72.0, 700.0, 300.0, 707.0), ("1. DISTINCT EXTEND THEORY",), 8.0, False)
    assert not is_heading(tiny, 12.0, "Body")


def _span(text: str, x0: float, bold: bool = False) -> TextSpan:
    return TextSpan(text, BBox(x0, 100.0, x0 + 5.0 * len(text), 112.0), 12.0, bold, "Body")


def test_a_run_in_heading_whose_number_is_in_the_text_weight_is_split_off() -> None:
    from docparse.backends.headings import split_run_in
    from docparse.backends.lines import make_line, union_boxes

    # amsart's \subsection: "1.1." upright, the title bold, then the text.
    spans = (
        _span("1.1.", 72.0),
        _span(" ", 92.0, True),
        _span("Internal picture village.", 97.0, True),
        _span(" ", 222.0),
        _span("Environment decade module document", 227.0),
    )
    line = make_line(spans, union_boxes([s.bbox for s in spans]))
    out, heads = split_run_in([line])
    assert [ln.text for ln in out] == [
        "1.1. Internal picture village",
        "Environment decade module document",
    ]
    assert heads == {id(out[0])}
    # An upright number then upright text is no run-in heading.
    plain = (
        _span("1.1.", 72.0),
        _span(" Internal picture village.", 92.0),
        _span("Bold", 227.0, True),
    )
    line = make_line(plain, union_boxes([s.bbox for s in plain]))
    assert split_run_in([line])[1] == set()


def _line_item(text: str, font: str, y: float, size: float = 9.0) -> Item:
    return Item(1, BBox(72.0, y, 400.0, y + size), (text,), size, False, font=font)


def test_a_listing_numbered_line_by_line_is_no_heading() -> None:
    # ltxdoc's code: each line numbered in a small roman, set in typewriter,
    # and cut by the backend into one item a line (soul.pdf, pymupdf).
    body = [_line_item("Some running text " * 8, "CMR10", 60.0 + 12 * k, 10.0) for k in range(3)]
    code = [
        _line_item(f"{59 + k} \\countdef\\SOUL@minus{k}", "CMTT9", 120.0 + 11 * k) for k in range(4)
    ]
    pages = [PageItems(1, 600.0, 800.0, [*body, *code])]
    running = text_fonts(pages)
    assert "CMTT9" in running
    assert not any(is_heading(it, 10.0, "CMR10", running) for it in code)
    # Lines apart, or numbers that do not follow on, make no listing.
    apart = [PageItems(1, 600.0, 800.0, [*body, code[0], body[0], code[1], body[1], code[2]])]
    assert "CMTT9" not in text_fonts(apart)
    skips = [PageItems(1, 600.0, 800.0, [*body, code[0], code[2]])]
    assert "CMTT9" not in text_fonts(skips)


def test_numbered_sections_in_their_own_font_stay_headings() -> None:
    # Sections 1, 2, 3 in one font, text between them: no listing.
    items = []
    for k in range(1, 4):
        items.append(_line_item(f"{k} Section title {k}", "Sans", 100.0 * k, 10.0))
        items.append(_line_item("Some running text " * 8, "CMR10", 100.0 * k + 20, 10.0))
    pages = [PageItems(1, 600.0, 800.0, items)]
    running = text_fonts(pages)
    assert "Sans" not in running
    assert all(is_heading(it, 10.0, "CMR10", running) for it in items[::2])


def _font_span(text: str, x0: float, font: str) -> TextSpan:
    return TextSpan(text, BBox(x0, 100.0, x0 + 5.0 * len(text), 112.0), 12.0, False, font)


def test_an_italic_run_in_heading_after_its_number_is_split_off() -> None:
    from docparse.backends.headings import split_run_in
    from docparse.backends.lines import make_line, union_boxes

    # amsart's \subsubsection: "1.1.1." upright, the title italic, then the text.
    spans = (
        _font_span("1.1.1.", 72.0, "TeXGyreTermes-Regular"),
        _font_span(" ", 102.0, "TeXGyreTermes-Italic"),
        _font_span("Culture suitable increase.", 107.0, "TeXGyreTermes-Italic"),
        _font_span(" ", 237.0, "TeXGyreTermes-Regular"),
        _font_span("Environment decade module document", 242.0, "TeXGyreTermes-Regular"),
    )
    line = make_line(spans, union_boxes([s.bbox for s in spans]))
    out, heads = split_run_in([line])
    assert [ln.text for ln in out] == [
        "1.1.1. Culture suitable increase",
        "Environment decade module document",
    ]
    assert heads == {id(out[0])}
    # An italic phrase that opens a line with no number is emphasis, not a title.
    emphasis = (
        _font_span("Culture suitable increase.", 72.0, "ABCDEF+NimbusRomNo9L-ReguItal"),
        _font_span(" Environment decade module", 202.0, "ABCDEF+NimbusRomNo9L-Regu"),
    )
    line = make_line(emphasis, union_boxes([s.bbox for s in emphasis]))
    assert split_run_in([line])[1] == set()
