"""Keyed lists set as tables: a column of short keys beside text that wraps under itself.

An exhibit index (``4.5   Fourth Supplemental Indenture ... / ...continued``)
is a two-column table to a reader and to the filing's own HTML: each key
(``4.5``, ``*10.1``, ``10.16(a)``) stands at the left of its entry, whose
wrapped lines start again at the entry's own left edge (a hanging indent),
never under the key. Finders of rows of numbers pass over it (one number a
row, and long text), and a grid read from baselines would make each wrapped
line a row. :func:`keyed_list_tables` reads such runs as ``key | text`` rows.

A filing's critical audit matters are a table of another kind: side
labels wrapped in a narrow left column beside paragraphs of text
(:func:`labelled_text_tables`, read as ``label | text`` rows too).

A key that is a list marker (``•``, ``1.``, ``(a)``, ``iv)``) makes a list,
not a table, as the EDGAR twin reads a table of bullets; a key in brackets
(``[12]``) is a reference list.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Sequence
from itertools import pairwise

from docparse.backends.table_candidates import (
    Box4,
    Word,
    is_number,
    overlaps,
    phrase_gap,
    words_box,
)
from docparse.backends.table_regions import page_rows
from docparse.backends.table_rows import baseline_rows, row_phrases
from docparse.text import dot_leader

#: List markers: bullets, ``1.``, ``(1)``, ``a)``, ``(iv)`` (the twin's list-table keys) and
#: clause numbers closed by a dot (``5.8.``: a contract's numbered paragraphs).
_MARKER = re.compile(
    r"^(?:[\u2022\u25cf\u25cb\u25e6\u25aa\u25a0\u2023\u2043\u00b7*\-\u2013\u2014o]"
    r"|\(?\d{1,2}[.)]|\(?[a-z][.)]|\(?[ivxlc]{1,5}[.)]|\d+(?:\.\d+)+\.)$",
    re.IGNORECASE,
)
#: A key: an item number, perhaps marked (``*10.1``, ``10.16(a)``, ``101.INS``, ``31.1``).
_KEY = re.compile(r"^[*\u2020\u2021#]*\d[\w.()\-]*$")
_TOLERANCE = 3.0


def _key_line(phrases: Sequence[Sequence[Word]]) -> tuple[float, float, float] | None:
    """``(key x0, key x1, text x0)`` when a line opens a keyed entry, else ``None``.

    The key is one short word holding a digit, not a list marker; the rest of
    the line is text (two words or more with letters, no phrase a number).
    """
    if len(phrases) < 2 or len(phrases) > 3 or len(phrases[0]) != 1:
        return None
    key = phrases[0][0]
    text = key[4]
    if len(text) > 12 or _MARKER.match(text) or not _KEY.match(text):
        return None
    rest = [w[4] for p in phrases[1:] for w in p]
    if sum(any(ch.isalpha() for ch in t) for t in rest) < 2:
        return None
    if any(all(is_number(w[4]) for w in p) for p in phrases[1:]):
        return None
    return key[0], key[2], phrases[1][0][0]


def _aligned(a: tuple[float, float, float], b: tuple[float, float, float]) -> bool:
    """Two keyed lines of one list: text at one x, keys in one column (their x ranges overlap).

    Keys are set flush left, flush right or centred, and a centred key of
    other digits drifts by a few points, so only the overlap is asked for.
    """
    return abs(a[2] - b[2]) <= _TOLERANCE and a[0] < b[1] and b[0] < a[1]


def keyed_list_tables(
    words: Sequence[Word], top: float = float("-inf"), bottom: float = float("inf")
) -> list[tuple[Box4, list[list[str]]]]:
    """Tables of keyed entries on a page (see the module docstring), as ``(box, rows)``.

    Three or more entries in a run make a table: each opens with a keyed
    line (:func:`_key_line`) aligned with the first entry's, and goes on
    with lines that start at the text's x, nothing left of it; the space
    above each line is at most 1.2 line heights (entries are set a little
    apart, a paragraph further). A line of two short pieces right
    above the first entry, one over each column, is the header row. Only
    words between ``top`` and ``bottom`` (the page's margins) are read.
    """
    rows = _rows_between(words, top, bottom)
    inside = [w for r in rows for w in r]
    if not inside:
        return []
    min_gap = phrase_gap(inside)
    out = labelled_text_tables(rows, min_gap)
    # Cheap test first: most pages hold no three keys.
    if not _has_keys(inside, 3):
        return out
    # A keyed line's first word is its key: only such rows are cut into phrases here.
    keys = [_key_line(row_phrases(r, min_gap)) if _KEY.match(r[0][4]) else None for r in rows]
    lines: list[list[list[Word]]] = []
    i = 0
    while i < len(rows):
        first = keys[i]
        if first is None:
            i += 1
            continue
        entries: list[list[int]] = [[i]]
        j = i + 1
        while j < len(rows):
            prev = rows[j - 1]
            height = max(max(w[3] for w in prev) - min(w[1] for w in prev), 6.0)
            if min(w[1] for w in rows[j]) - max(w[3] for w in prev) > 1.2 * height:
                break
            k = keys[j]
            if k is not None and _aligned(first, k):
                entries.append([j])
            elif abs(rows[j][0][0] - first[2]) <= _TOLERANCE:
                entries[-1].append(j)
            else:
                break
            j += 1
        if len(entries) >= 3:
            lines = lines or [row_phrases(r, min_gap) for r in rows]
        if len(entries) >= 3 and not _running_text(lines, entries):
            box, grid = _grid(rows, lines, entries, first)
            # A keyed run is read as such, not as side labels beside text.
            out = [t for t in out if not overlaps(t[0], box)]
            out.append((box, grid))
        i = max(j, i + 1)
    return out


def _rows_between(words: Sequence[Word], top: float, bottom: float) -> Sequence[Sequence[Word]]:
    """The baseline rows of the words of ``words`` centred between ``top`` and ``bottom``.

    The label/value finder has read the whole page's rows already
    (:func:`~docparse.backends.table_regions.page_rows`). Rows are made top
    down, each from a run of the words in order of their centres, so the
    words between two heights are a run of rows when no row holds words both
    inside and outside the band: the page's rows past the margins at either
    end are left out, and only the first and last rows kept need a look. A
    row across the band's edge (rare: a page number on a text line's
    baseline) makes the band's rows afresh.
    """
    rows = page_rows(words)
    a, b = 0, len(rows)
    while a < b and max(_mids(rows[a])) < top:
        a += 1
    while b > a and min(_mids(rows[b - 1])) > bottom:
        b -= 1
    if a < b and min(_mids(rows[a])) >= top and max(_mids(rows[b - 1])) <= bottom:
        return rows[a:b]
    inside = [w for w in words if top <= (w[1] + w[3]) / 2 <= bottom]
    return baseline_rows(inside) if inside else []


def _mids(row: Sequence[Word]) -> list[float]:
    return [(w[1] + w[3]) / 2 for w in row]


def _has_keys(words: Sequence[Word], n: int) -> bool:
    """Whether ``n`` or more of ``words`` read as keys (:data:`_KEY`)."""
    for w in words:
        if _KEY.match(w[4]):
            n -= 1
            if not n:
                return True
    return False


def _split_at(row: Sequence[Word], x: float) -> tuple[list[Word], list[Word]] | None:
    """A line cut at a text column starting at ``x``: its words left of it and from it on.

    ``None`` unless a word starts at ``x`` (within the tolerance) and every
    word before it ends left of ``x``: a word across the column edge is no
    side label beside a text column.
    """
    at = next((k for k, w in enumerate(row) if abs(w[0] - x) <= _TOLERANCE), None)
    if at is None or any(w[2] > x - 1 for w in row[:at]):
        return None
    return list(row[:at]), list(row[at:])


def labelled_text_tables(
    rows: Sequence[Sequence[Word]], min_gap: float
) -> list[tuple[Box4, list[list[str]]]]:
    """Side labels beside paragraphs of text (``Description of the Matter | At December ...``).

    A filing sets a critical audit matter as a two-column table: a short
    label wrapped in a narrow left column, its text in paragraphs on the
    right. ``rows`` are a page's baseline rows (left to right). A run is a
    text column: lines starting at one x, each either text alone or a label
    line (at most five words, starting at one x, ending left of the text
    column, whatever the spacing of a justified label) beside text. A label
    line starts an entry when the text beside it starts one (the first line,
    or the text line above ended short of the column's right edge, a
    paragraph's end); otherwise it goes on with the label above. Lines
    follow at the run's line pitch (up to 1.5 times it), or one blank line
    further after a paragraph's end: an entry's text may hold paragraphs.
    Two or more entries, each label and text capitalised (a label and a
    paragraph start), with more lines of text alone than label lines (two
    columns of prose have a label on every line), make a
    table of ``label | text`` rows, with a short heading line alone at the
    text column's x right above the first entry as a first row ``'' |
    heading``.
    """
    out: list[tuple[Box4, list[list[str]]]] = []
    # Word starts of each row, left to right, for the cheap test below.
    starts = [[w[0] for w in row] for row in rows]
    i = 0
    while i < len(rows):
        # A label line: its words left of a later word's start; try each start.
        row = rows[i]
        # Cheap tests first: a run opens with a capitalised label and goes on
        # for four lines at least (two entries, more text lines than labels),
        # each with a word starting at the text column's x.
        if i + _MIN_RUN > len(rows) or not row[0][4][:1].isupper():
            i += 1
            continue
        cand = [w[0] for k, w in enumerate(row) if k > 0 and w[0] - row[k - 1][2] > 0.5 * min_gap]
        found = None
        for x in cand:
            if not all(_starts_near(starts[k], x) for k in range(i + 1, i + _MIN_RUN)):
                continue
            found = _labelled_run(rows, i, x)
            if found is not None:
                break
        if found is None:
            i += 1
            continue
        end, grid, box = found
        out.append((box, grid))
        i = end
    return out


#: Lines of the shortest labelled run: two label lines and three of text alone.
_MIN_RUN = 5


def _starts_near(starts: Sequence[float], x: float) -> bool:
    """Whether a word of a row (``starts``: its words' left edges, ascending) may
    start at ``x``: a loose test (half a point wider than :data:`_TOLERANCE`),
    :func:`_split_at` makes the exact one."""
    k = bisect_left(starts, x - _TOLERANCE - 0.5)
    return k < len(starts) and starts[k] <= x + _TOLERANCE + 0.5


def _height(row: Sequence[Word]) -> float:
    return max(max(w[3] for w in row) - min(w[1] for w in row), 6.0)


def _labelled_run(
    rows: Sequence[Sequence[Word]], start: int, x: float
) -> tuple[int, list[list[str]], Box4] | None:
    """The run of :func:`labelled_text_tables` from label line ``start``, its text at ``x``."""
    head = _split_at(rows[start], x)
    if head is None or not head[0] or len(head[0]) > 5 or not head[0][0][4][:1].isupper():
        return None
    key_x = head[0][0][0]
    right = max(w[2] for w in head[1])
    entries: list[tuple[list[Word], list[Word]]] = [(head[0], head[1])]
    used = list(rows[start])
    text_only = 0
    labels = 1
    j = start + 1
    prev_short = False
    pitch = 0.0
    while j < len(rows):
        row = rows[j]
        prev = rows[j - 1]
        step = min(w[1] for w in row) - min(w[1] for w in prev)
        # Lines follow at the run's pitch; after a paragraph's end, one blank line more.
        limit = (2.2 if prev_short else 1.5) * (pitch or _height(prev))
        if step > limit:
            break
        pitch = pitch or step
        cut = _split_at(row, x)
        if cut is None:
            break
        label, text = cut
        if label:
            if len(label) > 5 or abs(label[0][0] - key_x) > _TOLERANCE:
                break
            labels += 1
            if prev_short:
                entries.append((label, text))
            else:
                entries[-1] = (entries[-1][0] + label, entries[-1][1] + text)
        else:
            text_only += 1
            entries[-1] = (entries[-1][0], entries[-1][1] + text)
        used.extend(row)
        right = max(right, max(w[2] for w in text))
        prev_short = max(w[2] for w in text) < right - 0.15 * (right - x)
        j += 1
    # The label column is narrow beside its text; the text lines outnumber the labels.
    narrow = max(w[2] for e in entries for w in e[0]) - key_x < 0.5 * (right - x)
    # Each entry opens a label and a paragraph: capitalised, not a line run on from above.
    opens = all(
        e[0][0][4][:1].isupper() and e[1][0][4][:1].isalnum() and not e[1][0][4][:1].islower()
        for e in entries
    )
    if len(entries) < 2 or text_only <= labels or not narrow or not opens:
        return None
    grid = [[" ".join(w[4] for w in e[0]), " ".join(w[4] for w in e[1])] for e in entries]
    if start > 0:
        above = rows[start - 1]
        gap = min(w[1] for w in rows[start]) - max(w[3] for w in above)
        if abs(above[0][0] - x) <= _TOLERANCE and len(above) <= 6 and gap <= 2 * _height(above):
            grid.insert(0, ["", " ".join(w[4] for w in above)])
            used.extend(above)
    return j, grid, words_box(used)


def _running_text(
    lines: Sequence[Sequence[Sequence[Word]]], entries: Sequence[Sequence[int]]
) -> bool:
    """Entries that are no table: numbered lines of running text, or a table of contents.

    Line numbers in a margin count up by one and the lines beside them run
    on from each other (many start in lower case); contents entries are led
    by dots to their page numbers.
    """
    keys = [lines[e[0]][0][0][4] for e in entries]
    if all(k.isdecimal() for k in keys) and all(int(b) == int(a) + 1 for a, b in pairwise(keys)):
        return True
    texts = [lines[e[0]][1][0][4] for e in entries]
    if sum(t[:1].islower() for t in texts) > 0.3 * len(texts):
        return True
    return any(
        dot_leader(" ".join(w[4] for p in lines[k] for w in p), 3, marks=".")
        for e in entries
        for k in e
    )


def _grid(
    rows: Sequence[Sequence[Word]],
    lines: Sequence[Sequence[Sequence[Word]]],
    entries: Sequence[Sequence[int]],
    first: tuple[float, float, float],
) -> tuple[Box4, list[list[str]]]:
    """The ``key | text`` rows of a run of entries, with a header line above when there is one."""
    grid = [
        [
            lines[e[0]][0][0][4],
            " ".join(w[4] for k in e for p in lines[k][1 if k == e[0] else 0 :] for w in p),
        ]
        for e in entries
    ]
    used = [w for e in entries for k in e for w in rows[k]]
    start = entries[0][0]
    if start > 0:
        head, below = lines[start - 1], rows[start]
        height = max(w[3] for w in below) - min(w[1] for w in below)
        gap = min(w[1] for w in below) - max(w[3] for p in head for w in p)
        if (
            len(head) == 2
            and gap <= 1.5 * max(height, 6.0)
            and head[0][-1][2] < first[2]
            and head[1][0][0] >= first[2] - _TOLERANCE
            and all(len(p) <= 4 for p in head)
        ):
            grid.insert(0, [" ".join(w[4] for w in p) for p in head])
            used.extend(rows[start - 1])
    return words_box(used), grid
