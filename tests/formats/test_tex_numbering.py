"""\\ref numbers as LaTeX prints them, checked against a PDF compiled by TeX Live."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from docparse.formats.tex.numbering import (
    UNKNOWN_REF,
    LabelTarget,
    blank_verbatim,
    number_labels,
    render_named_ref,
    render_ref,
    render_sub_ref,
)

_REF = re.compile(r"(\w+)\.?~\\(ref|eqref)\{([^{}#]+)\}")


def test_compiled_twin_refs_match_the_pdf_text(fixtures_dir: Path) -> None:
    pymupdf = pytest.importorskip("pymupdf")
    folder = fixtures_dir / "research/compiled-twin"
    source = (folder / "twin.tex").read_text(encoding="utf-8")
    with pymupdf.open(folder / "twin.pdf") as pdf:
        printed = " ".join(" ".join(page.get_text().split()) for page in pdf)
    labels, _, _ = number_labels(source)
    uses = _REF.findall(source)
    assert len(uses) >= 10
    for word, command, key in uses:
        text = render_ref(command, [labels.get(key)])
        assert UNKNOWN_REF not in text, key
        assert f"{word} {text}" in printed, (word, key, text)


def test_class_numbering_appendix_theorems_equations() -> None:
    source = r"""\documentclass[aps]{revtex4-2}
\newtheorem{thm}{Theorem}[section]
\newtheorem{lem}[thm]{Lemma}
\begin{document}
\section{Intro}\label{s1}
\section{Model}\label{s2}
\subsection{Part}\label{s2a}
\begin{lem}\label{l1} x \end{lem}
\begin{thm}\label{t1} y \end{thm}
\begin{align}
a &= b \label{e1}\\
c &= d \nonumber\\
e &= f \tag{$*$}\label{e2}\\
g &= h \label{e3}
\end{align}
\begin{subequations}\label{sub}
\begin{equation} x \label{e4a} \end{equation}
\begin{equation} y \label{e4b} \end{equation}
\end{subequations}
\begin{equation*} z \end{equation*}
\begin{equation}\begin{split} a \\ b \end{split}\label{e5}\end{equation}
\begin{enumerate}\item one \label{i1} \item two \label{i2}\end{enumerate}
\appendix
\section{Proofs}\label{app}
\begin{figure}\caption{F}\label{f1}\end{figure}
\end{document}
"""
    labels, _, _ = number_labels(source)
    got = {k: v.number for k, v in labels.items()}
    assert got == {
        "s1": "I",
        "s2": "II",
        "s2a": "II A",
        "l1": "II.1",
        "t1": "II.2",
        "e1": "1",
        "e2": "$*$",
        "e3": "2",
        "sub": "3",
        "e4a": "3a",
        "e4b": "3b",
        "e5": "4",
        "i1": "1",
        "i2": "2",
        "app": "A",
        "f1": "1",
    }
    assert labels["app"].kind == "appendix"


def test_report_chapters_and_thesection_redefined() -> None:
    source = r"""\documentclass{report}
\renewcommand{\thesection}{\thechapter-\roman{section}}
\begin{document}
\chapter{One}\label{c1}
\section{A}\label{a}
\begin{table}\caption{T}\label{t}\end{table}
\chapter{Two}
\begin{figure}\caption{F}\label{f}\end{figure}
\section*{Unnumbered}\label{after}
\end{document}
"""
    labels, _, _ = number_labels(source)
    assert {k: v.number for k, v in labels.items()} == {
        "c1": "1",
        "a": "1-i",
        "t": "1.1",
        "f": "2.1",
        "after": "2",  # the figure's number was local to its environment
    }


def test_render_ref_names() -> None:
    fig = LabelTarget("3", "figure")
    eq = LabelTarget("2", "equation")
    sec = LabelTarget("II", "section")
    assert render_ref("ref", [fig]) == "3"
    assert render_ref("eqref", [eq]) == "(2)"
    assert render_ref("autoref", [fig]) == "Figure 3"
    assert render_ref("autoref", [sec], {"section": "Section"}) == "Section II"
    assert render_ref("cref", [fig, LabelTarget("4", "figure")]) == "figs. 3 and 4"
    assert render_ref("Cref", [eq]) == "Equation (2)"
    assert render_ref("ref", [None]) == UNKNOWN_REF


def test_named_refs_and_aastex_tables() -> None:
    fig = LabelTarget("3", "figure")
    assert render_named_ref("figure", [fig]) == "Figure 3"
    assert render_named_ref("equation", [LabelTarget("1", "equation")] * 3) == (
        "Equations (1), (1) and (1)"
    )
    assert render_named_ref("appendix", [LabelTarget("A", "appendix")] * 2) == "Appendices A and A"
    source = r"""\documentclass{aastex631}
