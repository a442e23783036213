"""Tabular-family and AASTeX deluxetable environments to cell grids."""

from __future__ import annotations

import re

from pylatexenc import latexwalker as lw

from docparse.builder import UnitDraft
from docparse.formats._grid import cells_to_table
from docparse.formats.tex.nodes import (
    _args,
    _group_body,
    _is_space,
    _last_mandatory,
    _mandatory,
    _node_verbatim,
    _skip_group,
)
from docparse.formats.tex.vocabulary import _DELUXE
from docparse.formats.tex.walker import ConverterBase
from docparse.model import Annotation, CellSpan, Table
from docparse.text import clean_text

_RULES = frozenset(
    {
        "hline",
        "toprule",
        "midrule",
        "bottomrule",
        "cline",
        "cmidrule",
        "hhline",
        "specialrule",
        "addlinespace",
        "morecmidrules",
        "hdashline",
        "cdashline",
        "Xhline",
        "Hline",
    }
)


_HEADER_RULES = frozenset(
    {"hline", "midrule", "cline", "cmidrule", "hhline", "specialrule", "hdashline", "Xhline"}
)


class _TableParser:
    """Cells of one tabular-family (or deluxetable) environment."""

    def __init__(self, conv: ConverterBase, env: str) -> None:
        self.conv = conv
        self.env = env
        self.rows: list[list[tuple[str, int, int]]] = []
        self.row: list[tuple[str, int, int]] = []
        self.cell: list[lw.LatexNode] = []
        self.rules_before: list[int] = []  # row index a full rule precedes
        self.partial_rules_before: list[int] = []  # \cline/\cmidrule
        self.annotations: list[Annotation] = []
        self.header_rows: int | None = None
        self.caption: str | None = None
        self.caption_draft: UnitDraft | None = None
        self.label: str | None = None
        self.footnotes: list[str] = []
        self.drop_ranges: list[tuple[int, int]] = []

    def parse(
        self, node: lw.LatexEnvironmentNode
    ) -> tuple[Table, list[Annotation], UnitDraft | None]:
        if self.env in _DELUXE:
            self._deluxe(list(node.nodelist))
        else:
            self._cells(list(node.nodelist))
            self._end_row(force=False)
        rows = [r for k, r in enumerate(self.rows) if not self._dropped(k)]
        columns: list[str] | None = None
        if self.env in _DELUXE:
            spec = _args(node)[:1]
            columns = _aastex_columns(_group_body(spec[0]) if spec else "")
        grid, spans = _grid(rows, columns)
        n_header = self.header_rows
        if n_header is None:
            # the header ends at the first full rule under the first row(s);
            # a partial rule (\cmidrule under a spanning cell) only when
            # there is no full one
            n_header = 0
            for rules in (self.rules_before, self.partial_rules_before):
                inside = sorted(k for k in set(rules) if 0 < k < len(grid))
                if inside:
                    n_header = inside[0] if inside[0] <= 4 else 0
                    break
            for span in spans:
                if span.row < n_header:
                    n_header = max(n_header, min(span.row + span.row_span, len(grid)))
        table = Table(
            rows=grid,
            n_header_rows=min(n_header, len(grid)),
            spans=spans,
            caption=self.caption,
            label=self.label,
            footnotes=tuple(f for f in self.footnotes if f),
        )
        return table, self.annotations, self.caption_draft

    def _dropped(self, k: int) -> bool:
        return any(a <= k < b for a, b in self.drop_ranges)

    # cells ---------------------------------------------------------------

    def _end_cell(self) -> None:
        self.row.append(self._cell_value(self.cell))
        self.cell = []

    def _end_row(self, *, force: bool) -> None:
        has_content = any(not _is_space(n) for n in self.cell)
        if self.row or has_content or force:
            self._end_cell()
            if any(text for text, _, _ in self.row) or len(self.row) > 1:
                self.rows.append(self.row)
        self.row = []
        self.cell = []

    # Over the C901 limit on purpose: tabular cell walk, each branch one row/cell/rule command.
    def _cells(self, nodes: list[lw.LatexNode]) -> None:  # noqa: C901
        k = 0
        while k < len(nodes):
            node = nodes[k]
            if isinstance(node, lw.LatexSpecialsNode) and node.specials_chars == "&":
                self._end_cell()
            elif isinstance(node, lw.LatexMacroNode):
                name = str(node.macroname)
                if name in ("\\", "tabularnewline", "cr", "crcr"):
                    self._end_row(force=True)
                elif name in _RULES:
                    if name in _HEADER_RULES and not self.row and _blank(self.cell):
                        if name in ("cline", "cmidrule"):
                            self.partial_rules_before.append(len(self.rows))
                        else:
                            self.rules_before.append(len(self.rows))
                    if name == "cmidrule":
                        # \cmidrule[w](lr){2-3}: pylatexenc has no spec for "(lr)"
                        while (
                            k + 1 < len(nodes)
                            and isinstance(nodes[k + 1], lw.LatexCharsNode)
                            and re.fullmatch(
                                r"\s*(?:\[[^\]]*\]|\([^)]*\))\s*", str(nodes[k + 1].chars)
                            )
                        ):
                            k += 1
                        if k + 1 < len(nodes) and isinstance(nodes[k + 1], lw.LatexGroupNode):
                            k += 1
                elif name in ("endfirsthead", "endhead", "endfoot", "endlastfoot"):
                    self._end_row(force=False)
                    self._longtable_mark(name)
                elif name == "caption":
                    text, annotations = self.conv._render_with_annotations([_last_mandatory(node)])
                    self._set_caption(text, annotations, node)
                elif name == "label":
                    self.label = _group_body(_last_mandatory(node)).strip() or self.label
                elif name in ("cutinhead", "sidehead"):
                    self._end_row(force=False)
                    text = self.conv._render_nodes([_last_mandatory(node)])
                    self.rows.append([(text, 1, 1)])
                elif name in ("tablenotetext",):
                    mand = _mandatory(node)
                    self.footnotes.append(self.conv._render_nodes(mand[-1:]))
                elif name in ("tablecomments", "tablerefs"):
                    self.footnotes.append(self.conv._render_nodes([_last_mandatory(node)]))
                else:
                    self.cell.append(node)
            elif isinstance(node, lw.LatexCommentNode):
                pass
            else:
                self.cell.append(node)
            k += 1

    def _longtable_mark(self, name: str) -> None:
        # rows since the previous mark belong to the block this mark closes
        start = getattr(self, "_last_mark", 0)
        end = len(self.rows)
        if name == "endfirsthead":
            self.header_rows = end
        elif name == "endhead":
            if self.header_rows is None:
                self.header_rows = end
            else:
                self.drop_ranges.append((start, end))
        else:  # endfoot / endlastfoot: continuation notes
            self.drop_ranges.append((start, end))
        self._last_mark = end

    def _set_caption(self, text: str, annotations: list[Annotation], node: lw.LatexNode) -> None:
        self.caption = clean_text(text) or None
        for a in annotations:
            if a.kind == "label":
                self.label = self.label or a.target
        self.caption_draft = UnitDraft(
            kind="caption",
            text=text,
            raw=_node_verbatim(node),
            section=self.conv._section_path(),
            annotations=tuple(annotations),
        )

    def _cell_value(self, nodes: list[lw.LatexNode]) -> tuple[str, int, int]:
        significant = [n for n in nodes if not _is_space(n)]
        col_span = row_span = 1
        while len(significant) == 1 and isinstance(significant[0], lw.LatexMacroNode):
            mac = significant[0]
            mname = str(mac.macroname)
            if mname in ("multicolumn", "multicolhead"):
                mand = _mandatory(mac)
                col_span = _int(_group_body(mand[0]) if mand else "1")
            elif mname == "multirow":
                mand = _mandatory(mac)
                row_span = abs(_int(_group_body(mand[0]) if mand else "1"))
            elif mname in ("colhead", "nocolhead", "twocolhead", "makecell", "thead"):
                if mname == "twocolhead":
                    col_span = 2
            else:
                break
            arg = _last_mandatory(mac)
            significant = (
                [n for n in arg.nodelist if not _is_space(n)]
                if isinstance(arg, lw.LatexGroupNode)
                else ([arg] if arg is not None else [])
            )
        self.conv.cell_depth += 1
        try:
            text, annotations = self.conv._render_with_annotations(significant)
        finally:
            self.conv.cell_depth -= 1
        self.annotations.extend(annotations)
        return text, max(row_span, 1), max(col_span, 1)

    # deluxetable ------------------------------------------------------------

    def _deluxe(self, nodes: list[lw.LatexNode]) -> None:
        data: list[lw.LatexNode] = []
        in_data = False
        for node in nodes:
            if isinstance(node, lw.LatexMacroNode):
                name = str(node.macroname)
                if name == "startdata":
                    in_data = True
                    continue
                if name == "enddata":
                    in_data = False
                    continue
                if not in_data:
                    if name == "tablecaption":
                        text, annotations = self.conv._render_with_annotations(
                            [_last_mandatory(node)]
                        )
                        self._set_caption(text, annotations, node)
                        continue
                    if name == "tablehead":
                        arg = _last_mandatory(node)
                        if isinstance(arg, lw.LatexGroupNode):
                            before = len(self.rows)
                            self._cells(list(arg.nodelist))
                            self._end_row(force=False)
                            self.header_rows = len(self.rows) - before
                        continue
                    if name in ("tablecomments", "tablerefs"):
                        self.footnotes.append(self.conv._render_nodes([_last_mandatory(node)]))
                        continue
                    if name == "tablenotetext":
                        mand = _mandatory(node)
                        self.footnotes.append(self.conv._render_nodes(mand[-1:]))
                        continue
                    if name == "label":
                        self.label = _group_body(_last_mandatory(node)).strip() or self.label
                        continue
            if in_data:
                data.append(node)
        self._cells(data)
        self._end_row(force=False)


