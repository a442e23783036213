"""Seed-and-sources samples for QA generation (pdfQA Appendix C), reproducible.

For each sample a seed unit is drawn and 5-15 sources are gathered around it:

``proximity``
    a window of consecutive pool units in document order holding the seed
    (the seed's place in the window is random);
``cluster``
    the seed plus other units of the seed's cluster (:func:`docparse.cluster`),
    drawn at random and put in document order;
``mixed``
    each sample picks ``proximity`` or ``cluster`` with the seeded generator.

The *pool* is the units a source can be: by default every unit whose kind is
in :data:`docparse.cluster.DEFAULT_KINDS` (no titles, headings or furniture).
The number of sources (seed included) is drawn uniformly in
``[min_sources, max_sources]`` and capped by what the pool or cluster holds;
a sample never has fewer than ``min_sources``.

Filters and strata
------------------
``modality="table"`` keeps samples with at least one table among the sources
(the seed is then a table); ``"text"`` samples have no table (tables leave the
pool); ``"mixed"`` samples have at least one table and one text source.
``target`` stratifies: ``{"position_bucket": "uniform"}`` spreads the samples
evenly over the four quartiles of the majority source position,
``{"modality": {"table": 0.3, "text": 0.5, "mixed": 0.2}}`` sets modality
shares; several keys combine. Shares become exact counts (largest remainder)
in a shuffled order; each sample is drawn until its features meet its stratum
(at most ``max_attempts`` draws, else :class:`SamplingError`).

Everything random comes from one ``random.Random(seed)``, so the same document,
options and seed give the same samples and the same JSONL bytes.
"""

from __future__ import annotations

import json
import random
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from docparse.cluster import DEFAULT_KINDS, Clustering
from docparse.errors import DocparseError
from docparse.features import source_set
from docparse.model import Document, SourceUnit

__all__ = ["SAMPLE_STRATEGIES", "Sample", "SamplingError", "sample", "samples_jsonl", "write_jsonl"]

SampleStrategy = Literal["proximity", "cluster", "mixed"]
SAMPLE_STRATEGIES: tuple[str, ...] = ("proximity", "cluster", "mixed")
MODALITIES: tuple[str, ...] = ("text", "table", "mixed")
TARGET_KEYS: tuple[str, ...] = ("position_bucket", "modality")


class SamplingError(DocparseError, ValueError):
    """The document cannot give the requested samples (pool too small, target unreachable)."""


@dataclass(frozen=True, slots=True)
class Sample:
    """One seed with its sources, ready for a QA-generation prompt.

    ``unit_ids`` (seed included) are in document order; ``texts`` and ``raw``
    are parallel to them. ``features`` is :func:`docparse.features.source_set`
    of the sources (docparse columns). ``cluster`` is the seed's cluster for
    cluster samples.

    Example record (``to_dict``)::

        {"index": 0, "doc_id": "3f2a9c1d0e4b5a6f", "source_path": "paper.tex",
         "strategy": "proximity", "seed_unit_id": "3f2a...:00012:9be1c2d3",
         "cluster": null, "features": {"num_sources": 7, "spread_words": 412, ...},
         "sources": [{"label": "Source_1", "unit_id": "3f2a...:00010:...",
                      "kind": "paragraph", "modality": "text", "section": ["Intro"],
                      "pages": [], "is_seed": false, "text": "...", "raw": "..."}, ...]}
    """

    index: int
    doc_id: str
    source_path: str
    strategy: str
    seed_unit_id: str
    unit_ids: tuple[str, ...]
    texts: tuple[str, ...]
    raw: tuple[str, ...]
    features: dict[str, Any] = field(default_factory=dict)
    cluster: int | None = None

    def to_dict(self, doc: Document | None = None) -> dict[str, Any]:
        """JSON-ready dict; with ``doc`` the sources also carry kind, modality, section, pages."""
        units = {u.id: u for u in doc.units} if doc is not None else {}
        sources = []
        for i, (uid, text, raw) in enumerate(zip(self.unit_ids, self.texts, self.raw, strict=True)):
            entry: dict[str, Any] = {
                "label": f"Source_{i + 1}",
                "unit_id": uid,
                "is_seed": uid == self.seed_unit_id,
                "text": text,
                "raw": raw,
            }
            u = units.get(uid)
            if u is not None:
                entry.update(
                    kind=u.kind, modality=u.modality, section=list(u.section), pages=list(u.pages)
                )
            sources.append(entry)
        return {
            "index": self.index,
            "doc_id": self.doc_id,
            "source_path": self.source_path,
            "strategy": self.strategy,
            "seed_unit_id": self.seed_unit_id,
            "cluster": self.cluster,
            "features": dict(self.features),
            "sources": sources,
        }


