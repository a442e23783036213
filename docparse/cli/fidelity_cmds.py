"""``docparse fidelity`` (twin vs PDF parse) and ``docparse retrieval`` (retrieval fidelity)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from docparse.cli.common import (
    backend_option,
    check_output,
    config_option,
    exit_on_error,
    nothing_computed,
    output_file,
    parse_options,
)
from docparse.cli.evidence_cmds import qa_format_option
from docparse.registry import PDF_BACKENDS


def _write_json(data: Any, output: str | None) -> None:
    if output:
        with output_file(output) as fh:
            fh.write(json.dumps(data, indent=1, ensure_ascii=False, default=str) + "\n")


def _console() -> Any:
    from rich.console import Console

    console = Console()
    # Piped output has no width; rich would squeeze the table into 80 columns
    # and cut its figures to "0.…" once six systems make it wide. A table is
    # only as wide as its cells, so a generous width costs nothing.
    return console if console.is_terminal else Console(width=400)


def _f(value: Any, digits: int = 3) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def print_fidelity(summary: dict[str, Any]) -> None:
    """The per-backend table of ``docparse fidelity``."""
    from rich.table import Table as RichTable

    t = summary.get("threshold", 0.9)
    table = RichTable(title=f"{Path(summary['twin']).name} vs {Path(summary['pdf']).name}")
    table.caption = (
        f"UR: unit recall@{t}, WR: word recall, tau: Kendall tau of reading order, "
        "spur: spurious text, tabs: twin tables, T-rec: table recall, "
        "adjF1: ICDAR-2013 adjacency-relation F1"
    )
    for col in (
        "backend",
        "UR",
        "WR",
        "NED",
        "tau",
        "spur",
        "tabs",
        "T-rec",
        "cellF1",
        "adjF1",
        "TEDS",
        "sec",
    ):
        table.add_column(col, justify="left" if col == "backend" else "right", no_wrap=True)
    for name, s in summary["backends"].items():
        if "error" in s:
            table.add_row(name, f"[red]failed: {s['error']}[/red]", *[""] * 9, _f(s["seconds"], 1))
            continue
        tb = s["tables"]
        table.add_row(
            name,
            _f(s["unit_recall"]),
            _f(s["word_recall"]),
            _f(s["ned"]),
            _f(s["kendall_tau"]),
            _f(s["spurious"]),
            str(tb["count"]),
            _f(tb["recall"]),
            _f(tb["cell_f1"]),
            _f(tb.get("adjacency_f1")),
            _f(tb["teds"]),
            _f(s["seconds"], 1),
        )
        if s.get("ocr_pages"):
            off = s.get("ocr_off", {})
            table.add_row(
                f"  OCR: {len(s['ocr_pages'])} page(s), {s['ocr_seconds']:.1f} CPU s; OCR off",
                _f(off.get("unit_recall")),
                _f(off.get("word_recall")),
                *[""] * 9,
            )
    _console().print(table)


@click.command("fidelity")
@click.option("--twin", required=True, type=click.Path(exists=True, dir_okay=False))
@click.option("--pdf", required=True, type=click.Path(exists=True, dir_okay=False))
@click.option(
    "--backend",
    "-b",
    default="pymupdf",
    show_default=True,
    type=click.Choice(("all", *PDF_BACKENDS)),
    help="PDF backend to score, or all of them.",
)
@click.option(
    "--parsed",
    multiple=True,
    type=click.Path(exists=True, dir_okay=False),
    help="Another system's parse of the PDF (Markdown, docling JSON, ...); repeatable. "
    "Each is scored as one more system named after its file.",
)
@click.option("--threshold", default=0.9, show_default=True, help="Similarity for unit recall.")
@click.option("-o", "--output", type=click.Path(), help="Write the JSON here.")
@click.option("--units", is_flag=True, help="Put every twin unit's projection in the JSON.")
@click.option("--html", "html_path", type=click.Path(), help="Write an HTML report.")
@config_option
def fidelity_cmd(
    twin: str,
    pdf: str,
    backend: str,
    parsed: tuple[str, ...],
    threshold: float,
    output: str | None,
    units: bool,
    html_path: str | None,
    options: tuple[str, ...],
) -> None:
    """Score PDF parses against the structured twin (LaTeX, HTML, ...) of the same document.

    Other parsers' output (``--parsed X.marker.md --parsed X.docling.json``)
    is scored in the same table. ``-O`` options go to the PDF backends. Exits
    with status 1 when every backend failed.
    """
    from align.fidelity import fidelity

    check_output(output)
    check_output(html_path)
    backends = PDF_BACKENDS if backend == "all" else (backend,)
    with exit_on_error():
        run = fidelity(
            twin,
            pdf,
            backends,
            parsed=parsed,
            threshold=threshold,
            parse_options=parse_options(options) or None,
        )
        summary = run.summary(units=units)
    print_fidelity(summary)
    _write_json(summary, output)
    if all("error" in s for s in summary["backends"].values()):
        nothing_computed(f"every backend failed on {pdf}")
    if html_path:
        from align.report import write_report

        write_report(html_path, fidelity=summary, title=f"docparse fidelity: {Path(pdf).name}")
        click.echo(f"report: {html_path}", err=True)


def print_retrieval(summary: dict[str, Any]) -> None:
    """The summary table of ``docparse retrieval``."""
    from rich.table import Table as RichTable

    console = _console()
    console.print(
        f"retriever [bold]{summary['retriever']}[/bold]: {summary['evaluated']} of "
        f"{summary['records']} questions evaluated ({summary['no_document']} without a "
        f"document), {summary['with_evidence']} with evidence; evidence located "
        f"{_f(summary['located_share'], 2)}, split over chunks {_f(summary['split_share'], 2)}, "
        f"chunks to cover it {_f(summary['chunks_needed_mean'], 2)} on average "
        f"(max {_f(summary['chunks_needed_max'])})"
    )
    ranks = RichTable(title="ranking")
    ranks.add_column("k", justify="right")
    for col in ("hit@k", "recall@k", "MRR@k"):
        ranks.add_column(col, justify="right")
    for k in summary["hit"]:
        ranks.add_row(k, _f(summary["hit"][k]), _f(summary["recall"][k]), _f(summary["mrr"][k]))
    console.print(ranks)
    att = summary["attribution"]
    console.print(
        f"Evidence-F1 (strings) {_f(summary['evidence_f1'])}  (chunk ids) "
        f"{_f(summary['evidence_f1_ids'])}   attribution P {_f(att['precision'])} "
        f"R {_f(att['recall'])} F1 {_f(att['f1'])}"
    )


@click.command("retrieval")
@click.argument("qa_file", type=click.Path(exists=True, dir_okay=False))
@click.option(
    "--docs", required=True, type=click.Path(exists=True, file_okay=False), help="Documents."
)
@click.option(
    "--chunker",
    default="sentence",
    show_default=True,
    type=click.Choice(("sentence", "unit", "section")),
)
@click.option(
    "--retriever", default="bm25", show_default=True, type=click.Choice(("bm25", "tfidf"))
)
@backend_option
@qa_format_option
@click.option(
    "--evidence-k", default=1, show_default=True, help="Top chunks taken as predicted evidence."
)
@click.option("-o", "--output", type=click.Path(), help="Write the JSON here.")
@click.option("--html", "html_path", type=click.Path(), help="Write an HTML report.")
@config_option
def retrieval_cmd(
    qa_file: str,
    docs: str,
    chunker: str,
    retriever: str,
    backend: str | None,
    qa_format: str | None,
    evidence_k: int,
    output: str | None,
    html_path: str | None,
    options: tuple[str, ...],
) -> None:
    """Retrieval fidelity of chunked documents on QA records with gold evidence.

    Exits with status 1 when no question could be evaluated (no document found).
    """
    from align.retrieval import evaluate_files

    check_output(output)
    check_output(html_path)
    with exit_on_error():
        report = evaluate_files(
            qa_file,
            docs,
            chunker=chunker,
            retriever=retriever,
            backend=backend,
            qa_format=qa_format,
            evidence_k=evidence_k,
            config=parse_options(options) or None,
        )
    data = report.to_dict()
    data["chunker"] = chunker
    data["backend"] = backend
    print_retrieval(data)
    _write_json(data, output)
    if not data["evaluated"]:
        nothing_computed(
            f"no question of {qa_file} could be evaluated: no document found in {docs}"
        )
    if html_path:
        from align.report import write_report

        label = f"{retriever} / {chunker}" + (f" / {backend}" if backend else "")
        write_report(
            html_path,
            retrieval=[(label, data)],
            title=f"docparse retrieval: {Path(qa_file).name}",
        )
        click.echo(f"report: {html_path}", err=True)


COMMANDS = [fidelity_cmd, retrieval_cmd]
