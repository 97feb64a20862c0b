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
