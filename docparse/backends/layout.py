"""Layout assembly shared by the PDF backends: pages of blocks into unit drafts.

The steps, in order:

1. Per page (streamed): drop text inside table regions, split blocks into
   paragraph candidates (at list markers, font changes, blank space and
   paragraph indents), and put them in reading order (two-column pages:
   left column then right column, with full-width items such as titles and
   wide tables splitting the flow).
2. Across pages: the body font size (most common size by characters), a
   vocabulary of the document's own words (for de-hyphenation), running
   headers/footers (margin lines whose text, digits normalised, repeats on
   several pages) and lone page numbers, which become ``furniture``.
3. Classification: title, headings (larger than body text, or short bold
   lines, numbered ``2.1 Method`` headings) with levels and the section path,
   captions, list items, abstract.
4. Paragraphs continued across column and page breaks are merged (the
   previous one does not end a sentence and the next starts in lower case);
   end-of-line hyphens are joined only when the joined word is a word.
5. Tables become table units; table captions are linked to the nearest
   table on their page, both ways.

Only lightweight records (strings, floats) are kept across pages, never a
library's page objects.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from itertools import chain, repeat
from pathlib import Path

from docparse.backends.equations import gather_equations
from docparse.backends.floats import (
    CAPTION_INITIALS,
    caption_match,
    join_caption_labels,
    link_captions,
    mark_figure_text,
)
from docparse.backends.footnotes import mark_footnotes
from docparse.backends.furniture import body_font, mark_furniture, text_stats
from docparse.backends.headings import (
    assign_levels,
    attach_section_numbers,
    body_sizes,
    contents_pages,
    front_matter,
    is_heading,
    is_section_number,
    join_number_blocks,
    split_run_in,
    text_fonts,
)
from docparse.backends.items import (
    CAPTION,
    Item,
    PageItems,
    dominant_font,
    leading_marker,
    line_item,
    new_item,
    superscripts,
)
from docparse.backends.line_numbers import split_line_numbers, tables_clear_of_numbers
from docparse.backends.lines import union_boxes
from docparse.backends.pages import (
    Assembly,
    BlockRole,
    Line,
    PageContent,
    PdfConfig,
    TableRegion,
    display_bbox,
)
from docparse.backends.reading_order import reading_order
from docparse.backends.table_headers import header_row_count
from docparse.backends.table_pages import join_page_tables
from docparse.backends.words import (
    expand_ligatures,
    join_lines,
    merge_continuation_rows,
    vocabulary,
)
from docparse.builder import UnitDraft, records
from docparse.model import BBox, CellSpan, PageInfo, Provenance, Table, UnitKind
from docparse.text import ALNUM

# --------------------------------------------------------------------------- text helpers

_BULLET = re.compile(r"^\s*(?:[•◦▪▫●○■□‣⁃∙·\-–—*]|\(?[0-9]{1,2}[.)]|\(?[a-z][.)]|\([ivx]+\))\s+")
_BULLET_CHARS = re.compile(r"^\s*[•◦▪▫●○■□‣⁃∙·]\s*")
_ABSTRACT = re.compile(r"^abstract\b\W", re.IGNORECASE)
_LONE_BULLET = re.compile(r"\s*(?:[•◦▪▫●○■□‣⁃∙·\-–—*]|\(?[0-9]{1,2}[.)]|\(?[a-z][.)])\s*")


#: Quotes and brackets that may close a sentence after its full stop.
_CLOSERS = "'\"’”)]"


def _ends_sentence(text: str) -> bool:
    """``text`` (right-stripped) ends with ``.!?:;``, closing quotes and
    brackets after it allowed (one strip, no regex scan of the line)."""
    last = text.rstrip(_CLOSERS)[-1:]
    return bool(last) and last in ".!?:;"


def _clamp(b: BBox, w: float, h: float) -> BBox:
    if b.origin == "top-left" and 0.0 <= b.x0 <= b.x1 <= w and 0.0 <= b.y0 <= b.y1 <= h:
        return b  # on the page already (most boxes): the same box
    x0 = min(max(b.x0, 0.0), w)
    x1 = min(max(b.x1, 0.0), w)
    y0 = min(max(b.y0, 0.0), h)
    y1 = min(max(b.y1, 0.0), h)
    return BBox(min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))


def _compact(text: str) -> str:
    return "".join(expand_ligatures(text).split()).lower()


def _inside(line: Line, tables: Sequence[TableRegion], cells: Sequence[str]) -> bool:
    """The line lies in a table region and its text is in that table's cells.

    A line the table's cells did not capture (a word outside every detected
    cell) stays a text line, so no word of the page is lost.
    """
    box = line.bbox
    cx = (box.x0 + box.x1) / 2
    cy = (box.y0 + box.y1) / 2
    for t, text in zip(tables, cells, strict=True):
        b = t.bbox
        if b.x0 - 2 <= cx <= b.x1 + 2 and b.y0 - 2 <= cy <= b.y1 + 2:
            # Each word as _compact makes it: ligatures expanded and lower-cased
            # (neither makes or removes white space), for the whole line at once.
            return all(w in text for w in expand_ligatures(line.text).lower().split())
    return False


def _union(boxes: Iterable[BBox]) -> BBox:
    return union_boxes(list(boxes))


def _split_block(block_lines: Sequence[Line], role: BlockRole | None, page: int) -> list[Item]:
    """Split one block (its lines and role) into paragraph candidates."""
    if role is None and len(block_lines) == 1 and len(block_lines[0].spans) == 1:
        # One line of one span (most blocks of a text-run backend): no run-in
        # heading to split off (that takes a bold span and another), no
        # leading mark, the span's font.
        ln = block_lines[0]
        text = expand_ligatures(ln.text)
        stripped = text.strip()  # ligatures are no white space: blank as the line is
        if not stripped:
            return []
        return [
            line_item(page, ln.bbox, text, stripped, ln.size, bool(ln.bold), None, ln.spans[0].font)
        ]
    lines = [ln for ln in block_lines if ln.text.strip()]
    if not lines:
        return []
    if role is not None:
        return [
            Item(
                page,
                _union(ln.bbox for ln in lines),
                tuple([expand_ligatures(ln.text) for ln in lines]),
                max((ln.size for ln in lines), default=0.0),
                all(ln.bold for ln in lines),
                role,
                font=dominant_font(lines),
            )
        ]
    if len(lines) == 1:
        box = lines[0].bbox
        left, right = box.x0, box.x1
    else:
        left = min([ln.bbox.x0 for ln in lines])
        right = max([ln.bbox.x1 for ln in lines])
    lines, run_in = split_run_in(lines)
    groups = _line_groups(lines, run_in, left, right) if len(lines) > 1 else [lines]
    items = []
    for g in groups:
        if len(g) == 1:
            # One line (most groups): its own box, size and weight; the font and
            # leading mark of a one-span line read off it (what the calls answer).
            ln = g[0]
            text = ln.text
            if not text.isascii():
                text = expand_ligatures(text)  # ASCII holds no ligature
            spans = ln.spans
            items.append(
                line_item(
                    page,
                    ln.bbox,
                    text,
                    text.strip(),
                    ln.size,
                    bool(ln.bold),
                    "heading" if run_in and id(ln) in run_in else None,
                    spans[0].font if len(spans) == 1 else dominant_font(g),
                    leading_marker(ln),
                )
            )
            continue
        texts = [ln.text for ln in g]
        sizes = [ln.size for ln in g]
        items.append(
            new_item(
                page,
                union_boxes([ln.bbox for ln in g]),
                tuple([t if t.isascii() else expand_ligatures(t) for t in texts]),
                # One size (most groups): _dominant_size would find it.
                sizes[0] if sizes.count(sizes[0]) == len(sizes) else _dominant_size(g),
                all([ln.bold for ln in g]),
                "heading" if run_in and id(g[-1]) in run_in else None,
                dominant_font(g),
                leading_marker(g[0]),
            )
        )
    return items


def _line_groups(
    lines: list[Line], run_in: set[int], left: float, right: float
) -> list[list[Line]]:
    """A block's ``lines`` (two or more, not blank) cut into paragraph candidates."""
    groups: list[list[Line]] = [[lines[0]]]
    # Each line's facts are read once and carried as the next line's "prev".
    prev = lines[0]
    pb, prev_size, prev_bold = prev.bbox, prev.size, prev.bold
    prev_text = prev.text.rstrip()
    for ln in lines[1:]:
        b, ln_size, ln_bold, text = ln.bbox, ln.size, ln.bold, ln.text
        size = 1.0 if ln_size < 1.0 else ln_size  # max(ln_size, 1.0)
        indent = left + 0.8 * size
        if run_in and (id(prev) in run_in or id(ln) in run_in):
            new = True  # a run-in heading is an item of its own
        elif ln_bold and is_section_number(text) and not is_section_number(prev_text):
            # A heading's number on its own line under the previous heading
            # ("RESEARCH METHODS" / "A.1" beside "Part One"): its own item, so
            # that attach_section_numbers joins it to the title beside it.
            new = True
        # A lone bullet is four characters at most ("(12)"), white space aside.
        elif len(prev_text.lstrip()) <= 4 and _LONE_BULLET.fullmatch(prev_text):
            new = False  # the bullet glyph sits on its own line before its text
        else:
            # _ends_sentence, inline (it runs for most lines of the page).
            last = prev_text.rstrip(_CLOSERS)[-1:]
            ends = bool(last) and last in ".!?:;"
            short_prev = pb.x1 < right - 2.5 * size
            resized = abs(ln_size - prev_size) > 0.9
            # The tests are pure: the cheap ones first, a regex only where it can
            # change the answer (a bullet glyph is not ASCII; a list marker
            # starts an item only after a sentence's end or a blank line).
            new = (
                # Font change: a heading run-in or a heading followed by text.
                (
                    (resized or (ln_bold != prev_bold and (prev_bold or ln_bold)))
                    and (len(groups[-1]) <= 3 or resized)
                )
                or b.y0 - pb.y1 > 0.8 * size
                or (b.x0 > indent and pb.x0 <= indent and (ends or short_prev))
                or (short_prev and ends and text[:1].isupper() and b.x0 <= indent)
                or ((ends or not prev_text) and bool(_BULLET.match(text)))
                or (not text.isascii() and bool(_BULLET_CHARS.match(text)))
                # The next footnote of a block of footnotes.
                or (ln_size <= prev_size + 0.5 and bool(leading_marker(ln)))
            )
        if new:
            groups.append([ln])
        else:
            groups[-1].append(ln)
        prev, pb, prev_size, prev_bold, prev_text = ln, b, ln_size, ln_bold, text.rstrip()
    return groups


