"""Clustering is deterministic; sampling is reproducible and respects sizes, filters, strata."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pytest

import docparse
from docparse.cluster import cluster
from docparse.errors import ConfigError, DocparseError
from docparse.features import source_set
from docparse.model import Document
from docparse.sampling import SamplingError, sample, write_jsonl


@pytest.fixture(scope="module")
def tex_doc(fixtures_dir: Path) -> Document:
    path = fixtures_dir / "research" / "arxiv-2510.22211v1" / "2510.22211v1.tex"
    return docparse.parse(path)


@pytest.fixture(scope="module")
def pmc_doc(fixtures_dir: Path) -> Document:
    path = fixtures_dir / "pmc" / "PMC3460867" / "pone.0046493.nxml"
    return docparse.parse(path)


# -- clustering ---------------------------------------------------------------------


def test_cluster_is_deterministic_with_pdfqa_cluster_count(tex_doc: Document) -> None:
    a = cluster(tex_doc)
    b = cluster(tex_doc)
    assert a == b
    n = len(a.unit_ids)
    assert a.n_clusters == max(1, n // 15)
    assert len(a.labels) == n
    assert a.labels[0] == 0  # numbered by first appearance
    assert sorted(set(a.labels)) == list(range(a.n_clusters))
    # every unit is either clustered or reported as excluded, never both
    clustered = set(a.unit_ids)
    excluded = {u for u, _ in a.excluded}
    assert clustered.isdisjoint(excluded)
    assert clustered | excluded == {u.id for u in tex_doc.units}
    assert {r for _, r in a.excluded} <= {"kind", "too_short", "too_long"}


def test_cluster_svd_filters_and_embedding(tex_doc: Document) -> None:
    svd = cluster(tex_doc, svd_components=20, n_clusters=4)
    assert svd.method.startswith("tfidf+svd") and svd.n_clusters == 4
    assert svd == cluster(tex_doc, svd_components=20, n_clusters=4)
    filtered = cluster(tex_doc, min_words=30, max_words=300)
    reasons = Counter(r for _, r in filtered.excluded)
    assert reasons["too_short"] > 0
    for uid in filtered.unit_ids:
        assert 30 <= tex_doc.unit(uid).n_words <= 300

    def embed(texts: list[str]) -> np.ndarray:
        # a toy embedding: length and digit share, enough to split units
        return np.array(
            [[len(t) / 1000, sum(c.isdigit() for c in t) / (len(t) or 1)] for t in texts]
        )

    emb = cluster(tex_doc, embed=embed, n_clusters=3)
    assert emb.method == "embedding" and emb.n_clusters <= 3
    with pytest.raises(ConfigError):
        cluster(tex_doc, embed=lambda texts: np.zeros((len(texts) + 1, 2)))
    with pytest.raises(ConfigError):
        cluster(tex_doc, n_clusters=0)


# -- sampling -----------------------------------------------------------------------


@pytest.mark.parametrize("strategy", ["proximity", "cluster", "mixed"])
def test_same_seed_same_bytes(tex_doc: Document, strategy: str, tmp_path: Path) -> None:
    a, b, c = tmp_path / "a.jsonl", tmp_path / "b.jsonl", tmp_path / "c.jsonl"
    write_jsonl(sample(tex_doc, 20, strategy, seed=7), a, doc=tex_doc)  # type: ignore[arg-type]
    write_jsonl(sample(tex_doc, 20, strategy, seed=7), b, doc=tex_doc)  # type: ignore[arg-type]
    write_jsonl(sample(tex_doc, 20, strategy, seed=8), c, doc=tex_doc)  # type: ignore[arg-type]
    assert a.read_bytes() == b.read_bytes()
    assert a.read_bytes() != c.read_bytes()
    assert len(a.read_text(encoding="utf-8").splitlines()) == 20


@pytest.mark.parametrize("strategy", ["proximity", "cluster", "mixed"])
def test_sizes_order_and_features(tex_doc: Document, strategy: str) -> None:
    samples = sample(tex_doc, 30, strategy, seed=1)  # type: ignore[arg-type]
    clusters = cluster(tex_doc).mapping()
    kinds = Counter()
    for s in samples:
        assert 5 <= len(s.unit_ids) <= 15
        assert s.seed_unit_id in s.unit_ids
        orders = [tex_doc.unit(u).order for u in s.unit_ids]
        assert orders == sorted(orders) and len(set(orders)) == len(orders)
        assert s.texts == tuple(tex_doc.unit(u).text for u in s.unit_ids)
        assert s.raw == tuple(tex_doc.unit(u).raw for u in s.unit_ids)
        assert s.features == source_set(tex_doc, s.unit_ids)
        assert all(tex_doc.unit(u).kind not in ("heading", "title") for u in s.unit_ids)
        kinds[s.strategy] += 1
        if s.strategy == "cluster":
            assert {clusters[u] for u in s.unit_ids} == {s.cluster}
        else:
            assert s.cluster is None
    if strategy == "mixed":
        assert kinds["cluster"] and kinds["proximity"]
    else:
        assert set(kinds) == {strategy}


def test_modality_filters(pmc_doc: Document) -> None:
    tables = {u.id for u in pmc_doc.units if u.kind == "table"}
    assert tables
    with_table = sample(pmc_doc, 15, "proximity", modality="table", seed=0)
    assert all(tables & set(s.unit_ids) for s in with_table)
    mixed = sample(pmc_doc, 10, "mixed", modality="mixed", seed=0)
    assert all(s.features["modality"] == "mixed" for s in mixed)
    text_only = sample(pmc_doc, 15, "mixed", modality="text", seed=0)
    assert all(not (tables & set(s.unit_ids)) for s in text_only)


def test_targets_stratify(pmc_doc: Document) -> None:
    samples = sample(pmc_doc, 12, "proximity", target={"position_bucket": "uniform"}, seed=3)
    assert Counter(s.features["position_bucket"] for s in samples) == {1: 3, 2: 3, 3: 3, 4: 3}
    samples = sample(pmc_doc, 10, "mixed", target={"modality": {"text": 0.7, "mixed": 0.3}})
    assert Counter(s.features["modality"] for s in samples) == {"text": 7, "mixed": 3}


def test_sampling_errors(tex_doc: Document, pmc_doc: Document) -> None:
    with pytest.raises(SamplingError):
        sample(tex_doc, 3, "proximity", modality="table")  # the paper has no table units
    with pytest.raises(SamplingError):
        sample(pmc_doc, 3, "proximity", target={"modality": {"table": 1.0}})  # < 5 tables
    with pytest.raises(SamplingError):
        sample(tex_doc, 3, "proximity", min_sources=200, max_sources=300)
    with pytest.raises(SamplingError):
        sample(tex_doc, 3, "random")  # type: ignore[arg-type]
    with pytest.raises(SamplingError):
        sample(tex_doc, 3, target={"answer_type": "uniform"})
    err = SamplingError("x", "y")
    assert isinstance(err, DocparseError) and isinstance(err, ValueError)


def test_jsonl_records_are_prompt_ready(tex_doc: Document, tmp_path: Path) -> None:
    import json

    out = tmp_path / "s.jsonl"
    write_jsonl(sample(tex_doc, 3, "proximity", seed=0), out, doc=tex_doc)
    rec = json.loads(out.read_text(encoding="utf-8").splitlines()[0])
    assert list(rec) == sorted(rec)
    assert [s["label"] for s in rec["sources"]] == [
        f"Source_{i + 1}" for i in range(len(rec["sources"]))
    ]
    assert sum(s["is_seed"] for s in rec["sources"]) == 1
    assert {"text", "raw", "kind", "modality", "section", "pages", "unit_id"} <= set(
        rec["sources"][0]
    )
    assert rec["features"]["num_sources"] == len(rec["sources"])
