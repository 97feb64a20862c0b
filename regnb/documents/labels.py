"""A drug label's sections (boxed warning, indications and usage, dosage and administration,
contraindications, warnings and precautions, adverse reactions...), named as openFDA names the
fields of a label record (`boxed_warning` -> "boxed warning").

A label is ingested a section at a time: every page of it belongs to one section and opens with
that section's heading, the heading as the label writes it on the section's first page
("1 INDICATIONS AND USAGE", "WARNING: SERIOUS INFECTIONS") and "<name> (continued)" on the pages
after. A page's section is so a pure function of its first line (`page_section`), which the
index, the reader and the research agent share; a search item `section:"boxed warning"` matches
the pages of that section (the index term `section:boxed_warning`, `section_term`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping

from regnb.text import fold

__all__ = [
    "CONTINUED",
    "LABEL_DATASETS",
    "SECTIONS",
    "SECTION_PREFIX",
    "heading_section",
    "is_label",
    "label_pages",
    "page_section",
    "query_section",
    "section_name",
    "section_term",
    "sections_of_text",
    "term_section",
]

SECTION_PREFIX = "section:"
CONTINUED = " (continued)"
LABEL_DATASETS = frozenset({"fda_drug"})
"""The datasets whose documents of `document_type` "label" are read by section."""

# A label's sections in the order a label has them: openFDA's field names (spaces for `_`).
SECTIONS: tuple[str, ...] = (
    "boxed warning",
    "recent major changes",
    "indications and usage",
    "active ingredient",
    "purpose",
    "dosage and administration",
    "dosage forms and strengths",
    "contraindications",
    "warnings and precautions",
    "warnings",
    "do not use",
    "ask doctor",
    "ask doctor or pharmacist",
    "when using",
    "stop use",
    "pregnancy or breast feeding",
    "keep out of reach of children",
    "precautions",
    "general precautions",
    "information for patients",
    "laboratory tests",
    "adverse reactions",
    "drug interactions",
    "drug and or laboratory test interactions",
    "use in specific populations",
    "pregnancy",
    "teratogenic effects",
    "nonteratogenic effects",
    "labor and delivery",
    "nursing mothers",
    "pediatric use",
    "geriatric use",
    "drug abuse and dependence",
    "controlled substance",
    "abuse",
    "dependence",
    "overdosage",
    "description",
    "clinical pharmacology",
    "mechanism of action",
    "pharmacodynamics",
    "pharmacokinetics",
    "pharmacogenomics",
    "microbiology",
    "nonclinical toxicology",
    "carcinogenesis and mutagenesis and impairment of fertility",
    "animal pharmacology and or toxicology",
    "clinical studies",
    "references",
    "how supplied",
    "storage and handling",
    "patient counseling information",
    "inactive ingredient",
    "other safety information",
    "questions",
    "instructions for use",
    "spl medguide",
    "spl patient package insert",
    "package label principal display panel",
    "spl unclassified section",
)

# Headings as labels write them that are not a section's name (folded, numbering left out).
_ALIASES = {
    "boxed warnings": "boxed warning",
    "indications": "indications and usage",
    "indications usage": "indications and usage",
    "uses": "indications and usage",
    "use": "indications and usage",
    "active ingredients": "active ingredient",
    "active ingredient in each tablet": "active ingredient",
    "purposes": "purpose",
    "directions": "dosage and administration",
    "dosage": "dosage and administration",
    "warnings and cautions": "warnings and precautions",
    "ask a doctor before use": "ask doctor",
    "ask a doctor before use if": "ask doctor",
    "ask a doctor or pharmacist before use if": "ask doctor or pharmacist",
    "when using this product": "when using",
    "stop use and ask a doctor if": "stop use",
    "if pregnant or breast feeding": "pregnancy or breast feeding",
    "inactive ingredients": "inactive ingredient",
    "other information": "storage and handling",
    "other informaton": "storage and handling",
    "questions or comments": "questions",
    "how supplied storage and handling": "how supplied",
    "medication guide": "spl medguide",
    "patient information": "spl patient package insert",
    "principal display panel": "package label principal display panel",
    "package label principal display panel": "package label principal display panel",
    "package label": "package label principal display panel",
}
_NAMES: dict[str, str] = {
    **{s: s for s in SECTIONS},
    **{s.replace(" and or ", " or "): s for s in SECTIONS},
    **_ALIASES,
}
# A top-level heading's number ("1 ", "16 "); subsections ("5.1 ") open no section.
_NUMBER = re.compile(r"^(\d{1,2})\s+(?=\D)")
_SUBSECTION = re.compile(r"^\d{1,2}\.\d")
# A boxed warning's heading, written in capitals: "WARNING", "WARNING: SERIOUS INFECTIONS".
_BOXED = re.compile(r"^(?:BOXED\s+)?WARNING(?:\s*[:\-–—].*)?$")
_MAX_HEADING = 80


def _key(text: str) -> str:
    """A heading folded to letters and single spaces ('HOW SUPPLIED/STORAGE' -> 'how supplied
    storage'); '&' reads as 'and'."""
    text = fold(text).lower().replace("&", " and ")
    return " ".join(re.sub(r"[^a-z0-9]+", " ", text).split())


def heading_section(line: str) -> str | None:
    """The section a heading line opens ("1 INDICATIONS AND USAGE" -> "indications and usage",
    "WARNING: RISK OF SEDATION" -> "boxed warning"), or None when the line is no section's
    heading (a subsection "5.1 Hepatotoxicity", a sentence)."""
    line = " ".join(line.split()).rstrip(":?.")
    if not line or len(line) > _MAX_HEADING or _SUBSECTION.match(line):
        return None
    if _BOXED.match(line):
        return "boxed warning"
    return _NAMES.get(_key(_NUMBER.sub("", line)))


def section_name(value: str) -> str | None:
    """The section a name means, as a search or the reader writes it ("boxed warning",
    "Boxed_Warning", "WARNINGS AND PRECAUTIONS"), or None when it names none."""
    return _NAMES.get(_key(value.replace("_", " ")))


def section_term(name: str) -> str:
    """The index term of a section's pages: `section:boxed_warning`."""
    return SECTION_PREFIX + name.replace(" ", "_")


def query_section(value: str) -> str:
    """The index term of the section a search names; ValueError naming the sections when the
    value names none."""
    name = section_name(value)
    if name is None:
        raise ValueError(
            f"{value!r} is not a label section (one of: " + ", ".join(SECTIONS[:12]) + ", ...)"
        )
    return section_term(name)


def term_section(term: str) -> str:
    """`section:boxed_warning` -> "boxed warning"."""
    return term.removeprefix(SECTION_PREFIX).replace("_", " ")


def page_section(text: str) -> str | None:
    """The section a page of a label is in, read from its first line: a section's heading, or
    "<name> (continued)"; None when the first line is neither."""
    first = next((line for line in text.splitlines() if line.strip()), "").strip()
    if first.endswith(CONTINUED.strip()) and first[: -len(CONTINUED)].strip():
        return section_name(first[: -len(CONTINUED)])
    return heading_section(first)


def is_label(dataset: str, fields: Mapping[str, object]) -> bool:
    """Whether a document is a drug label read by section."""
    return dataset in LABEL_DATASETS and fields.get("document_type") == "label"


def sections_of_text(text: str) -> Iterator[tuple[str | None, str]]:
    """A label's text cut where a line is the heading of a section not met before (a label has
    each once; "do not use" in a table of doses opens none): (section, its text from the heading
    on); text before the first heading comes with None."""
    lines = text.splitlines(keepends=True)
    current: str | None = None
    seen: set[str] = set()
    chunk: list[str] = []
    for line in lines:
        opened = heading_section(line) if line.strip() else None
        if opened in seen:
            opened = None
        if opened is not None:
            seen.add(opened)
        if opened is not None and "".join(chunk).strip():
            yield current, "".join(chunk).strip()
            chunk = []
        if opened is not None:
            current = opened
        chunk.append(line)
    if "".join(chunk).strip():
        yield current, "".join(chunk).strip()


def label_pages(
    sections: Iterable[tuple[str | None, str]], split: Callable[[str], list[str]]
) -> list[str]:
    """The pages of a label from its sections in order ((name, text), the text opening with its
    heading): each section split into pages (`split`, `regnb.ingest.normalise.split_pages`), the
    pages after a section's first opening with "<name> (continued)"."""
    pages: list[str] = []
    for name, text in sections:
        for i, part in enumerate(p for p in split(text) if p.strip()):
            heading = (name[:1].upper() + name[1:] + CONTINUED) if i and name else None
            pages.append(f"{heading}\n{part}" if heading else part)
    return pages or [""]