def _dominant_size(lines: Sequence[Line]) -> float:
    sizes = [ln.size for ln in lines]
    first = sizes[0]
    if sizes.count(first) == len(sizes):
        return first  # one size (most groups): the count below would find it
    # As Counter.most_common(1): the first size among the most used.
    c: dict[float, int] = {}
    for ln, z in zip(lines, sizes, strict=True):
        c[z] = c.get(z, 0) + len(ln.text)
    return max(c, key=c.__getitem__)


def page_items(page: PageContent, config: PdfConfig) -> PageItems:
    """Step 1 for one page: paragraph candidates and tables in reading order."""
    tables = page.tables if config.tables else ()
    # Margin line numbers out first: glued into lines they break equations and paragraphs.
    numbered = split_line_numbers(page)
    if numbered is not page and tables:
        tables = tables_clear_of_numbers(tables, numbered)
    cells = [" ".join(_compact(c) for r in t.rows for c in r) for t in tables]
    items: list[Item] = []
    blocks = join_number_blocks(gather_equations(numbered))
    # A line's marks do not depend on its block: the page's lines read at once
    # after the loop, all but those of one-line one-span blocks (a mark is a
    # span beside another on its line).
    spanned: list[tuple[Line, ...]] = []
    number = page.number
    for block in blocks:
        role = block.role
        lines = block.lines
        if len(lines) == 1 and len(lines[0].spans) == 1 and role is None and not tables:
            # _split_block's first case, without the call (most blocks).
            ln = lines[0]
            text = ln.text
            if not text.isascii():
                text = expand_ligatures(text)  # ASCII holds no ligature
            stripped = text.strip()
            if stripped:
                items.append(
                    line_item(
                        number,
                        ln.bbox,
                        text,
                        stripped,
                        ln.size,
                        bool(ln.bold),
                        None,
                        ln.spans[0].font,
                    )
                )
            continue
        spanned.append(lines)
        if role == "table" and config.tables and not tables:
            rows = tuple((ln.text,) for ln in lines if ln.text.strip())
            if rows:
                region = TableRegion(block.bbox, rows)
                items.append(Item(number, block.bbox, (), 0.0, False, "table", region))
            continue
        if tables:
            lines = tuple(ln for ln in lines if not _inside(ln, tables, cells))
        items.extend(_split_block(lines, None if role == "table" else role, number))
    marks = superscripts(list(chain.from_iterable(spanned)))
    items = attach_section_numbers(items)
    for t in tables:
        items.append(Item(number, t.bbox, (), 0.0, False, "table", t))
    width, height = page.width, page.height
    for it in items:
        b = it.bbox
        # _clamp's test, inline: most boxes are on the page and stay as they are.
        if not (
            b.origin == "top-left"
            and 0.0 <= b.x0 <= b.x1 <= width
            and 0.0 <= b.y0 <= b.y1 <= height
        ):
            it.bbox = _clamp(b, width, height)
    ordered = reading_order(items, width)
    if page.rotation % 360:
        for it in ordered:
            it.bbox = display_bbox(it.bbox, page.rotation, page.width, page.height)
        if page.rotation % 180:
            width, height = height, width
    return PageItems(page.number, width, height, ordered, marks)


