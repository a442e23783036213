"""Word counts and line joining for scripts written without spaces."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from docparse.backends.layout import join_lines
from docparse.text import count_words, dot_leader, is_cjk, line_joiner, words


def test_words_without_cjk_are_whitespace_tokens() -> None:
    text = "The cat -- sat on 3.5 mats."
    assert words(text) == text.split()
    assert count_words(text) == 7


def test_cjk_characters_are_words_and_punctuation_is_not() -> None:
    assert count_words("公式Debianパッケージ。") == 2 + 1 + 5
    assert count_words("这是 Debian 2.100 的手册（版本）。") == 7 + 2
    assert words("「東京」") == ["東", "京"]
    assert count_words("한국어 텍스트 입니다") == 3  # Hangul keeps its spaces


@given(st.text(alphabet="a1_-. \t\n\u3000。，「」公式パッー한Ａ２\uff01\U00020001·", max_size=24))
def test_count_words_is_the_number_of_words(text: str) -> None:
    # count_words counts CJK tokens without making their words.
    assert count_words(text) == len(words(text))


def test_line_joiner() -> None:
    assert line_joiner("现在プロ", "グラム") == ""
    assert line_joiner("同义的", "。") == ""
    assert line_joiner("用于", "Debian") == " "
    assert line_joiner("한국", "어") == " "
    assert line_joiner("", "x") == " "
    assert is_cjk("漢") and is_cjk("カ") and not is_cjk("한") and not is_cjk("a")


def test_pdf_lines_join_without_space_between_cjk() -> None:
    lines = ["公式 Debian パッ", "ケージアーカイブ", "and more"]
    assert join_lines(lines, set()) == "公式 Debian パッケージアーカイブ and more"


def test_clean_text_ascii_and_unicode_paths_agree_with_the_definition() -> None:
    import re
    import unicodedata

    from docparse.text import clean_text

    invisible = dict.fromkeys(map(ord, "\u00ad\u200b\u200c\u200d\u2060\ufeff"), None)

    def reference(text: str) -> str:
        text = unicodedata.normalize("NFC", text).translate(invisible)
        return re.sub(r"\s+", " ", text).strip()

    samples = [
        "  plain  ascii\ttext\n",
        "\x1c sep\x1farated\x0b\x0c",
        "caf\u0065\u0301 au\u00a0lait\u2003x\u3000y",
        "soft\u00adhy\u200bphen \ufeffmark",
        "line\u2028para\u2029next\x85end",
        "",
        " \n ",
    ]
    for text in samples:
        assert clean_text(text) == reference(text), text


@given(
    st.text(
        alphabet="ab1 .\t\n\x1c\x85\u00a0\u2003\u3000\u00ad\u200b\ufeff"
        "e\u0301\u00e9\ufb01\u2028公式パ。한\uf0b7\U00020001",
        max_size=24,
    )
)
def test_clean_counted_is_clean_text_and_count_words(text: str) -> None:
    from docparse.text import clean_counted, clean_text

    clean = clean_text(text)
    assert clean_counted(text) == (clean, count_words(clean))


def test_every_invisible_character_is_unprintable() -> None:
    # clean_text skips its scan for invisible characters in printable text.
    from docparse.text import _INVISIBLE

    assert not any(chr(c).isprintable() for c in _INVISIBLE)


def test_records_match_the_dataclass_constructor() -> None:
    import pytest

    from docparse.builder import records
    from docparse.model import BBox, Provenance, SourceUnit

    rows = [
        {
            "id": f"d:{k:05d}:x",
            "kind": "paragraph",
            "modality": "text",
            "text": f"text {k}",
            "raw": "raw",
            "section": ("A",),
            "order": k,
            "word_start": k,
            "word_end": k + 2,
            "n_tokens": 3,
            "position": k / 10,
            "position_bucket": 1,
            "provenance": (Provenance(1, BBox(0, 0, 1, 1)),),
            "table": None,
            "annotations": (),
            "related": ("d:00000:x",),
        }
        for k in range(3)
    ]
    made = records(SourceUnit, 3, {name: [r[name] for r in rows] for name in rows[0]})
    assert made == [SourceUnit(**r) for r in rows]
    with pytest.raises(KeyError):
        records(SourceUnit, 3, {name: [r[name] for r in rows] for name in list(rows[0])[1:]})
    with pytest.raises(ValueError, match="2 values for 3"):
        records(SourceUnit, 3, {name: [r[name] for r in rows][:2] for name in rows[0]})


def test_records_refuse_a_class_with_post_init() -> None:
    import dataclasses

    import pytest

    from docparse.builder import records

    @dataclasses.dataclass(frozen=True, slots=True)
    class Checked:
        n: int

        def __post_init__(self) -> None:
            if self.n < 0:
                raise ValueError("negative")

    with pytest.raises(TypeError, match="__post_init__"):
        records(Checked, 1, {"n": [-1]})


def test_dot_leader_counts_spaced_and_weighted_dots_in_a_long_run() -> None:
    assert dot_leader("Introduction . . . .", 4, at_end=True)
    assert dot_leader("Introduction ..\u2026", 4, at_end=True)  # an ellipsis is three dots
    assert not dot_leader("Introduction ... 7", 4, at_end=True)
    assert dot_leader("0.99......", 3, marks=".")
    assert not dot_leader("1.2.3.4", 3, marks=".")
    # Spaced middle dots mark an empty table cell, not a leader of full stops.
    assert not dot_leader("\u00b7 \u00b7 \u00b7", 3, marks=".")
    assert dot_leader("\u00b7 \u00b7 \u00b7", 3)
    long = "." * 100_000 + "x"
    assert not dot_leader(long, 4, at_end=True)
    assert dot_leader(long, 4)
