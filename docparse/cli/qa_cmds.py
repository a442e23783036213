"""``docparse chunk``, ``docparse sample`` and ``docparse stats``: QA-generation preprocessing."""

from __future__ import annotations

import json
from typing import Any, cast

import click

from docparse.cli.common import (
    ParsedFiles,
    backend_option,
    check_output,
    config_option,
    exit_on_error,
    format_option,
    load_document,
    output_file,
    parse_options,
)
from docparse.errors import DocparseError


@click.command("chunk")
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@click.option(
    "--strategy",
    type=click.Choice(("sentence", "unit", "section")),
    default="sentence",
    show_default=True,
    help="sentence: LlamaIndex-parity SentenceSplitter over the document text; "
    "unit: one chunk per unit; section: units of a section merged.",
)
@click.option(
    "--chunk-size",
    type=int,
    default=400,
    show_default=True,
    help="Token budget (cl100k) per chunk.",
)
@click.option(
    "--chunk-overlap",
    type=int,
    default=0,
    show_default=True,
    help="Token overlap (sentence strategy only).",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(),
    default=None,
    help="Write JSONL chunks here; stdout if omitted.",
)
@backend_option
@format_option
@config_option
def chunk_cmd(
    path: str,
    strategy: str,
    chunk_size: int,
    chunk_overlap: int,
    output: str | None,
    backend: str | None,
    fmt: str | None,
    options: tuple[str, ...],
) -> None:
    """Chunk a document; one JSON chunk per line (text, unit ids, spans, pages, tokens)."""
    from docparse.chunking import chunk

    check_output(output)
    doc = load_document(path, fmt, backend, parse_options(options) or None)
    sizes: dict[str, Any]
    if strategy == "sentence":
        sizes = {"chunk_size": chunk_size, "chunk_overlap": chunk_overlap}
    else:
        sizes = {"max_tokens": chunk_size}
    try:
        chunks = chunk(doc, strategy, **sizes)
    except (DocparseError, ValueError) as exc:
        raise click.ClickException(str(exc)) from exc
    with output_file(output) as out:
        for c in chunks:
            out.write(json.dumps(c.to_dict(), ensure_ascii=False) + "\n")


@click.command("sample")
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@click.option("-n", "count", type=int, default=50, show_default=True, help="Number of samples.")
@click.option(
    "--strategy",
    type=click.Choice(("proximity", "cluster", "mixed")),
    default="mixed",
    show_default=True,
)
@click.option("--seed", type=int, default=0, show_default=True, help="Random seed.")
@click.option("--min-sources", type=int, default=5, show_default=True)
@click.option("--max-sources", type=int, default=15, show_default=True)
@click.option(
    "--modality",
    type=click.Choice(("text", "table", "mixed")),
    default=None,
    help="table: at least one table source; text: no table; mixed: both.",
)
@click.option(
    "--target",
    default=None,
    metavar="JSON",
    help='Strata, e.g. \'{"position_bucket": "uniform"}\' or '
    '\'{"modality": {"text": 0.7, "mixed": 0.3}}\'.',
)
@click.option(
    "-o",
    "--output",
    type=click.Path(),
    default=None,
    help="JSONL file to write; stdout if omitted.",
)
@backend_option
@format_option
@config_option
def sample_cmd(
    path: str,
    count: int,
    strategy: str,
    seed: int,
    min_sources: int,
    max_sources: int,
    modality: str | None,
    target: str | None,
    output: str | None,
    backend: str | None,
    fmt: str | None,
    options: tuple[str, ...],
) -> None:
    """Draw seed+sources samples for QA generation and write them as JSONL."""
    from docparse.sampling import sample, samples_jsonl

    try:
        target_spec = json.loads(target) if target else None
    except json.JSONDecodeError as exc:
        raise click.BadParameter(f"not JSON: {exc}", param_hint="--target") from exc
    check_output(output)
    doc = load_document(path, fmt, backend, parse_options(options) or None)
    with exit_on_error():
        samples = sample(
            doc,
            count,
            cast("Any", strategy),
            min_sources=min_sources,
            max_sources=max_sources,
            modality=modality,
            seed=seed,
            target=target_spec,
        )
    with output_file(output) as out:
        out.write(samples_jsonl(samples, doc=doc))
    click.echo(f"{len(samples)} samples written to {output or 'stdout'}", err=True)


@click.command("stats")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print the statistics as JSON.")
@backend_option
@format_option
@config_option
def stats_cmd(
    paths: tuple[str, ...],
    as_json: bool,
    backend: str | None,
    fmt: str | None,
    options: tuple[str, ...],
) -> None:
    """Corpus statistics: documents, units by kind, words and tokens per document type."""
    from docparse.stats import corpus_stats

    docs = ParsedFiles(paths, fmt, backend, parse_options(options) or None)
    stats = corpus_stats(list(docs))
    if as_json:
        click.echo(json.dumps(stats, indent=2, ensure_ascii=False))
    else:
        _print_stats(stats)
    if docs.failed:
        raise SystemExit(1)


def _print_stats(stats: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    console.print(
        f"documents: {stats['documents']}  units: {stats['units']}  "
        f"words: {stats['words']}  tokens: {stats['tokens']}"
    )
    by_format = Table(title="by document type")
    for col in ("format", "documents", "units", "tables", "words", "tokens", "tokens/doc"):
        by_format.add_column(col, justify="left" if col == "format" else "right")
    for fmt, f in stats["by_format"].items():
        by_format.add_row(
            fmt,
            str(f["documents"]),
            str(f["units"]),
            str(f["tables"]),
            str(f["words"]),
            str(f["tokens"]),
            f"{f['tokens_mean']:.0f}",
        )
    console.print(by_format)
    kinds = Table(title="units by kind")
    kinds.add_column("kind")
    kinds.add_column("count", justify="right")
    for kind, n in stats["units_by_kind"].items():
        kinds.add_row(kind, str(n))
    console.print(kinds)
    rows = Table(title="documents")
    for col in ("path", "format", "pages", "units", "tables", "words", "tokens"):
        rows.add_column(col, justify="left" if col in ("path", "format") else "right")
    for r in stats["rows"]:
        rows.add_row(
            r["path"],
            r["format"],
            "-" if r["pages"] is None else str(r["pages"]),
            str(r["units"]),
            str(r["tables"]),
            str(r["words"]),
            str(r["tokens"]),
        )
    console.print(rows)


COMMANDS = [chunk_cmd, sample_cmd, stats_cmd]
