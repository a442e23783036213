"""Tests of the plain-text twin parser on excerpts of real Debian books."""

from __future__ import annotations

import collections
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from doc_invariants import check_invariants
from hypothesis import given, settings
from hypothesis import strategies as st

import docparse
from docparse.errors import CorruptDocumentError, DocparseError, EmptyDocumentError
from docparse.formats.txt import TxtConfig, TxtParser
from docparse.model import Document
from docparse.text import clean_text

BOOKS = {
    "debian_reference": "books/debian-reference-en/debian-reference-excerpt.en.txt",
    "fhs": "books/fhs-3.0/fhs-3.0-excerpt.txt",
    "developers_reference": "books/developers-reference/developers-reference-excerpt.txt",
}


def parse_text(tmp_path: Path, text: str, **config: Any) -> Document:
    path = tmp_path / "t.txt"
    path.write_text(text, encoding="utf-8")
    return TxtParser().parse(path, config or None)


@pytest.fixture(params=sorted(BOOKS))
def book(request: pytest.FixtureRequest, fixtures_dir: Path) -> tuple[str, Document]:
    name = str(request.param)
    return name, TxtParser().parse(fixtures_dir / BOOKS[name])


def test_golden_books(book: tuple[str, Document], golden: Callable[[str, Document], None]) -> None:
    name, doc = book
    golden(f"txt_{name}_excerpt", doc)


def test_books_invariants_round_trip_stable(book: tuple[str, Document], fixtures_dir: Path) -> None:
    name, doc = book
    check_invariants(doc)
    assert Document.from_dict(json.loads(json.dumps(doc.to_dict()))) == doc
    again = TxtParser().parse(fixtures_dir / BOOKS[name])
    assert [u.id for u in again.units] == [u.id for u in doc.units]


def test_debian_reference_sections_table_code(fixtures_dir: Path) -> None:
    doc = TxtParser().parse(fixtures_dir / BOOKS["debian_reference"])
    prompt = next(
        u for u in doc.units if u.text.startswith("You can gain the shell prompt under GUI")
    )
    assert prompt.section[:2] == ("Chapter 1. GNU/Linux tutorials", "1.1. Console basics")
    assert prompt.section[-1] == "1.1.2. The shell prompt under GUI"
    table = next(u for u in doc.units if u.kind == "table")
    assert table.table is not None
    assert table.table.rows[0] == ("package", "popcon", "size", "description")
    assert table.table.rows[1] == (
        "mc",
        "V:54, I:226",
        "1482",
        "A text-mode full-screen file manager",
    )
    assert table.table.caption == "Table 1.1. List of interesting text-mode program packages"
    caption = next(u for u in doc.units if u.kind == "caption")
    assert caption.related == (table.id,) and table.related == (caption.id,)
    code = [u for u in doc.units if u.kind == "code"]
    assert any(u.text == "# shutdown -h now" for u in code)
    multi = next(u for u in code if "\n" in u.raw)
    assert multi.text == clean_text(multi.raw)
    items = [u.text for u in doc.units if u.kind == "list_item"]
    assert "Keep It Short and Simple. (KISS)" in items


def test_fhs_outdented_headings_and_footnotes(fixtures_dir: Path) -> None:
    doc = TxtParser().parse(fixtures_dir / BOOKS["fhs"])
    heads = [u.section for u in doc.units if u.kind == "heading"]
    assert ("Chapter 2. The Filesystem", "Rationale") in heads
    assert any(
        h[-1] == "3.4. /bin : Essential user command binaries (for use by all users)" for h in heads
    )
    assert "FHS-compliant" in " ".join(u.text for u in doc.units)


def test_developers_reference_underlined(fixtures_dir: Path) -> None:
    doc = TxtParser().parse(fixtures_dir / BOOKS["developers_reference"])
    heads = [u.section for u in doc.units if u.kind == "heading"]
    assert ("Debian Developer's Reference",) in heads
    voting = next(h for h in heads if h[-1] == "3.2.3. Voting")
    assert voting[-2] == "3.2. Administrative Duties"
    joined = " ".join(u.text for u in doc.units)
    # A line-end hyphen in an address is real: joined without a space, kept.
    assert "debian-devel-announce@lists.debian.org" in joined


def test_api_detects_txt(fixtures_dir: Path) -> None:
    assert docparse.parse(fixtures_dir / BOOKS["fhs"]).format == "txt"


# --- rules on small inputs ----------------------------------------------------


