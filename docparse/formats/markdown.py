"""Markdown as other parsers write it (marker, MinerU, olmOCR, pymupdf4llm, docling, LlamaParse).

The text is tokenized by markdown-it-py (CommonMark with GFM pipe tables,
``$``/``$$`` and ``\\(``/``\\[`` math, front matter and footnotes from
mdit-py-plugins); HTML tables inside the Markdown are read with lxml. No
Markdown syntax is recognised by hand here: this module only maps tokens to
units.

* ATX and setext headings open sections (a heading's section ends with
  itself, as in the structured twins); the first front-matter ``title`` is
  the title unit.
* paragraphs, list items (one unit per item), block quotes (``quote``),
  fenced and indented code (``code``), footnote definitions (``footnote``);
* pipe tables and HTML ``<table>`` (``colspan``/``rowspan`` give
  :class:`~docparse.model.CellSpan` records, ``<th>`` rows and ``<thead>``
  the header rows) are table units with cells;
* ``$$ ... $$`` and ``\\[ ... \\]`` blocks are ``equation`` units; inline
  math stays LaTeX between ``$`` signs;
* images become caption units with their alt text, ``<figcaption>`` too, and
  a paragraph that starts like a caption ("Figure 3:", "Table 2.") is one;
* page breaks, when the producer marks them (:data:`PAGE_MARKERS`), give
  each unit its page.

A comment ``<!-- docparse: {"kind": "abstract", "section": ["Abstract"]} -->``
before a block sets the kind and section path of the next unit (the path
stays open for the units after it); :func:`docparse.export.to_markdown` writes it where
Markdown has no syntax for a kind (title aside), so its output reads back
into the same units.
"""

from __future__ import annotations

import functools
import importlib
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, cast

from docparse.builder import UnitDraft, build_document
from docparse.config import ParserConfig, resolve_config
from docparse.errors import MissingDependencyError
from docparse.formats._encoding import decode_text, read_source
from docparse.formats._grid import cells_to_table, span_value
from docparse.model import UNIT_KINDS, Document, Format, Provenance, Table, UnitKind
from docparse.structure import CAPTION, SectionStack, link_table_captions

INSTALL = "pip install 'docparse[markdown]'"

PageMarker = Literal["formfeed", "comment", "rule", "marker", "hr"]
#: Page-break marks: ``formfeed`` (a form feed character), ``comment``
#: (``<!-- page 3 -->``, ``<!-- PageBreak -->``), ``rule`` (a ``---``
#: page separator line naming the page, as pymupdf4llm's
#: ``--- end of page.page_number=3 ---``), ``marker`` (marker's
#: ``{0}------`` page separators, 0-based), ``hr`` (every thematic break
#: ``---`` between blocks; off by default, as documents use it for other
#: things too).
PAGE_MARKERS: tuple[PageMarker, ...] = ("formfeed", "comment", "rule", "marker", "hr")

_PAGE_COMMENT = re.compile(
    r"^\s*<!--\s*(?:page(?:[\s_:=-]*(?:number)?[\s_:=-]*(?P<n>\d+))?|pagebreak|page-break)\s*-->\s*$",
    re.IGNORECASE,
)
_MARKER_PAGE = re.compile(r"^\s*\{(?P<n>\d+)\}-{8,}\s*$")
_RULE_PAGE = re.compile(
    r"^\s*-{3,}\s*end of page\W*(?:page_number\W*)?(?P<n>\d+)\s*-{3,}\s*$", re.I
)
_HINT = re.compile(r"^\s*<!--\s*docparse:\s*(?P<json>\{.*\})\s*-->\s*$", re.DOTALL)


@dataclass(frozen=True, slots=True)
class MarkdownConfig(ParserConfig):
    """Options of the Markdown reader.

    ``page_markers``: which page-break marks count (see :data:`PAGE_MARKERS`).
    ``encoding``: the file's encoding; detected when ``None``. ``images``:
    images' alt text becomes caption units.
    """

    page_markers: tuple[PageMarker, ...] = ("formfeed", "comment", "rule", "marker")
    encoding: str | None = None
    images: bool = True

    def __post_init__(self) -> None:
        if isinstance(self.page_markers, list):
            object.__setattr__(self, "page_markers", tuple(self.page_markers))


