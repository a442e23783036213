"""The unstructured PDF backend: offline use, element mapping, hi_res and dependency errors."""

from __future__ import annotations

import importlib.metadata
import importlib.util
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

import docparse
from docparse.backends import unstructured as ub
from docparse.errors import (
    ConfigError,
    CorruptDocumentError,
    MissingDependencyError,
    ModelUnavailableError,
)

HAVE_UNSTRUCTURED = importlib.util.find_spec("unstructured") is not None
needs_unstructured = pytest.mark.skipif(
    not HAVE_UNSTRUCTURED,
    reason="unstructured is not installed (pip install 'docparse[unstructured]')",
)


@pytest.fixture(scope="module")
def quantum_pdf(fixtures_dir: Path) -> Path:
    return fixtures_dir / "pdf" / "quantum-template" / "quantum-template.pdf"


@pytest.fixture(scope="module")
def quantum_doc(quantum_pdf: Path) -> docparse.Document:
    if not HAVE_UNSTRUCTURED:
        pytest.skip("unstructured is not installed")
    return docparse.parse(quantum_pdf, backend="unstructured")


# --------------------------------------------------------------------------- real PDF


@pytest.mark.unstructured
@needs_unstructured
def test_parses_real_pdf_into_units_with_pages_and_boxes(quantum_doc: docparse.Document) -> None:
    doc = quantum_doc
    assert doc.backend == "unstructured"
    assert doc.n_pages == 5
    kinds = {u.kind for u in doc.units}
    assert {"paragraph", "heading", "furniture"} <= kinds
    assert doc.n_words > 1500
    pages = {p.page for u in doc.units for p in u.provenance}
    assert pages == {1, 2, 3, 4, 5}
    for u in doc.units:
        for prov in u.provenance:
            assert prov.bbox is not None
            assert prov.bbox.origin == "top-left"
            assert 0 <= prov.bbox.x0 <= prov.bbox.x1 <= 595.3
            assert 0 <= prov.bbox.y0 <= prov.bbox.y1 <= 841.9


@pytest.mark.unstructured
@needs_unstructured
def test_running_footer_is_furniture_not_text(quantum_doc: docparse.Document) -> None:
    footer = "Accepted in Quantum 2017-05-09"
    furniture = [u for u in quantum_doc.units if u.kind == "furniture"]
    assert sum(footer in u.text for u in furniture) == 5
    assert not any(footer in u.text for u in quantum_doc.units if u.kind != "furniture")
    # the footers sit at the bottom of their pages
    for u in furniture:
        if footer in u.text:
            bbox = u.provenance[0].bbox
            assert bbox is not None and bbox.y0 > 0.85 * 841.89


@pytest.mark.unstructured
@needs_unstructured
def test_line_end_hyphens_are_rejoined(quantum_doc: docparse.Document) -> None:
    # "not yet ac-" / "cepted in Quantum" on page 1 of the PDF.
    text = " ".join(u.text for u in quantum_doc.units)
    assert "not yet accepted in Quantum" in text
    assert "ac- cepted" not in text


@pytest.mark.unstructured
@needs_unstructured
def test_page_windows_give_the_same_units(
    quantum_pdf: Path, quantum_doc: docparse.Document
) -> None:
    windowed = docparse.parse(quantum_pdf, backend="unstructured", config={"pages_per_call": 2})
    assert [(u.kind, u.text) for u in windowed.units] == [
        (u.kind, u.text) for u in quantum_doc.units
    ]
    assert [u.provenance for u in windowed.units] == [u.provenance for u in quantum_doc.units]


@pytest.mark.unstructured
@needs_unstructured
def test_page_range_reads_only_those_pages(quantum_pdf: Path) -> None:
    doc = docparse.parse(quantum_pdf, backend="unstructured", config={"pages": [2, 3]})
    pages = {p.page for u in doc.units for p in u.provenance}
    assert pages == {2, 3}
    assert doc.n_pages == 5


@pytest.mark.unstructured
@needs_unstructured
def test_rotated_page_boxes_are_in_the_displayed_page(tmp_path: Path) -> None:
    import pymupdf

    pdf = pymupdf.open()
    page = pdf.new_page(width=400, height=600)
    page.insert_text((50, 100), "Text near the top of the unrotated page.", fontsize=11)
    page.set_rotation(90)  # displayed 600 wide, 400 high; that line is now at the right
    path = tmp_path / "rotated.pdf"
    pdf.save(path)
    doc = docparse.parse(path, backend="unstructured")
    boxes = [p.bbox for u in doc.units for p in u.provenance if p.bbox is not None]
    assert boxes
    for b in boxes:
        assert 0 <= b.x0 <= b.x1 <= 600 and 0 <= b.y0 <= b.y1 <= 400
        assert b.x0 > 450  # the right-hand side of the displayed page