def test_headings_paths_lists_code(tmp_path: Path) -> None:
    text = (
        "MY MANUAL\n\n"
        "Chapter 1. Start\n\n"
        "1.1 Install\n\n"
        "This paragraph is hard\nwrapped over three\nlines.\n\n"
        "  * first item that\n    wraps\n  * second item\n\n"
        "1.1.1. Details\n\n"
        "    $ make\n    $ make install\n\n"
        "Usage\n-----\n\n"
        "Use it.\n\n"
        "2. Next\n\nEnd.\n"
    )
    doc = parse_text(tmp_path, text)
    got = [(u.kind, u.text, u.section) for u in doc.units]
    assert got == [
        ("heading", "MY MANUAL", ("MY MANUAL",)),
        ("heading", "Chapter 1. Start", ("Chapter 1. Start",)),
        ("heading", "1.1 Install", ("Chapter 1. Start", "1.1 Install")),
        (
            "paragraph",
            "This paragraph is hard wrapped over three lines.",
            ("Chapter 1. Start", "1.1 Install"),
        ),
        ("list_item", "first item that wraps", ("Chapter 1. Start", "1.1 Install")),
        ("list_item", "second item", ("Chapter 1. Start", "1.1 Install")),
        ("heading", "1.1.1. Details", ("Chapter 1. Start", "1.1 Install", "1.1.1. Details")),
        ("code", "$ make $ make install", ("Chapter 1. Start", "1.1 Install", "1.1.1. Details")),
        ("heading", "Usage", ("Chapter 1. Start", "1.1 Install", "1.1.1. Details", "Usage")),
        ("paragraph", "Use it.", ("Chapter 1. Start", "1.1 Install", "1.1.1. Details", "Usage")),
        ("heading", "2. Next", ("2. Next",)),
        ("paragraph", "End.", ("2. Next",)),
    ]
    code = doc.units[7]
    assert code.raw == "    $ make\n    $ make install"


def test_dehyphenation(tmp_path: Path) -> None:
    text = (
        "A program runs. Another pro-\ngram runs as a well-\nknown daemon that is well-known.\n\n"
        "The FHS-\ncompliant tree and the co-\noperation.\n"
    )
    doc = parse_text(tmp_path, text)
    assert [u.text for u in doc.units] == [
        "A program runs. Another program runs as a well-known daemon that is well-known.",
        "The FHS-compliant tree and the co-operation.",
    ]


def test_numbered_list_is_not_heading(tmp_path: Path) -> None:
    doc = parse_text(tmp_path, "Steps:\n\n1. do this first\n\n2. then that.\n")
    assert [u.kind for u in doc.units] == ["paragraph", "list_item", "list_item"]


def test_code_detection_can_be_disabled(tmp_path: Path) -> None:
    doc = parse_text(tmp_path, "    $ ls -l\n    $ pwd\n", detect_code=False)
    assert all(u.kind != "code" for u in doc.units)


# --- bad input -------------------------------------------------------------------


def test_empty_and_blank(tmp_path: Path) -> None:
    for content in (b"", b"\n \n\t\n"):
        path = tmp_path / "e.txt"
        path.write_bytes(content)
        with pytest.raises(EmptyDocumentError):
            TxtParser().parse(path)


def test_binary_is_rejected(tmp_path: Path) -> None:
    path = tmp_path / "b.txt"
    path.write_bytes(b"\x00\x01\x02\xff" * 500)
    with pytest.raises(CorruptDocumentError):
        TxtParser().parse(path)


def test_cp1252_text(tmp_path: Path) -> None:
    path = tmp_path / "c.txt"
    path.write_bytes(
        "Caf\u00e9 cr\u00e8me \u2014 \u201cquoted\u201d na\u00efve text.\n".encode("cp1252")
    )
    doc = TxtParser().parse(path)
    assert doc.units[0].text == "Caf\u00e9 cr\u00e8me \u2014 \u201cquoted\u201d na\u00efve text."


def test_bad_encoding_option(tmp_path: Path) -> None:
    path = tmp_path / "c.txt"
    path.write_bytes(b"\xff\xfe\xfa")
    with pytest.raises(DocparseError):
        TxtParser().parse(path, TxtConfig(encoding="utf-8"))


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=400))
def test_arbitrary_text_never_crashes(tmp_path_factory: pytest.TempPathFactory, s: str) -> None:
    path = tmp_path_factory.mktemp("t") / "x.txt"
    path.write_text(s, encoding="utf-8", errors="surrogatepass")
    try:
        doc = TxtParser().parse(path)
    except DocparseError:
        return
    check_invariants(doc)
    # No word is lost or invented apart from rules, bullets and hyphen joins.
    assert len(doc.units) <= len(s.split("\n")) + 1


# --- the whole books -------------------------------------------------------------


