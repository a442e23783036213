"""Which leading rows of a table are its column heads: the rules both sides share.

A twin reader (EDGAR ``.htm``) and the PDF backends each count a table's
header rows, and a parse is scored against its twin on that count. The two
sides find their candidate rows differently (``<th>`` cells and numeric rows
in the twin, a grid read off the page in a PDF), but they must end them the
same way, or every table would differ by a row: so the rules live here, below
both (formats may not import backends).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

#: A units label in a table's stub: a parenthesised units line (``(In millions)``,
#: ``($ in thousands)``, ``(Dollars in millions, except per share amounts)``,
#: ``(Unaudited)``), or one set bare (``$ in millions``, ``Amounts in thousands``,
#: ``Thousands of dollars``).
UNITS_LABEL = re.compile(
    r"^(?:\(\s*[$€£¥]?\s*(?:in|amounts?|dollars?|euros?|thousands|millions|billions|"
    r"percent|unaudited)\b"
    r"|[$€£¥]?\s*(?:(?:amounts?|dollars?|euros?)\s+)?in\s+(?:thousands|millions|billions)\b"
    r"|(?:thousands|millions|billions)\s+of\b)",
    re.IGNORECASE,
)


def without_section_labels(rows: Sequence[Sequence[str]], n: int) -> int:
    """``n`` header rows less the section labels that end them.

    A row with only its label cell filled (``Revenues``, ``Current assets:``)
    right above the first row of values opens the body's first section: a
    reader of header rows expects the column heads, not it. A label holds a
    letter (a lone ``$`` split from its value is no section). A units label
    in the stub (:data:`UNITS_LABEL`) still heads the columns.

    >>> without_section_labels([["", "2023"], ["Revenues", ""], ["Net", "1"]], 2)
    1
    >>> without_section_labels([["", "2023"], ["(In millions)", ""], ["Net", "1"]], 2)
    2
    """
    while n > 0:
        row = rows[n - 1]
        label = " ".join(row[0].split()) if row else ""
        if (
            not any(ch.isalpha() for ch in label)
            or any(c.strip() for c in row[1:])
            or UNITS_LABEL.match(label)
        ):
            break
        n -= 1
    return n


def heads_text_columns(rows: Sequence[Sequence[str]]) -> bool:
    """Whether the first row of a table without values heads its columns.

    Its cells are all filled, short (six words at most: a label, not a
    sentence) and never repeated below in their column, and it is not shaped
    like the rows below: where a column's other cells hold digits (item
    numbers ``2.1``, ``10.13``), a header's cell holds none (``Exhibit``).

    >>> heads_text_columns([["Exhibit", "Description"], ["2.1", "Plan"], ["10.13", "Lease"]])
    True
    """
    if len(rows) <= 2 or not rows[0] or not all(c.strip() for c in rows[0]):
        return False
    if any(len(c.split()) > 6 for c in rows[0]):
        return False
    for c, cell in enumerate(rows[0]):
        body = [r[c] for r in rows[1:] if c < len(r) and r[c].strip()]
        if cell in body:
            return False
        digits = sum(any(ch.isdigit() for ch in x) for x in body)
        if body and digits >= 0.8 * len(body) and any(ch.isdigit() for ch in cell):
            return False
    return True
