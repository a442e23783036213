"""``\\input``/``\\include`` resolution: which file a name reads, never outside the
document's folder, with loops and depth bounded.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path

from pylatexenc import latexwalker as lw

from docparse.errors import UnsafeInputError
from docparse.formats.tex.context import _prepare, _walk_source
from docparse.formats.tex.nodes import _group_body, _mandatory, _strip_comments
from docparse.formats.tex.walker import ConverterBase

log = logging.getLogger(__name__)

#: ``\\input{name}``, ``\\include{name}``, ``\\subfile{name}``, ``\\import{dir}{name}``
_INPUT_CALL = re.compile(
    r"\\(input|include|subfile|import|subimport|includefrom)\*?\s*"
    r"(?:\{([^{}]*)\}\s*(?=\{))?\{([^{}]*)\}"
)


class InputsMixin(ConverterBase):
    """Reading the files a document inputs."""

    def _read(self, path: Path) -> str:
        data = path.read_bytes()
        try:
            return data.decode("utf-8-sig")
        except UnicodeDecodeError:
            return data.decode("latin-1")

    # Over the C901 limit on purpose: one branch per \input safety rule (outside, missing, loop).
    def _resolve_input(self, name: str, current: Path | None) -> Path | None:  # noqa: C901
        """The file an ``\\input{name}`` reads, or None (skipped, flagged)."""
        name = name.strip().strip('"')
        if not name:
            return None
        if self.root is None:
            # A fragment (latex_to_text) never reads files.
            return None
        candidate_dirs = []
        if current is not None:
            candidate_dirs.append(current.parent)
        candidate_dirs.append(self.root)
        raw_path = Path(name)
        unsafe = raw_path.is_absolute() or name.startswith("~")
        found: Path | None = None
        if not unsafe:
            for base in candidate_dirs:
                for cand in (base / name, base / f"{name}.tex"):
                    try:
                        resolved = cand.resolve()
                        if not resolved.is_relative_to(self.root):
                            unsafe = True
                            continue
                        is_file = resolved.is_file()
                    except (OSError, ValueError, RuntimeError):
                        # NUL byte, name too long, symlink loop: not a file to read.
                        continue
                    if is_file:
                        found = resolved
                        break
                if found is not None:
                    break
        if found is None and unsafe:
            message = f"\\input{{{name}}} points outside the document folder; not read"
            if self.config.on_unsafe_input == "raise":
                raise UnsafeInputError(self.root_file, message)
            self._warn_once(message)
            self.flags.add("unsafe_input_skipped")
            return None
        if found is None:
            self._warn_once(f"\\input{{{name}}} not found; skipped")
            self.flags.add("missing_input")
            return None
        if found in self.input_stack or found == self.root_file:
            self._warn_once(f"\\input{{{name}}} loops; skipped")
            self.flags.add("input_loop")
            return None
        if len(self.input_stack) >= self.config.max_input_depth:
            self._warn_once(f"\\input nesting deeper than {len(self.input_stack)}")
            self.flags.add("input_too_deep")
            return None
        return found

    def _warn_once(self, message: str) -> None:
        # the pre-scan, the reference numbering and the walk all resolve the
        # same inputs: one warning per problem, not one per pass
        if message not in self.warned:
            self.warned.add(message)
            log.warning("%s: %s", self.root_file, message)

    def flat_source(self, text: str, current: Path | None = None) -> str:
        """``text`` with its (readable) ``\\input`` files spliced in, comments removed.

        The reference numbering needs the whole document in reading order.
        """
        text = _strip_comments(text)

        def splice(m: re.Match[str]) -> str:
            path = self._resolve_input((m.group(2) or "") + m.group(3), current or self.root_file)
            if path is None:
                return ""
            self.input_stack.append(path)
            try:
                return self.flat_source(self._read(path), path)
            finally:
                self.input_stack.pop()

        return _INPUT_CALL.sub(splice, text)

    def _input_nodes(self, path: Path) -> list[lw.LatexNode]:
        if path not in self.file_cache:
            self.file_cache[path] = _walk_source(_prepare(self._read(path), self.env_macros))
        return self.file_cache[path]

    def _input_name(self, node: lw.LatexMacroNode) -> str:
        mand = _mandatory(node)
        if node.macroname in ("import", "subimport", "includefrom") and len(mand) >= 2:
            return _group_body(mand[0]).strip() + _group_body(mand[1]).strip()
        return _group_body(mand[-1]) if mand else ""

    def _current_file(self) -> Path | None:
        return self.input_stack[-1] if self.input_stack else self.root_file

    def _input(self, node: lw.LatexMacroNode) -> None:
        path = self._resolve_input(self._input_name(node), self._current_file())
        if path is None:
            return
        self.input_stack.append(path)
        saved_prev = self.prev_comment
        try:
            self.walk(self._input_nodes(path))
        finally:
            self.input_stack.pop()
            self.prev_comment = saved_prev
