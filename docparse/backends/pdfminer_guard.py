"""pdfminer hardening shared by the backends built on it (pdfplumber, unstructured)."""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable

log = logging.getLogger(__name__)

#: Marks pdfminer's ``PDFDocument.getobj`` once :func:`guard_reference_cycles` wrapped it.
_GUARDED = "_docparse_reference_cycle_guard"


def guard_reference_cycles() -> None:
    """Make pdfminer read an indirect object whose reference chain loops as null.

    pdfminer's ``resolve1`` follows ``N 0 R`` until it reaches something that is
    not a reference, with no cycle check, and its lenient object parser can turn
    a mangled object into a bare reference to itself (object 13 whose damaged
    body ends in ``... 13 0 R``). Every use of that object then spins in
    ``resolve1`` for ever, hundreds of thousands of cached look-ups a second
    (fuzz findings ``fixtures/regressions/pdfplumber/reference-cycle-*.pdf``:
    a content stream, a page object). A chain that comes back to an object it passed has no value;
    like a reference to a missing object (PDF 32000-1 7.3.10) it is read as
    null: ``getobj`` raises pdfminer's own ``PDFObjectNotFound``, which every
    ``resolve`` already turns into its default. MuPDF (the ``pymupdf``
    backend) treats such chains the same way.

    The wrapper sits on the class because pdfplumber and unstructured both
    build their ``PDFDocument`` inside their own code (and resolve ``/Root``
    and ``/Info`` in its constructor). It changes nothing for a chain that ends.
    Idempotent.
    """
    from pdfminer.pdfdocument import PDFDocument
    from pdfminer.pdfexceptions import PDFObjectNotFound
    from pdfminer.pdftypes import PDFObjRef

    original: Callable[[PDFDocument, int], object] = PDFDocument.getobj
    if getattr(original, _GUARDED, False):
        return

    def loops(doc: PDFDocument, objid: int, ref: object) -> bool:
        # Per document: chains already walked, so a long chain that ends is
        # walked once, not once per link.
        ending: set[int] = doc.__dict__.setdefault("_docparse_chain_ends", set())
        looping: set[int] = doc.__dict__.setdefault("_docparse_chain_loops", set())
        if objid in ending:
            return False
        if objid in looping:
            return True
        chain = [objid]
        seen = {objid}
        while isinstance(ref, PDFObjRef) and ref.objid not in ending:
            if ref.objid in looping or ref.objid in seen:
                looping.update(chain)
                shown = " -> ".join(map(str, chain[:8])) + (" -> ..." if len(chain) > 8 else "")
                log.warning(
                    "PDF object %d never resolves (reference cycle %s -> %d); read as null",
                    objid,
                    shown,
                    ref.objid,
                )
                return True
            chain.append(ref.objid)
            seen.add(ref.objid)
            try:
                ref = original(doc, ref.objid)
            except PDFObjectNotFound:
                break
        ending.update(chain)
        return False

    @functools.wraps(original)
    def getobj(self: PDFDocument, objid: int) -> object:
        obj = original(self, objid)
        if isinstance(obj, PDFObjRef) and loops(self, objid, obj):
            raise PDFObjectNotFound(objid)
        return obj

    setattr(getobj, _GUARDED, True)
    PDFDocument.getobj = getobj  # type: ignore[method-assign]
