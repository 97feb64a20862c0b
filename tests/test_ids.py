"""Identifiers and firm names read as data: a table of the forms found in the real corpus
(../shared/data/realcorpus, short forms only), of look-alikes that are not identifiers, of users'
queries, and of the variants of firms' names the catalog fields hold."""

from __future__ import annotations

import pyarrow as pa
import pytest

from regnb import ids
from regnb.ids import Identifier

# Forms as they occur in CRLs, warning letters, 483s, guidances, trial records and catalog fields,
# with the (kind, normal form) each reads as.
FORMS = [
    ("FEI 3000975914", [("fei", "3000975914")]),
    ("(FEI: 3013702557) listed", [("fei", "3013702557")]),
    ("FEI#3011248248, a", [("fei", "3011248248")]),
    ("FEI #: 1002003000", [("fei", "1002003000")]),
    ("FEI # 3004161147", [("fei", "3004161147")]),
    ("FEI #\n3007517881", [("fei", "3007517881")]),
    ("FEI No. 3007517881", [("fei", "3007517881")]),
    ("FEI, 1316626, NY, USA)", [("fei", "1316626")]),
    ("(FEI 2016148)", [("fei", "2016148")]),
    ("FEI NUMBER\n\n3013118095\n\nNAME", [("fei", "3013118095")]),
    ("| FEI Number              | 3009638066 |", [("fei", "3009638066")]),
    ("- **Facility FEI Number**: 3011248248", [("fei", "3011248248")]),
    ("Denmark (FEI number: 3003131673)", [("fei", "3003131673")]),
    ("Establishment Identifier (FEI) 1000113778, at", [("fei", "1000113778")]),
    ("FEI3006503102) and", [("fei", "3006503102")]),
    ("NDA 209128", [("application", "NDA 209128")]),
    ("ANDA 065398", [("application", "ANDA 065398")]),
    ("BLA 125477", [("application", "BLA 125477")]),
    ("BLA125547", [("application", "BLA 125547")]),
    ("NDA202860", [("application", "NDA 202860")]),
    ("BLA STN 125514/0", [("application", "BLA 125514")]),
    ("STN 125514", [("application", "BLA 125514")]),
    ("NDA 21-164", [("application", "NDA 021164")]),
    ("NDA 205-394", [("application", "NDA 205394")]),
    ("NDA 22231", [("application", "NDA 022231")]),
    ("NDA-22450", [("application", "NDA 022450")]),
    ("NDA 208 193", [("application", "NDA 208193")]),
    ("NDA Number:** 216962", [("application", "NDA 216962")]),
    ("NDA 213378/Orig1", [("application", "NDA 213378")]),
    ("BLA 761373 / Orig 1", [("application", "BLA 761373")]),
    ("NDA 212887Orig1", [("application", "NDA 212887")]),
    ("NDA 217225/S-001", [("application", "NDA 217225/S-001")]),
    ("NDA 210854/S-05", [("application", "NDA 210854/S-005")]),
    ("sNDA 021457/S-012", [("application", "NDA 021457/S-012")]),
    ("BLA 125350/1472", [("application", "BLA 125350/S-1472")]),
    ("BLAs 761373 and 761374", [("application", "BLA 761373"), ("application", "BLA 761374")]),
    ("APPLICATION NUMBER:\n\n208288Orig1s000", [("application", "208288")]),
    ("Application Number:** 209575 Orig1s000", [("application", "209575")]),
    ("Application No. 761073", [("application", "761073")]),
    ("208288Orig1s005", [("application", "208288/S-005")]),
    ("NDA 208288; 208288Orig1s000", [("application", "NDA 208288")]),
    ("K222558", [("510k", "K222558")]),
    ("(k124006)", [("510k", "K124006")]),
    ("510(k) K954397, cleared", [("510k", "K954397")]),
    ("510(k) number K 153387.", [("510k", "K153387")]),
    ("P123456/S012", [("pma", "P123456/S012")]),
    ("PMA P980048, BAK", [("pma", "P980048")]),
    ("a PMA. Your film listed P190020", [("pma", "P190020")]),
    ("pma.cfm?id=P050034 premarket approval", [("pma", "P050034")]),
    ("DEN200031", [("denovo", "DEN200031")]),
    ("NCT01650194", [("nct", "NCT01650194")]),
    ("Product Code: FNL", [("product_code", "FNL")]),
    ("product code PYU", [("product_code", "PYU")]),
    ("product \ncode(s): LLZ", [("product_code", "LLZ")]),
    (
        "product code(s): DSI, MHX, MLD",
        [("product_code", "DSI"), ("product_code", "MHX"), ("product_code", "MLD")],
    ),
    ("product codes\nNPZ and NQA", [("product_code", "NPZ"), ("product_code", "NQA")]),
    ("Procode: LLZ", [("product_code", "LLZ")]),
]

