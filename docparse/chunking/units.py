"""Chunks of a :class:`~docparse.model.Document`, each traced back to its units.

Three strategies, all through :func:`chunk`:

``sentence``
    The document text (content units joined with ``"\\n\\n"``) cut by
    :class:`~docparse.chunking.sentence.SentenceSplitter` (pdfQA's setting by
    default: 400 tokens, no overlap); each chunk is mapped back to the units
    and character spans it covers.
``unit``
    One chunk per unit. A table is kept whole together with its linked
    caption unit(s) (``SourceUnit.related``), which then get no chunk of their
    own; any other unit longer than ``max_tokens`` is split at sentences.
``section``
    Consecutive units of the same section merged while their token counts sum
    to at most ``max_tokens``; a unit alone above the budget is split (tables
    stay whole).

Every :class:`Chunk` carries the ids of the units it covers, a character span
per unit (offsets into ``SourceUnit.text``), the pages of those units, its
cl100k token count and its order.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from docparse.chunking.sentence import SentenceSplitter
from docparse.errors import ConfigError
from docparse.model import Document, SourceUnit, content_hash
from docparse.text import count_tokens_batch

__all__ = [
    "STRATEGIES",
    "Chunk",
    "Strategy",
    "chunk",
    "chunk_sections",
    "chunk_sentences",
    "chunk_units",
]

Strategy = Literal["sentence", "unit", "section"]
STRATEGIES: tuple[str, ...] = ("sentence", "unit", "section")

#: Separator between units in the text the sentence strategy splits.
UNIT_JOINER = "\n\n"


@dataclass(frozen=True, slots=True)
class Chunk:
    """A piece of a document ready for retrieval or QA generation.

    ``spans`` holds one ``(unit_id, start, end)`` per covered unit: the
    character range of ``SourceUnit.text`` inside the chunk. ``pages`` are the
    1-based pages of the covered units (empty for twins without pages).

    Example record::

        {"id": "3f2a9c1d0e4b5a6f:sentence:00003:1c9e2b7a", "order": 3,
         "text": "QPEs are X-ray bursts ...", "n_tokens": 391,
         "unit_ids": ["3f2a...:00012:9be1c2d3", "3f2a...:00013:0a1b2c3d"],
         "spans": [["3f2a...:00012:9be1c2d3", 220, 611], ["3f2a...:00013:0a1b2c3d", 0, 904]],
         "pages": [2]}
    """

    id: str
    text: str
    unit_ids: tuple[str, ...]
    spans: tuple[tuple[str, int, int], ...]
    pages: tuple[int, ...]
    n_tokens: int
    order: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "order": self.order,
            "text": self.text,
            "n_tokens": self.n_tokens,
            "unit_ids": list(self.unit_ids),
            "spans": [list(s) for s in self.spans],
            "pages": list(self.pages),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Chunk:
        return cls(
            id=str(d["id"]),
            text=str(d["text"]),
            unit_ids=tuple(d["unit_ids"]),
            spans=tuple((str(u), int(s), int(e)) for u, s, e in d["spans"]),
            pages=tuple(int(p) for p in d["pages"]),
            n_tokens=int(d["n_tokens"]),
            order=int(d["order"]),
        )


def _units(doc: Document, include_furniture: bool) -> tuple[SourceUnit, ...]:
    return doc.units if include_furniture else doc.content_units()


def _pages(units: Iterable[SourceUnit]) -> tuple[int, ...]:
    return tuple(sorted({p for u in units for p in u.pages}))


def _finish(
    doc: Document,
    strategy: str,
    parts: Sequence[tuple[str, list[tuple[SourceUnit, int, int]]]],
) -> list[Chunk]:
    """Chunks from (text, [(unit, start, end)]) parts, with ids and token counts."""
    counts = count_tokens_batch([text for text, _ in parts])
    out = []
    for order, ((text, covered), n) in enumerate(zip(parts, counts, strict=True)):
        out.append(
            Chunk(
                id=f"{doc.doc_id}:{strategy}:{order:05d}:{content_hash(text, 8)}",
                text=text,
                unit_ids=tuple(u.id for u, _, _ in covered),
                spans=tuple((u.id, s, e) for u, s, e in covered),
                pages=_pages(u for u, _, _ in covered),
                n_tokens=n,
                order=order,
            )
        )
    return out


def chunk_sentences(
    doc: Document,
    *,
    chunk_size: int = 400,
    chunk_overlap: int = 0,
    include_furniture: bool = False,
    splitter: SentenceSplitter | None = None,
) -> list[Chunk]:
    """Sentence-splitter chunks of the whole document text, mapped back to units.

    The text is the units' clean text joined with ``"\\n\\n"`` (furniture left
    out unless ``include_furniture``). A chunk covers every unit its character
    range overlaps; the separators themselves belong to no unit.
    """
    splitter = splitter or SentenceSplitter(chunk_size=chunk_size, chunk_overlap=chunk_overlap)
    units = _units(doc, include_furniture)
    starts: list[int] = []
    pos = 0
    for u in units:
        starts.append(pos)
        pos += len(u.text) + len(UNIT_JOINER)
    text = UNIT_JOINER.join(u.text for u in units)
    parts: list[tuple[str, list[tuple[SourceUnit, int, int]]]] = []
    first = 0  # chunk starts never decrease, so the scan resumes here
    for a, b in splitter.split_spans(text):
        while first < len(units) and starts[first] + len(units[first].text) <= a:
            first += 1
        covered = []
        i = first
        while i < len(units) and starts[i] < b:
            u = units[i]
            s, e = max(a, starts[i]) - starts[i], min(b, starts[i] + len(u.text)) - starts[i]
            if e > s:
                covered.append((u, s, e))
            i += 1
        parts.append((text[a:b], covered))
    return _finish(doc, "sentence", parts)


def _split_unit(
    unit: SourceUnit, splitter: SentenceSplitter
) -> list[tuple[str, list[tuple[SourceUnit, int, int]]]]:
    return [(unit.text[s:e], [(unit, s, e)]) for s, e in splitter.split_spans(unit.text)]


def chunk_units(
    doc: Document,
    *,
    max_tokens: int = 400,
    include_furniture: bool = False,
) -> list[Chunk]:
    """One chunk per unit; tables whole with their captions; long units split at sentences.

    A table's chunk text is the table text followed (or preceded, in document
    order) by its linked caption units, joined with ``"\\n\\n"``. Caption
    units linked to a table are not chunked on their own. Non-table units
    above ``max_tokens`` are split with ``SentenceSplitter(max_tokens, 0)``.
    """
    units = _units(doc, include_furniture)
    by_id = {u.id: u for u in units}
    absorbed: set[str] = set()
    for u in units:
        if u.kind == "table":
            absorbed.update(r for r in u.related if r in by_id and by_id[r].kind == "caption")
    splitter = SentenceSplitter(chunk_size=max_tokens, chunk_overlap=0)
    parts: list[tuple[str, list[tuple[SourceUnit, int, int]]]] = []
    for u in units:
        if u.id in absorbed:
            continue
        if u.kind == "table":
            group = sorted(
                [u, *(by_id[r] for r in u.related if r in absorbed)], key=lambda x: x.order
            )
            parts.append(
                (UNIT_JOINER.join(g.text for g in group), [(g, 0, len(g.text)) for g in group])
            )
        elif u.n_tokens > max_tokens:
            parts.extend(_split_unit(u, splitter))
        else:
            parts.append((u.text, [(u, 0, len(u.text))]))
    return _finish(doc, "unit", parts)


def chunk_sections(
    doc: Document,
    *,
    max_tokens: int = 400,
    include_furniture: bool = False,
) -> list[Chunk]:
    """Consecutive units of one section merged up to ``max_tokens``.

    The budget is checked on the sum of the units' own token counts (the
    joined text's count, reported as ``n_tokens``, can differ by a few
    tokens). A unit alone above the budget becomes its own chunk(s): split at
    sentences, or whole if it is a table.
    """
    units = _units(doc, include_furniture)
    splitter = SentenceSplitter(chunk_size=max_tokens, chunk_overlap=0)
    parts: list[tuple[str, list[tuple[SourceUnit, int, int]]]] = []
    group: list[SourceUnit] = []
    total = 0

    def flush() -> None:
        nonlocal group, total
        if group:
            parts.append(
                (UNIT_JOINER.join(g.text for g in group), [(g, 0, len(g.text)) for g in group])
            )
        group, total = [], 0

    for u in units:
        if u.n_tokens > max_tokens:
            flush()
            if u.kind == "table":
                parts.append((u.text, [(u, 0, len(u.text))]))
            else:
                parts.extend(_split_unit(u, splitter))
            continue
        if group and (u.section != group[-1].section or total + u.n_tokens > max_tokens):
            flush()
        group.append(u)
        total += u.n_tokens
    flush()
    return _finish(doc, "section", parts)


def chunk(doc: Document, strategy: str = "sentence", **options: Any) -> list[Chunk]:
    """Chunk ``doc`` with ``strategy`` (``sentence``, ``unit`` or ``section``).

    Options go to :func:`chunk_sentences` (``chunk_size=400``,
    ``chunk_overlap=0``, ``include_furniture``), :func:`chunk_units` or
    :func:`chunk_sections` (``max_tokens=400``, ``include_furniture``).
    An unknown strategy or option raises :class:`~docparse.errors.ConfigError`.

    >>> from docparse.builder import UnitDraft, build_document
    >>> doc = build_document(path="x", format="txt", backend="txt", doc_id="d",
    ...     drafts=[UnitDraft("paragraph", "First. Second."), UnitDraft("paragraph", "Third.")])
    >>> [(c.text, c.spans) for c in chunk(doc, "sentence", chunk_size=400)]
    [('First. Second.\\n\\nThird.', (('d:00000:e0eca4a7', 0, 14), ('d:00001:a67d286c', 0, 6)))]
    """
    funcs: dict[str, Callable[..., list[Chunk]]] = {
        "sentence": chunk_sentences,
        "unit": chunk_units,
        "section": chunk_sections,
    }
    if strategy not in funcs:
        raise ConfigError(
            doc.source_path, f"unknown chunking strategy {strategy!r}; use one of {STRATEGIES}"
        )
    func = funcs[strategy]
    known = set(inspect.signature(func).parameters) - {"doc"}
    unknown = sorted(set(options) - known)
    if unknown:
        raise ConfigError(
            doc.source_path,
            f"unknown option(s) {unknown} for the {strategy!r} strategy; known: {sorted(known)}",
        )
    return func(doc, **options)
