"""Citation markers in LaTeX twins: numbers or author-year, never keys."""

from __future__ import annotations

from pathlib import Path

from docparse.formats.tex import TexConfig, TexParser


def _paragraphs(
    tmp_path: Path, source: str, bib: str | None = None, *, bibtex: bool = False
) -> tuple[list[str], tuple[str, ...]]:
    path = tmp_path / "paper.tex"
    path.write_text(source, encoding="utf-8")
    if bib is not None:
        (tmp_path / "refs.bib").write_text(bib, encoding="utf-8")
    doc = TexParser().parse(path, TexConfig(bibtex=bibtex))
    return [u.text for u in doc.units if u.kind == "paragraph"], doc.flags


def test_numeric_in_bibitem_order_with_notes(tmp_path: Path) -> None:
    texts, flags = _paragraphs(
        tmp_path,
        r"""\documentclass{revtex4-2}
\begin{document}
Boxes \cite{b} and glue \cite[p.~3]{a,b}; see Refs.~\onlinecite{a,b}.
\begin{thebibliography}{9}
\bibitem{a} A. Author. 1984.
\bibitem{b} B. Author. 1994.
\end{thebibliography}
\end{document}
""",
    )
    assert texts == ["Boxes [2] and glue [1, 2, p. 3]; see Refs. 1, 2."]
    assert flags == ()


def test_without_bibliography_entries_latex_prints_question_marks(tmp_path: Path) -> None:
    # no \\bibitem and no .bbl: LaTeX has no entry for any key and prints '?'
    texts, flags = _paragraphs(
        tmp_path,
        "\\documentclass{article}\\begin{document}\nX \\cite{z}, Y \\cite{a,z}.\n\\end{document}\n",
    )
    assert texts == ["X [?], Y [?, ?]."]
    assert "unresolved_cite" in flags


def test_bbl_beside_the_main_file_defines_the_keys(tmp_path: Path) -> None:
    (tmp_path / "paper.bbl").write_text(
        "\\begin{thebibliography}{2}\n\\bibitem{z} Z.\n\\bibitem{a} A.\n\\end{thebibliography}\n",
        encoding="utf-8",
    )
    texts, flags = _paragraphs(
        tmp_path,
        "\\documentclass{article}\\begin{document}\nX \\cite{z}, Y \\cite{a,z}.\n"
        "\\bibliography{refs}\n\\end{document}\n",
    )
    assert texts == ["X [1], Y [2, 1]."]
    assert flags == ()


def test_bibtex_numbers_cited_bib_entries_in_citation_order(tmp_path: Path) -> None:
    bib = """@book{z, author = {Zed, A.}, title = {Z}, year = 2000}
@book{a, author = {Abel, B.}, title = {A}, year = 1990}
"""
    source = r"""\documentclass{article}
\begin{document}
Use \verb|\cite{a}| for X \cite{z}, Y \cite{a,z}, Z \cite{gone}.
% \cite{a} in a comment is not a citation
\bibliographystyle{unsrt}
\bibliography{refs}
\end{document}
"""
    texts, flags = _paragraphs(tmp_path, source, bib, bibtex=True)
    # the \\verb and the comment neither cite nor number; a key the .bib lacks prints '?'
    assert texts == ["Use \\cite{a} for X [1], Y [2, 1], Z [?]."]
    assert "unresolved_cite" in flags
    texts, _ = _paragraphs(tmp_path, source, bib)
    assert texts == ["Use \\cite{a} for X [?], Y [?, ?], Z [?]."]


def test_author_year_from_natbib_bibitems(tmp_path: Path) -> None:
    texts, _ = _paragraphs(
        tmp_path,
        r"""\documentclass{article}
\usepackage{natbib}
\begin{document}
As \citet{jon90} show \citep[see][p.~3]{jon90,sm01}, and \citeauthor{sm01} agree.
\begin{thebibliography}{2}
\bibitem[Jones et~al.(1990)Jones, Baker, and Williams]{jon90} Jones, 1990.
\bibitem[Smith(2001)]{sm01} Smith, 2001.
\end{thebibliography}
\end{document}
""",
    )
    assert texts == [
        "As Jones et al. (1990) show (see Jones et al., 1990; Smith, 2001, p. 3), and Smith agree."
    ]


def test_author_year_from_the_bib_file_and_unknown_keys(tmp_path: Path) -> None:
    bib = """@book{knuth, author = {Donald E. Knuth}, title = {The TeXbook}, year = 1984}
@book{gm, author = {Goossens, Michel and Mittelbach, Frank and Samarin, Alexander},
  title = {The LaTeX Companion}, year = {1993}}
"""
    texts, flags = _paragraphs(
        tmp_path,
        r"""\documentclass{article}
\usepackage[round]{natbib}
\begin{document}
Boxes \citep{knuth}, macros \citet{gm}, more \citep{missing}.
\bibliographystyle{plainnat}
\bibliography{refs}
\end{document}
""",
        bib,
        bibtex=True,
    )
    # a key the bibliography does not describe prints natbib's '?' (flagged), never its key
    assert texts == ["Boxes (Knuth, 1984), macros Goossens et al. (1993), more (?)."]
    assert "unresolved_cite" in flags


