"""A regulatory letter's title and date, read from its own text."""

from __future__ import annotations

import pytest

from regnb.ingest._letters import Letter, read_letter, top_date

HEAD = [
    "DEPARTMENT OF HEALTH AND HUMAN SERVICES",
    "Food and Drug Administration",
    "Silver Spring MD 20993",
]
SIGNATURE = "signed electronically.\n/s/\nJANE Q PUBLIC\n{date}"


def _letter(*head: str, body: str = "", signed: str = "01/30/2015") -> list[str]:
    first = "\n".join([*HEAD, *head, "Dear Dr. Roe:", body])
    return [first, "More findings.", SIGNATURE.format(date=signed)]


REFER = (
    "Please refer to your New Drug Application (NDA) dated and received May 1, 2018, and\n"
    "your amendments, submitted under section 505(b) of the Federal Food, Drug, and\n"
    "Cosmetic Act (FDCA) for Widgetol (widgetamab) tablets, 10 mg.\n"
    "We have completed our review of this application, as amended, and have determined\n"
    "that we cannot approve this application in its present form."
)


@pytest.mark.parametrize(
    ("pages", "expected"),
    [
        (
            _letter("NDA 123456", "COMPLETE RESPONSE", "Acme Pharma, Inc.", body=REFER),
            Letter(
                "Complete Response Letter",
                "NDA 123456",
                "Widgetol (widgetamab) tablets, 10 mg",
                "Acme Pharma, Inc.",
                "2015-01-30",
            ),
        ),
        (  # the supplement and original numbers tidied, c/o and Attention lines passed over
            _letter(
                "BLA 125522/ Original 2",
                "COMPLETE RESPONSE",
                "Attention: Jane Roe",
                "Acme Biologics Ltdc/o Acme US Agent LLC",
                body=REFER,
            ),
            Letter(
                "Complete Response Letter",
                "BLA 125522/Original 2",
                "Widgetol (widgetamab) tablets, 10 mg",
                "Acme Biologics Ltd",
                "2015-01-30",
            ),
        ),
        (  # an older letter: the action from its text, the date from its date line
            _letter(
                "NDA 21-164",
                "March 3, 2008",
                "Fabre Pharma, Inc.",
                body="Please refer to your new drug application submitted under the Act for "
                "Gepirone ER tablets. The application is not approvable.",
                signed="11/2/2007 02:23:04 PM",
            ),
            Letter(
                "Not Approvable Letter",
                "NDA 21-164",
                "Gepirone ER tablets",
                "Fabre Pharma, Inc.",
                "2008-03-03",
            ),
        ),
        (
            _letter("NDA 202408", "RESCIND COMPLETE RESPONSE", "Fera LLC", body=REFER),
            Letter(
                "Rescission of Complete Response Letter",
                "NDA 202408",
                "Widgetol (widgetamab) tablets, 10 mg",
                "Fera LLC",
                "2015-01-30",
            ),
        ),
        (  # a subject line names the product where no "Please refer" sentence does
            _letter(
                "ANDA 076543",
                "Dated: 12 June 2020",
                "Generico Inc.",
                "RE: ANDA 076543 Widgetol Tablets USP, 5 mg",
                body="We have received your amendment.",
            ),
            Letter(
                "Letter", "ANDA 076543", "Widgetol Tablets USP, 5 mg", "Generico Inc.", "2020-06-12"
            ),
        ),
    ],
)
def test_a_letter_reads_its_action_product_firm_application_and_date(
    pages: list[str], expected: Letter
) -> None:
    assert read_letter(pages) == expected


@pytest.mark.parametrize(
    ("letter", "title"),
    [
        (
            Letter("Complete Response Letter", "NDA 1", "Widgetol", "Acme", None),
            "Complete Response Letter — Widgetol, Acme (NDA 1)",
        ),
        (Letter("Letter", None, None, "Acme", None), "Letter — Acme"),
        (Letter("Approvable Letter", "NDA 1", None, None, None), "Approvable Letter (NDA 1)"),
    ],
)
def test_a_letter_s_title_leaves_out_what_it_lacks(letter: Letter, title: str) -> None:
    assert letter.title == title


@pytest.mark.parametrize(
    "pages",
    [
        ["Guidance for Industry\nDear reader: this is not a letter\nbody"],
        ["Dear Dr. Roe:\nThank you for your note."],  # no application and no action above it
        ["CENTER FOR DRUG EVALUATION AND\nRESEARCH\nOTHER ACTION LETTERS"],
        [""],
    ],
)
def test_other_documents_are_not_letters(pages: list[str]) -> None:
    assert read_letter(pages) is None


@pytest.mark.parametrize(
    ("pages", "expected"),
    [
        (["Notice\nDated: March 3, 2019\nbody"], "2019-03-03"),
        (["Notice\nDate: 2019-03-04\nbody"], "2019-03-04"),
        (["", "Title\nJune 12, 2020\nbody"], "2020-06-12"),
        (["Title\n12 June 2020\nbody"], "2020-06-12"),
        (["Title\nbody\nWe met on March 3, 2019 to discuss."], None),
        (["Title\n" + "line\n" * 20 + "March 3, 2019"], None),  # too far down
        (["Title\nDated: soon\nbody"], None),
    ],
)
def test_a_date_line_near_the_top_dates_a_document(pages: list[str], expected: str | None) -> None:
    assert top_date(pages) == expected