def _blank(nodes: list[lw.LatexNode]) -> bool:
    return all(_is_space(n) for n in nodes)


def _int(s: str) -> int:
    m = re.search(r"-?\d+", s)
    return int(m.group(0)) if m else 1


def _aastex_columns(spec: str) -> list[str]:
    """Column letters of an AASTeX deluxetable preamble, one per source column.

    ``D`` (decimal-aligned) is one source column but two typeset columns, so a
    header ``\\multicolumn2c`` over it spans one; ``h`` columns are hidden in
    the PDF; ``B`` only marks where a splitdeluxetable breaks.
    """
    out: list[str] = []
    k = 0
    while k < len(spec):
        ch = spec[k]
        k += 1
        if ch in "@!><":
            k = _skip_group(spec, k)
        elif ch.isalpha() and ch != "B":
            if k < len(spec) and spec[k] == "{":
                # p{width}, dcolumn's D{.}{.}{3}: one ordinary column
                while k < len(spec) and spec[k] == "{":
                    k = _skip_group(spec, k)
                out.append("l")
            else:
                out.append(ch)
    return out


def _source_spans(row: list[tuple[str, int, int]], widths: list[int]) -> list[tuple[str, int, int]]:
    """``row`` with each column span counted in source columns instead of the
    typeset columns of an AASTeX preamble (a ``D`` column typesets as two)."""
    out: list[tuple[str, int, int]] = []
    c = 0
    for text, row_span, col_span in row:
        if col_span > 1:
            covered = acc = 0
            while acc < col_span and c + covered < len(widths):
                acc += widths[c + covered]
                covered += 1
            col_span = max(1, covered)
        out.append((text, row_span, col_span))
        c += col_span
    return out


