"""regnb.documents.places: a firm's place read from its address or fields, and the places a
question names. Table-driven: invented address strings and questions for the edge cases, and a
table of real documents (`../shared/data/realcorpus`, read at test time, skipped without it) named
by a stable field, with the place each one's text gives, checked by hand."""

from __future__ import annotations

import functools
import gzip
import json
import unicodedata
from typing import Any

import pytest

from regnb.documents.places import (
    FIRM_WORDS,
    Place,
    PlaceSpan,
    address_place,
    country_code,
    fields_place,
    find_places,
    state_code,
)
from tests import paths


def _plain(text: str | None) -> str | None:
    """A city's name without accents or case, as the tables write it ("Hachioji")."""
    if text is None:
        return None
    return "".join(
        c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c)
    ).casefold()


def _same(found: Place | None, expected: Place | None) -> bool:
    if found is None or expected is None:
        return found is expected
    return (found.country, found.state, _plain(found.city)) == (
        expected.country,
        expected.state,
        _plain(expected.city),
    )


# ---------------------------------------------------------------------------------------------
# Invented addresses


@pytest.mark.parametrize(
    ("text", "firm", "expected"),
    [
        # US blocks
        ("Houston, TX 77001", None, Place("US", "TX", "Houston")),
        ("1234 Main Street\nHouston, Texas 77001-1234", None, Place("US", "TX", "Houston")),
        ("P.O. Box 1156\nNewark, CA 94560", None, Place("US", "CA", "Newark")),
        ("PO Box 850929\nBraintree, MA 02185", None, Place("US", "MA", "Braintree")),
        (
            "7601 N Sam Houston Pkwy W Ste 100, Houston, TX 77064",
            None,
            Place("US", "TX", "Houston"),
        ),
        ("381 Van Ness Avenue, Suite 1507 Torrance, CA 90501", None, Place("US", "CA", "Torrance")),
        (
            "Acme Compounding LLC\ndba Acme Pharmacy\n200 Oak Ave, Suite 5\nAustin, TX 78701",
            None,
            Place("US", "TX", "Austin"),
        ),
        ("750 Corporate Drive\nBridgewater NJ 08807", None, Place("US", "NJ", "Bridgewater")),
        ("221 Gale Lane, Kennett Square, PA 19348", None, Place("US", "PA", "Kennett Square")),
        (
            "21925 West Field Parkway, Suite 235\nDeer Park, IL 60010",
            None,
            Place("US", "IL", "Deer Park"),
        ),
        ("810 Seventh Avenue\nNEW YORK, NY 10019", None, Place("US", "NY", "New York City")),
        ("Road 357, Km 0.8, Maricao, PR 00606", None, Place("US", "PR", "Maricao")),
        ("Calle A, Lote 3, Gurabo, Puerto Rico 00778-2037", None, Place("US", "PR", "Gurabo")),
        ("Smiling Hara Tempeh LLC, Candler, NC, via Facebook", None, Place("US", "NC", "Candler")),
        (
            "2001 Pennsylvania Avenue, NW, Suite 950\nWashington, DC 20006",
            None,
            Place("US", "DC", "Washington"),
        ),
        # a sentence of a warning letter
        (
            "During an inspection of your firm located in Irvine, CA from June 9, 2025",
            None,
            Place("US", "CA", "Irvine"),
        ),
        (
            "your dairy operation located at 27231 83rd Street, Pierz, Minnesota. This letter",
            None,
            Place("US", "MN", "Pierz"),
        ),
        (
            "inspected your facility, Acme, FEI 1234567, at 915 W. Smith Road, Medina, from May 1",
            None,
            Place("US", "OH", "Medina"),
        ),
        (
            "your facility, Acme, FEI 1234567, at 1633 Sands Pl SE. Marietta, from October 15",
            None,
            Place("US", "GA", "Marietta"),
        ),
        (
            "your facility, Acme, FEI 1234567, at 100 Peachtree St, Atlanta, Georgia, from May",
            None,
            Place("US", "GA", "Atlanta"),
        ),
        # foreign blocks
        (
            "Plot No. 5, Phase II, IDA Pashamylaram\nHyderabad 500 032, Telangana, India",
            None,
            Place("IN", "TS", "Hyderabad"),
        ),
        (
            "No. 1 Cailun Road, Zhangjiang Hi-Tech Park\nShanghai 201203, China",
            None,
            Place("CN", "SH", "Shanghai"),
        ),
        (
            "No. 8 Huaxia Road\nTaizhou, Zhejiang 318000\nP.R. China",
            None,
            Place("CN", "ZJ", "Taizhou"),
        ),
        (
            "123 Gongdan-ro, Osong-eup\nCheongju-si, Chungcheongbuk-do 28161\nRepublic of Korea",
            None,
            Place("KR", None, "Cheongju-si"),
        ),
        (
            "No. 22, Kejia Road, Douliu City\nYunlin County 640\nTaiwan, R.O.C.",
            None,
            Place("TW", None, "Douliu"),
        ),
        (
            "Carl-Benz-Strasse 7\n73095 Albershausen\nGermany",
            None,
            Place("DE", None, "Albershausen"),
        ),
        ("Via Roma 12, 20121 Milano, Italy", None, Place("IT", None, "Milan")),
        (
            "5400 Explorer Drive, Mississauga, ON L4W 5N4, Canada",
            None,
            Place("CA", "ON", "Mississauga"),
        ),
        (
            "110 Ronson Drive, Etobicoke, Ontario M9W 1B6, Canada",
            None,
            Place("CA", "ON", "Etobicoke"),
        ),
        ("Av. Industria 200, Guadalajara, Jalisco, Mexico", None, Place("MX", None, "Guadalajara")),
        ("1-2-3 Nihonbashi, Chuo-ku, Tokyo 103-0023, Japan", None, Place("JP", None, "Tokyo")),
        (
            "Survey No. 225/4/1, Silvassa, Dadra and Nagar Haveli and Daman and Diu, India",
            None,
            Place("IN", "DH", "Silvassa"),
        ),
        (
            "During an inspection of your firm located in Tukang Singapore on April 17",
            None,
            Place("SG", None, "Singapore"),
        ),
        (
            "During an inspection of your firm located in Winterthur, Switzerland on June 12",
            None,
            Place("CH", None, "Winterthur"),
        ),
        (
            "your facility, Acme, FEI 1234567, at 5 Rustaveli Ave, Tbilisi, Georgia, from May",
            None,
            Place("GE", None, "Tbilisi"),
        ),
        (
            "your facility, Acme, FEI 1234567, at 16751 Trans-Canada Highway, Kirkland, from May",
            None,
            Place("CA", None, "Kirkland"),
        ),
        (
            "your facility, Acme, FEI 1234567, at Camp Road, Selaqui, Dehradun, from May",
            None,
            Place("IN", None, "Dehradun"),
        ),
        (
            "your facility, Acme, FEI 1234567, at Industrial Park, Xinxiang County, Henan, from May",
            None,
            Place("CN", "HA", "Xinxiang"),
        ),
        # a firm whose name holds a place: the place is the address's
        (
            "Texas Pharma Inc\n500 Elm St\nDenver, CO 80202",
            "Texas Pharma Inc",
            Place("US", "CO", "Denver"),
        ),
        (
            "Shanghai Fosun Pharma USA Inc\n104 Carnegie Center\nPrinceton, NJ 08540",
            "Shanghai Fosun Pharma USA Inc",
            Place("US", "NJ", "Princeton"),
        ),
        (
            "inspected your facility, India Globe Pharma Ltd., FEI 12345, located at the above address, between May 1",
            "India Globe Pharma Ltd.",
            None,
        ),
        (
            "Canada Drugs Online Ltd.\n24 Main Street\nDoral, FL 33172",
            "Canada Drugs Online Ltd.",
            Place("US", "FL", "Doral"),
        ),
        # OCR of a Form FDA 483
        (
            "CITY, STATE AND ZIP CODE TYPE OF ESTABLISHMENT INSPECTED ouston, TX 77054 Producer",
            None,
            Place("US", "TX", "Houston"),
        ),
        (
            "Y, STATE AND ZIP CODE TYPE OF ESTABLISHMENT INSPECTED ttle Rock, AR 72205-4600 Outsourcing",
            None,
            Place("US", "AR", "Little Rock"),
        ),
        (
            "ITY, STATE AND ZIP CODE 3edminster, NJ 07921-2605  TYPE OF ESTABLISHMENT",
            None,
            Place("US", "NJ", "Bedminster"),
        ),
        (
            "C ITY. STATE. Z IP CODE. COUITTRY\n\nEgg Harbor Townshi p , NJ 0823 4-774 9\n",
            None,
            Place("US", "NJ", "Egg Harbor Township"),
        ),
        # FDA's own offices, US agents, other people's places
        (
            "DEPARTMENT OF HEALTH AND HUMAN SERVICES\nFood and Drug Administration\n10903 New Hampshire Avenue\n"
            "Silver Spring, MD 20993\n\nAcme Labs Inc.\n12 Elm St\nBoise, ID 83702\n\nDear Ms. Roe:",
            None,
            Place("US", "ID", "Boise"),
        ),
        (
            "D ISTRICT ADDRESS AND PHONE NUMBER\n\nDATE(S) OF INSPECTION\n\n10 Waterview Blvd., 3rd Floor\n"
            "Parsippany, NJ 07054\n\nFIRM NAME\nAcme\nSTREET ADDRESS\n1 Main St\n"
            "CITY, STATE, ZIP CODE, COUNTRY\nTrenton, NJ 08608",
            None,
            Place("US", "NJ", "Trenton"),
        ),
        (
            "Acme GmbH\nc/o US Agent Services LLC\n100 Main St\nWilmington, DE 19801\n\nDear Mr. Roe:",
            None,
            None,
        ),
        (
            "This IV bag was shipped from your clinic to a patient located in California on 09/30/2020.",
            None,
            None,
        ),
        ("Signed,\nJane Roe, MD, Director", None, None),
        ("City: EDISON\nState: NJ\nCountry: US", None, Place("US", "NJ", "Edison")),
    ],
)
def test_address_place_reads_the_firms_address(
    text: str, firm: str | None, expected: Place | None
) -> None:
    found = address_place(text, firm)
    assert _same(found, expected), found


