"""Hostile PDF cases, derived from a real fixture PDF or generated with PyMuPDF."""

from __future__ import annotations

import io
import random
import re
import zipfile
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any

from .cases import BASE_PDF, PDF_BACKENDS, _put, case

# ---------------------------------------------------------------- PDF helpers


def _pymupdf() -> Any:
    import pymupdf

    return pymupdf


@lru_cache(maxsize=1)
def _base_pdf() -> bytes:
    """Page 1 of the real fixture, re-saved with a classic xref table.

    One page keeps every damaged variant fast to parse with table detection on.
    """
    pm = _pymupdf()
    doc = pm.open(BASE_PDF)
    doc.select([0])
    data = bytes(doc.tobytes(garbage=3))
    doc.close()
    assert b"\nxref" in data and b"/Length" in data
    return data


def _text_pdf(pages: int = 1, text: str = "Hostile input test page.", size=(612, 792)) -> bytes:
    pm = _pymupdf()
    doc = pm.open()
    for i in range(pages):
        page = doc.new_page(width=size[0], height=size[1])
        page.insert_text((10, 20), f"{text} {i + 1}", fontsize=8)
    out = doc.tobytes()
    doc.close()
    return bytes(out)


def _encrypted_pdf(user_pw: str, owner_pw: str = "owner-secret") -> bytes:
    pm = _pymupdf()
    doc = pm.open()
    page = doc.new_page()
    page.insert_text((72, 72), "Encrypted content that needs the password.", fontsize=11)
    out = doc.tobytes(
        encryption=pm.PDF_ENCRYPT_AES_256,
        user_pw=user_pw,
        owner_pw=owner_pw,
    )
    doc.close()
    return bytes(out)


def _damage(data: bytes, pattern: bytes, repl: Callable[[re.Match[bytes]], bytes]) -> bytes:
    out, n = re.subn(pattern, repl, data)
    assert n, f"pattern {pattern!r} not found in the base PDF"
    return out


PDF = PDF_BACKENDS
_CORRUPT = ("ok", "CorruptDocumentError", "ParseError")


@case("pdf_empty", "empty.pdf", PDF, ("EmptyDocumentError",), "0-byte .pdf")
def _pdf_empty(d: Path, base: Path) -> None:
    _put(d, b"")


@case("pdf_header_only", "header.pdf", PDF, ("CorruptDocumentError",), "only the `%PDF-1.7` line")
def _pdf_header_only(d: Path, base: Path) -> None:
    _put(d, b"%PDF-1.7\n")


