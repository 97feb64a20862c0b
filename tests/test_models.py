"""The wire models: each rebuilds the exact bytes the server sends (real responses, captured from
the app in-process, optional and extension fields included), and each served OpenAPI schema names
exactly its model's fields."""

from __future__ import annotations

import dataclasses
import json
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest

import regnb
from regnb.conversations._store import ConversationStore
from regnb.conversations.service import ConversationService
from regnb.conversations.testing import FakeAgent
from regnb.models import (
    Citation,
    ConversationAccepted,
    ConversationList,
    ConversationRead,
    ConversationStopped,
    ConversationSummary,
    DatasetStatus,
    ProducedDocument,
    ProducedDocumentEntry,
    Question,
    Step,
    Turn,
    Wire,
)
from regnb.server import create_app
from regnb.server.accounts import Accounts
from regnb.server.errors import json_bytes
from regnb.server.openapi import openapi_document
from regnb.server.testing import FakeClock

from .conftest import doc

WAIT = 30.0
SCHEMAS = openapi_document()["components"]["schemas"]


def assert_round_trip(model: type[Wire], resp: httpx.Response) -> Wire:
    """`model` rebuilt from the response gives the response's own bytes again."""
    assert resp.status_code in (200, 202), resp.text
    body = resp.json()
    parsed = model.from_dict(body)
    assert json_bytes(parsed.to_dict()) == resp.content
    assert json.dumps(parsed.to_dict()) == json.dumps(body)  # same keys, in the same order
    return parsed


class Api:
    """The conversation endpoints of an app in-process, for one key."""

    def __init__(self, client: httpx.AsyncClient, service: ConversationService, key: str) -> None:
        self.client, self.service, self.headers = client, service, {"x-api-key": key}

    async def get(self, path: str) -> httpx.Response:
        return await self.client.get(path, headers=self.headers)

    async def post(self, path: str, **kwargs: Any) -> httpx.Response:
        headers = {**self.headers, **kwargs.pop("headers", {})}
        return await self.client.post(path, headers=headers, **kwargs)

    async def start(self, message: str, **kwargs: Any) -> httpx.Response:
        return await self.post("/api/v3/conversations", json={"message": message}, **kwargs)

    async def read(self, cid: str, wait: float = 0) -> httpx.Response:
        return await self.get(f"/api/v3/conversations/{cid}?wait={wait}")

    async def finished(self, message: str) -> tuple[str, httpx.Response]:
        cid = (await self.start(message)).json()["conversation_id"]
        resp = await self.read(cid, WAIT)
        assert resp.json()["status"] != "running"
        return cid, resp


@pytest.fixture
def served(engine: regnb.Engine, accounts: Accounts, keys: dict, tmp_path: Path):
    """The app over the sample engine, its conversations answered by the fake agent."""

    @asynccontextmanager
    async def make(
        plan: str = "ent", gate: threading.Event | None = None
    ) -> AsyncIterator[tuple[Api, httpx.AsyncClient]]:
        settings = dataclasses.replace(
            engine.settings, home=tmp_path / "home", rate_limit_per_minute=0
        )
        app = create_app(engine, settings=settings, accounts=accounts, clock=FakeClock())
        state = app.state.regnb
        state.conversations.close()
        state.conversations = ConversationService(
            FakeAgent(engine, gate=gate),
            ConversationStore.under(settings.home),
            settings,
            FakeClock(1_700_000_000.0),
        )
        transport = httpx.ASGITransport(app=app)
        try:
            async with httpx.AsyncClient(transport=transport, base_url="http://regnb.test") as c:
                yield Api(c, state.conversations, keys[plan]), c
        finally:
            state.conversations.close()

    return make


