"""Inspections: classifications, and the Form 483 and inspection record templates.

The observations themselves are the findings of `demogen.vocab.findings`.
"""

from __future__ import annotations

DETAIL_FILLERS = {
    "equip": ("tablet press", "fluid bed dryer", "high-shear granulator", "HPLC system", "filling line 3", "lyophilizer", "blender", "coating pan", "slicer", "conveyor belt", "mixing kettle", "packaging line"),
    "room": ("Room 104", "filling suite B", "the compounding room", "aseptic core 2", "the cleanroom", "Suite 210"),
    "failure_mode": ("battery depletion", "inaccurate readings", "occlusion alarms", "component cracking", "software lock-up", "seal failures", "lead fractures", "connector breakage", "overheating"),
    "component": ("printed circuit board assembly", "battery pack", "tubing set", "molded housing", "sensor", "titanium bar stock", "pouch material", "power supply"),
}  # fmt: skip

CLASSIFICATIONS = {
    "NAI": "No Action Indicated",
    "VAI": "Voluntary Action Indicated",
    "OAI": "Official Action Indicated",
}

PROJECT_AREAS = {
    "drug": ("Drug Quality Assurance", "Pre-Approval Inspection", "Compounding"),
    "device": ("Compliance: Devices", "Postmarket Assurance: Devices", "Radiation Safety"),
    "biologic": ("Blood and Blood Products", "Therapeutic Biologics", "Human Cells, Tissues and Cellular and Tissue-Based Products (HCT/Ps)"),
    "food": ("Foodborne Biological Hazards", "Food Composition, Standards, Labeling and Economics", "Dietary Supplements", "Seafood HACCP"),
    "veterinary": ("Monitoring of Marketed Animal Drugs, Feed, and Devices", "Animal Food Safety"),
}  # fmt: skip

COMPLIANCE_PROGRAMS = {
    "drug": ("7356.002", "Drug Manufacturing Inspections"),
    "device": ("7382.845", "Inspection of Medical Device Manufacturers"),
    "biologic": ("7342.001", "Inspection of Licensed and Unlicensed Blood Banks"),
    "food": ("7303.803", "Domestic Food Safety Program"),
    "veterinary": ("7371.004", "Feed Manufacturing Program"),
}  # fmt: skip

INSPECTION_TYPES = (
    "surveillance",
    "for-cause",
    "pre-approval",
    "pre-license",
    "follow-up",
    "post-approval",
)

F483_HEADER = (
    "DEPARTMENT OF HEALTH AND HUMAN SERVICES\nFOOD AND DRUG ADMINISTRATION\n"
    "DISTRICT ADDRESS AND PHONE NUMBER: {office}, {office_phone}\n"
    "DATE(S) OF INSPECTION: {start_numeric} - {end_numeric}*\nFEI NUMBER: {fei}\n"
    "NAME AND TITLE OF INDIVIDUAL TO WHOM REPORT ISSUED: {contact}, {contact_title}\n"
    "FIRM NAME: {firm}\nSTREET ADDRESS: {street}\nCITY, STATE, ZIP CODE, COUNTRY: {city_line}\n"
    "TYPE OF ESTABLISHMENT INSPECTED: {est_type}"
)
F483_PREAMBLE = (
    "This document lists observations made by the FDA representative(s) during the inspection of "
    "your facility. They are inspectional observations, and do not represent a final Agency "
    "determination regarding your compliance. If you have an objection regarding an observation, "
    "or have implemented, or plan to implement, corrective action in response to an observation, "
    "you may discuss the objection or action with the FDA representative(s) during the inspection "
    "or submit this information to FDA at the address above. If you have any questions, please "
    "contact FDA at the phone number and address above.\n\nDURING AN INSPECTION OF YOUR FIRM "
    "{we} OBSERVED:"
)
# the form's furniture at the foot of every page
F483_FOOTER = (
    "SEE REVERSE OF THIS PAGE\nEMPLOYEE(S) SIGNATURE: {signatures}\nDATE ISSUED: {end_numeric}\n"
    "FORM FDA 483 (09/08) PREVIOUS EDITION OBSOLETE INSPECTIONAL OBSERVATIONS "
    "PAGE {page} of {pages} PAGES"
)
F483_REVERSE = (
    "The observations of objectionable conditions and practices listed on the front of this form "
    "are reported pursuant to Section 704(b) of the Federal Food, Drug, and Cosmetic Act, or to "
    "assist firms inspected in complying with the Acts and regulations enforced by the Food and Drug "
    "Administration. Section 704(b) provides that upon completion of the inspection the officer "
    "shall give to the owner, operator, or agent in charge a report in writing setting forth any "
    "conditions or practices observed which indicate that any food, drug, device, or cosmetic "
    "consists in whole or in part of any filthy, putrid, or decomposed substance, or has been "
    "prepared, packed, or held under insanitary conditions."
)
F483_REPEAT = "This is a repeat observation from the inspection dated {prev_dates}."
F483_ANNOTATIONS = (
    "Annotation: Reported corrected, not verified.",
    "Annotation: Promised to correct within {days} days.",
    "Annotation: Under consideration by the firm.",
    "Annotation: Corrected and verified during the inspection.",
)
F483_LEADS = (
    "Specifically,",
    "Specifically, for example:",
    "Specifically, we observed the following:",
)
INVESTIGATOR_TITLES = ("Consumer Safety Officer", "Microbiologist", "Chemist", "Investigator")