@pytest.mark.parametrize(
    ("record", "expected"),
    [
        (
            {"city": "Jacksonville", "state": "FL", "country": "United States"},
            Place("US", "FL", "Jacksonville"),
        ),
        (
            {
                "manufacturer_city": "EDISON",
                "manufacturer_state": "NJ",
                "manufacturer_country": "US",
            },
            Place("US", "NJ", "Edison"),
        ),
        ({"state": "California"}, Place("US", "CA")),
        ({"city": "Mumbai", "country_code": "IN"}, Place("IN", None, "Mumbai")),
        (
            {"city": "San Juan", "state": "PR", "country": "United States"},
            Place("US", "PR", "San Juan"),
        ),
        ({"city": "Humacao", "country": "Puerto Rico"}, Place("US", "PR", "Humacao")),
        ({"city": "Humacao", "country": "PR"}, Place("US", "PR", "Humacao")),
        ({"country": "Korea, Republic of"}, Place("KR")),
        ({"state": "Ontario"}, Place("CA", "ON")),
        ({"state": "Telangana", "country": "India"}, Place("IN", "TS")),
        (
            {"recalling_firm": "M.E. Thompson Inc., Jacksonville, FL, by press release"},
            Place("US", "FL", "Jacksonville"),
        ),
        (
            {"facility_address": "Plot 5, Hyderabad 500 032, Telangana, India"},
            Place("IN", "TS", "Hyderabad"),
        ),
        ({"city": "*", "state": "", "country": None}, None),
        ({"country": "Atlantis"}, None),
        ({"company": "Texas Pharma Inc"}, None),
        ({}, None),
    ],
)
def test_fields_place_reads_structured_fields(
    record: dict[str, Any], expected: Place | None
) -> None:
    found = fields_place(record)
    assert _same(found, expected), found


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("India", "IN"),
        ("P.R. China", "CN"),
        ("People's Republic of China", "CN"),
        ("Republic of Korea", "KR"),
        ("South Korea", "KR"),
        ("Korea", "KR"),
        ("Taiwan, R.O.C.", "TW"),
        ("Taiwan", "TW"),
        ("USA", "US"),
        ("U.S.A.", "US"),
        ("United States of America", "US"),
        ("UK", "GB"),
        ("England", "GB"),
        ("Viet Nam", "VN"),
        ("Vietnam", "VN"),
        ("Türkiye", "TR"),
        ("Turkey", "TR"),
        ("Czech Republic", "CZ"),
        ("Holland", "NL"),
        ("DEU", "DE"),
        ("DE", "DE"),
        ("Puerto Rico", "US"),
        ("PR", "US"),
        ("Côte d'Ivoire", "CI"),
        ("Atlantis", None),
    ],
)
def test_country_code_knows_names_aliases_and_codes(name: str, expected: str | None) -> None:
    assert country_code(name) == expected


