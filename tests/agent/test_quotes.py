"""What of a unit is quoted: its statement without its label, and the sentence about the
question when the statement does not say it; always word for word."""

from __future__ import annotations

import pytest

from regnb.agent._quotes import core_quotes
from regnb.agent._rank import plan_terms
from regnb.agent._stages import Plan, Topic
from regnb.documents.statements import short_statement
from regnb.documents.words import plain

OBSERVATION = (
    "OBSERVATION 2\nProcedures designed to prevent microbiological contamination of drug "
    "products purporting to be sterile are not established and followed. Specifically, your "
    "firm had seven confirmed failures for in-house sterility testing of lots released in 2021."
)
VIOLATION = (
    "1. Your firm failed to thoroughly investigate any unexplained discrepancy or failure of a "
    "batch to meet any of its specifications (21 CFR 211.192). For example, you did not "
    "investigate out-of-specification assay results for lot 22-017."
)


def _terms(*words: str) -> list:
    text = " ".join(words)
    return plan_terms(Plan(text, text, topic=Topic(words=words)))


@pytest.mark.parametrize(
    ("text", "starts"),
    [
        (OBSERVATION, "Procedures designed to prevent"),
        (VIOLATION, "Your firm failed to thoroughly investigate"),
        ("b) The firm did not keep records of cleaning for the blender used in lot 4.", "The firm"),
    ],
)
def test_the_label_of_a_unit_is_not_quoted(text: str, starts: str) -> None:
    quoted = core_quotes(text, [], 45)
    assert quoted.quotes[0].startswith(starts)
    assert all(q in plain(text) for q in quoted.quotes)


def test_the_sentence_that_answers_the_question_follows_the_statement() -> None:
    quoted = core_quotes(OBSERVATION, _terms("sterility", "failures"), 45)
    shown = quoted.shown
    assert "seven confirmed failures for in-house sterility testing" in shown
    assert shown.startswith("“Procedures designed")
    assert all(q in plain(OBSERVATION) for q in quoted.quotes)


def test_a_long_statement_is_cut_at_the_limit_with_an_ellipsis() -> None:
    quoted = core_quotes(VIOLATION, [], 8)
    assert len(quoted.quotes[0].split()) == 8
    assert quoted.shown.endswith(" …”")


def test_a_short_statement_is_one_line_of_the_first_sentence() -> None:
    assert short_statement(VIOLATION, 6) == "Your firm failed to thoroughly investigate …"
    assert short_statement("OBSERVATION 1 Records are incomplete.", 6) == "Records are incomplete."


@pytest.mark.parametrize(
    ("text", "quote"),
    [
        ("Short block with a finding in it.", "Short block with a finding in it."),
        ("**Bold** [12] heading of the finding", "Bold (12) heading of the finding"),
    ],
)
def test_quotes_are_plain_text(text: str, quote: str) -> None:
    assert core_quotes(text, [], 45).quotes == [quote]


def test_without_a_lead_the_sentence_that_holds_the_terms_comes_first() -> None:
    text = " ".join(["Filler sentence with nothing in it at all today."] * 3)
    text += " The endotoxin limit was exceeded in lot 4. " + text
    quoted = core_quotes(text, _terms("endotoxin"), 20, lead=False)
    assert quoted.quotes[0].startswith("The endotoxin limit was exceeded")
    assert core_quotes(text, _terms("endotoxin"), 20).quotes[0].startswith("Filler sentence")


RECORD = (
    "Enforcement Report — Drugs\nEvent ID: 377855\nStatus: Ongoing\n"
    "Recalling Firm: Sandhaven Specialty Pharmaceuticals Corporation\n"
    "Address: 7964 Jefferson Drive, Dallas, TX 75201\n"
    "Reason for Recall: Presence of Particulate Matter: glass particles found in retain samples\n"
    "Recall Initiation Date: May 2, 2024\nCode Information: Lot 4411"
)


def test_a_record_of_fields_is_quoted_from_its_reason_for_recall_not_its_address():
    quoted = core_quotes(RECORD, [], 40)
    assert quoted.quotes == [
        "Reason for Recall: Presence of Particulate Matter: glass particles found in retain samples"
    ]


def test_prose_that_mentions_a_reason_for_recall_is_quoted_as_before():
    text = "The firm wrote to FDA. Reason for recall: the seal may leak. Nothing else was said."
    assert core_quotes(text, [], 40).quotes[0].startswith("The firm wrote to FDA.")
