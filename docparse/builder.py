"""Turn parser output (drafts) into a finished :class:`~docparse.model.Document`.

Parsers only decide *what* the units are: kind, text, raw span, section,
provenance, table. Everything derived (order, ids, word offsets, token
counts, position and bucket, links between captions and tables) is computed
here, once, the same way for every format and backend.
"""

from __future__ import annotations

import collections
import itertools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, fields
from hashlib import sha256
from pathlib import Path
from typing import Any, TypeVar

from docparse.model import (
    Annotation,
    Document,
    Format,
    PageInfo,
    Provenance,
    Reference,
    SourceUnit,
    Table,
    UnitKind,
)
from docparse.text import clean_counted, clean_text, count_tokens_batch

_R = TypeVar("_R")
_new = object.__new__
#: Runs an iterator to its end, keeping nothing (the setters return ``None``).
_drain: Callable[[Iterable[object]], None] = collections.deque[object](maxlen=0).extend


def records(cls: type[_R], n: int, columns: dict[str, Sequence[Any]]) -> list[_R]:
    """``n`` new ``cls`` records (a slotted dataclass), field ``name`` of each
    taken from ``columns[name]``: what ``[cls(**row) for row in rows]`` gives.

    A frozen dataclass's ``__init__`` sets each field through
    ``object.__setattr__`` (a unit has sixteen); here each field is set on
    all records by one C-level ``map`` of its slot's setter, at a fraction
    of the cost. Every field must be given, ``n`` values each (no defaults
    are filled in).
    """
    if hasattr(cls, "__post_init__"):
        # Records made here never run __init__, so a check there would be skipped.
        raise TypeError(f"records() cannot build {cls.__name__}: it has __post_init__")
    objs: list[_R] = list(map(_new, itertools.repeat(cls, n)))
    for name in _field_names(cls):
        column = columns[name]
        if len(column) != n:
            raise ValueError(f"{cls.__name__}.{name}: {len(column)} values for {n} records")
        setter: Callable[[Any, Any], None] = getattr(cls, name).__set__
        _drain(map(setter, objs, column))
    return objs


def _field_names(cls: type) -> tuple[str, ...]:
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = tuple(f.name for f in fields(cls))
    return names


_FIELDS: dict[type, tuple[str, ...]] = {}


@dataclass(slots=True)
class UnitDraft:
    """A unit as a parser sees it, before ids and offsets exist.

    ``related`` holds indices of other drafts in the same list (for example a
    caption's table); the builder turns them into unit ids. ``text`` is
    cleaned by the builder, so parsers may pass text with stray whitespace.
    For table drafts with an empty ``text`` the builder uses the cells.
    """

    kind: UnitKind
    text: str
    raw: str = ""
    section: tuple[str, ...] = ()
    provenance: tuple[Provenance, ...] = ()
    table: Table | None = None
    annotations: tuple[Annotation, ...] = ()
    related: list[int] = field(default_factory=list)


class DraftList:
    """The drafts one parse emits, in reading order, and the links between them.

    The index :meth:`add` returns is what :attr:`UnitDraft.related` holds, so
    a parser can link a table to the caption and notes it writes after it.
    """

    def __init__(self) -> None:
        self.drafts: list[UnitDraft] = []

    def add(
        self,
        kind: UnitKind,
        text: str,
        raw: str,
        section: tuple[str, ...],
        *,
        table: Table | None = None,
        annotations: Iterable[Annotation] = (),
    ) -> int:
        """Append a draft and return its index."""
        self.drafts.append(
            UnitDraft(
                kind=kind,
                text=text,
                raw=raw,
                section=section,
                table=table,
                annotations=tuple(annotations),
            )
        )
        return len(self.drafts) - 1

    def link(self, a: int, b: int) -> None:
        """Relate drafts ``a`` and ``b`` both ways (a table and its caption)."""
        self.drafts[a].related.append(b)
        self.drafts[b].related.append(a)


def table_text(table: Table) -> str:
    """The plain text of a table unit: its non-empty cells in row-major order.

    Separators are left out on purpose: the text is what a reader (or a PDF
    text layer) sees, and word counts must not count ``|`` as words.
    """
    return " ".join(table.cells())


