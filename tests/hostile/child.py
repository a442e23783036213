"""Run one hostile case in this process under a memory rlimit; print the outcome.

``python tests/hostile/child.py BASE CASE PARSER LIMIT_MB``: prints one JSON
line (:class:`~tests.hostile.outcome.Outcome`). A raw exception is reported
in ``raw``; a crash shows as a non-zero exit without output.
"""

from __future__ import annotations

import json
import os
import resource
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def main(argv: list[str]) -> int:
    base, name, parser, limit_mb = Path(argv[0]), argv[1], argv[2], int(argv[3])
    os.environ.setdefault("DO_NOT_TRACK", "1")
    sys.path.insert(0, str(ROOT))
    from tests.hostile.corpus import by_name
    from tests.hostile.outcome import Outcome, run

    case = by_name(name)
    if parser == "unstructured":
        # Import before the cap: torch and friends map large address ranges.
        import docparse.backends.unstructured  # noqa: F401
    limit = limit_mb * 2**20
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    try:
        out = run(case, base, parser)
    except BaseException as exc:  # noqa: BLE001 - reported to the parent test
        out = Outcome(result="raw", raw=f"{type(exc).__name__}: {exc}"[:500])
    print(json.dumps(out.to_dict()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
