"""What the ``docparse`` commands share: options, parsing a file, reporting errors.

Every command reports a :class:`~docparse.errors.DocparseError` the same way,
``<ErrorClass>: <message>``, and either ends with click's error exit or, when
it reads many files, names the failure on stderr and goes on.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, cast

import click

from docparse.api import parse
from docparse.errors import DocparseError
from docparse.model import FORMATS, Document, Format

__all__ = [
    "ParsedFiles",
    "backend_option",
    "config_option",
    "error_text",
    "exit_on_error",
    "format_option",
    "load_document",
    "parse_options",
]


def parse_options(pairs: tuple[str, ...]) -> dict[str, Any]:
    """``KEY=VALUE`` pairs to a config dict; values are read as JSON when they can be."""
    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise click.BadParameter(f"{pair!r} is not KEY=VALUE", param_hint="--option")
        try:
            out[key] = json.loads(value)
        except json.JSONDecodeError:
            out[key] = value
    return out


backend_option = click.option(
    "--backend",
    "-b",
    default=None,
    help="PDF backend: pymupdf (default), pdfplumber, unstructured, pymupdf4llm, pypdfium2.",
)
format_option = click.option(
    "--format",
    "fmt",
    default=None,
    type=click.Choice(FORMATS),
    help="Force the input format (" + ", ".join(FORMATS) + ").",
)
config_option = click.option(
    "--option",
    "-O",
    "options",
    multiple=True,
    metavar="KEY=VALUE",
    help="A parser option, repeatable (e.g. -O tables=false -O pages=[1,3]).",
)


def error_text(exc: DocparseError) -> str:
    """``<ErrorClass>: <message>``: how every command names a failure."""
    return f"{type(exc).__name__}: {exc}"


@contextmanager
def exit_on_error() -> Iterator[None]:
    """Turn a DocparseError inside the block into click's error exit (status 1)."""
    try:
        yield
    except DocparseError as exc:
        raise click.ClickException(error_text(exc)) from exc


def _parse(
    path: str, fmt: str | None, backend: str | None, config: dict[str, Any] | None
) -> Document:
    # fmt comes from format_option, whose choices are exactly the formats.
    return parse(Path(path), format=cast("Format | None", fmt), backend=backend, config=config)


def load_document(
    path: str,
    fmt: str | None,
    backend: str | None,
    config: dict[str, Any] | None = None,
) -> Document:
    """Parse ``path`` with the ``--format``, ``--backend`` and ``--option`` values given;
    a failure ends the command (see :func:`exit_on_error`)."""
    with exit_on_error():
        return _parse(path, fmt, backend, config)


class ParsedFiles:
    """The documents of ``paths``, parsed one at a time as they are iterated.

    A file that fails is named on stderr (``error: <ErrorClass>: <message>``)
    and skipped, so one bad file does not stop a batch; :attr:`failed` counts
    those files, for the command's exit status once it is done.
    """

    def __init__(
        self,
        paths: Sequence[str],
        fmt: str | None,
        backend: str | None,
        config: dict[str, Any] | None = None,
    ) -> None:
        self.paths = paths
        self.fmt = fmt
        self.backend = backend
        self.config = config
        self.failed = 0

    def __iter__(self) -> Iterator[Document]:
        for path in self.paths:
            try:
                doc = _parse(path, self.fmt, self.backend, self.config)
            except DocparseError as exc:
                self.failed += 1
                click.echo(f"error: {error_text(exc)}", err=True)
                continue
            yield doc
