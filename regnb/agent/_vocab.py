"""What the words of a message name: datasets, formats, identifiers, and the field's multi-word
terms. Kept as data tables, so that a new dataset word or phrase is one line."""

from __future__ import annotations

import re

__all__ = [
    "ACRONYMS",
    "DATASET_WORDS",
    "FILE_WORDS",
    "FIRM_FIELDS",
    "FOCUS_WORDS",
    "FORMAT_WORDS",
    "IDENTIFIERS",
    "PHRASES",
    "PRODUCT_FIELDS",
    "WHICH_FIRMS",
]

# (pattern, dataset ids, weak): the datasets a message's words name. Patterns are matched on the
# message lower-cased. A strong word names where to look, not what to look for, and is not
# searched for. A weak word ("trials", "recall", "MDRs", "warned") names its datasets only when no
# strong word does, and stays a word of the topic ("warning letters that mention a recall").
DATASET_WORDS: list[tuple[str, tuple[str, ...], bool]] = [
    (r"\bwarning\s+letters?\b|\bwls?\b", ("fda_warning_letters",), False),
    (
        r"\b(?:fda\s+)?(?:form\s+)?483s?\b|\binspection(?:al)?\s+observations?\b",
        ("fda_483",),
        False,
    ),
    (r"\binspection\s+classifications?\b|\boai\b|\bvai\b", ("fda_inspections",), False),
    (r"\binspections\b", ("fda_inspections", "fda_483"), True),
    (r"\benforcement\s+reports?\b", ("fda_recall_enforcement",), False),
    (r"\brecalls\b|\bmarket\s+withdrawals?\b", ("fda_recalls", "fda_recall_enforcement"), False),
    (r"\brecall(?:ed)?\b", ("fda_recalls", "fda_recall_enforcement"), True),
    (
        r"\b510\s*\(?k\)?s?\b|\bde\s*novos?\b|\bpremarket\s+notifications?\b",
        ("fda_denovo_or_510k",),
        False,
    ),
    (r"\bpmas?\b|\bpremarket\s+approvals?\b", ("fda_pma",), False),
    (
        r"\bcomplete\s+response(?:\s+letters?)?\b|\bcrls?\b|\bdeclined\s+to\s+approve\b",
        ("fda_crl",),
        False,
    ),
    (
        r"\b(?:not|n't|never)\s+(?:been\s+)?approv\w*|\brejected\b|\bdeficienc(?:y|ies)\b",
        ("fda_crl",),
        True,
    ),
    (r"\bbiologics?\s+(?:approvals?|licen[cs]es?)\b", ("fda_biologic",), False),
    (r"\bblas?\b", ("fda_biologic",), True),
    (r"\bdrug\s+approvals?\b|\bapproved\s+drugs?\b|\bdrugs@fda\b", ("fda_drug",), False),
    (r"\bapprovals?\b|\blabels?\b", ("fda_drug", "fda_biologic"), True),
    (r"\bguidances?\b(?:\s+documents?\b)?", ("fda_guidance",), False),
    (r"\bclinicaltrials(?:\.gov)?\b", ("fda_clinical_trials",), False),
    (r"\bclinical\s+trials?\b|\btrials?\b", ("fda_clinical_trials",), True),
    (r"\bmaude\b|\bdevice\s+adverse\s+events?\b", ("fda_maude",), False),
    (r"\bmdrs?\b", ("fda_maude",), True),
    (
        r"\bwarned\b|\bcited\s+for\b|\bviolations?\b",
        ("fda_warning_letters", "fda_483"),
        True,
    ),
    (r"\bfaers\b|\bdrug\s+adverse\s+events?\b", ("fda_faers",), False),
    (r"\badverse\s+events?\b", ("fda_maude", "fda_faers"), True),
    (r"\buser\s+fees?\b|\b(?:pdufa|gdufa|bsufa|mdufa)\b", ("fda_ufa",), False),
    (r"\bepars?\b|\bema\b", ("ema_epar",), False),
    (r"\bmdcg\b|\bmeddev\b", ("ema_mdcg_guidance",), False),
    (r"\bich\b", ("ich_guidelines",), False),
]

