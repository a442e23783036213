"""benchmarks.run: every benchmark script is found, declares a quick run, and
is skipped with a message when the shared corpus is absent."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks import run

BENCHMARKS = Path(run.__file__).resolve().parent


def test_every_script_is_found_and_has_quick_args() -> None:
    scripts = {s.name: s for s in run.discover()}
    on_disk = {
        p.stem
        for p in BENCHMARKS.glob("*.py")
        if not p.stem.startswith("_") and p.stem != "run" and "__main__" in p.read_text()
    }
    assert set(scripts) == on_disk
    assert {"pdf_speed", "pdf_tables", "ingest_throughput"} <= set(scripts)
    missing = sorted(name for name, s in scripts.items() if s.quick_args is None)
    assert not missing, f"benchmark scripts without QUICK_ARGS: {missing}"


def test_discovery_reads_constants_without_importing(tmp_path: Path) -> None:
    (tmp_path / "fast.py").write_text(
        'raise RuntimeError("not imported")\n'
        'QUICK_ARGS = ["--corpus", "{corpus}", "--n", "3"]\n'
        'FULL_ARGS: list[str] = ["--n", "1000"]\n'
        'if __name__ == "__main__":\n    pass\n'
    )
    (tmp_path / "library.py").write_text("QUICK_ARGS = []\n")  # no __main__ block
    (tmp_path / "_shared.py").write_text('if __name__ == "__main__":\n    pass\n')
    (tmp_path / "plain.py").write_text('if __name__ == "__main__":\n    pass\n')
    scripts = run.discover(tmp_path)
    assert [s.name for s in scripts] == ["fast", "plain"]
    fast, plain = scripts
    assert fast.args(quick=True) == ("--corpus", "{corpus}", "--n", "3")
    assert fast.args(quick=False) == ("--n", "1000")
    assert plain.args(quick=True) is None and plain.args(quick=False) == ()
    (tmp_path / "bad.py").write_text('QUICK_ARGS = [3]\nif __name__ == "__main__":\n    pass\n')
    with pytest.raises(ValueError, match="QUICK_ARGS"):
        run.discover(tmp_path)


def test_quick_run_without_corpus_skips_with_a_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    needs_corpus = [
        s.name for s in run.discover() if any("{corpus}" in a for a in s.quick_args or ())
    ]
    assert needs_corpus
    argv = ["--quick", "--corpus", str(tmp_path / "absent")]
    for name in needs_corpus:
        argv += ["--only", name]
    assert run.main(argv) == 0
    out = capsys.readouterr().out
    assert out.count("skipped: needs the shared corpus") == len(needs_corpus)
    assert "| script | status |" in out