INSPECTION_SUMMARY = (
    "FDA Inspection Classification Record\nFirm name: {firm}\nFEI Number: {fei}\n"
    "Address: {street}, {city_line}\nProduct type: {product_type}\nProject area: {project_area}\n"
    "Inspection end date: {date}\nFiscal year: {fy}\nClassification: {classification} "
    "({classification_long})\nPosted date: {posted}"
)
INSPECTION_DEFINITIONS = (
    "Classification definitions. NAI (No Action Indicated): no objectionable conditions or "
    "practices were found during the inspection, or the significance of the documented "
    "objectionable conditions found does not justify further actions. VAI (Voluntary Action "
    "Indicated): objectionable conditions or practices were found, but the agency is not prepared "
    "to take or recommend any administrative or regulatory action. OAI (Official Action "
    "Indicated): regulatory and/or administrative actions will be recommended. The classification "
    "reflects the compliance status at the time of the inspection and may be updated if "
    "subsequent information becomes available."
)
INSPECTION_EIR = (
    "Establishment Inspection Report (summary). This {inspection_type} inspection of {a_est} "
    "{est_type_lower} was conducted under compliance program {cp} ({cp_name}). The inspection covered "
    "the quality, production, materials, facilities and equipment, laboratory control, and "
    "packaging and labeling systems as applicable. The previous inspection, which ended on "
    "{prev_date}, was classified {prev_class}.",
    "Management was cooperative throughout the inspection. Records requested were provided in a "
    "timely manner, and the investigators were given access to all areas of the facility. "
    "Credentials were presented and a Form FDA 482, Notice of Inspection, was issued to "
    "{contact}, {contact_title}, on {start_date}.",
    "The firm reported {n} product lines and approximately {m} employees working {shifts}. "
    "Distribution is primarily within the United States through wholesalers "
    "and direct accounts. The firm has not initiated any recalls since the previous inspection "
    "except as noted in the recall history section of the report.",
    "Samples were {sampled}. Photographs were taken of conditions observed in the production and "
    "warehouse areas and are maintained as exhibits to the report.",
    "Complaints and recalls. The investigators reviewed {m} complaints received since the previous "
    "inspection, including complaints alleging {failure_mode} and foreign material. Complaint "
    "investigations were generally documented; trending is performed quarterly by the quality "
    "unit. The firm reported {n} product recalls since the previous inspection.",
    "Quality system. The investigators reviewed the firm's deviation, change control and CAPA "
    "systems, the annual product reviews for selected products, and training records for "
    "production and laboratory personnel. Management review meetings are held quarterly and are "
    "documented. Supplier qualification records were reviewed for critical suppliers.",
    "Discussion with management. At the close-out meeting on {date}, the investigators discussed "
    "the inspectional findings with {contact}, {contact_title}, and other members of management. "
    "Management acknowledged the findings and described corrective actions under way, including "
    "revisions to {sop} and additional training.",
)
INSPECTION_OUTCOME = {
    "NAI": (
        "No Form FDA 483 was issued at the close of the inspection. Minor observations regarding "
        "documentation practices were discussed verbally with management, who committed to "
        "address them. No further action is recommended, and the firm's compliance status is "
        "considered acceptable.",
    ),
    "VAI": (
        "A Form FDA 483, Inspectional Observations, listing {n_obs} observations was issued to "
        "{contact} at the close-out meeting on {date}. The observations concerned {topics}. "
        "Management provided a written response describing corrective actions; the adequacy of "
        "the corrections will be verified at the next inspection.",
    ),
    "OAI": (
        "A Form FDA 483, Inspectional Observations, listing {n_obs} observations was issued to "
        "{contact} at the close-out meeting on {date}. The observations concerned {topics}. The "
        "district recommends regulatory action, and the establishment is considered not in "
        "compliance. Pending applications listing this facility may be affected until the "
        "violations are corrected.",
    ),
}