# The words that name a file or its format ("put them in a spreadsheet"): left out of what is
# searched for, and of a produced file's title and name.
FILE_WORDS = frozenset(
    [
        "chart",
        "charts",
        "csv",
        "deck",
        "decks",
        "docx",
        "excel",
        "file",
        "files",
        "format",
        "graph",
        "graphs",
        "plot",
        "plots",
        "png",
        "powerpoint",
        "pptx",
        "report",
        "reports",
        "slide",
        "slides",
        "spreadsheet",
        "spreadsheets",
        "table",
        "tables",
        "word",
        "xlsx",
    ]
)

# Requested formats: the words that ask for them.
FORMAT_WORDS: list[tuple[str, str]] = [
    (r"\bword\b|\bdocx\b|\bword\s+document\b", "docx"),
    (r"\bexcel\b|\bspreadsheets?\b|\bxlsx\b|\bcsv\b", "xlsx"),
    (r"\bslides?\b|\bpower\s*point\b|\bpptx\b|\bdecks?\b|\bpresentation\b", "pptx"),
    (r"\bcharts?\b|\bplots?\b|\bgraphs?\b|\bper\s+year\b|\bby\s+year\b|\bpng\b", "png"),
]
# "a report" with no other format asks for a text document.
REPORT_WORDS = (
    r"\b(?:a|an|as|in)\s+(?:short\s+|brief\s+|written\s+|one[- ]page\s+)?"
    r"(?:report|write-?up|memo|summary\s+report)\b"
)

# Identifiers: searched whole and alone. (pattern, kind); the first group is the item's text.
IDENTIFIERS: list[tuple[str, str]] = [
    (r"\b(21\s*CFR\s*(?:[Pp]arts?\s*)?\d+(?:\.\d+)?(?:\([a-z0-9]{1,4}\))*)", "cfr"),
    (r"\b(NCT\d{8})\b", "nct"),
    (r"\b(DEN\d{6})\b", "denovo"),
    (r"\b(K\d{6})\b", "510k"),
    (r"\b(P\d{6}(?:/S\d{3})?)\b", "pma"),
    (r"\bFEI(?:\s*(?:number|no\.?|#))?[\s:#]*(\d{7,10})\b", "fei"),
    (r"\b(?:NDA|BLA|ANDA|application)\s*(?:number|no\.?|#)?\s*(\d{6})\b", "application"),
    (r"(?<![\d-])(\d{10})(?![\d-])", "fei"),
    (r"(?<![\d-])(\d{6})(?![\d-])", "number"),
    (r"\b(\d{7}-\d{4}-\d{5,6})\b", "mdr"),
]

# Multi-word terms the field uses as one: kept as one keyword item.
PHRASES: tuple[str, ...] = tuple(
    """
    media fill; media fills; data integrity; complete response; out of specification;
 aseptic processing; aseptic technique; cleaning validation;
    process validation; sterility assurance; sterility testing; environmental monitoring;
    quality unit; quality control unit; quality system; quality systems; quality agreement;
    corrective and preventive action; corrective and preventive actions; root cause;
    stability testing; stability program; current good manufacturing practice;
    good manufacturing practice; adverse event; adverse events; cross contamination;
    hand sanitizer; drug product; drug products; drug substance;
    active pharmaceutical ingredient; container closure; visual inspection; smoke study;
    smoke studies; airflow pattern; laboratory controls; batch record; batch records;
    equipment cleaning; water system; pest control; training records; risk management;
    software validation; design controls; design control; design validation; design verification;
    complaint handling; complaint files; medical device reporting; premarket notification;
    substantial equivalence; substantially equivalent; clinical hold; postmarketing requirement;
    real world evidence; clinical trial; clinical trials; informed consent;
    unique device identification; human factors; usability engineering; benefit risk;
 compounding pharmacy; outsourcing facility; sterile drug; sterile drugs;
    particulate matter; bacterial endotoxins; supplier controls; purchasing controls;
    acceptance activities; process controls; production and process controls;
    laboratory records; stability data; shelf life; expiration date; bioequivalence study;
    bioequivalence studies; pharmacokinetic study; clinical pharmacology; facility inspection;
    pre-approval inspection; pre-license inspection; manufacturing facility;
    chemistry manufacturing and controls; product quality; safety update; risk evaluation;
    medication guide; proposed labeling; nonclinical studies; toxicology studies;
    cybersecurity risk; software bill of materials; premarket submission; premarket submissions;
    predetermined change control plan; artificial intelligence; machine learning;
    electronic records; electronic signatures; audit trail; audit trails; foreign supplier;
    food safety plan; dietary supplement; dietary supplements; donor eligibility;
    infusion pump; insulin pump; patient death; device malfunction; serious injury;
    research use only; not for human consumption; investigational use only;
    unapproved new drug; unapproved new drugs; secure product development framework;
    threat modeling; off-the-shelf software; computer software assurance;
    """.replace("\n", " ").split(";")
)
PHRASES = tuple(p.strip() for p in PHRASES if p.strip())

