"""Atheris fuzz target for the ``s2orc`` parser.

Run one: ``python -m tests.fuzz.fuzz_s2orc -max_total_time=60 CORPUS_DIR``;
all: ``python -m tests.fuzz.run --seconds 60``.
"""

import sys

import atheris

from tests.fuzz.common import instrument, make_target

if __name__ == "__main__":
    instrument("s2orc")
    TestOneInput = make_target("s2orc")
    atheris.Setup(sys.argv, TestOneInput)
    atheris.Fuzz()
