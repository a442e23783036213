"""align.normalize: one normalisation for evidence and units, with an offset map."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from align.normalize import markup_to_text, math_to_text, normalize, normalize_text

OPTIONS = [
    {},
    {"fold_case": True},
    {"fold_punct": True},
    {"fold_case": True, "fold_punct": True},
    {"fold_case": True, "fold_punct": True, "math": True},
    {"join_hyphens": False},
]

# Text as PDFs and annotators give it: letters, digits, punctuation, newlines,
# hyphens, ligatures, typographic quotes and dashes, soft hyphens, NBSP,
# combining accents, and anything else Unicode has.
_PIECES = st.sampled_from(
    [
        *"abcXYZ09 .,;:-$()[]\n\t",
        *["ﬁ", "ﬂ", "ﬀ", "“", "”", "‘", "’", "–", "—", "−", "\u00ad", "\u00a0", "\u200b"],
        *["e\u0301", "é", "ß", "İ", "½", "…", "evi-\ndence", "evi- dence", "$\\beta^{-3}$"],
        # Line ends of every kind, hyphens before them, lone combining marks,
        # full-width and compatibility forms, more math delimiters.
        *["\r", "\r\n", "-\n", "\u2010\n", "\u2011", "\u0301", "\u0327", "Ａ", "－", "²", "ǅ"],
        *["\u3000", "\u2028", "\\(x_1\\)", "$$a^2$$", "$5 and $6", "\\", "ﬃ", "Ω", "K"],
    ]
)
TEXTS = st.one_of(
    st.lists(_PIECES, max_size=40).map("".join),
    st.text(max_size=60),
)


@settings(max_examples=300, deadline=None)
@given(TEXTS, st.sampled_from(OPTIONS))
# Found by random exploration: a dash and NBSP before a broken word gave
# "a- evidence", which a second pass joined to "aevidence".
@example("a–\u00a0evi-\ndence", {})
# Case folding letter by letter left sequences NFKC composes or reorders.
@example("ß\u0301", {"fold_case": True})
@example("İ\u0327", {"fold_case": True, "fold_punct": True})
@example("\u0301İ\u00a0)ß\u0301–evi- dence", {"fold_case": True})
# A combining mark after rendered math composes with the rendering's last letter.
@example("$e$\u0301", {"fold_case": True, "fold_punct": True, "math": True})
@example("e$\u0301^2$", {"fold_case": True, "fold_punct": True, "math": True})
def test_idempotent(text: str, options: dict[str, bool]) -> None:
    once = normalize(text, **options).text
    assert normalize(once, **options).text == once


@settings(max_examples=500, deadline=None)
@given(TEXTS, st.sampled_from(OPTIONS))
@example("a\x1cb\x1f c", {})
@example("\u0301x\u00a0\u0301", {"fold_punct": True})
def test_normalize_text_is_normalize_without_offsets(text: str, options: dict[str, bool]) -> None:
    assert normalize_text(text, **options) == normalize(text, **options).text


@settings(max_examples=300, deadline=None)
@given(TEXTS, st.sampled_from(OPTIONS))
# A combining mark after a digit or symbol stays with it ("0\u0301").
@example("0\u0301", {})
@example("=\u0338", {"fold_punct": True})
@example("\x1b\u0300", {})
# A combining mark after a closing "$" belongs to the math's span.
@example("$\\beta^{-3}$\u0301", {"fold_case": True, "fold_punct": True, "math": True})
@example("e$\u0301^2$", {"fold_case": True, "fold_punct": True, "math": True})
def test_offset_map_points_into_the_original(text: str, options: dict[str, bool]) -> None:
    n = normalize(text, **options)
    assert len(n.starts) == len(n.ends) == len(n.text)
    assert list(n.starts) == sorted(n.starts)
    for i, ch in enumerate(n.text):
        start, end = n.starts[i], n.ends[i]
        assert 0 <= start < end <= len(text)
        if ch != " ":
            # The character comes from that piece of the original.
            piece = normalize(text[start:end], **options).text
            assert ch in piece, (text, i, ch, text[start:end])


@settings(max_examples=200, deadline=None)
@given(TEXTS)
def test_whitespace_is_collapsed_and_trimmed(text: str) -> None:
    out = normalize_text(text)
    assert out == out.strip()
    assert "  " not in out
    assert not re.search(r"[\t\n\r\u00a0]", out)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("ﬁnancial ﬂows", "financial flows"),
        ("“quoted” and ‘single’", "\"quoted\" and 'single'"),
        ("2019–2020 — a dash − minus", "2019-2020 - a dash - minus"),
        ("soft\u00adhyphen", "softhyphen"),
        ("evi-\ndence", "evidence"),
        ("evi-  \n  dence", "evidence"),
        # A hyphen and a space inside a line is not a broken word.
        ("evi- dence", "evi- dence"),
        ("a–\u00a0evi-\ndence", "a- evidence"),
        ("non-\nGAAP", "non-GAAP"),  # a hyphen before a capital is a real hyphen
        ("2016-\n2017", "2016-2017"),  # ... and so is one between digits
        ("a\u00a0b \n\n c", "a b c"),
        ("cafe\u0301", "café"),
        ("zero\u200bwidth", "zerowidth"),
    ],
)
def test_cases(raw: str, expected: str) -> None:
    assert normalize_text(raw) == expected


def test_folding() -> None:
    assert normalize_text("Net Revenue of $ 5,123 ;", fold_case=True, fold_punct=True) == (
        "net revenue of 5 123"
    )
    assert normalize_text("$5,123", fold_punct=True) == normalize_text("$ 5,123 ;", fold_punct=True)
    assert normalize_text("Straße", fold_case=True) == "strasse"


def test_join_hyphens_off_keeps_the_hyphen() -> None:
    assert normalize_text("evi-\ndence", join_hyphens=False) == "evi- dence"


def test_math_is_rendered_only_when_asked() -> None:
    tex = r"ratio $\beta \equiv r_t/r_p$ costs $5 and $6"
    assert "\\beta" in normalize_text(tex)
    out = normalize_text(tex, math=True)
    assert "β" in out and "\\" not in out
    # Dollar amounts are not math.
    assert out.endswith("costs $5 and $6")
    assert math_to_text(r"$\sim100$") == "∼100"


def test_original_span_of_real_evidence(fixtures_dir: Path) -> None:
    """FinanceBench evidence as extracted from the PDF: newlines, odd spaces."""
    line = (fixtures_dir / "qa/financebench/financebench_open_source_excerpt.jsonl").read_text()
    raw = json.loads(line.splitlines()[0])["evidence"][0]["evidence_text"]
    n = normalize(raw, fold_case=True, fold_punct=True)
    assert n.text == normalize_text(n.text, fold_case=True, fold_punct=True)
    for m in re.finditer(r"[a-z]{6,}", n.text):
        s, e = n.original_span(m.start(), m.end())
        assert raw[s:e].lower() == m.group()
    first = next(i for i, ch in enumerate(raw) if ch.isalnum())
    assert n.original_span(0, 1)[0] == first


def test_markup_none_is_identity() -> None:
    assert markup_to_text("a $b$ <i>c</i>", None) == "a $b$ <i>c</i>"


def test_markup_latex_uses_the_tex_parser() -> None:
    tex = pytest.importorskip("docparse.formats.tex")
    frag = r"The \textbf{peak} is higher~\citep{M19}."
    assert markup_to_text(frag, "latex") == tex.latex_to_text(frag)
    assert "\\" not in markup_to_text(frag, "latex")


def test_markup_html_uses_the_htm_parser() -> None:
    htm = pytest.importorskip("docparse.formats.htm")
    frag = "<p>Net <b>revenue</b> &amp; costs</p>"
    assert markup_to_text(frag, "html") == htm.html_to_text(frag)
    assert "<" not in markup_to_text(frag, "html")


def test_unknown_markup() -> None:
    with pytest.raises(ValueError):
        markup_to_text("x", "rtf")  # type: ignore[arg-type]


def test_markup_latex_expands_the_documents_macros(fixtures_dir: Path) -> None:
    pytest.importorskip("docparse.formats.tex")
    records = json.loads(
        (
            fixtures_dir / "qa/pdfqa/2510.22211v1_cfQA_gpt-4o-mini-2024-07-18_excerpt.json"
        ).read_text()
    )
    fragment = next(t for r in records for t in r["source_text"] if "\\oiii" in t)
    tex = fixtures_dir / "research/arxiv-2510.22211v1/2510.22211v1.tex"
    plain = markup_to_text(fragment, "latex")
    expanded = markup_to_text(fragment, "latex", source=tex)
    assert "[O III]" in expanded and "[O III]" not in plain
