"""Answers in the question's shape, end to end on a small corpus written here: a question naming
a 483's firm lists its observations in order; one naming a letter's firm lists its violations
with their CFR sections and none of the letter's furniture; a complete response letter's
deficiencies come under their sections without the standard safety update; a which-firms
question names every firm once. Every passage verifies and every answer states its scope."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

import regnb
from regnb.agent._citations import CitationBook
from regnb.agent._compose import _Composer
from regnb.agent._config import AgentConfig
from regnb.agent._stages import Count, Evidence, Found, Listing, Match, Passage, Searches, Tally
from regnb.agent._verify import passage_holds
from regnb.agent.agent import ExtractiveAgent
from regnb.agent.types import Answer, PriorTurn, SourcedCitation, TurnRequest, TurnResult
from regnb.documents.structure import Unit
from regnb.documents.words import fold_spaces
from regnb.settings import Settings
from tests.agent_support import flat_plan, prior, request
from tests.conftest import doc

HALDEN = "Halden Aseptics Inc"
MARLOWE = "Marlowe Pharmaceuticals LLC"
QUILLON = "Quillon Laboratories Inc"
VELMORA = "Velmora"

FORM_483 = doc(
    f"FDA Form 483 - {HALDEN} (2022-08-16)",
    [
        "DEPARTMENT OF HEALTH AND HUMAN SERVICES\nFOOD AND DRUG ADMINISTRATION\n\n"
        "DURING AN INSPECTION OF YOUR FIRM WE OBSERVED:\n\n"
        "OBSERVATION 1\n\nThe quality control unit did not review production records before "
        "release. Specifically, lots 7741 and 7742 of the ophthalmic solution were released "
        "while their deviation reports were still open.\n\n"
        "OBSERVATION 2\n\nWritten procedures for cleaning the filling equipment were not "
        "followed. Specifically, the filler needles were not sanitized between campaigns of "
        "different ophthalmic products.\n\n"
        "This is a repeat observation from the inspection of March 2019.\n\n"
        "OBSERVATION 3\n\nEnvironmental monitoring of the aseptic filling room was deficient. "
        "Specifically, no settle plates were exposed at the filling line while lot 7750 was "
        "filled.",
    ],
    date="2022-08-16",
    fields={"facility_name": HALDEN, "fei_number": "3009876543"},
)

# Halden's next inspection: one observation again (the filler needles), one new, two not again.
FORM_483_LATER = doc(
    f"FDA Form 483 - {HALDEN} (2024-05-02)",
    [
        "DURING AN INSPECTION OF YOUR FIRM WE OBSERVED:\n\n"
        "OBSERVATION 1\n\nWritten procedures for cleaning the filling equipment were not "
        "followed. Specifically, the filler needles were not sanitized between two campaigns of "
        "ophthalmic products in March 2024.\n\n"
        "OBSERVATION 2\n\nThe stability program does not test the ophthalmic solution at its "
        "labeled storage temperature. Specifically, no samples of lot 8120 were placed at 25 C."
    ],
    date="2024-05-02",
    fields={"facility_name": HALDEN, "fei_number": "3009876543"},
)

SALUTATION = "Dear Mr. Okafor:"
CHARGE = (
    "Because your methods, facilities, or controls for manufacturing, processing, packing, or "
    "holding do not conform to CGMP, your drugs are adulterated within the meaning of section "
    "501(a)(2)(B) of the Federal Food, Drug, and Cosmetic Act."
)
NOTICES = [
    "The violations cited in this letter are not intended to be an all-inclusive list of "
    "violations that exist at your facility.",
    "Failure to promptly and adequately address this matter may result in regulatory or legal "
    "action without further notice, including, without limitation, seizure and injunction.",
    "Within fifteen (15) working days of receipt of this letter, notify this office in writing "
    "of the specific steps you have taken to correct the violations.",
]


def _letter(firm: str, number: str, violations: list[str], date: str) -> dict[str, Any]:
    numbered = "\n\n".join(f"{i}. {v}" for i, v in enumerate(violations, 1))
    return doc(
        f"Warning Letter: {firm} ({number})",
        [
            f"WARNING LETTER CMS {number}\n\n{SALUTATION}\n\n"
            f"The U.S. Food and Drug Administration (FDA) inspected your drug manufacturing "
            f"facility, {firm}. This warning letter summarizes significant violations of Current "
            "Good Manufacturing Practice (CGMP) regulations for finished pharmaceuticals.\n\n"
            f"{CHARGE}\n\nSignificant violations observed during our inspection include, but are "
            f"not limited to, the following.\n\n{numbered}",
            "\n\n".join(NOTICES) + "\n\nSincerely,\n/s/\nDivision of Drug Quality",
        ],
        date=date,
        fields={"company": firm, "issuing_office": "CDER"},
    )


OOS = (
    "Your firm failed to thoroughly investigate out-of-specification assay results for "
    "batches of tablets (21 CFR 211.192). Your analysts invalidated the failing results "
    "without a laboratory investigation that identified an assignable cause."
)
STERILE = (
    "Your firm failed to establish and follow written procedures designed to prevent "
    "microbiological contamination of sterile drug products (21 CFR 211.113(b)). Your "
    "aseptic filling line had no validated media fill simulating the longest production run."
)
MARLOWE_LETTER = _letter(MARLOWE, "640210", [OOS, STERILE], "2023-02-14")
QUILLON_LETTER = _letter(
    QUILLON,
    "651177",
    [
        "Your firm failed to investigate out-of-specification dissolution results for capsules "
        "(21 CFR 211.192). Retests were averaged with the original failing results and the "
        "batches were released.",
        "Your firm failed to calibrate its dissolution apparatus at the intervals its written "
        "procedures require (21 CFR 211.160(b)(4)).",
    ],
    "2021-11-03",
)

HEPATIC = (
    "3. Provide a summary and analysis of all patients who developed hepatic enzyme "
    "elevations above three times the upper limit of normal, including time to onset and "
    "outcome."
)
CRL = doc(
    f"Complete Response Letter - {VELMORA} (NDA 219876)",
    [
        "NDA 219876\n\nCOMPLETE RESPONSE\n\nDear Dr. Ferreira:\n\nWe have completed our review "
        "of this application and have determined that we cannot approve this application in "
        "its present form.\n\nPRODUCT QUALITY\n\n"
        "1. The drug product specification does not control the level of the nitrosamine "
        "impurity at or below the acceptable intake.\n\n"
        "2. The dissolution method has not been shown to discriminate between batches made "
        "with different granule sizes.\n\nCLINICAL\n\n"
        "3. The two phase 3 trials did not show an effect on the primary endpoint of weekly "
        "migraine days that was statistically significant.\n\n"
        "SAFETY UPDATE\n\nWhen you respond to the above deficiencies, include a safety update "
        "as described at 21 CFR 314.50(d)(5)(vi)(b).\n\n"
        "1. Describe in detail any significant changes or findings in the safety profile.\n\n"
        "2. Provide updated exposure information for the clinical studies and trials.\n\n"
        f"{HEPATIC}\n\n"
        "OTHER\n\nWithin one year after the date of this letter, you are required to resubmit "
        "or take other actions available under 21 CFR 314.110.",
    ],
    date="2024-04-19",
    fields={"application_number": "219876", "company": "Velmora Therapeutics"},
)

# FDA's catalog of the cite language its investigators used: about observations, by no firm.
CATALOG = doc(
    "FDA Inspectional Observations FY2019 - Drugs",
    [
        "21 CFR 211.192 | Cite Id 1001 | Investigations of discrepancies, failures | Frequency "
        "in FY2019 483s: 40 Out-of-specification results were not investigated and the batches "
        "were released."
    ],
    date="2019-09-30",
)

GUIDANCE = doc(
    "Sterile Drug Products Produced by Aseptic Processing",
    [
        "Contains Nonbinding Recommendations\n\nIV. Media Fills\n\nFDA recommends that media "
        "fills simulate the longest production run and every intervention of the aseptic line."
    ],
    date="2004-09-29",
)


def corpus() -> dict[str, list[dict[str, Any]]]:
    return {
        "fda_483": [FORM_483, FORM_483_LATER, CATALOG],
        "fda_warning_letters": [MARLOWE_LETTER, QUILLON_LETTER],
        "fda_crl": [CRL],
        "fda_guidance": [GUIDANCE],
    }


QUESTIONS = {
    "483": f"What did FDA observe at {HALDEN} in 2022?",
    "letter": f"What was {MARLOWE} warned for?",
    "crl": f"Why was {VELMORA} not approved?",
    "which": "Which firms got warning letters for out-of-specification results?",
    "which_any": "Which firms were cited for out-of-specification results?",
    "two_483s": f"Compare the two {HALDEN} 483s.",
}
FOLLOW_UP = "What did FDA ask for about hepatic enzyme elevations?"


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[regnb.Engine]:
    root: Path = tmp_path_factory.mktemp("compose")
    regnb.write_corpus(root / "corpus", corpus(), encoder=regnb.HashingEncoder(), progress=False)
    settings = Settings(**{**Settings.from_env().__dict__, "home": root / "home"})
    eng = regnb.Engine(
        root / "corpus", encoder=regnb.HashingEncoder(), settings=settings, progress=False
    )
    yield eng
    eng.close()


@pytest.fixture(scope="module")
def agent(engine: regnb.Engine) -> ExtractiveAgent:
    return ExtractiveAgent(engine, producer=lambda answer, formats: [])


def answer(agent: ExtractiveAgent, req: TurnRequest) -> Answer:
    """The answer as `run` reaches it: planned, prepared (no question asked), researched."""
    prepared = agent.prepare(agent.plan(req), req)
    assert prepared.question is None
    return agent.answer(prepared.plan, req)


@pytest.fixture(scope="module")
def answers(agent: ExtractiveAgent) -> dict[str, Answer]:
    return {key: answer(agent, request(question)) for key, question in QUESTIONS.items()}


@pytest.fixture(scope="module")
def follow_up(agent: ExtractiveAgent) -> Answer:
    history: list[PriorTurn] = [prior(QUESTIONS["crl"], run(agent, QUESTIONS["crl"]))]
    return answer(agent, request(FOLLOW_UP, history, first=1 + len(history[0].citations)))


def run(agent: ExtractiveAgent, message: str) -> TurnResult:
    return agent.run(request(message), lambda steps: None, lambda: False)


def passages(answer: Answer) -> list[SourcedCitation]:
    return [c for c in answer.citations if c.block_id is not None]


def document_of(engine: regnb.Engine, firm: str, title: str) -> str:
    found = engine.search([firm], limit=20)
    return next(r["document_id"] for r in found.results if r["title"] == title)


def numbered(markdown: str) -> list[str]:
    return [line for line in markdown.splitlines() if re.match(r"^\d+\. ", line)]


def section(markdown: str, heading: str) -> list[str]:
    """The lines under a `### heading`, up to the next heading."""
    text = markdown.split(f"### {heading}\n", 1)[1]
    return text.split("\n### ", 1)[0].strip().splitlines()


def test_a_named_483_lists_its_observations_in_order(answers: dict[str, Answer]) -> None:
    text = answers["483"].markdown
    items = numbered(text)
    assert len(items) == 3
    for item, words in zip(
        items, ["production records", "filler needles", "settle plates"], strict=True
    ):
        assert words in item
    assert "repeat observation" in items[1] and "repeat" not in items[0] + items[2]


def test_a_named_483_says_how_many_observations_and_repeats(answers: dict[str, Answer]) -> None:
    first = answers["483"].summary[0].text
    assert f"Form 483 for {HALDEN}" in first
    assert "lists 3 observations, 1 of them repeat observations" in first


def test_a_named_483_cites_no_other_document_s_passages(
    engine: regnb.Engine, answers: dict[str, Answer]
) -> None:
    form = document_of(engine, HALDEN, FORM_483["title"])
    assert {c.document_id for c in passages(answers["483"])} == {form}


def test_a_named_letter_lists_its_violations_with_their_cfr_sections(
    answers: dict[str, Answer],
) -> None:
    answer = answers["letter"]
    items = numbered(answer.markdown)
    assert len(items) == 2
    assert "21 CFR 211.192" in items[0] and "investigate out-of-specification" in items[0]
    assert "21 CFR 211.113(b)" in items[1] and "microbiological contamination" in items[1]
    assert [f.cfr for t in answer.themes for f in t.findings] == [
        ["21 CFR 211.192"],
        ["21 CFR 211.113(b)"],
    ]


@pytest.mark.parametrize(
    "furniture",
    [SALUTATION, "do not conform to CGMP", "your drugs are adulterated", *NOTICES],
)
def test_a_named_letter_never_quotes_its_furniture(
    answers: dict[str, Answer], furniture: str
) -> None:
    answer = answers["letter"]
    quoted = [fold_spaces(c.passage or "") for c in passages(answer)]
    assert fold_spaces(furniture) not in answer.markdown
    assert not any(fold_spaces(furniture) in q for q in quoted)


def test_a_crl_lists_its_deficiencies_under_their_sections(answers: dict[str, Answer]) -> None:
    answer = answers["crl"]
    findings = [f for t in answer.themes for f in t.findings]
    assert [f.kind for f in findings] == ["deficiency"] * 3
    assert [f.heading for f in findings] == ["Product quality", "Product quality", "Clinical"]
    assert "under Product quality and Clinical" in answer.summary[0].text
    assert "nitrosamine impurity" in answer.markdown
    assert "weekly migraine days" in answer.markdown


@pytest.mark.parametrize(
    "standard",
    [
        "include a safety update",
        "significant changes or findings in the safety profile",
        "updated exposure information",
        "hepatic enzyme elevations",  # a request, not a deficiency: only when asked about
        "cannot approve this application",
        "Within one year after the date of this letter",
    ],
)
def test_a_crl_answer_leaves_out_the_standard_safety_update(
    answers: dict[str, Answer], standard: str
) -> None:
    assert standard not in answers["crl"].markdown


def test_a_follow_up_about_a_request_the_letter_adds_finds_it(follow_up: Answer) -> None:
    assert "hepatic enzyme elevations" in follow_up.markdown
    assert any("hepatic enzyme elevations" in (c.passage or "") for c in passages(follow_up))
    assert "updated exposure information" not in follow_up.markdown


def test_a_request_listed_beside_the_deficiencies_is_not_counted_as_one(
    follow_up: Answer,
) -> None:
    assert "4 deficiencies" not in follow_up.markdown


def test_a_which_firms_question_names_each_firm_on_one_line(answers: dict[str, Answer]) -> None:
    answer = answers["which"]
    assert MARLOWE in answer.summary[0].text and QUILLON in answer.summary[0].text
    listed = [t for t in answer.themes if t.label == "Firms and what they were cited for"]
    assert len(listed) == 1
    headings = [f.heading or "" for f in listed[0].findings]
    assert len(headings) == 2
    assert sorted(h.split(" (")[0] for h in headings) == [MARLOWE, QUILLON]
    lines = section(answer.markdown, "Firms and what they were cited for")
    assert len(lines) == 2
    for firm in (MARLOWE, QUILLON):
        assert len([line for line in lines if line.startswith(f"- **{firm} (")]) == 1, firm
    assert all("21 CFR 211.192" in line for line in lines)


def test_two_inspections_compared_say_what_is_the_same_new_and_gone(
    answers: dict[str, Answer],
) -> None:
    said = [f.text for f in answers["two_483s"].summary]
    same = next(t for t in said if t.startswith("In both Form 483s"))
    assert "(1 of the 2 findings of 2024-05-02)" in same and "cleaning the filling" in same
    new = next(t for t in said if t.startswith("Only in 2024-05-02"))
    assert "stability program" in new
    gone = next(t for t in said if t.startswith("Not again after 2022-08-16"))
    assert "(2)" in gone and "quality control unit" in gone


def test_a_which_firms_list_leaves_out_a_document_about_no_firm(
    answers: dict[str, Answer],
) -> None:
    lines = section(answers["which_any"].markdown, "Firms and what they were cited for")
    assert lines and all(MARLOWE in line or QUILLON in line for line in lines), lines
    assert not any("Inspectional Observations" in line for line in lines)


@pytest.mark.parametrize("key", [*QUESTIONS, "follow_up"])
def test_every_passage_citation_verifies_against_the_reader(
    engine: regnb.Engine, answers: dict[str, Answer], follow_up: Answer, key: str
) -> None:
    answer = follow_up if key == "follow_up" else answers[key]
    cited = passages(answer)
    assert cited
    for c in cited:
        page = engine.read(c.document_id, c.page_num, c.page_num).page_list[0]["text"]
        assert passage_holds(page, c), c.passage


@pytest.mark.parametrize(
    ("key", "datasets"),
    [
        ("483", ["FDA Form 483 Inspection Observations"]),
        ("letter", ["FDA Warning Letters"]),
        ("crl", ["FDA Complete Response Letters"]),
        ("which", ["FDA Warning Letters"]),
    ],
)
def test_every_answer_has_a_scope_naming_the_datasets_searched(
    answers: dict[str, Answer], key: str, datasets: list[str]
) -> None:
    answer = answers[key]
    scope = answer.markdown.split("### Scope", 1)
    assert len(scope) == 2, answer.markdown
    for name in datasets:
        assert name in scope[1]


# the numbers of one answer come from one source (issue 31: "5 match … 3 of the 6")


def _found(doc: str, *, weak: bool = False) -> Found:
    fields = {"company": f"Firm {doc}"}
    return Found(
        doc, "fda_warning_letters", f"Letter {doc}", "2020-01-01", None, fields, 1.0, (1,), weak
    )


def _cites(found: Found, *sections: str) -> Passage:
    unit = Unit(1, 0, 0, f"Violation of {found.document_id}.", "violation", "", None, sections)
    return Passage(found, 1, unit, keyword=1.0, prior=1.0)


def _composer(
    documents: list[Found], tally: Tally | None = None, listing: Listing | None = None
) -> _Composer:
    evidence = Evidence(
        plan=flat_plan("Which firms?", "Which firms?", datasets=["fda_warning_letters"]),
        searches=Searches(),
        documents=documents,
        read=documents,
        passages=(),
        themes=(),
        tally=tally,
        listing=listing,
    )
    return _Composer(evidence, CitationBook(1, lambda ds: ds), AgentConfig(), [])


def _tally(total: int, cfr: dict[str, int] | None = None) -> Tally:
    sections = tuple(Count(section, n) for section, n in (cfr or {}).items())
    return Tally(total, (Count("FDA Warning Letters", total),), (), sections)


def test_a_share_counted_over_every_match_is_out_of_the_total_said_to_match() -> None:
    docs = [_found(d) for d in "abc"]
    composer = _composer(docs, _tally(5, {"21 CFR 211.113": 4}))
    passages = [_cites(d, "21 CFR 211.113(b)") for d in docs]
    assert composer.common_sentence(passages).text.startswith("4 of the 5 documents cite")  # type: ignore[union-attr]


def test_a_share_the_count_lacks_is_out_of_the_matching_documents_read_and_says_so() -> None:
    strong, weak = [_found(d) for d in "abc"], [_found(d, weak=True) for d in "xyz"]
    composer = _composer(strong + weak, _tally(5))  # the count has no CFR section
    passages = [_cites(d, "21 CFR 211.192") for d in [*strong[:2], *weak]]
    text = composer.common_sentence([*passages, _cites(strong[2])]).text  # type: ignore[union-attr]
    assert text.startswith("2 of the 3 documents read cite 21 CFR 211.192")  # not "4 of the 6"


def test_without_a_count_the_share_is_of_the_documents_that_match() -> None:
    strong, weak = [_found(d) for d in "abc"], [_found(d, weak=True) for d in "xyz"]
    composer = _composer(strong + weak)
    passages = [_cites(d, "21 CFR 211.192") for d in [*strong, *weak]]
    text = composer.common_sentence(passages).text  # type: ignore[union-attr]
    assert text.startswith("3 of the 3 documents cite")
    which = composer.which_sentence(passages)
    assert which is not None and which.text.startswith("3 documents in")


def test_the_documents_read_are_those_the_count_lists_when_it_lists_them_all() -> None:
    docs = [_found(d) for d in "abcd"]
    rows = tuple(Match(d.document_id, d.dataset, d.title, d.date, None, None, ()) for d in docs[:3])
    composer = _composer(docs, _tally(3), Listing(3, rows))
    passages = [_cites(d, "21 CFR 820.198") for d in docs]
    text = composer.common_sentence(passages).text  # type: ignore[union-attr]
    assert text.startswith("3 of the 3 documents cite")  # d is not among the 3 that match


def test_firms_shown_from_partial_matches_are_said_to_be_so() -> None:
    strong, weak = [_found("a")], [_found(d, weak=True) for d in "xyz"]
    composer = _composer(strong + weak)
    which = composer.which_sentence([_cites(d) for d in [*strong, *weak]])
    assert which is not None
    assert which.text.startswith("1 document in")
    assert "of documents that match part of the question" in which.text


def _placed_composer(documents: list[Found]) -> _Composer:
    plan = flat_plan("Which firms in Texas?", "q", datasets=["fda_warning_letters"])
    plan = replace(plan, scope=replace(plan.scope, places_in=("US-TX",)))
    evidence = Evidence(plan, Searches(), documents, documents, (), ())
    return _Composer(evidence, CitationBook(1, lambda ds: ds), AgentConfig(), [])


def test_a_which_list_for_a_place_names_the_firms_known_to_be_there() -> None:
    there, unknown = replace(_found("a"), placed=True), [_found(d) for d in "bc"]
    composer = _placed_composer([there, *unknown])
    passages = [_cites(d) for d in [there, *unknown]]
    text = composer.which_sentence(passages).text  # type: ignore[union-attr]
    assert "those of firms in Texas are Firm a (2 more firms found give no place)" in text
    assert "Firm b" not in text
    theme = composer.which_theme(passages)
    assert theme is not None and [f.heading for f in theme.findings] == [
        "Firm a (warning letter, 2020-01-01)"
    ]


def test_a_which_list_for_a_place_none_is_known_to_be_in_says_so_first() -> None:
    composer = _placed_composer([_found(d) for d in "bc"])
    text = composer.which_sentence([_cites(_found(d)) for d in "bc"]).text  # type: ignore[union-attr]
    assert text.startswith("No document found is known to be from firms in Texas")


def _about(found: Found, topic: float, kind: str = "violation") -> Passage:
    unit = Unit(1, 0, 0, f"What {found.document_id} was cited for.", kind, "", None, ())
    return Passage(found, 1, unit, keyword=topic, prior=1.0, topic=topic)


def test_a_which_list_of_few_matches_gives_each_a_line_however_little_it_says() -> None:
    docs = [_found(d) for d in "abcd"]
    composer = _composer(docs)
    passages = [_about(docs[0], 0.9), _about(docs[1], 0.8), _about(docs[2], 0.1)]
    passages += [_about(docs[3], 0.05, "text"), _about(docs[3], 0.05)]
    theme = composer.which_theme(passages)
    assert theme is not None
    assert [f.heading.split(" (")[0] for f in theme.findings] == [f"Firm {d}" for d in "abcd"]
    # of two units as much about it, the one that states a finding
    assert composer.which_passages(passages)[-1].unit.kind == "violation"


def test_a_which_list_of_many_matches_lists_those_about_the_question() -> None:
    docs = [_found(str(n)) for n in range(AgentConfig().which_shown + 1)]
    composer = _composer(docs)
    passages = [_about(d, 0.9 if n < 2 else 0.1) for n, d in enumerate(docs)]
    theme = composer.which_theme(passages)
    assert theme is not None and len(theme.findings) == 2
