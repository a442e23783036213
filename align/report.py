"""A self-contained HTML report of parse fidelity and retrieval fidelity.

One ``.html`` file, no external resources: styles are inline and the plots
are PNG images from matplotlib embedded as base64 ``data:`` URIs, so the
report can be mailed, attached to a CI run or opened offline.

The report is rendered from the JSON-ready summaries
(:meth:`align.fidelity.FidelityRun.summary` and
:meth:`align.retrieval.RetrievalReport.to_dict`), so a saved ``-o out.json``
can be turned into a report later with :func:`write_report`.

matplotlib is an optional dependency (``pip install docparse[report]``).
"""

from __future__ import annotations

import base64
import html
import io
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from docparse.errors import MissingDependencyError

__all__ = ["fidelity_section", "render_report", "retrieval_section", "write_report"]

_COLORS = ["#3b6ea8", "#e08a2c", "#4c9a5b", "#b5475b", "#7d5ba6", "#8c6d3f"]
_STATUS_COLORS = {
    "matched": "#4c9a5b",
    "merged": "#9cc68f",
    "split": "#e6c35c",
    "partial": "#e08a2c",
    "missing": "#b5475b",
}

_CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,Helvetica,Arial,sans-serif;margin:2em auto;
max-width:1150px;color:#222;line-height:1.45;padding:0 1em}
h1{font-size:1.6em;margin-bottom:.2em}h2{margin-top:2em;border-bottom:2px solid #ddd;
padding-bottom:.2em}h3{margin-top:1.5em}
table{border-collapse:collapse;margin:.8em 0;font-size:.92em}
th,td{border:1px solid #ddd;padding:.3em .6em;text-align:right;vertical-align:top}
th{background:#f3f5f8}td.l,th.l{text-align:left}
.muted{color:#666;font-size:.9em}.bad{color:#b5475b;font-weight:600}
.good{color:#2f7a3e;font-weight:600}img{max-width:100%;height:auto;display:block;margin:.5em 0}
details{margin:.6em 0}summary{cursor:pointer;font-weight:600}
.snippet{max-width:620px;text-align:left;font-size:.88em}
.cards{display:flex;flex-wrap:wrap;gap:.8em}.card{border:1px solid #ddd;border-radius:6px;
padding:.6em 1em;min-width:150px}.card b{font-size:1.4em;display:block}
"""


def _plt() -> Any:
    try:
        import matplotlib
    except ImportError as exc:
        raise MissingDependencyError("the HTML report", "pip install 'docparse[report]'") from exc
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _img(fig: Any, alt: str) -> str:
    """The figure as an inline base64 PNG ``<img>``; closes the figure."""
    plt = _plt()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
    plt.close(fig)
    data = base64.b64encode(buf.getvalue()).decode("ascii")
    return f'<img alt="{html.escape(alt)}" src="data:image/png;base64,{data}">'


def _fmt(value: Any, digits: int = 3) -> str:
    if value is None:
        return "–"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return html.escape(str(value))


def _e(text: Any) -> str:
    return html.escape(str(text))


# -- parse fidelity -------------------------------------------------------------

_HEADLINE = [
    ("unit_recall", "unit recall@τ", True),
    ("word_recall", "word recall", True),
    ("ned", "text NED", False),
    ("kendall_tau", "reading order (Kendall τ)", True),
    ("spurious", "spurious text", False),
]
_TABLE_HEADLINE = [
    ("recall", "table recall"),
    ("cell_f1", "cell F1"),
    ("adjacency_f1", "adjacency F1"),
    ("teds", "TEDS"),
]


def _ok_backends(summary: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    return {k: v for k, v in summary.get("backends", {}).items() if "error" not in v}


def _backend_bars(backends: Mapping[str, Mapping[str, Any]]) -> str:
    plt = _plt()
    labels = [
        "unit recall",
        "word recall",
        "1 − NED",
        "Kendall τ",
        "1 − spurious",
        "table recall",
        "cell F1",
        "adjacency F1",
        "TEDS",
    ]

    def values(s: Mapping[str, Any]) -> list[float]:
        t = s.get("tables", {})
        raw = [
            s.get("unit_recall"),
            s.get("word_recall"),
            None if s.get("ned") is None else 1 - s["ned"],
            s.get("kendall_tau"),
            None if s.get("spurious") is None else 1 - s["spurious"],
            t.get("recall"),
            t.get("cell_f1"),
            t.get("adjacency_f1"),
            t.get("teds"),
        ]
        return [float("nan") if v is None else float(v) for v in raw]

    table = {name: values(s) for name, s in backends.items()}
    # Drop the table metrics when the twin has no tables (all NaN).
    keep = [i for i in range(len(labels)) if any(v[i] == v[i] for v in table.values())]
    labels = [labels[i] for i in keep]
    n = max(1, len(backends))
    width = 0.8 / n
    fig, ax = plt.subplots(figsize=(10.5, 3.6))
    for i, name in enumerate(backends):
        xs = [x + (i - (n - 1) / 2) * width for x in range(len(labels))]
        vals = [table[name][k] for k in keep]
        ax.bar(xs, vals, width, label=name, color=_COLORS[i % len(_COLORS)])
        for x, v in zip(xs, vals, strict=True):
            if v == v:  # not NaN
                ax.text(x, v + 0.01, f"{v:.2f}", ha="center", va="bottom", fontsize=7)
    ax.set_xticks(range(len(labels)), labels, fontsize=9)
    ax.set_ylim(0, 1.1)
    ax.set_ylabel("higher is better")
    ax.legend(loc="lower right", bbox_to_anchor=(1, 1), fontsize=8, ncols=n, frameon=False)
    ax.spines[["top", "right"]].set_visible(False)
    return _img(fig, "per-backend scores")


def _status_bars(backends: Mapping[str, Mapping[str, Any]]) -> str:
    plt = _plt()
    names = list(backends)
    fig, ax = plt.subplots(figsize=(10.5, 0.55 * len(names) + 0.9))
    left = [0.0] * len(names)
    for status, color in _STATUS_COLORS.items():
        vals = []
        for name in names:
            st = backends[name].get("statuses", {})
            total = sum(st.values()) or 1
            vals.append(st.get(status, 0) / total)
        ax.barh(names, vals, left=left, color=color, label=status)
        left = [a + b for a, b in zip(left, vals, strict=True)]
    ax.set_xlim(0, 1)
    ax.set_xlabel("share of twin units")
    ax.invert_yaxis()
    ax.legend(ncols=5, fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.35 - 0.05))
    ax.spines[["top", "right"]].set_visible(False)
    return _img(fig, "unit statuses per backend")


def _page_map(backends: Mapping[str, Mapping[str, Any]]) -> str | None:
    plt = _plt()
    import numpy as np

    pages = sorted({p["page"] for s in backends.values() for p in s.get("pages", [])})
    if not pages:
        return None
    names = list(backends)
    col = {p: i for i, p in enumerate(pages)}
    grid = np.full((len(names), len(pages)), np.nan)
    for r, name in enumerate(names):
        for p in backends[name].get("pages", []):
            grid[r, col[p["page"]]] = p["loss"]
    fig, ax = plt.subplots(figsize=(10.5, 0.5 * len(names) + 1.3))
    cmap = plt.get_cmap("Reds").with_extremes(bad="#eeeeee")
    im = ax.imshow(grid, aspect="auto", cmap=cmap, vmin=0, vmax=1, interpolation="nearest")
    ax.set_yticks(range(len(names)), names)
    step = max(1, len(pages) // 25)
    ax.set_xticks(range(0, len(pages), step), [str(pages[i]) for i in range(0, len(pages), step)])
    ax.set_xlabel("PDF page")
    fig.colorbar(im, ax=ax, label="share of twin words lost", fraction=0.025, pad=0.01)
    return _img(fig, "per-page loss map")


def _dimension_bars(
    backends: Mapping[str, Mapping[str, Any]], dimension: str, max_groups: int = 14
) -> str | None:
    plt = _plt()
    first = next(iter(backends.values()), {})
    groups = first.get("breakdown", {}).get(dimension, {})
    if len(groups) < 2:
        return None  # one group says nothing the headline figures do not
    keys = list(groups)
    if len(keys) > max_groups:
        keys = sorted(keys, key=lambda k: -groups[k]["words"])[:max_groups]
        keys = [k for k in groups if k in keys]  # keep document order
    n = len(backends)
    width = 0.8 / max(1, n)
    fig, ax = plt.subplots(figsize=(10.5, 3.2))
    for i, (name, s) in enumerate(backends.items()):
        b = s.get("breakdown", {}).get(dimension, {})
        vals = [b.get(k, {}).get("unit_recall", float("nan")) for k in keys]
        xs = [x + (i - (n - 1) / 2) * width for x in range(len(keys))]
        ax.bar(xs, vals, width, label=name, color=_COLORS[i % len(_COLORS)])
    labels = [(k if len(k) <= 22 else k[:21] + "…") for k in keys]
    if dimension == "position_bucket":
        labels = [f"Q{k}" for k in keys]
    ax.set_xticks(range(len(keys)), labels, rotation=30 if len(keys) > 5 else 0, ha="right")
    ax.set_ylim(0, 1.05)
    ax.set_ylabel("unit recall")
    ax.set_title(f"by {dimension.replace('_', ' ')}", fontsize=10)
    ax.legend(loc="lower right", bbox_to_anchor=(1, 1), fontsize=8, ncols=n, frameon=False)
    ax.spines[["top", "right"]].set_visible(False)
    return _img(fig, f"unit recall by {dimension}")


def _score_table(summary: Mapping[str, Any]) -> str:
    rows = []
    head = "".join(f"<th>{_e(label)}</th>" for _, label, _ in _HEADLINE)
    head += "".join(f"<th>{_e(label)}</th>" for _, label in _TABLE_HEADLINE)
    for name, s in summary.get("backends", {}).items():
        if "error" in s:
            rows.append(
                f'<tr><td class="l">{_e(name)}</td><td class="l bad" colspan="9">'
                f"failed: {_e(s['error'])}</td><td>{_fmt(s.get('seconds'), 1)}</td></tr>"
            )
            continue
        cells = "".join(f"<td>{_fmt(s.get(key))}</td>" for key, _, _ in _HEADLINE)
        t = s.get("tables", {})
        cells += "".join(f"<td>{_fmt(t.get(key))}</td>" for key, _ in _TABLE_HEADLINE)
        rows.append(
            f'<tr><td class="l">{_e(name)}</td>{cells}<td>{_fmt(s.get("seconds"), 1)}</td></tr>'
        )
    return (
        f'<table><tr><th class="l">backend</th>{head}<th>seconds</th></tr>{"".join(rows)}</table>'
    )


def _lost_units(name: str, s: Mapping[str, Any]) -> str:
    lost = s.get("lost_units", [])
    if not lost:
        return ""
    rows = "".join(
        f'<tr><td class="l">{_e(u["status"])}</td><td>{_fmt(u["similarity"], 2)}</td>'
        f'<td class="l">{_e(u["kind"])}</td><td class="l">{_e(u["section"])}</td>'
        f"<td>{_e(', '.join(map(str, u['pages'])) or '–')}</td>"
        f'<td class="snippet">{_e(u["text"])}</td></tr>'
        for u in lost
    )
    return (
        f"<details><summary>{_e(name)}: the {len(lost)} twin units that lost most</summary>"
        '<table><tr><th class="l">status</th><th>similarity</th><th class="l">kind</th>'
        '<th class="l">section</th><th>pages</th><th class="l">twin text</th></tr>'
        f"{rows}</table></details>"
    )


def fidelity_section(summary: Mapping[str, Any]) -> str:
    """HTML of the parse-fidelity part (from :meth:`FidelityRun.summary`)."""
    ok = _ok_backends(summary)
    threshold = summary.get("threshold", 0.9)
    parts = [
        "<h2>Parse fidelity: twin vs PDF</h2>",
        f'<p class="muted">twin <code>{_e(summary.get("twin"))}</code>, PDF '
        f"<code>{_e(summary.get('pdf'))}</code>. Unit recall is the share of twin units "
        f"with at least {threshold:.0%} of their words found in the parse; NED is edits over "
        "length on comparison words (lower is better); spurious text is the share of parsed "
        "words absent from the twin. TeX math is left out of the comparison.</p>",
        _score_table(summary),
    ]
    if ok:
        parts += [
            "<h3>Backends at a glance</h3>",
            _backend_bars(ok),
            "<h3>What happened to the twin units</h3>",
            _status_bars(ok),
        ]
        page_map = _page_map(ok)
        if page_map:
            parts += [
                "<h3>Where text was lost</h3>",
                '<p class="muted">Per PDF page, the share of the twin words that belong there '
                "and were not found (grey: no text expected).</p>",
                page_map,
            ]
        parts.append("<h3>Breakdowns</h3>")
        for dim in ("position_bucket", "kind", "section", "modality"):
            img = _dimension_bars(ok, dim)
            if img:
                parts.append(img)
        parts.append("<h3>Lost text</h3>")
        parts += [_lost_units(name, s) for name, s in ok.items()]
    return "\n".join(parts)


# -- retrieval fidelity ---------------------------------------------------------


def _rank_curves(reports: Sequence[tuple[str, Mapping[str, Any]]]) -> str:
    plt = _plt()
    fig, axes = plt.subplots(1, 3, figsize=(10.5, 3.0), sharey=True)
    for ax, metric in zip(axes, ("hit", "recall", "mrr"), strict=True):
        for i, (label, s) in enumerate(reports):
            ks = [int(k) for k in s.get(metric, {})]
            vals = [s[metric][str(k)] for k in ks]
            vals = [float("nan") if v is None else v for v in vals]
            ax.plot(ks, vals, marker="o", label=label, color=_COLORS[i % len(_COLORS)])
        ax.set_title(f"{metric}@k", fontsize=10)
        ax.set_xlabel("k")
        ax.set_ylim(0, 1.05)
        ax.spines[["top", "right"]].set_visible(False)
    axes[0].legend(fontsize=8)
    return _img(fig, "hit, recall and MRR at k")


def _evidence_bars(reports: Sequence[tuple[str, Mapping[str, Any]]]) -> str:
    plt = _plt()
    labels = [
        "evidence\nlocated",
        "split over\nchunks",
        "Evidence-F1\n(strings)",
        "Evidence-F1\n(chunk ids)",
        "attribution\nprecision",
        "attribution\nrecall",
        "attribution\nF1",
    ]
    n = len(reports)
    width = 0.8 / max(1, n)
    fig, ax = plt.subplots(figsize=(10.5, 3.2))
    for i, (label, s) in enumerate(reports):
        att = s.get("attribution", {})
        vals = [
            s.get("located_share"),
            s.get("split_share"),
            s.get("evidence_f1"),
            s.get("evidence_f1_ids"),
            att.get("precision"),
            att.get("recall"),
            att.get("f1"),
        ]
        ys = [float("nan") if v is None else float(v) for v in vals]
        xs = [x + (i - (n - 1) / 2) * width for x in range(len(labels))]
        ax.bar(xs, ys, width, label=label, color=_COLORS[i % len(_COLORS)])
        for x, y in zip(xs, ys, strict=True):
            if y == y:
                ax.text(x, y + 0.01, f"{y:.2f}", ha="center", va="bottom", fontsize=7)
    ax.set_xticks(range(len(labels)), labels, fontsize=8)
    ax.set_ylim(0, 1.1)
    ax.legend(fontsize=8)
    ax.spines[["top", "right"]].set_visible(False)
    return _img(fig, "evidence and attribution scores")


def _misses(label: str, s: Mapping[str, Any], limit: int = 40) -> str:
    records = s.get("per_record", [])
    missed = [
        r
        for r in records
        if r.get("evidence_chunks") and (r.get("first_rank") is None or r["first_rank"] > 5)
    ]
    if not missed:
        return ""
    rows = "".join(
        f'<tr><td class="l">{_e(r["doc"])}</td><td class="snippet">{_e(r["question"])}</td>'
        f"<td>{_e(r['first_rank'] if r['first_rank'] is not None else 'not found')}</td>"
        f"<td>{sum(1 for e in r['evidence_chunks'] if not e)}/{len(r['evidence_chunks'])}</td>"
        "</tr>"
        for r in missed[:limit]
    )
    return (
        f"<details><summary>{_e(label)}: {len(missed)} questions whose evidence is not in the "
        'top 5</summary><table><tr><th class="l">document</th><th class="l">question</th>'
        "<th>first gold rank</th><th>evidence not located</th></tr>"
        f"{rows}</table></details>"
    )


def retrieval_section(reports: Sequence[tuple[str, Mapping[str, Any]]]) -> str:
    """HTML of the retrieval part; ``reports`` are (label, ``RetrievalReport.to_dict()``)."""
    cards = []
    for label, s in reports:
        hit = s.get("hit", {})
        first_k = next(iter(hit), None)
        cards.append(
            f'<div class="card">{_e(label)}<b>{_fmt(hit.get(first_k), 2)}</b>'
            f'<span class="muted">hit@{_e(first_k)} over {_e(s.get("with_evidence"))} '
            f"questions; evidence located {_fmt(s.get('located_share'), 2)}, split "
            f"{_fmt(s.get('split_share'), 2)}</span></div>"
        )
    parts = [
        "<h2>Retrieval fidelity</h2>",
        '<p class="muted">Gold chunks are the chunks each gold evidence string is located in. '
        "recall@k counts evidence pieces whose chunks are all in the top k; evidence that "
        "cannot be located in the chunks counts as not retrieved. Evidence-F1 follows QASPER "
        "(max over annotators; strings compared exactly, or chunk ids); attribution follows "
        "GaRAGe (cited passages against gold).</p>",
        f'<div class="cards">{"".join(cards)}</div>',
        _rank_curves(reports),
        _evidence_bars(reports),
    ]
    parts += [_misses(label, s) for label, s in reports]
    return "\n".join(parts)


# -- the page -------------------------------------------------------------------


def render_report(
    *,
    fidelity: Mapping[str, Any] | None = None,
    retrieval: Sequence[tuple[str, Mapping[str, Any]]] | None = None,
    title: str = "docparse fidelity report",
) -> str:
    """The whole report as one HTML string."""
    body = [f"<h1>{_e(title)}</h1>"]
    if fidelity is not None:
        body.append(fidelity_section(fidelity))
    if retrieval:
        body.append(retrieval_section(retrieval))
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{_e(title)}</title><style>{_CSS}</style></head><body>"
        + "\n".join(body)
        + '<p class="muted">Generated by docparse.</p></body></html>\n'
    )


def write_report(
    path: str | Path,
    *,
    fidelity: Mapping[str, Any] | None = None,
    retrieval: Sequence[tuple[str, Mapping[str, Any]]] | None = None,
    title: str = "docparse fidelity report",
) -> Path:
    """Write :func:`render_report` to ``path`` (UTF-8) and return the path."""
    out = Path(path)
    out.write_text(
        render_report(fidelity=fidelity, retrieval=retrieval, title=title), encoding="utf-8"
    )
    return out
