"""Identifiers and firm names as data: the FEI, application, 510(k), PMA, De Novo, NCT and product
code numbers a text or a catalog record holds, normalised and turned into index terms, and firm
names reduced to a key that groups their variants ("Hospira Inc" and "Hospira, Inc.").

    kind          what is read                                   normal form        index terms
    fei           FEI 3000975914, FEI: 1316626, FEI# .., FEI     3000975914         fei:3000975914
                  Number: .., Establishment Identifier (FEI) ..
    application   NDA 209128, ANDA 076543, BLA 125514, sNDA ..,  NDA 021164         nda:021164
                  NDA 21-164, NDA 22231, NDA-22450, BLA STN                         app:021164
                  125514/0, BLAs 761373 and 761374
                  a supplement: NDA 217225/S-001, BLA            NDA 217225/S-001   nda:217225/s001
                  125350/1472, 208288Orig1s005                                      + the above
                  the type unwritten: Application Number:        208288             app:208288
                  208288Orig1s000, STN 125514 (a BLA)
    510k          K123456, k123456, 510(k) K 123456              K123456            k:123456
    pma           P123456, P123456/S012 (a bare P number only    P123456/S012       p:123456/s012
                  where the text speaks of PMAs)                                    p:123456
    denovo        DEN123456                                      DEN123456          den:123456
    nct           NCT01234567                                    NCT01234567        nct:01234567
    product_code  Product Code: LLZ, product code(s): DSI, MHX,  LLZ                procode:llz
                  procode LLZ (only where labelled)

An application number has six digits, zero-padded (`NDA 21-164` is `NDA 021164`); every
application also gives `app:<number>`, the term a number without its type (`208288`) searches.
An unlabelled number is not read (phone numbers, dates, lot numbers, `Form FDA 483`, CFR
sections). Index terms hold a colon, which the text normaliser never produces.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

__all__ = [
    "IDENTIFIER_FIELDS",
    "KINDS",
    "Identifier",
    "candidates",
    "field_identifiers",
    "firm_display",
    "firm_key",
    "firm_names",
    "identifiers",
    "index_terms",
    "looks_like_address",
    "query_term",
]

KINDS = ("fei", "application", "510k", "pma", "denovo", "nct", "product_code")


@dataclass(frozen=True)
class Identifier:
    """One identifier: its kind (one of `KINDS`), its normal form, and the text it was read from."""

    kind: str
    value: str
    text: str

    @property
    def terms(self) -> list[str]:
        """Its index terms (`fei:3000975914`; `app:021164` and `nda:021164`), the most specific
        last; see the module's table."""
        return _terms(self)


_FEI = re.compile(
    r"""(?<![A-Za-z])FEI(?![A-Za-z])\)?
    (?:[\s*]*(?:No\.?|Number|NUMBER|number|\#))?
    [\s:#*|,]{0,60}?
    (?P<n>\d{10}|\d{7})(?![\d-])""",
    re.VERBOSE,
)
_SUPPLEMENT = r"""(?:
    [ \t]?/[ \t]?(?:S-?(?P<s>\d{1,4})|(?P<stn>\d{1,4})(?![\d/])|Orig-?\d*)
  | [ \t]?Orig\d*s(?P<os>\d{3}))?"""
