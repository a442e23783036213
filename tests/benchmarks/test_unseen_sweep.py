"""benchmarks.unseen_sweep: words against the text layer, glued and split words, a file's row."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.unseen_sweep import Row, disagreement, main, page_words, sweep_file, text_words

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "pdf"


def test_words_split_at_punctuation_and_cjk_characters() -> None:
    assert text_words("\\long\\def\\@firstoftwo #1") == ["long", "def", "firstoftwo", "1"]
    assert text_words("ﬁne 現在 snake_case") == ["fine", "現", "在", "snake", "case"]
    # Accents count for nothing: PDFium's layer keeps TeX's apart from the letter.
    assert text_words("Marienk¨afer Füllwörter") == ["marienkafer", "fullworter"]


def test_layer_line_end_hyphens_join_before_lower_case_and_at_pdfium_marks() -> None:
    assert page_words("high fi-\ndelity") == ["high", "fidelity"]
    assert page_words("KOMA-\nScript") == ["koma", "script"]
    assert page_words("An\ufffe\nleitung") == ["anleitung"]


def test_a_file_row_counts_words_glued_and_split_against_the_layer() -> None:
    path = FIXTURES / "mkpattern-accents" / "mkpatter-p3.pdf"
    layer = ["alpha beta gamma delta", "one two"]
    row = sweep_file(path, "pymupdf", layer, None)
    assert row.status == "ok" and row.pages == 2
    assert row.layer_words == 6 and 0 <= row.hit <= 6
    assert row.recall == row.hit / 6
    # Page 2 of the made-up layer has fewer words than a lost page needs.
    assert row.empty_pages == []


def test_disagreement_is_the_largest_unit_count_over_the_smallest() -> None:
    rows = [Row("a.pdf", "pymupdf", 1, units=10), Row("a.pdf", "pypdfium2", 1, units=40)]
    rows.append(Row("b.pdf", "pymupdf", 1, units=5))
    assert disagreement(rows) == [(4.0, "a.pdf", {"pymupdf": 10, "pypdfium2": 40})]


def test_main_sweeps_a_folder_and_prints_the_summary(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--dir", str(FIXTURES / "lecturer-layers"), "--backend", "pymupdf"]) == 0
    out = capsys.readouterr().out
    assert "LecturerDemo-Mondrian.pdf" in out
    summary = next(ln for ln in out.splitlines() if ln.startswith("pymupdf "))
    assert summary.split()[1:5] == ["1", "1", "0", "0"]  # files, ok, typed, crash
    assert "-- lowest recall" in out


def test_main_without_the_folder_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--dir", str(tmp_path / "absent")]) == 0
    assert "nothing to sweep" in capsys.readouterr().out
