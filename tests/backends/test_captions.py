"""Table captions in the PDF assembly: a label joined to its text, linked to its table."""

from __future__ import annotations

from synthetic_pages import block, build, line

from docparse.backends.base import PageContent, TableRegion
from docparse.backends.table_regions import rule_bounded_regions
from docparse.backends.table_whitespace import caption_parts
from docparse.model import BBox

_ROWS = (("Experiment", "Speed"), ("Run 11", "12.5"), ("Run 12", "24"))


def _page(blocks: list, tables: tuple[TableRegion, ...] = ()) -> PageContent:
    return PageContent(number=1, width=612, height=792, blocks=tuple(blocks), tables=tables)


def _body() -> list:
    text = "Body text of the paper runs on in the column for a good many words here."
    return [block(line(text, 60, 300 + 12 * i)) for i in range(6)]


def test_a_caption_label_set_apart_from_its_text_is_one_caption_linked_to_its_table() -> None:
    # "Table 1" in bold, a wide space, then the title: two items on one baseline.
    table = TableRegion(BBox(360, 64, 500, 101), _ROWS)
    doc = build(
        [
            _page(
                [
                    *_body(),
                    block(line("Table 1", 370, 46, size=8, bold=True)),
                    block(line("A simple table", 410, 46, size=8, bold=True)),
                ],
                (table,),
            )
        ]
    )
    caps = [u for u in doc.units if u.kind == "caption"]
    assert [u.text for u in caps] == ["Table 1 A simple table"]
    assert not any(u.kind == "heading" for u in doc.units)
    tab = next(u for u in doc.units if u.kind == "table")
    assert tab.table is not None and tab.table.caption == "Table 1 A simple table"
    assert tab.related == (caps[0].id,)


def test_a_label_centred_over_its_title_line_is_joined_to_it() -> None:
    table = TableRegion(BBox(340, 90, 520, 130), _ROWS)
    doc = build(
        [
            _page(
                [
                    *_body(),
                    block(line("TABLE III", 408, 60, size=8)),
                    block(line("RESULTS ON THE TEST SET", 378, 70, size=8)),
                ],
                (table,),
            )
        ]
    )
    tab = next(u for u in doc.units if u.kind == "table")
    assert tab.table is not None and tab.table.caption == "TABLE III RESULTS ON THE TEST SET"


def test_a_bare_label_with_body_text_beside_it_in_the_other_column_stays_alone() -> None:
    doc = build(
        [
            _page(
                [
                    block(line("Table 2", 60, 46, size=8, bold=True)),
                    block(line("The other column's text starts here and runs on.", 330, 46)),
                ]
            )
        ]
    )
    assert "Table 2" in [u.text for u in doc.units]


def test_a_caption_in_one_page_column_cuts_a_region_over_both() -> None:
    # Rows of numbers over both columns (a figure's labels on the left),
    # two tables under their captions in the right column.
    captions = [(380.0, 44.0, 480.0, 52.0), (340.0, 116.0, 524.0, 124.0)]
    parts = caption_parts((136.0, 43.0, 527.0, 204.0), captions, 612.0)
    assert [(round(p[0]), round(p[1]), round(p[3])) for p in parts if p[3] - p[1] > 2] == [
        (296, 52, 116),
        (296, 124, 204),
    ]
    # A caption across the middle (a full-width float) keeps the whole width.
    assert caption_parts((100.0, 40.0, 500.0, 200.0), [(250.0, 40.0, 360.0, 48.0)], 612.0) == [
        (100.0, 48.0, 500.0, 200.0),
    ]
    assert caption_parts((100.0, 40.0, 500.0, 200.0), [], 612.0) == [(100.0, 40.0, 500.0, 200.0)]


def test_the_other_columns_prose_does_not_split_a_tables_rules() -> None:
    rules = [(60.0, 60.0, 300.0), (60.0, 62.5, 300.0), (60.0, 133.0, 300.0), (60.0, 135.5, 300.0)]
    lines = [
        ((60.0, 46.0, 300.0, 54.0), "Table 3 Table at full column width"),
        ((70.0, 67.0, 290.0, 77.0), "Xz Xc Xm"),
        ((70.0, 90.0, 290.0, 100.0), "3.92 5.70 6.32"),
        ((70.0, 119.0, 290.0, 131.0), "400.2 462.1 371.0"),
        # The right column's prose on the same baselines as the rules.
        ((312.0, 56.0, 552.0, 66.0), "superscripts font numbers and letters for use in footnote"),
        ((312.0, 100.0, 552.0, 110.0), "corresponding author mark in the author block will not"),
        # A section heading under the bottom rule.
        ((60.0, 152.0, 235.0, 167.0), "7 Additional Options"),
    ]
    (region,) = rule_bounded_regions(rules, lines, 792.0)
    assert region[1] < 60 and 135 < region[3] < 150


