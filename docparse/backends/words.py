"""Text helpers of the layout assembly: ligatures, the document's own vocabulary,
de-hyphenation, joining a paragraph's lines, and table rows continued on the next line.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from itertools import filterfalse

from docparse.backends.table_headers import UNITS_LINE, is_data_row
from docparse.text import line_joiner

_LIGATURES = {
    "\ufb00": "ff",
    "\ufb01": "fi",
    "\ufb02": "fl",
    "\ufb03": "ffi",
    "\ufb04": "ffl",
    "\ufb05": "st",
    "\ufb06": "st",
}


_LIG_TABLE = str.maketrans(_LIGATURES)


_HYPHENS = "-\u2010\u2011\u00ad"


_WORD_RE = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?", re.UNICODE)
#: :data:`_WORD_RE` for ASCII text: its letters are A-Z and a-z, its one apostrophe ``'``.
_ASCII_WORD = re.compile(r"[A-Za-z]+(?:'[A-Za-z]+)?")


_DIGITS = re.compile(r"\d+")


_ROMAN = re.compile(r"\b[ivxlcdm]{1,7}\b", re.IGNORECASE)


_LIGATURE = re.compile("[\ufb00-\ufb06]")


def expand_ligatures(text: str) -> str:
    """Replace typographic ligature characters (U+FB00-FB06) by their letters."""
    # translate looks each character up in a dict: most text has no ligature.
    if text.isascii() or not _LIGATURE.search(text):
        return text
    return text.translate(_LIG_TABLE)


def vocabulary(lines: Iterable[str]) -> set[str]:
    """Lower-cased words of ``lines``, leaving out line-final hyphenated fragments."""
    vocab: set[str] = set()
    # Words never span whitespace, so the lines' words are the words of their
    # tokens: each distinct token is read once (a document repeats most of its
    # tokens), by one regex scan over them all, and each word lower-cased once.
    tokens: set[str] = set()
    for line in lines:
        toks = line.split()
        if not toks:
            continue
        last = toks[-1]
        if last[-1:] in _HYPHENS:
            toks.pop()
            tok = last.rstrip(_HYPHENS)
            # The fragment before a line-end hyphen is not evidence of a word,
            # but the complete parts before it are ("state-of-the-").
            parts = tok.split("-")[:-1]
            vocab.update(p.lower() for p in parts if p.isalpha())
        tokens.update(toks)
        if "-" in line:
            vocab.update(tok.strip(".,;:()[]\"'").lower() for tok in toks if "-" in tok)
    # _WORD_RE on ASCII text is _ASCII_WORD, and lower-casing ASCII text
    # first changes no match but its case: the ASCII tokens (most) are read
    # by the simpler pattern, lower-cased at once.
    vocab.update(_ASCII_WORD.findall("\n".join(filter(str.isascii, tokens)).lower()))
    others = "\n".join(filterfalse(str.isascii, tokens))
    vocab.update(map(str.lower, set(_WORD_RE.findall(others))))
    return vocab


def _join_hyphenated(left: str, right: str, vocab: set[str]) -> str:
    """Join ``left`` (ending with a hyphen) and ``right`` across a line break."""
    stem = left.rstrip(_HYPHENS)
    lw = _WORD_RE.findall(stem)
    rw = _WORD_RE.findall(right)
    if not lw or not rw or not stem[-1:].isalpha() or not right[:1].isalpha():
        # "1990-" / "-1995", "(a)-" etc.: keep the hyphen, no space.
        return stem + "-" + right
    last = lw[-1]
    first = rw[0]
    if len(last) < 2 or len(first) < 2:
        # Hyphenation leaves two letters or more on each side of a break (TeX's
        # \lefthyphenmin and \righthyphenmin): "V-" / "A", "x-" / "axis" is a
        # hyphen of the text at a line end, not a word broken there.
        return stem + "-" + right
    joined = (last + first).lower()
    if joined in vocab:
        return stem + right
    if f"{last}-{first}".lower() in vocab:
        return stem + "-" + right
    if last.lower() in vocab and first.lower() in vocab:
        return stem + "-" + right
    return stem + right


def join_lines(lines: Sequence[str], vocab: set[str], *, dehyphenate: bool = True) -> str:
    """Join the lines of one paragraph into one string.

    Lines are joined with a space (none between two CJK characters, see
    :func:`docparse.text.line_joiner`), except that a word broken by an
    end-of-line hyphen is rejoined when ``dehyphenate`` is on: without the
    hyphen when the joined word occurs in ``vocab`` or its parts are not both
    words, with the hyphen otherwise (``state-of-the-art``).

    >>> join_lines(["high fi-", "delity"], {"fidelity"})
    'high fidelity'
    >>> join_lines(["state-of-the-", "art model"], {"state", "of", "the", "art"})
    'state-of-the-art model'
    >>> join_lines(["現在プロ", "グラム"], set())
    '現在プログラム'
    """
    out = ""
    for raw in lines:
        line = raw.strip()
        if not line:
            continue
        if not out:
            out = line
            continue
        if dehyphenate and out[-1] in _HYPHENS and len(out) > 1 and out[-2].isalpha():
            head, _, left = out.rpartition(" ")
            first, _, rest = line.partition(" ")
            merged = _join_hyphenated(left, first, vocab)
            out = (head + " " if head else "") + merged + (" " + rest if rest else "")
        else:
            out = out + line_joiner(out, line) + line
    return out


def _norm_key(text: str) -> str:
    """Key of a margin line for repetition counting: digits/roman numerals normalised."""
    t = _DIGITS.sub("#", text.lower())
    t = _ROMAN.sub("#", t) if len(t) < 12 else t
    # str.split() splits at what re's \s matches (str.isspace()).
    return "".join(t.split())


#: Words a header cell cannot end with: the cell goes on in the line below.
_OPEN_END = re.compile(r"(?:[-,]|\b(?:of|and|or|per|the|in|for|to|by|at|on|with))$", re.IGNORECASE)


def _continues(above: str, text: str, *, lower_case: bool) -> bool:
    """``text`` (one line down in the same column) reads as the rest of ``above``.

    A units line ("(In millions)") is a header row of its own, never the rest
    of the column header above it.
    """
    if UNITS_LINE.match(text):
        return False
    return bool(
        (lower_case and text[:1].islower()) or text.startswith("(") or _OPEN_END.search(above)
    )


#: A period head: a year, maybe with its month and day or a fiscal-year mark (``2023``, ``FY23``).
_PERIOD = re.compile(r"^(?:[A-Za-z]{3,9}\.? \d{1,2}, )?(?:FY ?\d{2}|FY ?20\d{2}|(?:19|20)\d{2})$")


def _spans_periods(prev: Sequence[str], row: Sequence[str], filled: Sequence[int]) -> bool:
    """Whether ``prev``, one head over a line of two or more period heads, spans them.

    ``Year Ended December 31,`` over ``2021 | 2022 | 2023`` heads the three
    years; it is no first line of the year it was placed over, though it
    ends in a comma as a wrapped ``December 31,`` over ``2023`` does (that
    one stands over its own column only, one head over each).
    """
    heads = [c.strip() for c in prev if c.strip()]
    periods = [row[i].strip() for i in filled if i > 0]
    return len(heads) == 1 and len(periods) >= 2 and all(_PERIOD.match(c) for c in periods)


def merge_continuation_rows(rows: Sequence[Sequence[str]]) -> tuple[tuple[str, ...], ...]:
    """Fold a cell's wrapped second line, detected as its own row, back into the cell.

    Table finders split a cell printed on two lines into two rows when the
    PDF draws a box per text line or when rows are found from text lines.
    Three cases are folded back; empty rows are dropped.

    * A row holding exactly one non-empty cell, below a row holding that cell
      and at least one other, whose text reads as a continuation (starts in
      lower case or with "(", or the cell above ends with a hyphen, comma or
      a word such as "of"/"and").
    * In the header (no row of mostly numbers above), a row of several cells
      whose every cell under a non-empty cell continues it by the stricter
      test (the cell above ends with a hyphen, comma or such a word, or the
      text starts with "("; lower case alone is common in headers): the two
      lines are one header row ("Margin of" / "error (±)"), and the cells of
      the lower line under empty cells move up with it.
    * A row label alone on its line (not a section label ending in ":"),
      above a row of values whose label continues it ("Increases to tax
      positions taken in" / "acquisitions | 252 | —"): one row, the values
      on the last line as statements print them.
    """
    out: list[list[str]] = []
    in_header = True
    for row in rows:
        filled = [i for i, c in enumerate(row) if c.strip()]
        if not filled:
            continue  # spacer rows between ruled lines carry nothing
        if out and len(filled) == 1:
            col = filled[0]
            prev = out[-1]
            text = row[col].strip()
            above = prev[col].strip() if col < len(prev) else ""
            others = sum(1 for i, c in enumerate(prev) if i != col and c.strip())
            if above and others and _continues(above, text, lower_case=True):
                joiner = "" if above.endswith("-") and text[:1].islower() else " "
                prev[col] = above + joiner + text
                continue
        data = is_data_row(row)
        # A row label wrapped over two lines, its values on the last line (a
        # statement's values stand at the bottom of their row): the label line
        # alone above is the label's start. A section label ends with ":".
        if out and filled[0] == 0 and len(filled) > 1 and data:
            prev = out[-1]
            label = prev[0].strip()
            alone = label and not any(c.strip() for c in prev[1:])
            if (
                alone
                and not label.endswith(":")
                and _continues(label, row[0].strip(), lower_case=True)
            ):
                out[-1] = [f"{label} {row[0].strip()}", *row[1:]]
                continue
        if out and in_header and not data and len(filled) > 1:
            prev = out[-1]
            shared = [i for i in filled if i < len(prev) and prev[i].strip()]
            if (
                shared
                and not _spans_periods(prev, row, filled)
                and all(
                    _continues(prev[i].strip(), row[i].strip(), lower_case=False) for i in shared
                )
            ):
                prev.extend([""] * (len(row) - len(prev)))
                for i in filled:
                    above = prev[i].strip()
                    joiner = "" if above.endswith("-") else " "
                    prev[i] = above + joiner + row[i].strip() if above else row[i].strip()
                continue
        in_header = in_header and not data
        out.append(list(row))
    return tuple(tuple(r) for r in out)
