"""The seeded LaTeX documents of :mod:`benchmarks.doc_pairs`: text structure with exact gold.

One family per document layout, each drawing the rest at random:

* ``article``: one column, 10/11/12pt, margins from 0.7 to 1.5 inches;
* ``twocolumn``: the same in two columns (paragraphs and lists broken over columns);
* ``report``: the report class, ``\\chapter`` over sections, a title page;
* ``amsart``: the AMS article class (centred small-caps sections, run-in subsections);
* ``lineno``: ``lineno`` margin line numbers, in one or two columns, numbers on
  the left of each column (in the gutter of a two-column page) or outside (``switch``).

Every document draws a font (Latin Modern, Times, Palatino, Helvetica, TeX
Gyre Termes), a title, authors and abstract, numbered and unnumbered sections
to depth 3, ``\\paragraph`` run-in heads, itemize/enumerate/description lists
(some nested, some items ending with a comma), a quote, footnotes, a figure (a
drawn box) and a small table with captions, a verbatim block, coloured words
and hyperlinks inside paragraphs, fancyhdr running heads or plain page numbers,
and long paragraphs that break over pages and columns. Text comes from the
word list below (written for this project, MIT like it). No math.

A comment line ``% furniture: TEXT | TEXT`` names the running-head texts the
document prints on its pages, so that a scorer knows them without TeX.
"""

from __future__ import annotations

import random

DOC_FAMILIES = ("article", "twocolumn", "report", "amsart", "lineno")

_WORD_TEXT = """
    analysis approach archive article balance basis behaviour benchmark boundary budget
    capacity category channel chapter claim collection column comparison component
    condition context contract corpus coverage criterion culture customer dataset decade
    decision definition degree demand density design detail device dimension direction
    distance document domain effect element energy engine entry environment estimate
    evidence example exchange experience factor feature figure format framework function
    garden gesture government group growth harbour history hypothesis image impact index
    industry instance interval journal judgement knowledge language layer layout lecture
    letter level library limit margin market material measure memory method model module
    moment network number object observation office option order outcome output package
    pattern period picture platform policy position practice pressure principle problem
    process product profile project property protocol quality quantity question reader
    record region relation report request resource result review river sample scale
    schedule school science section sequence service session signal source space
    standard statement station strategy structure student subject summary surface system
    table teacher technique template theory threshold token topic track transfer unit
    value variable version village volume window winter worker
    accept adjust allow analyse appear apply arrange assume attach avoid build carry
    change check choose collect combine compare compute connect consider contain continue
    cover create decide deliver depend describe detect develop differ divide enable
    ensure estimate examine expand explain extend follow gather handle improve include
    increase indicate inform keep measure mention merge move notice observe obtain offer
    operate prepare present preserve produce provide publish reach receive record reduce
    reflect remain remove repeat replace report require resolve return reveal select
    separate share show simplify solve split suggest support transform travel verify
    accurate active actual additional annual average basic brief broad careful central
    certain clear common complete complex constant current dense direct distinct early
    effective entire equal exact external familiar final formal frequent general global
    gradual heavy initial internal large late likely local main major minor modern
    narrow natural necessary normal obvious ordinary original particular physical plain
    possible practical previous primary private proper public quiet rapid rare recent
    regular relevant remote robust rough separate several severe short simple single
    small smooth special specific stable steady strict strong suitable typical uniform
    unusual useful various visible whole wide
"""
_WORDS = tuple(_WORD_TEXT.split())
_GLUE = ("the", "a", "of", "in", "and", "to", "for", "with", "on", "by", "from", "as", "at")
_NAMES = (
    "Ada Lindqvist",
    "Bruno Okafor",
    "Chen Wei",
    "Dana Moreau",
    "Emil Novak",
    "Farah Haddad",
    "Greta Olsen",
    "Hiro Tanaka",
    "Ines Duarte",
    "Jonas Berg",
    "Kara Mensah",
    "Luis Ortega",
)
_PLACES = ("Northfield University", "Institute of Applied Studies", "Lakeside College")
_FONTS = (
    ("lmodern", r"\usepackage{lmodern}"),
    ("times", r"\usepackage{mathptmx}"),
    ("palatino", r"\usepackage{mathpazo}"),
    (
        "helvetica",
        "\\usepackage[scaled=0.92]{helvet}\n\\renewcommand{\\familydefault}{\\sfdefault}",
    ),
    ("termes", r"\usepackage{tgtermes}"),
)
_CODE = (
    "for item in items:\n    total = total + item.value\nreturn total",
    "def split(text, width):\n    lines = []\n    while text:\n        lines.append(text[:width])\n"
    "        text = text[width:]\n    return lines",
    "if (count > limit) {\n    count = 0;\n    flush(buffer);\n}",
)


