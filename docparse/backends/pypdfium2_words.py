"""Runs made words and spans, for :mod:`docparse.backends.pypdfium2_runs`.

Some PDFs set every character as a text object of its own, and PDFium then
gives a run a character. :func:`run_spans` joins runs the lines would read
as one word anyway (:func:`_word_starts`, :func:`_join_runs`; over arrays
for a page of many runs, :func:`_array_words`) and makes the
:class:`~docparse.backends.base.TextSpan` records, column by column.
"""

from __future__ import annotations

import itertools
import operator
import re
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from docparse.backends.base import TextSpan
from docparse.backends.lines import new_bboxes, new_spans
from docparse.backends.pypdfium2_reader import RunReader
from docparse.backends.tex_fonts import extension_rects, is_extension

# A name that says the weight is regular: PDFium's weight, estimated from the
# font's stems when its descriptor gives none, reads 724 for Utopia-Regular.
_REGULAR_FONT = re.compile(r"regular|roman|book|light|thin", re.IGNORECASE)
_BOLD_FONT = re.compile(r"bold|black|heavy|semibold|demi|cmbx|,b\b|-b\b", re.IGNORECASE)
_NAME = operator.itemgetter(0)
#: A string's last character ('' for '').
_LAST = operator.itemgetter(slice(-1, None))


#: Pages with at least this many runs find their words over arrays (numpy's
#: cost a call is repaid past about this many runs; fewer go by the loop).
ARRAY_RUNS = 512


def run_spans(
    reader: RunReader,
    shown: list[str],
    starts: list[int],
    fonts: list[tuple[str, int]],
    corner: tuple[float, float],
    bold_weight: int,
) -> list[TextSpan]:
    """The runs with text as spans, made column by column (one C-level ``map``
    a field instead of a Python loop a run: a page can have thousands)."""
    stripped = list(map(str.strip, shown))
    n = len(stripped)
    box = reader.boxes[:n]
    # A run that ends in a space (PDFium's generated word gap), or before a
    # blank run, ends a word. (Its last character is one for str.rstrip: one
    # test of a one-character slice instead of a strip and two lengths.)
    spaced = list(map(str.isspace, map(_LAST, shown)))
    if not all(stripped):
        spaced = list(map(operator.or_, spaced, [*map(operator.not_, stripped[1:]), False]))
        keep = stripped  # the non-blank runs
        starts = list(itertools.compress(starts, keep))
        fonts = list(itertools.compress(fonts, keep))
        spaced = list(itertools.compress(spaced, keep))
        box = box[np.fromiter(map(bool, keep), bool, n)]
        stripped = list(filter(None, keep))
        n = len(stripped)
    if not n:
        return []
    calls, handle = reader.calls, reader.handle
    # The run's first character carries its font size.
    sizes = list(map(calls.font_size, itertools.repeat(handle, n), starts))
    if any(is_extension(name) for name, _ in set(fonts)):
        box = extension_rects(box, stripped, fonts, sizes)
    left, top = corner
    if n >= ARRAY_RUNS:
        stripped, edges, starts, fonts, sizes = _array_words(
            box, stripped, starts, fonts, sizes, spaced
        )
        x0, y0, x1, y1 = edges  # PDF space: y grows upwards
        # numpy's float64 arithmetic is Python's: the same coordinates.
        boxes = new_bboxes(
            (x0 - left).tolist(), (top - y1).tolist(), (x1 - left).tolist(), (top - y0).tolist()
        )
    else:
        columns: list[list[float]] = box.T.tolist()
        cuts = _word_starts(columns, fonts, sizes, spaced)
        if len(cuts) < n:
            stripped, columns, starts, fonts, sizes = _join_runs(
                cuts, stripped, columns, starts, fonts, sizes
            )
        a0, b0, a1, b1 = columns
        boxes = new_bboxes(
            map(operator.sub, a0, itertools.repeat(left)),
            map(operator.sub, itertools.repeat(top), b1),
            map(operator.sub, a1, itertools.repeat(left)),
            map(operator.sub, itertools.repeat(top), b0),
        )
    names = list(map(_NAME, fonts))
    # A font's weight is read once, at its first run.
    bold_of = {
        name: bool(_BOLD_FONT.search(name))
        or (
            not _REGULAR_FONT.search(name)
            and calls.font_weight(handle, starts[names.index(name)]) >= bold_weight
        )
        for name in set(names)
    }
    bolds = list(map(bold_of.__getitem__, names))
    return new_spans(stripped, boxes, sizes, bolds, names)