# --------------------------------------------------------------------------- across pages


def _find_title(first: PageItems, body: float) -> str | None:
    """Mark the document title on its first page and return its text."""
    title: str | None = None
    # Title: the largest text near the top of the document's first page (a
    # page range starting later has no title; the backend finds it on page 1).
    if body > 0:
        cands = [
            it
            for it in first.items
            if it.table is None
            and it.kind is None
            and it.role in (None, "title", "heading")
            and it.bbox.y0 < 0.5 * first.height
            and it.size >= body * 1.3
            and len(it.text.split()) <= 40
        ]
        if cands:
            top = max(cands, key=lambda it: (it.size, -it.bbox.y0))
            top.kind = "title"
            # A title broken over lines the backend put in separate blocks:
            # absorb the same-size items right below it.
            for it in sorted(first.items, key=lambda it: it.bbox.y0):
                if (
                    it is not top
                    and it.kind is None
                    and it.table is None
                    and abs(it.size - top.size) < 0.5
                    and -0.5 * top.size <= it.bbox.y0 - top.bbox.y1 < 0.8 * top.size
                ):
                    top.lines += it.lines
                    top.bbox = top.bbox.union(it.bbox)
                    it.kind = "title"
                    it.lines = ()
            first.items = [it for it in first.items if it.lines or it.table is not None]
            title = top.text
    return title