# Look-alikes that are no identifier.
NOT_IDENTIFIERS = [
    "(301) 796-3400",
    "301-796-3400",
    "Form FDA 483",
    "21 CFR 211.113(b)",
    "21 CFR 820.30",
    "January 23, 2026",
    "2019-09-26",
    "Lot K123456",
    "Lot # P123456",
    "batch no. K654321",
    "Rockville, MD 20857",
    "page 12 of 30",
    "Page 3",
    "KEYNOTE-189",
    "the K factor was 1.5",
    "Kit K12345",
    "IND 076549",
    "FEI # 30002785310",
    "the FEI number of the facility",
    "(FEI:\n(b) (4)\n)",
    "P000018 cohort 2",
    "EU/1/04/273",
    "MDR 3008973940-2024-07927",
    "product code (UPC)",
    "product codes for the devices",
    "Product Code\nFDA",
    "PRODUCT CODES\n\nLot",
    "NCT0123456",
    "letter 722046",
]


@pytest.mark.parametrize(("text", "expected"), FORMS)
def test_a_form_reads_as_its_identifiers(text: str, expected: list[tuple[str, str]]) -> None:
    assert [(i.kind, i.value) for i in ids.identifiers(text)] == expected
    padded = f"Before it, {text} and after it."
    assert [(i.kind, i.value) for i in ids.identifiers(padded)] == expected


@pytest.mark.parametrize(("text", "expected"), FORMS)
def test_the_first_pass_marks_every_kind_a_form_holds(
    text: str, expected: list[tuple[str, str]]
) -> None:
    marked = ids.candidates(pa.chunked_array([pa.array(["no number here", text])]))
    assert sorted(marked) == sorted(ids.KINDS)
    held = {kind for kind, _ in expected}
    assert {kind for kind, mask in marked.items() if mask[1]} >= held
    assert not any(mask[0] for mask in marked.values())
    found = ids.identifiers(text, [kind for kind, mask in marked.items() if mask[1]])
    assert [(i.kind, i.value) for i in found] == expected


@pytest.mark.parametrize(
    ("kinds", "expected"),
    [
        (["fei"], [("fei", "3000975914")]),
        (["application", "nct"], [("nct", "NCT01234567"), ("application", "NDA 209128")]),
        ([], []),
    ],
)
def test_identifiers_read_only_the_kinds_asked_for(
    kinds: list[str], expected: list[tuple[str, str]]
) -> None:
    text = "NCT01234567 at FEI 3000975914 under NDA 209128"
    assert [(i.kind, i.value) for i in ids.identifiers(text, kinds)] == expected


@pytest.mark.parametrize(
    ("text", "terms"),
    [
        ("FEI 3000975914", ["fei:3000975914"]),
        ("NDA 217225/S-001", ["app:217225", "nda:217225", "nda:217225/s001"]),
        ("208288Orig1s000", ["app:208288"]),
        ("P123456/S012", ["p:123456", "p:123456/s012"]),
        ("product code LLZ", ["procode:llz"]),
    ],
)
def test_an_identifiers_terms_end_with_its_most_specific(text: str, terms: list[str]) -> None:
    assert ids.identifiers(text)[0].terms == terms


