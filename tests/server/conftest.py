"""Fixtures of the server tests that more than one module uses."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.postgres_support import PgServer, start_server


@pytest.fixture
def own_server() -> Iterator[PgServer]:
    """A PostgreSQL server of this test alone: the outage and freeze tests stop or freeze it
    and let it go again."""
    server = start_server()
    yield server
    server.stop()
