"""docparse: PDFs and their structured twins as analysis-ready source units.

>>> import docparse
>>> doc = docparse.parse("paper.tex")            # doctest: +SKIP
>>> pdf = docparse.parse("paper.pdf", backend="pdfplumber")  # doctest: +SKIP
"""

from __future__ import annotations

from docparse import features
from docparse.api import parse
from docparse.chunking import Chunk, chunk
from docparse.cluster import Clustering, cluster
from docparse.config import ParserConfig, resolve_config
from docparse.errors import (
    ConfigError,
    CorruptDocumentError,
    DocparseError,
    EmptyDocumentError,
    EncryptedDocumentError,
    MissingDependencyError,
    ModelUnavailableError,
    ParseError,
    ParseTimeoutError,
    RunInterruptedError,
    UnknownParserError,
    UnsafeInputError,
    UnsupportedFormatError,
)
from docparse.ingest import ingest
from docparse.model import (
    SCHEMA_VERSION,
    Annotation,
    BBox,
    CellSpan,
    Document,
    PageInfo,
    Provenance,
    Reference,
    SourceUnit,
    Table,
)
from docparse.registry import available, get_parser, register
from docparse.sampling import Sample, sample

__version__ = "0.1.0"

__all__ = [
    "SCHEMA_VERSION",
    "Annotation",
    "BBox",
    "CellSpan",
    "Chunk",
    "Clustering",
    "ConfigError",
    "CorruptDocumentError",
    "DocparseError",
    "Document",
    "EmptyDocumentError",
    "EncryptedDocumentError",
    "MissingDependencyError",
    "ModelUnavailableError",
    "PageInfo",
    "ParseError",
    "ParseTimeoutError",
    "ParserConfig",
    "Provenance",
    "Reference",
    "RunInterruptedError",
    "Sample",
    "SourceUnit",
    "Table",
    "UnknownParserError",
    "UnsafeInputError",
    "UnsupportedFormatError",
    "__version__",
    "available",
    "chunk",
    "cluster",
    "features",
    "get_parser",
    "ingest",
    "parse",
    "register",
    "resolve_config",
    "sample",
]
