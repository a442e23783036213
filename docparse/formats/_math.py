"""LaTeX math snippets as plain text: the formats that carry math as LaTeX (JATS, S2ORC)
and the evidence aligner."""

from __future__ import annotations

import functools
import logging
import re
from typing import Any

from docparse.text import clean_text

log = logging.getLogger(__name__)


@functools.lru_cache(maxsize=2)
def _latex2text(strict_spaces: bool) -> Any:
    from pylatexenc.latex2text import LatexNodes2Text

    return LatexNodes2Text(math_mode="text", strict_latex_spaces=strict_spaces)


_DOC_WRAPPER = re.compile(r"\\begin\{document\}(.*?)\\end\{document\}", re.S)


@functools.lru_cache(maxsize=4096)
def tex_math_to_text(latex: str, *, strict_spaces: bool = True) -> str:
    """Plain text of a LaTeX math snippet (``$\\beta^{-3}$`` to ``β^-3``).

    The one LaTeX-math renderer of docparse: JATS ``tex-math``, S2ORC
    equations and the math in evidence (``align.normalize``) all go through
    it. pylatexenc renders the macros it knows (``\\alpha`` to ``α``); on
    anything it cannot read the source is kept. PMC wraps ``tex-math`` in a
    whole ``\\documentclass`` document: only the part inside ``document``
    is kept. ``strict_spaces`` keeps only the spaces LaTeX would print
    (``\\Delta t`` to ``Δt``); without it a space in the source stays one.
    """
    m = _DOC_WRAPPER.search(latex)
    if m:
        latex = m.group(1)
    try:
        text = _latex2text(strict_spaces).latex_to_text(latex)
    except Exception as exc:  # noqa: BLE001 - pylatexenc raises assorted errors on bad input
        # Its macro callbacks assume well-formed arguments (a bare "\\input"
        # raises TypeError); the source is then the closest text.
        log.debug("math not rendered (%s); keeping its source", exc)
        return clean_text(latex)
    return clean_text(str(text))
