"""Where the tests find the repository, the shared real-document data beside the clone, and the
test fixtures, wherever the test module that asks sits under tests/."""

from __future__ import annotations

from pathlib import Path

__all__ = ["FIXTURES", "ROOT", "SHARED_DATA"]

ROOT = Path(__file__).resolve().parents[1]
SHARED_DATA = ROOT.parent / "shared" / "data"
FIXTURES = ROOT / "tests" / "fixtures"