_Floats = npt.NDArray[np.float64]


def _array_words(
    box: _Floats,
    texts: list[str],
    starts: list[int],
    fonts: list[tuple[str, int]],
    sizes: list[float],
    spaced: list[bool],
) -> tuple[list[str], tuple[_Floats, ...], list[int], list[tuple[str, int]], list[float]]:
    """:func:`_word_starts` and :func:`_join_runs` over arrays, for a page of many runs.

    ``box``: the runs' left, bottom, right and top edges, a row each. The
    same tests, each over all runs at once; ``np.where`` where the loop takes
    the smaller or larger of two, so that a NaN edge decides as there. The
    words' edges come back as four arrays.
    """
    n = len(texts)
    # Equal fonts are one object (see RunReader.fonts): its id tells them apart.
    font = np.fromiter(map(id, fonts), np.int64, n)
    size = np.array(sizes, np.float64)
    x0, b, x1, t = box.T
    h = t - b
    s = size[1:]
    join = (
        (font[1:] == font[:-1])
        & (s == size[:-1])
        & ~np.fromiter(spaced, bool, n)[:-1]
        & (x0[:-1] <= x0[1:])
        & (x1[:-1] <= x1[1:])
        & (x0[1:] - x1[:-1] <= 0.15 * np.where(s > 1.0, s, 1.0))
    )
    # On one baseline: the boxes overlap by more than half the smaller height.
    overlap = np.where(t[1:] < t[:-1], t[1:], t[:-1]) - np.where(b[1:] > b[:-1], b[1:], b[:-1])
    join &= overlap > 0.5 * np.where(h[1:] < h[:-1], h[1:], h[:-1])
    if not join.any():
        return texts, (x0, b, x1, t), starts, fonts, sizes
    cuts = np.flatnonzero(np.concatenate(([True], ~join)))
    ends = np.append(cuts[1:], n)
    first, stop = cuts.tolist(), ends.tolist()
    groups = list(map(slice, first, stop))
    words = list(map("".join, map(texts.__getitem__, groups)))
    if np.isfinite(box[:, 1::2]).all() and box[:, 1::2].all():
        bottom, top = np.minimum.reduceat(b, cuts), np.maximum.reduceat(t, cuts)
    else:
        # min() and max() as the loop takes them: numpy's differ on NaN and on -0.0 against 0.0.
        bs, ts = b.tolist(), t.tolist()
        bottom = np.array(list(map(min, map(bs.__getitem__, groups))), np.float64)
        top = np.array(list(map(max, map(ts.__getitem__, groups))), np.float64)
    pick = operator.itemgetter(*first) if len(first) > 1 else None

    def firsts(column: list[Any]) -> list[Any]:
        return list(pick(column)) if pick is not None else [column[0]]

    return (
        words,
        (x0[cuts], bottom, x1[ends - 1], top),
        firsts(starts),
        firsts(fonts),
        firsts(sizes),
    )