# Acronyms of the field and the phrase documents spell out: a message with the acronym searches
# for the phrase too.
ACRONYMS: dict[str, str] = {
    "capa": "corrective and preventive action",
    "ai": "artificial intelligence",
    "ml": "machine learning",
    "oos": "out of specification",
    "sbom": "software bill of materials",
    "pccp": "predetermined change control plan",
    "ots": "off-the-shelf software",
    "cmc": "chemistry manufacturing and controls",
    "rems": "risk evaluation and mitigation strategy",
    "dct": "decentralized clinical trial",
    "dcts": "decentralized clinical trials",
    "fsvp": "foreign supplier verification",
    "haccp": "hazard analysis",
    "qsr": "quality system regulation",
    "qcu": "quality control unit",
    "em": "environmental monitoring",
    "hf": "human factors",
    "csa": "computer software assurance",
    "aria": "amyloid related imaging abnormalities",
    "udi": "unique device identification",
    "mdr": "medical device report",
    "mdrs": "medical device reports",
    "ruo": "research use only",
    "spdf": "secure product development framework",
}

# Words that mark the substance of a dataset's documents (a deficiency, a violation, an event),
# weighed lightly when passages are ranked, so that a letterhead naming the product asked about
# does not outrank the paragraph that says what went wrong.
FOCUS_WORDS: dict[str, str] = {
    "fda_crl": "deficiency deficiencies inadequate resolve cannot approve failed insufficient "
    "recommend risk",
    "fda_warning_letters": "violation violations failed failure adulterated inadequate corrective",
    "fda_483": "observation failed failure inadequate procedures not investigated",
    "fda_inspections": "classification observation violation",
    "fda_maude": "event malfunction injury death patient failure reported",
    "fda_faers": "reaction adverse serious outcome",
    "fda_guidance": "recommends recommend should expects include submission",
    "fda_recalls": "recall reason hazard contamination",
    "fda_recall_enforcement": "reason recall classification hazard",
    "fda_clinical_trials": "eligibility outcome criteria primary",
}

# Catalog filter fields that name a firm or a product, in the order they are tried.
FIRM_FIELDS = (
    "company",
    "facility_name",
    "applicant",
    "sponsor",
    "manufacturer",
    "recalling_firm",
    "firm_name",
)
PRODUCT_FIELDS = ("brand_name", "product_name", "drug_name", "active_ingredient")

# "Which firms ...": the answer names the firms.
WHICH_FIRMS = re.compile(
    r"\b(?:which|what|list(?:\s+the)?|name(?:\s+the)?)\s+"
    r"(?:(?!(?:did|do|does|were|was|are|is|have|has|had)\b)\w+\s+){0,3}?"
    r"(?:firms?|compan(?:y|ies)|manufacturers?|makers?|sponsors?|applicants?|facilit(?:y|ies)|"
    r"sites?|establishments?|suppliers?|pharmac(?:y|ies)|outsourcers?|labs?|laboratories|"
    r"compounders?|distributors?|importers?|repackagers?|hospitals?|clinics?|brands?|"
    r"websites?|sellers?|vendors?|retailers?|marketers?|businesses|investigators?)\b"
    r"|\bwho\b",
    re.IGNORECASE,
)
