"""Citation markers as the PDF prints them, from the document's bibliography.

:func:`read_bibliography` reads, from the whole source (inputs spliced in), which
citation style the document uses and what each key prints:

* **Numeric** (plain LaTeX, natbib ``numbers``, biblatex's default): ``[n]`` where
  ``n`` is the key's place in the ``thebibliography`` list (in the document or in
  the ``.bbl`` beside it); without one, in the ``.bib`` order a sorting style
  (``plain``, ``abbrv``, ``ACM-Reference-Format`` ...) gives the cited entries,
  else in order of first citation (``unsrt``-like styles).
* **Author-year** (natbib's default mode with an author-year bibliography style,
  classes that set it such as AASTeX and jmlr, biblatex ``authoryear``): the
  short author list and year from ``\\bibitem[Jones et al.(1990)]{key}`` or from
  the ``.bib`` file named by ``\\bibliography``.

:meth:`Bibliography.render` then writes what ``\\cite``, ``\\citep``, ``\\citet``,
``\\citealt``, ``\\citealp``, ``\\citeauthor``, ``\\citeyear``, ``\\onlinecite``
and biblatex's ``\\parencite``/``\\textcite`` print, with natbib's optional
notes (``\\citep[see][p.~3]{key}`` -> ``(see Jones et al., 1990, p. 3)``).

**Which keys are defined** follows how LaTeX resolves them: a citation prints its
marker only when the build has a bibliography entry for the key, and LaTeX reads
entries from ``\\bibitem`` (in the source, or in ``<main>.bbl`` beside the main
file), never from a ``.bib``. Only BibTeX (or biber) turns a ``.bib`` into a
``.bbl``; ``pdflatex`` alone and arXiv (which never runs BibTeX) do not. So by
default (``TexConfig(bibtex=False)``) a document shipped without its ``.bbl``
prints what LaTeX prints for an undefined citation: ``?`` per key, as ``[?]``,
``[?, ?]`` (numeric) or natbib's ``(?)``, ``(??)``, ``?`` (author-year). With
``bibtex=True`` the ``.bib`` files ``\\bibliography`` names are read as BibTeX
would (the build ran ``latexmk``/BibTeX): their cited entries are numbered, in
citation order or sorted as the style sorts, and keys they lack print ``?``.
Either way an undefined key flags the document ``unresolved_cite``; biblatex,
which prints an undefined key itself, renders nothing for it (no key in the text).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from docparse.formats.tex.context import _l2t
from docparse.text import clean_text

log = logging.getLogger(__name__)

__all__ = ["BibEntry", "Bibliography", "read_bibliography"]


@dataclass(frozen=True, slots=True)
class BibEntry:
    """What a citation of one key prints in an author-year style."""

    authors: str  # "Knuth", "Guyon and Elisseeff", "Guyon et al."
    year: str


@dataclass(slots=True)
class Bibliography:
    """The citation style of one document and the marker of each key."""

    author_year: bool = False
    numbers: dict[str, int] = field(default_factory=dict)
    entries: dict[str, BibEntry] = field(default_factory=dict)
    year_sep: str = ", "
    compress: bool = False
    biblatex: bool = False
    superscript: bool = False  # natbib/cite ``super``: numbers set as a superscript, no brackets
    list_sep: str = ", "  # the cite package separates numbers by a thin space a PDF drops: 3,4
    undefined_first: bool = False  # the cite package sorts an undefined key's ? first

    def defines(self, keys: Sequence[str]) -> bool:
        """Whether the build has a bibliography entry (a number or a label) for every key."""
        known = self.entries if self.author_year else self.numbers
        return all(k in known for k in keys)

    def render(self, command: str, keys: Sequence[str], notes: Sequence[str]) -> str | None:
        """The text of ``\\<command>[notes]{keys}``; None when it cannot be known."""
        # one optional argument is a post-note; two are natbib's [pre][post]
        pre, post = ("", notes[0]) if len(notes) == 1 else (*notes[:2], "", "")[:2]
        cmd = command.rstrip("*")
        low = cmd[:1].lower() + cmd[1:]
        if self.author_year:
            return self._author_year(low, keys, pre, post)
        return self._numeric(low, keys, pre, post)

    def _numeric(self, cmd: str, keys: Sequence[str], pre: str, post: str) -> str | None:
        nums = [self.numbers.get(k) for k in keys]
        if cmd == "citeauthor":
            known = [self.entries.get(k) for k in keys]
            return "; ".join(e.authors for e in known if e) if all(known) else None
        if cmd == "citeyear":
            known = [self.entries.get(k) for k in keys]
            return ", ".join(e.year for e in known if e) if all(known) else None
        if any(n is None for n in nums) and self.biblatex:
            return None
        text = self._list([n for n in nums if n is not None])
        undefined = ["?"] * sum(n is None for n in nums)
        listed = (*undefined, text) if self.undefined_first else (text, *undefined)
        text = self.list_sep.join(x for x in listed if x)
        text = " ".join(x for x in (pre, text) if x)
        if post:
            text += f", {post}"
        if cmd in ("onlinecite", "citealp", "citenum", "citealt"):
            return text
        if self.superscript and cmd in ("cite", "citep"):
            return text
        if cmd in ("citet", "textcite"):
            authors = [self.entries.get(k) for k in keys]
            names = {a.authors for a in authors if a is not None}
            if all(authors) and len(names) == 1:
                # natbib's numeric \\citet: the (shared) authors, then the numbers
                return f"{names.pop()} [{text}]"
        return f"[{text}]"

    def _list(self, nums: list[int]) -> str:
        if not nums:
            return ""
        if not self.compress:
            return self.list_sep.join(str(n) for n in nums)
        nums = sorted(set(nums))
        runs: list[str] = []
        start = prev = nums[0]
        for n in [*nums[1:], None]:
            if n is not None and n == prev + 1:
                prev = n
                continue
            runs.append(
                str(start)
                if prev == start
                else f"{start}–{prev}"
                if prev > start + 1
                else f"{start}{self.list_sep}{prev}"
            )
            if n is not None:
                start = prev = n
        return self.list_sep.join(runs)

    def _author_year(self, cmd: str, keys: Sequence[str], pre: str, post: str) -> str | None:
        found = [self.entries.get(k) for k in keys]
        if not keys or (self.biblatex and any(e is None for e in found)):
            return None
        entries = [e for e in found if e is not None]
        if cmd in ("citeauthor", "citeyear") and len(entries) < len(found):
            return "?" * len(found)
        if cmd == "citeauthor":
            return "; ".join(e.authors for e in entries)
        if cmd in ("citeyear", "citeyearpar"):
            years = ", ".join(e.year for e in entries)
            return f"({years})" if cmd == "citeyearpar" else years
        textual = cmd in ("citet", "cite", "textcite")
        sep = " " if cmd == "citealt" else self.year_sep
        parts = [
            "?"
            if years is None
            else f"{authors} ({years})"
            if textual
            else f"{authors}{sep}{years}"
            for authors, years in self._same_authors(found)
        ]
        if textual:
            if post and parts[-1] != "?":
                parts[-1] = parts[-1][:-1] + f", {post})"
            return (pre + " " if pre else "") + self._natbib_join(parts)
        inner = " ".join(x for x in (pre, self._natbib_join(parts)) if x)
        if post:
            inner += f", {post}"
        return inner if cmd in ("citealt", "citealp") else f"({inner})"

    def _same_authors(self, entries: Sequence[BibEntry | None]) -> list[tuple[str, str | None]]:
        """natbib lists the years of consecutive works of the same authors once:
        ``Jones et al. (1990, 1991)``; biblatex's default styles do not. An
        undefined key is ``(key, None)``."""
        groups: list[tuple[str, list[str] | None]] = []
        for e in entries:
            last = groups[-1] if groups else None
            if e is None:
                groups.append(("", None))
            elif last and last[1] is not None and last[0] == e.authors and not self.biblatex:
                last[1].append(e.year)
            else:
                groups.append((e.authors, [e.year]))
        return [(a, None if ys is None else ", ".join(ys)) for a, ys in groups]

    @staticmethod
    def _natbib_join(parts: Sequence[str]) -> str:
        """natbib's separator comes only after the first defined citation: an
        undefined key prints a bare ``?`` (``(??)``, ``(?Jones, 1990)``,
        ``(Jones, 1990; ?; Smith, 2001)``)."""
        out = ""
        started = False
        for part in parts:
            out += ("; " if started else "") + part
            started = started or part != "?"
        return out


_USEPACKAGE = re.compile(r"\\usepackage\s*(?:\[([^\]]*)\])?\s*\{([^{}]*)\}")
_CLASS = re.compile(r"\\documentclass\s*(?:\[([^\]]*)\])?\s*\{([^{}]+)\}")
_BST = re.compile(r"\\bibliographystyle\s*\{([^{}]+)\}")
_BIBFILES = re.compile(r"\\(?:bibliography|addbibresource)\s*(?:\[[^\]]*\])?\s*\{([^{}]+)\}")
_BIBITEM = re.compile(r"\\bibitem\s*(?:\[((?:[^\[\]{}]|\{[^{}]*\})*)\])?\s*\{([^{}]+)\}")
_SETCITESTYLE = re.compile(r"\\(?:setcitestyle|citestyle)\s*\{([^{}]*)\}")
_CITE_USE = re.compile(
    r"\\(?:[Cc]ite[a-zA-Z]*|[Pp]arencite|[Tt]extcite|[Aa]utocite|[Ff]ootcite|nocite|onlinecite)"
    r"\*?\s*(?:\[[^\]]*\]\s*){0,2}\{([^{}]*)\}"
)
#: Bibliography styles whose labels carry author and year (natbib-compatible).
_AUTHOR_YEAR_BST = re.compile(
    r"(?:nat|^apa|^aa$|^aasjournal|^agsm|^chicago|^mnras|^named|^harvard|^jmlr|^elsarticle-harv|^spbasic|^iclr|^icml|^neurips|^ecta|^aer)",
    re.I,
)
#: Styles that sort the reference list (by author, year, title) instead of citing order.
_SORTED_BST = re.compile(
    r"^(?:plain|abbrv|alpha|acm|ACM-Reference-Format|siam|amsplain|ieeetr-sorted|plainurl|abbrvurl)",
    re.I,
)
#: Classes that load natbib themselves, and the mode they choose.
_NATBIB_CLASSES = (("aastex", True), ("jmlr", True), ("acmart", False), ("revtex", False))


def _options(text: str | None) -> set[str]:
    """``[a, b=c]`` options as a set of whole words (``linenumbers`` is not ``numbers``)."""
    return {o.strip().replace(" ", "") for o in (text or "").split(",") if o.strip()}


def _short_authors(names: list[str]) -> str:
    if len(names) == 1:
        return names[0]
    if len(names) == 2:
        return f"{names[0]} and {names[1]}"
    return f"{names[0]} et al."


def _bib_entries(paths: Iterable[Path]) -> tuple[dict[str, BibEntry], dict[str, tuple[str, ...]]]:
    """Author-year text and a sort key of every entry of the ``.bib`` files."""
    from pybtex import errors as pybtex_errors
    from pybtex.database import parse_file
    from pybtex.scanner import PybtexError

    entries: dict[str, BibEntry] = {}
    sort_keys: dict[str, tuple[str, ...]] = {}
    for path in paths:
        try:
            # tolerant: an undefined @string (defined in the .bst) must not
            # lose the whole file
            with pybtex_errors.capture() as problems:
                data = parse_file(str(path), bib_format="bibtex")
            if problems:
                log.info("%s: %d bibliography problems ignored", path, len(problems))
        except (PybtexError, OSError, UnicodeDecodeError, ValueError) as exc:
            log.warning("%s: bibliography not read (%s)", path, exc)
            continue
        for key, entry in data.entries.items():
            people = entry.persons.get("author") or entry.persons.get("editor") or []
            # names keep their TeX accents in a .bib (Pr{\v s}a): rendered like text
            lasts = [clean_text(_l2t().latex_to_text(" ".join(p.last_names))) for p in people]
            authors = _short_authors([n for n in lasts if n]) if lasts else ""
            if not authors:
                org = entry.fields.get("organization") or entry.fields.get("key") or ""
                authors = clean_text(str(org).replace("{", "").replace("}", ""))
            year = str(entry.fields.get("year", "")).strip()
            if authors and year:
                entries[key] = BibEntry(authors.replace("{", "").replace("}", ""), year)
            title = str(entry.fields.get("title", "")).lower().replace("{", "").replace("}", "")
            # a style sorts an entry without names by its key, organization or title field
            name = " ".join(lasts) or next(
                (str(entry.fields[f]) for f in ("key", "organization") if entry.fields.get(f)),
                title,
            )
            sort_keys[key] = (name.lower().replace("{", "").replace("}", ""), year, title)
    return entries, sort_keys


def _bibitem_entry(label: str) -> BibEntry | None:
    """natbib's ``Jones et~al.(1990)Jones, Baker, and Williams`` label."""
    m = re.match(r"\s*(.*?)\s*\(([^()]*)\)", label.replace("~", " "), re.S)
    if m is None or not m.group(1) or not re.search(r"\d", m.group(2)):
        return None
    authors = clean_text(re.sub(r"[{}]", "", m.group(1)))
    return BibEntry(authors, m.group(2).strip())


