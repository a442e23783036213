"""The ruled-table fixture PDFs that the ruled-grid tests compare against ``find_tables``."""

from pathlib import Path

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "pdf"
RULED = [
    FIXTURES / "icdar2013-eu-001" / "eu-001.pdf",
    FIXTURES / "icdar2013-us-001" / "us-001.pdf",
    FIXTURES / "icdar2013-us-003" / "us-003.pdf",
    FIXTURES / "us-020" / "us-020.pdf",
]


def ruled_pdfs() -> list[Path]:
    """The fixtures of :data:`RULED`; a missing one fails the test rather than skipping it."""
    found = [p for p in RULED if p.exists()]
    assert found, "ruled-table fixtures are missing"
    return found