@pytest.mark.anyio
async def test_every_conversation_answer_round_trips_through_its_model(served) -> None:
    async with served() as (api, _):
        started = await api.start(
            "Who failed sterility testing?", headers={"Idempotency-Key": "k1"}
        )
        assert started.status_code == 202
        accepted = assert_round_trip(ConversationAccepted, started)
        cid = started.json()["conversation_id"]
        read = await api.read(cid, WAIT)
        conversation = assert_round_trip(ConversationRead, read)
        assert isinstance(conversation, ConversationRead)
        page, passage = conversation.turns[0].citations
        assert page.block_id is None and "block_id" not in page.to_dict()
        assert passage.block_id == "¶1" and passage.parent_index == page.index
        retry = await api.start("Who failed sterility testing?", headers={"Idempotency-Key": "k1"})
        assert retry.status_code == 200
        assert assert_round_trip(ConversationAccepted, retry) == dataclasses.replace(
            accepted, status="completed"
        )
        follow = await api.post(
            f"/api/v3/conversations/{cid}/messages", json={"message": "and recalls? [clarify]"}
        )
        assert_round_trip(ConversationAccepted, follow)
        asked = assert_round_trip(ConversationRead, await api.read(cid, WAIT))
        assert isinstance(asked, ConversationRead) and asked.status == "needs_input"
        assert asked.turns[-1].question == Question(
            "Which dataset do you mean?", ("Form 483", "Recalls")
        )
        _, failed = await api.finished("q [fail]")
        errored = assert_round_trip(ConversationRead, failed)
        assert isinstance(errored, ConversationRead) and errored.error
        stop = await api.post(f"/api/v3/conversations/{cid}/stop")
        assert assert_round_trip(ConversationStopped, stop) == ConversationStopped(cid, False)
        listed = assert_round_trip(ConversationList, await api.get("/api/v3/conversations"))
        assert isinstance(listed, ConversationList) and listed.total == 2
        assert all(isinstance(c, ConversationSummary) for c in listed.conversations)


@pytest.mark.anyio
async def test_a_running_turn_round_trips_with_its_steps_and_a_stop_answers_true(served) -> None:
    gate = threading.Event()
    try:
        async with served(gate=gate) as (api, _):
            cid = (await api.start("q")).json()["conversation_id"]
            with anyio.fail_after(WAIT):
                while not (await api.read(cid)).json()["turns"][0].get("steps"):
                    await anyio.sleep(0.01)
            running = assert_round_trip(ConversationRead, await api.read(cid))
            assert isinstance(running, ConversationRead)
            (turn,) = running.turns
            assert turn.status == "running" and turn.steps and isinstance(turn.steps[0], Step)
            stop = await api.post(f"/api/v3/conversations/{cid}/stop")
            assert assert_round_trip(ConversationStopped, stop) == ConversationStopped(cid, True)
            stopped = assert_round_trip(ConversationRead, await api.read(cid))
            assert stopped == ConversationRead(cid, "stopped", running.url, (), (), None)
    finally:
        gate.set()


@pytest.mark.anyio
async def test_produced_documents_round_trip_with_a_gone_files_available_false(served) -> None:
    async with served("paid") as (api, _):
        cid, read = await api.finished("q [text] [file] [image]")
        listed = {d["title"]: d["id"] for d in read.json()["documents"]}
        base = f"/api/v3/conversations/{cid}/documents/"
        text = assert_round_trip(ProducedDocument, await api.get(base + listed["Report"]))
        assert isinstance(text, ProducedDocument) and text.content and text.url is None
        sheet = assert_round_trip(ProducedDocument, await api.get(base + listed["Letters"]))
        assert isinstance(sheet, ProducedDocument) and sheet.content is None
        assert sheet.url and sheet.filename and sheet.expires_in and sheet.available is None
        with api.service.store.read() as tx:
            row = tx.document(cid, listed["Chart"])
        assert row is not None
        (api.service.store.files / row["path"]).unlink()
        gone = assert_round_trip(ConversationRead, await api.read(cid))
        assert isinstance(gone, ConversationRead)
        entries = {d.title: d for d in gone.documents}
        assert entries["Chart"].available is False and entries["Report"].available is None
        assert '"available":false' in (await api.read(cid)).text
        chart = assert_round_trip(ProducedDocument, await api.get(base + listed["Chart"]))
        assert isinstance(chart, ProducedDocument) and chart.available is False


@pytest.mark.anyio
async def test_every_dataset_status_of_real_searches_round_trips(served, keys: dict) -> None:
    bodies = [
        {"keywords": ["sterility"]},
        {"keywords": ["sterility"], "date_from": "2021-01-01"},
        {"keywords": ["zzzqqq"]},
        {"keywords": ["sterility zzzqqq"]},
        {"keywords": ["sterility"], "datasets": ["fda_crl", "fda_483", "ema_epar"]},
    ]
    seen: dict[str, set[str]] = {}
    async with served() as (_, client):
        for plan in ("ent", "paid"):
            for body in bodies:
                resp = await client.post(
                    "/api/v3/search", json=body, headers={"x-api-key": keys[plan]}
                )
                assert resp.status_code == 200, resp.text
                for status in resp.json()["datasets"].values():
                    again = DatasetStatus.from_dict(status).to_dict()
                    assert json.dumps(again) == json.dumps(status)
                    seen.setdefault(status["status"], set()).update(status)
    assert {"ok", "forbidden", "no_match", "not_available"} <= set(seen)
    assert "loosened" in seen["ok"]  # `reason` (only on `skipped`): see the table below


