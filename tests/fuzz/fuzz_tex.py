"""Atheris fuzz target for the ``tex`` parser.

Run one: ``python -m tests.fuzz.fuzz_tex -max_total_time=60 CORPUS_DIR``;
all: ``python -m tests.fuzz.run --seconds 60``.
"""

import sys

import atheris

from tests.fuzz.common import instrument, make_target

if __name__ == "__main__":
    instrument("tex")
    TestOneInput = make_target("tex")
    atheris.Setup(sys.argv, TestOneInput)
    atheris.Fuzz()
