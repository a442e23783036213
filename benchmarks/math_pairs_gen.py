"""The writer of :mod:`benchmarks.math_pairs`: seeded LaTeX documents full of math.

Each family is a font and a page layout; what a document holds is drawn from
its seed alike in every family: sections of prose paragraphs, some with
inline math (``$x_i$``, ``$\\hat\\theta$``, ``$\\frac{a}{b}$``), display
equations in every amsmath environment papers use (``equation``,
``equation*``, ``align``, ``gather``, ``multline``, ``split`` inside
``equation``, ``\\[..\\]``, numbered, unnumbered, ``\\tag``), and equations
inside list items. A formula is drawn from fractions, sums, products and
integrals with limits, roots, ``pmatrix``/``bmatrix``, ``cases``, nested sub-
and superscripts, Greek, accents (``\\hat``, ``\\bar``, ``\\tilde``,
``\\vec``, ``\\dot``), ``\\mathbf``/``\\mathcal``/``\\mathbb``,
``\\operatorname``, ``\\text{..}`` and ``\\left(..\\right)``.

What the generator leaves out, since no twin reader can know it: macros of
its own, ``\\left.`` without a partner, ``\\intertext`` (prose read as math).
"""

from __future__ import annotations

import random

#: Families: (document class options, preamble lines).
FAMILIES: dict[str, tuple[str, tuple[str, ...]]] = {
    # Computer Modern, OT1, one column: the arXiv default.
    "cm": ("11pt", ()),
    # Latin Modern in T1.
    "lm": ("11pt", (r"\usepackage[T1]{fontenc}", r"\usepackage{lmodern}")),
    # Computer Modern on two columns.
    "cm2col": ("10pt,twocolumn", ()),
    # Times with mathptmx (Symbol and rtxmi math), two columns.
    "times2col": ("10pt,twocolumn", (r"\usepackage[T1]{fontenc}", r"\usepackage{mathptmx}")),
    # Palatino with mathpazo, one column.
    "palatino": ("11pt", (r"\usepackage[T1]{fontenc}", r"\usepackage{mathpazo}")),
    # Big operators, radicals and sized delimiters in display and inline
    # (MathGenerator.big_atom), in three extension fonts: cmex, lmex, txex.
    "bigops": ("11pt", ()),
    "bigopslm": ("11pt", (r"\usepackage[T1]{fontenc}", r"\usepackage{lmodern}")),
    # (txfonts after amsmath, which would define its \iint again.)
    "bigopstx": (
        "11pt",
        (r"\usepackage[T1]{fontenc}", r"\usepackage{amsmath}", r"\usepackage{txfonts}"),
    ),
}

_PROSE = (
    "we consider the estimator defined below and show that it is consistent under mild "
    "conditions on the sampling distribution the proof follows from a standard argument "
    "combining the bound of the previous section with a union bound over the finite class "
    "of hypotheses in practice the parameters are chosen by cross validation and the "
    "resulting model is evaluated on held out data the loss decreases monotonically for "
    "every step size smaller than the inverse of the smoothness constant which motivates "
    "the adaptive schedule introduced next the operator is bounded and its spectrum lies "
    "in the unit disc so that the iteration converges geometrically for any initial state"
)
_WORDS = tuple(_PROSE.split())
_TITLES = ("Introduction", "Preliminaries", "Main Results", "Analysis", "Experiments", "Proofs")

_LATIN = tuple("abcdefghkmnpqrstuvwxyz") + tuple("ABCFGHKLMNPQRSTUVWXZ")
_GREEK = (
    r"\alpha", r"\beta", r"\gamma", r"\delta", r"\epsilon", r"\theta", r"\lambda", r"\mu",
    r"\nu", r"\rho", r"\sigma", r"\tau", r"\phi", r"\psi", r"\omega", r"\xi", r"\eta",
    r"\Gamma", r"\Delta", r"\Theta", r"\Lambda", r"\Sigma", r"\Phi", r"\Psi", r"\Omega",
)  # fmt: skip
_INDEX = ("i", "j", "k", "n", "t", "m", "l")
_ACCENTS = (r"\hat", r"\bar", r"\tilde", r"\vec", r"\dot")
_OPERATORS = (r"\log", r"\exp", r"\sin", r"\cos", r"\max", r"\min", r"\det", r"\sup")
_OPNAMES = ("tr", "softmax", "KL", "diag", "Var", "rank", "sgn", "argmax")
_RELATIONS = ("=", "=", "=", r"\le", r"\ge", r"\approx", r"\ne", "<", r"\equiv", r"\propto")
_BINARY = ("+", "-", "+", r"\cdot", r"\times", "-")
_SUPERS = ("2", "3", "-1", "T", r"\top", "(k)", "*")
_SUPERS2 = ("2", "(t)", "k+1", r"\prime")
_CONDITIONS = (">", "<", r"\ge")
_BIG_OPS = (r"\sum", r"\prod", r"\int", r"\oint", r"\bigcup", r"\bigcap", r"\coprod")
_DELIMITERS = (("(", ")"), ("[", "]"), (r"\{", r"\}"), ("|", "|"), (r"\langle", r"\rangle"))
_TEXTS = ("if", "otherwise", "for all", "where", "and", "s.t.")


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