#: The unit kind of an item whose block role is not a heading's or title's.
_ROLE_KINDS: dict[str, UnitKind] = {
    "paragraph": "paragraph",
    "list_item": "list_item",
    "caption": "caption",
    "figure": "paragraph",
    "footnote": "footnote",
    "equation": "equation",
}


# Over the C901 limit on purpose: one classification pass, each branch one unit kind's rule.
def _classify(pages: Sequence[PageItems], body: float, body_font: str) -> str | None:
    """Assign kinds and heading levels; return the document title if found."""
    on_first = bool(pages) and pages[0].number == 1
    title = _find_title(pages[0], body) if on_first else None
    contents = contents_pages(pages)
    running = text_fonts(pages)
    sizes = body_sizes(pages)
    front = _front_matter(pages[0]) if on_first else set()
    bullet = _BULLET.match
    for p in pages:
        in_contents = p.number in contents
        for it in p.items:
            if it.kind is not None:
                continue
            if it.table is not None:
                it.kind = "table"
                continue
            text = it.text
            role = it.role
            if role is not None:
                if role == "title" and title is None and on_first:
                    it.kind = "title"
                    title = text
                    continue
                if role != "heading" and role != "title":
                    kind = _ROLE_KINDS.get(role, "paragraph")
                    it.kind = "caption" if kind == "paragraph" and caption_match(text) else kind
                    continue
            # A caption may be set a size above a small body type (a journal
            # whose methods and references are in 7 pt, its captions in 8 pt).
            # (caption_match, read here: this runs once for every item.)
            if (
                text[:1] in CAPTION_INITIALS
                and CAPTION.match(text)
                and (len(it.lines) <= 12 and (body <= 0 or it.size <= body * 1.3 or it.bold))
            ):
                it.kind = "caption"
                continue
            # A contents list's entries repeat the headings; only the list's
            # own title, set larger, is one.
            if role is not None or (
                not (in_contents and it.size < 1.12 * body)
                and is_heading(it, body, body_font, running, sizes)
            ):
                it.kind = "heading"
                continue
            it.kind = "list_item" if bullet(text) else "paragraph"
    order = [it for p in pages for it in p.items]
    # Only headings among the title page's front items can be taken back: a
    # title page without one needs no look at the headings' styles.
    if front and any(it.kind == "heading" and id(it) in front for it in pages[0].items):
        for it in front_matter(order, front):
            it.kind = "paragraph"
    assign_levels([it for it in order if it.kind == "heading"], _text_after(order, body))
    return title


