"""pylatexenc set-up: macro and environment argument specs, the parser context,
the text renderer, and the source text as it is handed to the parser
(environment macros expanded, very long runs broken up).
"""

from __future__ import annotations

import re
from functools import lru_cache

from pylatexenc import latexwalker as lw
from pylatexenc import macrospec as ms
from pylatexenc.latex2text import LatexNodes2Text
from pylatexenc.latex2text import get_default_latex_context_db as _l2t_db

from docparse.errors import ParseError
from docparse.formats.tex.nodes import _skip_group
from docparse.formats.tex.vocabulary import _COMMENT


def _macro_specs() -> list[ms.MacroSpec]:
    specs = {
        "multicolumn": "{{{",
        "multirow": "[{[{[{",
        "cline": "{",
        "cdashline": "{",
        "Xhline": "{",
        "arrayrulecolor": "[{",
        "addlinespace": "[",
        "bottomrule": "[",
        "midrule": "[",
        "toprule": "[",
        "hhline": "{",
        "specialrule": "{{{",
        "resizebox": "*{{{",
        "scalebox": "{[{",
        "rotatebox": "[{{",
        "adjustbox": "{{",
        "raisebox": "{[[{",
        "parbox": "[[[{{",
        "makebox": "[[{",
        "framebox": "[[{",
        "colorbox": "[{{",
        "fcolorbox": "[{{{",
        "href": "{{",
        "url": "{",
        "nolinkurl": "{",
        "author": "[{",
        "affiliation": "[{",
        "altaffiliation": "{",
        "title": "[{",
        "software": "{",
        "keywords": "{",
        "abstract": "{",
        "dataset": "[{",
        "caption": "*[{",
        "captionof": "*{[{",
        "subcaption": "[{",
        "tablecaption": "{",
        "tablehead": "{",
        "tablecomments": "{",
        "tablenotetext": "{{",
        "tablerefs": "{",
        "colhead": "{",
        "nocolhead": "{",
        "multicolhead": "{{{",
        "twocolhead": "{",
        "cutinhead": "{",
        "sidehead": "{",
        "tablewidth": "{",
        "tabletypesize": "{",
        "tablenum": "{",
        "plotone": "{",
        "plottwo": "{{",
        "epsscale": "{",
        "figurenum": "{",
        "fig": "{{{",
        "gridline": "{",
        "footnote": "[{",
        "footnotetext": "[{",
        "footnotemark": "[",
        "thanks": "{",
        "email": "{",
        "orcid": "{",
        "authornote": "{",
        "institution": "{",
        "city": "{",
        "state": "{",
        "country": "{",
        "postcode": "{",
        "streetaddress": "{",
        "department": "[{",
        "correspondingauthor": "{",
        "shorttitle": "{",
        "shortauthors": "{",
        "received": "[{",
        "revised": "[{",
        "accepted": "[{",
        "published": "[{",
        "submitjournal": "{",
        "ccsdesc": "[{",
        "setcopyright": "{",
        "copyrightyear": "{",
        "acmYear": "{",
        "acmDOI": "{",
        "acmConference": "[{{{",
        "acmBooktitle": "{",
        "acmPrice": "{",
        "acmISBN": "{",
        "acmJournal": "{",
        "acmVolume": "{",
        "acmNumber": "{",
        "acmArticle": "{",
        "acmMonth": "{",
        "editor": "{",
        "jmlrvolume": "{",
        "jmlryear": "{",
        "jmlrworkshop": "{",
        "jmlrproceedings": "{{",
        "firstpageno": "{",
        "Name": "[{",
        "Email": "{",
        "textcolor": "[{{",
        "color": "[{",
        "definecolor": "{{{",
        "colorlet": "{{",
        "rowcolor": "[{",
        "cellcolor": "[{",
        "columncolor": "[{",
        "setlength": "{{",
        "addtolength": "{{",
        "setcounter": "{{",
        "addtocounter": "{{",
        "newlength": "{",
        "captionsetup": "[{",
        "hypersetup": "{",
        "graphicspath": "{",
        "newtheorem": "*{[{[",
        "newcolumntype": "{[{",
        "newenvironment": "*{[[{{",
        "renewenvironment": "*{[[{{",
        "DeclareMathOperator": "*{{",
        "pagestyle": "{",
        "thispagestyle": "{",
        "import": "{{",
        "subimport": "*{{",
        "subfile": "{",
        "includefrom": "{{",
        "addbibresource": "[{",
        "bibliographystyle": "{",
        "printbibliography": "[",
        "tnote": "{",
        "mathversion": "{",
        "selectlanguage": "{",
        "foreignlanguage": "[{{",
        "hyphenation": "{",
        "pdfoutput": "",
        "homepage": "[{",
        "urladdr": "[{",
        "curraddr": "[{",
        "keywordname": "{",
        "subjclass": "[{",
        "translator": "{",
        "sectionref": "{",
        "equationref": "{",
        "tableref": "{",
        "figureref": "{",
        "algorithmref": "{",
        "theoremref": "{",
        "lemmaref": "{",
        "remarkref": "{",
        "corollaryref": "{",
        "definitionref": "{",
        "conjectureref": "{",
        "axiomref": "{",
        "exampleref": "{",
        "appendixref": "{",
        "subfigref": "{",
        "subtabref": "{",
        "propositionref": "{",
        "partref": "{",
        "chapterref": "{",
        "floatconts": "{{{",
        "includeteximage": "[{",
        "subfigure": "[[{",
        "subtable": "[[{",
        "subfloat": "[[{",
        "IEEEauthorblockN": "{",
        "IEEEauthorblockA": "{",
        "IEEEPARstart": "{{",
        "institute": "{",
        "inst": "{",
        "collaboration": "{{",
        "authornotemark": "[",
        "figsetplot": "{",
        "figsetnum": "{",
        "figsetgrpnum": "{",
        "figsetgrptitle": "{",
        "Description": "[{",
        "abovestrut": "{",
        "belowstrut": "{",
        "epigraph": "{{",
        "index": "{",
        "markboth": "{{",
        "markright": "{",
        "enlargethispage": "*{",
        "addcontentsline": "{{{",
        "pdfbookmark": "[{{",
        "rule": "[{{",
        "textsuperscript": "{",
        "textsubscript": "{",
        "ensuremath": "{",
        "object": "{{",
        "facility": "{",
        "facilities": "{",
        "doi": "{",
        "arxiv": "{",
        "nocite": "{",
        "subref": "{",
        "autoref": "*{",
        "cref": "*{",
        "Cref": "*{",
        "eqref": "{",
        "pageref": "*{",
        "nameref": "*{",
        "vref": "*{",
        "citealt": "*[[{",
        "citealp": "*[[{",
        "citeauthor": "*[[{",
        "citeyear": "*[[{",
        "citeyearpar": "*[[{",
        "citenum": "{",
        "parencite": "*[[{",
        "textcite": "*[[{",
        "autocite": "*[[{",
        "footcite": "*[[{",
        "Citep": "*[[{",
        "Citet": "*[[{",
        "Citealt": "*[[{",
        "Citealp": "*[[{",
        "Citeauthor": "*[[{",
        "citeN": "[{",
        "onlinecite": "*[[{",
        # definitions read like \newcommand: star, name, [n args], [default], body
        "DeclareRobustCommand": "*{[[{",
        "newrobustcmd": "*{[[{",
        "renewrobustcmd": "*{[[{",
        "providerobustcmd": "*{[[{",
        "shortcite": "[{",
        "fontsize": "{{",
        "linespread": "{",
        "hspace": "*{",
        "vspace": "*{",
        "item": "[",
        "date": "{",
        "journal": "{",
        "volume": "{",
        "issue": "{",
        "pubyear": "{",
        "submitted": "{",
        "ead": "[{",
        "address": "[{",
        "cortext": "[{",
        "fntext": "[{",
        "tnotetext": "[{",
        "paragraph": "*[{",
        "subparagraph": "*[{",
        "part": "*[{",
        "chapter": "*[{",
    }
    out = [ms.MacroSpec(name, spec) for name, spec in specs.items()]
    out.append(ms.MacroSpec("string", args_parser=_StringArgParser()))
    return out