@pytest.mark.unstructured
@needs_unstructured
def test_no_network_in_a_fresh_process(quantum_pdf: Path, tmp_path: Path) -> None:
    """Import and parse with name lookups and connections refused (and recorded), and without
    DO_NOT_TRACK set by the caller:
    the backend must set it itself and never reach unstructured's spaCy download."""
    pdf = str(quantum_pdf)
    script = textwrap.dedent(
        f"""
        import json, socket
        attempts = []
        def refuse(*a, **k):
            attempts.append(repr(a)[:200])
            raise OSError("network disabled in this test")
        class Refused(socket.socket):
            connect = connect_ex = sendto = refuse
        socket.socket = Refused
        socket.getaddrinfo = socket.create_connection = refuse
        import docparse
        doc = docparse.parse({pdf!r}, backend="unstructured", config={{"pages": [1, 1]}})
        print(json.dumps({{"attempts": attempts, "units": len(doc.units), "words": doc.n_words}}))
        """
    )
    env = {k: v for k, v in os.environ.items() if k not in ("DO_NOT_TRACK", "SCARF_NO_ANALYTICS")}
    proc = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    assert result["attempts"] == []
    assert result["units"] > 5 and result["words"] > 300


@pytest.mark.unstructured
@needs_unstructured
def test_spacy_model_is_loaded_by_path_from_the_pypi_package() -> None:
    path = ub.spacy_model_path()
    assert (path / "config.cfg").is_file()
    dist = importlib.metadata.distribution(ub.SPACY_MODEL_DIST)
    assert str(path).startswith(str(dist.locate_file("")))
    nlp = ub.load_spacy_model()
    assert "parser" in nlp.pipe_names and "ner" not in nlp.pipe_names
    ub._unstructured()
    from unstructured.nlp import tokenize

    assert tokenize._get_nlp() is nlp
    assert tokenize.sent_tokenize("One sentence here. And another one.") == [
        "One sentence here.",
        "And another one.",
    ]