def _front_matter(first: PageItems) -> set[int]:
    """Ids of the first page's items before its first running text (an item of
    three lines and twenty words or more): title, authors, affiliations."""
    out: set[int] = set()
    for it in first.items:
        if it.table is None and len(it.lines) >= 3 and len(it.text.split()) >= 20:
            break
        out.add(id(it))
    return out


def _text_after(order: Sequence[Item], body: float) -> dict[int, float]:
    """The type size of the first paragraph (forty characters or more) after
    each heading and before the next, keyed by the heading's ``id`` (``body``
    for a heading with none)."""
    out: dict[int, float] = {id(it): body for it in order if it.kind == "heading"}
    pending: list[Item] = []
    for it in order:
        if it.kind == "heading":
            pending.append(it)
        elif pending and it.kind in ("paragraph", "list_item") and it.chars >= 40:
            for h in pending:
                out[id(h)] = it.size
            pending = []
    return out


def _last_page(it: Item) -> int:
    return it.extra[-1][0] if it.extra else it.page


def _open_tail(para: Item) -> str | None:
    """The last line of ``para`` (right-stripped) when it ends no sentence, else
    ``None`` (the paragraph is closed: no lines, or a sentence end)."""
    lines = para.lines
    if not lines:
        return None
    tail = lines[-1].rstrip()
    # _ends_sentence(tail), read here: this runs once for every paragraph.
    last = tail.rstrip(_CLOSERS)[-1:]
    return None if last and last in ".!?:;" else tail


