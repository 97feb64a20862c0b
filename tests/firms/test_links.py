"""Links between a firm's documents (`regnb.firms.links`), as pure functions of plain facts: a 483
and the warning letter that followed it, a complete response letter and what followed it, and
repeat findings of consecutive 483s; and the near misses that must not link."""

from __future__ import annotations

from typing import Any

import pytest

from regnb.firms.links import (
    AN_OBSERVATION,
    Facts,
    Link,
    application_number,
    link_documents,
    link_kind,
    named_span,
    own_applications,
    site_feis,
)

FEI = frozenset({"3002806560"})


def form(doc: str, date: str, *sections: str, **more: Any) -> Facts:
    """A Form 483 of the site, its Observation n citing the n-th section on page n."""
    cited = tuple((s, f"Observation {n}", n) for n, s in enumerate(sections, 1))
    return Facts(doc, "fda_483", date, cited=cited, feis=more.pop("feis", FEI), **more)


def letter(doc: str, date: str, *sections: str, **more: Any) -> Facts:
    cited = tuple((s, f"Violation {n}", 1) for n, s in enumerate(sections, 1))
    return Facts(doc, "fda_warning_letters", date, cited=cited, **more)


def crl(doc: str, date: str, *applications: str) -> Facts:
    return Facts(doc, "fda_crl", date, applications=frozenset(applications))


def approval(doc: str, date: str, application: str, **more: Any) -> Facts:
    return Facts(doc, "fda_drug", date, applications=frozenset({application}), **more)


def texts(found: dict[str, list[Link]]) -> dict[str, list[str]]:
    return {doc: [str(link) for link in links] for doc, links in sorted(found.items())}


# --- links as text ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("link", "text"),
    [
        (
            Link("followed by", "warning letter", "2021-10-01", "wl-1"),
            "followed by warning letter 2021-10-01 (wl-1)",
        ),
        (Link("follows", "Form 483", "2021-06-01", "483-b"), "follows Form 483 2021-06-01 (483-b)"),
        (
            Link("followed by", "complete response letter", "2021-03-01", "c(2)"),
            "followed by complete response letter 2021-03-01 (c(2))",
        ),
        (Link("followed by", "approval", "2022-02-01", "a"), "followed by approval 2022-02-01 (a)"),
        (
            Link(
                "repeats",
                "Form 483",
                "2019-03-01",
                "483-a",
                "21 CFR 211.113",
                "Observation 1",
                2,
                1,
            ),
            "repeats 21 CFR 211.113 (Observation 1, page 2) of Form 483 2019-03-01, page 1 (483-a)",
        ),
        (
            Link("repeats", "Form 483", "2019-03-01", "483-a", "21 CFR 211.113", None, 3, 1),
            "repeats 21 CFR 211.113 (page 3) of Form 483 2019-03-01, page 1 (483-a)",
        ),
        (
            Link("repeats", "Form 483", "2019-03-01", "483-a", AN_OBSERVATION, "Observation 2", 3),
            "repeats an observation (Observation 2, page 3) of Form 483 2019-03-01 (483-a)",
        ),
        (
            Link(
                "repeats", "Form 483", "2019-03-01", "x y", "Observation 4", "Observation 2", 3, 4
            ),
            "repeats Observation 4 (Observation 2, page 3) of Form 483 2019-03-01, page 4 (x y)",
        ),
    ],
)
def test_a_link_is_a_short_sentence_that_parses_back(link: Link, text: str) -> None:
    assert str(link) == text
    assert Link.parse(text) == link


@pytest.mark.parametrize(
    "text",
    [
        "",
        "followed by warning letter 2021-10-01",
        "followed by recall 2021-10-01 (r1)",
        "precedes Form 483 2021-06-01 (x)",
        "follows Form 483 June 2021 (x)",
        "repeats 21 CFR 211.113 of Form 483 2019-03-01 (x) and more",
    ],
)
def test_anything_else_is_not_a_link(text: str) -> None:
    with pytest.raises(ValueError, match="not a timeline link"):
        Link.parse(text)


