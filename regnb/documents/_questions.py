"""Finding the places an analyst's question names: countries and their adjectives, US states,
Canadian provinces, Indian states and Chinese provinces, state codes where they cannot be words,
cities, and the phrases that place firms against the US ("outside the United States")."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from regnb.documents._gazetteer import DEMONYMS, STATE_COUNTRIES, gazetteer, key
from regnb.documents._place import Place, PlaceKind, PlaceSpan, listed_cities

__all__ = ["CITY_MIN_POPULATION", "FIRM_WORDS", "RELATIVE_PHRASES", "find"]


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Short names that are English words too: a question must capitalise them.
# Nouns that make the words before them name firms ("Chinese API makers", not "Chinese medicine").
FIRM_WORDS = _words(
    "maker makers manufacturer manufacturers firm firms facility facilities site sites company"
    " companies supplier suppliers plant plants pharmacy pharmacies compounder compounders"
    " producer producers vendor vendors distributor distributors packer packers labs"
    " laboratory laboratories establishment establishments exporter exporters importer"
    " importers outsourcer outsourcers cmo cmos cdmo cdmos sponsor sponsors applicant applicants"
    " based"
)
# Phrases that place a firm relative to the US: True where they leave the US out.
RELATIVE_PHRASES = {
    "foreign": True,
    "overseas": True,
    "offshore": True,
    "abroad": True,
    "ex us": True,
    "ex u s": True,
    "non us": True,
    "non u s": True,
    "non usa": True,
    "non american": True,
    "outside us": True,
    "outside the us": True,
    "outside the u s": True,
    "outside the usa": True,
    "outside the united states": True,
    "outside of the us": True,
    "outside of the u s": True,
    "outside of the united states": True,
    "domestic": False,
    "us based": False,
    "u s based": False,
    "stateside": False,
}

# Short names that are English words too: a question must capitalise them.
_WORDLIKE_NAMES = _words(
    "turkey guinea chile niger jersey polish mobile reading orange date split nice bath"
)
# Two-letter state codes that are English words or terms of the field ("CT/MR imaging", "MS
# patients"): in a question, only after a comma or "in".
_WORDLIKE_CODES = _words("IN OR ME OK OH HI AS ID DE LA CO AL MA PA MD MO GA NE SC VA CT MS")
# Codes that are an agency more often than a state ("VA hospital pharmacies": Veterans Affairs):
# a state only after a comma ("Richmond, VA").
_AGENCY_CODES = _words("VA")
# Of the cities a question may name by itself, only those this large (smaller ones need a state
# or country after them: "Kennett Square, PA").
CITY_MIN_POPULATION = 100_000
_CITY_ANY_CASE_POPULATION = 1_000_000
_CITY_DOMINANCE = 3.5  # a namesake this many times larger than the next is the city meant


@dataclass(frozen=True)
class _Name:
    """What a name may mean in a question: its kind, place, whether it leaves the place out,
    and (for a city) how many live there."""

    kind: PlaceKind
    place: Place
    exclude: bool = False
    population: int = 0


_KIND_ORDER = {"relative": 0, "state": 1, "country": 2, "demonym": 3, "city": 4, "region": 5}
_REGION_MIN_LETTERS = 5  # a shorter subdivision name is too often a word or a code
# Subdivision names that are words of firms' names and of questions more often than places.
_REGION_WORDS = _words(
    "north south east west northern southern eastern western central centre center coast lakes "
    "delta midlands capital island islands river valley border plateau maritime littoral upper "
    "lower union"
)
_TOKEN = re.compile(r"[^\W_]+")
_GAP_STOP = re.compile(r"[,.;:?!()\[\]\"]")
_STOP = _words("and or in of the that which with for to from by on at who are is was were")
_PREPOSITIONS = _words("in from at near of")
_MAX_WORDS = 8


@functools.cache
def _question_names() -> dict[str, tuple[_Name, ...]]:
    """Every name a question may give a place by, under its key, states first, cities last
    (most populous first)."""
    gaz = gazetteer()
    names: dict[str, list[_Name]] = {}
    for k, exclude in RELATIVE_PHRASES.items():
        names.setdefault(k, []).append(_Name("relative", Place("US"), exclude))
    for k, (country, state) in gaz.countries.items():
        names.setdefault(k, []).append(
            _Name("state" if state else "country", Place(country, state))
        )
    for k, states in gaz.states.items():
        for country in sorted(states, key=STATE_COUNTRIES.index):
            names.setdefault(k, []).append(_Name("state", Place(country, states[country])))
    # another country's first-level subdivision ("Jalisco", "Bavaria") tells only the country:
    # a place, never a firm's name
    for k, countries in gaz.regions.items():
        if k in names or k in _REGION_WORDS:
            continue  # a country, a state or a city of that name is meant first
        if len(countries) == 1 and len(k.replace(" ", "")) >= _REGION_MIN_LETTERS:
            names.setdefault(k, []).append(_Name("region", Place(next(iter(countries)))))
    for k, country in DEMONYMS.items():
        names.setdefault(k, []).append(_Name("demonym", Place(country)))
    for k, cities in gaz.cities.items():
        for c in sorted(cities, key=lambda c: -c.population):
            if c.population >= CITY_MIN_POPULATION:
                place = Place(c.country, c.state, c.name)
                names.setdefault(k, []).append(_Name("city", place, population=c.population))
    return {
        k: tuple(sorted(v, key=lambda n: (_KIND_ORDER[n.kind], -n.population)))
        for k, v in names.items()
    }


def _cased(written: str, k: str, name: _Name) -> bool:
    """Whether a name is written as a place's name: codes in capitals ("US", not "us"), names
    that are words too capitalised ("Turkey"), cities capitalised unless very large."""
    if name.kind == "region":
        return written[:1].isupper()
    if name.kind == "relative":
        return "us" not in k.split() or re.search(r"U\.?S", written) is not None
    if len(k.replace(" ", "")) <= 3:
        return written.replace(".", "").replace(" ", "").isupper()
    if k in _WORDLIKE_NAMES:
        return written[:1].isupper()
    if name.kind == "city" and " " not in k and len(k) <= _ABBREVIATION and written.isupper():
        return False  # "ANDA 200553", "CAPA": an abbreviation, not the town of that name
    if name.kind == "city" and name.population < _CITY_ANY_CASE_POPULATION and " " not in k:
        return written[:1].isupper()
    return True


_ABBREVIATION = 5  # letters of a word in capitals read as an abbreviation before a city


def _city_meaning(cities: list[_Name]) -> Place:
    """The place a city's name means: its most populous namesake where that one is in the US or
    far larger than the next; where several are close, the country (or nothing) they share."""
    top = cities[0]
    close = [c for c in cities if c.population * _CITY_DOMINANCE > top.population]
    if len(close) == 1 or (top.place.country == "US" and close[1].place.country != "US"):
        return top.place
    if len({c.place.country for c in close}) == 1:
        states = {c.place.state for c in close}
        return Place(top.place.country, states.pop() if len(states) == 1 else None, top.place.city)
    return Place(None, None, top.place.city)


def _country_context(country: str, keys: list[str], i: int) -> bool:
    """Whether a question says it means the country ("the country of Georgia", "Tbilisi")."""
    before = keys[max(0, i - 2) : i]
    capital = gazetteer().capital_keys.get(country)
    return before in (["country", "of"], ["republic", "of"]) or (
        capital is not None and f" {capital} " in f" {' '.join(keys)} "
    )


def _choose(names: list[_Name], keys: list[str], i: int) -> _Name:
    """What a name means among its meanings: a US state before the country of the same name
    (Georgia) unless the question says otherwise; a state, a country, a demonym, a city."""
    first = names[0]
    countries = [n for n in names if n.kind == "country"]
    if (
        first.kind == "state"
        and countries
        and countries[0].place.country != first.place.country
        and _country_context(countries[0].place.country or "", keys, i)
    ):
        return countries[0]
    if first.kind != "city":
        return first
    return _Name("city", _city_meaning(names), population=first.population)


def _state_code_token(
    text: str, tokens: list[re.Match[str]], keys: list[str], i: int
) -> _Name | None:
    """A US state's or Canadian province's code ("TX"): in capitals, and, where it is a word too
    ("IN", "OR", "OK"), after a comma or "in", "from"."""
    written = tokens[i].group()
    codes = gazetteer().codes
    if written not in codes or not written.isupper():
        return None
    if written in _WORDLIKE_CODES:
        after_comma = text[: tokens[i].start()].rstrip().endswith(",")
        after_in = i > 0 and tokens[i - 1].group() in _PREPOSITIONS
        if not after_comma and (not after_in or written in _AGENCY_CODES):
            return None
    country, code = codes[written]
    return _Name("state", Place(country, code))


def _region_after(
    text: str, tokens: list[re.Match[str]], keys: list[str], i: int, city: str
) -> tuple[Place, int] | None:
    """A listed city followed by its state or country ("Dublin, OH"; "Kirkland, Canada"): the
    city's place, and where the region ends."""
    if i >= len(tokens) or text[tokens[i - 1].end() : tokens[i].start()].strip() != ",":
        return None
    names = _question_names()
    for n in range(min(3, len(tokens) - i), 0, -1):
        k = " ".join(keys[i : i + n])
        written = text[tokens[i].start() : tokens[i + n - 1].end()]
        regions = [m for m in names.get(k, ()) if m.kind in ("state", "country")]
        regions = [m for m in regions if _cased(written, k, m)]
        if n == 1 and (code := _state_code_token(text, tokens, keys, i)):
            regions.insert(0, code)
        for region in regions:
            country, state = region.place.country, region.place.state
            listed = listed_cities(city, country, state)
            if listed:
                return Place(country, state or listed[0].state, listed[0].name), i + n
    return None


