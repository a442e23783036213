"""What the generated-pair benchmarks share: compiling a LaTeX twin, finding and making pairs.

``table_pairs`` (HTML printed by Chromium, LaTeX), ``math_pairs`` and ``doc_pairs`` (LaTeX)
each write seeded source documents, turn them into PDFs and score each PDF's parse against
its own source. A pair is ``(name, family, twin, pdf)``, named ``FAMILY-SEED``; ``--out``
keeps the pairs in a folder (a pair is made again only when its source changed) and
``--from`` scores the pairs of a folder without TeX or Chromium.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable, Sequence
from pathlib import Path

#: ``(name, family, twin, pdf)``.
Pair = tuple[str, str, Path, Path]


def compile_tex(tex: Path, runs: int = 1) -> Path:
    """``tex`` compiled with pdflatex next to itself, ``runs`` times (cross-references
    settle on the second run); raises if pdflatex is not installed."""
    exe = shutil.which("pdflatex")
    if exe is None:
        raise RuntimeError("pdflatex is not installed (apt-get install texlive-latex-extra)")
    for _ in range(runs):
        subprocess.run(
            [exe, "-interaction=nonstopmode", "-halt-on-error", tex.name],
            cwd=tex.parent,
            check=True,
            capture_output=True,
            timeout=300,
        )
    for ext in (".aux", ".log", ".out"):
        tex.with_suffix(ext).unlink(missing_ok=True)
    return tex.with_suffix(".pdf")


def pairs_in(folder: Path, suffixes: Sequence[str] = (".tex",)) -> list[Pair]:
    """The pairs of ``folder``: each twin with one of ``suffixes`` that has its PDF beside it."""
    twins = sorted(t for suffix in suffixes for t in folder.glob(f"*{suffix}"))
    return [
        (t.stem, t.stem.rsplit("-", 1)[0], t, t.with_suffix(".pdf"))
        for t in twins
        if t.with_suffix(".pdf").is_file()
    ]


def make_pairs(
    families: Sequence[str],
    per_family: int,
    seed: int,
    out: Path,
    source: Callable[[str, int], tuple[str, str]],
    build: Callable[[Path, Path], object],
) -> list[Pair]:
    """``per_family`` pairs of each family written into ``out``, seeds from ``seed`` on.

    ``source(family, seed)`` gives the twin's suffix and text; ``build(twin, pdf)`` makes the
    PDF, called only when the twin's text changed or the PDF is missing.
    """
    pairs = []
    for fam in families:
        for i in range(per_family):
            name = f"{fam}-{seed + i}"
            suffix, text = source(fam, seed + i)
            twin, pdf = out / f"{name}{suffix}", out / f"{name}.pdf"
            if not twin.is_file() or twin.read_text(encoding="utf-8") != text or not pdf.is_file():
                twin.write_text(text, encoding="utf-8")
                build(twin, pdf)
            pairs.append((name, fam, twin, pdf))
    return pairs
