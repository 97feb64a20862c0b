"""A small corpus about a few firms, written by the tests: one site's 483s, warning letter,
complete response letter and recall under variants of its name and one FEI number, a firm of a
similar name, a device firm, and a guidance that names no firm."""

from __future__ import annotations

from typing import Any

from tests.conftest import doc

FEI = "3002806560"

FIRST_483 = (
    "DEPARTMENT OF HEALTH AND HUMAN SERVICES\nFOOD AND DRUG ADMINISTRATION\n"
    f"FEI NUMBER {FEI}\n\n"
    "OBSERVATION 1\n"
    "Procedures designed to prevent microbiological contamination of drug products purporting "
    "to be sterile are not established and followed, as required by 21 CFR 211.113(b).\n\n"
    "OBSERVATION 2\n"
    "The quality control unit lacks written procedures for the review of batch production "
    "records."
)
SECOND_483 = (
    f"FEI NUMBER {FEI}\n\n"
    "OBSERVATION 1 REPEAT OBSERVATION\n"
    "Procedures designed to prevent microbiological contamination of drug products purporting "
    "to be sterile are still not followed in the aseptic filling line.\n\n"
    "OBSERVATION 2\n"
    "Cleaning of equipment is not validated for the filling room."
)
LETTER = (
    f"WARNING LETTER\nFEI {FEI}\n\nDear Mr. Smith:\n\n"
    "The U.S. Food and Drug Administration inspected your drug manufacturing facility.\n\n"
    "1. Your firm failed to establish and follow appropriate written procedures designed to "
    "prevent microbiological contamination of sterile drug products (21 CFR 211.113(b)).\n\n"
    "2. Your firm failed to validate the cleaning of equipment (21 CFR 211.67(a))."
)
CRL = (
    "NDA 021164\nCOMPLETE RESPONSE\n\nWe have completed our review of this application.\n\n"
    "PRODUCT QUALITY\n"
    "1. The drug product specification lacks a validated test for elemental impurities.\n\n"
    "FACILITY INSPECTIONS\n"
    "During a recent inspection of the manufacturing facility for this application, our "
    "investigator observed objectionable conditions."
)


def firm_documents() -> dict[str, list[dict[str, Any]]]:
    """The corpus, by dataset (`regnb.write_corpus` shape)."""
    site = {"fei_number": FEI}
    return {
        "fda_483": [
            doc(
                "Form 483 - Hospira, Inc.",
                [FIRST_483, "continued text of the form"],
                date="2019-03-01",
                fields={"facility_name": "Hospira, Inc.", **site},
                key="483-2019",
            ),
            doc(
                "Form 483 - Hospira Inc (Lake Forest)",
                [SECOND_483],
                date="2021-06-01",
                fields={"facility_name": "Hospira Inc, Lake Forest, IL 60045", **site},
                key="483-2021",
            ),
            doc(
                "Form 483 - HSP Sterile Site",
                ["OBSERVATION 1\nGowning is not adequate in the sterile core."],
                date="2022-02-01",
                fields={"facility_name": "HSP Sterile Site LLC", **site},
                key="483-2022",
            ),
        ],
        "fda_warning_letters": [
            doc(
                "Warning Letter: Hospira Inc.",
                [LETTER],
                date="2021-10-01",
                fields={"company": "Hospira Inc."},
                key="wl-2021",
            ),
            doc(
                "Warning Letter: Hospira Worldwide",
                ["1. Your firm failed to investigate out-of-specification results."],
                date="2020-05-05",
                fields={"company": "Hospira Worldwide"},
                key="wl-worldwide",
            ),
        ],
        "fda_crl": [
            doc(
                "Complete Response Letter - NDA 021164",
                [CRL],
                date="2020-01-15",
                fields={"company": "Hospira, Inc", "application_number": "NDA 021164"},
                key="crl-2020",
            ),
        ],
        "fda_recall_enforcement": [
            doc(
                "Enforcement report - Hospira",
                ["Reason for recall: particulate matter found in vials."],
                date=None,
                fields={"recalling_firm": "Recalling Firm: Hospira Inc., Lake Forest, IL"},
                key="recall",
            ),
        ],
        "fda_denovo_or_510k": [
            doc(
                "510(k) K123456 - Baxter infusion pump",
                ["Substantial equivalence of the infusion pump."],
                date="2018-07-07",
                fields={"applicant": "Baxter Healthcare Corp.", "submission_number": "K123456"},
                key="510k",
            ),
        ],
        "fda_guidance": [
            doc(
                "Sterile drug products produced by aseptic processing",
                ["Guidance on aseptic processing under 21 CFR 211.113."],
                date="2004-09-01",
                key="guidance",
            ),
        ],
    }


