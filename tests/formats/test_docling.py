"""docling JSON (DoclingDocument ``export_to_dict``) read without docling."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from doc_invariants import check_invariants

import docparse
from docparse.detect import detect_format
from docparse.errors import ParseError


@pytest.fixture(scope="module")
def sample(fixtures_dir: Path) -> Path:
    return fixtures_dir / "docling/sample.docling.json"


def test_units_pages_and_boxes(sample: Path) -> None:
    doc = docparse.parse(sample)
    check_invariants(doc)
    assert doc.format == "docling" and doc.n_pages == 2
    assert doc.title == "Scoring Parsers Against Perfect Parses"
    assert all(u.page in (1, 2) and u.bbox is not None for u in doc.units)
    # Boxes come bottom-left in the JSON and top-left in the model.
    title = doc.units[0]
    assert title.kind == "title" and title.bbox is not None
    assert title.bbox.origin == "top-left" and title.bbox.y0 == pytest.approx(72.0)
    kinds = [u.kind for u in doc.units]
    assert kinds.count("list_item") == 2 and "equation" in kinds
    setup = next(u for u in doc.units if u.text == "1.1 Setup")
    assert setup.kind == "heading" and setup.section == ("1 Introduction", "1.1 Setup")
    furniture = [u.text for u in doc.units if u.kind == "furniture"]
    assert furniture == ["Workshop on Parsing 2026", "2"]


def test_table_cells_spans_and_caption(sample: Path) -> None:
    doc = docparse.parse(sample)
    (table,) = [u for u in doc.units if u.kind == "table"]
    assert table.page == 2 and table.table is not None
    assert table.table.rows[0] == ("System", "F1", "")
    assert table.table.rows[3] == ("docling", "0.93", "0.85")
    assert table.table.n_header_rows == 2
    assert {(s.row, s.col, s.row_span, s.col_span) for s in table.table.spans} == {
        (0, 0, 2, 1),
        (0, 1, 1, 2),
    }
    assert table.table.caption == "Table 1: Scores by system."
    (caption,) = [doc.unit(r) for r in table.related]
    assert caption.kind == "caption" and table.id in caption.related


def test_furniture_off(sample: Path) -> None:
    doc = docparse.parse(sample, config={"furniture": False})
    assert not [u for u in doc.units if u.kind == "furniture"]


def test_detected_by_content_and_not_docling(sample: Path, tmp_path: Path) -> None:
    assert detect_format(sample) == "docling"
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"schema_name": "Something"}), encoding="utf-8")
    with pytest.raises(ParseError, match="not a DoclingDocument"):
        docparse.parse(other, format="docling")
