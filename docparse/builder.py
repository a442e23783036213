"""Turn parser output (drafts) into a finished :class:`~docparse.model.Document`.

Parsers only decide *what* the units are: kind, text, raw span, section,
provenance, table. Everything derived (order, ids, word offsets, token
counts, position and bucket, links between captions and tables) is computed
here, once, the same way for every format and backend.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

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
    content_hash,
)
from docparse.text import clean_text, count_tokens_batch, count_words


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

    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()[:16]


def bucket_of(position: float) -> int:
    """Quartile (1-4) of a relative position in [0, 1]."""
    return min(4, int(position * 4) + 1)


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
    kept: list[tuple[int, UnitDraft, str]] = []
    for i, d in enumerate(drafts):
        text = clean_text(d.text)
        if not text and d.table is not None:
            text = clean_text(table_text(d.table))
        if not text and d.table is None:
            continue
        kept.append((i, d, text))

    content_words = [0 if d.kind == "furniture" else count_words(text) for _, d, text in kept]
    total = sum(content_words)
    tokens = count_tokens_batch([text for _, _, text in kept])

    ids: list[str] = []
    index_of: dict[int, int] = {}
    for order, (i, d, text) in enumerate(kept):
        ids.append(f"{did}:{order:05d}:{content_hash(d.kind + chr(0) + text, 8)}")
        index_of[i] = order

    units: list[SourceUnit] = []
    start = 0
    for order, ((_, d, text), n_words, n_tok) in enumerate(
        zip(kept, content_words, tokens, strict=True)
    ):
        position = start / total if total else 0.0
        related = tuple(ids[index_of[j]] for j in d.related if j in index_of)
        units.append(
            SourceUnit(
                id=ids[order],
                kind=d.kind,
                modality="table" if d.kind == "table" else "text",
                text=text,
                raw=d.raw,
                section=tuple(d.section),
                order=order,
                word_start=start,
                word_end=start + n_words,
                n_tokens=n_tok,
                position=position,
                position_bucket=bucket_of(position),
                provenance=tuple(d.provenance),
                table=d.table,
                annotations=tuple(d.annotations),
                related=related,
            )
        )
        start += n_words

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
