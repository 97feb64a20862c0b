"""Reading a firm's place from a document's address: a letter's address block, a warning
letter's "located at ...", a 483's "CITY, STATE, ZIP CODE, COUNTRY" field (OCR noise and all), a
CRL's recipient; and from a record's `city`, `state` and `country` fields.

An address is read from its end: the country, then the state or province, then the city, each
checked against the place lists; a city alone ("at 915 W. Smith Road, Medina") is looked up,
preferring a US namesake. The first address of the text that is not FDA's own (its letterhead, a
483's district office) nor a US agent's ("c/o", "U.S. Agent for") is the firm's.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from regnb.documents._gazetteer import STATE_COUNTRIES, City, Gazetteer, gazetteer, key
from regnb.documents._place import Place, city_alone, country_place, listed_cities, state_code

__all__ = ["read_address", "record_place"]


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Words of a street address that are never a city's ("Road", "Suite", "Plot", "Taluka").
_STREET_WORDS = _words(
    "road rd street st avenue ave av blvd boulevard drive dr lane ln parkway pkwy highway hwy"
    " court ct pl circle cir suite ste unit floor fl building bldg plot no nos industrial sector"
    " phase block area estate zone marg district county mandal taluka tehsil room box po route"
    " rte calle rua col colonia strasse str km lote lot cross stage tower expressway sy survey"
    " gidc midc ida nh near nr opp behind dist apt apartment sq campus office dept department attn"
    " attention mail stop"
)
# Words of a street address that a city's name may have too ("Deer Park", "North Wales").
_ADDRESS_WORDS = _STREET_WORDS | _words(
    "park village way place main centre center plaza gate trail terrace square hall loop pike"
    " house n s e w ne nw se sw north south east west"
)
# The last word of a ward's or district's name, which is not a city's ("Chuo-ku", "Seobuk-gu").
_WARDS = _words("ku gu dong ward mandal taluka tehsil")
# Words a document adds to a city's name ("Foshan City", "Cheonan-si", "Xinxiang County").
_CITY_SUFFIXES = ("city", "si", "shi", "county", "town", "municipality")
# Legal forms: a segment ending in one is a firm's name, not a place.
_COMPANY_WORDS = _words(
    "inc llc ltd limited corp corporation co company gmbh ag sa pvt plc llp lp bv nv srl spa"
    " kg kgaa oy ab pte pty sro cv sas"
)
# The labels of Form FDA 483's fields (OCR keeps them beside the values).
_FORM_WORDS = _words(
    "inspected establishment type code country zip state city address street name firm title"
    " number phone date dates inspection producer observation observations"
)
# Text near an address that makes it FDA's own office's (or another agency's), not the firm's.
_OFFICIAL_MARKERS = (
    "food and drug administration",
    "department of health",
    "human services",
    "district address",
    "district office",
    "new hampshire ave",
    "dockets management",
    "center for drug evaluation",
    "center for biologics",
    "center for devices",
    "fda.hhs.gov",
    "20993",
)


def _value(record: Mapping[str, Any], name: str) -> str | None:
    value = record.get(name)
    return value.strip() if isinstance(value, str) and re.search("[A-Za-z]", value) else None


def record_place(record: Mapping[str, Any], prefix: str = "") -> Place | None:
    """The place of a record's `city`, `state` and `country` (or `country_code`) fields, each
    name with `prefix` ("manufacturer_"); None where it has none of them."""
    city = _value(record, f"{prefix}city")
    state = _value(record, f"{prefix}state")
    named = _value(record, f"{prefix}country") or _value(record, f"{prefix}country_code")
    if not (city or state or named):
        return None
    found = country_place(named) if named else None
    country = found[0] if found else None
    if found and found[1]:
        state = found[1]  # Puerto Rico
    if country is None and state:
        country = next((c for c in STATE_COUNTRIES if state_code(state, c)), None)
    if country is None:
        return city_alone(city) if city and not named else None
    code = state_code(state, country) if state and country in STATE_COUNTRIES else None
    return Place(country, code, _city_name(city, country, code) if city else None)


def _city_name(city: str, country: str, state: str | None) -> str:
    listed = listed_cities(city, country, state)
    return listed[0].name if listed else (city.title() if city.isupper() else city)


def _tokens(text: str) -> list[str]:
    return text.replace("/", " / ").split()


def _bare(token: str) -> str:
    return token.strip(".,;:()#'’\"").lower()


def _numeric(token: str) -> bool:
    """Whether a token is a number, postcode or the like ("1507", "C-23B", "3rd", "M9W"), not a
    word OCR put a digit in ("3edminster")."""
    digits = sum(c.isdigit() for c in token)
    return digits > 0 and (
        digits >= sum(c.isalpha() for c in token)
        or re.fullmatch(r"\d+(?:st|nd|rd|th)|[A-Z]\d[A-Z]", token.strip(".,")) is not None
    )


def _name_part(segment: str) -> str:
    """A segment without its postcode and street number: the words after the last number,
    once the trailing numbers are dropped ("Hyderabad 500 032": "Hyderabad"; "73095
    Albershausen": "Albershausen"; "Suite 1507 Torrance": "Torrance")."""
    tokens = segment.split()
    while tokens and _numeric(tokens[-1]):
        tokens.pop()
    for i in range(len(tokens) - 1, -1, -1):
        if _numeric(tokens[i]):
            return " ".join(tokens[i + 1 :])
    return " ".join(tokens)


def _after_street(name: str) -> str:
    """The words after the last street word ("Sands Pl SE. Marietta": "Marietta")."""
    tokens = name.split()
    for i in range(len(tokens) - 1, -1, -1):
        if _bare(tokens[i]) in _ADDRESS_WORDS and not (i == 0 and _bare(tokens[i]) == "st"):
            return " ".join(tokens[i + 1 :])
    return name


def _city_variants(segment: str) -> list[str]:
    """The names a segment may give its city by: as written, after its street words, without
    a suffix ("Foshan City"), each side of a slash ("Halle/Westphalia")."""
    name = _name_part(segment)
    found: list[str] = []
    for base in (name, _after_street(name)):
        for part in re.split(r"\s*[/(]\s*", base):
            part = part.strip(" )-")
            words = key(part).split()
            if words and words[-1] in _CITY_SUFFIXES and len(words) > 1:
                found.append(part)
                part = " ".join(words[:-1])
            if part:
                found.append(part)
    return list(dict.fromkeys(found))


def _name_like(name: str, *, strict: bool) -> bool:
    """Whether `name` can be a city's name as written: one to three capitalised words, none of
    them a street word (`strict`: nor a word a US city may share with a street, "Park"), a legal
    form, a form label, nor a ward ("Chuo-ku")."""
    tokens = name.split()
    street = (_ADDRESS_WORDS if strict else _STREET_WORDS) | _COMPANY_WORDS | _FORM_WORDS
    return (
        0 < len(tokens) <= 3
        and tokens[0][:1].isupper()
        and all(re.fullmatch(r"[^\W\d_][\w.'’-]*", t) for t in tokens)
        and not any(_bare(t) in street for t in tokens[1:])
        and _bare(tokens[0]) not in street - {"st"}
        and key(name).split()[-1] not in _WARDS
    )


def _written(name: str) -> str:
    return name.title() if name.isupper() else name


def _country_of(segment: str, gaz: Gazetteer) -> tuple[tuple[str, str | None], str] | None:
    """The country a segment ends with, and the rest of it ("400701 India"; "Tukang Singapore";
    "TX 75074-8109 US"). Codes count in capitals only."""
    words = [w for w in segment.split() if not _numeric(w)]
    if key(" ".join(words)) in gaz.states and key(" ".join(words)) not in gaz.countries:
        return None  # "New Jersey", not Jersey
    for n in range(min(len(words), 6), 0, -1):
        tail = " ".join(words[-n:])
        k = key(tail)
        place = gaz.countries.get(k)
        if place is None or (len(k.replace(" ", "")) <= 3 and not tail.isupper()):
            continue
        return place, " ".join(words[:-n])
    return None


def _state_of(
    segment: str, country: str | None, gaz: Gazetteer
) -> tuple[str, str | None, str] | None:
    """The country, state (None outside the state countries) and the state's name as written,
    of a segment that names a state, province or region ("TX 77001", "Telangana 502307")."""
    name = _name_part(segment)
    if name in gaz.codes and (country is None or gaz.codes[name][0] == country):
        found, code = gaz.codes[name]
        return found, code, name
    k = key(name)
    states = gaz.states.get(k, {})
    for candidate in (country,) if country else STATE_COUNTRIES:
        if candidate in states:
            return candidate, states[candidate], name
    regions = gaz.regions.get(k, {})
    if country in regions or (country is None and len(regions) == 1):
        return country or next(iter(regions)), None, name
    return None


def _known_city(segments: list[str], country: str | None, state: str | None) -> str | None:
    """The listed city named by one of the last three segments, the last first."""
    for segment in reversed(segments[-3:]):
        for name in _city_variants(segment):
            listed = listed_cities(name, country, state)
            if listed:
                return listed[0].name
    return None


def _hinted(segments: list[str], gaz: Gazetteer) -> set[str]:
    """Countries named inside the words of an address ("Trans-Canada Highway")."""
    hints = set()
    for word in key(" ".join(segments)).split():
        place = gaz.countries.get(word)
        if place and len(word) > 3:
            hints.add(place[0])
    return hints


def _segments_place(segments: list[str]) -> Place | None:
    """The place of an address split at its commas and lines, read from its end."""
    gaz = gazetteer()
    segments = [s.strip(" .") for s in segments if re.search(r"[^\W\d_]", s)]
    segments = [s for s in segments if not re.match(r"(?i)(?:FEI|FDA)\b", s)]
    country: str | None = None
    state: str | None = None
    state_name: str | None = None
    if segments and (found := _country_of(segments[-1], gaz)):
        (country, state), rest = found
        named = key(" ".join(w for w in segments[-1].split() if not _numeric(w)))
        if named in gaz.states and not _known_city(segments[:-1], country, None):
            country = state = None  # Georgia the state, not the country
        elif rest:
            segments[-1] = rest
        else:
            segments.pop()
    if segments and state is None and (region := _state_of(segments[-1], country, gaz)):
        country, state, state_name = region
        segments.pop()
    if country is None:
        return _bare_city(segments, gaz)
    city = _known_city(segments, country, state)
    if city is None and state_name and listed_cities(state_name, country, state):
        city = listed_cities(state_name, country, state)[0].name  # Shanghai, Beijing
    name = _name_part(segments[-1]) if segments else ""
    if city is None and _name_like(name, strict=country != "US"):
        city = _written(name)
    if country in gaz.capitals:  # a city-state: "Tukang, Singapore" is in Singapore
        city = gaz.capitals[country]
    return Place(country, state, city)


def _bare_city(segments: list[str], gaz: Gazetteer) -> Place | None:
    """The place of an address that names neither country nor state: its city, looked up."""
    for segment in reversed(segments[-3:]):
        for name in _city_variants(segment):
            if name[:1].isupper() and gazetteer().in_country(name, None):
                return city_alone(name, _hinted(segments, gaz))
    return None


# US addresses: "Houston, TX 77001", "Silver Spring MD 20993", "Missoula, Montana 59801",
# "Iowa City, Iowa,", "Toronto, ON M5V 2T6".
@functools.cache
def _us_anchor() -> re.Pattern[str]:
    """US states and Canadian provinces by code or name, after a comma or before a postcode."""
    names = gazetteer().us_state_names
    spelled = "|".join(re.escape(n) for name in names for n in (name, name.upper()))
    return re.compile(
        rf"(?:(?P<comma>,)[ \t]*|\b)(?=[A-Z])(?P<state>[A-Z]{{2}}|D\.C\.|{spelled})\b\.?"
        r"(?:,?[ \t]*(?P<zip>\d(?:[ \t]?\d){4}(?:[ \t]*-[ \t]*\d(?:[ \t]?\d){3})?"
        r"|[A-Z]\d[A-Z][ \t]?\d[A-Z]\d)(?![\d-]))?"
    )


def _us_pre(text: str, start: int, comma: bool) -> str:
    """The text before a US state: back to the comma before the city where the state follows a
    comma, else to the line's start."""
    window = text[max(0, start - 80) : start]
    cut = max(window.rfind(c) for c in ("\n", ";", ":", "(", ")", "•", "|", " / "))
    window = window[cut + 1 :]
    return window.rsplit(",", 1)[-1] if comma else window


def _ocr_city(words: list[str], country: str, state: str) -> str | None:
    """A city whose name OCR cut short ("ouston, TX": Houston; "ttle Rock, AR": Little Rock)."""
    for n in range(min(3, len(words)), 0, -1):
        tail = key(" ".join(words[-n:]))
        if len(tail) < 3 or not re.match(r"[a-z0-9]", words[-n]):
            continue
        for k in (tail, tail[1:]):
            if len(k) < 3:
                continue
            for city in _cities_of_state(country, state):
                if key(city.name).endswith(k) and len(key(city.name)) <= len(tail) + 4:
                    return city.name
    return None


@functools.cache
def _cities_of_state(country: str, state: str) -> tuple[City, ...]:
    cities = (c for group in gazetteer().cities.values() for c in group)
    found = (c for c in cities if c.country == country and c.state == state)
    return tuple(sorted(found, key=lambda c: -c.population))


def _us_city(pre: str, country: str, state: str, *, listed_only: bool) -> str | None:
    """The city at the end of the text before a US state: the longest listed name, else a
    name OCR cut short, else the capitalised words after the street (unless `listed_only`)."""
    pre = re.sub(r"(?<=[a-z]) (?=[a-z]\b)", "", pre)  # OCR's "Townshi p"
    words = _tokens(_name_part(pre))
    for n in range(min(4, len(words)), 0, -1):
        listed = listed_cities(" ".join(words[-n:]), country, state)
        if listed and words[-n][:1].isupper():
            return listed[0].name
    if listed_only:
        return None
    if any(not w[:1].isupper() for w in words[-3:]) and (found := _ocr_city(words, country, state)):
        return found
    run: list[str] = []
    for word in reversed(words):
        bare = _bare(word)
        if (
            not word[:1].isupper()
            or bare in _STREET_WORDS - {"st"}
            or bare in _FORM_WORDS | _COMPANY_WORDS
            or (run and word.isupper() and len(word) > 1 and not run[0].isupper())
            or len(run) == 3
        ):
            break
        run.insert(0, word.strip(",;:"))
    return _written(" ".join(run)) if run else None


# State codes that are degrees too ("Jane Roe, MD,"): a city before them must be listed.
_DEGREES = _words("MD MS PA DC DE")


def _us_place(text: str, match: re.Match[str]) -> Place | None:
    """The place of a US (or Canadian) state found in the text, with the city before it."""
    gaz = gazetteer()
    written = match["state"]
    k = key(written)
    if written in gaz.codes:
        country, state = gaz.codes[written]
    elif k in ("d c", "district of columbia"):
        country, state = "US", "DC"
    else:
        country, state = "US", gaz.states[k]["US"]
    pre = _us_pre(text, match.start(), bool(match["comma"]))
    # Without a ZIP code, a city not in the lists counts only between commas ("Smiling Hara
    # Tempeh LLC, Candler, NC, via Facebook").
    closed = (
        bool(match["comma"])
        and written not in _DEGREES
        and re.match(r"[,.;)]|\s*$", text[match.end() :]) is not None
    )
    city = _us_city(pre, country, state, listed_only=not (match["zip"] or closed))
    if city is None and not match["zip"]:
        return None
    return Place(country, state, city)


# "located at ...", "FEI 3004610460, at ...": an address inside a sentence, to where it ends.
_TRIGGER = re.compile(
    r"\b(?:located|situated|based)\s+(?:at|in)\s+"
    r"|,\s+(?:located\s+)?at\s+(?=[#\dA-Z])"
    r"|\b(?:facility|firm|site|plant|laboratory|operation)\s+at\s+(?=[#\d])"
)
_FIRM_CONTEXT = re.compile(
    r"(?i)\b(?:your|the|our)\s+(?:\w+\s+){0,2}(?:firm|facility|facilities|company|laboratory"
    r"|lab|operation|plant|site|establishment|business)\b|\bFEI\b|\binspect|\bregistered"
)
# The people whose place a document may give in the same words as the firm's.
_NOT_THE_FIRM = _words("patient patients customer customers consumer consumers user users")
_SPAN_END = re.compile(
    r",?\s+(?:from|on|between|conducted|during|through|for|and\s+your|where|which|was|were"
    r"|is|has|to|as)\b|[;\n]|\(|,?\s+(?:FDA|FEI)\b|\.(?=\s+[A-Z]|\s*$)"
)


def _span_end(text: str, start: int) -> int:
    """Where an address that starts at `start` inside a sentence ends: before "from", "on",
    "FEI"... or a full stop (not one after an abbreviation: "Sands Pl SE. Marietta")."""
    limit = min(len(text), start + 300)
    for match in _SPAN_END.finditer(text, start, limit):
        if match.group().startswith("."):
            before = text[start : match.start()].split()
            if before and (len(before[-1]) <= 3 or _bare(before[-1]) in _STREET_WORDS):
                continue
        return match.start()
    return limit


def _split(text: str) -> list[str]:
    return [s for s in re.split(r"[,\n•●|]", text) if s.strip()]


@dataclass(frozen=True)
class _Candidate:
    start: int
    end: int
    place: Place | None


def _us_candidates(text: str) -> Iterator[_Candidate]:
    codes = gazetteer().codes
    for match in _us_anchor().finditer(text):
        written = match["state"]
        if len(written) == 2 and written not in codes:
            continue
        if match["comma"] or match["zip"]:
            yield _Candidate(match.start(), match.end(), _us_place(text, match))


def _about_the_firm(text: str, start: int) -> bool:
    """Whether the sentence before an address is about the firm ("your facility, X, FEI 123,
    at"; "an inspection of your firm located in"), not a patient's or a customer's place."""
    before = text[max(0, start - 150) : start]
    cut = 0
    for stop in re.finditer(r"(\w+)\.\s+(?=[A-Z])|\n", before):
        if stop[1] is None or (len(stop[1]) > 4 and stop[1].lower() not in _COMPANY_WORDS):
            cut = stop.end()
    sentence = before[cut:]
    words = sentence.split()
    return bool(_FIRM_CONTEXT.search(sentence)) and not (
        words and _bare(words[-1]) in _NOT_THE_FIRM
    )


def _sentence_candidates(text: str) -> Iterator[_Candidate]:
    for match in _TRIGGER.finditer(text):
        if not _about_the_firm(text, match.start()):
            continue
        end = _span_end(text, match.end())
        yield _Candidate(match.start(), end, _segments_place(_split(text[match.end() : end])))


def _addressy(head: str, gaz: Gazetteer) -> bool:
    """Whether the part of a line before ", <country>" reads as an address, not prose: its last
    part is short, has a number, or names a state or a listed city."""
    last = head.rsplit(",", 1)[-1].strip()
    return (
        len(last.split()) <= 3
        or re.search(r"\d", last) is not None
        or _state_of(last, None, gaz) is not None
        or bool(gaz.in_country(_name_part(last), None))
    )


def _block_candidates(text: str) -> Iterator[_Candidate]:
    """Address blocks ending in a line that names a country ("Telangana, 500101 India")."""
    gaz = gazetteer()
    lines = list(re.finditer(r"[^\n]+", text))
    for i, line in enumerate(lines):
        head, _, last = line.group().rpartition(",")
        found = _country_of(last.strip(" ."), gaz) if len(line.group()) <= 100 else None
        if found is None or (not head and found[1]) or (head and not _addressy(head, gaz)):
            continue  # a line of prose that ends with a country
        block = [ln.group() for ln in lines[max(0, i - 3) : i + 1] if len(ln.group()) <= 100]
        yield _Candidate(line.start(), line.end(), _segments_place(_split("\n".join(block))))


_LABELLED = re.compile(r"(?im)^[ \t*-]*(city|state|country|country code)[ \t*]*:[ \t*]*(.+)$")


def _labelled_candidates(text: str) -> Iterator[_Candidate]:
    """A record rendered as lines ("City: Edison", "State: NJ", "Country: US")."""
    found = {m[1].lower().replace(" ", "_"): m[2].strip() for m in _LABELLED.finditer(text)}
    first = _LABELLED.search(text)
    if first and found:
        yield _Candidate(first.start(), first.end(), record_place(found))


# Form FDA 483's "CITY, STATE, ZIP CODE, COUNTRY" field, as OCR leaves it ("Y, STATE AND ZIP").
_FORM_LABEL = re.compile(r"Y[.,]?\s+STATE[.,]?\s+(?:AND\s+)?Z\s?IP")
_REDACTED = re.compile(r"\(\s*[bB]\s*\)\s*\(\s*\d\s*\)")


def _context(text: str, candidate: _Candidate) -> str:
    """The candidate and, where it sits in a block of short lines, up to five lines above it
    (stopping at a long line, a heading, or a blank line above three lines)."""
    line_start = text.rfind("\n", 0, candidate.start) + 1
    line_end = text.find("\n", candidate.start)
    line = text[line_start : line_end if line_end >= 0 else len(text)]
    if len(line) > 100:
        return text[candidate.start : candidate.end]
    parts = [line]
    for above in reversed(text[:line_start].splitlines()[-8:]):
        if len(above) > 100 or len(parts) > 5 or (not above.strip() and len(parts) > 2):
            break  # a long line, or a blank line above a block of three, ends the block
        parts.insert(0, above)
        if above.strip().isupper() and not re.search(r"\d", above) and not _official(above):
            break
    return "\n".join(parts)


def _squashed(text: str) -> str:
    """Lower case without spaces: OCR's "D ISTRICT ADDRESS" reads as "districtaddress"."""
    return re.sub(r"\s+", "", text.lower())


def _official(context: str) -> bool:
    """Whether an address's context marks it as FDA's (or another agency's) own office."""
    if re.search(r"(?m)^\s*(?:Office|Division) (?:of|for) |\bHF[A-Z]{1,2}-\d", context):
        return True  # "Office of Pharmaceutical Quality Operations", FDA's mail codes (HFZ-470)
    return any(_squashed(marker) in _squashed(context) for marker in _OFFICIAL_MARKERS)


_AGENT = re.compile(
    r"(?i)\b(?:u\.?\s?s\.?|united states)\s+agent\b|\bagent\s+for\b|\|\s*agent\s*\|"
    r"|\bc\s?/\s?o\b|\bin care of\b"
)


def _agent(context: str) -> bool:
    """Whether an address's context marks it as a US agent's ("c/o", "U.S. Agent for")."""
    return _AGENT.search(context) is not None


def _without_firm(text: str, firm: str | None) -> str:
    """`text` with the firm's name blanked out (to the same length), so a place in the name
    ("Texas Pharma Inc") is not read as the firm's place."""
    if not firm or (_us_anchor().search(firm) and re.search(r"\d{5}", firm)):
        return text  # a "firm" that is an address
    names = [firm, *re.split(r"(?i)\s+d\.?b\.?a\.?\s+", firm)]
    for name in sorted(set(names), key=lambda n: (-len(n), n)):
        words = re.findall(r"[^\W_]+", name)
        if len(words) > 1:  # one word ("Houston") may as well be the place
            pattern = r"[\W_]*".join(re.escape(w) for w in words)
            text = re.sub(f"(?i){pattern}", lambda m: " " * len(m.group()), text)
    return text


def read_address(text: str, firm: str | None = None) -> Place | None:
    """The firm's place, read from a document's first page: the address block of a letter, the
    "located at" of a warning letter, the "CITY, STATE, ZIP CODE, COUNTRY" field of a 483 (OCR
    noise and all), a CRL's recipient. `firm`, the firm's name, is blanked out first, so a place
    in the name is not read as the firm's. None where no address is found."""
    text = _REDACTED.sub(lambda m: " " * len(m.group()), _without_firm(text, firm))
    label = _FORM_LABEL.search(text)
    after = label.start() if label else 0  # a 483's district office comes before its label
    candidates = [
        *_us_candidates(text),
        *_sentence_candidates(text),
        *_block_candidates(text),
        *_labelled_candidates(text),
    ]
    candidates.sort(key=lambda c: c.start)
    for candidate in candidates:
        if candidate.place is None or candidate.start < after:
            continue
        context = _context(text, candidate)
        if not (_official(context) or _agent(context)):
            return candidate.place
    return None
