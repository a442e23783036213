"""LaTeX math snippets as plain text, for the formats that carry math as LaTeX (JATS, S2ORC)."""

from __future__ import annotations

import functools
import logging
import re
from typing import Any

from docparse.text import clean_text

log = logging.getLogger(__name__)


@functools.lru_cache(maxsize=1)
def _latex2text() -> Any:
    from pylatexenc.latex2text import LatexNodes2Text

    return LatexNodes2Text(math_mode="text", strict_latex_spaces=True)


_DOC_WRAPPER = re.compile(r"\\begin\{document\}(.*?)\\end\{document\}", re.S)


def tex_math_to_text(latex: str) -> str:
    """Plain text of a LaTeX math snippet (``tex-math``, S2ORC equations).

    PMC wraps ``tex-math`` in a whole ``\\documentclass`` document: only the
    part inside ``document`` is kept. pylatexenc renders macros it knows
    (``\\alpha`` to ``α``); on anything it cannot read the source is kept.
    """
    m = _DOC_WRAPPER.search(latex)
    if m:
        latex = m.group(1)
    try:
        text = _latex2text().latex_to_text(latex)
    except Exception as exc:  # noqa: BLE001 - pylatexenc raises assorted errors on bad input
        log.debug("tex-math not rendered (%s); keeping its source", exc)
        return clean_text(latex)
    return clean_text(text)