@pytest.mark.parametrize("text", NOT_IDENTIFIERS)
def test_a_look_alike_is_no_identifier(text: str) -> None:
    assert ids.identifiers(text) == []
    assert ids.index_terms(text) == {}


def test_identifiers_keep_the_text_read_in_order_each_once() -> None:
    text = "NCT01650194; FEI: 3013702557 and NDA 209128, then FEI 3013702557 again"
    assert ids.identifiers(text) == [
        Identifier("nct", "NCT01650194", "NCT01650194"),
        Identifier("fei", "3013702557", "FEI: 3013702557"),
        Identifier("application", "NDA 209128", "NDA 209128"),
    ]


def test_index_terms_follow_the_documented_scheme() -> None:
    text = (
        "FEI 3000975914, NDA 217225/S-001, Application Number: 208288Orig1s000, BLA 125514, "
        "K123456, P123456/S012, DEN200031, NCT01234567, product code LLZ, FEI 3000975914"
    )
    assert ids.index_terms(text) == {
        "fei:3000975914": 1,
        "app:217225": 1,
        "nda:217225": 1,
        "nda:217225/s001": 1,
        "app:208288": 1,
        "app:125514": 1,
        "bla:125514": 1,
        "k:123456": 1,
        "p:123456": 1,
        "p:123456/s012": 1,
        "den:200031": 1,
        "nct:01234567": 1,
        "procode:llz": 1,
    }


@pytest.mark.parametrize(
    ("kind", "value", "term"),
    [
        ("fei", "3000975914", "fei:3000975914"),
        ("fei", "FEI 3000975914", "fei:3000975914"),
        ("fei", "fei:3000975914", "fei:3000975914"),
        ("fei", "1316626", "fei:1316626"),
        ("application", "NDA 209128", "nda:209128"),
        ("application", "nda 209128", "nda:209128"),
        ("application", "NDA 21-164", "nda:021164"),
        ("application", "nda:209128", "nda:209128"),
        ("application", "ANDA 076543", "anda:076543"),
        ("application", "BLA 761073", "bla:761073"),
        ("application", "NDA 217225/S-001", "nda:217225/s001"),
        ("application", "209128", "app:209128"),
        ("application", "208288Orig1s000", "app:208288"),
        ("510k", "k123456", "k:123456"),
        ("510k", "K123456", "k:123456"),
        ("510k", "123456", "k:123456"),
        ("pma", "P123456", "p:123456"),
        ("pma", "p123456/s012", "p:123456/s012"),
        ("denovo", "DEN200031", "den:200031"),
        ("nct", "NCT01234567", "nct:01234567"),
        ("nct", "nct01234567", "nct:01234567"),
        ("product_code", "llz", "procode:llz"),
        ("product_code", "LLZ", "procode:llz"),
    ],
)
def test_query_term_reads_a_users_identifier(kind: str, value: str, term: str) -> None:
    assert ids.query_term(kind, value) == term


@pytest.mark.parametrize(
    ("kind", "value"),
    [
        ("fei", "300097591"),
        ("fei", "NDA 209128"),
        ("application", "IND 076549"),
        ("application", "2091281"),
        ("510k", "K12345"),
        ("nct", "NCT0123456"),
        ("product_code", "LLZZ"),
        ("product_code", "FDA"),
        ("cfr", "211.113"),
        ("fei", ""),
    ],
)
def test_query_term_refuses_what_is_not_an_identifier_of_the_kind(kind: str, value: str) -> None:
    with pytest.raises(ValueError, match="identifier"):
        ids.query_term(kind, value)


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        ({"fei_number": "3011152407 "}, [("fei", "3011152407")]),
        ({"fei_number": "1925262"}, [("fei", "1925262")]),
        ({"application_number": "208288Orig1s000"}, [("application", "208288")]),
        ({"application_number": "205920"}, [("application", "205920")]),
        ({"application_number": "NDA 018680/S-074"}, [("application", "NDA 018680/S-074")]),
        (
            {
                "application_number": "761299",
                "submission_type": "Biologics License Application (BLA)",
            },
            [("application", "BLA 761299")],
        ),
        (
            {"application_number": "209988Orig1s000", "submission_type": "NDA (505(b)(2))"},
            [("application", "NDA 209988")],
        ),
        (
            {"submission_number": "K251316", "product_code": "JPA"},
            [("510k", "K251316"), ("product_code", "JPA")],
        ),
        ({"nct_id": "NCT01308528", "company": None}, [("nct", "NCT01308528")]),
        ({"product_code": "", "fei_number": None}, []),
        ({"fei_number": 3011152407}, [("fei", "3011152407")]),
        ({"bla_number": "125514"}, [("application", "BLA 125514")]),
        ({"pma_number": "P170019/S012"}, [("pma", "P170019/S012")]),
        ({"fei_number": True}, []),
    ],
)
def test_catalog_fields_read_as_identifiers(
    fields: dict[str, object], expected: list[tuple[str, str]]
) -> None:
    assert [(i.kind, i.value) for i in ids.field_identifiers(fields)] == expected