def _qualifies(text: str, tokens: list[re.Match[str]], keys: list[str], i: int, end: int) -> bool:
    """Whether the words after a place name firms ("Indian API makers", "Ireland-based"), or
    those before it do ("firms in Houston", "plants located in India")."""
    for j in range(end, min(end + 3, len(tokens))):
        if _GAP_STOP.search(text[tokens[j - 1].end() : tokens[j].start()]):
            break
        if keys[j] in FIRM_WORDS:
            return True
        if keys[j] in _STOP:
            break
    before = keys[max(0, i - 3) : i]
    if len(before) < 2 or before[-1] not in ("in", "from"):
        return False
    if before[-2] in ("located", "based") and len(before) == 3:
        return before[0] in FIRM_WORDS
    return before[-2] in FIRM_WORDS


def _sentence_start(text: str, start: int) -> bool:
    before = text[:start].rstrip()
    return not before or before[-1] in ".?!:\n"


def _match_at(
    text: str, tokens: list[re.Match[str]], keys: list[str], i: int
) -> tuple[PlaceSpan, int] | None:
    """The longest place name starting at token `i`, and the token after it."""
    names = _question_names()
    for n in range(min(_MAX_WORDS, len(tokens) - i), 0, -1):
        k = " ".join(keys[i : i + n])
        written = text[tokens[i].start() : tokens[i + n - 1].end()]
        end = i + n
        region = None
        if k in gazetteer().cities and written[:1].isupper():
            region = _region_after(text, tokens, keys, end, k)
        if region is not None:
            chosen, end = _Name("city", region[0]), region[1]
        else:
            meanings = [m for m in names.get(k, ()) if _cased(written, k, m)]
            if n == 1 and (code := _state_code_token(text, tokens, keys, i)):
                meanings.insert(0, code)
            if not meanings:
                continue
            chosen = _choose(meanings, keys, i)
        start, stop = tokens[i].start(), tokens[end - 1].end()
        firms = _qualifies(text, tokens, keys, i, end)
        if k in _WORDLIKE_NAMES and region is None and not firms and _sentence_start(text, start):
            return None  # "Reading the letters", "Mobile app recalls"
        span = PlaceSpan(
            start, stop, text[start:stop], chosen.place, chosen.kind, chosen.exclude, firms
        )
        return span, end
    return None


def find(text: str) -> list[PlaceSpan]:
    """The places a question names, in order: countries ("India", "P.R. China"), their
    adjectives ("Indian"), US states, Canadian provinces, Indian states and Chinese provinces by
    name, US and Canadian codes in capitals ("in OH", "Dublin, OH"), cities (the large ones by
    themselves, any listed one before its state or country), and the phrases that place firms
    against the US ("outside the United States", "foreign", "domestic"). The caller decides
    what to make of each: `qualifies_firm_words` tells "Chinese API makers" from "Chinese
    medicine"."""
    tokens = list(_TOKEN.finditer(text))
    keys = [key(t.group()) for t in tokens]
    found: list[PlaceSpan] = []
    i = 0
    while i < len(tokens):
        match = _match_at(text, tokens, keys, i)
        if match is None:
            i += 1
            continue
        span, i = match
        found.append(span)
    return found
