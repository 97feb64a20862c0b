"""The leads that open an answer with the yes or no asked: mentions that only deny."""

from __future__ import annotations

from dataclasses import replace

import pytest

from regnb.agent._citations import CitationBook
from regnb.agent._leads import _EXISTENCE, _only_denied, presence_leads
from regnb.agent._stages import Count, Evidence, Found, Plan, Presence, Searches

DENIED = {
    "a": "THE CUSTOMER REPORTED SIGNAL LOSS. THERE WAS NO REPORT OF DEATH, INJURY, OR CHANGE TO "
    "PATIENT TREATMENT AS A RESULT OF THIS EVENT.",
    "b": "The event did not result in serious injury or death.",
    "c": "Results were questionable. No harm was reported.",
}


def test_a_term_every_reading_document_mentions_only_after_a_denial_is_denied() -> None:
    assert _only_denied(DENIED, "deaths", 2)  # "death" in a and b, each after "no" / "not"
    assert _only_denied(DENIED, "injuries", 2)


def test_a_mention_without_a_denial_in_its_sentence_is_not_denied() -> None:
    texts = {**DENIED, "d": "There were no alarms. The patient died; death was reported."}
    assert not _only_denied(texts, "deaths", 3)  # "no" is in the sentence before


def test_documents_holding_the_term_that_were_not_read_leave_it_open() -> None:
    assert not _only_denied(DENIED, "deaths", 5)  # 5 hold it, 2 were read
    assert not _only_denied(DENIED, "", 0)


def _presence_lead(counts: dict[str, int], documents: int) -> str:
    found = [
        Found(f"d{i}", "fda_483", f"Form 483 - Acme {i}", "2019-09-18", None, {}, 1.0, (1,), False)
        for i in range(documents)
    ]
    held = Presence("fda_483", "Acme", documents, tuple(Count(t, n) for t, n in counts.items()))
    evidence = Evidence(Plan("m", "q"), Searches(), found, found, [], [], presence=held)
    leads = presence_leads(evidence, CitationBook(1, str))
    assert len(leads) == 1 and leads[0].markers
    return leads[0].text


def test_a_presence_lead_about_one_document_says_whether_it_mentions_each_term() -> None:
    assert _presence_lead({"media fills": 0}, 1) == (
        "No: the Form 483 on Acme does not mention “media fills”"
    )
    assert _presence_lead({"safety": 1, "efficacy": 0}, 1) == (
        "The Form 483 on Acme mentions “safety”; it does not mention “efficacy”"
    )


def test_a_presence_lead_counts_the_documents_and_names_the_terms_none_holds() -> None:
    assert _presence_lead({"safety": 2, "efficacy": 0}, 4) == (
        "2 of the 4 Form 483s on Acme mention “safety”; none mentions “efficacy”"
    )
    assert _presence_lead({"death": 1}, 3) == "1 of the 3 Form 483s on Acme mentions “death”"


@pytest.mark.parametrize(
    ("message", "asks"),
    [
        ("Was Acme's Houston facility cited in any warning letter?", True),
        ("Is there any 483 for Acme in the corpus?", True),
        ("Did Acme ever receive a warning letter?", True),
        ("Any deaths in the MAUDE reports on the LINQ II?", False),
        ("What did the warning letter to Acme say about media fills?", False),
    ],
)
def test_a_question_whether_a_document_exists_is_told_from_one_about_what_it_says(
    message: str, asks: bool
) -> None:
    assert bool(_EXISTENCE.search(message)) is asks


def test_what_the_documents_read_say_of_a_term_is_told_when_each_denies_it() -> None:
    from regnb.agent._leads import _read_denials

    assert _read_denials(DENIED, "deaths") == ", each of the 2 read only to say there was none"
    mixed = {**DENIED, "d": "The patient's death was reported to the firm."}
    assert _read_denials(mixed, "deaths") == ""  # one read says it: nothing to add
    assert _read_denials({"a": DENIED["a"]}, "deaths") == ""  # one alone: too few to say


