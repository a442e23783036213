"""A generated corpus of hostile and broken inputs for every format.

``build(base)`` writes one folder per case under ``base/corpus/`` and plants
secret files carrying :data:`MARKER` *outside* each case's folder
(``base/secret.*`` and ``base/corpus/secret.*``). A parser that follows an
``\\input``, an XML external entity or an XInclude out of the document's
folder would copy the marker into its output; the tests assert it never does.
Remote references point at 203.0.113.1 (TEST-NET-3, never routed): pytest-socket
blocks a Python-level connection to it (a raw error the tests catch) and a
C-level fetch would hang into the time limit.

Nothing binary is committed: damaged PDFs are derived at test time from a
real fixture PDF (page 1 of ``fixtures/pdf/us-020/us-020.pdf``, re-saved with
a classic xref table) and the rest is generated with PyMuPDF.

Each :class:`Case` states which parsers apply and what every one of them must
end in: ``"ok"`` (a clean :class:`~docparse.model.Document`) or the name of a
:class:`~docparse.DocparseError` subclass. The README's "Hostile input" section is the table
of these expectations.
"""

from __future__ import annotations

import io
import itertools
import json
import random
import re
import zipfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
BASE_PDF = ROOT / "fixtures" / "pdf" / "us-020" / "us-020.pdf"

#: A string that exists only in the planted secret files.
MARKER = "SECRET-MARKER-7f3c9a1e-do-not-leak"

PDF_BACKENDS = ("pymupdf", "pdfplumber", "unstructured")
MB = 1 << 20


@dataclass(frozen=True)
class Case:
    """One hostile input.

    ``parsers``: registry names the case goes through (PDF backends, or the
    one twin parser of its format). ``expect``: acceptable outcomes, each
    ``"ok"`` or an error class name; a class also accepts its subclasses.
    ``config``: options passed with every parser. ``bomb``: run in a child
    process under a memory rlimit. ``note``: what the case is, for the table.
    """

    name: str
    file: str
    parsers: tuple[str, ...]
    expect: tuple[str, ...]
    note: str
    config: Mapping[str, Any] = field(default_factory=dict)
    bomb: bool = False
    flags: tuple[str, ...] = ()
    """Document flags a clean parse must carry (e.g. ``unsafe_input_skipped``)."""

    def path(self, base: Path) -> Path:
        return base / "corpus" / self.name / self.file


Writer = Callable[[Path, Path], None]
"""``writer(case_dir, base)`` creates the case's file(s) in ``case_dir``."""

_WRITERS: dict[str, Writer] = {}
CASES: list[Case] = []


def case(
    name: str,
    file: str,
    parsers: tuple[str, ...],
    expect: tuple[str, ...],
    note: str,
    *,
    config: Mapping[str, Any] | None = None,
    bomb: bool = False,
    flags: tuple[str, ...] = (),
) -> Callable[[Writer], Writer]:
    def register(fn: Writer) -> Writer:
        CASES.append(Case(name, file, parsers, expect, note, dict(config or {}), bomb, flags))
        _WRITERS[name] = fn
        return fn

    return register


def _file_of(d: Path) -> str:
    return next(c.file for c in CASES if c.name == d.name)


def _put(d: Path, data: bytes | str) -> None:
    target = d / _file_of(d)
    if isinstance(data, str):
        target.write_text(data, encoding="utf-8")
    else:
        target.write_bytes(data)


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