def _continues(para: Item, prev: str, it: Item) -> bool:
    """The paragraph ``it`` carries on ``para``, whose last line ``prev``
    (right-stripped, not empty) ends no sentence."""
    first = it.text.lstrip()
    if not first:
        return False
    if first[0].islower() or (prev[-1] in "-,(" and first[0].isalnum()):
        return True
    if not prev[-1].isalnum() or abs(it.size - para.size) > 0.6:
        return False
    # Across a column or page break, a sentence cut after a word may go on
    # with a name that is no sentence start ("... directly linked to" /
    # "SMBH accretion", "AT2019qiz, whose"), in the same type; a capitalised
    # word ("Body") starts a new paragraph.
    if it.page == _last_page(para) and not (it.col != para.col and it.col and para.col):
        return False
    word = first.split(maxsplit=1)[0]
    return sum(c.isupper() or c.isdigit() for c in word) >= 2


def _merge_continuations(order: list[Item]) -> list[Item]:
    """Merge paragraphs that continue across column and page breaks and around floats.

    Figure text, captions, tables, footnotes and furniture between the two
    parts do not end the paragraph; neither does a paragraph set in another
    type size (a box or sidebar), nor a fragment without a letter or digit
    (a lone ``?`` of an unresolved citation), which joins the open paragraph.
    A display equation ends it: the text after one is a paragraph of its own.
    """
    out: list[Item] = []
    last_para: Item | None = None
    # The open paragraph's last line (see _open_tail), read again only when
    # the paragraph or its lines change, not once per item after it.
    tail: str | None = None
    for it in order:
        kind = it.kind
        if kind == "paragraph" and it.role == "figure":
            out.append(it)  # a float: the paragraph around it goes on
            continue
        if last_para is not None and tail is not None and kind == "paragraph":
            if (tail and _continues(last_para, tail, it)) or not ALNUM.search(it.text):
                last_para.lines += it.lines
                last_para.extra.append((it.page, it.bbox))
                tail = _open_tail(last_para)
                continue
            if abs(it.size - last_para.size) > 1.0:
                out.append(it)  # a box in another type: the open paragraph goes on after it
                continue
        if kind in ("paragraph", "list_item", "abstract"):
            last_para = it
            tail = _open_tail(it)
        elif kind in ("heading", "title", "equation"):
            last_para = None
        out.append(it)
    return out


def _provenance(order: Sequence[Item]) -> list[tuple[Provenance, ...]]:
    """Each item's provenance: its page and box, then one piece per part a
    continued paragraph took in (:attr:`Item.extra`)."""
    # Every piece, the continued parts' too, is made by one ``records`` call:
    # a continued paragraph (a fifth of the items) has three pieces on average.
    pages = [it.page for it in order]
    boxes = [it.bbox for it in order]
    continued = [(i, it.extra) for i, it in enumerate(order) if it.extra]
    for _, extra in continued:
        for page, box in extra:
            pages.append(page)
            boxes.append(box)
    n = len(pages)
    made = records(
        Provenance,
        n,
        {"page": pages, "bbox": boxes, "source": ["text_layer"] * n, "confidence": [None] * n},
    )
    out: list[tuple[Provenance, ...]] = [(p,) for p in made[: len(order)]]
    at = len(order)
    for i, extra in continued:
        end = at + len(extra)
        out[i] += tuple(made[at:end])
        at = end
    return out


