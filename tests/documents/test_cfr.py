"""CFR citations read from text: a table of the forms of citation found in the real corpus
(../shared/data/realcorpus), of look-alikes that are not citations, and of users' references."""

from __future__ import annotations

import pyarrow as pa
import pytest

from regnb.documents import cfr

# Forms of citation as they occur in FDA warning letters, 483s, CRLs, guidances and the CFR's
# own text (short forms only, no document text), with the sections they cite.
FORMS = [
    ("21 CFR 211.113(b)", ["21 CFR 211.113"]),
    ("21 C.F.R. § 211.192", ["21 CFR 211.192"]),
    ("21 CFR §211.22(d)", ["21 CFR 211.22"]),
    ("21 CFR § 820.30(h)", ["21 CFR 820.30"]),
    ("21CFR §314.126", ["21 CFR 314.126"]),
    ("21CFR806", ["21 CFR 806"]),
    ("21 CFR Part 820", ["21 CFR 820"]),
    ("21 CFR part 820", ["21 CFR 820"]),
    ("21 CFR 820", ["21 CFR 820"]),
    ("21 CFR\npart 820", ["21 CFR 820"]),
    ("21 CFR parts 210 and 211", ["21 CFR 210", "21 CFR 211"]),
    ("21 CFR PARTS 4 AND 803", ["21 CFR 4", "21 CFR 803"]),
    ("21 CFR Parts 807, 820, and 806", ["21 CFR 807", "21 CFR 820", "21 CFR 806"]),
    ("21 CFR 820.30(a)", ["21 CFR 820.30"]),
    ("§§ 211.100(a) and 211.192", ["21 CFR 211.100", "21 CFR 211.192"]),
    ("§ 211.192", ["21 CFR 211.192"]),
    ("§\u2009886.9", ["21 CFR 886.9"]),
    ("§§\u2009862.1150 and 862.3200 of this part", ["21 CFR 862.1150", "21 CFR 862.3200"]),
    ("Sections 211.100(a) and 211.192", ["21 CFR 211.100", "21 CFR 211.192"]),
    ("section 310.305 of 21 CFR", ["21 CFR 310.305"]),
    ("section 312.82(b) of title 21, Code of Federal Regulations", ["21 CFR 312.82"]),
    (
        "21 CFR 211.22(d), 211.100(a), and 211.192",
        ["21 CFR 211.22", "21 CFR 211.100", "21 CFR 211.192"],
    ),
    (
        "21 CFR 884.6100, 884.6110,\n884.6180",
        ["21 CFR 884.6100", "21 CFR 884.6110", "21 CFR 884.6180"],
    ),
    ("21 CFR 314.80 and 803.52", ["21 CFR 314.80", "21 CFR 803.52"]),
    ("Title 21, Code of Federal Regulations (CFR), Part 314", ["21 CFR 314"]),
    ("Title 21 Code of Federal Regulations (CFR), parts 210 and 211", ["21 CFR 210", "21 CFR 211"]),
    ("Title 21, Code of Federal Regulations (CFR) 812.3(m)", ["21 CFR 812.3"]),
    (
        "Title 21 of the Code of Federal\nRegulations, sections 1020.30 through 1020.33",
        ["21 CFR 1020.30", "21 CFR 1020.33"],
    ),
    ("21 CFR 314.50(d)(1)(ii)", ["21 CFR 314.50"]),
    ("21 CFR 314.50(d)(5)(vi)(b)", ["21 CFR 314.50"]),
    ("[21 CFR 314.50(l)(1)(i)]", ["21 CFR 314.50"]),
    ("21 CFR 1271.3(d)", ["21 CFR 1271.3"]),
    ("21 CFR\n211.113", ["21 CFR 211.113"]),
    ("21 CFR \n1000.3(d)", ["21 CFR 1000.3"]),
    ("(21 CFR 812.25(c), (d));", ["21 CFR 812.25"]),
    ("21 CFR 211.67(b)(1) and (2)", ["21 CFR 211.67"]),
    ("21 CFR 211.84(d)(1) and 211.84 (d)(2)", ["21 CFR 211.84"]),
    ("21 CR 820.250(a)", ["21 CFR 820.250"]),
    ("21 CFR 314.. You", ["21 CFR 314"]),
    ("21 CFR 606.160(a)(1) | Cite Id 154", ["21 CFR 606.160"]),
    ("42 CFR 493.1253", ["42 CFR 493.1253"]),
    ("45 CFR part 46", ["45 CFR 46"]),
    ("45 CFR\nParts\n160,\n162,\nand\n164", ["45 CFR 160", "45 CFR 162", "45 CFR 164"]),
    ("16 CFR parts 1632 and 1633", ["16 CFR 1632", "16 CFR 1633"]),
    ("21 CFR 211.113(b) and 21 CFR 211.113(c)", ["21 CFR 211.113"]),
    ("21 CFR 211.113, 2021", ["21 CFR 211.113"]),
    ("21 CFR Part 820 and 21 CFR 211.113(c)", ["21 CFR 820", "21 CFR 211.113"]),
    ("21 CFR parts 210 and 211, and 21 U.S.C. 351", ["21 CFR 210", "21 CFR 211"]),
    ("21 CFR 211.22 and 42 CFR 493.1253", ["21 CFR 211.22", "42 CFR 493.1253"]),
]

