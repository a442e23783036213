"""Atheris fuzz target for the ``pdfplumber`` parser.

Run one: ``python -m tests.fuzz.fuzz_pdfplumber -max_total_time=60 CORPUS_DIR``;
all: ``python -m tests.fuzz.run --seconds 60``.
"""

import sys

import atheris

from tests.fuzz.common import instrument, make_target

if __name__ == "__main__":
    instrument("pdfplumber")
    TestOneInput = make_target("pdfplumber")
    atheris.Setup(sys.argv, TestOneInput)
    atheris.Fuzz()
