"""Document titles of HTML twins: EDGAR cover pages and meaningful ``<title>`` texts."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from docparse.text import clean_text

__all__ = ["cover_title", "first_text", "meaningful_title"]

_FORM = re.compile(
    r"^FORM\s+(\d{1,2}-[A-Z]{1,3}(?:/A)?|[A-Z]{1,2}-\d{1,2}(?:/A)?|N-[A-Z0-9-]+|DEF 14A)\b", re.I
)
_REGISTRANT = re.compile(r"\(?\s*exact name of (?:the )?registrant", re.I)
#: ``<title>`` texts that name no document (editor defaults, file names).
_GENERIC_TITLE = re.compile(
    r"^(?:|document|untitled(?: document)?|home|index|page|new page \d*|"
    r"[\w.-]*\d[\w.-]*|[\w.-]+\.html?)$",
    re.I,
)


def cover_title(texts: Iterable[str]) -> str:
    """``"<registrant> <form type>"`` from an EDGAR cover page, or ``""``.

    The cover page prints ``FORM 10-K`` and the registrant's name just above
    ``(Exact name of registrant as specified in its charter)``.
    """
    form = name = previous = ""
    for raw in texts:
        text = clean_text(raw)
        m = _FORM.match(text)
        if m and not form and len(text.split()) <= 6:
            form = m.group(1).upper()
        n = _REGISTRANT.search(text)
        if n and not name:
            before = text[: n.start()].strip()
            if not before:
                before = previous
            if before and len(before.split()) <= 12 and not before.startswith("("):
                name = before
        previous = text
    return clean_text(f"{name} {form}") if name else ""


def first_text(root: Any, xpath: str) -> str:
    """Clean text of the first element at ``xpath`` under ``root``, or ``""``."""
    el = root.find(xpath)
    return clean_text(el.text_content()) if el is not None else ""


def meaningful_title(title: str) -> str:
    """``title`` unless it is an editor default or a file name (``Document``, ``d10k.htm``)."""
    return "" if _GENERIC_TITLE.match(title) else title
