"""Small seed inputs per parser, written to the fuzzer's corpus folder.

Small on purpose: libFuzzer mutates bytes, and a short valid file reaches
deep code in many more executions per second than a real 100 KB paper.
"""

from __future__ import annotations

import json
from pathlib import Path

_TEX = [
    "\\documentclass{article}\n\\title{T}\\begin{document}\\maketitle\n"
    "\\begin{abstract}Abs \\emph{x}.\\end{abstract}\n\\section{Intro}\\label{s}\n"
    "Text with $x^2$ and \\cite{a}~\\ref{s}.%c\n\n\\begin{itemize}\\item One\\item Two"
    "\\end{itemize}\n\\begin{table}\\caption{C}\\begin{tabular}{l|c}\\hline a & "
    "\\multicolumn{1}{c}{b}\\\\ \\multirow{2}{*}{c} & d\\\\\\end{tabular}\\end{table}\n"
    "\\end{document}\n",
    "\\def\\a{A}\\newcommand{\\b}[1]{[#1]}\\begin{document}\\a\\b{x} \\input{sub}"
    "\\footnote{f}\\end{document}",
    "\\section*{S}\\subsection{T}\\begin{figure}\\caption{F}\\end{figure}\\'e\\\"o",
]
_HTM = [
    "<DOCUMENT>\n<TYPE>10-K\n<TEXT>\n<html><body><p><b>Item 1. Business</b></p>"
    "<p>We make chips.</p><table><tr><td>Revenue</td><td>$</td><td>1,234</td>"
    "<td>(5</td><td>)%</td></tr></table><hr style='page-break-after:always'/>"
    "<p>2</p></body></html>\n</TEXT>\n</DOCUMENT>\n",
    '<html><head><meta charset="windows-1252"></head><body><ix:header>h</ix:header>'
    '<div style="display:none">x</div><div>Text &amp; more</div></body></html>',
]
_CSV = ["a,b,c\n1,2,3\n4,5\n\nx;y\n1;2\n", 'sep=;\n"q;1";2\n3;"4\n5"\n', "\ufeffh\tk\n1\t2\n"]
_TXT = [
    "TITLE\n=====\n\n1. Introduction\n\nA para-\ngraph wrapped\nover lines.\n\n"
    "  * item one\n  * item two\n\n    code block\n\n+---+---+\n| a | b |\n+---+---+\n",
    "CHAPTER ONE\n\nText.\f\nPage 2\n",
]
_S2ORC = [
    {
        "paper_id": "p",
        "title": "T",
        "abstract": [{"text": "Abs.", "cite_spans": [], "section": "Abstract"}],
        "body_text": [
            {
                "text": "Body [1].",
                "cite_spans": [{"start": 5, "end": 8, "ref_id": "BIBREF0", "text": "[1]"}],
                "section": "Intro",
                "sec_num": "1",
            }
        ],
        "ref_entries": {
            "TABREF0": {
                "type_str": "table",
                "text": "Table 1",
                "content": "a b",
                "html": "<table><tr><td>a</td><td>b</td></tr></table>",
            }
        },
        "bib_entries": {"BIBREF0": {"title": "R", "authors": [], "year": 2020}},
    },
    {"paper_id": "q", "pdf_parse": {"abstract": [], "body_text": [{"text": "x", "section": ""}]}},
]
_JATS = [
    '<?xml version="1.0"?><article article-type="research-article"><front><article-meta>'
    "<title-group><article-title>T</article-title></title-group><abstract><p>A.</p>"
    "</abstract></article-meta></front><body><sec><title>Intro</title><p>Text "
    '<xref ref-type="bibr" rid="r1">1</xref>.</p><list><list-item><p>i</p></list-item>'
    '</list><table-wrap id="t1"><label>Table 1</label><caption><p>C</p></caption><table>'
    '<tr><th colspan="2">h</th></tr><tr><td rowspan="2">a</td><td>b</td></tr></table>'
    '</table-wrap></sec></body><back><ref-list><ref id="r1"><element-citation>'
    "<article-title>R</article-title><year>2020</year></element-citation></ref></ref-list>"
    "</back></article>",
]


def _pdfs() -> list[bytes]:
    import pymupdf

    out = []
    doc = pymupdf.open()
    page = doc.new_page(width=300, height=300)
    page.insert_text((20, 30), "1 Introduction", fontsize=14)
    page.insert_text((20, 60), "A line of body text that is hyphen-", fontsize=9)
    page.insert_text((20, 72), "ated across lines. Page 1", fontsize=9)
    for i in range(4):
        page.draw_line((20, 100 + 15 * i), (200, 100 + 15 * i))
        page.insert_text((25, 112 + 15 * i), f"cell {i}   {i * 3}", fontsize=8)
    out.append(bytes(doc.tobytes(deflate=False)))
    page = doc.new_page(width=300, height=300)
    page.insert_text((20, 30), "Second page", fontsize=9)
    out.append(bytes(doc.tobytes(deflate=False, garbage=1)))
    out.append(bytes(doc.tobytes(encryption=pymupdf.PDF_ENCRYPT_RC4_128, owner_pw="o", user_pw="")))
    doc.close()
    return out


def write_seeds(parser: str, folder: Path) -> int:
    """Write the seeds of ``parser`` into ``folder``; return how many."""
    folder.mkdir(parents=True, exist_ok=True)
    items: list[bytes]
    if parser in ("pymupdf", "pdfplumber", "unstructured"):
        items = _pdfs()
    else:
        raw = {"tex": _TEX, "htm": _HTM, "csv": _CSV, "txt": _TXT, "jats": _JATS}.get(parser)
        if parser == "s2orc":
            items = [json.dumps(d).encode() for d in _S2ORC]
        else:
            assert raw is not None, parser
            items = [s.encode("utf-8") for s in raw]
    for i, data in enumerate(items):
        (folder / f"seed-{i}").write_bytes(data)
    return len(items)
