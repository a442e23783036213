"""Generated math pairs: seeded LaTeX documents compiled to PDF, math scored against the ``.tex``.

Math nobody tuned for, with exact gold. :mod:`benchmarks.math_pairs_gen`
writes documents of display equations (every amsmath environment papers use)
and inline-math paragraphs, one font and layout per family (``cm``, ``lm``,
``cm2col``, ``times2col``, ``palatino``; ``bigops``, ``bigopslm`` and
``bigopstx`` hold more big operators, radicals and sized delimiters, in
Computer Modern, Latin Modern and txfonts); pdflatex compiles them, docparse's
LaTeX reader reads the ``.tex`` as the gold twin, and each backend's parse of
the PDF is scored as :mod:`benchmarks.math_figures` scores the research
pairs: every twin ``equation`` unit is located as the glyphs the PDF prints
(:func:`align.project.project`), every paragraph or list item holding inline
math with :class:`align.locate.Locator`.

Per family and backend: equations located at coverage >= 0.9, inline-math
paragraphs located, equations *split* (their glyphs in two parsed units or
more), *merged* with text (the parsed units holding them carry more glyphs
than the equation: prose glued to it) and gathered as an ``equation`` unit.
Then the located share by what a twin equation holds (fractions, big
operators, matrices ...) and, with ``--show N``, the N worst equations per
backend with both texts.

    python -m benchmarks.math_pairs [--per-family N] [--seed S] [--family F ...]
        [--backend pymupdf|pdfplumber|pypdfium2|all ...] [--show N] [--out DIR] [--from DIR]

``--out DIR`` keeps the pairs (``FAMILY-SEED.tex`` and ``.pdf``; a PDF whose
``.tex`` is unchanged is not compiled again); ``--from DIR`` scores the pairs
of a folder without generating or compiling (``fixtures/math_generated``
holds a few).
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import docparse
from align.locate import Locator
from align.math import glyphs, has_math
from align.project import project
from benchmarks import generated_pairs
from benchmarks.generated_pairs import Pair, compile_tex
from benchmarks.math_pairs_gen import FAMILIES, generate

BACKENDS = ("pymupdf", "pdfplumber", "pypdfium2")

#: Arguments of a short run (``python -m benchmarks.run --quick``).
QUICK_ARGS = ["--from", "fixtures/math_generated", "--backend", "pymupdf"]

#: What a twin equation holds, read from its LaTeX.
FEATURES: dict[str, re.Pattern[str]] = {
    "fraction": re.compile(r"\\[dt]?frac"),
    "big operator": re.compile(r"\\(?:sum|prod|int|oint|coprod|bigcup|bigcap)(?![a-z])"),
    "root": re.compile(r"\\sqrt"),
    "matrix": re.compile(r"\\begin\{[pbvB]?matrix\}"),
    "cases": re.compile(r"\\begin\{cases\}"),
    "rows": re.compile(r"\\\\"),  # outside matrices and cases (see features)
    "text": re.compile(r"\\text\{"),
    "accent": re.compile(r"\\(?:hat|bar|tilde|vec|dot)\{"),
    "font": re.compile(r"\\math(?:bf|cal|bb)\{"),
    "operator name": re.compile(r"\\operatorname|\\(?:log|exp|sin|cos|max|min|det|sup)\b"),
    "delimiters": re.compile(r"\\left|\\[bB]igg?l"),
    "nested script": re.compile(r"_\{[^{}]*_"),
}


@dataclass(frozen=True, slots=True)
class EquationScore:
    """One twin equation against one backend's parse."""

    pair: str
    family: str
    backend: str
    coverage: float
    split: bool
    merged: bool
    gathered: bool
    features: tuple[str, ...]
    twin_text: str
    parsed_text: str

    @property
    def located(self) -> bool:
        return self.coverage >= 0.9


@dataclass(frozen=True, slots=True)
class PairScore:
    """The equations and inline-math paragraphs of one pair with one backend."""

    equations: tuple[EquationScore, ...]
    inline: int
    inline_found: int
    inline_missed: tuple[tuple[float, str], ...]


def features(tex: str) -> tuple[str, ...]:
    """The names of :data:`FEATURES` that the LaTeX ``tex`` holds."""
    outer = _INNER_ROWS.sub(" ", tex)
    return tuple(
        name for name, rx in FEATURES.items() if rx.search(outer if name == "rows" else tex)
    )


_INNER_ROWS = re.compile(r"\\begin\{([pbvB]?matrix|cases)\}.*?\\end\{\1\}", re.DOTALL)


