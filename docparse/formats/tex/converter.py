"""The converter: environments, floats, lists, headings and the run over a document."""

from __future__ import annotations

import re
from dataclasses import replace

from pylatexenc import latexwalker as lw

from docparse.builder import UnitDraft
from docparse.formats.tex.citations import read_bibliography
from docparse.formats.tex.expansion import ExpansionMixin
from docparse.formats.tex.inputs import InputsMixin
from docparse.formats.tex.macros import MacrosMixin
from docparse.formats.tex.nodes import (
    _args,
    _Buf,
    _find_document,
    _Float,
    _group_body,
    _last_mandatory,
    _literal,
    _node_verbatim,
    _optional,
    _strip_comments,
    _strip_math_delims,
)
from docparse.formats.tex.numbering import blank_verbatim, number_labels
from docparse.formats.tex.tables import _TableParser
from docparse.formats.tex.vocabulary import (
    _ABSTRACT_ENVS,
    _ACK_ENVS,
    _BULLET_LABEL,
    _CODE_TEXT_ENVS,
    _DISPLAY_CLOSE,
    _DISPLAY_OPEN,
    _DROP_ENVS,
    _FLOATS,
    _LISTS,
    _MATH_DISPLAY,
    _QUOTE_ENVS,
    _VERBATIM,
    TABULAR_ENVIRONMENTS,
)
from docparse.formats.tex.walker import ConverterBase
from docparse.model import Annotation
from docparse.text import clean_text


