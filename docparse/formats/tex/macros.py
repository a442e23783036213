"""Macro handling: a ``{name: handler}`` table for the macros that make structure,
annotations or special text, then user macros, then generic rendering.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from pylatexenc import latexwalker as lw

from docparse.builder import UnitDraft
from docparse.formats.tex.context import _l2t, _l2t_symbols, _walk_source
from docparse.formats.tex.nodes import (
    _args,
    _group_body,
    _last_mandatory,
    _literal,
    _mandatory,
    _node_verbatim,
    _optional,
)
from docparse.formats.tex.numbering import (
    UNKNOWN_REF,
    _alph,
    render_named_ref,
    render_ref,
    render_sub_ref,
)
from docparse.formats.tex.vocabulary import (
    _BIB_NAMES,
    _BLOCK_MACROS,
    _CITE,
    _CITE_NAMES,
    _DECLARATIONS,
    _DIMEN,
    _DIMEN_MACROS,
    _DROP_MACROS,
    _INPUT_NAMES,
    _NEWCMD,
    _REF_NAMES,
    _SECTION_LEVELS,
    _SENTINEL,
    _STRUCTURAL,
    _SYMBOLS,
)
from docparse.formats.tex.walker import ConverterBase
from docparse.model import Annotation
from docparse.text import clean_text


class MacrosMixin(ConverterBase):
    """What a macro node becomes."""

    def _macro(self, nodes: list[lw.LatexNode], i: int) -> int:
        """Handle the macro at ``nodes[i]``; return the index of the next node.

        Macros in :data:`_MACRO_HANDLERS` first, then the document's own macros,
        then dimensions, dropped macros, symbols and pylatexenc's renderings;
        an unknown macro's mandatory arguments are its text.
        """
        node = _macro_node(nodes, i)
        name = str(node.macroname)
        handler = _MACRO_HANDLERS.get(name)
        if handler is None and _CITE.match(name):
            handler = MacrosMixin._m_cite
        if handler is not None:
            return handler(self, nodes, i)
        verbatim = _node_verbatim(node)
        if name in self.macros and name not in _STRUCTURAL:
            return self._expand(nodes, i)
        if name in _DIMEN_MACROS:
            # TeX primitives with an unbraced dimension: \vskip12pt, \kern-1em
            self._raw(verbatim)
            if i + 1 < len(nodes) and isinstance(nodes[i + 1], lw.LatexCharsNode):
                chars = str(nodes[i + 1].chars)
                m = _DIMEN.match(chars)
                if m:
                    self._raw(chars)
                    self._chars(chars[m.end() :])
                    return i + 2
            return i + 1
        if name in _DROP_MACROS or name in _DECLARATIONS:
            self._raw(verbatim)
            return i + 1
        if name in _SYMBOLS:
            self._raw(verbatim)
            self._text(_literal(_SYMBOLS[name]))
            return i + 1
        self._raw(verbatim)
        spec = _l2t_symbols().get_macro_spec(name)
        simplify = getattr(spec, "simplify_repl", None) if spec is not None else None
        if (simplify is not None and not _args(node)) or callable(simplify):
            try:
                self._text(str(_l2t().nodelist_to_text([node])))
            except (AttributeError, IndexError, KeyError, TypeError, ValueError):
                # pylatexenc's accent callbacks and "%(2)s" templates assume
                # well-formed arguments (``\d\title`` gave AttributeError,
                # ``\d\footnote{f}`` KeyError): keep the argument's text.
                self._text(self._render_nodes(list(_args(node))))
            return i + 1
        if isinstance(simplify, str) and "%" not in simplify:
            self._text(simplify)
            return i + 1
        return self._unknown_macro(nodes, i, spec is None)

    def _unknown_macro(self, nodes: list[lw.LatexNode], i: int, unspecified: bool) -> int:
        """A macro with no meaning here: a cross-reference's number, else its text."""
        node = _macro_node(nodes, i)
        name = str(node.macroname)
        if (
            name.endswith("ref")
            and not _args(node)
            and i + 1 < len(nodes)
            and isinstance(nodes[i + 1], lw.LatexGroupNode)
            and re.fullmatch(r"[^\s{}\\]+", _group_body(nodes[i + 1]).strip() or " ")
        ):
            # an unknown cross-reference command (\figref{fig:x}): its number
            self._raw(_node_verbatim(nodes[i + 1]))
            keys = [k.strip() for k in _group_body(nodes[i + 1]).split(",") if k.strip()]
            self.buf.annotations.extend(Annotation("ref", key) for key in keys)
            self._text(self._ref_text("ref", keys))
            return i + 2
        # unknown or text-wrapping macro: its mandatory arguments are its text
        saved, self.raw_on = self.raw_on, False
        for k, arg in enumerate(a for a in _mandatory(node) if a is not None):
            if k:
                self._text(" ")
            self.walk([arg])
        self.raw_on = saved
        if unspecified and not _args(node):
            # a macro nobody here defines (from a package or class): the
            # braced groups right after it are its arguments, each its text
            j = i + 1
            while j < len(nodes) and isinstance(nodes[j], lw.LatexGroupNode):
                if j > i + 1:
                    self._text(" ")
                self._node(nodes, j)
                j += 1
            return j
        return i + 1

    def _m_section(self, nodes: list[lw.LatexNode], i: int) -> int:
        node = _macro_node(nodes, i)
        verbatim = _node_verbatim(node)
        name = str(node.macroname)
        arg = _last_mandatory(node)
        title = self._render_nodes([arg]) if arg is not None else ""
        labels = re.findall(r"\\label\s*\{([^{}]*)\}", _node_verbatim(arg))
        self._heading(_SECTION_LEVELS[name], title, verbatim)
        if labels and self.drafts and self.drafts[-1].kind == "heading":
            self.drafts[-1].annotations = tuple(Annotation("label", x) for x in labels)
        return i + 1

    def _m_acknowledgments(self, nodes: list[lw.LatexNode], i: int) -> int:
        node = _macro_node(nodes, i)
        verbatim = _node_verbatim(node)
        self._heading(2, "Acknowledgments", verbatim)
        return i + 1

    def _m_title(self, nodes: list[lw.LatexNode], i: int) -> int:
        node = _macro_node(nodes, i)
        verbatim = _node_verbatim(node)
        if not self.title_emitted:
            arg = _last_mandatory(node)
            self.title = self._render_nodes([arg]) if arg is not None else self.title
            self._title_raw = verbatim
            self.flush()
            self.emit_title()
        return i + 1

    def _m_author(self, nodes: list[lw.LatexNode], i: int) -> int:
        node = _macro_node(nodes, i)
        verbatim = _node_verbatim(node)
        if self.config.authors:
            arg = _last_mandatory(node)
            text = self._render_nodes([arg]) if arg is not None else ""
            self.flush()
            self._emit(
                UnitDraft(
                    kind="paragraph",
                    text=text,
                    raw=verbatim,
                    section=self._section_path(),
                )
            )
        return i + 1

    def _m_abstract(self, nodes: list[lw.LatexNode], i: int) -> int:
        node = _macro_node(nodes, i)
        verbatim = _node_verbatim(node)
        arg = _last_mandatory(node)
        if arg is not None:
            text = self._render_nodes([arg])
            self.flush()
            self._emit(UnitDraft(kind="abstract", text=text, raw=verbatim))
        return i + 1

    def _m_keywords(self, nodes: list[lw.LatexNode], i: int) -> int:
        node = _macro_node(nodes, i)
        verbatim = _node_verbatim(node)
        name = str(node.macroname)
        arg = _last_mandatory(node)
        text = self._render_nodes([arg]) if arg is not None else ""
        self.flush()
        if text:
            prefix = "Keywords: " if name == "keywords" else "Software: "
            self._emit(
                UnitDraft(
                    kind="paragraph",
                    text=prefix + text,
                    raw=verbatim,
                    section=self._section_path(),
                )
            )
        return i + 1

    def _m_item(self, nodes: list[lw.LatexNode], i: int) -> int:
        node = _macro_node(nodes, i)
        self._item(node)
        return i + 1

    def _m_par(self, nodes: list[lw.LatexNode], i: int) -> int:
        if self.split_paragraphs[-1]:
            self.flush()
        else:
            self._text(" ")
        return i + 1

    def _m_cite(self, nodes: list[lw.LatexNode], i: int) -> int:
        node = _macro_node(nodes, i)
        verbatim = _node_verbatim(node)
        self._raw(verbatim)
        arg = _last_mandatory(node)
        given = [clean_text(self._render_nodes([a])) for a in _optional(node) if a is not None]
        notes = " ".join(given).strip()
        keys = [k.strip() for k in _group_body(arg).split(",") if k.strip()]
        self.buf.annotations.extend(Annotation("cite", key, notes) for key in keys)
        name = str(node.macroname)
        text = None
        if self.bibliography is not None and keys and name not in ("nocite", "footcite"):
            text = self.bibliography.render(name, keys, given)
            if text is None or not self.bibliography.defines(keys):
                self.flags.add("unresolved_cite")
        self._text(text if text else _SENTINEL)
        return i + 1

    def _m_ref(self, nodes: list[lw.LatexNode], i: int) -> int:
        node = _macro_node(nodes, i)
        verbatim = _node_verbatim(node)
        self._raw(verbatim)
        keys = [k.strip() for k in _group_body(_last_mandatory(node)).split(",") if k.strip()]
        self.buf.annotations.extend(Annotation("ref", key) for key in keys)
        self._text(self._ref_text(str(node.macroname), keys))
        return i + 1

    def _ref_text(self, command: str, keys: list[str]) -> str:
        """What the PDF prints for ``\\<command>{keys}``; a placeholder (and the
        flag ``unresolved_ref``) for a label the document does not number."""
        if self.ref_labels is None or not keys:
            # a fragment read without its document: nothing to number from
            return _SENTINEL
        targets = [self.ref_labels.get(k) for k in keys]
        if command in ("nameref", "Nameref") and all(t is not None and t.title for t in targets):
            return self._name_ref([t.title for t in targets if t is not None])
        if command in _UNNUMBERED_REFS:
            # page numbers (and titles of labels after no heading) are not in the source
            self.flags.add("unresolved_ref")
            return UNKNOWN_REF
        if any(t is None for t in targets):
            self.flags.add("unresolved_ref")
        if all(t is not None and not t.number for t in targets):
            # labels that print nothing (after an unnumbered heading)
            return _SENTINEL
        if command in ("subfigref", "subtabref", "subtableref"):
            # jmlr prints the sub-float's letter alone: (a) and (b)
            return render_sub_ref(targets)
        if command.endswith("ref") and command[:-3] in _NAMED_REFS:
            return render_named_ref(command[:-3], targets)
        return render_ref(command, targets, self.autonames, self.crefnames)

    def _name_ref(self, titles: list[str]) -> str:
        """hyperref's ``\\nameref``: the heading or caption text the label follows."""
        if self.naming:
            # a title that names itself: LaTeX would loop, the twin prints it once
            return _SENTINEL
        self.naming = True
        try:
            return ", ".join(self._render_nodes(_walk_source(t)) for t in titles)
        finally:
            self.naming = False

    def _m_label(self, nodes: list[lw.LatexNode], i: int) -> int:
        node = _macro_node(nodes, i)
        verbatim = _node_verbatim(node)
        self._raw(verbatim)
        target = _group_body(_last_mandatory(node)).strip()
        if target:
            label = Annotation("label", target)
            if self.float_stack:
                self.float_stack[-1].labels.append(target)
                self.buf.annotations.append(label)
            elif (
                not "".join(self.buf.parts).strip()
                and self.drafts
                and self.drafts[-1].kind == "heading"
            ):
                # \section{X}\label{sec:x}: the label names the heading
                heading = self.drafts[-1]
                heading.annotations = (*heading.annotations, label)
            else:
                self.buf.annotations.append(label)
        return i + 1

    def _m_url(self, nodes: list[lw.LatexNode], i: int) -> int:
        node = _macro_node(nodes, i)
        verbatim = _node_verbatim(node)
        self._raw(verbatim)
        self.buf.annotations.append(Annotation("url", _group_body(_last_mandatory(node)).strip()))
        self._text(_SENTINEL)
        return i + 1

    def _m_href(self, nodes: list[lw.LatexNode], i: int) -> int:
        node = _macro_node(nodes, i)
        verbatim = _node_verbatim(node)
        self._raw(verbatim)
        mand = _mandatory(node)
        if len(mand) == 2:
            text = self._render_nodes([mand[1]])
            self.buf.annotations.append(Annotation("url", _group_body(mand[0]).strip(), text))
            self._text(text)
        return i + 1

    def _m_footnote(self, nodes: list[lw.LatexNode], i: int) -> int:
        node = _macro_node(nodes, i)
        verbatim = _node_verbatim(node)
        self._raw(verbatim)
        self._footnote(node)
        return i + 1

    def _m_floatconts(self, nodes: list[lw.LatexNode], i: int) -> int:
        node = _macro_node(nodes, i)
        verbatim = _node_verbatim(node)
        # jmlr: \floatconts{label}{\caption{..}}{contents}
        self._raw(verbatim)
        mand = _mandatory(node)
        if mand:
            target = _group_body(mand[0]).strip()
            if target and self.float_stack:
                self.float_stack[-1].labels.append(target)
            if target:
                self.buf.annotations.append(Annotation("label", target))
        saved, self.raw_on = self.raw_on, False
        self.walk([a for a in mand[1:] if a is not None])
        self.raw_on = saved
        return i + 1

    def _m_subfloat(self, nodes: list[lw.LatexNode], i: int) -> int:
        node = _macro_node(nodes, i)
        verbatim = _node_verbatim(node)
        # subfigure package: \subfigure[sub-caption][pos]{content}
        self._raw(verbatim)
        opt = _optional(node)
        if opt and opt[0] is not None:
            text, annotations = self._render_with_annotations([opt[0]])
            if text and self.float_stack:
                # the sub-caption prints its letter first: (a) Left panel
                done = sum(c.raw.startswith("\\sub") for c in self.float_stack[-1].captions)
                text = f"({_alph(done + 1)}) {text}"
            if text:
                draft = UnitDraft(
                    kind="caption",
                    text=text,
                    raw=verbatim,
                    section=self._section_path(),
                    annotations=tuple(annotations),
                )
                if self.float_stack:
                    self.float_stack[-1].captions.append(draft)
                    self.deferred.append(draft)
                else:
                    self._emit(draft)
        saved, self.raw_on = self.raw_on, False
        self.walk([a for a in [_last_mandatory(node)] if a is not None])
        self.raw_on = saved
        return i + 1

    def _m_caption(self, nodes: list[lw.LatexNode], i: int) -> int:
        node = _macro_node(nodes, i)
        verbatim = _node_verbatim(node)
        self._raw(verbatim)
        self._caption(node)
        return i + 1

    def _m_input(self, nodes: list[lw.LatexNode], i: int) -> int:
        node = _macro_node(nodes, i)
        self._input(node)
        return i + 1

    def _m_string(self, nodes: list[lw.LatexNode], i: int) -> int:
        node = _macro_node(nodes, i)
        verbatim = _node_verbatim(node)
        # \string\foo prints "\foo" literally (LaTeX manuals use it); the
        # token was read verbatim by _StringArgParser
        self._raw(verbatim)
        args = _args(node)
        if args and isinstance(args[0], lw.LatexCharsNode):
            self._text(_literal(str(args[0].chars)))
        return i + 1

    def _m_verb(self, nodes: list[lw.LatexNode], i: int) -> int:
        node = _macro_node(nodes, i)
        verbatim = _node_verbatim(node)
        self._raw(verbatim)
        args = _args(node)
        if args and args[0] is not None:
            arg = args[0]
            self._text(_literal(str(arg.chars)) if isinstance(arg, lw.LatexCharsNode) else "")
        return i + 1

    def _m_ensuremath(self, nodes: list[lw.LatexNode], i: int) -> int:
        node = _macro_node(nodes, i)
        verbatim = _node_verbatim(node)
        self._raw(verbatim)
        self._text(f"${_group_body(_last_mandatory(node))}$")
        return i + 1

    def _m_content_arg(self, nodes: list[lw.LatexNode], i: int) -> int:
        node = _macro_node(nodes, i)
        verbatim = _node_verbatim(node)
        self._raw(verbatim)
        saved, self.raw_on = self.raw_on, False
        self.walk([a for a in [_last_mandatory(node)] if a is not None])
        self.raw_on = saved
        return i + 1

    def _m_block(self, nodes: list[lw.LatexNode], i: int) -> int:
        node = _macro_node(nodes, i)
        verbatim = _node_verbatim(node)
        # author blocks and the like: their text stands apart from the next
        self._raw(verbatim)
        saved, self.raw_on = self.raw_on, False
        self._text(" ")
        self.walk([a for a in [_last_mandatory(node)] if a is not None])
        self._text(" ")
        self.raw_on = saved
        return i + 1

    def _m_all_args(self, nodes: list[lw.LatexNode], i: int) -> int:
        node = _macro_node(nodes, i)
        verbatim = _node_verbatim(node)
        self._raw(verbatim)
        saved, self.raw_on = self.raw_on, False
        self.walk([a for a in _mandatory(node) if a is not None])
        self.raw_on = saved
        return i + 1

    def _char(self, nodes: list[lw.LatexNode], i: int) -> int:
        """``\\char'134``, ``\\char"5C``, ``\\char92``, ``\\char`\\x``: one character."""
        self._raw(_node_verbatim(nodes[i]))
        if i + 1 >= len(nodes) or not isinstance(nodes[i + 1], lw.LatexCharsNode):
            return i + 1
        chars = str(nodes[i + 1].chars)
        self._raw(chars)
        # TeX ends the number at its first space and consumes that space
        m = re.match(r"\s*(?:'([0-7]+)|\"([0-9A-Fa-f]+)|(\d+)) ?", chars)
        if m:
            code = (
                int(m.group(1), 8)
                if m.group(1)
                else int(m.group(2) or m.group(3), 16 if m.group(2) else 10)
            )
            if 0 < code < 0x110000:
                self._text(_literal(chr(code)))
            self._chars(chars[m.end() :])
            return i + 2
        if chars.lstrip().startswith("`"):
            rest = chars.lstrip()[1:]
            if rest:
                self._text(rest[0])
                self._chars(rest[1:])
                return i + 2
            if i + 2 < len(nodes) and isinstance(nodes[i + 2], lw.LatexMacroNode):
                mac = str(nodes[i + 2].macroname)
                self._raw(_node_verbatim(nodes[i + 2]))
                self._text(_literal("\\") if mac == "\\" else mac[:1])
                return i + 3
        self._chars(chars)
        return i + 2

    def _footnote(self, node: lw.LatexMacroNode) -> None:
        arg = _last_mandatory(node)
        text, annotations = self._render_with_annotations([arg])
        self.footnote_count += 1
        target = f"fn{self.footnote_count}"
        self.buf.annotations.append(Annotation("footnote", target, text))
        self.buf.annotations.extend(a for a in annotations if a.kind != "footnote")
        if self.float_stack:
            self.float_stack[-1].footnotes.append(text)
        if self.config.footnotes and text:
            self.deferred.append(
                UnitDraft(
                    kind="footnote",
                    text=text,
                    raw=_node_verbatim(node),
                    section=self._section_path(),
                    annotations=tuple(annotations),
                )
            )
        self._text(_SENTINEL)