@case(
    "pdf_truncated_half",
    "truncated.pdf",
    PDF,
    ("CorruptDocumentError",),
    "real PDF cut at 50 % (no `%%EOF`)",
)
def _pdf_truncated(d: Path, base: Path) -> None:
    data = _base_pdf()
    _put(d, data[: len(data) // 2])


@case(
    "pdf_truncated_eof",
    "truncated-eof.pdf",
    PDF,
    _CORRUPT,
    "real PDF cut at 50 % with `%%EOF` appended (xref and later objects lost); OCR off: the "
    "lost font maps leave a text layer of unmapped glyphs, which auto mode would read by OCR",
    config={"ocr": "off"},
)
def _pdf_truncated_eof(d: Path, base: Path) -> None:
    data = _base_pdf()
    _put(d, data[: len(data) // 2] + b"\n%%EOF\n")


@case(
    "pdf_broken_xref",
    "broken-xref.pdf",
    PDF,
    _CORRUPT,
    "xref table offsets overwritten with garbage",
)
def _pdf_broken_xref(d: Path, base: Path) -> None:
    data = _base_pdf()
    start = data.rindex(b"\nxref") + 1
    end = data.index(b"trailer", start)
    body = re.sub(rb"\d{10} \d{5}", b"9999999999 00000", data[start:end])
    _put(d, data[:start] + body + data[end:])


@case(
    "pdf_bad_startxref",
    "bad-startxref.pdf",
    PDF,
    _CORRUPT,
    "`startxref` points past the end of the file",
)
def _pdf_bad_startxref(d: Path, base: Path) -> None:
    data = _damage(_base_pdf(), rb"startxref\s+\d+", lambda m: b"startxref\n987654321")
    _put(d, data)


@case(
    "pdf_no_xref",
    "no-xref.pdf",
    PDF,
    _CORRUPT,
    "xref table and trailer removed",
)
def _pdf_no_xref(d: Path, base: Path) -> None:
    data = _base_pdf()
    start = data.rindex(b"\nxref")
    _put(d, data[:start] + b"\n%%EOF\n")


@case(
    "pdf_stream_length_short",
    "length-short.pdf",
    PDF,
    _CORRUPT,
    "every stream `/Length` set to 1",
)
def _pdf_length_short(d: Path, base: Path) -> None:
    _put(d, _damage(_base_pdf(), rb"/Length \d+", lambda m: b"/Length 1"))


@case(
    "pdf_stream_length_huge",
    "length-huge.pdf",
    PDF,
    _CORRUPT,
    "every stream `/Length` set to 2^31-1",
)
def _pdf_length_huge(d: Path, base: Path) -> None:
    _put(d, _damage(_base_pdf(), rb"/Length \d+", lambda m: b"/Length 2147483647"))


@case(
    "pdf_stream_garbage",
    "stream-garbage.pdf",
    PDF,
    _CORRUPT,
    "bytes inside every stream overwritten (broken Flate data)",
)
def _pdf_stream_garbage(d: Path, base: Path) -> None:
    data = bytearray(_base_pdf())
    rng = random.Random(7)
    for m in re.finditer(rb"stream\r?\n", bytes(data)):
        for i in range(m.end() + 2, min(m.end() + 200, len(data))):
            data[i] = rng.randrange(256)
    _put(d, bytes(data))


@case(
    "pdf_bit_flips",
    "bit-flips.pdf",
    PDF,
    _CORRUPT,
    "1 % of all bytes replaced at random (header and `%%EOF` kept)",
)
def _pdf_bit_flips(d: Path, base: Path) -> None:
    data = bytearray(_base_pdf())
    rng = random.Random(11)
    for _ in range(len(data) // 100):
        i = rng.randrange(16, len(data) - 16)
        data[i] = rng.randrange(256)
    _put(d, bytes(data))


@case(
    "pdf_random_body",
    "random.pdf",
    PDF,
    ("CorruptDocumentError",),
    "`%PDF-1.4` + 64 KB random bytes + `%%EOF`",
)
def _pdf_random(d: Path, base: Path) -> None:
    _put(d, b"%PDF-1.4\n" + random.Random(3).randbytes(64 * 1024) + b"\n%%EOF\n")


@case(
    "pdf_zero_pages",
    "zero-pages.pdf",
    PDF,
    ("EmptyDocumentError", "CorruptDocumentError"),
    "valid PDF whose page tree has `/Count 0`",
)
def _pdf_zero_pages(d: Path, base: Path) -> None:
    _put(
        d,
        _assemble_pdf(
            [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [] /Count 0 >>"]
        ),
    )


@case(
    "pdf_reference_cycle",
    "reference-cycle.pdf",
    PDF,
    ("ok",),
    "page content objects that are references to each other (`6 0 R` -> `7 0 R` -> `6 0 R`) "
    "or to themselves, between two text streams (pdfminer looped on these for ever)",
)
def _pdf_reference_cycle(d: Path, base: Path) -> None:
    _put(d, reference_cycle_pdf())


def reference_cycle_pdf() -> bytes:
    """One page whose /Contents holds a 2-cycle and a self-reference between two text streams."""
    before = b"BT /F1 10 Tf 10 60 Td (Text before the cycle.) Tj ET"
    after = b"BT /F1 10 Tf 10 30 Td (Text after the cycle.) Tj ET"
    return _assemble_pdf(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Count 1 /Kids [4 0 R] >>",
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 100] "
            b"/Resources << /Font << /F1 3 0 R >> >> /Contents [5 0 R 6 0 R 8 0 R 9 0 R] >>",
            b"<< /Length %d >>\nstream\n%s\nendstream" % (len(before), before),
            b"7 0 R",
            b"6 0 R",
            b"8 0 R",
            b"<< /Length %d >>\nstream\n%s\nendstream" % (len(after), after),
        ]
    )


def _assemble_pdf(objs: list[bytes]) -> bytes:
    """A PDF with objects 1..n (object 1 the catalog) and a correct xref table."""
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n")
    offsets = []
    for i, body in enumerate(objs, 1):
        offsets.append(out.tell())
        out.write(b"%d 0 obj\n" % i + body + b"\nendobj\n")
    xref = out.tell()
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objs) + 1))
    for off in offsets:
        out.write(b"%010d 00000 n \n" % off)
    out.write(
        b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objs) + 1, xref)
    )
    return out.getvalue()


