"""PMC JATS parser: real articles, invariants, structure, hostile XML."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from doc_invariants import check_invariants
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree

import docparse
from docparse.errors import (
    CorruptDocumentError,
    DocparseError,
    EmptyDocumentError,
    ParseError,
    UnsafeInputError,
)
from docparse.formats.jats import JatsConfig, JatsParser, cells_to_table, safe_xml_parser
from docparse.model import Document
from docparse.text import clean_text

PMC_IDS = ("PMC3166277", "PMC3460867", "PMC5828200", "PMC6398430")
#: ``p`` elements under ``body`` that do not become paragraph units: captions
#: and notes of floats, list items, footnotes and quotes have their own kinds.
NOT_PARAGRAPH = frozenset(
    {
        "table-wrap",
        "fig",
        "supplementary-material",
        "list",
        "def-list",
        "fn",
        "disp-quote",
        "caption",
        "table-wrap-foot",
    }
)
TAG = re.compile(r"</?[A-Za-z][\w.:-]*(\s[^<>]*)?/?>|&[a-z]+;")


def parse(path: Path, **options: Any) -> Document:
    return JatsParser().parse(path, JatsConfig(**options))


def fixture_path(fixtures_dir: Path, pmcid: str) -> Path:
    (path,) = sorted((fixtures_dir / "pmc" / pmcid).glob("*.nxml"))
    return path


def write(tmp_path: Path, body: str, name: str = "a.nxml", doctype: str = "") -> Path:
    path = tmp_path / name
    path.write_text(
        '<?xml version="1.0"?>\n' + doctype + "\n<article>" + body + "</article>", encoding="utf-8"
    )
    return path


def article(body: str = "", front: str = "", back: str = "") -> str:
    return (
        f"<front><article-meta><title-group><article-title>T</article-title></title-group>"
        f"{front}</article-meta></front><body>{body}</body><back>{back}</back>"
    )


def own_text(el: Any) -> str:
    """Text of ``el`` without the floats, lists and notes it anchors."""
    parts = [el.text or ""]
    for child in el:
        if child.tag not in NOT_PARAGRAPH and child.tag not in ("table-wrap-group", "fig-group"):
            parts.append(own_text(child))
        parts.append(child.tail or "")
    return "".join(parts)


def body_paragraph_count(path: Path) -> int:
    """``//body//p`` minus the ``p`` inside floats, lists, notes and quotes,
    and minus ``p`` that only wrap a float (``<p><fig>...</fig></p>``)."""
    root = etree.parse(str(path), safe_xml_parser()).getroot()
    n = 0
    for body in root.iter("body"):
        for p in body.iter("p"):
            if any(a.tag in NOT_PARAGRAPH for a in p.iterancestors()):
                continue
            if own_text(p).strip():
                n += 1
    return n


def body_paragraph_units(doc: Document, path: Path) -> int:
    """Paragraph units whose source ``p`` sits in ``body`` (split ``p`` count twice)."""
    root = etree.parse(str(path), safe_xml_parser()).getroot()
    back_raw = {
        etree.tostring(p, encoding="unicode", with_tail=False)
        for back in root.iter("back")
        for p in back.iter("p")
    }
    return sum(1 for u in doc.units if u.kind == "paragraph" and u.raw not in back_raw)


def count_measures(doc: Document, path: Path) -> dict[str, int]:
    root = etree.parse(str(path), safe_xml_parser()).getroot()
    return {
        "table_wrap": sum(1 for _ in root.iter("table-wrap")),
        "table_units": sum(1 for u in doc.units if u.kind == "table"),
        "body_p": body_paragraph_count(path),
        "body_paragraph_units": body_paragraph_units(doc, path),
        "units_with_markup": sum(1 for u in doc.units if TAG.search(u.text)),
    }


# --------------------------------------------------------------------------- real articles


@pytest.mark.parametrize("pmcid", PMC_IDS)
def test_golden_document(fixtures_dir: Path, golden: Any, pmcid: str) -> None:
    doc = parse(fixture_path(fixtures_dir, pmcid))
    golden(f"jats_{pmcid}", doc)


@pytest.mark.parametrize("pmcid", PMC_IDS)
def test_round_trip_and_invariants(fixtures_dir: Path, pmcid: str) -> None:
    path = fixture_path(fixtures_dir, pmcid)
    doc = parse(path)
    assert Document.from_json(doc.to_json()) == doc
    check_invariants(doc)
    again = parse(path)
    assert [u.id for u in again.units] == [u.id for u in doc.units]
    assert doc.format == "jats" and doc.backend == "jats"


@pytest.mark.parametrize("pmcid", PMC_IDS)
def test_counts_match_source(fixtures_dir: Path, pmcid: str) -> None:
    path = fixture_path(fixtures_dir, pmcid)
    m = count_measures(parse(path), path)
    assert m["table_units"] == m["table_wrap"]
    assert abs(m["body_paragraph_units"] - m["body_p"]) <= 0.05 * m["body_p"]
    assert m["units_with_markup"] == 0


@pytest.mark.corpus
def test_every_corpus_article(corpus_dir: Path) -> None:
    paths = sorted((corpus_dir / "pmc").glob("*/*.nxml"))
    assert paths
    for path in paths:
        doc = parse(path)
        m = count_measures(doc, path)
        assert m["table_units"] == m["table_wrap"], path
        assert abs(m["body_paragraph_units"] - m["body_p"]) <= 0.05 * m["body_p"], path
        assert m["units_with_markup"] == 0, path


@pytest.mark.parametrize("pmcid", PMC_IDS)
def test_citations_link_to_references(fixtures_dir: Path, pmcid: str) -> None:
    path = fixture_path(fixtures_dir, pmcid)
    doc = parse(path)
    root = etree.parse(str(path), safe_xml_parser()).getroot()
    xref_ids = [
        rid
        for x in root.iter("xref")
        if x.get("ref-type") == "bibr"
        for rid in x.get("rid").split()
    ]
    refs = {r.id: r for r in doc.references}
    cites = [a for u in doc.units for a in u.annotations if a.kind == "cite"]
    # Every bibr xref in units we keep (front matter aside) is an annotation.
    assert Counter(a.target for a in cites) <= Counter(xref_ids)
    assert len(cites) >= 0.9 * len(xref_ids)
    assert all(a.target in refs for a in cites)
    assert all(a.text for a in cites)  # visible citation text kept
    # Reference fields come from the source ref-list.
    for ref_el in root.iter("ref"):
        ref = refs[ref_el.get("id")]
        doi = ref_el.find(".//pub-id[@pub-id-type='doi']")
        pmid = ref_el.find(".//pub-id[@pub-id-type='pmid']")
        if doi is not None:
            assert ref.doi == doi.text.strip()
        else:  # a DOI may also come from an ext-link of the citation
            assert ref.doi is None or ref.doi in etree.tostring(ref_el, encoding="unicode")
        assert ref.pmid == (pmid.text.strip() if pmid is not None else None)
        title = ref_el.find(".//article-title")
        if title is not None:
            assert ref.title == clean_text("".join(title.itertext()))
        groups = ref_el.findall(".//person-group[@person-group-type='author']")
        names = [n for g in groups for n in g.iter("name", "string-name", "collab")]
        if not ref_el.findall(".//person-group"):
            names = list(ref_el.iter("name", "string-name", "collab"))
        assert len(ref.authors) == len(names)


def test_ref_annotations_reach_tables(fixtures_dir: Path) -> None:
    doc = parse(fixture_path(fixtures_dir, "PMC6398430"))
    tables = {u.table.label: u for u in doc.units if u.table is not None}
    refs = [a.target for u in doc.units for a in u.annotations if a.kind == "ref"]
    assert {"T1", "T2", "T3", "T4"} <= set(refs)
    assert set(tables) == {"T1", "T2", "T3", "T4"}
    t1 = tables["T1"].table
    assert t1 is not None and t1.caption and t1.caption.startswith("Table 1")
    assert t1.n_header_rows == 1 and len(t1.footnotes) == 2


def test_api_detects_nxml(fixtures_dir: Path) -> None:
    path = fixture_path(fixtures_dir, "PMC5828200")
    doc = docparse.parse(path)
    assert doc.format == "jats"
    assert doc.units[0].kind == "title"


# --------------------------------------------------------------------------- structure


def test_sections_headings_and_inline_markup(tmp_path: Path) -> None:
    body = (
        "<sec id='s1'><label>1</label><title>Intro</title>"
        "<p>The <italic>E. coli</italic> cell<sup>2</sup> grows "
        "[<xref ref-type='bibr' rid='B1 B2'>1,2</xref>] see "
        "<ext-link xlink:href='http://x.org' xmlns:xlink='http://www.w3.org/1999/xlink'>site</ext-link>"
        " and <xref ref-type='fig' rid='F1'>Figure 1</xref>.</p>"
        "<sec><title>Deeper</title><p>Inner<break/>text &amp; more.</p></sec></sec>"
    )
    back = (
        "<ack><p>Thanks.</p></ack><ref-list><ref id='B1'><element-citation>"
        "<person-group person-group-type='author'><name><surname>Wang</surname>"
        "<given-names>IN</given-names></name></person-group><article-title>Lysis</article-title>"
        "<year>2006</year><pub-id pub-id-type='doi'>10.1/x</pub-id></element-citation></ref>"
        "<ref id='B2'><mixed-citation>Some book, 1999.</mixed-citation></ref></ref-list>"
    )
    doc = parse(write(tmp_path, article(body, back=back)))
    kinds = [(u.kind, u.section, u.text) for u in doc.units]
    assert kinds == [
        ("title", (), "T"),
        ("heading", ("1 Intro",), "1 Intro"),
        (
            "paragraph",
            ("1 Intro",),
            "The E. coli cell2 grows [1,2] see site and Figure 1.",
        ),
        ("heading", ("1 Intro", "Deeper"), "Deeper"),
        ("paragraph", ("1 Intro", "Deeper"), "Inner text & more."),
        ("paragraph", ("Acknowledgements",), "Thanks."),
    ]
    anns = {(a.kind, a.target, a.text) for a in doc.units[2].annotations}
    assert anns == {
        ("cite", "B1", "1,2"),
        ("cite", "B2", "1,2"),
        ("url", "http://x.org", "site"),
        ("ref", "F1", "Figure 1"),
    }
    assert doc.references[0].to_dict() == {
        "id": "B1",
        "title": "Lysis",
        "authors": ["Wang IN"],
        "year": "2006",
        "doi": "10.1/x",
        "pmid": None,
    }
    assert doc.references[1].title == "Some book, 1999."
    assert doc.references[1].year == "1999"


def test_table_wrap_cells_spans_caption_footnotes(tmp_path: Path) -> None:
    body = (
        "<sec><title>R</title><p>See <xref ref-type='table' rid='T9'>Table 9</xref>.</p>"
        "<table-wrap id='T9'><label>Table 9</label><caption><title>Scores.</title>"
        "<p>Higher is better.</p></caption><table><thead><tr><th rowspan='2'>Model</th>"
        "<th colspan='2'>F1</th></tr><tr><th>dev</th><th>test</th></tr></thead>"
        "<tbody><tr><td>BM25<xref ref-type='table-fn' rid='n1'>a</xref></td><td>0.4</td>"
        "<td>0.5</td></tr></tbody></table><table-wrap-foot><fn id='n1'><label>a</label>"
        "<p>Baseline.</p></fn></table-wrap-foot></table-wrap></sec>"
    )
    doc = parse(write(tmp_path, article(body)))
    (table_unit,) = [u for u in doc.units if u.kind == "table"]
    table = table_unit.table
    assert table is not None
    assert table.rows == (("Model", "F1", ""), ("", "dev", "test"), ("BM25a", "0.4", "0.5"))
    assert table.n_header_rows == 2
    assert {(s.row, s.col, s.row_span, s.col_span) for s in table.spans} == {
        (0, 0, 2, 1),
        (0, 1, 1, 2),
    }
    assert table.label == "T9"
    assert table.caption == "Table 9 Scores. Higher is better."
    assert table.footnotes == ("a Baseline.",)
    assert table_unit.text == "Model F1 dev test BM25a 0.4 0.5"
    related = {doc.unit(r).kind: doc.unit(r) for r in table_unit.related}
    assert set(related) == {"caption", "footnote"}
    assert related["caption"].text == "Table 9 Scores. Higher is better."
    assert table_unit.id in related["caption"].related
    assert ("footnote", "n1") in {(a.kind, a.target) for a in table_unit.annotations}


def test_lists_boxes_formulas_footnotes_figures(tmp_path: Path) -> None:
    mml = "xmlns:mml='http://www.w3.org/1998/Math/MathML'"
    body = (
        "<sec><title>M</title>"
        "<p>Steps:<list list-type='order'><list-item><label>1.</label><p>Mix.</p></list-item>"
        "<list-item><p>Heat.</p><list><list-item><p>Slowly.</p></list-item></list></list-item>"
        "</list>then cool.</p>"
        f"<p>Energy <inline-formula><mml:math {mml}><mml:mi>E</mml:mi><mml:mo>=</mml:mo>"
        "<mml:mi>m</mml:mi></mml:math></inline-formula> holds.</p>"
        f"<disp-formula><label>(1)</label><alternatives><tex-math>\\alpha+\\beta</tex-math>"
        f"<mml:math {mml}><mml:mi>α</mml:mi><mml:mo>+</mml:mo><mml:mi>β</mml:mi></mml:math>"
        "</alternatives></disp-formula>"
        "<boxed-text><caption><title>Box 1</title></caption><p>Boxed.</p></boxed-text>"
        "<p>Note<fn id='f1'><p>A footnote.</p></fn> here.</p>"
        "<fig id='F1'><label>Figure 1</label><caption><p>A cat.</p></caption>"
        "<graphic/></fig></sec>"
    )
    doc = parse(write(tmp_path, article(body)))
    got = [(u.kind, u.text) for u in doc.units[2:]]
    assert got == [
        ("paragraph", "Steps:"),
        ("list_item", "1. Mix."),
        ("list_item", "Heat."),
        ("list_item", "Slowly."),
        ("paragraph", "then cool."),
        ("paragraph", "Energy E = m holds."),
        ("equation", "(1) α + β"),
        ("heading", "Box 1"),
        ("paragraph", "Boxed."),
        ("paragraph", "Note here."),
        ("footnote", "A footnote."),
        ("caption", "Figure 1 A cat."),
    ]
    sections = {u.text: u.section for u in doc.units}
    assert sections["Boxed."] == ("M", "Box 1")
    assert sections["Note here."] == ("M",)


def test_structured_abstract_and_floats_group(tmp_path: Path) -> None:
    front = (
        "<abstract><sec><title>Background</title><p>Why.</p></sec>"
        "<sec><title>Results</title><p>What.</p></sec></abstract>"
        "<abstract abstract-type='teaser'><p>Short.</p></abstract>"
    )
    body = (
        "<sec><title>A</title><p>First.</p><p>Cites <xref ref-type='table' rid='T1'>T1</xref>.</p>"
        "<p>Last.</p></sec>"
    )
    floats = (
        "<floats-group><fig id='F9'><caption><p>Unreferenced.</p></caption></fig>"
        "<table-wrap id='T1'><caption><p>Tab.</p></caption><table><tr><td>x</td></tr></table>"
        "</table-wrap></floats-group>"
    )
    text = article(body, front=front).replace("<back></back>", floats)
    doc = parse(write(tmp_path, text))
    got = [(u.kind, u.section, u.text) for u in doc.units]
    assert got == [
        ("title", (), "T"),
        ("heading", ("Abstract", "Background"), "Background"),
        ("abstract", ("Abstract", "Background"), "Why."),
        ("heading", ("Abstract", "Results"), "Results"),
        ("abstract", ("Abstract", "Results"), "What."),
        ("abstract", ("Teaser",), "Short."),
        ("heading", ("A",), "A"),
        ("paragraph", ("A",), "First."),
        ("paragraph", ("A",), "Cites T1."),
        ("table", ("A",), "x"),
        ("caption", ("A",), "Tab."),
        ("paragraph", ("A",), "Last."),
        ("caption", (), "Unreferenced."),
    ]


def test_float_cited_inside_a_placed_float_goes_with_it(tmp_path: Path) -> None:
    # The paragraph cites the box, then the table; the box's own paragraph cites the
    # table too, so the table is placed there (inside the box) and only once.
    body = (
        "<sec><title>A</title><p>See <xref ref-type='boxed-text' rid='B1'>Box 1</xref> and "
        "<xref ref-type='table' rid='T1'>Table 1</xref>.</p><p>Last.</p></sec>"
    )
    floats = (
        "<floats-group><table-wrap id='T1'><caption><p>Tab.</p></caption>"
        "<table><tr><td>x</td></tr></table></table-wrap>"
        "<boxed-text id='B1'><caption><title>Box 1</title></caption><p>Inside cites "
        "<xref ref-type='table' rid='T1'>Table 1</xref>.</p></boxed-text></floats-group>"
    )
    doc = parse(write(tmp_path, article(body).replace("<back></back>", floats)))
    assert [(u.kind, u.section, u.text) for u in doc.units] == [
        ("title", (), "T"),
        ("heading", ("A",), "A"),
        ("paragraph", ("A",), "See Box 1 and Table 1."),
        ("heading", ("A", "Box 1"), "Box 1"),
        ("paragraph", ("A", "Box 1"), "Inside cites Table 1."),
        ("table", ("A", "Box 1"), "x"),
        ("caption", ("A", "Box 1"), "Tab."),
        ("paragraph", ("A",), "Last."),
    ]


ELIFE_LIKE = """<!DOCTYPE article PUBLIC "-//NLM//DTD JATS (Z39.96) Journal Archiving DTD v1.1//EN"
 "JATS-archivearticle1.dtd">