@pytest.mark.unstructured
@needs_unstructured
def test_text_extraction_failure_is_an_error_not_an_empty_document(
    quantum_pdf: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pdf_module = ub._unstructured()

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise ValueError("pdfminer exploded")

    monkeypatch.setattr(pdf_module, "_partition_pdf_with_pdfminer", broken)
    with pytest.raises(CorruptDocumentError, match="pdfminer exploded") as info:
        docparse.parse(quantum_pdf, backend="unstructured", config={"pages": [1, 1]})
    assert info.value.path == str(quantum_pdf)


# --------------------------------------------------------------------------- hi_res, deps


@pytest.mark.unstructured
@needs_unstructured
def test_hi_res_without_local_models_is_model_unavailable(
    quantum_pdf: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import huggingface_hub

    # Deterministic even on a machine whose cache holds the weights.
    monkeypatch.setattr(huggingface_hub, "try_to_load_from_cache", lambda *a, **k: None)
    with pytest.raises(ModelUnavailableError, match="yolox") as info:
        docparse.parse(quantum_pdf, backend="unstructured", config={"strategy": "hi_res"})
    assert "strategy='fast'" in str(info.value)
    assert info.value.path == str(quantum_pdf)


@pytest.mark.unstructured
@needs_unstructured
def test_hi_res_unknown_model_is_a_config_error(quantum_pdf: Path) -> None:
    with pytest.raises(ConfigError, match="no_such_model"):
        docparse.parse(
            quantum_pdf,
            backend="unstructured",
            config={"strategy": "hi_res", "hi_res_model_name": "no_such_model"},
        )


@pytest.mark.unstructured
@needs_unstructured
def test_ocr_without_tesseract_names_the_install(
    quantum_pdf: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ub.shutil, "which", lambda name: None)
    with pytest.raises(MissingDependencyError, match="tesseract"):
        docparse.parse(quantum_pdf, backend="unstructured", config={"strategy": "ocr_only"})


def test_bad_strategy_is_a_config_error() -> None:
    with pytest.raises(ConfigError):
        ub.UnstructuredConfig(strategy="magic")  # type: ignore[arg-type]
    with pytest.raises(ConfigError):
        ub.UnstructuredConfig(pages_per_call=0)
    with pytest.raises(ConfigError):
        ub.UnstructuredConfig(pages=(3, 1))


def test_missing_unstructured_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.util.find_spec

    def find_spec(name: str, *args: Any, **kwargs: Any) -> Any:
        return None if name == "unstructured" else real(name, *args, **kwargs)

    monkeypatch.setattr(importlib.util, "find_spec", find_spec)
    with pytest.raises(MissingDependencyError) as info:
        ub.UnstructuredBackend()
    assert "pip install 'docparse[unstructured]'" in str(info.value)
    assert info.value.install == "pip install 'docparse[unstructured]'"


def test_missing_spacy_model_package_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    def distribution(name: str) -> Any:
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(importlib.metadata, "distribution", distribution)
    with pytest.raises(MissingDependencyError, match=r"docparse\[unstructured\]"):
        ub.spacy_model_path()


# --------------------------------------------------------------------------- element mapping


@pytest.mark.unstructured
@needs_unstructured
def test_element_mapping_roles_coordinates_and_tables() -> None:
    from unstructured.documents.coordinates import PixelSpace, PointSpace
    from unstructured.documents.elements import (
        ElementMetadata,
        Footer,
        Image,
        NarrativeText,
        PageNumber,
        Table,
        Title,
    )

    w, h = 612.0, 792.0
    # hi_res reports pixels of a 200 dpi page image, origin top-left.
    pixels = PixelSpace(width=1700, height=2200)
    scale = 200 / 72

    def px(x0: float, y0: float, x1: float, y1: float) -> Any:
        return ((x0 * scale, y0 * scale), (x0 * scale, y1 * scale),
                (x1 * scale, y1 * scale), (x1 * scale, y0 * scale))  # fmt: skip

    title = Title("2 Method", coordinates=px(72, 100, 300, 120), coordinate_system=pixels)
    para = NarrativeText(
        "Words broken at a line end are re- joined by the assembly.",
        coordinates=px(72, 130, 540, 180),
        coordinate_system=pixels,
    )
    # a PDF-point system with a bottom-left origin
    points = PointSpace(width=w, height=h)
    footer = Footer(
        "Journal of Tests",
        coordinates=((72, 40), (72, 30), (300, 30), (300, 40)),
        coordinate_system=points,
    )
    number = PageNumber("7", coordinates=px(500, 750, 510, 760), coordinate_system=pixels)
    table = Table("a b 1 2", coordinates=px(72, 300, 400, 400), coordinate_system=pixels)
    table.metadata = ElementMetadata(
        text_as_html=(
            "<table><tr><th>a</th><th>b</th></tr>"
            "<tr><td rowspan='2'>1</td><td>2</td></tr><tr><td>3</td></tr></table>"
        ),
        coordinates=table.metadata.coordinates,
    )
    image = Image("", coordinates=px(72, 420, 300, 600), coordinate_system=pixels)
    page = ub.page_content(
        3, w, h, 0, [title, para, footer, number, table, image], tables=True,
        system_class=PixelSpace,
    )  # fmt: skip

    assert page.number == 3 and (page.width, page.height) == (w, h)
    roles = [b.role for b in page.blocks]
    assert roles == ["heading", "paragraph", "footer", "page_number"]
    tb = page.blocks[0].bbox
    assert (tb.x0, tb.y0, tb.x1, tb.y1) == pytest.approx((72, 100, 300, 120), abs=0.01)
    fb = page.blocks[2].bbox
    assert (fb.x0, fb.y0, fb.x1, fb.y1) == pytest.approx((72, h - 40, 300, h - 30), abs=0.01)
    assert [ln.text for ln in page.blocks[1].lines] == [
        "Words broken at a line end are re-",
        "joined by the assembly.",
    ]
    assert len(page.tables) == 1
    region = page.tables[0]
    assert region.rows == (("a", "b"), ("1", "2"), ("", "3"))
    assert region.n_header_rows == 1
    assert region.spans == ((1, 0, 2, 1),)
    assert region.bbox.y0 == pytest.approx(300, abs=0.01)
    assert len(page.images) == 1 and page.images[0].y1 == pytest.approx(600, abs=0.01)

    # tables off: the table's text stays, as a table-role block for the assembly
    page_no_tables = ub.page_content(3, w, h, 0, [table], tables=False, system_class=PixelSpace)
    assert not page_no_tables.tables
    assert [b.role for b in page_no_tables.blocks] == ["table"]


def test_html_table_rows_handles_colspan_and_missing_cells() -> None:
    rows, spans, n_header = ub.html_table_rows(
        "<table><thead><tr><th colspan='2'>Year</th><th>x</th></tr></thead>"
        "<tbody><tr><td>2020</td><td>2021</td></tr></tbody></table>"
    )
    assert rows == (("Year", "", "x"), ("2020", "2021", ""))
    assert spans == ((0, 0, 1, 2),)
    assert n_header == 1
    assert ub.html_table_rows("<p>no table</p>") == ((), (), 0)


def test_split_lines_only_breaks_after_a_line_end_hyphen() -> None:
    assert ub._split_lines("state-of-the-art re- sults, 1990- 1995") == [
        "state-of-the-art re-",
        "sults, 1990- 1995",
    ]
    assert ub._split_lines("first\nsecond") == ["first", "second"]


# --------------------------------------------------------------------------- corpus


@pytest.mark.unstructured
@pytest.mark.corpus
@pytest.mark.slow
@needs_unstructured
def test_one_pdf_of_each_corpus_folder(corpus_dir: Path) -> None:
    """The smallest PDF (<= 100 pages) of each folder parses with units and no error."""
    import pymupdf

    failures = []
    for folder in sorted(p for p in corpus_dir.iterdir() if p.is_dir()):
        pdfs = []
        for pdf in folder.rglob("*.pdf"):
            with pymupdf.open(pdf) as d:
                if d.page_count <= 100:
                    pdfs.append((pdf.stat().st_size, pdf))
        if not pdfs:
            continue
        pdf = min(pdfs)[1]
        doc = docparse.parse(pdf, backend="unstructured")
        if not any(u.kind != "furniture" for u in doc.units):
            failures.append(str(pdf))
    assert not failures