@case(
    "pdf_encrypted_no_password",
    "encrypted.pdf",
    PDF,
    ("EncryptedDocumentError",),
    "AES-256 user password, none given",
)
def _pdf_enc(d: Path, base: Path) -> None:
    _put(d, _encrypted_pdf("user-pw"))


@case(
    "pdf_encrypted_wrong_password",
    "encrypted.pdf",
    PDF,
    ("EncryptedDocumentError",),
    "AES-256 user password, wrong one given",
    config={"password": "not-it"},
)
def _pdf_enc_wrong(d: Path, base: Path) -> None:
    _put(d, _encrypted_pdf("user-pw"))


@case(
    "pdf_encrypted_with_password",
    "encrypted.pdf",
    PDF,
    ("ok",),
    "AES-256 user password, right one given",
    config={"password": "user-pw"},
)
def _pdf_enc_right(d: Path, base: Path) -> None:
    _put(d, _encrypted_pdf("user-pw"))


@case(
    "pdf_encrypted_owner_only",
    "owner-only.pdf",
    PDF,
    ("ok",),
    "AES-256 with an owner password only (opens without one)",
)
def _pdf_enc_owner(d: Path, base: Path) -> None:
    _put(d, _encrypted_pdf(""))


@case(
    "pdf_image_only",
    "scan.pdf",
    PDF,
    ("ok",),
    "one page holding only an image (no text layer)",
    flags=("no_text_layer",),
)
def _pdf_image_only(d: Path, base: Path) -> None:
    pm = _pymupdf()
    pix = pm.Pixmap(pm.csRGB, pm.IRect(0, 0, 200, 100), False)
    pix.set_rect(pix.irect, (200, 200, 200))
    doc = pm.open()
    page = doc.new_page()
    page.insert_image(pm.Rect(72, 72, 472, 272), pixmap=pix)
    _put(d, bytes(doc.tobytes()))
    doc.close()


def _image_page_pdf(width: float, height: float, image: bytes) -> bytes:
    """One page of ``width`` x ``height`` points covered by ``image`` (encoded bytes)."""
    pm = _pymupdf()
    doc = pm.open()
    page = doc.new_page(width=width, height=height)
    page.insert_image(page.rect, stream=image)
    data = bytes(doc.tobytes(deflate=True))
    doc.close()
    return data


#: CPU seconds an OCR case may take: the parse time limit, counted in CPU time
#: (see ``Case.cpu_limit``). The huge page costs about 1 s of OCR and 7 s in all
#: under unstructured.
OCR_CPU_LIMIT = 30.0


@case(
    "pdf_ocr_huge_image",
    "huge-scan.pdf",
    PDF,
    ("ok",),
    "a scanned page whose image is 5100 x 6600 px (600 dpi), rendered for OCR at 200 dpi",
    cpu_limit=OCR_CPU_LIMIT,
)
def _pdf_ocr_huge_image(d: Path, base: Path) -> None:
    pm = _pymupdf()
    src = pm.open()
    page = src.new_page()
    page.insert_text((72, 100), "A huge scanned page with one line of text.", fontsize=14)
    pix = page.get_pixmap(dpi=600, colorspace=pm.csGRAY)
    src.close()
    _put(d, _image_page_pdf(612, 792, pix.tobytes("png")))


@case(
    "pdf_ocr_tiny_page",
    "tiny-scan.pdf",
    PDF,
    ("ok",),
    "a 1 x 1 pt page holding a 1 x 1 pixel image (nothing for OCR to read)",
    cpu_limit=OCR_CPU_LIMIT,
)
def _pdf_ocr_tiny_page(d: Path, base: Path) -> None:
    pm = _pymupdf()
    pix = pm.Pixmap(pm.csGRAY, pm.IRect(0, 0, 1, 1), False)
    _put(d, _image_page_pdf(1, 1, pix.tobytes("png")))