<article xmlns:xlink="http://www.w3.org/1999/xlink"
 xmlns:mml="http://www.w3.org/1998/Math/MathML">
<front><article-meta><title-group><article-title>Main &amp; <italic>title</italic>
</article-title></title-group><abstract><p>Abs one.</p></abstract>
<abstract abstract-type="executive-summary"><title>eLife digest</title><p>Digest p.</p>
</abstract></article-meta></front>
<body><p>Lead paragraph.</p><sec id="s1"><title>Results</title>
<p><fig id="fig1"><label>Figure 1.</label><caption><title>Fig title.</title><p>Fig text.</p>
</caption><graphic xlink:href="x"/></fig></p>
<p>Text citing <xref ref-type="fig" rid="fig1">Figure 1</xref>, with a table <table-wrap id="t1">
<label>Table 1.</label><caption><p>Cap.</p></caption><alternatives><graphic xlink:href="t"/>
<table><thead><tr><th>a</th><th>b</th></tr></thead><tbody><tr><td>1</td><td>2</td></tr></tbody>
</table></alternatives></table-wrap> inside.</p>
<p>Formula <disp-formula id="e1"><alternatives><mml:math><mml:mi>x</mml:mi><mml:mo>=</mml:mo>
<mml:mn>1</mml:mn></mml:math><tex-math>x=1</tex-math></alternatives></disp-formula> inline.</p>
<fig-group><fig id="f2"><label>Figure 2</label><caption><p>Two.</p></caption></fig>
<fig id="f3"><label>Figure 3</label><caption><p>Three.</p></caption></fig></fig-group>
<table-wrap-group><table-wrap id="t2"><label>Table 2</label><table><tr><td>q</td></tr></table>
</table-wrap><table-wrap id="t3"><table><tr><td>r</td></tr></table></table-wrap>
</table-wrap-group><disp-quote><p>Quoted.</p></disp-quote>
<def-list><def-item><term>TERM</term><def><p>Definition.</p></def></def-item></def-list>
</sec></body>
<back><sec><title>Additional information</title><fn-group><title>Competing interests</title>
<fn id="conf1"><p>None.</p></fn></fn-group></sec>
<app-group><app id="app1"><title>Appendix 1</title><p>App text.</p></app></app-group>
<ref-list><ref id="bib1"><element-citation><person-group person-group-type="author"><name>
<surname>A</surname><given-names>B</given-names></name><collab>Consortium</collab></person-group>
<year>2001a</year><article-title>X</article-title></element-citation></ref></ref-list></back>
<sub-article article-type="decision-letter"><front-stub><title-group><article-title>Decision
letter</article-title></title-group></front-stub><body><p>Thank you.</p></body></sub-article>
</article>"""


def test_floats_in_paragraphs_groups_and_sub_articles(tmp_path: Path) -> None:
    path = tmp_path / "elife.nxml"
    path.write_text(ELIFE_LIKE, encoding="utf-8")
    doc = parse(path)
    got = [(u.kind, u.section, u.text) for u in doc.units]
    assert got == [
        ("title", (), "Main & title"),
        ("abstract", ("Abstract",), "Abs one."),
        ("heading", ("eLife digest",), "eLife digest"),
        ("abstract", ("eLife digest",), "Digest p."),
        ("paragraph", (), "Lead paragraph."),
        ("heading", ("Results",), "Results"),
        ("caption", ("Results",), "Figure 1. Fig title. Fig text."),
        ("paragraph", ("Results",), "Text citing Figure 1, with a table inside."),
        ("table", ("Results",), "a b 1 2"),
        ("caption", ("Results",), "Table 1. Cap."),
        ("paragraph", ("Results",), "Formula x = 1 inline."),
        ("caption", ("Results",), "Figure 2 Two."),
        ("caption", ("Results",), "Figure 3 Three."),
        ("table", ("Results",), "q"),
        ("caption", ("Results",), "Table 2"),
        ("table", ("Results",), "r"),
        ("quote", ("Results",), "Quoted."),
        ("list_item", ("Results",), "TERM Definition."),
        ("heading", ("Additional information",), "Additional information"),
        (
            "heading",
            ("Additional information", "Competing interests"),
            "Competing interests",
        ),
        ("footnote", ("Additional information", "Competing interests"), "None."),
        ("heading", ("Appendix 1",), "Appendix 1"),
        ("paragraph", ("Appendix 1",), "App text."),
        ("heading", ("Decision letter",), "Decision letter"),
        ("paragraph", ("Decision letter",), "Thank you."),
    ]
    assert doc.references[0].authors == ("A B", "Consortium")
    assert doc.references[0].year == "2001"
    m = count_measures(doc, path)
    assert m["table_units"] == m["table_wrap"] == 3
    assert m["body_paragraph_units"] == m["body_p"] == 4


def test_image_only_table_wrap_still_counts(tmp_path: Path) -> None:
    body = (
        "<table-wrap id='T1'><label>Table 1</label><caption><p>Img.</p></caption>"
        "<graphic/></table-wrap>"
    )
    doc = parse(write(tmp_path, article(body)))
    tables = [u for u in doc.units if u.kind == "table"]
    assert len(tables) == 1 and tables[0].table is not None and tables[0].table.rows == ()
    assert "table_without_cells" in doc.flags


# --------------------------------------------------------------------------- hostile input


def test_external_entity_never_read(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET-CONTENT", encoding="utf-8")
    dtd = tmp_path / "evil.dtd"
    dtd.write_text('<!ENTITY ev "EVIL-DTD-CONTENT">', encoding="utf-8")
    doctype = (
        f'<!DOCTYPE article [<!ENTITY xxe SYSTEM "file://{secret}">'
        f'<!ENTITY passwd SYSTEM "file:///etc/passwd">'
        f'<!ENTITY % pe SYSTEM "file://{dtd}"> %pe;]>'
    )
    path = write(tmp_path, article("<p>a &xxe; b &passwd; c &ev; d</p>"), doctype=doctype)
    doc = docparse.parse(path)
    dumped = doc.to_json()
    assert "TOP-SECRET-CONTENT" not in dumped
    assert "EVIL-DTD-CONTENT" not in dumped
    assert "root:" not in dumped
    assert [u.text for u in doc.units if u.kind == "paragraph"] == ["a b c d"]
    assert "external_entity_ignored" in doc.flags


def test_external_dtd_not_loaded(tmp_path: Path) -> None:
    dtd = tmp_path / "ext.dtd"
    dtd.write_text('<!ENTITY leak "FROM-EXTERNAL-DTD">', encoding="utf-8")
    doctype = f'<!DOCTYPE article SYSTEM "file://{dtd}">'
    doc = docparse.parse(write(tmp_path, article("<p>x &leak; y</p>"), doctype=doctype))
    assert "FROM-EXTERNAL-DTD" not in doc.to_json()
    assert [u.text for u in doc.units if u.kind == "paragraph"] == ["x y"]


def test_network_dtd_not_fetched(tmp_path: Path) -> None:
    # pytest-socket would turn a fetch into an error; the parser never tries.
    doctype = '<!DOCTYPE article SYSTEM "http://example.invalid/jats.dtd">'
    doc = docparse.parse(write(tmp_path, article("<p>ok &alpha;</p>"), doctype=doctype))
    assert [u.text for u in doc.units if u.kind == "paragraph"] == ["ok α"]


BILLION_LAUGHS = (
    '<!DOCTYPE article [<!ENTITY lol "lol">'
    + "".join(
        f'<!ENTITY lol{i} "{("&lol" + (str(i - 1) if i > 1 else "") + ";") * 10}">'
        for i in range(1, 10)
    )
    + "]>"
)


def test_billion_laughs_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, article("<p>&lol9;</p>"), doctype=BILLION_LAUGHS)
    with pytest.raises(UnsafeInputError) as info:
        parse(path)
    assert info.value.path == str(path)


def test_billion_laughs_memory_is_bounded(tmp_path: Path) -> None:
    """In a child process capped at 1 GB of address space (the full expansion is 3 GB)."""
    path = write(tmp_path, article("<p>&lol9;</p>"), doctype=BILLION_LAUGHS)
    code = textwrap.dedent(
        """
        import resource, sys
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
        import docparse
        try:
            docparse.parse(sys.argv[1])
        except docparse.DocparseError as exc:
            print(type(exc).__name__)
        """
    )
    proc = subprocess.run(
        [sys.executable, "-c", code, str(path)], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip() == "UnsafeInputError"


def test_internal_entities_expand_within_budget(tmp_path: Path) -> None:
    doctype = '<!DOCTYPE article [<!ENTITY co "Company Ltd">]>'
    doc = parse(write(tmp_path, article("<p>By &co; and &co;.</p>"), doctype=doctype))
    assert [u.text for u in doc.units if u.kind == "paragraph"] == [
        "By Company Ltd and Company Ltd."
    ]
    big = "x" * 1000
    doctype = f'<!DOCTYPE article [<!ENTITY big "{big}">]>'
    path = write(tmp_path, article("<p>" + "&big;" * 500 + "</p>"), doctype=doctype)
    with pytest.raises(UnsafeInputError):
        parse(path, max_entity_chars=100_000)


@pytest.mark.parametrize(
    ("content", "error"),
    [
        (b"", EmptyDocumentError),
        (b"   \n", EmptyDocumentError),
        (b"<article><body><p>unclosed</body></article>", CorruptDocumentError),
        (b"\x00\xff\xfe garbage", CorruptDocumentError),
        (b"<TEI><text/></TEI>", ParseError),
        (b"<html><body>hi</body></html>", ParseError),
    ],
)
def test_bad_input_raises_typed_errors(
    tmp_path: Path, content: bytes, error: type[DocparseError]
) -> None:
    path = tmp_path / "bad.nxml"
    path.write_bytes(content)
    with pytest.raises(error) as info:
        parse(path)
    assert info.value.path == str(path)
    assert str(info.value).startswith(str(path))


def test_deep_nesting_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "deep.nxml"
    path.write_text("<article><body>" + "<sec>" * 5000 + "</sec>" * 5000 + "</body></article>")
    with pytest.raises(DocparseError):
        parse(path)


def test_max_bytes(tmp_path: Path) -> None:
    path = write(tmp_path, article("<p>" + "word " * 1000 + "</p>"))
    with pytest.raises(UnsafeInputError):
        parse(path, max_bytes=1000)


# --------------------------------------------------------------------------- properties

_TEXT = st.text(
    alphabet=st.characters(
        blacklist_categories=("Cs", "Cc", "Cn", "Co"), blacklist_characters="\x00"
    ),
    max_size=60,
)


def _escape(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(paragraphs=st.lists(_TEXT, min_size=1, max_size=6), italic=st.booleans())
def test_paragraph_text_is_clean_source_text(
    tmp_path: Path, paragraphs: list[str], italic: bool
) -> None:
    wrap = ("<italic>", "</italic>") if italic else ("", "")
    body = (
        "<sec><title>S</title>"
        + "".join(f"<p>{wrap[0]}{_escape(p)}{wrap[1]}</p>" for p in paragraphs)
        + "</sec>"
    )
    doc = parse(write(tmp_path, article(body)))
    got = [u.text for u in doc.units if u.kind == "paragraph"]
    assert got == [clean_text(p) for p in paragraphs if clean_text(p)]
    check_invariants(doc)


_CELL = st.tuples(st.text(alphabet="abc xyz", max_size=5), st.integers(-1, 4), st.integers(-1, 4))


@settings(max_examples=200, deadline=None)
@given(rows=st.lists(st.lists(_CELL, max_size=5), max_size=6), header=st.integers(0, 3))
def test_cells_to_table_grid_is_rectangular(
    rows: list[list[tuple[str, int, int]]], header: int
) -> None:
    table = cells_to_table(rows, n_header_rows=header)
    assert table.n_rows == len(rows)
    assert len({len(r) for r in table.rows}) <= 1
    assert table.n_header_rows <= table.n_rows
    for span in table.spans:
        assert span.row + span.row_span <= table.n_rows
        assert span.col + span.col_span <= table.n_cols
        assert span.row_span > 1 or span.col_span > 1
    # Every non-empty cell text is in the grid exactly where it started.
    assert sorted(c for c in table.cells()) == sorted(
        clean_text(t) for row in rows for t, _, _ in row if clean_text(t)
    )


_TAGS = [
    "sec",
    "title",
    "p",
    "italic",
    "sup",
    "xref",
    "table-wrap",
    "table",
    "thead",
    "tbody",
    "tr",
    "td",
    "th",
    "caption",
    "label",
    "fig",
    "list",
    "list-item",
    "fn",
    "disp-formula",
    "inline-formula",
    "tex-math",
    "alternatives",
    "boxed-text",
    "def-list",
    "def-item",
    "term",
    "def",
    "disp-quote",
    "ext-link",
    "break",
    "table-wrap-foot",
    "floats-group",
    "sub-article",
    "front-stub",
    "ref-list",
    "ref",
    "mixed-citation",
    "element-citation",
    "name",
    "surname",
    "year",
    "pub-id",
    "app",
    "ack",
]
_ATTRS = st.dictionaries(
    st.sampled_from(["rid", "ref-type", "rowspan", "colspan", "id", "pub-id-type"]),
    st.sampled_from(["", "B1", "B1 B2", "bibr", "fig", "0", "-3", "2", "99999", "x", "doi"]),
    max_size=3,
)
# No "<" or ">" in text: the check below looks for tag-like text in units.
_XML_TEXT = st.text(alphabet="ab &\n\u00e9", max_size=8).map(_escape)


@st.composite
def _element(draw: st.DrawFn, depth: int = 0) -> str:
    tag = draw(st.sampled_from(_TAGS))
    attrs = "".join(f' {k}="{v}"' for k, v in draw(_ATTRS).items())
    children = draw(st.lists(_element(depth + 1), max_size=3)) if depth < 4 else []
    text = draw(_XML_TEXT)
    return f"<{tag}{attrs}>{text}{''.join(children)}</{tag}>{draw(_XML_TEXT)}"


@settings(
    max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(body=st.lists(_element(), max_size=4), back=st.lists(_element(), max_size=2))
def test_random_jats_trees_parse_or_raise_typed_error(
    tmp_path: Path, body: list[str], back: list[str]
) -> None:
    path = write(tmp_path, article("".join(body), back="".join(back)))
    try:
        doc = parse(path)
    except DocparseError as exc:
        assert exc.path == str(path)
        return
    check_invariants(doc)
    assert Document.from_json(doc.to_json()) == doc
    assert not any(TAG.search(u.text) for u in doc.units)


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(content=st.binary(max_size=200))
def test_arbitrary_bytes_parse_or_raise_typed_error(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "fuzz.nxml"
    path.write_bytes(b"<article>" + content)
    try:
        parse(path)
    except DocparseError as exc:
        assert exc.path == str(path)
