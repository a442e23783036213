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