_APP_NUMBER = r"(?P<n>\d{6}|\d{2,3}[- ]\d{3}|\d{5})(?![\d-]|,\d)"
_APPLICATION = re.compile(
    rf"""(?<![A-Za-z])(?P<type>s?NDA|ANDA|s?BLA|STN)(?P<plural>s)?(?![A-Za-z])
    (?:[ \t]*(?:STN|No\.?|Number|number|\#))?[\s:*#-]{{0,6}}?
    {_APP_NUMBER}{_SUPPLEMENT}
    (?P<more>(?:(?:[ \t]*,[ \t]*(?:and[ \t]+|or[ \t]+)?|[ \t]+(?:and|or)[ \t]+)\d{{6}}(?!\d))*)""",
    re.VERBOSE,
)
_BARE_APPLICATION = re.compile(
    r"""(?<![\w/])(?P<n>\d{6})[ \t]?Orig\d*s(?P<os>\d{3})(?!\d)
    | (?i:application)[ \t]+(?i:no\.?|number|\#)[\s:*]{0,6}(?P<ln>\d{6})(?![\d-])""",
    re.VERBOSE,
)
_K = re.compile(
    r"(?<![A-Za-z0-9/-])[Kk](?P<n>\d{6})(?![\d-])|510\(k\)[\s:#]*(?:number|No\.?)?[\s:#]*K[ \t](?P<spaced>\d{6})(?!\d)"
)
_PMA = re.compile(r"(?<![A-Za-z0-9/-])P(?P<n>\d{6})(?:[ \t]?/[ \t]?S-?(?P<s>\d{1,4}))?(?![\d-])")
_PMA_CONTEXT = re.compile(r"\bPMAs?\b|(?i:pre-?market\s+approval)")
_DENOVO = re.compile(r"(?<![A-Za-z0-9/-])DEN[ \t]?(?P<n>\d{6})(?![\d-])")
_NCT = re.compile(r"(?<![A-Za-z0-9])(?i:nct)[ \t]?(?P<n>\d{8})(?!\d)")
_NOT_CODE = (  # words and other identifiers' labels written in capitals
    r"(?!(?:AND|ARE|BLA|CFR|DEN|FDA|FEI|FOR|GMP|IND|LOT|NCT|NDA|NDC|NOT|PMA|STN|THE|UPC|USA)\b)"
)
_CODE = rf"{_NOT_CODE}[A-Z]{{3}}(?![A-Za-z0-9])"
_PRODUCT_CODE = re.compile(
    rf"""(?i:product\s+codes?|procodes?)(?:\s*\(s\))?[ \t]*[:|]?[ \t]*(?:\*\*)?\s*
    (?P<codes>{_CODE}(?:(?:[ \t]*,[ \t]*(?:and\s+|or\s+)?|\s+(?:and|or)\s+){_CODE})*)""",
    re.VERBOSE,
)
_LOT = re.compile(
    r"(?i)\b(?:lot|batch|serial|catalog|model)s?\b[\s.:#/-]*(?:no\.?|number)?[\s.:#]*$"
)


def _not_after_lot(text: str, start: int) -> bool:
    return _LOT.search(text, max(0, start - 20), start) is None


def _supplement(m: re.Match[str]) -> int:
    given = m["s"] or m["stn"] or m["os"]
    return int(given) if given else 0


def _application(kind: str | None, number: str, supplement: int) -> str:
    digits = re.sub(r"\D", "", number).zfill(6)
    value = f"{kind} {digits}" if kind else digits
    return f"{value}/S-{supplement:03d}" if supplement else value


def _fei(text: str) -> Iterator[tuple[int, Identifier]]:
    for m in _FEI.finditer(text):
        yield m.start(), Identifier("fei", m["n"], m[0])


def _applications(text: str) -> Iterator[tuple[int, Identifier]]:
    for m in _APPLICATION.finditer(text):
        kind = {"sNDA": "NDA", "sBLA": "BLA", "STN": "BLA"}.get(m["type"], m["type"])
        if m["type"] == "STN" and len(m["n"]) != 6:
            continue
        yield m.start(), Identifier("application", _application(kind, m["n"], _supplement(m)), m[0])
        for more in re.findall(r"\d{6}", m["more"]):
            yield m.start(), Identifier("application", _application(kind, more, 0), m[0])
    for m in _BARE_APPLICATION.finditer(text):
        number, supplement = (m["n"], int(m["os"])) if m["n"] else (m["ln"], 0)
        yield m.start(), Identifier("application", _application(None, number, supplement), m[0])


def _510k(text: str) -> Iterator[tuple[int, Identifier]]:
    for m in _K.finditer(text):
        if _not_after_lot(text, m.start()):
            yield m.start(), Identifier("510k", f"K{m['n'] or m['spaced']}", m[0])


def _pma(text: str) -> Iterator[tuple[int, Identifier]]:
    speaks_of_pma: bool | None = None
    for m in _PMA.finditer(text):
        if not m["s"] and speaks_of_pma is None:
            speaks_of_pma = _PMA_CONTEXT.search(text) is not None
        if (m["s"] or speaks_of_pma) and _not_after_lot(text, m.start()):
            s = f"/S{int(m['s']):03d}" if m["s"] else ""
            yield m.start(), Identifier("pma", f"P{m['n']}{s}", m[0])


def _denovo(text: str) -> Iterator[tuple[int, Identifier]]:
    for m in _DENOVO.finditer(text):
        yield m.start(), Identifier("denovo", f"DEN{m['n']}", m[0])


def _nct(text: str) -> Iterator[tuple[int, Identifier]]:
    for m in _NCT.finditer(text):
        yield m.start(), Identifier("nct", f"NCT{m['n']}", m[0])