@pytest.mark.parametrize(
    ("dataset", "kind"),
    [
        ("fda_483", "Form 483"),
        ("fda_483__ncruickshank", "Form 483"),
        ("fda_warning_letters", "warning letter"),
        ("fda_crl", "complete response letter"),
        ("fda_drug", "approval"),
        ("fda_biologic", "approval"),
        ("fda_recalls", None),
        ("fda_483_observation_catalog", None),
    ],
)
def test_the_kinds_of_documents_that_link(dataset: str, kind: str | None) -> None:
    assert link_kind(dataset) == kind


# --- dates a text names -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "anchor", "span"),
    [
        (
            "FDA inspected your facility, FEI 3002806560, at 1 Main St., Lake Forest, IL, from "
            "October 15 to 24, 2025.",
            "inspected",
            ("2025-10-15", "2025-10-24"),
        ),
        (
            "During an inspection of your firm located at 1360 S. Loop Rd, FEI #3002803444, on "
            "October 14, 2025, through October 24, 2025, an investigator found",
            "inspected",
            ("2025-10-14", "2025-10-24"),
        ),
        (
            "an inspection of your facility from September 30 - October 10, 2019.",
            "inspected",
            ("2019-09-30", "2019-10-10"),
        ),
        (
            "inspected your facility between Dec. 2, 2019 and Jan 9, 2020.",
            "inspected",
            ("2019-12-02", "2020-01-09"),
        ),
        ("We inspected your firm on March 3, 2021.", "inspected", ("2021-03-03", "2021-03-03")),
        (
            "This is a repeat observation from the inspection dated 9/3/2001 - 9/17/2001.",
            "repeat",
            ("2001-09-03", "2001-09-17"),
        ),
        ("OBSERVATION 1 REPEAT OBSERVATION\nProcedures are not followed.", "repeat", None),
        ("We inspected your firm. Your response of May 2024 was inadequate.", "inspected", None),
        ("We reviewed your response dated June 4, 2021.", "inspected", None),
        ("inspections@fda.hhs.gov, March 3, 2021", "inspected", None),
        ("inspected from February 30 to 31, 2021", "inspected", None),
    ],
)
def test_the_days_a_text_names_after_its_anchor_word(
    text: str, anchor: str, span: tuple[str, str] | None
) -> None:
    assert named_span(text, anchor) == span


# --- identifiers --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("identifiers", "feis", "applications"),
    [
        ([("fei", "3002806560", 0), ("fei", "1234567", 1)], {"3002806560"}, set()),
        ([("fei", "1234567", 1), ("fei", "7654321", 1)], {"1234567", "7654321"}, set()),
        ([("fei", "1234567", 2)], set(), set()),
        (
            [("application", "NDA 021164", 0), ("application", "NDA 020000", 1)],
            set(),
            {"NDA 021164"},
        ),
        (
            [("application", "NDA 021164", 1), ("application", "021164", 1)],
            set(),
            {"NDA 021164", "021164"},
        ),
        ([("application", "NDA 021164", 1), ("application", "NDA 020000", 1)], set(), set()),
    ],
)
def test_a_documents_site_and_applications(
    identifiers: list[tuple[str, str, int]], feis: set[str], applications: set[str]
) -> None:
    assert site_feis(identifiers) == feis
    assert own_applications(identifiers) == applications


def test_an_application_number_drops_its_type_and_supplement() -> None:
    assert application_number("NDA 217225/S-001") == "217225"
    assert application_number("208288") == "208288"


# --- a Form 483 and the warning letter that followed it -------------------------------------


def test_a_letter_follows_the_nearest_earlier_483_that_shares_a_section() -> None:
    docs = [
        form("483-2019", "2019-03-01", "21 CFR 211.113"),
        form("483-2021", "2021-06-01", "21 CFR 211.113"),
        letter("wl-2021", "2021-10-01", "21 CFR 211.113", "21 CFR 211.67"),
    ]
    assert texts(link_documents(docs))["wl-2021"] == ["follows Form 483 2021-06-01 (483-2021)"]
    assert texts(link_documents(docs))["483-2021"][-1] == (
        "followed by warning letter 2021-10-01 (wl-2021)"
    )


