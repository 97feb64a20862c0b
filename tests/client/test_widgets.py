"""The notebook widgets over the remote client work as over the local engine (no browser)."""

from __future__ import annotations

import dataclasses
import html
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("ipywidgets", reason="pip install 'regnb[notebook]' for the widget tests")

from regnb.client import Client, connect
from regnb.client.testing import AppTransport
from regnb.conversations.testing import FakeAgent
from regnb.server import create_app
from regnb.server.accounts import Accounts
from regnb.server.testing import make_keys
from regnb.widgets import ResearchChat, SearchPanel
from regnb.widgets._polling import ManualScheduler

BASE = "http://regnb.test"


@pytest.fixture(scope="module")
def remote(engine, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Client]:
    """An enterprise client of the sample engine served in-process with the fake agent."""
    engine.agent_factory = FakeAgent(engine)
    accounts = Accounts(tmp_path_factory.mktemp("widgets") / "accounts.sqlite3")
    settings = dataclasses.replace(engine.settings, rate_limit_per_minute=0, public_url=BASE)
    app = create_app(engine, settings=settings, accounts=accounts)
    with connect(
        BASE, make_keys(accounts)["ent"], plan="enterprise", transport=AppTransport(app)
    ) as client:
        yield client
    app.state.regnb.conversations.close()
    accounts.close()


def panel_state(panel: SearchPanel) -> dict[str, Any]:
    return {
        "result": panel.result.to_dict() if panel.result else None,
        "rows": [html.unescape(r.summary.value) for r in panel.rows.rows],
        "summary": panel.summary.value,
        "status": panel.status.value,
    }


def test_the_search_panel_over_the_client_shows_what_it_shows_over_the_engine(remote, engine):
    panels = []
    for api in (remote, engine):
        panel = SearchPanel(api, keywords=["sterility review"], query="sterility failures")
        panel.picker.select(["fda_483", "fda_guidance"])
        panel.search_button.click()
        row = next(r for r in panel.rows.rows if r.doc["title"] == "Form 483 long record")
        row.toggle.click()
        row.pages.children[0].children[0].click()  # opens the reader at the best page
        panels.append((panel_state(panel), panel.viewer.body.value, panel.viewer.page))
    assert panels[0] == panels[1]
    assert panels[0][0]["result"]["total"] > 0


def test_the_research_chat_over_the_client_runs_a_conversation_to_its_answer(remote):
    clock = ManualScheduler()
    chat = ResearchChat(remote, scheduler=clock)
    chat.input.value = "Which plants failed sterility assurance? [image]"
    chat.send_button.click()
    while clock.tick():
        pass
    assert not chat.running and chat.data is not None and chat.data["status"] == "completed"
    shown = html.unescape(
        " ".join(str(getattr(c, "value", "")) for c in chat.turns.children[0].children)
    )
    assert "In short:" in shown
    conversation = chat.conversation
    assert conversation is not None
    assert conversation.to_dict() == remote.read_conversation(chat.conversation_id).to_dict()