@functools.lru_cache(maxsize=1)
def markdown_parser() -> Any:
    """The configured markdown-it parser (CommonMark, tables, math, front matter, footnotes)."""
    try:
        mdit = importlib.import_module("markdown_it")
        dollarmath = importlib.import_module("mdit_py_plugins.dollarmath")
        texmath = importlib.import_module("mdit_py_plugins.texmath")
        front_matter = importlib.import_module("mdit_py_plugins.front_matter")
        footnote = importlib.import_module("mdit_py_plugins.footnote")
    except ImportError as exc:
        raise MissingDependencyError("the Markdown reader", INSTALL, cause=exc) from exc
    return (
        mdit.MarkdownIt("commonmark", {"html": True})
        .enable("table")
        .use(front_matter.front_matter_plugin)
        .use(dollarmath.dollarmath_plugin, allow_space=True, allow_digits=True)
        .use(texmath.texmath_plugin, delimiters="brackets")
        .use(footnote.footnote_plugin)
    )


def page_lines(text: str, markers: Sequence[str]) -> tuple[str, list[int] | None]:
    """``text`` with page marks blanked out and the page of each of its lines.

    The page list is ``None`` when no mark is found (pages unknown). Lines
    keep their numbers, so markdown-it's line maps index the list.
    """
    lines = text.split("\n")
    pages: list[int] = []
    page = 1
    found = False
    out: list[str] = []
    for line in lines:
        if "formfeed" in markers and "\f" in line:
            page += line.count("\f")
            found = True
            line = line.replace("\f", "")
        m = _PAGE_COMMENT.match(line) if "comment" in markers else None
        k = _MARKER_PAGE.match(line) if "marker" in markers else None
        r = _RULE_PAGE.match(line) if "rule" in markers else None
        if m is not None:
            page = int(m.group("n")) if m.group("n") else (page + 1 if found else 2)
        elif k is not None:
            page = int(k.group("n")) + 1  # marker counts pages from 0
        elif r is not None:
            page = int(r.group("n")) + 1  # the line ends page n
        if m is not None or k is not None or r is not None:
            found = True
            line = ""
        pages.append(page)
        out.append(line)
    return "\n".join(out), pages if found else None


def inline_text(token: Any) -> tuple[str, list[str]]:
    """Plain text of an inline token and the alt texts of its images.

    Markup goes, code and inline math stay (math between ``$`` signs).
    """
    parts: list[str] = []
    alts: list[str] = []
    for child in token.children or ():
        t = child.type
        if t in ("text", "code_inline"):
            parts.append(child.content)
        elif t in ("softbreak", "hardbreak"):
            parts.append(" ")
        elif t == "math_inline":
            parts.append(f"${child.content}$")
        elif t == "math_inline_double":
            parts.append(f"$${child.content}$$")
        elif t == "image":
            alt, _ = inline_text(child)
            alt = alt or str(child.attrs.get("title") or "")
            if alt.strip():
                alts.append(alt)
        elif t == "html_inline" and re.match(r"<br\s*/?>", child.content, re.IGNORECASE):
            parts.append(" ")
        elif t == "footnote_ref":
            continue
    return "".join(parts), alts


def html_tables(html: str) -> list[tuple[Table, str]]:
    """Tables of an HTML fragment as :class:`Table` records, with any ``<caption>`` text.

    Spans fill a rectangular grid: the covered positions other than the
    top-left one hold ``""`` and a :class:`CellSpan` records the merge.
    Header rows are the ``<thead>`` rows, else the leading rows of ``<th>`` cells.
    """
    import lxml.html

    try:
        root = lxml.html.fragment_fromstring(html, create_parent="div")
    except Exception:  # noqa: BLE001 (lxml raises several types on broken HTML)
        return []
    out: list[tuple[Table, str]] = []
    for table in root.iter("table"):
        rows: list[list[tuple[str, int, int]]] = []
        header_rows = 0
        head_done = False
        for r, tr in enumerate(tr for tr in table.iter("tr") if tr.getparent() is not None):
            in_head = tr.getparent().tag == "thead"
            cells = [c for c in tr if c.tag in ("td", "th")]
            if not head_done and (in_head or (cells and all(c.tag == "th" for c in cells))):
                header_rows = r + 1
            else:
                head_done = True
            rows.append(
                [
                    (c.text_content(), span_value(c.get("rowspan")), span_value(c.get("colspan")))
                    for c in cells
                ]
            )
        while rows and not rows[-1]:
            rows.pop()  # trailing rows without cells hold no grid positions
        if not rows:
            out.append((Table(()), ""))  # a table whose cells were not read
            continue
        caption_el = table.find("caption")
        caption = " ".join(caption_el.text_content().split()) if caption_el is not None else ""
        out.append((cells_to_table(rows, n_header_rows=header_rows), caption))
    return out


