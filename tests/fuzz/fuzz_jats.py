"""Atheris fuzz target for the ``jats`` parser.

Run one: ``python -m tests.fuzz.fuzz_jats -max_total_time=60 CORPUS_DIR``;
all: ``python -m tests.fuzz.run --seconds 60``.
"""

import sys

import atheris

from tests.fuzz.common import instrument, make_target

if __name__ == "__main__":
    instrument("jats")
    TestOneInput = make_target("jats")
    atheris.Setup(sys.argv, TestOneInput)
    atheris.Fuzz()
