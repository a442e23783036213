"""Run one hostile case through ``docparse.parse`` and judge what came out.

Used in-process by the tests and, for the memory-bomb cases, by
``child.py`` in a subprocess under an address-space rlimit.
"""

from __future__ import annotations

import logging
import re
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import docparse

from .corpus import MARKER, PDF_BACKENDS, Case

#: Seconds one parse may take (the ``timeout`` option of every parser).
PARSE_TIMEOUT = 30.0
#: Wall-clock ``timeout`` of a case judged by CPU time (``Case.cpu_limit``):
#: only a guard against a hang, far above what load makes of the CPU limit.
HANG_TIMEOUT = 600.0

# A message that only re-states a library exception ("pdfplumber parser
# failed: IndexError: ...") is the API's last-resort wrapper: every case here
# must be turned into a deliberate, explained error instead.
_RAW_WRAPPER = re.compile(r"parser failed: [A-Za-z_.]+(Error|Exception)\b")


@dataclass
class Outcome:
    """What one parse ended in: ``"ok"`` or the error class, plus evidence."""

    result: str
    classes: list[str] = field(default_factory=list)
    message: str = ""
    error_path: str | None = None
    flags: list[str] = field(default_factory=list)
    units: int = 0
    leaked: bool = False
    json_chars: int = 0
    raw: str | None = None
    cpu_seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def run(case: Case, base: Path, parser: str, timeout: float = PARSE_TIMEOUT) -> Outcome:
    """Parse ``case`` with ``parser``; never raises for a DocparseError."""
    path = case.path(base)
    if case.cpu_limit is not None:
        timeout = max(timeout, HANG_TIMEOUT)
    config = {"timeout": timeout, **case.config}
    backend = parser if parser in PDF_BACKENDS else None
    start = _cpu()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            logging.disable(logging.WARNING)
            try:
                doc = docparse.parse(path, backend=backend, config=config)
            finally:
                logging.disable(logging.NOTSET)
    except docparse.DocparseError as exc:
        return Outcome(
            result=type(exc).__name__,
            classes=[k.__name__ for k in type(exc).__mro__],
            message=str(exc),
            error_path=exc.path,
            leaked=MARKER in str(exc) or MARKER in repr(exc.cause),
            cpu_seconds=_cpu() - start,
        )
    seconds = _cpu() - start
    blob = doc.to_json()
    return Outcome(
        result="ok",
        classes=["ok"],
        flags=list(doc.flags),
        units=len(doc.units),
        leaked=MARKER in blob,
        json_chars=len(blob),
        cpu_seconds=seconds,
    )


def _cpu() -> float:
    """CPU seconds of this process and its finished children (tesseract runs as one)."""
    import resource
    import time

    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def problems(case: Case, base: Path, out: Outcome) -> list[str]:
    """Everything wrong with ``out`` for ``case`` (empty when it is fine)."""
    bad: list[str] = []
    if out.raw is not None:
        bad.append(f"raw exception escaped: {out.raw}")
        return bad
    if out.leaked:
        bad.append("the secret marker from outside the document folder is in the output")
    if not any(e in out.classes for e in case.expect):
        bad.append(f"got {out.result}, expected one of {case.expect}")
    if case.cpu_limit is not None and out.cpu_seconds > case.cpu_limit:
        bad.append(f"took {out.cpu_seconds:.1f} CPU seconds, limit {case.cpu_limit:.0f}")
    path = case.path(base)
    if out.result == "ok":
        missing = set(case.flags) - set(out.flags)
        if missing:
            bad.append(f"clean parse without the flags {sorted(missing)}: {out.flags}")
        # Bombs must not blow up the output either: nothing here is > 5 MB of text.
        if out.json_chars > 20_000_000:
            bad.append(f"output of {out.json_chars} characters")
    else:
        if "DocparseError" not in out.classes:
            bad.append(f"{out.result} is not a DocparseError")
        if out.error_path is None or Path(out.error_path).name != path.name:
            bad.append(f"error does not carry the path: {out.error_path!r}")
        if path.name not in out.message:
            bad.append(f"message does not name the file: {out.message!r}")
        text = out.message.split(": ", 1)[-1]
        if len(text) < 10 or _RAW_WRAPPER.search(out.message) or "Traceback" in out.message:
            bad.append(f"message is not an explanation: {out.message!r}")
    return bad
