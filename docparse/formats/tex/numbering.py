"""The numbers LaTeX prints for ``\\ref``-family commands, from one scan of the source.

:func:`number_labels` walks the document once, in order, through what moves
LaTeX's counters (sectioning commands, ``\\appendix``, captions in figures
and tables, numbered equation rows, theorem-like environments, enumerate
items, ``\\setcounter``) and gives every ``\\label`` the number LaTeX would
print for it: sections per the class's numbering (``article``: ``2.1``;
``report``/``book``: chapters and per-chapter floats; REVTeX: roman sections
``II``, ``II A``; IEEEtran: ``II``, ``II-A``), appendix letters, ``\\the<counter>``
redefinitions, ``\\newtheorem`` counters (shared and per section),
``\\tag``, ``subequations`` (``2a``). :func:`render_ref` turns a command and
its targets into the printed text (``\\eqref`` adds parentheses, ``\\autoref``
and ``\\cref``/``\\Cref`` add hyperref/cleveref names). A label that cannot be
numbered renders as :data:`UNKNOWN_REF` (what LaTeX itself prints) and the
parser flags the document.

The scan is linear in the source and bounded by its length; verbatim
environments and comments are skipped.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

__all__ = ["UNKNOWN_REF", "LabelTarget", "number_labels", "render_named_ref", "render_ref"]

#: Printed for a reference whose number cannot be known (LaTeX prints the same).
UNKNOWN_REF = "??"

_SECTIONS = (
    "part",
    "chapter",
    "section",
    "subsection",
    "subsubsection",
    "paragraph",
    "subparagraph",
)
_SECNUMDEPTH = {
    "part": -1,
    "chapter": 0,
    "section": 1,
    "subsection": 2,
    "subsubsection": 3,
    "paragraph": 4,
    "subparagraph": 5,
}
_MULTIROW = frozenset(
    {"align", "gather", "eqnarray", "alignat", "flalign", "xalignat", "xxalignat"}
)
_SINGLE = frozenset({"equation", "multline", "displaymath*"})
_INNER_MATH = frozenset(
    {
        "aligned",
        "split",
        "gathered",
        "alignedat",
        "cases",
        "array",
        "matrix",
        "pmatrix",
        "bmatrix",
        "vmatrix",
        "Vmatrix",
        "smallmatrix",
        "subarray",
        "tabular",
    }
)
_VERBATIM = re.compile(
    r"\\begin\{(verbatim\*?|Verbatim|lstlisting|minted|comment|alltt)\}.*?\\end\{\1\}", re.S
)
_VERB = re.compile(r"\\verb\*?([^\sa-zA-Z])(?:(?!\1).)*\1")
_COMMENT = re.compile(r"(?<!\\)%[^\n]*")
_TOKEN = re.compile(
    r"\\(?P<sec>part|chapter|section|subsection|subsubsection|paragraph|subparagraph)\b(?P<star>\*?)"
    r"|\\begin\s*\{(?P<begin>[^{}]+)\}"
    r"|\\end\s*\{(?P<end>[^{}]+)\}"
    r"|\\(?P<caption>caption(?:of)?|tablecaption)\b(?P<capstar>\*?)"
    r"|\\tablenum\s*\{(?P<tablenum>[^{}]*)\}"
    r"|\\floatconts\s*\{(?P<floatlabel>[^{}]*)\}"
    r"|\\label\s*\{(?P<label>[^{}]*)\}"
    r"|\\(?P<item>item)\b"
    r"|(?P<newline>\\\\)"
    r"|\\(?P<nonumber>nonumber|notag)\b"
    r"|\\tag\*?\s*\{(?P<tag>[^{}]*)\}"
    r"|\\(?P<appendix>appendix)\b(?!\w)"
    r"|\\(?P<setc>setcounter|addtocounter)\s*\{(?P<cname>\w+)\}\s*\{\s*(?P<cval>-?\d+)\s*\}"
    r"|\\(?P<step>refstepcounter|stepcounter)\s*\{(?P<sname>\w+)\}"
    r"|\\(?P<subfloat>subfigure|subtable|subfloat)(?![a-zA-Z])(?=\s*[\[{])"
)
_NEWTHEOREM = re.compile(
    r"\\newtheorem(?P<star>\*?)\s*\{(?P<env>[^{}]+)\}\s*(?:\[(?P<shared>\w+)\])?\s*\{(?P<name>[^{}]*)\}\s*(?:\[(?P<within>\w+)\])?"
)
_THE = re.compile(
    r"\\(?:re)?newcommand\*?\s*\{?\s*\\the(?P<c>[a-zA-Z]+)\s*\}?\s*\{|\\def\s*\\the(?P<c2>[a-zA-Z]+)\s*\{"
)
_NUMFMT = re.compile(r"\\(arabic|roman|Roman|alph|Alph|the)\s*\{?\s*\\?([a-zA-Z]+)\s*\}?")
_CLASS = re.compile(r"\\documentclass\s*(?:\[[^\]]*\])?\s*\{([^{}]+)\}")
_AUTONAME = re.compile(
    r"\\(?:re)?newcommand\*?\s*\{?\s*\\(\w+)autorefname\s*\}?\s*\{([^{}]*)\}|\\def\s*\\(\w+)autorefname\s*\{([^{}]*)\}"
)
_CREFNAME = re.compile(r"\\(crefname|Crefname)\s*\{(\w+)\}\s*\{([^{}]*)\}\s*\{([^{}]*)\}")


def blank_verbatim(source: str) -> str:
    """``source`` with verbatim text and comments blanked (same length): what LaTeX
    does not execute, such as ``\\verb|\\cite{ref}|``, neither numbers nor cites."""
    for pattern in (_VERBATIM, _VERB, _COMMENT):
        source = pattern.sub(lambda m: " " * len(m.group()), source)
    return source


#: Theorem-like environments a class defines itself, as its ``\\newtheorem`` lines
#: (a document's own ``\\newtheorem`` of the same name comes later and wins).
_CLASS_THEOREMS = {
    "jmlr": r"""\newtheorem{theorem}{Theorem}\newtheorem{example}{Example}
        \newtheorem{lemma}[theorem]{Lemma}\newtheorem{proposition}[theorem]{Proposition}
        \newtheorem{remark}[theorem]{Remark}\newtheorem{corollary}[theorem]{Corollary}
        \newtheorem{definition}[theorem]{Definition}\newtheorem{conjecture}[theorem]{Conjecture}
        \newtheorem{axiom}[theorem]{Axiom}""",
    "acmart": r"""\newtheorem{theorem}{Theorem}[section]
        \newtheorem{conjecture}[theorem]{Conjecture}\newtheorem{proposition}[theorem]{Proposition}
        \newtheorem{lemma}[theorem]{Lemma}\newtheorem{corollary}[theorem]{Corollary}
        \newtheorem{example}[theorem]{Example}\newtheorem{definition}[theorem]{Definition}""",
}
#: Floats whose ``\\caption`` steps a counter, and the counter (algorithm2e's
#: ``algorithm2e`` environment numbers with the algorithm floats).
_CAPTIONED = {
    "figure": "figure",
    "table": "table",
    "wrapfigure": "figure",
    "wraptable": "table",
    "sidewaysfigure": "figure",
    "sidewaystable": "table",
    "subfigure": "subfigure",
    "subtable": "subtable",
    "deluxetable": "table",
    "splitdeluxetable": "table",
    "algorithm": "algorithm",
    "algorithm2e": "algorithm",
}


@dataclass(frozen=True, slots=True)
class LabelTarget:
    """What a ``\\label`` names: the printed number and the counter kind."""

    number: str
    kind: str  # section, chapter, figure, table, equation, item, theorem name ...
    title: str = ""  # what \\nameref prints: the LaTeX of the heading or caption


@dataclass(slots=True)
class _Frame:
    env: str
    label: LabelTarget | None  # \@currentlabel on entry, restored on \end
    row_start: int = 0
    row_labels: list[str] = field(default_factory=list)
    row_tag: str | None = None
    row_nonumber: bool = False
    inner: int = 0
    captioned: bool = False  # a float whose \caption has stepped its counter


#: Classes with roman section numbers, and the parent printed before a sub-number.
_ROMAN_CLASSES = {
    "revtex": {
        "subsection": r"\thesection\space ",
        "subsubsection": r"\thesection\space\thesubsection.",
    },
    "IEEEtran": {"subsection": r"\thesection-", "subsubsection": r"\thesection-\thesubsection"},
}
_CH = "\\thechapter."


def _arabic(counter: str) -> str:
    return "\\arabic{" + counter + "}"


def _roman(n: int) -> str:
    out = ""
    for value, sym in (
        (1000, "M"),
        (900, "CM"),
        (500, "D"),
        (400, "CD"),
        (100, "C"),
        (90, "XC"),
        (50, "L"),
        (40, "XL"),
        (10, "X"),
        (9, "IX"),
        (5, "V"),
        (4, "IV"),
        (1, "I"),
    ):
        while n >= value:
            out += sym
            n -= value
    return out


def _alph(n: int) -> str:
    return chr(ord("a") + n - 1) if 1 <= n <= 26 else str(n)


def _group(text: str, start: int) -> tuple[str, int]:
    """The balanced ``{...}`` body starting at ``text[start] == "{"`` and the index after it."""
    depth = 0
    for i in range(start, min(len(text), start + 2000)):
        ch = text[i]
        if ch == "{" and text[i - 1 : i] != "\\":
            depth += 1
        elif ch == "}" and text[i - 1 : i] != "\\":
            depth -= 1
            if depth == 0:
                return text[start + 1 : i], i + 1
    return "", start + 1


def _title_at(source: str, pos: int) -> str:
    """The mandatory argument after ``pos`` (past a ``*`` and an optional ``[..]``)."""
    m = re.compile(r"\*?\s*(?:\[[^\]]*\]\s*)?(?:\{\w+\}\s*)?(?=\{)").match(source, pos)
    return _group(source, m.end())[0].strip() if m else ""


class _Numberer:
    def __init__(self, source: str) -> None:
        m = _CLASS.search(source)
        cls = m.group(1).strip() if m else "article"
        self.cls = cls
        self.counters: dict[str, int] = {}
        # counter -> parent counters that reset it
        self.resets: dict[str, set[str]] = {}
        self.fmt: dict[str, str] = {}
        self.prefix: dict[str, str] = {}  # \p@counter: printed before the number in a \ref
        chaptered = cls in ("report", "book", "memoir", "scrreprt", "scrbook", "amsbook")
        top = "chapter" if chaptered else "section"
        self.fmt.update(
            chapter=r"\arabic{chapter}",
            section=(r"\thechapter.\arabic{section}" if chaptered else r"\arabic{section}"),
            subsection=r"\thesection.\arabic{subsection}",
            subsubsection=r"\thesubsection.\arabic{subsubsection}",
            paragraph=r"\thesubsubsection.\arabic{paragraph}",
            subparagraph=r"\theparagraph.\arabic{subparagraph}",
            part=r"\Roman{part}",
            enumi=r"\arabic{enumi}",
            enumii=r"\alph{enumii}",
            enumiii=r"\roman{enumiii}",
            enumiv=r"\Alph{enumiv}",
        )
        self.prefix.update(enumii=r"\theenumi", enumiii=r"\theenumi(\theenumii)")
        for c in ("figure", "table", "equation"):
            self.fmt[c] = (_CH + _arabic(c)) if chaptered else _arabic(c)
            if chaptered:
                self.resets.setdefault(c, set()).add("chapter")
        family = "revtex" if cls.startswith("revtex") else cls
        if family in _ROMAN_CLASSES:
            # Roman sections, lettered subsections; a \ref prints the parent too.
            self.fmt.update(
                section=r"\Roman{section}",
                subsection=r"\Alph{subsection}",
                subsubsection=r"\arabic{subsubsection}",
            )
            self.prefix.update(_ROMAN_CLASSES[family])
        chain = list(_SECTIONS)
        for parent, child in itertools.pairwise(chain[1:]):
            self.resets.setdefault(child, set()).add(parent)
        if chaptered:
            self.resets.setdefault("section", set()).add("chapter")
        for c in ("enumii", "enumiii", "enumiv"):
            self.resets.setdefault(c, set()).add(
                "enum" + {"enumii": "i", "enumiii": "ii", "enumiv": "iii"}[c]
            )
        self.top = top
        self.theorems: dict[str, tuple[str, str]] = {}  # env -> (counter, name)
        self.autonames: dict[str, str] = {}
        self.crefnames: dict[str, tuple[str, str]] = {}
        self.labels: dict[str, LabelTarget] = {}
        self.current: LabelTarget | None = None
        self.tablenum: str | None = None
        self.float_label: str | None = None
        self.frames: list[_Frame] = []
        self.secnumdepth = 3 if not chaptered else 2
        self.in_appendix = False
        self.name = ""  # hyperref's \\@currentlabelname: the last heading or caption

    # -- counters ------------------------------------------------------
    def value(self, name: str) -> str:
        return self.expand(self.fmt.get(name, _arabic(name)), depth=0)

    def expand(self, template: str, depth: int) -> str:
        if depth > 8:
            return ""

        def one(m: re.Match[str]) -> str:
            how, name = m.group(1), m.group(2)
            if how == "the":
                return self.value(name) if depth < 8 else ""
            n = self.counters.get(name, 0)
            if how == "arabic":
                return str(n)
            if how == "roman":
                return _roman(n).lower()
            if how == "Roman":
                return _roman(n)
            if how == "alph":
                return _alph(n)
            return _alph(n).upper()

        out = _NUMFMT.sub(one, template)
        out = out.replace(r"\space", " ").replace("~", " ")
        return " ".join(re.sub(r"\\[a-zA-Z]+\s*|[{}]", "", out).split())

    def step(self, name: str) -> None:
        self.counters[name] = self.counters.get(name, 0) + 1
        for child, parents in self.resets.items():
            if name in parents:
                self.counters[child] = 0

    def refstep(self, name: str, kind: str | None = None) -> LabelTarget:
        self.step(name)
        prefix = self.prefix.get(name, "")
        sep = " " if prefix.rstrip().endswith("\\space") else ""
        number = self.expand(prefix, 0) + sep + self.value(name)
        self.current = LabelTarget(number, kind or name)
        return self.current

    # -- preamble ------------------------------------------------------
    def preamble(self, source: str) -> None:
        own = next((t for c, t in _CLASS_THEOREMS.items() if self.cls.startswith(c)), "")
        for m in itertools.chain(_NEWTHEOREM.finditer(own), _NEWTHEOREM.finditer(source)):
            env, name = m.group("env").strip(), m.group("name").strip()
            if m.group("star"):
                self.theorems[env] = ("", name)
                continue
            counter = (m.group("shared") or env).strip()
            if m.group("within"):
                within = m.group("within")
                self.fmt[counter] = "\\the" + within + "." + _arabic(counter)
                self.resets.setdefault(counter, set()).add(within)
            self.theorems[env] = (counter, name)
        for m in _AUTONAME.finditer(source):
            key = m.group(1) or m.group(3)
            self.autonames[key] = (m.group(2) if m.group(1) else m.group(4)) or ""
        for m in _CREFNAME.finditer(source):
            self.crefnames[("C:" if m.group(1) == "Crefname" else "c:") + m.group(2)] = (
                m.group(3),
                m.group(4),
            )

    def redefine_the(self, source: str, pos: int) -> int:
        m = _THE.match(source, pos)
        if not m:
            return pos + 1
        name = m.group("c") or m.group("c2")
        body, end = _group(source, m.end() - 1)
        if name and body:
            self.fmt[name] = body
        return end

    # -- the walk ------------------------------------------------------
    def run(self, source: str) -> dict[str, LabelTarget]:
        source = blank_verbatim(source)
        self.preamble(source)
        for m in _THE.finditer(source):
            self.redefine_the(source, m.start())
        start = source.find("\\begin{document}")
        pos = start if start >= 0 else 0
        for m in _TOKEN.finditer(source, pos):
            self.token(m, source)
        return self.labels

    # Over the C901 limit on purpose: tokenizer over counter commands, one branch per command.
    def token(self, m: re.Match[str], source: str) -> None:  # noqa: C901
        if m.group("sec"):
            name = m.group("sec")
            self.name = _title_at(source, m.end())
            if m.group("star") or _SECNUMDEPTH[name] > self.secnumdepth:
                return
            kind = "appendix" if self.in_appendix and name == self.top else name
            self.refstep(name, kind)
        elif m.group("begin"):
            env = m.group("begin").strip()
            self.begin(env, m.end())
        elif m.group("end"):
            self.end(m.group("end").strip(), m.start(), source)
        elif m.group("caption"):
            frame = self.float_frame()
            env = frame.env if frame is not None else None
            if m.group("caption") == "captionof":
                rest = source[m.end() : m.end() + 40]
                k = re.match(r"\s*\{(\w+)\}", rest)
                env = k.group(1) if k else env
            if env is None or env.rstrip("*") not in _CAPTIONED:
                return
            base = _CAPTIONED[env.rstrip("*")]
            self.name = _title_at(source, m.end())
            if frame is not None and base in ("figure", "table"):
                frame.captioned = True
            if self.tablenum is not None:
                # AASTeX \tablenum{N}: the table prints N, the counter stays
                self.current = LabelTarget(self.tablenum, "table")
                self.tablenum = None
            elif base in ("subfigure", "subtable"):
                parent = "figure" if base == "subfigure" else "table"
                self.step(base)
                number = str(self.counters.get(parent, 0) + 1) + _alph(self.counters[base])
                self.current = LabelTarget(number, parent)
            else:
                self.refstep(base, base)
                self.counters["sub" + base] = 0
            if self.float_label and self.current is not None:
                self.labels.setdefault(self.float_label, self.current)
            self.float_label = None
        elif m.group("subfloat"):
            self.sub_float(m.group("subfloat"))
        elif m.group("floatlabel") is not None:
            # jmlr \floatconts{label}{\caption{..}}{..}: the label names the caption
            self.float_label = m.group("floatlabel").strip()
        elif m.group("tablenum") is not None:
            self.tablenum = m.group("tablenum").strip()
        elif m.group("label") is not None:
            key = m.group("label").strip()
            frame = self.math_frame()
            if frame is not None:
                frame.row_labels.append(key)
            else:
                # before any numbered counter LaTeX's \@currentlabel is empty:
                # the label exists and prints nothing
                target = self.current or LabelTarget("", "")
                self.labels.setdefault(key, replace(target, title=self.name))
        elif m.group("item"):
            depth = sum(f.env == "enumerate" for f in self.frames)
            if 1 <= depth <= 4 and self.frames and self.frames[-1].env == "enumerate":
                counter = "enum" + ("i", "ii", "iii", "iv")[depth - 1]
                rest = source[m.end() : m.end() + 2]
                if not rest.lstrip().startswith("["):
                    self.refstep(counter, "item")
        elif m.group("newline"):
            frame = self.math_frame()
            if frame is not None and frame.inner == 0 and frame.env.rstrip("*") in _MULTIROW:
                self.finish_row(frame, m.start(), source)
                frame.row_start = m.end()
        elif m.group("nonumber"):
            frame = self.math_frame()
            if frame is not None:
                frame.row_nonumber = True
        elif m.group("tag") is not None:
            frame = self.math_frame()
            if frame is not None:
                frame.row_tag = m.group("tag").strip()
        elif m.group("appendix"):
            self.in_appendix = True
            self.counters[self.top] = 0
            self.fmt[self.top] = "\\Alph{" + self.top + "}"
        elif m.group("setc"):
            name, value = m.group("cname"), int(m.group("cval"))
            self.counters[name] = (
                value if m.group("setc") == "setcounter" else self.counters.get(name, 0) + value
            )
        elif m.group("step"):
            name = m.group("sname")
            if m.group("step") == "refstepcounter":
                self.refstep(name)
            else:
                self.step(name)

    def float_frame(self) -> _Frame | None:
        return next((f for f in reversed(self.frames) if f.env.rstrip("*") in _CAPTIONED), None)

    def sub_float(self, command: str) -> None:
        """``\\subfigure[..]{..}``/``\\subfloat`` (subfigure and subfig packages, jmlr):
        its label prints the float's number and the letter, ``3(a)`` (``3a`` for subfig)."""
        frame = self.float_frame()
        parent = "table" if command == "subtable" or (frame and "table" in frame.env) else "figure"
        sub = "sub" + parent
        self.step(sub)
        # before the float's own \caption its counter is not stepped yet
        number = self.counters.get(parent, 0) + (0 if frame and frame.captioned else 1)
        letter = _alph(self.counters[sub])
        # the subfigure package (and jmlr) print 3(a); subfig's \\subfloat prints 3a
        letter = letter if command == "subfloat" else f"({letter})"
        self.current = LabelTarget(f"{number}{letter}", parent)

    def math_frame(self) -> _Frame | None:
        for f in reversed(self.frames):
            base = f.env.rstrip("*")
            if f.env in _SINGLE or base in _MULTIROW or f.env == "subequations":
                return f if f.env != "subequations" else None
        return None

    def begin(self, env: str, pos: int) -> None:
        frame = _Frame(env, self.current, row_start=pos)
        outer = self.math_frame()
        if outer is not None and env.rstrip("*") in _INNER_MATH:
            outer.inner += 1
            frame.env = "inner:" + env
        self.frames.append(frame)
        if env in self.theorems:
            counter, name = self.theorems[env]
            if counter:
                self.refstep(counter, name)
        elif env == "subequations":
            self.step("equation")
            self.counters["_subeq"] = 0
            self.current = LabelTarget(self.value("equation"), "equation")
            self.fmt["_parent_eq"] = self.current.number
        elif env.endswith("*") and (env[:-1] in _MULTIROW or env[:-1] in _SINGLE):
            frame.row_nonumber = True
        elif env in ("enumerate",):
            depth = sum(f.env == "enumerate" for f in self.frames)
            if 1 <= depth <= 4:
                self.counters["enum" + ("i", "ii", "iii", "iv")[depth - 1]] = 0

    def end(self, env: str, pos: int, source: str) -> None:
        idx = next(
            (
                i
                for i in range(len(self.frames) - 1, -1, -1)
                if self.frames[i].env in (env, "inner:" + env)
            ),
            None,
        )
        if idx is None:
            return
        frame = self.frames[idx]
        if frame.env.startswith("inner:"):
            outer = self.math_frame_below(idx)
            if outer is not None:
                outer.inner = max(0, outer.inner - 1)
        elif frame.env in _SINGLE or frame.env.rstrip("*") in _MULTIROW:
            self.finish_row(frame, pos, source, last=True)
        del self.frames[idx:]
        if env == "subequations":
            self.fmt.pop("_parent_eq", None)
        # \@currentlabel is local to the environment's group.
        if (
            not (
                frame.env in _SINGLE
                or frame.env.rstrip("*") in _MULTIROW
                or frame.env.startswith("inner:")
            )
            or frame.label is not None
        ):
            self.current = frame.label

    def math_frame_below(self, idx: int) -> _Frame | None:
        for f in reversed(self.frames[:idx]):
            if f.env in _SINGLE or f.env.rstrip("*") in _MULTIROW:
                return f
        return None

    def finish_row(self, frame: _Frame, pos: int, source: str, *, last: bool = False) -> None:
        content = source[frame.row_start : pos].strip()
        if last and not content and not frame.row_labels:
            return
        number: str | None
        if frame.row_tag is not None:
            number = frame.row_tag
        elif frame.row_nonumber or frame.env.endswith("*"):
            number = None
        elif "_parent_eq" in self.fmt:
            self.step("_subeq")
            number = self.fmt["_parent_eq"] + _alph(self.counters["_subeq"])
        else:
            self.step("equation")
            number = self.value("equation")
        if number is not None:
            target = LabelTarget(number, "equation")
            for key in frame.row_labels:
                self.labels.setdefault(key, target)
        frame.row_labels = []
        frame.row_tag = None
        frame.row_nonumber = frame.env.endswith("*")


