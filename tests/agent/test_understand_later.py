"""A history asked from a starting point ("what did FDA find in 2019, and did it escalate
later?"), and a firm named by one word before its trade's word ("Nubratori Rx")."""

from __future__ import annotations

import datetime as dt

import pytest

from regnb.agent._understand import understand

TODAY = dt.date(2026, 12, 7)
DATASETS = ["fda_483", "fda_warning_letters"]


def _firms(name: str) -> str | None:
    return "Zentrix Inc dba Zentrix Rx" if name.lower() == "zentrix" else None


@pytest.mark.parametrize(
    ("message", "date_to"),
    [
        ("Zentrix Rx (Ohio 503B): what did FDA find in 2021, and did it escalate later?", None),
        ("What did FDA find at Zentrix in 2021, and what happened afterwards?", None),
        ("What did FDA find at Zentrix in 2021?", "2021-12-31"),
        ("Which 2021 letters were later withdrawn?", None),  # still: what came after 2021
    ],
)
def test_a_date_followed_by_later_opens_the_period_after_it(
    message: str, date_to: str | None
) -> None:
    got = understand(message, datasets=DATASETS, today=TODAY, firms=_firms)
    assert len(got.periods) == 1
    assert got.periods[0].date_from == "2021-01-01"
    assert got.periods[0].date_to == date_to


def test_escalation_asks_for_the_firms_history() -> None:
    got = understand(
        "Zentrix Rx (Ohio 503B): what did FDA find in 2021, and did it escalate later?",
        datasets=DATASETS,
        today=TODAY,
        firms=_firms,
    )
    assert got.kind == "history"
    assert [f.known for f in got.firms] == ["Zentrix Inc dba Zentrix Rx"]


@pytest.mark.parametrize(
    ("message", "pointer", "firm"),
    [
        (
            "I recall the 2019 CRL for Zentrix's nasal spray faulted the stability data - what "
            "exactly did it say?",
            "stability data",
            "Zentrix Inc dba Zentrix Rx",
        ),
        ("I recall it faulted the human factors data", "human factors data", None),
        ("I think the Zentrix letter said something about blue dust", "blue dust", None),
    ],
)
def test_a_pointer_is_what_the_document_said_not_the_document(
    message: str, pointer: str, firm: str | None
) -> None:
    """What comes before "faulted" names the document (its firm is read as a firm); the
    pointer is what follows, up to an aside after a dash."""
    got = understand(message, datasets=["fda_crl"], today=TODAY, firms=_firms)
    assert got.pointers == (pointer,)
    if firm is not None:
        assert [f.known for f in got.firms] == [firm]
