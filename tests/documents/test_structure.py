"""Documents read as their kind is written (regnb.documents.structure): synthetic pages in the shapes
of real 483s, warning letters, complete response letters, MAUDE reports and guidance, and the
coverage measured on the real documents of ../shared/data/realcorpus."""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator

import pytest

from regnb.documents.blocks import block_text, split_blocks
from regnb.documents.furniture import is_furniture
from regnb.documents.statements import unit_body
from regnb.documents.structure import (
    KINDS,
    UNNUMBERED,
    Unit,
    document_kind,
    outline_level,
    parse_document,
    trimmed,
)
from tests import paths

REAL = paths.SHARED_DATA / "realcorpus"

FORM_483 = {
    1: """DEPARTMENT OF HEALTH AND HUMAN SERVICES
FOOD AND DRUG ADMINISTRATION

19 Harbor Way, Suite 200
Springfield, IL 62701

FIRM NAME
Acme Sterile Compounding LLC

This document lists observations made by the FDA representative(s) during the inspection of \
your facility. They are inspectional observations, and do not represent a final Agency \
determination regarding your compliance. If you have any questions, please contact FDA at the \
phone number and address above.

DURING AN INSPECTION OF YOUR FIRM WE OBSERVED:

OBSERVATION 1
Procedures designed to prevent microbiological contamination of drug products purporting to be \
sterile are not established and followed.

Specifically,

A. Operators were observed touching the ISO 5 work surface with non-sterile gloves on 3/4/2021.

B. Smoke studies of the laminar airflow hood were not performed under dynamic conditions.

OBSERVATION 2 (REPEAT OBSERVATION)
There is a failure to thoroughly review any unexplained discrepancy whether or not the batch has \
been already distributed.

EMPLOYEE(S) SIGNATURE
Jane Q. Investigator, Investigator

SEE REVERSE OF THIS PAGE
""",
    2: """Specifically, sterility failures of lots 2101 and 2102 were closed without identifying \
the contaminating organism.

OBSERVATION 3
Written procedures for the cleaning and maintenance of equipment are not followed.
""",
    4: """the HEPA filters of the buffer room had not been certified since 2019.

OBSERVATION 5
Employees are not given training in the particular operations they perform.
""",
}

WARNING_LETTER = {
    1: """WARNING LETTER
CMS # 612345
March 3, 2022

Dear Mr. Doe:

The U.S. Food and Drug Administration (FDA) inspected your drug manufacturing facility, Acme \
Pharma Inc., FEI 3001234567, from September 1 to 10, 2021.

This warning letter summarizes significant violations of Current Good Manufacturing Practice \
(CGMP) regulations for finished pharmaceuticals. See 21 CFR, parts 210 and 211.

CGMP Violations

1. Your firm failed to thoroughly investigate any unexplained discrepancy or failure of a batch \
to meet any of its specifications (21 CFR 211.192).

Specifically, your firm did not investigate out-of-specification assay results for lot 21-044 of \
Ibuprofen Tablets.

Your response is inadequate because you did not extend the investigation to other lots \
manufactured on the same equipment.

In response to this letter, provide:
• A retrospective review of all invalidated out-of-specification results since 2019.
• A corrective action and preventive action plan for your investigation system.

2. Your firm failed to establish a quality control unit with the responsibility and authority to \
approve or reject all components (21 C.F.R. § 211.22(a)).

Data Integrity Remediation

Your quality system does not adequately ensure the accuracy and integrity of data.
""",
    2: """Conclusion

The violations cited in this letter are not intended to be an all-inclusive list of violations \
that exist at your facility.

Failure to promptly and adequately address these violations may result in legal action without \
further notice, including, without limitation, seizure and injunction.

If you have questions regarding this letter, contact Jane Roe, Compliance Officer, at \
(301) 796-0000.

Sincerely,
/S/
Francis Godwin
Director
Office of Manufacturing Quality
Center for Drug Evaluation and Research
""",
}