# --- a site whose documents link, and near misses that must not -------------------------------

SITE_FEI = "3005551234"


def _form(observations: list[str]) -> str:
    head = f"FORM FDA 483\nFEI NUMBER {SITE_FEI}\n\n"
    return head + "\n\n".join(f"OBSERVATION {n}\n{o}" for n, o in enumerate(observations, 1))


def _letter(opening: str, violations: list[str]) -> str:
    body = "\n\n".join(f"{n}. {v}" for n, v in enumerate(violations, 1))
    return f"WARNING LETTER\n\nDear Ms. Jones:\n\n{opening}\n\n{body}"


STERILE = (
    "Procedures designed to prevent microbiological contamination of sterile drug products are "
    "not established and followed, as required by 21 CFR 211.113(b)."
)
CLEANING = "Cleaning of equipment used in the filling room is not validated."
STERILE_LETTER = (
    "Your firm failed to establish and follow written procedures to prevent microbiological "
    "contamination of sterile drug products (21 CFR 211.113(b))."
)
INSPECTED_2021 = (
    f"FDA inspected your drug manufacturing facility, Acme Sterile Inc., FEI {SITE_FEI}, at 1 "
    "Main St., Springfield, from May 24 to June 1, 2021."
)


def linked_documents() -> dict[str, list[dict[str, Any]]]:
    """Acme Sterile's site: 483s of 2019 and 2021 both citing 21 CFR 211.113 (the 2021 one also
    marks the 2019 one's cleaning observation a repeat), the warning letter that followed the 2021 inspection, letters
    before any 483 and four years after, two complete response letters of NDA 021164 and its
    approval (written to another name), a CRL of another application; and Beta Labs, another
    firm, with a 483 between Acme's 2021 inspection and letter."""
    acme = {"facility_name": "Acme Sterile Inc.", "fei_number": SITE_FEI}
    return {
        "fda_483": [
            doc("483 Acme 2019", [_form([STERILE, CLEANING])], date="2019-03-04", fields=acme),
            doc(
                "483 Acme 2021",
                [
                    _form(["Records of the batches lack the lot numbers of components."]),
                    f"OBSERVATION 2\n{STERILE}\n\nOBSERVATION 3 REPEAT OBSERVATION\n{CLEANING}",
                ],
                date="2021-06-01",
                fields=acme,
            ),
            doc(
                "483 Beta 2021",
                ["OBSERVATION 1\n" + STERILE],
                date="2021-08-01",
                fields={"facility_name": "Beta Labs LLC"},
            ),
        ],
        "fda_warning_letters": [
            doc(
                "Letter Acme 2021",
                [_letter(INSPECTED_2021, [STERILE_LETTER])],
                date="2021-10-04",
                fields={"company": "Acme Sterile Inc."},
            ),
            doc(
                "Letter Acme 2018",
                [_letter("FDA reviewed your records.", [STERILE_LETTER])],
                date="2018-12-03",
                fields={"company": "Acme Sterile Inc."},
            ),
            doc(
                "Letter Acme 2025",
                [_letter("FDA reviewed your website.", [STERILE_LETTER])],
                date="2025-06-02",
                fields={"company": "Acme Sterile Inc."},
            ),
        ],
        "fda_crl": [
            doc(
                "CRL Acme 2020 NDA 021164",
                ["COMPLETE RESPONSE\n\nPRODUCT QUALITY\n1. The specification lacks a test."],
                date="2020-01-15",
                fields={"company": "Acme Sterile Inc.", "application_number": "NDA 021164"},
            ),
            doc(
                "CRL Acme 2020 resubmission",
                ["COMPLETE RESPONSE\n\nCLINICAL\n1. The trial did not meet its endpoint."],
                date="2020-09-01",
                fields={"company": "Acme Sterile Inc.", "application_number": "021164Orig1s000"},
            ),
            doc(
                "CRL Acme other application",
                ["COMPLETE RESPONSE\n\nCLINICAL\n1. The dose is not justified."],
                date="2020-03-01",
                fields={"company": "Acme Sterile Inc.", "application_number": "NDA 021999"},
            ),
        ],
        "fda_drug": [
            doc(
                "NDA021164 Approval Letter",
                ["We approve your new drug application."],
                date="2021-05-03",
                fields={
                    "sponsor": "Acme Holdings Corp",
                    "application_number": "NDA021164",
                    "document_type": "approval_letter",
                },
            ),
        ],
    }
