"""User macros: definitions collected in a pre-scan and expanded where they are used."""

from __future__ import annotations

import re
from collections.abc import Sequence

from pylatexenc import latexwalker as lw

from docparse.formats.tex.context import _MAX_EXPANDED_CHARS, _walk_source
from docparse.formats.tex.nodes import (
    _args,
    _argspec,
    _group_body,
    _is_space,
    _last_mandatory,
    _Macro,
    _macro_name_of,
    _node_verbatim,
)
from docparse.formats.tex.vocabulary import _DROP_ENVS, _INPUT_NAMES, _NEWCMD, _VERBATIM
from docparse.formats.tex.walker import ConverterBase


def _substitute(body: str, args: list[str]) -> str:
    def repl(m: re.Match[str]) -> str:
        if m.group(1) == "#":
            # ``##1`` in a body is the ``#1`` of a macro the body defines
            return "#"
        k = int(m.group(1)) - 1
        return args[k] if 0 <= k < len(args) else ""

    return re.sub(r"#([1-9#])", repl, body)


class ExpansionMixin(ConverterBase):
    """User macro definitions and their expansion."""

    def prescan(self, nodes: Sequence[lw.LatexNode]) -> None:
        """Collect macro definitions, title and front matter from all nodes."""
        self.prescanned = True
        i = 0
        nodes = list(nodes)
        while i < len(nodes):
            node = nodes[i]
            if isinstance(node, lw.LatexMacroNode):
                name = str(node.macroname)
                if name in _NEWCMD:
                    self._define_newcommand(node)
                elif name in ("def", "gdef", "edef", "xdef"):
                    i = self._define_def(nodes, i)
                elif name == "title" and self.title is None:
                    arg = _last_mandatory(node)
                    if arg is not None:
                        self.title = self._render_nodes([arg])
                        self._title_raw = _node_verbatim(node)
                elif name in _INPUT_NAMES:
                    path = self._resolve_input(self._input_name(node), self._current_file())
                    if path is not None:
                        self.input_stack.append(path)
                        try:
                            self.prescan(self._input_nodes(path))
                        finally:
                            self.input_stack.pop()
            elif isinstance(node, lw.LatexEnvironmentNode):
                if node.environmentname not in _VERBATIM | _DROP_ENVS:
                    self.prescan(node.nodelist)
            elif isinstance(node, lw.LatexGroupNode):
                self.prescan(node.nodelist)
            i += 1

    def _define_at(self, nodes: list[lw.LatexNode], i: int) -> int:
        """A definition met while walking the text (in the body, or made by a
        macro's expansion): it takes effect from here and prints nothing."""
        node = nodes[i]
        assert isinstance(node, lw.LatexMacroNode)
        self._raw(_node_verbatim(node))
        if str(node.macroname) in _NEWCMD:
            self._define_newcommand(node)
            return i + 1
        last = self._define_def(nodes, i)
        for k in range(i + 1, last + 1):
            self._raw(_node_verbatim(nodes[k]))
        return last + 1

    def _define_newcommand(self, node: lw.LatexMacroNode) -> None:
        args = _args(node)
        # spec "*{[[{": star, name, n_args, default, body
        if len(args) < 5:
            return
        name = _macro_name_of(args[1])
        if not name or args[4] is None:
            return
        n_args = 0
        if args[2] is not None:
            digits = re.sub(r"\D", "", _group_body(args[2]))
            n_args = int(digits) if digits else 0
        default = _group_body(args[3]) if args[3] is not None else None
        if str(node.macroname).startswith("provide") and name in self.macros:
            return  # \providecommand never replaces a definition
        self.macros[name] = _Macro(name, min(n_args, 9), default, _group_body(args[4]))

    def _define_def(self, nodes: list[lw.LatexNode], i: int) -> int:
        """``\\def\\name#1#2{body}``; returns the index of the last node used."""
        j = i + 1
        if j >= len(nodes) or not isinstance(nodes[j], lw.LatexMacroNode):
            return i
        target = nodes[j]
        name = str(target.macroname)
        own_args = [a for a in _args(target) if a is not None]
        if own_args and isinstance(own_args[-1], lw.LatexGroupNode):
            # pylatexenc knew a spec for the name and took the body as argument
            self.macros[name] = _Macro(name, 0, None, _group_body(own_args[-1]))
            return j
        n_args = 0
        k = j + 1
        while k < len(nodes) and isinstance(nodes[k], lw.LatexCharsNode):
            chars = str(nodes[k].chars)
            n_args += chars.count("#")
            k += 1
        if k < len(nodes) and isinstance(nodes[k], lw.LatexGroupNode):
            self.macros[name] = _Macro(name, min(n_args, 9), None, _group_body(nodes[k]))
            return k
        return i

    # Over the C901 limit on purpose: optional, braced, bare-token and pre-read arguments.
    def _expand(self, nodes: list[lw.LatexNode], i: int) -> int:  # noqa: C901
        """Expand a user macro at ``nodes[i]``; return the next index."""
        node = nodes[i]
        assert isinstance(node, lw.LatexMacroNode)
        macro = self.macros[str(node.macroname)]
        self._raw(_node_verbatim(node))
        if (
            self.macro_depth >= self.config.max_macro_depth
            or self.expansions >= self.config.max_macro_expansions
        ):
            self.flags.add("macro_expansion_limit")
            return i + 1
        self.expansions += 1
        # pylatexenc may already have read arguments for a name it knows
        # (\bar, \vec...): use them first, then the following nodes
        spec = _argspec(node)
        own = [(spec[k] if k < len(spec) else "{", a) for k, a in enumerate(_args(node))]
        own = [(c, a) for c, a in own if a is not None and c in "[{"]
        args: list[str] = []
        j = i + 1
        rest = ""
        if macro.default is not None:
            if own and own[0][0] == "[":
                args.append(_group_body(own.pop(0)[1]).strip("[]"))
            else:
                k = j
                while k < len(nodes) and _is_space(nodes[k]):
                    k += 1
                m = None
                if k < len(nodes) and isinstance(nodes[k], lw.LatexCharsNode):
                    m = re.match(r"\s*\[([^\]]*)\]", str(nodes[k].chars))
                if m is not None:
                    chars = str(nodes[k].chars)
                    self._raw(chars)
                    args.append(m.group(1))
                    rest, j = chars[m.end() :], k + 1
                else:
                    args.append(macro.default)
        n_mand = macro.n_args - len(args)
        while n_mand > 0 and own and own[0][0] == "{":
            args.append(_group_body(own.pop(0)[1]))
            n_mand -= 1
        while n_mand > 0:
            if rest.strip():
                stripped = rest.lstrip()
                args.append(stripped[:1])
                rest = stripped[1:]
                n_mand -= 1
                continue
            k = j
            while k < len(nodes) and _is_space(nodes[k]):
                k += 1
            if k >= len(nodes):
                break
            arg = nodes[k]
            self._raw(_node_verbatim(arg))
            j = k + 1
            if isinstance(arg, lw.LatexCharsNode):
                rest = str(arg.chars)
                continue
            args.append(_group_body(arg))
            n_mand -= 1
        body = _substitute(macro.body, args)
        self.expanded_chars += len(body)
        if self.expanded_chars > _MAX_EXPANDED_CHARS:
            # A count of expansions does not bound the work when every body is
            # long and names several macros (a fuzzed \def took minutes).
            self.flags.add("macro_expansion_limit")
        else:
            self._expand_body(body)
        # arguments pylatexenc read that the user macro does not take are text
        saved, self.raw_on = self.raw_on, False
        for c, a in own:
            if c == "[":
                self._text("[")
            self.walk([a])
            if c == "[":
                self._text("]")
        self.raw_on = saved
        if rest:
            self._chars(rest)
        return j

    def _expand_body(self, body: str) -> None:
        cached = self.expansion_cache.get(body)
        if cached is None:
            cached = _walk_source(body)
            if len(self.expansion_cache) < 4096:
                self.expansion_cache[body] = cached
        self.macro_depth += 1
        saved, self.raw_on = self.raw_on, False
        try:
            self.walk(cached)
        finally:
            self.raw_on = saved
            self.macro_depth -= 1