RESPONSE_LETTER = {
    1: """DEPARTMENT OF HEALTH AND HUMAN SERVICES
Food and Drug Administration
Silver Spring MD 20993

NDA 212345
COMPLETE RESPONSE
Acme Therapeutics, Inc.
Attention: John Smith, PhD
100 Research Parkway
Durham, NC 27709

Dear Dr. Smith:

Please refer to your New Drug Application (NDA) dated January 5, 2021, received January 5, \
2021, submitted pursuant to section 505(b)(1) of the Federal Food, Drug, and Cosmetic Act for \
Examplex (examplumab) tablets.

We have completed our review of this application and have determined that we cannot approve \
this application in its present form.

FACILITY INSPECTIONS

During a recent inspection of the Acme Fill Finish manufacturing facility for this application, \
our field investigator conveyed deficiencies to the representative of the facility.

PRODUCT QUALITY

1. Your proposed specification for degradant X of NMT 1.0% is not acceptable because it \
exceeds the qualification threshold.

We recommend you tighten the acceptance criterion to NMT 0.5%.

2. The dissolution method is not discriminating. Provide data demonstrating that the method can \
detect meaningful changes in the formulation.

Reference ID: 4812345
""",
    2: """NDA 212345
Page 2

3. Provide updated stability data for three registration batches to support the proposed expiry.

CLINICAL

4. The single adequate and well-controlled trial did not demonstrate a statistically significant \
effect on the primary endpoint.

PRESCRIBING INFORMATION

We reserve comment on the proposed labeling until the application is otherwise adequate. We \
encourage you to review the labeling review resources on the PLR Requirements for Prescribing \
Information website, including the Selected Requirements for Prescribing Information (SRPI).

SAFETY UPDATE

When you respond to the above deficiencies, include a safety update as described at \
21 CFR 314.50(d)(5)(vi)(b).

1. Describe in detail any significant changes or findings in the safety profile.

2. Provide updated exposure information for the clinical studies/trials.

3. Provide a summary and analysis of all patients who had recurrent ARIA, including the \
frequency of subjects with multiple episodes.

OTHER

Within one year after the date of this letter, you are required to resubmit or take other \
actions available under 21 CFR 314.110.

A resubmission must fully address all the deficiencies listed in this letter.

You may request a meeting or teleconference with us to discuss what steps you need to take \
before the application may be approved.

Reference ID: 4812345
""",
}

MAUDE_LABELLED = {
    1: """Event description: IT WAS REPORTED THAT THE INFUSION PUMP DISPLAYED AN OCCLUSION ALARM \
AND STOPPED DELIVERING MEDICATION TO THE PATIENT. THE PATIENT WAS MOVED TO ANOTHER PUMP.

Manufacturer narrative: THE DEVICE WAS RETURNED AND EVALUATED. THE INVESTIGATION FOUND A \
CRACKED PRESSURE SENSOR HOUSING. THE ROOT CAUSE WAS EXCESSIVE TORQUE DURING ASSEMBLY.
"""
}

MAUDE_PLAIN = {
    1: """IT WAS REPORTED THAT THE MONITOR LOST SIGNAL DURING A PATIENT PROCEDURE. NO PATIENT \
INJURY WAS REPORTED.

ANALYSIS OF THE RETURNED DEVICE FOUND A DAMAGED CONNECTOR. THE INVESTIGATION CONCLUDED THE ROOT \
CAUSE WAS WEAR.

ACME SUBMITS THIS REPORT TO COMPLY WITH FDA REGULATIONS 21 CFR PARTS 4 AND 803. THIS REPORT \
DOES NOT CONSTITUTE AN ADMISSION THAT THE DEVICE CAUSED OR CONTRIBUTED TO THE EVENT.
"""
}

GUIDANCE = {
    3: """Contains Nonbinding Recommendations

IV. Labeling Recommendations

A. Warnings

FDA recommends that the warnings section describe the risk of device malfunction in plain \
language.

Manufacturers should include the following information in the labeling:

• the intended use of the device;
• contraindications for use in pregnant patients;
• instructions for cleaning between uses.

The device description summarizes the principles of operation of the system.
"""
}

GENERIC = {
    1: """The following lots are affected:

- Lot 1001
- Lot 1002

The recall was initiated by letter on May 1, 2020.
"""
}

