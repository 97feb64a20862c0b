"""Comparisons of two periods: each side is planned, searched and answered on its own, so that
neither half of "before 2019 vs after 2022" is lost."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from regnb.agent._dates import find_periods
from regnb.agent.agent import ExtractiveAgent
from tests.agent_support import open_agent_corpus, request

TODAY = dt.date(2026, 11, 26)


@pytest.mark.parametrize(
    ("message", "sides"),
    [
        (
            "data integrity letters before 2019 vs after 2022",
            [(None, "2018-12-31"), ("2023-01-01", None)],
        ),
        (
            "media fill findings in 2018 versus 2024",
            [("2018-01-01", "2018-12-31"), ("2024-01-01", "2024-12-31")],
        ),
        (
            "CRLs of 2016 compared with 2023",
            [("2016-01-01", "2016-12-31"), ("2023-01-01", "2023-12-31")],
        ),
        (
            "How did FDA's 2026 warning letter to Acme differ from the 2023 one?",
            [("2026-01-01", "2026-12-31"), ("2023-01-01", "2023-12-31")],
        ),
        (
            "Compare the 2019 and 2020 inspections of Acme",
            [("2019-01-01", "2019-12-31"), ("2020-01-01", "2020-12-31")],
        ),
    ],
)
def test_two_periods_compared_are_both_kept(message: str, sides: list[tuple]) -> None:
    found = find_periods(message, TODAY)
    assert found is not None
    assert [(p.date_from, p.date_to) for p in found] == sides


@pytest.mark.parametrize(
    "message",
    [
        "the 2016 and 2017 letters",
        "since 2020",
        "warning letters in 2021",
        "recalls",
        "how did letters change between 2019 and 2022?",  # one span, not two sides
        "compare the 2019, 2020 and 2021 letters",  # three years: not two sides
        "what changed in 2024?",
    ],
)
def test_one_period_is_not_a_comparison(message: str) -> None:
    assert find_periods(message, TODAY) is None


def test_a_comparison_of_periods_answers_each_side_apart(tmp_path: Path) -> None:
    eng = open_agent_corpus(tmp_path)
    try:
        agent = ExtractiveAgent(eng, producer=lambda answer, formats: [])
        message = "Compare warning letters about media fill failures before 2020 vs after 2020"
        req = request(message, first=1)
        answer = agent.answer(agent.plan(req), req)
    finally:
        eng.close()
    labels = [t.label for t in answer.themes]
    assert labels[0].startswith("Before 2020 (") and labels[1].startswith("After 2020 (")
    before = " ".join(f.text for f in answer.themes[0].findings)
    after = " ".join(f.text for f in answer.themes[1].findings)
    assert "Borealis Injectables" in before and "Acme Sterile Pharma" not in before
    assert "Acme Sterile Pharma" in after and "Borealis Injectables" not in after
    assert "dated to 2019-12-31 and, apart, from 2021-01-01" in answer.scope[0]
