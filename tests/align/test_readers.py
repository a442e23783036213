"""QA readers on real excerpts (fixtures/qa), and the ``docparse evidence`` command."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from align.readers import (
    QA_FORMATS,
    QARecord,
    detect_qa_format,
    read_climretrieve,
    read_financebench,
    read_generic,
    read_pdfqa,
    read_qa,
    read_qasper,
)
from align.readers.pdfqa import read_pdfqa_sources
from align.readers.qasper import strip_placeholders
from docparse.errors import ConfigError, ParseError

FB = "qa/financebench/financebench_open_source_excerpt.jsonl"
UDA_TAB = "qa/uda/bench_paper_tab_qa_excerpt.json"
UDA_TEXT = "qa/uda/bench_paper_text_qa_excerpt.json"
UDA_FIN = "qa/uda/bench_fin_qa_excerpt.json"
UDA_TAT = "qa/uda/bench_tat_qa_excerpt.json"
PDFQA = "qa/pdfqa/2510.22211v1_cfQA_gpt-4o-mini-2024-07-18_excerpt.json"
CLIM = "qa/climretrieve/ClimRetrieve_base_excerpt.csv"
GENERIC = "qa/generic/sample.jsonl"


def test_financebench_pages_become_one_based(fixtures_dir: Path) -> None:
    path = fixtures_dir / FB
    raw = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    records = read_financebench(path)
    assert len(records) == len(raw)
    for rec, row in zip(records, raw, strict=True):
        assert rec.doc == row["doc_name"] and rec.question == row["question"]
        assert rec.answers == (row["answer"],)
        assert rec.qid == row["financebench_id"]
        assert [e.page for e in rec.evidence] == [
            e["evidence_page_num"] + 1 for e in row["evidence"]
        ]
        assert [e.text for e in rec.evidence] == [e["evidence_text"] for e in row["evidence"]]
        assert all(e.markup is None and e.kind == "text" for e in rec.evidence)


def test_qasper_annotators_and_placeholders(fixtures_dir: Path) -> None:
    raw = json.loads((fixtures_dir / UDA_TAB).read_text())
    records = read_qasper(fixtures_dir / UDA_TAB)
    assert len(records) == sum(len(v) for v in raw.values())
    rec = next(r for r in records if r.doc == "1809.01202")
    src = raw["1809.01202"][0]
    # One evidence list per annotator, verbatim, for Evidence-F1.
    assert rec.annotator_evidence == tuple(tuple(e["raw_evidence"]) for e in src["evidence"])
    assert rec.answers == tuple(a["answer"] for a in src["answers"])
    assert rec.qid == src["q_uid"]
    floats = [e for e in rec.evidence if e.text.startswith("FLOAT SELECTED")]
    assert floats and all(e.kind == "table" for e in floats)
    texts = [e for e in rec.evidence if e.kind == "text"]
    assert texts and all("BIBREF" not in e.text for e in texts)
    assert any(e.raw and "BIBREF" in e.raw for e in texts)


def test_qasper_doc_filter(fixtures_dir: Path) -> None:
    records = read_qasper(fixtures_dir / UDA_TAB, docs=["1909.00754"])
    assert records and {r.doc for r in records} == {"1909.00754"}
    assert read_qasper(fixtures_dir / UDA_TEXT)


def test_strip_placeholders() -> None:
    s = "baseline BIBREF13 , BIBREF12 for the ( BIBREF12 requires INLINEFORM0 ) and TABREF3 ."
    assert strip_placeholders(s) == "baseline for the ( requires ) and ."


def test_finqa_and_tat(fixtures_dir: Path) -> None:
    raw = json.loads((fixtures_dir / UDA_FIN).read_text())
    fin = read_qasper(fixtures_dir / UDA_FIN)
    assert len(fin) == sum(len(v) for v in raw.values())
    for rec, src in zip(fin, raw["GS_2016"], strict=True):
        assert rec.source == "finqa"
        page = int(src["q_uid"].split("page_")[1].split(".pdf")[0])
        assert {e.page for e in rec.evidence} == {page}
        assert {e.id for e in rec.evidence} == set(src["evidence"])
        for e in rec.evidence:
            assert e.kind == ("table" if e.id and e.id.startswith("table") else "text")
    tat = read_qasper(fixtures_dir / UDA_TAT)
    raw_tat = json.loads((fixtures_dir / UDA_TAT).read_text())
    first = next(iter(raw_tat.values()))[0]
    assert tat[0].source == "tatqa"
    assert [e.text for e in tat[0].evidence] == list(dict.fromkeys(first["facts"]))


def test_pdfqa_latex_evidence_with_source_ids(fixtures_dir: Path) -> None:
    raw = json.loads((fixtures_dir / PDFQA).read_text())
    records = read_pdfqa(fixtures_dir / PDFQA, fixtures_dir / "qa/pdfqa/2510.22211v1.csv")
    assert len(records) == len(raw)
    for rec, src in zip(records, raw, strict=True):
        assert rec.doc == src["file_name"]
        assert all(e.markup == "latex" for e in rec.evidence)
        pairs = list(dict.fromkeys(zip(src["sources"], src["source_text"], strict=True)))
        assert [(e.id, e.text) for e in rec.evidence] == pairs


def test_pdfqa_fills_missing_text_from_the_csv(fixtures_dir: Path, tmp_path: Path) -> None:
    raw = json.loads((fixtures_dir / PDFQA).read_text())
    for rec in raw:
        rec["source_text"] = []
    qa = tmp_path / "qa.json"
    qa.write_text(json.dumps(raw))
    # The CSV beside the QA file is found by the document's name.
    (tmp_path / "2510.22211v1.csv").write_bytes(
        (fixtures_dir / "qa/pdfqa/2510.22211v1.csv").read_bytes()
    )
    with (tmp_path / "2510.22211v1.csv").open(newline="") as fh:
        content = {r["source_identifier"]: r["content"] for r in csv.DictReader(fh)}
    records = read_pdfqa(qa)
    for rec, src in zip(records, raw, strict=True):
        assert [e.text for e in rec.evidence] == list(
            dict.fromkeys(content[s] for s in src["sources"])
        )


def test_climretrieve_groups_rows_per_question(fixtures_dir: Path) -> None:
    path = fixtures_dir / CLIM
    with path.open(newline="") as fh:
        rows = list(csv.DictReader(fh))
    records = read_climretrieve(path)
    assert len(records) == len({(r["Document"], r["Question"]) for r in rows})
    n_evidence = sum(len(r.evidence) for r in records)
    assert n_evidence == len({(r["Document"], r["Question"], r["Relevant"].strip()) for r in rows})
    by_text = {r["Relevant"].strip(): r for r in rows}
    for rec in records:
        assert rec.doc.endswith(".pdf")
        for e in rec.evidence:
            row = by_text[e.text]
            assert e.page == int(float(row["Page"]))
            expected = {"text": "text", "table": "table", "graph": "figure"}[row["Source From"]]
            assert e.kind == expected


def test_generic(fixtures_dir: Path) -> None:
    records = read_generic(fixtures_dir / GENERIC)
    raw = [json.loads(line) for line in (fixtures_dir / GENERIC).read_text().splitlines()]
    assert [r.doc for r in records] == [r["doc"] for r in raw]
    first, second = records
    assert first.evidence[0].kind == "text" and first.evidence[1].kind == "table"
    assert first.evidence[1].page == raw[0]["evidence"][1]["page"]
    assert second.answers == (raw[1]["answer"],) and second.qid == raw[1]["id"]
    assert all(e.markup == "latex" for e in second.evidence)


def test_generic_errors(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"doc": "x", "question": "q"}\n')
    with pytest.raises(ParseError, match="evidence"):
        read_generic(bad)
    bad.write_text('{"doc": "x", "question": "q", "evidence": [{"text": "t", "kind": "chart"}]}\n')
    with pytest.raises(ParseError, match="kind"):
        read_generic(bad)
    bad.write_text("{not json\n")
    with pytest.raises(ParseError, match="line 1"):
        read_generic(bad)
    with pytest.raises(ParseError):
        read_financebench(bad)
    bad_json = tmp_path / "bad.json"
    bad_json.write_text("[1, 2]")
    with pytest.raises(ParseError, match="doc_name"):
        read_qasper(bad_json)


def test_csv_readers_share_limits_and_errors(tmp_path: Path) -> None:
    # One passage longer than the csv module's default 128 KiB field limit.
    long_text = "word " * 40_000
    ok = tmp_path / "long.csv"
    with ok.open("w", encoding="utf-8", newline="") as fh:
        csv.writer(fh).writerows([["source_identifier", "content"], ["Source_1", long_text]])
    assert read_pdfqa_sources(ok)["Source_1"]["content"] == long_text
    bad = tmp_path / "latin1.csv"
    bad.write_bytes("Document,Question,Relevant\nr\xe9sum\xe9,q,a\n".encode("latin-1"))
    with pytest.raises(ParseError, match="cannot read CSV"):
        read_climretrieve(bad)
    with pytest.raises(ParseError, match="cannot read sources CSV"):
        read_pdfqa_sources(bad)


@pytest.mark.parametrize(
    ("rel", "fmt"),
    [
        (FB, "financebench"),
        (UDA_TAB, "qasper"),
        (UDA_FIN, "qasper"),
        (PDFQA, "pdfqa"),
        (CLIM, "climretrieve"),
        (GENERIC, "generic"),
    ],
)
def test_read_qa_detects_the_format(fixtures_dir: Path, rel: str, fmt: str) -> None:
    assert detect_qa_format(fixtures_dir / rel) == fmt
    records = read_qa(fixtures_dir / rel)
    assert records and all(isinstance(r, QARecord) for r in records)
    assert json.loads(json.dumps([r.to_dict() for r in records]))


def test_read_qa_unknown_format(fixtures_dir: Path) -> None:
    with pytest.raises(ConfigError):
        read_qa(fixtures_dir / FB, "squad")


def test_evidence_command_offers_every_qa_format() -> None:
    from docparse.cli.evidence_cmds import evidence_cmd

    option = next(p for p in evidence_cmd.params if p.name == "qa_format")
    assert isinstance(option.type, click.Choice)
    assert tuple(option.type.choices) == tuple(QA_FORMATS)


def test_evidence_command(fixtures_dir: Path, tmp_path: Path) -> None:
    from docparse.cli import main

    out = tmp_path / "ev.jsonl"
    result = CliRunner().invoke(
        main,
        [
            "evidence",
            str(fixtures_dir / PDFQA),
            "--docs",
            str(fixtures_dir / "research"),
            "--backend",
            "tex",
            "-o",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "evidence by document" in result.output
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    raw = json.loads((fixtures_dir / PDFQA).read_text())
    assert len(lines) == len(raw)
    assert all(line["status"] in ("found", "split") for line in lines)
    assert all(ev["unit_ids"] for line in lines for ev in line["evidence"])
