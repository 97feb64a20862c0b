"""On the demo corpus, a remote engine answers as the local one: in-process, and over loopback
against `regnb serve` in its own process (MiniLM ranks in both, so these tests are slow)."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pandas.testing as pdt
import pytest

import regnb
from regnb.client import Client, connect
from regnb.client.paging import read_all, search_all
from regnb.client.testing import AppTransport
from regnb.conversations.testing import open_service
from regnb.results import SearchResult
from regnb.server import create_app
from regnb.server._conversations import http_account
from regnb.server.accounts import Accounts, accounts_path
from regnb.settings import Settings
from tests.serving import free_port, regnb_serve

pytestmark = pytest.mark.slow


@dataclasses.dataclass
class Demo:
    engine: regnb.Engine
    settings: Settings
    key: str
    account: str


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Demo]:
    """The demo corpus opened locally, its index and keys under a home of this module."""
    home = tmp_path_factory.mktemp("demo-home")
    settings = dataclasses.replace(Settings.from_env(), home=home, rate_limit_per_minute=0)
    engine = regnb.Engine(settings=settings, progress=False)
    with Accounts(accounts_path(settings)) as accounts:
        key = accounts.create_key("acme", "enterprise").key
        caller = accounts.lookup(key)
    assert caller is not None
    yield Demo(engine, settings, key, http_account(caller))
    engine.close()


@pytest.fixture(scope="module")
def loopback(demo: Demo, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """`regnb serve` on the demo corpus in its own process, sharing the module's home."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log_path = tmp_path_factory.mktemp("serve") / "serve.log"
    env = dict(os.environ, REGNB_HOME=str(demo.settings.home), REGNB_PUBLIC_URL=base)
    env["REGNB_RATE_LIMIT_PER_MINUTE"] = "0"
    args = ["--log-level", "warning", "--no-access-log"]
    with regnb_serve(args, env=env, log=log_path, port=port):
        yield base


@pytest.fixture(scope="module", params=["in-process", "loopback"])
def remote(request: pytest.FixtureRequest, demo: Demo) -> Iterator[Client]:
    """A client of the demo corpus: the app in this process, or `regnb serve` over TCP."""
    if request.param == "loopback":
        base = request.getfixturevalue("loopback")
        with connect(base, demo.key) as client:
            yield client
        return
    app = create_app(demo.engine, settings=demo.settings)
    with connect("http://regnb.test", demo.key, transport=AppTransport(app)) as client:
        yield client
    app.state.regnb.conversations.close()


def assert_same_search(got: SearchResult, want: SearchResult) -> None:
    """Equal results; scores equal to float precision (MiniLM may run in another process)."""
    assert (got.total, got.next_offset, got.ranking) == (want.total, want.next_offset, want.ranking)
    assert got.dataset_statuses == want.dataset_statuses
    pdt.assert_frame_equal(got.documents, want.documents)
    pdt.assert_frame_equal(got.pages, want.pages)
    pdt.assert_frame_equal(got.statuses, want.statuses)


SEARCHES: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = [
    (
        "README: one firm's sterility record",
        (
            ["sterility", "aseptic processing"],
            "Which sterility assurance failures did FDA cite at this site?",
        ),
        {
            "datasets": ["fda_warning_letters", "fda_483"],
            "date_from": "2015-01-01",
            "filters": {
                "fda_483": {"fei_number": "3000975914"},
                "fda_warning_letters": {"company": "Sandhaven Life Sciences"},
            },
        },
    ),
    ("query over every dataset", (["media fill"], "aseptic process simulation failures"), {}),
    (
        "one dataset, bm25, second page",
        (["sterility"],),
        {"datasets": ["fda_483"], "limit": 5, "offset": 5},
    ),
    (
        "several datasets between dates",
        (["recall", "contamination"],),
        {
            "datasets": ["fda_recalls", "fda_recall_enforcement", "fda_warning_letters"],
            "date_from": "2018-01-01",
            "date_to": "2023-12-31",
            "limit": 10,
        },
    ),
    (
        "enum filters",
        (["guidance"], "process validation for sterile products"),
        {
            "datasets": ["fda_guidance", "fda_recall_enforcement"],
            "filters": {
                "fda_guidance": {"status": "final", "center": "CDER"},
                "fda_recall_enforcement": {"classification": "Class II"},
            },
        },
    ),
    ("loosened", (["sterility zebra quantum"],), {"datasets": ["fda_483", "fda_guidance"]}),
    ("last slice", (["sterility"],), {"limit": 50, "offset": 450}),
]