def samples_jsonl(samples: Iterable[Sample], *, doc: Document | None = None) -> str:
    """Samples as JSONL text (sorted keys, ``\\n`` line ends), as :func:`write_jsonl` writes it."""
    return "".join(
        json.dumps(s.to_dict(doc), sort_keys=True, ensure_ascii=False) + "\n" for s in samples
    )


def write_jsonl(samples: Iterable[Sample], path: str | Path, *, doc: Document | None = None) -> int:
    """Write samples as JSONL (sorted keys, UTF-8, ``\\n`` line ends); returns the count.

    The bytes depend only on the samples (and ``doc``), so the same seed gives
    the same file.
    """
    samples = list(samples)
    Path(path).write_bytes(samples_jsonl(samples, doc=doc).encode("utf-8"))
    return len(samples)


# -- helpers -----------------------------------------------------------------------


def _quota(values: Sequence[Any], shares: Sequence[float], n: int) -> list[Any]:
    """``n`` values with the given shares (largest-remainder rounding), in value order."""
    total = float(sum(shares))
    if total <= 0 or any(s < 0 for s in shares):
        raise ValueError("target shares must be non-negative and not all zero")
    exact = [n * s / total for s in shares]
    counts = [int(x) for x in exact]
    order = sorted(range(len(values)), key=lambda i: (-(exact[i] - counts[i]), i))
    for i in order[: n - sum(counts)]:
        counts[i] += 1
    return [v for v, c in zip(values, counts, strict=True) for _ in range(c)]


def _target_plan(
    target: Mapping[str, Any] | None, n: int, rng: random.Random, path: str
) -> list[dict[str, Any]]:
    plans: list[dict[str, Any]] = [{} for _ in range(n)]
    if not target:
        return plans
    for key, spec in target.items():
        if key not in TARGET_KEYS:
            raise SamplingError(path, f"unknown target {key!r}; use one of {TARGET_KEYS}")
        values: tuple[Any, ...] = (1, 2, 3, 4) if key == "position_bucket" else MODALITIES
        if spec == "uniform":
            shares = [1.0] * len(values)
        elif isinstance(spec, Mapping):
            unknown = [v for v in spec if v not in values]
            if unknown:
                raise SamplingError(path, f"target {key}: unknown values {unknown}; use {values}")
            shares = [float(spec.get(v, 0.0)) for v in values]
        else:
            raise SamplingError(path, f"target {key}: use 'uniform' or a mapping of shares")
        try:
            assigned = _quota(values, shares, n)
        except ValueError as exc:
            raise SamplingError(path, f"target {key}: {exc}", cause=exc) from exc
        rng.shuffle(assigned)
        for plan, value in zip(plans, assigned, strict=True):
            plan[key] = value
    return plans


def _meets(features: Mapping[str, Any], modality: str | None, plan: Mapping[str, Any]) -> bool:
    mod = features["modality"]
    if modality == "table" and mod == "text":
        return False
    if modality == "text" and mod != "text":
        return False
    if modality == "mixed" and mod != "mixed":
        return False
    if "modality" in plan and mod != plan["modality"]:
        return False
    return not (
        "position_bucket" in plan and features["position_bucket"] != plan["position_bucket"]
    )


# -- sampling ----------------------------------------------------------------------


