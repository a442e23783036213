"""benchmarks.table_pairs: the generator is seeded, and its failure classes name what differs."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.table_pairs import failure_classes
from benchmarks.table_pairs_html import FAMILIES, generate
from benchmarks.table_pairs_tex import TEX_FAMILIES, generate_tex
from docparse.model import Table

PAIRS = Path(__file__).resolve().parents[2] / "fixtures" / "tables_generated"


@pytest.mark.parametrize(
    "path", sorted([*PAIRS.glob("*.htm"), *PAIRS.glob("*.tex")]), ids=lambda p: p.stem
)
def test_committed_pairs_are_what_their_seed_generates(path: Path) -> None:
    family, seed = path.stem.rsplit("-", 1)
    if not seed.isdecimal():
        # A pair written by hand for one test says so in SOURCE.txt; it has no seed.
        source = (PAIRS / "SOURCE.txt").read_text(encoding="utf-8")
        assert f"{path.stem}: written by hand" in source
        return
    make = generate_tex if path.suffix == ".tex" else generate
    assert make(family, int(seed)) == path.read_text(encoding="utf-8")


def test_every_family_generates_a_table_with_prose() -> None:
    for family in FAMILIES:
        text = generate(family, 7)
        assert "<table" in text and "<p>" in text
        assert text == generate(family, 7)
    assert generate("statement", 1) != generate("statement", 2)
    for family in TEX_FAMILIES:
        text = generate_tex(family, 7)
        env = "longtable" if family.startswith("texlong") else "tabular"
        assert rf"\begin{{{env}}}" in text and r"\toprule" in text
        assert text == generate_tex(family, 7)


def test_failure_classes() -> None:
    gold = Table(rows=(("", "2023"), ("Revenue", "$5"), ("Cost", "(3)")), n_header_rows=1)
    cut = Table(rows=(("Revenue", "$5"),), n_header_rows=0)
    assert failure_classes(gold, gold, True, [1]) == []
    assert failure_classes(gold, None, False, []) == ["missed"]
    assert failure_classes(gold, cut, True, [1, 2]) == [
        "split across pages",
        "rows fewer",
        "header rows",
    ]
