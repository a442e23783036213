"""Shared test fixtures.

Golden files under ``fixtures/golden`` are compared, never rewritten, unless
pytest runs with ``--update-golden``.
"""

from __future__ import annotations

import difflib
import itertools
import os
from collections.abc import Callable
from pathlib import Path

import pytest
from doc_golden import document_golden, dumps
from hypothesis import settings

from docparse.model import Document

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
GOLDEN = FIXTURES / "golden"
#: The shared corpus beside the project; tests that need it skip when absent.
CORPUS = Path(os.environ.get("DOCPARSE_CORPUS", ROOT.parent / "shared" / "corpus"))

os.environ.setdefault("DO_NOT_TRACK", "1")

# Property tests: ``ci`` replays the same examples on every machine and run
# (derandomized, no example database), so a red CI means a real change;
# ``explore`` draws fresh random examples with a larger budget (``make explore``)
# to find new failures, which are then fixed and pinned with ``@example``.
settings.register_profile("ci", derandomize=True, database=None, deadline=None, print_blob=True)
settings.register_profile("explore", derandomize=False, deadline=None, print_blob=True)
#: Multiplier of each property test's own ``max_examples`` in the explore profile.
EXPLORE_FACTOR = int(os.environ.get("HYPOTHESIS_EXPLORE_FACTOR", "10"))
#: When set, every property test in the explore profile runs exactly this many examples.
EXPLORE_EXAMPLES = os.environ.get("HYPOTHESIS_EXPLORE_EXAMPLES")
settings.load_profile(
    os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "default")
)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        default=False,
        help="Rewrite golden JSON files under fixtures/golden from the current output.",
    )


def _profile_line() -> str:
    current = settings.default
    return (
        f"hypothesis profile: {settings.get_current_profile_name()} "
        f"(derandomize={current.derandomize}, database="
        f"{'none' if current.database is None else 'on'})"
    )


def pytest_report_header(config: pytest.Config) -> str:
    return _profile_line()


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    # Also at the end, where -q and CI logs show it.
    terminalreporter.write_line(_profile_line())


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """In the explore profile, raise every property test's example budget.

    A test's own ``@settings(max_examples=...)`` wins over any profile, so the
    budget is raised on the settings object ``@given`` reads at call time.
    """
    if settings.get_current_profile_name() != "explore":
        return
    for item in items:
        fn = getattr(item, "obj", None)
        own = getattr(fn, "_hypothesis_internal_use_settings", None)
        if own is None:
            continue
        budget = int(EXPLORE_EXAMPLES) if EXPLORE_EXAMPLES else own.max_examples * EXPLORE_FACTOR
        fn._hypothesis_internal_use_settings = settings(own, max_examples=budget, derandomize=False)


@pytest.fixture(scope="session")
def fixtures_dir() -> Path:
    """The checkout's ``fixtures/`` folder: the one place tests find their input files."""
    return FIXTURES


def fixture_files(*patterns: str) -> list[Path]:
    """Files under ``fixtures/`` matching the glob ``patterns`` (no SOURCE notes)."""
    found = {p for pattern in patterns for p in FIXTURES.glob(pattern)}
    return sorted(p for p in found if p.name != "SOURCE.txt")


@pytest.fixture(scope="session")
def fixture_texts() -> list[Path]:
    """The plain-text documents under ``fixtures/texts``."""
    return fixture_files("texts/*/*.txt")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """``@pytest.mark.fixture_files(*globs)``: the test runs once per matching file
    under ``fixtures/``, passed as its ``fixture_file`` argument."""
    marker = metafunc.definition.get_closest_marker("fixture_files")
    if marker is not None:
        files = fixture_files(*marker.args)
        metafunc.parametrize("fixture_file", files, ids=[p.name for p in files])


@pytest.fixture
def corpus_dir() -> Path:
    if not CORPUS.is_dir():
        pytest.skip(f"shared corpus not found at {CORPUS}")
    return CORPUS


@pytest.fixture
def golden(request: pytest.FixtureRequest) -> Callable[[str, Document], None]:
    """``golden(name, doc)``: compare the whole of ``doc`` with ``fixtures/golden/name.json``.

    The file is written by :func:`doc_golden.document_golden`; a difference fails
    with the unified diff, so the changed unit and field are named.
    """
    update = bool(request.config.getoption("--update-golden"))

    def check(name: str, doc: Document) -> None:
        path = GOLDEN / f"{name}.json"
        text = dumps(document_golden(doc)) + "\n"
        if update:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            return
        if not path.exists():
            pytest.fail(f"golden file {path} missing; run pytest --update-golden to create it")
        expected = path.read_text(encoding="utf-8")
        if text != expected:
            diff = difflib.unified_diff(
                expected.splitlines(), text.splitlines(), "golden", "parse", lineterm="", n=2
            )
            shown = "\n".join(itertools.islice(diff, 80))
            pytest.fail(f"output differs from golden {path.name} (--update-golden):\n{shown}")

    return check
