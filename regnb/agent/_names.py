"""Firm and product names in a message: runs of capitalised words ("Abbott Diabetes Care",
"Johnson & Johnson", "LINQ II"), not the ordinary word that starts a sentence."""

from __future__ import annotations

import re

from regnb.agent._vocab import ACRONYMS
from regnb.documents.words import QUESTION_WORDS, blank, word_set
from regnb.text import STOP_WORDS

__all__ = ["GENERIC_NAMES", "find_names"]

_NAME_TOKEN = re.compile(r"[A-Za-z0-9][\w&'’.+-]*")
_NOT_NAMES = word_set(
    "fda cfr cgmp gmp us usa u.s eu ema ich oos capa otc api iv cdrh cder cber nda bla anda "
    "fei nct mdr fy q1 q2 q3 q4 i ii iii iv v vi vii viii ix x xi xii crl crls wl wls maude faers mdrs "
    "pmas ndas blas andas"
)
# Acronyms and terms of the field that analysts capitalise: topics, never a firm or a brand ("MRI
# burns", "GLP-1 compounders", "ACT"), and US state codes (an address, not a name).
GENERIC_NAMES = frozenset(
    [
        "mri",
        "mr",
        "ct",
        "ml",
        "pet",
        "ecg",
        "ekg",
        "eeg",
        "spo2",  # measurements and markers a device or test reports
        "hba1c",
        "a1c",
        "bmi",
        "ldl",
        "hdl",
        "inr",
        "cgm",
        "glp-1",
        "glp1",
        "glp",
        "sglt2",
        "dpp-4",
        "act",
        "ai",
        "ml",
        "llm",
        "covid",
        "covid-19",
        "sars-cov-2",
        "hiv",
        "hcv",
        "ivd",
        "samd",
        "udi",
        "qms",
        "qsr",
        "iso",
        "astm",
        "usp",
        "nf",
        "rems",
        "pdufa",
        "gdufa",
        "bsufa",
        "mdufa",
        "oai",
        "vai",
        "nai",
        "ndc",
        "pma",
        "hde",
        "ide",
        "ind",
        "irb",
        "gcp",
        "glp",
        "gxp",
        "cmc",
        "oos",
        "oot",
        "dscsa",
        "mdsap",
        "uk",
        "mhra",
        "pmda",
        "tga",
        "anvisa",
        "cdc",
        "cms",
        "nih",
        "ftc",
        "dea",
        "usda",
        "epa",
        "who",
        "rx",
        "otc",
        "api",
        "apis",
        "ich",
        "ema",
        "eu",
        "fda",
        "cder",
        "cdrh",
        "cber",
        "cvm",
        "cfsan",
        "ora",
        "oii",
        "class",
        "al",
        "ak",
        "az",
        "ar",
        "ca",
        "fl",
        "ga",
        "il",
        "ia",
        "ks",
        "ky",
        "md",
        "mi",
        "mn",
        "mo",
        "mt",
        "ne",
        "nv",
        "nh",
        "nj",
        "nm",
        "ny",
        "nc",
        "nd",
        "ri",
        "sc",
        "sd",
        "tn",
        "tx",
        "ut",
        "vt",
        "va",
        "wa",
        "wv",
        "wi",
        "wy",
        "pr",
        "dc",
    ]
)
_JOINERS = frozenset({"&", "and", "of", "de", "du", "la", "von", "van"})
_BREAK = re.compile(r"[,;:()\[\]—–/]|\s-\s")  # punctuation that ends a name
# Capitalised words of the question vocabulary that begin a name when a capitalised word follows.
_NAME_STARTS = frozenset({"New", "Great", "North", "South", "East", "West", "United", "First"})
_MONTHS = word_set(
    "january february march april may june july august september october november december "
    "jan feb mar apr jun jul aug sep sept oct nov dec"
)


def find_names(text: str) -> tuple[list[str], str]:
    """Capitalised runs that may name a firm or product ("Abbott Diabetes Care", "LINQ II")."""
    names: list[str] = []
    spans: list[tuple[int, int]] = []
    for sentence_start, sentence_end in _sentence_bounds(text):
        tokens = list(_NAME_TOKEN.finditer(text, sentence_start, sentence_end))
        run: list[re.Match[str]] = []
        for i, token in enumerate(tokens):
            if run and _BREAK.search(text[run[-1].end() : token.start()]):
                _close(text, run, tokens, names, spans)  # "Samsung Bioepis, Hugel": two names
                run = []
            if _continues_name(tokens, i, bool(run)):
                run.append(token)
                continue
            _close(text, run, tokens, names, spans)
            run = []
        _close(text, run, tokens, names, spans)
    for start, end in spans:
        text = blank(text, start, end)
    return list(dict.fromkeys(names)), text