def number_labels(
    source: str,
) -> tuple[dict[str, LabelTarget], dict[str, str], dict[str, tuple[str, str]]]:
    """Every ``\\label`` of ``source`` (a whole document, preamble included) with its number.

    Also returns the ``\\<kind>autorefname`` and ``\\crefname`` overrides of the
    preamble, for :func:`render_ref`.
    """
    walker = _Numberer(source)
    labels = walker.run(source)
    return labels, walker.autonames, walker.crefnames


_AUTOREF = {
    "figure": "Figure",
    "table": "Table",
    "equation": "Equation",
    "part": "Part",
    "chapter": "chapter",
    "section": "section",
    "subsection": "subsection",
    "subsubsection": "subsubsection",
    "paragraph": "paragraph",
    "appendix": "Appendix",
    "item": "item",
}
_CREF = {
    "figure": ("fig.", "figs."),
    "table": ("table", "tables"),
    "equation": ("eq.", "eqs."),
    "chapter": ("chapter", "chapters"),
    "section": ("section", "sections"),
    "subsection": ("section", "sections"),
    "subsubsection": ("section", "sections"),
    "appendix": ("appendix", "appendices"),
    "item": ("item", "items"),
    "part": ("part", "parts"),
}


def render_ref(
    command: str,
    targets: Sequence[LabelTarget | None],
    autonames: dict[str, str] | None = None,
    crefnames: dict[str, tuple[str, str]] | None = None,
) -> str:
    """The text LaTeX prints for ``\\<command>{keys}`` whose labels are ``targets``."""
    autonames = autonames or {}
    crefnames = crefnames or {}
    nums = [t.number if t is not None else UNKNOWN_REF for t in targets]
    if command in ("eqref",):
        return ", ".join(f"({n})" for n in nums)
    if command in ("autoref", "Autoref"):
        parts = []
        for t, n in zip(targets, nums, strict=True):
            kind = t.kind if t is not None else ""
            name = autonames.get(kind, _AUTOREF.get(kind, kind if kind[:1].isupper() else ""))
            if command == "Autoref":
                name = name[:1].upper() + name[1:]
            parts.append(f"{name} {n}".strip())
        return ", ".join(parts)
    if command in ("cref", "Cref", "cpageref", "Cpageref", "crefrange", "Crefrange"):
        cap = command[0] == "C"
        groups: list[tuple[str, list[str]]] = []
        for t, n in zip(targets, nums, strict=True):
            kind = t.kind if t is not None else ""
            if groups and groups[-1][0] == kind:
                groups[-1][1].append(n)
            else:
                groups.append((kind, [n]))
        out = []
        for kind, ns in groups:
            single, plural = crefnames.get(("C:" if cap else "c:") + kind) or _CREF.get(
                kind, (kind.lower(), kind.lower() + "s")
            )
            if cap and not crefnames.get("C:" + kind):
                single, plural = single[:1].upper() + single[1:], plural[:1].upper() + plural[1:]
                single = {"Fig.": "Figure", "Eq.": "Equation"}.get(single, single)
                plural = {"Figs.": "Figures", "Eqs.": "Equations"}.get(plural, plural)
            if kind == "equation":
                ns = [f"({n})" for n in ns]
            name = single if len(ns) == 1 else plural
            listed = _listing(ns)
            out.append(f"{name} {listed}".strip())
        return out[0] if len(out) == 1 else ", ".join(out[:-1]) + " and " + out[-1]
    return ", ".join(nums)


def _listing(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def render_named_ref(name: str, targets: Sequence[LabelTarget | None]) -> str:
    """The text of a ``\\<name>ref{keys}`` command that prints its own name
    (the jmlr class's ``\\figureref``, ``\\equationref``, ``\\appendixref`` ...):
    ``Figure 3``, ``Sections 1 and 3``, ``Equations (1), (2) and (3)``."""
    nums = [t.number if t is not None else UNKNOWN_REF for t in targets]
    if name == "equation":
        nums = [f"({n})" for n in nums]
    word = name[:1].upper() + name[1:]
    if len(nums) > 1:
        word = word[:-2] + "ices" if word.endswith("ix") else word + "s"
    return f"{word} {_listing(nums)}" if nums else ""


def render_sub_ref(targets: Sequence[LabelTarget | None]) -> str:
    """What ``\\subfigref{keys}`` prints: the letters of sub-floats, ``(a) and (b)``."""
    nums = []
    for t in targets:
        m = re.search(r"\(([a-z]+)\)$|(?<=\d)([a-z]+)$", t.number) if t is not None else None
        letter = m and (m.group(1) or m.group(2))
        nums.append(f"({letter})" if letter else t.number if t is not None else UNKNOWN_REF)
    return _listing(nums) if nums else ""
