"""CFR citations as data: the Code of Federal Regulations sections a page cites, read from its
text, normalised, and turned into index terms so they can be searched, counted and shown.

A citation is normalised to its title, part and section; paragraph designators are dropped
(`21 CFR 211.113(b)` is `21 CFR 211.113`). Title 21 (Food and Drugs) is the default where a
citation names no title (`§ 211.192`, `sections 211.100(a) and 211.192`).

    normal form          index terms
    21 CFR 211.113       cfr:211.113 and cfr:211 (a section also counts for its part)
    21 CFR 820           cfr:820 (a part cited alone)
    42 CFR 493.1253      cfr:42/493.1253 and cfr:42/493 (other titles keep theirs)

What is read: `21 CFR 211.113(b)`, `21 C.F.R. § 211.192`, `21 CFR §211.22(d)`, `21 CFR Part 820`,
`21 CFR parts 210 and 211`, lists (`21 CFR 211.22(d), 211.100(a), and 211.192`), `Title 21, Code
of Federal Regulations (CFR), Part 314`, `§§ 211.100(a) and 211.192`, `section 314.70(d) of title
21`, across line breaks. Not read: sections of the FD&C Act (`section 505(b)(2)`, `510(k)`),
`21 U.S.C. § 321(h)`, a document's own numbered sections (`section 4.2`), dates and numbers.

For what a page cites as a reader shows it, paragraphs and FD&C Act sections kept ("21 CFR
211.113(b)", "FD&C Act 501(a)(2)(B)"), and their titles: `cfr_citations` and `cfr_title`.
"""

from __future__ import annotations

import re
from collections import Counter

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from regnb.documents._cfr_citations import cfr_citations, cfr_title

__all__ = [
    "CFR_PREFIX",
    "DEFAULT_TITLE",
    "candidates",
    "cfr_citations",
    "cfr_title",
    "query_term",
    "sections",
    "term_value",
    "terms",
]

CFR_PREFIX = "cfr:"
DEFAULT_TITLE = 21

_SEC = r"\d{1,4}\.\d{1,5}(?!\d|\.\d)"
_PART = r"\d{1,4}(?!\d|\.\d)"
_PARA = r"(?:[ \t]?\([0-9A-Za-z]{1,5}\))*"
_SEP = r"(?:\s*,\s*(?:(?i:and|or)\s+)?|\s+(?i:and|or|through)\s+)"


_NOT_A_TITLE = r"(?!\s*(?:[Cc]\.?\s?[Ff]\.?\s?[Rr]|U\.?\s?S\.?\s?C|CR\b))"  # "..., and 21 CFR"


def _list(first: str, more: str) -> str:
    """A list of references: the first of kind `first`, the rest of kind `more` or bare
    paragraphs continuing the one before (`812.25(c), (d)`)."""
    item = rf"(?:(?:{more}){_NOT_A_TITLE}{_PARA}|\([0-9A-Za-z]{{1,5}}\){_PARA})"
    return rf"(?:{first}){_PARA}(?:{_SEP}{item})*"


_CFR = r"(?:[Cc]\.?[ \t]?[Ff]\.?[ \t]?[Rr](?![A-Za-z])\.?|(?<=21[ \t])CR(?=[ \t]*\d{3,4}\.\d))"  # "21 CR 820.250", a typo
_PARTS_WORD = r"(?:[Pp]arts?|PARTS?)"
_ANY = f"{_SEC}|{_PART}"
_PARTS = _list(_ANY, _ANY)  # after "part(s)": parts or sections
_REFS = _list(_ANY, _SEC)  # sections, or one part cited alone
_SECTIONS = _list(_SEC, _SEC)
_ACT_SAFE = _list(r"\d{3,4}\.\d{1,5}(?!\d|\.\d)", _SEC)  # not a document's "section 4.2"
# Every citation starts with a digit, `T`(itle), `U`(.S.C.), `§` or `S`/`s`(ection): the lookahead
# lets the scan pass every other position with one test (3 times faster over FDA pages).
_CITATION = re.compile(
    rf"""
    (?=[\dTUSs§])(?:
    \b(?P<title>\d{{1,2}})\s*{_CFR}\s*,?\s*
        (?:
            {_PARTS_WORD}\s+(?P<parts>{_PARTS})
          | (?:§§?|[Ss]ections?)?\s*(?P<refs>{_REFS})
        )
  | \bTitle\s+(?P<long_title>\d{{1,2}}),?\s+(?:of\s+the\s+)?Code\s+of\s+Federal\s+Regulations
        (?:\s*\(CFR\))?\s*,?\s*
        (?:
            {_PARTS_WORD}\s+(?P<long_parts>{_PARTS})
          | (?:§§?|[Ss]ections?)?\s*(?P<long_refs>{_REFS})
        )
  | (?P<usc>U\.?\s?S\.?\s?C\.?\s*)?(?<!\w)§§?\s*(?P<mark_refs>{_SECTIONS})
        (?:\s+of\s+title\s+(?P<mark_title>\d{{1,2}})\b)?
  | \b[Ss]ections?\s+(?P<word_refs>{_ACT_SAFE})
        (?:\s+of\s+title\s+(?P<word_title>\d{{1,2}})\b)?
    )""",
    re.VERBOSE,
)
_REF = re.compile(rf"(?<![\w.(])(?:{_SEC}|{_PART})")
# What every citation holds, for a first pass over many pages at once (RE2, through Arrow).
_S = r"[\s\pZ\pC]"  # RE2's ASCII \s widened to Python's whitespace (and more)
_CANDIDATE = (
    rf"(?i)c\.?[ \t]?f\.?[ \t]?r|§|cr{_S}*\p{{Nd}}|code{_S}+of{_S}+federal|sections?{_S}+\p{{Nd}}"
)

