"""Parse whole corpora: twin pairing, isolated workers, resumable runs.

``docparse.ingest(src, out)`` walks ``src``, parses every supported file in
worker processes and writes, under ``out``:

* ``docs/<relative path>.<backend>.jsonl``: the document, one JSON line
  (``Document.from_json`` reads it back); or, with ``output_format="parquet"``,
  ``parquet/backend=<backend>/<relative path>.parquet``: one row per unit, a
  hive-partitioned dataset that pandas, pyarrow and Hugging Face ``datasets``
  read as one table;
* ``fidelity/<relative path>.<backend>.json``: the parse-fidelity summary of a
  PDF against its structured twin (``twins="auto"``);
* ``manifest.jsonl``: one row per input file (and backend) with its status
  (``ok``, ``error``, ``skipped``), content hash, error class and message,
  pages, units and seconds.

Every output file is written to a temporary name and renamed, so a killed run
never leaves a truncated document. A rerun over the same ``out`` skips files
whose content hash and options are already done.

Each file is parsed in a separate worker process with a wall-clock limit and
a memory cap (private resident memory, polled by the parent): a crash, a hang or a
runaway allocation in one file becomes an ``error`` row naming the file, and
the run goes on. Workers exit when the run's process dies, even by ``kill -9``
(:mod:`docparse.lifecycle`); SIGINT or SIGTERM stops the workers, removes
partial files, keeps the manifest of the files finished and raises
:class:`~docparse.errors.RunInterruptedError`. ``engine="dask"`` sends one task per file to a Dask
distributed cluster instead; each task still runs the file in its own child
process with the same limits.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import json
import logging
import multiprocessing
import multiprocessing.connection
import os
import signal
import sys
import time
from collections import deque
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

from docparse.builder import file_hash
from docparse.errors import DocparseError, MissingDependencyError, RunInterruptedError
from docparse.formats.catalog import (
    HEAD_BYTES,
    TWIN_EXTENSIONS,
    candidates,
    format_by_extension,
    sniff,
    twin_formats,
)
from docparse.ingest_task import Engine as Engine
from docparse.ingest_task import Limits as Limits
from docparse.ingest_task import ManifestRow as ManifestRow
from docparse.ingest_task import OutputFormat as OutputFormat
from docparse.ingest_task import Status as Status
from docparse.ingest_task import Task as Task
from docparse.ingest_task import atomic_write as atomic_write
from docparse.ingest_task import output_path, remove_partials
from docparse.ingest_task import process_task as process_task
from docparse.ingest_task import unit_rows as unit_rows
from docparse.lifecycle import StopSignals, die_with_parent
from docparse.model import SCHEMA_VERSION

log = logging.getLogger(__name__)


MANIFEST = "manifest.jsonl"


# ---------------------------------------------------------------- planning


def discover(src: Path, exclude: Path | None = None) -> list[Path]:
    """Every file under ``src`` (or ``src`` itself), sorted, hidden files and
    ``exclude`` (the output folder) left out."""
    if src.is_file():
        return [src]
    files = []
    for p in sorted(src.rglob("*")):
        if not p.is_file() or any(part.startswith(".") for part in p.relative_to(src).parts):
            continue
        if exclude is not None and exclude in p.parents:
            continue
        files.append(p)
    return files


def _format_of(path: Path) -> tuple[str | None, str | None]:
    """(format, None) for a file docparse reads, else (None, reason).

    The format table decides by extension; a shared extension (``.json``,
    ``.xml``) is read only when the content is a format that has it.
    """
    specs = candidates(path.suffix)
    if not specs:
        return None, f"unsupported extension {path.suffix or '(none)'}"
    with open(path, "rb") as fh:
        content = sniff(fh.read(HEAD_BYTES))
    fmt = format_by_extension(path.suffix, content, confirm_shared=True)
    if fmt is None:
        titles = " or ".join(s.title for s in specs)
        return None, f"{path.suffix} file is not {titles}"
    return fmt, None


def _twins_of(pdf: Path) -> tuple[str, ...]:
    """The twin files beside ``pdf`` (same stem), the preferred format first."""
    twins = {s.name for s in twin_formats()}
    return tuple(
        str(t)
        for ext in TWIN_EXTENSIONS
        if (t := pdf.with_suffix(ext)).is_file() and _format_of(t)[0] in twins
    )


def options_key(
    backend: str | None, config: Mapping[str, Any] | None, twins: bool, output_format: str
) -> str:
    """A short hash of everything that changes a file's output."""
    blob = json.dumps(
        {
            "backend": backend,
            "config": dict(config or {}),
            "twins": twins,
            "output": output_format,
            "schema": SCHEMA_VERSION,
        },
        sort_keys=True,
    )
    return hashlib.sha256(blob.encode()).hexdigest()[:12]


