"""JATS inline markup to text: entities, citations and links as annotations, math as text.

:class:`_InlineText` is the text half of the JATS walker
(:mod:`docparse.formats.jats`): it flattens an element's inline markup to the
text the PDF shows, collects what it finds besides text (annotations, floats
anchored inline) in an :class:`_Inline`, and expands internal entities within
the document's budget.
"""

from __future__ import annotations

import html.entities
from dataclasses import dataclass, field
from pathlib import Path

from lxml import etree

from docparse.errors import UnsafeInputError
from docparse.formats._jats_xml import (
    _FLOATS,
    _SILENT,
    _SPACED,
    _XLINK_HREF,
    _ids,
    _local,
)
from docparse.formats._math import tex_math_to_text
from docparse.model import Annotation, AnnotationKind
from docparse.text import clean_text


@dataclass(slots=True)
class _Inline:
    """Collects what inline rendering finds besides text."""

    annotations: list[Annotation] = field(default_factory=list)
    floats: list[etree._Element] = field(default_factory=list)


class _InlineText:
    """Inline rendering of one parse: the document's entities and their budget, its flags."""

    def __init__(self, path: Path, entities: dict[str, str], max_entity_chars: int) -> None:
        self.path = path
        self.entities = entities
        self.max_entity_chars = max_entity_chars
        self.entity_budget = max_entity_chars
        self.flags: set[str] = set()

    def _entity(self, name: str) -> str:
        if name in self.entities:
            value = self.entities[name]
            self.entity_budget -= len(value)
            if self.entity_budget < 0:
                raise UnsafeInputError(
                    self.path,
                    "entity expansion exceeds the limit of "
                    f"{self.max_entity_chars} characters (entity bomb?)",
                )
            return value
        char = html.entities.html5.get(name + ";")
        if char is not None:
            return char
        self.flags.add("unresolved_entities")
        return ""

    def text(self, el: etree._Element, ctx: _Inline, *, top: bool = True) -> str:
        """Flattened text of ``el`` (its tail excluded)."""
        parts: list[str] = []
        self._text_into(el, ctx, parts, top=top)
        return "".join(parts)

    def _children_text(self, el: etree._Element, ctx: _Inline, parts: list[str]) -> None:
        if el.text:
            parts.append(el.text)
        for child in el:
            if isinstance(child, etree._Entity):
                parts.append(self._entity(str(child.name)))
            else:
                self._text_into(child, ctx, parts, top=False)
            if child.tail:
                parts.append(child.tail)

    def _text_into(self, el: etree._Element, ctx: _Inline, parts: list[str], *, top: bool) -> None:
        tag = _local(el)
        if not top:
            if tag in _FLOATS:
                ctx.floats.append(el)
                return
            if tag in _SILENT or not tag:
                return
        spaced = tag in _SPACED
        if spaced:
            parts.append(" ")
        if tag == "xref":
            start = len(parts)
            self._children_text(el, ctx, parts)
            visible = clean_text("".join(parts[start:]))
            ref_type = el.get("ref-type", "")
            kind: AnnotationKind = (
                "cite"
                if ref_type == "bibr"
                else "footnote"
                if ref_type in ("fn", "table-fn")
                else "ref"
            )
            for rid in _ids(el):
                ctx.annotations.append(Annotation(kind, rid, visible))
        elif tag in ("ext-link", "uri", "self-uri"):
            start = len(parts)
            self._children_text(el, ctx, parts)
            target = el.get(_XLINK_HREF) or clean_text("".join(parts[start:]))
            if target:
                ctx.annotations.append(
                    Annotation("url", target, clean_text("".join(parts[start:])))
                )
        elif tag == "break":
            pass
        elif tag == "alternatives":
            chosen = self._choose_alternative(el)
            if chosen is not None:
                self._text_into(chosen, ctx, parts, top=False)
        elif tag == "tex-math":
            parts.append(" " + tex_math_to_text(self._plain(el)) + " ")
        elif tag == "math":
            parts.append(" " + self._mathml(el) + " ")
        else:
            self._children_text(el, ctx, parts)
        if spaced:
            parts.append(" ")

    def _plain(self, el: etree._Element) -> str:
        """All character data under ``el`` (entities resolved), no rules."""
        parts: list[str] = []
        if el.text:
            parts.append(el.text)
        for child in el:
            if isinstance(child, etree._Entity):
                parts.append(self._entity(str(child.name)))
            elif _local(child):
                parts.append(self._plain(child))
            if child.tail:
                parts.append(child.tail)
        return "".join(parts)

    def _mathml(self, el: etree._Element) -> str:
        """MathML as the text of its tokens; operators spaced, fractions split."""
        tag = _local(el)
        if tag in ("annotation", "annotation-xml"):
            return ""
        if tag in ("mi", "mn", "mtext", "ms"):
            return self._plain(el)
        if tag == "mo":
            op = clean_text(self._plain(el))
            return f" {op} " if op not in ("(", ")", "[", "]", "{", "}", "|") else op
        if tag == "semantics":
            first = next((c for c in el if _local(c)), None)
            return self._mathml(first) if first is not None else ""
        sep = " " if tag in ("mfrac", "mtr", "mtable", "mtd") else ""
        body = sep.join(self._mathml(c) for c in el if _local(c))
        return clean_text(body) if tag == "math" else body

    @staticmethod
    def _choose_alternative(el: etree._Element) -> etree._Element | None:
        children = [c for c in el if _local(c)]
        for want in ("table", "math", "tex-math", "textual-form"):
            for c in children:
                if _local(c) == want:
                    return c
        for c in children:
            if _local(c) not in _SILENT:
                return c
        return None
