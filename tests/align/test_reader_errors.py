"""Every QA reader fails loudly on a file that gives nothing to evaluate.

An empty file, or a file in another layout (UDA Natural Questions/FeTaQA
records, a FinanceBench file given to the QASPER reader, ...), is a typed
error naming the file and the layout the reader expected, never an empty
list that a report then shows as ``found 0.0%``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from align.readers import (
    EmptyQAError,
    QARecord,
    read_climretrieve,
    read_financebench,
    read_generic,
    read_pdfqa,
    read_qa,
    read_qasper,
)
from docparse.errors import DocparseError

# UDA Natural Questions and FeTaQA records: questions about Wikipedia pages without text evidence.
NQ = {"Hannah John-Kamen": [{"question": "q?", "q_uid": 1, "doc_url": "u", "answers": {}}]}
FETA = {"Jennifer Jones": [{"question": "q?", "q_uid": 2, "answers": "a", "evidence": {}}]}
FINANCEBENCH_ROW = {"financebench_id": "x", "doc_name": "3M_2018_10K", "question": "q?"}

READERS: dict[str, tuple[Callable[[Path], list[QARecord]], str]] = {
    "financebench": (read_financebench, ".jsonl"),
    "qasper": (read_qasper, ".json"),
    "pdfqa": (read_pdfqa, ".json"),
    "pdfqa-tables": (read_pdfqa, ".jsonl"),
    "climretrieve": (read_climretrieve, ".csv"),
    "generic": (read_generic, ".jsonl"),
}

EMPTY = {".jsonl": "", ".json": "[]", ".csv": "Document,Question,Relevant\n"}
WRONG = {
    "financebench": json.dumps({"doc": "x", "question": "q", "evidence": []}) + "\n",
    "qasper": json.dumps(NQ),
    "pdfqa": json.dumps([{"question": "q?", "answer": "a"}]),
    "pdfqa-tables": json.dumps(FINANCEBENCH_ROW) + "\n",
    "climretrieve": "Document,Question,Answer\nx.pdf,q?,a\n",
    "generic": json.dumps({"doc": "", "question": "q?", "evidence": []}) + "\n",
}


@pytest.mark.parametrize("name", list(READERS))
def test_empty_file_is_an_error_naming_it(name: str, tmp_path: Path) -> None:
    reader, suffix = READERS[name]
    path = tmp_path / f"empty{suffix}"
    path.write_text("{}" if name == "qasper" else EMPTY[suffix], encoding="utf-8")
    with pytest.raises(DocparseError) as err:
        reader(path)
    assert str(path) in str(err.value) and "expected" in str(err.value)


@pytest.mark.parametrize("name", list(READERS))
def test_wrong_layout_is_an_error_naming_it(name: str, tmp_path: Path) -> None:
    reader, suffix = READERS[name]
    path = tmp_path / f"wrong{suffix}"
    path.write_text(WRONG[name], encoding="utf-8")
    with pytest.raises(DocparseError) as err:
        reader(path)
    assert str(path) in str(err.value)


@pytest.mark.parametrize("records", [NQ, FETA])
def test_uda_records_without_text_evidence(records: dict[str, object], tmp_path: Path) -> None:
    path = tmp_path / "bench_nq_qa.json"
    path.write_text(json.dumps(records), encoding="utf-8")
    for fmt in ("uda", "qasper", None):
        with pytest.raises(EmptyQAError, match="Natural Questions"):
            read_qa(path, fmt)