@case(
    "pdf_ocr_huge_image",
    "huge-scan.pdf",
    PDF,
    ("ok",),
    "a scanned page whose image is 5100 x 6600 px (600 dpi), read by OCR at its own resolution",
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


# ---------------------------------------------------------------- LaTeX

TEX = ("tex",)
_TEX_HEAD = "\\documentclass{article}\n\\begin{document}\n"
_TEX_TAIL = "\n\\end{document}\n"


def _tex(body: str) -> str:
    return _TEX_HEAD + body + _TEX_TAIL


@case("tex_empty", "empty.tex", TEX, ("EmptyDocumentError",), "0-byte .tex")
def _tex_empty(d: Path, base: Path) -> None:
    _put(d, b"")


@case(
    "tex_input_absolute",
    "main.tex",
    TEX,
    ("ok",),
    "`\\input{/abs/path/secret}` (absolute path outside the folder)",
    flags=("unsafe_input_skipped",),
)
def _tex_abs(d: Path, base: Path) -> None:
    _put(d, _tex(f"Before.\n\n\\input{{{(base / 'secret').as_posix()}}}\n\nAfter."))


@case(
    "tex_input_absolute_raise",
    "main.tex",
    TEX,
    ("UnsafeInputError",),
    'the same with `on_unsafe_input="raise"`',
    config={"on_unsafe_input": "raise"},
)
def _tex_abs_raise(d: Path, base: Path) -> None:
    _put(d, _tex(f"Before.\n\n\\input{{{(base / 'secret.tex').as_posix()}}}\n\nAfter."))


@case(
    "tex_input_parent",
    "main.tex",
    TEX,
    ("ok",),
    "`\\input{../secret}`, `\\include{../../secret}`, `\\input{sub/../../secret}`",
    flags=("unsafe_input_skipped",),
)
def _tex_parent(d: Path, base: Path) -> None:
    _put(
        d,
        _tex(
            "A.\n\n\\input{../secret}\n\n\\include{../../secret}\n\n"
            "\\input{sub/../../secret.tex}\n\n\\import{../}{secret}\n\nB."
        ),
    )


@case(
    "tex_input_symlink",
    "main.tex",
    TEX,
    ("ok",),
    "`\\input{link}` where `link.tex` is a symlink to a file outside the folder",
    flags=("unsafe_input_skipped",),
)
def _tex_symlink(d: Path, base: Path) -> None:
    (d / "link.tex").symlink_to(base / "secret.tex")
    _put(d, _tex("A.\n\n\\input{link}\n\nB."))


@case(
    "tex_input_bad_names",
    "main.tex",
    TEX,
    ("ok",),
    "`\\input` of a symlink loop, a NUL-byte name and a 5000-character name",
    flags=("missing_input",),
)
def _tex_bad_names(d: Path, base: Path) -> None:
    (d / "loop.tex").symlink_to(d / "loop.tex")
    _put(d, _tex("A.\n\n\\input{loop}\n\n\\input{a\x00b}\n\n\\input{" + "n" * 5000 + "}\n\nB."))


@case(
    "tex_input_self",
    "main.tex",
    TEX,
    ("ok",),
    "`\\input{main}` in main.tex (self-loop)",
    flags=("input_loop",),
)
def _tex_self(d: Path, base: Path) -> None:
    _put(d, _tex("Start.\n\n\\input{main}\n\n\\input{main.tex}\n\nEnd."))


@case(
    "tex_input_mutual",
    "main.tex",
    TEX,
    ("ok",),
    "a.tex inputs b.tex inputs a.tex",
    flags=("input_loop",),
)
def _tex_mutual(d: Path, base: Path) -> None:
    (d / "a.tex").write_text("In a.\n\n\\input{b}\n", encoding="utf-8")
    (d / "b.tex").write_text("In b.\n\n\\input{a}\n", encoding="utf-8")
    _put(d, _tex("Start.\n\n\\input{a}\n\nEnd."))


@case(
    "tex_input_missing",
    "main.tex",
    TEX,
    ("ok",),
    "`\\input{nowhere}` (missing file)",
    flags=("missing_input",),
)
def _tex_missing(d: Path, base: Path) -> None:
    _put(d, _tex("Start.\n\n\\input{nowhere}\n\n\\include{chapters/none}\n\nEnd."))


@case(
    "tex_input_url",
    "main.tex",
    TEX,
    ("ok",),
    "`\\input{http://203.0.113.1/x}` and `\\input{\\jobname}` (never fetched)",
)
def _tex_url(d: Path, base: Path) -> None:
    _put(d, _tex("Start.\n\n\\input{http://203.0.113.1/x}\n\n\\input{\\jobname}\n\nEnd."))


@case(
    "tex_input_deep_chain",
    "main.tex",
    TEX,
    ("ok",),
    "a chain of 40 nested `\\input` files (deeper than the limit)",
)
def _tex_chain(d: Path, base: Path) -> None:
    for i in range(40):
        (d / f"f{i}.tex").write_text(f"Level {i}.\n\n\\input{{f{i + 1}}}\n", encoding="utf-8")
    _put(d, _tex("Start.\n\n\\input{f0}\n\nEnd."))


@case(
    "tex_def_self",
    "main.tex",
    TEX,
    ("ok", "ParseError"),
    "`\\def\\a{\\a}\\a` (infinite macro recursion)",
)
def _tex_def_self(d: Path, base: Path) -> None:
    _put(d, _tex("Text \\def\\a{\\a}\\a{} more text."))


@case(
    "tex_newcommand_doubling",
    "main.tex",
    TEX,
    ("ok", "ParseError"),
    "`\\newcommand{\\x}{\\x\\x}\\x` (exponential expansion)",
    bomb=True,
)
def _tex_doubling(d: Path, base: Path) -> None:
    _put(d, _tex("\\newcommand{\\x}{\\x\\x}\nText \\x{} more."))


@case(
    "tex_macro_laughs",
    "main.tex",
    TEX,
    ("ok", "ParseError"),
    "ten macros each expanding to ten copies of the previous (10^10 'lol')",
    bomb=True,
)
def _tex_laughs(d: Path, base: Path) -> None:
    names = [f"l{chr(97 + i)}" for i in range(10)]
    lines = ["\\newcommand{\\la}{lol}"]
    for prev, cur in itertools.pairwise(names):
        lines.append(f"\\newcommand{{\\{cur}}}{{" + f"\\{prev}" * 10 + "}")
    head = "\\documentclass{article}\n" + "\n".join(lines)
    _put(d, head + "\n\\begin{document}\n\\lj" + _TEX_TAIL)


@case(
    "tex_unbalanced_open",
    "main.tex",
    TEX,
    ("ok", "ParseError"),
    "20 000 `{` never closed, `\\begin{itemize}` never ended",
)
def _tex_open(d: Path, base: Path) -> None:
    _put(d, _tex("\\begin{itemize}\\item x " + "\\textbf{a" * 20000))


@case(
    "tex_unbalanced_close",
    "main.tex",
    TEX,
    ("ok", "ParseError"),
    "20 000 stray `}` and `\\end{table}`",
)
def _tex_close(d: Path, base: Path) -> None:
    _put(d, _tex("Some text. " + "} \\end{table} " * 20000))


@case(
    "tex_deep_braces",
    "main.tex",
    TEX,
    ("ok", "ParseError"),
    "braces nested 50 000 deep",
    bomb=True,
)
def _tex_deep(d: Path, base: Path) -> None:
    _put(d, _tex("{" * 50000 + "x" + "}" * 50000))


@case(
    "tex_long_line",
    "main.tex",
    TEX,
    ("ok",),
    "one 1 MB line of prose with an inline command every 2 KB",
)
def _tex_long(d: Path, base: Path) -> None:
    chunk = "plain words in a very long line " * 64 + "\\emph{stress} and $x^2$ "
    _put(d, _tex((chunk * (MB // len(chunk) + 1))[:MB].rsplit(" ", 1)[0]))


@case(
    "tex_verbatim_unclosed",
    "main.tex",
    TEX,
    ("ok", "ParseError"),
    "`\\begin{verbatim}` and `$` math never closed",
)
def _tex_verbatim(d: Path, base: Path) -> None:
    _put(d, _tex("Para.\n\n\\begin{verbatim}\ncode\n\n$ open math \\[ x"))


@case(
    "tex_binary",
    "main.tex",
    TEX,
    ("ok", "ParseError", "EmptyDocumentError"),
    "64 KB of random bytes with a .tex name",
)
def _tex_binary(d: Path, base: Path) -> None:
    _put(d, random.Random(5).randbytes(64 * 1024))


@case(
    "tex_latin1",
    "main.tex",
    TEX,
    ("ok",),
    "Latin-1 bytes (not UTF-8)",
)
def _tex_latin1(d: Path, base: Path) -> None:
    _put(d, _tex("Caf\xe9 na\xefve r\xe9sum\xe9 \xa9 2024.").encode("latin-1"))


# ---------------------------------------------------------------- EDGAR HTML

HTM = ("htm",)


@case("htm_empty", "empty.htm", HTM, ("EmptyDocumentError",), "0-byte .htm")
def _htm_empty(d: Path, base: Path) -> None:
    _put(d, b"")


@case(
    "htm_deep_nesting",
    "deep.htm",
    HTM,
    ("ok", "ParseError"),
    "`<div>` nested 100 000 deep",
    bomb=True,
)
def _htm_deep(d: Path, base: Path) -> None:
    _put(d, "<html><body>" + "<div>" * 100000 + "deep text" + "</div>" * 100000 + "</body></html>")


@case(
    "htm_deep_unclosed",
    "unclosed.htm",
    HTM,
    ("ok", "ParseError"),
    "50 000 unclosed `<table><tr><td><font>`",
)
def _htm_unclosed(d: Path, base: Path) -> None:
    _put(d, "<html><body>" + "<table><tr><td><font>cell " * 50000)


_LAUGHS_DTD = (
    '<!DOCTYPE html [\n<!ENTITY lol "lol">\n'
    + "".join(
        f'<!ENTITY lol{i} "{("&lol" + (str(i - 1) if i > 1 else "") + ";") * 10}">\n'
        for i in range(1, 10)
    )
    + "]>\n"
)


@case(
    "htm_billion_laughs",
    "laughs.htm",
    HTM,
    ("ok", "UnsafeInputError", "ParseError"),
    "EDGAR file with a billion-laughs entity DOCTYPE",
    bomb=True,
)
def _htm_laughs(d: Path, base: Path) -> None:
    _put(
        d,
        "<DOCUMENT>\n<TYPE>10-K\n<TEXT>\n"
        + _LAUGHS_DTD
        + "<html><body><p>Item 1. Business</p><p>&lol9;</p></body></html>\n</TEXT>\n</DOCUMENT>\n",
    )


@case(
    "htm_xxe",
    "xxe.htm",
    HTM,
    ("ok", "UnsafeInputError", "ParseError"),
    'XHTML with `<!ENTITY x SYSTEM "file:///.../secret.txt">`',
)
def _htm_xxe(d: Path, base: Path) -> None:
    _put(
        d,
        '<?xml version="1.0"?>\n<!DOCTYPE html [<!ENTITY xxe SYSTEM "'
        + (base / "secret.txt").as_uri()
        + '">]>\n<html xmlns="http://www.w3.org/1999/xhtml"><body><p>Leak: &xxe;</p>'
        + "<p>Normal paragraph.</p></body></html>\n",
    )


@case(
    "htm_remote_refs",
    "remote.htm",
    HTM,
    ("ok",),
    "`<img>`, `<link>`, `<iframe>`, `<script src>` to remote and file: URLs (never fetched)",
)
def _htm_remote(d: Path, base: Path) -> None:
    uri = (base / "secret.txt").as_uri()
    _put(
        d,
        f'<html><head><link rel="stylesheet" href="http://203.0.113.1/x.css">'
        f'<script src="{uri}"></script></head><body>'
        f'<iframe src="{uri}"></iframe><img src="http://203.0.113.1/a.png">'
        "<p>Only this paragraph is text.</p></body></html>",
    )


@case(
    "htm_long_line",
    "long.htm",
    HTM,
    ("ok",),
    "one 1 MB line of text inside a `<p>`",
)
def _htm_long(d: Path, base: Path) -> None:
    _put(d, "<html><body><p>" + ("revenue grew " * 90000)[:MB] + "</p></body></html>")


@case(
    "htm_sgml_truncated",
    "filing.htm",
    HTM,
    ("ok", "EmptyDocumentError", "ParseError"),
    "EDGAR `<DOCUMENT><TEXT>` wrapper cut off mid-table",
)
def _htm_sgml(d: Path, base: Path) -> None:
    _put(d, "<DOCUMENT>\n<TYPE>10-K\n<TEXT>\n<html><body><table><tr><td>$</td><td>1,2")


@case(
    "htm_binary",
    "binary.htm",
    HTM,
    ("ok", "ParseError", "EmptyDocumentError"),
    "64 KB of random bytes with an .htm name",
)
def _htm_binary(d: Path, base: Path) -> None:
    _put(d, random.Random(9).randbytes(64 * 1024))


@case(
    "htm_cp1252",
    "cp1252.htm",
    HTM,
    ("ok",),
    "Windows-1252 bytes, no charset declared",
)
def _htm_cp1252(d: Path, base: Path) -> None:
    text = "<html><body><p>\u201cQuoted\u201d \u2013 caf\xe9 \u20ac5</p></body></html>"
    _put(d, text.encode("cp1252"))


# ---------------------------------------------------------------- CSV

CSV = ("csv",)


@case("csv_empty", "empty.csv", CSV, ("EmptyDocumentError",), "0-byte .csv")
def _csv_empty(d: Path, base: Path) -> None:
    _put(d, b"")


@case("csv_blank", "blank.csv", CSV, ("EmptyDocumentError", "ok"), "only newlines and commas")
def _csv_blank(d: Path, base: Path) -> None:
    _put(d, "\n\n,,,\n\n,\n")


@case("csv_latin1", "latin1.csv", CSV, ("ok",), "Latin-1 bytes (not UTF-8)")
def _csv_latin1(d: Path, base: Path) -> None:
    _put(d, "name,city\nJos\xe9,S\xe3o Paulo\nM\xfcller,K\xf6ln\n".encode("latin-1"))


@case("csv_utf16", "utf16.csv", CSV, ("ok",), "UTF-16 with BOM")
def _csv_utf16(d: Path, base: Path) -> None:
    _put(d, "a,b\n1,2\n3,4\n".encode("utf-16"))


@case("csv_ragged", "ragged.csv", CSV, ("ok",), "rows of 1 to 40 cells")
def _csv_ragged(d: Path, base: Path) -> None:
    _put(d, "\n".join(",".join(str(j) for j in range(i % 40 + 1)) for i in range(200)) + "\n")


@case(
    "csv_unclosed_quote",
    "quote.csv",
    CSV,
    ("ok", "ParseError"),
    "a quote opened on line 2 and never closed",
)
def _csv_quote(d: Path, base: Path) -> None:
    _put(d, 'a,b\n"unclosed,1\n2,3\n4,5\n')


@case(
    "csv_huge_field",
    "huge.csv",
    CSV,
    ("ok", "ParseError"),
    "one 1 MB field (over the csv module's 128 KB field limit)",
)
def _csv_huge(d: Path, base: Path) -> None:
    _put(d, "a,b\n" + "x" * MB + ",1\n")


@case(
    "csv_nul_bytes",
    "nul.csv",
    CSV,
    ("ok", "ParseError"),
    "NUL bytes and random binary in a .csv",
)
def _csv_nul(d: Path, base: Path) -> None:
    _put(d, b"a,b\n1\x00,2\n" + random.Random(2).randbytes(4096))


@case(
    "csv_wide",
    "wide.csv",
    CSV,
    ("ok",),
    "one row of 100 000 columns",
)
def _csv_wide(d: Path, base: Path) -> None:
    _put(d, ",".join(str(i) for i in range(100000)) + "\n")


# ---------------------------------------------------------------- TXT

TXT = ("txt",)


@case("txt_empty", "empty.txt", TXT, ("EmptyDocumentError",), "0-byte .txt")
def _txt_empty(d: Path, base: Path) -> None:
    _put(d, b"")


@case("txt_whitespace", "blank.txt", TXT, ("EmptyDocumentError",), "only blank lines and tabs")
def _txt_ws(d: Path, base: Path) -> None:
    _put(d, "\n \n\t\n\n\r\n")


@case("txt_long_line", "long.txt", TXT, ("ok",), "one 1 MB line")
def _txt_long(d: Path, base: Path) -> None:
    _put(d, ("lorem ipsum dolor " * 60000)[:MB])


@case("txt_binary", "binary.txt", TXT, ("ok", "ParseError"), "64 KB of random bytes")
def _txt_binary(d: Path, base: Path) -> None:
    _put(d, random.Random(4).randbytes(64 * 1024))


@case("txt_latin1", "latin1.txt", TXT, ("ok",), "Latin-1 bytes (not UTF-8)")
def _txt_latin1(d: Path, base: Path) -> None:
    _put(d, "R\xe9sum\xe9\n\nCaf\xe9 au lait, na\xefve.\n".encode("latin-1"))


@case("txt_many_lines", "lines.txt", TXT, ("ok",), "200 000 one-character lines")
def _txt_lines(d: Path, base: Path) -> None:
    _put(d, "a\n" * 200000)


# ---------------------------------------------------------------- S2ORC JSON

S2 = ("s2orc",)
_NOT_S2 = ("UnsupportedFormatError", "ParseError", "EmptyDocumentError")


@case("json_empty", "empty.json", S2, ("EmptyDocumentError", "ParseError"), "0-byte .json")
def _json_empty(d: Path, base: Path) -> None:
    _put(d, b"")


@case("json_not_s2orc", "other.json", S2, _NOT_S2, "valid JSON object, not S2ORC")
def _json_other(d: Path, base: Path) -> None:
    _put(d, json.dumps({"name": "package", "version": "1.0", "dependencies": {}}))


@case("json_array", "array.json", S2, _NOT_S2, "a JSON array of numbers")
def _json_array(d: Path, base: Path) -> None:
    _put(d, json.dumps(list(range(1000))))


@case(
    "json_truncated",
    "truncated.json",
    S2,
    ("CorruptDocumentError", "ParseError"),
    "S2ORC JSON cut in the middle",
)
def _json_trunc(d: Path, base: Path) -> None:
    data = (ROOT / "fixtures/s2orc/N18-3011/N18-3011.json").read_bytes()
    _put(d, data[: len(data) // 2])


@case(
    "json_wrong_types",
    "types.json",
    S2,
    ("ok", "ParseError", "EmptyDocumentError"),
    "S2ORC keys with wrong types (`body_text` a string, `text` null, spans as dicts)",
)
def _json_types(d: Path, base: Path) -> None:
    _put(
        d,
        json.dumps(
            {
                "paper_id": 5,
                "title": ["not", "a", "string"],
                "abstract": [{"text": None, "section": 3}],
                "body_text": [
                    {"text": "Real paragraph.", "section": None, "cite_spans": {"a": 1}},
                    {"text": 42},
                    "bare string",
                    None,
                ],
                "ref_entries": {"TABREF0": {"type": "table", "content": None, "text": 7}},
                "bib_entries": [],
            }
        ),
    )


@case(
    "json_deep_nesting",
    "deep.json",
    S2,
    ("ParseError", "UnsupportedFormatError", "ok", "EmptyDocumentError"),
    "`body_text` nested 100 000 arrays deep",
    bomb=True,
)
def _json_deep(d: Path, base: Path) -> None:
    _put(d, '{"paper_id": "x", "body_text": ' + "[" * 100000 + "]" * 100000 + "}")


@case(
    "json_huge_string",
    "huge.json",
    S2,
    ("ok",),
    "one body paragraph of 1 MB",
)
def _json_huge(d: Path, base: Path) -> None:
    _put(
        d,
        json.dumps(
            {"paper_id": "x", "title": "T", "body_text": [{"text": ("word " * 220000)[:MB]}]}
        ),
    )


# ---------------------------------------------------------------- PMC JATS

JATS = ("jats",)
_JATS_BODY = (
    '<article article-type="research-article"><front><article-meta><title-group>'
    "<article-title>Hostile</article-title></title-group></article-meta></front>"
    "<body><sec><title>Intro</title><p>Safe paragraph. {x}</p></sec></body></article>"
)


@case("jats_empty", "empty.nxml", JATS, ("EmptyDocumentError", "CorruptDocumentError"), "0-byte")
def _jats_empty(d: Path, base: Path) -> None:
    _put(d, b"")


@case(
    "jats_xxe_file",
    "xxe.nxml",
    JATS,
    ("ok", "UnsafeInputError", "CorruptDocumentError"),
    'external entity `SYSTEM "file:///.../secret.txt"` (see also tests/test_jats.py)',
)
def _jats_xxe(d: Path, base: Path) -> None:
    _put(
        d,
        '<?xml version="1.0"?>\n<!DOCTYPE article [<!ENTITY xxe SYSTEM "'
        + (base / "secret.txt").as_uri()
        + '">]>\n'
        + _JATS_BODY.replace("{x}", "&xxe;"),
    )


@case(
    "jats_external_dtd",
    "dtd.nxml",
    JATS,
    ("ok", "UnsafeInputError", "CorruptDocumentError"),
    "DOCTYPE with a remote DTD (`http://203.0.113.1/...`) and a parameter entity to a local file",
)
def _jats_dtd(d: Path, base: Path) -> None:
    _put(
        d,
        '<?xml version="1.0"?>\n<!DOCTYPE article PUBLIC "-//NLM//DTD JATS//EN" '
        '"http://203.0.113.1/JATS-archivearticle1.dtd" [<!ENTITY % p SYSTEM "'
        + (base / "secret.txt").as_uri()
        + '"> %p;]>\n'
        + _JATS_BODY.replace("{x}", ""),
    )


@case(
    "jats_xinclude",
    "xinclude.nxml",
    JATS,
    ("ok", "UnsafeInputError", "CorruptDocumentError"),
    '`<xi:include href="file:///.../secret.txt" parse="text"/>`',
)
def _jats_xinclude(d: Path, base: Path) -> None:
    _put(
        d,
        '<?xml version="1.0"?>\n'
        + _JATS_BODY.replace(
            "<article ", '<article xmlns:xi="http://www.w3.org/2001/XInclude" '
        ).replace("{x}", f'<xi:include href="{(base / "secret.txt").as_uri()}" parse="text"/>'),
    )


@case(
    "jats_billion_laughs",
    "laughs.nxml",
    JATS,
    ("ok", "UnsafeInputError", "CorruptDocumentError"),
    "billion-laughs internal entities (see also tests/test_jats.py)",
    bomb=True,
)
def _jats_laughs(d: Path, base: Path) -> None:
    _put(
        d,
        '<?xml version="1.0"?>\n'
        + _LAUGHS_DTD.replace("html", "article")
        + _JATS_BODY.replace("{x}", "&lol9;"),
    )


@case(
    "jats_truncated",
    "truncated.nxml",
    JATS,
    ("CorruptDocumentError", "ok"),
    "real JATS article cut in the middle",
)
def _jats_trunc(d: Path, base: Path) -> None:
    data = (ROOT / "fixtures/pmc/PMC3166277/1471-2180-11-174.nxml").read_bytes()
    _put(d, data[: len(data) // 2])


@case(
    "jats_not_jats",
    "other.xml",
    JATS,
    ("ok", "EmptyDocumentError", "ParseError", "UnsupportedFormatError"),
    "well-formed XML that is not JATS (an RSS feed)",
)
def _jats_other(d: Path, base: Path) -> None:
    _put(d, '<?xml version="1.0"?><rss><channel><item><title>x</title></item></channel></rss>')


@case(
    "jats_deep_nesting",
    "deep.nxml",
    JATS,
    ("ok", "CorruptDocumentError", "UnsafeInputError"),
    "`<sec>` nested 100 000 deep",
    bomb=True,
)
def _jats_deep(d: Path, base: Path) -> None:
    _put(d, _JATS_BODY.replace("{x}", "<sec>" * 100000 + "x" + "</sec>" * 100000))


# ---------------------------------------------------------------- building


def plant_secrets(base: Path) -> None:
    """Secret files outside every case folder, each holding :data:`MARKER`."""
    for where in (base, base / "corpus"):
        where.mkdir(parents=True, exist_ok=True)
        for ext in (".tex", ".txt", ""):
            (where / f"secret{ext}").write_text(
                f"{MARKER}\n\nThis paragraph must never appear in any output.\n",
                encoding="utf-8",
            )


def build(base: Path, names: list[str] | None = None) -> Path:
    """Write the corpus (or the named cases) under ``base``; return ``base``."""
    plant_secrets(base)
    for c in CASES:
        if names is not None and c.name not in names:
            continue
        d = base / "corpus" / c.name
        if c.path(base).exists():
            continue
        d.mkdir(parents=True, exist_ok=True)
        _WRITERS[c.name](d, base)
    return base


def by_name(name: str) -> Case:
    return next(c for c in CASES if c.name == name)
