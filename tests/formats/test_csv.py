"""Tests of the CSV twin parser on real tables (tabula-java oracles, edgar-crawler dump)."""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from doc_invariants import check_invariants
from hypothesis import given, settings
from hypothesis import strategies as st

import docparse
from docparse.errors import DocparseError, EmptyDocumentError
from docparse.formats.csv import CsvConfig, CsvParser
from docparse.model import Document
from docparse.text import clean_text

REAL = [
    "csv/us-020/us-020.csv",
    "csv/frx_2012_disclosure/frx_2012_disclosure.csv",
    "csv/argentina_diputados_voting_record/argentina_diputados_voting_record.csv",
    "financial/AMD_2022_10K/2488_10K_2022_0000002488-23-000047.csv",
]


def cells_of(doc: Document) -> list[list[list[str]]]:
    return [[list(r) for r in u.table.rows] for u in doc.units if u.table is not None]


def reference_rows(path: Path, encoding: str = "utf-8") -> list[list[str]]:
    with open(path, newline="", encoding=encoding) as fh:
        return [[clean_text(c) for c in row] for row in csv.reader(fh) if row]


@pytest.mark.parametrize("rel", REAL)
def test_golden_real_csv(
    rel: str, fixtures_dir: Path, golden: Callable[[str, Document], None]
) -> None:
    doc = CsvParser().parse(fixtures_dir / rel)
    check_invariants(doc)
    golden("csv_" + Path(rel).stem.replace("-", "_")[:40], doc)


@pytest.mark.parametrize("rel", REAL[:3])
def test_single_table_cells_equal_csv_module(rel: str, fixtures_dir: Path) -> None:
    path = fixtures_dir / rel
    doc = CsvParser().parse(path)
    (table,) = cells_of(doc)
    ref = reference_rows(path)
    width = max(len(r) for r in ref)
    assert table == [r + [""] * (width - len(r)) for r in ref]


def test_amd_blocks_are_separate_tables(fixtures_dir: Path) -> None:
    path = fixtures_dir / REAL[3]
    doc = CsvParser().parse(path)
    text = path.read_text("utf-8")
    blocks = [b for b in re.split(r"\n[ \t]*\n", text) if b.strip()]
    assert len(doc.units) == len(blocks)
    for unit, block in zip(doc.units, blocks, strict=True):
        assert unit.table is not None
        rows = [[clean_text(c) for c in r] for r in csv.reader(io.StringIO(block)) if r]
        width = max(len(r) for r in rows)
        assert [list(r) for r in unit.table.rows] == [r + [""] * (width - len(r)) for r in rows]
        assert unit.raw.strip() == block.strip()


def test_header_rows(fixtures_dir: Path) -> None:
    tables = {rel: cells_of(CsvParser().parse(fixtures_dir / rel)) for rel in REAL}
    docs = {rel: CsvParser().parse(fixtures_dir / rel) for rel in REAL}
    us020 = docs[REAL[0]].units[0].table
    assert us020 is not None and us020.n_header_rows == 5  # five-line column heads
    arg = docs[REAL[2]].units[0].table
    assert arg is not None and arg.n_header_rows == 0  # data from the first row
    assert tables


def test_round_trip_and_stable_ids(fixtures_dir: Path) -> None:
    path = fixtures_dir / REAL[3]
    doc = CsvParser().parse(path)
    assert Document.from_dict(json.loads(json.dumps(doc.to_dict()))) == doc
    assert [u.id for u in CsvParser().parse(path).units] == [u.id for u in doc.units]


def test_api_detects_csv(fixtures_dir: Path) -> None:
    doc = docparse.parse(fixtures_dir / REAL[0])
    assert doc.format == "csv" and len(doc.units) == 1


# --- encodings, delimiters, ragged rows, bad input ---------------------------


@pytest.mark.parametrize("encoding", ["cp1252", "latin-1", "utf-8-sig", "utf-16"])
def test_non_utf8_csv_gives_same_cells(encoding: str, fixtures_dir: Path, tmp_path: Path) -> None:
    src = fixtures_dir / REAL[2]  # Spanish names with accents: "Cívico", "María"
    text = src.read_text("utf-8")
    path = tmp_path / f"votes-{encoding}.csv"
    path.write_bytes(text.encode(encoding))
    assert cells_of(CsvParser().parse(path)) == cells_of(CsvParser().parse(src))
    assert any("María" in c for r in cells_of(CsvParser().parse(path))[0] for c in r)


def test_ragged_rows_are_padded(fixtures_dir: Path, tmp_path: Path) -> None:
    lines = (fixtures_dir / REAL[1]).read_text("utf-8").splitlines()
    ragged = [ln.rsplit(",", 2)[0] if i % 3 == 0 else ln for i, ln in enumerate(lines)]
    ragged[5] += ",extra,cells"
    path = tmp_path / "ragged.csv"
    path.write_text("\n".join(ragged) + "\n", encoding="utf-8")
    (table,) = cells_of(CsvParser().parse(path))
    assert len({len(r) for r in table}) == 1
    assert len(table[0]) == max(len(r) for r in reference_rows(path))
    assert table[5][-2:] == ["extra", "cells"]