class DocGenerator:
    """Seeded writer of one LaTeX document of a family of :data:`DOC_FAMILIES`."""

    def __init__(self, family: str, seed: int) -> None:
        if family not in DOC_FAMILIES:
            raise ValueError(f"unknown family {family!r}")
        self.family = family
        self.rng = random.Random(f"{family}-{seed}")
        self.footnotes_left = self.rng.randint(1, 3)
        self.styled = self.rng.random() < 0.5

    # -- text ---------------------------------------------------------------

    def word(self) -> str:
        return self.rng.choice(_WORDS if self.rng.random() < 0.7 else _GLUE)

    def phrase(self, lo: int, hi: int) -> str:
        return " ".join(self.word() for _ in range(self.rng.randint(lo, hi)))

    def sentence(self, lo: int = 8, hi: int = 20, rich: bool = False) -> str:
        """A sentence; ``rich`` (running text only) may style two words or end with a footnote."""
        rng = self.rng
        words = [self.word() for _ in range(rng.randint(lo, hi))]
        if rich and self.styled and rng.random() < 0.25:
            i = rng.randrange(len(words) - 2)
            style = rng.choice(
                (r"\emph", r"\textbf", r"\textcolor{blue}", r"\href{https://example.org}")
            )
            words[i : i + 2] = [f"{style}{{{words[i]} {words[i + 1]}}}"]
        if rng.random() < 0.2:
            words[rng.randrange(1, len(words))] += ","
        if rich and self.footnotes_left and rng.random() < 0.08:
            self.footnotes_left -= 1
            words[-1] += rf"\footnote{{{self.sentence(6, 14)}}}"
        text = " ".join(words)
        return text[0].upper() + text[1:] + "."

    def paragraph(self, lo: int = 2, hi: int = 6, rich: bool = True) -> str:
        return " ".join(self.sentence(rich=rich) for _ in range(self.rng.randint(lo, hi)))

    def title(self, lo: int = 2, hi: int = 5) -> str:
        words = [self.rng.choice(_WORDS) for _ in range(self.rng.randint(lo, hi))]
        return " ".join(words).capitalize()

    # -- blocks -------------------------------------------------------------

    def items(self, depth: int = 0) -> str:
        rng = self.rng
        env = rng.choice(("itemize", "enumerate", "description"))
        lines = [rf"\begin{{{env}}}"]
        n = rng.randint(2, 5)
        comma = rng.random() < 0.4
        for i in range(n):
            text = self.sentence(4, 24 if depth == 0 else 12)
            if comma and i < n - 1:
                # Items that run on into the next one ("...,", "...; and").
                text = text[:-1] + rng.choice((",", ";", "; and"))
            head = f"[{self.title(1, 2)}] " if env == "description" else " "
            lines.append(rf"\item{head}{text}")
            if depth == 0 and i == 0 and rng.random() < 0.3:
                lines.append(self.items(depth + 1))
        lines.append(rf"\end{{{env}}}")
        return "\n".join(lines)

    def figure(self) -> str:
        rng = self.rng
        w, h = rng.uniform(0.3, 0.8), rng.uniform(2.0, 4.5)
        return "\n".join(
            (
                rf"\begin{{figure}}[{rng.choice('htb')}]",
                r"\centering",
                rf"\fbox{{\rule{{0pt}}{{{h:.1f}cm}}\rule{{{w:.2f}\linewidth}}{{0pt}}}}",
                rf"\caption{{{self.sentence(5, 18)}}}",
                r"\end{figure}",
            )
        )

    def table(self) -> str:
        rng = self.rng
        cols = rng.randint(2, 4)
        heads = [self.title(1, 1) for _ in range(cols)]
        rows = [
            " & ".join([self.title(1, 2), *(str(rng.randint(1, 999)) for _ in range(cols - 1))])
            for _ in range(rng.randint(2, 5))
        ]
        caption = rf"\caption{{{self.sentence(4, 12)}}}"
        return "\n".join(
            (
                rf"\begin{{table}}[{rng.choice('htb')}]",
                r"\centering",
                caption,
                rf"\begin{{tabular}}{{l{'r' * (cols - 1)}}}",
                r"\hline",
                " & ".join(heads) + r" \\",
                r"\hline",
                *(r + r" \\" for r in rows),
                r"\hline",
                r"\end{tabular}",
                r"\end{table}",
            )
        )

    def block(self) -> str:
        rng = self.rng
        roll = rng.random()
        if roll < 0.45:
            return self.paragraph(*rng.choice(((2, 5), (2, 5), (8, 14))))
        if roll < 0.65:
            return self.paragraph(1, 2) + "\n\n" + self.items()
        if roll < 0.72:
            return "\\begin{quote}\n" + self.paragraph(1, 3) + "\n\\end{quote}"
        if roll < 0.78:
            return "\\begin{verbatim}\n" + rng.choice(_CODE) + "\n\\end{verbatim}"
        if roll < 0.88:
            return rf"\paragraph{{{self.title(1, 3)}.}} " + self.paragraph(2, 5)
        return self.paragraph(1, 3)

    def section(self, depth: int, top: int) -> list[str]:
        """A heading at ``depth`` (1 the document's top level) with its blocks and subsections."""
        rng = self.rng
        cmds = ("chapter", "section", "subsection", "subsubsection")
        cmds = cmds if self.family == "report" else cmds[1:]
        star = "*" if rng.random() < 0.12 else ""
        out = [rf"\{cmds[depth - 1]}{star}{{{self.title()}}}"]
        out += [self.block() for _ in range(rng.randint(1, 3))]
        if rng.random() < 0.25:
            out.append(rng.choice((self.figure, self.table))())
        if depth < top:
            for _ in range(rng.randint(0, 2) if depth > 1 else rng.randint(1, 2)):
                out += self.section(depth + 1, top)
        return out

    # -- document -----------------------------------------------------------

    def document(self) -> tuple[str, list[str]]:
        """(LaTeX source, running-head texts printed on its pages)."""
        rng = self.rng
        fam = self.family
        size = rng.choice(("10pt", "11pt", "12pt"))
        two = fam == "twocolumn" or (fam == "lineno" and rng.random() < 0.6)
        cls = {"report": "report", "amsart": "amsart"}.get(fam, "article")
        opts = ",".join(o for o in (size, "twocolumn" if two else "") if o)
        font = rng.choice(_FONTS)
        margin = rng.choice(("0.7in", "1in", "1.25in", "1.5in")) if not two else "0.75in"
        pre = [
            rf"\documentclass[{opts}]{{{cls}}}",
            r"\usepackage[T1]{fontenc}",
            font[1],
            rf"\usepackage[margin={margin}]{{geometry}}",
            r"\usepackage{xcolor}",
            r"\usepackage[colorlinks,urlcolor=blue,linkcolor=red]{hyperref}",
        ]
        furniture: list[str] = []
        if fam != "amsart" and rng.random() < 0.6:
            head = self.title(2, 5)
            furniture.append(head)
            side = rng.choice(("L", "C", "R"))
            pre += [
                r"\usepackage{fancyhdr}",
                r"\pagestyle{fancy}",
                r"\fancyhf{}",
                rf"\fancyhead[{side}]{{{head}}}",
                rf"\fancyfoot[{rng.choice('LCR')}]{{\thepage}}",
            ]
        if fam == "lineno":
            pre.append(
                r"\usepackage[switch]{lineno}" if rng.random() < 0.4 else r"\usepackage{lineno}"
            )
        authors = rng.sample(_NAMES, rng.randint(1, 3))
        if cls == "amsart":
            front = [rf"\author{{{a}}}" for a in authors]
            front.append(rf"\address{{{rng.choice(_PLACES)}}}")
        else:
            front = [r"\author{" + r" \and ".join(authors) + "}", r"\date{}"]
        # No footnote: amsart sets the abstract in a box that drops it.
        abstract = "\\begin{abstract}\n" + self.paragraph(2, 4, rich=False) + "\n\\end{abstract}"
        title = rf"\title{{{self.title(3, 8)}}}"
        body = [r"\begin{document}"]
        if cls == "amsart":
            body += [abstract, r"\maketitle"]
        else:
            body += [r"\maketitle", abstract]
        if fam == "lineno":
            body.append(r"\linenumbers")
        top = rng.choice((2, 3))
        for _ in range(rng.randint(3, 5) if fam != "report" else 2):
            body += self.section(1, top + (fam == "report"))
        body.append(r"\end{document}")
        comment = f"% furniture: {' | '.join(furniture)}" if furniture else "% furniture:"
        tex = "\n".join([comment, *pre, title, *front, *body, ""])
        return tex, furniture


def generate_doc(family: str, seed: int) -> str:
    """The LaTeX document of ``family`` drawn from ``seed`` (same seed, same document)."""
    return DocGenerator(family, seed).document()[0]


def furniture_of(tex: str) -> list[str]:
    """The running-head texts a generated document names in its ``% furniture:`` line."""
    first = tex.split("\n", 1)[0]
    if not first.startswith("% furniture:"):
        return []
    return [t.strip() for t in first.split(":", 1)[1].split("|") if t.strip()]
