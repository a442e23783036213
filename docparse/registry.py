"""Parsers registered by name, imported lazily.

A parser is any object with the :class:`Parser` protocol. The built-in ones
(each format's parser, from the format table :mod:`docparse.formats.catalog`,
and the PDF backends) are named by module path so that importing docparse
never imports a heavy backend (unstructured pulls torch); a plug-in may
:func:`register` its own.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from docparse.errors import UnknownParserError
from docparse.formats.catalog import FORMAT_TABLE
from docparse.model import Document, Format


@runtime_checkable
class Parser(Protocol):
    """What every format parser and PDF backend provides.

    ``config_class`` is the frozen options dataclass; ``parse`` receives an
    instance of it (already validated by :func:`docparse.config.resolve_config`).
    """

    name: str
    format: Format
    config_class: type[Any]

    def parse(self, path: Path, config: Any) -> Document: ...


#: PDF backend name -> "module:attribute" of its Parser class.
_PDF_BACKEND_CLASSES: dict[str, str] = {
    "pymupdf": "docparse.backends.pymupdf:PyMuPDFBackend",
    "pdfplumber": "docparse.backends.pdfplumber:PdfplumberBackend",
    "unstructured": "docparse.backends.unstructured:UnstructuredBackend",
    "pymupdf4llm": "docparse.backends.pymupdf4llm:PyMuPDF4LLMBackend",
    "pypdfium2": "docparse.backends.pypdfium2:Pypdfium2Backend",
}

#: name -> "module:attribute" of a Parser class, for the built-in parsers:
#: each format's parser from the format table, then the PDF backends.
_BUILTIN: dict[str, str] = {
    **{name: spec.parser for name, spec in FORMAT_TABLE.items() if spec.parser is not None},
    **_PDF_BACKEND_CLASSES,
}

#: The PDF backends, in the order ``--backend all`` runs them.
PDF_BACKENDS: tuple[str, ...] = tuple(_PDF_BACKEND_CLASSES)
DEFAULT_PDF_BACKEND = "pymupdf"

_plugins: dict[str, Callable[[], Parser]] = {}
_cache: dict[str, Parser] = {}


def register(name: str, factory: Callable[[], Parser]) -> None:
    """Register a parser factory under ``name`` (replaces any earlier one)."""
    _plugins[name] = factory
    _cache.pop(name, None)


def available() -> tuple[str, ...]:
    """Names of every registered parser (built-in and plug-in)."""
    return tuple(sorted(set(_BUILTIN) | set(_plugins)))


def get_parser(name: str) -> Parser:
    """The parser registered as ``name``.

    Raises :class:`~docparse.errors.UnknownParserError` listing the known
    names, or :class:`~docparse.errors.MissingDependencyError` (from the
    parser module) when an optional dependency is not installed.
    """
    if name in _cache:
        return _cache[name]
    if name in _plugins:
        parser = _plugins[name]()
    elif name in _BUILTIN:
        module_name, attr = _BUILTIN[name].split(":")
        module = importlib.import_module(module_name)
        parser = getattr(module, attr)()
    else:
        raise UnknownParserError(name, available())
    _cache[name] = parser
    return parser


def installed_pdf_backends() -> tuple[str, ...]:
    """PDF backends whose dependencies import on this machine."""
    from docparse.errors import MissingDependencyError

    names = []
    for name in PDF_BACKENDS:
        try:
            get_parser(name)
        except MissingDependencyError:
            continue
        names.append(name)
    return tuple(names)
