"""`create_app`: the conversation service it is handed, and the one it makes by default."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from starlette.testclient import TestClient

import regnb
from regnb.conversations._store import ConversationStore
from regnb.conversations.service import ConversationService
from regnb.conversations.testing import FakeAgent
from regnb.server import create_app
from regnb.server.accounts import Accounts


def test_the_app_runs_the_conversation_service_it_is_handed(
    engine: regnb.Engine, accounts: Accounts, tmp_path: Path
) -> None:
    settings = dataclasses.replace(engine.settings, home=tmp_path / "home")
    made: list[ConversationService] = []

    def conversations() -> ConversationService:
        store = ConversationStore.under(settings.home)
        made.append(ConversationService(FakeAgent(engine), store, settings))
        return made[-1]

    app = create_app(engine, settings=settings, accounts=accounts, conversations=conversations)
    assert app.state.regnb.conversations is made[0]
    for _ in range(2):  # an app started again after its shutdown makes a new service
        with TestClient(app):
            assert app.state.regnb.conversations is made[-1]
    assert len(made) == 2
    assert all(service.closed for service in made)


def test_by_default_a_local_engine_answers_with_its_own_agent(
    engine: regnb.Engine, accounts: Accounts, tmp_path: Path
) -> None:
    settings = dataclasses.replace(engine.settings, home=tmp_path / "home", public_url="http://t")
    agent = FakeAgent(engine)
    engine.agent_factory = agent
    try:
        app = create_app(engine, settings=settings, accounts=accounts)
        service = app.state.regnb.conversations
        started = service.start("acme", "enterprise", "Who failed sterility testing?", None)
        done = service.read("acme", started.body.conversation_id, 30)
        assert done.status == "completed"
        assert [r.message for r in agent.requests] == ["Who failed sterility testing?"]
        service.close()
    finally:
        engine.agent_factory = None
