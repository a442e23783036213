"""Hostile cases of the twin formats: LaTeX, EDGAR HTML, CSV, TXT, S2ORC JSON and JATS XML."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

from .cases import MB, ROOT, _put, case

# ---------------------------------------------------------------- LaTeX

TEX = ("tex",)
_TEX_HEAD = "\\documentclass{article}\n\\begin{document}\n"
_TEX_TAIL = "\n\\end{document}\n"


def _tex(body: str) -> str:
    return _TEX_HEAD + body + _TEX_TAIL


@case("tex_empty", "empty.tex", TEX, ("EmptyDocumentError",), "0-byte .tex")
def _tex_empty(d: Path, base: Path) -> None:
    _put(d, b"")


@case(
    "tex_input_absolute",
    "main.tex",
    TEX,
    ("ok",),
    "`\\input{/abs/path/secret}` (absolute path outside the folder)",
    flags=("unsafe_input_skipped",),
)
def _tex_abs(d: Path, base: Path) -> None:
    _put(d, _tex(f"Before.\n\n\\input{{{(base / 'secret').as_posix()}}}\n\nAfter."))


@case(
    "tex_input_absolute_raise",
    "main.tex",
    TEX,
    ("UnsafeInputError",),
    'the same with `on_unsafe_input="raise"`',
    config={"on_unsafe_input": "raise"},
)
def _tex_abs_raise(d: Path, base: Path) -> None:
    _put(d, _tex(f"Before.\n\n\\input{{{(base / 'secret.tex').as_posix()}}}\n\nAfter."))


@case(
    "tex_input_parent",
    "main.tex",
    TEX,
    ("ok",),
    "`\\input{../secret}`, `\\include{../../secret}`, `\\input{sub/../../secret}`",
    flags=("unsafe_input_skipped",),
)
def _tex_parent(d: Path, base: Path) -> None:
    _put(
        d,
        _tex(
            "A.\n\n\\input{../secret}\n\n\\include{../../secret}\n\n"
            "\\input{sub/../../secret.tex}\n\n\\import{../}{secret}\n\nB."
        ),
    )


@case(
    "tex_input_symlink",
    "main.tex",
    TEX,
    ("ok",),
    "`\\input{link}` where `link.tex` is a symlink to a file outside the folder",
    flags=("unsafe_input_skipped",),
)
def _tex_symlink(d: Path, base: Path) -> None:
    (d / "link.tex").symlink_to(base / "secret.tex")
    _put(d, _tex("A.\n\n\\input{link}\n\nB."))


@case(
    "tex_input_bad_names",
    "main.tex",
    TEX,
    ("ok",),
    "`\\input` of a symlink loop, a NUL-byte name and a 5000-character name",
    flags=("missing_input",),
)
def _tex_bad_names(d: Path, base: Path) -> None:
    (d / "loop.tex").symlink_to(d / "loop.tex")
    _put(d, _tex("A.\n\n\\input{loop}\n\n\\input{a\x00b}\n\n\\input{" + "n" * 5000 + "}\n\nB."))


@case(
    "tex_input_self",
    "main.tex",
    TEX,
    ("ok",),
    "`\\input{main}` in main.tex (self-loop)",
    flags=("input_loop",),
)
def _tex_self(d: Path, base: Path) -> None:
    _put(d, _tex("Start.\n\n\\input{main}\n\n\\input{main.tex}\n\nEnd."))


@case(
    "tex_input_mutual",
    "main.tex",
    TEX,
    ("ok",),
    "a.tex inputs b.tex inputs a.tex",
    flags=("input_loop",),
)
def _tex_mutual(d: Path, base: Path) -> None:
    (d / "a.tex").write_text("In a.\n\n\\input{b}\n", encoding="utf-8")
    (d / "b.tex").write_text("In b.\n\n\\input{a}\n", encoding="utf-8")
    _put(d, _tex("Start.\n\n\\input{a}\n\nEnd."))


@case(
    "tex_input_missing",
    "main.tex",
    TEX,
    ("ok",),
    "`\\input{nowhere}` (missing file)",
    flags=("missing_input",),
)
def _tex_missing(d: Path, base: Path) -> None:
    _put(d, _tex("Start.\n\n\\input{nowhere}\n\n\\include{chapters/none}\n\nEnd."))


@case(
    "tex_input_url",
    "main.tex",
    TEX,
    ("ok",),
    "`\\input{http://203.0.113.1/x}` and `\\input{\\jobname}` (never fetched)",
)
def _tex_url(d: Path, base: Path) -> None:
    _put(d, _tex("Start.\n\n\\input{http://203.0.113.1/x}\n\n\\input{\\jobname}\n\nEnd."))


@case(
    "tex_input_deep_chain",
    "main.tex",
    TEX,
    ("ok",),
    "a chain of 40 nested `\\input` files (deeper than the limit)",
)
def _tex_chain(d: Path, base: Path) -> None:
    for i in range(40):
        (d / f"f{i}.tex").write_text(f"Level {i}.\n\n\\input{{f{i + 1}}}\n", encoding="utf-8")
    _put(d, _tex("Start.\n\n\\input{f0}\n\nEnd."))


@case(
    "tex_def_self",
    "main.tex",
    TEX,
    ("ok", "ParseError"),
    "`\\def\\a{\\a}\\a` (infinite macro recursion)",
)
def _tex_def_self(d: Path, base: Path) -> None:
    _put(d, _tex("Text \\def\\a{\\a}\\a{} more text."))


@case(
    "tex_newcommand_doubling",
    "main.tex",
    TEX,
    ("ok", "ParseError"),
    "`\\newcommand{\\x}{\\x\\x}\\x` (exponential expansion)",
    bomb=True,
)
def _tex_doubling(d: Path, base: Path) -> None:
    _put(d, _tex("\\newcommand{\\x}{\\x\\x}\nText \\x{} more."))


@case(
    "tex_macro_laughs",
    "main.tex",
    TEX,
    ("ok", "ParseError"),
    "ten macros each expanding to ten copies of the previous (10^10 'lol')",
    bomb=True,
)
def _tex_laughs(d: Path, base: Path) -> None:
    names = [f"l{chr(97 + i)}" for i in range(10)]
    lines = ["\\newcommand{\\la}{lol}"]
    for prev, cur in itertools.pairwise(names):
        lines.append(f"\\newcommand{{\\{cur}}}{{" + f"\\{prev}" * 10 + "}")
    head = "\\documentclass{article}\n" + "\n".join(lines)
    _put(d, head + "\n\\begin{document}\n\\lj" + _TEX_TAIL)


@case(
    "tex_unbalanced_open",
    "main.tex",
    TEX,
    ("ok", "ParseError"),
    "20 000 `{` never closed, `\\begin{itemize}` never ended",
)
def _tex_open(d: Path, base: Path) -> None:
    _put(d, _tex("\\begin{itemize}\\item x " + "\\textbf{a" * 20000))


@case(
    "tex_unbalanced_close",
    "main.tex",
    TEX,
    ("ok", "ParseError"),
    "20 000 stray `}` and `\\end{table}`",
)
def _tex_close(d: Path, base: Path) -> None:
    _put(d, _tex("Some text. " + "} \\end{table} " * 20000))


@case(
    "tex_deep_braces",
    "main.tex",
    TEX,
    ("ok", "ParseError"),
    "braces nested 50 000 deep",
    bomb=True,
)
def _tex_deep(d: Path, base: Path) -> None:
    _put(d, _tex("{" * 50000 + "x" + "}" * 50000))


@case(
    "tex_long_line",
    "main.tex",
    TEX,
    ("ok",),
    "one 1 MB line of prose with an inline command every 2 KB",
)
def _tex_long(d: Path, base: Path) -> None:
    chunk = "plain words in a very long line " * 64 + "\\emph{stress} and $x^2$ "
    _put(d, _tex((chunk * (MB // len(chunk) + 1))[:MB].rsplit(" ", 1)[0]))


@case(
    "tex_verbatim_unclosed",
    "main.tex",
    TEX,
    ("ok", "ParseError"),
    "`\\begin{verbatim}` and `$` math never closed",
)
def _tex_verbatim(d: Path, base: Path) -> None:
    _put(d, _tex("Para.\n\n\\begin{verbatim}\ncode\n\n$ open math \\[ x"))


@case(
    "tex_binary",
    "main.tex",
    TEX,
    ("ok", "ParseError", "EmptyDocumentError"),
    "64 KB of random bytes with a .tex name",
)
def _tex_binary(d: Path, base: Path) -> None:
    _put(d, random.Random(5).randbytes(64 * 1024))


@case(
    "tex_latin1",
    "main.tex",
    TEX,
    ("ok",),
    "Latin-1 bytes (not UTF-8)",
)
def _tex_latin1(d: Path, base: Path) -> None:
    _put(d, _tex("Caf\xe9 na\xefve r\xe9sum\xe9 \xa9 2024.").encode("latin-1"))


# ---------------------------------------------------------------- EDGAR HTML

HTM = ("htm",)


@case("htm_empty", "empty.htm", HTM, ("EmptyDocumentError",), "0-byte .htm")
def _htm_empty(d: Path, base: Path) -> None:
    _put(d, b"")


@case(
    "htm_deep_nesting",
    "deep.htm",
    HTM,
    ("ok", "ParseError"),
    "`<div>` nested 100 000 deep",
    bomb=True,
)
def _htm_deep(d: Path, base: Path) -> None:
    _put(d, "<html><body>" + "<div>" * 100000 + "deep text" + "</div>" * 100000 + "</body></html>")


@case(
    "htm_deep_unclosed",
    "unclosed.htm",
    HTM,
    ("ok", "ParseError"),
    "50 000 unclosed `<table><tr><td><font>`",
)
def _htm_unclosed(d: Path, base: Path) -> None:
    _put(d, "<html><body>" + "<table><tr><td><font>cell " * 50000)


_LAUGHS_DTD = (
    '<!DOCTYPE html [\n<!ENTITY lol "lol">\n'
    + "".join(
        f'<!ENTITY lol{i} "{("&lol" + (str(i - 1) if i > 1 else "") + ";") * 10}">\n'
        for i in range(1, 10)
    )
    + "]>\n"
)


@case(
    "htm_billion_laughs",
    "laughs.htm",
    HTM,
    ("ok", "UnsafeInputError", "ParseError"),
    "EDGAR file with a billion-laughs entity DOCTYPE",
    bomb=True,
)
def _htm_laughs(d: Path, base: Path) -> None:
    _put(
        d,
        "<DOCUMENT>\n<TYPE>10-K\n<TEXT>\n"
        + _LAUGHS_DTD
        + "<html><body><p>Item 1. Business</p><p>&lol9;</p></body></html>\n</TEXT>\n</DOCUMENT>\n",
    )


@case(
    "htm_xxe",
    "xxe.htm",
    HTM,
    ("ok", "UnsafeInputError", "ParseError"),
    'XHTML with `<!ENTITY x SYSTEM "file:///.../secret.txt">`',
)
def _htm_xxe(d: Path, base: Path) -> None:
    _put(
        d,
        '<?xml version="1.0"?>\n<!DOCTYPE html [<!ENTITY xxe SYSTEM "'
        + (base / "secret.txt").as_uri()
        + '">]>\n<html xmlns="http://www.w3.org/1999/xhtml"><body><p>Leak: &xxe;</p>'
        + "<p>Normal paragraph.</p></body></html>\n",
    )


@case(
    "htm_remote_refs",
    "remote.htm",
    HTM,
    ("ok",),
    "`<img>`, `<link>`, `<iframe>`, `<script src>` to remote and file: URLs (never fetched)",
)
def _htm_remote(d: Path, base: Path) -> None:
    uri = (base / "secret.txt").as_uri()
    _put(
        d,
        f'<html><head><link rel="stylesheet" href="http://203.0.113.1/x.css">'
        f'<script src="{uri}"></script></head><body>'
        f'<iframe src="{uri}"></iframe><img src="http://203.0.113.1/a.png">'
        "<p>Only this paragraph is text.</p></body></html>",
    )


@case(
    "htm_long_line",
    "long.htm",
    HTM,
    ("ok",),
    "one 1 MB line of text inside a `<p>`",
)
def _htm_long(d: Path, base: Path) -> None:
    _put(d, "<html><body><p>" + ("revenue grew " * 90000)[:MB] + "</p></body></html>")


@case(
    "htm_sgml_truncated",
    "filing.htm",
    HTM,
    ("ok", "EmptyDocumentError", "ParseError"),
    "EDGAR `<DOCUMENT><TEXT>` wrapper cut off mid-table",
)
def _htm_sgml(d: Path, base: Path) -> None:
    _put(d, "<DOCUMENT>\n<TYPE>10-K\n<TEXT>\n<html><body><table><tr><td>$</td><td>1,2")


@case(
    "htm_binary",
    "binary.htm",
    HTM,
    ("ok", "ParseError", "EmptyDocumentError"),
    "64 KB of random bytes with an .htm name",
)
def _htm_binary(d: Path, base: Path) -> None:
    _put(d, random.Random(9).randbytes(64 * 1024))


@case(
    "htm_cp1252",
    "cp1252.htm",
    HTM,
    ("ok",),
    "Windows-1252 bytes, no charset declared",
)
def _htm_cp1252(d: Path, base: Path) -> None:
    text = "<html><body><p>\u201cQuoted\u201d \u2013 caf\xe9 \u20ac5</p></body></html>"
    _put(d, text.encode("cp1252"))


# ---------------------------------------------------------------- CSV

CSV = ("csv",)


@case("csv_empty", "empty.csv", CSV, ("EmptyDocumentError",), "0-byte .csv")
def _csv_empty(d: Path, base: Path) -> None:
    _put(d, b"")


@case("csv_blank", "blank.csv", CSV, ("EmptyDocumentError", "ok"), "only newlines and commas")
def _csv_blank(d: Path, base: Path) -> None:
    _put(d, "\n\n,,,\n\n,\n")


@case("csv_latin1", "latin1.csv", CSV, ("ok",), "Latin-1 bytes (not UTF-8)")
def _csv_latin1(d: Path, base: Path) -> None:
    _put(d, "name,city\nJos\xe9,S\xe3o Paulo\nM\xfcller,K\xf6ln\n".encode("latin-1"))


@case("csv_utf16", "utf16.csv", CSV, ("ok",), "UTF-16 with BOM")
def _csv_utf16(d: Path, base: Path) -> None:
    _put(d, "a,b\n1,2\n3,4\n".encode("utf-16"))


@case("csv_ragged", "ragged.csv", CSV, ("ok",), "rows of 1 to 40 cells")
def _csv_ragged(d: Path, base: Path) -> None:
    _put(d, "\n".join(",".join(str(j) for j in range(i % 40 + 1)) for i in range(200)) + "\n")


@case(
    "csv_unclosed_quote",
    "quote.csv",
    CSV,
    ("ok", "ParseError"),
    "a quote opened on line 2 and never closed",
)
def _csv_quote(d: Path, base: Path) -> None:
    _put(d, 'a,b\n"unclosed,1\n2,3\n4,5\n')


@case(
    "csv_huge_field",
    "huge.csv",
    CSV,
    ("ok", "ParseError"),
    "one 1 MB field (over the csv module's 128 KB field limit)",
)
def _csv_huge(d: Path, base: Path) -> None:
    _put(d, "a,b\n" + "x" * MB + ",1\n")


@case(
    "csv_nul_bytes",
    "nul.csv",
    CSV,
    ("ok", "ParseError"),
    "NUL bytes and random binary in a .csv",
)
def _csv_nul(d: Path, base: Path) -> None:
    _put(d, b"a,b\n1\x00,2\n" + random.Random(2).randbytes(4096))


@case(
    "csv_wide",
    "wide.csv",
    CSV,
    ("ok",),
    "one row of 100 000 columns",
)
def _csv_wide(d: Path, base: Path) -> None:
    _put(d, ",".join(str(i) for i in range(100000)) + "\n")


# ---------------------------------------------------------------- TXT

TXT = ("txt",)


@case("txt_empty", "empty.txt", TXT, ("EmptyDocumentError",), "0-byte .txt")
def _txt_empty(d: Path, base: Path) -> None:
    _put(d, b"")


@case("txt_whitespace", "blank.txt", TXT, ("EmptyDocumentError",), "only blank lines and tabs")
def _txt_ws(d: Path, base: Path) -> None:
    _put(d, "\n \n\t\n\n\r\n")


@case("txt_long_line", "long.txt", TXT, ("ok",), "one 1 MB line")
def _txt_long(d: Path, base: Path) -> None:
    _put(d, ("lorem ipsum dolor " * 60000)[:MB])


@case("txt_binary", "binary.txt", TXT, ("ok", "ParseError"), "64 KB of random bytes")
def _txt_binary(d: Path, base: Path) -> None:
    _put(d, random.Random(4).randbytes(64 * 1024))


@case("txt_latin1", "latin1.txt", TXT, ("ok",), "Latin-1 bytes (not UTF-8)")
def _txt_latin1(d: Path, base: Path) -> None:
    _put(d, "R\xe9sum\xe9\n\nCaf\xe9 au lait, na\xefve.\n".encode("latin-1"))


@case("txt_many_lines", "lines.txt", TXT, ("ok",), "200 000 one-character lines")
def _txt_lines(d: Path, base: Path) -> None:
    _put(d, "a\n" * 200000)


# ---------------------------------------------------------------- S2ORC JSON

S2 = ("s2orc",)
_NOT_S2 = ("UnsupportedFormatError", "ParseError", "EmptyDocumentError")


@case("json_empty", "empty.json", S2, ("EmptyDocumentError", "ParseError"), "0-byte .json")
def _json_empty(d: Path, base: Path) -> None:
    _put(d, b"")


@case("json_not_s2orc", "other.json", S2, _NOT_S2, "valid JSON object, not S2ORC")
def _json_other(d: Path, base: Path) -> None:
    _put(d, json.dumps({"name": "package", "version": "1.0", "dependencies": {}}))


@case("json_array", "array.json", S2, _NOT_S2, "a JSON array of numbers")
def _json_array(d: Path, base: Path) -> None:
    _put(d, json.dumps(list(range(1000))))


@case(
    "json_truncated",
    "truncated.json",
    S2,
    ("CorruptDocumentError", "ParseError"),
    "S2ORC JSON cut in the middle",
)
def _json_trunc(d: Path, base: Path) -> None:
    data = (ROOT / "fixtures/s2orc/N18-3011/N18-3011.json").read_bytes()
    _put(d, data[: len(data) // 2])


@case(
    "json_wrong_types",
    "types.json",
    S2,
    ("ok", "ParseError", "EmptyDocumentError"),
    "S2ORC keys with wrong types (`body_text` a string, `text` null, spans as dicts)",
)
def _json_types(d: Path, base: Path) -> None:
    _put(
        d,
        json.dumps(
            {
                "paper_id": 5,
                "title": ["not", "a", "string"],
                "abstract": [{"text": None, "section": 3}],
                "body_text": [
                    {"text": "Real paragraph.", "section": None, "cite_spans": {"a": 1}},
                    {"text": 42},
                    "bare string",
                    None,
                ],
                "ref_entries": {"TABREF0": {"type": "table", "content": None, "text": 7}},
                "bib_entries": [],
            }
        ),
    )


@case(
    "json_deep_nesting",
    "deep.json",
    S2,
    ("ParseError", "UnsupportedFormatError", "ok", "EmptyDocumentError"),
    "`body_text` nested 100 000 arrays deep",
    bomb=True,
)
def _json_deep(d: Path, base: Path) -> None:
    _put(d, '{"paper_id": "x", "body_text": ' + "[" * 100000 + "]" * 100000 + "}")


@case(
    "json_huge_string",
    "huge.json",
    S2,
    ("ok",),
    "one body paragraph of 1 MB",
)
def _json_huge(d: Path, base: Path) -> None:
    _put(
        d,
        json.dumps(
            {"paper_id": "x", "title": "T", "body_text": [{"text": ("word " * 220000)[:MB]}]}
        ),
    )


# ---------------------------------------------------------------- PMC JATS

JATS = ("jats",)
_JATS_BODY = (
    '<article article-type="research-article"><front><article-meta><title-group>'
    "<article-title>Hostile</article-title></title-group></article-meta></front>"
    "<body><sec><title>Intro</title><p>Safe paragraph. {x}</p></sec></body></article>"
)


@case("jats_empty", "empty.nxml", JATS, ("EmptyDocumentError", "CorruptDocumentError"), "0-byte")
def _jats_empty(d: Path, base: Path) -> None:
    _put(d, b"")


@case(
    "jats_xxe_file",
    "xxe.nxml",
    JATS,
    ("ok", "UnsafeInputError", "CorruptDocumentError"),
    'external entity `SYSTEM "file:///.../secret.txt"` (see also tests/formats/test_jats.py)',
)
def _jats_xxe(d: Path, base: Path) -> None:
    _put(
        d,
        '<?xml version="1.0"?>\n<!DOCTYPE article [<!ENTITY xxe SYSTEM "'
        + (base / "secret.txt").as_uri()
        + '">]>\n'
        + _JATS_BODY.replace("{x}", "&xxe;"),
    )


@case(
    "jats_external_dtd",
    "dtd.nxml",
    JATS,
    ("ok", "UnsafeInputError", "CorruptDocumentError"),
    "DOCTYPE with a remote DTD (`http://203.0.113.1/...`) and a parameter entity to a local file",
)
def _jats_dtd(d: Path, base: Path) -> None:
    _put(
        d,
        '<?xml version="1.0"?>\n<!DOCTYPE article PUBLIC "-//NLM//DTD JATS//EN" '
        '"http://203.0.113.1/JATS-archivearticle1.dtd" [<!ENTITY % p SYSTEM "'
        + (base / "secret.txt").as_uri()
        + '"> %p;]>\n'
        + _JATS_BODY.replace("{x}", ""),
    )


@case(
    "jats_xinclude",
    "xinclude.nxml",
    JATS,
    ("ok", "UnsafeInputError", "CorruptDocumentError"),
    '`<xi:include href="file:///.../secret.txt" parse="text"/>`',
)
def _jats_xinclude(d: Path, base: Path) -> None:
    _put(
        d,
        '<?xml version="1.0"?>\n'
        + _JATS_BODY.replace(
            "<article ", '<article xmlns:xi="http://www.w3.org/2001/XInclude" '
        ).replace("{x}", f'<xi:include href="{(base / "secret.txt").as_uri()}" parse="text"/>'),
    )


@case(
    "jats_billion_laughs",
    "laughs.nxml",
    JATS,
    ("ok", "UnsafeInputError", "CorruptDocumentError"),
    "billion-laughs internal entities (see also tests/formats/test_jats.py)",
    bomb=True,
)
def _jats_laughs(d: Path, base: Path) -> None:
    _put(
        d,
        '<?xml version="1.0"?>\n'
        + _LAUGHS_DTD.replace("html", "article")
        + _JATS_BODY.replace("{x}", "&lol9;"),
    )


@case(
    "jats_truncated",
    "truncated.nxml",
    JATS,
    ("CorruptDocumentError", "ok"),
    "real JATS article cut in the middle",
)
def _jats_trunc(d: Path, base: Path) -> None:
    data = (ROOT / "fixtures/pmc/PMC3166277/1471-2180-11-174.nxml").read_bytes()
    _put(d, data[: len(data) // 2])


@case(
    "jats_not_jats",
    "other.xml",
    JATS,
    ("ok", "EmptyDocumentError", "ParseError", "UnsupportedFormatError"),
    "well-formed XML that is not JATS (an RSS feed)",
)
def _jats_other(d: Path, base: Path) -> None:
    _put(d, '<?xml version="1.0"?><rss><channel><item><title>x</title></item></channel></rss>')


@case(
    "jats_deep_nesting",
    "deep.nxml",
    JATS,
    ("ok", "CorruptDocumentError", "UnsafeInputError"),
    "`<sec>` nested 100 000 deep",
    bomb=True,
)
def _jats_deep(d: Path, base: Path) -> None:
    _put(d, _JATS_BODY.replace("{x}", "<sec>" * 100000 + "x" + "</sec>" * 100000))