@pytest.mark.parametrize(
    ("name", "country", "expected"),
    [
        ("Texas", "US", "TX"),
        ("TX", "US", "TX"),
        ("tx", "US", "TX"),
        ("Puerto Rico", "US", "PR"),
        ("District of Columbia", "US", "DC"),
        ("Telangana", "IN", "TS"),
        ("Orissa", "IN", "OD"),
        ("Guangdong", "CN", "GD"),
        ("Guangdong Sheng", "CN", "GD"),
        ("Inner Mongolia", "CN", "NM"),
        ("Quebec", "CA", "QC"),
        ("Québec", "CA", "QC"),
        ("ON", "CA", "ON"),
        ("Bayern", "DE", "BY"),
        ("Texas", "CA", None),
        ("Nowhere", "US", None),
    ],
)
def test_state_code_knows_subdivisions(name: str, country: str, expected: str | None) -> None:
    assert state_code(name, country) == expected


def test_a_place_as_fields_and_as_iso_code() -> None:
    place = Place("US", "TX", "Houston")
    assert place.as_fields() == {"country": "US", "state": "TX", "city": "Houston"}
    assert Place("IN").as_fields() == {"country": "IN"}
    assert place.subdivision == "US-TX" and Place("IN").subdivision is None
    assert str(place) == "Houston, TX, US"


@pytest.mark.parametrize(
    ("place", "region", "inside"),
    [
        (Place("US", "TX", "Houston"), Place("US"), True),
        (Place("US", "TX", "Houston"), Place("US", "TX"), True),
        (Place("US", "TX", "Houston"), Place("US", "TX", "houston"), True),
        (Place("JP", None, "Hachiōji"), Place("JP", None, "Hachioji"), True),
        (Place("US", "TX", "Houston"), Place("US", "CA"), False),
        (Place("US", "TX", None), Place("US", "TX", "Houston"), False),
        (Place("IN", "TS", "Hyderabad"), Place("US"), False),
    ],
)
def test_a_place_lies_within_a_coarser_one(place: Place, region: Place, inside: bool) -> None:
    assert place.within(region) is inside


# ---------------------------------------------------------------------------------------------
# Places in a question: (question, [(span text, kind, place, exclude, firm words)])

Span = tuple[str, str, Place, bool, bool]


