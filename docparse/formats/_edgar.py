"""EDGAR HTML knowledge the htm parser reads with: SGML submission unwrapping, the block,
skip and hidden elements, inline styles, and the patterns of page numbers, PART/ITEM/NOTE
headings, bullets and numbers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from docparse.errors import ParseError

_DOC_RE = re.compile(r"<DOCUMENT>(.*?)(?:</DOCUMENT>|\Z)", re.S)


_TYPE_RE = re.compile(r"<TYPE>\s*([^\s<]+)")


_TEXT_RE = re.compile(r"<TEXT>(.*?)(?:</TEXT>|\Z)", re.S)


_XBRL_RE = re.compile(r"^\s*<XBRL>(.*?)(?:</XBRL>\s*)?$", re.S)


_COMPANY_RE = re.compile(r"COMPANY CONFORMED NAME:\s*(.+)")


_NON_MAIN = re.compile(r"^(EX-|GRAPHIC|ZIP|XML|JSON|EXCEL|PDF|XSD)", re.I)


@dataclass(frozen=True, slots=True)
class _Unwrapped:
    html: str
    doc_type: str | None
    company: str | None
    n_documents: int


def unwrap_sgml(text: str, document_type: str | None = None) -> _Unwrapped:
    """The HTML of the main ``<DOCUMENT>`` of an EDGAR SGML submission.

    Text without the wrapper is returned unchanged.
    """
    head = text[:4096]
    if "<DOCUMENT>" not in head and "<DOCUMENT>" not in text[:65536]:
        return _Unwrapped(text, None, None, 0)
    company_m = _COMPANY_RE.search(text[:20000])
    company = company_m.group(1).strip() if company_m else None
    docs: list[tuple[str | None, str]] = []
    for m in _DOC_RE.finditer(text):
        body = m.group(1)
        tm = _TYPE_RE.search(body[:2000])
        doc_type = tm.group(1) if tm else None
        xm = _TEXT_RE.search(body)
        html = xm.group(1) if xm else body
        xb = _XBRL_RE.match(html)
        if xb:
            html = xb.group(1)
        docs.append((doc_type, html))
    if not docs:
        return _Unwrapped(text, None, company, 0)
    chosen: tuple[str | None, str] | None = None
    if document_type is not None:
        chosen = next((d for d in docs if (d[0] or "").upper() == document_type.upper()), None)
        if chosen is None:
            known = ", ".join(str(d[0]) for d in docs)
            raise ParseError(None, f"no <DOCUMENT> of type {document_type!r}; found: {known}")
    if chosen is None:
        chosen = next((d for d in docs if not _NON_MAIN.match(d[0] or "")), docs[0])
    return _Unwrapped(chosen[1], chosen[0], company, len(docs))


_BLOCK_TAGS = frozenset(
    [
        "address",
        "article",
        "aside",
        "blockquote",
        "body",
        "center",
        "dd",
        "details",
        "dialog",
        "dir",
        "div",
        "dl",
        "dt",
        "fieldset",
        "figcaption",
        "figure",
        "footer",
        "form",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "header",
        "hr",
        "html",
        "li",
        "main",
        "menu",
        "ol",
        "p",
        "pre",
        "section",
        "summary",
        "table",
        "tbody",
        "td",
        "tfoot",
        "th",
        "thead",
        "tr",
        "ul",
        "caption",
        "legend",
    ]
)


_SKIP_TAGS = frozenset(
    [
        "head",
        "script",
        "style",
        "noscript",
        "template",
        "nav",
        "iframe",
        "object",
        "embed",
        "svg",
        "math",
        "canvas",
        "button",
        "select",
        "input",
        "textarea",
        "map",
        "area",
        "audio",
        "video",
        "source",
        "track",
        "link",
        "meta",
        "title",
        "base",
        "ix:header",
        "ix:hidden",
        "ix:references",
        "ix:resources",
    ]
)


_HIDDEN_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.I)


_PAGE_BREAK_STYLE = re.compile(
    r"page-break-(?:before|after)\s*:\s*always|break-(?:before|after)\s*:\s*page", re.I
)


_BOLD_STYLE = re.compile(r"font-weight\s*:\s*(?:bold|[6-9]00)", re.I)


_UNDERLINE_STYLE = re.compile(r"text-decoration\s*:[^;]*underline", re.I)


# Wikipedia/MediaWiki chrome that is not article content.
_SKIP_IDS = frozenset(
    [
        "mw-navigation",
        "mw-head",
        "mw-panel",
        "footer",
        "catlinks",
        "siteSub",
        "contentSub",
        "jump-to-nav",
        "toc",
        "mw-page-base",
        "mw-head-base",
        "p-lang",
        "p-personal",
        "p-search",
        "p-navigation",
    ]
)


_SKIP_CLASSES = frozenset(
    [
        "navbox",
        "vertical-navbox",
        "mw-editsection",
        "noprint",
        "mw-jump-link",
        "reference",
        "mw-cite-backlink",
        "printfooter",
        "catlinks",
        "sistersitebox",
        "metadata",
        "ambox",
        "toc",
        "navigation-not-searchable",
        "mw-references-wrap",
    ]
)


_PAGE_NUMBER = re.compile(
    r"^(?:page\s+)?(?:\d{1,4}|[ivxlc]{1,7}|[A-Z]{1,2}\s?-\s?\d{1,3})(?:\s+of\s+\d{1,4})?$", re.I
)


_TOC_LINK = re.compile(
    r"^(?:table of contents|index|back to (?:top|contents)|return to top)$", re.I
)


_PART = re.compile(r"^PART\s+[IVX]+\b", re.I)


_ITEM = re.compile(r"^ITEM\s+\d{1,2}[A-Z]?\s*[.:\-\u2014\u2013]?(?:\s|$)", re.I)


_NOTE = re.compile(r"^NOTE\s+\d{1,2}[A-Z]?\b", re.I)


_DANGLING = re.compile(r"(?:\b(?:and|or|of|the|for|to|in|on|with|by|a|an)|[,\u2013\u2014-])$", re.I)


_YEAR = re.compile(r"^(?:19|20)\d\d$")


_NUMBER = r"[\s$€£(\-\u2014\u2013]*[\d.,]+\s*[)%]*\s*"


# A number, or a range of two ("58.15% - 63.76%": a value, not a column label).
_NUMBERISH = re.compile(rf"^{_NUMBER}(?:[-\u2013\u2014]{_NUMBER})?$|^[\u2014\u2013\-]+$")


_BULLET = re.compile(
    r"^(?:[\u2022\u25cf\u25cb\u25e6\u25aa\u25a0\u2023\u2043\u00b7*\-\u2013\u2014o]|\(?\d{1,2}[.)]|\(?[a-z][.)])$"
)


_LEADING_BULLET = re.compile(r"^[\u2022\u25cf\u25e6\u25aa\u25a0\u2023\u2043\u00b7]\s*")


def _is_hidden(el: Any) -> bool:
    tag = el.tag if isinstance(el.tag, str) else ""
    if tag in _SKIP_TAGS:
        return True
    if el.get("hidden") is not None or el.get("aria-hidden") == "true":
        return True
    style = el.get("style")
    if style and _HIDDEN_STYLE.search(style):
        return True
    if el.get("id") in _SKIP_IDS or el.get("role") == "navigation":
        return True
    cls = el.get("class")
    return bool(cls) and not _SKIP_CLASSES.isdisjoint(cls.split())


def _is_page_break(el: Any) -> bool:
    if el.tag == "hr":
        return True
    style = el.get("style")
    return bool(style) and bool(_PAGE_BREAK_STYLE.search(style))


def _numeric(cell: str) -> bool:
    """A number cell (years such as ``2022`` count as labels: they head columns)."""
    if _YEAR.match(cell):
        return False
    return bool(cell) and bool(_NUMBERISH.match(cell)) and any(ch.isdigit() for ch in cell)