class MathGenerator:
    """Seeded writer of one LaTeX document of a family (same seed, same document)."""

    def __init__(self, family: str, seed: int) -> None:
        if family not in FAMILIES:
            raise ValueError(f"unknown family {family!r}")
        self.family = family
        self.rng = random.Random(f"math-{family}-{seed}")
        self.narrow = "twocolumn" in FAMILIES[family][0]
        #: Whether atoms and inline math draw from :meth:`big_atom` too (other
        #: families draw as before: their documents stay the same).
        self.big = family.startswith("bigops")

    # -- prose ---------------------------------------------------------------

    def sentence(self, n: int) -> str:
        return _capital(" ".join(self.rng.choice(_WORDS) for _ in range(n))) + "."

    def paragraph(self, inline: bool = False) -> str:
        """Two to four sentences; with ``inline``, one to three of them hold inline math."""
        rng = self.rng
        out = []
        for _ in range(rng.randint(2, 4)):
            words = [rng.choice(_WORDS) for _ in range(rng.randint(8, 18))]
            if inline and rng.random() < 0.7:
                for _ in range(rng.randint(1, 2)):
                    words.insert(rng.randrange(1, len(words)), f"${self.inline()}$")
            out.append(_capital(" ".join(words)) + ".")
        return " ".join(out)

    # -- math atoms ----------------------------------------------------------

    def letter(self) -> str:
        return self.rng.choice(_LATIN) if self.rng.random() < 0.6 else self.rng.choice(_GREEK)

    def symbol(self) -> str:
        """A letter, maybe with an accent, a font or a (nested) script."""
        rng = self.rng
        base = self.letter()
        r = rng.random()
        if r < 0.15:
            base = f"{rng.choice(_ACCENTS)}{{{base}}}"
        elif r < 0.22:
            base = rf"\mathbf{{{rng.choice(_LATIN)}}}"
        elif r < 0.27:
            base = rf"\mathcal{{{rng.choice('ABCDFGHLNOPSTX')}}}"
        r = rng.random()
        if r < 0.3:
            base += f"_{{{rng.choice(_INDEX)}}}"
        elif r < 0.4:
            base += f"^{{{rng.choice(_SUPERS)}}}"
        elif r < 0.5:
            base += f"_{{{rng.choice(_INDEX)}}}^{{{rng.choice(_SUPERS2)}}}"
        elif r < 0.55:
            sub = rng.choice(_INDEX)
            base += f"_{{{sub}_{{{rng.choice(('1', '2', 'k', 'j'))}}}}}"
        return base

    def number(self) -> str:
        return self.rng.choice(("1", "2", "0", "3", "4", "10", "1/2", "0.5", r"\pi"))

    def atom(self, depth: int) -> str:
        """One term of a formula: a symbol, a number or a construct, up to ``depth`` deep."""
        rng = self.rng
        if depth <= 0:
            return self.symbol() if rng.random() < 0.8 else self.number()
        if self.big and rng.random() < 0.35:
            return self.big_atom(depth - 1)
        r = rng.random()
        sub = depth - 1
        if r < 0.28:
            return self.symbol()
        if r < 0.38:
            return rf"\frac{{{self.expr(sub, 2)}}}{{{self.expr(sub, 2)}}}"
        if r < 0.48:
            i = rng.choice(_INDEX)
            op = rng.choice((r"\sum", r"\sum", r"\prod"))
            top = rng.choice(("n", "N", "K", r"\infty", "T"))
            return rf"{op}_{{{i}=1}}^{{{top}}} {self.expr(sub, 2)}"
        if r < 0.54:
            lo, hi = rng.choice((("0", r"\infty"), ("a", "b"), (r"-\infty", r"\infty"), ("0", "1")))
            v = rng.choice(("x", "t", "s", "u"))
            return rf"\int_{{{lo}}}^{{{hi}}} {self.expr(sub, 2)} \, d{v}"
        if r < 0.6:
            idx = rng.choice(("", "[3]"))
            return rf"\sqrt{idx}{{{self.expr(sub, 2)}}}"
        if r < 0.68:
            return rf"\left( {self.expr(sub, 3)} \right)"
        if r < 0.74:
            return rf"{rng.choice(_OPERATORS)} {self.symbol()}"
        if r < 0.79:
            return rf"\operatorname{{{rng.choice(_OPNAMES)}}}({self.symbol()})"
        if r < 0.84:
            return rf"\mathbb{{{rng.choice('ERNZPC')}}}\left[ {self.expr(sub, 2)} \right]"
        if r < 0.9:
            return f"{self.letter()}^{{{self.expr(0, 2)}}}"
        return f"{self.symbol()}({self.symbol()}, {self.symbol()})"

    def big_atom(self, depth: int) -> str:
        """A construct of TeX's extension font: a big operator with limits, a
        radical over a tall argument, or a formula in sized delimiters."""
        rng = self.rng
        r = rng.random()
        if r < 0.45:
            op = rng.choice(_BIG_OPS)
            i = rng.choice(_INDEX)
            if op in (r"\int", r"\oint"):
                lo, hi = rng.choice((("0", "1"), ("a", "b"), (r"-\infty", r"\infty")))
                return rf"{op}_{{{lo}}}^{{{hi}}} {self.expr(depth, 2)} \, d{rng.choice('xtu')}"
            if rng.random() < 0.5:
                return rf"{op}_{{{i}=1}}^{{{rng.choice(('n', 'N', 'K'))}}} {self.expr(depth, 2)}"
            return rf"{op}_{{{i}}} {self.symbol()}"
        if r < 0.65:
            return rf"\sqrt{{\frac{{{self.expr(depth, 2)}}}{{{self.expr(0, 2)}}}}}"
        left, right = rng.choice(_DELIMITERS)
        body = self.expr(depth, 2)
        if rng.random() < 0.5:
            body = rf"\frac{{{body}}}{{{self.expr(0, 2)}}}"
        if rng.random() < 0.7:
            return rf"\left{left} {body} \right{right}"
        size = rng.choice(("big", "Big", "bigg"))
        return rf"\{size}l{left} {body} \{size}r{right}"

    def expr(self, depth: int, terms: int = 3) -> str:
        """A sum of one to ``terms`` atoms."""
        rng = self.rng
        parts = [self.atom(depth)]
        for _ in range(rng.randint(0, terms - 1)):
            parts += [rng.choice(_BINARY), self.atom(depth)]
        return " ".join(parts)

    def inline(self) -> str:
        """A short formula for running text."""
        rng = self.rng
        if self.big and rng.random() < 0.35:
            return f"{self.symbol()} = {self.big_atom(0)}"
        r = rng.random()
        if r < 0.35:
            return self.symbol()
        if r < 0.6:
            return f"{self.symbol()} {rng.choice(_RELATIONS)} {self.atom(0)}"
        if r < 0.75:
            return rf"\frac{{{self.symbol()}}}{{{self.atom(0)}}}"
        if r < 0.88:
            return rf"{self.symbol()} \in \mathbb{{{rng.choice('RNZC')}}}^{{{rng.choice(_INDEX)}}}"
        return rf"\sum_{{{rng.choice(_INDEX)}}} {self.symbol()}"

    def matrix(self) -> str:
        rng = self.rng
        env = rng.choice(("pmatrix", "bmatrix"))
        n, m = rng.choice(((2, 2), (2, 3), (3, 3), (3, 1)))
        rows = [" & ".join(self.atom(0) for _ in range(m)) for _ in range(n)]
        return rf"\begin{{{env}}} " + r" \\ ".join(rows) + rf" \end{{{env}}}"

    def cases(self) -> str:
        rng = self.rng
        v = self.symbol()
        rows = [
            rf"{self.expr(1, 2)} & \text{{if }} {v} {rng.choice(_CONDITIONS)} 0",
            rf"{self.expr(0, 2)} & \text{{{rng.choice(('otherwise', 'else'))}}}",
        ]
        return r"\begin{cases} " + r" \\ ".join(rows) + r" \end{cases}"

    def relation(self) -> str:
        """``lhs rel rhs``: one formula of a display."""
        rng = self.rng
        lhs = f"{self.symbol()}" if rng.random() < 0.6 else f"{self.letter()}({self.symbol()})"
        r = rng.random()
        if r < 0.12:
            rhs = self.matrix()
        elif r < 0.22:
            rhs = self.cases()
        else:
            rhs = self.expr(2 if not self.narrow else 1, 3 if not self.narrow else 2)
        tail = ""
        if rng.random() < 0.12:
            tail = rf", \quad \text{{{rng.choice(_TEXTS)}}} \ {self.inline()}"
        return f"{lhs} {rng.choice(_RELATIONS)} {rhs}{tail}"

    # -- displays ------------------------------------------------------------

    def display(self) -> str:
        """A display of an environment drawn from the seed."""
        rng = self.rng
        kind = rng.choice(
            ("equation", "equation", "equation*", "bracket", "align", "align*", "gather",
             "multline", "split", "tag")
        )  # fmt: skip
        if kind in ("equation", "equation*"):
            return f"\\begin{{{kind}}}\n{self.relation()}\n\\end{{{kind}}}"
        if kind == "bracket":
            return f"\\[\n{self.relation()}\n\\]"
        if kind == "tag":
            tag = rng.choice(("*", "A", "3'", "S1"))
            return f"\\begin{{equation}}\n{self.relation()} \\tag{{{tag}}}\n\\end{{equation}}"
        if kind in ("align", "align*"):
            rows = []
            for i in range(rng.randint(2, 3)):
                lhs = self.symbol() if i == 0 or rng.random() < 0.5 else ""
                row = f"{lhs} &{rng.choice(_RELATIONS)} {self.expr(1, 2)}"
                if kind == "align" and rng.random() < 0.25:
                    row += r" \nonumber"
                rows.append(row)
            return f"\\begin{{{kind}}}\n" + " \\\\\n".join(rows) + f"\n\\end{{{kind}}}"
        if kind == "gather":
            rows = [self.relation() for _ in range(rng.randint(2, 3))]
            return "\\begin{gather}\n" + " \\\\\n".join(rows) + "\n\\end{gather}"
        if kind == "multline":
            lhs = self.symbol()
            parts = [f"{lhs} = {self.expr(1, 3)}"]
            parts += [f"{rng.choice(_BINARY)} {self.expr(1, 3)}" for _ in range(rng.randint(1, 2))]
            return "\\begin{multline}\n" + " \\\\\n".join(parts) + "\n\\end{multline}"
        lhs = self.symbol()
        rows = [f"{lhs} &= {self.expr(1, 2)}"]
        rows += [f"&{rng.choice(_RELATIONS)} {self.expr(1, 2)}" for _ in range(rng.randint(1, 2))]
        return (
            "\\begin{equation}\n\\begin{split}\n"
            + " \\\\\n".join(rows)
            + "\n\\end{split}\n\\end{equation}"
        )

    def items(self) -> str:
        """A list whose items hold inline math and, some, a display."""
        rng = self.rng
        env = rng.choice(("itemize", "enumerate"))
        out = [f"\\begin{{{env}}}"]
        for _ in range(rng.randint(2, 3)):
            out.append(rf"\item {self.paragraph(inline=True)}")
            if rng.random() < 0.6:
                out.append(self.display())
                out.append(self.sentence(rng.randint(6, 12)))
        out.append(f"\\end{{{env}}}")
        return "\n".join(out)

    def document(self) -> str:
        """The whole LaTeX document."""
        rng = self.rng
        options, preamble = FAMILIES[self.family]
        parts = [
            rf"\documentclass[{options}]{{article}}",
            *preamble,
            r"\usepackage{amsmath,amssymb}",
            r"\usepackage[margin=1in]{geometry}",
            r"\begin{document}",
        ]
        for title in rng.sample(_TITLES, rng.randint(2, 3)):
            parts.append(rf"\section{{{title}}}")
            for _ in range(rng.randint(2, 4)):
                parts.append(self.paragraph(inline=rng.random() < 0.6))
                parts.append(self.display())
                if rng.random() < 0.5:
                    parts.append(self.sentence(rng.randint(5, 14)))
                parts.append("")
            if rng.random() < 0.5:
                parts.append(self.items())
                parts.append("")
        parts += [r"\end{document}", ""]
        return "\n".join(parts)


def generate(family: str, seed: int) -> str:
    """The LaTeX document of ``family`` drawn from ``seed``."""
    return MathGenerator(family, seed).document()
