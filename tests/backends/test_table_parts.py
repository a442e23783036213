"""Tables in parts under one caption, and rows of tall math glyph boxes.

Coordinates are those of the research PDFs the cases come from (asmejour
Table 3, AASTeX Table 5, PMLR Table 1), rounded.
"""

from __future__ import annotations

from docparse.backends.floats import continued_parts, link_captions
from docparse.backends.items import Item
from docparse.backends.table_candidates import Word
from docparse.backends.table_checks import ruled_off_plausible
from docparse.backends.table_grid import word_grid
from docparse.backends.table_regions import rule_bounded_regions
from docparse.backends.table_rows import baseline_rows
from docparse.backends.table_split import stacked_tables
from docparse.builder import UnitDraft
from docparse.model import BBox, Provenance, Table

# asmejour Table 3: the math font's boxes (16-17 points) are taller than the
# row pitch (11 points), so each row of symbols reaches into the row of
# numbers under it.
MATH_ROWS: list[Word] = [
    (69.9, 66.9, 78.9, 76.9, "Xz"),
    (138.3, 66.9, 147.6, 76.9, "Xc"),
    (59.8, 74.5, 89.2, 86.4, "3.92069"),
    (128.3, 74.5, 157.8, 86.4, "5.70943"),
    (64.4, 89.3, 84.3, 105.2, "ε(T1)"),
    (131.4, 87.8, 154.3, 105.2, "εi(T1)"),
    (62.1, 97.3, 87.0, 109.3, "0.7258"),
    (130.6, 97.3, 155.5, 109.3, "0.6237"),
    (64.4, 109.2, 84.8, 121.2, "qgray"),
    (129.3, 109.2, 156.4, 121.2, "qint"),
    (64.3, 119.2, 84.8, 131.2, "400.2"),
    (132.8, 119.2, 153.3, 131.2, "462.1"),
]


def _texts(rows: list[list[Word]]) -> list[list[str]]:
    return [[w[4] for w in r] for r in rows]


def test_a_row_under_tall_math_boxes_is_a_row_of_its_own() -> None:
    assert _texts(baseline_rows(MATH_ROWS)) == [
        ["Xz", "Xc"],
        ["3.92069", "5.70943"],
        ["ε(T1)", "εi(T1)"],
        ["0.7258", "0.6237"],
        ["qgray", "qint"],
        ["400.2", "462.1"],
    ]


def test_scripts_and_marks_stay_on_their_line() -> None:
    # Ψ with a superscript 2 over a subscript 1 (acmart), and an arrow set
    # under "lim" (PMLR): one row each.
    words: list[Word] = [
        (368.5, 157.0, 376.0, 165.9, "Ψ"),
        (374.0, 156.0, 377.3, 162.0, "2"),
        (373.9, 163.6, 377.3, 170.9, "1"),
        (422.3, 159.1, 461.1, 168.0, "40,000"),
    ]
    assert _texts(baseline_rows(words)) == [["Ψ", "1", "2", "40,000"]]
    arrow: list[Word] = [
        (282.0, 507.1, 297.2, 516.8, "lim"),
        (282.0, 511.0, 297.2, 516.0, "−→"),
        (212.8, 508.1, 270.1, 517.1, "\\varlimsup"),
    ]
    assert len(baseline_rows(arrow)) == 1
    # A word printed twice a fraction of a point apart (a bold effect) is one row.
    twice: list[Word] = [(10, 10, 40, 20, "Total"), (10.3, 10.2, 40.3, 20.2, "Total")]
    assert len(baseline_rows(twice)) == 1


def test_a_stack_closed_by_a_wider_rule_keeps_its_last_rows() -> None:
    # AASTeX Table 5: each part's top, header and body rules span the part;
    # its bottom rule is drawn across the text width, under rows of the body.
    rules = [
        (173.5, 82.5, 436.5),
        (173.5, 84.4, 436.5),
        (173.5, 158.4, 436.5),
        (173.5, 192.7, 436.5),
        (50.7, 228.9, 561.9),
        (216.6, 235.3, 393.4),
        (216.6, 237.2, 393.4),
        (216.6, 288.9, 393.4),
        (216.6, 321.2, 393.4),
        (50.7, 357.4, 561.9),
    ]
    lines = [
        ((193.5, 68.1, 416.1, 76.1), "Table 5. Measurements of Emission Lines: two breaks"),
        ((181.8, 101.6, 398.1, 107.7), "Model Component Shift FWHM Flux"),
        ((187.5, 151.0, 371.5, 157.2), "(1) (2) (3) (4) (5)"),
        ((178.5, 175.3, 381.5, 181.5), "Model 1 IELs -4049.123 1974±22 2495±30"),
        ((227.2, 195.6, 379.5, 201.8), "BELs -85 8991±41 988±29"),
        ((178.5, 205.6, 381.5, 211.8), "Model 2 IELs -51000 2025±26 2494±32"),
        ((223.0, 269.2, 236.6, 276.3), "N V"),
        ((249.5, 269.2, 266.9, 276.3), "Si IV"),
        ((287.1, 269.2, 303.6, 276.3), "C IV"),
        ((224.7, 281.5, 382.5, 287.7), "(6) (7) (8) (9) (10)"),
        ((221.6, 293.8, 388.4, 300.0), "< 35 < 166 637±31 1951±26 991±30"),
        ((221.6, 330.0, 388.4, 336.0), "< 37 < 124 1005±190 72±28 72±21"),
    ]
    regions = sorted(rule_bounded_regions(rules, lines, 792.0), key=lambda r: r[1])
    assert len(regions) == 2
    first, second = regions
    assert first[0] > 170 and first[3] >= 228.9  # down to the wide rule, Model 2 inside
    assert second[0] > 210 and second[1] < 235 and second[3] >= 357.4
    # The wide rules are no table of their own.
    assert not any(r[0] < 60 for r in regions)


