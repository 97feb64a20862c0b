"""The suite's own order: the modules named to run first exist (a renamed one would silently
fall back to its place in the collection, and one worker would run it at the end)."""

from __future__ import annotations

import pytest

from tests.conftest import LONGEST_FIRST, TESTS


@pytest.mark.parametrize("name", LONGEST_FIRST)
def test_each_module_named_to_run_first_exists(name: str) -> None:
    assert (TESTS / name).is_file(), f"tests/conftest.py LONGEST_FIRST names {name}, not a file"
