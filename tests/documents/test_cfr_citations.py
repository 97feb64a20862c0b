"""Citations of 21 CFR and of the FD&C Act (regnb.documents.cfr): how they are written in letters,
their one normalised form, and their titles from the shipped table."""

from __future__ import annotations

import json
from importlib import resources

import pytest

from regnb.documents.cfr import cfr_citations, cfr_title


@pytest.mark.parametrize(
    ("text", "citations"),
    [
        ("investigate any discrepancy (21 CFR 211.192).", ("21 CFR 211.192",)),
        ("as required by 21 C.F.R. § 211.113(b).", ("21 CFR 211.113(b)",)),
        ("as required by 21 CFR § 820.100(a).", ("21 CFR 820.100(a)",)),
        ("21CFR820.30(h)", ("21 CFR 820.30(h)",)),
        ("See 21 CFR Part 820.", ("21 CFR Part 820",)),
        ("See 21 CFR, parts 210 and 211.", ("21 CFR Part 210", "21 CFR Part 211")),
        ("(21 CFR 211.113(b) and 211.100(a))", ("21 CFR 211.113(b)", "21 CFR 211.100(a)")),
        (
            "21 CFR 862.1355(b)(3) and 21 CFR 820.80(d).",
            ("21 CFR 862.1355(b)(3)", "21 CFR 820.80(d)"),
        ),
        ("described at 21 CFR 314.50(d)(5)(vi)(b).", ("21 CFR 314.50(d)(5)(vi)(b)",)),
        (
            "adulterated within the meaning of section 501(a)(2)(B) of the FD&C Act, 21 U.S.C. "
            "351(a)(2)(B).",
            ("FD&C Act 501(a)(2)(B)",),
        ),
        (
            "within the meaning of sections 501(a)(2)(B) and 502(o) of the Act.",
            ("FD&C Act 501(a)(2)(B)", "FD&C Act 502(o)"),
        ),
        ("Sec. 704(b) of the Federal Food, Drug, and Cosmetic Act", ("FD&C Act 704(b)",)),
        ("compounded under section 503A of the FD&C Act", ("FD&C Act 503A",)),
        ("under section 201(h) of the Act, 21 U.S.C. § 321(h)", ("FD&C Act 201(h)",)),
        ("licensed under section 351(a) of the Public Health Service Act", ()),
        ("SOP section 6.3.2 on gowning", ()),
        ("Lot 211.192 was released.", ()),
        (
            "(21 CFR 211.192). Again, 21 CFR 211.192 and section 501(a)(2)(B).",
            ("21 CFR 211.192", "FD&C Act 501(a)(2)(B)"),
        ),
    ],
)
def test_citations_are_found_normalised_in_order_once(
    text: str, citations: tuple[str, ...]
) -> None:
    assert cfr_citations(text) == citations


@pytest.mark.parametrize(
    ("citation", "title"),
    [
        ("21 CFR 211.22(a)", "Responsibilities of quality control unit"),
        ("21 CFR 211.113(b)", "Control of microbiological contamination"),
        ("21 CFR 211.192", "Production record review"),
        ("21 CFR 820.100(a)", "Corrective and preventive action"),
        ("21 CFR 820.30(h)", "Design controls"),
        ("21 CFR 211.999", "Current good manufacturing practice for finished pharmaceuticals"),
        ("21 CFR Part 11", "Electronic records; electronic signatures"),
        ("21 CFR Part 803", "Medical device reporting"),
        ("FD&C Act 501(a)(2)(B)", "adulteration: CGMP"),
        ("FD&C Act 502(f)(1)", "misbranding: lacks adequate directions for use"),
        ("FD&C Act 505(a)(1)", "new drugs: approval required before interstate commerce"),
        ("FD&C Act 503B", "outsourcing facilities"),
        ("21 CFR 9999.1", None),
        ("FD&C Act 999", None),
        ("not a citation", None),
    ],
)
def test_a_citation_has_the_title_of_its_section_or_part(citation: str, title: str | None) -> None:
    assert cfr_title(citation) == title


def test_every_cited_part_of_the_brief_has_a_title() -> None:
    parts = "1 4 11 101 111 117 201 207 210 211 212 226 312 314 320 600 601 606 610 801 803 806"
    for part in (parts + " 807 814 820 821 822 1271").split():
        assert cfr_title(f"21 CFR Part {part}"), part


def test_the_title_table_is_well_formed() -> None:
    raw = resources.files("regnb.documents").joinpath("cfr_titles.json").read_text(encoding="utf-8")
    table = json.loads(raw)
    assert set(table) == {"cfr_parts", "cfr_sections", "fdca_sections"}
    for section in table["cfr_sections"]:
        assert section.split(".")[0] in table["cfr_parts"], section
    assert all(isinstance(t, str) and t for group in table.values() for t in group.values())