def file_hash(path: str | Path) -> str:
    """Content hash of a file, used as ``doc_id``."""
    import hashlib

    with open(path, "rb") as fh:
        return hashlib.file_digest(fh, "sha256").hexdigest()[:16]


def content_hash(data: bytes) -> str:
    """:func:`file_hash` of a file whose bytes are ``data`` (read already)."""
    import hashlib

    return hashlib.sha256(data).hexdigest()[:16]


def bucket_of(position: float) -> int:
    """Quartile (1-4) of a relative position in [0, 1]."""
    return min(4, int(position * 4) + 1)


def _unit_ids(did: str, kinds: Sequence[str], texts: Sequence[str]) -> list[str]:
    """``doc_id:order:hash``, the hash the first 8 hex digits of SHA-256 of
    ``kind NUL text`` (:func:`content_hash` of it, without a call of it a unit)."""
    # A document has a few kinds: each kind's "kind NUL" is hashed once, and
    # a unit's hash goes on from a copy of its kind's state.
    heads = {k: sha256(f"{k}\0".encode()) for k in set(kinds)}
    out: list[str] = []
    append = out.append
    for order, k, t in zip(range(len(texts)), kinds, texts, strict=True):
        h = heads[k].copy()
        h.update(t.encode())
        append(f"{did}:{order:05d}:{h.hexdigest()[:8]}")
    return out


def build_document(
    *,
    path: str | Path,
    format: Format,
    backend: str,
    drafts: Sequence[UnitDraft],
    title: str | None = None,
    n_pages: int | None = None,
    references: Sequence[Reference] = (),
    flags: Sequence[str] = (),
    doc_id: str | None = None,
    pages: Sequence[PageInfo] = (),
) -> Document:
    """Finish drafts into a document.

    Drafts whose clean text is empty (and that hold no table) are dropped:
    a unit that is only markup is not a unit. ``furniture`` drafts keep their
    text but take no words, so positions measure document content only.
    """
    did = doc_id if doc_id is not None else file_hash(path)
    ds: list[UnitDraft] = []
    texts: list[str] = []
    content_words: list[int] = []
    index_of: dict[int, int] = {}  # draft index -> unit order, for related
    for i, d in enumerate(drafts):
        text = d.text
        if text.isascii():
            # clean_counted's ASCII case, inline: most texts take it.
            parts = text.split()
            text = " ".join(parts)
            n_words = len(parts)
        else:
            text, n_words = clean_counted(text)
        if not text:
            if d.table is None:
                continue
            text, n_words = clean_counted(table_text(d.table))
        index_of[i] = len(ds)
        ds.append(d)
        texts.append(text)
        content_words.append(0 if d.kind == "furniture" else n_words)

    n = len(ds)
    kinds = [d.kind for d in ds]
    total = sum(content_words)
    tokens = count_tokens_batch(texts)
    ids = _unit_ids(did, kinds, texts)

    # Word offsets: each unit starts where the one before it ends.
    ends = list(itertools.accumulate(content_words))
    starts = [0, *ends[:-1]] if ends else []
    positions = [start / total for start in starts] if total else [0.0] * n
    units = records(
        SourceUnit,
        n,
        {
            "id": ids,
            "kind": kinds,
            "modality": ["table" if k == "table" else "text" for k in kinds],
            "text": texts,
            "raw": [d.raw for d in ds],
            "section": [tuple(d.section) for d in ds],
            "order": range(n),
            "word_start": starts,
            "word_end": ends,
            "n_tokens": tokens,
            "position": positions,
            # bucket_of(p), inline: a call a unit costs more than the sum.
            "position_bucket": [min(4, int(p * 4) + 1) for p in positions],
            "provenance": [tuple(d.provenance) for d in ds],
            "table": [d.table for d in ds],
            "annotations": [tuple(d.annotations) for d in ds],
            "related": [
                tuple(ids[index_of[j]] for j in d.related if j in index_of) if d.related else ()
                for d in ds
            ],
        },
    )

    return Document(
        doc_id=did,
        source_path=str(path),
        format=format,
        backend=backend,
        title=clean_text(title) if title else None,
        units=tuple(units),
        n_pages=n_pages,
        references=tuple(references),
        flags=tuple(flags),
        pages=tuple(pages),
    )