def _product_codes(text: str) -> Iterator[tuple[int, Identifier]]:
    for m in _PRODUCT_CODE.finditer(text):
        for code in re.findall(_CODE, m["codes"]):
            yield m.start(), Identifier("product_code", code, m[0])


_READERS = {
    "fei": _fei,
    "application": _applications,
    "510k": _510k,
    "pma": _pma,
    "denovo": _denovo,
    "nct": _nct,
    "product_code": _product_codes,
}


def _found(text: str, kinds: Iterable[str]) -> Iterator[tuple[int, Identifier]]:
    """Every identifier of `kinds` in `text` with its position, repeats kept, the bare numbers
    unresolved."""
    wanted = set(kinds)
    for kind, read in _READERS.items():
        if kind in wanted:
            yield from read(text)


def identifiers(text: str, kinds: Iterable[str] = KINDS) -> list[Identifier]:
    """The identifiers (of `kinds`, default all) a text holds, in order of first appearance,
    each once. An application number written without its type takes the type the text gives
    it elsewhere."""
    found = [i for _, i in sorted(_found(text, kinds), key=lambda p: p[0])]
    typed = {
        i.value.split()[1][:6]: i.value.split()[0]
        for i in found
        if i.kind == "application" and " " in i.value
    }
    out: dict[tuple[str, str], Identifier] = {}
    for i in found:
        if i.kind == "application" and " " not in i.value and i.value[:6] in typed:
            i = Identifier(i.kind, f"{typed[i.value[:6]]} {i.value}", i.text)
        out.setdefault((i.kind, i.value), i)
    return list(out.values())


def _terms(identifier: Identifier) -> list[str]:
    kind, value = identifier.kind, identifier.value
    if kind == "application":
        typed, _, number = value.rpartition(" ")
        number, _, supplement = number.partition("/S-")
        terms = [f"app:{number}"]
        if typed:
            terms.append(f"{typed.lower()}:{number}")
            if supplement:
                terms.append(f"{typed.lower()}:{number}/s{supplement}")
        return terms
    if kind == "pma":
        number, _, supplement = value[1:].partition("/S")
        return [f"p:{number}", f"p:{number}/s{supplement}"] if supplement else [f"p:{number}"]
    prefix = {"fei": "fei:", "510k": "k:", "denovo": "den:", "nct": "nct:"}.get(kind)
    if prefix:
        return [prefix + re.sub(r"^[A-Z]+", "", value)]
    return [f"procode:{value.lower()}"]


def index_terms(text: str) -> dict[str, int]:
    """The index terms of a text's identifiers (`fei:3000975914`, `nda:209128`, `k:123456`) and
    how many identifiers give each; see the module's table for the scheme."""
    counts: Counter[str] = Counter()
    for identifier in identifiers(text):
        counts.update(identifier.terms)
    return dict(counts)


# What every identifier of a kind holds, for a first pass over many pages at once (RE2, through
# Arrow): its label, or the letters and digits of its own form.
_S = r"[\s\pZ\pC]"  # RE2's ASCII \s widened to Python's whitespace (and more)
_CANDIDATES = {
    "fei": r"FEI",
    "application": r"NDA|BLA|STN|\p{Nd}{6}[ \t]?Orig|(?i:application)[ \t]+(?i:no|number|#)",
    "510k": r"[Kk][ \t]?\p{Nd}{6}",
    "pma": r"P\p{Nd}{6}",
    "denovo": r"DEN[ \t]?\p{Nd}{6}",
    "nct": r"(?i:nct)[ \t]?\p{Nd}{8}",
    "product_code": rf"(?i:product{_S}+code|procode)",
}


_ANY_CANDIDATE = "|".join(_CANDIDATES.values())


def candidates(texts: pa.ChunkedArray | pa.Array) -> dict[str, np.ndarray]:
    """Per kind of identifier, whether each text may hold one (a superset, found by vectorised
    passes: one over every text, then one per kind over those it kept): `identifiers(text,
    kinds)` needs only the kinds marked."""
    hit = pc.match_substring_regex(texts, _ANY_CANDIDATE).fill_null(False)
    at = np.flatnonzero(np.asarray(hit.to_numpy(zero_copy_only=False), bool))
    kept = texts.take(pa.array(at, pa.int64()))
    out = {}
    for kind, pattern in _CANDIDATES.items():
        mask = np.zeros(len(texts), bool)
        found = pc.match_substring_regex(kept, pattern).fill_null(False)
        mask[at] = np.asarray(found.to_numpy(zero_copy_only=False), bool)
        out[kind] = mask
    return out


