"""Firms and watchlists in a research conversation: a firm name that only begins several firms'
names is a clarifying question with their identifiers and counts; "what's new for my
watchlists?" is answered from the saved watchlists, cited to the new documents' pages."""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

import regnb
from regnb.agent._firms import (
    asks_repeats,
    asks_watchlist,
    firm_question,
    firm_records,
    repeats_table,
)
from regnb.agent._plan import plan_message
from regnb.agent._stages import Ask, Plan, Scope, Topic
from regnb.agent.agent import ExtractiveAgent
from regnb.agent.types import TurnResult
from regnb.catalog import load_catalog
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


@pytest.mark.parametrize(
    "plan",
    [
        Plan("m", "q", topic=Topic(names=("Special",)), scope=Scope(datasets=("fda_guidance",))),
        Plan("m", "q", topic=Topic(names=("Special",)), ask=Ask(shape="recommend")),
    ],
)
def test_a_question_about_guidance_asks_no_firm(plan: Plan) -> None:
    """ "When can a change go in as a Special 510(k)?": 'Special' begins firms' names, but what
    guidance says is asked, not which firm."""
    assert firm_question(_Firms(_frame("prefix", "prefix")), plan, "enterprise") is None


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


@pytest.mark.parametrize(
    ("message", "asks"),
    [
        ("Were any observations repeats?", True),
        ("Which findings were repeated at the next inspection?", True),
        ("recurring observations at Acme", True),
        ("What did the 483 find?", False),
    ],
)
def test_a_repeat_question_is_recognised(message: str, asks: bool) -> None:
    assert asks_repeats(message) is asks


def _repeat_rows() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "section": ["21 CFR 211.113", None],
            "title": ["Control of microbiological contamination", None],
            "finding": ["Observation 1", "Observation 2"],
            "document_id": ["later", "other"],
            "date": pd.to_datetime(["2021-06-01", "2021-06-01"]),
            "page_num": [1, 2],
            "earlier_finding": [None, "Observation 4"],
            "earlier_document_id": ["earlier", "earlier"],
            "earlier_date": pd.to_datetime(["2019-03-01", "2019-03-01"]),
            "earlier_page_num": [1, 3],
        }
    )


def test_repeat_findings_are_a_table_of_data() -> None:
    plan = Plan("Were any of Acme's observations repeats?", "q", topic=Topic(names=("Acme",)))
    asked: list[str] = []

    def repeats(name: str) -> pd.DataFrame:
        asked.append(name)
        return _repeat_rows()

    table = repeats_table(plan, [], repeats)
    assert asked == ["Acme"]
    assert table is not None and table.kind == "repeats"
    assert [r.cells for r in table.rows] == [
        (
            "Form 483 2021-06-01",
            "Observation 1 (page 1)",
            "21 CFR 211.113 (Control of microbiological contamination)",
            "an observation of the Form 483 2019-03-01",
        ),
        (
            "Form 483 2021-06-01",
            "Observation 2 (page 2)",
            "marked a repeat",
            "Observation 4 of the Form 483 2019-03-01",
        ),
    ]
    assert [r.document_id for r in table.rows] == ["later", "other"]
    empty = repeats_table(plan, [], lambda name: _repeat_rows().iloc[:0])
    assert empty is not None and not empty.rows and "No finding of Acme" in empty.note
    assert repeats_table(Plan("m", "q"), [], repeats) is None  # no firm asked about


def test_a_repeat_question_gets_the_sites_repeat_findings(tmp_path: Path) -> None:
    from regnb.firms.timeline import firm_repeats
    from tests.firm_corpus import linked_documents

    regnb.write_corpus(tmp_path / "corpus", linked_documents(), encoder=HASHING, progress=False)
    settings = Settings(**{**Settings.from_env().__dict__, "home": tmp_path / "home"})
    with regnb.Engine(
        tmp_path / "corpus", encoder=HASHING, settings=settings, progress=False
    ) as engine:
        agent = ExtractiveAgent(engine, repeats=functools.partial(firm_repeats, engine))
        result = ask(agent, "Were any of Acme Sterile's 483 observations repeats?")
        plain = ask(ExtractiveAgent(engine), "Were any of Acme Sterile's 483 observations repeats?")
    text = result.answer or ""
    assert "### Repeat findings: Acme Sterile" in text
    assert "21 CFR 211.113" in text.split("### Repeat findings")[1]
    assert text.index("### Repeat findings") < text.index("### Key documents")
    assert "### Repeat findings" not in (plain.answer or "")


class _KabiFirms:
    """A firm-aware source: "Fresenius Kabi" is one firm's whole name and begins another's."""

    rows = pd.DataFrame(
        [
            {"id": "f1", "name": "Fresenius Kabi Ag", "match": "name"},
            {"id": "f2", "name": "Fresenius Kabi USA LLC", "match": "prefix"},
        ]
    )

    def firm(self, name_or_id: str, *, limit: int = 20, plan: str | None = None) -> pd.DataFrame:
        return self.rows.head(limit)

    def timeline(self, entity: Any, *, plan: str | None = None) -> pd.DataFrame:
        dataset = "fda_warning_letters" if entity["id"] == "f1" else "fda_483"
        return pd.DataFrame(
            [
                {
                    "document_id": f"doc-{entity['id']}",
                    "dataset": dataset,
                    "title": entity["name"],
                    "date": "2021-01-01",
                    "page_num": 1,
                    "url": None,
                }
            ]
        )


@pytest.mark.parametrize(
    ("message", "names"),
    [
        ("Give me Fresenius Kabi's FDA history - 483s and warning letters.", 2),
        ("What did FDA find at Fresenius Kabi?", 1),  # the firm so named
    ],
)
def test_a_firms_history_gathers_every_firm_its_name_begins(message: str, names: int) -> None:
    plan = plan_message(
        message,
        catalog=load_catalog(),
        plan_name="enterprise",
        today=dt.date(2026, 11, 1),
        df=lambda ws: {},
    )
    plan = replace(
        plan,
        topic=replace(
            plan.topic,
            firms=("Fresenius Kabi",),
            corpus_firms={"Fresenius Kabi": "Fresenius Kabi Ag"},
        ),
    )
    [record] = firm_records(_KabiFirms(), plan, "enterprise")
    assert len(record.names) == names