class Converter(MacrosMixin, ExpansionMixin, InputsMixin, ConverterBase):
    """Walks pylatexenc nodes and produces unit drafts (one run per document)."""

    def _math(self, node: lw.LatexMathNode) -> None:
        verbatim = _strip_comments(_node_verbatim(node))
        delims = getattr(node, "delimiters", None)
        body = verbatim.strip()[len(delims[0]) : -len(delims[1]) or None] if delims else ""
        unbalanced = len(re.findall(r"(?<!\\)\{", body)) != len(re.findall(r"(?<!\\)\}", body))
        if delims and (not verbatim.rstrip().endswith(delims[1]) or unbalanced):
            # Tolerant parsing ran an unclosed "$$" or "\[" to the end of the
            # input, or took a "$" inside an unclosed group for the closing one
            # ("${$\textbf{$"); what follows is not math, so it is read as text.
            self._raw(str(delims[0]))
            self.walk(node.nodelist)
            return
        if node.displaytype == "display":
            body = _strip_math_delims(verbatim)
            self._equation(body, verbatim)
        else:
            self._raw(verbatim)
            self._text(verbatim)

    def _equation(self, body: str, raw: str) -> None:
        labels = re.findall(r"\\label\s*\{([^{}]*)\}", body)
        body = re.sub(r"\\label\s*\{[^{}]*\}", "", body)
        body = clean_text(body)
        kind_saved = self.buf.kind
        self.flush()
        if body:
            draft = UnitDraft(
                kind="equation",
                text=f"{_DISPLAY_OPEN} {body} {_DISPLAY_CLOSE}",
                raw=raw.strip(),
                section=self._section_path(),
                annotations=tuple(Annotation("label", lab.strip()) for lab in labels),
            )
            if self.float_stack or (len(self.buf_stack) > 1 and not self.raw_on):
                self.deferred.append(draft)
            else:
                self.drafts.append(draft)
        # text after the display continues as the same kind (list item, ...)
        self.buf.kind = kind_saved

    def _environment(self, node: lw.LatexEnvironmentNode) -> None:
        name = str(node.environmentname)
        verbatim = _node_verbatim(node)
        if name in _DROP_ENVS:
            return
        if name == "document":
            self.walk(node.nodelist)
            return
        if name in _MATH_DISPLAY:
            body = _strip_comments("".join(_node_verbatim(n) for n in node.nodelist))
            self._equation(body, verbatim)
            return
        if name == "math":
            body = _strip_comments("".join(_node_verbatim(n) for n in node.nodelist))
            self._raw(verbatim)
            self._text(f"$ {body.strip()} $")
            return
        if name in _VERBATIM:
            self._verbatim(node, name)
            return
        if name in TABULAR_ENVIRONMENTS:
            if self.cell_depth:
                # a tabular inside a cell stacks lines; it is cell text
                self.walk(node.nodelist)
            else:
                self._table(node, name)
            return
        if name in _FLOATS:
            self._float(node, name)
            return
        if name in _LISTS:
            self._list(node)
            return
        if name in _ABSTRACT_ENVS:
            self._push_block("abstract", split=False)
            saved_section = self.section
            self.section = []
            self.walk(node.nodelist)
            self.section = saved_section
            self._pop_block()
            return
        if name in _ACK_ENVS:
            self.flush()
            self._heading(2, "Acknowledgments", verbatim)
            self.walk(node.nodelist)
            self.flush()
            return
        if name in ("keywords", "IEEEkeywords", "keyword"):
            self._push_block("paragraph", split=False)
            self._raw(verbatim)
            self._text("Keywords: ")
            saved, self.raw_on = self.raw_on, False
            self.walk(node.nodelist)
            self.raw_on = saved
            self._pop_block()
            return
        if name in _QUOTE_ENVS:
            self._push_block("quote", split=True)
            self.walk(node.nodelist)
            self._pop_block()
            return
        if name in _CODE_TEXT_ENVS:
            self._push_block("code", split=False)
            self.walk(node.nodelist)
            self._pop_block()
            return
        # center, minipage, theorem-like, appendix, unknown: transparent
        self.walk(node.nodelist)

    def _verbatim(self, node: lw.LatexEnvironmentNode, name: str) -> None:
        args = _args(node)
        content = ""
        if args and args[0] is not None:
            content = _node_verbatim(args[0])
            if isinstance(args[0], lw.LatexCharsNode):
                content = str(args[0].chars)
        else:
            content = "".join(_node_verbatim(n) for n in node.nodelist)
        if name == "minted":
            content = re.sub(r"^\s*(\[[^\]]*\])?\s*\{[^{}]*\}", "", content, count=1)
        elif name in ("lstlisting", "Verbatim"):
            content = re.sub(r"^\s*\[[^\]]*\]", "", content, count=1)
        self.flush()
        self._emit(
            UnitDraft(
                kind="code",
                text=_literal(content),
                raw=_node_verbatim(node),
                section=self._section_path(),
            )
        )

    def _list(self, node: lw.LatexEnvironmentNode) -> None:
        self._push_block("list_item", split=True)
        self.walk(node.nodelist)
        self._pop_block()

    def _item(self, node: lw.LatexMacroNode) -> None:
        self.flush()
        if self.kind_stack[-1] != "list_item":
            # an \item outside a list (a fragment): it is still an item
            self.buf.kind = "list_item"
        self._raw(_node_verbatim(node))
        opt = _optional(node)
        if opt and opt[0] is not None:
            raw_label = _group_body(opt[0])
            if _BULLET_LABEL.sub("", raw_label).strip():
                saved, self.raw_on = self.raw_on, False
                self.walk(opt[0].nodelist if isinstance(opt[0], lw.LatexGroupNode) else [opt[0]])
                self.raw_on = saved
                self._text(" ")

    def _float(self, node: lw.LatexEnvironmentNode, name: str) -> None:
        fl = _Float(name)
        self.float_stack.append(fl)
        outer_deferred, self.deferred = self.deferred, []
        self.buf_stack.append(_Buf("paragraph"))
        self.kind_stack.append("paragraph")
        self.split_paragraphs.append(True)
        saved_raw, self.raw_on = self.raw_on, True
        try:
            self.walk(node.nodelist)
            self.flush()
        finally:
            self.buf_stack.pop()
            self.kind_stack.pop()
            self.split_paragraphs.pop()
            self.raw_on = saved_raw
            self.float_stack.pop()
        inner = self.deferred
        self.deferred = outer_deferred
        inner = self._link_float(fl, inner)
        for draft in inner:
            self._emit(draft)

    def _link_float(self, fl: _Float, inner: list[UnitDraft]) -> list[UnitDraft]:
        """Attach captions and labels to the float's tables; link both ways."""
        if not fl.tables:
            return inner
        caption = fl.captions[0].text if fl.captions else None
        label = fl.labels[0] if fl.labels else None
        replaced: dict[int, UnitDraft] = {}
        for tdraft in fl.tables:
            assert tdraft.table is not None
            table = tdraft.table
            table = replace(
                table,
                caption=table.caption or (clean_text(caption) if caption else None),
                label=table.label or label,
                footnotes=table.footnotes + tuple(fl.footnotes),
            )
            tdraft.table = table
            replaced[id(tdraft)] = tdraft
            for cdraft in fl.captions:
                self.links.append((tdraft, cdraft))
        return inner

    def _caption(self, node: lw.LatexMacroNode) -> None:
        arg = _last_mandatory(node)
        text, annotations = self._render_with_annotations([arg])
        labels = [a.target for a in annotations if a.kind == "label"]
        draft = UnitDraft(
            kind="caption",
            text=text,
            raw=_node_verbatim(node),
            section=self._section_path(),
            annotations=tuple(annotations),
        )
        if self.float_stack:
            fl = self.float_stack[-1]
            fl.captions.append(draft)
            fl.labels.extend(labels)
            self.deferred.append(draft)
        else:
            self._emit(draft)

    def _table(self, node: lw.LatexEnvironmentNode, name: str) -> None:
        parsed = _TableParser(self, name).parse(node)
        table, annotations, caption_draft = parsed
        draft = UnitDraft(
            kind="table",
            text="",
            raw=_node_verbatim(node),
            section=self._section_path(),
            table=table,
            annotations=tuple(annotations),
        )
        if self.float_stack:
            fl = self.float_stack[-1]
            fl.tables.append(draft)
            if caption_draft is not None:
                fl.captions.append(caption_draft)
                self.deferred.append(caption_draft)
            self.deferred.append(draft)
            return
        if caption_draft is not None:
            self.links.append((draft, caption_draft))
            self._emit(caption_draft)
        self._emit(draft)

    def _heading(self, level: int, title: str, raw: str) -> None:
        self.flush()
        while self.section and self.section[-1][0] >= level:
            self.section.pop()
        if title:
            self.section.append((level, title))
        self._emit(
            UnitDraft(kind="heading", text=title, raw=raw.strip(), section=self._section_path())
        )

    def emit_title(self) -> None:
        if self.title and not self.title_emitted:
            self.title_emitted = True
            self.drafts.append(UnitDraft(kind="title", text=self.title, raw=self._title_raw))

    def number_references(self, text: str) -> None:
        """Number every ``\\label`` and citation of the document (``text`` and its inputs)."""
        flat = blank_verbatim(self.flat_source(text))
        self.ref_labels, self.autonames, self.crefnames = number_labels(flat)
        self.bibliography = read_bibliography(flat, self.root_file, bibtex=self.config.bibtex)

    def run(self, nodes: list[lw.LatexNode], *, fragment: bool) -> list[UnitDraft]:
        if not self.prescanned:
            self.prescan(nodes)
        self.prescanned = True
        body = None if fragment else _find_document(nodes)
        if body is None:
            body_nodes = nodes
            # in a preamble-less file front matter is wherever it is met
        else:
            body_nodes = list(body.nodelist)
            if not fragment:
                self.emit_title()
                if self.config.authors:
                    self._preamble_authors(nodes, body)
        self.walk(body_nodes)
        self.flush()
        if self.deferred:
            self.drafts.extend(self.deferred)
            self.deferred = []
        self._resolve_links()
        return self.drafts

    def _preamble_authors(self, nodes: list[lw.LatexNode], body: lw.LatexNode) -> None:
        for node in nodes:
            if node is body:
                break
            if isinstance(node, lw.LatexMacroNode) and node.macroname == "author":
                self._macro([node], 0)
        self.flush()

    def _resolve_links(self) -> None:
        index = {id(d): k for k, d in enumerate(self.drafts)}
        for a, b in self.links:
            ia, ib = index.get(id(a)), index.get(id(b))
            if ia is None or ib is None:
                continue
            if ib not in a.related:
                a.related.append(ib)
            if ia not in b.related:
                b.related.append(ia)