def _env_specs() -> list[ms.EnvironmentSpec]:
    specs = {
        "tabular": "[{",
        "tabular*": "{[{",
        "tabularx": "{[{",
        "tabulary": "{[{",
        "longtable": "[{",
        "longtable*": "[{",
        "supertabular": "{",
        "xtabular": "[{",
        "tblr": "[{",
        "longtblr": "[[{",
        "talltblr": "[[{",
        "deluxetable": "{",
        "deluxetable*": "{",
        "splitdeluxetable": "{",
        "splitdeluxetable*": "{",
        "minipage": "[[[{",
        "wrapfigure": "[{[{",
        "wraptable": "[{[{",
        "subfigure": "[[[{",
        "subtable": "[[[{",
        "figure": "[",
        "figure*": "[",
        "table": "[",
        "table*": "[",
        "teaserfigure": "",
        "algorithm": "[",
        "algorithm*": "[",
        "algorithmic": "[",
        "adjustbox": "{",
        "tcolorbox": "[",
        "multicols": "{[",
        "multicols*": "{",
        "list": "{{",
        "thebibliography": "{",
        "alignat": "{",
        "alignat*": "{",
        "threeparttable": "[",
        "tablenotes": "[",
        "interactive": "{{",
        "otherlanguage": "{",
        "otherlanguage*": "{",
        "longrotatetable": "",
    }
    out = [ms.EnvironmentSpec(name, spec) for name, spec in specs.items()]
    for name in (
        "verbatim",
        "verbatim*",
        "lstlisting",
        "Verbatim",
        "minted",
        "alltt",
        "comment",
        "CCSXML",
        "filecontents",
        "filecontents*",
    ):
        out.append(ms.EnvironmentSpec(name, args_parser=_VerbatimEnvParser(name)))
    return out


