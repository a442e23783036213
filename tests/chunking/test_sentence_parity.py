"""docparse's SentenceSplitter gives exactly llama-index-core's chunks.

Runs when llama-index-core (the ``test`` extra) is importable. Real texts:
the small excerpts in ``fixtures/texts`` always, and >= 20 texts of the shared
corpus (book parts, PyMuPDF text of PDFs) when it is present. Hypothesis adds
generated texts built from real sentence-ending situations.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from docparse.chunking import SentenceSplitter, punkt_sentence_starts
from docparse.text import encoding

llama_parser = pytest.importorskip("llama_index.core.node_parser")

SETTINGS = [(400, 0), (1024, 200)]


def _llama(chunk_size: int, chunk_overlap: int, **kw: object) -> Callable[[str], list[str]]:
    splitter = llama_parser.SentenceSplitter(
        chunk_size=chunk_size, chunk_overlap=chunk_overlap, tokenizer=encoding().encode, **kw
    )
    return splitter.split_text  # type: ignore[no-any-return]


def _check(text: str, chunk_size: int, chunk_overlap: int) -> None:
    expected = _llama(chunk_size, chunk_overlap)(text)
    ours = SentenceSplitter(chunk_size=chunk_size, chunk_overlap=chunk_overlap)
    assert ours.split_text(text) == expected
    # split_spans points at the same chunks.
    assert [text[s:e] for s, e in ours.split_spans(text)] == [c for c in expected if c]


def test_fixture_texts_exist(fixture_texts: list[Path]) -> None:
    assert len(fixture_texts) >= 4


@pytest.mark.parametrize(("chunk_size", "chunk_overlap"), SETTINGS)
@pytest.mark.fixture_files("texts/*/*.txt")
def test_parity_on_fixture_texts(fixture_file: Path, chunk_size: int, chunk_overlap: int) -> None:
    _check(fixture_file.read_text(encoding="utf-8"), chunk_size, chunk_overlap)


@pytest.mark.parametrize(("chunk_size", "chunk_overlap"), [(64, 16), (128, 0), (30, 29)])
@pytest.mark.fixture_files("texts/*/*.txt")
def test_parity_with_small_chunks(fixture_file: Path, chunk_size: int, chunk_overlap: int) -> None:
    # Small chunks exercise the secondary regex, word and character fallbacks.
    _check(fixture_file.read_text(encoding="utf-8")[:8000], chunk_size, chunk_overlap)


def test_parity_with_custom_separators_and_no_secondary_regex(fixture_texts: list[Path]) -> None:
    text = fixture_texts[0].read_text(encoding="utf-8")[:6000]
    kw = {"paragraph_separator": "\n\n", "secondary_chunking_regex": None, "separator": "\n"}
    expected = _llama(50, 10, **kw)(text)
    assert SentenceSplitter(50, 10, **kw).split_text(text) == expected  # type: ignore[arg-type]


def test_parity_with_other_tokenizer(fixture_texts: list[Path]) -> None:
    text = fixture_texts[1].read_text(encoding="utf-8")[:6000]

    def by_chars(s: str) -> list[str]:
        return list(s)

    expected = llama_parser.SentenceSplitter(
        chunk_size=300, chunk_overlap=40, tokenizer=by_chars
    ).split_text(text)
    assert SentenceSplitter(300, 40, tokenizer=by_chars).split_text(text) == expected


def test_empty_and_whitespace_texts() -> None:
    for text in ["", " ", "\n\n\n", "x"]:
        assert SentenceSplitter(10, 0).split_text(text) == _llama(10, 0)(text)


# -- punkt: the sentence starts themselves --------------------------------------------

nltk_punkt = pytest.importorskip("nltk.tokenize.punkt")

# Pieces that steer Punkt's decisions: initials, numbers, ellipses, quotes,
# brackets, abbreviations, non-ASCII spaces and case changes.
_PIECES = [
    "The end.",
    "the end.",
    "J.",
    "J. Bach",
    "e.g.",
    "3.",
    "1.2.",
    "No.",
    "...",
    "..",
    "etc..",
    "(see Fig. 2).",
    '"Quoted."',
    "\u201cCurly.\u201d",
    "\u00abGuillemets.\u00bb",
    "Why?",
    "Wow!",
    "?!",
    "-- dash",
    "---",
    "x.y.z.",
    "U.S.A.",
    "a.",
    "A.",
    "5.5.",
    ";",
    ":",
    ",",
    ".",
    ")",
    "(",
    "[1].",
    "Ä.",
    "über.",
    "Über",
    "ß.",
    "\u00a0",
    "\u2009",
    "\t",
    "\n",
    "\n\n",
    "\n\n\n",
    "  ",
    " ",
    "'s",
    "don't.",
    "@home.",
    "#tag.",
    "&amp;.",
    "`code`.",
    "*bold*.",
    "{x}.",
    "3.14",
    "-1.",
    "1,000.",
    "v2.0.",
    "word",
    "Word",
    "WORD",
    "123",
    "İ.",
    "\x1c",
    "\r\n",
]


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(_PIECES), min_size=1, max_size=40), st.text(max_size=3))
def test_punkt_starts_match_nltk(pieces: list[str], glue: str) -> None:
    text = glue.join(pieces)
    expected = [s for s, _ in nltk_punkt.PunktSentenceTokenizer().span_tokenize(text)]
    assert punkt_sentence_starts(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        'J. Bach"Quoted."',  # the token after an initial holds a break itself
        "Word\n\u00fcber.\n\x1c\n@home.",  # U+001C: a next token Punkt never sees
        "Why?\n\x1d",
        "R. C. Smith. 1.2. intro 2018. Next (AGNs). The ??. We",
    ],
)
def test_punkt_regressions(text: str) -> None:
    expected = [s for s, _ in nltk_punkt.PunktSentenceTokenizer().span_tokenize(text)]
    assert punkt_sentence_starts(text) == expected


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.sampled_from(_PIECES), min_size=1, max_size=120),
    st.sampled_from([" ", "\n", " \n", ""]),
    st.integers(min_value=4, max_value=40),
    st.integers(min_value=0, max_value=12),
)
def test_split_text_matches_llama_on_generated_text(
    pieces: list[str], glue: str, chunk_size: int, overlap: int
) -> None:
    text = glue.join(pieces)
    overlap = min(overlap, chunk_size)
    try:
        expected = _llama(chunk_size, overlap)(text)
    except ValueError:
        # LlamaIndex refuses a piece larger than the chunk; so must we.
        with pytest.raises(ValueError):
            SentenceSplitter(chunk_size, overlap).split_text(text)
        return
    assert SentenceSplitter(chunk_size, overlap).split_text(text) == expected


# -- the shared corpus: >= 20 real texts -----------------------------------------------


def _corpus_texts(corpus: Path) -> list[tuple[str, str]]:
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    try:
        from sentence_splitter import corpus_texts
    finally:
        sys.path.pop(0)
    return corpus_texts(corpus)  # type: ignore[no-any-return]


@pytest.mark.corpus
@pytest.mark.slow
def test_parity_on_corpus(corpus_dir: Path) -> None:
    texts = _corpus_texts(corpus_dir)
    assert len(texts) >= 20
    mismatched = []
    for name, text in texts:
        for cs, ov in SETTINGS:
            if SentenceSplitter(cs, ov).split_text(text) != _llama(cs, ov)(text):
                mismatched.append((name, cs, ov))
    assert mismatched == []