@pytest.mark.parametrize(
    ("case", "the_form", "the_letter", "linked"),
    [
        ("a letter after", form("f", "2021-06-01"), letter("w", "2021-10-01"), True),
        ("a letter before the 483", form("f", "2021-06-01"), letter("w", "2021-05-01"), False),
        ("a letter the same day", form("f", "2021-06-01"), letter("w", "2021-06-01"), False),
        ("a letter 23 months later", form("f", "2021-06-01"), letter("w", "2023-05-01"), True),
        ("a letter 4 years later", form("f", "2021-06-01"), letter("w", "2025-06-01"), False),
        (
            "sections shared",
            form("f", "2021-06-01", "21 CFR 211.113"),
            letter("w", "2021-10-01", "21 CFR 211.67", "21 CFR 211.113"),
            True,
        ),
        (
            "sections apart",
            form("f", "2021-06-01", "21 CFR 211.113"),
            letter("w", "2021-10-01", "21 CFR 211.67"),
            False,
        ),
        (
            "sections apart, the FEI named",
            form("f", "2021-06-01", "21 CFR 211.113"),
            letter("w", "2021-10-01", "21 CFR 211.67", feis=FEI),
            True,
        ),
        (
            "another site's FEI",
            form("f", "2021-06-01"),
            letter("w", "2021-10-01", feis=frozenset({"1234567"})),
            False,
        ),
        (
            "the inspection named",
            form("f", "2021-06-01", "21 CFR 211.113"),
            letter("w", "2021-10-01", "21 CFR 211.67", inspected=("2021-05-20", "2021-06-01")),
            True,
        ),
        (
            "dated days after the inspection",
            form("f", "2021-06-03"),
            letter("w", "2021-10-01", inspected=("2021-05-20", "2021-06-01")),
            True,
        ),
        (
            "another inspection named",
            form("f", "2021-06-01", "21 CFR 211.113"),
            letter("w", "2021-10-01", "21 CFR 211.113", inspected=("2021-03-01", "2021-03-05")),
            False,
        ),
        ("undated", form("f", "2021-06-01"), letter("w", None), False),
    ],
)
def test_when_a_letter_follows_a_483(
    case: str, the_form: Facts, the_letter: Facts, linked: bool
) -> None:
    found = link_documents([the_form, the_letter])
    assert ("w" in found) == linked, case
    if linked:
        assert found["w"][0].document_id == "f" and found["f"][0].document_id == "w"


def test_a_letter_follows_the_483_whose_inspection_it_names_over_a_nearer_one() -> None:
    docs = [
        form("483-a", "2021-03-01"),
        form("483-b", "2021-06-01"),
        form("483-b-copy", "2021-06-01"),
        letter("w", "2021-10-01", inspected=("2021-02-22", "2021-03-01")),
        letter("w2", "2021-11-01"),
    ]
    found = texts(link_documents(docs))
    assert found["w"] == ["follows Form 483 2021-03-01 (483-a)"]
    assert found["w2"] == [
        "follows Form 483 2021-06-01 (483-b)",
        "follows Form 483 2021-06-01 (483-b-copy)",
    ]


# --- a complete response letter and what followed it ---------------------------------------


def test_a_crl_is_followed_by_the_next_letter_or_approval_of_its_application() -> None:
    docs = [
        crl("crl-2020", "2020-01-15", "NDA 021164"),
        crl("crl-2021", "2021-03-01", "NDA 021164"),
        crl("crl-other", "2020-06-01", "NDA 021165"),
        crl("crl-anda", "2020-07-01", "ANDA 021164"),
    ]
    others = [
        approval("label", "2022-02-01", "NDA 021164"),
        approval("letter", "2022-02-01", "NDA 021164", approval_letter=True),
        approval("supplement", "2023-01-01", "NDA 021164/S-002"),
        approval("before", "2019-01-01", "NDA 021164"),
    ]
    assert texts(link_documents(docs, others)) == {
        "crl-2020": ["followed by complete response letter 2021-03-01 (crl-2021)"],
        "crl-2021": [
            "follows complete response letter 2020-01-15 (crl-2020)",
            "followed by approval 2022-02-01 (letter)",
        ],
    }


