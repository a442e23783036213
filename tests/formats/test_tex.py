"""Tests of the LaTeX twin parser on real papers (arXiv, TeX Live samples)."""

from __future__ import annotations

import csv
import re
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from doc_invariants import check_invariants
from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz import fuzz

import docparse.formats.tex.nodes as tex_nodes
from docparse.errors import EmptyDocumentError, UnsafeInputError
from docparse.formats.tex import TexConfig, TexParser, latex_table_count, latex_to_text
from docparse.model import Document
from docparse.text import clean_text

ARXIV = Path("arxiv-2510.22211v1/2510.22211v1.tex")
PDFQA_CSV = Path("arxiv-2510.22211v1/pdfqa-2510.22211v1.csv")
#: The real papers under ``fixtures/research``.
PAPERS = {
    "arxiv_2510_22211v1": ARXIV,
    "pmlr_sample": Path("jmlr-pmlr-sample/pmlr-sample.tex"),
    "aastex_sample631": Path("aastex-sample631/sample631.tex"),
}


@pytest.fixture(scope="session")
def research(fixtures_dir: Path) -> Path:
    return fixtures_dir / "research"


# math kept verbatim is allowed; everything else must be plain text
MATH = re.compile(r"\\\[.*?\\\]|\\\(.*?\\\)|\$\$.*?\$\$|\$[^$]*\$", re.S)
COMMAND = re.compile(r"\\[a-zA-Z]+")


