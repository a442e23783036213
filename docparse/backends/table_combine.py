"""A ruled strategy's grids combined with readings from the words.

A ruled strategy reads a table only between its rules: without the header
lines above its first rule (:func:`grow_headers`), without an unruled stub or
last column (:func:`widen_to_open_sides`), or as pieces cut apart at a row
without rules (:func:`join_cut_grids`, :func:`join_strips`). Each reads the
fuller region again from its words
(:func:`~docparse.backends.table_reading.region_grids`) and keeps the reading
that holds more. :func:`with_extra_tables` adds the region finders' tables to
the found ones, replacing pieces a fuller table holds. :func:`finish_tables`
is the last steps every backend reading tables from its words takes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TypeVar

from docparse.backends.pages import TableRegion
from docparse.backends.table_candidates import (
    PageInputs,
    Word,
    is_number,
    overlaps,
    union,
    vertical_rules,
)
from docparse.backends.table_grid import merge_symbol_cells
from docparse.backends.table_headers import (
    NUMBER_CELL,
    UNITS_LINE,
    header_row_count,
    header_top,
    is_data_row,
)
from docparse.backends.table_lists import keyed_list_tables
from docparse.backends.table_open_grid import with_open_grids
from docparse.backends.table_reading import (
    RegionGrid,
    as_regions,
    page_captions,
    region_box,
    region_grids,
    shading_columns,
)
from docparse.backends.table_regions import (
    TABLE_MARGIN,
    Box,
    TextLine,
    banded_regions,
    caption_regions,
    open_sides,
    rule_bounded_regions,
    without_prose_sides,
)
from docparse.backends.table_repair import below_lead_in
from docparse.backends.table_rows import baseline_rows
from docparse.model import BBox

G = TypeVar("G")

#: Points a shaded piece may reach above or below the words of a table read from its words.
END_SLACK = 4.0
#: Points a ruled piece may reach past the words of a table read from its words.
SIDE_SLACK = 12.0


def grow_headers(grids: Sequence[RegionGrid], inputs: PageInputs) -> list[RegionGrid]:
    """Ruled grids whose column headers sit above their first rule, read again with them.

    Filings draw a rule under the header, so a ruled strategy starts the table below it. Where
    :func:`~docparse.backends.table_headers.header_top` finds header lines above a grid, the grown
    region is read from its words (:func:`~docparse.backends.table_reading.region_grids`, the
    vertical rules as column boundaries) and replaces the grid when it holds more non-empty cells.
    Only header lines with two or more pieces side by side, or a units line, count, and never the
    rows of the table above.
    """
    out: list[RegionGrid] = []
    captions = page_captions(inputs.lines) if grids else []
    for box, rows in grids:
        pitch = (box[3] - box[1]) / max(len(rows), 1)
        # Never into the table above: its rows are no header of this one.
        # Nor into a caption above, wrapped lines included.
        floor = max(
            (
                b[3]
                for b in [*(g for g, _ in grids if g is not box), *captions]
                if b[3] <= box[1] + 1 and b[0] < box[2] and box[0] < b[2]
            ),
            default=float("-inf"),
        )
        over = [
            ln
            for ln in inputs.lines
            if ln[0][0] >= box[0] - 6 and ln[0][2] <= box[2] + 6 and ln[0][1] >= floor - 1
        ]
        top = header_top(over, box[1] + 1, max(pitch, 6.0))
        heads = [ln for ln in over if ln[0][1] >= top - 1 and ln[0][3] <= box[1] + 1]
        top, heads = _without_title(heads, box, top)
        # Column headers stand side by side over the columns; a lone title line
        # above a table is not one, a lone units line ("(In millions)") is.
        side_by_side = any(
            sum(abs((a[1] + a[3]) - (b[1] + b[3])) < 4 for b, _ in heads) >= 2 for a, _ in heads
        ) or any(UNITS_LINE.match(t.strip()) for _, t in heads)
        if top >= box[1] - 1 or not side_by_side:
            out.append((box, rows))
            continue
        clip = (box[0] - 1, top - 1, box[2] + 1, box[3])
        rules = vertical_rules(inputs.segments, box)
        again = region_grids(inputs.words, clip, rules=rules, lines=inputs.lines)
        # Counted with signs joined: a ruled grid's "$" cells are no content.
        filled = _filled(merge_symbol_cells([list(r) for r in rows]))
        if again and _filled(again[0][1]) > filled:
            out.append(again[0])
        else:
            out.append((box, rows))
    return out


def _without_title(heads: Sequence[TextLine], box: Box, top: float) -> tuple[float, list[TextLine]]:
    """Header lines above a table without the title lines at their top.

    A statement's title ("Consolidated Statements of Operations") stands
    alone in its line above the column headers, centred over the table or
    flush with its left edge; a spanning column header ("Year Ended") stands
    over the value columns only. Lone lines of the first kind are taken off
    the top (a units line never is); returns the new top and the lines left.
    """
    kept = sorted(heads, key=lambda ln: ln[0][1])
    width = box[2] - box[0]
    while kept:
        (x0, y0, x1, y1), text = kept[0][0][:4], kept[0][1]
        alone = not any(abs((b[1] + b[3]) - (y0 + y1)) < 4 for b, _ in kept[1:])
        centred = abs((x0 + x1) / 2 - (box[0] + box[2]) / 2) < 0.05 * width
        flush = abs(x0 - box[0]) < 3 and x1 - x0 < 0.6 * width
        if not alone or not (centred or flush) or UNITS_LINE.match(text.strip()):
            break
        kept.pop(0)
    return (min(ln[0][1] for ln in kept) if kept else top), kept


def _filled(rows: Iterable[Sequence[str]]) -> int:
    return sum(1 for r in rows for c in r if c.strip())


def _weight(rows: Sequence[Sequence[str]]) -> int:
    """Non-empty cells below the header rows (:func:`header_row_count`) and the heads' words.

    A reading that joins a head's wrapped lines into one cell each has fewer
    cells than pieces that keep them apart, the same words.
    """
    n = header_row_count(rows)
    return _filled(rows[n:]) + sum(len(c.split()) for r in rows[:n] for c in r)


def widen_to_open_sides(
    grids: Sequence[RegionGrid], inputs: PageInputs, rules: Sequence[tuple[float, float, float]]
) -> list[RegionGrid]:
    """Ruled grids that leave out an unruled stub or last column, read again with them.

    ``rules`` are the page's vertical rules ``(x, top, bottom)``. Where
    :func:`~docparse.backends.table_regions.open_sides` finds a table going on beyond its outermost
    rules, the grid's band widened to those sides is read from its words
    (:func:`~docparse.backends.table_reading.region_grids`, the rules as column boundaries); the
    reading replaces the ruled grid when it holds more non-empty cells.
    """
    sides = open_sides(rules, [w[:4] for w in inputs.words])
    if not sides:
        return list(grids)
    out: list[RegionGrid] = []
    for box, rows in grids:
        xs = [x for x, top, bottom in sides if top <= box[3] and bottom >= box[1]]
        if not xs:
            out.append((box, rows))
            continue
        clip = (min(box[0], *xs), box[1], max(box[2], *xs), box[3])
        # The other page column's prose is no unruled column of this table.
        clip = without_prose_sides(clip, inputs.words)
        if clip[0] >= box[0] - 1 and clip[2] <= box[2] + 1:
            out.append((box, rows))
            continue
        inner = [x for x, top, bottom in rules if top <= box[3] and bottom >= box[1]]
        again = region_grids(inputs.words, clip, rules=inner, lines=inputs.lines)
        filled = sum(1 for r in rows for c in r if c.strip())
        best = max(again, key=lambda g: sum(1 for r in g[1] for c in r if c.strip()), default=None)
        if best is not None and sum(1 for r in best[1] for c in r if c.strip()) > filled:
            out.append(best)
        else:
            out.append((box, rows))
    return out


def join_cut_grids(grids: Sequence[RegionGrid], inputs: PageInputs) -> list[RegionGrid]:
    """Ruled grids of one table cut apart at a row without rules, read again as one.

    A table ruled under some rows only (its header, its last body row) comes out of a ruled strategy
    as pieces one above the other: same columns, same left and right edges, less than a row apart,
    the lower piece starting with a row of values. A line of values below the last piece with no row
    label (a column total under its rule) belongs to it too. The pieces' band is read from its words
    (:func:`~docparse.backends.table_reading.region_grids`, the vertical rules as column boundaries)
    and replaces them when it holds more non-empty cells.
    """
    out: list[tuple[tuple[float, float, float, float], list[list[str]], bool]] = []
    for piece, rows in sorted(grids, key=lambda g: g[0][1]):
        box = (float(piece[0]), float(piece[1]), float(piece[2]), float(piece[3]))
        if out:
            a, above, _ = out[-1]
            pitch = (a[3] - a[1]) / max(len(above), 1)
            width = max((len(r) for r in rows), default=0)
            if (
                abs(a[0] - box[0]) <= 4
                and abs(a[2] - box[2]) <= 4
                and 0 <= box[1] - a[3] <= pitch
                and width == max((len(r) for r in above), default=0)
                and rows
                and is_data_row([c or "" for c in rows[0]])
            ):
                out[-1] = (union(a, box), [*above, *rows], True)
                continue
        out.append((box, list(rows), False))
    if len(out) == len(grids):
        return list(grids)
    result: list[RegionGrid] = []
    for band, rows, joined in out:
        if not joined:
            result.append((band, rows))
            continue
        box = band
        pitch = (box[3] - box[1]) / max(len(rows), 1)
        below = [
            w
            for w in inputs.words
            if box[3] - 1 <= w[1] <= box[3] + pitch and w[0] >= box[0] - 2 and w[2] <= box[2] + 2
        ]
        rows_below = baseline_rows(below)
        line = rows_below[0] if rows_below else []
        unlabelled = all(w[0] > box[0] + 0.3 * (box[2] - box[0]) for w in line)
        bottom = box[3]
        if line and unlabelled and sum(is_number(w[4].lstrip("$")) for w in line) >= 2:
            bottom = max(w[3] for w in line)
        clip = (box[0] - 1, box[1] - 1, box[2] + 1, bottom + 1)
        again = region_grids(inputs.words, clip, rules=vertical_rules(inputs.segments, clip))
        if again and _filled(again[0][1]) > _filled(merge_symbol_cells([list(r) for r in rows])):
            result.append(again[0])
        else:
            result.append((box, rows))
    return result


def join_strips(
    found: Sequence[G],
    regions: Sequence[tuple[tuple[float, float, float, float], list[int]]],
    read: Callable[[tuple[float, float, float, float]], list[G]],
    top_left: Callable[[G], tuple[float, float]],
) -> list[G]:
    """``found`` with the strips of each banded region replaced by ``read(region)``.

    The regions are :func:`~docparse.backends.table_regions.banded_regions`. A region whose reading
    finds no table keeps its strips. The result is in reading order of the grids' top-left corners.
    """
    drop: set[int] = set()
    joined: list[G] = []
    for clip, strips in regions:
        grids = read(clip)
        if grids:
            joined.extend(grids)
            drop.update(strips)
    kept = [g for i, g in enumerate(found) if i not in drop]
    return sorted([*kept, *joined], key=top_left)


def with_extra_tables(
    found: Sequence[G],
    extra: Sequence[G],
    box: Callable[[G], Box],
    rows: Callable[[G], Sequence[Sequence[str]]],
    replace: bool = True,
    side_slack: float = 2.0,
) -> list[G]:
    """``found`` with the tables of the region finders (``extra``) added.

    An extra table overlapping no found one is added. With ``replace`` (for
    tables bounded by rules, not for a caption's guess at its table's
    extent), one that holds every found table it overlaps, reaches beyond
    them (header lines above them, another block of rows) and has more
    non-empty cells replaces them: a finder of rows of numbers reads a table
    between its rules as pieces without its header (``Male`` and ``Female``
    blocks under a four-line header, all between a top and a bottom rule).
    "Holds" allows ``side_slack`` points on the left and right (rules and
    shading reach past the words a table read from its words spans), and up
    to :data:`END_SLACK` of them above and below (a shaded row's band).
    Extra tables that overlap one found table together (a region cut in two
    at a new header block, under a ruled piece spanning the cut) replace it
    together on the same terms. Found tables standing side by side, each
    with row labels, are never replaced by one.
    """
    end_slack = min(side_slack, END_SLACK)

    def holds(outer: Box, f: G) -> bool:
        b = box(f)
        return (
            b[0] >= outer[0] - side_slack
            and b[1] >= outer[1] - end_slack
            and b[2] <= outer[2] + side_slack
            and b[3] <= outer[3] + end_slack
        )

    out = list(found)
    used: list[G] = []
    for g in extra:
        if any(g is u for u in used):
            continue
        b = box(g)
        over = [f for f in out if overlaps(box(f), b)]
        if not over:
            out.append(g)
            continue
        # A region cut in two at a new header block reads as two tables where
        # a ruled piece spans the cut: together they hold it.
        group = [g]
        if not all(holds(b, f) for f in over):
            group += [
                h
                for h in extra
                if h is not g
                and not any(h is u for u in used)
                and any(overlaps(box(f), box(h)) for f in over)
            ]
            over = [f for f in out if any(overlaps(box(f), box(h)) for h in group)]
        whole = box(group[0])
        for h in group[1:]:
            whole = union(whole, box(h))
        held = all(holds(whole, f) for f in over)
        top = min(box(f)[1] for f in over)
        bottom = max(box(f)[3] for f in over)
        beyond = whole[1] < top - 2 or whole[3] > bottom + 2 or len(over) > len(group)
        more = sum(_filled(rows(h)) for h in group) > sum(_filled(rows(f)) for f in over)
        more = more or sum(_weight(rows(h)) for h in group) > sum(_weight(rows(f)) for f in over)
        tables = [(box(f), rows(f)) for f in over]
        if replace and held and beyond and more and not _side_by_side(tables):
            out = [f for f in out if not any(f is o for o in over)]
            out.extend(group)
            used.extend(group)
    return out


def _side_by_side(tables: Sequence[tuple[Box, Sequence[Sequence[str]]]]) -> bool:
    """Whether two of ``tables`` stand next to each other, each with its own row labels.

    Tables found side by side whose first columns are labels are separate
    tables (three country lists over one page): a reading from the words
    across all of them is no table. A piece whose first column is values
    is the rest of the rows at its left (a grid cut at a column rule).
    """
    labelled = [(b, r) for b, r in tables if _labelled(r)]
    for i, (a, _) in enumerate(labelled):
        for b, _ in labelled[i + 1 :]:
            apart = a[2] <= b[0] + 2 or b[2] <= a[0] + 2
            shared = min(a[3], b[3]) - max(a[1], b[1])
            if apart and shared > 0.5 * min(a[3] - a[1], b[3] - b[1]):
                return True
    return False


def _labelled(rows: Sequence[Sequence[str]]) -> bool:
    """Whether most non-empty first cells of ``rows`` are text, not values."""
    firsts = [r[0] for r in rows if r and r[0] and r[0].strip()]
    return bool(firsts) and sum(not NUMBER_CELL.match(c) for c in firsts) > len(firsts) / 2


def _rows(t: TableRegion) -> Sequence[Sequence[str]]:
    return t.rows


def join_bands(found: list[TableRegion], inputs: PageInputs) -> list[TableRegion]:
    """``found`` with zebra-striped tables found strip by strip read again as one
    (:func:`~docparse.backends.table_regions.banded_regions`, :func:`join_strips`)."""
    bands = banded_regions([region_box(t) for t in found], inputs.lines)
    if not bands:
        return found
    return join_strips(
        found,
        bands,
        lambda clip: as_regions(
            region_grids(
                inputs.words, clip, shading_columns(inputs.fills, clip), lines=inputs.lines
            )
        ),
        lambda t: (t.bbox.y0, t.bbox.x0),
    )


def ruled_off_regions(
    inputs: PageInputs, rules: Sequence[tuple[float, float, float]]
) -> list[TableRegion]:
    """Tables bounded by horizontal ``rules`` only (LaTeX booktabs, see
    :func:`~docparse.backends.table_regions.rule_bounded_regions`), and tables
    ruled inside with no frame (:func:`with_open_grids`), each read from its words.
    ``rules``: ``(x0, y, x1)``, top-left page space."""
    bounded = rule_bounded_regions(rules, inputs.lines, inputs.height) if len(rules) > 1 else []
    return as_regions(
        g
        for clip, breaks in with_open_grids(bounded, inputs.segments, inputs.words)
        for g in region_grids(inputs.words, clip, lines=inputs.lines, breaks=breaks)
    )


def finish_tables(
    found: list[TableRegion], inputs: PageInputs, rules: Sequence[tuple[float, float, float]]
) -> tuple[TableRegion, ...]:
    """The last steps of a page's tables read from words: zebra strips joined
    (:func:`join_bands`), booktabs and open-grid tables (:func:`ruled_off_regions`)
    in place of what they hold, then caption regions and keyed lists (an exhibit
    index) where no table is."""
    found = join_bands(found, inputs)
    found = with_extra_tables(found, ruled_off_regions(inputs, rules), region_box, _rows)
    extra = [
        *as_regions(
            g
            for clip in caption_regions(list(inputs.lines), inputs.width)
            for g in region_grids(inputs.words, clip, lines=inputs.lines)
        ),
        *as_regions(
            keyed_list_tables(
                inputs.words, TABLE_MARGIN * inputs.height, (1 - TABLE_MARGIN) * inputs.height
            )
        ),
    ]
    found = with_extra_tables(found, extra, region_box, _rows, replace=False)
    return tuple(_without_lead_in(t, inputs.words) for t in found)


def without_lead_ins(
    grids: Iterable[tuple[Box, list[list[str]]]], words: Sequence[Word]
) -> list[tuple[Box, list[list[str]]]]:
    """``(box, rows)`` grids without a first row that is the end of the text above
    (:func:`~docparse.backends.table_repair.below_lead_in`)."""
    out = []
    for box, rows in grids:
        top = below_lead_in(rows, box, words)
        out.append((box, rows) if top is None else ((box[0], top, *box[2:]), rows[1:]))
    return out


def _without_lead_in(t: TableRegion, words: Sequence[Word]) -> TableRegion:
    b = t.bbox
    top = below_lead_in(t.rows, (b.x0, b.y0, b.x1, b.y1), words)
    if top is None:
        return t
    return TableRegion(
        BBox(b.x0, top, b.x1, b.y1),
        t.rows[1:],
        max(t.n_header_rows - 1, 0),
        tuple((r - 1, c, rs, cs) for r, c, rs, cs in t.spans if r > 0),
    )
