"""pypdfium2's tables: runs cut into words at their spaces, read by the shared finders."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest

import docparse
from docparse.backends import pypdfium2 as backend
from docparse.backends.pypdfium2_calls import TextCalls, TextPage
from docparse.backends.pypdfium2_runs import page_runs
from docparse.backends.pypdfium2_tables import page_words
from docparse.backends.table_checks import contents_list

pypdfium2 = pytest.importorskip("pypdfium2")


@pytest.fixture(scope="module")
def generated(fixtures_dir: Path) -> Path:
    return fixtures_dir / "tables_generated"


def _tables(path: Path) -> list[Any]:
    doc = docparse.parse(path, backend="pypdfium2", config={"tables": True})
    return [u.table for u in doc.units if u.kind == "table" and u.table]


def test_tex_row_run_cut_at_its_column_gaps(generated: Path) -> None:
    # pdflatex sets the row "Goodwill 6,543 377 (21)" as one run: label to last value.
    raw = pypdfium2.raw
    pdf = pypdfium2.PdfDocument(str(generated / "texstatement-1.pdf"))
    try:
        calls = TextCalls(raw)
        page = calls.load_page(pdf.raw, 0)
        left, _, _, top = calls.page_box(page)
        textpage = calls.load_textpage(page)
        try:
            spans, _ = page_runs(TextPage(textpage, raw), raw, left, top, 600, {}, calls)
            words = page_words(spans, textpage, raw, left, top)
        finally:
            calls.close_textpage(textpage)
            calls.close_page(page)
    finally:
        pdf.close()
    assert any(s.text == "Goodwill 6,543 377 (21)" for s in spans)
    row = sorted(
        (w for w in words if w[4] in {"Goodwill", "6,543", "377", "(21)"}), key=lambda w: w[0]
    )
    assert [w[4] for w in row] == ["Goodwill", "6,543", "377", "(21)"]
    # Each word ends where its characters do: the column gaps lie between them.
    assert all(b[0] - a[2] > 20 for a, b in itertools.pairwise(row))


def test_tex_statement_read_as_a_table(generated: Path) -> None:
    tables = _tables(generated / "texstatement-1.pdf")
    assert len(tables) == 1
    rows = tables[0].rows
    assert ("", "2023", "2017", "2016") in rows
    assert ("Accounts receivable, net", "—", "6,379", "9,851") in rows


def test_unruled_html_statement_found(generated: Path) -> None:
    # No caption and no rule: found from its rows of numbers only.
    tables = _tables(generated / "quarters-5.pdf")
    assert any(("Restructuring charges", "1,153", "8,581", "319", "320") in t.rows for t in tables)


def test_runs_touching_are_one_word(generated: Path) -> None:
    # PDFium sets Chromium's "3,784" apart as "3" "," "784" (the comma's box
    # hangs below the digits'); the line text has no space there, nor do the cells.
    tables = _tables(generated / "quarters-7.pdf")
    rows = [r for t in tables for r in t.rows]
    assert (
        "Other income (expense), net",
        "$3,784",
        "$90,124",
        "$(87,954)",
        "$4,974",
        "$(32,436)",
        "$15",
    ) in rows


def test_ruled_cells_keep_wrapped_lines_in_one_row(generated: Path) -> None:
    # Rules between the rows and columns, none at the sides: each ruled cell is
    # one cell however many lines it wraps over (the label "type -p commandname"
    # wraps, and read from the words alone it was a row of its own).
    tables = _tables(generated / "ruled-inner.pdf")
    assert len(tables) == 1
    rows = tables[0].rows
    assert len(rows) == 8
    assert [r[0] for r in rows][5:7] == ["type -p commandname", "which commandname"]
    assert rows[5][2] == 'display the file location of the command "commandname"'


def test_narrow_glyphs_set_apart_stay_one_word(generated: Path) -> None:
    # PDFium's boxes are the glyphs' ink: a "1" or an "I" is narrow in its advance, and
    # Chromium's "12" or "I:40" come as runs further apart than the line text's space
    # gap. PDFium's own text has no space there and the advance boxes meet: one word.
    rows = _tables(generated / "ruled-inner.pdf")[0].rows
    assert [r[1] for r in rows[1:]] == [
        "V:901, I:999",
        "V:320, I:998",
        "V:455, I:999",
        "V:83, I:702",
        "V:12, I:40",
        "V:77, I:850",
        "V:3, I:511",
    ]


def test_ruled_grid_leaves_the_sentence_above_out(fixtures_dir: Path) -> None:
    # 3M 2018 p50: the ruled grid starts at its rules; the sentence above its
    # heads ("... is summarized as follows") is no row of it.
    tables = _tables(fixtures_dir / "pdf" / "3M_2018_10K-p50" / "3M_2018_10K-p50.pdf")
    assert len(tables) == 1
    rows = tables[0].rows
    assert rows[0][2] == "Payments due by year"
    assert rows[3][:3] == ("Total debt (Note 12)", "$14,622", "$1,211")


def test_tables_off_reads_no_character(generated: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def fail(*args: Any) -> Any:
        raise AssertionError("page_words called with tables off")

    monkeypatch.setattr(backend, "page_words", fail)
    doc = docparse.parse(
        generated / "texstatement-1.pdf", backend="pypdfium2", config={"tables": False}
    )
    assert not [u for u in doc.units if u.kind == "table"]


def test_superscript_digits_are_no_page_numbers() -> None:
    # pypdfium2's words keep footnote marks apart ("¹"): str.isdigit holds for
    # them but int() fails, which broke the contents check on a filing's table.
    rows = [("Sales", "¹"), ("Cost", "²"), ("Margin", "³"), ("Tax", "⁴")]
    assert contents_list(rows) is False
    assert contents_list([("A", "3"), ("B", "5"), ("C", "9")]) is True
