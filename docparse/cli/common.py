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
from docparse.formats.catalog import FORMAT_TABLE
from docparse.model import FORMATS, Document, Format
from docparse.registry import DEFAULT_PDF_BACKEND, PDF_BACKENDS

__all__ = [
    "ParsedFiles",
    "backend_option",
    "check_output",
    "config_option",
    "error_text",
    "exit_on_error",
    "format_option",
    "load_document",
    "nothing_computed",
    "output_file",
    "output_folder",
    "parse_options",
    "split_backend",
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
    help=f"PDF backend: {', '.join(PDF_BACKENDS)} (default {DEFAULT_PDF_BACKEND});"
    f" or a format ({', '.join(f for f in FORMATS if f != 'pdf')}) to read that file of"
    " the document.",
)


def split_backend(fmt: str | None, backend: str | None) -> tuple[str | None, str | None]:
    """``(format, backend)`` with a twin format given as ``-b tex`` moved to the format.

    Every command reads ``-b`` the same way: a PDF backend, or the name of
    the twin format to read.
    """
    if backend is not None and backend in FORMATS and backend != "pdf":
        return fmt or backend, None
    return fmt, backend


def check_output(path: str | None) -> None:
    """End the command with a one-line error when ``path`` cannot be written.

    Checked before any work: the folder must exist and ``path`` must not be
    a folder. ``None`` and ``-`` (stdout) always pass.
    """
    if path is None or path == "-":
        return
    p = Path(path)
    if p.is_dir():
        raise click.ClickException(f"cannot write {path}: it is a folder")
    parent = p.parent
    if not parent.exists():
        raise click.ClickException(f"cannot write {path}: folder {parent} does not exist")
    if not parent.is_dir():
        raise click.ClickException(f"cannot write {path}: {parent} is a file, not a folder")


def output_folder(path: str) -> Path:
    """The folder ``path``, created if missing; a one-line error when it cannot be."""
    p = Path(path)
    try:
        p.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        raise click.ClickException(f"cannot write to {path}: a file is in the way") from None
    except OSError as exc:
        raise click.ClickException(f"cannot write to {path}: {exc.strerror}") from None
    return p


@contextmanager
def output_file(path: str | None) -> Iterator[Any]:
    """A text file open for writing at ``path`` (stdout for None or ``-``).

    A path that cannot be opened ends the command with a one-line error.
    """
    check_output(path)
    try:
        fh = click.open_file(path or "-", "w", encoding="utf-8")
    except OSError as exc:
        raise click.ClickException(f"cannot write {path}: {exc.strerror}") from None
    with fh:
        yield fh


def nothing_computed(message: str) -> None:
    """End a command that computed nothing (every input failed) with exit status 1."""
    raise click.ClickException(message)


format_option = click.option(
    "--format",
    "fmt",
    default=None,
    type=click.Choice(FORMATS),
    help="Force the input format: "
    + "; ".join(f"{s.name} ({', '.join(s.extensions)})" for s in FORMAT_TABLE.values())
    + ". Detected from the extension and content when not given.",
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
        return _parse(path, *split_backend(fmt, backend), config)


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
        self.fmt, self.backend = split_backend(fmt, backend)
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