\begin{document}
\begin{deluxetable}{cc}\tablenum{4}\tablecaption{Fixed\label{t4}}\end{deluxetable}
\begin{deluxetable}{cc}\tablecaption{Next\label{t1}}\end{deluxetable}
\begin{figure}\floatconts{f1}{\caption{F}}{x}\end{figure}
\end{document}
"""
    labels, _, _ = number_labels(source)
    assert {k: v.number for k, v in labels.items()} == {"t4": "4", "t1": "1", "f1": "1"}


def test_parser_renders_refs_and_flags_unknown_labels(tmp_path: Path) -> None:
    from docparse.formats.tex import TexParser, latex_to_text

    main = tmp_path / "paper.tex"
    (tmp_path / "part.tex").write_text(
        "\\section{Later}\\label{sec:later}\n\\begin{figure}\\caption{C}\\label{f}\\end{figure}\n",
        encoding="utf-8",
    )
    main.write_text(
        r"""\documentclass{article}
\begin{document}
\section{Intro}\label{sec:intro}
See Fig.~\ref{f}, Section~\ref{sec:later} and Eq.~\eqref{nowhere}.
\input{part}
\end{document}
""",
        encoding="utf-8",
    )
    doc = TexParser().parse(main)
    para = next(u for u in doc.units if u.kind == "paragraph")
    # the label lives in an \input file and still gets its number
    assert para.text == f"See Fig. 1, Section 2 and Eq. ({UNKNOWN_REF})."
    assert "unresolved_ref" in doc.flags
    assert {a.target for a in para.annotations if a.kind == "ref"} == {"f", "sec:later", "nowhere"}
    # a fragment read with its source numbers the same way
    assert latex_to_text(r"Fig.~\ref{f} shows it.", source=main) == "Fig. 1 shows it."
    clean = TexParser().parse(main.with_name("part.tex"))
    assert "unresolved_ref" not in clean.flags


def _words(text: str) -> str:
    # the PDF text layer hyphenates at line ends and prints ligatures and dashes
    text = text.replace("-\n", "").replace("ﬁ", "fi").replace("ﬂ", "fl")
    return " ".join(re.findall(r"\w+", text.lower()))


@pytest.mark.parametrize("name", ["compiled-twin", "compiled-natbib"])
def test_compiled_twin_text_equals_the_pdf_text_layer(fixtures_dir: Path, name: str) -> None:
    pymupdf = pytest.importorskip("pymupdf")
    from docparse.formats.tex import TexParser

    folder = fixtures_dir / "research" / name
    with pymupdf.open(folder / "twin.pdf") as pdf:
        printed = _words("\n".join(page.get_text() for page in pdf))
    doc = TexParser().parse(folder / "twin.tex")
    paragraphs = [u.text for u in doc.units if u.kind in ("paragraph", "caption")]
    assert len(paragraphs) >= 8
    found = [p for p in paragraphs if _words(p) in printed]
    # macros with arguments, \ref, \nameref and \cite (defined or not) print as the PDF
    # does, word for word
    assert len(found) / len(paragraphs) >= 0.98, set(paragraphs) - set(found)


def test_class_theorems_sub_floats_and_algorithm2e() -> None:
    source = r"""\documentclass{jmlr}
\newtheorem{claim}[theorem]{Claim}
\begin{document}
\begin{theorem}\label{t}A\end{theorem}
\begin{lemma}\label{l}B\end{lemma}
\begin{example}\label{e}C\end{example}
\begin{claim}\label{c}D\end{claim}
\begin{figure}\caption{One}\end{figure}
\begin{figure}
\subfigure[A]{\label{fa}x}\subfigure[B]{\label{fb}y}
\caption{Two}\label{f2}
\end{figure}
\begin{figure}
\floatconts{f3}{\caption{Three}}{\subfigure[A]{\label{ga}x}\subfloat[B]{\label{gb}y}}
\end{figure}
\begin{algorithm}\caption{First}\label{a1}\end{algorithm}
\begin{algorithm2e}\caption{Second}\label{a2}\end{algorithm2e}
\end{document}
"""
    labels, _, _ = number_labels(source)
    # jmlr shares one counter among theorem, lemma ... (and a user's [theorem]); example has its own
    assert [labels[k].number for k in ("t", "l", "e", "c")] == ["1", "2", "1", "3"]
    assert labels["l"].kind == "Lemma"
    # a sub-float before its float's caption takes the number the caption is about to print
    assert [labels[k].number for k in ("fa", "fb", "f2")] == ["2(a)", "2(b)", "2"]
    assert [labels[k].number for k in ("ga", "gb", "f3")] == ["3(a)", "3b", "3"]
    assert (labels["a1"].number, labels["a2"].number) == ("1", "2")
    assert render_sub_ref([labels["ga"], labels["gb"]]) == "(a) and (b)"


def test_verbatim_and_comments_neither_label_nor_number() -> None:
    source = (
        "\\documentclass{article}\\begin{document}\n\\section{A}\\label{a}\n"
        "% \\section{Commented}\n\\verb|\\section{B}|\n\\section{C}\\label{c}\n\\end{document}\n"
    )
    assert blank_verbatim("x \\verb|\\cite{k}| y % z\n") == "x " + " " * 15 + " y    \n"
    labels, _, _ = number_labels(source)
    assert (labels["a"].number, labels["c"].number) == ("1", "2")