def test_a_term_named_only_outside_the_documents_findings_is_a_no() -> None:
    from regnb.agent._stages import Passage
    from regnb.documents.structure import Unit

    doc = Found("c1", "fda_crl", "CRL - Acme", "2022-10-11", None, {}, 1.0, (1,), False)

    def unit(text: str, kind: str) -> Passage:
        return Passage(doc, 1, Unit(1, 1, 1, text, kind, "", None, ()), keyword=0.0, prior=1.0)

    deficiency = unit("The facility inspection found unresolved deficiencies.", "deficiency")
    request = unit("Present new safety data from the clinical studies.", "request")
    held = Presence("fda_crl", "Acme", 1, (Count("clinical study", 1),))
    evidence = Evidence(
        Plan("m", "q"), Searches(), [doc], [doc], [], [], presence=held,
        units={"c1": [deficiency, request]},
    )  # fmt: skip
    text = presence_leads(evidence, CitationBook(1, str))[0].text
    assert text == (
        "No: the complete response letter on Acme mentions “clinical study” only outside its "
        "deficiencies"
    )
    # said in a deficiency: what it says is the answer, not a no
    said = unit("FDA asks for a new clinical study of the device.", "deficiency")
    evidence = Evidence(
        Plan("m", "q"), Searches(), [doc], [doc], [], [], presence=held, units={"c1": [said]}
    )
    assert not presence_leads(evidence, CitationBook(1, str))[0].text.startswith("No")


def test_a_record_the_corpus_holds_twice_is_said_once_in_what_it_holds() -> None:
    from regnb.agent._leads import firm_leads
    from regnb.agent._stages import FirmRecord
    from tests.agent_support import flat_plan

    def form(doc: str, title: str) -> Found:
        return Found(doc, "fda_483", title, "2020-03-30", None, {}, 1.0, (1,), False)

    copies = (
        form("a", "FDA Form 483 - Edge Pharma, LLC"),
        form("b", "FDA Form 483 - Edge Pharma, LLC (2020-03-30)"),
    )
    plan = flat_plan("Did Edge Pharma get a warning letter?", "q", datasets=["fda_warning_letters"])
    plan = replace(
        plan,
        ask=replace(plan.ask, kind="absence"),
        scope=replace(plan.scope, named_datasets=("fda_warning_letters",)),
    )
    record = FirmRecord("Edge Pharma", ("Edge Pharma, LLC",), None, copies)
    evidence = Evidence(plan, Searches(), copies, copies, (), (), firms=(record,))
    [lead] = firm_leads(evidence, CitationBook(1, lambda ds: ds))
    assert lead.text.endswith("it holds its 2020 Form 483, dated 2020-03-30"), lead.text


@pytest.mark.parametrize(
    ("opening", "lead"),
    [
        (
            "FDA requested records and other information under section 704(a)(4) of the FD&C "
            "Act. We reviewed your response and found significant violations.",
            "No: the warning letter on Champaklal rests on records FDA requested under section "
            "704(a)(4) of the FD&C Act; it does not say FDA inspected the firm",
        ),
        (
            "FDA inspected your drug manufacturing facility from March 1 to 5, 2023.",
            "Yes: the warning letter on Champaklal says FDA inspected the firm",
        ),
    ],
)
def test_whether_fda_inspected_the_firm_is_what_its_warning_letter_rests_on(
    opening: str, lead: str
) -> None:
    letter = Found("w", "fda_warning_letters", "Warning Letter: Champaklal", "2023-04-10", None,
                   {}, 1.0, (1,), False)  # fmt: skip
    held = Presence("fda_warning_letters", "Champaklal", 1, (Count("inspect", 1),))
    plan = Plan("Did FDA actually inspect Champaklal's plant before the warning letter?", "q")
    evidence = Evidence(plan, Searches(), [letter], [letter], [], [], presence=held,
                        pages={("w", 1): opening})  # fmt: skip
    assert presence_leads(evidence, CitationBook(1, str))[0].text == lead
    unread = replace(evidence, pages={("w", 2): opening})  # its opening not read: no answer
    assert not presence_leads(unread, CitationBook(1, str))[0].text.startswith(("No:", "Yes:"))
