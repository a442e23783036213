"""is_heading and numbering read their tests cheapest first: the same answers as
the rules read in the order their docstrings give them."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from docparse.backends.headings import (
    _APPENDIX,
    _BULLET_CHARS,
    _DECIMAL,
    _LETTER,
    _ROMAN,
    is_heading,
    numbering,
)
from docparse.backends.items import CAPTION, Item
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
    if it.size < body * 0.9:
        return False
    title = text.split(None, 1)[1] if len(words) > 1 else ""
    letters = [c for c in title if c.isalpha()]
    capitals = len(letters) >= 3 and all(c.isupper() for c in letters)
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


@given(_TEXT)
def test_numbering_answers_as_its_patterns(text: str) -> None:
    assert numbering(text) == _numbering_spelled_out(text)


def test_numbering_reads_other_decimal_digits() -> None:
    assert numbering("\u0661.\u0662 Method") == ("decimal", 2)
    assert numbering("\u00b2 Note") == ("", 0)  # a superscript two is no decimal digit