SAMPLES = {
    "fda_483": FORM_483,
    "fda_warning_letters": WARNING_LETTER,
    "fda_crl": RESPONSE_LETTER,
    "fda_maude": MAUDE_LABELLED,
    "fda_guidance": GUIDANCE,
    "fda_recalls": GENERIC,
}


def units_of(dataset: str, pages: dict[int, str]) -> list[Unit]:
    return parse_document(dataset, pages)


def find(units: list[Unit], start: str) -> Unit:
    """The unit whose text starts with `start` (or holds it)."""
    for unit in units:
        if unit.text.startswith(start):
            return unit
    for unit in units:
        if start in unit.text:
            return unit
    raise AssertionError(f"no unit with {start!r}")


@pytest.mark.parametrize(
    ("dataset", "kind"),
    [
        ("fda_483", "483"),
        ("fda_483__ncruickshank", "483"),
        ("fda_warning_letters", "warning_letter"),
        ("fda_crl", "crl"),
        ("fda_maude", "maude"),
        ("fda_guidance", "guidance"),
        ("ema_mdcg_guidance", "guidance"),
        ("ich_guidelines", "guidance"),
        ("fda_recalls", "generic"),
        ("fda_483_observation_catalog", "generic"),
    ],
)
def test_a_dataset_names_its_kind_of_document(dataset: str, kind: str) -> None:
    assert document_kind(dataset) == kind


@pytest.mark.parametrize("dataset", sorted(SAMPLES))
def test_every_block_is_in_exactly_one_unit(dataset: str) -> None:
    pages = SAMPLES[dataset]
    units = units_of(dataset, pages)
    for page_num, page in pages.items():
        covered = [n for u in units if u.page_num == page_num for n in range(u.first, u.last + 1)]
        assert covered == list(range(1, len(split_blocks(page)) + 1))
    assert [u.page_num for u in units] == sorted(u.page_num for u in units)


@pytest.mark.parametrize("dataset", sorted(SAMPLES))
def test_a_units_block_id_names_its_text(dataset: str) -> None:
    pages = SAMPLES[dataset]
    for unit in units_of(dataset, pages):
        assert block_text(pages[unit.page_num], unit.block_id) == unit.text
        assert unit.kind in KINDS
        assert unit.first <= unit.last


@pytest.mark.parametrize("dataset", ["fda_483", "fda_warning_letters", "fda_crl", "fda_guidance"])
def test_a_lead_in_never_stands_alone(dataset: str) -> None:
    for unit in units_of(dataset, SAMPLES[dataset]):
        if unit.kind != "furniture" and unit.text.rstrip("•\n ").endswith((":", "Specifically,")):
            assert unit.last > unit.first, unit.text


def test_a_483s_observations_keep_their_sub_items_and_repeat_marks() -> None:
    units = units_of("fda_483", FORM_483)
    first = find(units, "OBSERVATION 1")
    assert (first.kind, first.heading, first.number, first.repeat) == (
        "finding",
        "Observation 1",
        "1",
        False,
    )
    assert first.text.endswith("Specifically,")  # the lead-in stays with its statement
    sub = find(units, "A. Operators")
    assert (sub.kind, sub.heading, sub.number) == ("finding", "Observation 1", "1.A")
    assert find(units, "B. Smoke").number == "1.B"
    repeat = find(units, "OBSERVATION 2")
    assert (repeat.number, repeat.repeat) == ("2", True)
    assert find(units, "Specifically, sterility").repeat  # the repeat mark covers all of it


@pytest.mark.parametrize(
    "start",
    [
        "DEPARTMENT OF HEALTH",
        "19 Harbor Way",
        "FIRM NAME",
        "This document lists observations",
        "DURING AN INSPECTION",
        "EMPLOYEE(S) SIGNATURE",
        "SEE REVERSE",
    ],
)
def test_a_483s_form_text_is_furniture(start: str) -> None:
    assert find(units_of("fda_483", FORM_483), start).kind == "furniture"


