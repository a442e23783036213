"""Reading and decoding of twin source files, shared by the format parsers.

:func:`read_source` gives every parser the same typed errors for unreadable,
oversized and blank files. :func:`decode_text` / :func:`decode_bytes` turn
bytes into text for the plain-text formats (txt, csv, htm).

Private helper: the order is BOM, strict UTF-8, then charset-normalizer's best
guess (cp1252 or latin-1 preferred among equally good guesses, since short
Western text fits several code pages), then cp1252 with replacement so that a
decode never fails on bytes that are text in some legacy code page.
"""

from __future__ import annotations

import codecs
from pathlib import Path

from docparse.errors import (
    CorruptDocumentError,
    EmptyDocumentError,
    ParseError,
    UnsafeInputError,
    cause_text,
)


def read_source(path: Path, *, max_bytes: int | None = None) -> bytes:
    """The bytes of ``path``; typed errors for unreadable, oversized or blank files."""
    try:
        size = path.stat().st_size
        if max_bytes is not None and size > max_bytes:
            raise UnsafeInputError(path, f"file of {size} bytes exceeds max_bytes={max_bytes}")
        data = path.read_bytes()
    except OSError as exc:
        raise ParseError(
            path, f"{path} cannot be read: {cause_text(exc, path)}", cause=exc
        ) from exc
    if not data:
        raise EmptyDocumentError(path, "the file is empty")
    if not data.strip():
        raise EmptyDocumentError(path, "the file holds only whitespace")
    return data


def decode_text(data: bytes, path: Path, encoding: str | None = None) -> str:
    """``data`` as text: in ``encoding`` when given, else detected (:func:`decode_bytes`).

    A leading byte order mark is dropped.
    """
    if encoding is None:
        text, _ = decode_bytes(data, path)
    else:
        try:
            text = data.decode(encoding)
        except (UnicodeDecodeError, LookupError) as exc:
            raise ParseError(path, f"cannot decode as {encoding}: {exc}", cause=exc) from exc
    return text.lstrip("\ufeff")


_BOMS: tuple[tuple[bytes, str], ...] = (
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


_PREFERRED = ("cp1252", "latin_1", "iso8859_15")


def decode_bytes(data: bytes, path: str | Path | None = None) -> tuple[str, str]:
    """Decode ``data`` to ``(text, encoding)``.

    Raises :class:`~docparse.errors.CorruptDocumentError` for content that
    looks binary (NUL bytes without a UTF-16/32 byte order mark).
    """
    for bom, enc in _BOMS:
        if data.startswith(bom):
            try:
                return data.decode(enc), enc
            except UnicodeDecodeError as exc:
                raise CorruptDocumentError(path, f"invalid {enc} text", cause=exc) from exc
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    if b"\x00" in data[:65536]:
        raise CorruptDocumentError(path, "binary content (NUL bytes), not text")
    from charset_normalizer import from_bytes

    results = list(from_bytes(data[: 1 << 20]))
    if results:
        # Short Western text decodes equally well in several code pages; among
        # the least chaotic results prefer the common Western ones.
        least = min(r.chaos for r in results)
        tied = [r for r in results if r.chaos <= least + 0.01]
        for preferred in _PREFERRED:
            for r in tied:
                if preferred in r.could_be_from_charset or r.encoding == preferred:
                    try:
                        return data.decode(preferred), preferred
                    except (UnicodeDecodeError, LookupError):
                        break
        best = results[0]
        try:
            return data.decode(best.encoding), best.encoding
        except (UnicodeDecodeError, LookupError):
            pass
    # cp1252 leaves five bytes undefined; replacement keeps the rest readable.
    return data.decode("cp1252", errors="replace"), "cp1252"