def plan(
    src: Path,
    out: Path,
    *,
    backends: Sequence[str],
    twins: bool,
    output_format: OutputFormat,
    config: Mapping[str, Any] | None,
) -> tuple[list[Task], list[ManifestRow]]:
    """Tasks to run, and ``skipped`` rows for files docparse does not read."""
    root = src if src.is_dir() else src.parent
    real_root = root.resolve()
    files = discover(src, exclude=out.resolve())
    tasks: list[Task] = []
    skipped: list[ManifestRow] = []
    for path in files:
        rel = path.relative_to(root).as_posix()
        if src.is_dir() and not path.resolve().is_relative_to(real_root):
            # A symlink in a downloaded corpus must not pull in files from
            # elsewhere on the machine (the hostile-input rule of docparse).
            outside = "symlink to a file outside the source folder"
            skipped.append(ManifestRow(rel, None, None, None, None, "skipped", reason=outside))
            continue
        fmt, reason = _format_of(path)
        if fmt is None:
            skipped.append(ManifestRow(rel, None, None, None, None, "skipped", reason=reason))
            continue
        digest = file_hash(path)
        pairs: tuple[str, ...] = ()
        if fmt == "pdf" and twins:
            pairs = _twins_of(path)
        for backend in backends if fmt == "pdf" else (None,):
            cfg = config if fmt == "pdf" else None
            tasks.append(
                Task(
                    path=str(path),
                    rel=rel,
                    format=fmt,
                    backend=backend,
                    content_hash=digest,
                    options=options_key(backend, cfg, bool(pairs), output_format),
                    out_dir=str(out),
                    output_format=output_format,
                    twins=pairs,
                    config=cfg,
                )
            )
    return _with_twin_outputs(tasks), skipped


def _with_twin_outputs(tasks: list[Task]) -> list[Task]:
    """PDF tasks told where their twins' own tasks write the twins' documents (JSON lines
    output only), so that the fidelity projection reads each twin back instead of
    parsing it a second time."""
    own = {t.path: t for t in tasks if t.backend is None and t.output_format == "jsonl"}
    out = []
    for t in tasks:
        if t.twins:
            outputs = tuple(
                (str(output_path(own[p])), own[p].content_hash) if p in own else ("", "")
                for p in t.twins
            )
            t = replace(t, twin_outputs=outputs)
        out.append(t)
    return out


def ingest_order(tasks: Iterable[Task]) -> list[Task]:
    """The order tasks are handed to workers: the twins of PDFs first (they are cheap, and
    the PDFs' fidelity projections then read them back instead of parsing them again),
    then largest files first, so that a long file started last does not leave the other
    workers idle at the end of the run."""
    tasks = list(tasks)
    twins = {p for t in tasks for p in t.twins}
    return sorted(tasks, key=lambda t: (t.path not in twins, -Path(t.path).stat().st_size))


# ---------------------------------------------------------------- worker pool


def _resident_mb(pid: int) -> float | None:
    """A worker's resident memory in MB (Linux ``statm``), ``None`` where unreadable."""
    try:
        with open(f"/proc/{pid}/statm") as fh:
            return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (OSError, ValueError, IndexError):
        return None


def _private_mb(pid: int) -> float:
    """Memory a worker holds for itself, in MB: its private resident pages.

    A forked worker shares the parent's pages (imported libraries, the
    tokenizer) until it writes to them; plain RSS would count those in every
    worker, so the cap applies to private memory (Linux ``smaps_rollup``,
    falling back to RSS from ``statm``; 0 where neither exists).
    """
    try:
        with open(f"/proc/{pid}/smaps_rollup") as fh:
            kb = sum(
                int(line.split()[1])
                for line in fh
                if line.startswith(("Private_Clean:", "Private_Dirty:"))
            )
        return kb / 1024
    except (OSError, ValueError, IndexError):
        pass
    return _resident_mb(pid) or 0.0


def _over_cap(pid: int, cap_mb: float) -> float | None:
    """The worker's private memory in MB when it is over ``cap_mb``, else ``None``.

    ``smaps_rollup`` walks every page of the worker (17 ms of kernel time for
    500 MB, read ten times a second per worker: a third of a core). Private
    memory is never more than resident memory (``statm``, a constant-time
    read), so the walk is made only when the resident size is over the cap.
    """
    resident = _resident_mb(pid)
    if resident is not None and resident <= cap_mb:
        return None
    private = _private_mb(pid)
    return private if private > cap_mb else None


