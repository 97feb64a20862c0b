"""Shared fixtures: small corpora written by the tests themselves, with known answers."""

from __future__ import annotations

import itertools
import logging
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import regnb
from regnb.server.accounts import Accounts
from regnb.server.testing import make_keys, open_sample
from regnb.settings import Settings
from tests.postgres_support import PgServer, start_server

TESTS = Path(__file__).resolve().parent
# The modules that take minutes, longest first (`--durations`). xdist hands whole files to its
# workers in collection order (`--dist loadfile`), so these go first and the shorter files fill
# in around them: the workers finish together instead of one running a long file at the end.
LONGEST_FIRST = (
    "test_binder.py",
    "test_readme.py",
    "test_ray.py",
    "test_research_benchmark.py",
    "index/test_segments.py",
    "agent/test_realcorpus.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    rank = {name: i for i, name in enumerate(LONGEST_FIRST)}

    def order(item: pytest.Item) -> int:
        path = Path(item.path)
        name = path.relative_to(TESTS).as_posix() if path.is_relative_to(TESTS) else ""
        return rank.get(name, len(rank))

    items.sort(key=order)  # stable: every other test keeps its place


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


@pytest.fixture(scope="session")
def s3_server() -> Iterator[str]:
    """An S3-compatible server (moto's) on loopback, for this test process; its endpoint URL."""
    from moto.server import ThreadedMotoServer

    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # a line per request otherwise
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    yield f"http://{host}:{port}"
    server.stop()


@pytest.fixture
def s3_bucket(s3_server: str, monkeypatch: pytest.MonkeyPatch) -> str:
    """A new, empty bucket on the loopback S3 server, with the environment pointing at it (as
    pyarrow and boto read it); its URL, `s3://<bucket>`."""
    import boto3

    for name, value in {
        "AWS_ENDPOINT_URL": s3_server,
        "AWS_ACCESS_KEY_ID": "testing",
        "AWS_SECRET_ACCESS_KEY": "testing",
        "AWS_REGION": "us-east-1",
        "AWS_EC2_METADATA_DISABLED": "true",
    }.items():
        monkeypatch.setenv(name, value)
    bucket = f"regnb-{next(_BUCKETS)}"
    boto3.client("s3").create_bucket(Bucket=bucket)
    return f"s3://{bucket}"


_BUCKETS = itertools.count()


class _CountingSecrets:
    """`secrets` for `regnb.corpus.shards` with tokens from a counter: two corpora written the same
    way get the same salt and shard ids, so the same bytes wherever they are written."""

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self._count = itertools.count()

    def token_hex(self, nbytes: int = 32) -> str:
        return f"{next(self._count):0{2 * nbytes}x}"


@pytest.fixture
def same_ids(monkeypatch: pytest.MonkeyPatch) -> _CountingSecrets:
    """Salts and shard ids from a counter (`reset()` before each corpus to write alike)."""
    from regnb.corpus import shards

    fake = _CountingSecrets()
    monkeypatch.setattr(shards, "secrets", fake)
    return fake
