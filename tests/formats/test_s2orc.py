"""S2ORC / doc2json parser: both layouts, invariants, sections, tables, bad JSON."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from doc_invariants import check_invariants
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import docparse
from docparse.errors import (
    CorruptDocumentError,
    DocparseError,
    EmptyDocumentError,
    ParseError,
    UnsafeInputError,
)
from docparse.formats.s2orc import S2orcConfig, S2orcParser, _Sections
from docparse.model import Document
from docparse.text import clean_text

DOC_IDS = ("2020.acl-main.207", "24e6b80e338a4e543de6b49cada07156c9149d22", "N18-3011")
TAG = re.compile(r"</?[A-Za-z][\w.:-]*(\s[^<>]*)?/?>")


def parse(path: Path, **options: Any) -> Document:
    return S2orcParser().parse(path, S2orcConfig(**options))


def fixture_path(fixtures_dir: Path, doc_id: str) -> Path:
    (path,) = sorted((fixtures_dir / "s2orc" / doc_id).glob("*.json"))
    return path


def container(data: dict[str, Any]) -> dict[str, Any]:
    inner = data.get("pdf_parse")
    return inner if isinstance(inner, dict) else data


def n_source_tables(data: dict[str, Any]) -> int:
    entries = container(data).get("ref_entries") or {}
    return sum(1 for e in entries.values() if (e.get("type_str") or e.get("type")) == "table")


def write_json(tmp_path: Path, data: Any, name: str = "x.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def para(text: str, section: str = "", sec_num: str | None = None, **spans: Any) -> dict[str, Any]:
    return {
        "text": text,
        "cite_spans": spans.get("cite_spans", []),
        "ref_spans": spans.get("ref_spans", []),
        "eq_spans": spans.get("eq_spans", []),
        "section": section,
        "sec_num": sec_num,
    }


@pytest.mark.parametrize("doc_id", DOC_IDS)
def test_golden_document(fixtures_dir: Path, golden: Any, doc_id: str) -> None:
    golden(f"s2orc_{doc_id}", parse(fixture_path(fixtures_dir, doc_id)))


@pytest.mark.parametrize("doc_id", DOC_IDS)
def test_round_trip_and_invariants(fixtures_dir: Path, doc_id: str) -> None:
    path = fixture_path(fixtures_dir, doc_id)
    doc = parse(path)
    assert Document.from_json(doc.to_json()) == doc
    check_invariants(doc)
    assert [u.id for u in parse(path).units] == [u.id for u in doc.units]
    assert doc.format == "s2orc" and doc.backend == "s2orc"


def check_counts(doc: Document, data: dict[str, Any]) -> None:
    c = container(data)
    kinds = Counter(u.kind for u in doc.units)
    assert kinds["table"] == n_source_tables(data)
    # Every non-empty body/back paragraph is exactly one unit.
    n_paras = sum(1 for p in c["body_text"] + c.get("back_matter", []) if clean_text(p["text"]))
    assert kinds["paragraph"] + kinds["footnote"] + kinds["equation"] == n_paras
    assert not any(TAG.search(u.text) for u in doc.units)
    assert kinds["title"] == 1 and kinds["abstract"] >= 1


@pytest.mark.parametrize("doc_id", DOC_IDS)
def test_counts_match_source(fixtures_dir: Path, doc_id: str) -> None:
    path = fixture_path(fixtures_dir, doc_id)
    check_counts(parse(path), json.loads(path.read_text(encoding="utf-8")))


@pytest.mark.corpus
def test_every_corpus_document(corpus_dir: Path) -> None:
    paths = sorted((corpus_dir / "s2orc").glob("*/*.json"))
    assert paths
    for path in paths:
        check_counts(parse(path), json.loads(path.read_text(encoding="utf-8")))


@pytest.mark.parametrize("doc_id", DOC_IDS)
def test_cite_spans_link_to_references(fixtures_dir: Path, doc_id: str) -> None:
    path = fixture_path(fixtures_dir, doc_id)
    data = json.loads(path.read_text(encoding="utf-8"))
    c = container(data)
    doc = parse(path)
    refs = {r.id: r for r in doc.references}
    assert set(refs) == set(c["bib_entries"])
    spans = [
        s["ref_id"]
        for p in c["abstract"] + c["body_text"] + c.get("back_matter", [])
        for s in p["cite_spans"]
        if s.get("ref_id")
    ]
    cites = [a.target for u in doc.units for a in u.annotations if a.kind == "cite"]
    assert Counter(cites) == Counter(spans)
    assert all(t in refs for t in cites)
    for key, bib in c["bib_entries"].items():
        assert refs[key].title == clean_text(bib["title"]) or not bib["title"]
        assert len(refs[key].authors) <= len(bib["authors"])


def test_ref_spans_reach_tables_and_captions(fixtures_dir: Path) -> None:
    doc = parse(fixture_path(fixtures_dir, "24e6b80e338a4e543de6b49cada07156c9149d22"))
    tables = [u for u in doc.units if u.kind == "table"]
    assert {u.table.label for u in tables if u.table} == {"TABREF0", "TABREF1", "TABREF2"}
    for t in tables:
        (cap_id,) = t.related
        assert doc.unit(cap_id).kind == "caption"
        assert t.id in doc.unit(cap_id).related
    # TABREF1 sits right after the first paragraph that refers to it.
    order = {u.table.label: u.order for u in tables if u.table}
    first = min(u.order for u in doc.units if any(a.target == "TABREF1" for a in u.annotations))
    assert order["TABREF1"] == first + 1


def test_api_detects_json(fixtures_dir: Path) -> None:
    doc = docparse.parse(fixture_path(fixtures_dir, "N18-3011"))
    assert doc.format == "s2orc"


# --------------------------------------------------------------------------- structure


def test_section_nesting_from_numbers() -> None:
    s = _Sections()
    seq = [
        (["Introduction"], "1"),
        (["Model 2.1 Overview"], "2"),
        (["Background"], "2.2"),
        (["Document Representation"], None),
        (["Objective"], "2.3"),
        (["Framework"], "3"),
        (["Classification"], "3.1"),
        (["Classification"], "3.1"),
        (["Model", "Details"], "4.1"),
        (["MATERIALS"], None),
        (["RESULTS"], None),
    ]
    assert [s.path(t, n) for t, n in seq] == [
        ("1 Introduction",),
        ("2 Model", "2.1 Overview"),
        ("2 Model", "2.2 Background"),
        ("2 Model", "Document Representation"),
        ("2 Model", "2.3 Objective"),
        ("3 Framework",),
        ("3 Framework", "3.1 Classification"),
        ("3 Framework", "3.1 Classification"),
        ("Model", "4.1 Details"),
        ("Model", "MATERIALS"),
        ("Model", "RESULTS"),
    ]


def pdf_parse_layout(
    body: list[dict[str, Any]],
    *,
    abstract: list[dict[str, Any]] | None = None,
    bib: dict[str, Any] | None = None,
    refs: dict[str, Any] | None = None,
    back: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    return {
        "paper_id": "p",
        "title": "A Title",
        "abstract": "flat abstract",
        "pdf_parse": {
            "abstract": abstract if abstract is not None else [para("Abs.", "Abstract")],
            "body_text": body,
            "back_matter": back or [],
            "bib_entries": bib or {},
            "ref_entries": refs or {},
        },
    }


def top_level_layout(data: dict[str, Any]) -> dict[str, Any]:
    inner = data["pdf_parse"]
    return {
        "paper_id": "p",
        "metadata": {"title": data["title"], "authors": [], "year": "2020"},
        **{k: inner[k] for k in ("abstract", "body_text", "back_matter", "bib_entries")},
        "ref_entries": {
            k: {**{kk: vv for kk, vv in v.items() if kk != "type_str"}, "type": v["type_str"]}
            for k, v in inner["ref_entries"].items()
        },
    }


def test_tables_figures_equations_footnotes(tmp_path: Path) -> None:
    body = [
        para("Intro text.", ""),
        para(
            "We cite [1] and see Table 1 and FORMULA0 here.",
            "Method",
            "2",
            cite_spans=[{"start": 8, "end": 11, "text": "[1]", "ref_id": "BIBREF0"}],
            ref_spans=[{"start": 20, "end": 27, "text": "Table 1", "ref_id": "TABREF0"}],
            eq_spans=[{"start": 32, "end": 40, "text": "FORMULA0", "raw_str": "x = y"}],
        ),
        para(
            "EQUATION",
            "Method",
            "2",
            eq_spans=[
                {"start": 0, "end": 8, "text": "EQUATION", "raw_str": "a + b", "eq_num": "(1)"}
            ],
        ),
        para("A page note.", ""),
    ]
    refs = {
        "TABREF0": {
            "text": "Scores.",
            "type_str": "table",
            "content": "<table><tr><th>M</th><th colspan='2'>F1</th></tr>"
            "<tr><td>a</td><td>1</td><td>2</td></tr></table>",
        },
        "TABREF1": {"text": "Empty table.", "type_str": "table", "content": "<table/>"},
        "FIGREF0": {"text": "A figure.", "type_str": "figure"},
    }
    bib = {
        "BIBREF0": {
            "ref_id": "b0",
            "title": "Paper",
            "authors": [{"first": "Ann", "middle": ["B"], "last": "Lee", "suffix": ""}],
            "year": 2019,
            "other_ids": {"DOI": ["10.1/x"], "PubMed": ["123"]},
        }
    }
    back = [para("Thanks.", "Acknowledgements"), para("Appendix text.", "annex")]
    data = pdf_parse_layout(body, bib=bib, refs=refs, back=back)
    doc = parse(write_json(tmp_path, data))
    got = [(u.kind, u.section, u.text) for u in doc.units]
    assert got == [
        ("title", (), "A Title"),
        ("abstract", ("Abstract",), "Abs."),
        ("paragraph", (), "Intro text."),
        ("heading", ("2 Method",), "2 Method"),
        ("paragraph", ("2 Method",), "We cite [1] and see Table 1 and x = y here."),
        ("table", ("2 Method",), "M F1 a 1 2"),
        ("caption", ("2 Method",), "Scores."),
        ("equation", ("2 Method",), "a + b (1)"),
        ("footnote", (), "A page note."),
        ("table", ("2 Method",), ""),  # no cells: the caption is not counted twice
        ("caption", ("2 Method",), "Empty table."),
        ("caption", ("2 Method",), "A figure."),
        ("heading", ("Acknowledgements",), "Acknowledgements"),
        ("paragraph", ("Acknowledgements",), "Thanks."),
        ("paragraph", ("annex",), "Appendix text."),
    ]
    table = doc.units[5].table
    assert table is not None
    assert table.rows == (("M", "F1", ""), ("a", "1", "2"))
    assert table.n_header_rows == 1 and table.label == "TABREF0" and table.caption == "Scores."
    assert {(a.kind, a.target, a.text) for a in doc.units[4].annotations} == {
        ("cite", "BIBREF0", "[1]"),
        ("ref", "TABREF0", "Table 1"),
    }
    assert doc.references[0].to_dict() == {
        "id": "BIBREF0",
        "title": "Paper",
        "authors": ["Lee Ann B"],
        "year": "2019",
        "doi": "10.1/x",
        "pmid": "123",
    }
    # The same content in the S2ORC 20210101 top-level layout parses the same.
    doc2 = parse(write_json(tmp_path, top_level_layout(data), "y.json"))
    assert [(u.kind, u.section, u.text) for u in doc2.units] == got


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("content", "error", "words"),
    [
        (b"", EmptyDocumentError, "empty"),
        (b" \n ", EmptyDocumentError, "whitespace"),
        (b'{"a": 1}', ParseError, "no body_text"),
        (b"[1, 2, 3]", ParseError, "found a list"),
        (b'"just a string"', ParseError, "found a str"),
        (b'{"body_text": [1, 2]', CorruptDocumentError, "invalid JSON"),
        (b"{'single': 'quotes'}", CorruptDocumentError, "invalid JSON"),
        (b"\xff\xfe\x00garbage", CorruptDocumentError, "UTF-8"),
        (b"[" * 200_000 + b"]" * 200_000, CorruptDocumentError, "nested too deeply"),
        (b'{"body_text": "not a list"}', ParseError, "not a list"),
        (b'{"body_text": [42]}', ParseError, "body_text[0]"),
        (b'{"body_text": [{"text": 5}]}', ParseError, "body_text[0].text"),
        (b'{"pdf_parse": {"body_text": {"x": 1}}}', ParseError, "no body_text"),
    ],
)
def test_bad_json_raises_typed_errors(
    tmp_path: Path, content: bytes, error: type[DocparseError], words: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    with pytest.raises(error) as info:
        parse(path)
    assert info.value.path == str(path)
    assert words in str(info.value)


def test_bad_json_through_api(tmp_path: Path) -> None:
    path = write_json(tmp_path, {"a": 1})
    with pytest.raises(docparse.DocparseError, match="not S2ORC JSON"):
        docparse.parse(path, format="s2orc")


def test_max_bytes(tmp_path: Path) -> None:
    path = write_json(tmp_path, pdf_parse_layout([para("x " * 2000, "S")]))
    with pytest.raises(UnsafeInputError):
        parse(path, max_bytes=1000)


def test_malformed_spans_are_ignored(tmp_path: Path) -> None:
    body = [
        para(
            "Text FORMULA0.",
            "S",
            cite_spans=[{"start": "x"}, "junk", {"ref_id": None, "text": "[2]"}],
            ref_spans=None,
            eq_spans=[{"start": 5, "end": 999, "raw_str": "no"}, {"start": 5, "end": 13}],
        )
    ]
    doc = parse(write_json(tmp_path, pdf_parse_layout(body)))
    (p,) = [u for u in doc.units if u.kind == "paragraph"]
    assert p.text == "Text ." and p.annotations == ()


# --------------------------------------------------------------------------- properties

_WORDS = st.text(alphabet="abcdefgh ", min_size=0, max_size=40)
_SECTION = st.sampled_from(["", "Intro", "Method", "Results"])
_NUM = st.sampled_from([None, "1", "2", "2.1", "3"])


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    paras=st.lists(st.tuples(_WORDS, _SECTION, _NUM), min_size=1, max_size=12),
)
def test_every_paragraph_once_in_either_layout(
    tmp_path: Path, paras: list[tuple[str, str, str | None]]
) -> None:
    body = [para(text, section, num if section else None) for text, section, num in paras]
    data = pdf_parse_layout(body)
    doc = parse(write_json(tmp_path, data))
    content = [u.text for u in doc.units if u.kind in ("paragraph", "footnote")]
    assert content == [clean_text(t) for t, _, _ in paras if clean_text(t)]
    for u in doc.units:
        if u.kind == "heading":
            assert u.section and u.section[-1] == u.text
    check_invariants(doc)
    doc2 = parse(write_json(tmp_path, top_level_layout(data), "y.json"))
    assert [(u.kind, u.text, u.section) for u in doc2.units] == [
        (u.kind, u.text, u.section) for u in doc.units
    ]


_JSON_LEAF = st.one_of(
    st.none(), st.booleans(), st.integers(-5, 50), st.text(max_size=12), st.floats(allow_nan=False)
)
_JSON = st.recursive(
    _JSON_LEAF,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)
_PARA_KEYS = ("text", "cite_spans", "ref_spans", "eq_spans", "section", "sec_num")
_SPAN = st.fixed_dictionaries(
    {},
    optional={
        "start": _JSON_LEAF,
        "end": _JSON_LEAF,
        "text": _JSON_LEAF,
        "ref_id": st.one_of(_JSON_LEAF, st.sampled_from(["BIBREF0", "TABREF0", "FIGREF0"])),
        "raw_str": _JSON_LEAF,
        "latex": _JSON_LEAF,
    },
)
_PARA = st.fixed_dictionaries(
    {},
    optional={
        "text": st.one_of(st.text(max_size=30), _JSON_LEAF),
        "cite_spans": st.one_of(st.lists(_SPAN, max_size=3), _JSON),
        "ref_spans": st.one_of(st.lists(_SPAN, max_size=3), _JSON),
        "eq_spans": st.one_of(st.lists(_SPAN, max_size=3), _JSON),
        "section": st.one_of(st.text(max_size=10), st.lists(_JSON, max_size=3), _JSON_LEAF),
        "sec_num": st.one_of(st.sampled_from(["1", "2.1", "3."]), _JSON_LEAF),
    },
)
_ENTRY = st.fixed_dictionaries(
    {},
    optional={
        "text": _JSON_LEAF,
        "type_str": st.sampled_from(["table", "figure", "other"]),
        "type": st.sampled_from(["table", "figure"]),
        "content": st.one_of(
            st.sampled_from(["<table><tr><td rowspan='x'>a</td></tr></table>", "<table/>", "<"]),
            _JSON_LEAF,
        ),
        "table": _JSON,
    },
)
_DOC = st.fixed_dictionaries(
    {"body_text": st.one_of(st.lists(_PARA, max_size=5), _JSON)},
    optional={
        "title": _JSON_LEAF,
        "metadata": _JSON,
        "abstract": st.one_of(st.lists(_PARA, max_size=2), _JSON),
        "back_matter": st.one_of(st.lists(_PARA, max_size=2), _JSON),
        "bib_entries": st.one_of(st.dictionaries(st.sampled_from(["BIBREF0", "b1"]), _JSON), _JSON),
        "ref_entries": st.one_of(
            st.dictionaries(st.sampled_from(["TABREF0", "FIGREF0", "X"]), _ENTRY), _JSON
        ),
    },
)


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=_DOC, nested=st.booleans())
def test_arbitrary_s2orc_shaped_json_parses_or_raises_typed_error(
    tmp_path: Path, data: dict[str, Any], nested: bool
) -> None:
    doc_data: dict[str, Any] = {"pdf_parse": data} if nested else data
    path = write_json(tmp_path, doc_data)
    try:
        doc = parse(path)
    except DocparseError as exc:
        assert exc.path == str(path)
        return
    check_invariants(doc)
    assert Document.from_json(doc.to_json()) == doc


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(content=st.binary(max_size=200))
def test_arbitrary_bytes_parse_or_raise_typed_error(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "fuzz.json"
    path.write_bytes(content)
    try:
        parse(path)
    except DocparseError as exc:
        assert exc.path == str(path)