def _worker_main(conn: multiprocessing.connection.Connection, parent: int) -> None:
    # A worker must not outlive its run, however the run ends.
    die_with_parent(parent)
    # The parent owns Ctrl-C; a worker interrupted mid-write would lose the row.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    while True:
        try:
            task = conn.recv()
        except EOFError:
            return
        if task is None:
            return
        conn.send(process_task(task))


def _mp_context() -> multiprocessing.context.BaseContext:
    # fork starts a worker in milliseconds with docparse already imported and
    # keeps parsers registered in the parent; elsewhere use the platform default.
    if sys.platform.startswith("linux"):
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context()


@dataclass
class _Slot:
    ctx: multiprocessing.context.BaseContext
    proc: Any = None
    conn: Any = None
    task: Task | None = None
    started: float = 0.0
    peak_mb: float = 0.0

    def start(self) -> None:
        parent, child = self.ctx.Pipe()
        self.proc = self.ctx.Process(  # type: ignore[attr-defined]
            target=_worker_main, args=(child, os.getpid()), daemon=True
        )
        self.proc.start()
        child.close()
        self.conn = parent
        self.task = None

    def stop(self, kill: bool = False) -> None:
        if self.proc is None:
            return
        if kill:
            self.proc.kill()
            if self.task is not None:
                self.proc.join(timeout=5)
                remove_partials(self.task)
        else:
            with contextlib.suppress(OSError, BrokenPipeError):
                self.conn.send(None)
        self.proc.join(timeout=5)
        if self.proc.is_alive():
            self.proc.kill()
            self.proc.join()
        self.conn.close()
        self.proc = None


def _failure(task: Task, cls: str, message: str, seconds: float) -> ManifestRow:
    return ManifestRow(
        task.rel,
        task.backend,
        task.format,
        task.content_hash,
        task.options,
        "error",
        error_class=cls,
        error_message=f"{task.rel}: {message}",
        seconds=round(seconds, 4),
    )


def _warm_up(tasks: Iterable[Task]) -> None:
    """Import the parsers the tasks need and load the tokenizer once, before
    forking, so that workers share them instead of each paying for them."""
    from docparse.api import resolve_parser_name
    from docparse.errors import DocparseError
    from docparse.registry import get_parser
    from docparse.text import encoding

    encoding()
    tasks = list(tasks)
    if any(t.twins for t in tasks):
        # The fidelity projection of PDF-twin pairs (imported by every worker otherwise).
        from align.project import preload

        preload()
    for name in {(t.format, t.backend) for t in tasks}:
        with contextlib.suppress(DocparseError):
            get_parser(resolve_parser_name(name[0], name[1]))  # type: ignore[arg-type]


def _settle(s: _Slot, ready: list[Any], now: float, limits: Limits) -> ManifestRow | None:
    """A busy slot's row if its task ended: finished, crashed, or stopped at a limit
    (the worker is then replaced); ``None`` while it is still running."""
    task = s.task
    assert task is not None
    elapsed = now - s.started
    if s.conn in ready:
        try:
            row: ManifestRow | None = s.conn.recv()
        except (EOFError, OSError):
            row = None
        if row is not None:
            s.task = None
            return row
    if not s.proc.is_alive():
        code = s.proc.exitcode
        reason = (
            f"worker killed by signal {-code} (out of memory?)"
            if code is not None and code < 0
            else f"worker exited with {code}"
        )
        failure = _failure(task, "WorkerCrashedError", reason, elapsed)
    # Memory is checked first: a worker over the cap when its time also runs
    # out (a slow, loaded machine) is stopped for the cause that will recur.
    elif (rss := _over_cap(s.proc.pid, limits.memory_mb)) is not None:
        message = f"stopped at {rss:.0f} MB, over the {limits.memory_mb} MB cap"
        failure = _failure(task, "MemoryLimitError", message, elapsed)
    elif elapsed > limits.timeout:
        message = f"stopped after {limits.timeout:g} s time limit"
        failure = _failure(task, "ParseTimeoutError", message, elapsed)
    else:
        return None
    s.stop(kill=True)
    s.start()
    return failure


def _stopping(stop: StopSignals | None) -> bool:
    return stop is not None and stop.signum is not None