def _spans(question: str) -> list[Span]:
    return [
        (s.text, s.kind, s.place, s.exclude, s.qualifies_firm_words) for s in find_places(question)
    ]


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("firms in Houston", [("Houston", "city", Place("US", "TX", "Houston"), False, True)]),
        ("Indian API makers", [("Indian", "demonym", Place("IN"), False, True)]),
        ("Chinese API manufacturers in 2024", [("Chinese", "demonym", Place("CN"), False, True)]),
        ("Chinese medicine", [("Chinese", "demonym", Place("CN"), False, False)]),
        ("Korean firms", [("Korean", "demonym", Place("KR"), False, True)]),
        ("German sites", [("German", "demonym", Place("DE"), False, True)]),
        ("Swiss plants", [("Swiss", "demonym", Place("CH"), False, True)]),
        ("Polish compounders", [("Polish", "demonym", Place("PL"), False, True)]),
        ("polish the surfaces", []),
        (
            "outside the United States",
            [("outside the United States", "relative", Place("US"), True, False)],
        ),
        ("sites outside the US", [("outside the US", "relative", Place("US"), True, False)]),
        ("non-US sites", [("non-US", "relative", Place("US"), True, True)]),
        ("ex-US manufacturers", [("ex-US", "relative", Place("US"), True, True)]),
        ("foreign manufacturers", [("foreign", "relative", Place("US"), True, True)]),
        ("overseas plants", [("overseas", "relative", Place("US"), True, True)]),
        ("domestic compounders", [("domestic", "relative", Place("US"), False, True)]),
        ("US-based compounders", [("US-based", "relative", Place("US"), False, True)]),
        ("let us know", []),
        ("New Jersey compounders", [("New Jersey", "state", Place("US", "NJ"), False, True)]),
        ("new jersey compounders", [("new jersey", "state", Place("US", "NJ"), False, True)]),
        ("a plant in Puerto Rico", [("Puerto Rico", "state", Place("US", "PR"), False, True)]),
        ("Ireland-based firms", [("Ireland", "country", Place("IE"), False, True)]),
        ("firms in OH", [("OH", "state", Place("US", "OH"), False, True)]),
        ("oh, and the recalls", []),
        ("IN OR OK", []),
        ("TX firms", [("TX", "state", Place("US", "TX"), False, True)]),
        ("Georgia", [("Georgia", "state", Place("US", "GA"), False, False)]),
        ("plants in the country of Georgia", [("Georgia", "country", Place("GE"), False, False)]),
        (
            "Tbilisi, Georgia",
            [("Tbilisi, Georgia", "city", Place("GE", None, "Tbilisi"), False, False)],
        ),
        ("Jordan", [("Jordan", "country", Place("JO"), False, False)]),
        ("Victoria", [("Victoria", "city", Place(None, None, "Victoria"), False, False)]),
        ("Springfield", [("Springfield", "city", Place("US", None, "Springfield"), False, False)]),
        ("Hyderabad", [("Hyderabad", "city", Place("IN", None, "Hyderabad"), False, False)]),
        ("firms in Dublin, OH", [("Dublin, OH", "city", Place("US", "OH", "Dublin"), False, True)]),
        ("firms in Dublin", [("Dublin", "city", Place("IE", None, "Dublin"), False, True)]),
        (
            "Kennett Square, PA firms",
            [("Kennett Square, PA", "city", Place("US", "PA", "Kennett Square"), False, True)],
        ),
        ("firms in san juan", [("san juan", "city", Place("US", "PR", "San Juan"), False, True)]),
        ("New Delhi", [("New Delhi", "city", Place("IN", None, "New Delhi"), False, False)]),
        (
            "Mexico City plants",
            [("Mexico City", "city", Place("MX", None, "Mexico City"), False, True)],
        ),
        ("New Mexico", [("New Mexico", "state", Place("US", "NM"), False, False)]),
        ("Gujarat plants", [("Gujarat", "state", Place("IN", "GJ"), False, True)]),
        ("Telangana", [("Telangana", "state", Place("IN", "TS"), False, False)]),
        ("Guangdong suppliers", [("Guangdong", "state", Place("CN", "GD"), False, True)]),
        ("Ontario", [("Ontario", "state", Place("CA", "ON"), False, False)]),
        ("Republic of Korea", [("Republic of Korea", "country", Place("KR"), False, False)]),
        ("P.R. China", [("P.R. China", "country", Place("CN"), False, False)]),
        ("firms from the UK", [("UK", "country", Place("GB"), False, False)]),
        ("turkey sandwiches", []),
        ("Reading the letters", []),
        ("Mobile app recalls", []),
        ("Why did FDA not approve ANDA 200553?", []),  # an abbreviation, not the town Anda
        ("Plants in Anda", [("Anda", "city", Place("CN", None, "Anda"), False, True)]),
        (
            "Indian or Chinese API makers outside the US",
            [
                ("Indian", "demonym", Place("IN"), False, False),
                ("Chinese", "demonym", Place("CN"), False, True),
                ("outside the US", "relative", Place("US"), True, False),
            ],
        ),
        (
            "warning letters to compounders in Texas and Florida",
            [
                ("Texas", "state", Place("US", "TX"), False, True),
                ("Florida", "state", Place("US", "FL"), False, False),
            ],
        ),
    ],
)
def test_find_places_in_a_question(question: str, expected: list[Span]) -> None:
    assert _spans(question) == expected


def test_a_span_gives_its_offsets_in_the_question() -> None:
    question = "483s for Indian API makers"
    (span,) = find_places(question)
    assert isinstance(span, PlaceSpan)
    assert question[span.start : span.end] == span.text == "Indian"


def test_firm_words_are_plain_lowercase_words() -> None:
    assert {"makers", "manufacturers", "compounders", "pharmacies"} <= FIRM_WORDS
    assert all(word == word.lower() and " " not in word for word in FIRM_WORDS)


# ---------------------------------------------------------------------------------------------
# Real documents: each named by a stable field of its dataset's file, with the place its first
# page gives (a CRL's first two pages: the first is a cover). Checked by hand against the text.

REALCORPUS = paths.SHARED_DATA / "realcorpus"
WL = "fda_warning_letters__jev"
F483 = "fda_483__ncruickshank"
CRL = "fda_crl__gmpkit"
RECALLS = "fda_recall_enforcement__openfda-fixture"


@functools.cache
def _documents(dataset: str) -> tuple[dict[str, Any], ...]:
    with gzip.open(REALCORPUS / f"{dataset}.jsonl.gz", "rt", encoding="utf-8") as f:
        return tuple(json.loads(line) for line in f)


def _document(dataset: str, field: str, value: str) -> dict[str, Any]:
    found = [d for d in _documents(dataset) if d.get(field) == value]
    assert len(found) == 1, f"{dataset}: {len(found)} documents with {field}={value!r}"
    return found[0]


def _first_page(dataset: str, document: dict[str, Any]) -> str:
    return "\n".join(document["pages"][: 2 if dataset == CRL else 1])


