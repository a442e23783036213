"""Atheris fuzz target for the ``unstructured`` parser.

Run one: ``python -m tests.fuzz.fuzz_unstructured -max_total_time=60 CORPUS_DIR``;
all: ``python -m tests.fuzz.run --seconds 60``.
"""

import sys

import atheris

from tests.fuzz.common import instrument, make_target, warm_up

if __name__ == "__main__":
    instrument("unstructured")
    TestOneInput = make_target("unstructured")
    warm_up(TestOneInput, "unstructured")
    atheris.Setup(sys.argv, TestOneInput)
    atheris.Fuzz()