def run_local(
    tasks: Iterable[Task], workers: int, limits: Limits, stop: StopSignals | None = None
) -> Iterator[ManifestRow]:
    """Run tasks in ``workers`` isolated processes; yield rows as they finish.

    When ``stop`` records a signal, the run ends within ``limits.poll``
    seconds: busy workers are killed and their partial files removed.
    """
    pending = deque(tasks)
    if not pending:
        return
    ctx = _mp_context()
    if ctx.get_start_method() == "fork":
        _warm_up(pending)
    slots = [_Slot(ctx) for _ in range(max(1, min(workers, len(pending))))]
    for s in slots:
        s.start()
    try:
        while pending or any(s.task for s in slots):
            if _stopping(stop):
                return
            for s in slots:
                if s.task is None and pending:
                    s.task = pending.popleft()
                    s.started = time.monotonic()
                    s.conn.send(s.task)
            busy = [s for s in slots if s.task is not None]
            ready = multiprocessing.connection.wait(
                [s.conn for s in busy] + [s.proc.sentinel for s in busy], timeout=limits.poll
            )
            if _stopping(stop):
                # A worker killed by the same signal is not that file's fault.
                return
            now = time.monotonic()
            for s in busy:
                if (row := _settle(s, ready, now, limits)) is not None:
                    yield row
    finally:
        for s in slots:
            s.stop(kill=s.task is not None)


def run_isolated(task: Task, limits: Limits) -> ManifestRow:
    """Run one task in a child process with limits (what each Dask task does)."""
    try:
        return next(run_local([task], 1, limits))
    except AssertionError as exc:
        # Daemonic processes may not have children: a Dask worker started
        # without ``distributed.worker.daemon = False`` runs the file in-process.
        if "daemonic" not in str(exc):
            raise
        log.warning("dask worker is daemonic: %s runs without per-file isolation", task.rel)
        return process_task(task)


def run_dask(
    tasks: Sequence[Task],
    workers: int,
    limits: Limits,
    scheduler: str | None,
    stop: StopSignals | None = None,
) -> Iterator[ManifestRow]:
    """Run tasks on a Dask distributed cluster, one task per file.

    When ``stop`` records a signal, the futures are cancelled and the
    cluster closed; each task's child process dies with its Dask worker.
    """
    try:
        import dask

        # dask.distributed is only partly typed; used through Any on purpose.
        distributed: Any = importlib.import_module("dask.distributed")
    except ImportError as exc:
        raise MissingDependencyError(
            "the dask engine", "pip install 'docparse[dask]'", cause=exc
        ) from exc
    with dask.config.set({"distributed.worker.daemon": False}):
        cluster = None
        if scheduler is None:
            cluster = distributed.LocalCluster(
                n_workers=max(1, workers),
                threads_per_worker=1,
                processes=True,
                dashboard_address=None,
            )
            client = distributed.Client(cluster)
        else:
            client = distributed.Client(scheduler)
        try:
            by_future = {client.submit(run_isolated, t, limits, pure=False): t for t in tasks}
            done = distributed.as_completed(list(by_future))
            while not done.is_empty():
                if _stopping(stop):
                    client.cancel(list(by_future))
                    return
                if not done.has_ready():
                    time.sleep(limits.poll)
                    continue
                for fut in done.next_batch(block=False):
                    task = by_future[fut]
                    try:
                        yield fut.result()
                    except Exception as exc:  # noqa: BLE001 - a lost worker is one file's error
                        yield _failure(task, type(exc).__name__, str(exc), 0.0)
        finally:
            client.close()
            if cluster is not None:
                cluster.close()


# ---------------------------------------------------------------- manifest


def load_manifest(out: Path) -> dict[str, ManifestRow]:
    """Latest row per (file, backend); a torn last line from a killed run is ignored."""
    rows: dict[str, ManifestRow] = {}
    path = out / MANIFEST
    if not path.exists():
        return rows
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            row = ManifestRow.from_dict(json.loads(line))
        except (json.JSONDecodeError, TypeError):
            continue
        rows[row.key] = row
    return rows


def _is_done(task: Task, row: ManifestRow | None) -> bool:
    return (
        row is not None
        and row.status in ("ok", "skipped")
        and row.content_hash == task.content_hash
        and row.options == task.options
        and row.output is not None
        and (Path(task.out_dir) / row.output).exists()
    )


