"""A guidance's structure (section headings, running lines, a draft's line numbers) and which of
its recommendations answer a question (regnb.agent._guidance)."""

from __future__ import annotations

import datetime as dt

import pytest

from regnb.agent._followup import plan_turn, turn_state
from regnb.agent._guidance import (
    aspect_terms,
    own_account,
    pick_recommendations,
    says_what_it_does,
)
from regnb.agent._plan import plan_message
from regnb.agent._rank import Term, plan_terms
from regnb.agent._research import _answered
from regnb.agent._stages import Found, Passage
from regnb.agent.types import PriorTurn
from regnb.catalog import load_catalog
from regnb.documents.structure import Unit, parse_document, running_lines
from regnb.documents.words import content_words, stem

CATALOG = load_catalog()
TODAY = dt.date(2026, 11, 1)
TITLE = "Cybersecurity in Medical Devices: Content of Premarket Submissions"


def _plan(message: str):
    return plan_message(
        message, catalog=CATALOG, plan_name="enterprise", today=TODAY, df=lambda ws: {}
    )


def _passage(heading: str, text: str, topic: float, kind: str = "recommendation") -> Passage:
    doc = Found("g1", "fda_guidance", TITLE, "2026-02-03", None, {}, 1.0, (1,), False)
    unit = Unit(1, 1, 1, text, kind, heading, None, ())
    return Passage(doc, 1, unit, keyword=topic, prior=1.0, topic=topic)


def test_a_section_number_on_its_own_line_heads_the_title_below_it() -> None:
    page = "III.\nRECOMMENDATIONS FOR IMPLEMENTING DCTS\n\nSponsors should plan visits.\n"
    units = parse_document("fda_guidance", {6: page})
    assert units[-1].heading == "RECOMMENDATIONS FOR IMPLEMENTING DCTS"
    assert units[-1].kind == "recommendation"


def test_a_drafts_line_numbers_do_not_hide_its_headings() -> None:
    page = (
        "212\n1.\nValidation\n214\n\n215\nThe Agency intends to exercise enforcement discretion.\n"
    )
    units = parse_document("fda_guidance", {8: page})
    assert units[-1].heading == "Validation"
    assert units[-1].kind == "recommendation"  # a stated policy, not only "should"


def test_the_title_atop_every_page_is_a_running_line_not_a_section() -> None:
    pages = {
        n: f"Guidance for Industry\n\nSection text {n} should be read.\n\nPage {n}"
        for n in range(2, 6)
    }
    assert "Guidance for Industry" in running_lines(pages)
    units = parse_document("fda_guidance", pages)
    assert all(u.heading != "Guidance for Industry" for u in units)
    assert all(u.kind == "furniture" for u in units if u.text == "Guidance for Industry")


def test_two_pages_alone_share_running_lines_only_when_both_carry_them() -> None:
    assert running_lines({1: "Title\n\nbody one"}) == frozenset()
    assert running_lines({1: "Title\n\nbody one", 2: "Title\n\nbody two"}) == {"Title"}


@pytest.mark.parametrize(
    ("message", "aspect"),
    [
        ("What should the SBOM include?", {"sbom"}),
        ("What does FDA guidance recommend for cybersecurity in premarket submissions?", set()),
        ("What should a plan for an AI-enabled device contain?", set()),
    ],
)
def test_the_asked_aspect_is_what_the_title_does_not_say(message: str, aspect: set[str]) -> None:
    title = "Cybersecurity in Medical Devices: Artificial Intelligence-Enabled Device Plans"
    terms = [t for t in plan_terms(_plan(message)) if not t.anchor]
    got = {t.text.lower() for t in aspect_terms(terms, title)}
    assert aspect <= got
    assert not got - {"sbom", "software bill of materials", "premarket submissions", "premarket"}


def test_the_units_about_the_question_come_first_in_the_guidances_order() -> None:
    units = [
        _passage("Introduction", "This guidance describes SBOM policy; FDA recommends it.", 0.9),
        _passage("Threat Modeling", "The threat model should be documented.", 0.1),
        _passage("SBOM", "The SBOM should be machine-readable.", 0.9),
        _passage("SBOM", "Manufacturers should list components in the SBOM.", 0.8),
        _passage("Testing", "Plain text with no advice.", 0.5, kind="text"),
    ]
    chosen = pick_recommendations(units, 3)
    assert [p.unit.text[:20] for p in chosen] == [
        u.unit.text[:20] for u in (units[0], units[2], units[3])
    ]


def test_a_unit_that_says_as_much_of_the_question_as_any_recommendation_is_listed() -> None:
    """What a guidance says of a product like the one asked about is often an example or a
    definition ("products that use optical sensing to estimate..."), not a "should"."""
    units = [
        _passage("Policy", "FDA does not intend to examine low risk products.", 0.2),
        _passage("Products", "Products that use optical sensing to estimate values.", 0.6, "text"),
        _passage("Products", "Labeling should not name a disease.", 0.4),
        _passage("Other", "An unrelated paragraph of text.", 0.1, kind="text"),
    ]
    chosen = [p.unit.heading + ": " + p.unit.text[:12] for p in pick_recommendations(units, 3)]
    assert chosen == ["Policy: FDA does not", "Products: Products tha", "Products: Labeling sho"]