_QUERY = re.compile(
    r"""\s*(?:cfr:\s*)?
    (?:(?P<title>\d{1,2})\s*(?:c\.?\s?f\.?\s?r\.?|/)\s*)?
    (?:§§?\s*|part\s+|section\s+)?
    (?P<part>\d{1,4})(?:\.(?P<section>\d{1,5})(?:\s?\([0-9a-z]{1,5}\))*)?\s*""",
    re.VERBOSE | re.IGNORECASE,
)


def _citations(text: str) -> list[tuple[int, str, str | None]]:
    """Every citation in `text` in order, repeats kept: (title, part, section or None)."""
    out: list[tuple[int, str, str | None]] = []
    for m in _CITATION.finditer(text):
        if m["usc"]:
            continue
        refs = next(
            m[g]
            for g in ("parts", "refs", "long_parts", "long_refs", "mark_refs", "word_refs")
            if m[g] is not None
        )
        given = m["title"] or m["long_title"] or m["mark_title"] or m["word_title"]
        title = int(given) if given else DEFAULT_TITLE
        for ref in _REF.findall(refs):
            part, _, section = ref.partition(".")
            if int(part) > 0:
                out.append((title, str(int(part)), section or None))
    return out


def _normal(title: int, part: str, section: str | None) -> str:
    return f"{title} CFR {part}.{section}" if section else f"{title} CFR {part}"


def _term(title: int, part: str, section: str | None) -> str:
    where = f"{part}.{section}" if section else part
    return f"{CFR_PREFIX}{where}" if title == DEFAULT_TITLE else f"{CFR_PREFIX}{title}/{where}"


def sections(text: str) -> list[str]:
    """The CFR sections (and parts cited without a section) a text cites, normalised
    (`"21 CFR 211.113"`, `"21 CFR 820"`), in order of first appearance, each once."""
    return list(dict.fromkeys(_normal(*c) for c in _citations(text)))


def terms(text: str) -> dict[str, int]:
    """The index terms of a text's CFR citations (`cfr:211.113`, `cfr:211`) and how many times
    each is cited; a section's citation also counts for its part."""
    counts: Counter[str] = Counter()
    for title, part, section in _citations(text):
        counts[_term(title, part, None)] += 1
        if section:
            counts[_term(title, part, section)] += 1
    return dict(counts)


def query_term(text: str) -> str:
    """The index term of a user's CFR reference: `211.113(b)`, `21 CFR 211.113`, `§ 211.113`,
    `part 820`, `211` or `42 CFR 493.1253`. Raises ValueError for anything else."""
    m = _QUERY.fullmatch(text)
    if m is None or int(m["part"]) == 0:
        raise ValueError(
            f"{text!r} is not a CFR reference: write a part or a section, such as 211, "
            "211.113, 211.113(b), part 820 or 21 CFR 211.113"
        )
    title = int(m["title"]) if m["title"] else DEFAULT_TITLE
    return _term(title, str(int(m["part"])), m["section"])


def term_value(term: str) -> str:
    """The normal form of an index term: `cfr:211.113` -> `21 CFR 211.113`, `cfr:42/493` ->
    `42 CFR 493`."""
    where = term.removeprefix(CFR_PREFIX)
    title, _, rest = where.rpartition("/")
    return f"{title or DEFAULT_TITLE} CFR {rest}"


def candidates(texts: pa.ChunkedArray | pa.Array) -> np.ndarray:
    """Positions of the texts that may cite the CFR (a superset, found in one vectorised pass);
    the others cite nothing."""
    hit = pc.match_substring_regex(texts, _CANDIDATE).fill_null(False)
    return np.flatnonzero(np.asarray(hit.to_numpy(zero_copy_only=False), bool))
