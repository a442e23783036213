"""align.locate on real documents: a tex twin parse, a PDF parse, and tables from FinQA."""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from align.evidence import evidence_report, find_document
from align.locate import Locator, Match, locate, locator_for
from align.normalize import normalize_text
from align.readers import read_pdfqa, read_qasper
from docparse.builder import UnitDraft, build_document
from docparse.model import Document, Table

TEX = "research/arxiv-2510.22211v1/2510.22211v1.tex"
PDFQA = "qa/pdfqa/2510.22211v1_cfQA_gpt-4o-mini-2024-07-18_excerpt.json"
FOREIGN = (
    "Net cash provided by operating activities was 6,439 million dollars, driven by "
    "lower pension contributions and the timing of tax payments in the quarter."
)


@pytest.fixture(scope="module")
def tex_doc(fixtures_dir: Path) -> Document:
    from docparse.api import parse

    return parse(fixtures_dir / TEX, format="tex")


def _paragraphs(doc: Document, n: int = 2) -> list[int]:
    """Indices of consecutive long paragraph units (real text to cut evidence from)."""
    units = doc.units
    return [
        i
        for i in range(len(units) - 1)
        if units[i].kind == "paragraph"
        and units[i + 1].kind == "paragraph"
        and len(units[i].text) > 300
        and len(units[i + 1].text) > 300
    ][:n]


def test_exact_sentence_maps_to_its_span(tex_doc: Document) -> None:
    for i in _paragraphs(tex_doc, 5):
        unit = tex_doc.units[i]
        sentence = unit.text[100:260]
        m = locate(sentence, tex_doc)
        assert m.status == "exact"
        assert m.unit_ids == (unit.id,)
        assert m.coverage == 1.0 and m.score == 1.0
        s, e = m.spans[0]
        assert normalize_text(unit.text[s:e], fold_case=True, fold_punct=True) == normalize_text(
            sentence, fold_case=True, fold_punct=True
        )


def test_evidence_over_two_units_is_split(tex_doc: Document) -> None:
    i = _paragraphs(tex_doc)[0]
    a, b = tex_doc.units[i], tex_doc.units[i + 1]
    evidence = a.text[-120:] + "\n" + b.text[:120]
    m = locate(evidence, tex_doc)
    assert m.status == "split"
    assert m.unit_ids == (a.id, b.id)
    assert m.coverage > 0.95
    # Spans end at the last matched letter (folded punctuation such as a final "." or an
    # unresolved citation's "(?)" is not part).
    assert not re.search(r"\w", a.text[m.spans[0][1] :]) and m.spans[1][0] == 0


def test_perturbed_evidence_is_fuzzy(tex_doc: Document) -> None:
    rng = random.Random(3)
    for i in _paragraphs(tex_doc, 4):
        unit = tex_doc.units[i]
        chars = list(unit.text[:300])
        for _ in range(6):
            # Characters the document does not have (deleting would not lower coverage:
            # every remaining evidence character is still found).
            chars[rng.randrange(len(chars))] = "q"
        m = locate("".join(chars), tex_doc)
        assert m.status == "fuzzy", m
        assert m.unit_ids == (unit.id,)
        assert 0.9 <= m.coverage < 1.0


def test_half_found_is_partial_and_foreign_is_not_found(tex_doc: Document) -> None:
    unit = tex_doc.units[_paragraphs(tex_doc)[0]]
    half = unit.text[:150] + " " + FOREIGN
    m = locate(half, tex_doc)
    assert m.status == "partial"
    assert unit.id in m.unit_ids
    assert 0.3 < m.coverage < 0.9
    miss = locate(FOREIGN, tex_doc)
    assert not miss.found
    assert miss.coverage < 0.3
    assert locate("", tex_doc).status == "missing"


def test_min_coverage_decides_fuzzy_or_partial(tex_doc: Document) -> None:
    unit = tex_doc.units[_paragraphs(tex_doc)[0]]
    text = unit.text[:200] + " " + FOREIGN[:40]
    loose = locate(text, tex_doc, min_coverage=0.5)
    strict = locate(text, tex_doc, min_coverage=0.95)
    # Below the threshold more passes run, so coverage can only grow with it.
    assert 0.75 < loose.coverage <= strict.coverage < 0.9
    assert loose.status == "fuzzy" and strict.status == "partial"


def test_pdfqa_latex_evidence_in_tex_twin(tex_doc: Document, fixtures_dir: Path) -> None:
    records = read_pdfqa(fixtures_dir / PDFQA)
    items = [e for r in records for e in r.evidence]
    assert items and all(e.markup == "latex" for e in items)
    loc = Locator(tex_doc)
    matches = [loc.locate(e.text, markup=e.markup) for e in items]
    assert all(m.found for m in matches), [m for m in matches if not m.found]
    # Most paragraphs are verbatim units of the twin.
    assert sum(m.status == "exact" for m in matches) >= len(matches) // 2


