"""``docparse parse`` and ``docparse show``."""

from __future__ import annotations

import json
import logging
from collections import Counter
from typing import Any

import click

from docparse.cli.common import (
    ParsedFiles,
    backend_option,
    config_option,
    format_option,
    load_document,
    output_file,
    parse_options,
)
from docparse.model import Document

log = logging.getLogger("docparse")


@click.command("parse")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False))
@click.option(
    "-o",
    "--output",
    type=click.Path(),
    default=None,
    help="Write JSONL here (one document per line); stdout if omitted.",
)
@backend_option
@format_option
@config_option
def parse_cmd(
    paths: tuple[str, ...],
    output: str | None,
    backend: str | None,
    fmt: str | None,
    options: tuple[str, ...],
) -> None:
    """Parse files into documents, one JSON document per line."""
    docs = ParsedFiles(paths, fmt, backend, parse_options(options) or None)
    with output_file(output) as out:
        for doc in docs:
            out.write(doc.to_json() + "\n")
    if docs.failed:
        raise SystemExit(1)


def summary(doc: Document) -> dict[str, Any]:
    """The figures ``docparse show`` prints, as a dict."""
    kinds = Counter(u.kind for u in doc.units)
    sections: list[str] = []
    for u in doc.units:
        if u.section and " > ".join(u.section) not in sections:
            sections.append(" > ".join(u.section))
    tables = [u for u in doc.units if u.table is not None]
    return {
        "path": doc.source_path,
        "format": doc.format,
        "backend": doc.backend,
        "title": doc.title,
        "pages": doc.n_pages,
        "units": len(doc.units),
        "words": doc.n_words,
        "tokens": doc.n_tokens,
        "kinds": dict(sorted(kinds.items())),
        "tables": [
            {
                "order": t.order,
                "rows": t.table.n_rows,
                "cols": t.table.n_cols,
                "caption": (t.table.caption or "")[:70],
            }
            for t in tables
            if t.table is not None
        ],
        "sections": sections,
        "flags": list(doc.flags),
    }


def print_summary(doc: Document) -> None:
    """Render :func:`summary` with rich tables."""
    from rich.console import Console
    from rich.table import Table as RichTable

    s = summary(doc)
    console = Console()
    console.print(f"[bold]{s['path']}[/bold]  format={s['format']} backend={s['backend']}")
    if s["title"]:
        console.print(f"title: {s['title']}")
    console.print(
        f"pages: {s['pages'] if s['pages'] is not None else '-'}  units: {s['units']}  "
        f"words: {s['words']}  tokens: {s['tokens']}"
        + (f"  flags: {', '.join(s['flags'])}" if s["flags"] else "")
    )
    kinds = RichTable(title="units by kind")
    kinds.add_column("kind")
    kinds.add_column("count", justify="right")
    for kind, n in s["kinds"].items():
        kinds.add_row(kind, str(n))
    console.print(kinds)
    if s["tables"]:
        tables = RichTable(title="tables")
        for col in ("order", "rows", "cols", "caption"):
            tables.add_column(col)
        for t in s["tables"]:
            tables.add_row(str(t["order"]), str(t["rows"]), str(t["cols"]), t["caption"])
        console.print(tables)
    if s["sections"]:
        console.print(f"sections ({len(s['sections'])}):")
        for sec in s["sections"][:40]:
            console.print(f"  {sec}")
        if len(s["sections"]) > 40:
            console.print(f"  ... {len(s['sections']) - 40} more")


@click.command("show")
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@backend_option
@format_option
@config_option
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
def show_cmd(
    path: str, backend: str | None, fmt: str | None, options: tuple[str, ...], as_json: bool
) -> None:
    """A readable summary of one document: units by kind, tables, words, tokens, sections."""
    doc = load_document(path, fmt, backend, parse_options(options) or None)
    if as_json:
        click.echo(json.dumps(summary(doc), indent=2, ensure_ascii=False))
    else:
        print_summary(doc)


COMMANDS = [parse_cmd, show_cmd]