# Look-alikes that cite no CFR section.
NOT_CFR = [
    "2021.05",
    "version 2.1.3",
    "Section 505(b)(2) of the Act",
    "section 501(a)(2)(B)",
    "510(k)",
    "Section 4.2 of this guidance",
    "see section 4.8",
    "Sections 2.3., 3.3. and 3.4. of Annex IX",
    "page 12 of 30",
    "Page 3",
    "(301) 796-3400",
    "301-796-3400",
    "Form FDA 483",
    "FEI 3000975914",
    "21 U.S.C. § 321(h)",
    "42 U.S.C. § 262(a)(1)",
    "21 U.S.C. §§ 331(d)",
    "Pub. L. 112-144, §608(b)(2)",
    "MDR art. 80 §2-3",
    "(§ 8 para 2)",
    "Protocol 009§\n\n117.9 (464)",
    "IEC 62443-4-2 CR 4.3",
    "2 CR, 13 PR",
    "21 CFR part (b)(4)",
    "ICH Q9(R1) 2.1",
]


@pytest.mark.parametrize(("text", "expected"), FORMS)
def test_a_form_of_citation_reads_as_its_sections(text: str, expected: list[str]) -> None:
    assert cfr.sections(text) == expected
    assert cfr.sections(f"Before it, {text} and after it.") == expected


@pytest.mark.parametrize("text", NOT_CFR)
def test_a_look_alike_is_no_citation(text: str) -> None:
    assert cfr.sections(text) == []
    assert cfr.terms(text) == {}


@pytest.mark.parametrize("text", [text for text, _ in FORMS])
def test_every_form_is_a_candidate_of_the_vectorised_first_pass(text: str) -> None:
    texts = pa.chunked_array([pa.array(["nothing here", text, "2021.05"])])
    assert cfr.candidates(texts).tolist() == [1]


def test_sections_are_in_order_of_first_appearance_each_once() -> None:
    text = "21 CFR 820.30(a); 21 CFR Part 11; § 211.192; 21 CFR 820.30(g); 42 CFR 493.1253"
    assert cfr.sections(text) == [
        "21 CFR 820.30",
        "21 CFR 11",
        "21 CFR 211.192",
        "42 CFR 493.1253",
    ]


def test_terms_count_citations_and_a_section_counts_for_its_part() -> None:
    text = "21 CFR 211.113(b), 211.192 and 21 CFR 211.113(c); 21 CFR Part 211; 42 CFR 493.1253"
    assert cfr.terms(text) == {
        "cfr:211": 4,
        "cfr:211.113": 2,
        "cfr:211.192": 1,
        "cfr:42/493": 1,
        "cfr:42/493.1253": 1,
    }


@pytest.mark.parametrize(
    ("reference", "term"),
    [
        ("211.113(b)", "cfr:211.113"),
        ("211.113", "cfr:211.113"),
        ("21 CFR 211.113", "cfr:211.113"),
        ("21 C.F.R. 211.113(b)(2)", "cfr:211.113"),
        ("§ 211.113", "cfr:211.113"),
        ("§211.113", "cfr:211.113"),
        ("section 211.113", "cfr:211.113"),
        ("part 820", "cfr:820"),
        ("Part 820", "cfr:820"),
        ("21 CFR Part 820", "cfr:820"),
        ("211", "cfr:211"),
        (" 211 ", "cfr:211"),
        ("cfr:211.113", "cfr:211.113"),
        ("42 CFR 493.1253", "cfr:42/493.1253"),
        ("45 CFR part 46", "cfr:45/46"),
        ("42/493.1253", "cfr:42/493.1253"),
        ("1271.3(d)", "cfr:1271.3"),
    ],
)
def test_a_users_reference_is_its_index_term(reference: str, term: str) -> None:
    assert cfr.query_term(reference) == term


@pytest.mark.parametrize(
    ("reference", "term"), [("21 CFR 211.113(b)", "cfr:211.113"), ("§ 211.192", "cfr:211.192")]
)
def test_a_reference_and_the_text_it_cites_give_the_same_term(reference: str, term: str) -> None:
    assert cfr.query_term(reference) == term
    assert term in cfr.terms(reference)


@pytest.mark.parametrize(
    "reference",
    ["", "abc", "510(k)", "211(b)", "0", "211.113.5", "sterility", "21 CFR", "part", "12345"],
)
def test_what_is_no_cfr_reference_is_a_value_error_that_says_so(reference: str) -> None:
    with pytest.raises(ValueError, match="is not a CFR reference"):
        cfr.query_term(reference)


@pytest.mark.parametrize(
    ("term", "value"),
    [
        ("cfr:211.113", "21 CFR 211.113"),
        ("cfr:820", "21 CFR 820"),
        ("cfr:42/493.1253", "42 CFR 493.1253"),
        ("cfr:45/46", "45 CFR 46"),
    ],
)
def test_an_index_term_reads_back_as_its_normal_form(term, value):
    assert cfr.term_value(term) == value
    assert cfr.query_term(value) == term