@pytest.mark.parametrize(
    ("args", "kwargs"), [s[1:] for s in SEARCHES], ids=[s[0] for s in SEARCHES]
)
def test_a_remote_search_of_the_demo_corpus_equals_the_local_one(
    remote: Client, demo: Demo, args, kwargs
):
    assert_same_search(remote.search(*args, **kwargs), demo.engine.search(*args, **kwargs))


def test_search_all_reads_and_legacy_calls_equal_the_local_ones(remote: Client, demo: Demo):
    engine = demo.engine
    everything = remote.search_all(["media fill"], "aseptic process simulation failures")
    assert_same_search(
        everything, search_all(engine, ["media fill"], "aseptic process simulation failures")
    )
    assert len({r["document_id"] for r in everything.results}) == len(everything.results)
    longest = max(everything.results[:20], key=lambda r: r["matched_pages"])["document_id"]
    for page_from, page_to in [(1, None), (2, 3), (1, 1)]:
        got = remote.read(longest, page_from, page_to)
        assert got.to_dict() == engine.read(longest, page_from, page_to).to_dict()
    assert remote.read_all(longest).to_dict() == read_all(engine, longest).to_dict()
    assert remote.datasets().to_dict() == engine.datasets().to_dict()
    for args, kwargs in [
        (("sterility", 10), {}),
        (("media fill", 5, 5), {"dataset_to_search": ["fda_483"], "year_from": 2010}),
    ]:
        got, want = remote.legacy_search(*args, **kwargs), engine.legacy_search(*args, **kwargs)
        pdt.assert_frame_equal(got.results, want.results)
    hit = engine.legacy_search("media fill", 1).rows[0]
    assert (
        remote.legacy_contents(hit["doc_id"], 5, 1).to_dict()
        == engine.legacy_contents(hit["doc_id"], 5, 1).to_dict()
    )


def test_a_conversation_on_the_demo_corpus_over_loopback_reads_as_the_service_keeps_it(
    loopback: str, demo: Demo
):
    with connect(loopback, demo.key) as client:
        conv = client.ask("Which firms got warning letters for media fill failures?")
        conv.wait(progress=False)
        remote = conv.to_dict()
    assert remote["status"] == "completed", remote["error"]
    service = open_service(demo.settings.home, public_url=loopback)
    try:
        local = service.read(demo.account, conv.id).to_dict()
    finally:
        service.close()
    assert remote == local
    assert conv.answer and "[1]" in conv.answer
    assert len(conv.citations) == len(local["turns"][0]["citations"]) > 0


def test_export_from_a_server_writes_the_documents_a_local_export_writes(
    demo: Demo, loopback: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import pandas as pd

    from regnb.cli import main

    monkeypatch.setenv("REGNB_API_KEY", demo.key)
    out = tmp_path / "remote.parquet"
    args = ["export", "sterility", "-d", "fda_483", "--to", str(out), "--batch-size", "7"]
    assert main([*args, "--server", loopback]) == 0
    local = demo.engine.matches(["sterility"], datasets=["fda_483"])
    got = pd.read_parquet(out)
    assert len(got) == len(local) > 7  # more than one batch, over HTTP
    assert got.document_id.tolist() == local.document_id.tolist()
    assert got.cfr.map(list).tolist() == local.cfr.tolist()