@dataclass(frozen=True)
class _Chunk:
    id: str
    text: str
    pages: tuple[int, ...] = ()


def _chunks(doc: Document, size: int = 80, overlap: int = 20) -> list[_Chunk]:
    words = " ".join(u.text for u in doc.content_units()).split()
    out = []
    for n, start in enumerate(range(0, len(words), size - overlap)):
        out.append(_Chunk(f"c{n}", " ".join(words[start : start + size]), (n // 5 + 1,)))
    return out


def test_chunks_as_target(tex_doc: Document) -> None:
    chunks = _chunks(tex_doc)
    inside = chunks[4].text[30:200]
    m = locate(inside, chunks)
    assert m.found and "c4" in m.unit_ids
    assert m.pages and set(m.pages) <= {p for c in chunks for p in c.pages}
    # Text running past the end of one chunk into the next (beyond the overlap).
    words = chunks[6].text.split()
    across = " ".join(words[-10:]) + " " + " ".join(chunks[7].text.split()[20:40])
    m2 = locate(across, chunks)
    assert m2.found


def test_locator_is_cached_per_target(tex_doc: Document) -> None:
    assert locator_for(tex_doc) is locator_for(tex_doc)
    other = _chunks(tex_doc)
    assert locator_for(other) is not locator_for(tex_doc)


def test_match_to_dict_round_numbers(tex_doc: Document) -> None:
    unit = tex_doc.units[_paragraphs(tex_doc)[0]]
    d = locate(unit.text[:100], tex_doc).to_dict()
    assert d["status"] == "exact" and d["unit_ids"] == [unit.id]
    assert json.loads(json.dumps(d)) == d


# -- tables --------------------------------------------------------------------


@pytest.fixture(scope="module")
def finqa_doc(fixtures_dir: Path) -> tuple[Document, list[dict[str, object]]]:
    """A page of the GS 2016 report as FinQA gives it: text before, the table, text after."""
    data = json.loads(
        (fixtures_dir / "qa/uda/bench_fin_qa_excerpt.json").read_text(encoding="utf-8")
    )
    rec = data["GS_2016"][0]
    ctx = rec["context"]
    drafts = [UnitDraft("paragraph", t) for t in ctx["pre_text"] if t.strip()]
    drafts.append(UnitDraft("caption", "Table 2: Assets under supervision by asset class."))
    drafts.append(
        UnitDraft(
            "table",
            "",
            table=Table(rows=tuple(tuple(r) for r in ctx["table"]), n_header_rows=1),
            related=[len(drafts) - 1],
        )
    )
    drafts[-2].related.append(len(drafts) - 1)
    drafts += [UnitDraft("paragraph", t) for t in ctx["post_text"] if t.strip()]
    doc = build_document(
        path="GS_2016-p79", format="txt", backend="txt", drafts=drafts, doc_id="gs"
    )
    return doc, data["GS_2016"]


def test_finqa_rows_land_on_the_table(finqa_doc: tuple[Document, list[dict[str, object]]]) -> None:
    doc, records = finqa_doc
    table = next(u for u in doc.units if u.kind == "table")
    rec = records[0]
    evidence = rec["evidence"]
    assert isinstance(evidence, dict)
    rows = [v for k, v in evidence.items() if k.startswith("table")]
    assert rows
    for row in rows:
        m = locate(row, doc)
        assert m.found, (row, m)
        assert table.id in m.unit_ids


def test_finqa_text_facts_land_on_text(finqa_doc: tuple[Document, list[dict[str, object]]]) -> None:
    doc, records = finqa_doc
    texts = [
        v
        for rec in records[:1]
        for k, v in rec["evidence"].items()  # type: ignore[attr-defined]
        if k.startswith("text")
    ]
    for text in texts:
        m = locate(text, doc)
        assert m.found
        assert all(doc.unit(u).kind == "paragraph" for u in m.unit_ids)


def test_cell_value_with_kind_table(finqa_doc: tuple[Document, list[dict[str, object]]]) -> None:
    doc, _ = finqa_doc
    table = next(u for u in doc.units if u.kind == "table")
    assert table.table is not None
    label, value = table.table.rows[2][0], table.table.rows[2][1]
    m = locate(f"{label} {value}", doc, kind="table")
    assert m.found and table.id in m.unit_ids


def test_float_selected_caption(finqa_doc: tuple[Document, list[dict[str, object]]]) -> None:
    doc, _ = finqa_doc
    caption = next(u for u in doc.units if u.kind == "caption")
    table = next(u for u in doc.units if u.kind == "table")
    m = locate("FLOAT SELECTED: Table 2: Assets under supervision by asset class.", doc)
    assert m.found
    assert m.unit_ids[0] == caption.id and table.id in m.unit_ids
    # Only the label survives in the caption unit: the label decides.
    m2 = locate("FLOAT SELECTED: Table 2: Something the parser dropped entirely.", doc)
    assert caption.id in m2.unit_ids
    assert not m2.found


# -- a real PDF parse ------------------------------------------------------------


@pytest.fixture(scope="module")
def pdf_doc(fixtures_dir: Path) -> Document:
    pytest.importorskip("docparse.backends.pymupdf")
    from docparse.api import parse

    return parse(fixtures_dir / "qa/uda/1809.01202.pdf", backend="pymupdf")


def test_qasper_evidence_in_pdf_parse(pdf_doc: Document, fixtures_dir: Path) -> None:
    records = read_qasper(
        fixtures_dir / "qa/uda/bench_paper_tab_qa_excerpt.json", docs=["1809.01202"]
    )
    assert records
    loc = Locator(pdf_doc)
    for ev in (e for r in records for e in r.evidence):
        m: Match = loc.locate(ev.text, kind="table" if ev.kind == "table" else None)
        assert m.found, (ev.text[:60], m)
        assert m.pages
        if ev.text.startswith("FLOAT SELECTED"):
            kinds = {pdf_doc.unit(u).kind for u in m.unit_ids}
            assert kinds & {"table", "caption"}


def test_evidence_report_on_fixtures(fixtures_dir: Path) -> None:
    records = read_pdfqa(fixtures_dir / PDFQA)
    assert find_document(fixtures_dir, "2510.22211v1", "tex") is not None
    reports = evidence_report(records, fixtures_dir / "research", "tex")
    assert len(reports) == len(records)
    assert all(rep.status in ("found", "split") for rep in reports)
    missing = evidence_report(records[:1], fixtures_dir / "qa/climretrieve", "tex")
    assert missing[0].status == "no-document" and missing[0].error


def test_docparse_chunks_as_target(tex_doc: Document) -> None:
    chunking = pytest.importorskip("docparse.chunking")
    chunks = chunking.chunk_sentences(tex_doc, chunk_size=128, chunk_overlap=0)
    assert len(chunks) > 10
    c = chunks[5]
    m = locate(c.text[20:180], chunks)
    assert m.status == "exact" and m.unit_ids == (c.id,)
    nxt = chunks[6]
    across = c.text[-100:] + " " + nxt.text[:100]
    m2 = locate(across, chunks)
    assert m2.status == "split" and m2.unit_ids == (c.id, nxt.id)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_any_piece_of_a_unit_is_found_exactly(tex_doc: Document, data: st.DataObject) -> None:
    # Pieces cut at spaces, in units without math: a cut inside $...$ changes how
    # the rest renders, and math maps back to its source only as a whole.
    units = [
        u
        for u in tex_doc.content_units()
        if len(u.text) >= 200 and "$" not in u.text and "\\" not in u.text
    ]
    unit = data.draw(st.sampled_from(units))
    cuts = [0, *(i + 1 for i, ch in enumerate(unit.text) if ch == " "), len(unit.text) + 1]
    a = data.draw(st.integers(0, len(cuts) - 2))
    b = data.draw(st.integers(a + 1, len(cuts) - 1))
    piece = unit.text[cuts[a] : cuts[b] - 1]
    assume(len(piece) >= 40)
    m = locate(piece, tex_doc)
    if m.status == "ambiguous":
        # the piece occurs word for word in another unit too (two sentences ending in the
        # same unresolved citation, "(CIGALE; ?)"): then no unit may be preferred
        assert unit.id in m.unit_ids and len(m.unit_ids) > 1 and m.coverage == 1.0
        return
    assert m.found and m.coverage == 1.0
    assert m.status in ("exact", "split")  # split: the piece also closes/opens a neighbour
    if m.status == "exact" and m.unit_ids == (unit.id,):
        s, e = m.spans[0]
        folded = normalize_text(unit.text[s:e], fold_case=True, fold_punct=True, math=True)
        assert folded == normalize_text(piece, fold_case=True, fold_punct=True, math=True)


def test_find_document_name_forms(tmp_path: Path) -> None:
    # Names as the datasets write them: a stem, a file name, odd spacing before ".pdf".
    (tmp_path / "3M_2018_10K").mkdir()
    (tmp_path / "3M_2018_10K" / "3M_2018_10K.pdf").write_bytes(b"%PDF-1.4\n")
    (tmp_path / "reports").mkdir()
    (tmp_path / "reports" / "New Look sustainability report .pdf").write_bytes(b"%PDF-1.4\n")
    (tmp_path / "reports" / "2510.22211v1.tex").write_text("\\section{x}")
    assert find_document(tmp_path, "3M_2018_10K") == tmp_path / "3M_2018_10K" / "3M_2018_10K.pdf"
    found = find_document(tmp_path, "New Look sustainability report .pdf")
    assert found is not None and found.name == "New Look sustainability report .pdf"
    assert (
        find_document(tmp_path, "2510.22211v1", "tex") == tmp_path / "reports" / "2510.22211v1.tex"
    )
    assert find_document(tmp_path, "2510.22211v1") is None