@pytest.fixture(scope="module")
def realcorpus() -> None:
    if not REALCORPUS.exists():
        pytest.skip(f"real corpus not found at {REALCORPUS}")


def _real(
    dataset: str, field: str, value: str, place: Place | None, *, miss: str | None = None
) -> Any:
    """A case of the table; `miss`: why `address_place` gets it wrong (a strict xfail)."""
    marks = [pytest.mark.xfail(reason=miss, strict=True)] if miss else []
    return pytest.param(
        dataset, field, value, place, marks=marks, id=f"{dataset[:6]}-{value[-40:]}"
    )


REAL_ADDRESSES = [
    _real(WL, "letter_id", "722046", Place("US", "CA", "Alameda")),
    _real(WL, "letter_id", "640946", Place("CA", None, "Ottawa")),
    _real(WL, "letter_id", "696872", Place("US", "FL", "Hollywood")),
    _real(WL, "letter_id", "727610", Place("US", "MN", "Pierz")),
    _real(WL, "letter_id", "668948", Place("CH", None, "Winterthur")),
    _real(WL, "letter_id", "681557", Place("US", "NY", "Brooklyn")),
    _real(WL, "letter_id", "646460", Place("US", "AZ", "Phoenix")),
    _real(WL, "letter_id", "698115", Place("US", "VA", "Lorton")),
    _real(WL, "letter_id", "698661", Place("US", "CA", "Riverside")),
    _real(WL, "letter_id", "715955", Place("US", "MO", "Columbia")),
    _real(WL, "letter_id", "728184", Place("US", "UT", "North Salt Lake")),
    _real(WL, "letter_id", "693399", Place("US", "GA", "Kennesaw")),
    _real(WL, "letter_id", "717972", Place("US", "NC", "Cary")),
    _real(WL, "letter_id", "730694", Place("IN", None, "Bengaluru")),
    _real(WL, "title", "Warning Letter: Bausch & Lomb Inc. (732398)", Place("US", "FL", "Tampa")),
    _real(WL, "title", "Warning Letter: Bausch Lomb Inc (732398)", Place("US", "FL", "Tampa")),
    _real(WL, "letter_id", "654136", Place("IN", None, "Ahmedabad")),
    _real(WL, "title", "Warning Letter: Berkeley Biologics, LLC", Place("US", "CA", "Richmond")),
    _real(WL, "letter_id", "729483", Place("IN", "KA", "Bengaluru")),
    _real(WL, "letter_id", "725759", Place("US", "OH", "Dublin")),
    _real(WL, "letter_id", "662943", Place("SG", None, "Singapore")),
    _real(WL, "letter_id", "717525", Place("US", "PA", "Kennett Square")),
    _real(WL, "letter_id", "660268", Place("US", "WI", "Menomonee Falls")),
    _real(WL, "letter_id", "714784", Place("US", "AZ", "Glendale")),
    _real(WL, "letter_id", "659408", Place("US", "SC", "Ridgeland")),
    _real(WL, "letter_id", "722729", Place("US", "TX", "El Paso")),
    _real(WL, "letter_id", "652319", Place("IN", "GJ", "Ahmedabad")),
    _real(WL, "letter_id", "722459", Place("US", "TX", "Dallas")),
    _real(WL, "letter_id", "701209", Place("US", "GA", "Marietta")),
    _real(WL, "letter_id", "678300", Place("KR", None, "Cheonan")),
    _real(WL, "letter_id", "729293", Place("US", "WI", "Dorchester")),
    _real(WL, "letter_id", "728828", Place("IN", "DH", "Silvassa")),
    _real(WL, "letter_id", "657340", Place("US", "NY", "The Bronx")),
    _real(WL, "letter_id", "677928", Place("CN", "ZJ", "Huzhou")),
    _real(WL, "letter_id", "700964", Place("US", "TX", "Houston")),
    _real(WL, "letter_id", "700962", Place("US", "TX", "Houston")),
    _real(WL, "letter_id", "706565", Place("US", "MN", "Plymouth")),
    _real(WL, "letter_id", "674090", Place("CA", "ON", "Etobicoke")),
    _real(WL, "letter_id", "722845", Place("US", "FL", "Cutler Bay")),
    _real(WL, "letter_id", "657085", Place("US", "PR", "Maricao")),
    _real(WL, "letter_id", "658733", Place("US", "CA", "Newark")),
    _real(WL, "letter_id", "698861", Place("US", "KS", "Wichita")),
    _real(WL, "letter_id", "730319", Place("US", "UT", "Ogden")),
    _real(WL, "letter_id", "647393", Place("US", "PR", "Gurabo")),
    _real(WL, "letter_id", "679744", Place("US", "CA", "Anaheim")),
    _real(WL, "letter_id", "665472", Place("MX", None, "Zapopan")),
    _real(WL, "letter_id", "721755", Place("IN", "MH", "Navi Mumbai")),
    _real(WL, "letter_id", "729065", Place("US", "NY", "New York City")),
    _real(
        WL,
        "title",
        "Warning Letter: H2 BEV, LLC and H2 RENU, INC (730567)",
        Place("US", "TX", "Allen"),
    ),
    _real(WL, "letter_id", "675823", Place("CN", "GD", "Foshan")),
    _real(
        WL,
        "title",
        "Warning Letter: H2 Bev Llc And H2 Renu Inc (730567)",
        Place("US", "TX", "Plano"),
    ),
    _real(WL, "letter_id", "688656", Place("US", "FL", "Lauderhill")),
    _real(WL, "letter_id", "722497", Place("CN", "HA", "Xinxiang")),
    _real(WL, "letter_id", "640206", Place("US", "AZ", "Sedona")),
    _real(WL, "letter_id", "719074", Place("US", "OR", "Lake Oswego")),
    _real(WL, "letter_id", "657453", Place("US", "NJ", "Ledgewood")),
    _real(WL, "letter_id", "687936", Place("US", "CA", "San Diego")),
    _real(WL, "letter_id", "676562", Place("CN", "JS", "Nantong")),
    _real(WL, "letter_id", "720213", Place("US", "TN", "Woodbury")),
    _real(WL, "letter_id", "720707", Place("CN", "ZJ", "Hangzhou")),
    _real(WL, "letter_id", "721151", Place("IN", None, "Dehradun")),
    _real(WL, "letter_id", "652067", Place("IN", None, "Sānand")),
    _real(WL, "letter_id", "723537", Place("CA", None, "Kirkland")),
    _real(WL, "letter_id", "734643", Place("US", "MO", "St. Louis")),
    _real(WL, "letter_id", "725939", Place("MX", None, "Guadalajara")),
    _real(WL, "letter_id", "724347", Place("US", "IL", "Waukegan")),
    _real(WL, "letter_id", "725130", Place("US", "GA", "Roswell")),
    _real(WL, "letter_id", "724745", Place("US", "AZ", "Goodyear")),
    _real(WL, "letter_id", "719302", Place("US", "NY", "Bohemia")),
    _real(WL, "letter_id", "727803", Place("US", "CA", "Irvine")),
    _real(WL, "letter_id", "700513", Place("US", "CA", "Torrance")),
    _real(WL, "letter_id", "722113", Place("US", "IL", "Elgin")),
    _real(WL, "letter_id", "732874", Place("US", "PA", "Lewisberry")),
    _real(WL, "letter_id", "723021", Place("US", "NY", "Phoenix")),
    _real(WL, "letter_id", "701889", Place("US", "MT", "Missoula")),
    _real(WL, "letter_id", "726330", Place("US", "AZ", "Scottsdale")),
    _real(WL, "letter_id", "722877", Place("US", "OH", "Lowellville")),
    _real(WL, "letter_id", "730801", Place("IN", "MH", "Navi Mumbai")),
    _real(WL, "letter_id", "719705", Place("CZ", None, "Brno")),
    _real(WL, "letter_id", "720800", Place("US", "IA", "Iowa City")),
    _real(WL, "letter_id", "730520", Place("US", "NJ", "Dayton")),
    _real(WL, "letter_id", "724931", Place("CA", "ON", "Aylmer")),
    _real(WL, "letter_id", "723059", Place("JP", None, "Hachiōji")),
    _real(WL, "letter_id", "734100", Place("IN", "GJ", "Mahesāna")),
    _real(
        WL,
        "letter_id",
        "728508",
        Place("US", "CA", "Sun Valley"),
        miss="Sun Valley, Los Angeles is not in the lists; Sun Valley, NV is",
    ),
    _real(WL, "letter_id", "730122", Place("US", "AZ", "Gilbert")),
    _real(WL, "letter_id", "703497", Place("US", "AZ", "Phoenix")),
    _real(WL, "letter_id", "729018", Place("DE", None, "Albershausen")),
    _real(WL, "letter_id", "719568", Place("US", "CA", "San Francisco")),
    _real(WL, "letter_id", "724245", Place("US", "RI", "Warwick")),
    _real(WL, "letter_id", "719428", Place("MX", None, "Reynosa")),
    _real(WL, "letter_id", "729345", Place("US", "OH", "Medina")),
    _real(WL, "letter_id", "713015", Place("US", "TX", "Houston")),
    _real(WL, "letter_id", "720436", Place("DE", None, "Halle")),
    _real(WL, "letter_id", "731926", Place("US", "MD", "Hyattsville")),
    _real(WL, "letter_id", "727560", Place("US", "CA", "South El Monte")),
    _real(WL, "letter_id", "724551", Place("US", "MA", "Canton")),
    _real(WL, "letter_id", "723330", Place("CN", "HL", "Harbin")),
    _real(WL, "letter_id", "731037", Place("US", "MD", "Cockeysville")),
    _real(WL, "letter_id", "712415", Place("US", "CA", "Los Angeles")),
    _real(WL, "letter_id", "729870", Place("US", "CA", "Pomona")),
    _real(
        WL,
        "letter_id",
        "723680",
        Place("GR", None, "Sapes"),
        miss="the town (Sapes) is not in the lists; the regional unit (Evrou) is read as the city",
    ),
    _real(WL, "letter_id", "699291", Place("US", "NE", "Bennet")),
    _real(WL, "letter_id", "725870", Place("US", "CA", "Pleasant Hill")),
    _real(WL, "letter_id", "718739", Place("US", "FL", "Boca Raton")),
    _real(WL, "letter_id", "723704", Place("US", "PA", "Exton")),
    _real(WL, "letter_id", "717927", Place("US", "CA", "Irvine")),
    _real(WL, "letter_id", "725861", Place("US", "TN", "Brentwood")),
    _real(WL, "letter_id", "718306", Place("US", "CA", "Los Angeles")),
    _real(F483, "title", "FDA Form 483 - Isorx, Corp. (2019-09-18)", Place("US", "CA", "Richmond")),
    _real(
        F483,
        "title",
        "FDA Form 483 - Apex Pharmacy, LLC (2019-11-07)",
        Place("US", "WV", "Beckley"),
    ),
    _real(
        F483,
        "title",
        "FDA Form 483 - SCA Pharmaceuticals, Inc. (2019-11-07)",
        Place("US", "AR", "Little Rock"),
    ),
    _real(
        F483,
        "title",
        "FDA Form 483 - MPRX, Inc. dba Medical Park Pharmacy (2019-11-22)",
        Place("US", "TX", "Dallas"),
    ),
    _real(
        F483,
        "title",
        "FDA Form 483 - Pharmaview Inc dba Far Hills Pharmacy (2019-11-14)",
        Place("US", "NJ", "Bedminster"),
    ),
    _real(
        F483,
        "title",
        "FDA Form 483 - Blount Discount Pharmacy, Inc. (2020-02-13)",
        Place("US", "TN", "Alcoa"),
    ),
    _real(
        F483, "title", "FDA Form 483 - ABC Pharmacy, Inc. (2019-12-20)", Place("US", "CA", "Encino")
    ),
    _real(
        F483,
        "title",
        "FDA Form 483 - Nanobots Healthcare, LLC dba Assurance Infusion (2019-12-03)",
        Place("US", "TX", "Houston"),
    ),
    _real(
        F483,
        "title",
        "FDA Form 483 - A Chem Rx, LLC dba Cortez Drugs (2020-02-07)",
        Place("US", "FL", "Brooksville"),
    ),
    _real(
        F483,
        "title",
        "FDA Form 483 - ImClone Systems, L.L .C.  (2019-11-26)",
        Place("US", "NJ", "Branchburg"),
    ),
    _real(
        F483,
        "title",
        "FDA Form 483 - ImClone Systems, L.L .C.  (2020-08-21)",
        Place("US", "NJ", "Branchburg"),
    ),
    _real(
        F483,
        "title",
        "FDA Form 483 - Vital Care of Dickson, LLC.  (2020-03-11)",
        Place("US", "TN", "Dickson"),
    ),
    _real(
        F483,
        "title",
        "FDA Form 483 - EHT Pharmacy LLC dba Curexa",
        Place("US", "NJ", "Egg Harbor Township"),
    ),
    _real(F483, "title", "FDA Form 483 - Edge Pharma, LLC", Place("US", "VT", "Colchester")),
    _real(
        F483,
        "title",
        "FDA Form 483 - Healthy Choice Compounding LLC",
        Place("US", "NY", "Elmsford"),
    ),
    _real(
        F483,
        "title",
        "FDA Form 483 - Stokes Healthcare Inc. dba Epicur Pharma",
        Place("US", "NJ", "Mount Laurel"),
    ),
    _real(
        CRL,
        "source_path",
        "crl/AbbVie_Inc-NDA_216962-Vyalev-rp0bpi.md",
        Place("US", "NJ", "Madison"),
    ),
    _real(
        CRL,
        "source_path",
        "crl/Agile_Therapeutics_Inc-NDA_204017-levonorgestrelethinyl_estradiol_12030_mcgday_transdermal_contraceptive_delivery_system-29jn1p.md",
        Place("US", "NJ", "Princeton"),
    ),
    _real(
        CRL,
        "source_path",
        "crl/Azurity_Pharmaceuticals_Inc-NDA_214273-Zonisade_zonisamide_oral_suspension_20_mgmL_150_mL_Fill-h0h6s9.md",
        Place("US", "IL", "Deer Park"),
    ),
    _real(
        CRL, "source_path", "crl/BLA 761198_BAT1706_xmqnhe.md", Place("US", "NJ", "Basking Ridge")
    ),
    _real(
        CRL, "source_path", "crl/BLA 761275_MSB11456_pnlwgl.md", Place("US", "IL", "Lake Zurich")
    ),
    _real(
        CRL,
        "source_path",
        "crl/Dr_Reddys_Laboratories_SA-NDA_206966-Xeglyze-9dah2j.md",
        Place("US", "NJ", "Princeton"),
    ),
    _real(
        CRL,
        "source_path",
        "crl/Fabre-Kramer_Pharmaceuticals_Inc-NDA_021164-Gepirone_Hydrochloride_Extended_Release-j5jo29.md",
        Place("US", "TX", "Houston"),
    ),
    _real(
        CRL,
        "source_path",
        "crl/Galephar_Pharmaceutical_Research_Inc-NDA_215040-Legubeti-iep2pk.md",
        Place("US", "PR", "Humacao"),
    ),
    _real(
        CRL,
        "source_path",
        "crl/Impax_Laboratories_LLC-NDA_217186-Crexont-kpg0tc.md",
        Place("US", "NJ", "Bridgewater"),
    ),
    # a PO box before or beside the street; a firm named after the town it is in
    _real(
        CRL,
        "source_path",
        "crl/Braintree_Laboratories_Inc-NDA_213135-SUTAB-algxr2.md",
        Place("US", "MA", "Braintree"),
    ),
    _real(
        CRL,
        "source_path",
        "crl/CMP_Development_LLC-NDA_214439-NORLIQVA_amlodipine_Oral_Solution_1_mgmL-zzaj0w.md",
        Place("US", "NC", "Farmville"),
    ),
    _real(
        CRL,
        "source_path",
        "crl/Novo_Nordisk-BLA_761315-NNC0172-2021-775rte.md",
        Place("US", "NJ", "Plainsboro"),
    ),
    _real(
        CRL,
        "source_path",
        "crl/ViiV_Healthcare_Company-NDA_212887_NDA_212888-VOCABRIA-cfvu5m.md",
        Place("US", "NC", "Research Triangle Park"),
    ),
    # the first page gives no address: a website's review, "located at the above address"
    _real(WL, "letter_id", "669353", None),
    _real(WL, "letter_id", "728681", None),
    _real(WL, "letter_id", "731761", None),
    _real(F483, "title", "FDA Form 483 - Nubratori, Inc dba Nubratori Rx (2019-09-26)", None),
    _real(F483, "title", "FDA Form 483 - AnazaoHealth Corporation (2019-09-19)", None),
    # only FDA's letterhead, and a US agent's address ("c/o"): not the firm's place
    _real(CRL, "source_path", "crl/CELLTRION_Inc-BLA_761091-CT-P6-mbratw.md", None),
    _real(  # "U.S. Agent for Mylan Laboratories Limited, India", then its own PO box
        CRL,
        "source_path",
        "crl/Mylan_Pharmaceuticals_Inc-NDA_204311-Abacavir_and_Lamivudine_Tablets_for_Oral_Suspension_60_mg30_mg-hdmhbh.md",
        None,
    ),
    _real(
        CRL,
        "source_path",
        "crl/Bausch_Health_Ireland_Limited-NDA_211039-fluorescein_sodium_and_benoxinate_hydrochloride_ophthalmic_solution-bf42vh.md",
        None,
    ),
    # what it still gets wrong
    _real(
        WL,
        "letter_id",
        "730469",
        Place("IN", "TS", None),
        miss="page 1 names only 'Kolthur Village'; India and Telangana are in the cc block",
    ),
    _real(
        WL,
        "letter_id",
        "718812",
        Place("IN", "TS", "Hyderabad"),
        miss="'IDA Nacharam, Uppal Mandal, Medchal-Malkajgiri': no country, state or listed city",
    ),
    _real(
        WL,
        "letter_id",
        "724506",
        Place("MO", None, "Macao"),
        miss="a Portuguese street address in Macau that names neither the city nor the country",
    ),
    _real(
        CRL,
        "source_path",
        "crl/Immunomedics_Inc-BLA_761115-sacituzumab_govitecan_powder_for_solution_for_infusion-ocl3pn.md",
        Place("US", "NJ", "Morris Plains"),
        miss="OCR wrote 'MoITis Plains': only a city cut short at its start is mended",
    ),
]