_QUERY_LABELS = {
    "fei": "FEI ",
    "application": "",
    "510k": "",
    "pma": "PMA ",
    "denovo": "",
    "nct": "",
    "product_code": "product code ",
}


def query_term(kind: str, value: str) -> str:
    """The index term of a user's identifier of a kind: `("fei", "3000975914")`,
    `("application", "NDA 209128")`, `("application", "209128")`, `("510k", "k123456")`,
    `("product_code", "llz")`. Raises ValueError for a kind it does not know or a value that is
    not an identifier of that kind."""
    if kind not in _QUERY_LABELS:
        raise ValueError(f"{kind!r} is not a kind of identifier: use one of {', '.join(KINDS)}")
    written = re.sub(r"^(?:fei|app|k|p|den|nct|procode):", "", value.strip(), flags=re.IGNORECASE)
    written = re.sub(r"^(a?nda|bla):", lambda m: f"{m[1].upper()} ", written, flags=re.IGNORECASE)
    written = re.sub(r"^(?:s?nda|anda|s?bla|stn)\b", lambda m: m[0].upper(), written, flags=re.I)
    if kind == "application" and re.fullmatch(r"\d{5,6}|\d{2,3}-\d{3}", written):
        written = f"Application Number: {written}"
    elif kind == "product_code":
        written = written.upper()
    elif kind in ("510k", "nct", "denovo", "pma") and re.fullmatch(r"\d+(?:/[Ss]\d+)?", written):
        written = {"510k": "K", "nct": "NCT", "denovo": "DEN", "pma": "P"}[kind] + written
    elif kind in ("510k", "pma", "denovo", "nct"):
        written = written.upper()
    found = [i for i in identifiers(_QUERY_LABELS[kind] + written) if i.kind == kind]
    if len(found) != 1:
        raise ValueError(f"{value!r} is not {'an' if kind[0] in 'af' else 'a'} {kind} identifier")
    return _terms(found[0])[-1]


# The catalog fields that hold identifiers, each read as if written after its label.
_FIELD_LABELS = {
    "fei_number": "FEI ",
    "application_number": "Application Number: ",
    "bla_number": "BLA ",
    "submission_number": "PMA ",
    "pma_number": "PMA ",
    "nct_id": "",
    "product_code": "Product code: ",
}
IDENTIFIER_FIELDS = tuple(_FIELD_LABELS)


def field_identifiers(fields: Mapping[str, object]) -> list[Identifier]:
    """The identifiers of a record's catalog fields (`IDENTIFIER_FIELDS`: `fei_number`,
    `application_number` with `submission_type`, `bla_number`, `submission_number`,
    `pma_number`, `nct_id`, `product_code`), read as labelled text."""
    out: list[Identifier] = []
    for name, label in _FIELD_LABELS.items():
        value = fields.get(name)
        if isinstance(value, int) and not isinstance(value, bool):
            value = str(value)
        if not isinstance(value, str) or not value.strip():
            continue
        value = value.strip()
        if name == "application_number":
            stated = re.search(r"\b(ANDA|NDA|BLA)\b", str(fields.get("submission_type") or ""))
            if stated and re.match(r"\d", value):
                label = f"{stated[1]} "
        out += identifiers(label + value)
    return list(dict.fromkeys(out))


# Firm names ---------------------------------------------------------------------------------

