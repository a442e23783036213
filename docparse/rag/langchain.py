"""A LangChain document loader (``BaseLoader``) over docparse (extra ``langchain``).

>>> from docparse.rag.langchain import DocparseLoader              # doctest: +SKIP
>>> docs = DocparseLoader("paper.pdf", by="page").load()           # doctest: +SKIP
>>> docs[0].metadata["page"]                                       # doctest: +SKIP
1
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from docparse.errors import MissingDependencyError
from docparse.rag import By, records

try:
    from langchain_core.document_loaders import BaseLoader
    from langchain_core.documents import Document as LangchainDocument
except ImportError as exc:  # pragma: no cover - exercised without the extra
    raise MissingDependencyError(
        "the LangChain loader", "pip install 'docparse[langchain]'", cause=exc
    ) from exc


class DocparseLoader(BaseLoader):  # type: ignore[misc]
    """Parse ``file_path`` with docparse into LangChain documents, one per unit, chunk or page.

    Options as for :class:`docparse.rag.llamaindex.DocparseReader`; metadata
    is described in :mod:`docparse.rag`.
    """

    def __init__(
        self,
        file_path: str | Path,
        by: By = "unit",
        *,
        backend: str | None = None,
        config: Any = None,
        include_furniture: bool = False,
        **chunking: Any,
    ) -> None:
        self.file_path = file_path
        self.by: By = by
        self.backend = backend
        self.config = config
        self.include_furniture = include_furniture
        self.chunking = chunking

    def lazy_load(self) -> Iterator[Any]:
        """The documents one at a time (the file is parsed once, on the first)."""
        from docparse.api import parse

        doc = parse(self.file_path, backend=self.backend, config=self.config)
        for r in records(
            doc, self.by, include_furniture=self.include_furniture, **dict(self.chunking)
        ):
            yield LangchainDocument(page_content=r.text, metadata=r.metadata, id=r.id)
