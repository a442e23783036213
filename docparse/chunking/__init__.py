"""Chunkers: sentence-token chunks (LlamaIndex parity), unit chunks, section chunks.

>>> from docparse.chunking import SentenceSplitter
>>> SentenceSplitter(chunk_size=400, chunk_overlap=0).split_text("A short text.")
['A short text.']
"""

from __future__ import annotations

from docparse.chunking.sentence import (
    DEFAULT_CHUNKING_REGEX,
    DEFAULT_PARAGRAPH_SEPARATOR,
    SentenceSplitter,
    punkt_sentence_starts,
    split_sentences,
)
from docparse.chunking.units import (
    STRATEGIES,
    Chunk,
    chunk,
    chunk_sections,
    chunk_sentences,
    chunk_units,
)

__all__ = [
    "DEFAULT_CHUNKING_REGEX",
    "DEFAULT_PARAGRAPH_SEPARATOR",
    "STRATEGIES",
    "Chunk",
    "SentenceSplitter",
    "chunk",
    "chunk_sections",
    "chunk_sentences",
    "chunk_units",
    "punkt_sentence_starts",
    "split_sentences",
]
