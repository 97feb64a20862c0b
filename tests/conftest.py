"""Shared fixtures: small corpora written by the tests themselves, with known answers."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import regnb
from regnb.accounts import Accounts
from regnb.server.testing import make_keys, open_sample
from regnb.settings import Settings
from tests.postgres_support import PgServer, start_server


@pytest.fixture(autouse=True)
def regnb_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets its own REGNB_HOME (index cache, keys, conversations)."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("REGNB_HOME", str(home))
    return home


def doc(
    title: str,
    pages: list[str],
    *,
    date: str | None = "2020-01-01",
    url: str | None = None,
    fields: dict[str, Any] | None = None,
    key: str | None = None,
) -> dict[str, Any]:
    """A document in `write_corpus` shape."""
    out: dict[str, Any] = {"title": title, "date": date, "url": url, "pages": pages}
    out["fields"] = fields or {}
    if key:
        out["key"] = key
    return out


@pytest.fixture
def make_engine(tmp_path: Path) -> Callable[..., regnb.Engine]:
    """Write a corpus and open it with the hashing encoder; `settings` overrides limits."""
    engines: list[regnb.Engine] = []
    counter = iter(range(1000))

    def make(
        docs: dict[str, list[dict[str, Any]]],
        *,
        catalog: list[dict[str, Any]] | None = None,
        **settings: Any,
    ) -> regnb.Engine:
        path = tmp_path / f"corpus{next(counter)}"
        if catalog:
            regnb.add_datasets(path, catalog)
        regnb.write_corpus(path, docs, encoder=regnb.HashingEncoder(), progress=False)
        base = Settings.from_env()
        engine = regnb.Engine(
            path,
            encoder=regnb.HashingEncoder(),
            settings=Settings(**{**base.__dict__, **settings}),
            progress=False,
        )
        engines.append(engine)
        return engine

    yield make  # type: ignore[misc]
    for engine in engines:
        engine.close()


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[regnb.Engine]:
    """The server tests' sample corpus, opened once per test module."""
    root = tmp_path_factory.mktemp("server")
    eng = open_sample(root / "corpus", root / "home")
    yield eng
    eng.close()


@pytest.fixture
def accounts(tmp_path: Path) -> Iterator[Accounts]:
    """A fresh key store."""
    with Accounts(tmp_path / "accounts.sqlite3") as acc:
        yield acc


@pytest.fixture
def keys(accounts: Accounts) -> dict[str, str]:
    """One key per plan (see `regnb.server.testing.make_keys`)."""
    return make_keys(accounts)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PgServer]:
    """A PostgreSQL server for this test process, started on first use (skipped where
    PostgreSQL is missing; under CI=true that fails)."""
    server = start_server()
    yield server
    server.stop()


@pytest.fixture
def postgres_url(postgres_server: PgServer) -> str:
    """The URL of a new, empty database on the test server."""
    return postgres_server.new_database()