def _natbib_mode(source: str, packages: dict[str, set[str]], bib: Bibliography) -> bool | None:
    """True for natbib's author-year mode, False for numbers, None without natbib."""
    cls = _CLASS.search(source)
    cls_opts, cls_name = (_options(cls.group(1)), cls.group(2).strip()) if cls else (set(), "")
    mode: bool | None = None
    for prefix, author_year in _NATBIB_CLASSES:
        if cls_name.startswith(prefix):
            mode = (author_year and "numbers" not in cls_opts) or "authoryear" in cls_opts
            if prefix == "aastex":
                bib.year_sep = " "
    if "natbib" in packages:
        opts = packages["natbib"]
        mode = not opts & {"numbers", "super"}
        bib.compress = bool(opts & {"compress", "sort&compress"})
        bib.superscript = "super" in opts
        if bib.superscript:
            bib.list_sep = ","
    for style in _SETCITESTYLE.findall(source):
        if _options(style) & {"numbers", "super"}:
            mode = False
            bib.superscript = "super" in _options(style)
        elif "authoryear" in _options(style):
            mode = True
    if "cite" in packages:
        bib.compress = True
        bib.superscript = bool(packages["cite"] & {"super", "superscript"})
        bib.list_sep = ","
        bib.undefined_first = True
    return mode


