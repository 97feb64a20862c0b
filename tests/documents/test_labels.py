"""A drug label's sections: headings read as sections, a page's section from its first line, a
label's text cut at its sections and paged with "(continued)" headings."""

from __future__ import annotations

import gzip
import json

import pytest

from regnb.documents.labels import (
    heading_section,
    label_pages,
    page_section,
    query_section,
    section_name,
    sections_of_text,
)
from regnb.ingest.normalise import split_pages
from tests import paths

FIXTURE = paths.SHARED_DATA / "realcorpus" / "fda_drug_labels__openfda-fixture.jsonl.gz"


@pytest.mark.parametrize(
    ("line", "section"),
    [
        ("1 INDICATIONS AND USAGE", "indications and usage"),
        ("5 WARNINGS AND PRECAUTIONS", "warnings and precautions"),
        ("WARNING: SERIOUS INFECTIONS AND MALIGNANCY", "boxed warning"),
        ("WARNING", "boxed warning"),
        ("Boxed warning", "boxed warning"),
        ("WARNINGS", "warnings"),
        ("Warnings", "warnings"),
        ("16 HOW SUPPLIED/STORAGE AND HANDLING", "how supplied"),
        ("Uses", "indications and usage"),
        ("Directions", "dosage and administration"),
        ("Questions or comments?", "questions"),
        ("Drug & laboratory test interactions", None),
        ("5.1 Hepatotoxicity", None),  # a subsection opens no section
        ("8.1 Pregnancy", None),
        ("Tardive Dyskinesia", None),
        ("Warning: do not exceed the dose", None),  # not a boxed warning's capitals
        ("", None),
    ],
)
def test_a_heading_names_its_section(line, section):
    assert heading_section(line) == section


@pytest.mark.parametrize(
    ("value", "name"),
    [
        ("boxed warning", "boxed warning"),
        ("Boxed_Warning", "boxed warning"),
        ("warnings and cautions", "warnings and precautions"),
        ("ADVERSE REACTIONS", "adverse reactions"),
        ("hepatotoxicity", None),
    ],
)
def test_a_section_is_named_as_openfda_names_its_field(value, name):
    assert section_name(value) == name


def test_an_unknown_section_is_an_error_naming_some():
    with pytest.raises(ValueError, match=r"not a label section.*boxed warning"):
        query_section("liver")
    assert query_section("Adverse Reactions") == "section:adverse_reactions"


def test_a_label_is_cut_at_its_sections_and_paged_with_continued_headings():
    text = (
        "Highlights\n\nWARNING: LIVER INJURY\nAcute liver failure.\n\n"
        "1 INDICATIONS AND USAGE\nFor pain.\n\n5 WARNINGS AND PRECAUTIONS\n"
        + "\n\n".join(f"5.{i} Risk {i}\n" + "Monitor liver tests. " * 40 for i in range(1, 6))
        + "\n\nDo not use\nin a child.\n\nDirections\nchildren under 4\ndo not use"
    )
    sections = list(sections_of_text(text))
    assert [name for name, _ in sections] == [
        None,
        "boxed warning",
        "indications and usage",
        "warnings and precautions",
        "do not use",
        "dosage and administration",  # "do not use" again opens nothing: a label has it once
    ]
    pages = label_pages(sections, lambda t: split_pages(t, 1500))
    named = [page_section(p) for p in pages]
    assert named[:3] == [None, "boxed warning", "indications and usage"]
    assert named.count("warnings and precautions") > 1
    assert pages[4].startswith("Warnings and precautions (continued)\n")
    assert named[-1] == "dosage and administration" and pages[-1].endswith("do not use")
    assert "".join(pages).count("Monitor liver tests.") == 200  # no text lost


@pytest.mark.skipif(not FIXTURE.exists(), reason="../shared/data is not here")
def test_the_shared_labels_are_read_by_section():
    with gzip.open(FIXTURE, "rt") as handle:
        records = {
            json.loads(line)["source_path"].split("/")[-1]: json.loads(line) for line in handle
        }
    assert len(records) == 6
    read = {
        name: [
            page_section(p)
            for p in label_pages(sections_of_text("\n\n".join(r["pages"])), split_pages)
        ]
        for name, r in records.items()
    }
    assert read["humira.xml"][0] == "boxed warning"
    assert read["no-title.xml"][0] == "boxed warning"  # an older label's "WARNING" box
    assert "boxed warning" not in read["lipitor-orig.xml"]
    for name in ("humira.xml", "lipitor-orig.xml", "lipitor-repack.xml"):
        sections = list(dict.fromkeys(s for s in read[name] if s))
        assert (
            sections[:5]
            == [
                *(["boxed warning"] if name == "humira.xml" else []),
                "indications and usage",
                "dosage and administration",
                "dosage forms and strengths",
                "contraindications",
                "warnings and precautions",
            ][:5]
        )
        assert {"adverse reactions", "drug interactions", "use in specific populations"} <= set(
            sections
        )
    assert read["cough.xml"][:3] == ["active ingredient", "purpose", "indications and usage"]
    assert all(s is not None for s in read["humira.xml"])