def test_a_wider_rule_under_prose_closes_nothing() -> None:
    rules = [(173.5, 82.5, 436.5), (173.5, 100.0, 436.5), (173.5, 140.0, 436.5)]
    lines = [
        ((180.0, 90.0, 300.0, 97.0), "Model Shift"),
        ((180.0, 110.0, 300.0, 117.0), "A 1.5"),
        ((180.0, 125.0, 300.0, 132.0), "B 2.5"),
        (
            (52.0, 150.0, 560.0, 157.0),
            "and the text of the paper goes on under the table in a sentence",
        ),
    ]
    wide = [*rules, (50.7, 170.0, 561.9)]
    assert rule_bounded_regions(wide, lines, 792.0) == rule_bounded_regions(rules, lines, 792.0)


# PMLR Table 1: a tabular of eight columns, then a second tabular of four
# under it (one float, one caption). Read as one grid, the second's cells
# cross the first's column gaps and its columns merge.
_FIRST = [
    ("\\arccos", "arccos", "\\deg", "deg", "\\lg", "lg", "\\projlim", "projlim"),
    ("\\arcsin", "arcsin", "\\det", "det", "\\lim", "lim", "\\sec", "sec"),
    ("\\arctan", "arctan", "\\dim", "dim", "\\liminf", "liminf", "\\sin", "sin"),
]
_FIRST_X = [
    (116, 156),
    (168, 197),
    (228, 251),
    (263, 279),
    (327, 344),
    (356, 365),
    (401, 447),
    (459, 496),
]


def _operator_words() -> list[Word]:
    words: list[Word] = []
    for i, row in enumerate(_FIRST):
        y = 385.0 + 13.5 * i
        words += [(x0, y, x1, y + 9, t) for (x0, x1), t in zip(_FIRST_X, row, strict=True)]
    for i, row in enumerate([("\\varlimsup", "lim", "\\varinjlim", "lim")] * 2):
        y = 430.0 + 14 * i
        xs = [(212.8, 270.1), (282.0, 297.2), (314.8, 372.1), (384.1, 399.2)]
        words += [(x0, y, x1, y + 9, t) for (x0, x1), t in zip(xs, row, strict=True)]
    return words


def test_a_second_tabular_with_columns_of_its_own_is_a_table_of_its_own() -> None:
    words = _operator_words()
    clip = (100.0, 380.0, 520.0, 460.0)
    parts = stacked_tables(words, clip)
    assert len(parts) == 2
    grids = [word_grid(words, p) for p in parts]
    assert grids[0] is not None and grids[1] is not None
    assert [len(r) for r in grids[0][1]] == [8, 8, 8]
    assert grids[0][1][0][2:4] == ["\\deg", "deg"]
    assert grids[1][1][0] == ["\\varlimsup", "lim", "\\varinjlim", "lim"]
    # The first tabular alone is one table.
    assert stacked_tables(words, (100.0, 380.0, 520.0, 425.0)) == [(100.0, 380.0, 520.0, 425.0)]


def test_one_word_cells_in_lower_case_are_no_prose() -> None:
    assert ruled_off_plausible([list(r) for r in _FIRST])
    prose = [
        ["the model is", "trained on the", "data we have"],
        ["and then it", "is tested on", "the held out"],
    ]
    assert not ruled_off_plausible(prose)


def _draft(kind: str, page: int, box: tuple[float, float, float, float], **kw: object) -> UnitDraft:
    prov = (Provenance(page, BBox(*box)),)
    table = Table(rows=(("a", "1"), ("b", "2"))) if kind == "table" else None
    return UnitDraft(kind=kind, text=str(kw.get("text", "")), provenance=prov, table=table)  # type: ignore[arg-type]


def test_parts_under_one_caption_are_linked_to_it() -> None:
    drafts = [
        _draft("caption", 7, (193, 68, 416, 76), text="Table 5. Measurements"),
        _draft("table", 7, (178, 101, 429, 222)),
        _draft("table", 7, (221, 269, 388, 350)),
        _draft("table", 7, (225, 398, 387, 479)),
        _draft("paragraph", 7, (52, 500, 560, 540), text="Body text follows the table."),
        _draft("table", 7, (225, 560, 387, 640)),
    ]
    cap = Item(7, BBox(193, 68, 416, 76), ["Table 5. Measurements"], 9.0, False, "caption")
    tables = [Item(7, d.provenance[0].bbox, [], 9.0, False) for d in drafts if d.table]
    index = {id(t): i for t, i in zip(tables, (1, 2, 3, 5), strict=True)}
    link_captions(drafts, [(0, cap)], tables, index)
    captions = [d.table.caption if d.table else None for d in drafts]
    assert captions == [None, "Table 5. Measurements", *["Table 5. Measurements"] * 2, None, None]
    assert sorted(drafts[0].related) == [1, 2, 3]


def test_a_table_continued_on_the_next_page_is_a_part() -> None:
    drafts = [
        _draft("table", 16, (94, 88, 535, 700)),
        _draft("paragraph", 16, (300, 710, 400, 720), text="Table 1 continued on next page"),
        _draft("furniture", 17, (280, 40, 380, 50), text="Running head"),
        _draft("table", 17, (94, 88, 535, 700)),
        _draft("table", 18, (94, 88, 535, 700)),
    ]
    drafts[0].table = Table(rows=(("a", "1"),), caption="Table 1. Novae")
    assert continued_parts(drafts, 0) == [3, 4]
    drafts[4].table = Table(rows=(("a", "1"),), caption="Table 2. Other")
    assert continued_parts(drafts, 0) == [3]
