"""The place of a firm as data (`Place`), a place named in free text (`PlaceSpan`), and the
codes of countries and subdivisions by their names (`country_code`, `state_code`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import pycountry

from regnb.documents._gazetteer import City, gazetteer, key

__all__ = [
    "Place",
    "PlaceKind",
    "PlaceSpan",
    "city_alone",
    "country_code",
    "country_place",
    "listed_cities",
    "state_code",
    "state_names",
]

PlaceKind = Literal["country", "state", "city", "demonym", "relative", "region"]


@dataclass(frozen=True)
class Place:
    """Where a firm is: country (ISO 3166-1 alpha-2), state (subdivision code without the
    country: "TX", "ON", "TS", "GD"; US territories are US states here), city (as the place
    lists write it, or as the document does). Any part may be unknown."""

    country: str | None
    state: str | None = None
    city: str | None = None

    @property
    def subdivision(self) -> str | None:
        """The ISO 3166-2 code ("US-TX"), where the state is known."""
        return f"{self.country}-{self.state}" if self.country and self.state else None

    def as_fields(self) -> dict[str, str]:
        """The known parts as document fields: `country`, `state`, `city`."""
        parts = {"country": self.country, "state": self.state, "city": self.city}
        return {name: value for name, value in parts.items() if value}

    def within(self, other: Place) -> bool:
        """Whether this place lies in `other`, as far as `other` says (a firm in Houston, TX lies
        in Place("US") and in Place("US", "TX"))."""
        if other.country and other.country != self.country:
            return False
        if other.state and other.state != self.state:
            return False
        return not other.city or (self.city is not None and key(self.city) == key(other.city))

    def __str__(self) -> str:
        return ", ".join(part for part in (self.city, self.state, self.country) if part)

    @property
    def name(self) -> str:
        """The place in words, its narrowest part named: "Houston", "California", "India",
        "the United States"."""
        if self.city:
            return self.city
        if self.subdivision:
            found = pycountry.subdivisions.get(code=self.subdivision)  # type: ignore[no-untyped-call]
            if found is not None:
                return str(found.name)
        if self.country == "US":
            return "the United States"
        country = pycountry.countries.get(alpha_2=self.country) if self.country else None
        if country is not None:
            return str(getattr(country, "common_name", country.name))
        return str(self)

    @property
    def code(self) -> str:
        """The place in one string, as plans and query items carry it: "US", "US-NJ",
        "US-TX:Houston", "IN:Hyderabad" (`Place.from_code` reads it back)."""
        head = f"{self.country or ''}-{self.state}" if self.state else (self.country or "")
        return f"{head}:{self.city}" if self.city else head

    @classmethod
    def from_code(cls, code: str) -> Place:
        """The place a `code` names."""
        head, _, city = code.partition(":")
        country, _, state = head.partition("-")
        return cls(country or None, state or None, city or None)


@dataclass(frozen=True)
class PlaceSpan:
    """A place named in free text: where (`start`, `end`, `text`), which (`place`), what kind of
    name it was, whether the text leaves it out ("outside the US": `exclude`), and whether the
    words after it name firms ("Chinese API makers", not "Chinese medicine")."""

    start: int
    end: int
    text: str
    place: Place
    kind: PlaceKind
    exclude: bool = False
    qualifies_firm_words: bool = False


def country_place(name: str) -> tuple[str, str | None] | None:
    """The country (and, for a US territory, the state) named by a name, common name, alias
    ("P.R. China", "Republic of Korea", "UK") or ISO code ("DE", "DEU", "PR")."""
    name = name.strip()
    if name.isupper() and name.isalpha() and len(name) in (2, 3):
        if len(name) == 2:
            found = pycountry.countries.get(alpha_2=name)
        else:
            found = pycountry.countries.get(alpha_3=name)
        if found is not None:
            return gazetteer().country(found.name) or (found.alpha_2, None)
    return gazetteer().country(name)


def country_code(name: str) -> str | None:
    """The ISO alpha-2 code of a country named by name, common name, alias ("P.R. China",
    "Republic of Korea", "UK") or ISO code; "US" for a US territory."""
    place = country_place(name)
    return place[0] if place else None


def state_code(name: str, country: str = "US") -> str | None:
    """The subdivision code (without the country: "TX") of a state, province or territory of
    `country`, named or by its code."""
    name = name.strip()
    gaz = gazetteer()
    if len(name) <= 3 and name.upper() in gaz.subdivision_codes.get(country, ()):
        return name.upper()
    if country == "US":
        territory = gaz.country(name)
        if territory and territory[0] == "US" and territory[1]:
            return territory[1]
    k = key(name)
    return gaz.states.get(k, {}).get(country) or gaz.regions.get(k, {}).get(country)


def listed_cities(name: str, country: str | None, state: str | None) -> tuple[City, ...]:
    """The listed cities called `name` in the country (and state, where known)."""
    cities = gazetteer().in_country(name, country)
    return tuple(c for c in cities if state is None or c.state in (None, state))


def city_alone(name: str, hints: set[str] | frozenset[str] = frozenset()) -> Place | None:
    """The place of a city named without state or country: among its namesakes, those of a
    hinted country, else a US one, else the most populous."""
    namesakes = gazetteer().in_country(name, None)
    if hints:
        namesakes = tuple(c for c in namesakes if c.country in hints)
    us = [c for c in namesakes if c.country == "US"]
    best = us[0] if us else namesakes[0] if namesakes else None
    return Place(best.country, best.state, best.name) if best else None


def state_names(country: str) -> dict[str, str]:
    """The names of a country's states, provinces and territories by their codes ("TX":
    "Texas"), as pycountry lists them."""
    found = pycountry.subdivisions.get(country_code=country)  # type: ignore[no-untyped-call]
    return {sub.code.split("-", 1)[1]: str(sub.name) for sub in found or ()}