def test_a_heading_carries_to_the_next_page_only_when_it_is_consecutive() -> None:
    units = units_of("fda_483", FORM_483)
    carried = find(units, "Specifically, sterility")
    assert (carried.page_num, carried.heading, carried.number) == (2, "Observation 2", "2")
    orphan = find(units, "the HEPA filters")
    assert (orphan.page_num, orphan.kind, orphan.heading, orphan.number) == (4, "finding", "", None)
    assert find(units, "OBSERVATION 5").heading == "Observation 5"


def test_the_first_page_of_a_483_without_its_heading_is_not_a_finding() -> None:
    units = units_of("fda_483", {1: "Acme Pharmacy LLC\n\n123 Main Street\nSpringfield, IL 62701"})
    assert {u.kind for u in units} == {"furniture"}


def test_a_warning_letters_violations_carry_their_citations() -> None:
    units = units_of("fda_warning_letters", WARNING_LETTER)
    first = find(units, "1. Your firm failed")
    assert (first.kind, first.heading, first.number) == ("violation", "Violation 1", "1")
    assert first.cfr == ("21 CFR 211.192",)
    assert "Specifically, your firm did not investigate" in first.text  # its example joins it
    second = find(units, "2. Your firm failed")
    assert (second.heading, second.cfr) == ("Violation 2", ("21 CFR 211.22(a)",))


def test_a_warning_letters_response_paragraph_and_request_are_their_own_units() -> None:
    units = units_of("fda_warning_letters", WARNING_LETTER)
    response = find(units, "Your response is inadequate")
    assert (response.kind, response.heading, response.number) == ("response", "Violation 1", "1")
    request = find(units, "In response to this letter, provide:")
    assert (request.kind, request.heading) == ("request", "Violation 1")
    assert request.text.endswith("plan for your investigation system.")  # the list joins it


def test_a_warning_letters_section_heading_names_the_content_after_it() -> None:
    units = units_of("fda_warning_letters", WARNING_LETTER)
    remediation = find(units, "Data Integrity Remediation")
    assert remediation.heading == "Data Integrity Remediation"
    assert "Your quality system does not adequately ensure" in remediation.text


@pytest.mark.parametrize(
    "start",
    [
        "WARNING LETTER",
        "Dear Mr. Doe",
        "This warning letter summarizes",
        "The violations cited in this letter",
        "Failure to promptly",
        "If you have questions",
        "Sincerely,",
    ],
)
def test_a_warning_letters_notices_and_signature_are_furniture(start: str) -> None:
    assert find(units_of("fda_warning_letters", WARNING_LETTER), start).kind == "furniture"


@pytest.mark.parametrize("dataset", ["fda_warning_letters", "fda_crl"])
def test_a_salutation_ending_in_a_colon_is_furniture_not_a_lead_in(dataset: str) -> None:
    page = "CBER 24-646460\n\nDear Dr. Stromer:\n\nThe FDA inspected your blood bank in May 2024."
    units = units_of(dataset, {1: page})
    assert find(units, "Dear Dr. Stromer:").text == "Dear Dr. Stromer:"
    assert find(units, "Dear Dr. Stromer:").kind == "furniture"


@pytest.mark.parametrize(
    ("start", "heading", "number"),
    [
        ("FACILITY INSPECTIONS", "Facility inspections", None),
        ("PRODUCT QUALITY", "Product quality", "1"),
        ("2. The dissolution method", "Product quality", "2"),
        ("3. Provide updated stability", "Product quality", "3"),
        ("CLINICAL", "Clinical", "4"),
    ],
)
def test_a_crls_numbered_deficiencies_are_units_with_their_section(
    start: str, heading: str, number: str | None
) -> None:
    unit = find(units_of("fda_crl", RESPONSE_LETTER), start)
    assert (unit.kind, unit.heading, unit.number) == ("deficiency", heading, number)


def test_a_crls_recommendation_stays_with_its_deficiency() -> None:
    unit = find(units_of("fda_crl", RESPONSE_LETTER), "PRODUCT QUALITY")
    assert "We recommend you tighten" in unit.text


