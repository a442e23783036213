"""Replay fuzz findings and the fuzz seeds through the fuzz targets' own body.

Every file under ``fixtures/regressions/<parser>/`` is an input that once
broke ``<parser>`` (a raw exception, a hang or a leak; see the ``README.md``
there). Replayed with :func:`tests.fuzz.common.make_target`, exactly as the
fuzzer runs it, it must now end in a clean parse or a ``DocparseError``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from .test_hostile_parse import skip_without

ROOT = Path(__file__).resolve().parents[2]
REGRESSIONS = ROOT / "fixtures" / "regressions"
PARSERS = ("tex", "htm", "csv", "txt", "s2orc", "jats", "pymupdf", "pdfplumber", "unstructured")

pytest.importorskip("atheris", reason="the fuzz extra is not installed (pip install '.[fuzz]')")
if str(ROOT) not in sys.path:  # the fuzz targets import ``tests.fuzz.*`` from the checkout
    sys.path.insert(0, str(ROOT))


def _marks(parser: str) -> list[pytest.MarkDecorator]:
    return [pytest.mark.unstructured] if parser == "unstructured" else []


_PDF = ("pymupdf", "pdfplumber", "unstructured")


def _regressions() -> list[object]:
    """(parser, file) pairs; a PDF found by one backend's fuzzer is replayed on all three."""
    out = []
    for parser in PARSERS:
        folders = [REGRESSIONS / p for p in (_PDF if parser in _PDF else (parser,))]
        for folder in folders:
            for f in sorted(folder.glob("*")) if folder.is_dir() else []:
                if f.is_file() and f.name != "README.md":
                    pid = f"{parser}-{folder.name}-{f.name}"
                    out.append(pytest.param(parser, f, marks=_marks(parser), id=pid))
    return out


def _target(parser: str):  # type: ignore[no-untyped-def]
    skip_without(parser)
    from tests.fuzz.common import make_target

    return make_target(parser)


@pytest.mark.timeout(120)
@pytest.mark.parametrize(("parser", "path"), _regressions())
def test_regression_input(parser: str, path: Path) -> None:
    _target(parser)(path.read_bytes())


@pytest.mark.timeout(120)
@pytest.mark.parametrize("parser", [pytest.param(p, marks=_marks(p), id=p) for p in PARSERS])
def test_fuzz_seeds_run_through_the_target(parser: str, tmp_path: Path) -> None:
    from tests.fuzz.seeds import write_seeds

    target = _target(parser)
    assert write_seeds(parser, tmp_path) > 0
    for seed in sorted(tmp_path.iterdir()):
        target(seed.read_bytes())


def test_regression_folders_are_named_after_parsers() -> None:
    if REGRESSIONS.is_dir():
        for d in REGRESSIONS.iterdir():
            assert d.name in PARSERS or d.name == "README.md", d


def test_target_reports_a_raw_exception_behind_the_api_wrapper(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from docparse.formats.csv import CsvParser
    from docparse.formats.txt import TxtParser

    def broken(self: object, path: Path, config: object) -> None:
        raise IndexError("list index out of range")

    monkeypatch.setattr(CsvParser, "parse", broken)
    with pytest.raises(IndexError):
        _target("csv")(b"a,b\n1,2\n")

    def typed(self: object, path: Path, config: object) -> None:
        from docparse.errors import CorruptDocumentError

        raise CorruptDocumentError(path, "explained on purpose")

    monkeypatch.setattr(TxtParser, "parse", typed)
    _target("txt")(b"text")  # a deliberate DocparseError is accepted


def test_warm_up_runs_the_target_once_on_a_seed() -> None:
    from tests.fuzz.common import warm_up

    seen: list[bytes] = []
    warm_up(seen.append, "unstructured")
    assert len(seen) == 1 and seen[0].startswith(b"%PDF-")
