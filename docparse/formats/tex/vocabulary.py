"""The LaTeX vocabulary the converter knows: environments, macros, symbols.

Data only: which environments are tables, floats, lists, math or dropped, which
macros cite, refer, input files or print nothing, and what symbol macros print.
"""

from __future__ import annotations

import re

#: Environments counted (and parsed) as tables.
TABULAR_ENVIRONMENTS: frozenset[str] = frozenset(
    {
        "tabular",
        "tabular*",
        "tabularx",
        "tabulary",
        "longtable",
        "longtable*",
        "supertabular",
        "xtabular",
        "tblr",
        "longtblr",
        "talltblr",
        "deluxetable",
        "deluxetable*",
        "splitdeluxetable",
        "splitdeluxetable*",
    }
)


_DELUXE = frozenset({"deluxetable", "deluxetable*", "splitdeluxetable", "splitdeluxetable*"})


_FLOATS = frozenset(
    {
        "figure",
        "figure*",
        "table",
        "table*",
        "wrapfigure",
        "wraptable",
        "teaserfigure",
        "sidewaystable",
        "sidewaysfigure",
        "subfigure",
        "subtable",
        "longrotatetable",
        "rotatetable",
        "algorithm",
        "algorithm*",
        "marginfigure",
        "margintable",
    }
)


_LISTS = frozenset(
    {
        "itemize",
        "enumerate",
        "description",
        "itemize*",
        "enumerate*",
        "description*",
        "compactitem",
        "compactenum",
        "compactdesc",
        "inparaenum",
        "asparaenum",
        "altdescription",
        "list",
        "enumerate-compact",
    }
)


_MATH_DISPLAY = frozenset(
    {
        "equation",
        "equation*",
        "align",
        "align*",
        "alignat",
        "alignat*",
        "flalign",
        "flalign*",
        "gather",
        "gather*",
        "multline",
        "multline*",
        "eqnarray",
        "eqnarray*",
        "displaymath",
        "dmath",
        "dmath*",
        "subequations",
    }
)


_VERBATIM = frozenset({"verbatim", "verbatim*", "Verbatim", "lstlisting", "minted", "alltt"})


_DROP_ENVS = frozenset(
    {
        "thebibliography",
        "comment",
        "CCSXML",
        "filecontents",
        "filecontents*",
        "tikzpicture",
        "pspicture",
        "picture",
        "titlepage",
    }
)


_ABSTRACT_ENVS = frozenset({"abstract"})


_ACK_ENVS = frozenset({"acknowledgments", "acknowledgements", "acks", "acknowledgment"})


_QUOTE_ENVS = frozenset({"quote", "quotation", "verse"})


_CODE_TEXT_ENVS = frozenset({"algorithmic", "algorithmic*", "algorithm2e"})


_SECTION_LEVELS: dict[str, int] = {
    "part": 0,
    "chapter": 1,
    "section": 2,
    "subsection": 3,
    "subsubsection": 4,
    "paragraph": 5,
    "subparagraph": 6,
}


_CITE = re.compile(
    r"^(?:[Cc]ite\w*|[Pp]arencite|[Tt]extcite|[Aa]utocite|[Ff]ootcite|nocite|onlinecite)$"
)


_CITE_NAMES = frozenset(
    {
        "cite",
        "citep",
        "citet",
        "citealt",
        "citealp",
        "citeauthor",
        "citeyear",
        "citeyearpar",
        "citenum",
        "parencite",
        "textcite",
        "autocite",
        "footcite",
        "Cite",
        "Citep",
        "Citet",
        "Citealt",
        "Citealp",
        "Citeauthor",
        "nocite",
        "citeN",
        "shortcite",
        "onlinecite",
    }
)


_REF_NAMES = frozenset(
    {
        "sectionref",
        "equationref",
        "tableref",
        "figureref",
        "algorithmref",
        "theoremref",
        "lemmaref",
        "remarkref",
        "corollaryref",
        "definitionref",
        "conjectureref",
        "axiomref",
        "exampleref",
        "appendixref",
        "subfigref",
        "subtabref",
        "propositionref",
        "partref",
        "chapterref",
        "ref",
        "eqref",
        "autoref",
        "cref",
        "Cref",
        "pageref",
        "vref",
        "nameref",
        "subref",
        "crefrange",
        "Crefrange",
        "labelcref",
    }
)


_INPUT_NAMES = frozenset({"input", "include", "subfile", "import", "subimport", "includefrom"})


_BIB_NAMES = frozenset(
    {"bibliography", "bibliographystyle", "printbibliography", "addbibresource", "nocite"}
)


_NEWCMD = frozenset(
    {
        "newcommand",
        "renewcommand",
        "providecommand",
        "DeclareRobustCommand",
        "newcommand*",
        "newrobustcmd",
        "renewrobustcmd",
        "providerobustcmd",
    }
)


