"""Inspection findings: one topic each, written as a Form 483 observation and as a warning-letter
violation, with the facts an investigator records and what a letter asks the firm to provide.

A program area's pool (`FINDINGS[kind]`) gives an inspection its observations; a warning letter
after that inspection cites the same findings. Facts are full sentences with slots; a 483 quotes
one or two after "Specifically," or lists two or three as lettered items.
"""

from __future__ import annotations

import datetime as dt
from typing import NamedTuple

from demogen.vocab.findings_device import DEVICE_FINDINGS
from demogen.vocab.findings_drug import DRUG_FINDINGS
from demogen.vocab.findings_other import BIOLOGIC_FINDINGS, FOOD_FINDINGS, VETERINARY_FINDINGS


class Finding(NamedTuple):
    """One inspection finding (facts, inadequacies and requests are pools to draw from)."""

    topic: str  # what an analyst calls it: "aseptic processing"
    cfr: str  # the citation: "21 CFR 211.113(b)"
    section: str  # the warning-letter section that cites it
    observation: str  # the Form 483 statement
    violation: str  # the warning-letter sentence, without its citation
    facts: tuple[str, ...]
    risk: str  # why it matters, as a warning letter says
    inadequate: tuple[str, ...]  # "Your response is inadequate because ..."
    requests: tuple[str, ...]  # "In response to this letter, provide:" items


def _findings(rows: tuple[tuple[object, ...], ...]) -> tuple[Finding, ...]:
    return tuple(Finding(*row) for row in rows)  # type: ignore[arg-type]


FINDINGS: dict[str, tuple[Finding, ...]] = {
    "drug": _findings(DRUG_FINDINGS),
    "device": _findings(DEVICE_FINDINGS),
    "biologic": _findings(BIOLOGIC_FINDINGS),
    "food": _findings(FOOD_FINDINGS),
    "veterinary": _findings(VETERINARY_FINDINGS),
}

# warning-letter sections in the order a letter of each kind cites them
SECTION_ORDER = {
    "drug": ("CGMP Violations", "Misbranding Violations"),
    "device": (
        "Quality System Regulation Violations",
        "Medical Device Reporting Violations",
        "Misbranding Violations",
        "Adulteration Violations",
    ),
    "biologic": ("CGMP Violations",),
    "food": ("Adulteration Violations", "CGMP Violations", "Misbranding Violations"),
    "veterinary": ("Adulteration Violations",),
}

STERILE_DRUGS = ("Sterile injectable manufacturer", "Outsourcing facility (503B)")
# topic -> the only establishment types whose inspections find it (others: every type of the kind)
SCOPES = {
    "aseptic processing": STERILE_DRUGS,
    "environmental monitoring": STERILE_DRUGS,
    "sterility testing": (*STERILE_DRUGS, "Contract testing laboratory"),
    "donor eligibility and blood establishment procedures": ("Source plasma center", "Blood bank"),
    "biological product deviation reporting": ("Source plasma center", "Blood bank", "Licensed biologics manufacturer"),
    "HCT/P quality program": ("HCT/P establishment", "Cell therapy manufacturer"),
    "aseptic processing of biological products": ("Licensed biologics manufacturer", "Cell therapy manufacturer"),
    "sterility testing of biological products": ("Licensed biologics manufacturer", "Cell therapy manufacturer"),
    "release testing for purity and potency": ("Licensed biologics manufacturer", "Cell therapy manufacturer"),
    "seafood HACCP": ("Seafood processor",),
    "dietary ingredient identity testing": ("Dietary supplement manufacturer",),
    "dietary supplement specifications": ("Dietary supplement manufacturer",),
    "sanitation and Listeria monocytogenes": ("Ready-to-eat food manufacturer", "Seafood processor", "Produce grower and packer", "Dairy processor", "Bakery"),
    "medicated feed components": ("Medicated feed mill",),
    "drug carryover": ("Medicated feed mill",),
    "laboratory assays of medicated feed": ("Medicated feed mill",),
    "investigations of animal drug discrepancies": ("Animal drug manufacturer",),
    "animal food preventive controls": ("Pet food manufacturer", "Medicated feed mill"),
}  # fmt: skip
# establishment type -> the findings its inspections most often make (cited first when made)
SIGNATURES = {
    "Sterile injectable manufacturer": ("aseptic processing", "environmental monitoring"),
    "Outsourcing facility (503B)": ("aseptic processing", "sterility testing"),
    "Contract testing laboratory": ("investigations of out-of-specification results", "laboratory records"),
    "Active pharmaceutical ingredient manufacturer": ("investigations of out-of-specification results", "data integrity of computerized systems"),
    "Source plasma center": ("donor eligibility and blood establishment procedures",),
    "Blood bank": ("donor eligibility and blood establishment procedures",),
    "HCT/P establishment": ("HCT/P quality program",),
    "Seafood processor": ("seafood HACCP",),
    "Dietary supplement manufacturer": ("dietary ingredient identity testing", "dietary supplement specifications"),
    "Ready-to-eat food manufacturer": ("sanitation and Listeria monocytogenes",),
    "Medicated feed mill": ("drug carryover",),
}  # fmt: skip
# citations that did not exist before a date; `ERA_CITATIONS` names what was cited instead
SINCE = {
    "21 CFR 117.1": dt.date(2016, 9, 19),  # preventive controls for human food
    "21 CFR 507.": dt.date(2017, 9, 18),  # preventive controls for animal food
    "21 CFR 111.": dt.date(2008, 6, 25),  # dietary supplement CGMP
}
ERA_CITATIONS = {  # before the CGMP & PC rule, the food CGMPs were part 110
    "21 CFR 117.35(a)": (dt.date(2016, 9, 19), "21 CFR 110.35(a)"),
    "21 CFR 117.80(c)(2)": (dt.date(2016, 9, 19), "21 CFR 110.80(b)(2)"),
}
# establishment type -> what its products are called in findings, where the firm's own differ
SCOPED_PRODUCTS = {
    "Dietary supplement manufacturer": ("Turmeric Curcumin Capsules", "Ashwagandha Root Capsules", "Elderberry Gummies", "Whey Protein Powder"),
    "Seafood processor": ("Smoked Atlantic Salmon", "Frozen Cooked Shrimp", "Canned Tuna in Water", "Yellowfin Tuna Steaks"),
}  # fmt: skip


def findings_for(kind: str, est_type: str, day: dt.date, scoped: bool = True) -> list[Finding]:
    """The findings an inspection of `est_type` ending on `day` can make, cited as on that day."""
    out = []
    for f in FINDINGS[kind]:
        if scoped and est_type not in SCOPES.get(f.topic, (est_type,)):
            continue
        if any(f.cfr.startswith(prefix) and day < since for prefix, since in SINCE.items()):
            continue
        until, older = ERA_CITATIONS.get(f.cfr, (day, f.cfr))
        out.append(f._replace(cfr=older) if day < until else f)
    return out
