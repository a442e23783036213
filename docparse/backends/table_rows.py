"""Rows of a table region's words: baselines, phrases, leader dots taken out.

The first step of reading a table from its words, shared by the grid reader
(:mod:`docparse.backends.table_grid`) and the region finders: words grouped
into rows by their baselines (:func:`baseline_rows`), a row cut into the
phrases of its cells (:func:`row_phrases`), and dot leaders and typed rules,
which a reader sees as gaps and rules rather than text, taken out
(:func:`without_leaders`).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence
from operator import itemgetter

from docparse.backends.table_candidates import Box4, Word, is_number
from docparse.text import ALNUM, dot_leader

#: A run of leader dots ("......", ". . . .") or a typed rule ("-----", "=====", "_____").
_LEADER = re.compile(r"(?:\.\s?){3,}|[-=_\u2014\u2013]{3,}|[\u2026\u00b7]{2,}")
_MID_DOTS = "\u00b7\u2026"


def without_leaders(words: Iterable[Word]) -> list[Word]:
    """Words with dot leaders and typed rules taken out.

    A typewriter table leads each row label to its first value with dots
    (``0.99 ........ 800``) and underlines its header with a line of hyphens:
    a reader sees the dots as the gap between two cells and the hyphens as a
    rule, never as cell text. A word that is all leader is dropped; a leader
    at either end of a word is cut off and the word's box shrunk in
    proportion to the characters left (the label ``0.99`` of ``0.99......``).
    A lone ``-`` or ``—`` (a nil value) and an ellipsis of two dots stay, and
    so does a word of three middle dots or fewer (``···``, LaTeX's ``\\cdots``):
    it stands in a cell for a missing value, where a leader fills a gap.
    """
    out: list[Word] = []
    for w in _without_dot_runs(words):
        text = w[4]
        bare = text.strip()
        if _LEADER.fullmatch(bare):
            if bare[0] in _MID_DOTS and not dot_leader(bare, 4, marks=_MID_DOTS):
                out.append(w)
            continue
        m = _LEADER.search(text)
        if m is None:
            out.append(w)
            continue
        n = len(text)
        if m.end() == n and m.start() > 0:
            keep = text[: m.start()].rstrip()
            out.append((w[0], w[1], w[0] + (w[2] - w[0]) * len(keep) / n, w[3], keep))
        elif m.start() == 0 and m.end() < n:
            keep = text[m.end() :].lstrip()
            out.append((w[2] - (w[2] - w[0]) * len(keep) / n, w[1], w[2], w[3], keep))
        else:
            out.append(w)
    return out


def _without_dot_runs(words: Iterable[Word]) -> list[Word]:
    """Words with runs of four or more lone full stops on one line taken out.

    A leader spaced wider than a word space (``All people . . . . .``) comes
    from some libraries as one word a dot; each dot alone is no leader, and
    a column of them down the rows reads as values (nil marks). A run is
    four such words or more in a row, one after the other on one line, each
    at most three dot heights from the one before.
    """
    ws = list(words)
    drop: set[int] = set()
    run: list[int] = []
    for i, w in enumerate([*ws, None]):
        if w is not None and w[4] and not w[4].strip("."):
            prev = ws[run[-1]] if run else None
            if prev is None or (
                w[0] > prev[0]
                and w[0] - prev[2] <= 3 * (w[3] - w[1])
                and w[1] < prev[3]
                and prev[1] < w[3]
            ):
                run.append(i)
                continue
        if len(run) >= 4:
            drop.update(run)
        run = [i] if w is not None and w[4] and not w[4].strip(".") else []
    return [w for i, w in enumerate(ws) if i not in drop] if drop else ws


def has_leaders(words: Iterable[Word], box: Sequence[float]) -> bool:
    """Whether a word inside ``box`` holds a run of three leader dots (``...``).

    Full stops only: spaced middle dots (``· · ·``) fill a table cell that
    has no value, as in astronomy tables, and lead nowhere. A leader read
    as one word a dot (:func:`_without_dot_runs`) counts too.
    """
    inside = [
        w
        for w in words
        if box[0] <= (w[0] + w[2]) / 2 <= box[2] and box[1] <= (w[1] + w[3]) / 2 <= box[3]
    ]
    if any(dot_leader(w[4], 3, marks=".") for w in inside):
        return True
    return len(_without_dot_runs(inside)) < len(inside)


def baseline_rows(words: Sequence[Word]) -> list[list[Word]]:
    """Words grouped into rows by their baselines, top down; each row left to right.

    A word joins the row above when its vertical centre lies inside that
    row's extent: a superscript or a taller bold word stays on its line.
    Words of one baseline stand side by side, so a word under most of the
    width of a word already in the row starts the next row: a math font's
    glyph boxes reach far above and below its baseline (``𝜀(𝑇1)`` boxed
    16 points high in a row pitch of 11), and the row under them would
    otherwise have its centre inside their extent.

    The finders and the grid reader ask for the rows of one region several
    times over (its grid, stacked or side-by-side tables, its caption): the
    last few answers are kept, and each caller gets lists of its own.
    """
    return [list(r) for r in _rows_of(tuple(words))]


@functools.lru_cache(maxsize=16)
def _rows_of(words: tuple[Word, ...]) -> tuple[tuple[Word, ...], ...]:
    rows: list[list[Word]] = []
    bottom = top = float("-inf")
    # The right end of the current row's words: a word starting at or past it
    # lies under none of them (_stacked's answer is no without asking).
    reach = float("-inf")
    # Ordered by centre, then left side; the index keeps equal words in input order.
    order = sorted([((w[1] + w[3]) / 2, w[0], i) for i, w in enumerate(words)])
    for mid, _, i in order:
        w = words[i]
        if rows and top <= mid <= bottom and (w[0] >= reach or not _stacked(w, rows[-1])):
            rows[-1].append(w)
            # max(bottom, min(w[3], cap)), as the builtins pick (NaN included).
            cap = mid + (bottom - top)
            low = cap if cap < w[3] else w[3]
            if low > bottom:
                bottom = low
            if w[2] > reach:
                reach = w[2]
        else:
            rows.append([w])
            top, bottom, reach = w[1], w[3], w[2]
    for r in rows:
        r.sort(key=_LEFT)
    return tuple(tuple(r) for r in rows)


_LEFT = itemgetter(0)


def _stacked(w: Word, row: Sequence[Word]) -> bool:
    """``w`` sits under (or over) a word of ``row``: they share most of the
    wider one's width (a subscript under a superscript, ``Ψ2`` over ``1``,
    shares only its own) and more than the lower box's height (a
    one-character subscript under its superscript shares less), and their
    centres are apart by more than a quarter of the lower box's height (a
    word printed twice for a bold effect has one centre). A mark with no
    letter or digit (the arrow under ``lim``) belongs to the word it is set
    against. One-character words are left alone: rotated text comes as a
    column of letters, each boxed under the one before, and would become a
    row per letter."""
    if len(w[4]) < 2 or not ALNUM.search(w[4]):
        return False
    x0, x1 = w[0], w[2]
    # Only words across w's x-range can share its width: test those alone
    # (baseline_rows asks this of every word against its whole row).
    over = [o for o in row if o[0] < x1 and o[2] > x0]
    if not over:
        return False
    mid = (w[1] + w[3]) / 2
    for o in over:
        if len(o[4]) < 2 or not ALNUM.search(o[4]):
            continue
        wider = max(w[2] - w[0], o[2] - o[0])
        lower = min(w[3] - w[1], o[3] - o[1])
        shared = min(w[2], o[2]) - max(w[0], o[0])
        apart = abs(mid - (o[1] + o[3]) / 2) > 0.25 * lower
        if wider > 0 and shared > max(0.5 * wider, lower) and apart:
            return True
    return False


def row_phrases(row: Sequence[Word], min_gap: float) -> list[list[Word]]:
    """A row's words split where the gap is wider than ``min_gap`` (cells of one row)."""
    out: list[list[Word]] = []
    for w in row:
        if out and w[0] - out[-1][-1][2] <= min_gap:
            out[-1].append(w)
        else:
            out.append([w])
    return out


