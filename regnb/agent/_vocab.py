"""What the words of a message name: datasets, formats, identifiers, and the field's multi-word
terms. Kept as data tables, so that a new dataset word or phrase is one line."""

from __future__ import annotations

import re

__all__ = [
    "ACRONYMS",
    "DATASET_MEANINGS",
    "DATASET_WORDS",
    "FILE_WORDS",
    "FIRM_FIELDS",
    "FIRM_NOUNS",
    "FOCUS_WORDS",
    "FORMAT_WORDS",
    "IDENTIFIERS",
    "KIND_RULES",
    "PHRASES",
    "POINTER_CUES",
    "PRODUCT_FIELDS",
    "SUBSTANCE",
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

# What the words of a question mean as datasets: (pattern, dataset ids, weak). "inspection"
# reaches the 483s and the inspection classifications; "observations" are a 483's; a weak word
# ("cited", "violations", "trials") names datasets only when no strong word does. A word after
# "on", "about", "for"... of the first one is the topic (`regnb.agent._understand`).
DATASET_MEANINGS: list[tuple[str, tuple[str, ...], bool]] = [
    (
        r"\bwarning\s+letters?\b|\bwls?\b|\bcms\s*#",
        ("fda_warning_letters",),
        False,
    ),
    (
        r"\b(?:fda\s+)?(?:form\s+)?483s?\b|\binspection(?:al)?\s+(?:observations?|findings?)\b"
        r"|\binspections?\b(?!\s+classif)|\binspected\b|\bobservations?\b",
        ("fda_483", "fda_inspections"),
        False,
    ),
    (
        r"\binspection\s+classifications?\b|\bclassified\s+(?:as\s+)?(?:oai|vai|nai)\b"
        r"|\b(?:oai|vai|nai)(?:\s+inspections?)?\b",
        ("fda_inspections",),
        False,
    ),
    (r"\benforcement\s+reports?\b", ("fda_recall_enforcement",), False),
    (
        r"\brecalls?\b|\brecalled\b|\brecalling\b|\bmarket\s+withdrawals?\b",
        ("fda_recalls", "fda_recall_enforcement"),
        False,
    ),
    (
        r"\b510\s*\(?k\)?s?\b|\bde\s*novos?\b|\bpremarket\s+notifications?\b|\bk\d{6}\b"
        r"|\bden\d{6}\b",
        ("fda_denovo_or_510k",),
        False,
    ),
    (r"\bpmas?\b|\bpremarket\s+approvals?\b|\bp\d{6}\b", ("fda_pma",), False),
    (
        r"\bcomplete\s+res?p?o?n?se?(?:\s+letters?)?\b|\bcrls?\b"
        r"|\bdeclin\w*\s+to\s+approve\b|\brefused\s+approval\b|\bnot\s+approved\b"
        r"|\b(?:never|wasn't|weren't)\s+approved\b",
        ("fda_crl",),
        False,
    ),
    (r"\bguidances?\b|\bguidelines?\b(?=.*\bfda\b)", ("fda_guidance",), False),
    (
        r"\bfda\s+(?:recommends?|expects?)\b|\bper\s+fda\b|\bwhat\s+does\s+fda\s+(?:recommend|expect"
        r"|say)\b|\bexplain\s+fda['’]s\b|\baccording\s+to\s+fda\b",
        ("fda_guidance",),
        True,
    ),
    (
        r"\bclinicaltrials(?:\.gov)?\b|\bnct\d{8}\b|\btrial\s+records?\b",
        ("fda_clinical_trials",),
        False,
    ),
    (r"\bclinical\s+trials?\b|\btrials?\b", ("fda_clinical_trials",), True),
    (
        r"\bmaude\b|\bmdrs?\b|\bdevice\s+(?:adverse\s+events?|malfunctions?|problems?)\b"
        r"|\bmalfunction\s+reports?\b|\badverse\s+event\s+reports?\b",
        ("fda_maude",),
        False,
    ),
    (
        r"\bfaers\b|\bdrug\s+(?:adverse\s+events?|side\s+effects?)\b|\bside\s+effect\s+reports?\b",
        ("fda_faers",),
        False,
    ),
    (
        r"\badverse\s+events?\b|\bproblems\s+(?:do\s+)?users\s+report\b|\binjur(?:y|ies)\s+reported\b|\bdeaths?\s+reported\b",
        ("fda_maude",),
        True,
    ),
    (r"\blabels?\b|\bprescribing\s+information\b|\bboxed\s+warning\b", ("fda_drug",), False),
    (r"\bbiologics?\s+(?:approvals?|licen[cs]es?)\b", ("fda_biologic",), False),
    (r"\bdrug\s+approvals?\b|\bdrugs@fda\b", ("fda_drug",), False),
    (r"\b(?:pdufa|gdufa|bsufa|mdufa)\b|\bcommitment\s+letters?\b", ("fda_ufa",), False),
    (r"\bepars?\b|\bema\b", ("ema_epar",), False),
    (r"\bmdcg\b|\bmeddev\b", ("ema_mdcg_guidance",), False),
    (r"\bich\b", ("ich_guidelines",), False),
    (r"\bwarned\b", ("fda_warning_letters",), True),
    (  # what FDA cites a firm for is in its warning letters and 483s
        r"\bcited\s+(?:for|in)\b|\bviolations?\b",
        ("fda_warning_letters", "fda_483", "fda_inspections"),
        True,
    ),
    (r"\bdeficienc(?:y|ies)\b", ("fda_crl",), True),
]

# The kinds of question, tried in order on the message lower-cased; the first whose pattern
# matches wins (`regnb.agent._understand.question_kind`, which falls back on what the message
# names when none does).
KIND_RULES: list[tuple[str, str]] = [
    (
        "history",
        r"\bhistory\b|\btrack\s+record\b|\bwhat\s+happened\s+(?:with\s+fda\s+)?(?:after|next|since)\b",
    ),
    (
        "comparison",
        r"\bcompar(?:e|ed|es|ing|ison)\b|\bversus\b|\bvs\.?(?=\s|$)|\bdiffer(?:s|ed|ence)?\b"
        r"|\bwhat\s+(?:changed|got\s+fixed)\b|\b(?:gotten|got|been|become)\s+(?:any\s+)?"
        r"(?:better|worse)\b|\bbetter\s+since\b|\bsame\s+(?:problems|reasons|findings|issues)\b"
        r"|\bpersist(?:ed)?\b|\b(?:were|was)\s+(?:the\s+)?(?:observations|findings)\s+repeated\b"
        r"|\bchange\s+between\b|\blook\s+different\b|\bside\s+by\s+side\b"
        r"|\b(?:have|had|has)\s+in\s+common\b|\bboth\s+(?:cite|cited|share|shared)\b"
        r"|\brepeated\b.{0,40}\bnew\b",
    ),
    (
        "trend",
        r"\bper\s+(?:year|month|quarter)\b|\bby\s+(?:year|month|quarter)\b|\btrends?\b"
        r"|\bincreas(?:e|ed|ing)\b|\bdecreas(?:e|ed|ing)\b|\bmore\s+common\s+lately\b"
        r"|\blately\b|\bbecoming\b|\bquarterly\b|\bmonthly\b|\byear\s+over\s+year\b"
        r"|^per\s+\w+\??$|\bover\s+the\s+(?:past|last)\s+\w+\s+years?\b.*\b(?:rise|grow|drop)",
    ),
    ("comparison", r"\bmore\s+(?:\S+\s+){0,10}?than\b|\bwhose\b.*\b(?:more|worse|better)\b"),
    (
        "count",
        r"\bhow\s+many\b|\bnumber\s+of\b|\bcount\s+of\b|\bmost\s+(?:frequently|often|common(?:ly)?)"
        r"\s+cited\b|\bhow\s+often\b|\bvolume\b",
    ),
    (
        "history",
        r"\bhistory\b|\btrack\s+record\b|\brecord\s+with\s+fda\b|\bfda\s+record\b|['’]s\s+record\b"
        r"|\bthe\s+record\s+(?:show|say|hold)"
        r"|\bover\s+the\s+years\b|\bover\s+time\b|\bkept\s+coming\s+up\b|\ball\s+of\s+its\b"
        r"|\bacross\s+its\b|\bany\s+division\b|\bin\s+our\s+data\b|\bescalat(?:e|ed|es|ing|ion)\b",
    ),
    (  # "any drug firms around Guadalajara with warning letters? what went wrong at each?": a
        # list; "any El Paso drug makers with warning letters?" alone asks whether there are
        "which",
        r"^any\s+(?:[\w-]+\s+){0,3}?(?:firms|compan(?:y|ies)|manufacturers|makers|sites|plants"
        r"|facilities|compounders|pharmacies|labs|laboratories|suppliers|distributors|clinics"
        r"|sponsors|outsourcers|packagers|repackagers)\b.*\b(?:at\s+each|each\s+(?:one|firm|of\s+them)"
        r"|which\s+ones|list\s+them)\b",
    ),
    (
        "absence",
        r"^(?:did|does|do|has|have|had)\b|^(?:is|are|was|were)\s+(?:there|any)\b"
        r"|^(?:was|were|is|are)\b.*\b(?:issued|sent|given|received|warned)\b"
        # "was the 2025 letter about manufacturing problems?": what it holds may say no
        r"|^(?:was|were|is|are)\b.*\b(?:about|concern(?:ed|ing)|related\s+to)\b"
        # "was the NDA turned down over sterility?": whether the refusal says so
        r"|^(?:was|were)\b.*\b(?:turned\s+down|rejected|refused|declined|denied|not\s+approved)"
        r"\s+(?:over|for|because|due\s+to|on\s+account)\b"
        r"|^(?:is|are|was|were)\b.*\b(?:ever|any|anything)\b|^any\b|\bis\s+there\b"
        r"|\bare\s+there\b|\bwas\s+there\b|\b(?:ever|later)\s+(?:get|got|receive|received|sent?"
        r"|had|have|refused|been)\b",
    ),
    (
        "summary",
        r"\bguid[a-z]*nces?\b(?!.*\b(?:quote|the\s+(?:part|bit|section))\b)|\brecommend|\bexpects?\b"
        r"|\bexplain\b|\bich\s+q\d|\baccording\s+to\b|\bper\s+fda\b|\bcommon\s+themes\b",
    ),
    (
        "which",
        r"^(?:\w+\s+){0,3}(?:reports|letters|recalls|483s|crls|documents)\s+(?:for|about|on|from"
        r"|with|citing|mentioning|that)\b|^(?:which|list|name)\b(?!\s+(?:crl|letter|document|report|one)\s+(?:was|is)\b)"
        r"|^(?:pull|find\s+(?:all|every|anything))\b|\bwho\s+(?:got|received|was|were)\b"
        r"|^(?:only|just)\b|^(?:leave|leaving|drop)\b|\bones\??$",
    ),
    (
        "document",
        r"\bwhat\s+(?:did|does|do|was|were|is)\b.*\b(?:cite|cited|find|found|say|said|observ"
        r"|deficien|violation|faulted|flag|object|promise|ask|granted)\b"
        r"|\bthe\s+(?:part|bit|section)\s+(?:about|on)\b|\bquote\b|\bi\s+(?:recall|remember|think)\b"
        r"|^which\s+(?:crl|letter|document|report|one)\b|^what\s+(?:observations|violations"
        r"|deficiencies)\b|\bwhat\s+violations\b|\bwhy\s+(?:the|was|did|were)\b"
        r"|\bwhat\s+happened\b|\bwhich\s+(?:products|devices|device|product|impurity)\b"
        r"|\bwhat\s+were\s+the\b|\bsummari[sz]e\s+(?:the\s+)?(?:warning\s+letter|letter|483|crl)\b",
    ),
]

# How a user points at a passage of their own: the words after the cue are what to find and
# quote first ("I recall it faulted the human factors validation data").
POINTER_CUES: tuple[str, ...] = (
    r"\bi\s+(?:recall|remember|think)\s+(?:that\s+)?(?:(?:it|the\s+\w+(?:\s+\w+)?\s+\d{3}|the\s+"
    r"\w+(?:\s+\w+)?)\s+)?(?:said\s+)?(?:something\s+about\s+|a\s+part\s+about\s+|it\s+was\s+"
    r"only\s+about\s+)?(?P<what>[^.;?!—–]+)",
    r"\b(?:for\s+example|e\.g\.)\s*,?\s*(?:about\s+)?(?P<what>[^.;?!:,—–]+)",
    r"\bthe\s+(?:part|bit|section|passage|paragraph)\s+(?:about|on|where)\s+(?P<what>[^.;?!:,—–]+)",
    r"\bquote\s+the\s+(?:part|bit)\s+(?:about|on)\s+(?P<what>[^.;?!:,—–]+?)(?:\s+from\b|$|[.;?!])",
    r"\bspecifically\s+(?:the\s+bit\s+on\s+|the\s+part\s+about\s+)?(?P<what>[^.;?!:,—–]+)",
    r"\bwhere\s+the\s+patient\s+said\s+(?P<what>[^.;?!:,—–]+)",
    r"\bthe\s+observation\s+about\s+(?P<what>[^.;?!:,—–]+)",
    r"(?:^|[-—–,;:]\s*)something\s+(?:about|regarding|to\s+do\s+with)\s+(?P<what>[^.;?!:,—–]+)",
)

# The nouns that name firms: a nationality before one of them ("Indian API makers") is where the
# firms are, not a word of the topic ("Chinese medicine").
FIRM_NOUNS = frozenset(
    """firm company compan companie manufacturer maker supplier facility facilitie site plant pharmacy
    pharmacie compounder sponsor applicant distributor importer exporter lab laboratory laboratorie cdmo cmo
    producer vendor seller business entity establishment packer repackager relabeler outsourcer center""".split()  # noqa: SIM905
)

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
    "qmsr": "quality management system regulation",
    "qs": "quality system",
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
    "nse": "not substantially equivalent",
    "hct/p": "human cells, tissues, and cellular and tissue-based products",
    "bet": "bacterial endotoxins test",
    "pas": "prior approval supplement",
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

# Units that state the substance of a document: listed in order for a document a question
# names, and a document's line in a list is one of them when it has any.
SUBSTANCE = frozenset(
    {"finding", "violation", "deficiency", "recommendation", "description", "narrative"}
)

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
