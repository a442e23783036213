"""One CLI grammar: unwritable outputs and inputs that all fail end every command with
a non-zero exit and a one-line message, never a traceback or a silent success."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from docparse.cli import main

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
TEX = FIXTURES / "math" / "constructs.tex"


@pytest.fixture()
def bad(tmp_path: Path) -> Path:
    """A folder whose only document, x.pdf, is not a PDF, with a QA file pointing at it."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "x.pdf").write_bytes(b"this is not a PDF at all\n" * 20)
    (tmp_path / "qa.jsonl").write_text(
        json.dumps({"doc": "x", "question": "q?", "evidence": ["some text"]}) + "\n",
        encoding="utf-8",
    )
    return tmp_path


def _run(args: list[str]) -> Result:
    return CliRunner().invoke(main, args)


def _one_line_error(result: Result) -> None:
    assert result.exit_code == 1, (result.exit_code, result.output, result.stderr)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert lines, result.output
    assert "Traceback" not in result.output + result.stderr
    assert lines[-1].lower().startswith("error:"), lines
    # Every message is one line: an error line is never followed by an indented continuation.
    assert all(not line.startswith((" ", "\t")) for line in lines), lines


def _commands(tmp: Path, out: str) -> dict[str, list[str]]:
    """Each command that writes a file, writing ``out`` (a path under tmp)."""
    pdf = str(FIXTURES / "math" / "constructs.pdf")
    return {
        "parse": ["parse", str(TEX), "-o", out],
        "chunk": ["chunk", str(TEX), "-o", out],
        "sample": ["sample", str(TEX), "-n", "1", "-o", out],
        "compare": ["compare", pdf, "-b", "pymupdf", "-o", out],
        "fidelity": ["fidelity", "--twin", str(TEX), "--pdf", pdf, "-o", out],
        "fidelity --html": ["fidelity", "--twin", str(TEX), "--pdf", pdf, "--html", out],
        "evidence": ["evidence", str(tmp / "qa.jsonl"), "--docs", str(tmp / "docs"), "-o", out],
        "retrieval": ["retrieval", str(tmp / "qa.jsonl"), "--docs", str(tmp / "docs"), "-o", out],
        "draw": ["draw", pdf, "-p", "1", "-o", out],
        "ingest": ["ingest", str(tmp / "docs"), "-o", out],
    }


@pytest.mark.parametrize("name", list(_commands(Path("."), "x")))
def test_missing_output_folder(name: str, bad: Path) -> None:
    if name in ("draw", "ingest"):
        # Their -o is a folder, created when missing: a file in the way is the error.
        (bad / "file").write_text("x", encoding="utf-8")
        out = str(bad / "file" / "out")
    else:
        out = str(bad / "missing" / "out.json")
    result = _run(_commands(bad, out)[name])
    _one_line_error(result)
    assert "cannot write" in result.stderr


def test_output_folder_given_as_file_path(bad: Path) -> None:
    result = _run(["parse", str(TEX), "-o", str(bad)])
    _one_line_error(result)
    assert "is a folder" in result.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["parse", "{pdf}"],
        ["show", "{pdf}"],
        ["chunk", "{pdf}"],
        ["sample", "{pdf}", "-n", "1"],
        ["stats", "{pdf}"],
        ["draw", "{pdf}", "-o", "{tmp}/png"],
        ["compare", "{pdf}", "-b", "pymupdf", "-b", "pdfplumber"],
        ["fidelity", "--twin", str(TEX), "--pdf", "{pdf}", "-b", "all"],
        ["evidence", "{tmp}/qa.jsonl", "--docs", "{tmp}/docs"],
        ["evidence", "{tmp}/qa.jsonl", "--docs", "{tmp}/docs", "--doc", "nothing-by-this-name"],
        ["retrieval", "{tmp}/qa.jsonl", "--docs", "{tmp}/docs"],
        ["retrieval", "{tmp}/qa.jsonl", "--docs", "{tmp}"],
        ["ingest", "{tmp}/docs", "-o", "{tmp}/out"],
    ],
    ids=lambda a: " ".join(a[:1] + [x for x in a[1:] if x.startswith("-")]),
)
def test_all_failing_input(args: list[str], bad: Path) -> None:
    pdf = str(bad / "docs" / "x.pdf")
    (bad / "empty").mkdir()
    argv = [a.replace("{pdf}", pdf).replace("{tmp}", str(bad)) for a in args]
    if argv[0] == "retrieval" and argv[-1] == str(bad):
        argv[-1] = str(bad / "empty")  # no document at all
    _one_line_error(_run(argv))


def test_twin_format_as_backend_and_qa_format_everywhere(tmp_path: Path) -> None:
    # -b tex reads the .tex file of the document in every command that parses.
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "constructs.tex").write_text(TEX.read_text(encoding="utf-8"), encoding="utf-8")
    qa = tmp_path / "qa.jsonl"
    qa.write_text(
        json.dumps(
            {
                "doc": "constructs",
                "question": "What is the sign function?",
                "evidence": ["The partial sums converge"],
            }
        )
        + "\n",
        encoding="utf-8",
    )
    for cmd in ("evidence", "retrieval"):
        result = _run([cmd, str(qa), "--docs", str(docs), "-b", "tex", "--qa-format", "generic"])
        assert result.exit_code == 0, (cmd, result.output, result.stderr)
    result = _run(["chunk", str(docs / "constructs.tex"), "-b", "tex", "--strategy", "unit"])
    assert result.exit_code == 0 and result.output.count("\n") > 3
    result = _run(["sample", str(docs / "constructs.tex"), "-n", "1", "--min-sources", "1"])
    assert result.exit_code == 0, result.stderr


def test_ingest_reruns_keep_one_manifest_row_per_file(tmp_path: Path) -> None:
    src = tmp_path / "src"
    src.mkdir()
    (src / "constructs.tex").write_text(TEX.read_text(encoding="utf-8"), encoding="utf-8")
    (src / "notes.md.bak").write_text("not a document", encoding="utf-8")
    out = tmp_path / "out"
    for _ in range(3):
        result = _run(["ingest", str(src), "-o", str(out), "--no-progress"])
        assert result.exit_code == 0, result.stderr
        rows = (out / "manifest.jsonl").read_text(encoding="utf-8").splitlines()
        assert sorted(json.loads(r)["path"] for r in rows) == ["constructs.tex", "notes.md.bak"]
