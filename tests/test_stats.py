"""corpus_stats figures."""

from __future__ import annotations

from pathlib import Path

import pytest

import docparse
from docparse.stats import corpus_stats


@pytest.fixture(scope="module")
def docs(fixtures_dir: Path) -> list[docparse.Document]:
    return [
        docparse.parse(fixtures_dir / "research/quantum-template/quantum-template.tex"),
        docparse.parse(fixtures_dir / "pmc/PMC3460867/pone.0046493.nxml"),
    ]


def test_corpus_stats_totals_add_up(docs: list[docparse.Document]) -> None:
    s = corpus_stats(docs)
    assert s["documents"] == 2
    assert s["words"] == sum(d.n_words for d in docs)
    assert s["tokens"] == sum(d.n_tokens for d in docs)
    assert s["units"] == sum(len(d.units) for d in docs)
    assert sum(s["units_by_kind"].values()) == s["units"]
    assert set(s["by_format"]) == {"tex", "jats"}
    for fmt, f in s["by_format"].items():
        rows = [r for r in s["rows"] if r["format"] == fmt]
        assert f["documents"] == len(rows)
        assert f["words"] == sum(r["words"] for r in rows)
        assert f["tokens_mean"] == f["tokens"] / f["documents"]
    jats = next(r for r in s["rows"] if r["format"] == "jats")
    assert jats["tables"] == sum(1 for u in docs[1].units if u.kind == "table") > 0
    assert corpus_stats([])["documents"] == 0
