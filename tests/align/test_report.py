"""The HTML report and the ``fidelity`` / ``retrieval`` commands."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from align.fidelity import BackendRun, FidelityRun
from align.project import project
from align.readers import Evidence, QARecord
from align.report import render_report, write_report
from align.retrieval import BM25Retriever, evaluate
from docparse.builder import UnitDraft, build_document
from docparse.cli import main
from docparse.model import Document, Provenance

pytest.importorskip("matplotlib")

# Real text from the Quantum journal template (TeX Live, LPPL).
PARAS = [
    "Important: If you are formatting your bibliography manually, please do not group "
    "multiple citations into one bibitem. Having to search through multiple references to "
    "find the cited result makes your work less accessible for authors.",
    "The quantumarticle class automatically detects that the natbib package was loaded and "
    "redefines the doi command to create hyperlinks.",
    "Due to issues with biber we recommend to use the bibtex backend of biblatex.",
    "Feel free to place figures at the top or bottom of the page, or in the middle of a "
    "paragraph as you see fit. <script>alert(1)</script>",
]


def _doc(texts: list[str], fmt: str, pages: list[int] | None = None) -> Document:
    return build_document(
        path=f"q.{fmt}",
        format="pdf" if fmt == "pdf" else "tex",
        backend="pymupdf" if fmt == "pdf" else "tex",
        doc_id="q" + fmt,
        drafts=[
            UnitDraft(
                "paragraph",
                t,
                section=("Intro",),
                provenance=(Provenance(pages[i]),) if pages else (),
            )
            for i, t in enumerate(texts)
        ],
    )


def _external_refs(page: str) -> list[str]:
    """src/href attributes and CSS url()s that are not inline data."""
    refs = re.findall(r"""(?:src|href)\s*=\s*["']([^"']*)["']""", page)
    refs += re.findall(r"url\(([^)]*)\)", page)
    return [r for r in refs if not r.startswith("data:") and not r.startswith("#")]


def _fidelity_summary() -> dict[str, object]:
    twin = _doc(PARAS, "tex")
    parsed = _doc([PARAS[0], PARAS[2], PARAS[3]], "pdf", pages=[1, 2, 2])
    run = FidelityRun(
        twin,
        "q.pdf",
        (
            BackendRun("pymupdf", 0.5, project(twin, parsed)),
            BackendRun("unstructured", 0.1, error="needs the unstructured extra"),
        ),
    )
    return run.summary()


def test_report_is_one_self_contained_file(tmp_path: Path) -> None:
    twin = _doc(PARAS, "tex")
    records = [
        QARecord(
            doc="q",
            question="Which backend of biblatex?",
            evidence=(Evidence("recommend to use the bibtex backend"),),
            qid="1",
        )
    ]
    ret = evaluate(records, twin, BM25Retriever()).to_dict()
    out = write_report(
        tmp_path / "r.html", fidelity=_fidelity_summary(), retrieval=[("bm25 / unit", ret)]
    )
    page = out.read_text(encoding="utf-8")
    assert list(tmp_path.iterdir()) == [out]
    assert page.startswith("<!DOCTYPE html>")
    assert _external_refs(page) == []
    assert "http://" not in page and "https://" not in page
    assert page.count("data:image/png;base64,") >= 5
    # Twin text is escaped, never injected.
    assert "<script>" not in page
    assert "failed: needs the unstructured extra" in page
    assert "Retrieval fidelity" in page and "Parse fidelity" in page


def test_report_without_pages_or_retrieval() -> None:
    twin = _doc(PARAS, "tex")
    run = FidelityRun(twin, "q.pdf", (BackendRun("pdfplumber", 0.2, project(twin, twin)),))
    page = render_report(fidelity=run.summary())
    assert "Where text was lost" not in page  # the twin has no pages
    assert "Retrieval fidelity" not in page


def test_fidelity_command_on_the_quantum_pair(fixtures_dir: Path, tmp_path: Path) -> None:
    tex = fixtures_dir / "research" / "quantum-template" / "quantum-template.tex"
    pdf = fixtures_dir / "pdf" / "quantum-template" / "quantum-template.pdf"
    out, html_out = tmp_path / "f.json", tmp_path / "f.html"
    result = CliRunner().invoke(
        main,
        [
            "fidelity",
            "--twin",
            str(tex),
            "--pdf",
            str(pdf),
            "-o",
            str(out),
            "--html",
            str(html_out),
            "--units",
        ],
    )
    assert result.exit_code == 0, result.output
    assert "pymupdf" in result.output
    data = json.loads(out.read_text(encoding="utf-8"))
    s = data["backends"]["pymupdf"]
    assert s["unit_recall"] >= 0.85
    assert s["seconds"] > 0
    assert len(s["units"]) == s["twin_units"]
    assert {u["status"] for u in s["units"]} <= {"matched", "split", "merged", "partial", "missing"}
    assert _external_refs(html_out.read_text(encoding="utf-8")) == []


def test_retrieval_command(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "quantum.txt").write_text("\n\n".join(PARAS) + "\n", encoding="utf-8")
    qa = tmp_path / "qa.jsonl"
    rows = [
        {
            "doc": "quantum",
            "question": "Which backend of biblatex is recommended?",
            "evidence": ["we recommend to use the bibtex backend of biblatex"],
        },
        {"doc": "absent", "question": "x", "evidence": ["y"]},
    ]
    qa.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    out = tmp_path / "r.json"
    result = CliRunner().invoke(
        main,
        [
            "retrieval",
            str(qa),
            "--docs",
            str(docs),
            "--chunker",
            "unit",
            "-o",
            str(out),
            "--retriever",
            "tfidf",
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["no_document"] == 1
    assert data["hit"]["1"] == 1.0
    assert data["chunker"] == "unit"
