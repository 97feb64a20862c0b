"""A guidance's table of contents (regnb.agent._toc): its sections and levels, the offset of its
printed page numbers, and the pages an answer reads from it; and an answer about a long guidance
that reads the sections its contents name."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import regnb
from regnb.agent._rank import Term
from regnb.agent._toc import Section, contents, page_offset, section_pages
from regnb.agent.agent import ExtractiveAgent
from regnb.agent.types import TurnRequest
from regnb.documents.words import stem
from regnb.settings import Settings

TOC_ONE_LINE = """Contains Nonbinding Recommendations
Table of Contents
I. INTRODUCTION ........................................ 1
II. BACKGROUND .......................................... 2
III. RECOMMENDATIONS ................................... 3
A. Facility Design ...................................... 3
B. Cleaning Validation .................................. 5
1. Cleaning Agents ...................................... 5
2. Residue Limits ....................................... 6
IV. LABELING ........................................... 8
APPENDIX A: EXAMPLES ................................... 9
"""

TOC_SPLIT = """Table of Contents
I.

Introduction ............................................................ 1

II.

Policy for Widget Changes ............................................... 2
A.

Components of a Widget Plan ............................................. 3

B.

Establishing a Widget Plan .............................................. 4
(1) Data management practices ........................................... 4
"""
TOC_SPLIT_NEXT = """(2) Re-training practices ............................................ 5
Appendix A: Example Elements ............................................ 6
"""


def test_entries_on_one_line_nest_by_their_enumerators() -> None:
    sections, last = contents({1: "Guidance for Industry\nWidgets", 2: TOC_ONE_LINE})
    assert last == 2
    assert [(s.enumerator, s.title, s.printed, s.level) for s in sections] == [
        ("I", "INTRODUCTION", 1, 1),
        ("II", "BACKGROUND", 2, 1),
        ("III", "RECOMMENDATIONS", 3, 1),
        ("A", "Facility Design", 3, 2),
        ("B", "Cleaning Validation", 5, 2),
        ("1", "Cleaning Agents", 5, 3),
        ("2", "Residue Limits", 6, 3),
        ("IV", "LABELING", 8, 1),
        (None, "APPENDIX A: EXAMPLES", 9, 1),
    ]
    residue = sections[6]
    assert residue.parents == ("RECOMMENDATIONS", "Cleaning Validation")
    assert [s.front for s in sections] == [
        True,
        True,
        False,
        False,
        False,
        False,
        False,
        False,
        True,
    ]


def test_an_enumerator_on_its_own_line_and_contents_over_two_pages() -> None:
    sections, last = contents({3: TOC_SPLIT, 4: TOC_SPLIT_NEXT, 5: "I. Introduction\nText."})
    assert last == 4
    assert [(s.enumerator, s.title, s.printed) for s in sections] == [
        ("I", "Introduction", 1),
        ("II", "Policy for Widget Changes", 2),
        ("A", "Components of a Widget Plan", 3),
        ("B", "Establishing a Widget Plan", 4),
        ("(1)", "Data management practices", 4),
        ("(2)", "Re-training practices", 5),
        (None, "Appendix A: Example Elements", 6),
    ]
    assert sections[5].parents == ("Policy for Widget Changes", "Establishing a Widget Plan")
    assert sections[5].level > sections[3].level > sections[1].level


@pytest.mark.parametrize(
    "pages",
    [
        {1: "Guidance\n\nThis guidance is short. See section 3 ........ for details 4"},
        {1: "Just text, no contents at all."},
        {8: TOC_ONE_LINE},  # past the pages a table of contents is looked for on
    ],
)
def test_no_table_of_contents_gives_no_sections(pages: dict[int, str]) -> None:
    assert contents(pages) == ([], 0)


def test_the_printed_page_offset_is_found_from_the_section_titles() -> None:
    sections, last = contents({2: TOC_ONE_LINE})
    pages = {
        2: TOC_ONE_LINE,  # the titles in the contents themselves do not count
        4: "Contains Nonbinding Recommendations\nI. INTRODUCTION\nThis guidance...",
        5: "II. BACKGROUND\nHistory.",
        6: "III. RECOMMENDATIONS\nA. Facility Design\nFirms should design.",
    }
    assert page_offset(sections, pages, last) == 3
    assert page_offset(sections, {2: TOC_ONE_LINE, 4: "Nothing here."}, last) is None


def _term(word: str) -> Term:
    return Term(word, 1.0, stems=frozenset({stem(word)}))


SECTIONS = [
    Section("I", "Introduction", 1, 1),
    Section("II", "Recommendations", 2, 1),
    Section("A", "Facility Design", 2, 2, ("Recommendations",)),
    Section("B", "Cleaning Validation", 5, 2, ("Recommendations",)),
    Section("III", "Labeling", 9, 1),
    Section(None, "Appendix A: Examples", 11, 1),
]


def test_a_question_about_the_whole_guidance_reads_each_section_of_its_body() -> None:
    pages = section_pages(SECTIONS, offset=2, last=14, aspect=[], budget=5, best=[3, 7])
    # the introduction's first page (where the guidance says what it does), the search's best
    # in the body, the innermost sections' first pages (A, B, labeling), never the appendix's;
    # then the outer section's
    assert pages == [3, 7, 4, 11, 5]
    assert section_pages(SECTIONS, 2, 14, [], budget=20) == [3, 4, 7, 11, 5, 8, 12, 6, 9, 13, 10]


def test_the_introductions_first_page_follows_the_sections_asked_about() -> None:
    pages = section_pages(SECTIONS, 2, 14, [_term("cleaning")], budget=8, best=[12])
    assert pages[:6] == [7, 8, 9, 10, 11, 3]


def test_a_question_about_one_aspect_reads_that_section_then_the_searchs_pages() -> None:
    pages = section_pages(SECTIONS, 2, 14, [_term("cleaning")], budget=8, best=[3, 12])
    assert pages[:5] == [7, 8, 9, 10, 11]  # every page of "Cleaning Validation" (5 to 9 + 2)
    assert pages[5:7] == [3, 12]  # the search's best pages, wherever they are
    assert len(pages) == 8


# An answer about a long guidance: the sections its contents list, read where they are.
TITLE = "Sterile Widget Manufacturing: Guidance for Industry"
TOPICS = [
    ("Facility Design", "airlock", "Firms should design each airlock with a pressure cascade."),
    ("Cleaning Validation", "swab", "Firms should validate swab recovery for every residue."),
    ("Environmental Monitoring", "settle", "Firms should trend settle plate counts weekly."),
    ("Media Fills", "broth", "Firms should run three broth simulations before release."),
    ("Labeling", "carton", "Firms should print the sterility claim on each carton."),
]


def _long_guidance() -> dict[str, Any]:
    toc = ["Contains Nonbinding Recommendations", "Table of Contents"]
    toc.append("I. INTRODUCTION " + "." * 30 + " 1")
    toc.append("II. RECOMMENDATIONS " + "." * 30 + " 2")
    body: dict[int, str] = {}
    printed = 2
    for i, (title, _, _) in enumerate(TOPICS):
        toc.append(f"{'ABCDE'[i]}. {title} " + "." * 30 + f" {printed}")
        heading = f"{'ABCDE'[i]}. {title}"
        if i == 0:
            heading = f"II. RECOMMENDATIONS\n\n{heading}"
        body[printed] = f"{heading}\n\n{TOPICS[i][2]}\n"
        for extra in range(1, 7):  # each section runs over seven pages
            body[printed + extra] = (
                f"Sterile widget manufacturing discussion {printed + extra}: the sterile widget "
                "manufacturing process is described for sterile widgets.\n"
            )
        printed += 7
    intro = (
        "I. INTRODUCTION\n\nThis guidance describes sterile widget manufacturing. "
        "FDA recommends that sterile widget manufacturing follow this guidance.\n"
    )
    pages = ["Sterile Widget Manufacturing\nGuidance for Industry", "\n".join(toc), intro]
    pages += [body[n] for n in range(2, printed)]
    return {
        "title": TITLE,
        "date": "2026-01-15",
        "url": None,
        "fields": {},
        "pages": pages,
    }


@pytest.fixture(scope="module")
def agent(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ExtractiveAgent]:
    root: Path = tmp_path_factory.mktemp("toc")
    regnb.write_corpus(
        root / "corpus",
        {"fda_guidance": [_long_guidance()]},
        encoder=regnb.HashingEncoder(),
        progress=False,
    )
    settings = Settings(**{**Settings.from_env().__dict__, "home": root / "home"})
    engine = regnb.Engine(
        root / "corpus", encoder=regnb.HashingEncoder(), settings=settings, progress=False
    )
    yield ExtractiveAgent(engine, producer=lambda answer, formats: [])
    engine.close()


def _answer(agent: ExtractiveAgent, message: str) -> str:
    request = TurnRequest(message, [], 1, "enterprise", dt.date(2026, 11, 1))
    result = agent.run(request, lambda steps: None, lambda: False)
    assert result.status == "completed"
    return result.answer


def test_the_whole_guidance_is_read_from_its_contents(agent: ExtractiveAgent) -> None:
    answer = _answer(agent, "What does the sterile widget manufacturing guidance recommend?")
    for _, word, _ in TOPICS:  # the last section starts on file page 32 of 38
        assert word in answer
