"""Every hostile case through ``docparse.parse`` with every applicable parser.

Each ends in a clean parse (with the flags it must carry) or a
``DocparseError`` subclass naming the file with an explanation; never another
exception, never a hang (``timeout`` option plus pytest-timeout), never the
planted secret marker in the output. The memory bombs run in
``test_hostile_bombs.py`` under an rlimit instead.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from .corpus import CASES, Case, by_name
from .outcome import HANG_TIMEOUT, problems, run

#: unstructured needs about a minute for these (it hits the time limit).
SLOW_UNSTRUCTURED = {"pdf_3000_pages"}
#: pytest's wall-clock limit of one case; a case judged by CPU time
#: (``Case.cpu_limit``) gets the hang guard of its parse instead.
CASE_TIMEOUT = 90


def _params(bomb: bool) -> list[object]:
    out = []
    for c in CASES:
        if c.bomb is not bomb:
            continue
        for p in c.parsers:
            marks = [pytest.mark.unstructured] if p == "unstructured" else []
            wall = CASE_TIMEOUT if c.cpu_limit is None else HANG_TIMEOUT + 60
            marks.append(pytest.mark.timeout(wall))
            if p == "unstructured" and c.name in SLOW_UNSTRUCTURED:
                marks.append(pytest.mark.slow)
            out.append(pytest.param(c.name, p, marks=marks, id=f"{c.name}-{p}"))
    return out


def skip_without(parser: str) -> None:
    if parser == "unstructured" and importlib.util.find_spec("unstructured") is None:
        pytest.skip("unstructured is not installed (pip install 'docparse[unstructured]')")


@pytest.mark.parametrize(("name", "parser"), _params(bomb=False))
def test_case(hostile_base: Path, name: str, parser: str) -> None:
    skip_without(parser)
    case: Case = by_name(name)
    out = run(case, hostile_base, parser)
    assert not problems(case, hostile_base, out), (out.result, out.message, out.flags)


def test_corpus_covers_every_parser_and_backend() -> None:
    parsers = {p for c in CASES for p in c.parsers}
    assert parsers == {
        "tex",
        "htm",
        "csv",
        "txt",
        "s2orc",
        "jats",
        "pymupdf",
        "pdfplumber",
        "unstructured",
    }
    assert len({c.name for c in CASES}) == len(CASES)


def test_judge_catches_a_leak_and_a_raw_wrapper(hostile_base: Path) -> None:
    # The checks themselves must be able to fail.
    from .outcome import Outcome

    case = by_name("tex_input_parent")
    leak = Outcome(result="ok", classes=["ok"], flags=["unsafe_input_skipped"], leaked=True)
    assert problems(case, hostile_base, leak)
    raw = Outcome(
        result="ParseError",
        classes=["ParseError", "DocparseError"],
        message=f"{case.path(hostile_base)}: tex parser failed: IndexError: list index",
        error_path=str(case.path(hostile_base)),
    )
    assert problems(case, hostile_base, raw)
    # A case judged by CPU time fails past its limit, however long the wall clock ran.
    ocr = next(c for c in CASES if c.cpu_limit is not None)
    assert ocr.cpu_limit is not None
    slow = Outcome(result="ok", classes=["ok"], cpu_seconds=ocr.cpu_limit + 1)
    assert problems(ocr, hostile_base, slow)
    assert not problems(ocr, hostile_base, Outcome(result="ok", classes=["ok"], cpu_seconds=1))
    unflagged = Outcome(result="ok", classes=["ok"], flags=[])
    assert problems(case, hostile_base, unflagged)


@pytest.mark.filterwarnings("ignore:A test tried to use socket")
def test_network_is_blocked_during_the_tests() -> None:
    # The remote-reference cases rely on this: a Python-level fetch must fail loudly.
    import socket

    pytest_socket = pytest.importorskip("pytest_socket")
    with pytest.raises(pytest_socket.SocketConnectBlockedError):
        socket.create_connection(("203.0.113.1", 80), timeout=1)
