"""Properties of the text-level code on hostile text.

Complements the property tests next to each module (``tests/test_normalize.py``,
``test_tex.py``, ``test_htm.py``, ``test_chunking.py``) with generators built
from the constructs an attacker uses: unbalanced braces and dollars, macro
definitions that recurse, ``\\input`` of absolute paths, entity declarations,
comments and CDATA, control characters, and arbitrary Unicode.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from align.locate import locate
from align.normalize import markup_to_text, normalize
from docparse.builder import UnitDraft, build_document
from docparse.chunking import chunk
from docparse.errors import DocparseError
from docparse.formats.htm import html_to_text
from docparse.formats.tex import latex_to_text

from .corpus import MARKER

_SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

_TEX_TOKENS = st.sampled_from(
    [
        "{", "}", "$", "$$", "\\[", "\\]", "%", "&", "\\\\", "~", "#1", "^", "_", " ", "\n", "\n\n",
        "word", "Caf\u00e9", "\\textbf{", "\\emph", "\\section{", "\\item ", "\\cite{a}",
        "\\begin{itemize}", "\\end{itemize}", "\\begin{tabular}{ll}", "\\end{tabular}",
        "\\begin{verbatim}", "\\end{verbatim}", "\\def\\a{\\a}", "\\a", "\\newcommand{\\x}{\\x\\x}",
        "\\x", "\\def\\b#1{#1#1}", "\\b{z}", "\\input{/etc/passwd}", "\\input{../secret}",
        "\\include{", "\\verb|", "\\csname", "\\endcsname", "\\catcode`\\{=12", "\\expandafter",
        "\\multicolumn{2}{c}{", "\\\\[2pt]", "\\label{x}", "\\footnote{", "\\'", "\\\"{o}", "\x00",
    ]
)  # fmt: skip
TEX = st.lists(_TEX_TOKENS, max_size=40).map("".join)

_HTML_TOKENS = st.sampled_from(
    [
        "<", ">", "</", "<p>", "</p>", "<div>", "<table><tr><td>", "</td></tr></table>", "<br>",
        "<!--", "-->", "<![CDATA[", "]]>", "<!DOCTYPE html [", '<!ENTITY x "&x;&x;">', "]>",
        "&x;", "&amp;", "&#0;", "&#x110000;", "&nbsp;", "&", "<script>", "</script>",
        '<img src="file:///etc/passwd">', '<ix:header>', "</ix:header>", "<?xml ?>",
        "<DOCUMENT>", "<TYPE>10-K", "<TEXT>", "word", " ", "\n", "$", "(", ")", "%", "\x00",
        "<td>1,234</td>", '<span style="display:none">', "</span>", "\ud7ff", "\uffff",
    ]
)  # fmt: skip
HTML = st.lists(_HTML_TOKENS, max_size=40).map("".join)

_COMMAND_WORD = re.compile(r"\\(begin|end|input|include|def|newcommand|textbf|section)\b")
_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9:]*(\s[^<>]*)?>")


@_SETTINGS
@given(st.one_of(TEX, st.text(max_size=200)))
@example("${$\\textbf{$")  # a "$" inside an unclosed group is not the closing one
def test_latex_to_text_never_raises_and_leaves_no_commands(fragment: str) -> None:
    try:
        out = latex_to_text(fragment)
    except DocparseError:
        return
    assert isinstance(out, str)
    # Math is kept as LaTeX source (an unclosed ``$`` or ``\\[`` runs to the end).
    outside_math = re.sub(r"\$\$.*?\$\$|\$.*?\$|\\\[.*?\\\]", " ", out, flags=re.S)
    outside_math = re.sub(r"(\$|\\\[).*", " ", outside_math, flags=re.S)
    if "\\verb" not in fragment and "verbatim" not in fragment:  # verbatim text is literal
        assert not _COMMAND_WORD.search(outside_math), out
    # A fragment has no folder: no \\input is ever read.
    assert "root:" not in out


@_SETTINGS
@given(st.one_of(HTML, st.text(max_size=200)))
def test_html_to_text_never_raises_and_leaves_no_tags(fragment: str) -> None:
    try:
        out = html_to_text(fragment)
    except DocparseError:
        return
    assert isinstance(out, str)
    assert not _TAG.search(out), out
    # Entity expansion is bounded: output never dwarfs the input.
    assert len(out) <= 4 * len(fragment) + 16


@_SETTINGS
@given(
    st.one_of(TEX, HTML, st.text(max_size=200)),
    st.sampled_from([None, "latex", "html"]),
    st.booleans(),
    st.booleans(),
)
def test_normalize_and_markup_to_text_on_hostile_text(
    text: str, markup: str | None, math: bool, fold: bool
) -> None:
    try:
        plain = markup_to_text(text, markup)  # type: ignore[arg-type]
    except DocparseError:
        return
    n = normalize(plain, math=math, fold_case=fold, fold_punct=fold)
    assert len(n.starts) == len(n.text)
    assert "  " not in n.text and n.text == n.text.strip()


_UNIT_TEXT = st.one_of(
    st.text(min_size=1, max_size=120),
    st.lists(
        st.sampled_from(
            ["Word", "word.", "Dr.", "e.g.", "3.5", "?", "!", "\u2028", "\n", " ", "\u00a0"]
        ),
        min_size=1,
        max_size=60,
    ).map(" ".join),
)  # fmt: skip


def _doc(texts: list[str]) -> object:
    drafts = [UnitDraft("paragraph", t, section=("S",)) for t in texts]
    return build_document(path="x.txt", format="txt", backend="txt", drafts=drafts, doc_id="d")


@_SETTINGS
@given(
    st.lists(_UNIT_TEXT, min_size=1, max_size=8),
    st.sampled_from(["sentence", "unit", "section"]),
    st.integers(min_value=8, max_value=200),
)
def test_chunks_cover_every_unit(texts: list[str], strategy: str, size: int) -> None:
    doc = _doc(texts)
    opts = {"chunk_size": size} if strategy == "sentence" else {"max_tokens": size}
    chunks = chunk(doc, strategy, **opts)  # type: ignore[arg-type]
    by_id = {u.id: u for u in doc.units}  # type: ignore[attr-defined]
    covered: dict[str, list[tuple[int, int]]] = {}
    for c in chunks:
        for uid, start, end in c.spans:
            assert 0 <= start <= end <= len(by_id[uid].text)
            covered.setdefault(uid, []).append((start, end))
    for uid, unit in by_id.items():
        # Every non-space character of every unit is in some chunk.
        marks = [False] * len(unit.text)
        for start, end in covered.get(uid, []):
            marks[start:end] = [True] * (end - start)
        missing = "".join(ch for ch, m in zip(unit.text, marks, strict=True) if not m)
        assert not missing.strip(), (unit.text, missing)


@_SETTINGS
@given(
    st.lists(_UNIT_TEXT, min_size=1, max_size=6),
    st.one_of(st.text(max_size=150), TEX, HTML),
    st.sampled_from([None, "latex", "html"]),
)
@example(["0"], "\\[\\emph\\input\\]", None)  # pylatexenc TypeError on a bare \input in math
def test_locate_never_raises_and_spans_are_in_bounds(
    texts: list[str], evidence: str, markup: str | None
) -> None:
    doc = _doc(texts)
    try:
        m = locate(evidence, doc, markup=markup)  # type: ignore[arg-type]
    except DocparseError:
        return
    assert 0.0 <= m.coverage <= 1.0 + 1e-9 and 0.0 <= m.score <= 1.0 + 1e-9
    lengths = {u.id: len(u.text) for u in doc.units}  # type: ignore[attr-defined]
    assert len(m.unit_ids) == len(m.spans)
    for uid, (start, end) in zip(m.unit_ids, m.spans, strict=True):
        assert 0 <= start <= end <= lengths[uid]


@_SETTINGS
@given(st.lists(_UNIT_TEXT, min_size=1, max_size=6), st.data())
def test_locate_finds_a_verbatim_unit(texts: list[str], data: st.DataObject) -> None:
    doc = _doc(texts)
    units = doc.units  # type: ignore[attr-defined]
    # locate anchors on words; a unit of bare punctuation (": : : :") has none
    # and is not evidence anyone quotes.
    candidates = [
        u
        for u in units
        if sum(any(c.isalnum() for c in w) for w in normalize(u.text).text.split()) >= 4
    ]
    if not candidates:
        return
    unit = data.draw(st.sampled_from(candidates))
    m = locate(unit.text, doc)
    if m.status == "ambiguous":
        # Another unit reads the same once punctuation and case fold away
        # ('Word:Word:' and 'Word Word'): then no unit may be preferred.
        assert unit.id in m.unit_ids and len(m.unit_ids) > 1 and m.coverage == 1.0
        return
    assert m.found


@pytest.mark.parametrize(
    "fragment",
    [
        "\\input{/etc/passwd}",
        "\\input{../../secret}",
        "\\def\\a{\\a}\\a",
        "\\newcommand{\\x}{\\x\\x}\\x",
        "{" * 5000,
        "}" * 5000,
        "\\begin{itemize}" * 500,
    ],
)
def test_latex_to_text_hostile_fragments(fragment: str) -> None:
    try:
        out = latex_to_text(fragment)
    except DocparseError:
        return
    assert MARKER not in out and "root:" not in out
    assert len(out) <= len(fragment) + 16
