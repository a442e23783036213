"""PDFium's text runs found on a text page, for :mod:`docparse.backends.pypdfium2_runs`.

PDFium's text page gives the rectangles its text runs occupy
(``FPDFText_CountRects``) and the text inside each; a run is a word or a
stretch of words set in one go. :class:`RunReader` finds each run's first
character through the raw C API (a few C calls a run), cuts the page text
at them and reads the runs' fonts; :func:`shown_text` puts PDFium's marks
back as the characters they stand for.
"""

from __future__ import annotations

import ctypes
import itertools
import re
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from docparse.backends.pypdfium2_calls import TextCalls, ulong
from docparse.backends.pypdfium2_wide import restore_wide, unit_of
from docparse.backends.tex_fonts import reads_as_itself, write_glyph

#: PDFium reports an end-of-line hyphen as U+FFFE and line breaks as CR LF.
_PDFIUM_CHARS = {"\ufffe": "-", "\r": " ", "\n": " ", "\x02": "-"}


def shown_text(text: str) -> str:
    """``text`` with PDFium's marks as the characters they stand for (:data:`_PDFIUM_CHARS`)."""
    # One replace a mark (a scan in C each) instead of str.translate's dict
    # lookup a character; no replacement is itself a mark.
    for mark, char in _PDFIUM_CHARS.items():
        if mark in text:
            text = text.replace(mark, char)
    return text


_SURROGATE = re.compile("[\ud800-\udfff]")
#: A line break of PDFium's text before a line's first character.
_LINE_START = re.compile("\n(?=[^ \r\n])")