@case(
    "pdf_ocr_corrupt_image",
    "corrupt-image.pdf",
    PDF,
    ("ok", "CorruptDocumentError", "ParseError"),
    "an image-only page whose JPEG stream is garbage after its header",
    cpu_limit=OCR_CPU_LIMIT,
)
def _pdf_ocr_corrupt_image(d: Path, base: Path) -> None:
    pm = _pymupdf()
    pix = pm.Pixmap(pm.csRGB, pm.IRect(0, 0, 400, 300), False)
    pix.set_rect(pm.IRect(0, 0, 200, 300), (30, 30, 30))
    jpeg = bytearray(pix.tobytes("jpeg"))
    # Keep the JPEG headers (size, tables), scramble the entropy-coded data.
    start = len(jpeg) // 3
    jpeg[start:-2] = bytes((i * 131 + 7) % 256 for i in range(len(jpeg) - 2 - start))
    _put(d, _image_page_pdf(612, 792, bytes(jpeg)))


@case(
    "pdf_is_html",
    "page.pdf",
    PDF,
    ("UnsupportedFormatError", "CorruptDocumentError"),
    "`.pdf` holding an HTML error page",
)
def _pdf_html(d: Path, base: Path) -> None:
    _put(d, "<!DOCTYPE html><html><body><h1>403 Forbidden</h1></body></html>\n")


@case(
    "pdf_is_zip",
    "archive.pdf",
    PDF,
    ("UnsupportedFormatError", "CorruptDocumentError"),
    "`.pdf` holding a ZIP archive (that itself contains a PDF)",
)
def _pdf_zip(d: Path, base: Path) -> None:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("inner.pdf", _text_pdf())
    _put(d, buf.getvalue())


@case(
    "pdf_3000_pages",
    "many-pages.pdf",
    PDF,
    ("ok", "ParseTimeoutError"),
    "3000 tiny (100x100 pt) pages with one line each; 45 s time limit",
    config={"timeout": 45},
    bomb=True,
)
def _pdf_many_pages(d: Path, base: Path) -> None:
    # Written object by object: PyMuPDF's new_page/insert_text takes seconds for 3000.
    n = 3000
    objs: list[bytes] = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Count %d /Kids [%s] >>"
        % (n, b" ".join(b"%d 0 R" % (4 + 2 * i) for i in range(n))),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    for i in range(n):
        stream = b"BT /F1 8 Tf 10 50 Td (Page %d of many.) Tj ET" % (i + 1)
        objs.append(
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 100 100] "
            b"/Resources << /Font << /F1 3 0 R >> >> /Contents %d 0 R >>" % (5 + 2 * i)
        )
        objs.append(b"<< /Length %d >>\nstream\n%s\nendstream" % (len(stream), stream))
    _put(d, _assemble_pdf(objs))


@case(
    "pdf_huge_page",
    "huge-page.pdf",
    PDF,
    ("ok",),
    "one 14400x14400 pt page (the PDF maximum)",
)
def _pdf_huge_page(d: Path, base: Path) -> None:
    _put(d, _text_pdf(1, "A single line on a huge page.", size=(14400, 14400)))


def two_lines_pdf(mediabox: bytes = b"0 0 300 300", first_x: bytes = b"20") -> bytes:
    """One page with two lines of text, the first at ``first_x`` (PDF number syntax)."""
    content = (
        b"BT /F1 10 Tf %s 50 Td (Some words here.) Tj ET "
        b"BT /F1 10 Tf 20 20 Td (Second line of text.) Tj ET" % first_x
    )
    return _assemble_pdf(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Count 1 /Kids [4 0 R] >>",
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [%s] "
            b"/Resources << /Font << /F1 3 0 R >> >> /Contents 5 0 R >>" % mediabox,
            b"<< /Length %d >>\nstream\n%s\nendstream" % (len(content), content),
        ]
    )


@case(
    "pdf_page_box_absurd",
    "absurd-page-box.pdf",
    PDF,
    ("CorruptDocumentError",),
    "`/MediaBox [0 0 10^12 10^12]` (unstructured: `MemoryError`; 10^19: raw `ValueError`)",
)
def _pdf_page_box_absurd(d: Path, base: Path) -> None:
    _put(d, two_lines_pdf(mediabox=b"0 0 1000000000000 1000000000000"))


@case(
    "pdf_text_off_page",
    "text-off-page.pdf",
    PDF,
    ("ok",),
    "a line of text placed at x = 10^19 on a 300 pt page, and one on the page "
    "(unstructured: raw `ValueError: array is too big`)",
)
def _pdf_text_off_page(d: Path, base: Path) -> None:
    _put(d, two_lines_pdf(first_x=b"10000000000000000000"))
