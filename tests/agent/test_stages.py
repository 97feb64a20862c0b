"""The values that pass between the agent's stages: a plan in sections that survives JSON, reads
the flat plans turns stored before it had sections, and a follow-up still plans against them;
every stage value is frozen; searches merge; the documents read replace those found."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
from collections.abc import Sequence
from typing import Any

import pytest

from regnb.agent._dates import DateRange
from regnb.agent._followup import plan_turn
from regnb.agent._plan import plan_message
from regnb.agent._stages import (
    Ask,
    FollowUp,
    Found,
    Plan,
    Scope,
    Searches,
    Topic,
    as_read,
)
from regnb.agent.types import PriorTurn
from regnb.catalog import load_catalog

TODAY = dt.date(2025, 6, 1)
CATALOG = load_catalog()
WEIGHT = 4.605170185988092

# Two plans as turns stored them before plans had sections (every field at the top).
FLAT_WHICH: dict[str, Any] = {
    "message": "Which sterile drug makers got warning letters for media fill failures since "
    "2018? Put the letters in an Excel table.",
    "query": "Which sterile drug makers got warning letters for media fill failures since 2018?",
    "identifiers": [],
    "identifier_kinds": {},
    "phrases": ["sterile drug", "media fill"],
    "names": [],
    "words": ["failures"],
    "soft_words": [],
    "pairs": [],
    "weights": {"failures": WEIGHT, "sterile drug": WEIGHT, "media fill": WEIGHT},
    "datasets": ["fda_warning_letters"],
    "named_datasets": ["fda_warning_letters"],
    "weakly_named": False,
    "unsearchable": {},
    "date_from": "2018-01-01",
    "date_to": None,
    "date_text": "since 2018",
    "formats": ["xlsx"],
    "which_firms": True,
    "shape": "which",
    "periods": [],
    "filters": {"fda_warning_letters": {"company": "Acme"}},
    "require": ["California"],
    "restrict_documents": ["d1", "d2"],
    "exclude_documents": ["d0"],
    "subjects": ["d1"],
}
FLAT_COMPARE: dict[str, Any] = {
    **FLAT_WHICH,
    "message": "Warning letters about sterility before 2019 vs after 2022",
    "query": "Warning letters about sterility before 2019 vs after 2022",
    "date_from": None,
    "date_to": None,
    "date_text": None,
    "shape": "compare",
    "periods": [[None, "2018-12-31", "before 2019"], ["2023-01-01", None, "after 2022"]],
}


def fake_df(words: Sequence[str]) -> dict[str, float]:
    return {w: 0.01 for w in words}


def planned(message: str) -> Plan:
    return plan_message(message, catalog=CATALOG, plan_name="enterprise", today=TODAY, df=fake_df)


def test_a_flat_plan_as_turns_stored_it_loads_into_sections() -> None:
    got = Plan.from_dict(FLAT_WHICH)
    assert got == Plan(
        message=FLAT_WHICH["message"],
        query=FLAT_WHICH["query"],
        topic=Topic(
            phrases=("sterile drug", "media fill"),
            words=("failures",),
            weights={"failures": WEIGHT, "sterile drug": WEIGHT, "media fill": WEIGHT},
        ),
        scope=Scope(
            datasets=("fda_warning_letters",),
            named_datasets=("fda_warning_letters",),
            dates=DateRange("2018-01-01", None, "since 2018"),
            filters={"fda_warning_letters": {"company": "Acme"}},
        ),
        follow_up=FollowUp(
            require=("California",),
            restrict_documents=("d1", "d2"),
            exclude_documents=("d0",),
            subjects=("d1",),
        ),
        ask=Ask(shape="which", which_firms=True, formats=("xlsx",)),
    )


def test_a_flat_comparison_loads_its_periods_and_no_dates() -> None:
    got = Plan.from_dict(FLAT_COMPARE)
    assert got.scope.dates is None
    assert got.ask.periods == (
        DateRange(None, "2018-12-31", "before 2019"),
        DateRange("2023-01-01", None, "after 2022"),
    )


@pytest.mark.parametrize("flat", [FLAT_WHICH, FLAT_COMPARE])
def test_a_flat_plan_loaded_is_written_back_in_sections(flat: dict[str, Any]) -> None:
    loaded = Plan.from_dict(flat)
    written = loaded.to_dict()
    assert set(written) == {"message", "query", "topic", "scope", "follow_up", "ask"}
    assert Plan.from_dict(json.loads(json.dumps(written))) == loaded


@pytest.mark.parametrize(
    "message",
    [
        "Which sterile drug makers got warning letters for media fill failures since 2018?",
        "Warning letters about sterility before 2019 vs after 2022",
        "What did the 483 for FEI 3001234567 cite? Make slides",
    ],
)
def test_a_plan_survives_json(message: str) -> None:
    original = planned(message)
    assert Plan.from_dict(json.loads(json.dumps(original.to_dict()))) == original


def test_unknown_keys_of_a_stored_plan_are_ignored() -> None:
    flat = {**FLAT_WHICH, "retired_field": 1}
    assert Plan.from_dict(flat) == Plan.from_dict(FLAT_WHICH)
    sectioned = Plan.from_dict(FLAT_WHICH).to_dict()
    sectioned["topic"]["retired_field"] = 1
    assert Plan.from_dict(sectioned) == Plan.from_dict(FLAT_WHICH)


def test_a_follow_up_is_planned_against_a_flat_plan_of_an_earlier_turn() -> None:
    flat = {**FLAT_WHICH, "require": [], "restrict_documents": [], "subjects": []}
    state = {"plan": flat, "documents": ["d1", "d2"], "firms": [], "subjects": [], "seen": []}
    earlier = PriorTurn(flat["message"], "completed", "answer", [], None, state)
    got = plan_turn(
        "Only those in California",
        [earlier],
        catalog=CATALOG,
        plan_name="enterprise",
        today=TODAY,
        df=fake_df,
    )
    assert got.follow_up.restrict_documents == ("d1", "d2")
    assert got.scope.places_in == ("US-CA",)  # where the firms are, not a word of their pages
    assert got.follow_up.require == ()
    assert got.topic.phrases == ("sterile drug", "media fill")
    assert got.scope.date_from == "2018-01-01"


@pytest.mark.parametrize(
    ("value", "field"),
    [
        (Plan("m", "q"), "query"),
        (Topic(), "words"),
        (Scope(), "datasets"),
        (FollowUp(), "require"),
        (Ask(), "shape"),
        (Searches(), "found"),
    ],
)
def test_stage_values_are_frozen(value: object, field: str) -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(value, field, None)


def found(doc: str, pages: tuple[int, ...] = (1,), weak: bool = False) -> Found:
    return Found(doc, "fda_483", f"Title {doc}", None, None, {}, 1.0, pages, weak)


def test_searches_merge_new_documents_statuses_where_none_matched_and_totals() -> None:
    first = Searches(
        (found("a"), found("b")),
        {"x": {"status": "ok"}, "y": {"status": "no_match"}},
        {"x": 2, "y": 0},
        ("y",),
    )
    second = Searches(
        (found("b", (9,)), found("c")),
        {"x": {"status": "no_match"}, "y": {"status": "ok"}, "z": {"status": "ok"}},
        {"x": 1, "z": 3},
        ("y", "z"),
    )
    merged = first.merged(second)
    assert [(f.document_id, f.pages) for f in merged.found] == [
        ("a", (1,)),
        ("b", (1,)),
        ("c", (1,)),
    ]
    assert merged.statuses == {
        "x": {"status": "ok"},
        "y": {"status": "ok"},
        "z": {"status": "ok"},
    }
    assert merged.totals == {"x": 3, "y": 0, "z": 3}
    assert merged.reformulated == ("y", "z")
    assert [f.document_id for f in first.found] == ["a", "b"]  # the first searches unchanged


def test_the_documents_read_replace_those_given_to_the_reader_and_no_other() -> None:
    searched = found("a", (3, 7))
    example = found("a", (1,))  # the same document, found again as a counted term's example
    other = found("b")
    read = dataclasses.replace(example, pages=(1, 2, 3))
    got = as_read([searched, example, other], {id(example): read})
    assert got == (searched, read, other)