def test_an_approval_in_the_timeline_follows_its_crl() -> None:
    docs = [crl("c", "2020-01-15", "BLA 761073"), approval("a", "2021-01-15", "761073")]
    assert texts(link_documents(docs)) == {
        "a": ["follows complete response letter 2020-01-15 (c)"],
        "c": ["followed by approval 2021-01-15 (a)"],
    }


# --- repeat findings ----------------------------------------------------------------------


def test_a_section_cited_at_consecutive_inspections_repeats() -> None:
    docs = [
        form("483-2017", "2017-01-01", "21 CFR 211.67"),
        form("483-2019", "2019-03-01", "21 CFR 211.113", "21 CFR 211.22"),
        form("483-2021", "2021-06-01", "21 CFR 211.192", "21 CFR 211.113", "21 CFR 211.67"),
    ]
    found = link_documents(docs)
    assert [str(k) for k in found["483-2021"]] == [
        "repeats 21 CFR 211.113 (Observation 2, page 2) of Form 483 2019-03-01, page 1 (483-2019)"
    ]  # 211.67 was cited two inspections ago: not consecutive
    assert "483-2019" not in found and "483-2017" not in found


@pytest.mark.parametrize(
    ("case", "earlier", "repeats"),
    [
        ("the same site", form("e", "2019-03-01", "21 CFR 211.113"), True),
        ("another site", form("e", "2019-03-01", "21 CFR 211.113", feis=frozenset({"1"})), False),
        ("a site unnamed", form("e", "2019-03-01", "21 CFR 211.113", feis=frozenset()), True),
        ("the same day", form("e", "2021-06-01", "21 CFR 211.113"), False),
        ("another section", form("e", "2019-03-01", "21 CFR 211.114"), False),
        ("a letter's section", letter("e", "2019-03-01", "21 CFR 211.113"), False),
    ],
)
def test_when_a_section_repeats(case: str, earlier: Facts, repeats: bool) -> None:
    found = link_documents([earlier, form("later", "2021-06-01", "21 CFR 211.113")])
    assert any(k.relation == "repeats" for k in found.get("later", [])) == repeats, case


def test_a_marked_observation_repeats_the_inspection_it_names_and_the_finding_it_restates() -> None:
    statement = "Procedures to prevent microbiological contamination are not followed."
    earlier = [
        form("483-2017", "2017-05-12", findings=(("Observation 3", statement, 4),)),
        form("483-2019", "2019-03-01"),
    ]
    later = form(
        "483-2021",
        "2021-06-01",
        findings=(("Observation 1", statement, 2), ("Observation 2", "Cleaning is lacking.", 3)),
        marked=(("Observation 1", 2, ("2017-05-01", "2017-05-12")), ("Observation 2", 3, None)),
    )
    assert texts(link_documents([*earlier, later]))["483-2021"] == [
        "repeats Observation 3 (Observation 1, page 2) of Form 483 2017-05-12, page 4 (483-2017)",
        "repeats an observation (Observation 2, page 3) of Form 483 2019-03-01 (483-2019)",
    ]


def test_a_mark_without_an_earlier_483_links_nothing() -> None:
    later = form("483-2021", "2021-06-01", marked=(("Observation 1", 2, None),))
    named = form(
        "483-2022", "2022-06-01", marked=(("Observation 1", 2, ("2010-01-01", "2010-01-05")),)
    )
    assert "483-2021" not in link_documents([later])
    assert "483-2022" not in link_documents([later, named])


def test_a_finding_that_repeats_a_section_and_is_marked_links_once() -> None:
    docs = [
        form("a", "2019-03-01", "21 CFR 211.113"),
        form("b", "2021-06-01", "21 CFR 211.113", marked=(("Observation 1", 1, None),)),
    ]
    assert [k.about for k in link_documents(docs)["b"]] == ["21 CFR 211.113"]


def test_a_crl_weeks_after_another_of_its_application_is_a_copy_not_a_resubmission() -> None:
    docs = [
        crl("crl", "2020-01-15", "NDA 021164"),
        crl("copy", "2020-02-10", "NDA 021164"),
        crl("again", "2020-03-20", "NDA 021164"),
    ]
    found = texts(link_documents(docs))
    assert found["crl"] == ["followed by complete response letter 2020-03-20 (again)"]
    assert "copy" not in found  # 39 days before "again": too soon to be answered by it
