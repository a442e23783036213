"""corpus_stats figures and the chunk / sample / stats commands."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import docparse
from docparse.cli import main
from docparse.stats import corpus_stats

FIXTURES = Path(__file__).parent.parent / "fixtures"
TEX = FIXTURES / "research" / "quantum-template" / "quantum-template.tex"
NXML = FIXTURES / "pmc" / "PMC3460867" / "pone.0046493.nxml"


@pytest.fixture(scope="module")
def docs() -> list[docparse.Document]:
    return [docparse.parse(TEX), docparse.parse(NXML)]


def test_corpus_stats_totals_add_up(docs: list[docparse.Document]) -> None:
    s = corpus_stats(docs)
    assert s["documents"] == 2
    assert s["words"] == sum(d.n_words for d in docs)
    assert s["tokens"] == sum(d.n_tokens for d in docs)
    assert s["units"] == sum(len(d.units) for d in docs)
    assert sum(s["units_by_kind"].values()) == s["units"]
    assert set(s["by_format"]) == {"tex", "jats"}
    for fmt, f in s["by_format"].items():
        rows = [r for r in s["rows"] if r["format"] == fmt]
        assert f["documents"] == len(rows)
        assert f["words"] == sum(r["words"] for r in rows)
        assert f["tokens_mean"] == f["tokens"] / f["documents"]
    jats = next(r for r in s["rows"] if r["format"] == "jats")
    assert jats["tables"] == sum(1 for u in docs[1].units if u.kind == "table") > 0
    assert corpus_stats([])["documents"] == 0


def test_stats_command(docs: list[docparse.Document]) -> None:
    runner = CliRunner()
    res = runner.invoke(main, ["stats", str(TEX), str(NXML), "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data == json.loads(json.dumps(corpus_stats(docs)))
    res = runner.invoke(main, ["stats", str(TEX), str(NXML)])
    assert res.exit_code == 0 and "by document type" in res.output


def test_chunk_command(docs: list[docparse.Document], tmp_path: Path) -> None:
    out = tmp_path / "chunks.jsonl"
    res = CliRunner().invoke(
        main,
        [
            "chunk",
            str(NXML),
            "--strategy",
            "sentence",
            "--chunk-size",
            "200",
            "--chunk-overlap",
            "0",
            "-o",
            str(out),
        ],
    )
    assert res.exit_code == 0, res.output
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    expected = docparse.chunk(docs[1], "sentence", chunk_size=200, chunk_overlap=0)
    assert [r["text"] for r in rows] == [c.text for c in expected]
    res = CliRunner().invoke(main, ["chunk", str(NXML), "--strategy", "unit"])
    assert res.exit_code == 0 and res.output.count("\n") == len(docparse.chunk(docs[1], "unit"))


def test_sample_command_is_reproducible(tmp_path: Path, docs: list[docparse.Document]) -> None:
    outs = []
    for name in ("a", "b"):
        out = tmp_path / f"{name}.jsonl"
        res = CliRunner().invoke(
            main,
            ["sample", str(TEX), "-n", "5", "--strategy", "mixed", "--seed", "0", "-o", str(out)],
        )
        assert res.exit_code == 0, res.output
        outs.append(out.read_bytes())
    assert outs[0] == outs[1] and outs[0].count(b"\n") == 5
    res = CliRunner().invoke(
        main, ["sample", str(TEX), "-n", "2", "--target", "{bad", "-o", str(tmp_path / "x")]
    )
    assert res.exit_code != 0


def test_commands_name_a_failing_file_and_go_on(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("[1, 2]", encoding="utf-8")
    res = CliRunner().invoke(main, ["stats", str(TEX), str(bad), "--json"])
    assert res.exit_code == 1
    assert json.loads(res.stdout)["documents"] == 1
    assert res.stderr.startswith("error: ParseError: ") and str(bad) in res.stderr
    out = tmp_path / "docs.jsonl"
    res = CliRunner().invoke(main, ["parse", str(bad), str(TEX), "-o", str(out)])
    assert res.exit_code == 1 and res.stderr.startswith("error: ParseError: ")
    lines = out.read_text(encoding="utf-8").splitlines()
    assert [json.loads(line)["source_path"] for line in lines] == [str(TEX)]
    # One file: the failure ends the command.
    res = CliRunner().invoke(main, ["show", str(bad)])
    assert res.exit_code == 1 and res.stderr.startswith("Error: ParseError: ")
    res = CliRunner().invoke(main, ["chunk", str(bad)])
    assert res.exit_code == 1 and res.stderr.startswith("Error: ParseError: ")