def sample(
    doc: Document,
    n: int,
    strategy: SampleStrategy = "proximity",
    *,
    min_sources: int = 5,
    max_sources: int = 15,
    modality: str | None = None,
    seed: int = 0,
    target: Mapping[str, Any] | None = None,
    kinds: Collection[str] = DEFAULT_KINDS,
    clustering: Clustering | None = None,
    cluster_options: Mapping[str, Any] | None = None,
    max_attempts: int = 200,
) -> list[Sample]:
    """``n`` reproducible samples of a seed unit plus sources (see the module doc).

    ``clustering`` reuses a :class:`~docparse.cluster.Clustering`; otherwise
    ``cluster`` and ``mixed`` run :func:`docparse.cluster` with
    ``cluster_options`` (same ``kinds``). ``modality`` is ``None``, ``"text"``,
    ``"table"`` or ``"mixed"``. Raises :class:`SamplingError` when the pool
    has fewer than ``min_sources`` units or a filter/target cannot be met.
    """
    path = doc.source_path
    if strategy not in SAMPLE_STRATEGIES:
        raise SamplingError(path, f"unknown strategy {strategy!r}; use one of {SAMPLE_STRATEGIES}")
    if not 1 <= min_sources <= max_sources:
        raise SamplingError(
            path, f"need 1 <= min_sources <= max_sources, got {min_sources}, {max_sources}"
        )
    if modality is not None and modality not in MODALITIES:
        raise SamplingError(path, f"unknown modality {modality!r}; use one of {MODALITIES}")
    if n < 0:
        raise SamplingError(path, f"n must be >= 0, got {n}")
    rng = random.Random(seed)
    pool = [u for u in doc.units if u.kind in kinds]
    if modality == "text":
        pool = [u for u in pool if u.modality != "table"]
    if len(pool) < min_sources:
        raise SamplingError(
            path, f"only {len(pool)} units can be sources; min_sources is {min_sources}"
        )
    labels: dict[str, int] = {}
    if strategy != "proximity":
        if clustering is None:
            from docparse.cluster import cluster

            clustering = cluster(doc, kinds=kinds, **dict(cluster_options or {}))
        labels = clustering.mapping()
    plans = _target_plan(target, n, rng, path)
    out: list[Sample] = []
    for index, plan in enumerate(plans):
        out.append(
            _draw(
                doc,
                index,
                strategy,
                pool,
                labels,
                rng,
                plan,
                modality,
                min_sources,
                max_sources,
                max_attempts,
            )
        )
    return out


def _draw(
    doc: Document,
    index: int,
    strategy: str,
    pool: list[SourceUnit],
    labels: Mapping[str, int],
    rng: random.Random,
    plan: Mapping[str, Any],
    modality: str | None,
    min_sources: int,
    max_sources: int,
    max_attempts: int,
) -> Sample:
    want_mod = plan.get("modality")
    # Constructive choices make most strata hit on the first draw: an all-table
    # stratum draws from tables only, a text stratum from text only, a table
    # or mixed one starts from a table seed.
    units = pool
    if want_mod == "table":
        units = [u for u in pool if u.modality == "table"]
    elif want_mod == "text" or modality == "text":
        units = [u for u in pool if u.modality == "text"]
    seeds = units
    if modality in ("table", "mixed") or want_mod in ("table", "mixed"):
        seeds = [u for u in units if u.modality == "table"]
    if "position_bucket" in plan:
        seeds = [u for u in seeds if u.position_bucket == plan["position_bucket"]] or seeds
    if len(units) < min_sources or not seeds:
        raise SamplingError(
            doc.source_path,
            f"sample {index}: the pool cannot meet modality={modality!r} / target {dict(plan)}",
        )
    for _ in range(max_attempts):
        kind = rng.choice(("proximity", "cluster")) if strategy == "mixed" else strategy
        seed_unit = rng.choice(seeds)
        size = rng.randint(min_sources, max_sources)
        chosen: list[SourceUnit] | None
        label: int | None = None
        if kind == "cluster":
            label = labels.get(seed_unit.id)
            members = [u for u in units if label is not None and labels.get(u.id) == label]
            if len(members) < min_sources:
                if strategy == "cluster":
                    continue  # seed in a small (or no) cluster: draw another
                kind, label = "proximity", None  # mixed: fall back, recorded in `strategy`
                chosen = _window(units, seed_unit, size, rng)
            else:
                others = [u for u in members if u.id != seed_unit.id]
                picked = rng.sample(others, min(size, len(members)) - 1)
                chosen = sorted([seed_unit, *picked], key=lambda u: u.order)
        else:
            chosen = _window(units, seed_unit, size, rng)
        ids = [u.id for u in chosen]
        features = source_set(doc, ids)
        if _meets(features, modality, plan):
            return Sample(
                index=index,
                doc_id=doc.doc_id,
                source_path=doc.source_path,
                strategy=kind,
                seed_unit_id=seed_unit.id,
                unit_ids=tuple(ids),
                texts=tuple(u.text for u in chosen),
                raw=tuple(u.raw for u in chosen),
                features=features,
                cluster=label,
            )
    raise SamplingError(
        doc.source_path,
        f"sample {index}: no draw met modality={modality!r} / target {dict(plan)} "
        f"in {max_attempts} attempts",
    )


def _window(
    units: list[SourceUnit], seed_unit: SourceUnit, size: int, rng: random.Random
) -> list[SourceUnit]:
    """``size`` consecutive units (document order) holding the seed at a random place."""
    size = min(size, len(units))
    pos = units.index(seed_unit)
    start = pos - rng.randint(0, size - 1)
    start = max(0, min(start, len(units) - size))
    return units[start : start + size]