def score_pair(
    name: str, family: str, twin: docparse.Document, parsed: docparse.Document, backend: str
) -> PairScore:
    """Every twin equation and inline-math paragraph of ``twin`` against ``parsed``."""
    units = {u.id: u for u in parsed.units}
    texts = {u.id: u.text for u in twin.units}
    eqs = []
    for e in project(twin, parsed).equations:
        held = [units[i] for i in e.parsed_ids if i in units]
        extra = sum(len(glyphs(u.text)) for u in held) - e.n_matched
        eqs.append(
            EquationScore(
                pair=name,
                family=family,
                backend=backend,
                coverage=e.similarity,
                split=e.status == "split",
                # Beyond an equation number and a stray glyph or two: prose glued on.
                merged=bool(held) and extra > max(8, e.length // 2),
                gathered=any(u.kind == "equation" for u in held),
                features=features(texts[e.twin_id]),
                twin_text=texts[e.twin_id],
                parsed_text=" | ".join(u.text for u in held),
            )
        )
    loc = Locator(parsed)
    inline = [u for u in twin.units if u.kind in ("paragraph", "list_item") and has_math(u.text)]
    found = [loc.locate(u.text) for u in inline]
    missed = tuple((m.coverage, u.text) for u, m in zip(inline, found, strict=True) if not m.found)
    return PairScore(tuple(eqs), len(inline), sum(m.found for m in found), missed)


def _rate(k: int, n: int) -> str:
    return f"{k}/{n} ({k / n:.1%})" if n else "-"


def summary_row(label: str, scores: Sequence[PairScore]) -> str:
    eqs = [e for s in scores for e in s.equations]
    n = len(eqs)
    return (
        f"| {label} | {_rate(sum(e.located for e in eqs), n)} | "
        f"{_rate(sum(s.inline_found for s in scores), sum(s.inline for s in scores))} | "
        f"{sum(e.split for e in eqs)} | {sum(e.merged for e in eqs)} | "
        f"{_rate(sum(e.gathered for e in eqs), n)} |"
    )


_HEAD = (
    "| {0} | equations located | inline-math paragraphs | split | merged with text | "
    "equation units |\n|---|--:|--:|--:|--:|--:|"
)


def pairs_in(folder: Path) -> list[Pair]:
    """(name, family, twin, pdf) of the compiled pairs in ``folder``."""
    return generated_pairs.pairs_in(folder)


def make_pairs(families: Sequence[str], per_family: int, seed: int, out: Path) -> list[Pair]:
    """Generate and compile ``per_family`` documents of each family into ``out``."""
    return generated_pairs.make_pairs(
        families,
        per_family,
        seed,
        out,
        lambda fam, seed: (".tex", generate(fam, seed)),
        lambda twin, _pdf: compile_tex(twin),
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--per-family", type=int, default=4, help="documents per family")
    ap.add_argument("--seed", type=int, default=1, help="seed of the first document")
    ap.add_argument("--family", action="append", choices=tuple(FAMILIES))
    ap.add_argument("--backend", action="append", choices=(*BACKENDS, "all"))
    ap.add_argument("--show", type=int, default=0, help="list the N worst equations per backend")
    ap.add_argument("--out", type=Path, help="keep the pairs here (reused when unchanged)")
    ap.add_argument("--from", dest="from_dir", type=Path, help="score the pairs of this folder")
    args = ap.parse_args(argv)
    chosen = args.backend or ["all"]
    backends = list(BACKENDS) if "all" in chosen else list(dict.fromkeys(chosen))
    with tempfile.TemporaryDirectory() as tmp:
        if args.from_dir:
            pairs = pairs_in(args.from_dir)
        else:
            out = args.out or Path(tmp)
            out.mkdir(parents=True, exist_ok=True)
            pairs = make_pairs(args.family or tuple(FAMILIES), args.per_family, args.seed, out)
        if not pairs:
            print("no pairs", file=sys.stderr)
            return 2
        results: dict[str, dict[str, list[PairScore]]] = {b: {} for b in backends}
        for name, fam, source, pdf in pairs:
            twin = docparse.parse(source)
            for b in backends:
                s = score_pair(name, fam, twin, docparse.parse(pdf, backend=b), b)
                results[b].setdefault(fam, []).append(s)
    families = [f for f in FAMILIES if any(f in r for r in results.values())]
    for fam in [*families, None]:
        label = f"{fam} ({len(results[backends[0]].get(fam, []))} documents)" if fam else None
        print(f"\n### {label or f'all families ({len(pairs)} documents)'}\n")
        print(_HEAD.format("backend"))
        for b in backends:
            got = results[b].get(fam, []) if fam else [s for ss in results[b].values() for s in ss]
            print(summary_row(b, got))
    every = {
        b: [e for ss in results[b].values() for s in ss for e in s.equations] for b in backends
    }
    print("\n### equations located by what they hold\n")
    print("| holds | equations | " + " | ".join(backends) + " |")
    print("|---|--:|" + "--:|" * len(backends))
    for feat in FEATURES:
        row = []
        for b in backends:
            have = [e for e in every[b] if feat in e.features]
            row.append(f"{sum(e.located for e in have) / len(have):.1%}" if have else "-")
        n = sum(feat in e.features for e in every[backends[0]])
        print(f"| {feat} | {n} | " + " | ".join(row) + " |")
    if args.show:
        for b in backends:
            worst = sorted(every[b], key=lambda e: e.coverage)[: args.show]
            print(f"\nworst equations, {b}: pair, coverage, split/merged/gathered, twin ~ parsed")
            for e in worst:
                flags = "".join(
                    c if f else "-"
                    for c, f in zip("smg", (e.split, e.merged, e.gathered), strict=True)
                )
                print(f"  {e.pair:12} {e.coverage:.3f} {flags} {e.twin_text[:160]!r}")
                print(f"  {'':12} {'':5} {'':3} ~ {e.parsed_text[:160]!r}")
            missed = [m for ss in results[b].values() for s in ss for m in s.inline_missed]
            for c, t in sorted(missed)[: args.show]:
                print(f"  inline {c:.3f} {t[:150]!r}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
