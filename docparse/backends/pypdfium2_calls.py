"""PDFium's text-page functions as bare ctypes pointers (for the run reading).

:class:`TextCalls` holds the few C functions the run reading calls thousands
of times a page, made cheap to call (see its docstring for the measured
reasons); :func:`ulong` passes an ``unsigned long`` either way.
"""

from __future__ import annotations

import codecs
import collections
import ctypes
import functools
import itertools
import threading
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np
import numpy.typing as npt

#: The base class of every ctypes function pointer (pypdfium2's bindings are such pointers).
_CFUNC: type = ctypes.CFUNCTYPE(None).__mro__[1]
#: The rectangle slots of the thread's last :class:`TextCalls` (see :meth:`TextCalls.rects`)
#: and its page-text buffer (see :func:`_text_buffer`).
_KEPT = threading.local()
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
    rectangle slots (:meth:`rects`) are written by every page (and kept per thread).
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
        self.unicode = self._optional(raw, "FPDFText_GetUnicode", ctypes.c_uint)
        self.is_generated = self._optional(raw, "FPDFText_IsGenerated")
        #: Where FPDFText_GetFontInfo writes a font's name (NUL-terminated).
        self.name_buffer = ctypes.create_string_buffer(256)
        # The page's box and rotation as pypdfium2's get_cropbox() and
        # get_rotation() read them, by the same bare calls (their Python
        # wrappers cost several times the C calls).
        # (A stand-in for the text calls alone need not have them.)
        self._crop_box = self._optional(raw, "FPDFPage_GetCropBox")
        self._media_box = self._optional(raw, "FPDFPage_GetMediaBox")
        self._rotation = self._optional(raw, "FPDFPage_GetRotation")
        # Pages and text pages are loaded and closed through pypdfium2's
        # declared bindings (one call each a page; see load_page).
        self._raw = raw
        self._box = (ctypes.c_float * 4)()
        self._box_refs = tuple(ctypes.byref(self._box, 4 * k) for k in range(4))
        # The doubles FPDFText_GetRect writes into and the pointers to them,
        # as the thread's last document left them (see rects).
        self._slots: Any
        self._pointers: tuple[list[Any], ...]
        self._slots, self._pointers = getattr(_KEPT, "slots", (None, ()))

    def _fn(self, fn: Any, restype: Any = ctypes.c_int, *argtypes: Any) -> Any:
        if not self.bare:
            return fn
        address: int = ctypes.cast(fn, ctypes.c_void_p).value  # type: ignore[assignment]
        return _prototype(restype, *argtypes)(address)

    def _optional(self, raw: Any, name: str, restype: Any = ctypes.c_int) -> Any:
        """The function ``name`` of ``raw`` as :meth:`_fn` makes it, or ``None`` if absent."""
        fn = getattr(raw, name, None)
        return None if fn is None else self._fn(fn, restype)

    def load_page(self, document: Any, index: int) -> Any:
        """``FPDF_LoadPage``: the page handle of page ``index`` (0-based) of the
        PDFium ``document`` handle, false when PDFium cannot load it. The caller
        closes it (:meth:`close_page`).

        The backend keeps PDFium's bare handles for its pages and text pages
        instead of pypdfium2's ``PdfPage``/``PdfTextPage``: each of those
        registers a weakref finalizer and a parent link on creation and
        unwinds them on close, about 40 us a page (0.15 s over the corpus),
        and the backend opens and closes every page in one place anyway.
        """
        return self._raw.FPDF_LoadPage(document, index)

    def close_page(self, page: Any) -> None:
        """``FPDF_ClosePage``."""
        self._raw.FPDF_ClosePage(page)

    def load_textpage(self, page: Any) -> Any:
        """``FPDFText_LoadPage``: the text page handle of ``page``, false when PDFium
        cannot make one. The caller closes it (:meth:`close_textpage`) before the page."""
        return self._raw.FPDFText_LoadPage(page)

    def close_textpage(self, textpage: Any) -> None:
        """``FPDFText_ClosePage``."""
        self._raw.FPDFText_ClosePage(textpage)

    def page_box(self, page: Any) -> tuple[float, float, float, float]:
        """The crop box (left, bottom, right, top) of the PDFium page handle
        ``page``, else its media box, else US Letter: pypdfium2's
        ``PdfPage.get_cropbox()``."""
        box, refs = self._box, self._box_refs
        if self._crop_box(page, *refs) or self._media_box(page, *refs):
            return box[0], box[1], box[2], box[3]
        return (0, 0, 612, 792)

    def rotation(self, page: Any) -> int:
        """The rotation of the PDFium page handle ``page``, clockwise in degrees
        (pypdfium2's ``PdfPage.get_rotation()``). PDFium gives 0-3 quarter turns
        for any page it loaded (-1 only for no page: read as 0)."""
        turns = self._rotation(page)
        return 90 * turns if turns in (0, 1, 2, 3) else 0

    def handle(self, textpage: Any) -> Any:
        """The handle of ``textpage`` (a pypdfium2 text page's ``raw``) as the calls take it."""
        return ctypes.cast(textpage, ctypes.c_void_p) if self.bare else textpage

    def rects(self, handle: Any, n: int) -> npt.NDArray[np.float64]:
        """The left, bottom, right and top edges (PDF space) of the first ``n``
        rectangles of the last ``FPDFText_CountRects`` on ``handle``, a row each.

        ``FPDFText_GetRect`` writes through four pointers: made once and kept
        for the next pages (a pointer made a call costs more than the call),
        the page's rectangles are read by one ``map`` into one array of
        doubles, four a rectangle, copied out as an ``(n, 4)`` array. The
        slots are kept for the thread's next documents too (making the first
        1,024 rectangles' pointers cost about 0.4 ms, 35 ms over the corpus's
        86 PDFs); a call reads them out before it returns, so the documents
        of one thread share them safely.
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
            _KEPT.slots = (self._slots, self._pointers)
        _drain(map(self.get_rect, itertools.repeat(handle, n), range(n), *self._pointers))
        return np.frombuffer(self._slots, np.float64, 4 * n).reshape(n, 4).copy()


class TextPage:
    """A PDFium text page handle (``raw``) with the one method of pypdfium2's
    ``PdfTextPage`` the run reading calls, :meth:`get_text_range`.

    The handle is the caller's to close (:meth:`TextCalls.close_textpage`).
    """

    __slots__ = ("_raw", "raw")

    def __init__(self, handle: Any, raw: Any) -> None:
        self.raw = handle
        self._raw = raw

    def get_text_range(self, errors: str = "ignore") -> str:
        """The text of all the page's characters, as pypdfium2's
        ``PdfTextPage.get_text_range()`` gives it (the same calls).

        Characters the text leaves out at either end are not passed to
        ``FPDFText_GetText``, which would otherwise read past the range
        (https://crbug.com/pdfium/2079); the buffer is sized from the text
        indices of the first and last characters it holds.
        """
        raw, handle = self._raw, self.raw
        to_text = raw.FPDFText_GetTextIndexFromCharIndex
        first, last = 0, raw.FPDFText_CountChars(handle) - 1
        while True:
            if first > last:
                return ""
            if (start := to_text(handle, first)) != -1:
                break
            first += 1
        # The first character the text holds stops this loop at the latest.
        while (end := to_text(handle, last)) == -1:
            last -= 1
        size = end + 2 - start  # with the NUL PDFium writes
        written = raw.FPDFText_GetText(handle, first, last + 1 - first, _text_buffer(size))
        # A failed call (nothing written) reads a new buffer, as pypdfium2's does.
        buffer = _KEPT.text if written >= 1 else (ctypes.c_ushort * size)()
        return codecs.decode(memoryview(buffer)[: written - 1], "utf-16-le", errors)


def _text_buffer(size: int) -> Any:
    """The thread's buffer of UTF-16 units for a page text, made longer when
    it holds fewer than ``size``.

    A buffer of each page's own size makes a new ctypes array type nearly
    every page (about 9 us; ctypes lets an unused one go); one kept buffer,
    doubled when a page needs more, makes a few in a run. The text is copied
    out (decoded) before the next page writes into it.
    """
    buffer = getattr(_KEPT, "text", None)
    if buffer is None or len(buffer) < size:
        buffer = (ctypes.c_ushort * max(size, 8192, 2 * len(buffer) if buffer is not None else 0))()
        _KEPT.text = buffer
    return buffer


def ulong(calls: TextCalls, n: int) -> Any:
    """``n`` as the ``unsigned long`` a bare C function takes (as it is for a stand-in)."""
    return ctypes.c_ulong(n) if calls.bare else n