@pytest.mark.parametrize(
    "start",
    [
        "DEPARTMENT OF HEALTH",
        "NDA 212345\nCOMPLETE RESPONSE",
        "Dear Dr. Smith",
        "Please refer to your New Drug Application",
        "We have completed our review",
        "Reference ID",
        "NDA 212345\nPage 2",
        "We reserve comment on the proposed labeling",
        "SAFETY UPDATE",
        "1. Describe in detail",
        "2. Provide updated exposure",
        "Within one year after",
        "A resubmission must",
        "You may request a meeting",
    ],
)
def test_a_crls_standard_sections_and_letterhead_are_furniture(start: str) -> None:
    assert find(units_of("fda_crl", RESPONSE_LETTER), start).kind == "furniture"


def test_a_request_a_letter_adds_to_the_standard_safety_update_is_a_request() -> None:
    unit = find(units_of("fda_crl", RESPONSE_LETTER), "3. Provide a summary and analysis")
    assert unit.kind == "request"
    assert unit.heading == "Safety update"


@pytest.mark.parametrize(
    ("pages", "start", "kind"),
    [
        (MAUDE_LABELLED, "Event description", "description"),
        (MAUDE_LABELLED, "Manufacturer narrative", "narrative"),
        (MAUDE_PLAIN, "IT WAS REPORTED", "description"),
        (MAUDE_PLAIN, "ANALYSIS OF THE RETURNED", "narrative"),
        (MAUDE_PLAIN, "ACME SUBMITS THIS REPORT", "furniture"),
    ],
)
def test_a_maude_report_tells_the_event_from_the_manufacturers_narrative(
    pages: dict[int, str], start: str, kind: str
) -> None:
    assert find(units_of("fda_maude", pages), start).kind == kind


def test_a_guidances_recommendations_keep_their_heading_and_list() -> None:
    units = units_of("fda_guidance", GUIDANCE)
    assert find(units, "Contains Nonbinding").kind == "furniture"
    first = find(units, "IV. Labeling")
    assert (first.kind, first.heading) == ("recommendation", "Warnings")
    assert "FDA recommends" in first.text  # the headings join the paragraph they head
    listed = find(units, "Manufacturers should include")
    assert listed.kind == "recommendation"
    assert listed.text.endswith("instructions for cleaning between uses.")
    plain = find(units, "The device description")
    assert (plain.kind, plain.heading) == ("text", "Warnings")


OUTLINED = {
    4: """III. DISCUSSION

A. HOW SHOULD A FIRM IN A PRODUCT DISTRIBUTION CHAIN PREPARE TO FACILITATE
TIMELY INITIATION OF A VOLUNTARY RECALL?

It is critical for firms to be ready before a recall is needed.

1. GENERAL PREPARATIONS

• Identify appropriate personnel. A firm should name a recall coordinator.

2. RECOMMENDED PROCEDURES

A firm should keep written procedures for initiating a recall.
""",
    5: """• Notifying direct accounts about the product being recalled should be prompt.

B. WHAT SHOULD A FIRM DO IF THERE IS AN INDICATION OF A PROBLEM WITH A DISTRIBUTED PRODUCT?

The firm should investigate the problem.
""",
}


@pytest.mark.parametrize(
    ("enumerator", "last_roman", "level"),
    [
        ("III", "II", 1),
        ("IV", "III", 1),
        ("A", "IV", 2),
        ("V", "IV", 1),
        ("V", None, 2),
        ("X", "IX", 1),
        ("I", None, 1),
        ("2", None, 3),
        ("2.1", None, 4),
        (None, None, UNNUMBERED),
    ],
)
def test_an_enumerator_sets_its_titles_level(
    enumerator: str | None, last_roman: str | None, level: int
) -> None:
    assert outline_level(enumerator, last_roman) == level


