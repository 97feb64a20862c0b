"""Firms and watchlists in a research conversation: a firm name that only begins several firms'
names is a clarifying question with their identifiers and counts; "what's new for my
watchlists?" is answered from the saved watchlists, cited to the new documents' pages."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

import regnb
from regnb.agent._firms import asks_watchlist, firm_question
from regnb.agent._stages import Plan, Topic
from regnb.agent.agent import ExtractiveAgent
from regnb.agent.types import TurnResult
from regnb.settings import Settings
from regnb.watch import summary
from tests.agent_support import request

HASHING = regnb.HashingEncoder()


def letter(firm: str, fei: str, page: str, date: str = "2021-03-04") -> dict[str, Any]:
    return {
        "title": f"Warning Letter to {firm}",
        "date": date,
        "url": f"https://example.org/{fei}/{date}",
        "fields": {"company": firm},
        "pages": [f"Dear Sir or Madam: FDA inspected your facility, FEI {fei}.", page],
    }


CORPUS = {
    "fda_warning_letters": [
        letter("Acme Sterile, Inc.", "3001234567", "Media fill failures were not investigated."),
        letter("Acme Foods LLC", "3007654321", "Your hazard analysis is inadequate."),
        letter("Zenith Labs", "3005555555", "Cleaning validation was incomplete (21 CFR 211.67)."),
    ]
}


@pytest.fixture
def eng(tmp_path: Path) -> Iterator[regnb.Engine]:
    regnb.write_corpus(tmp_path / "corpus", CORPUS, encoder=HASHING, progress=False)
    settings = Settings(**{**Settings.from_env().__dict__, "home": tmp_path / "home"})
    with regnb.Engine(
        tmp_path / "corpus", encoder=HASHING, settings=settings, progress=False
    ) as engine:
        yield engine


def agent_of(eng: regnb.Engine) -> ExtractiveAgent:
    return ExtractiveAgent(eng, watched=lambda name: summary(eng, name))


def ask(agent: ExtractiveAgent, message: str, first: int = 1) -> TurnResult:
    return agent.run(request(message, first=first), lambda steps: None, lambda: False)


def test_a_name_that_begins_several_firms_is_a_question_with_their_counts(
    eng: regnb.Engine,
) -> None:
    result = ask(agent_of(eng), "What did FDA find at Acme?")
    assert result.status == "needs_input"
    assert result.question is not None
    assert sorted(result.question["options"]) == [
        "Acme Foods LLC (FEI 3007654321; 1 document)",
        "Acme Sterile, Inc. (FEI 3001234567; 1 document)",
    ]


@pytest.mark.parametrize(
    "message",
    [
        "What did FDA find at Zenith Labs?",  # one firm has that very name
        "What did FDA find at Acme Sterile?",  # the name begins one firm's only
        "What did FDA find at FEI 3001234567?",  # an identifier names one site
        "Summarize the warning letters FDA sent to Acme companies.",  # every one of them
        "What did FDA find at all Acme sites?",
    ],
)
def test_a_name_that_is_one_firm_asks_nothing(eng: regnb.Engine, message: str) -> None:
    assert ask(agent_of(eng), message).status == "completed"


class _Firms:
    def __init__(self, frame: pd.DataFrame) -> None:
        self.frame = frame

    def firm(self, name_or_id: str, *, limit: int = 20, plan: str | None = None) -> pd.DataFrame:
        return self.frame.head(limit)


def _frame(*matches: str) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "id": [f"f{i}" for i in range(len(matches))],
            "name": [f"Firm {i}" for i in range(len(matches))],
            "identifiers": [[f"FEI 300000000{i}"] for i in range(len(matches))],
            "documents": [10 - i for i in range(len(matches))],
            "match": list(matches),
        }
    )


@pytest.mark.parametrize(
    ("matches", "asks"),
    [
        (("prefix", "prefix"), True),
        (("prefix", "words", "prefix"), True),
        (("name", "prefix"), False),  # one firm has the name
        (("identifier",), False),
        (("prefix",), False),  # one candidate: no question
        ((), False),
    ],
)
def test_when_a_firm_name_asks(matches: tuple[str, ...], asks: bool) -> None:
    plan = Plan("m", "q", topic=Topic(names=("Firm",)))
    question = firm_question(_Firms(_frame(*matches)), plan, "enterprise")
    assert (question is not None) is asks
    if question is not None:
        assert question["options"][0] == "Firm 0 (FEI 3000000000; 10 documents)"


def test_a_source_without_firms_asks_nothing() -> None:
    plan = Plan("m", "q", topic=Topic(names=("Firm",)))
    assert firm_question(object(), plan, "enterprise") is None


@pytest.mark.parametrize(
    ("message", "asks"),
    [
        ("What's new for my watchlists?", True),
        ("anything new on the fills watch-list", True),
        ("Watchlist updates?", True),
        ("Which firms were warned about media fills?", False),
        ("watching the media fill trend", False),
    ],
)
def test_a_watchlist_question_is_recognised(message: str, asks: bool) -> None:
    assert asks_watchlist(message) is asks


def test_a_watchlist_question_is_answered_from_the_watchlists(eng: regnb.Engine) -> None:
    agent = agent_of(eng)
    none = ask(agent, "What's new for my watchlists?")
    assert none.status == "completed" and "You have no saved watchlists" in (none.answer or "")
    eng.watch("fills", ["media fill"])
    eng.watch("zenith", firms=["Zenith Labs"])
    regnb.write_corpus(
        eng.path,
        {
            "fda_warning_letters": [
                letter(
                    "Acme Sterile, Inc.",
                    "3001234567",
                    "Media fill runs failed again.",
                    "2026-10-01",
                )
            ]
        },
        encoder=HASHING,
        progress=False,
    )
    result = ask(agent, "What's new for my watchlists?", first=4)
    text = result.answer or ""
    assert result.status == "completed"
    assert "1 of your 2 watchlists has new documents" in text
    assert "“zenith” has nothing new" in text
    assert "### Watchlist “fills”: 1 new document" in text
    assert "Warning Letter to Acme Sterile, Inc. (FDA Warning Letters, 2026-10-01) [4]" in text
    [cited] = result.citations
    assert (cited.index, cited.page_num, cited.block_id) == (4, 2, None)
    assert eng.watchlist("fills").new()["document_id"].tolist() == [cited.document_id]  # unmarked
    named = ask(agent, "anything new on the zenith watchlist?")
    assert (named.answer or "").startswith("**In short:** Your watchlist “zenith” has nothing new")


def test_an_agent_without_watchlists_researches_the_question(eng: regnb.Engine) -> None:
    eng.watch("fills", ["media fill"])
    result = ask(ExtractiveAgent(eng), "What's new for my watchlists?")  # no `watched`
    assert "Watchlist" not in (result.answer or "")
    assert "You have no saved watchlists" not in (result.answer or "")
