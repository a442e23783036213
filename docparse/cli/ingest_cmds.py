"""``docparse ingest``: a whole corpus into documents and a manifest."""

from __future__ import annotations

from collections import Counter

import click

from docparse.cli.common import (
    config_option,
    exit_on_error,
    nothing_computed,
    output_folder,
    parse_options,
)
from docparse.errors import RunInterruptedError
from docparse.formats.catalog import TWIN_EXTENSIONS
from docparse.ingest import Limits, ingest


@click.command("ingest")
@click.argument("src", type=click.Path(exists=True))
@click.option(
    "-o",
    "--out",
    required=True,
    type=click.Path(),
    help="Output folder (docs/, fidelity/, manifest.jsonl).",
)
@click.option(
    "--backend",
    "-b",
    default="pymupdf",
    show_default=True,
    help="PDF backend, or 'all' for every installed one.",
)
@click.option(
    "--workers",
    "-w",
    default=1,
    show_default=True,
    type=click.IntRange(1),
    help="Worker processes (local engine) or Dask workers (LocalCluster).",
)
@click.option(
    "--twins",
    type=click.Choice(["auto", "off"]),
    default="auto",
    show_default=True,
    help="Pair x.pdf with its twin beside it ("
    + ", ".join(f"x{e}" for e in TWIN_EXTENSIONS)
    + ", the first that parses) and write fidelity summaries.",
)
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["jsonl", "parquet"]),
    default="jsonl",
    show_default=True,
)
@click.option("--timeout", default=600.0, show_default=True, help="Seconds per file.")
@click.option(
    "--memory-mb", default=4096, show_default=True, help="Private memory cap per worker (MB)."
)
@click.option("--engine", type=click.Choice(["local", "dask"]), default="local", show_default=True)
@click.option(
    "--scheduler",
    default=None,
    help="Dask scheduler address (tcp://host:8786); a LocalCluster when omitted.",
)
@click.option(
    "--progress/--no-progress", default=None, help="Progress bar (default: only on a terminal)."
)
@config_option
def ingest_cmd(
    src: str,
    out: str,
    backend: str,
    workers: int,
    twins: str,
    output_format: str,
    timeout: float,
    memory_mb: int,
    engine: str,
    scheduler: str | None,
    progress: bool | None,
    options: tuple[str, ...],
) -> None:
    """Parse every file under SRC into OUT, resumably, in isolated workers.

    A file is read when its extension is a format's (`docparse parse --help`
    lists them under --format), and, when other files use that extension
    too, its content is of that format. Other files get a `skipped` row.
    """
    counts: Counter[str] = Counter()
    written = 0
    output_folder(out)
    with exit_on_error():
        try:
            for row in ingest(
                src,
                out,
                backend=backend,
                workers=workers,
                twins=twins,  # type: ignore[arg-type]
                output_format=output_format,  # type: ignore[arg-type]
                config=parse_options(options) or None,
                limits=Limits(timeout=timeout, memory_mb=memory_mb),
                engine=engine,  # type: ignore[arg-type]
                scheduler=scheduler,
                progress=progress,
            ):
                counts[row.status] += 1
                written += row.output is not None
                if row.status == "error":
                    click.echo(f"error: {row.error_class}: {row.error_message}", err=True)
        except RunInterruptedError as stopped:
            click.echo(f"Stopped: {stopped}", err=True)
            # The shell's convention for a process ended by a signal: 128 + its number.
            raise SystemExit(128 + stopped.signum) from None
    click.echo(
        f"{sum(counts.values())} files: {counts['ok']} ok, {counts['error']} error, "
        f"{counts['skipped']} skipped; manifest: {out}/manifest.jsonl"
    )
    if counts["error"] and not written:
        nothing_computed(f"no file could be parsed ({counts['error']} failed)")


COMMANDS = [ingest_cmd]