# Variants of one firm's name found in the catalog fields of the real corpus, with their key.
FIRM_VARIANTS = [
    (["Hospira Inc", "Hospira, Inc."], "hospira"),
    (["Amgen Inc.", "Amgen, Inc."], "amgen"),
    (["Alvotech USA Inc.", "Alvotech USA, Inc."], "alvotech usa"),
    (
        ["Takeda Pharmaceuticals U.S.A., Inc.", "Takeda Pharmaceuticals, U.S.A., Inc."],
        "takeda pharmaceuticals usa",
    ),
    (
        [
            "Teva Pharmaceuticals USA",
            "Teva Pharmaceuticals USA Inc.",
            "Teva Pharmaceuticals USA, Inc.",
        ],
        "teva pharmaceuticals usa",
    ),
    (["Fresenius Kabi USA, LLC", " Fresenius Kabi USA LLC"], "fresenius kabi usa"),
    (["United Therapeutics Corp.", "United Therapeutics Corporation"], "united therapeutics"),
    (
        ["scPharmaceuticals Services, Inc", "scPharmaceuticals Services, Inc."],
        "scpharmaceuticals services",
    ),
    (
        [
            "Dr. Reddy’s Laboratories Limited",
            "Dr. Reddy’s Laboratories, Limited",
            "Dr. Reddy's Laboratories Ltd.",
        ],
        "dr reddys laboratories",
    ),
    (["Orphazyme A/S", "Orphazyme A/S (via Orphazyme US Inc.)"], "orphazyme"),
    (["BSO LLC", "BSO LLC dba Belmar Select Outsourcing"], "bso"),
    (["SCA Pharmaceuticals", "SCA Pharmaceuticals, Inc."], "sca pharmaceuticals"),
    (["Pfizer", "Pfizer Inc.", "Pfizer Limited"], "pfizer"),
    (["BECKMAN COULTER, INC.", "Beckman Coulter Inc"], "beckman coulter"),
    (["BIOSITE INCORPORATED", "Biosite, Inc."], "biosite"),
    (["ImClone Systems, L.L .C. ", "ImClone Systems LLC"], "imclone systems"),
    (["Belcher Pharmaceuticals, LLC.", "Belcher Pharmaceuticals"], "belcher pharmaceuticals"),
    (["Imprimis NJOF, -LLC"], "imprimis njof"),
    (["Laboratorios Farmacéuticos ROVI, S.A."], "laboratorios farmaceuticos rovi"),
    (
        ["Chia Tai Tianqing Pharmaceutical Group Co., Ltd."],
        "chia tai tianqing pharmaceutical group",
    ),
    (["Champaklal Maganlal Homeo Pharmacy Private Limited"], "champaklal maganlal homeo pharmacy"),
    (["Zydus Pharmaceuticals Pvt. Ltd."], "zydus pharmaceuticals"),
    (["Recordati S.p.A.", "Recordati SpA"], "recordati"),
    (["Boehringer Ingelheim International GmbH"], "boehringer ingelheim international"),
    (["Brainlab AG"], "brainlab"),
    (["Merck Sharp & Dohme LLC", "Merck Sharp and Dohme, LLC"], "merck sharp and dohme"),
    (["Eli Lilly and Company"], "eli lilly"),
    (["Cyclomedica Australia Pty Ltd."], "cyclomedica australia"),
    (["Xellia Pharmaceuticals, ApS", "c/o Xellia Pharmaceuticals ApS"], "xellia pharmaceuticals"),
    (["RaySearch Laboratories AB (PUBL)"], "raysearch laboratories"),
    (["Mylan Pharmaceuticals Inc., a Viatris Company"], "mylan pharmaceuticals"),
    (["Reckitt Benckiser plc", "BioLife Plasma Services L.P."], None),
    (
        [
            "The American National Red Cross, Cleveland, OH, by telephone on January 31, 2007.",
            "American National Red Cross, Portland, OR, by telephone on February 21, 2008.",
        ],
        "american national red cross",
    ),
    (
        [
            "Recalling Firm: Sandoz Inc., Broomfield, CO, by letter dated March 22, 2012.",
            "Sandoz Inc.",
        ],
        "sandoz",
    ),
    (["Nestle Professional, Cleveland OH, by letter on March 7, 2010."], "nestle professional"),
]


