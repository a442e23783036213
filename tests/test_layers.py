"""The import layers written in pyproject.toml hold, and cover every module.

``lint-imports`` (import-linter) checks the contracts: the pipeline (CLI, ingest,
demo) over ``align`` over the core, no backend or format importing a sibling, no
cycles inside ``docparse.backends``. The other tests make sure a new module or
parser cannot slip past the contracts by not being named in them.
"""

from __future__ import annotations

import os
import pkgutil
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import docparse
from docparse import registry

ROOT = Path(__file__).resolve().parent.parent


def _contracts() -> list[dict[str, Any]]:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return list(data["tool"]["importlinter"]["contracts"])


def _contract(kind: str) -> list[dict[str, Any]]:
    return [c for c in _contracts() if c["type"] == kind]


def test_lint_imports_keeps_every_contract() -> None:
    exe = shutil.which("lint-imports") or str(Path(sys.executable).with_name("lint-imports"))
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    }
    result = subprocess.run(
        [exe, "--no-cache"], cwd=ROOT, env=env, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert "0 broken" in result.stdout


def test_every_docparse_module_is_in_a_layer() -> None:
    (layers,) = _contract("layers")
    named = {
        name.strip()
        for layer in layers["layers"]
        for name in layer.replace("|", ":").split(":")
        if name.strip()
    }
    modules = {f"docparse.{m.name}" for m in pkgutil.iter_modules(docparse.__path__)}
    assert modules - named == set(), "add the new module to a layer in pyproject.toml"


def test_every_builtin_parser_is_independent_of_its_siblings() -> None:
    independent = {m for c in _contract("independence") for m in c["modules"]}
    parser_modules = {target.split(":")[0] for target in registry._BUILTIN.values()}
    assert parser_modules - independent == set()
