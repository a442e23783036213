"""A LlamaIndex reader (``BaseReader``) over docparse (extra ``llamaindex``).

>>> from docparse.rag.llamaindex import DocparseReader            # doctest: +SKIP
>>> docs = DocparseReader(by="unit").load_data("paper.pdf")       # doctest: +SKIP
>>> docs[0].metadata["section"], docs[0].metadata["page"]         # doctest: +SKIP
('1. Introduction', 1)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from docparse.errors import MissingDependencyError
from docparse.rag import HIDDEN_KEYS, By, records

try:
    from llama_index.core.readers.base import BaseReader
    from llama_index.core.schema import Document as LlamaDocument
except ImportError as exc:  # pragma: no cover - exercised without the extra
    raise MissingDependencyError(
        "the LlamaIndex reader", "pip install 'docparse[llamaindex]'", cause=exc
    ) from exc


class DocparseReader(BaseReader):
    """Parse files with docparse and return LlamaIndex documents, one per unit, chunk or page.

    ``by``: ``unit``, ``chunk`` or ``page``; ``backend``/``config``: as for
    :func:`docparse.parse`; ``chunking``: options of
    :func:`docparse.chunking.chunk` for ``by="chunk"``. Metadata is described
    in :mod:`docparse.rag`; ids, boxes and positions are kept out of the text
    that splitters and embedders see.
    """

    def __init__(
        self,
        by: By = "unit",
        *,
        backend: str | None = None,
        config: Any = None,
        include_furniture: bool = False,
        **chunking: Any,
    ) -> None:
        super().__init__()
        self.by: By = by
        self.backend = backend
        self.config = config
        self.include_furniture = include_furniture
        self.chunking = chunking

    def load_data(self, file: str | Path, extra_info: dict[str, Any] | None = None) -> list[Any]:
        """The LlamaIndex documents of ``file`` (``extra_info`` is added to every metadata)."""
        from docparse.api import parse

        doc = parse(file, backend=self.backend, config=self.config)
        out = []
        for r in records(
            doc, self.by, include_furniture=self.include_furniture, **dict(self.chunking)
        ):
            metadata = {**r.metadata, **(extra_info or {})}
            out.append(
                LlamaDocument(
                    id_=r.id,
                    text=r.text,
                    metadata=metadata,
                    excluded_embed_metadata_keys=list(HIDDEN_KEYS),
                    excluded_llm_metadata_keys=list(HIDDEN_KEYS),
                )
            )
        return out