def test_a_guidances_units_know_the_sections_around_them() -> None:
    units = units_of("fda_guidance", OUTLINED)
    preparations = find(units, "1. GENERAL PREPARATIONS")
    assert preparations.heading == "GENERAL PREPARATIONS"
    assert preparations.outline == (
        "DISCUSSION",
        "HOW SHOULD A FIRM IN A PRODUCT DISTRIBUTION CHAIN PREPARE TO FACILITATE",
    )
    notifying = find(units, "• Notifying direct accounts")  # the next page goes on
    assert (notifying.heading, notifying.outline) == (
        "RECOMMENDED PROCEDURES",
        preparations.outline,
    )
    problem = find(units, "B. WHAT SHOULD")  # a long title in capitals, closing a section
    assert problem.heading.startswith("WHAT SHOULD A FIRM DO")
    assert problem.outline == ("DISCUSSION",)


OPENING_DEFICIENCY = {
    1: """Dear Dr. Smith:

We have completed our review of this application and have determined that we cannot approve \
it in its present form. We have described our reason for this action below and our \
recommendation to address this deficiency, as the regulations require of us.
Deficiency Identified:
FACILITY INSPECTIONS
During our recent inspection of the manufacturing facility, our field investigator could not \
complete the inspection because the facility was not ready for inspection. Notify us in writing \
when this facility is ready for inspection.
"""
}


def test_a_deficiency_heading_inside_the_opening_rules_its_paragraph() -> None:
    unit = find(units_of("fda_crl", OPENING_DEFICIENCY), "We have completed")
    assert (unit.kind, unit.heading) == ("deficiency", "Facility inspections")


def test_a_document_without_structure_gives_one_unit_per_block() -> None:
    units = units_of("fda_recalls", GENERIC)
    assert [(u.first, u.last, u.kind) for u in units] == [(n, n, "text") for n in range(1, 5)]


def test_a_block_id_names_one_block_or_a_range() -> None:
    unit = Unit(1, 3, 3, "x", "text", "", None, ())
    assert unit.block_id == "¶3"
    assert Unit(1, 3, 5, "x", "text", "", None, ()).block_id == "¶3-5"


def test_empty_pages_give_no_units() -> None:
    assert parse_document("fda_crl", {1: "", 2: "   \n\n "}) == []


def test_common_sentences_of_a_dataset_are_furniture_whatever_their_words() -> None:
    from regnb.documents.furniture import sentence_key

    page = {
        1: "OBSERVATION 1\n\nThe firm sends its customers a register of the lots shipped in 2021."
    }
    common = frozenset(
        {sentence_key("The firm sends its customers a register of the lots shipped in 2019.")}
    )
    assert [u.kind for u in parse_document("fda_483", page)] == ["finding"]
    units = parse_document("fda_483", page, common=common)
    assert [u.kind for u in units] == ["text", "furniture"]


# The real documents: coverage measured over every 483, warning letter and CRL.

COVERAGE = [
    ("fda_483__ncruickshank", "fda_483", "finding", False, 0.9),
    ("fda_warning_letters__jev", "fda_warning_letters", "violation", True, 0.8),
    ("fda_crl__gmpkit", "fda_crl", "deficiency", False, 0.7),
]


def real_documents(name: str) -> Iterator[dict[str, object]]:
    with gzip.open(REAL / f"{name}.jsonl.gz", "rt", encoding="utf-8") as handle:
        for line in handle:
            yield json.loads(line)


@pytest.mark.shared_data
@pytest.mark.skipif(not REAL.exists(), reason=f"real corpus not found at {REAL}")
@pytest.mark.parametrize(("name", "dataset", "kind", "cited", "share"), COVERAGE)
def test_real_documents_yield_their_substance(
    name: str, dataset: str, kind: str, cited: bool, share: float
) -> None:
    found = total = 0
    for record in real_documents(name):
        pages = {n: str(p) for n, p in enumerate(record["pages"], start=1)}  # type: ignore[arg-type]
        units = parse_document(dataset, pages)
        total += 1
        found += any(u.kind == kind and (u.cfr or not cited) for u in units)
        for unit in units:
            assert block_text(pages[unit.page_num], unit.block_id) == unit.text
            assert unit.kind == "furniture" or not unit.text.startswith("Dear ")
    assert total and found / total >= share, f"{found}/{total} {dataset} documents"


