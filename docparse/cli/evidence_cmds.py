"""``docparse evidence``: does a QA dataset's gold evidence survive parsing?"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from align.readers import QA_FORMATS
from docparse.cli.common import (
    backend_option,
    check_output,
    config_option,
    exit_on_error,
    nothing_computed,
    output_file,
    parse_options,
)

if TYPE_CHECKING:
    from align.evidence import QuestionReport

#: ``--qa-format``, the same in every command that reads QA records.
qa_format_option = click.option(
    "--qa-format",
    "qa_format",
    type=click.Choice(tuple(QA_FORMATS)),
    default=None,
    help="QA file format (detected when omitted).",
)


@click.command("evidence")
@click.argument("qa_file", type=click.Path(exists=True, dir_okay=False))
@click.option(
    "--docs",
    "docs_dir",
    required=True,
    type=click.Path(exists=True, file_okay=False),
    help="Folder holding the documents (searched recursively by name).",
)
@backend_option
@qa_format_option
@click.option(
    "--min-coverage",
    type=click.FloatRange(0.0, 1.0),
    default=0.9,
    show_default=True,
    help="Share of the evidence's characters that must be found.",
)
@click.option(
    "--doc",
    "only_docs",
    multiple=True,
    help="Only questions about this document (repeatable).",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(),
    default=None,
    help="Write one JSON line per question here.",
)
@config_option
def evidence_cmd(
    qa_file: str,
    docs_dir: str,
    backend: str | None,
    qa_format: str | None,
    min_coverage: float,
    only_docs: tuple[str, ...],
    output: str | None,
    options: tuple[str, ...],
) -> None:
    """Locate each question's gold evidence in the parse of its document.

    Prints per question whether the evidence was found (exact or fuzzy),
    split across units, ambiguous, partial or missing, with its pages, then
    a summary per document. Exits with status 1 when no question could be
    evaluated (no record, or no document found or parsed).
    """
    from align.evidence import evidence_report, evidence_summary, parser_for
    from align.readers import read_qa

    check_output(output)
    backend = backend or "pymupdf"
    with exit_on_error():
        records = read_qa(qa_file, qa_format)
    if only_docs:
        wanted = set(only_docs)
        records = [r for r in records if r.doc in wanted]
    reports = evidence_report(
        records,
        Path(docs_dir),
        backend,
        min_coverage=min_coverage,
        progress=True,
        parser=parser_for(backend, parse_options(options) or None),
    )
    if output:
        with output_file(output) as fh:
            for rep in reports:
                fh.write(json.dumps(rep.to_dict(), ensure_ascii=False) + "\n")
    _print(reports, evidence_summary(reports))
    if not any(rep.error is None for rep in reports):
        nothing_computed(
            f"no question of {qa_file} could be evaluated"
            + ("" if reports else " (no record left)")
            + f": no document found or parsed in {docs_dir}"
        )


def _print(reports: Sequence[QuestionReport], summary: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    per_q = Table(title="questions")
    for col in ("doc", "question", "status", "evidence", "pages"):
        per_q.add_column(col, overflow="fold")
    for rep in reports:
        counts: dict[str, int] = {}
        for r in rep.results:
            counts[r.match.status] = counts.get(r.match.status, 0) + 1
        per_q.add_row(
            rep.record.doc[:30],
            rep.record.question[:60],
            rep.status,
            ", ".join(f"{k} {v}" for k, v in sorted(counts.items())) or (rep.error or "-"),
            ",".join(map(str, rep.pages[:8])) + ("..." if len(rep.pages) > 8 else ""),
        )
    console.print(per_q)
    table = Table(title="evidence by document")
    cols = (
        "evidence",
        "exact",
        "fuzzy",
        "split",
        "ambiguous",
        "partial",
        "missing",
        "page_ok",
        "with_page",
    )
    table.add_column("doc")
    for col in cols:
        table.add_column(col, justify="right")
    for doc, row in summary["documents"].items():
        table.add_row(doc[:40], *(str(row[c]) for c in cols))
    if summary["total"]:
        table.add_row("[bold]total", *(f"[bold]{summary['total'][c]}" for c in cols))
    console.print(table)
    page = summary["page_rate"]
    console.print(
        f"found (exact, fuzzy or split): {100 * summary['found_rate']:.1f}%"
        + (f"   on the dataset's page: {100 * page:.1f}% of those with a page" if page else "")
    )


COMMANDS = [evidence_cmd]