@pytest.fixture
def marked_backslash(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Print literal backslashes (``\\verb``, ``\\string``) as U+29F5 so that a
    remaining ``\\`` can only be leaked markup."""
    monkeypatch.setattr(tex_nodes, "LITERAL_BACKSLASH", "\u29f5")
    yield


def _parse(path: Path, **options: Any) -> Document:
    return TexParser().parse(path, TexConfig(**options))


def _texts(doc: Document) -> Iterator[tuple[str, str]]:
    for unit in doc.units:
        if unit.table is not None:
            for cell in unit.table.cells():
                yield unit.kind, cell
        else:
            yield unit.kind, unit.text


@pytest.mark.parametrize("name", sorted(PAPERS))
def test_tables_match_source_and_no_markup_left(
    research: Path, name: str, marked_backslash: None
) -> None:
    path = research / PAPERS[name]
    doc = _parse(path)
    source = path.read_text(encoding="utf-8")
    assert sum(u.kind == "table" for u in doc.units) == latex_table_count(source)
    left = Counter()
    for kind, text in _texts(doc):
        outside = MATH.sub(" ", text)
        for word in COMMAND.findall(outside):
            left[(kind, word)] += 1
        assert "\\begin" not in outside and "\\end" not in outside
    assert not left, f"LaTeX commands left in text: {dict(left)}"


@pytest.mark.parametrize("name", sorted(PAPERS))
def test_golden_document(
    research: Path, name: str, golden: Callable[[str, Document], None]
) -> None:
    golden(f"tex_{name}", _parse(research / PAPERS[name]))


@pytest.mark.parametrize("name", sorted(PAPERS))
def test_json_round_trip_and_invariants(research: Path, name: str) -> None:
    doc = _parse(research / PAPERS[name])
    assert Document.from_json(doc.to_json()) == doc
    again = _parse(research / PAPERS[name])
    check_invariants(doc)
    assert [u.id for u in doc.units] == [u.id for u in again.units]
    assert all(unit.text.strip() and unit.raw.strip() for unit in doc.units), "markup-only unit"


def test_arxiv_structure(research: Path) -> None:
    doc = _parse(research / ARXIV)
    assert doc.title is not None and doc.title.startswith("Ultraviolet Spectral Evidence for Ansky")
    assert doc.units[0].kind == "title"
    kinds = Counter(u.kind for u in doc.units)
    assert kinds["abstract"] == 1 and kinds["list_item"] == 4 and kinds["equation"] == 3
    intro = next(u for u in doc.units if u.text.startswith("The X-ray quasi-periodic eruptions"))
    assert intro.section == ("Introduction",)
    # inline math verbatim, citations removed but kept as annotations
    assert "$\\sim100$" in intro.text
    assert "citep" not in intro.text and "Miniutti2019" not in intro.text
    assert any(a.kind == "cite" and a.target == "Miniutti2019" for a in intro.annotations)
    host = next(u for u in doc.units if u.section[-1:] == ("Host galaxy and BH mass",))
    assert host.section == ("Analysis and Results", "Host galaxy and BH mass")
    # user macro \mbh expanded to its math
    assert any("$M_\\mathrm{BH}$" in u.text for u in doc.units)
    captions = [u for u in doc.units if u.kind == "caption"]
    assert len(captions) == 9
    assert all(any(a.kind == "label" for a in c.annotations) for c in captions)
    assert not any("aasjournal" in u.text or "J1335.bib" in u.text for u in doc.units)
    footnote = next(u for u in doc.units if u.kind == "footnote")
    assert footnote.text.startswith("Note that the short timescale")


def test_deluxetable_cells_spans_caption_link(research: Path) -> None:
    doc = _parse(research / PAPERS["aastex_sample631"])
    tables = [u for u in doc.units if u.table is not None]
    messier = next(u for u in tables if u.table and u.table.label == "tab:messier")
    assert messier.table is not None
    # the hidden "h" column is gone; D column header spans one source column
    assert messier.table.rows[0] == ("Messier", "NGC/IC", "Object", "Distance", "", "V")
    assert messier.table.rows[2][:4] == ("M1", "NGC 1952", "Supernova remnant", "2")
    assert messier.table.n_header_rows == 2
    assert messier.table.caption == "Fun facts about the first 10 messier objects"
    assert messier.table.footnotes and "hides" in messier.table.footnotes[0]
    caption = doc.unit(messier.related[0])
    assert caption.kind == "caption" and messier.id in caption.related
    split = next(u for u in tables if u.table and u.table.label == "tab:deluxesplit")
    assert split.table is not None
    assert any(s.col_span == 10 for s in split.table.spans)


def test_tabular_multicolumn_multirow_rules() -> None:
    src = r"""\documentclass{article}\begin{document}
\begin{table}
\caption{Scores \label{tab:s}}
\begin{tabular}{lcc}
\toprule
\multirow{2}{*}{Model} & \multicolumn{2}{c}{F1 \cite{x}} \\
\cmidrule(lr){2-3}
 & dev & test \\
\midrule
BM25 & 0.41 & $0.39\pm0.01$ \\
\textbf{Ours} & \emph{0.52} & 0.50 \\
\bottomrule
\end{tabular}
\end{table}
\end{document}
"""
    doc = _doc_from(src)
    table = next(u for u in doc.units if u.kind == "table")
    assert table.table is not None
    assert table.table.rows == (
        ("Model", "F1 [?]", ""),  # no bibliography entry: the citation prints LaTeX's ?
        ("", "dev", "test"),
        ("BM25", "0.41", "$0.39\\pm0.01$"),
        ("Ours", "0.52", "0.50"),
    )
    assert table.table.n_header_rows == 2
    spans = {(s.row, s.col, s.row_span, s.col_span) for s in table.table.spans}
    assert spans == {(0, 0, 2, 1), (0, 1, 1, 2)}
    assert table.table.caption == "Scores" and table.table.label == "tab:s"
    assert any(a.kind == "cite" and a.target == "x" for a in table.annotations)
    caption = next(u for u in doc.units if u.kind == "caption")
    assert caption.related == (table.id,) and table.related == (caption.id,)


def _doc_from(source: str, tmp: Path | None = None) -> Document:
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "doc.tex"
        path.write_text(source, encoding="utf-8")
        return TexParser().parse(path)


def test_markup_rendering() -> None:
    src = r"""\documentclass{article}
\newcommand{\foo}{F\"oo}
\newcommand{\pair}[2]{#1--#2}
\def\bar{B\'ar}
\title{A \textbf{Bold} Title}
\begin{document}
\maketitle
\begin{abstract}
We study \foo{} and \bar.
\end{abstract}
\section*{Intro}\label{sec:intro}
% a comment line
Text with 50\% of \emph{items} and \pair{1}{2} pages~\ref{sec:intro}.\footnote{A note.}
See \url{https://x.org} and \href{https://y.org}{this site}.

Second paragraph with $\alpha$ and
\begin{equation}
E = mc^2 \label{eq:1}
\end{equation}
where $E$ is energy.
\begin{itemize}
\item[$\bullet$] First item
\item Second \textit{item}
\end{itemize}
\begin{description}
\item[Term] explained
\end{description}
\bibliography{refs}
\end{document}
"""
    doc = _doc_from(src)
    got = [(u.kind, u.text) for u in doc.units]
    assert got == [
        ("title", "A Bold Title"),
        ("abstract", "We study Föo and Bár."),
        ("heading", "Intro"),
        ("paragraph", "Text with 50% of items and 1–2 pages. See and this site."),
        ("footnote", "A note."),
        ("paragraph", "Second paragraph with $\\alpha$ and"),
        ("equation", "\\[ E = mc^2 \\]"),
        ("paragraph", "where $E$ is energy."),
        ("list_item", "First item"),
        ("list_item", "Second item"),
        ("list_item", "Term explained"),
    ]
    para = doc.units[3]
    kinds = {(a.kind, a.target) for a in para.annotations}
    assert {("ref", "sec:intro"), ("url", "https://x.org"), ("url", "https://y.org")} <= kinds
    assert ("footnote", "fn1") in kinds
    assert doc.units[6].annotations[0].target == "eq:1"
    assert doc.units[2].annotations[0].target == "sec:intro"


# -- \input safety ---------------------------------------------------------


def _tree(tmp_path: Path, main: str, files: dict[str, str]) -> Path:
    root = tmp_path / "paper"
    root.mkdir()
    for name, text in files.items():
        target = tmp_path / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    main_path = root / "main.tex"
    main_path.write_text(main, encoding="utf-8")
    return main_path


def _doc(body: str) -> str:
    return "\\documentclass{article}\\begin{document}\n" + body + "\n\\end{document}\n"


def test_input_relative_include(tmp_path: Path) -> None:
    main = _tree(
        tmp_path,
        _doc("Before.\n\n\\input{sections/intro}\n\n\\include{sections/end.tex}"),
        {
            "paper/sections/intro.tex": "\\section{Intro}\nIncluded text \\input{deeper}.",
            "paper/sections/deeper.tex": "from deeper",
            "paper/sections/end.tex": "The end.",
        },
    )
    doc = TexParser().parse(main)
    assert [u.text for u in doc.units] == [
        "Before.",
        "Intro",
        "Included text from deeper.",
        "The end.",
    ]
    assert doc.units[2].section == ("Intro",)
    assert doc.flags == ()


def test_input_outside_folder_is_never_read(tmp_path: Path) -> None:
    main = _tree(
        tmp_path,
        _doc(
            "A.\n\n\\input{/etc/passwd}\n\n\\input{../secret}\n\n\\input{sub/../../secret.tex}\n\nB."
        ),
        {"secret.tex": "SECRET-CONTENT"},
    )
    doc = TexParser().parse(main)
    text = " ".join(u.text for u in doc.units)
    assert "SECRET" not in text and "root:" not in text
    assert [u.text for u in doc.units] == ["A.", "B."]
    assert "unsafe_input_skipped" in doc.flags
    with pytest.raises(UnsafeInputError) as err:
        TexParser().parse(main, TexConfig(on_unsafe_input="raise"))
    assert err.value.path == str(main.resolve())


def test_input_symlink_outside_folder(tmp_path: Path) -> None:
    main = _tree(tmp_path, _doc("\\input{link}"), {"outside.tex": "SECRET-CONTENT"})
    (main.parent / "link.tex").symlink_to(tmp_path / "outside.tex")
    doc = TexParser().parse(main)
    assert all("SECRET" not in u.text for u in doc.units)
    assert "unsafe_input_skipped" in doc.flags


def test_input_loops_and_missing_files_terminate(tmp_path: Path) -> None:
    main = _tree(
        tmp_path,
        _doc("Start \\input{main} \\input{a} \\input{nothere} end."),
        {"paper/a.tex": "in a \\input{b}", "paper/b.tex": "in b \\input{a}"},
    )
    doc = TexParser().parse(main)
    assert [u.text for u in doc.units] == ["Start in a in b end."]
    assert {"input_loop", "missing_input"} <= set(doc.flags)


def test_recursive_macro_terminates(tmp_path: Path) -> None:
    main = _tree(
        tmp_path,
        "\\documentclass{article}\\newcommand{\\a}{x\\a}\\def\\b{\\b\\b}"
        "\\begin{document}Go \\a{} \\b{} stop.\\end{document}",
        {},
    )
    doc = TexParser().parse(main, TexConfig(max_macro_depth=5, max_macro_expansions=200))
    assert doc.units[0].text.startswith("Go xxxxx")
    assert doc.units[0].text.endswith("stop.")
    assert "macro_expansion_limit" in doc.flags


def test_empty_file(tmp_path: Path) -> None:
    path = tmp_path / "empty.tex"
    path.write_text("  \n", encoding="utf-8")
    with pytest.raises(EmptyDocumentError):
        TexParser().parse(path)


def test_latex_table_count() -> None:
    src = r"""
% \begin{tabular}{l} commented \end{tabular}
\begin{verbatim}
\begin{tabular}{l}x\end{tabular}
\end{verbatim}
\begin{tabular}{c}\begin{tabular}{c}nested\end{tabular}\end{tabular}
\begin{deluxetable*}{cc}\startdata 1 & 2 \enddata\end{deluxetable*}
{\tt\string\begin\{deluxetable*\}}
"""
    assert latex_table_count(src) == 2


# -- pdfQA's own split ------------------------------------------------------


def _pdfqa_rows(research: Path) -> list[str]:
    with (research / PDFQA_CSV).open(encoding="utf-8", newline="") as fh:
        return [row["content"] for row in csv.DictReader(fh)]


def test_pdfqa_rows_map_to_exactly_one_unit(research: Path) -> None:
    """>= 95% of pdfQA's real paragraph rows map to exactly one unit.

    Rows whose LaTeX-to-text conversion is empty (``\\end{enumerate}``,
    ``\\bibliography{..}\\bibliographystyle{..}``) are markup, not paragraphs.
    """
    doc = _parse(research / ARXIV)
    texts = [u.text for u in doc.units]
    converted = [latex_to_text(c, source=research / ARXIV) for c in _pdfqa_rows(research)]
    real = [t for t in converted if t]
    assert len(converted) - len(real) == 2
    exact = sum(1 for t in real if texts.count(t) == 1)
    fuzzy = sum(1 for t in real if sum(fuzz.ratio(t, u) >= 90 for u in texts) == 1)
    assert exact / len(real) >= 0.95
    assert fuzzy / len(real) >= 0.95


def test_latex_to_text_agrees_with_units_on_raw(research: Path) -> None:
    """A unit's own raw markup converts back to the unit's text."""
    doc = _parse(research / ARXIV)
    same = [
        latex_to_text(u.raw, source=research / ARXIV) == u.text
        for u in doc.units
        if u.kind in ("paragraph", "list_item", "equation", "heading")
    ]
    assert sum(same) / len(same) >= 0.95


def test_latex_to_text_examples() -> None:
    assert latex_to_text(r"\end{enumerate}") == ""
    assert latex_to_text("\\bibliography{J1335.bib}\n\\bibliographystyle{aasjournal}\n") == ""
    assert latex_to_text(r"The \textbf{peak} is $\sim100$ times~\citep{M19}.") == (
        "The peak is $\\sim100$ times."
    )
    assert latex_to_text(r"(TDE, \citealt{Rees1988,Gezari2021}), AT2019qiz") == "(TDE), AT2019qiz"
    assert latex_to_text(r"\item[$\bullet$] Our HST spectrum") == "Our HST spectrum"
    assert latex_to_text("S\\'ersic -- \\AA\\ ``quoted''") == "Sérsic – Å “quoted”"
    fig = "\\begin{figure}\\includegraphics{a.pdf}\\caption{A plot. \\label{f}}\\end{figure}"
    assert latex_to_text(fig) == "A plot."


_TOKENS = st.sampled_from(
    [
        "word",
        "Ansky",
        " ",
        "\n",
        "\n\n",
        ".",
        ",",
        "{",
        "}",
        "%",
        "\\%",
        "&",
        "~",
        "\\\\",
        "$x^2$",
        "\\(a\\)",
        "\\[b\\]",
        "\\textbf{",
        "\\emph{",
        "\\cite{k}",
        "\\ref{r}",
        "\\label{l}",
        "\\footnote{",
        "\\section{",
        "\\item",
        "\\item[a]",
        "\\begin{itemize}",
        "\\end{itemize}",
        "\\begin{enumerate}",
        "\\end{enumerate}",
        "\\begin{figure}",
        "\\end{figure}",
        "\\caption{",
        "\\begin{tabular}{ll}",
        "\\end{tabular}",
        "\\multicolumn{2}{c}{",
        "\\hline",
        "\\begin{equation}y=1\\end{equation}",
        "\\begin{abstract}",
        "\\end{abstract}",
        "\\begin{document}",
        "\\end{document}",
        "\\begin{unknown}",
        "\\end{unknown}",
        "\\maketitle",
        "\\title{",
        "\\newcommand{\\m}{M}",
        "\\m",
        "\\input{x}",
    ]
)


@settings(max_examples=150, deadline=None)
@given(st.lists(_TOKENS, max_size=30))
def test_latex_to_text_never_leaks_environments(tokens: list[str]) -> None:
    out = latex_to_text("".join(tokens))
    outside = MATH.sub(" ", out)
    assert "\\begin" not in outside and "\\end" not in outside
    assert "\\begin" not in out and "\\end" not in out


_PLAIN = st.text(alphabet=st.sampled_from(list("abcXYZ019 \n\t.,;:!?()/+=<>*@")), max_size=80)


@settings(max_examples=200, deadline=None)
@given(_PLAIN)
def test_latex_to_text_is_identity_on_plain_text(text: str) -> None:
    once = latex_to_text(text)
    assert once == clean_text(text)
    assert latex_to_text(once) == once


def test_environment_macros_and_class_markup(tmp_path: Path) -> None:
    """revtex-style \\be/\\ee shortcuts, IEEE author blocks and keywords, longtable."""
    src = r"""\documentclass{IEEEtran}
\newcommand{\be}{\begin{equation}}
\newcommand{\ee}{\end{equation}}
\newcommand{\method}{\textsc{FastQA}}
\title{On \method}
\author{\IEEEauthorblockN{Jane Doe}\IEEEauthorblockA{Univ. X}}
\begin{document}
\maketitle
\begin{IEEEkeywords}
QA, retrieval
\end{IEEEkeywords}
\IEEEPARstart{W}{ith} \method{} we get
\be
x = 1 \label{eq:x}
\ee
and `more'.
\begin{longtable}{ll}
\caption{Long}\\
A & B \\
\midrule
\endfirsthead
A & B \\
\endhead
1 & 2 \\
\end{longtable}
\end{document}
"""
    path = tmp_path / "ieee.tex"
    path.write_text(src, encoding="utf-8")
    doc = TexParser().parse(path)
    assert [(u.kind, u.text) for u in doc.units if u.kind != "table"] == [
        ("title", "On FastQA"),
        ("paragraph", "Jane Doe Univ. X"),
        ("paragraph", "Keywords: QA, retrieval"),
        ("paragraph", "With FastQA we get"),
        ("equation", "\\[ x = 1 \\]"),
        ("paragraph", "and ‘more'."),
        ("caption", "Long"),
    ]
    table = next(u.table for u in doc.units if u.table is not None)
    assert table.rows == (("A", "B"), ("1", "2")) and table.n_header_rows == 1
    assert latex_to_text(r"so \be y=2 \ee", source=path) == "so \\[ y=2 \\]"


def test_abstract_command_and_bibliography_excluded(tmp_path: Path) -> None:
    src = r"""\documentclass{aastex}
\begin{document}
\title{T}
\abstract{Short \emph{abstract}.}
\section{S}
Body~\citep{a}.
\acknowledgments
Thanks.
\begin{thebibliography}{9}
\bibitem{a} A. Author, Some Journal 1 (2020).
\end{thebibliography}
\end{document}
"""
    path = tmp_path / "a.tex"
    path.write_text(src, encoding="utf-8")
    doc = TexParser().parse(path)
    assert [(u.kind, u.text, u.section) for u in doc.units] == [
        ("title", "T", ()),
        ("abstract", "Short abstract.", ()),
        ("heading", "S", ("S",)),
        ("paragraph", "Body [1].", ("S",)),
        ("heading", "Acknowledgments", ("Acknowledgments",)),
        ("paragraph", "Thanks.", ("Acknowledgments",)),
    ]


def test_nested_tabular_is_cell_text(tmp_path: Path) -> None:
    path = tmp_path / "n.tex"
    path.write_text(
        r"""\documentclass{article}\begin{document}
\begin{table}\caption{N}
\begin{tabular}{ll}
\toprule[1.5pt]
\begin{tabular}[c]{@{}c@{}}Multi\\line\end{tabular} & \makecell{A\\B} \\
\midrule[0.5pt]
\cellcolor{gray}x & \num{1.5e3} \\
\addlinespace[2pt]
y & z \\
\bottomrule
\end{tabular}
\end{table}
\end{document}
""",
        encoding="utf-8",
    )
    doc = TexParser().parse(path)
    tables = [u.table for u in doc.units if u.table is not None]
    assert len(tables) == 1 == latex_table_count(path.read_text(encoding="utf-8"))
    assert tables[0].rows == (("Multi line", "A B"), ("x", "1.5e3"), ("y", "z"))
    assert tables[0].n_header_rows == 1


@pytest.mark.corpus
def test_every_corpus_tex_twin(corpus_dir: Path, marked_backslash: None) -> None:
    """Acceptance figures on every ``.tex`` of the shared corpus (run with ``-s``
    to see one line per document)."""
    paths = sorted((corpus_dir / "research").rglob("*.tex"))
    assert paths
    for path in paths:
        doc = TexParser().parse(path)
        n_tables = sum(u.kind == "table" for u in doc.units)
        expected = latex_table_count(path.read_text(encoding="utf-8", errors="replace"))
        left = Counter(
            word for _, text in _texts(doc) for word in COMMAND.findall(MATH.sub(" ", text))
        )
        print(
            f"{path.parent.name}: units={len(doc.units)} tables={n_tables} "
            f"source_tabular={expected} commands_left={dict(left)} flags={list(doc.flags)}"
        )
        assert n_tables == expected
        assert not left


@pytest.mark.corpus
def test_pdfqa_figures_on_corpus(corpus_dir: Path) -> None:
    """The pdfQA mapping measured on the corpus copy (same files as the fixtures)."""
    tex_path = corpus_dir / "research" / "arxiv-2510.22211v1" / "2510.22211v1.tex"
    csv_path = corpus_dir / "qa_evidence" / "pdfqa-syn-2510.22211v1" / "2510.22211v1.csv"
    doc = TexParser().parse(tex_path)
    texts = [u.text for u in doc.units]
    with csv_path.open(encoding="utf-8", newline="") as fh:
        contents = [row["content"] for row in csv.DictReader(fh)]
    converted = [latex_to_text(c, source=tex_path) for c in contents]
    real = [t for t in converted if t]
    exact = sum(1 for t in real if texts.count(t) == 1)
    fuzzy = sum(1 for t in real if sum(fuzz.ratio(t, u) >= 90 for u in texts) == 1)
    print(
        f"pdfQA rows={len(contents)} markup_only={len(contents) - len(real)} real={len(real)} "
        f"exact_one={exact} ({exact / len(real):.1%}) fuzzy90_one={fuzzy} ({fuzzy / len(real):.1%})"
    )
    assert exact / len(real) >= 0.95 and fuzzy / len(real) >= 0.95
