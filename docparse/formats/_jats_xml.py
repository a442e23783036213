"""JATS element vocabulary and XML helpers: which elements float, split, stay silent or
need spaces, a hardened XML parser, local names, id lists and internal entities.
"""

from __future__ import annotations

from typing import Any

from lxml import etree

_XLINK_HREF = "{http://www.w3.org/1999/xlink}href"


#: Elements anchored in a paragraph that float: emitted after the paragraph.
_FLOATS = frozenset(
    {
        "table-wrap",
        "table-wrap-group",
        "fig",
        "fig-group",
        "supplementary-material",
        "fn",
        "boxed-text",
        "chem-struct-wrap",
    }
)


#: Block elements that interrupt a paragraph where they stand.
_SPLITTERS = frozenset(
    {"list", "def-list", "disp-quote", "statement", "preformat", "code", "speech", "verse-group"}
)


#: Elements whose text never reaches the clean text.
_SILENT = frozenset(
    {
        "graphic",
        "inline-graphic",
        "alt-text",
        "long-desc",
        "object-id",
        "annotation",
        "annotation-xml",
        "ref-list",
        "sec-meta",
        "kwd-group",
        "permissions",
    }
)


#: Elements whose boundaries separate words.
_SPACED = frozenset(
    {
        "p",
        "title",
        "label",
        "caption",
        "list-item",
        "def-item",
        "term",
        "def",
        "td",
        "th",
        "tr",
        "break",
        "disp-formula",
        "sec",
        "attrib",
        "source",
        "article-title",
        "name",
        "year",
        "mfrac",
        "mtd",
        "mtr",
    }
)


#: Back-matter children turned into units (``ref-list`` is not).
_BACK_SECTIONS = frozenset({"ack", "app", "sec", "notes", "glossary", "bio"})


def safe_xml_parser() -> etree.XMLParser:
    """The hardened lxml parser every docparse XML reader uses.

    No DTD loading or validation, no network, no entity resolution, and
    libxml2's default size/depth/amplification limits (``huge_tree=False``).
    Comments and processing instructions are dropped.
    """
    return etree.XMLParser(
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        dtd_validation=False,
        huge_tree=False,
        remove_comments=True,
        remove_pis=True,
    )


def _local(el: Any) -> str:
    """Tag name without namespace ('' for comments, PIs and entities)."""
    tag = el.tag
    if not isinstance(tag, str):
        return ""
    return tag.rsplit("}", 1)[-1] if tag.startswith("{") else tag


def _raw(el: etree._Element) -> str:
    return str(etree.tostring(el, encoding="unicode", with_tail=False))


def _ids(el: etree._Element, attr: str = "rid") -> list[str]:
    return [r for r in (el.get(attr) or "").split() if r]


def _internal_entities(tree: etree._ElementTree, flags: set[str]) -> dict[str, str]:
    """Internal text entities of the DOCTYPE (external ones are flagged, never read)."""
    entities: dict[str, str] = {}
    dtd = tree.docinfo.internalDTD
    if dtd is None:
        return entities
    for ent in dtd.iterentities():
        name = str(ent.name)
        if ent.system_url is not None:
            flags.add("external_entity_ignored")
            continue
        content = ent.content
        if content is None:
            continue
        if "&" in content or "<" in content or "%" in content:
            # Nested references or markup: expanding them is how entity bombs
            # work, and markup inside an entity is not text. Left out.
            flags.add("unresolved_entities")
            continue
        entities[name] = content
    return entities