def test_a_unit_loses_the_furniture_blocks_at_its_ends() -> None:
    page = (
        "1. The dissolution method is not discriminating for the proposed formulation.\n\n"
        "Provide English translations of current approved foreign labeling not previously "
        "submitted."
    )
    unit = Unit(1, 1, 2, page, "deficiency", "Product quality", "1", ())
    kept = trimmed(unit, page, lambda text: is_furniture(text, "fda_crl"))
    assert kept is not None
    assert (kept.first, kept.last) == (1, 1)
    assert block_text(page, kept.block_id) == kept.text
    assert kept.text.startswith("1. The dissolution method")
    assert trimmed(unit, page, lambda text: True) is None
    assert trimmed(unit, page, lambda text: False) == unit


def test_a_unit_loses_a_first_block_that_opens_with_the_end_of_a_standard_list() -> None:
    page = (
        "8. Provide English translations of current approved foreign labeling not previously\n"
        "submitted.\nCONTAINER LABEL COMMENTS\nWe have comments on the container label.\n\n"
        "The container label does not include the closure term (vial)."
    )
    unit = Unit(5, 1, 2, page, "deficiency", "Container label comments", None, ())
    kept = trimmed(unit, page, lambda text: is_furniture(text, "fda_crl"))
    assert kept is not None
    assert (kept.first, kept.last) == (2, 2)
    assert kept.text.startswith("The container label does not include")
    single = Unit(5, 1, 1, page.split("\n\n")[0], "deficiency", "Container label", None, ())
    assert trimmed(single, page, lambda text: is_furniture(text, "fda_crl")) == single


# A Form 483 as OCR reads a scan whose left margin was cropped: each line loses its first letter
# or two ("BSERVATION 2", "S DOCUMENT LISTS"), and the form's header runs into the first
# observation's block.
CROPPED_483 = {
    1: (
        "OBSERVATION 1 Y, STATE AND ZIP CODE TYPE OF ESTABLISHMENT INSPECTED pringfield, IL 62701"
        " Outsourcing Facility S DOCUMENT LISTS OBSERVATIONS MADE BY THE FDA REPRESENTATIVE(S)"
        " DURING THE INSPECTION OF YOUR FACILITY. THEY ARE INSPECTIONAL SERVATIONS; AND DO NOT"
        " REPRESENT A FINAL AGENCY DETERMINATION REGARDING YOUR COMPLIANCE.\n\n"
        "RING AN INSPECTION OF YOUR FIRM | OBSERVED: BSERVATION 1 ach lot of the sterile"
        " injection was released before its sterility test was complete. ecifically, three lots"
        " shipped in May.\n\n"
        "BSERVATION 2 ere is a failure to thoroughly review any unexplained discrepancy in the"
        " filling records of the ophthalmic line.\n\n"
        "BSERVATION 3 ersonnel did not wear sterile gloves in the ISO 5 area during filling."
    ),
}


def test_a_cropped_scans_observations_are_read_and_its_header_is_furniture() -> None:
    units = units_of("fda_483", CROPPED_483)
    assert find(units, "OBSERVATION 1 Y, STATE").kind == "furniture"
    findings = [u for u in units if u.kind == "finding"]
    assert [u.number for u in findings] == ["1", "2", "3"]
    assert find(units, "BSERVATION 2").heading == "Observation 2"


def test_the_statement_of_an_observation_glued_to_the_forms_header_starts_after_it() -> None:
    glued = (
        "Outsourcing Facility THIS DOCUMENT LISTS OBSERVATIONS MADE BY THE FDA REPRESENTATIVE(S)"
        " DURING THE INSPECTION OF YOUR FACILITY. DURING AN INSPECTION OF YOUR FIRM (I) (WE)"
        " OBSERVED OBSERVATION | Materials were not disinfected before entering the aseptic"
        " processing area. Specifically, wipes were not sterile."
    )
    assert unit_body(glued).startswith("Materials were not disinfected before entering")
    assert unit_body("BSERVATION 2 There is a failure to review").startswith("There is a failure")
    short = "I OBSERVED: nothing"  # too short to be a statement: kept as written
    assert unit_body(short) == short
