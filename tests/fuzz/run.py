"""Run every fuzz target for a time budget, one subprocess each; print a summary.

``python -m tests.fuzz.run --seconds 600`` (what ``make fuzz`` calls) runs
the targets one after the other, so that a crash in one is reported and the
next still runs. Each target gets its seeds (``tests/fuzz/seeds.py``) and a
persistent corpus under ``--out`` (default ``$TMPDIR/docparse-fuzz``); when
libFuzzer stops at a crash the target is restarted for the rest of its
budget. Findings are libFuzzer's ``crash-*``/``timeout-*``/``oom-*`` files
in ``<out>/<target>/artifacts/``; replay one with
``python -m tests.fuzz.fuzz_<target> <file>`` and, once fixed, copy it to
``fixtures/regressions/<target>/`` (``tests/hostile/test_hostile_regressions.py``
replays that folder).

The exit status is 1 when any target has findings.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from tests.fuzz.seeds import write_seeds

ROOT = Path(__file__).resolve().parents[2]
TARGETS = ("tex", "htm", "csv", "txt", "s2orc", "jats", "pymupdf", "pdfplumber", "unstructured")
_FINDING = re.compile(r"^(crash|timeout|oom|leak|slow-unit)-")
_EXECS = re.compile(r"stat::number_of_executed_units:\s*(\d+)")
_PROGRESS = re.compile(r"^#(\d+)\s.*?exec/s:\s*(\d+)", re.M)


@dataclass
class Result:
    """What one target did in its budget."""

    target: str
    seconds: float = 0.0
    executions: int = 0
    runs: int = 0
    corpus_files: int = 0
    findings: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    skipped: str | None = None

    @property
    def per_second(self) -> float:
        return self.executions / self.seconds if self.seconds else 0.0


def _available(target: str) -> str | None:
    """Why ``target`` cannot run here, or None."""
    if target == "unstructured":
        import importlib.util

        if importlib.util.find_spec("unstructured") is None:
            return "unstructured is not installed"
    return None


def _executions(log: str) -> int:
    m = _EXECS.search(log)
    if m:
        return int(m.group(1))
    progress = _PROGRESS.findall(log)
    return int(progress[-1][0]) if progress else 0


def _exception(log: str) -> str:
    """The uncaught Python exception's last traceback line, if any."""
    lines = log.splitlines()
    for i, line in enumerate(lines):
        if "Uncaught Python exception" in line:
            tail = [ln for ln in lines[i + 1 : i + 60] if ln and not ln.startswith(" ")]
            return tail[-1] if tail else line
    for line in reversed(lines):
        if "ERROR: libFuzzer" in line:
            return line.strip()
    return ""


def run_target(
    target: str, seconds: float, out: Path, *, rss_mb: int, timeout: int, max_restarts: int
) -> Result:
    """Fuzz one target for ``seconds``, restarting after a crash."""
    res = Result(target)
    reason = _available(target)
    if reason:
        res.skipped = reason
        return res
    base = out / target
    seeds, corpus, artifacts = base / "seeds", base / "corpus", base / "artifacts"
    write_seeds(target, seeds)
    corpus.mkdir(parents=True, exist_ok=True)
    artifacts.mkdir(parents=True, exist_ok=True)
    before = {p.name for p in artifacts.iterdir()}
    env = {**os.environ, "DO_NOT_TRACK": "1", "PYTHONPATH": str(ROOT)}
    deadline = time.monotonic() + seconds
    while res.runs <= max_restarts:
        remaining = deadline - time.monotonic()
        if remaining < 3:
            break
        cmd = [
            sys.executable,
            "-m",
            f"tests.fuzz.fuzz_{target}",
            str(corpus),
            str(seeds),
            f"-max_total_time={int(remaining)}",
            f"-artifact_prefix={artifacts}/",
            f"-rss_limit_mb={rss_mb}",
            f"-timeout={timeout}",
            "-print_final_stats=1",
        ]
        start = time.monotonic()
        try:
            proc = subprocess.run(
                cmd,
                cwd=ROOT,
                env=env,
                capture_output=True,
                text=True,
                errors="replace",
                timeout=remaining + timeout + 120,
            )
            log, code = proc.stderr + proc.stdout, proc.returncode
        except subprocess.TimeoutExpired as exc:
            err = exc.stderr or b""
            log = err.decode("utf-8", "replace") if isinstance(err, bytes) else err
            code = -9
            res.errors.append("target did not stop at its time budget (killed)")
        res.runs += 1
        res.seconds += time.monotonic() - start
        res.executions += _executions(log)
        (base / f"run-{res.runs}.log").write_text(log[-200_000:], encoding="utf-8")
        if code == 0:
            break
        why = _exception(log) or f"exit status {code}"
        res.errors.append(why)
    res.findings = sorted(
        p.name for p in artifacts.iterdir() if p.name not in before and _FINDING.match(p.name)
    )
    res.corpus_files = sum(1 for _ in corpus.iterdir())
    return res


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=600, help="budget per target")
    ap.add_argument("--targets", default=",".join(TARGETS), help="comma-separated subset")
    ap.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "docparse-fuzz")
    ap.add_argument("--rss-limit-mb", type=int, default=2048)
    ap.add_argument("--timeout", type=int, default=60, help="seconds one input may take")
    ap.add_argument("--max-restarts", type=int, default=5)
    args = ap.parse_args(argv)
    targets = [t for t in args.targets.split(",") if t]
    unknown = sorted(set(targets) - set(TARGETS))
    if unknown:
        ap.error(f"unknown targets {unknown}; known: {', '.join(TARGETS)}")
    args.out.mkdir(parents=True, exist_ok=True)
    results = []
    for t in targets:
        print(f"fuzzing {t} for {args.seconds:g} s ...", flush=True)
        r = run_target(
            t,
            args.seconds,
            args.out,
            rss_mb=args.rss_limit_mb,
            timeout=args.timeout,
            max_restarts=args.max_restarts,
        )
        results.append(r)
        print(_line(r), flush=True)
    print()
    print(f"{'target':<13}{'seconds':>9}{'execs':>10}{'exec/s':>9}{'corpus':>8}  findings")
    for r in results:
        print(_line(r))
    summary = [{**asdict(r), "per_second": round(r.per_second, 1)} for r in results]
    (args.out / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")
    print(f"\nartifacts and logs: {args.out}")
    return 1 if any(r.findings or r.errors for r in results) else 0


def _line(r: Result) -> str:
    if r.skipped:
        return f"{r.target:<13}{'-':>9}{'-':>10}{'-':>9}{'-':>8}  skipped: {r.skipped}"
    found = ", ".join(r.findings) or "none"
    if r.errors:
        found += f" ({'; '.join(dict.fromkeys(r.errors))})"
    return (
        f"{r.target:<13}{r.seconds:>9.0f}{r.executions:>10}{r.per_second:>9.1f}"
        f"{r.corpus_files:>8}  {found}"
    )


if __name__ == "__main__":
    sys.exit(main())