def test_without_a_caption_the_other_columns_prose_still_splits_the_rules() -> None:
    # A statement's sub-total rules in the right column, prose in the left
    # one beside them: nothing says the blocks across the prose are one table.
    rules = [(300.0, y, 551.0) for y in (140.0, 265.0, 375.0, 485.0)]
    lines = [((300.0, 146.0 + 11 * i, 551.0, 153.0 + 11 * i), "Purchases 20 80") for i in range(30)]
    lines += [
        ((27.0, 200.0, 276.0, 210.0), "The table below presents a summary of the changes in fair"),
        ((27.0, 320.0, 276.0, 330.0), "in level 3 in its entirety if it has at least one input"),
        ((27.0, 430.0, 276.0, 440.0), "offset by gains or losses attributable to level 1 inputs"),
    ]
    regions = rule_bounded_regions(rules, lines, 774.0)
    assert all(r[3] - r[1] < 130 for r in regions)


def test_caption_match_skips_only_text_no_caption_kind_can_start() -> None:
    # caption_match runs CAPTION only on text opening with one of its kinds'
    # initials: every kind's first letter, either case, must be among them,
    # and no other character may fold to one of them (re folds a few letters
    # in a case-blind match, "ſ" to "s", the Kelvin sign to "k").
    import re
    import sys

    from docparse.backends.floats import CAPTION_INITIALS, caption_match
    from docparse.backends.items import CAPTION

    group = re.search(r"\(\?P<kind>([^)]*)\)", CAPTION.pattern)
    assert group is not None
    initials = {k[0] for k in group.group(1).split("|")}
    assert {c for i in initials for c in (i.lower(), i.upper())} == CAPTION_INITIALS
    folds = re.compile("[" + "".join(sorted(initials)) + "]", re.IGNORECASE)
    assert {c for c in map(chr, range(sys.maxunicode + 1)) if folds.match(c)} == CAPTION_INITIALS
    for text in ("Table 2: Results", "fig. 3. A plot", "EXHIBIT 4", "Chart 1", "The table", ""):
        m, expected = caption_match(text), CAPTION.match(text)
        assert (m and m.group(0)) == (expected and expected.group(0))


def test_a_statement_past_the_middle_stays_whole_under_a_short_caption() -> None:
    # Generated pair statement-8 (fixtures/tables_generated): the column heads
    # stand over the value columns only (no stub head), section labels and a
    # long label's first line have nothing past the middle; every row of
    # values goes on past it, so the region is one table, not the left column's.
    words: list[tuple[float, float, float, float, str]] = [
        (304.0, 248.0, 391.0, 261.0, "December 31,"),
        (434.0, 248.0, 521.0, 261.0, "December 28,"),
        (332.0, 261.0, 363.0, 273.0, "2020"),
        (462.0, 261.0, 493.0, 273.0, "2019"),
        (76.0, 277.0, 180.0, 289.0, "Non-current assets:"),
    ]
    y = 290.0
    for label, a, b in [
        ("Property", "$ 19", "$ 33"),
        ("Intangibles", "139", "437"),
        ("Total", "$ 37", "$ 1"),
        ("Current liabilities:", "", ""),
        ("Income taxes", "71", "50,500"),
        ("Deferred revenue", "86", "27"),
        ("Accrued and other", "", ""),
        ("liabilities", "76,081", "68,846"),
    ]:
        words.append((83.0, y, 170.0, y + 12, label))
        if a:
            words += [(380.0, y, 405.0, y + 12, a), (505.0, y, 535.0, y + 12, b)]
        y += 13
    caption = [(75.0, 230.0, 274.0, 243.0)]
    region = (73.0, 229.0, 538.0, y)
    parts = caption_parts(region, caption, 612.0, words)
    assert [p for p in parts if p[3] - p[1] > 2] == [(73.0, 243.0, 538.0, y)]
    # The same rows with the right page column's prose beside them: cut at the middle.
    prose = [
        (330.0 + 40 * k, 290.0 + 13 * i, 366.0 + 40 * k, 302.0 + 13 * i, word)
        for i in range(8)
        for k, word in enumerate(("the", "other", "column", "runs", "on"))
    ]
    words_beside = [w for w in words if w[0] < 300] + prose
    parts = caption_parts(region, caption, 612.0, words_beside)
    assert [p for p in parts if p[3] - p[1] > 2] == [(73.0, 243.0, 316.0, y)]
