"""Floats that wait for the first paragraph referring to them.

JATS ``floats-group`` members and S2ORC ``ref_entries`` (tables, figures)
stand apart from the text in the source, while the PDF prints each one near
where it is first cited. Both parsers therefore queue them by id, emit each
one right after the first body paragraph that refers to it, and put the ones
no paragraph refers to after the body, in source order.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Generic, TypeVar

__all__ = ["FloatQueue"]

T = TypeVar("T")


class FloatQueue(Generic[T]):
    """Floats by id, each handed out once: to its first reference, else at the end.

    >>> queue = FloatQueue[str]()
    >>> queue.put("T1", "table 1"); queue.put("F1", "figure 1")
    >>> list(queue.take(["F1", "T9", "F1"]))
    [('F1', 'figure 1')]
    >>> queue.claim("F1"), queue.claim("T1"), queue.claim("T1")
    (False, True, False)
    """

    def __init__(self) -> None:
        self._waiting: dict[str, T] = {}

    def put(self, fid: str, item: T) -> None:
        """Queue ``item`` under ``fid``; a later item with the same id replaces it."""
        self._waiting[fid] = item

    def take(self, ids: Iterable[str]) -> Iterator[tuple[str, T]]:
        """``(id, float)`` for each of ``ids`` still queued, in the order of ``ids``.

        Lazy on purpose: emitting one float (a box whose paragraph cites
        another float) may take a later id first, which is then not repeated.
        """
        for fid in ids:
            if fid in self._waiting:
                yield fid, self._waiting.pop(fid)

    def claim(self, fid: str) -> bool:
        """True when ``fid`` was still queued (nothing referred to it); it leaves the queue."""
        if fid in self._waiting:
            del self._waiting[fid]
            return True
        return False
