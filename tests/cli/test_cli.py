"""The parse, show, chunk, sample and stats commands on real fixtures."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import docparse
from docparse.cli import main
from docparse.stats import corpus_stats


@pytest.fixture(scope="module")
def tex(fixtures_dir: Path) -> Path:
    return fixtures_dir / "research" / "quantum-template" / "quantum-template.tex"


@pytest.fixture(scope="module")
def nxml(fixtures_dir: Path) -> Path:
    return fixtures_dir / "pmc" / "PMC3460867" / "pone.0046493.nxml"


@pytest.fixture(scope="module")
def docs(tex: Path, nxml: Path) -> list[docparse.Document]:
    return [docparse.parse(tex), docparse.parse(nxml)]


def test_stats_command(nxml: Path, tex: Path, docs: list[docparse.Document]) -> None:
    runner = CliRunner()
    res = runner.invoke(main, ["stats", str(tex), str(nxml), "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data == json.loads(json.dumps(corpus_stats(docs)))
    res = runner.invoke(main, ["stats", str(tex), str(nxml)])
    assert res.exit_code == 0 and "by document type" in res.output


def test_chunk_command(nxml: Path, docs: list[docparse.Document], tmp_path: Path) -> None:
    out = tmp_path / "chunks.jsonl"
    res = CliRunner().invoke(
        main,
        [
            "chunk",
            str(nxml),
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
    res = CliRunner().invoke(main, ["chunk", str(nxml), "--strategy", "unit"])
    assert res.exit_code == 0 and res.output.count("\n") == len(docparse.chunk(docs[1], "unit"))


def test_sample_command_is_reproducible(
    tex: Path, tmp_path: Path, docs: list[docparse.Document]
) -> None:
    outs = []
    for name in ("a", "b"):
        out = tmp_path / f"{name}.jsonl"
        res = CliRunner().invoke(
            main,
            ["sample", str(tex), "-n", "5", "--strategy", "mixed", "--seed", "0", "-o", str(out)],
        )
        assert res.exit_code == 0, res.output
        outs.append(out.read_bytes())
    assert outs[0] == outs[1] and outs[0].count(b"\n") == 5
    res = CliRunner().invoke(
        main, ["sample", str(tex), "-n", "2", "--target", "{bad", "-o", str(tmp_path / "x")]
    )
    assert res.exit_code != 0


def test_commands_name_a_failing_file_and_go_on(tex: Path, tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("[1, 2]", encoding="utf-8")
    res = CliRunner().invoke(main, ["stats", str(tex), str(bad), "--json"])
    assert res.exit_code == 1
    assert json.loads(res.stdout)["documents"] == 1
    assert res.stderr.startswith("error: ParseError: ") and str(bad) in res.stderr
    out = tmp_path / "docs.jsonl"
    res = CliRunner().invoke(main, ["parse", str(bad), str(tex), "-o", str(out)])
    assert res.exit_code == 1 and res.stderr.startswith("error: ParseError: ")
    lines = out.read_text(encoding="utf-8").splitlines()
    assert [json.loads(line)["source_path"] for line in lines] == [str(tex)]
    # One file: the failure ends the command.
    res = CliRunner().invoke(main, ["show", str(bad)])
    assert res.exit_code == 1 and res.stderr.startswith("Error: ParseError: ")
    res = CliRunner().invoke(main, ["chunk", str(bad)])
    assert res.exit_code == 1 and res.stderr.startswith("Error: ParseError: ")
