"""Memory and time bombs, each in a child process under ``RLIMIT_AS``.

Billion laughs (XML and LaTeX macros), exponential ``\\newcommand``, nesting
100 000 deep, a 3000-page PDF: the child must print a clean outcome (a parse
or a typed error) within the address-space cap; running out of memory shows
as a crash or a raw ``MemoryError`` and fails the test.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from .corpus import by_name
from .outcome import Outcome, problems
from .test_hostile_parse import _params, skip_without

CHILD = Path(__file__).with_name("child.py")
LIMIT_MB = 2048
#: unstructured maps torch and onnxruntime before the cap is set.
LIMIT_MB_UNSTRUCTURED = 4096


@pytest.mark.timeout(150)
@pytest.mark.parametrize(("name", "parser"), _params(bomb=True))
def test_bomb(hostile_base: Path, name: str, parser: str) -> None:
    skip_without(parser)
    case = by_name(name)
    limit = LIMIT_MB_UNSTRUCTURED if parser == "unstructured" else LIMIT_MB
    proc = subprocess.run(
        [sys.executable, str(CHILD), str(hostile_base), name, parser, str(limit)],
        capture_output=True,
        text=True,
        timeout=140,
    )
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    crashed = f"child crashed ({proc.returncode}): {proc.stderr[-800:]}"
    assert proc.returncode == 0 and lines, crashed
    out = Outcome(**json.loads(lines[-1]))
    assert not problems(case, hostile_base, out), (out.result, out.message, out.raw)