def _html_text(html: str) -> tuple[str, list[str], list[str]]:
    """Visible text of an HTML block (tables left out), its figcaptions and image alts."""
    import lxml.html

    try:
        root = lxml.html.fragment_fromstring(html, create_parent="div")
    except Exception:  # noqa: BLE001 (lxml raises several types on broken HTML)
        return "", [], []
    captions = [" ".join(f.text_content().split()) for f in root.iter("figcaption")]
    alts = [str(i.get("alt")) for i in root.iter("img") if i.get("alt")]
    for el in [*root.iter("table"), *root.iter("figcaption")]:
        parent = el.getparent()
        if parent is not None:
            el.drop_tree()
    return " ".join(root.text_content().split()), captions, alts


class _Reader:
    """Walks markdown-it's token stream and emits drafts."""

    def __init__(self, pages: list[int] | None, cfg: MarkdownConfig) -> None:
        self.pages = pages
        self.cfg = cfg
        self.drafts: list[UnitDraft] = []
        self.sections = SectionStack()
        self.title: str | None = None
        self.hint: UnitKind | None = None
        self.section_hint: tuple[str, ...] | None = None
        self.page = 1
        #: Headings record their parents' path (as PDF parses do) instead of their own.
        self.parent_sections = False

    def add(
        self,
        kind: UnitKind,
        text: str,
        raw: str,
        *,
        table: Table | None = None,
        section: tuple[str, ...] | None = None,
    ) -> None:
        if self.hint is not None:
            kind, self.hint = self.hint, None
        if self.section_hint is not None:
            section, self.section_hint = self.section_hint, None
            self.sections.reset(section)
        prov = (Provenance(self.page),) if self.pages is not None else ()
        if kind == "title" and self.title is None:
            self.title = text
        self.drafts.append(
            UnitDraft(
                kind,
                text,
                raw,
                self.sections.path if section is None else section,
                provenance=prov,
                table=table,
            )
        )

    def at(self, token: Any) -> None:
        if self.pages is not None and token.map:
            self.page = self.pages[min(token.map[0], len(self.pages) - 1)]

    # Over the C901 limit on purpose: dispatch over markdown-it block tokens, one branch per type.
    def run(self, tokens: Sequence[Any]) -> None:  # noqa: C901
        i = 0
        context: list[str] = []  # open containers: "list_item", "blockquote", "footnote"
        item: list[str] = []
        while i < len(tokens):
            tok = tokens[i]
            self.at(tok)
            t = tok.type
            if t == "front_matter":
                self.front_matter(tok.content)
            elif t == "heading_open":
                text, _ = inline_text(tokens[i + 1])
                level = int(tok.tag[1:])
                title = " ".join(text.split())
                if self.section_hint is not None:
                    # The writer's own path: the heading's section as recorded.
                    hinted = self.section_hint
                    self.add("heading", text, tokens[i + 1].content, section=hinted)
                    self.sections.reset([*hinted, title] if self.parent_sections else hinted)
                elif self.hint not in (None, "heading"):
                    self.add("heading", text, tokens[i + 1].content)
                elif title:
                    parents = self.sections.push(level, title)
                    self.add("heading", text, tokens[i + 1].content)
                    if self.parent_sections:
                        self.drafts[-1].section = parents
                i += 3
                continue
            elif t in ("list_item_open", "blockquote_open", "footnote_open"):
                if context and context[-1] == "list_item" and item:
                    self.add("list_item", " ".join(item), " ".join(item))
                    item.clear()
                context.append(t[: -len("_open")])
            elif t in ("list_item_close", "blockquote_close", "footnote_close"):
                if context and context[-1] == "list_item" and item:
                    self.add("list_item", " ".join(item), " ".join(item))
                    item.clear()
                if context:
                    context.pop()
            elif t == "inline":
                self.paragraph(tok, context, item)
            elif t in ("fence", "code_block"):
                self.add("code", tok.content, tok.content)
            elif t in ("math_block", "math_block_eqno"):
                self.add("equation", tok.content, tok.content)
            elif t == "table_open":
                i = self.pipe_table(tokens, i)
                continue
            elif t == "html_block":
                self.html_block(tok.content)
            i += 1

    def front_matter(self, content: str) -> None:
        for line in content.splitlines():
            key, _, value = line.partition(":")
            if key.strip().lower() == "heading_sections":
                self.parent_sections = value.strip().lower() == "parent"
            if key.strip().lower() == "title" and value.strip():
                value = value.strip()
                if value.startswith('"'):
                    try:
                        value = str(json.loads(value))
                    except ValueError:
                        value = value.strip('"')
                elif value.startswith("'"):
                    value = value[1:-1].replace("''", "'")
                self.add("title", value, line)

    def paragraph(self, tok: Any, context: list[str], item: list[str]) -> None:
        text, alts = inline_text(tok)
        if context and context[-1] == "list_item":
            item.append(text)
            return
        if self.cfg.images:
            for alt in alts:
                self.add("caption", alt, alt)
        if not text.strip():
            return
        if context and context[-1] == "blockquote":
            kind: UnitKind = "quote"
        elif context and context[-1] == "footnote":
            kind = "footnote"
        elif CAPTION.match(text):
            kind = "caption"
        else:
            kind = "paragraph"
        self.add(kind, text, tok.content)

    def pipe_table(self, tokens: Sequence[Any], i: int) -> int:
        rows: list[tuple[str, ...]] = []
        row: list[str] = []
        header = 0
        in_head = False
        while i < len(tokens) and tokens[i].type != "table_close":
            t = tokens[i].type
            if t == "thead_open":
                in_head = True
            elif t == "thead_close":
                in_head = False
            elif t == "tr_close":
                rows.append(tuple(row))
                row = []
                header += in_head
            elif t == "inline":
                row.append(" ".join(inline_text(tokens[i])[0].split()))
            i += 1
        if rows:
            self.add("table", "", "", table=Table(tuple(rows), header))
        return i + 1

    def html_block(self, html: str) -> None:
        hint = _HINT.match(html)
        if hint is not None:
            try:
                data = json.loads(hint.group("json"))
            except ValueError:
                return
            kind = data.get("kind") if isinstance(data, dict) else None
            self.hint = cast(UnitKind, kind) if kind in UNIT_KINDS else None
            section = data.get("section") if isinstance(data, dict) else None
            if isinstance(section, list):
                self.section_hint = tuple(str(s) for s in section)
            return
        if html.lstrip().startswith("<!--"):
            return
        if "<table" in html.lower():
            for table, caption in html_tables(html):
                if caption:
                    self.add("caption", caption, caption)
                self.add("table", "", html, table=table)
        text, captions, alts = _html_text(html)
        if self.cfg.images:
            for alt in alts:
                self.add("caption", alt, alt)
        if text and text not in captions:
            self.add("caption" if CAPTION.match(text) else "paragraph", text, html)
        for caption in captions:
            self.add("caption", caption, caption)