class _StringArgParser(ms.VerbatimArgsParser):  # type: ignore[misc]
    """The one token after ``\\string``, verbatim (``\\begin`` must not open an
    environment there)."""

    def __init__(self) -> None:
        super().__init__(verbatim_arg_type="verb-macro")

    def parse_args(
        self, w: lw.LatexWalker, pos: int, parsing_state: object = None
    ) -> tuple[object, int, int]:
        s = w.s
        start = pos
        while start < len(s) and s[start] in " \t":
            start += 1
        end = start
        if end < len(s) and s[end] == "\\":
            end += 1
            while end < len(s) and s[end].isalpha():
                end += 1
            if end == start + 1 and end < len(s):
                end += 1
        elif end < len(s):
            end += 1
        node = w.make_node(
            lw.LatexCharsNode,
            parsing_state=parsing_state,
            chars=s[start:end],
            pos=start,
            len=end - start,
        )
        return (ms.ParsedVerbatimArgs(verbatim_chars_node=node), pos, end - pos)


class _VerbatimEnvParser(ms.VerbatimArgsParser):  # type: ignore[misc]
    """Body of a verbatim-like environment, read up to its own ``\\end``.

    pylatexenc's parser always looks for ``\\end{verbatim}``, which swallows
    the rest of the file after a ``lstlisting`` or ``comment``.
    """

    def __init__(self, environment: str) -> None:
        super().__init__(verbatim_arg_type="verbatim-environment")
        self.environment = environment

    def parse_args(
        self, w: lw.LatexWalker, pos: int, parsing_state: object = None
    ) -> tuple[object, int, int]:
        end = w.s.find("\\end{" + self.environment + "}", pos)
        if end == -1:
            end = len(w.s)
        node = w.make_node(
            lw.LatexCharsNode,
            parsing_state=parsing_state,
            chars=w.s[pos:end],
            pos=pos,
            len=end - pos,
        )
        return (ms.ParsedVerbatimArgs(verbatim_chars_node=node), pos, end - pos)


@lru_cache(maxsize=1)
def _context_db() -> ms.LatexContextDb:
    db = lw.get_default_latex_context_db()
    db.add_context_category(
        "docparse-tex",
        macros=_macro_specs(),
        environments=_env_specs(),
        prepend=True,
    )
    _speed_up_specials(db)
    return db


def _speed_up_specials(db: ms.LatexContextDb) -> None:
    """Index the specials by first character.

    pylatexenc tests every category's specials at every character of the
    input, which is most of its parse time; the index gives the same answer
    (longest match, earlier category first on ties) with one dict lookup.
    """
    index: dict[str, list[tuple[str, object]]] = {}
    for cat in db.category_list:
        for chars, spec in db.d[cat]["specials"].items():
            bucket = index.setdefault(chars[0], [])
            if all(c != chars for c, _ in bucket):
                bucket.append((chars, spec))
    for bucket in index.values():
        bucket.sort(key=lambda cs: -len(cs[0]))

    def test_for_specials(s: str, pos: int, parsing_state: object = None) -> object:
        if pos >= len(s):
            return None
        bucket = index.get(s[pos])
        if bucket is None:
            return None
        for chars, spec in bucket:
            if s.startswith(chars, pos):
                return spec
        return None

    setattr(db, "test_for_specials", test_for_specials)  # noqa: B010


@lru_cache(maxsize=1)
def _l2t() -> LatexNodes2Text:
    return LatexNodes2Text(math_mode="verbatim", keep_comments=False)


@lru_cache(maxsize=1)
def _l2t_symbols() -> ms.LatexContextDb:
    return _l2t_db()


