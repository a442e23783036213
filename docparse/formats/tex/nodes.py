"""Small helpers over pylatexenc nodes and the converter's buffers."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from pylatexenc import latexwalker as lw

from docparse.builder import UnitDraft
from docparse.formats.tex.vocabulary import _COMMENT, _SENTINEL
from docparse.model import Annotation, UnitKind
from docparse.text import clean_text


@dataclass(frozen=True, slots=True)
class _Macro:
    name: str
    n_args: int
    default: str | None
    body: str


def _node_verbatim(node: lw.LatexNode | None) -> str:
    if node is None:
        return ""
    return str(node.latex_verbatim())


def _group_body(node: lw.LatexNode | None) -> str:
    """The source inside a ``{...}`` argument (or the single token)."""
    if node is None:
        return ""
    if isinstance(node, lw.LatexGroupNode):
        return "".join(_node_verbatim(n) for n in node.nodelist)
    return _node_verbatim(node)


def _args(node: lw.LatexNode) -> list[lw.LatexNode | None]:
    nodeargd = getattr(node, "nodeargd", None)
    if nodeargd is None or nodeargd.argnlist is None:
        return []
    return list(nodeargd.argnlist)


def _argspec(node: lw.LatexNode) -> str:
    nodeargd = getattr(node, "nodeargd", None)
    spec = getattr(nodeargd, "argspec", "") if nodeargd is not None else ""
    return spec if isinstance(spec, str) else ""


def _last_mandatory(node: lw.LatexNode) -> lw.LatexNode | None:
    """The last ``{}`` argument of a macro (its text argument, usually)."""
    spec = _argspec(node)
    args = _args(node)
    for i in range(len(args) - 1, -1, -1):
        if i < len(spec) and spec[i] == "{":
            return args[i]
    return None


def _mandatory(node: lw.LatexNode) -> list[lw.LatexNode | None]:
    spec = _argspec(node)
    return [a for i, a in enumerate(_args(node)) if i < len(spec) and spec[i] == "{"]


def _optional(node: lw.LatexNode) -> list[lw.LatexNode | None]:
    spec = _argspec(node)
    return [a for i, a in enumerate(_args(node)) if i < len(spec) and spec[i] == "["]


def _macro_name_of(node: lw.LatexNode | None) -> str | None:
    if isinstance(node, lw.LatexMacroNode):
        return str(node.macroname)
    if isinstance(node, lw.LatexGroupNode):
        inner = [n for n in node.nodelist if not _is_space(n)]
        if len(inner) == 1 and isinstance(inner[0], lw.LatexMacroNode):
            return str(inner[0].macroname)
    return None


def _is_space(node: lw.LatexNode) -> bool:
    if isinstance(node, lw.LatexCommentNode):
        return True
    return isinstance(node, lw.LatexCharsNode) and not str(node.chars).strip()


@dataclass
class _Buf:
    kind: UnitKind
    parts: list[str] = field(default_factory=list)
    raw: list[str] = field(default_factory=list)
    annotations: list[Annotation] = field(default_factory=list)


@dataclass
class _Float:
    env: str
    captions: list[UnitDraft] = field(default_factory=list)
    tables: list[UnitDraft] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)
    footnotes: list[str] = field(default_factory=list)


_PUNCT_AFTER = re.compile(r"[ \t]+\x00(?=[\x00 \t]*[.,;:!?)\]])")


def _finish_text(text: str) -> str:
    """Tidy the holes left by removed citations/references, then clean."""
    if _SENTINEL in text:
        # "(\citealt{a,b})" -> "", "(TDE, \citealt{x})" -> "(TDE)", "X \citep{y}." -> "X."
        text = re.sub(r"\(\s*\x00[\x00\s,;]*\)", _SENTINEL, text)
        text = re.sub(r"[,;]\s*\x00[\x00\s]*\)", ")", text)
        text = re.sub(r"\(\s*\x00[\x00\s,;]*", "(", text)
        text = _PUNCT_AFTER.sub("", text)
        text = text.replace(_SENTINEL, "")
    return clean_text(text)


#: What a backslash printed as text (``\\verb``, ``\\string``, ``\\char``,
#: ``\\textbackslash``, verbatim blocks) becomes. A plain backslash, as in the
#: PDF; checkers may set another character to tell printed backslashes apart
#: from leaked markup.
LITERAL_BACKSLASH = "\\"


def _literal(text: str) -> str:
    return text.replace("\\", LITERAL_BACKSLASH) if LITERAL_BACKSLASH != "\\" else text


def _strip_comments(text: str) -> str:
    return _COMMENT.sub("", text)


def _strip_math_delims(verbatim: str) -> str:
    s = verbatim.strip()
    for open_, close in (("$$", "$$"), ("\\[", "\\]"), ("$", "$"), ("\\(", "\\)")):
        if s.startswith(open_) and s.endswith(close) and len(s) >= len(open_) + len(close):
            return s[len(open_) : len(s) - len(close)]
    return s


def _find_document(nodes: Sequence[lw.LatexNode]) -> lw.LatexEnvironmentNode | None:
    for node in nodes:
        if isinstance(node, lw.LatexEnvironmentNode) and node.environmentname == "document":
            return node
    return None


def _skip_group(spec: str, k: int) -> int:
    while k < len(spec) and spec[k].isspace():
        k += 1
    if k >= len(spec) or spec[k] != "{":
        return k
    depth = 0
    while k < len(spec):
        if spec[k] == "{":
            depth += 1
        elif spec[k] == "}":
            depth -= 1
            if depth == 0:
                return k + 1
        k += 1
    return k
