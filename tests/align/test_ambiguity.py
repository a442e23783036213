"""Ambiguity is a status: a string found word for word in several units is not 'found'."""

from __future__ import annotations

from pathlib import Path

from align.evidence import evidence_report, evidence_summary
from align.locate import Locator, settle
from align.readers import Evidence, QARecord
from docparse.builder import UnitDraft, build_document
from docparse.model import Document, Provenance


def _doc() -> Document:
    texts = [
        (1, "Revenue grew to 242 million in 2019, up from 198 million."),
        (2, "Operating expenses were 1,242 million and 2.42 per share."),
        (3, "The board approved 242 new positions for the retail segment."),
        (4, "Total compensation paid to directors was 338,317 in fiscal 2019."),
        (4, "Mr. Smith received 242 restricted stock units in that year."),
    ]
    drafts = [UnitDraft("paragraph", t, provenance=(Provenance(p),)) for p, t in texts]
    return build_document(path="x.pdf", format="pdf", backend="test", doc_id="d", drafts=drafts)


def test_short_number_occurring_several_times_is_ambiguous() -> None:
    doc = _doc()
    m = Locator(doc).locate("242", kind="table")
    assert m.status == "ambiguous" and not m.found
    # Every candidate unit and page; 1,242 and 2.42 are other numbers.
    assert m.pages == (1, 3, 4)
    assert [c[0] for c in m.candidates] == [doc.units[i].id for i in (0, 2, 4)]
    assert "candidates" in m.to_dict()


def test_page_hint_context_and_neighbours_settle_it() -> None:
    doc = _doc()
    loc = Locator(doc)
    on_page = loc.locate("242", page=3)
    assert on_page.status == "exact" and on_page.unit_ids == (doc.units[2].id,)
    ctx = loc.locate("242", context="The board approved 242 new positions for the retail")
    assert ctx.status == "exact" and ctx.page == 3
    # A neighbour found on page 4 settles it there.
    assert settle(loc.locate("242"), pages=(4,)).unit_ids == (doc.units[4].id,)
    unique = loc.locate("338,317")
    assert unique.status == "exact" and unique.page == 4


def test_evidence_report_counts_ambiguous_apart(tmp_path: Path) -> None:
    doc = _doc()
    (tmp_path / "x.pdf").write_bytes(b"%PDF-1.4")
    records = [
        QARecord("x", "q1", evidence=(Evidence("242", kind="table"),)),
        QARecord("x", "q2", evidence=(Evidence("242", kind="table"), Evidence("338,317"))),
    ]
    reports = evidence_report(records, tmp_path, parser=lambda p: doc, backend=None)
    assert [r.status for r in reports] == ["ambiguous", "found"]
    # q2: the neighbour 338,317 (page 4) settles 242 on page 4.
    assert reports[1].results[0].match.page == 4
    total = evidence_summary(reports)["total"]
    assert total["ambiguous"] == 1 and total["exact"] == 2
