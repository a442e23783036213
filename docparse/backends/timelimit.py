"""A parse time limit that survives PDF libraries catching the alarm."""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable
from types import FrameType, TracebackType
from typing import Any

from docparse.errors import ParseTimeoutError

#: Seconds between repeats of a time-limit alarm that a library caught.
_REFIRE = 0.05


class TimeLimitKept:
    """Keep the ``parse(config={"timeout": ...})`` alarm from being lost in a library.

    The limit is a SIGALRM handler (``docparse.api``) that raises
    :class:`ParseTimeoutError` in whatever Python code is running. PDF
    libraries catch or wrap it: pdfplumber re-raises every pdfminer exception
    as ``PdfminerException`` (which a backend would report as a corrupt page),
    and unstructured's pypdf complexity check ends in ``except Exception:
    return False``, after which the one-shot alarm is spent and the parse runs
    on without a limit. Inside this context the armed handler is wrapped: the
    first timeout it raises is kept, the alarm repeats every
    :data:`_REFIRE` seconds until it gets out of the library, and on exit the
    kept timeout is raised in place of whatever the body ended in (an error
    that hid it, or a late result). Does nothing when no Python handler is
    armed or outside the main thread.
    """

    def __init__(self) -> None:
        self.fired: ParseTimeoutError | None = None
        self._outer: Callable[[int, FrameType | None], Any] | None = None

    def __enter__(self) -> TimeLimitKept:
        handler = signal.getsignal(signal.SIGALRM)
        if callable(handler) and threading.current_thread() is threading.main_thread():
            self._outer = handler
            signal.signal(signal.SIGALRM, self._on_alarm)
        return self

    def _on_alarm(self, signum: int, frame: FrameType | None) -> None:
        assert self._outer is not None
        try:
            self._outer(signum, frame)
        except ParseTimeoutError as exc:
            if self.fired is None:
                self.fired = exc
            signal.setitimer(signal.ITIMER_REAL, _REFIRE)
            raise

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._outer is None:
            return
        if self.fired is not None:
            signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, self._outer)
        self._outer = None
        if self.fired is not None and not isinstance(exc, ParseTimeoutError):
            raise self.fired
