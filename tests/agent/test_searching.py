"""How the agent searches a dataset: a search whose full matches are too few to answer from is
searched again with the question's words one by one (regnb.agent._searching)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

import regnb
from regnb.agent._config import AgentConfig
from regnb.agent._plan import plan_message
from regnb.agent._searching import run_searches
from regnb.catalog import load_catalog
from tests.conftest import doc

REPORTS = [
    # holds every word asked, but not what is asked about
    doc(
        "MDR 1 - Cardiac monitor",
        ["The AI annotation found fractures of reconstruction on the CT."],
    ),
    # what is asked about, in other words
    doc("MDR 2 - AIR Recon DL", ["A patient fell in the MR room: fracture of the right toe."]),
    doc("MDR 3 - Deep learning recon", ["Patient arm fell off the CT table; fractures reported."]),
    *(doc(f"MDR {n} - Infusion pump", [f"Pump {n} stopped; no injury."]) for n in range(4, 16)),
]


def _search(engine: regnb.Engine, message: str) -> list[tuple[str, bool]]:
    plan = plan_message(
        message, catalog=load_catalog(), plan_name="enterprise", today=dt.date(2026, 11, 1),
        df=engine.document_frequency,
    )  # fmt: skip
    searches = run_searches(
        engine, plan, "enterprise", lambda ds: {}, str, lambda step: None, lambda: None,
        AgentConfig(),
    )  # fmt: skip
    return [(f.title, f.weak) for f in searches.found]


def test_fewer_full_matches_than_an_answer_needs_are_searched_again_word_by_word(
    make_engine: Callable[..., Any],
) -> None:
    engine = make_engine({"fda_maude": REPORTS})
    got = _search(engine, "What fractures show up in MAUDE reports for CT with AI reconstruction?")
    assert got[0] == ("MDR 1 - Cardiac monitor", False)  # the one full match, first
    weak = {title for title, weak in got if weak}
    assert {"MDR 2 - AIR Recon DL", "MDR 3 - Deep learning recon"} <= weak  # then some words


def test_enough_full_matches_are_not_searched_again(make_engine: Callable[..., Any]) -> None:
    many = [doc(f"MDR {n}", ["Fractures of the toe in the CT room."]) for n in range(5)]
    engine = make_engine({"fda_maude": [*many, REPORTS[1]]})
    got = _search(engine, "What fractures show up in MAUDE reports for the CT room?")
    assert got and not any(weak for _, weak in got)
