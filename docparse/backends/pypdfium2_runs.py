"""PDFium's text runs read in bulk, for :mod:`docparse.backends.pypdfium2`.

PDFium's text page gives the rectangles its text runs occupy
(``FPDFText_CountRects``) and the text inside each; a run is a word or a
stretch of words set in one go, with the font size and name of its first
character. :func:`page_runs` reads a page's runs through the raw C API
(:class:`~docparse.backends.pypdfium2_reader.RunReader`), checks the runs
in fonts not yet known for glyphs without Unicode, and makes them
:class:`~docparse.backends.base.TextSpan` records
(:func:`~docparse.backends.pypdfium2_words.run_spans`: runs of one
character each joined into words first).
"""

from __future__ import annotations

import bisect
import itertools
import operator
from typing import Any

from docparse.backends.base import TextSpan
from docparse.backends.glyphs import count_unmapped, strip_unmapped
from docparse.backends.pypdfium2_calls import TextCalls
from docparse.backends.pypdfium2_reader import RunReader, shown_text
from docparse.backends.pypdfium2_words import run_spans


def page_runs(
    textpage: Any,
    raw: Any,
    left: float,
    top: float,
    bold_weight: int,
    mapped: dict[tuple[str, int], set[str]] | None = None,
    calls: TextCalls | None = None,
) -> tuple[list[TextSpan], int]:
    """The non-blank text runs of a PDFium text page as spans in top-left page
    coordinates, and the number of glyphs left out as unmapped
    (:mod:`docparse.backends.glyphs`).

    ``left``/``top`` are the crop box's left and top edge in PDF space.
    ``mapped`` holds, per font (name and flags), the characters already found
    mapped to Unicode in it; pass one dict for all pages of a document. A run
    whose characters are all known in its font is not checked for unmapped
    glyphs again: the check costs a C call per character, more than
    PDFium's own text extraction on a page of text, and a font maps a given
    code the same way everywhere. ``calls``: the document's :class:`TextCalls`
    (made here when not given).
    """
    reader = RunReader(textpage, raw, calls)
    starts = reader.starts()
    fonts = reader.fonts(starts)
    # Where the runs' texts tile the page text, a stretch of runs' text is a
    # slice of it, and the page's runs are cut once (shown) instead of twice.
    cuts = reader.tiles(starts)
    texts = None if cuts is not None else reader.texts(starts)
    known = {} if mapped is None else mapped
    # Each run's characters: from its first to the next run's first (the
    # first run also takes the characters before it, as its text does).
    bounds = [0, *starts[1:], reader.n_chars]
    check: list[int] = []
    for begin, end in _unseen_stretches(reader, starts, fonts, cuts, texts, known):
        seen = known[fonts[begin]]
        if texts is None:
            assert cuts is not None and reader.text is not None
            check += _unseen_runs(reader.text, cuts, begin, end, seen)
        else:
            check += [r for r in range(begin, end) if not seen.issuperset(texts[r])]
    if check and reader.mark_unmapped((bounds[r], bounds[r + 1]) for r in check):
        texts = None if texts is None else reader.texts(starts)
    for r in check:
        if texts is None:
            assert cuts is not None and reader.text is not None
            text = reader.text[cuts[r] : cuts[r + 1]]
        else:
            text = texts[r]
        if "\ufffd" not in text:
            known[fonts[r]].update(text)
    if cuts is not None and reader.text is not None:
        whole = shown_text(reader.text)
        shown = [whole[a:b] for a, b in itertools.pairwise(cuts)]
    else:
        shown = reader.texts(starts, shown=True)
        whole = "".join(shown)
    unmapped = 0
    # A page with no unmapped glyph anywhere has none in a run: no scan a run.
    if count_unmapped(whole) > 0:
        cleaned = []
        for text in shown:
            bad = count_unmapped(text)
            if bad:
                unmapped += bad
                text = strip_unmapped(text)
            cleaned.append(text)
        shown = cleaned
    return run_spans(reader, shown, starts, fonts, (left, top), bold_weight), unmapped


def _unseen_stretches(
    reader: RunReader,
    starts: list[int],
    fonts: list[tuple[str, int]],
    cuts: list[int] | None,
    texts: list[str] | None,
    known: dict[tuple[str, int], set[str]],
) -> list[tuple[int, int]]:
    """The stretches of runs in one font (first run, one past the last) whose
    joined text holds a character not yet known in the font (``known``; fonts
    not in it are put in with no character).

    Runs in one font follow one another: a stretch whose text is all known
    needs no look at each run (once the first pages have been read, nearly
    all of them). Each step is one C-level ``map`` over the stretches (the
    corpus's 808k runs make 89k stretches), not a Python loop.
    ``cuts``: the runs' text bounds when they tile the page text (read then
    from :attr:`RunReader.text`), else ``texts``, the runs' texts.
    """
    n = len(fonts)
    if not n:
        return []
    # Equal fonts are one object (see RunReader.fonts).
    firsts = [0, *itertools.compress(range(1, n), map(operator.is_not, fonts[1:], fonts))]
    ends = [*firsts[1:], n]
    heads = list(map(fonts.__getitem__, firsts))
    for font in set(heads).difference(known):
        known[font] = set()
    if cuts is not None:
        assert reader.text is not None
        pieces = map(
            reader.text.__getitem__,
            map(slice, map(cuts.__getitem__, firsts), map(cuts.__getitem__, ends)),
        )
    else:
        assert texts is not None
        pieces = map("".join, map(texts.__getitem__, map(slice, firsts, ends)))
    seen = map(set.issuperset, map(known.__getitem__, heads), pieces)
    bad = list(itertools.compress(range(len(firsts)), map(operator.not_, seen)))
    return [(firsts[k], ends[k]) for k in bad]


def _unseen_runs(text: str, cuts: list[int], begin: int, end: int, seen: set[str]) -> list[int]:
    """The runs ``begin`` .. ``end - 1`` whose text (``text`` cut at ``cuts``)
    holds a character not in ``seen``, in order.

    Found from where the unseen characters occur (``str.find``, a run by
    bisection) when they occur less often than there are runs (a 10-K page
    of one-character runs has thousands, with a new character or two), else
    run by run.
    """
    lo = cuts[begin]
    piece = text[lo : cuts[end]]
    unseen = set(piece).difference(seen)
    if sum(map(piece.count, unseen)) >= end - begin:
        return [r for r in range(begin, end) if not seen.issuperset(text[cuts[r] : cuts[r + 1]])]
    runs: set[int] = set()
    for char in unseen:
        at = piece.find(char)
        while at >= 0:
            runs.add(bisect.bisect_right(cuts, lo + at, begin, end) - 1)
            at = piece.find(char, at + 1)
    return sorted(runs)
