"""Every CLI command and option is documented in ``docs/cli.md``.

The page has one ``## docparse NAME`` section per command; each option must appear there in
backticks under at least one of its spellings, so a new command or option cannot ship without
a line of reference (the way sqlite-utils checks its documentation).
"""

from __future__ import annotations

import re
from pathlib import Path

import click
import pytest

from docparse.cli import main

DOCS = Path(__file__).resolve().parents[2] / "docs" / "cli.md"


def _sections() -> dict[str, str]:
    text = DOCS.read_text(encoding="utf-8")
    parts = re.split(r"^## docparse (\S+)\s*$", text, flags=re.MULTILINE)
    return {parts[i]: parts[i + 1] for i in range(1, len(parts) - 1, 2)}


def _commands() -> list[tuple[str, click.Command]]:
    ctx = click.Context(main)
    return [(name, main.get_command(ctx, name)) for name in main.list_commands(ctx)]  # type: ignore[misc]


def test_every_command_has_a_section() -> None:
    sections = _sections()
    missing = [name for name, _ in _commands() if name not in sections]
    assert not missing, f"commands without a '## docparse NAME' section in {DOCS}: {missing}"


@pytest.mark.parametrize("name", [name for name, _ in _commands()])
def test_every_option_is_documented(name: str) -> None:
    command = dict(_commands())[name]
    section = _sections().get(name, "")
    undocumented = []
    for param in command.params:
        if not isinstance(param, click.Option) or param.hidden:
            continue
        spellings = [*param.opts, *param.secondary_opts]
        if not any(re.search(rf"`{re.escape(s)}[` ]", section) for s in spellings):
            undocumented.append("/".join(spellings))
    assert not undocumented, f"docparse {name}: options missing from {DOCS}: {undocumented}"
