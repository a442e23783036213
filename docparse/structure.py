"""Document structure shared by readers of other parsers' output (Markdown, docling, pymupdf4llm).

Those readers get headings with a level and tables with captions somewhere
near them, already in reading order. :class:`SectionStack` turns leveled
headings into section paths and :func:`link_table_captions` ties each
"Table N" caption to the table next to it, the same way for every reader.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence

from docparse.builder import UnitDraft

#: A paragraph that starts like a caption ("Figure 3:", "Table 2.", "Fig. 1").
CAPTION = re.compile(
    r"^\s*(?:figure|fig\.|table|tab\.|chart|exhibit|listing|algorithm)\s*(?:[A-Z]?\d+|[IVXL]+)\b",
    re.IGNORECASE,
)
#: A caption that names a table ("Table 2:", "TABLE II.", "Tab. 3").
TABLE_CAPTION = re.compile(r"^\s*(?:table|tab\.)\s*(?:[A-Z]?\d+|[IVXL]+)\b", re.IGNORECASE)


class SectionStack:
    """Section path of leveled headings: a heading closes every open heading
    of its level or deeper.

    >>> s = SectionStack()
    >>> s.push(1, "Intro")
    ()
    >>> s.push(2, "Setup")
    ('Intro',)
    >>> s.path
    ('Intro', 'Setup')
    >>> s.push(1, "Results")
    ()
    """

    def __init__(self) -> None:
        self._open: list[tuple[int, str]] = []

    @property
    def path(self) -> tuple[str, ...]:
        """The titles of the open sections, outermost first."""
        return tuple(t for _, t in self._open)

    def push(self, level: int, title: str) -> tuple[str, ...]:
        """Open a section at ``level`` and return its parents' path.

        The heading unit itself records the parents' path; the units under it
        record :attr:`path`, which now ends with ``title``.
        """
        while self._open and self._open[-1][0] >= level:
            self._open.pop()
        parent = self.path
        self._open.append((level, title))
        return parent

    def reset(self, path: Sequence[str]) -> None:
        """Make ``path`` the open sections, at levels 1, 2, ..."""
        self._open = [(i + 1, t) for i, t in enumerate(path)]


def link_table_captions(drafts: Sequence[UnitDraft], pages: Sequence[int | None] = ()) -> None:
    """Link each table caption draft to the nearest table draft (both ways).

    Nearest by position in reading order, looking at most three drafts away
    and never across a heading; when ``pages`` (one page or ``None`` per
    draft) is given, only tables on the caption's page. The caption text is
    set on the table when it has none.
    """
    taken: set[int] = set()
    for ci, cap in enumerate(drafts):
        if cap.kind != "caption" or not TABLE_CAPTION.match(cap.text):
            continue
        best: int | None = None
        for dist in (1, 2, 3):
            for ti in (ci + dist, ci - dist):
                if not 0 <= ti < len(drafts) or ti in taken:
                    continue
                lo, hi = sorted((ci, ti))
                if any(drafts[k].kind in ("heading", "title") for k in range(lo + 1, hi)):
                    continue
                t = drafts[ti]
                same_page = not pages or pages[ti] is None or pages[ti] == pages[ci]
                if t.kind == "table" and t.table is not None and same_page:
                    best = ti
                    break
            if best is not None:
                break
        if best is None:
            continue
        taken.add(best)
        table = drafts[best]
        assert table.table is not None
        if not table.table.caption:
            table.table = dataclasses.replace(table.table, caption=cap.text.strip())
        table.related.append(ci)
        cap.related.append(best)
