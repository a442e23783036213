"""Word counts and line joining for scripts written without spaces."""

from __future__ import annotations

from docparse.backends.layout import join_lines
from docparse.text import count_words, is_cjk, line_joiner, words


def test_words_without_cjk_are_whitespace_tokens() -> None:
    text = "The cat -- sat on 3.5 mats."
    assert words(text) == text.split()
    assert count_words(text) == 7


def test_cjk_characters_are_words_and_punctuation_is_not() -> None:
    assert count_words("公式Debianパッケージ。") == 2 + 1 + 5
    assert count_words("这是 Debian 2.100 的手册（版本）。") == 7 + 2
    assert words("「東京」") == ["東", "京"]
    assert count_words("한국어 텍스트 입니다") == 3  # Hangul keeps its spaces


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
