"""Run every benchmark script in ``benchmarks/`` and print its tables.

    python -m benchmarks.run [--quick] [--corpus ../shared/corpus] [--only NAME ...]

A benchmark script is any ``benchmarks/<name>.py`` with a ``__main__`` block
(this runner and modules starting with ``_`` aside); new scripts are found
without being listed here. Each runs in its own process, as
``python -m benchmarks.<name> ARGS``, its output printed as it comes, and a
summary table closes the run (exit status and CPU seconds per script).

A script tells the runner its arguments with module-level constants, read
from its source without importing it:

``QUICK_ARGS = [...]``
    arguments for ``--quick``: a small slice of the work (seconds to a minute
    of CPU), enough to print every table the script prints. Required.
``FULL_ARGS = [...]``
    arguments for the full run (default: none, the script's own defaults).

``{corpus}`` in either list is replaced by ``--corpus``; a script whose
arguments name the corpus is skipped, with a message, when that folder does
not exist. The run exits non-zero when a script fails (non-zero exit or
time limit).
"""

from __future__ import annotations

import argparse
import ast
import os
import resource
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DEFAULT_CORPUS = Path(os.environ.get("DOCPARSE_CORPUS", ROOT.parent / "shared" / "corpus"))


@dataclass(frozen=True, slots=True)
class Script:
    """One benchmark script and its declared arguments."""

    name: str
    quick_args: tuple[str, ...] | None
    full_args: tuple[str, ...]

    def args(self, quick: bool) -> tuple[str, ...] | None:
        return self.quick_args if quick else self.full_args


def _constant(tree: ast.Module, name: str) -> tuple[str, ...] | None:
    for node in tree.body:
        targets = (
            node.targets
            if isinstance(node, ast.Assign)
            else [node.target]
            if isinstance(node, ast.AnnAssign) and node.value is not None
            else []
        )
        if any(isinstance(t, ast.Name) and t.id == name for t in targets):
            value = ast.literal_eval(node.value)  # type: ignore[union-attr,arg-type]
            if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
                raise ValueError(f"{name} must be a list of strings")
            return tuple(value)
    return None


def _has_main_block(tree: ast.Module) -> bool:
    return any(
        isinstance(node, ast.If)
        and isinstance(node.test, ast.Compare)
        and isinstance(node.test.left, ast.Name)
        and node.test.left.id == "__name__"
        for node in tree.body
    )


def discover(folder: Path = HERE) -> list[Script]:
    """Every runnable script in ``folder``, by name."""
    scripts = []
    for path in sorted(folder.glob("*.py")):
        if path.stem.startswith("_") or path.stem == "run":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        if not _has_main_block(tree):
            continue
        scripts.append(
            Script(path.stem, _constant(tree, "QUICK_ARGS"), _constant(tree, "FULL_ARGS") or ())
        )
    return scripts


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_one(
    script: Script, quick: bool, corpus: Path, timeout: float | None
) -> tuple[str, float, bool]:
    """Run ``script``; (status text, CPU seconds, failed)."""
    args = script.args(quick)
    if args is None:
        return "skipped: no QUICK_ARGS (add them to the script)", 0.0, True
    if any("{corpus}" in a for a in args) and not corpus.is_dir():
        print(f"skipped: needs the shared corpus at {corpus} (pass --corpus)", flush=True)
        return "skipped: no corpus", 0.0, False
    argv = [a.replace("{corpus}", str(corpus)) for a in args]
    cmd = [sys.executable, "-m", f"benchmarks.{script.name}", *argv]
    print("$ " + " ".join(["python", *cmd[1:]]), flush=True)
    cpu = _children_cpu()

    def limit_cpu() -> None:
        # A CPU-time limit, not a wall-clock one: on a loaded shared machine a
        # quick run can wait minutes for a core without doing more work.
        if timeout is not None:
            resource.setrlimit(resource.RLIMIT_CPU, (int(timeout), int(timeout) + 5))

    code = subprocess.run(cmd, cwd=ROOT, check=False, preexec_fn=limit_cpu).returncode
    if code in (-signal.SIGXCPU, -signal.SIGKILL) and timeout is not None:
        return f"stopped after {timeout:g} s of CPU", _children_cpu() - cpu, True
    status = "ok" if code == 0 else f"exit {code}"
    return status, _children_cpu() - cpu, code != 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="each script's QUICK_ARGS slice")
    ap.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    ap.add_argument("--only", action="append", default=None, help="run only these scripts")
    ap.add_argument(
        "--timeout",
        type=float,
        default=None,
        help="CPU seconds per script process (default: 600 with --quick, none otherwise)",
    )
    args = ap.parse_args(argv)
    timeout = args.timeout if args.timeout is not None else (600.0 if args.quick else None)
    scripts = [s for s in discover() if not args.only or s.name in args.only]
    if args.only and (unknown := set(args.only) - {s.name for s in scripts}):
        ap.error(f"unknown benchmark(s): {', '.join(sorted(unknown))}")
    os.environ.setdefault("DO_NOT_TRACK", "1")
    mode = "quick" if args.quick else "full"
    summary = []
    for script in scripts:
        print(f"\n=== {script.name} ({mode})", flush=True)
        started = time.perf_counter()
        status, cpu, failed = run_one(script, args.quick, args.corpus, timeout)
        summary.append((script.name, status, cpu, time.perf_counter() - started, failed))
    print(f"\n=== summary ({mode}, corpus {args.corpus})")
    print("| script | status | CPU s | wall s |")
    print("|---|---|---|---|")
    for name, status, cpu, wall, _ in summary:
        print(f"| {name} | {status} | {cpu:.1f} | {wall:.1f} |")
    return 1 if any(failed for *_, failed in summary) else 0


if __name__ == "__main__":
    raise SystemExit(main())