def test_an_introduction_is_left_out_when_the_body_says_more() -> None:
    units = [
        _passage("Introduction", "FDA recommends reading this guidance.", 0.2),
        _passage("SBOM", "The SBOM should be machine-readable.", 0.9),
    ]
    assert [p.unit.heading for p in pick_recommendations(units, 2)] == ["SBOM"]


def test_nothing_about_the_question_gives_one_recommendation_of_each_section() -> None:
    units = [
        _passage("A", "Sponsors should do a1.", 0.0),
        _passage("A", "Sponsors should do a2.", 0.0),
        _passage("B", "Sponsors should do b1.", 0.0),
        _passage("C", "Sponsors should do c1.", 0.0),
    ]
    chosen = pick_recommendations(units, 3)
    assert sorted(p.unit.heading for p in chosen) == ["A", "B", "C"]


def test_a_follow_up_about_an_acronym_stays_with_the_documents_the_answer_was_about() -> None:
    first = _plan("What does FDA guidance recommend for cybersecurity in premarket submissions?")
    state = turn_state(first, ["g1", "g2"], [], [], subjects=["g1"])
    history = [PriorTurn("q", "completed", "answer", [], None, state)]
    got = plan_turn(
        "And what should the SBOM include?",
        history,
        catalog=CATALOG,
        plan_name="enterprise",
        today=TODAY,
        df=lambda ws: {},
    )
    assert got.topic.names == ()  # an acronym of the field is a topic, not a firm
    assert got.follow_up.subjects == ("g1",)
    assert "sbom" in got.topic.words


def test_a_guidances_own_account_of_what_it_does_comes_from_its_introduction() -> None:
    units = [
        _passage("Introduction", "Section 524B of the FD&C Act took effect in 2023.", 0.1, "text"),
        _passage(
            "Introduction", "This guidance describes the program and who may use it.", 0.0, "text"
        ),
        _passage(
            "Introduction", "The program lets firms file quarterly summary reports.", 0.4, "text"
        ),
        _passage(
            "Introduction", "This guidance represents the current thinking of FDA.", 0.0, "text"
        ),
        _passage("Threat Modeling", "Manufacturers should model threats.", 0.9),
        _passage("Threat Modeling", "This guidance describes threat models further.", 0.9),
    ]
    # the introduction's unit most about what is asked, then its statement of purpose; never
    # the nonbinding notice, and nothing past the first recommendation of the body
    assert own_account(units, 2) == [units[2], units[1]]
    assert own_account(units, 3) == [units[2], units[1], units[0]]
    assert says_what_it_does(units[1]) and not says_what_it_does(units[0])
    assert not says_what_it_does(units[3])
    assert own_account(units[4:], 2) == []


def _term(text: str, weight: float = 1.0) -> Term:
    return Term(text, weight, stems=frozenset(stem(w) for w in content_words(text)))


@pytest.mark.parametrize(
    ("title", "asked", "aspect"),
    [
        # an acronym whose spelled-out words the title mostly holds is the title's subject
        (
            "Pyrogen and Endotoxins Testing: Questions and Answers",
            ["bet", "bacterial endotoxins test", "pool"],
            {"pool"},
        ),
        # a title's hyphenated word is the question's joined one
        (
            "Radiation Safety Considerations for X-Ray Equipment Designed for Hand-Held Use",
            ["handheld", "backscatter"],
            {"backscatter"},
        ),
        # one word of two is not most of a term
        ("Endotoxin Testing for Intraocular Devices", ["endotoxin limit"], {"endotoxin limit"}),
    ],
)
def test_what_the_title_says_in_other_letters_is_not_the_aspect(
    title: str, asked: list[str], aspect: set[str]
) -> None:
    assert {t.text for t in aspect_terms([_term(a) for a in asked], title)} == aspect


def _at(page: int, first: int, text: str, topic: float) -> Passage:
    doc = Found("g1", "fda_guidance", TITLE, "2026-02-03", None, {}, 1.0, (1,), False)
    unit = Unit(page, first, first, text, "text", "Guidance", None, ())
    return Passage(doc, page, unit, keyword=topic, prior=1.0, topic=topic)


def test_a_question_of_a_questions_and_answers_guidance_hands_its_score_to_its_answer() -> None:
    asks = _at(4, 3, "What limits are placed on leakage and backscatter radiation?\n•", 0.6)
    answer = _at(5, 1, "The standard limits radiation from the assembly to 0.88 mGy.", 0.2)
    other = _at(4, 1, "Hand-held units pose exposure concerns.", 0.3)
    got = {p.unit.text[:4]: p.topic for p in _answered([answer, asks, other])}
    assert got == {"The ": 0.6, "What": 0.3, "Hand": 0.3}
    # a unit that asks and answers keeps its score; so does a long one that ends in a question
    said = _at(4, 3, "Can samples be pooled? Yes, with exceptions.", 0.6)
    assert [p.topic for p in _answered([said, answer])] == [0.6, 0.2]