def _grid(
    rows: list[list[tuple[str, int, int]]],
    columns: list[str] | None = None,
) -> tuple[tuple[tuple[str, ...], ...], tuple[CellSpan, ...]]:
    """Lay ``(text, rowspan, colspan)`` cells onto a rectangular grid.

    Each row lists the cells under a ``\\multirow`` itself, so cells are
    placed one after the other. With AASTeX ``columns``, spans counted in
    typeset columns are converted to source columns and hidden (``h``)
    columns are removed.
    """
    if columns:
        widths = [2 if c == "D" else 1 for c in columns]
        rows = [_source_spans(row, widths) for row in rows]
    table = cells_to_table(rows, covered_listed=True)
    hidden = {k for k, c in enumerate(columns or []) if c == "h"}
    if not hidden:
        return table.rows, table.spans
    grid = tuple(tuple(cell for k, cell in enumerate(row) if k not in hidden) for row in table.rows)
    spans = []
    for span in table.spans:
        if span.col in hidden:
            continue
        col = span.col - sum(1 for h in hidden if h < span.col)
        col_span = span.col_span - sum(
            1 for h in hidden if span.col <= h < span.col + span.col_span
        )
        if span.row_span > 1 or col_span > 1:
            spans.append(CellSpan(span.row, col, span.row_span, col_span))
    return grid, tuple(spans)
