"""Plain-text (``.txt``) twin parser.

Text documents such as the Debian books rendered to text (DocBook/Sphinx text
builders) are cut into units as follows:

* **Blocks** are runs of non-blank lines. Tabs are expanded (8 columns).
* **Base indent**: the most common indentation of prose-looking lines (the
  body of the Debian Reference is indented by 4, FHS by 3, Sphinx output by
  0). Indentation is judged relative to it.
* **Headings** (one-line blocks, or a title line over an underline):

  - underlined (or over- and underlined) with a run of ``= - ~ * ^ # + _``
    characters at least 3 long and at least 60% of the title's length;
  - numbered: ``1.2 Title`` / ``1.2. Title`` at or left of the base indent,
    at most 100 characters, not ending in ``.``, ``,`` or ``;``; the depth is
    the number of numeric components (``1.2.3`` is depth 3);
  - ``Chapter 3 ...``, ``Appendix A ...``, ``Part II ...`` (depth 1);
  - short ALL-CAPS lines (at most 12 words, at least 3 letters);
  - short lines outdented left of the base indent (``Abstract``,
    ``Preface``), not ending in sentence punctuation.

  Numbered and chapter headings set their depth; other headings sit one level
  below the last numbered heading. Before any numbered heading, an underlined
  title's depth is the rank of its underline style in order of first use
  (as in reStructuredText). The section path is the stack of heading titles.
* **List items**: a line starting with ``*``, ``-``, ``+``, ``o``, ``•``, ``1.``,
  ``1)``, ``a)``, ``(1)`` begins an item; following lines indented more
  than the bullet continue it. A block with 3+ lines that are mostly numbered
  entries (a table of contents) gives one item per line.
* **Code / preformatted** blocks keep their line structure in ``raw`` (the
  unit text is whitespace-collapsed like every unit): a block with a shell or
  REPL prompt line (``$ ``, ``# ``, ``>>> ``, ``% ``), a block whose lines
  use three indentation levels (or two, with an indented body after a line
  ending in ``:``/``{``/``\\``/``;`` or dense in symbols), a block with
  column alignment (runs of 3+ inner spaces on half its lines), a block
  starting with ``#!`` or a diff header, a multi-line block whose first line
  is short (well under the wrap width) and that is dense in code symbols, or
  a block indented beyond the base indent that is dense in code symbols.
* **Grid tables** drawn with ``+---+`` / ``|`` become table units (cells
  split at the ``|`` columns common to all rows, wrapped cell lines joined);
  a preceding ``Table 1.2. ...`` line is the table's caption (a caption unit
  linked to the table).
* **Paragraphs**: lines joined with spaces. A line ending in a hyphen joins
  the next without a space; the hyphen is dropped only when the joined word
  occurs elsewhere in the document without a hyphen (``pro-`` + ``gram`` =
  ``program``) and kept otherwise (``FHS-`` + ``compliant``).
* Lines of only ``-``/``_``/``=``/``*`` that underline nothing are rules
  and dropped.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from docparse.builder import UnitDraft, build_document
from docparse.config import ParserConfig, resolve_config
from docparse.formats._encoding import decode_text, read_source
from docparse.formats._grid import cells_to_table
from docparse.model import Document, Format, Table, UnitKind
from docparse.text import clean_text, line_joiner

__all__ = ["TxtConfig", "TxtParser", "split_blocks"]


@dataclass(frozen=True, slots=True)
class TxtConfig(ParserConfig):
    """Options of :class:`TxtParser`.

    ``encoding``: force an encoding (``None``: detect). ``detect_code``: keep
    preformatted blocks as ``code`` units. ``grid_tables``: read ``+--+``
    ASCII tables as table units. ``max_heading_chars``: longest heading line.
    """

    encoding: str | None = None
    detect_code: bool = True
    grid_tables: bool = True
    max_heading_chars: int = 100


_UNDERLINE = re.compile(r"^\s*([=\-~*^#+_])\1{2,}\s*$")
_RULE = re.compile(r"^\s*[-_=*]{3,}\s*$")
_NUMBERED = re.compile(r"^(\d{1,3}(?:\.\d{1,3}){0,6})\.?\s+(\S.*)$")
_DOTTED = re.compile(r"^\d{1,3}(?:\.\d{1,3})*\.\s|^\d{1,3}(?:\.\d{1,3})+\s")
_CHAPTER = re.compile(
    r"^(?:(chapter|appendix|part)\s+([0-9]+|[A-Z]|[IVXLC]+)\b[.:]?"
    # Chinese and Japanese: 第 3 章 (chapter), 第 2 部 (part), 附录 A / 付録 A.
    r"|(第)\s*([0-9]+)\s*[章部編篇]|(附录|付録)\s*([A-Z])\b)",
    re.I,
)
_BULLET = re.compile(
    r"^(?P<ind>\s*)(?P<b>[*\-+o\u2022\u2023\u25e6\u00b7]|\d{1,3}[.)]|[a-zA-Z][.)]|\(\d{1,3}\)|\([a-z]\))\s+(?=\S)"
)
_TOC_LINE = re.compile(r"^\s*(?:[*\-+]\s+)?(?:\d{1,3}(?:\.\d{1,3})*\.?|[A-Z]\.)\s+\S")
_PROMPT = re.compile(r"^\s*(?:\$|#|>>>|%|\.\.\.|C:\\>)\s+\S")
_INNER_GAP = re.compile(r"\S {3,}\S")
_CODE_CHARS = frozenset("{}[]()<>=;$#|\\/_:@\"'`~*&")
_DROP_CODE_CHARS = dict.fromkeys(map(ord, _CODE_CHARS))
_GRID_BORDER = re.compile(r"^\s*\+[-=+]+\+\s*$")
_GRID_SEP = re.compile(r"^\s*[|+][-=+|]+[|+]\s*$")
_TABLE_CAPTION = re.compile(r"^(?:Table|Tab\.)\s+[\dA-Z]+(?:\.\d+)*[.:]?\s+\S", re.I)
_FOOTNOTE = re.compile(r"^\^?\[\d{1,3}\]\s")
_WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")


@dataclass(frozen=True, slots=True)
class _Line:
    no: int
    indent: int
    text: str  # stripped
    src: str  # original, tabs expanded, no newline


def split_blocks(text: str) -> list[list[_Line]]:
    """Runs of non-blank lines (tabs expanded)."""
    blocks: list[list[_Line]] = []
    cur: list[_Line] = []
    for no, line in enumerate(text.splitlines()):
        src = line.expandtabs(8).rstrip()
        if not src.strip():
            if cur:
                blocks.append(cur)
                cur = []
            continue
        stripped = src.lstrip()
        indent = len(src) - len(stripped)
        if src[indent - 1 : indent] == "\u00a0":
            indent -= 1  # a no-break space binds the text after it ("\u00a06.5\u00a0节")
        cur.append(_Line(no, indent, stripped, src))
    if cur:
        blocks.append(cur)
    return blocks


def _base_indent(blocks: list[list[_Line]]) -> int:
    counts: Counter[int] = Counter()
    for block in blocks:
        for ln in block:
            if len(ln.text) >= 40 and ln.text[:1].isalpha() and not _BULLET.match(ln.src):
                counts[ln.indent] += 1
    return counts.most_common(1)[0][0] if counts else 0


def _is_all_caps(text: str) -> bool:
    letters = [c for c in text if c.isalpha()]
    digits = sum(c.isdigit() for c in text)
    return (
        len(letters) >= 3
        and len(letters) > digits  # "2022-10-08 03:52:48 UTC" is a timestamp
        and all(c.isupper() for c in letters)
        and len(text.split()) <= 12
        and not text.endswith((",", ";"))
    )


class _Builder:
    def __init__(self, text: str, cfg: TxtConfig) -> None:
        self.cfg = cfg
        self.blocks = split_blocks(text)
        self.base = _base_indent(self.blocks)
        lengths = sorted(_columns(ln.src) for b in self.blocks for ln in b)
        # The wrap width of the text: long lines, not the longest outlier.
        self.width = lengths[int(0.95 * (len(lengths) - 1))] if lengths else 80
        self.drafts: list[UnitDraft] = []
        self.section: list[tuple[int, str]] = []
        self.last_numbered_depth = 0
        # Number of the last numbered heading; a numbered line that continues
        # it (4.1 -> 4.2, 4.2 -> 4.2.1, 4.2.1 -> 5) is a heading whatever its
        # case, one that goes back ("1. It unpacks" after 6.8.8.1) is not.
        self.number: tuple[int, ...] | None = None
        self.underline_levels: list[str] = []
        self.vocab: Counter[str] = Counter(_WORD.findall(text.lower()))
        # Numbered titles listed in a table of contents appear again in the
        # body; only the last occurrence of a numbered title is a heading.
        self.last_title: dict[str, int] = {}
        # Titles listed in a table of contents (first line of a dotted
        # number, "4.5." or "4.5"): a later body line with one of these titles
        # is a heading whatever its case or final stop. Undotted "8 files"
        # lines repeat in program output and are not titles.
        self.listed: dict[str, int] = {}
        for block in self.blocks:
            for ln in block[:2]:
                if not (ln.text[:1].isdigit() or ln.text[:1] in "CAPcap\u7b2c\u9644\u4ed8"):
                    continue
                key = _title_key(ln.text)
                if key:
                    self.last_title[key] = ln.no
                if key and _DOTTED.match(ln.text):
                    self.listed.setdefault(key, ln.no)

    # -- sections -----------------------------------------------------
    def path(self) -> tuple[str, ...]:
        return tuple(t for _, t in self.section)

    def heading(self, title: str, depth: int, raw: str) -> None:
        title = clean_text(title)
        while self.section and self.section[-1][0] >= depth:
            self.section.pop()
        self.section.append((depth, title))
        self.drafts.append(UnitDraft(kind="heading", text=title, raw=raw, section=self.path()))

    def accept_number(self, text: str, key: str | None, line_no: int) -> bool:
        """Whether the numbered line ``text`` is a heading; moves the numbering on."""
        num = _NUMBERED.match(text)
        chapter = _CHAPTER.match(text)
        if num is None:
            if chapter is not None:
                label = _chapter_label(chapter)
                if label.isdigit():
                    self.number = (int(label),)
                elif (chapter.group(1) or "").lower() != "part":
                    self.number = _AFTER_NUMBERS  # appendix: no numeric sequence after it
            return chapter is not None
        n = tuple(int(x) for x in num.group(1).split("."))
        title = num.group(2)
        listed = key is not None and self.listed.get(key, line_no) < line_no
        # "3. /bin : ..." and "1.2. "Quoted"" are titles; "3. do this" is a list item.
        cased = title[:1].isupper() or title[:1] in "/\"'(\u201c<"
        if _continues(self.number, n) or listed or (cased and _forward(self.number, n)):
            self.number = n
            return True
        return False

    def numbered_depth(self, title: str) -> int | None:
        m = _NUMBERED.match(title)
        if m:
            return m.group(1).count(".") + 1
        if _CHAPTER.match(title):
            return 1
        return None

    def add(self, kind: UnitKind, text: str, raw: str, table: Table | None = None) -> int:
        self.drafts.append(
            UnitDraft(kind=kind, text=text, raw=raw, section=self.path(), table=table)
        )
        return len(self.drafts) - 1

    # -- block classification ------------------------------------------
    def run(self) -> list[UnitDraft]:
        pending_caption: int | None = None
        for block in self.blocks:
            block = self.take_underlined(block)
            if not block:
                continue
            if all(_RULE.match(ln.src) for ln in block):
                continue
            caption = pending_caption
            pending_caption = None
            if self.cfg.grid_tables and _GRID_BORDER.match(block[0].src):
                table = _grid_table(block)
                if table is not None and table.n_cols == 1:
                    # A boxed admonition ("Caution" + text) is text, not a table.
                    for row in table.rows:
                        self.add("paragraph", row[0], _raw(block))
                    continue
                if table is not None:
                    if caption is not None:
                        cap_text = clean_text(self.drafts[caption].text)
                        table = Table(table.rows, table.n_header_rows, caption=cap_text)
                    idx = self.add("table", "", _raw(block), table)
                    if caption is not None:
                        self.drafts[idx].related.append(caption)
                        self.drafts[caption].related.append(idx)
                    continue
            if len(block) == 1 and self.single_line_heading(block[0]):
                continue
            if len(block) == 2 and self.wrapped_heading(block):
                continue
            if len(block) == 1 and _TABLE_CAPTION.match(block[0].text):
                pending_caption = self.add("caption", block[0].text, block[0].src)
                continue
            self.body_block(block)
        return self.drafts

    def take_underlined(self, block: list[_Line]) -> list[_Line]:
        """Emit underlined headings at the start of ``block``; return the rest."""
        while len(block) >= 2:
            start = 0
            if _UNDERLINE.match(block[0].src) and len(block) >= 3:
                start = 1  # overline
            title, under = block[start], block[start + 1]
            m = _UNDERLINE.match(under.src)
            rest = block[start + 2 :]
            if (
                not m
                or _UNDERLINE.match(title.src)
                or len(under.text) < 0.6 * len(title.text)
                or len(title.text) > self.cfg.max_heading_chars
                # A comment banner ("####" / "# PERL MAGIC" / "####") or a
                # command over a row of "#" inside a listing is code.
                or title.text.startswith(m.group(1))
                or _PROMPT.match(title.src)
                or (rest and self.cfg.detect_code and self.is_code(rest))
            ):
                return block
            depth = self.numbered_depth(title.text)
            char = m.group(1) + ("o" if start else "")
            if char not in self.underline_levels:
                self.underline_levels.append(char)
            if depth is None:
                # Below the last numbered heading once numbering has started;
                # otherwise the underline style's rank (reStructuredText).
                depth = (
                    self.last_numbered_depth + 1
                    if self.last_numbered_depth
                    else (self.underline_levels.index(char) + 1)
                )
            else:
                self.last_numbered_depth = depth
            self.heading(title.text, depth, _raw(block[: start + 2]))
            block = block[start + 2 :]
        return block

    def wrapped_heading(self, block: list[_Line]) -> bool:
        """A numbered title wrapped onto a second line at the same indent."""
        first, second = block
        if not (
            first.indent == second.indent <= self.base
            and self.numbered_depth(first.text) is not None
            and not _BULLET.match(second.src)
            and not first.text.endswith((".", ",", ";", ":"))
        ):
            return False
        joined = _Line(first.no, first.indent, self.join([first.text, second.text]), _raw(block))
        return self.single_line_heading(joined, key_line=first.text)

    def single_line_heading(self, ln: _Line, key_line: str | None = None) -> bool:
        text = ln.text
        limit = self.cfg.max_heading_chars * (1 if key_line is None else 2)
        if len(text) > limit or ln.indent > self.base:
            return False
        key = _title_key(text if key_line is None else key_line)
        listed = key is not None and self.listed.get(key, ln.no) < ln.no
        if (text.endswith((".", ",", ";")) and not listed) or _PROMPT.match(ln.src):
            return False
        depth = self.numbered_depth(text)
        if depth is not None and key and self.last_title.get(key, ln.no) > ln.no:
            self.add("list_item", text, ln.src)  # a table-of-contents entry
            return True
        if depth is not None:
            if not self.accept_number(text, key, ln.no):
                return False
            self.last_numbered_depth = depth
            self.heading(text, depth, ln.src)
            return True
        if key_line is not None:
            return False
        if "\u00a9" in text or text.lower().startswith("copyright"):
            return False  # title-page notices are not section titles
        outdented = ln.indent < self.base and text[:1].isupper() and len(text.split()) <= 12
        if _is_all_caps(text) or (outdented and not text.endswith((":", "?", "!"))):
            self.heading(text, self.last_numbered_depth + 1, ln.src)
            return True
        return False

    def body_block(self, block: list[_Line]) -> None:
        raw = _raw(block)
        if self.cfg.detect_code and _line_numbered(block):
            self.add("code", raw, raw)
            return
        n_toc = _toc_lines(block)
        if (len(block) >= 3 and n_toc >= 0.6 * len(block)) or (len(block) == 2 and n_toc == 2):
            for item in _split_items(block, toc=True):
                self.add(
                    "list_item", _strip_bullet(item[0].text) + _join_rest(item, self), _raw(item)
                )
            return
        if _BULLET.match(block[0].src) and not (
            self.cfg.detect_code and _PROMPT.match(block[0].src)
        ):
            for item in _split_items(block, toc=False):
                first = _strip_bullet(item[0].text)
                self.add("list_item", self.join([first] + [ln.text for ln in item[1:]]), _raw(item))
            return
        bullet_at = next(
            (
                i
                for i, ln in enumerate(block[1:], 1)
                if _BULLET.match(ln.src) and not _PROMPT.match(ln.src)
            ),
            None,
        )
        if bullet_at is not None and not (self.cfg.detect_code and self.is_code(block[:bullet_at])):
            self.body_block(block[:bullet_at])
            self.body_block(block[bullet_at:])
            return
        if self.cfg.detect_code and self.is_code(block):
            self.add("code", "\n".join(ln.src for ln in block), raw)
            return
        kind: UnitKind = "footnote" if _FOOTNOTE.match(block[0].text) else "paragraph"
        self.add(kind, self.join([ln.text for ln in block]), raw)

    def is_code(self, block: list[_Line]) -> bool:
        if any(_PROMPT.match(ln.src) for ln in block):
            return True
        indents = {ln.indent for ln in block}
        if len(indents) >= 3:
            return True
        dense = _code_density("".join(ln.text for ln in block))
        # Prose keeps one indent; an indented body after ``if x:`` is code.
        if (
            len(indents) == 2
            and block[0].indent < max(indents)
            and (dense >= 0.05 or any(ln.text.endswith((":", "{", "\\", ";")) for ln in block))
        ):
            return True
        if len(block) >= 2 and sum(bool(_INNER_GAP.search(ln.text)) for ln in block) * 2 >= len(
            block
        ):
            return True
        if block[0].text.startswith(("#!", "--- ", "+++ ", "@@ ", "diff ")):
            return True
        if _prose_like(block[0].text):
            return False  # a sentence that mentions paths, URLs or "quotes"
        # Hard-wrapped prose fills its first line; code at the body indent
        # starts short and is dense in symbols (``LC_ALL := C.UTF-8``).
        if (
            len(block) >= 2
            and dense >= 0.06
            and _columns(block[0].src) < 0.8 * self.width
            and not block[0].text.endswith((".", ","))
        ):
            return True
        if len(block) == 1 and block[0].text.endswith("."):
            return False
        return min(ln.indent for ln in block) > self.base and dense >= 0.08

    def join(self, parts: list[str]) -> str:
        # Pieces are joined once at the end and only the output's tail is
        # inspected: growing and searching one string line by line was
        # quadratic (a hostile file of 200 000 short lines took seconds).
        pieces: list[str] = []
        tail = ""
        for part in parts:
            if not pieces:
                piece = part
            elif (
                tail.endswith("-") and len(tail) >= 2 and tail[-2].isalpha() and part[:1].isalpha()
            ):
                piece = part
                m = re.search(r"([^\W\d_]+)-$", tail)
                n = re.match(r"[^\W\d_]+", part)
                if m and n and part[:1].islower():
                    joined = (m.group(1) + n.group(0)).lower()
                    hyph = (m.group(1) + "-" + n.group(0)).lower()
                    if self.vocab.get(joined, 0) > 0 and self.vocab.get(hyph, 0) == 0:
                        pieces[-1] = pieces[-1][:-1]
                        tail = tail[:-1]
            # A URL broken after its scheme ("https://" / "www...") has no space.
            elif tail.endswith("://"):
                piece = part
            else:
                piece = line_joiner(tail, part) + part
            if piece:
                pieces.append(piece)
                tail = (tail + piece)[-_JOIN_TAIL:]
        return "".join(pieces)


#: Characters of the joined text kept to test for a trailing hyphenated word.
_JOIN_TAIL = 256


def _columns(line: str) -> int:
    """Display width: wide (CJK) characters take two columns of the wrap width."""
    if line.isascii():
        return len(line)
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line)


def _prose_like(line: str) -> bool:
    """At least five words, seven in ten of them plain words."""
    toks = line.split()
    plain = sum(
        bool(re.fullmatch(r"[\"'(\u201c]?[A-Za-z][a-z'\u2019]*[.,;:)\"\u201d]?", t)) for t in toks
    )
    return len(toks) >= 5 and plain >= 0.7 * len(toks)


def _title_key(text: str) -> str | None:
    """``"1 introduction"`` for ``1. Introduction`` and ``Chapter 1. Introduction``."""
    text = clean_text(text)
    m = _CHAPTER.match(text)
    if m:
        text = _chapter_label(m) + " " + text[m.end() :]
    m2 = _NUMBERED.match(text)
    if not m2:
        return None
    return m2.group(1) + " " + clean_text(m2.group(2)).lower()


#: Numbering state after an appendix: every number goes back from it.
_AFTER_NUMBERS = (10**6,)


def _chapter_label(m: re.Match[str]) -> str:
    """The number or letter of a ``Chapter 3`` / ``第 3 章`` / ``Appendix A`` match."""
    return next(g for g in (m.group(2), m.group(4), m.group(6)) if g)


def _continues(prev: tuple[int, ...] | None, n: tuple[int, ...]) -> bool:
    """``n`` is the next number after ``prev`` (a sibling, first child or next ancestor)."""
    if prev is None:
        return False  # the first number starts no sequence: "1. do this" is a list item
    if n == (*prev, 1):
        return True
    return any(n == (*prev[:d], prev[d] + 1) for d in range(len(prev)))


def _forward(prev: tuple[int, ...] | None, n: tuple[int, ...]) -> bool:
    """``n`` comes after ``prev`` in the same or the next chapter (a skipped number)."""
    return prev is None or (n > prev and n[0] <= prev[0] + 1)


_LINE_NO = re.compile(r"^\s*(\d{1,5})(?:\s+|$)(?=\S|$)(?!\.)")


def _line_numbered(block: list[_Line]) -> bool:
    """A listing with line numbers: 3+ lines numbered 1, 2, 3 ... (no dots), code inside.

    A table of contents numbered ``1 Introduction`` / ``2 Method`` has the
    same shape; its entries hold no code symbols.
    """
    if len(block) < 3:
        return False
    numbers = []
    rest = []
    for ln in block:
        m = _LINE_NO.match(ln.src)
        if not m:
            return False
        numbers.append(int(m.group(1)))
        rest.append(ln.src[m.end() :])
    if any(b != a + 1 for a, b in itertools.pairwise(numbers)):
        return False
    return _code_density("".join(rest)) >= 0.03


def _code_density(text: str) -> float:
    """Share of the non-space characters that are code symbols."""
    chars = text.replace(" ", "")
    return (len(chars) - len(chars.translate(_DROP_CODE_CHARS))) / max(1, len(chars))


def _toc_lines(block: list[_Line]) -> int:
    return sum(bool(_TOC_LINE.match(ln.src)) for ln in block)


def _join_rest(item: list[_Line], b: _Builder) -> str:
    rest = [ln.text for ln in item[1:]]
    return (line_joiner(item[0].text, rest[0]) + b.join(rest)) if rest else ""


def _strip_bullet(text: str) -> str:
    m = _BULLET.match(text)
    return text[m.end() :] if m else text


def _split_items(block: list[_Line], *, toc: bool) -> list[list[_Line]]:
    items: list[list[_Line]] = []
    first_indent = block[0].indent
    for ln in block:
        starts = bool(_TOC_LINE.match(ln.src)) if toc else bool(_BULLET.match(ln.src))
        if toc and not starts and ln.indent <= first_indent + 4 and ln.text[:1].isupper():
            starts = True  # unnumbered TOC entries ("Preface")
        if not toc and starts and ln.indent > first_indent + 1 and items:
            # A nested bullet deeper than the first starts its own item too.
            starts = True
        if starts or not items:
            items.append([ln])
        else:
            items[-1].append(ln)
    return items


def _raw(block: list[_Line]) -> str:
    return "\n".join(ln.src for ln in block)


def _grid_table(block: list[_Line]) -> Table | None:
    """A ``+---+`` grid table, or ``None`` when the block is not one."""
    if not all(ln.text[:1] in "+|" for ln in block):
        return None
    content = [ln.src for ln in block if not _GRID_SEP.match(ln.src)]
    if not content:
        return None
    common: set[int] | None = None
    for line in content:
        pos = {i for i, ch in enumerate(line) if ch == "|"}
        common = pos if common is None else common & pos
    cols = sorted(common or ())
    if len(cols) < 2:
        return None
    rows: list[list[str]] = []
    current: list[list[str]] | None = None
    for ln in block:
        if _GRID_SEP.match(ln.src):
            if current is not None:
                rows.append([clean_text(_join_cell(frag)) for frag in current])
            current = None
            continue
        if current is None:
            current = [[] for _ in range(len(cols) - 1)]
        for k in range(len(cols) - 1):
            current[k].append(ln.src[cols[k] + 1 : cols[k + 1]].strip())
    if current is not None:
        rows.append([clean_text(_join_cell(frag)) for frag in current])
    rows = [r for r in rows if any(r)]
    if not rows:
        return None
    n_header = 1 if len(rows) > 1 else 0
    return cells_to_table([[(cell, 1, 1) for cell in r] for r in rows], n_header_rows=n_header)


def _join_cell(frags: list[str]) -> str:
    out = ""
    for frag in frags:
        if not frag:
            continue
        if out.endswith(("-", "/")) or not out:
            out += frag
        else:
            out += " " + frag
    return out


class TxtParser:
    """Parser for plain-text documents (see the module docstring)."""

    name = "txt"
    format: Format = "txt"
    config_class = TxtConfig

    def parse(self, path: Path, config: TxtConfig | dict[str, Any] | None = None) -> Document:
        """Parse ``path`` into a :class:`~docparse.model.Document`."""
        cfg = resolve_config(TxtConfig, config)
        path = Path(path)
        text = decode_text(read_source(path), path, cfg.encoding)
        drafts = _Builder(text, cfg).run()
        title = next((d.text for d in drafts if d.kind in ("heading", "paragraph")), None)
        return build_document(
            path=path, format="txt", backend=self.name, drafts=drafts, title=title
        )