@pytest.mark.shared_data
@pytest.mark.usefixtures("realcorpus")
@pytest.mark.parametrize(("dataset", "field", "value", "expected"), REAL_ADDRESSES)
def test_address_place_of_real_documents(
    dataset: str, field: str, value: str, expected: Place | None
) -> None:
    document = _document(dataset, field, value)
    found = address_place(_first_page(dataset, document), document.get("company"))
    assert _same(found, expected), found


def test_the_real_table_has_sixty_addresses_at_least() -> None:
    addresses = [p for p in REAL_ADDRESSES if p.values[3] is not None and not p.marks]
    assert len(addresses) >= 60
    names = " ".join(str(p.values[2]) for p in addresses).casefold()
    assert " dba " in names and "braintree" in names  # "dba" names; a firm named after a place
    countries = {p.values[3].country for p in addresses}
    assert {"US", "IN", "CN", "KR", "JP", "DE", "CA", "MX", "CH", "CZ", "SG"} <= countries


@pytest.mark.shared_data
@pytest.mark.usefixtures("realcorpus")
def test_most_warning_letters_get_a_place_and_none_gets_fdas_own() -> None:
    places = [address_place(d["pages"][0], d["company"]) for d in _documents(WL)]
    found = [p for p in places if p is not None]
    assert len(found) >= 105, len(found)
    assert not [p for p in found if p.city in ("Silver Spring", "Rockville", "Parsippany")]