def _rule_pages(tokens: Sequence[Any], pages: list[int] | None, n_lines: int) -> list[int] | None:
    """``pages`` with a page break at every thematic break (``---`` between blocks)."""
    rules = sorted(t.map[0] for t in tokens if t.type == "hr" and t.map)
    if not rules:
        return pages
    base = pages if pages is not None else [1] * n_lines
    out = []
    k = 0
    for line, page in enumerate(base):
        while k < len(rules) and rules[k] <= line:
            k += 1
        out.append(page + k)
    return out


def parse_markdown_text(text: str, config: MarkdownConfig | None = None) -> _Reader:
    """Read Markdown ``text`` into drafts (the reader holds them, the title and pages)."""
    cfg = config or MarkdownConfig()
    clean, pages = page_lines(text.replace("\r\n", "\n"), cfg.page_markers)
    tokens = markdown_parser().parse(clean)
    if "hr" in cfg.page_markers:
        pages = _rule_pages(tokens, pages, clean.count("\n") + 1)
    reader = _Reader(pages, cfg)
    reader.run(tokens)
    link_table_captions(
        reader.drafts, [d.provenance[0].page if d.provenance else None for d in reader.drafts]
    )
    return reader


class MarkdownParser:
    """Parser for Markdown files (see the module docstring)."""

    name = "markdown"
    format: Format = "markdown"
    config_class = MarkdownConfig

    def parse(self, path: Path, config: MarkdownConfig | dict[str, Any] | None = None) -> Document:
        """Parse ``path`` into a :class:`~docparse.model.Document`."""
        cfg = resolve_config(MarkdownConfig, config)
        path = Path(path)
        text = decode_text(read_source(path), path, cfg.encoding)
        reader = parse_markdown_text(text, cfg)
        title = reader.title or next((d.text for d in reader.drafts if d.kind == "heading"), None)
        n_pages = max((d.provenance[0].page for d in reader.drafts if d.provenance), default=None)
        return build_document(
            path=path,
            format="markdown",
            backend=self.name,
            drafts=reader.drafts,
            title=title,
            n_pages=n_pages,
        )
