"""The converter's state, output buffers and node walk (the base of the mixins)."""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Sequence
from pathlib import Path

from pylatexenc import latexwalker as lw

from docparse.builder import UnitDraft
from docparse.formats.tex.citations import Bibliography
from docparse.formats.tex.config import TexConfig
from docparse.formats.tex.nodes import _Buf, _finish_text, _Float, _Macro, _node_verbatim
from docparse.formats.tex.numbering import LabelTarget
from docparse.formats.tex.vocabulary import _BLANK_LINE, _SPECIALS
from docparse.model import Annotation, UnitKind


class ConverterBase(ABC):
    """Walks pylatexenc nodes and produces unit drafts (one run per document).

    The state and the output buffers live here; macros, user-macro expansion,
    inputs and environments are the mixins :class:`~docparse.formats.tex.converter.Converter`
    is made of.
    """

    def __init__(self, config: TexConfig, root: Path | None) -> None:
        self.config = config
        self.root = root.parent.resolve() if root is not None else None
        self.root_file = root.resolve() if root is not None else None
        self.macros: dict[str, _Macro] = {}
        self.drafts: list[UnitDraft] = []
        self.links: list[tuple[UnitDraft, UnitDraft]] = []
        self.flags: set[str] = set()
        self.section: list[tuple[int, str]] = []
        self.buf_stack: list[_Buf] = [_Buf("paragraph")]
        self.kind_stack: list[UnitKind] = ["paragraph"]
        self.split_paragraphs: list[bool] = [True]
        self.float_stack: list[_Float] = []
        self.deferred: list[UnitDraft] = []
        self.raw_on = True
        self.raw_stack: list[bool] = []
        self.title: str | None = None
        self.title_emitted = False
        self.footnote_count = 0
        self.input_stack: list[Path] = []
        self.file_cache: dict[Path, list[lw.LatexNode]] = {}
        self.macro_depth = 0
        self.expansions = 0
        self.expanded_chars = 0
        self.expansion_cache: dict[str, list[lw.LatexNode]] = {}
        self.prev_comment = False
        self.prescanned = False
        self.cell_depth = 0
        self.env_macros: dict[str, str] = {}
        # \label numbers of the whole document (None: a fragment without
        # its source, whose references cannot be numbered)
        self.ref_labels: dict[str, LabelTarget] | None = None
        self.autonames: dict[str, str] = {}
        self.crefnames: dict[str, tuple[str, str]] = {}
        self.warned: set[str] = set()
        # citation style and markers (None: a fragment without its document)
        self.bibliography: Bibliography | None = None
        self.naming = False  # inside a \\nameref's title

    @property
    def buf(self) -> _Buf:
        return self.buf_stack[-1]

    def _section_path(self) -> tuple[str, ...]:
        return tuple(title for _, title in self.section)

    def _emit(self, draft: UnitDraft) -> None:
        """Append a unit; while a paragraph is open, hold it until it ends."""
        if self.float_stack:
            # floats collect their parts; they are emitted when they close
            self.deferred.append(draft)
            return
        # Same as "".join(parts).strip() without joining a (possibly huge,
        # macro-expanded) open paragraph once per emitted unit: that was quadratic.
        if any(p and not p.isspace() for p in self.buf.parts):
            self.deferred.append(draft)
            return
        self.drafts.append(draft)

    def flush(self) -> None:
        """End the current text unit (paragraph, list item, ...)."""
        buf = self.buf
        text = _finish_text("".join(buf.parts))
        if text:
            draft = UnitDraft(
                kind=buf.kind,
                text=text,
                raw="".join(buf.raw).strip(),
                section=self._section_path(),
                annotations=tuple(buf.annotations),
            )
            if self.float_stack:
                self.deferred.append(draft)
            else:
                self.drafts.append(draft)
        self.buf_stack[-1] = _Buf(self.kind_stack[-1])
        if not self.float_stack and self.deferred and len(self.buf_stack) == 1:
            self.drafts.extend(self.deferred)
            self.deferred = []

    def _text(self, s: str) -> None:
        self.buf.parts.append(s)

    def _raw(self, s: str) -> None:
        if self.raw_on:
            self.buf.raw.append(s)

    def _render_nodes(self, nodes: Sequence[lw.LatexNode | None]) -> str:
        """Text of nodes as one inline string (annotations discarded)."""
        text, _ = self._render_with_annotations(nodes)
        return text

    def _render_with_annotations(
        self, nodes: Sequence[lw.LatexNode | None]
    ) -> tuple[str, list[Annotation]]:
        self.buf_stack.append(_Buf("paragraph"))
        self.kind_stack.append("paragraph")
        self.split_paragraphs.append(False)
        saved_raw, self.raw_on = self.raw_on, False
        saved_deferred, self.deferred = self.deferred, []
        try:
            self.walk([n for n in nodes if n is not None])
            buf = self.buf_stack[-1]
            text = _finish_text("".join(buf.parts))
            annotations = list(buf.annotations)
            inner = self.deferred
        finally:
            self.buf_stack.pop()
            self.kind_stack.pop()
            self.split_paragraphs.pop()
            self.raw_on = saved_raw
            self.deferred = saved_deferred
        # footnotes met inside (e.g. in a caption) still become units
        self.deferred.extend(inner)
        return text, annotations

    def _push_block(self, kind: UnitKind, split: bool) -> None:
        self.flush()
        self.buf_stack.append(_Buf(kind))
        self.kind_stack.append(kind)
        self.split_paragraphs.append(split)
        # a block's units record their own source, even inside an argument
        self.raw_stack.append(self.raw_on)
        self.raw_on = True

    def _pop_block(self) -> None:
        self.flush()
        self.raw_on = self.raw_stack.pop()
        self.buf_stack.pop()
        self.kind_stack.pop()
        self.split_paragraphs.pop()
        self.buf_stack[-1] = _Buf(self.kind_stack[-1])
        if not self.float_stack and self.deferred and len(self.buf_stack) == 1:
            self.drafts.extend(self.deferred)
            self.deferred = []

    def walk(self, nodes: Sequence[lw.LatexNode]) -> None:
        nodes = list(nodes)
        i = 0
        while i < len(nodes):
            node = nodes[i]
            i = self._node(nodes, i)
            self.prev_comment = isinstance(node, lw.LatexCommentNode)

    def _node(self, nodes: list[lw.LatexNode], i: int) -> int:
        """Handle ``nodes[i]``; return the index of the next node to handle."""
        node = nodes[i]
        if isinstance(node, lw.LatexCharsNode):
            self._chars(str(node.chars))
        elif isinstance(node, lw.LatexCommentNode):
            pass
        elif isinstance(node, lw.LatexMathNode):
            self._math(node)
        elif isinstance(node, lw.LatexGroupNode):
            # braces are recorded around the children so that a unit that
            # starts or ends inside a group still gets its exact source span
            delims = getattr(node, "delimiters", None) or ("{", "}")
            self._raw(delims[0])
            self.walk(node.nodelist)
            self._raw(delims[1])
        elif isinstance(node, lw.LatexSpecialsNode):
            self._raw(_node_verbatim(node))
            self._text(_SPECIALS.get(str(node.specials_chars), ""))
        elif isinstance(node, lw.LatexEnvironmentNode):
            self._environment(node)
        elif isinstance(node, lw.LatexMacroNode):
            return self._macro(nodes, i)
        return i + 1

    def _chars(self, chars: str) -> None:
        if not self.split_paragraphs[-1]:
            self._raw(chars)
            self._text(chars.replace("`", "‘"))
            return
        if self.prev_comment and re.match(r"[ \t]*\n", chars):
            self.flush()
        pieces = _BLANK_LINE.split(chars)
        for k, piece in enumerate(pieces):
            if k:
                self.flush()
            self._raw(piece)
            self._text(piece.replace("`", "‘"))

    _title_raw = ""

    @abstractmethod
    def _math(self, node: lw.LatexMathNode) -> None: ...

    @abstractmethod
    def _environment(self, node: lw.LatexEnvironmentNode) -> None: ...

    @abstractmethod
    def _macro(self, nodes: list[lw.LatexNode], i: int) -> int: ...

    # Implemented by the mixins and the converter; declared here so that each
    # part can call the others.

    @abstractmethod
    def _heading(self, level: int, title: str, raw: str) -> None: ...

    @abstractmethod
    def emit_title(self) -> None: ...

    @abstractmethod
    def _item(self, node: lw.LatexMacroNode) -> None: ...

    @abstractmethod
    def _caption(self, node: lw.LatexMacroNode) -> None: ...

    @abstractmethod
    def _input(self, node: lw.LatexMacroNode) -> None: ...

    @abstractmethod
    def _expand(self, nodes: list[lw.LatexNode], i: int) -> int: ...

    @abstractmethod
    def _define_at(self, nodes: list[lw.LatexNode], i: int) -> int: ...

    @abstractmethod
    def _resolve_input(self, name: str, current: Path | None) -> Path | None: ...

    @abstractmethod
    def _input_name(self, node: lw.LatexMacroNode) -> str: ...

    @abstractmethod
    def _current_file(self) -> Path | None: ...

    @abstractmethod
    def _input_nodes(self, path: Path) -> list[lw.LatexNode]: ...
