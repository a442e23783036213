"""``docparse.api``: the collector scope a parse runs in."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from docparse.api import PARSE_GC_THRESHOLD, fewer_collections


@pytest.fixture(autouse=True)
def default_thresholds() -> Iterator[None]:
    saved = gc.get_threshold()
    gc.set_threshold(700, 10, 10)
    yield
    gc.set_threshold(*saved)


def test_scope_raises_the_first_threshold_and_puts_the_callers_back() -> None:
    gc.set_threshold(700, 11, 12)
    with fewer_collections():
        assert gc.get_threshold() == (PARSE_GC_THRESHOLD, 11, 12)
    assert gc.get_threshold() == (700, 11, 12)
    with pytest.raises(KeyError), fewer_collections():
        raise KeyError("a failed parse")
    assert gc.get_threshold() == (700, 11, 12)


def test_nested_scopes_restore_once_at_the_outermost_exit() -> None:
    with fewer_collections():
        with fewer_collections():
            assert gc.get_threshold()[0] == PARSE_GC_THRESHOLD
        assert gc.get_threshold()[0] == PARSE_GC_THRESHOLD
    assert gc.get_threshold() == (700, 10, 10)


def test_overlapping_scopes_in_threads_restore_after_the_last() -> None:
    entered, first_left, done = threading.Event(), threading.Event(), threading.Event()
    seen: list[tuple[int, int, int]] = []

    def other() -> None:
        with fewer_collections():
            entered.set()
            first_left.wait(5)
            seen.append(gc.get_threshold())  # the main thread's scope has ended
        done.set()

    with fewer_collections():
        worker = threading.Thread(target=other)
        worker.start()
        assert entered.wait(5)
    first_left.set()
    assert done.wait(5)
    worker.join(5)
    assert seen == [(PARSE_GC_THRESHOLD, 10, 10)]
    assert gc.get_threshold() == (700, 10, 10)


def test_a_higher_or_zero_threshold_and_a_change_inside_are_kept() -> None:
    gc.set_threshold(100_000, 10, 10)
    with fewer_collections():
        assert gc.get_threshold()[0] == 100_000
    gc.set_threshold(0, 10, 10)  # automatic collection off: stays off
    with fewer_collections():
        assert gc.get_threshold()[0] == 0
    gc.set_threshold(700, 10, 10)
    with fewer_collections():
        gc.set_threshold(5_000, 10, 10)  # the caller's own choice, made meanwhile
    assert gc.get_threshold() == (5_000, 10, 10)


def test_parse_runs_inside_the_scope(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import docparse
    import docparse.api as api
    from docparse.config import ParserConfig

    seen: list[tuple[int, int, int]] = []

    class Probe:
        name = "probe"
        config_class = ParserConfig

        def parse(self, path: Path, config: ParserConfig) -> None:
            seen.append(gc.get_threshold())

    monkeypatch.setattr(api, "get_parser", lambda name: Probe())
    path = tmp_path / "note.txt"
    path.write_text("Some text.\n", encoding="utf-8")
    docparse.parse(path)
    assert seen == [(PARSE_GC_THRESHOLD, 10, 10)]
    assert gc.get_threshold() == (700, 10, 10)