def _continues_name(tokens: list[re.Match[str]], i: int, in_run: bool) -> bool:
    """Whether token `i` is capitalised, or joins two capitalised words ("Johnson & Johnson"), or
    numbers a name ("LINQ II", "CARTO 3")."""
    word = tokens[i].group(0).rstrip(".,'’")
    if _capitalised(word):
        return True
    if word in _NAME_STARTS and i + 1 < len(tokens) and _capitalised(tokens[i + 1].group(0)):
        return True  # "New Jersey", "New England Compounding"
    if not in_run:
        return False
    if word.lower() in _JOINERS:
        return i + 1 < len(tokens) and _capitalised(tokens[i + 1].group(0))
    if word == "483":  # "the Nephron 483": the form, not a model number ("CARTO 3")
        return False
    return word.isdigit() or word.upper() in {"II", "III", "IV", "XL", "XR"}


def _sentence_bounds(text: str) -> list[tuple[int, int]]:
    bounds, start = [], 0
    for match in re.finditer(r"[.!?;:](?:\s|$)|\n", text):
        bounds.append((start, match.start()))
        start = match.end()
    bounds.append((start, len(text)))
    return bounds


def _capitalised(word: str) -> bool:
    lowered = re.sub(r"['’]s$", "", word.lower())  # "FDA's" is FDA
    generic = lowered in GENERIC_NAMES or lowered.split("-")[0] in GENERIC_NAMES  # "AI-enabled"
    generic = generic or lowered in ACRONYMS  # "SBOM", "CAPA": a topic spelled short
    if not word or not word[0].isupper() or lowered in _NOT_NAMES or generic:
        return False
    lower = word.lower()
    return lower not in QUESTION_WORDS and lower not in STOP_WORDS and lower not in _MONTHS


def _two_sides(run: list[re.Match[str]], at: int) -> bool:
    """Whether the "and" at `at` joins two names, not one ("Johnson and Johnson"): a product
    code before it ("LA-EP2006 and Coherus's CHS-1701")."""
    return at > 0 and any(c.isdigit() for c in run[at - 1].group(0))


def _close(
    text: str,
    run: list[re.Match[str]],
    tokens: list[re.Match[str]],
    names: list[str],
    spans: list[tuple[int, int]],
) -> None:
    """Keep a run of capitalised tokens as a name unless it is one ordinary sentence-initial word."""
    while run and run[-1].group(0).lower() in _JOINERS:
        run.pop()
    if not run:
        return
    owner = [i for i, t in enumerate(run[:-1]) if re.search(r"['’]s$", t.group(0))]
    if owner:  # "Unomedical's Reynosa plant": the firm, then what of it
        _close(text, run[: owner[0] + 1], tokens, names, spans)
        _close(text, run[owner[0] + 1 :], tokens, names, spans)
        return
    ands = [i for i, t in enumerate(run) if t.group(0).lower() == "and"]
    if ands and ((ands[0] >= 2 and len(run) - ands[0] - 1 >= 2) or _two_sides(run, ands[0])):
        cut = ands[0]
        _close(text, run[:cut], tokens, names, spans)
        _close(text, run[cut + 1 :], tokens, names, spans)
        return
    first = run[0].group(0)
    initial = tokens and run[0] is tokens[0]
    mixed = any(c.isupper() for c in first[1:]) or any(c.isdigit() for c in first)
    if initial and len(run) == 1 and not mixed:
        return
    if len(run) == 1 and len(first.rstrip(".")) == 1:
        return  # a letter alone: "B. cereus", the P of "HCT/P", never a firm
    name = re.sub(r"['’]s$", "", text[run[0].start() : run[-1].end()].rstrip(".,"))
    name = name.rstrip("'’")  # "Happiest Baby's" names Happiest Baby
    names.append(name)
    spans.append((run[0].start(), run[-1].end()))
