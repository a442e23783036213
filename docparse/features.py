"""Complexity features of a set of source units (pdfQA's QA dimensions, computed correctly).

pdfQA (Appendix D, Table 3) describes every QA pair by the number of sources,
the source spread (words between the first and the last relevant source), the
source position (the quartile holding the majority of sources), the modality
(text, table, mixed), the file type and the file length. Its released code
measures the spread in the order the generator *listed* the sources (an
out-of-order list gives spread 1) and falls back to the first quartile when no
quartile holds a majority. :func:`source_set` computes the same dimensions
from document order, whatever order the ids come in.

Definitions (``columns="docparse"``)
------------------------------------
``num_sources``
    Number of distinct units.
``spread_words``
    Words strictly between the end of the first and the start of the last
    source in document order: ``last.word_start - first.word_end`` (sources
    in between count). 0 for one source and for adjacent units.
``spread_tokens``
    The same stretch in tokens: the sum of ``n_tokens`` of the non-furniture
    units that lie strictly between the first and the last source in document
    order (unit token counts are summed, the stretch is not re-tokenised).
``position_bucket``
    Each source's quartile is ``SourceUnit.position_bucket`` (the quartile of
    its first word in the document). The result is the quartile holding most
    sources; a tie goes to the tied quartile nearest the quartile of the
    median source (the lower median in document order), and if two tied
    quartiles are equally near, to the earlier one.
``modality``
    ``text`` if every source is text, ``table`` if every source is a table,
    else ``mixed``.
``file_length_words``, ``file_length_tokens``, ``file_type``
    ``Document.n_words``, ``Document.n_tokens`` and ``Document.format``.

pdfQA columns (``columns="pdfqa"``)
-----------------------------------
Column names and value conventions of pdfQA's tables (``syn-pdfQA``), so
results join with them: ``num_sources``; ``source_spread`` = words from the
*start* of the first to the *end* of the last source, both included (pdfQA's
convention: a single source's spread is its own length), in document order;
``sources_position`` = 25/50/75/100 for quartiles 1-4; ``modalities`` =
``text``/``table``/``multimodal``; ``modalities_used`` = each source's
modality in document order; ``file_length`` = document words; ``file_type`` =
pdfQA's type name where the format implies one (tex, jats, s2orc: research
articles; htm: financial reports; txt: books; csv: sustainability
disclosures), else the format.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any, Literal

from docparse.errors import DocparseError
from docparse.model import Document, SourceUnit

__all__ = [
    "PDFQA_FILE_TYPES",
    "PDFQA_POSITIONS",
    "UnknownUnitError",
    "majority_bucket",
    "resolve_units",
    "source_set",
]

Columns = Literal["docparse", "pdfqa"]

#: pdfQA's file type names by docparse format.
PDFQA_FILE_TYPES: dict[str, str] = {
    "tex": "research articles",
    "jats": "research articles",
    "s2orc": "research articles",
    "htm": "financial reports",
    "txt": "books",
    "csv": "sustainability disclosures",
}
#: pdfQA's ``sources_position`` value for quartiles 1-4.
PDFQA_POSITIONS: dict[int, int] = {1: 25, 2: 50, 3: 75, 4: 100}


class UnknownUnitError(DocparseError, KeyError):
    """Unit ids that are not in the document (a :class:`KeyError` too).

    ``missing`` holds the unknown ids in the order given.
    """

    def __init__(self, path: str | None, missing: Sequence[str]) -> None:
        self.missing = tuple(missing)
        shown = ", ".join(repr(m) for m in self.missing[:5])
        more = f" and {len(self.missing) - 5} more" if len(self.missing) > 5 else ""
        super().__init__(path, f"unknown unit id(s): {shown}{more}")

    def __str__(self) -> str:  # KeyError would repr() the message
        return DocparseError.__str__(self)


def resolve_units(doc: Document, unit_ids: Iterable[str]) -> list[SourceUnit]:
    """Distinct units of ``unit_ids`` in document order.

    Raises :class:`UnknownUnitError` for ids not in ``doc`` and
    :class:`ValueError` for an empty selection.
    """
    ids = list(dict.fromkeys(unit_ids))
    if not ids:
        raise ValueError("a source set needs at least one unit id")
    by_id = {u.id: u for u in doc.units}
    missing = [i for i in ids if i not in by_id]
    if missing:
        raise UnknownUnitError(doc.source_path, missing)
    return sorted((by_id[i] for i in ids), key=lambda u: u.order)


def majority_bucket(units: Sequence[SourceUnit]) -> int:
    """The quartile (1-4) holding most of ``units`` (in document order); see the module doc."""
    counts = Counter(u.position_bucket for u in units)
    top = max(counts.values())
    tied = sorted(b for b, n in counts.items() if n == top)
    if len(tied) == 1:
        return tied[0]
    median = units[(len(units) - 1) // 2].position_bucket
    return min(tied, key=lambda b: (abs(b - median), b))


def _modality(units: Sequence[SourceUnit]) -> str:
    kinds = {u.modality for u in units}
    if kinds == {"table"}:
        return "table"
    if kinds == {"text"}:
        return "text"
    return "mixed"


def source_set(
    doc: Document, unit_ids: Iterable[str], *, columns: Columns = "docparse"
) -> dict[str, Any]:
    """Complexity features of the units ``unit_ids`` of ``doc``.

    ``columns="docparse"`` gives ``num_sources``, ``spread_words``,
    ``spread_tokens``, ``position_bucket`` (1-4), ``modality``
    (``text``/``table``/``mixed``), ``file_length_words``,
    ``file_length_tokens`` and ``file_type``; ``columns="pdfqa"`` gives pdfQA's
    column names and conventions. See the module docstring for the exact
    definitions. Duplicate ids count once; the order of the ids does not
    matter. Unknown ids raise :class:`UnknownUnitError` (a ``DocparseError``
    and ``KeyError``).

    >>> from docparse.builder import UnitDraft, build_document
    >>> doc = build_document(path="x", format="txt", backend="txt", doc_id="d",
    ...     drafts=[UnitDraft("paragraph", "one two three"),
    ...             UnitDraft("paragraph", "four five"),
    ...             UnitDraft("paragraph", "six seven eight")])
    >>> ids = [u.id for u in doc.units]
    >>> f = source_set(doc, [ids[2], ids[0]])
    >>> f["num_sources"], f["spread_words"], f["position_bucket"], f["modality"]
    (2, 2, 1, 'text')
    >>> source_set(doc, [ids[2], ids[0]], columns="pdfqa")["source_spread"]
    8
    """
    if columns not in ("docparse", "pdfqa"):
        raise ValueError(f"columns must be 'docparse' or 'pdfqa', got {columns!r}")
    units = resolve_units(doc, unit_ids)
    first, last = units[0], units[-1]
    bucket = majority_bucket(units)
    modality = _modality(units)
    if columns == "pdfqa":
        return {
            "num_sources": len(units),
            "source_spread": max(0, last.word_end - first.word_start),
            "sources_position": PDFQA_POSITIONS[bucket],
            "modalities": "multimodal" if modality == "mixed" else modality,
            "modalities_used": [u.modality for u in units],
            "file_length": doc.n_words,
            "file_type": PDFQA_FILE_TYPES.get(doc.format, doc.format),
        }
    between = [u for u in doc.units if first.order < u.order < last.order]
    return {
        "num_sources": len(units),
        "spread_words": max(0, last.word_start - first.word_end),
        "spread_tokens": sum(u.n_tokens for u in between if u.kind != "furniture"),
        "position_bucket": bucket,
        "modality": modality,
        "file_length_words": doc.n_words,
        "file_length_tokens": doc.n_tokens,
        "file_type": doc.format,
    }