def test_author_year_without_bbl_prints_natbib_question_marks(tmp_path: Path) -> None:
    texts, flags = _paragraphs(
        tmp_path,
        r"""\documentclass{article}
\usepackage{natbib}
\begin{document}
Known \citep{a,b}, see \citet{a} and \citep[e.g.,][]{b}.
\bibliographystyle{plainnat}
\bibliography{refs}
\end{document}
""",
        "@book{a, author = {Knuth, D.}, title = {T}, year = 1984}\n",
    )
    # the .bib is there but no .bbl: without BibTeX every key is undefined
    assert texts == ["Known (??), see ? and (e.g., ?)."]
    assert "unresolved_cite" in flags


def test_sorted_numeric_style_orders_by_author(tmp_path: Path) -> None:
    bib = """@book{z, author = {Zed, A.}, title = {Z}, year = 2000}
@book{a, author = {Abel, B.}, title = {A}, year = 1990}
"""
    texts, _ = _paragraphs(
        tmp_path,
        r"""\documentclass{article}
\begin{document}
First \cite{z} then \cite{a}.
\bibliographystyle{plain}
\bibliography{refs}
\end{document}
""",
        bib,
        bibtex=True,
    )
    assert texts == ["First [2] then [1]."]


# The expected strings below are what pdflatex (TeX Live 2022, natbib 8.31, cite 5.5)
# printed for the same sources, read from the PDF's text layer.
_NATBIB_ITEMS = r"""
\begin{thebibliography}{3}
\bibitem[Jones et~al.(1990)Jones, Baker, and Williams]{j90} Jones, 1990.
\bibitem[Jones et~al.(1991)Jones, Baker, and Williams]{j91} Jones, 1991.
\bibitem[Smith(2001)]{s01} Smith, 2001.
\end{thebibliography}
\end{document}
"""


def test_natbib_merges_same_authors_and_places_undefined_marks(tmp_path: Path) -> None:
    texts, flags = _paragraphs(
        tmp_path,
        "\\documentclass{article}\\usepackage{natbib}\\begin{document}\n"
        "Merged \\citep{j90,j91,s01} and \\citet{j90,j91} and \\citep[see][p.~3]{j90,j91}; "
        "unknown \\citep{zz,j90} and \\citep{j90,zz,s01} and \\citet{j90,zz} and \\citep{zz,zy}.\n"
        + _NATBIB_ITEMS,
    )
    assert texts == [
        "Merged (Jones et al., 1990, 1991; Smith, 2001) and Jones et al. (1990, 1991) and "
        "(see Jones et al., 1990, 1991, p. 3); unknown (?Jones et al., 1990) and "
        "(Jones et al., 1990; ?; Smith, 2001) and Jones et al. (1990); ? and (??)."
    ]
    assert "unresolved_cite" in flags
    texts, _ = _paragraphs(
        tmp_path,
        "\\documentclass{article}\\usepackage[numbers]{natbib}\\begin{document}\n"
        "Merged \\citep{j90,j91,s01} and \\citet{j90,j91}.\n" + _NATBIB_ITEMS,
    )
    assert texts == ["Merged [1, 2, 3] and Jones et al. [1, 2]."]


def test_cite_package_and_superscript_numbers(tmp_path: Path) -> None:
    items = (
        "\\begin{thebibliography}{4}\\bibitem{a} A.\\bibitem{b} B.\\bibitem{c} C.\\bibitem{d} D."
        "\\end{thebibliography}\\end{document}\n"
    )
    texts, _ = _paragraphs(
        tmp_path,
        "\\documentclass{article}\\usepackage{cite}\\begin{document}\n"
        "Cited \\cite{c,a,b,d} and \\cite{a,c} and \\cite{a,zz}.\n" + items,
    )
    # cite sorts and compresses, with a thin space after the comma that the text layer drops
    assert texts == ["Cited [1–4] and [1,3] and [?,1]."]
    texts, _ = _paragraphs(
        tmp_path,
        "\\documentclass{article}\\usepackage[numbers,super]{natbib}\\begin{document}\n"
        "As shown\\cite{a,b}.\n" + items,
    )
    assert texts == ["As shown1,2."]


def test_nameref_prints_the_heading_and_pageref_a_placeholder(tmp_path: Path) -> None:
    texts, flags = _paragraphs(
        tmp_path,
        r"""\documentclass{article}
\usepackage{hyperref}
\begin{document}
\section{Related \emph{work}}\label{s:rel}
See \nameref{s:rel} on page \pageref{s:rel}.
\begin{figure}\caption{A plot}\label{f}\end{figure}
Figure \nameref{f}.
\end{document}
""",
    )
    assert texts == ["See Related work on page ??. Figure A plot."]
    assert "unresolved_ref" in flags
