"""The hostile corpus, built once per test session in a temporary folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from .corpus import build


@pytest.fixture(scope="session")
def hostile_base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``base/`` with the planted secrets and ``base/corpus/<case>/``."""
    return build(tmp_path_factory.mktemp("hostile"))