def clip_rows(words: Iterable[Word], clip: Sequence[float]) -> list[list[Word]]:
    """Baseline rows (:func:`baseline_rows`) of the words centred inside
    ``clip``, leader dots and typed rules taken out."""
    inside = without_leaders(
        w
        for w in words
        if clip[0] <= (w[0] + w[2]) / 2 <= clip[2] and clip[1] <= (w[1] + w[3]) / 2 <= clip[3]
    )
    return baseline_rows(inside)


def valued_row(row: Sequence[Word]) -> bool:
    """A row of values: two or more numbers (a number ending in a comma is
    part of a date or a list, not a value)."""
    return sum(is_number(w[4]) and w[4][-1] != "," for w in row) >= 2


def cut_above(
    rows: Sequence[Sequence[Word]], starts: Sequence[int], clip: Sequence[float]
) -> list[Box4]:
    """``clip`` cut above each row of ``starts`` (indices into ``rows``), halfway
    between that row and the one before it."""
    out: list[Box4] = []
    top = clip[1]
    for s in starts:
        cut = (max(w[3] for w in rows[s - 1]) + min(w[1] for w in rows[s])) / 2
        out.append((clip[0], top, clip[2], cut))
        top = cut
    out.append((clip[0], top, clip[2], clip[3]))
    return out


def value_count(row: Sequence[Word], min_gap: float) -> int:
    """Values in a row: numbers standing as cells of their own, not inside a phrase of words.

    A date's day (``31,``) is no value; numbers set a space apart (a
    typewriter table's columns) are one value each.
    """
    return sum(
        len(p)
        for p in row_phrases(row, min_gap)
        if all(is_number(w[4]) and w[4][-1] != "," for w in p)
    )
