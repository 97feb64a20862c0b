"""Letter and form furniture (regnb.documents.furniture): the table of patterns, with cases that must
and must not match, and the corpus-level test of sentences common to a dataset's documents,
down to the engine that finds them once per index."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from typing import Any

import pytest

import regnb
from regnb.documents.furniture import (
    BOILERPLATE,
    common_sentences,
    common_share,
    is_furniture,
    is_furniture_line,
    sentence_key,
)
from regnb.engine import COMMON_FILE


@pytest.mark.parametrize(
    "text",
    [
        "Dear Dr. Smith:",
        "Dear Mr. Jones,",
        "WARNING LETTER\nCMS # 612345\nMarch 3, 2022\nDear Ms. Roe:\nThe FDA inspected your firm.",
        "Please refer to your New Drug Application (NDA) dated October 5, 2017, received "
        "October 5, 2017, submitted pursuant to section 505(b)(2) of the Act.",
        "We acknowledge receipt of your amendment dated November 5, 2018.",
        "NDA 209510\nPage 2",
        "BLA 761365 / Page 3",
        "Reference ID: 4427424",
        "DEPARTMENT OF HEALTH AND HUMAN SERVICES\nFood and Drug Administration\n"
        "Silver Spring, MD 20993",
        "Acme Therapeutics, Inc.\n100 Research Parkway\nDurham, NC 27709",
        "If you have any questions, call Mary Chung, Regulatory Project Manager, at "
        "(301) 796-0260.",
        "Your firm's response should be sent via email to OMQ-Responses@fda.hhs.gov.",
        "Sincerely,\n/S/\nJane Doe\nActing Director\nOffice of Regulatory Programs\n"
        "Center for Devices and Radiological Health",
        "{See appended electronic signature page}",
        "cc: Mr. John Smith, Vice President, Quality Assurance",
        "The violations cited in this letter are not intended to be an all-inclusive list of "
        "violations that exist at your facility.",
        "Failure to promptly and adequately address these violations may result in legal action "
        "without further notice, including, without limitation, seizure and injunction.",
        "This letter notifies you of our concerns and provides you an opportunity to address them.",
        "You may request a regulatory meeting to discuss the violations.",
        "Section 704(b) of the Federal Food, Drug, and Cosmetic Act (21 USC 374(b)) provides: "
        '"Upon completion of any such inspection of a factory, warehouse, consulting laboratory."',
        "This document lists observations made by the FDA representative(s) during the inspection "
        "of your facility. They are inspectional observations, and do not represent a final "
        "Agency determination regarding your compliance.",
        "this information to FDA at the address above.",  # the form's paragraph, cut by a page
        "This document hsts observations made by the FDA representative(s) during the inspection "
        "of your facility. They are inspechonal observations, and do net represent a final Agency "
        "determination regarding your compliance.",
        "SEE REVERSE OF THIS PAGE",
        "EMPLOYEE(S) SIGNATURE\nJane Q. Investigator, Investigator",
        "FORM FDA 483 (09/08) PREVIOUS EDITION OBSOLETE INSPECTIONAL OBSERVATIONS",
        "D ISTRICT ADDRESS ANO PHONE NUMBER",
        "OATE(S) OF INSPECTION",
        "INSPECTIONAL OBSERVATIONS",
        "We reserve comment on the proposed labeling until the application is otherwise adequate. "
        "We encourage you to review the labeling review resources on the PLR Requirements for "
        "Prescribing Information website.",
        "PRESCRIBING INFORMATION\nWe reserve further comment on the proposed labeling until the "
        "application is otherwise adequate.",
        "If you revise labeling, use the SRPI checklist to ensure that the prescribing "
        "information conforms with format items in regulations and guidances.",
        "Please refer to correspondence dated January 30, 2019, which addresses the proposed "
        "proprietary name, Barhemsys.",
        "Describe in detail any significant changes or findings in the safety profile.",
        "Within one year after the date of this letter, you are required to resubmit or take "
        "other actions available under 21 CFR 314.110.",
        "A resubmission must fully address all the deficiencies listed in this letter.",
        "Contains Nonbinding Recommendations",
        "Introduction ........................................................ 1",
        "Smith J, Doe A. Stability of monoclonal antibodies. J Pharm Sci 2010;99:1234-45.",
        "MEDTRONIC SUBMITS THIS REPORT TO COMPLY WITH FDA REGULATIONS 21 CFR PARTS 4 AND 803.",
        "12",
        "In addition, please refer to the draft guidance on usability engineering for devices,"
        " found at: http://www.fda.gov/guidance/ucm000000.htm.",
        "(Usability Engineering for Devices (PDF))(http://www.fda.gov/downloads/Guidances/"
        "UCM000001.pdf)",
        "DATE ISSUED Jane Q Roe, Investigator John R Doe, Investigator PREVIOUS EDfflON OBSOLEJE"
        " 3/30/2020 JQRoe ~ X",
        "DATE ISSUED\n\nJane Q Roe, I nvestigat or\nJohn R Doe, Investigato r\n\n3/30/2020",
        "S DOCUMENT LISTS OBSERVATIONS MADE BY THE FDA REPRESENTATIVE(S) DURING THE INSPECTION"
        " OF YOUR FACILITY. THEY ARE INSPECTIONAL SERVATIONS; AND DO NOT REPRESENT A FINAL AGENCY"
        " DETERMINATION REGARDING YOUR COMPLIANCE.",
    ],
)
def test_furniture_is_recognised(text: str) -> None:
    assert is_furniture(text)


@pytest.mark.parametrize(
    "text",
    [
        "1. Your firm failed to thoroughly investigate any unexplained discrepancy (21 CFR "
        "211.192).",
        "Your firm failed to answer questions from patients about dosing errors within the "
        "required time.",
        "The complaint file said Dear Customer letters were not sent to all consignees of lot 123.",
        "Dear Healthcare Provider letters were never issued for the recalled lots, although the "
        "firm's procedure requires them within ten days of a recall decision.",
        "OBSERVATION 1\nProcedures designed to prevent microbiological contamination are not "
        "established.",
        "The proposed specification for the degradant is not acceptable; we recommend NMT 0.5%.",
        "FDA recommends that the warnings section describe the risk of malfunction.",
        "Specifically, the firm did not contact the customer who reported the failure.",
        "The firm did not submit this information to FDA at the address above within 15 days.",
        "Operators were observed at 1234 Main Street touching sterile surfaces with bare hands "
        "during the filling of lot 2101, and the firm did not investigate the event.",
        "FDA reviewed your website at www.example.com and found that it offers unapproved drugs"
        " for sale to consumers in the United States.",
        "Provide a risk assessment of the levels of elemental impurities in the drug product, as"
        " described in the guidance on elemental impurities available at www.example.org/q3d.",
        "",
    ],
)
def test_substance_is_not_furniture(text: str) -> None:
    assert not is_furniture(text)


def test_a_block_mostly_substance_is_not_furniture_for_its_notice() -> None:
    finding = " ".join(["Operators touched the sterile work surface with bare gloved hands."] * 6)
    assert not is_furniture(f"{finding} If you have any questions, contact FDA.")


@pytest.mark.parametrize(
    ("line", "furniture"),
    [
        ("Sincerely,", True),
        ("Reference ID: 5400209", True),
        ("CGMP Violations", False),
        ("1. Your firm failed to establish procedures.", False),
    ],
)
def test_a_line_is_furniture_as_a_whole(line: str, furniture: bool) -> None:
    assert is_furniture_line(line) is furniture


def test_maude_disclaimers_are_furniture_only_in_maude() -> None:
    text = "ACME HAS MADE REASONABLE EFFORTS TO PROVIDE AS MUCH RELEVANT INFORMATION AS POSSIBLE."
    assert is_furniture(text, "fda_maude")
    assert not is_furniture(text, "fda_warning_letters")


def test_every_boilerplate_phrase_makes_a_sentence_furniture() -> None:
    for phrase in BOILERPLATE:
        assert is_furniture(f"{phrase} and so on.".capitalize()), phrase


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        (
            "Within one year after the date of this letter, you are required to resubmit.",
            "WITHIN ONE YEAR AFTER THE DATE OF THIS LETTER,\nyou are required to resubmit.",
            True,
        ),
        (
            "Reference ID 4427424 was assigned to the letter sent on May 2, 2019 to the firm.",
            "Reference ID 5300211 was assigned to the letter sent on June 9, 2023 to the firm.",
            True,
        ),
        (
            "No patient complications have been reported as a result of this event.",
            "Patient complications have been reported as a result of this event.",
            False,
        ),
        (
            "The firm did not investigate sterility failures of lot 2101.",
            "The firm did not investigate potency failures of lot 2101.",
            False,
        ),
    ],
)
def test_a_sentence_key_matches_near_copies(a: str, b: str, same: bool) -> None:
    assert (sentence_key(a) == sentence_key(b)) is same


def test_a_short_sentence_has_no_key() -> None:
    assert sentence_key("Sincerely,") == ""
    assert sentence_key("See page 4.") == ""


STANDARD = (
    "Within one year after the date of this letter, you are required to resubmit the application."
)


def letters(n: int, standard_in: int) -> list[list[str]]:
    """`n` letters with a finding of their own; the first `standard_in` carry the standard
    sentence (some twice, on two pages)."""
    out = []
    for i in range(n):
        own = f"The {['alpha', 'beta', 'gamma', 'delta', 'omega', 'sigma', 'kappa', 'theta'][i]} line leaked during filling of the sterile product lots."
        pages = [own]
        if i < standard_in:
            pages += [STANDARD, STANDARD]
        out.append(pages)
    return out


def test_common_sentences_are_those_of_a_large_share_of_documents() -> None:
    common = common_sentences(letters(8, 5))
    assert common == {sentence_key(STANDARD)}
    assert common_sentences(letters(8, 5), min_share=0.7) == frozenset()
    assert common_sentences(letters(8, 4)) == frozenset()  # fewer than min_documents


def test_common_share_counts_the_sentences_of_a_text_that_are_common() -> None:
    common = frozenset({sentence_key(STANDARD)})
    own = "The sterile line leaked during filling of three lots in March of that year."
    assert common_share(STANDARD, common) == 1.0
    assert common_share(f"{own} {STANDARD}", common) == 0.5
    assert common_share(own, common) == 0.0
    assert common_share(own, frozenset()) == 0.0


def corpus(n: int, standard_in: int) -> dict[str, list[dict[str, Any]]]:
    return {
        "fda_crl": [
            {"title": f"Letter {i}", "pages": pages, "date": "2020-01-01"}
            for i, pages in enumerate(letters(n, standard_in))
        ],
        "fda_warning_letters": [{"title": "Other", "pages": [STANDARD], "date": "2020-01-01"}],
    }


def test_the_engine_finds_a_datasets_common_sentences_once_per_index(
    make_engine: Callable[..., regnb.Engine],
) -> None:
    engine = make_engine(corpus(8, 6))
    key = sentence_key(STANDARD)
    assert engine.common_sentences("fda_crl") == {key}
    assert engine.common_sentences("fda_warning_letters") == frozenset()
    assert engine.common_sentences("no_such_dataset") == frozenset()
    stored = json.loads((engine.index_path / COMMON_FILE).read_text(encoding="utf-8"))
    assert stored["fda_crl"] == [key]
    stored["fda_crl"] = ["a key read back from the index folder"]
    (engine.index_path / COMMON_FILE).write_text(json.dumps(stored), encoding="utf-8")
    assert engine.common_sentences("fda_crl") == {key}  # held in memory
    again = regnb.Engine(
        engine.path, encoder=regnb.HashingEncoder(), settings=engine.settings, progress=False
    )
    try:
        assert again.common_sentences("fda_crl") == {"a key read back from the index folder"}
    finally:
        again.close()


def test_the_engine_answers_threads_asking_at_once_with_one_result(
    make_engine: Callable[..., regnb.Engine],
) -> None:
    engine = make_engine(corpus(8, 6))
    results: list[frozenset[str]] = []
    threads = [
        threading.Thread(target=lambda: results.append(engine.common_sentences("fda_crl")))
        for _ in range(4)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(results) == 4 and all(r is results[0] for r in results)


def test_the_engine_samples_a_bounded_share_of_a_large_dataset(
    make_engine: Callable[..., regnb.Engine],
) -> None:
    engine = make_engine(corpus(8, 6))
    sample = list(engine.store.rows.sample_documents("fda_crl", limit=3, batch=2))
    assert len(sample) == 3
    assert sample == list(engine.store.rows.sample_documents("fda_crl", limit=3, batch=2))
    assert [len(pages) for pages in sample] == [3, 3, 3]
    first_pages = list(engine.store.rows.sample_documents("fda_crl", limit=3, pages=1))
    assert first_pages == [pages[:1] for pages in sample]