def test_a_skipped_datasets_status_round_trips_with_its_reason(make_engine) -> None:
    undated = {
        "id": "acme_sops",
        "name": "ACME SOPs",
        "jurisdiction": "US · ACME",
        "available": True,
        "enterprise": False,
        "date_field": None,
        "filters": {},
        "fields": ["title", "url"],
    }
    eng = make_engine(
        {"acme_sops": [doc("SOP", ["alpha"], date=None)], "fda_483": [doc("A", ["alpha"])]},
        catalog=[undated],
    )
    res = eng.search(["alpha"], datasets=["acme_sops", "fda_483"], date_from="2000-01-01")
    statuses = json.loads(json_bytes(res.to_dict()))["datasets"]  # what the server sends
    assert statuses["acme_sops"] == {"status": "skipped", "reason": "no date field"}
    for status in statuses.values():
        assert json.dumps(DatasetStatus.from_dict(status).to_dict()) == json.dumps(status)


# --- the models alone -------------------------------------------------------------------------


def test_a_model_is_frozen_ignores_unknown_keys_and_needs_its_required_ones() -> None:
    body = {"conversation_id": "conv_1", "stopped": True, "later": "ignored"}
    stopped = ConversationStopped.from_dict(body)
    assert stopped.to_dict() == {"conversation_id": "conv_1", "stopped": True}
    with pytest.raises(dataclasses.FrozenInstanceError):
        stopped.stopped = False  # type: ignore[misc]
    with pytest.raises(KeyError):
        ConversationStopped.from_dict({"conversation_id": "conv_1"})


@pytest.mark.parametrize(
    ("model", "body"),
    [
        (
            Citation,
            {"index": 1, "name": "n", "dataset": "d", "date": None, "page_num": None, "url": "u"},
        ),
        (
            Citation,
            {
                "index": 2,
                "name": "n",
                "dataset": "d",
                "date": "2020-01-02",
                "page_num": 3,
                "url": "u",
                "block_id": "¶2-4",
                "parent_index": None,  # a passage citation names its page, even when unknown
            },
        ),
        (ProducedDocumentEntry, {"id": "d", "title": "t", "type": "file", "created_at": None}),
        (DatasetStatus, {"status": "ok", "matches": 0, "pages": 5, "loosened": True}),
        (DatasetStatus, {"status": "skipped", "reason": "no date field"}),
        (DatasetStatus, {"status": "forbidden"}),
        (
            Turn,
            {
                "turn_index": 0,
                "message": "m",
                "status": "completed",
                "answer": "a",
                "citations": [],
                "question": None,
                "submitted_at": None,
            },
        ),
    ],
)
def test_optional_fields_are_sent_only_when_present(
    model: type[Wire], body: dict[str, Any]
) -> None:
    assert json.dumps(model.from_dict(body).to_dict()) == json.dumps(body)


# --- the OpenAPI document is derived from the models ----------------------------------------

SCHEMA_MODELS: list[tuple[str, type[Wire]]] = [
    ("ConversationAccepted", ConversationAccepted),
    ("ConversationSummary", ConversationSummary),
    ("ConversationList", ConversationList),
    ("Citation", Citation),
    ("Turn", Turn),
    ("ProducedDocumentEntry", ProducedDocumentEntry),
    ("Conversation", ConversationRead),
    ("ConversationStopped", ConversationStopped),
    ("ProducedDocument", ProducedDocument),
    ("DatasetStatus", DatasetStatus),
]


@pytest.mark.parametrize(("name", "model"), SCHEMA_MODELS, ids=[n for n, _ in SCHEMA_MODELS])
def test_each_served_schema_names_exactly_its_models_fields(name: str, model: type[Wire]) -> None:
    schema = SCHEMAS[name]
    assert list(schema["properties"]) == [f.name for f in dataclasses.fields(model)]  # type: ignore[arg-type]
    assert schema["required"] == model.required_keys()
    assert schema["additionalProperties"] is False


def test_a_turns_steps_and_question_schemas_are_their_models_fields() -> None:
    turn = SCHEMAS["Turn"]["properties"]
    step = turn["steps"]["items"]
    question = next(s for s in turn["question"]["oneOf"] if s.get("type") == "object")
    assert list(step["properties"]) == Step.wire_keys() and step["required"] == ["message", "count"]
    assert list(question["properties"]) == Question.wire_keys()


def test_a_schema_that_drifts_from_its_model_is_refused() -> None:
    from regnb.server.openapi._schema import model_schema

    with pytest.raises(ValueError, match="ConversationStopped"):
        model_schema(ConversationStopped, {"conversation_id": {"type": "string"}})
