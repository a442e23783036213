"""Error messages name the file once: ``str(error)`` is what a user or a manifest row reads."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from hostile.corpus import CASES, PDF_BACKENDS, build, by_name

import docparse
from docparse.backends.pymupdf import PyMuPDFBackend, PyMuPDFConfig
from docparse.cli import main
from docparse.errors import DocparseError, EncryptedDocumentError, ParseError
from docparse.formats.jats import JatsConfig, JatsParser

#: The generated broken inputs (tests/hostile/corpus.py) that must end in an error.
ERROR_CASES = [c for c in CASES if not c.bomb and "ok" not in c.expect]


def _params() -> list[object]:
    # unstructured is left out: it takes seconds a file and raises through the same helpers.
    return [
        pytest.param(c.name, parser, id=f"{c.name}-{parser}")
        for c in ERROR_CASES
        for parser in c.parsers
        if parser != "unstructured"
    ]


@pytest.fixture(scope="module")
def broken(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build(tmp_path_factory.mktemp("broken"), [c.name for c in ERROR_CASES])


@pytest.mark.parametrize(("name", "parser"), _params())
def test_broken_input_error_names_the_file_once(broken: Path, name: str, parser: str) -> None:
    case = by_name(name)
    path = case.path(broken)
    backend = parser if parser in PDF_BACKENDS else None
    with pytest.raises(DocparseError) as info:
        docparse.parse(path, backend=backend, config=dict(case.config) or None)
    message = str(info.value)
    assert message.count(path.name) == 1, message
    assert info.value.path is not None and Path(info.value.path).name == path.name


def test_encrypted_pdf_reads_as_the_issue_asks(broken: Path) -> None:
    path = by_name("pdf_encrypted_no_password").path(broken)
    with pytest.raises(EncryptedDocumentError) as info:
        docparse.parse(path)
    assert str(info.value) == f"{path} is encrypted; pass password=..."
    res = CliRunner().invoke(main, ["show", str(path)])
    assert res.exit_code == 1
    assert res.stderr == f"Error: EncryptedDocumentError: {path} is encrypted; pass password=...\n"


def test_missing_file_is_named_once(tmp_path: Path) -> None:
    pdf, nxml = tmp_path / "gone.pdf", tmp_path / "gone.nxml"
    calls = [
        (pdf, lambda: docparse.parse(pdf)),
        # The parsers themselves, called without the API's existence check, get the
        # OSError, whose text names the file too.
        (pdf, lambda: PyMuPDFBackend().parse(pdf, PyMuPDFConfig())),
        (nxml, lambda: JatsParser().parse(nxml, JatsConfig())),
    ]
    for path, call in calls:
        with pytest.raises(DocparseError) as info:
            call()
        assert str(info.value).count(path.name) == 1, str(info.value)


def test_rendering_puts_the_path_before_a_message_that_does_not_name_it() -> None:
    assert str(ParseError("a/x.json", "invalid JSON")) == "a/x.json: invalid JSON"
    assert str(ParseError("a/x.pdf", "a/x.pdf is empty")) == "a/x.pdf is empty"
    assert str(ParseError("a/x.pdf", "x.pdf is empty")) == "x.pdf is empty"
    # A message that only begins with the same letters as the name does not name it.
    assert str(ParseError("a/x", "xml is broken")) == "a/x: xml is broken"
    assert str(ParseError(None, "no file here")) == "no file here"