#: Cross-reference commands whose text is not a number the source determines.
_UNNUMBERED_REFS = frozenset({"pageref", "nameref", "vref", "cpageref", "Cpageref"})

#: ``\\<kind>ref`` commands that print the kind's name before the number (jmlr).
_NAMED_REFS = frozenset(
    (
        "section",
        "equation",
        "table",
        "figure",
        "algorithm",
        "theorem",
        "lemma",
        "remark",
        "corollary",
        "definition",
        "conjecture",
        "axiom",
        "example",
        "appendix",
        "proposition",
        "part",
        "chapter",
    )
)


def _macro_node(nodes: list[lw.LatexNode], i: int) -> lw.LatexMacroNode:
    node = nodes[i]
    assert isinstance(node, lw.LatexMacroNode)
    return node


def _define(conv: MacrosMixin, nodes: list[lw.LatexNode], i: int) -> int:
    """``\\newcommand``/``\\def`` in the text: defined from here on, no text."""
    return conv._define_at(nodes, i)


def _skip(conv: MacrosMixin, nodes: list[lw.LatexNode], i: int) -> int:
    """Macros that print nothing and whose arguments are not text."""
    return i + 1


_Handler = Callable[[MacrosMixin, list[lw.LatexNode], int], int]


def _handler_table(groups: list[tuple[Iterable[str], _Handler]]) -> dict[str, _Handler]:
    """``{name: handler}``; a name in several groups keeps its first group's handler,
    and a name the citation pattern matches is a citation whatever group it is in."""
    table: dict[str, _Handler] = {}
    for group_names, handler in groups:
        for n in group_names:
            table.setdefault(n, MacrosMixin._m_cite if _CITE.match(n) else handler)
    return table


