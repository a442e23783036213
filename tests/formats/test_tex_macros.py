"""User macros with arguments in LaTeX twins, and what unknown macros leave."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from docparse.formats.tex import TexParser


def _units(tmp_path: Path, body: str, preamble: str = "") -> list[tuple[str, str]]:
    path = tmp_path / "doc.tex"
    path.write_text(
        "\\documentclass{article}\n"
        + preamble
        + "\n\\begin{document}\n"
        + body
        + "\n\\end{document}\n",
        encoding="utf-8",
    )
    return [(u.kind, u.text) for u in TexParser().parse(path).units]


def test_argument_macros_expand(tmp_path: Path) -> None:
    preamble = r"""\newcommand{\cn}[1]{\texttt{\char92 #1}}
\newcommand{\x}[2][default]{<#1|#2>}
\def\y#1#2{#2-#1}
\DeclareRobustCommand{\unit}[2]{#1~#2}
\providecommand{\pp}[1]{P(#1)}
\providecommand{\x}[1]{never used}
\newcommand{\mk}[1]{\def\inner##1{#1##1}\inner{!}}"""
    body = r"""\subsection{\cn{overset}, \cn{underset}, and \cn{sideset}}
Type \cn{dots} for dots: \x{a} \x[b]{c} \y{e}{f} \unit{210}{mm} \pp{q} \mk{z}."""
    assert _units(tmp_path, body, preamble) == [
        ("heading", "\\overset, \\underset, and \\sideset"),
        ("paragraph", "Type \\dots for dots: <default|a> <b|c> f-e 210 mm P(q) z!."),
    ]


def test_unknown_macro_keeps_its_argument_text(tmp_path: Path) -> None:
    units = _units(tmp_path, r"A \unknownmacro{kept text} and \other{one}{two} end.")
    assert units == [("paragraph", "A kept text and one two end.")]


def test_skipped_input_is_warned_once(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING):
        _units(tmp_path, r"Text \input{missing-part} more \ref{x}.")
    warnings = [r for r in caplog.records if "missing-part" in r.getMessage()]
    assert len(warnings) == 1