@dataclass
class _Progress:
    enabled: bool | None
    total: int
    bar: Any = None
    pages: int = 0
    errors: int = 0
    started: float = field(default_factory=time.monotonic)

    def __enter__(self) -> _Progress:
        from tqdm import tqdm

        # No monitor thread: worker processes are forked while the bar runs.
        tqdm.monitor_interval = 0
        self.bar = tqdm(
            total=self.total,
            unit="file",
            dynamic_ncols=True,
            disable=None if self.enabled is None else not self.enabled,
        )
        return self

    def update(self, row: ManifestRow) -> None:
        self.pages += row.pages or 0
        self.errors += row.status == "error"
        rate = self.pages / max(time.monotonic() - self.started, 1e-9)
        self.bar.set_postfix(pages_s=f"{rate:.1f}", errors=self.errors, refresh=False)
        self.bar.update(1)

    def __exit__(self, *exc: object) -> None:
        self.bar.close()


def ingest(
    src: str | Path,
    out: str | Path,
    *,
    backend: str = "pymupdf",
    workers: int = 1,
    twins: Literal["auto", "off"] = "auto",
    output_format: OutputFormat = "jsonl",
    config: Mapping[str, Any] | None = None,
    limits: Limits | None = None,
    engine: Engine = "local",
    scheduler: str | None = None,
    progress: bool | None = None,
) -> Iterator[ManifestRow]:
    """Parse every file under ``src`` into ``out``; yield one row per file as it finishes.

    ``backend`` is a PDF backend name or ``"all"`` (every installed one).
    ``twins="auto"`` pairs ``x.pdf`` with a twin beside it (``x.tex``,
    ``x.nxml``, ``x.htm``, ...: the twin formats of
    :mod:`docparse.formats.catalog`) and writes a fidelity summary.
    ``progress=None`` shows a bar only on a terminal.

    >>> for row in ingest("corpus/", "out/", workers=2):  # doctest: +SKIP
    ...     print(row.status, row.path)
    """
    from docparse.registry import PDF_BACKENDS, installed_pdf_backends

    src_path, out_path = Path(src), Path(out)
    if not src_path.exists():
        raise DocparseError(src_path, "no such file or folder")
    if backend == "all":
        backends: Sequence[str] = installed_pdf_backends()
    elif backend in PDF_BACKENDS:
        backends = (backend,)
    else:
        from docparse.errors import UnknownParserError

        raise UnknownParserError(backend, (*PDF_BACKENDS, "all"), kind="PDF backend")
    out_path.mkdir(parents=True, exist_ok=True)
    tasks, unsupported = plan(
        src_path,
        out_path,
        backends=backends,
        twins=twins == "auto",
        output_format=output_format,
        config=config,
    )
    previous = load_manifest(out_path)
    todo: list[Task] = []
    done: list[ManifestRow] = []
    for t in tasks:
        prev = previous.get(t.key)
        if _is_done(t, prev):
            assert prev is not None
            done.append(
                replace(
                    prev, status="skipped", reason="already done in an earlier run", seconds=0.0
                )
            )
        else:
            todo.append(t)
    todo = ingest_order(todo)
    limits = limits or Limits()
    latest = dict(previous)
    manifest = out_path / MANIFEST
    for t in todo:
        # Left by a run that was killed while a worker wrote this file.
        remove_partials(t)
    with (
        open(manifest, "a", encoding="utf-8") as log_fh,
        _Progress(progress, len(unsupported) + len(done) + len(todo)) as bar,
        StopSignals() as stop,
    ):

        def record(row: ManifestRow) -> ManifestRow:
            # Appended and flushed row by row: a killed run keeps what it finished.
            log_fh.write(json.dumps(row.to_dict(), ensure_ascii=False) + "\n")
            log_fh.flush()
            os.fsync(log_fh.fileno())
            latest[row.key] = row
            bar.update(row)
            return row

        for row in (*unsupported, *done):
            yield record(row)
        runner = (
            run_dask(todo, workers, limits, scheduler, stop)
            if engine == "dask"
            else run_local(todo, workers, limits, stop)
        )
        finished = 0
        for row in runner:
            finished += 1
            yield record(row)
    # One row per input file: compact the append log to the latest state.
    lines = "".join(
        json.dumps(r.to_dict(), ensure_ascii=False) + "\n"
        for r in sorted(latest.values(), key=lambda r: r.key)
    )
    atomic_write(manifest, lines.encode("utf-8"))
    if stop.signum is not None:
        for t in todo:
            # Dask workers' children die with their cluster, mid-write maybe.
            remove_partials(t)
        raise RunInterruptedError(
            out_path,
            f"stopped by {stop.name} after {finished} of {len(todo)} files to parse; "
            f"{manifest} lists every file finished. Run the same command again to "
            "resume: finished files are skipped.",
            signum=stop.signum,
        )
