"""``\\input``/``\\include`` resolution: which file a name reads, never outside the
document's folder, with loops and depth bounded.
"""

from __future__ import annotations

import logging
from pathlib import Path

from pylatexenc import latexwalker as lw

from docparse.errors import UnsafeInputError
from docparse.formats.tex.context import _prepare, _walk_source
from docparse.formats.tex.nodes import _group_body, _mandatory
from docparse.formats.tex.walker import ConverterBase

log = logging.getLogger(__name__)


class InputsMixin(ConverterBase):
    """Reading the files a document inputs."""

    def _read(self, path: Path) -> str:
        data = path.read_bytes()
        try:
            return data.decode("utf-8-sig")
        except UnicodeDecodeError:
            return data.decode("latin-1")

    def _resolve_input(self, name: str, current: Path | None) -> Path | None:
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
            log.warning("%s: %s", self.root_file, message)
            self.flags.add("unsafe_input_skipped")
            return None
        if found is None:
            log.warning("%s: \\input{%s} not found; skipped", self.root_file, name)
            self.flags.add("missing_input")
            return None
        if found in self.input_stack or found == self.root_file:
            log.warning("%s: \\input{%s} loops; skipped", self.root_file, name)
            self.flags.add("input_loop")
            return None
        if len(self.input_stack) >= self.config.max_input_depth:
            log.warning("%s: \\input nesting deeper than %d", self.root_file, len(self.input_stack))
            self.flags.add("input_too_deep")
            return None
        return found

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