@pytest.mark.parametrize(("names", "key"), FIRM_VARIANTS)
def test_the_variants_of_a_firms_name_share_one_key(names: list[str], key: str | None) -> None:
    keys = {ids.firm_key(name) for name in names}
    if key is None:
        assert keys == {"reckitt benckiser", "biolife plasma services"}
    else:
        assert keys == {key}


@pytest.mark.parametrize(
    ("name", "names"),
    [
        ("Nubratori, Inc dba Nubratori Rx", ["nubratori", "nubratori rx"]),
        ("A Chem Rx, LLC dba Cortez Drugs", ["a chem rx", "cortez drugs"]),
        ("Novel Laboratories, Inc. d.b.a LUPIN", ["novel laboratories", "lupin"]),
        ("3B Medical, Inc. (d.b.a. React Health, Inc.)", ["3b medical", "react health"]),
        (
            "Harris Teeter Inc., d/b/a Hunter Farms, High Point, NC.",
            ["harris teeter", "hunter farms"],
        ),
        (
            "Empower Clinic Services Llc Dba Empower Pharmacy",
            ["empower clinic services", "empower pharmacy"],
        ),
        ("Acme Foods, doing business as Acme Kitchen", ["acme foods", "acme kitchen"]),
        ("Hospira, Inc.", ["hospira"]),
        ("", []),
    ],
)
def test_firm_names_give_the_legal_name_then_the_dba_names(name: str, names: list[str]) -> None:
    assert ids.firm_names(name) == names
    assert ids.firm_key(name) == (names[0] if names else "")


@pytest.mark.parametrize(
    "name", ["The Feinstein Institute for Medical Research", "Therakind Limited", "Co"]
)
def test_a_key_keeps_what_is_not_a_suffix(name: str) -> None:
    assert ids.firm_key(name) in {"feinstein institute for medical research", "therakind", "co"}


@pytest.mark.parametrize(
    ("text", "is_address"),
    [
        ("Cary, NC 27518", True),
        ("Lake Forest, IL 60045", True),
        ("St. Augustine, FL 32095", True),
        ("Redwood City, CA 94063", True),
        ("Rockville, MD 20857-0001", True),
        ("123 Main Street", True),
        ("8500 Hidden River Parkway", True),
        ("103 Beaver Court, Suite 4", True),
        ("P.O. Box 12", True),
        ("Hospira, Inc.", False),
        ("3M Health Care (Infection Prevention Division)", False),
        ("Nathan Kline Institute for Psychiatric Research", False),
        ("University of California, San Francisco", False),
        ("Merck KGaA, Darmstadt, Germany", False),
        ("US-MERCK-0304USA00739", False),
    ],
)
def test_looks_like_address(text: str, is_address: bool) -> None:
    assert ids.looks_like_address(text) is is_address
