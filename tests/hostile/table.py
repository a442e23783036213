"""Print the hostile-input table of the README's "Hostile input" section from a real run.

``python -m tests.hostile.table [--parsers pymupdf,pdfplumber,...]`` builds the
corpus in a temporary folder, parses every case with every applicable parser
(in this process; the memory bombs are harmless with the current parsers,
``test_hostile_bombs.py`` is what checks that under an rlimit) and prints one
Markdown row per case: what it is and what each parser gave.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from tests.hostile.corpus import CASES, build
from tests.hostile.outcome import problems, run


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--parsers", default="", help="comma-separated subset (default: all)")
    args = ap.parse_args(argv)
    wanted = {p for p in args.parsers.split(",") if p}
    base = build(Path(tempfile.mkdtemp(prefix="hostile-")))
    print("| case | input | parser | outcome |")
    print("|---|---|---|---|")
    bad = 0
    for c in CASES:
        cells = []
        for p in c.parsers:
            if wanted and p not in wanted:
                continue
            out = run(c, base, p)
            issues = problems(c, base, out)
            bad += bool(issues)
            got = out.result
            if got == "ok":
                got = "clean parse" + (f" (flags: {', '.join(out.flags)})" if out.flags else "")
            else:
                msg = out.message
                if out.error_path:
                    # The file's name is enough in the table; the folder is a temp dir.
                    msg = msg.replace(out.error_path, Path(out.error_path).name)
                msg = msg.replace(str(base), "...")
                got = f"`{got}`: {msg[:110]}"
            if issues:
                got += f" **FAILS: {'; '.join(issues)}**"
            cells.append((p, got))
        # One row per distinct outcome text, parsers grouped.
        grouped: dict[str, list[str]] = {}
        for p, got in cells:
            grouped.setdefault(got, []).append(p)
        for got, ps in grouped.items():
            print(f"| `{c.name}` | {c.note} | {', '.join(ps)} | {got.replace('|', '/')} |")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
