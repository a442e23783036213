"""``docparse export``: a document as Markdown, plain text or HTML."""

from __future__ import annotations

import click

from docparse.cli.common import (
    backend_option,
    config_option,
    format_option,
    load_document,
    parse_options,
)


@click.command("export")
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@click.option(
    "--to",
    "target",
    default="markdown",
    show_default=True,
    type=click.Choice(("markdown", "text", "html")),
    help="Output format.",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, writable=True),
    default=None,
    help="Write here; stdout if omitted.",
)
@click.option("--furniture", is_flag=True, help="Keep running headers, footers, page numbers.")
@click.option(
    "--page-markers", is_flag=True, help="Markdown: a <!-- page N --> line where a page starts."
)
@backend_option
@format_option
@config_option
def export_cmd(
    path: str,
    target: str,
    output: str | None,
    furniture: bool,
    page_markers: bool,
    backend: str | None,
    fmt: str | None,
    options: tuple[str, ...],
) -> None:
    """Parse a file and write it as Markdown (headings, pipe tables), text or HTML."""
    from docparse.export import to_html, to_markdown, to_text

    doc = load_document(path, fmt, backend, parse_options(options) or None)
    if target == "markdown":
        out = to_markdown(doc, furniture=furniture, page_markers=page_markers)
    elif target == "text":
        out = to_text(doc, furniture=furniture)
    else:
        out = to_html(doc, furniture=furniture)
    with click.open_file(output or "-", "w", encoding="utf-8") as fh:
        fh.write(out)


COMMANDS = [export_cmd]
