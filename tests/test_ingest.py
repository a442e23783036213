"""Corpus ingestion: manifest accounting, fault isolation, resume, Parquet, Dask."""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from docparse import Document, registry
from docparse.ingest import Limits, ManifestRow, ingest, load_manifest

_READABLE = {".pdf", ".tex", ".csv", ".txt", ".nxml", ".json", ".htm"}


def _real_files(fixtures: Path, max_bytes: int = 400_000, per_ext: int = 1) -> list[Path]:
    """Small real documents from fixtures/ (not the fuzz regressions), one per format."""
    picked: dict[str, list[Path]] = {}
    for p in sorted(fixtures.rglob("*"), key=lambda p: (p.suffix, p.stat().st_size, p)):
        ext = p.suffix.lower()
        if (
            p.is_file()
            and ext in _READABLE
            and not {"golden", "regressions"} & set(p.parts)
            and p.stat().st_size <= max_bytes
            and len(picked.setdefault(ext, [])) < per_ext
        ):
            picked[ext].append(p)
    return [p for files in picked.values() for p in files]


@pytest.fixture
def corpus(tmp_path: Path, fixtures_dir: Path) -> Path:
    src = tmp_path / "src"
    files = _real_files(fixtures_dir)
    assert len(files) >= 4, "fixtures/ should hold real documents of several formats"
    for i, f in enumerate(files):
        dest = src / f"d{i:02d}" / f.name
        dest.parent.mkdir(parents=True)
        shutil.copy(f, dest)
    (src / "notes.docx").write_text("not a format docparse reads\n")
    pdf = next((f for f in files if f.suffix == ".pdf"), None)
    if pdf is not None:
        data = pdf.read_bytes()
        (src / "broken.pdf").write_bytes(data[: len(data) // 3])
    return src


def _run(src: Path, out: Path, **kw: Any) -> list[ManifestRow]:
    kw.setdefault("progress", False)
    return list(ingest(src, out, **kw))


def _manifest(out: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (out / "manifest.jsonl").read_text().splitlines()]


def test_every_file_accounted_for(corpus: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    rows = _run(corpus, out, workers=2)
    files = {p.relative_to(corpus).as_posix() for p in corpus.rglob("*") if p.is_file()}
    manifest = _manifest(out)
    assert {r["path"] for r in manifest} == files
    assert len(manifest) == len(files) == len(rows)
    by_path = {r["path"]: r for r in manifest}
    assert by_path["notes.docx"]["status"] == "skipped"
    assert "unsupported" in by_path["notes.docx"]["reason"]
    if "broken.pdf" in by_path:
        broken = by_path["broken.pdf"]
        assert broken["status"] == "error"
        assert broken["error_class"].endswith("Error")
        assert "broken.pdf" in broken["error_message"]
    ok = [r for r in manifest if r["status"] == "ok"]
    assert ok, manifest
    for r in ok:
        doc = Document.from_json((out / r["output"]).read_text())
        assert len(doc.units) == r["units"]


def test_rerun_skips_done_and_redoes_changed(corpus: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    first = {r.key: r for r in _run(corpus, out, workers=2)}
    second = {r.key: r for r in _run(corpus, out, workers=2)}
    for key, row in first.items():
        if row.status == "ok":
            assert second[key].status == "skipped"
            assert second[key].units == row.units
    # A changed file is parsed again.
    changed = next(
        k
        for k, r in first.items()
        if r.status == "ok" and r.path.endswith((".txt", ".csv", ".tex"))
    )
    path = corpus / first[changed].path
    path.write_text(
        path.read_text(encoding="utf-8", errors="replace") + "\n\nOne more line.\n",
        encoding="utf-8",
    )
    third = {r.key: r for r in _run(corpus, out)}
    assert third[changed].status == "ok"
    assert sum(r.status == "ok" for r in third.values()) == 1
    assert len(load_manifest(out)) == len(first)


def _misbehaving_txt(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make the txt parser hang on 'hang*.txt' and allocate without end on 'hog*.txt'."""
    real = registry.get_parser("txt")

    class Misbehaving:
        name = "txt"
        format = "txt"
        config_class = real.config_class

        def parse(self, path: Path, config: Any) -> Document:
            if path.name.startswith("hang"):
                time.sleep(3600)
            if path.name.startswith("hog"):
                hoard = []
                while True:
                    hoard.append(bytearray(50 * 2**20))
                    time.sleep(0.01)
            return real.parse(path, config)

    monkeypatch.setattr(registry, "_plugins", {"txt": Misbehaving})
    monkeypatch.setattr(registry, "_cache", {})


def test_hang_and_memory_hog_are_stopped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fixtures_dir: Path
) -> None:
    txt = next((p for p in _real_files(fixtures_dir) if p.suffix == ".txt"), None)
    assert txt is not None, "fixtures/ should hold a .txt document"
    src = tmp_path / "src"
    src.mkdir()
    for name in ("a.txt", "hang.txt", "hog.txt", "z.txt"):
        shutil.copy(txt, src / name)
    _misbehaving_txt(monkeypatch)
    # 8 s: on a loaded CI machine the hog needs seconds of CPU to pass the cap.
    rows = {
        r.path: r
        for r in _run(src, tmp_path / "out", workers=2, limits=Limits(timeout=8, memory_mb=300))
    }
    assert rows["hang.txt"].status == "error"
    assert rows["hang.txt"].error_class == "ParseTimeoutError"
    assert rows["hog.txt"].status == "error"
    assert rows["hog.txt"].error_class in ("MemoryLimitError", "WorkerCrashedError")
    assert rows["a.txt"].status == rows["z.txt"].status == "ok"


def _wait_for_rows(proc: subprocess.Popen[bytes], manifest: Path, rows: int) -> list[Any]:
    """Wait until the run has finished ``rows`` files; its worker processes then."""
    psutil = pytest.importorskip("psutil")
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if manifest.exists() and len(manifest.read_text().splitlines()) >= rows:
            workers = psutil.Process(proc.pid).children(recursive=True)
            assert workers, "ingest runs its files in worker processes"
            return list(workers)
        time.sleep(0.02)
    pytest.fail("ingest finished before it could be stopped")


def _assert_gone(workers: list[Any], within: float) -> None:
    """Every process in ``workers`` has exited (a zombie counts as exited) ``within`` s."""
    psutil = pytest.importorskip("psutil")

    def alive() -> list[Any]:
        out = []
        for p in workers:
            try:
                if p.is_running() and p.status() != psutil.STATUS_ZOMBIE:
                    out.append(p)
            except psutil.NoSuchProcess:
                pass
        return out

    deadline = time.monotonic() + within
    while alive() and time.monotonic() < deadline:
        time.sleep(0.05)
    left = alive()
    for p in left:
        p.kill()  # do not leave them behind for the rest of the suite
    assert not left, f"workers still running {within:g} s after the run ended: {left}"


def _pdf_corpus(src: Path, fixtures: Path, copies: int = 16) -> None:
    pdfs = [p for p in _real_files(fixtures) if p.suffix == ".pdf"]
    assert pdfs, "fixtures/ should hold a PDF"
    src.mkdir()
    # Distinct copies: bytes appended after %%EOF keep the PDF valid but change its hash.
    for i in range(copies):
        data = pdfs[0].read_bytes()
        (src / f"doc{i:02d}.pdf").write_bytes(data + f"\n% copy {i}\n".encode())


def _start_ingest(src: Path, out: Path, workers: int = 1) -> subprocess.Popen[bytes]:
    cmd = [
        sys.executable,
        "-c",
        "from docparse.cli import main; main()",
        "ingest",
        str(src),
        "-o",
        str(out),
        "--workers",
        str(workers),
        "--twins",
        "off",
        "--no-progress",
    ]
    # A session of its own, as a shell gives a job: Ctrl-C goes to its process group.
    return subprocess.Popen(
        cmd,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env={**os.environ, "DO_NOT_TRACK": "1"},
        start_new_session=True,
    )


def test_sigkill_then_resume_finishes_only_the_rest(tmp_path: Path, fixtures_dir: Path) -> None:
    src, out = tmp_path / "src", tmp_path / "out"
    _pdf_corpus(src, fixtures_dir)
    proc = _start_ingest(src, out, workers=2)
    workers = _wait_for_rows(proc, out / "manifest.jsonl", 5)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    # No worker outlives its run (the kernel's death signal, or the parent watch).
    _assert_gone(workers, within=2.0)
    before = load_manifest(out)
    assert 5 <= len(before) < 16
    # Nothing half-written: every document file present parses completely.
    for f in (out / "docs").rglob("*.jsonl"):
        Document.from_json(f.read_text())
    rows = _run(src, out, twins="off")
    # A worker killed mid-write may leave its temporary file; the resumed run removes it.
    assert not list(out.rglob("*.tmp"))
    statuses = {r.path: r.status for r in rows}
    assert len(statuses) == 16
    assert {p for p, s in statuses.items() if s == "skipped"} == {
        r.path for r in before.values() if r.status == "ok"
    }
    assert all(s in ("ok", "skipped") for s in statuses.values())


@pytest.mark.parametrize(
    ("signum", "whole_group"),
    [(signal.SIGINT, True), (signal.SIGTERM, False)],
    ids=["ctrl-c", "sigterm"],
)
def test_signal_stops_the_run_cleanly(
    tmp_path: Path, fixtures_dir: Path, signum: int, whole_group: bool
) -> None:
    """Ctrl-C (SIGINT to the job's process group) or SIGTERM to the parent alone."""
    src, out = tmp_path / "src", tmp_path / "out"
    _pdf_corpus(src, fixtures_dir)
    proc = _start_ingest(src, out, workers=2)
    workers = _wait_for_rows(proc, out / "manifest.jsonl", 2)
    if whole_group:
        os.killpg(proc.pid, signum)
    else:
        proc.send_signal(signum)
    try:
        _, stderr = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        pytest.fail(f"ingest did not stop within 60 s of {signal.Signals(signum).name}")
    _assert_gone(workers, within=2.0)
    message = stderr.decode()
    assert proc.returncode == 128 + signum, message
    assert "resume" in message and signal.Signals(signum).name in message, message
    assert not list(out.rglob("*.tmp"))
    # The manifest is compacted and lists the finished files, each complete.
    manifest = _manifest(out)
    assert 2 <= len(manifest) < 16
    assert len({r["path"] for r in manifest}) == len(manifest)
    for r in manifest:
        assert r["status"] == "ok", r
        Document.from_json((out / r["output"]).read_text())
    rows = _run(src, out, twins="off")
    assert sum(r.status == "skipped" for r in rows) == len(manifest)
    assert all(r.status in ("ok", "skipped") for r in rows) and len(rows) == 16


def test_parquet_dataset_reads_as_one_table(corpus: Path, tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    out = tmp_path / "out"
    rows = _run(corpus, out, output_format="parquet")
    ok = [r for r in rows if r.status == "ok"]
    table = pq.read_table(out / "parquet")
    assert table.num_rows == sum(r.units or 0 for r in ok)
    assert {"unit_id", "text", "kind", "position_bucket", "backend"} <= set(table.column_names)


@pytest.mark.slow
def test_dask_engine_gives_the_same_manifest(corpus: Path, tmp_path: Path) -> None:
    pytest.importorskip("dask.distributed")
    local = {r.key: (r.status, r.units) for r in _run(corpus, tmp_path / "local", workers=2)}
    dask = {
        r.key: (r.status, r.units)
        for r in _run(corpus, tmp_path / "dask", workers=2, engine="dask")
    }
    assert dask == local


def test_unknown_backend_lists_known(tmp_path: Path) -> None:
    from docparse.errors import UnknownParserError

    with pytest.raises(UnknownParserError, match="pdfplumber"):
        _run(tmp_path, tmp_path / "out", backend="nope")


def test_memory_walk_only_over_the_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    """The costly private-memory walk (smaps_rollup) runs only when resident memory,
    its upper bound, is over the cap; the cap then applies to private memory."""
    walked: list[int] = []

    def private(pid: int) -> float:
        walked.append(pid)
        return 300.0

    mod = sys.modules["docparse.ingest"]
    monkeypatch.setattr(mod, "_private_mb", private)
    monkeypatch.setattr(mod, "_resident_mb", lambda pid: 350.0)
    assert mod._over_cap(1, 400) is None and walked == []
    assert mod._over_cap(1, 320) is None and walked == [1]  # shared pages: under the cap
    assert mod._over_cap(2, 250) == 300.0 and walked == [1, 2]
    monkeypatch.setattr(mod, "_resident_mb", lambda pid: None)  # no statm: walk
    assert mod._over_cap(3, 400) is None and walked == [1, 2, 3]


def test_resident_memory_bounds_private_memory() -> None:
    """statm's resident size is at least smaps_rollup's private size (the gate's premise)."""
    mod = sys.modules["docparse.ingest"]
    resident = mod._resident_mb(os.getpid())
    if resident is None or not Path(f"/proc/{os.getpid()}/smaps_rollup").exists():
        pytest.skip("no /proc memory files here")
    assert 0 < mod._private_mb(os.getpid()) <= resident


def test_twin_is_parsed_once_and_fidelity_is_unchanged(
    tmp_path: Path, fixtures_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The PDF's fidelity projection reads the twin back from the twin's own output
    (written first) instead of parsing it again, with the same summary as a fresh parse."""
    from docparse import api, ingest_task
    from docparse.ingest import ingest_order, plan

    src = tmp_path / "src"
    src.mkdir()
    for name in ("twin.pdf", "twin.tex"):
        shutil.copy(fixtures_dir / "research" / "compiled-twin" / name, src / name)
    tasks, _ = plan(
        src, tmp_path / "out", backends=("pymupdf",), twins=True, output_format="jsonl", config=None
    )
    tasks = ingest_order(tasks)
    assert [Path(t.path).suffix for t in tasks[:1]] == [".tex"], "the twin's task goes first"
    pdf_task = next(t for t in tasks if t.backend == "pymupdf")
    assert pdf_task.twin_outputs and pdf_task.twin_outputs[0][0].endswith("twin.tex.tex.jsonl")

    parsed: list[str] = []
    real_parse = api.parse

    def counting(path: Any, *a: Any, **kw: Any) -> Document:
        parsed.append(Path(path).suffix)
        return real_parse(path, *a, **kw)

    monkeypatch.setattr(api, "parse", counting)
    rows = [ingest_task.process_task(t) for t in tasks]
    assert all(r.status == "ok" for r in rows)
    assert sorted(parsed) == [".pdf", ".tex"], "each file parsed once"
    reused = json.loads((tmp_path / "out" / rows[-1].fidelity).read_text())  # type: ignore[operator]

    # Without the twin's output (another worker still on it): parsed again, same summary.
    Path(pdf_task.twin_outputs[0][0]).unlink()
    fresh = ingest_task.process_task(dataclasses.replace(pdf_task, out_dir=str(tmp_path / "out2")))
    assert parsed.count(".tex") == 2
    assert json.loads((tmp_path / "out2" / fresh.fidelity).read_text()) == reused  # type: ignore[operator]


def test_twin_output_of_other_bytes_is_not_reused(tmp_path: Path, fixtures_dir: Path) -> None:
    from docparse import parse
    from docparse.builder import file_hash
    from docparse.ingest_task import reuse_twin

    tex = fixtures_dir / "research" / "compiled-twin" / "twin.tex"
    out = tmp_path / "twin.tex.tex.jsonl"
    out.write_text(parse(tex).to_json() + "\n")
    assert reuse_twin(str(out), file_hash(tex)) == parse(tex)
    assert reuse_twin(str(out), "0" * 16) is None  # the twin changed since
    assert reuse_twin(str(tmp_path / "missing.jsonl"), file_hash(tex)) is None
    assert reuse_twin("", file_hash(tex)) is None
