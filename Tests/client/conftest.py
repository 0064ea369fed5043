"""Fixtures for the client tests: a workspace folder with the test configuration."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reference import WORKSPACE_CONFIG


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """A workspace folder whose ``.highlights.json`` adds the ``ticket`` and ``cafe`` rules."""
    root = tmp_path / "workspace"
    root.mkdir()
    (root / ".highlights.json").write_text(json.dumps(WORKSPACE_CONFIG, ensure_ascii=False), encoding="utf-8")
    return root
