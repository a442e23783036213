"""``docparse.ingest`` over the whole hostile corpus keeps going and accounts for every file.

Two isolated workers with a time and memory cap: every file gets a manifest
row, every error row carries a typed reason (a ``DocparseError`` subclass or
the runner's own limit errors), nothing crashes a worker, and no output
document contains the secret planted outside the case folders.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import docparse
from docparse.ingest import Limits, discover, ingest, load_manifest

from .corpus import MARKER

#: Errors of the runner itself, besides DocparseError subclasses.
_LIMIT_ERRORS = {"ParseTimeoutError", "MemoryLimitError"}


def _docparse_errors() -> set[str]:
    seen: set[str] = set()
    todo: list[type] = [docparse.DocparseError]
    while todo:
        cls = todo.pop()
        seen.add(cls.__name__)
        todo.extend(cls.__subclasses__())
    return seen


@pytest.mark.timeout(300)
def test_ingest_whole_hostile_corpus(hostile_base: Path, tmp_path: Path) -> None:
    src = hostile_base / "corpus"
    out = tmp_path / "out"
    rows = list(
        ingest(
            src,
            out,
            workers=2,
            twins="off",
            # Short limits on purpose: the 3000-page PDF and the 1 MB LaTeX line
            # may end as ParseTimeoutError rows, and the run must go on past them.
            limits=Limits(timeout=15, memory_mb=2048),
            config={"timeout": 12},
            progress=False,
        )
    )
    manifest = load_manifest(out)
    files = {p.relative_to(src).as_posix() for p in discover(src)}
    assert files == {r.path for r in manifest.values()}, "a file without a manifest row"
    assert len(rows) == len(manifest)

    typed = _docparse_errors() | _LIMIT_ERRORS
    by_status: dict[str, int] = {}
    for row in manifest.values():
        by_status[row.status] = by_status.get(row.status, 0) + 1
        if row.status == "error":
            assert row.error_class in typed, (row.path, row.error_class, row.error_message)
            assert row.error_message and row.path.split("/")[-1] in row.error_message
        elif row.status == "skipped":
            assert row.reason, row.path
        else:
            assert row.status == "ok" and row.output
    assert by_status.get("ok") and by_status.get("error") and by_status.get("skipped")

    # The symlink to the secret is refused, not parsed.
    link = manifest["tex_input_symlink/link.tex\t"]
    assert link.status == "skipped" and "outside" in (link.reason or "")

    # Secrets parsed as documents in their own right are the only outputs with the marker.
    for doc in (out / "docs").rglob("*.jsonl"):
        rel = doc.relative_to(out / "docs").as_posix()
        if rel.startswith("secret"):
            continue
        assert MARKER not in doc.read_text(encoding="utf-8"), rel
    for line in (out / "manifest.jsonl").read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        if not row["path"].startswith("secret"):
            assert MARKER not in line, row["path"]
