"""Atheris fuzz target for the ``pymupdf`` parser.

Run one: ``python -m tests.fuzz.fuzz_pymupdf -max_total_time=60 CORPUS_DIR``;
all: ``python -m tests.fuzz.run --seconds 60``.
"""

import sys

import atheris

from tests.fuzz.common import instrument, make_target

if __name__ == "__main__":
    instrument("pymupdf")
    TestOneInput = make_target("pymupdf")
    atheris.Setup(sys.argv, TestOneInput)
    atheris.Fuzz()