class RunReader:
    """Reads a PDFium text page's runs in bulk, through the raw C API.

    A run is what PDFium makes one text rectangle of (``FPDFText_CountRects``):
    the consecutive characters of one text object, generated characters
    (spaces, line breaks) and characters without a box skipped. The page's
    rectangles are read once; each run's first character is then found by
    counting rectangles over character ranges (a run starts where the count
    over the range from the previous run's start reaches two), galloping then
    bisecting, a few C calls a run instead of one per character.

    The text comes from one ``get_text_range`` of the page, cut at the runs'
    first characters mapped to text indices
    (``FPDFText_GetTextIndexFromCharIndex``): PDFium's text leaves out or
    inserts characters against its character list and counts UTF-16 code
    units, so character indices do not index the text.
    """

    def __init__(self, textpage: Any, raw: Any, calls: TextCalls | None = None) -> None:
        self.raw = raw
        self.calls = calls = TextCalls(raw) if calls is None else calls
        self.handle = handle = calls.handle(textpage.raw)
        self.n_chars = int(calls.count_chars(handle))
        # PDFium's text indices count UTF-16 code units (a math italic letter is
        # two), so the text is cut as UTF-16; surrogatepass keeps a lone
        # surrogate from shifting the indices after it.
        text = textpage.get_text_range(errors="surrogatepass") if self.n_chars > 0 else ""
        self.units = text.encode("utf-16-le", "surrogatepass")
        self.n_units = len(self.units) // 2
        #: Text indices of the characters PDFium's text drops (see :meth:`_restore_wide`).
        self._dropped: list[int] = []
        if self.n_units:
            text = self._restore_wide(text)
        # Without a letter outside the BMP (two units) or a lone surrogate (which
        # decoding would replace) a UTF-16 unit is a character, and the text is
        # cut as a string: the pieces decoding ``units`` piece by piece gives,
        # at a fraction of the cost.
        plain = len(text) == self.n_units and not _SURROGATE.search(text)
        self.text: str | None = text if plain else None
        self._bounds: tuple[Sequence[int], list[int]] | None = None
        self.n_rects = int(calls.count_rects(handle, 0, -1)) if self.n_chars > 0 else 0
        #: The rectangles' left, bottom, right and top edges, PDF space (y upwards), a row each.
        self.boxes = calls.rects(handle, self.n_rects)

    def _restore_wide(self, text: str) -> str:
        """``text`` with the characters outside the BMP that PDFium's text
        drops put back (:func:`~docparse.backends.pypdfium2_wide.restore_wide`)."""
        to_text, handle, n = self.calls.text_index, self.handle, self.n_chars
        last = next((t for k in range(n - 1, -1, -1) if (t := int(to_text(handle, k))) >= 0), -1)
        restored = restore_wide(
            self.units, self.text_index(0, n), last, n, self.calls.unicode, to_text, handle
        )
        if restored is None:
            return text
        self.units, self._dropped = restored
        self.n_units = len(self.units) // 2
        return self.units.decode("utf-16-le", "surrogatepass")

    def _unit(self, t: int) -> int:
        """The text unit of text index ``t`` (:func:`~docparse.backends.pypdfium2_wide.unit_of`)."""
        return unit_of(t, self._dropped)

    @property
    def edges(self) -> tuple[list[float], ...]:
        """The rectangles' left, bottom, right and top edges as four columns."""
        return tuple(self.boxes[:, k].tolist() for k in range(4))

    def mark_unmapped(self, ranges: Iterable[tuple[int, int]]) -> int:
        """Put U+FFFD in the text in place of each glyph PDFium could not map to
        Unicode among the characters of ``ranges`` (``start``, ``stop``), or
        the character it is in a TeX math font
        (:func:`~docparse.backends.tex_fonts.write_glyph`); the number of such glyphs.

        PDFium passes such a glyph's code through as a letter (CMEX's
        summation sign reads ``P``); ``FPDFText_HasUnicodeMapError`` tells
        them apart, one call a character. U+FFFD is one UTF-16 unit, so every
        other text index stays where it was;
        :func:`~docparse.backends.glyphs.strip_unmapped` then leaves it out
        and counts it. Cut the texts again (:meth:`texts`) after marking.
        A glyph whose code spells a printable ASCII character in a font other
        than TeX's math fonts is left as PDFium gave it
        (:func:`~docparse.backends.tex_fonts.reads_as_itself`) and not counted.
        """
        handle, has_error = self.handle, self.calls.has_unicode_map_error
        # One C call a character, all ranges in one map, with no Python loop around it.
        chars = list(itertools.chain.from_iterable(itertools.starmap(range, ranges)))
        errors = map(has_error, itertools.repeat(handle, len(chars)), chars)
        bad = list(itertools.compress(chars, map((1).__eq__, errors)))
        if not bad:
            return 0
        out = bytearray(self.units)
        to_text, code_of = self.calls.text_index, self.calls.unicode
        marked = 0
        for k in bad:
            t = self._unit(int(to_text(handle, k)))
            if 0 <= t < len(out) // 2:
                code = None if code_of is None else int(code_of(handle, k))
                font = self._font_info(k)[0]
                if reads_as_itself(font, code):
                    continue  # PDFium's text already holds the character
                write_glyph(out, t, font, code)
                marked += 1
        if not marked:
            return 0
        self.units = bytes(out)
        if self.text is not None:
            self.text = self.units.decode("utf-16-le")
        return marked

    def _count(self, start: int, stop: int) -> int:
        """Rectangles over the characters ``start`` .. ``stop - 1``."""
        return int(self.calls.count_rects(self.handle, start, stop - start))

    def _reaching(self, start: int, lo: int, hi: int, target: int) -> int:
        """The least ``e`` in ``lo`` .. ``hi`` whose characters ``start`` .. ``e``
        make ``target`` rectangles, ``hi``'s known to (bisection)."""
        count, handle = self.calls.count_rects, self.handle
        while lo < hi:
            mid = (lo + hi) // 2
            if count(handle, start, mid + 1 - start) >= target:
                hi = mid
            else:
                lo = mid + 1
        return lo

    def _gallop(self, start: int, lo: int, step: int, target: int) -> int | None:
        """The least ``e`` from ``lo`` on (``lo - 1`` known to fall short) whose
        characters ``start`` .. ``e`` make ``target`` rectangles, or ``None``."""
        n = self.n_chars
        count, handle = self.calls.count_rects, self.handle
        step = max(step, 1)
        while True:
            e = min(lo + step - 1, n - 1)
            if count(handle, start, e + 1 - start) >= target:
                return self._reaching(start, lo, e, target)
            if e == n - 1:
                return None
            lo, step = e + 1, step * 2

    def starts(self) -> list[int]:
        """The first character index of every run, in order: read off the text
        when every shown character is a run of its own (:meth:`_glyph_starts`),
        else searched for (:meth:`_searched_starts`)."""
        if not self.n_rects:
            return []
        glyphs = self._glyph_starts()
        return self._searched_starts() if glyphs is None else glyphs

    def _searched_starts(self) -> list[int]:  # noqa: C901
        """The first character index of every run, found by counting rectangles.

        The next run starts at the least character ``e`` with two rectangles
        over the characters from the previous run's start to ``e``. The first
        probe is where it starts if its characters are as wide as the run
        before's (its rectangle's width times the characters a unit of width
        of the run before), or the next line's first character if that comes
        sooner (a run ends at a line's end: 81,050 of the 81,053 lines of the
        corpus's pages of words start one); else galloping away from the
        probe (down when the probe holds two rectangles, up otherwise, stopping
        at the next line's start on its way), then bisecting. Over the corpus:
        5.06 calls a run with the run before's length as the guess, 4.17 with
        the lines, 3.28 with the widths. (One loop with everything in locals,
        the gallop and bisection inline: it runs once a run, and a method call
        a probe cost more than the probe's C call; inlining the gallop took
        5% off the search.)
        """
        first = self._gallop(0, 0, 1, 1)
        if first is None:
            return []
        out = [first]
        append = out.append
        last = self.n_chars - 1
        count, handle = self.calls.count_rects, self.handle
        prev = first
        # The lines' first characters, and one past the last character (never reached).
        lines = [*self._line_starts(), last + 2]
        k = 0
        # A run's width (PDF units) and characters a unit of width of the run before.
        widths = (self.boxes[:, 2] - self.boxes[:, 0]).tolist()
        rate = 0.0
        for width in widths[:-1]:
            while lines[k] <= prev:
                k += 1
            line = lines[k]
            e = prev + (round(width * rate) if rate > 0.0 and width > 0.0 else 8)
            if e > line:
                e = line
            if e > last:
                e = last
            if e <= prev:
                if e == last:
                    break
                e = prev + 1
            if count(handle, prev, e + 1 - prev) >= 2:
                # One character makes one rectangle at most: no call for prev + 1.
                if e == prev + 1 or count(handle, prev, e - prev) < 2:
                    append(e)
                    if width > 0.0:
                        rate = (e - prev) / width
                    prev = e
                    continue
                # The run starts before e: galloping down from e - 1, which
                # has two rectangles too (the probe's second call).
                hi, step = e - 1, 2
                while True:
                    lo = hi - step + 1
                    if lo <= prev + 1:
                        lo = prev + 1
                        break
                    if count(handle, prev, lo - prev) < 2:
                        break
                    hi, step = lo - 1, step * 2
            else:
                # The run starts after e: galloping up, stopping at the next
                # line's start on the way.
                if e == last:
                    break
                lo, step = e + 1, 1
                while True:
                    hi = lo + step - 1
                    if lo <= line < hi:
                        hi = line
                    if hi > last:
                        hi = last
                    if count(handle, prev, hi + 1 - prev) >= 2:
                        break
                    if hi == last:
                        return out  # no run after prev's
                    lo, step = hi + 1, step * 2
            # The least e in lo .. hi with two rectangles over prev .. e (hi has).
            while lo < hi:
                mid = (lo + hi) // 2
                if count(handle, prev, mid + 1 - prev) >= 2:
                    hi = mid
                else:
                    lo = mid + 1
            append(lo)
            if width > 0.0:
                rate = (lo - prev) / width
            prev = lo
        return out

    def _line_starts(self) -> list[int]:
        """The characters that start a line of the page text (the first one
        not blank after a line break), when character indices index the text;
        else none."""
        if self.text is None or self.n_units != self.n_chars:
            return []
        return [m.end() for m in _LINE_START.finditer(self.text)]

    def _glyph_starts(self) -> list[int] | None:
        """The runs' first characters of a page that sets every glyph apart
        (a run a character), or ``None`` for any other page.

        Guess: every character the text does not show as a space or a line
        break starts a run. The guess is right when the page has as many
        rectangles as guessed starts and every other character is one PDFium
        generated: then no other character has a rectangle, so every run
        starts at a guessed character, the first guessed one starts the
        first, and as many runs as guesses leave no guess out. One C call a
        space instead of the search's one or two a run (a 10-K set this way
        has 3,000 runs a page).
        """
        if self.calls.is_generated is None or self.text is None or self.n_units != self.n_chars:
            return None
        if 2 * self.n_rects < self.n_chars:
            return None  # more spaces than glyphs: a page of words or lines, not worth a look
        codes = np.frombuffer(self.units, "<u2")  # UTF-16-LE code units
        blank = (codes == 32) | (codes == 13) | (codes == 10)
        if self.n_rects != len(codes) - int(np.count_nonzero(blank)):
            return None
        gaps = np.flatnonzero(blank).tolist()
        flags = list(map(self.calls.is_generated, itertools.repeat(self.handle, len(gaps)), gaps))
        if flags.count(1) != len(gaps):
            return None
        # Characters before the first run go to it (see texts()): it starts at 0.
        return [0, *np.flatnonzero(~blank)[1:].tolist()]

    def text_index(self, char: int, stop: int) -> int:
        """The text index of ``char`` or of the first character after it, before ``stop``,
        that PDFium's text holds (the text's end when none does)."""
        to_text, handle = self.calls.text_index, self.handle
        for k in range(char, stop):
            t = int(to_text(handle, k))
            if t >= 0:
                return self._unit(t)
        return self.n_units

    def texts(self, starts: Sequence[int], *, shown: bool = False) -> list[str]:
        """The text of each run: the page text from its first character to the next run's.

        Text before the first run (characters without a box) goes to the first run.
        ``shown``: with PDFium's marks replaced (see :func:`shown_text`; one
        character for one, so the page text is replaced once, then cut).
        """
        if self._bounds is not None and self._bounds[0] is starts:
            bounds = self._bounds[1]
        else:
            bounds = self._text_bounds(starts)
            self._bounds = (starts, bounds)
        text = self.text
        if text is not None:
            if shown:
                text = shown_text(text)
            return [text[a:b] for a, b in itertools.pairwise(bounds)]
        units = self.units
        out = [
            units[2 * a : 2 * b].decode("utf-16-le", "replace")
            for a, b in itertools.pairwise(bounds)
        ]
        return [shown_text(t) for t in out] if shown else out

    def tiles(self, starts: Sequence[int]) -> list[int] | None:
        """Where each run's text starts in the page text, and the text's end,
        when the runs' texts are the page text (:attr:`text`) cut there; else ``None``."""
        if self.text is not None and self.n_units == self.n_chars and starts:
            # The text holds one unit for each character it holds, from the
            # first it holds to the last: as many units as characters means it
            # holds them all, and a character's text index is its own.
            return [0, *starts[1:], self.n_units]
        return None

    def _text_bounds(self, starts: Sequence[int]) -> list[int]:
        """Where each run's text starts in the page text, and the text's end."""
        cuts = self.tiles(starts)
        if cuts is not None:
            return cuts
        handle, to_text = self.handle, self.calls.text_index
        # The page text starts at the first character PDFium's text holds.
        base = self.text_index(0, self.n_chars)
        # One C call a run, with no Python loop around it; a first character
        # the text leaves out (-1) is looked up again from the one after it.
        found = list(map(to_text, itertools.repeat(handle, len(starts)), starts))
        bounds = []
        dropped = self._dropped
        for k, (s, t) in enumerate(zip(starts, found, strict=True)):
            if t < 0:
                nxt = starts[k + 1] if k + 1 < len(starts) else self.n_chars
                t = self.text_index(s + 1, nxt)
            elif dropped:
                t = unit_of(int(t), dropped)
            bounds.append(int(t) - base)
        if bounds:
            bounds[0] = 0
        bounds.append(self.n_units)
        return bounds

    def fonts(self, chars: Sequence[int]) -> list[tuple[str, int]]:
        """The name and descriptor flags of the font of each character of ``chars``.

        A character's text object gives its font (two C calls returning
        handles, run over all characters by ``map``); each font of the page
        is then asked its name and flags once, through one of its characters.
        Font handles are the page's: they are not kept past it.

        Equal fonts are one tuple (two handles of one name and flags give the
        first's), so that the runs' fonts compare by identity
        (``operator.is_not``, ``id``): a tuple comparison a run cost more than
        a third of ``pypdfium2_runs._unseen_stretches`` on a page of thousands of runs.
        """
        calls, handle = self.calls, self.handle
        objects = map(calls.text_object, itertools.repeat(handle), chars)
        fonts = list(map(calls.object_font, objects))
        # Each font asked through its first character (a page has a few fonts:
        # a scan for each costs less than a dict entry a run).
        one: dict[tuple[str, int], tuple[str, int]] = {}
        known = {}
        for font in set(fonts):
            info = self._font_info(chars[fonts.index(font)])
            known[font] = one.setdefault(info, info)
        return list(map(known.__getitem__, fonts))

    def _font_info(self, char: int) -> tuple[str, int]:
        """The name and flags of the font of character ``char`` (``("", 0)`` for none)."""
        calls, handle = self.calls, self.handle
        flags = ctypes.c_int()
        ref = ctypes.byref(flags)
        # One call into the kept buffer for a name that fits (PDFium copies the
        # name only into a buffer long enough, and says how long it is).
        buf = calls.name_buffer
        size = int(calls.font_info(handle, char, buf, ulong(calls, len(buf)), ref))
        if size <= 0:
            return "", 0
        if size > len(buf):
            buf = ctypes.create_string_buffer(size)
            calls.font_info(handle, char, buf, ulong(calls, size), ref)
        return buf.value.decode("utf-8", "replace"), flags.value
