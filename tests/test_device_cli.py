"""``croupier device shoe``'s refusals: one line on stderr, exit 2, nothing sent."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from croupier.cli import app

SHOE = ["device", "shoe", "http://127.0.0.1:9", "fcp-reader"]


def test_device_shoe_without_a_token_is_one_line_naming_the_variable() -> None:
    result = CliRunner(env={"CROUPIER_READER_TOKEN": ""}).invoke(app, SHOE)
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and "CROUPIER_READER_TOKEN" in result.stderr


@pytest.mark.parametrize("fault", ["misread", "lost@3", "skip@0", "skip@x"])
def test_device_shoe_refuses_a_fault_that_is_not_name_at_card(fault: str) -> None:
    env = {"CROUPIER_READER_TOKEN": "reader-x"}
    result = CliRunner(env=env).invoke(app, [*SHOE, "--fault", fault])
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and "NAME@N" in result.stderr
