"""Opening a remote engine: connect's key, and the command line's choice of server or corpus."""

from __future__ import annotations

from typing import Any

import pytest

import regnb
from regnb import errors
from regnb.client import AsyncClient, Client, connect, connect_async, engine_from_args
from regnb.server.testing import sample_documents

URL = "https://regsearch.example.com"


def test_connect_takes_the_key_from_regnb_api_key(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("REGNB_API_KEY", "from-env")
    with connect(URL + "/api/v3/") as client:
        assert isinstance(client, Client) and client.base_url == URL
        assert client._api_key == "from-env"
    assert isinstance(connect_async(URL), AsyncClient)


def test_connect_without_a_key_says_how_to_give_one(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delenv("REGNB_API_KEY", raising=False)
    with pytest.raises(errors.MissingApiKey, match="api_key= or set REGNB_API_KEY"):
        connect(URL)


@pytest.mark.parametrize(
    ("server", "env"),
    [
        (URL, {"REGNB_API_KEY": "k"}),
        (None, {"REGNB_SERVER": URL, "REGNB_API_KEY": "k"}),
        (URL, {"REGNB_SERVER": "https://other.example.com", "REGNB_API_KEY": "k"}),
    ],
)
def test_a_server_from_the_option_or_the_environment_gives_a_client(server, env):
    engine = engine_from_args(server, environ=env)
    assert isinstance(engine, Client) and engine.base_url == URL
    engine.close()


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"corpus": "~/regcorpus"}, "corpus"),
        ({"fast_encoder": True}, "fast_encoder"),
        ({"plan": "free"}, "plan"),
    ],
)
def test_local_options_with_a_server_are_refused_naming_the_option(kwargs: dict[str, Any], field):
    with pytest.raises(errors.InvalidRequest) as info:
        engine_from_args(URL, environ={"REGNB_API_KEY": "k"}, **kwargs)
    assert info.value.field == field
    assert "--" + field.replace("_", "-") in info.value.message


def test_a_server_without_a_key_is_a_missing_key():
    with pytest.raises(errors.MissingApiKey):
        engine_from_args(URL, environ={})


@pytest.fixture
def corpus(tmp_path) -> str:
    regnb.write_corpus(
        tmp_path / "c", sample_documents(), encoder=regnb.HashingEncoder(), progress=False
    )
    return str(tmp_path / "c")


@pytest.mark.parametrize(
    ("server", "env", "plan"),
    [
        (None, {}, None),
        (None, {"REGNB_SERVER": URL}, "free"),  # an explicit corpus beats REGNB_SERVER
        ("", {"REGNB_SERVER": URL}, "paid"),  # --server "" means local
    ],
)
def test_without_a_server_the_local_corpus_opens(corpus: str, server, env, plan):
    engine = engine_from_args(server, corpus, plan=plan, fast_encoder=True, environ=env)
    with engine:
        assert isinstance(engine, regnb.Engine)
        assert engine.plan == (plan or "enterprise")
        assert engine.search(["sterility"], limit=1).total > 0


def test_the_public_names_are_sorted_and_each_resolves():
    import regnb.client as client

    assert client.__all__ == sorted(client.__all__, key=lambda n: (not n.isupper(), n))
    for name in client.__all__:
        assert getattr(client, name) is not None
    with pytest.raises(AttributeError):
        _ = client.nothing_here


def test_the_paging_mixin_loads_without_httpx():
    import subprocess
    import sys

    code = "import sys, regnb.client.paging; print('httpx' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
