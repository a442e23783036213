"""Typed errors raised by docparse.

Every error for bad input is a :class:`DocparseError` carrying the offending
``path`` and, where there is one, the underlying ``cause``. Batch APIs catch
``DocparseError`` per document, record it, and go on.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path


class DocparseError(Exception):
    """Base class of every error docparse raises on purpose.

    >>> err = DocparseError("x.pdf", "cannot be read")
    >>> str(err)
    'x.pdf: cannot be read'
    """

    def __init__(
        self,
        path: str | Path | None,
        message: str,
        *,
        cause: BaseException | None = None,
    ) -> None:
        self.path = str(path) if path is not None else None
        self.message = message
        self.cause = cause
        super().__init__(message)
        if cause is not None:
            self.__cause__ = cause

    def __str__(self) -> str:
        return f"{self.path}: {self.message}" if self.path else self.message


class UnsupportedFormatError(DocparseError):
    """The file's format could not be detected or has no parser."""


class UnknownParserError(DocparseError):
    """A parser or backend name that is not registered; lists the known ones."""

    def __init__(self, name: str, available: Iterable[str], *, kind: str = "parser") -> None:
        self.name = name
        self.available = tuple(sorted(available))
        super().__init__(
            None,
            f"unknown {kind} {name!r}; available: {', '.join(self.available)}",
        )


class ConfigError(DocparseError):
    """An option that does not exist or has a value of the wrong type."""


class MissingDependencyError(DocparseError):
    """An optional dependency is not installed; the message has the pip line."""

    def __init__(self, feature: str, install: str, *, cause: BaseException | None = None) -> None:
        self.feature = feature
        self.install = install
        super().__init__(None, f"{feature} needs an optional dependency: {install}", cause=cause)


class ParseError(DocparseError):
    """The file exists but its content cannot be parsed (malformed input)."""


class CorruptDocumentError(ParseError):
    """A truncated or damaged file (broken PDF xref, invalid XML, ...)."""


class EncryptedDocumentError(DocparseError):
    """The document is encrypted and no (or a wrong) password was given."""


class EmptyDocumentError(ParseError):
    """The file is empty or holds no pages."""


class UnsafeInputError(DocparseError):
    """The input asks for something unsafe: a file outside its folder, an
    external entity, unbounded expansion."""


class ParseTimeoutError(DocparseError):
    """Parsing took longer than the configured time limit."""


class ModelUnavailableError(DocparseError):
    """A backend mode needs model files that are not present on this machine."""