@pytest.mark.corpus
def test_corpus_books(corpus_dir: Path) -> None:
    books = sorted((corpus_dir / "books").glob("*/*.txt"))
    assert books
    for path in books:
        doc = TxtParser().parse(path)
        check_invariants(doc)
        kinds = collections.Counter(u.kind for u in doc.units)
        assert kinds["heading"] >= 50 and kinds["paragraph"] >= 200 and kinds["list_item"] >= 50
        sections = {u.section for u in doc.units if u.section}
        assert len(sections) >= 50
        # Every numbered chapter-level heading of the body is in the path of some paragraph.
        assert any(len(u.section) >= 3 for u in doc.units if u.kind == "paragraph")


# --- book conventions: numbering, code, CJK ------------------------------------

BOOK = """\
Chapter 4. Authentication

4.1. control

    The control file says what the package is made of, in one long line
    wrapped at the usual width of the book so that it looks like prose.

4.2. compat

    The compat level of the package, wrapped like the paragraph above it
    so that the base indentation of the book is four spaces throughout.

4.2.1. Expansion of usable storage space by mounting another
partition

    A heading wrapped onto a second line at the same indent as its number.

2022-10-08 03:52:48 UTC

    cat >~/.sbuildrc << 'EOF'
    ##########################
    # PERL MAGIC
    ##########################
    1;
    EOF

      1 Source: gentoo
      2 Section: misc
      3 Priority: optional
      4 Build-Depends: debhelper-compat (= 13)

4.3. sudo

1. It unpacks the tarball in an empty temporary directory by doing

    More text of the section, long enough to look like a paragraph of prose.
"""


def test_book_numbering_code_and_timestamps(tmp_path: Path) -> None:
    doc = parse_text(tmp_path, BOOK)
    headings = [u.text for u in doc.units if u.kind == "heading"]
    # Lower-case titles continue the numbering; a wrapped title is one heading;
    # a timestamp, a command over "####" and a comment banner are not headings;
    # a "1." that goes back in the numbering is not either.
    assert headings == [
        "Chapter 4. Authentication",
        "4.1. control",
        "4.2. compat",
        "4.2.1. Expansion of usable storage space by mounting another partition",
        "4.3. sudo",
    ]
    code = [u.raw for u in doc.units if u.kind == "code"]
    assert any("PERL MAGIC" in c and "cat >~/.sbuildrc" in c for c in code)
    assert any("1 Source: gentoo" in c and "4 Build-Depends" in c for c in code)
    assert not any(u.kind == "list_item" and "Source" in u.text for u in doc.units)
    sections = {u.text: u.section for u in doc.units}
    assert sections["2022-10-08 03:52:48 UTC"][-1].startswith("4.2.1.")


def test_numbered_toc_titles_are_headings_with_a_final_stop(tmp_path: Path) -> None:
    text = (
        "Contents\n\n    4.4. Specific Options\n    4.5. /usr/include : Standard include files.\n\n"
        "4.4. Specific Options\n\n   Some options, in a sentence that is long enough.\n\n"
        "4.5. /usr/include : Standard include files.\n\n   The include files, in a sentence.\n"
    )
    doc = parse_text(tmp_path, text)
    assert [u.text for u in doc.units if u.kind == "heading"][-1].startswith("4.5. /usr/include")


def test_chinese_book_wraps_words_and_headings(fixtures_dir: Path) -> None:
    doc = TxtParser().parse(
        fixtures_dir / "books/debian-reference-zh-cn/debian-reference-excerpt.zh-cn.txt"
    )
    check_invariants(doc)
    headings = [u.section[-1] for u in doc.units if u.kind == "heading"]
    assert "第 1 章 GNU/Linux 教程" in headings
    numbered = [h.split()[0] for h in headings if h.startswith("1.1.") and h[4:5].isdigit()]
    assert numbered == [f"1.1.{i}." for i in range(1, 14)]  # "1.1.12. sudo 配置" too
    cjk = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef\u3000-\u303f"
    wrapped = re.compile(f"[{cjk}]\n\\s*[{cjk}]")
    prose = [u for u in doc.units if u.kind in ("paragraph", "list_item")]
    joined = [u for u in prose if wrapped.search(u.raw)]
    assert len(joined) >= 20
    spaced = re.compile(f"[{cjk}] [{cjk}]")
    for u in joined:
        # A wrap between two CJK characters is not a space; spaces kept in the source are.
        assert len(spaced.findall(u.text)) <= len(spaced.findall(u.raw)), u.text
    unit = next(u for u in prose if u.text.startswith("我认为学习一个计算机系统"))
    n_cjk = len(re.findall("[\u4e00-\u9fff]", unit.text))
    assert unit.n_words == n_cjk  # every Han character one word, punctuation none
    assert "是有帮助的" in unit.text
