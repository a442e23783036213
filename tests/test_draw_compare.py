"""``docparse draw`` overlays and ``docparse compare`` rows."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pymupdf
import pytest
from click.testing import CliRunner

from docparse import registry
from docparse.builder import UnitDraft, build_document
from docparse.cli import main
from docparse.compare import compare_backends, render_table
from docparse.config import ParserConfig
from docparse.draw import KIND_COLOURS, draw_document, draw_pdf, parse_page_range
from docparse.errors import ConfigError, ParseError
from docparse.model import BBox, Provenance


@pytest.fixture(scope="module")
def quantum_pdf(fixtures_dir: Path) -> Path:
    return fixtures_dir / "pdf" / "quantum-template" / "quantum-template.pdf"


ZOOM = 1.5


def _pixel(pix: Any, x: float, y: float) -> tuple[int, int, int]:
    """RGB of the pixel under PDF point (x, y) at ZOOM."""
    return tuple(pix.pixel(int(x * ZOOM), int(y * ZOOM))[:3])  # type: ignore[return-value]


def _near(a: tuple[int, int, int], b: tuple[int, int, int], tol: int = 40) -> bool:
    return all(abs(p - q) <= tol for p, q in zip(a, b, strict=True))


def _count_colour(pix: Any, colour: tuple[int, int, int], max_y: float) -> int:
    """Pixels of exactly ``colour`` above ``max_y`` points (the page, not the legend)."""
    n = pix.n
    data = pix.samples
    limit = int(max_y * ZOOM) * pix.stride
    target = bytes(colour)
    return sum(1 for i in range(0, min(limit, len(data)), n) if data[i : i + 3] == target)


def test_parse_page_range() -> None:
    assert parse_page_range("3") == (3, 3)
    assert parse_page_range(" 1-4 ") == (1, 4)
    for bad in ("x", "0-2", "4-2", "1-"):
        with pytest.raises(ConfigError):
            parse_page_range(bad)


def test_draw_document_outlines_each_unit_in_its_kind_colour(
    quantum_pdf: Path, tmp_path: Path
) -> None:
    boxes = {
        "paragraph": BBox(100, 300, 400, 420),
        "heading": BBox(100, 200, 400, 230),
        "table": BBox(100, 480, 500, 650),
    }
    drafts = [
        UnitDraft(kind="heading", text="1 Intro", provenance=(Provenance(1, boxes["heading"]),)),
        UnitDraft(
            kind="paragraph", text="Some words.", provenance=(Provenance(1, boxes["paragraph"]),)
        ),
        UnitDraft(
            kind="paragraph", text="Cells here.", provenance=(Provenance(1, boxes["table"]),)
        ),
    ]
    drafts[2].kind = "table"
    doc = build_document(path=quantum_pdf, format="pdf", backend="test", drafts=drafts, n_pages=5)
    written = draw_document(doc, quantum_pdf, tmp_path, pages=(1, 2), zoom=ZOOM)
    assert [p.name for p in written] == [
        "quantum-template-p001-test.png",
        "quantum-template-p002-test.png",
    ]
    pix = pymupdf.Pixmap(str(written[0]))
    page_w, page_h = 595.276, 841.89
    assert abs(pix.width - page_w * ZOOM) <= 1
    assert pix.height > page_h * ZOOM  # the legend strip below the page
    for kind, box in boxes.items():
        # middle of the left edge and of the bottom edge of the outline
        mid_y = (box.y0 + box.y1) / 2
        mid_x = (box.x0 + box.x1) / 2
        assert _near(_pixel(pix, box.x0, mid_y), KIND_COLOURS[kind]), kind
        assert _near(_pixel(pix, mid_x, box.y1), KIND_COLOURS[kind]), kind
    # page 2 has no units: rendered all the same, with nothing in the heading colour
    pix2 = pymupdf.Pixmap(str(written[1]))
    assert _count_colour(pix2, KIND_COLOURS["heading"], page_h) == 0


def test_draw_pdf_real_backend_one_png_per_page(quantum_pdf: Path, tmp_path: Path) -> None:
    written = draw_pdf(quantum_pdf, tmp_path, backend="pymupdf", pages=(1, 2), zoom=ZOOM)
    assert len(written) == 2 and all(p.is_file() for p in written)
    for png in written:
        pix = pymupdf.Pixmap(str(png))
        # many pixels of paragraph outlines on the page area
        assert _count_colour(pix, KIND_COLOURS["paragraph"], 841.0) > 500
    first = pymupdf.Pixmap(str(written[0]))
    assert _count_colour(first, KIND_COLOURS["furniture"], 841.0) > 50  # footer and page number


def test_draw_cli(quantum_pdf: Path, tmp_path: Path) -> None:
    out = tmp_path / "png"
    result = CliRunner().invoke(
        main, ["draw", str(quantum_pdf), "--pages", "2-3", "-o", str(out), "--backend", "pymupdf"]
    )
    assert result.exit_code == 0, result.output
    lines = result.output.split()
    assert len(lines) == 2 and all(Path(x).is_file() for x in lines)
    assert sorted(p.name for p in out.iterdir()) == [Path(x).name for x in lines]
    bad = CliRunner().invoke(main, ["draw", str(quantum_pdf), "--pages", "9-2", "-o", str(out)])
    assert bad.exit_code != 0 and "ConfigError" in bad.output


class _Broken:
    name = "pdfplumber"
    format = "pdf"
    config_class = ParserConfig

    def parse(self, path: Path, config: Any) -> Any:
        raise ParseError(path, "this backend always fails")


def test_compare_rows_and_error_row(quantum_pdf: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry._plugins, "pdfplumber", _Broken)
    # a private cache for this test, so the broken parser is not left behind for others
    monkeypatch.setattr(registry, "_cache", {})
    rows = compare_backends(quantum_pdf, ["pymupdf", "pdfplumber", "nonesuch"])
    assert [r["backend"] for r in rows] == ["pymupdf", "pdfplumber", "nonesuch"]
    good, broken, unknown = rows
    assert good["error"] is None
    assert good["pages"] == 5
    assert good["units"] == sum(good["kinds"].values())
    assert good["kinds"]["paragraph"] > 10
    assert good["furniture"] == good["kinds"].get("furniture", 0) > 0
    assert good["words"] > 1500
    assert good["seconds_per_page"] == pytest.approx(good["seconds"] / 5, rel=0.01, abs=1e-3)
    assert broken["error"] == "ParseError: this backend always fails"
    assert unknown["error"].startswith("UnknownParserError")
    table = render_table(rows)
    assert [c.header for c in table.columns] == ["", "pymupdf", "pdfplumber", "nonesuch"]


def test_compare_defaults_to_installed_backends(
    quantum_pdf: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(registry, "installed_pdf_backends", lambda: ("pymupdf",))
    rows = compare_backends(quantum_pdf, config={"pymupdf": {"pages": [1, 2]}})
    assert [r["backend"] for r in rows] == ["pymupdf"]
    assert rows[0]["pages"] == 2


def test_compare_cli_json(quantum_pdf: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    result = CliRunner().invoke(
        main, ["compare", str(quantum_pdf), "--json", "-b", "pymupdf", "-b", "pdfplumber"]
    )
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)
    assert [r["backend"] for r in rows] == ["pymupdf", "pdfplumber"]
    assert all(r["error"] is None and r["words"] > 1000 for r in rows), rows
    text = CliRunner().invoke(main, ["compare", str(quantum_pdf), "-b", "pymupdf"])
    assert text.exit_code == 0 and "furniture removed" in text.output
