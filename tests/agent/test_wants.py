"""The kind of statement a question asks for (an amount, a time, a condition, a reason…), read
from its words, and the units of a guidance that make it chosen before those that only repeat
the question's words (regnb.agent._wants, regnb.agent._guidance)."""

from __future__ import annotations

import datetime as dt

import pytest

from regnb.agent._followup import plan_turn, turn_state
from regnb.agent._guidance import pick_recommendations
from regnb.agent._plan import plan_message
from regnb.agent._stages import Found, Passage
from regnb.agent._wants import holds_wanted, wanted, with_wanted
from regnb.agent.types import PriorTurn
from regnb.catalog import load_catalog
from regnb.documents.structure import Unit

CATALOG = load_catalog()
TODAY = dt.date(2026, 11, 1)


@pytest.mark.parametrize(
    ("message", "wants"),
    [
        ("What are the revenue cutoffs for a small business?", {"amount"}),
        ("How much is the fee for a de novo request?", {"amount"}),
        ("Handheld x-ray units: what leakage limit applies?", {"amount"}),
        ("Are there limits on endotoxin for intraocular devices?", {"amount"}),
        ("How soon must a firm report a correction to FDA?", {"time"}),
        ("What is the deadline for an annual report?", {"time"}),
        ("When can't a manufacturer use summary reporting?", {"condition"}),
        ("Which devices are exempt from the requirement?", {"condition", "examples"}),
        ("Who is eligible for the waiver?", {"condition"}),
        ("How many observations did the 483 list?", {"number"}),
        ("Why did FDA refuse to approve the application?", {"reason"}),
        ("What counts as delaying an inspection, for example refusing photos?", {"examples"}),
        ("What kinds of deficiencies did investigators cite?", {"examples"}),
        ("What type of problems were found?", {"examples"}),
        ("If we switch methods, what kind of submission do we need?", set()),
        ("What type of supplement is required for the change?", set()),
        ("What should the SBOM include?", {"content"}),
        ("What information must a recall strategy contain?", {"content"}),
        ("What does the cybersecurity guidance recommend?", set()),
        ("Summarize the 2024 warning letter to Acme Pharma.", set()),
    ],
)
def test_the_kind_of_statement_asked_for_is_read_from_the_question(
    message: str, wants: set[str]
) -> None:
    assert set(wanted(message)) == wants


@pytest.mark.parametrize(
    ("want", "text", "holds"),
    [
        ("amount", "gross receipts or sales of no more than $30 million", True),
        ("amount", "the total must not exceed 100 million dollars", True),
        ("amount", "a small business should submit its tax return", False),
        ("amount", "limits leakage radiation to 0.88 mGy in one hour", True),
        ("amount", "no more than 0.5 EU/mL of endotoxin", True),
        ("amount", "the operator should stand at a distance", False),
        ("time", "summary reports must be submitted on a quarterly basis", True),
        ("time", "within 30 calendar days of becoming aware", True),
        ("time", "the firm should describe its procedures", False),
        ("condition", "this does not apply to devices in the following codes", True),
        ("condition", "unless FDA notifies the manufacturer in writing", True),
        ("condition", "manufacturers should report malfunctions", False),
        ("reason", "outbreaks have been associated with endotoxin on instruments", True),
        ("reason", "because the data could not be verified", True),
        ("reason", "the lenses should be tested", False),
        ("examples", "such as refusing to allow photographs", True),
        ("content", "the SBOM should include the name of each component", True),
    ],
)
def test_a_text_makes_the_kind_of_statement_or_not(want: str, text: str, holds: bool) -> None:
    assert (holds_wanted(text, [want]) == 1.0) is holds


def test_nothing_wanted_leaves_the_evidence_as_it_was() -> None:
    assert with_wanted(0.4, "$30 million", ()) == 0.4
    assert holds_wanted("$30 million", ()) == 0.0
    # half of two wanted kinds stated: a share of the evidence, never more than 1
    got = with_wanted(1.0, "no more than $30 million", ("amount", "time"))
    assert 0.0 < got < 1.0


def _plan(message: str):
    return plan_message(
        message, catalog=CATALOG, plan_name="enterprise", today=TODAY, df=lambda ws: {}
    )


def test_the_plan_carries_what_is_wanted_and_a_follow_up_asks_anew() -> None:
    first = _plan("What does FDA's small business guidance say about 510(k) fees?")
    assert first.ask.wants == ("amount",)
    state = turn_state(first, ["g1"], [], [], subjects=["g1"])
    prior = [PriorTurn(first.message, "completed", "answer", [], None, state)]

    def follow(message: str) -> tuple[str, ...]:
        plan = plan_turn(
            message, prior, catalog=CATALOG, plan_name="enterprise", today=TODAY, df=lambda ws: {}
        )
        return plan.ask.wants

    assert follow("And when can't a firm qualify?") == ("condition",)
    same = follow("And for PMAs?")
    assert same == ("amount",)  # nothing new asked: the earlier turn's wants hold


TITLE = "Medical Device User Fee Small Business Qualification and Determination"


def _unit(heading: str, text: str, topic: float, kind: str = "recommendation") -> Passage:
    doc = Found("g1", "fda_guidance", TITLE, "2025-07-31", None, {}, 1.0, (1,), False)
    unit = Unit(1, 1, 1, text, kind, heading, None, ())
    return Passage(doc, 1, unit, keyword=topic, prior=1.0, topic=topic)


def test_a_unit_stating_the_amount_asked_for_is_chosen_though_it_says_no_should() -> None:
    wants = wanted("What are the revenue cutoffs?")
    filler = [
        _unit(f"Section {i}", f"You should send form {i} to the office.", 0.0) for i in range(6)
    ]
    cutoff_text = "You qualify if your gross receipts or sales are no more than $30 million."
    cutoff = _unit("Waiver", cutoff_text, with_wanted(0.0, cutoff_text, wants), kind="block")
    units = [*filler[:3], cutoff, *filler[3:]]
    assert cutoff in pick_recommendations(units, 3, wants=wants)
    assert cutoff not in pick_recommendations(units, 3)  # asked for nothing: no "should" in it


def test_a_why_question_reaches_the_guidance_background() -> None:
    wants = wanted("What does FDA recommend for endotoxin on lenses, and why?")
    assert "reason" in wants
    why_text = "Outbreaks of inflammation have been associated with endotoxin on instruments."
    body = [_unit("Limits", f"Lenses should be tested at limit {i}.", 0.3) for i in range(4)]
    asked = _unit("Background", why_text, with_wanted(0.2, why_text, wants), kind="block")
    assert asked in pick_recommendations([asked, *body], 3, wants=wants)
    plain = _unit("Background", why_text, 0.2, kind="block")  # the same, "why" not asked
    assert plain not in pick_recommendations([plain, *body], 3)


@pytest.mark.parametrize(
    ("message", "lists"),
    [
        # what kinds of finding many documents hold: one line per document, each its own
        (
            "Sterility problems on 2020 483s - what kinds of deficiencies did investigators write up?",
            True,
        ),
        ("Which compounders were cited for media fills?", True),
        ("What did the 2020 483 for Acme Pharma list?", False),
        ("What does FDA guidance recommend for sterility, for example which methods?", False),
    ],
)
def test_an_answer_lists_documents_a_line_each_when_many_kinds_are_asked_for(
    message: str, lists: bool
) -> None:
    assert _plan(message).ask.lists is lists
