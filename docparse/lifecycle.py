"""Worker processes that die with their run, and runs that stop cleanly on a signal.

A corpus run forks worker processes. Two things must hold whatever happens to
the parent:

* If the parent dies without cleaning up (``kill -9``, the OOM killer, a job
  scheduler), every worker exits too instead of waiting for work for good.
  :func:`die_with_parent` asks the kernel for a death signal (Linux
  ``prctl(PR_SET_PDEATHSIG)``) and, where there is none, watches the parent's
  pid from a thread.
* SIGINT (Ctrl-C) and SIGTERM stop a run at a point the run chooses:
  :class:`StopSignals` only records the signal, and the run loop that polls
  it stops its workers, removes partial files and says how to resume.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
import os
import signal
import sys
import threading
import time
from types import FrameType
from typing import Any

log = logging.getLogger(__name__)

__all__ = ["StopSignals", "die_with_parent"]

_PR_SET_PDEATHSIG = 1
#: Seconds between two looks at the parent's pid where the kernel gives no death signal.
PARENT_POLL = 0.5
_STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


def _set_death_signal(signum: int) -> bool:
    """Linux: have the kernel send ``signum`` to this process when its parent exits."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        return int(libc.prctl(_PR_SET_PDEATHSIG, signum, 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


def _watch_parent(parent: int, interval: float) -> None:
    while True:
        time.sleep(interval)
        if os.getppid() != parent:
            # Re-parented: the run that started this worker is gone.
            os._exit(1)


def die_with_parent(parent: int) -> None:
    """Make this (worker) process exit when ``parent``, the process that started it, dies.

    Call first thing in the child. The kernel's death signal (SIGKILL, so a
    worker stuck in a C library goes too) is set on Linux; everywhere a daemon
    thread also checks every :data:`PARENT_POLL` seconds whether the process
    was re-parented, which covers other systems and a parent that died before
    the signal was set.
    """
    _set_death_signal(signal.SIGKILL)
    if os.getppid() != parent:
        os._exit(1)
    threading.Thread(
        target=_watch_parent, args=(parent, PARENT_POLL), name="parent-watch", daemon=True
    ).start()


class StopSignals:
    """Record SIGINT and SIGTERM instead of dying at once, while the block runs.

    ``with StopSignals() as stop:`` then ``stop.signum`` is the first signal
    received (``None`` while none came). A second SIGINT raises
    :class:`KeyboardInterrupt` for a user who does not want to wait. Outside
    the main thread (where Python cannot install handlers) nothing changes.
    """

    __slots__ = ("_previous", "signum")

    def __init__(self) -> None:
        self.signum: int | None = None
        self._previous: dict[int, Any] = {}

    @property
    def name(self) -> str:
        """The received signal's name (``SIGINT``), or ``""``."""
        return signal.Signals(self.signum).name if self.signum is not None else ""

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        if self.signum == signal.SIGINT and signum == signal.SIGINT:
            raise KeyboardInterrupt
        if self.signum is None:
            self.signum = signum
            log.warning("%s received: stopping after the workers are stopped", self.name)

    def __enter__(self) -> StopSignals:
        if threading.current_thread() is threading.main_thread():
            for s in _STOP_SIGNALS:
                self._previous[s] = signal.signal(s, self._handle)
        return self

    def __exit__(self, *exc: object) -> None:
        for s, handler in self._previous.items():
            signal.signal(s, handler)
        self._previous.clear()