_DBA = re.compile(
    r"[\s,(]+(?:d\s?/\s?b\s?/\s?a|d\.\s?b\.\s?a\.?|dba|doing\s+business\s+as|a\s?/\s?k\s?/\s?a|aka)"
    r"(?![\w/])[\s.:,]*",
    re.IGNORECASE,
)
_STATE = (  # the two-letter codes of the US states, DC and PR
    "(?:AL|AK|AZ|AR|CA|CO|CT|DE|DC|FL|GA|HI|ID|IL|IN|IA|KS|KY|LA|ME|MD|MA|MI|MN|MS|MO|MT|NE|NV|NH"
    "|NJ|NM|NY|NC|ND|OH|OK|OR|PA|PR|RI|SC|SD|TN|TX|UT|VT|VA|WA|WV|WI|WY)"
)
_PLACE_TAIL = re.compile(
    rf",\s*[A-Z][A-Za-z.'-]*(?:\s[A-Z][A-Za-z.'-]*)*,?\s+{_STATE}\b(?:\s+\d{{5}}(?:-\d{{4}})?)?(?=[\s,.]|$).*",
    re.DOTALL,
)
_PREFIXES = re.compile(r"^(?:\s*(?:recalling\s+firm\s*:|c\s?/\s?o\b|the\b))+\s*", re.IGNORECASE)
_A_COMPANY = re.compile(r",?\s+an?\s+[\w ]+\s+company\s*$", re.IGNORECASE)
_LEGAL = {
    ("inc",),
    ("incorporated",),
    ("llc",),
    ("ll", "c"),
    ("l", "l", "c"),
    ("ltd",),
    ("limited",),
    ("co",),
    ("corp",),
    ("corporation",),
    ("company",),
    ("gmbh",),
    ("mbh",),
    ("ag",),
    ("kgaa",),
    ("sa",),
    ("sas",),
    ("sarl",),
    ("srl",),
    ("spa",),
    ("pvt",),
    ("private",),
    ("pty",),
    ("plc",),
    ("lp",),
    ("llp",),
    ("bv",),
    ("nv",),
    ("ab",),
    ("publ",),
    ("a", "s"),
    ("aps",),
    ("dac",),
    ("and",),
}


def _key(name: str) -> str:
    """The grouping key of one name (no dba part): folded, unpunctuated, without legal suffixes."""
    name = _PREFIXES.sub("", name)
    name = _A_COMPANY.sub("", name)
    name = re.sub(r"\([^)]*\)", " ", name)
    folded = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    folded = re.sub(r"[.'’`]", "", folded.replace("&", " and "))
    words = re.sub(r"[^a-z0-9]+", " ", folded).split()
    while len(words) > 1:
        for size in (3, 2, 1):
            if len(words) > size and tuple(words[-size:]) in _LEGAL:
                del words[-size:]
                break
        else:
            break
    return " ".join(words)


def firm_names(name: str) -> list[str]:
    """The keys of a firm's names: its legal name's first, then any "dba" or "aka" names
    (`"Nubratori, Inc dba Nubratori Rx"` -> `["nubratori", "nubratori rx"]`)."""
    name = _PLACE_TAIL.sub("", name.strip())
    names = [_key(part) for part in _DBA.split(name)]
    return list(dict.fromkeys(k for k in names if k))


def firm_display(name: str) -> str:
    """A firm's name as shown: as written, without a label before it (`Recalling Firm:`) or a
    place after it (`, Lake Forest, IL 60045`), spaces collapsed."""
    shown = _PREFIXES.sub("", _PLACE_TAIL.sub("", name.strip()))
    return " ".join(shown.split()).strip(" ,;:") or " ".join(name.split())


def firm_key(name: str) -> str:
    """The key that groups the variants of a firm's name: case, accents, punctuation, legal
    suffixes (Inc., LLC, GmbH, S.p.A., Pvt. Ltd.), a leading "The", a parenthesis, a "dba" name and
    a place after the name are dropped (`"Hospira, Inc."` and `"Hospira Inc"` are `"hospira"`)."""
    names = firm_names(name)
    return names[0] if names else ""


_CITY_STATE_ZIP = re.compile(
    rf"^[A-Za-z][A-Za-z .'-]*,?\s+{_STATE}\.?,?\s+\d{{5}}(?:-\d{{4}})?(?:,?\s+USA?)?$"
)
_STREET = re.compile(
    r"""^\d+[A-Za-z]?\s+(?:[A-Za-z0-9.'-]+\s+){0,5}?
    (?:Street|St|Avenue|Ave|Road|Rd|Boulevard|Blvd|Drive|Dr|Lane|Ln|Way|Parkway|Pkwy|Court|Ct
      |Place|Pl|Highway|Hwy|Circle|Cir|Terrace|Plaza|Pike|Route|Suite|Ste)\b\.?
    (?:[\s,#]+(?:Suite|Ste|Unit|Bldg|Building|Floor)?\.?\s*[\w-]*)*$""",
    re.VERBOSE | re.IGNORECASE,
)
_PO_BOX = re.compile(r"^\s*P\.?\s?O\.?\s+Box\s+\d+", re.IGNORECASE)


def looks_like_address(text: str) -> bool:
    """Whether a string is an address line rather than a firm's name (`"Cary, NC 27518"`,
    `"123 Main Street"`, `"P.O. Box 12"`), as some catalog fields hold."""
    text = text.strip()
    return bool(_CITY_STATE_ZIP.match(text) or _STREET.match(text) or _PO_BOX.match(text))
