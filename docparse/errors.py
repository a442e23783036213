"""Typed errors raised by docparse.

Every error for bad input is a :class:`DocparseError` carrying the offending
``path`` and, where there is one, the underlying ``cause``. Batch APIs catch
``DocparseError`` per document, record it, and go on.

``str(error)`` names the file once. A message is either a sentence about the
file that starts with its path (``x.pdf is encrypted; pass password=...``) or
a fact about its content, which the path is put before (``x.json: invalid
JSON ...``). A library's own error text goes in through :func:`cause_text`,
which takes the file's path out of it.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path


class DocparseError(Exception):
    """Base class of every error docparse raises on purpose.

    >>> str(DocparseError("x.json", "invalid JSON"))
    'x.json: invalid JSON'
    >>> str(DocparseError("x.pdf", "x.pdf is empty (0 bytes)"))
    'x.pdf is empty (0 bytes)'
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
        if not self.path or _starts_with_file(self.message, self.path):
            return self.message
        return f"{self.path}: {self.message}"


def _starts_with_file(message: str, path: str) -> bool:
    """Whether ``message`` begins with the file's path or name, as a whole word."""
    for name in (path, Path(path).name):
        after = message[len(name) : len(name) + 1]
        if name and message.startswith(name) and after in ("", " ", ":", ";", ","):
            return True
    return False


def cause_text(exc: BaseException, path: str | Path) -> str:
    """What a library says went wrong, for a message about ``path``, without ``path`` in it.

    The error names the file already; an OSError gives its reason, any other
    exception its text with the quoted path taken out (as MuPDF quotes it).

    >>> cause_text(FileNotFoundError(2, "No such file or directory", "a/x.pdf"), "a/x.pdf")
    'No such file or directory'
    >>> cause_text(RuntimeError("Failed to open file 'a/x.pdf' as type pdf."), "a/x.pdf")
    'Failed to open file as type pdf.'
    """
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    text = str(exc)
    for quoted in (f" '{path}'", f' "{path}"'):
        text = text.replace(quoted, "")
    return text


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


class RunInterruptedError(DocparseError):
    """A corpus run stopped on SIGINT or SIGTERM; ``signum`` is the signal.

    Its workers are stopped, no partial file is left and the manifest lists
    every file finished; running the same command again resumes the run.
    """

    def __init__(self, path: str | Path | None, message: str, *, signum: int) -> None:
        super().__init__(path, message)
        self.signum = signum