#: Macros dropped with their arguments (no visible text).
_DROP_MACROS = frozenset(
    {
        "affiliation",
        "altaffiliation",
        "email",
        "orcid",
        "thanks",
        "authornote",
        "institution",
        "city",
        "state",
        "country",
        "postcode",
        "streetaddress",
        "department",
        "correspondingauthor",
        "shorttitle",
        "shortauthors",
        "received",
        "revised",
        "accepted",
        "published",
        "submitjournal",
        "includegraphics",
        "plotone",
        "plottwo",
        "epsscale",
        "epsfig",
        "epsfbox",
        "fig",
        "gridline",
        "figurenum",
        "tablenum",
        "tablewidth",
        "tabletypesize",
        "setlength",
        "addtolength",
        "setcounter",
        "addtocounter",
        "newlength",
        "vspace",
        "hspace",
        "vskip",
        "hskip",
        "color",
        "pagecolor",
        "definecolor",
        "hypersetup",
        "graphicspath",
        "usepackage",
        "RequirePackage",
        "documentclass",
        "newtheorem",
        "newcolumntype",
        "newenvironment",
        "renewenvironment",
        "DeclareMathOperator",
        "pagestyle",
        "thispagestyle",
        "captionsetup",
        "maketitle",
        "tableofcontents",
        "listoffigures",
        "listoftables",
        "clearpage",
        "newpage",
        "cleardoublepage",
        "pagebreak",
        "nopagebreak",
        "linebreak",
        "noindent",
        "indent",
        "centering",
        "raggedright",
        "raggedleft",
        "flushleft",
        "flushright",
        "hfill",
        "vfill",
        "hfil",
        "vfil",
        "medskip",
        "bigskip",
        "smallskip",
        "protect",
        "relax",
        "appendix",
        "today",
        "label",
        "ccsdesc",
        "setcopyright",
        "copyrightyear",
        "acmYear",
        "acmDOI",
        "acmConference",
        "acmBooktitle",
        "acmPrice",
        "acmISBN",
        "acmJournal",
        "acmVolume",
        "acmNumber",
        "acmArticle",
        "acmMonth",
        "editor",
        "jmlrvolume",
        "jmlryear",
        "jmlrworkshop",
        "jmlrproceedings",
        "firstpageno",
        "Email",
        "addr",
        "AND",
        "And",
        "AUTHORS",
        "nametag",
        "titlerunning",
        "authorrunning",
        "affil",
        "keywordsname",
        "settopmatter",
        "renewcommand",
        "newcommand",
        "providecommand",
        "def",
        "let",
        "linenumbers",
        "bibpunct",
        "setcitestyle",
        "citestyle",
        "frenchspacing",
        "sloppy",
        "fussy",
        "onecolumn",
        "twocolumn",
        "nolinenumbers",
        "leavevmode",
        "null",
        "strut",
        "phantom",
        "hphantom",
        "vphantom",
        "allowdisplaybreaks",
        "numberwithin",
        "Crefname",
        "crefname",
        "urlstyle",
        "restylefloat",
        "floatname",
        "caption",
        "tablecaption",
        "tablecomments",
        "tablenotetext",
        "tablerefs",
        "startdata",
        "enddata",
        "decimals",
        "colnumbers",
        "decimalcolnumbers",
        "movetabledown",
        "object",
        "facility",
        "facilities",
        "dataset",
        "doi",
        "arxiv",
        "ead",
        "address",
        "cortext",
        "fntext",
        "tnotetext",
        "balance",
        "printccsdesc",
        "ignorespaces",
        "unskip",
        "selectfont",
        "fontsize",
        "linespread",
        "baselineskip",
        "tabcolsep",
        "arraystretch",
        "textwidth",
        "linewidth",
        "columnwidth",
        "textheight",
        "hline",
        "toprule",
        "midrule",
        "bottomrule",
        "cline",
        "cmidrule",
        "hhline",
        "specialrule",
        "addlinespace",
        "morecmidrules",
        "endhead",
        "endfirsthead",
        "endfoot",
        "endlastfoot",
        "rowcolor",
        "cellcolor",
        "arrayrulecolor",
        "columncolor",
        "tnote",
        "mathversion",
        "selectlanguage",
        "hyphenation",
        "homepage",
        "urladdr",
        "curraddr",
        "subjclass",
        "translator",
        "includeteximage",
        "inst",
        "authornotemark",
        "figsetplot",
        "figsetnum",
        "figsetgrpnum",
        "figsetgrptitle",
        "figsetstart",
        "figsetend",
        "figsetgrpstart",
        "figsetgrpend",
        "Description",
        "abovestrut",
        "belowstrut",
        "epigraph",
        "index",
        "glossary",
        "markboth",
        "markright",
        "enlargethispage",
        "rule",
        "FloatBarrier",
        "suppressfloats",
        "addcontentsline",
        "pdfbookmark",
        "bibinfo",
        "submitted",
        "volume",
        "issue",
        "pubyear",
        "date",
        "preprint",
        "journal",
    }
)