@pytest.mark.parametrize(("delim", "suffix"), [(";", ".csv"), ("\t", ".tsv"), ("|", ".csv")])
def test_delimiters(delim: str, suffix: str, fixtures_dir: Path, tmp_path: Path) -> None:
    rows = reference_rows(fixtures_dir / REAL[2])
    buf = io.StringIO()
    csv.writer(buf, delimiter=delim).writerows(rows)
    path = tmp_path / f"t{suffix}"
    path.write_text(buf.getvalue(), encoding="utf-8")
    assert cells_of(CsvParser().parse(path)) == [rows]


def test_excel_sep_line(tmp_path: Path) -> None:
    path = tmp_path / "x.csv"
    path.write_text("sep=;\na;b,c\n1;2,5\n", encoding="utf-8")
    assert cells_of(CsvParser().parse(path)) == [[["a", "b,c"], ["1", "2,5"]]]


def test_quoted_multiline_cell_with_blank_line(tmp_path: Path) -> None:
    path = tmp_path / "m.csv"
    path.write_text(
        'name,note\na,"line one\n\nline three"\nb,plain\n\nx,y\n1,2\n', encoding="utf-8"
    )
    doc = CsvParser().parse(path)
    assert cells_of(doc) == [
        [["name", "note"], ["a", "line one line three"], ["b", "plain"]],
        [["x", "y"], ["1", "2"]],
    ]
    assert doc.units[1].table is not None and doc.units[1].table.n_header_rows == 1


def test_split_on_empty_records_option(tmp_path: Path) -> None:
    path = tmp_path / "e.csv"
    path.write_text("a,b\n1,2\n,,\nc,d\n3,4\n", encoding="utf-8")
    assert len(CsvParser().parse(path).units) == 1
    assert len(CsvParser().parse(path, CsvConfig(split_on_empty_records=True)).units) == 2


@pytest.mark.parametrize("content", [b"", b"\n\n  \n", b",,,\n,,\n"])
def test_empty_inputs(content: bytes, tmp_path: Path) -> None:
    path = tmp_path / "empty.csv"
    path.write_bytes(content)
    with pytest.raises(EmptyDocumentError):
        CsvParser().parse(path)


def test_binary_input(tmp_path: Path) -> None:
    path = tmp_path / "bin.csv"
    path.write_bytes(bytes(range(256)) * 20)
    try:
        doc = CsvParser().parse(path)
    except DocparseError:
        return
    check_invariants(doc)


def test_bad_config(tmp_path: Path) -> None:
    path = tmp_path / "a.csv"
    path.write_text("a,b\n", encoding="utf-8")
    with pytest.raises(DocparseError):
        CsvParser().parse(path, {"delimeter": ";"})


# --- properties --------------------------------------------------------------

_CELL = st.text(
    alphabet=st.characters(
        blacklist_categories=("Cs", "Cc", "Zl", "Zp"), blacklist_characters="\x00"
    ),
    max_size=12,
).map(clean_text)


@settings(max_examples=80, deadline=None)
@given(
    st.integers(min_value=2, max_value=6).flatmap(
        lambda w: st.lists(st.lists(_CELL, min_size=w, max_size=w), min_size=1, max_size=8)
    )
)
def test_csv_round_trip_of_random_grids(
    tmp_path_factory: pytest.TempPathFactory, grid: list[list[str]]
) -> None:
    # Rows of only empty cells at the end carry nothing and are dropped.
    while grid and not any(grid[-1]):
        grid.pop()
    path = tmp_path_factory.mktemp("grid") / "g.csv"
    with open(path, "w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows(grid)
    if not any(c for r in grid for c in r):
        with pytest.raises(EmptyDocumentError):
            CsvParser().parse(path, CsvConfig(delimiter=","))
        return
    doc = CsvParser().parse(path, CsvConfig(delimiter=","))
    assert cells_of(doc) == [grid]


# --- the whole corpus ----------------------------------------------------------


@pytest.mark.corpus
def test_every_corpus_csv_parses(corpus_dir: Path) -> None:
    paths = sorted(corpus_dir.rglob("*.csv"))
    assert paths
    for path in paths:
        doc = CsvParser().parse(path)
        check_invariants(doc)
        # Expected count: blank-line separated blocks of csv records (a blank
        # line inside a quoted cell does not separate tables).
        n_blocks, in_block = 0, False
        with open(path, newline="", encoding="utf-8-sig", errors="replace") as fh:
            for row in csv.reader(fh):
                blank = not row or (len(row) == 1 and not row[0].strip())
                if not blank and not in_block:
                    n_blocks += 1
                in_block = not blank
        assert len(doc.units) == n_blocks, path.name