_MATH_COLUMN = re.compile(r"([<>])\{(\s*)\$(\s*)\}")


#: Total characters of user-macro bodies expanded in one document (real papers
#: in the corpus expand under 1 000; a fuzzed 349-byte file reached millions).
_MAX_EXPANDED_CHARS = 250_000


#: A run of plain characters (no LaTeX specials) long enough to slow pylatexenc.
#: The lookbehind lets a match start only where a run starts: without it the
#: search retried from every character of every shorter run (quadratic in the
#: run length; 20 s on a 1 MB line with a command every 2 KB).
_LONG_RUN = re.compile(r"(?<![^\\{}$%&~#^_])[^\\{}$%&~#^_]{4096,}")


_RUN_STEP = 2048


def _break_long_runs(text: str) -> str:
    """Replace one space every ~2 KB of a long plain run with ``~``.

    pylatexenc appends each character of a run to a growing string
    (``PosPointer.push_lastchars``), which is quadratic in the run length: a
    hostile 1 MB line without markup took minutes. A tie ``~`` is a node of
    its own that ends the run, renders as a space, and keeps every position.
    """

    def cut(m: re.Match[str]) -> str:
        run = list(m.group(0))
        for i in range(_RUN_STEP, len(run), _RUN_STEP):
            j = next((k for k in range(i, min(i + 256, len(run))) if run[k] == " "), None)
            if j is not None:
                run[j] = "~"
        return "".join(run)

    return _LONG_RUN.sub(cut, text)


def _walk_source(text: str) -> list[lw.LatexNode]:
    # array-package column types ">{$}c<{$}" put a lone "$" in a group, which
    # would open math to the end of the file; a blank of the same length keeps
    # every position.
    text = _MATH_COLUMN.sub(r"\1{\2 \3}", text)
    text = _break_long_runs(text)
    walker = lw.LatexWalker(text, latex_context=_context_db(), tolerant_parsing=True)
    try:
        nodes, _, _ = walker.get_latex_nodes()
    except IndexError as exc:
        # pylatexenc reads past the end on a truncated construct such as a
        # final bare ``\verb`` (found by fuzz_tex).
        raise ParseError(None, f"truncated LaTeX construct at the end: {exc}", cause=exc) from exc
    return list(nodes)


_ENV_MACRO_DEF = re.compile(
    r"\\(?:(?:(?:re|provide)?newcommand|DeclareRobustCommand|(?:re|provide)?newrobustcmd)\*?\s*(?:\{\s*\\([A-Za-z@]+)\s*\}|\\([A-Za-z@]+))"
    r"|\\[gex]?def\s*\\([A-Za-z@]+))\s*\{"
)


def _env_macro_defs(text: str) -> tuple[str, dict[str, str]]:
    """Take out argument-free macros that open or close an environment.

    ``\\newcommand{\\be}{\\begin{equation}}`` cannot be left to the parser:
    it pairs ``\\begin`` with ``\\end`` while reading, so the definition (and
    every ``\\be ... \\ee``) would swallow the text after it. Such
    definitions are removed from the text and returned as name -> body.
    """
    found: dict[str, str] = {}
    spans: list[tuple[int, int]] = []
    for m in _ENV_MACRO_DEF.finditer(text):
        line_start = text.rfind("\n", 0, m.start()) + 1
        if _COMMENT.search(text, line_start, m.start()):
            continue
        end = _skip_group(text, m.end() - 1)
        body = text[m.end() : end - 1]
        if re.search(r"\\(?:begin|end)\s*\{", body) and "#" not in body:
            found[m.group(1) or m.group(2) or m.group(3)] = " ".join(body.split())
            spans.append((m.start(), end))
    if not found:
        return text, {}
    pieces = []
    last = 0
    for start, end in spans:
        pieces.append(text[last:start])
        last = end
    pieces.append(text[last:])
    return "".join(pieces), found


def _expand_env_macros(text: str, env_macros: dict[str, str]) -> str:
    if not env_macros:
        return text
    names = sorted(env_macros, key=len, reverse=True)
    pattern = re.compile(r"\\(" + "|".join(re.escape(n) for n in names) + r")(?![A-Za-z@])")
    return pattern.sub(lambda m: " " + env_macros[m.group(1)] + " ", text)


def _prepare(text: str, env_macros: dict[str, str]) -> str:
    """Source text as it is parsed: environment macros expanded (see above)."""
    text, own = _env_macro_defs(text)
    env_macros.update(own)
    return _expand_env_macros(text, env_macros)
