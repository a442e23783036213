"""A JATS article's reference list (``ref-list``) as :class:`~docparse.model.Reference` records."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from lxml import etree

from docparse.formats._jats_xml import (
    _XLINK_HREF,
    _local,
)
from docparse.model import (
    Reference,
)
from docparse.text import clean_text

if TYPE_CHECKING:
    from docparse.formats.jats import _Walker


def _references(root: etree._Element, walker: _Walker) -> list[Reference]:
    refs: list[Reference] = []
    seen: set[str] = set()
    for ref in root.iter("{*}ref"):
        parent = ref.getparent()
        if parent is None or _local(parent) != "ref-list":
            continue
        rid = ref.get("id")
        if not rid or rid in seen:
            continue
        seen.add(rid)
        cit = None
        for c in ref.iter():
            if _local(c) in ("element-citation", "mixed-citation", "citation", "nlm-citation"):
                cit = c
                break
        if cit is None:
            refs.append(Reference(id=rid, title=clean_text(walker._plain(ref))))
            continue
        refs.append(_reference(rid, cit, walker))
    return refs


def _first_text(cit: etree._Element, names: Sequence[str], walker: _Walker) -> str:
    for name in names:
        for el in cit.iter("{*}" + name):
            text = clean_text(walker._plain(el))
            if text:
                return text
    return ""


_YEAR = re.compile(r"(?<!\d)(1[5-9]\d\d|20\d\d)(?!\d)")


_DOI = re.compile(r"\b10\.\d{4,9}/\S+")


def _reference(rid: str, cit: etree._Element, walker: _Walker) -> Reference:
    title = _first_text(cit, ("article-title", "chapter-title", "data-title"), walker)
    if not title:
        title = _first_text(cit, ("source",), walker) or clean_text(walker._plain(cit))
    authors: list[str] = []
    groups = [g for g in cit.iter("{*}person-group")]
    author_groups = [g for g in groups if g.get("person-group-type", "author") == "author"]
    holders = author_groups or ([cit] if not groups else groups[:1])
    for holder in holders:
        for el in holder.iter("{*}name", "{*}string-name", "{*}collab"):
            tag = _local(el)
            if tag == "name":
                surname = (
                    clean_text(walker._plain(el.find("surname")))
                    if el.find("surname") is not None
                    else ""
                )
                given = (
                    clean_text(walker._plain(el.find("given-names")))
                    if el.find("given-names") is not None
                    else ""
                )
                name = " ".join(p for p in (surname, given) if p)
            else:
                name = clean_text(walker._plain(el))
            if name:
                authors.append(name)
    year_text = _first_text(cit, ("year",), walker)
    m = _YEAR.search(year_text or clean_text(walker._plain(cit)))
    year = m.group(1) if m else (year_text or None)
    doi = pmid = None
    for pid in cit.iter("{*}pub-id"):
        kind = pid.get("pub-id-type", "").lower()
        value = clean_text(walker._plain(pid))
        if kind == "doi" and not doi:
            doi = value
        elif kind == "pmid" and not pmid:
            pmid = value
    if doi is None:
        for link in cit.iter("{*}ext-link"):
            href = link.get(_XLINK_HREF) or walker._plain(link)
            m2 = _DOI.search(href)
            if m2:
                doi = m2.group(0)
                break
    return Reference(id=rid, title=title, authors=tuple(authors), year=year, doi=doi, pmid=pmid)