def assemble_pages(
    pages: Iterable[PageContent], config: PdfConfig, *, path: str | Path
) -> Assembly:
    """Implementation of :func:`docparse.backends.base.assemble`."""
    recs: list[PageItems] = []
    no_text: list[int] = []
    infos: list[PageInfo] = []
    for page in pages:
        if not page.has_text:
            no_text.append(page.number)
        infos.append(PageInfo(page.number, page.n_chars, page.unmapped_glyphs))
        recs.append(page_items(page, config))
    stats = text_stats(recs)
    body, main_font = stats.body_size, stats.main_font
    if config.remove_headers and mark_furniture(recs, body, stats):
        main_font = body_font(recs)  # lines split off items: the counts changed
    join_caption_labels(recs)
    mark_figure_text(recs, body, main_font)
    mark_footnotes(recs, body)
    title = _classify(recs, body, main_font)
    order = [it for p in recs for it in p.items]
    vocab = vocabulary(chain.from_iterable([it.lines for it in order]))
    order = _merge_continuations(order)
    order = join_page_tables(order, {p.number: p.height for p in recs})

    # The drafts' fields are gathered a column at a time and the drafts (and
    # each item's first provenance piece) made at the end, by one C-level map
    # each, instead of a keyword call each.
    n = len(order)
    kinds: list[UnitKind] = []
    texts: list[str] = []
    raws: list[str] = []
    sections: list[tuple[str, ...]] = []
    tables: list[Table | None] = []
    stack: list[tuple[int, str]] = []
    # The section path of the stack, made again only when a heading changes it.
    path_now: tuple[str, ...] = ()
    table_index: dict[int, int] = {}
    # The header rows of the last table: a table continued on a page repeats them.
    heads: tuple[tuple[str, ...], ...] = ()
    captions: list[tuple[int, Item]] = []
    after_abstract_heading = False
    dehyphenate = config.dehyphenate
    for it in order:
        kind: UnitKind = it.kind or "paragraph"
        if it.table is not None:
            t = it.table
            spans = tuple(CellSpan(r, c, rs, cs) for r, c, rs, cs in t.spans)
            rows = tuple(
                tuple(expand_ligatures(c) for c in row)
                for row in (merge_continuation_rows(t.rows) if not t.spans else t.rows)
            )
            table = Table(
                rows=rows,
                # Backends that do not know their header rows: count them as the twins do.
                n_header_rows=t.n_header_rows or header_row_count(rows, heads_before=heads),
                spans=spans,
            )
            heads = table.rows[: table.n_header_rows]
            table_index[id(it)] = len(kinds)
            kinds.append("table")
            texts.append("")
            raws.append("")
            sections.append(path_now)
            tables.append(table)
            continue
        lines = it.lines
        if len(lines) == 1:
            raw = lines[0]
            text = raw.strip()  # what join_lines makes of one line
        else:
            text = join_lines(lines, vocab, dehyphenate=dehyphenate)
            raw = "\n".join(lines)
        if kind == "heading":
            while stack and stack[-1][0] >= it.level:
                stack.pop()
            # A heading records its parents' path, as the other PDF readers do.
            parents = tuple(s for _, s in stack)
            stack.append((it.level, text))
            path_now = (*parents, text)
            after_abstract_heading = text.strip().lower().rstrip(".:") == "abstract"
            section = parents
        else:
            if kind == "footnote" and it.marker and text.startswith(it.marker):
                # The raised mark printed against the note's first word ("4We").
                rest = text[len(it.marker) :]
                text = f"{it.marker} {rest.lstrip()}" if rest.strip() else text
            if kind == "paragraph" and (
                # _ABSTRACT opens with "abstract": no other first letter can match.
                after_abstract_heading or (text[:1] in "aA" and _ABSTRACT.match(text))
            ):
                kind = "abstract"
            if kind != "furniture":
                after_abstract_heading = False
            if kind == "caption":
                captions.append((len(kinds), it))
            section = () if kind in ("title", "furniture") else path_now
        kinds.append(kind)
        texts.append(text)
        raws.append(raw)
        sections.append(section)
        tables.append(None)
    # UnitDraft is not frozen: its __init__ stores plain slots, faster than
    # records' setter maps (which pay off for frozen records only).
    drafts = list(
        map(
            UnitDraft,
            kinds,
            texts,
            raws,
            sections,
            _provenance(order),
            tables,
            repeat((), n),
            [[] for _ in range(n)],
        )
    )
    link_captions(drafts, captions, [it for it in order if it.table is not None], table_index)
    return Assembly(
        drafts=drafts,
        title=title,
        n_pages=len(recs),
        pages_without_text=no_text,
        pages=infos,
    )
