"""A sentence-preferring token splitter with the exact output of LlamaIndex's.

pdfQA chunks PyMuPDF text with LlamaIndex's ``SentenceSplitter`` (chunk size
400, overlap 0). :class:`SentenceSplitter` here reproduces that splitter's
chunks exactly, for any settings, without depending on LlamaIndex and about
five times faster (``benchmarks/sentence_splitter.py``). It is an
independent implementation of the same algorithm:

1. A text whose token count fits the chunk size is one split ("sentence").
2. Otherwise it is split by the first rule that yields more than one piece:
   the paragraph separator (kept at the start of every piece but the first),
   then sentences; pieces of these two rules count as whole sentences. Failing
   both, the secondary regex (phrases ending in ``,.;`` ...), then the word
   separator, then single characters; these pieces are not sentences.
3. Pieces that still exceed the chunk size are split again, recursively.
4. Pieces are merged greedily into chunks of at most ``chunk_size`` tokens;
   each new chunk starts with the longest run of trailing pieces of the
   previous chunk that fits in ``chunk_overlap`` tokens (dropped from the front
   again when the next piece would not fit).
5. Chunks are stripped of surrounding whitespace; empty chunks are dropped.

Token counts are those of the given tokenizer (default: cl100k, the
``encode_ordinary`` counts of :func:`docparse.text.encoding`, equal to
``encode`` for any text without special-token strings, on which ``encode``
raises).

Speed
-----
The output is LlamaIndex's; the work is not. With the default cl100k
tokenizer (a custom ``tokenizer`` gets none of these short cuts):

* a text with more whitespace-separated words than the chunk size is known
  to be too long without counting (every cl100k pre-token touches at most one
  word), so the whole document and long paragraphs are never encoded;
* a piece already counted as too long is not counted again when split;
* counts come from a stdlib-``re`` copy of cl100k's pre-tokenizer with a
  cache of per-pre-token BPE counts, exact on the "fast" characters (Latin,
  Greek, Cyrillic, punctuation, symbols; each checked against tiktoken in the
  tests); lines holding other characters are encoded by tiktoken, which is
  exact because counts add up over cuts right after a newline followed by a
  non-space character;
* the Punkt rules run once per candidate boundary, with fast paths for the
  common cases (see :func:`punkt_sentence_starts`).

Sentences
---------
LlamaIndex's default sentence tokenizer is NLTK's ``PunktSentenceTokenizer()``
constructed *without* a trained model: no abbreviation list, collocations,
sentence starters or orthographic statistics (the bundled ``punkt_tab`` data
is downloaded but never loaded into it). With empty parameters the Punkt
algorithm reduces to a few rules, implemented in :func:`punkt_sentence_starts`
with the same regular expressions (run with the ``regex`` engine, as NLTK
does, so character classes agree on all of Unicode). A candidate boundary is a
``.``, ``?`` or ``!`` followed by closing punctuation or by whitespace and a
token; it is a break when, in the context "previous word + mark + following
token", some token other than the last is

* ``.``, ``?`` or ``!`` alone, or
* a word ending in a single period that is not one letter plus period
  ("J.") or a number ("3.") followed by a lower-case word or by ``;:,.!?``,
  and, for one letter plus period, not followed by an upper-case word.

An ellipsis (``..``, ``...``) never ends a sentence. Closing quotes and
brackets after a break are moved onto the preceding sentence. These rules
match NLTK 3.9-3.10 (``nltk`` is not needed at run time; the parity test
compares with it through llama-index-core when that is installed).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence

import regex  # type: ignore[import-untyped]

__all__ = [
    "DEFAULT_CHUNKING_REGEX",
    "DEFAULT_PARAGRAPH_SEPARATOR",
    "SentenceSplitter",
    "punkt_sentence_starts",
    "split_sentences",
]

#: LlamaIndex's default secondary regex: phrases ending in a clause mark.
DEFAULT_CHUNKING_REGEX = "[^,.;。？！]+[,.;。？！]?|[,.;。？！]"
#: LlamaIndex's default paragraph separator.
DEFAULT_PARAGRAPH_SEPARATOR = "\n\n\n"

# --- Punkt (untrained) -------------------------------------------------------
# Characters that end a word token and may follow a sentence mark directly:
# closing/opening brackets, quotes (ASCII and curly), and the two non-period
# sentence marks.
_NON_WORD = "(?:[)\";}\\]*:@'({\\[\u2018\u2019\u201c\u201d\xab\xbb?!])"
# Dashes and dot runs count as one punctuation token.
_MULTI_CHAR = "(?:-{2,}|\\.{2,}|(?:\\.\\s){2,}\\.)"
_WORD_START = '[^("`{\\[:;&#*@)}\\]\\-,]'
_WORD_TOKEN = regex.compile(
    _MULTI_CHAR
    + "|(?="
    + _WORD_START
    + ")\\S+?(?=\\s|$|"
    + _NON_WORD
    + "|"
    + _MULTI_CHAR
    + "|,(?=$|\\s|"
    + _NON_WORD
    + "|"
    + _MULTI_CHAR
    + "))|\\S"
)
_CANDIDATE = regex.compile(
    "[.?!](?=(?P<after>" + _NON_WORD + "|\\s+(?P<next>\\S+)))",
)
_REALIGN = regex.compile(
    "[\"')\\]}\u2018\u2019\u201c\u201d\xab\xbb]+?(?:\\s+|(?=--)|$)", regex.MULTILINE
)
_NUMBER = regex.compile("^-?[.,]?\\d[\\d,.-]*\\.?$")
_INITIAL = regex.compile("[^\\W\\d]\\.$")
# Punkt's word boundary search looks only at ASCII whitespace.
_OTHER_ASCII_WS = "\n\t\r\x0b\x0c"
# A word made only of characters that neither start nor end a Punkt token
# inside it: before "." it forms the single token "word.", which is a break
# unless the word is a number (checked separately).
_PLAIN = "[^\\s\x00-\x1f\x7f-\x9f)\";}\\]*:@'({\\[\u2018\u2019\u201c\u201d\xab\xbb?!\\-.,"
_PLAIN_WORD = regex.compile(_PLAIN + "`&#]" + _PLAIN + "]+")
_NON_WORD_CHARS = frozenset(")\";}]*:@'({[\u2018\u2019\u201c\u201d\xab\xbb?!")
_SECTION_NUMBER = regex.compile("\\d+(?:\\.\\d+)*")
_CLAUSE_PUNCT = frozenset(";:,.!?")
_SENT_END = frozenset(".?!")


def _breaks_in_context(context: str) -> bool:
    """True when some token but the last of ``context`` is a sentence break."""
    toks: list[str] = []
    if "\n" in context:
        for line in context.split("\n"):
            if line.strip():
                toks.extend(_WORD_TOKEN.findall(line))
    else:
        toks = _WORD_TOKEN.findall(context)
    for i in range(len(toks) - 1):
        tok = toks[i]
        if tok in _SENT_END:
            return True
        if tok[-1] != "." or tok.endswith(".."):
            # Not period-final, or an ellipsis / dot run: never a break.
            continue
        nxt = toks[i + 1]
        initial = _INITIAL.match(tok) is not None
        if initial or _NUMBER.sub("##number##", tok.lower()) == "##number##":
            first = nxt[0]
            if nxt in _CLAUSE_PUNCT or first.islower():
                continue  # the next word does not start a sentence
            if initial and first.isupper():
                continue  # "J. Bach": an initial before a capitalised word
        return True
    return False


def _punkt_slices(text: str) -> list[tuple[int, int]]:
    """Sentence slices before realignment (Punkt ``_slices_from_text``)."""
    spaced = text
    for ch in _OTHER_ASCII_WS:  # str.replace is much faster than str.translate
        if ch in spaced:
            spaced = spaced.replace(ch, " ")
    rfind = spaced.rfind
    # Candidates with the start of the word before them. Punkt looks for the
    # word from the previous candidate on; a space right at the start of that
    # stretch counts as no space at all, and a candidate whose word would
    # overlap the previous candidate's word drops the previous candidate.
    cands: list[tuple[regex.Match[str], int]] = []
    prev_start = prev_stop = 0
    for m in _CANDIDATE.finditer(text):
        ms = m.start()
        ws = rfind(" ", prev_stop, ms)
        w_start = ws + 1 if ws > prev_stop else prev_start
        if cands and prev_stop > w_start:
            cands.pop()
        cands.append((m, w_start))
        prev_start, prev_stop = w_start, ms

    out: list[tuple[int, int]] = []
    last_break = 0
    # The fast paths assume the text after a candidate yields a token; a
    # "next token" made of U+001C-U+001F (not \s for the regex engine, but
    # stripped away by Punkt's line handling) does not. Such texts take the
    # general rule everywhere.
    fast = not ("\x1c" in text or "\x1d" in text or "\x1e" in text or "\x1f" in text)
    plain = _PLAIN_WORD.fullmatch
    section_number = _SECTION_NUMBER.fullmatch
    for m, w_start in cands:
        ms = m.start()
        ns = m.start("next")  # -1 when a closing mark follows directly
        # Fast paths, equal to the general rule: "?" and "!" are always tokens
        # of their own followed by another token; a plain word (not a number)
        # of two or more characters before "." forms one token "word.", a
        # break. A section number ("1.2.") is a number token: it breaks unless
        # the next word starts in lower case.
        if not fast:
            brk = _breaks_in_context(text[w_start:ms] + m.group() + m.group("after"))
        elif text[ms] != ".":
            brk = True
        else:
            word = text[w_start:ms]
            if (plain(word) and not word.isdecimal()) or (word and word[-1] in _NON_WORD_CHARS):
                # (after a closing bracket or quote the token is "." or "X.",
                # neither an initial nor a number: a break)
                brk = True
            elif (
                ns >= 0
                and (initial := len(word) == 1 and word.isalpha()) | bool(section_number(word))
                and (nxt := m.group("next")).isalnum()
            ):
                # A section number ("1.2.") is a number token, an initial
                # ("J.") one letter and a period; before a plain word (one
                # token, no break inside), a number breaks unless the word is
                # lower case, an initial unless the word is cased.
                first = nxt[0]
                brk = not (first.islower() or (initial and first.isupper()))
            else:
                brk = _breaks_in_context(word + "." + m.group("after"))
        if brk:
            out.append((last_break, ms + 1))
            last_break = ns if ns >= 0 else ms + 1
    out.append((last_break, len(text.rstrip())))
    return out


def punkt_sentence_starts(text: str) -> list[int]:
    """Start offsets of the sentences an untrained NLTK Punkt tokenizer finds.

    Equal to ``[s for s, _ in PunktSentenceTokenizer().span_tokenize(text)]``
    for NLTK 3.9-3.10.
    """
    slices = _punkt_slices(text)
    starts: list[int] = []
    shift = 0
    for i, (s1, e1) in enumerate(slices):
        s1 += shift
        if i + 1 == len(slices):
            if s1 < e1:
                starts.append(s1)
            continue
        s2, e2 = slices[i + 1]
        m = _REALIGN.match(text, s2, e2)  # (endpos acts as the end of the text)
        if m:
            starts.append(s1)
            shift = m.end() - s2
        else:
            shift = 0
            if s1 < e1:
                starts.append(s1)
    return starts


def split_sentences(text: str) -> list[str]:
    """Sentences as LlamaIndex cuts them: from each start to the next start.

    Text before the first sentence start is dropped; trailing whitespace stays
    with the sentence it follows.
    """
    starts = punkt_sentence_starts(text)
    ends = [*starts[1:], len(text)]
    return [text[s:e] for s, e in zip(starts, ends, strict=True)]


# --- The splitter ------------------------------------------------------------


# A split: (text, offset in the text given to split_text, is a whole
# sentence, token count). Plain tuples: millions are made on a corpus.
_Piece = tuple[str, int, bool, int]


def _split_keep_separator(text: str, sep: str) -> list[tuple[str, int]]:
    """Pieces (with offsets) of ``text`` split at ``sep``, each but the first starting with it."""
    parts = text.split(sep)
    out = [(parts[0], 0)] if parts[0] else []
    pos = len(parts[0])
    for p in parts[1:]:
        out.append((sep + p, pos))  # never empty
        pos += len(sep) + len(p)
    return out


_JOIN_SEPARATORS = dict.fromkeys(range(0x1C, 0x20), "x")


def _word_count(text: str) -> int:
    """Whitespace-separated words, a lower bound of the cl100k token count."""
    if "\x1c" in text or "\x1d" in text or "\x1e" in text or "\x1f" in text:
        # str.split() cuts at these separators, the tokenizer's \s does not;
        # joining there only lowers the word count, so the bound still holds.
        text = text.translate(_JOIN_SEPARATORS)
    return len(text.split())


# cl100k's pre-tokenizer for the stdlib ``re`` engine (much faster than
# running tiktoken on many short strings), restricted to "fast" characters:
# the assigned code points of the Latin, IPA, Greek, Cyrillic and Armenian
# blocks, of U+2000-U+2BFF (punctuation, super- and subscripts, currency,
# letter-like, number forms, arrows, mathematical and technical symbols, ...)
# and the Latin ligatures. There \p{L}, \p{N} and \s (White_Space) are the
# explicit classes built below from ``unicodedata`` (these characters were
# all assigned long before Unicode 14, and whether they are letters or
# numbers does not change between versions); ``\Z`` is the end of the text as
# ``$`` is in tiktoken's Rust engine. The token count of a text is the sum of
# the BPE counts of its pre-tokens, which are cached. Other text goes to
# tiktoken. tests/test_chunking.py checks every fast character against it.
_FAST_BLOCKS = ((0x0000, 0x058F), (0x2000, 0x2BFF), (0xFB00, 0xFB4F))


def _ranges(codes: list[int]) -> str:
    out = []
    i = 0
    while i < len(codes):
        j = i
        while j + 1 < len(codes) and codes[j + 1] == codes[j] + 1:
            j += 1
        lo, hi = re.escape(chr(codes[i])), re.escape(chr(codes[j]))
        out.append(lo if i == j else f"{lo}-{hi}")
        i = j + 1
    return "".join(out)


def _fast_codes(first: str | None) -> list[int]:
    return [
        c
        for lo, hi in _FAST_BLOCKS
        for c in range(lo, hi + 1)
        if (cat := unicodedata.category(chr(c))) != "Cn" and (first is None or cat[0] == first)
    ]


_L = _ranges(_fast_codes("L"))
_N = _ranges(_fast_codes("N"))
_WS = "\t\n\x0b\x0c\r \x85\xa0\u2000-\u200a\u2028\u2029\u202f\u205f"
_FAST_PRETOKEN = re.compile(
    "'(?i:[sdmt]|ll|ve|re)"
    f"|[^\r\n{_L}{_N}]?+[{_L}]++"
    f"|[{_N}]{{1,3}}+"
    f"| ?[^{_WS}{_L}{_N}]++[\r\n]*+"
    f"|[{_WS}]++\\Z"
    f"|[{_WS}]*[\r\n]"
    f"|[{_WS}]+(?![^{_WS}])"
    f"|[{_WS}]"
)
_SLOW_CHARS = re.compile(f"[^{_ranges(_fast_codes(None))}]+")
_PRETOKEN_COUNTS: dict[str, int] = {}
_PRETOKEN_CACHE_LIMIT = 500_000


# No cl100k pre-token holds a newline followed by a non-space character (the
# patterns only end with newlines), so token counts add up over the pieces of
# a text cut right after such newlines. Python's \s is a superset of the
# tokenizer's, so \S here is never tokenizer whitespace.


def _hard_boundary_before(text: str, lo: int, pos: int) -> int:
    """The last hard boundary in ``[lo, pos]`` (``lo`` if none)."""
    j = text.rfind("\n", lo, pos)
    while j >= 0:
        if not text[j + 1].isspace():
            return j + 1
        j = text.rfind("\n", lo, j)
    return lo


def _hard_boundary_after(text: str, pos: int) -> int:
    """The first hard boundary at or after ``pos`` (the text's end if none)."""
    j = text.find("\n", pos)
    while j >= 0 and j + 1 < len(text):
        if not text[j + 1].isspace():
            return j + 1
        j = text.find("\n", j + 1)
    return len(text)


def _cl100k_count(encode: Callable[[str], list[int]]) -> Callable[[str], int]:
    counts = _PRETOKEN_COUNTS
    get = counts.__getitem__

    def count_fast(text: str) -> int:
        parts = _FAST_PRETOKEN.findall(text)
        try:
            return sum(map(get, parts))
        except KeyError:
            if len(counts) > _PRETOKEN_CACHE_LIMIT:
                counts.clear()
            total = 0
            for p in parts:
                n = counts.get(p)
                if n is None:
                    # A pre-token encodes on its own exactly as inside the text.
                    n = counts[p] = len(encode(p))
                total += n
            return total

    findall = _FAST_PRETOKEN.findall
    slow_search = _SLOW_CHARS.search

    def count(text: str) -> int:
        if text.isascii() or slow_search(text) is None:
            try:  # (the fast path of count_fast, inlined: this runs per piece)
                return sum(map(get, findall(text)))
            except KeyError:
                return count_fast(text)
        # Encode only the lines (between hard boundaries) that hold other
        # characters; the stretches between them take the fast path.
        total = 0
        pos = 0
        n = len(text)
        for m in _SLOW_CHARS.finditer(text):
            if m.start() < pos:
                continue
            a = _hard_boundary_before(text, pos, m.start())
            b = _hard_boundary_after(text, m.end())
            if a > pos:
                total += count_fast(text[pos:a])
            total += len(encode(text[a:b]))
            pos = b
        if pos < n:
            total += count_fast(text[pos:])
        return total

    return count


def _default_counter() -> Callable[[str], int]:
    from docparse.text import encoding

    return _cl100k_count(encoding().encode_ordinary)


class SentenceSplitter:
    """Token-bounded chunks that prefer whole paragraphs and sentences.

    ``split_text`` returns exactly the chunks of
    ``llama_index.core.node_parser.SentenceSplitter`` built with the same
    arguments and ``tokenizer=docparse.text.encoding().encode`` (see the
    module docstring for the algorithm and the sentence rules).

    ``tokenizer`` is any callable returning a sequence per text (its length is
    the token count); the default counts cl100k tokens. ``secondary_chunking_regex``
    may be ``None`` to go straight from sentences to words.

    >>> SentenceSplitter(chunk_size=8, chunk_overlap=0).split_text(
    ...     "One short sentence. Another short one here. A third.")
    ['One short sentence.', 'Another short one here.', 'A third.']
    """

    __slots__ = (
        "_count",
        "_exact_counter",
        "_secondary",
        "_space_separator",
        "chunk_overlap",
        "chunk_size",
        "paragraph_separator",
        "secondary_chunking_regex",
        "separator",
    )

    def __init__(
        self,
        chunk_size: int = 1024,
        chunk_overlap: int = 200,
        separator: str = " ",
        paragraph_separator: str = DEFAULT_PARAGRAPH_SEPARATOR,
        secondary_chunking_regex: str | None = DEFAULT_CHUNKING_REGEX,
        tokenizer: Callable[[str], Sequence[object]] | None = None,
    ) -> None:
        if chunk_size <= 0:
            raise ValueError(f"chunk_size must be positive, got {chunk_size}")
        if chunk_overlap < 0:
            raise ValueError(f"chunk_overlap must be >= 0, got {chunk_overlap}")
        if chunk_overlap > chunk_size:
            raise ValueError(
                f"chunk_overlap ({chunk_overlap}) is larger than chunk_size ({chunk_size})"
            )
        self.chunk_size = chunk_size
        self.chunk_overlap = chunk_overlap
        self.separator = separator
        self.paragraph_separator = paragraph_separator
        self.secondary_chunking_regex = secondary_chunking_regex
        self._secondary = re.compile(secondary_chunking_regex) if secondary_chunking_regex else None
        # (ASCII whitespace only: no word can span it, for str.split and cl100k alike)
        self._space_separator = bool(paragraph_separator) and not paragraph_separator.strip(
            " \t\n\r\x0b\x0c"
        )
        if tokenizer is None:
            self._count = _default_counter()
            # cl100k allows a lower bound without encoding (_surely_too_long).
            self._exact_counter = False
        else:
            tok = tokenizer
            self._count = lambda s: len(tok(s))
            self._exact_counter = True

    def __repr__(self) -> str:
        return f"SentenceSplitter(chunk_size={self.chunk_size}, chunk_overlap={self.chunk_overlap})"

    def count_tokens(self, text: str) -> int:
        """Token count of ``text`` under this splitter's tokenizer."""
        return self._count(text)

    def split_text(self, text: str) -> list[str]:
        """Chunks of ``text`` (``[""]`` for the empty string, as LlamaIndex)."""
        if text == "":
            return [text]
        pieces: list[_Piece] = []
        self._split(text, 0, pieces)
        chunks = ("".join(p[0] for p in group).strip() for group in self._merge(pieces))
        return [c for c in chunks if c]

    def split_spans(self, text: str) -> list[tuple[int, int]]:
        """``(start, end)`` offsets in ``text`` of the chunks of :meth:`split_text`.

        Every chunk is a contiguous stretch of ``text`` (pieces are consecutive
        substrings and stripping only trims the ends), so ``text[start:end]``
        is the chunk. Chunks with overlap start before the previous one ends.
        """
        if text == "":
            return []
        pieces: list[_Piece] = []
        self._split(text, 0, pieces)
        spans = (_stripped_span(group) for group in self._merge(pieces))
        return [(s, e) for s, e in spans if e > s]

    # -- splitting -------------------------------------------------------

    def _surely_too_long(self, text: str) -> bool:
        """True when ``text`` certainly has more than ``chunk_size`` cl100k tokens.

        Every cl100k pre-token holds non-space characters of at most one
        whitespace-separated word (its patterns only carry whitespace at their
        edges), so a text has at least as many tokens as words. A text with
        more words than the chunk size needs no count; this skips encoding
        paragraphs and pages that will be split anyway.
        """
        if self._exact_counter or len(text) <= self.chunk_size:
            return False
        return _word_count(text) > self.chunk_size

    def _split(self, text: str, offset: int, out: list[_Piece], known_long: bool = False) -> None:
        """Append the pieces of ``text`` to ``out`` (``known_long``: already more than a chunk)."""
        cs = self.chunk_size
        paragraphs: list[tuple[str, int]] | None = None
        words: list[int] | None = None
        if not known_long:
            if self._space_separator and not self._exact_counter and len(text) > cs:
                # Word counts of the paragraphs add up to the text's (the
                # separator is whitespace): one pass serves both levels.
                paragraphs = _split_keep_separator(text, self.paragraph_separator)
                if len(paragraphs) > 1:
                    words = [_word_count(p) for p, _ in paragraphs]
                    known_long = sum(words) > cs
                else:
                    paragraphs = None
            if paragraphs is None:
                known_long = self._surely_too_long(text)
            if not known_long:
                n = self._count(text)
                if n <= cs:
                    out.append((text, offset, True, n))
                    return
        if paragraphs is not None:
            parts, is_sentence = paragraphs, True
        else:
            parts, is_sentence = self._split_once(text)
        count = self._count
        if len(parts) == 1:
            # A single indivisible piece above the chunk size is kept and
            # rejected by the merge step, as LlamaIndex does.
            part, start = parts[0]
            out.append((part, offset + start, is_sentence, count(part)))
            return
        # -1: certainly too long, not counted (the length test short-cuts the
        # common case of a short piece).
        if words is not None:
            counts = [
                -1 if len(p) > cs and w > cs else count(p)
                for (p, _), w in zip(parts, words, strict=True)
            ]
        else:
            too_long = self._surely_too_long
            counts = [-1 if len(p) > cs and too_long(p) else count(p) for p, _ in parts]
        for (part, start), n in zip(parts, counts, strict=True):
            if 0 <= n <= cs:
                out.append((part, offset + start, is_sentence, n))
            else:
                self._split(part, offset + start, out, known_long=True)

    def _split_once(self, text: str) -> tuple[list[tuple[str, int]], bool]:
        parts = _split_keep_separator(text, self.paragraph_separator)
        if len(parts) > 1:
            return parts, True
        starts = punkt_sentence_starts(text)
        if len(starts) > 1:
            ends = [*starts[1:], len(text)]
            return [(text[s:e], s) for s, e in zip(starts, ends, strict=True)], True
        if self._secondary is not None:
            parts = [(m.group(), m.start()) for m in self._secondary.finditer(text)]
            if len(parts) > 1:
                return parts, False
        parts = _split_keep_separator(text, self.separator)
        if len(parts) > 1:
            return parts, False
        return [(c, i) for i, c in enumerate(text)], False

    # -- merging ---------------------------------------------------------

    def _merge(self, pieces: list[_Piece]) -> list[list[_Piece]]:
        """Greedy merge of pieces into chunk groups (before stripping)."""
        cs = self.chunk_size
        overlap = self.chunk_overlap
        groups: list[list[_Piece]] = []
        cur: list[_Piece] = []
        cur_len = 0
        fresh = True  # no piece of the text added to `cur` yet (overlap only)
        i = 0
        while i < len(pieces):
            piece = pieces[i]
            if piece[3] > cs:
                raise ValueError(
                    f"a single indivisible piece has {piece[3]} tokens, more than chunk_size={cs}"
                )
            if not fresh and cur_len + piece[3] > cs:
                groups.append(cur)
                # The next chunk opens with the longest tail that fits the overlap.
                tail: list[_Piece] = []
                tail_len = 0
                for p in reversed(cur):
                    if tail_len + p[3] > overlap:
                        break
                    tail.append(p)
                    tail_len += p[3]
                tail.reverse()
                cur, cur_len, fresh = tail, tail_len, True
                continue
            if fresh and cur_len + piece[3] > cs:
                while cur and cur_len + piece[3] > cs:
                    cur_len -= cur.pop(0)[3]
            # A fresh chunk always takes its first piece; otherwise the piece
            # fits (LlamaIndex's separate non-sentence test can only close a
            # chunk that the size test above already closed).
            cur.append(piece)
            cur_len += piece[3]
            fresh = False
            i += 1
        if not fresh:
            groups.append(cur)
        return groups


def _stripped_span(pieces: list[_Piece]) -> tuple[int, int]:
    """Offsets of the joined pieces with surrounding whitespace trimmed (may be empty)."""
    text = "".join(p[0] for p in pieces)
    start = pieces[0][1]
    # Pieces are consecutive stretches of the text (sentence splitting drops
    # nothing but leading text, and the first sentence starts at 0).
    assert pieces[-1][1] + len(pieces[-1][0]) - start == len(text)
    left = len(text) - len(text.lstrip())
    right = len(text.rstrip())
    if right <= left:
        return (start, start)
    return (start + left, start + right)
