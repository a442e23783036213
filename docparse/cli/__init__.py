"""The ``docparse`` command: a thin click layer, one library call per command.

Each command group lives in its own module and is attached here.
"""

from __future__ import annotations

import logging

import click

from docparse import __version__


@click.group()
@click.version_option(__version__, prog_name="docparse")
@click.option("-v", "--verbose", count=True, help="Log more (-v info, -vv debug).")
def main(verbose: int) -> None:
    """Parse PDFs and their structured twins into source units, and score fidelity."""
    level = logging.WARNING - 10 * min(verbose, 2)
    logging.basicConfig(level=level, format="%(levelname)s %(name)s: %(message)s")


def _attach() -> None:
    from docparse.cli import (
        evidence_cmds,
        export_cmds,
        fidelity_cmds,
        ingest_cmds,
        parse_cmds,
        pdf_cmds,
        qa_cmds,
    )

    for module in (
        parse_cmds,
        ingest_cmds,
        pdf_cmds,
        qa_cmds,
        fidelity_cmds,
        evidence_cmds,
        export_cmds,
    ):
        for command in module.COMMANDS:
            main.add_command(command)


_attach()
