"""A small corpus of firms in known places, written by the tests: warning letters from India,
New Jersey (a firm named after Texas), Houston, a PO box and a "dba" name, Shanghai, Ontario,
and one without an address; a 483, a CRL whose address is on its second page, a recall whose
firm field says where it is, and a guidance that names a city but faces no firm. Every page
says "sterility", so that one search matches them all."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import regnb
from regnb.documents.places import Place
from tests.conftest import doc

LETTER = "WARNING LETTER\n\n{address}\n\nDear Sir:\n\nFDA found sterility failures at your site."

# title -> (address block, the firm's name, the place the index should read)
LETTERS: dict[str, tuple[str, str, Place | None]] = {
    "Letter to Deccan Labs": (
        "Deccan Labs Pvt Ltd\nPlot 12, IDA Bollaram\nHyderabad, Telangana 502325\nIndia",
        "Deccan Labs Pvt Ltd",
        Place("IN", "TS", "Hyderabad"),
    ),
    "Letter to Texas Pharma": (
        "Texas Pharma Inc\n12 Main Street\nNewark, NJ 07102",
        "Texas Pharma Inc",
        Place("US", "NJ", "Newark"),
    ),
    "Letter to Gulf Labs": (
        "Gulf Labs LLC\n7601 N Sam Houston Pkwy W Ste 100\nHouston, TX 77064",
        "Gulf Labs LLC",
        Place("US", "TX", "Houston"),
    ),
    "Letter to Bay Devices": (
        "Bay Devices Inc\nP.O. Box 1156\nNewark, CA 94560",
        "Bay Devices Inc",
        Place("US", "CA", "Newark"),
    ),
    "Letter to Acme Compounding": (
        "Acme Compounding LLC\ndba Acme Pharmacy\n200 Oak Ave, Suite 5\nAustin, TX 78701",
        "Acme Compounding LLC dba Acme Pharmacy",
        Place("US", "TX", "Austin"),
    ),
    "Letter to Pudong Chemicals": (
        "Pudong Chemicals Co., Ltd.\nNo. 1 Cailun Road, Zhangjiang Hi-Tech Park\n"
        "Shanghai 201203, China",
        "Pudong Chemicals Co., Ltd.",
        Place("CN", "SH", "Shanghai"),
    ),
    "Letter to Maple Generics": (
        "Maple Generics Inc.\n30 Novopharm Court\nToronto, Ontario M1B 2K9\nCanada",
        "Maple Generics Inc.",
        Place("CA", "ON", "Toronto"),
    ),
    "Letter to Nowhere Inc": ("FDA inspected your facility.", "Nowhere Inc", None),
}
OTHERS: dict[str, Place | None] = {
    "Form 483 of Delaware Valley Sterile": Place("US", "PA", "Philadelphia"),
    "Complete response to Rhine Biologics": Place("DE", None, "Mannheim"),
    "Recall by Thompson Foods": Place("US", "FL", "Jacksonville"),
    "Guidance naming Houston, TX": None,
}
EXPECTED: dict[str, Place | None] = {
    **{title: place for title, (_, _, place) in LETTERS.items()},
    **OTHERS,
}


def place_documents() -> dict[str, list[dict[str, Any]]]:
    """The corpus, by dataset (`regnb.write_corpus` shape)."""
    letters = [
        doc(title, [LETTER.format(address=address)], fields={"company": firm}, key=title)
        for title, (address, firm, _) in LETTERS.items()
    ]
    return {
        "fda_warning_letters": letters,
        "fda_483": [
            doc(
                "Form 483 of Delaware Valley Sterile",
                [
                    "FEI NUMBER 3001234567\nNAME AND TITLE OF INDIVIDUAL TO WHOM REPORT ISSUED\n"
                    "FIRM NAME Delaware Valley Sterile LLC\n"
                    "STREET ADDRESS 100 Market Street\n"
                    "CITY, STATE, ZIP CODE, COUNTRY Philadelphia, PA 19103-2405\n\n"
                    "OBSERVATION 1\nSterility testing was not adequate."
                ],
                fields={"facility_name": "Delaware Valley Sterile LLC"},
                key="483",
            )
        ],
        "fda_crl": [
            doc(
                "Complete response to Rhine Biologics",
                [
                    "COMPLETE RESPONSE LETTER\nBLA 761000\n(cover page) sterility",
                    "Rhine Biologics GmbH\nAttention: Dr. A. Weber\nSandhofer Strasse 116\n"
                    "68305 Mannheim\nGermany\n\nDear Dr. Weber: the sterility data are missing.",
                ],
                fields={"company": "Rhine Biologics GmbH"},
                key="crl",
            )
        ],
        "fda_recall_enforcement": [
            doc(
                "Recall by Thompson Foods",
                ["Product: sandwiches. Reason: Listeria; sterility of the line not assured."],
                fields={"recalling_firm": "M.E. Thompson Inc., Jacksonville, FL"},
                key="recall",
            )
        ],
        "fda_guidance": [
            doc(
                "Guidance naming Houston, TX",
                ["Sterility guidance, as discussed at a meeting in Houston, TX 77064."],
                fields={"center": "CDER"},
                key="guidance",
            )
        ],
    }


def places_engine(root: Path) -> Iterator[regnb.Engine]:
    """An engine over `place_documents` written under `root` (hashing encoder), closed after."""
    regnb.write_corpus(
        root / "corpus", place_documents(), encoder=regnb.HashingEncoder(), progress=False
    )
    engine = regnb.Engine(root / "corpus", encoder=regnb.HashingEncoder(), progress=False)
    yield engine
    engine.close()
