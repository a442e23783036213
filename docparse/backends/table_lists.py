"""Keyed lists set as tables: a column of short keys beside text that wraps under itself.

An exhibit index (``4.5   Fourth Supplemental Indenture ... / ...continued``)
is a two-column table to a reader and to the filing's own HTML: each key
(``4.5``, ``*10.1``, ``10.16(a)``) stands at the left of its entry, whose
wrapped lines start again at the entry's own left edge (a hanging indent),
never under the key. Finders of rows of numbers pass over it (one number a
row, and long text), and a grid read from baselines would make each wrapped
line a row. :func:`keyed_list_tables` reads such runs as ``key | text`` rows.

A key that is a list marker (``•``, ``1.``, ``(a)``, ``iv)``) makes a list,
not a table, as the EDGAR twin reads a table of bullets; a key in brackets
(``[12]``) is a reference list.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import pairwise

from docparse.backends.table_candidates import Box4, Word, is_number, phrase_gap, words_box
from docparse.backends.table_grid import baseline_rows, row_phrases

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
_DOTS = re.compile(r"(?:\.\s?){3,}")


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
    inside = [w for w in words if top <= (w[1] + w[3]) / 2 <= bottom]
    # Cheap test first: most pages hold no three keys.
    if sum(bool(_KEY.match(w[4])) for w in inside) < 3:
        return []
    min_gap = phrase_gap(inside)
    rows = baseline_rows(inside)
    lines = [row_phrases(r, min_gap) for r in rows]
    keys = [_key_line(p) for p in lines]
    out: list[tuple[Box4, list[list[str]]]] = []
    i = 0
    while i < len(lines):
        first = keys[i]
        if first is None:
            i += 1
            continue
        entries: list[list[int]] = [[i]]
        j = i + 1
        while j < len(lines):
            prev = rows[j - 1]
            height = max(max(w[3] for w in prev) - min(w[1] for w in prev), 6.0)
            if min(w[1] for w in rows[j]) - max(w[3] for w in prev) > 1.2 * height:
                break
            k = keys[j]
            if k is not None and _aligned(first, k):
                entries.append([j])
            elif abs(lines[j][0][0][0] - first[2]) <= _TOLERANCE:
                entries[-1].append(j)
            else:
                break
            j += 1
        if len(entries) >= 3 and not _running_text(lines, entries):
            out.append(_grid(rows, lines, entries, first))
        i = max(j, i + 1)
    return out


def _running_text(
    lines: Sequence[Sequence[Sequence[Word]]], entries: Sequence[Sequence[int]]
) -> bool:
    """Entries that are no table: numbered lines of running text, or a table of contents.

    Line numbers in a margin count up by one and the lines beside them run
    on from each other (many start in lower case); contents entries are led
    by dots to their page numbers.
    """
    keys = [lines[e[0]][0][0][4] for e in entries]
    if all(k.isdigit() for k in keys) and all(int(b) == int(a) + 1 for a, b in pairwise(keys)):
        return True
    texts = [lines[e[0]][1][0][4] for e in entries]
    if sum(t[:1].islower() for t in texts) > 0.3 * len(texts):
        return True
    return any(
        _DOTS.search(" ".join(w[4] for p in lines[k] for w in p)) for e in entries for k in e
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