def _bib_files(source: str, main_file: Path) -> list[Path]:
    """The ``.bib`` files ``\\bibliography`` names, inside the document's folder."""
    found = []
    folder = main_file.parent
    for names in _BIBFILES.findall(source):
        for name in names.split(","):
            name = name.strip()
            cand = folder / name if name.endswith(".bib") else (folder / name).with_suffix(".bib")
            try:
                if cand.resolve().is_relative_to(folder.resolve()) and cand.is_file():
                    found.append(cand)
            except (OSError, ValueError):
                continue
    return found


def _citation_order(source: str) -> list[str]:
    cited: list[str] = []
    seen: set[str] = set()
    for keys in _CITE_USE.findall(source):
        for key in keys.split(","):
            key = key.strip()
            if key and key not in seen:
                seen.add(key)
                cited.append(key)
    return cited


def read_bibliography(source: str, main_file: Path | None, *, bibtex: bool = False) -> Bibliography:
    """The citation style and markers of a document (``source`` with inputs spliced).

    ``bibtex``: the build ran BibTeX on the ``.bib`` files ``\\bibliography``
    names (see the module notes); otherwise only ``\\bibitem`` entries, in the
    source or the ``.bbl`` beside ``main_file``, define keys.
    """
    bib = Bibliography()
    packages = {
        name.strip(): _options(opts)
        for opts, names in _USEPACKAGE.findall(source)
        for name in names.split(",")
    }
    natbib_mode = _natbib_mode(source, packages, bib)
    bst_m = _BST.search(source)
    bst = bst_m.group(1).strip() if bst_m else ""
    items = _BIBITEM.findall(source)
    bib_paths: list[Path] = []
    if main_file is not None:
        bbl = main_file.with_suffix(".bbl")
        if not items and bbl.is_file():
            items = _BIBITEM.findall(bbl.read_text(encoding="utf-8", errors="replace"))
        if bibtex and not items:
            bib_paths = _bib_files(source, main_file)
    bib_entries, sort_keys = _bib_entries(bib_paths) if bib_paths else ({}, {})
    biblatex = packages.get("biblatex")
    bib.biblatex = biblatex is not None
    if biblatex is not None:
        bib.author_year = any(
            re.fullmatch(r"(?:cite)?style=(?:authoryear|apa|chicago|ext-authoryear)\S*", o)
            for o in biblatex
        )
    elif natbib_mode:
        if items:
            bib.author_year = all(_bibitem_entry(label) for label, _ in items)
        else:
            bib.author_year = not bst or bool(_AUTHOR_YEAR_BST.search(bst))
    item_entries = {key.strip(): e for label, key in items if (e := _bibitem_entry(label))}
    bib.entries = {**bib_entries, **item_entries}
    if items:
        bib.numbers = {key.strip(): k + 1 for k, (_, key) in enumerate(items)}
        return bib
    cited = _citation_order(source)
    if "*" in cited:
        # \nocite{*}: every entry of the .bib is listed
        cited = [k for k in cited if k != "*"] + [k for k in sort_keys if k not in cited]
    # BibTeX lists only the cited keys its .bib files hold; the others stay undefined
    cited = [k for k in cited if k in sort_keys]
    if bst and _SORTED_BST.search(bst):
        cited.sort(key=lambda k: sort_keys[k])
    bib.numbers = {key: k + 1 for k, key in enumerate(cited)}
    return bib
