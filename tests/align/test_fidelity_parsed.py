"""Other systems' parses (Markdown, docling JSON) scored beside the PDF backends."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

import docparse
from align.fidelity import fidelity
from docparse.cli import main

TWIN = Path("research/jmlr-pmlr-sample/pmlr-sample.tex")
PDF = Path("pdf/jmlr-pmlr-sample/pmlr-sample.pdf")
DOCLING = Path("docling/sample.docling.json")


def test_external_parse_is_one_more_system(fixtures_dir: Path, tmp_path: Path) -> None:
    perfect = tmp_path / "pmlr.perfect.md"
    perfect.write_text(docparse.parse(fixtures_dir / TWIN).to_markdown(), encoding="utf-8")
    summary = fidelity(
        str(fixtures_dir / TWIN),
        str(fixtures_dir / PDF),
        (),
        parsed=[perfect, fixtures_dir / DOCLING],
    ).summary()
    systems = summary["backends"]
    assert list(systems) == ["pmlr.perfect.md", "sample.docling.json"]
    # The twin written as Markdown is a perfect parse of itself.
    assert systems["pmlr.perfect.md"]["unit_recall"] > 0.98
    assert systems["pmlr.perfect.md"]["tables"]["cell_f1"] > 0.95
    # A parse of another document finds almost nothing.
    assert systems["sample.docling.json"]["unit_recall"] < 0.1


def test_cli_parsed_in_one_table_and_report(fixtures_dir: Path, tmp_path: Path) -> None:
    md = tmp_path / "pmlr.other.md"
    md.write_text(docparse.parse(fixtures_dir / TWIN).to_markdown(), encoding="utf-8")
    out, html = tmp_path / "f.json", tmp_path / "f.html"
    result = CliRunner().invoke(
        main,
        [
            "fidelity",
            "--twin",
            str(fixtures_dir / TWIN),
            "--pdf",
            str(fixtures_dir / PDF),
            "-b",
            "pymupdf",
            "--parsed",
            str(md),
            "-o",
            str(out),
            "--html",
            str(html),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "pymupdf" in result.output and "pmlr.other.md" in result.output
    assert set(json.loads(out.read_text())["backends"]) == {"pymupdf", "pmlr.other.md"}
    assert "pmlr.other.md" in html.read_text(encoding="utf-8")


def test_cli_export(fixtures_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "x.md"
    result = CliRunner().invoke(
        main, ["export", str(fixtures_dir / DOCLING), "--to", "markdown", "-o", str(out)]
    )
    assert result.exit_code == 0, result.output
    text = out.read_text(encoding="utf-8")
    assert "# 1 Introduction" in text and 'colspan="2"' in text
    result = CliRunner().invoke(main, ["export", str(fixtures_dir / DOCLING), "--to", "text"])
    assert result.exit_code == 0 and "docling\t0.93\t0.85" in result.output
