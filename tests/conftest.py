"""Shared test fixtures.

Golden files under ``fixtures/golden`` are compared, never rewritten, unless
pytest runs with ``--update-golden``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

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


@pytest.fixture
def fixtures_dir() -> Path:
    return FIXTURES


@pytest.fixture
def corpus_dir() -> Path:
    if not CORPUS.is_dir():
        pytest.skip(f"shared corpus not found at {CORPUS}")
    return CORPUS


@pytest.fixture
def golden(request: pytest.FixtureRequest) -> Callable[[str, Any], None]:
    """``golden(name, data)``: compare ``data`` with ``fixtures/golden/name.json``."""
    update = bool(request.config.getoption("--update-golden"))

    def check(name: str, data: Any) -> None:
        path = GOLDEN / f"{name}.json"
        text = json.dumps(data, indent=1, ensure_ascii=False, sort_keys=True) + "\n"
        if update:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            return
        if not path.exists():
            pytest.fail(f"golden file {path} missing; run pytest --update-golden to create it")
        expected = json.loads(path.read_text(encoding="utf-8"))
        assert json.loads(text) == expected, f"output differs from golden {path.name}"

    return check
