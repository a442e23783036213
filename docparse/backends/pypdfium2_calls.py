"""PDFium's text-page functions as bare ctypes pointers (for the run reading).

:class:`TextCalls` holds the few C functions the run reading calls thousands
of times a page, made cheap to call (see its docstring for the measured
reasons); :func:`ulong` passes an ``unsigned long`` either way.
"""

from __future__ import annotations

import collections
import ctypes
import functools
import itertools
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np
import numpy.typing as npt

#: The base class of every ctypes function pointer (pypdfium2's bindings are such pointers).
_CFUNC: type = ctypes.CFUNCTYPE(None).__mro__[1]
#: Runs an iterator to its end, keeping nothing.
_drain: Callable[[Iterable[object]], None] = collections.deque[object](maxlen=0).extend


@functools.cache
def _prototype(restype: Any, *argtypes: Any) -> Any:
    """``ctypes.PYFUNCTYPE(restype, *argtypes)``, made once: ctypes makes a new
    class on every call (some 30 us, a third of a millisecond for a document's calls)."""
    return ctypes.PYFUNCTYPE(restype, *argtypes)


class TextCalls:
    """The PDFium text-page functions the runs are read with, called cheaply.

    pypdfium2's bindings declare each function's argument types, so ctypes
    converts every argument on every call (about 0.6 us here); the same
    function pointer without them passes Python ints and a ``c_void_p``
    handle as they are (about 0.3 us). A page costs thousands of calls (one
    per character for the unmapped-glyph check), so the bare pointers halve
    the backend's reading time. They are made with ``PYFUNCTYPE``, which
    keeps the GIL over the call: PDFium's text calls are a few hundred
    nanoseconds and call no Python, and letting the GIL go and taking it back
    cost about 30 ns a call of that (a sixth). A stand-in that is not ctypes (tests) is
    called as it is. Made once for a document and used for all its pages
    (it holds no page's handle), so not shared between threads: the
    rectangle slots (:meth:`rects`) are written by every page.
    """

    def __init__(self, raw: Any) -> None:
        fn = raw.FPDFText_CountChars
        self.bare = isinstance(fn, _CFUNC)
        self.count_chars = self._fn(fn)
        self.count_rects = self._fn(raw.FPDFText_CountRects)
        self.get_rect = self._fn(raw.FPDFText_GetRect)
        self.text_index = self._fn(raw.FPDFText_GetTextIndexFromCharIndex)
        self.has_unicode_map_error = self._fn(raw.FPDFText_HasUnicodeMapError)
        self.font_size = self._fn(raw.FPDFText_GetFontSize, ctypes.c_double)
        # A text object comes back as an int (a ctypes pointer object costs
        # 0.5 us a call against 0.15 us), which FPDFTextObj_GetFont takes as a
        # declared c_void_p (undeclared, ctypes would cut it to a 32-bit int; the
        # declaration costs no measurable time); a font as an int, which keys a dict.
        self.text_object = self._fn(raw.FPDFText_GetTextObject, ctypes.c_void_p)
        self.object_font = self._fn(raw.FPDFTextObj_GetFont, ctypes.c_void_p, ctypes.c_void_p)
        self.font_info = self._fn(raw.FPDFText_GetFontInfo, ctypes.c_ulong)
        self.font_weight = self._fn(raw.FPDFText_GetFontWeight)
        unicode = getattr(raw, "FPDFText_GetUnicode", None)
        self.unicode = None if unicode is None else self._fn(unicode, ctypes.c_uint)
        generated = getattr(raw, "FPDFText_IsGenerated", None)
        self.is_generated = None if generated is None else self._fn(generated)
        #: Where FPDFText_GetFontInfo writes a font's name (NUL-terminated).
        self.name_buffer = ctypes.create_string_buffer(256)
        # The page's box and rotation as pypdfium2's get_cropbox() and
        # get_rotation() read them, by the same bare calls (their Python
        # wrappers cost several times the C calls).
        self._crop_box = self._fn(raw.FPDFPage_GetCropBox) if self.bare else None
        self._media_box = self._fn(raw.FPDFPage_GetMediaBox) if self.bare else None
        self._rotation = self._fn(raw.FPDFPage_GetRotation) if self.bare else None
        self._box = (ctypes.c_float * 4)()
        self._box_refs = tuple(ctypes.byref(self._box, 4 * k) for k in range(4))
        self._slots: Any = None  # the doubles FPDFText_GetRect writes into
        self._pointers: tuple[list[Any], ...] = ()

    def _fn(self, fn: Any, restype: Any = ctypes.c_int, *argtypes: Any) -> Any:
        if not self.bare:
            return fn
        address: int = ctypes.cast(fn, ctypes.c_void_p).value  # type: ignore[assignment]
        return _prototype(restype, *argtypes)(address)

    def page_box(self, page: Any) -> tuple[float, float, float, float]:
        """``page.get_cropbox()`` of a pypdfium2 page: its crop box (left, bottom,
        right, top), else its media box, else US Letter."""
        if self._crop_box is None or self._media_box is None:
            return tuple(page.get_cropbox())
        box, refs = self._box, self._box_refs
        if self._crop_box(page.raw, *refs) or self._media_box(page.raw, *refs):
            return box[0], box[1], box[2], box[3]
        return (0, 0, 612, 792)

    def rotation(self, page: Any) -> int:
        """``page.get_rotation()`` of a pypdfium2 page: clockwise, in degrees."""
        turns = -1 if self._rotation is None else self._rotation(page.raw)
        # Any other value: pypdfium2 raises its own error.
        return 90 * turns if turns in (0, 1, 2, 3) else int(page.get_rotation())

    def handle(self, textpage: Any) -> Any:
        """The handle of ``textpage`` (a pypdfium2 text page's ``raw``) as the calls take it."""
        return ctypes.cast(textpage, ctypes.c_void_p) if self.bare else textpage

    def rects(self, handle: Any, n: int) -> npt.NDArray[np.float64]:
        """The left, bottom, right and top edges (PDF space) of the first ``n``
        rectangles of the last ``FPDFText_CountRects`` on ``handle``, a row each.

        ``FPDFText_GetRect`` writes through four pointers: made once and kept
        for the next pages (a pointer made a call costs more than the call),
        the page's rectangles are read by one ``map`` into one array of
        doubles, four a rectangle, copied out as an ``(n, 4)`` array.
        """
        if n <= 0:
            return np.empty((0, 4))
        if n > len(self._pointers[0] if self._pointers else ()):
            size = max(n, 1024, 2 * len(self._pointers[0]) if self._pointers else 0)
            self._slots = (ctypes.c_double * (4 * size))()
            slots = list(map(ctypes.byref, itertools.repeat(self._slots), range(0, 32 * size, 8)))
            # GetRect's order is left, top, right, bottom; a rectangle's slots
            # hold left, bottom, right, top.
            self._pointers = (slots[0::4], slots[3::4], slots[2::4], slots[1::4])
        _drain(map(self.get_rect, itertools.repeat(handle, n), range(n), *self._pointers))
        return np.frombuffer(self._slots, np.float64, 4 * n).reshape(n, 4).copy()


def ulong(calls: TextCalls, n: int) -> Any:
    """``n`` as the ``unsigned long`` a bare C function takes (as it is for a stand-in)."""
    return ctypes.c_ulong(n) if calls.bare else n