#: Font switches and other argument-free declarations that print nothing.
_DECLARATIONS = frozenset(
    {
        "tt",
        "it",
        "bf",
        "rm",
        "sf",
        "sc",
        "em",
        "sl",
        "normalfont",
        "bfseries",
        "itshape",
        "ttfamily",
        "rmfamily",
        "sffamily",
        "scshape",
        "upshape",
        "mdseries",
        "slshape",
        "tiny",
        "scriptsize",
        "footnotesize",
        "small",
        "normalsize",
        "large",
        "Large",
        "LARGE",
        "huge",
        "Huge",
        "boldmath",
        "unboldmath",
        "displaystyle",
        "textstyle",
        "nonumber",
        "notag",
    }
)


#: Symbols LaTeX prints for argument-free macros, where pylatexenc has none
#: or a poor one.
_SYMBOLS: dict[str, str] = {
    "&": "&",
    "%": "%",
    "$": "$",
    "#": "#",
    "_": "_",
    "{": "{",
    "}": "}",
    " ": " ",
    ",": " ",
    ";": " ",
    ":": " ",
    "!": "",
    "@": "",
    "/": "",
    "-": "",
    "\\": " ",
    "newline": " ",
    "tabularnewline": " ",
    "quad": " ",
    "qquad": " ",
    "enspace": " ",
    "thinspace": " ",
    "nobreakspace": " ",
    "space": " ",
    "arcsec": "″",
    "arcmin": "′",
    "farcs": "″.",
    "farcm": "′.",
    "fdg": "°.",
    "degr": "°",
    "sun": "☉",
    "earth": "⊕",
    "micron": "μm",
    "AA": "Å",
    "ang": "Å",
    "TeX": "TeX",
    "LaTeX": "LaTeX",
    "LaTeXe": "LaTeX2e",
    "BibTeX": "BibTeX",
    "AmS": "AMS",
    "ldots": "…",
    "dots": "…",
    "textellipsis": "…",
    "etal": "et al.",
    "eg": "e.g.",
    "ie": "i.e.",
    "nodata": "…",
    "titlebreak": " ",
    "sep": ",",
    "textbackslash": "\\",
    "textasciitilde": "~",
    "textasciicircum": "^",
    "textbar": "|",
    "textless": "<",
    "textgreater": ">",
    "textbullet": "•",
    "textendash": "–",
    "textemdash": "—",
    "textquoteleft": "‘",
    "textquoteright": "’",
    "textquotedblleft": "“",
    "textquotedblright": "”",
    "textdegree": "°",
    "textregistered": "®",
    "texttrademark": "™",
    "copyright": "©",
    "textcopyright": "©",
    "S": "§",
    "P": "¶",
    "dag": "†",
    "ddag": "‡",
    "pounds": "£",
    "euro": "€",
    "checkmark": "✓",
    "cmark": "✓",
    "xmark": "✗",
}


_SPECIALS: dict[str, str] = {
    "~": " ",
    "--": "–",
    "---": "—",
    "``": "“",
    "''": "”",
    "&": " ",
    "!`": "¡",
    "?`": "¿",
}


# Display-math wrapper used in equation units (kept as LaTeX, so a reader
# sees the formula; the delimiters mark it as math for checkers).
_DISPLAY_OPEN, _DISPLAY_CLOSE = "\\[", "\\]"


_SENTINEL = "\x00"  # where a citation/reference marker was removed


_BULLET_LABEL = re.compile(
    r"\$|\\(?:bullet|circ|cdot|star|ast|diamond|triangleright|rightarrow|to|checkmark|"
    r"blacksquare|square|textbullet|textendash|textemdash|textasteriskcentered|"
    r"ding|bf|tiny|small|normalfont|textbf|ensuremath|item)\b|[{}\s*\-–—•·>]|\d+(?=\})"
)


_BLANK_LINE = re.compile(r"\n[ \t\r\f\v]*\n")


_COMMENT = re.compile(r"(?<!\\)%[^\n]*")


_BLOCK_MACROS = frozenset(
    {"IEEEauthorblockN", "IEEEauthorblockA", "Name", "institute", "orgname", "and"}
)


_DIMEN_MACROS = frozenset({"vskip", "hskip", "kern", "mskip", "mkern", "moveleft", "moveright"})


_UNIT = r"(?:pt|em|ex|mm|cm|in|bp|pc|sp|dd|cc|mu|fil+)"


_DIMEN = re.compile(
    rf"\s*[-+]?\s*(?:\d+\.?\d*|\.\d+)\s*{_UNIT}"
    rf"(?:\s*(?:plus|minus)\s*[-+]?\s*(?:\d+\.?\d*|\.\d+)\s*{_UNIT})*"
)


_STRUCTURAL = frozenset(
    set(_SECTION_LEVELS)
    | _CITE_NAMES
    | _REF_NAMES
    | {"label", "caption", "footnote", "item", "title", "author", "input", "include", "url"}
)
