"""The format table: detection, the registry, ingest and the CLI read one declaration."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from click.testing import CliRunner

import docparse
from docparse import registry
from docparse.cli import main
from docparse.detect import detect_format
from docparse.formats.catalog import (
    FORMAT_TABLE,
    TWIN_EXTENSIONS,
    FormatSpec,
    candidates,
    sniff,
    twin_formats,
)
from docparse.ingest import _format_of, plan
from docparse.model import FORMATS

_SPECS = list(FORMAT_TABLE.values())
_EXTENSIONS = [(spec, ext) for spec in _SPECS for ext in spec.extensions]

_TEX = (
    b"\\documentclass{article}\n\\begin{document}\n"
    b"\\section{Intro}\nHello world.\n\\end{document}\n"
)
_SMALL = {
    "tex": _TEX,
    "htm": b"<!DOCTYPE html>\n<html><body><h1>Intro</h1><p>Hello world.</p></body></html>\n",
    "csv": b"name,value\nalpha,1\nbeta,2\n",
    "txt": b"Hello world.\n\nA second paragraph.\n",
    "markdown": b"# Intro\n\nHello world.\n\n## More\n\n| a | b |\n|---|---|\n| 1 | 2 |\n",
}
#: Formats whose smallest honest sample is a fixture file.
_FIXTURE = {
    "s2orc": "s2orc/24e6b80e338a4e543de6b49cada07156c9149d22/*.json",
    "jats": "pmc/PMC5828200/*.nxml",
    "docling": "docling/sample.docling.json",
}
#: The optional package a format's parser needs, when it needs one.
_EXTRA = {"markdown": "markdown_it"}


def _sample(spec: FormatSpec, fixtures_dir: Path) -> bytes:
    if spec.name == "pdf":
        import pymupdf

        pdf = pymupdf.open()
        pdf.new_page().insert_text((72, 72), "Hello world.")
        return bytes(pdf.tobytes())
    if spec.name in _FIXTURE:
        (path,) = sorted(fixtures_dir.glob(_FIXTURE[spec.name]))
        return path.read_bytes()
    return _SMALL[spec.name]


def _ids(pairs: list[tuple[FormatSpec, str]]) -> list[str]:
    return [f"{spec.name}{ext}" for spec, ext in pairs]


def test_the_table_is_the_format_literal() -> None:
    assert tuple(FORMAT_TABLE) == FORMATS
    for spec in _SPECS:
        assert spec.extensions, spec.name
        assert all(e.startswith(".") and e == e.lower() for e in spec.extensions)
        assert set(spec.shared_extensions) <= set(spec.extensions)


def test_an_extension_of_several_formats_is_shared_by_each() -> None:
    # Otherwise the extension alone would pick one format without a look at the content.
    for _, ext in _EXTENSIONS:
        specs = candidates(ext)
        if len(specs) > 1:
            assert all(ext in s.shared_extensions for s in specs), ext


def test_the_registry_reads_each_parser_from_the_table() -> None:
    for spec in _SPECS:
        if spec.parser is not None:
            assert registry._BUILTIN[spec.name] == spec.parser
    assert set(registry.available()) >= {s.name for s in _SPECS if s.parser}


@pytest.mark.parametrize(("spec", "ext"), _EXTENSIONS, ids=_ids(_EXTENSIONS))
def test_every_extension_is_detected_parsed_and_ingested_alike(
    spec: FormatSpec, ext: str, tmp_path: Path, fixtures_dir: Path
) -> None:
    path = tmp_path / f"doc{ext}"
    path.write_bytes(_sample(spec, fixtures_dir))
    upper = path.with_name(f"DOC{ext.upper()}")
    upper.write_bytes(path.read_bytes())
    for p in (path, upper):
        assert detect_format(p) == spec.name
        assert _format_of(p) == (spec.name, None)
    if spec.name in _EXTRA and importlib.util.find_spec(_EXTRA[spec.name]) is None:
        pytest.skip(f"the {spec.name} parser needs {_EXTRA[spec.name]}")
    doc = docparse.parse(path)
    assert doc.format == spec.name
    assert doc.units, f"{path.name} parsed to no units"


@pytest.mark.parametrize(("spec", "ext"), _EXTENSIONS, ids=_ids(_EXTENSIONS))
def test_ingest_pairs_a_pdf_with_every_twin_extension(
    spec: FormatSpec, ext: str, tmp_path: Path, fixtures_dir: Path
) -> None:
    src = tmp_path / "src"
    src.mkdir()
    (src / "paper.pdf").write_bytes(_sample(FORMAT_TABLE["pdf"], fixtures_dir))
    if spec.name != "pdf":
        (src / f"paper{ext}").write_bytes(_sample(spec, fixtures_dir))
    tasks, skipped = plan(
        src, tmp_path / "out", backends=("pymupdf",), twins=True, output_format="jsonl", config={}
    )
    assert not skipped
    (pdf_task,) = [t for t in tasks if t.format == "pdf"]
    expected = (str(src / f"paper{ext}"),) if spec.twin else ()
    assert pdf_task.twins == expected
    # The twin is also a document of its own.
    assert {t.format for t in tasks} == {"pdf", spec.name}


def test_ltx_and_text_read_by_parse_and_ingest(tmp_path: Path) -> None:
    src = tmp_path / "src"
    src.mkdir()
    (src / "paper.ltx").write_bytes(_TEX)
    (src / "notes.text").write_bytes(_SMALL["txt"])
    tasks, skipped = plan(
        src, tmp_path / "out", backends=("pymupdf",), twins=True, output_format="jsonl", config={}
    )
    assert not skipped
    assert sorted((Path(t.path).name, t.format) for t in tasks) == [
        ("notes.text", "txt"),
        ("paper.ltx", "tex"),
    ]
    for t in tasks:
        assert docparse.parse(t.path).format == t.format


def test_shared_extension_needs_its_content_in_ingest_only(tmp_path: Path) -> None:
    data = tmp_path / "data.json"
    data.write_text('{"rows": [1, 2, 3]}')
    fmt, reason = _format_of(data)
    assert fmt is None and reason is not None
    assert "S2ORC JSON" in reason and "docling JSON" in reason
    # Given the file, parse tries the first format of the extension.
    assert detect_format(data) == "s2orc"
    page = tmp_path / "page.xml"
    page.write_text("<?xml version='1.0'?><catalog><item/></catalog>")
    assert _format_of(page)[0] is None
    assert detect_format(page) == "jats"


def test_sniff_tries_the_more_specific_content_first() -> None:
    docling = b'{"schema_name": "DoclingDocument", "body_text": []}'
    assert sniff(docling) == "docling"
    assert sniff(b'{"paper_id": "x", "body_text": []}') == "s2orc"
    assert sniff(b"%PDF-1.7\n<html>") == "pdf"
    assert sniff(b"PK\x03\x04%PDF-1.4") is None
    assert sniff(b"<html><body>\\section{x}</body></html>") == "htm"
    assert sniff(b"\\section{A}\n# b\n# c\n") == "tex"


def test_twin_extensions_follow_the_twin_formats() -> None:
    twins = twin_formats()
    assert [s.name for s in twins][:3] == ["tex", "jats", "htm"]
    assert tuple(e for s in twins for e in s.extensions) == TWIN_EXTENSIONS
    assert not {"pdf", "markdown", "docling"} & {s.name for s in twins}


def test_cli_help_lists_every_format_and_twin_extension() -> None:
    runner = CliRunner()
    parse_help = " ".join(runner.invoke(main, ["parse", "--help"]).output.split())
    for spec in _SPECS:
        assert spec.name in parse_help
        for ext in spec.extensions:
            assert ext in parse_help, ext
    ingest_help = " ".join(runner.invoke(main, ["ingest", "--help"]).output.split())
    for ext in TWIN_EXTENSIONS:
        assert f"x{ext}" in ingest_help, ext


def test_docs_list_every_format_and_extension() -> None:
    page = (Path(__file__).resolve().parents[2] / "docs" / "formats.md").read_text("utf-8")
    table = page[page.index("## The format table") : page.index("## Structured twins")]
    for spec in _SPECS:
        assert f"| `{spec.name}` |" in table, spec.name
        for ext in spec.extensions:
            assert f"`{ext}`" in table, ext