#: The macros that make structure, annotations or special text, by name.
_MACRO_HANDLERS: dict[str, _Handler] = _handler_table(
    [
        (_SECTION_LEVELS, MacrosMixin._m_section),
        (("acknowledgments", "acknowledgements", "acknowledgment"), MacrosMixin._m_acknowledgments),
        (("title",), MacrosMixin._m_title),
        (("author",), MacrosMixin._m_author),
        (("abstract",), MacrosMixin._m_abstract),
        (("keywords", "software"), MacrosMixin._m_keywords),
        (("item",), MacrosMixin._m_item),
        (("par",), MacrosMixin._m_par),
        (_NEWCMD | {"def", "gdef", "edef", "xdef"}, _define),
        (_CITE_NAMES, MacrosMixin._m_cite),
        (_REF_NAMES, MacrosMixin._m_ref),
        (("label",), MacrosMixin._m_label),
        (("url", "nolinkurl"), MacrosMixin._m_url),
        (("href",), MacrosMixin._m_href),
        (("footnote", "footnotetext"), MacrosMixin._m_footnote),
        (("floatconts",), MacrosMixin._m_floatconts),
        (("subfigure", "subtable", "subfloat"), MacrosMixin._m_subfloat),
        (("caption", "captionof", "subcaption"), MacrosMixin._m_caption),
        (("tablecaption",), _skip),
        (_INPUT_NAMES, MacrosMixin._m_input),
        (_BIB_NAMES, _skip),
        (("string",), MacrosMixin._m_string),
        (("char",), MacrosMixin._char),
        (("verb",), MacrosMixin._m_verb),
        (("ensuremath",), MacrosMixin._m_ensuremath),
        (
            ("resizebox", "scalebox", "rotatebox", "adjustbox", "raisebox", "parbox"),
            MacrosMixin._m_content_arg,
        ),
        (_BLOCK_MACROS, MacrosMixin._m_block),
        (("IEEEPARstart",), MacrosMixin._m_all_args),
        (("textcolor", "colorbox", "collaboration", "foreignlanguage"), MacrosMixin._m_content_arg),
    ]
)