@pytest.mark.shared_data
@pytest.mark.usefixtures("realcorpus")
def test_fields_place_of_real_483s_is_their_state() -> None:
    for document in _documents(F483):
        place = fields_place(document)
        if document.get("state"):
            assert place is not None and place.country == "US", document["title"]
            assert place.state == state_code(document["state"]), document["title"]
        else:
            assert place is None


@pytest.mark.shared_data
@pytest.mark.usefixtures("realcorpus")
def test_fields_place_of_real_recalls_reads_the_recalling_firm() -> None:
    places = [fields_place(d) for d in _documents(RECALLS)]
    assert sum(p is not None for p in places) >= 60
    assert {"Toledo", "Indianapolis", "Jacksonville", "Candler"} <= {p.city for p in places if p}
    assert all(p.country == "US" for p in places if p)


@pytest.mark.parametrize(
    ("question", "places"),
    [
        ("Injuries with CT/MR imaging systems", []),  # computed tomography, not Connecticut
        ("MS patients and their infusion pumps", []),  # multiple sclerosis, not Mississippi
        ("483s of compounders in CT", [Place("US", "CT")]),
        ("Stamford, CT firms", [Place("US", "CT", "Stamford")]),
    ],
)
def test_a_state_code_that_is_a_term_of_the_field_is_a_place_only_after_in_or_a_comma(
    question: str, places: list[Place]
) -> None:
    assert [s.place for s in find_places(question)] == places


@pytest.mark.parametrize(
    ("text", "country"),
    [
        ("Any drug firms around Guadalajara (Jalisco)?", "MX"),
        ("plants in Tasmania", "AU"),
    ],
)
def test_another_countrys_region_tells_the_country_and_is_never_a_firm(
    text: str, country: str
) -> None:
    regions = [p for p in find_places(text) if p.kind == "region"]
    assert [p.place for p in regions] == [Place(country)]


@pytest.mark.parametrize(
    "text", ["West Pharmaceutical", "the Lakes Region lab", "North Coast Labs", "jalisco sauce"]
)
def test_a_region_that_is_a_word_or_not_capitalised_is_not_one(text: str) -> None:
    assert all(p.kind != "region" for p in find_places(text))