def _word_starts(
    edges: Sequence[Sequence[float]],
    fonts: Sequence[tuple[str, int]],
    sizes: Sequence[float],
    spaced: Sequence[bool],
) -> list[int]:
    """The runs that start a word, by index: the others go on the word of the run before.

    ``edges``: the runs' left, bottom, right and top edges (PDF space), a
    column each. Some PDFs set every character as a text object of its own
    (PDFium then gives a run a character), and the assembly would work a
    character at a time. A run goes on the word before it when the lines
    would read the two as one word anyway: same font and size, no generated
    space between them (the run before does not end in one), on one
    baseline (the boxes overlap by more than half the smaller height), left
    to right (both edges), and a gap no wider than the one
    :class:`~docparse.backends.pages.Line` puts no space in (0.15 of the
    size). The lines are then made of words, as from the other backends: one
    glyph's box no longer decides the row its neighbours join (``Washin t g
    on`` read as two rows of letters).
    """
    x0s, bs, x1s, ts = edges
    n = len(x0s)
    # Whether a run joins the one before depends on the two alone, and one
    # after a run that ends in a space never does: only the others are looked
    # at (on a page of words, a few of its runs).
    joined = []
    for i in itertools.compress(range(1, n), map(operator.not_, spaced)):
        k = i - 1
        size = sizes[i]
        x0, pb, px1, pt = x0s[i], bs[k], x1s[k], ts[k]
        # PDF space: b is the bottom, t the top.
        if (
            fonts[i] is fonts[k]
            and size == sizes[k]
            and x0s[k] <= x0
            and px1 <= x1s[i]
            and x0 - px1 <= 0.15 * (size if size > 1.0 else 1.0)
        ):
            # Glyph boxes on one baseline: a descender's or a full stop's box
            # overlaps its neighbour's by most of the smaller height.
            b, t = bs[i], ts[i]
            h, ph = t - b, pt - pb
            if (t if t < pt else pt) - (b if b > pb else pb) > 0.5 * (h if h < ph else ph):
                joined.append(i)
    if not joined:
        return list(range(n))
    keep = [True] * n
    for i in joined:
        keep[i] = False
    return list(itertools.compress(range(n), keep))


def _join_runs(
    cuts: list[int],
    texts: list[str],
    edges: Sequence[Sequence[float]],
    starts: list[int],
    fonts: list[tuple[str, int]],
    sizes: list[float],
) -> tuple[list[str], list[list[float]], list[int], list[tuple[str, int]], list[float]]:
    """The runs joined into the words :func:`_word_starts` cut: texts joined,
    boxes united (``edges`` as there, a column each); the first run's start,
    font and size. (Each a C-level ``map`` over the words.)"""
    x0s, bs, x1s, ts = edges
    ends = [*cuts[1:], len(texts)]
    groups = list(map(slice, cuts, ends))
    first = operator.itemgetter(*cuts)
    last = operator.itemgetter(*map(operator.sub, ends, itertools.repeat(1)))

    def pick(getter: Callable[[Sequence[Any]], Any], column: Sequence[Any]) -> list[Any]:
        got = getter(column)
        return list(got) if len(cuts) > 1 else [got]

    # Joined runs go left to right in both edges: the first's left, the last's right.
    many = list(
        itertools.compress(
            range(len(cuts)), map(operator.gt, map(operator.sub, ends, cuts), itertools.repeat(1))
        )
    )
    if 2 * len(many) < len(cuts):
        # Most words are one run (a comma or a quote joined here and there): the
        # runs' own text, bottom and top, replaced for the words of several.
        words, bottoms, tops = pick(first, texts), pick(first, bs), pick(first, ts)
        for k in many:
            group = groups[k]
            words[k] = "".join(texts[group])
            bottoms[k] = min(bs[group])
            tops[k] = max(ts[group])
    else:
        words = list(map("".join, map(texts.__getitem__, groups)))
        bottoms = list(map(min, map(bs.__getitem__, groups)))
        tops = list(map(max, map(ts.__getitem__, groups)))
    box = [pick(first, x0s), bottoms, pick(last, x1s), tops]
    return words, box, pick(first, starts), pick(first, fonts), pick(first, sizes)
