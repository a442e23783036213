"""``docparse draw`` (page overlays) and ``docparse compare`` (backends side by side)."""

from __future__ import annotations

import json

import click

from docparse.cli.common import (
    backend_option,
    check_output,
    config_option,
    exit_on_error,
    nothing_computed,
    output_file,
    output_folder,
    parse_options,
)


@click.command("draw")
@click.argument("pdf", type=click.Path(exists=True, dir_okay=False))
@backend_option
@click.option(
    "--pages", "-p", default=None, metavar="N|A-B", help="Pages to draw (1-based), e.g. 1-3."
)
@click.option(
    "-o",
    "--output",
    "out_dir",
    required=True,
    type=click.Path(),
    help="Folder for the PNG files (created if missing).",
)
@click.option("--zoom", default=1.5, show_default=True, help="Pixels per PDF point.")
@click.option(
    "--quick",
    is_flag=True,
    help="Parse only the drawn pages (faster; running headers are found by repetition "
    "across pages, so fewer are recognised).",
)
@config_option
def draw_cmd(
    pdf: str,
    backend: str | None,
    pages: str | None,
    out_dir: str,
    zoom: float,
    quick: bool,
    options: tuple[str, ...],
) -> None:
    """Draw each unit's box, coloured by kind and labelled with its order, on PNG pages."""
    from docparse.draw import draw_pdf, parse_page_range

    output_folder(out_dir)
    with exit_on_error():
        window = parse_page_range(pages) if pages else None
        written = draw_pdf(
            pdf,
            out_dir,
            backend=backend,
            pages=window,
            config=parse_options(options) or None,
            zoom=zoom,
            parse_all=not quick,
        )
    for path in written:
        click.echo(str(path))


@click.command("compare")
@click.argument("pdf", type=click.Path(exists=True, dir_okay=False))
@click.option(
    "--backend",
    "-b",
    "backends",
    multiple=True,
    help="Backend to run (repeatable); all installed PDF backends by default.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the rows as JSON.")
@click.option("-o", "--output", type=click.Path(), help="Also write the rows as JSON here.")
@config_option
def compare_cmd(
    pdf: str,
    backends: tuple[str, ...],
    as_json: bool,
    output: str | None,
    options: tuple[str, ...],
) -> None:
    """Run the PDF backends on one PDF and print their figures side by side.

    Exits with status 1 when every backend failed.
    """
    from docparse.compare import compare_backends, render_table
    from docparse.registry import installed_pdf_backends

    names = list(backends) or list(installed_pdf_backends())
    opts = parse_options(options)
    check_output(output)
    rows = compare_backends(pdf, names, config={n: opts for n in names} if opts else None)
    if output:
        with output_file(output) as fh:
            fh.write(json.dumps(rows, indent=2, ensure_ascii=False) + "\n")
    if as_json:
        click.echo(json.dumps(rows, indent=2, ensure_ascii=False))
    else:
        from rich.console import Console

        Console().print(render_table(rows, title=pdf))
    if rows and all(r.get("error") for r in rows):
        nothing_computed(f"every backend failed on {pdf}")


COMMANDS = [draw_cmd, compare_cmd]
