"""Shared test fixtures.

Golden files under ``fixtures/golden`` are compared, never rewritten, unless
pytest runs with ``--update-golden``.
"""

from __future__ import annotations

import difflib
import itertools
import os
from collections.abc import Callable
from pathlib import Path

import pytest
from doc_golden import document_golden, dumps

from docparse.model import Document

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
GOLDEN = FIXTURES / "golden"
#: The shared corpus beside the project; tests that need it skip when absent.
CORPUS = Path(os.environ.get("DOCPARSE_CORPUS", ROOT.parent / "shared" / "corpus"))

os.environ.setdefault("DO_NOT_TRACK", "1")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        default=False,
        help="Rewrite golden JSON files under fixtures/golden from the current output.",
    )


@pytest.fixture(scope="session")
def fixtures_dir() -> Path:
    """The checkout's ``fixtures/`` folder: the one place tests find their input files."""
    return FIXTURES


def fixture_files(*patterns: str) -> list[Path]:
    """Files under ``fixtures/`` matching the glob ``patterns`` (no SOURCE notes)."""
    found = {p for pattern in patterns for p in FIXTURES.glob(pattern)}
    return sorted(p for p in found if p.name != "SOURCE.txt")


@pytest.fixture(scope="session")
def fixture_texts() -> list[Path]:
    """The plain-text documents under ``fixtures/texts``."""
    return fixture_files("texts/*/*.txt")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """``@pytest.mark.fixture_files(*globs)``: the test runs once per matching file
    under ``fixtures/``, passed as its ``fixture_file`` argument."""
    marker = metafunc.definition.get_closest_marker("fixture_files")
    if marker is not None:
        files = fixture_files(*marker.args)
        metafunc.parametrize("fixture_file", files, ids=[p.name for p in files])


@pytest.fixture
def corpus_dir() -> Path:
    if not CORPUS.is_dir():
        pytest.skip(f"shared corpus not found at {CORPUS}")
    return CORPUS


@pytest.fixture
def golden(request: pytest.FixtureRequest) -> Callable[[str, Document], None]:
    """``golden(name, doc)``: compare the whole of ``doc`` with ``fixtures/golden/name.json``.

    The file is written by :func:`doc_golden.document_golden`; a difference fails
    with the unified diff, so the changed unit and field are named.
    """
    update = bool(request.config.getoption("--update-golden"))

    def check(name: str, doc: Document) -> None:
        path = GOLDEN / f"{name}.json"
        text = dumps(document_golden(doc)) + "\n"
        if update:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            return
        if not path.exists():
            pytest.fail(f"golden file {path} missing; run pytest --update-golden to create it")
        expected = path.read_text(encoding="utf-8")
        if text != expected:
            diff = difflib.unified_diff(
                expected.splitlines(), text.splitlines(), "golden", "parse", lineterm="", n=2
            )
            shown = "\n".join(itertools.islice(diff, 80))
            pytest.fail(f"output differs from golden {path.name} (--update-golden):\n{shown}")

    return check
