"""Citations of 21 CFR and of the FD&C Act in a text, in one normalised form ("21 CFR
211.113(b)", "21 CFR Part 820", "FD&C Act 501(a)(2)(B)"), and their titles from a shipped table."""

from __future__ import annotations

import functools
import json
import re
from importlib import resources
from typing import cast

__all__ = ["cfr_citations", "cfr_title"]

_PARAS = r"(?:\s?\([a-zA-Z0-9]{1,4}\))*"
# "21 CFR 211.113(b)", "21 C.F.R. § 211.113(b)", "21 CFR Part 820", "21 CFR parts 210 and 211"
_CFR = re.compile(
    r"\b21\s*C\.?\s?F\.?\s?R\.?,?\s*(?P<part>(?:Parts?|§§?|Sec(?:tions?|s?\.))\s*)?"
    rf"(?P<first>\d{{1,4}}(?:\.\d{{1,4}})?(?!\d){_PARAS})"
    rf"(?P<more>(?:\s*(?:,|and|or|&|through|to)\s*(?:and\s+)?§?\s*\d{{1,4}}(?:\.\d{{1,4}})?(?!\d)(?!\s*C\.?\s?F\.?\s?R){_PARAS})*)",
    re.IGNORECASE,
)
# "section 501(a)(2)(B)", "sections 501(a)(2)(B) and 502(o)", "Sec. 704(b)", "section 503A"
# ("§ 321(h)" after "21 U.S.C." is the code, not the Act)
_ACT = re.compile(
    rf"\bsec(?:tions?|s?\.)\s*(?P<first>\d{{3}}(?![.\d])[A-Z]?{_PARAS})"
    rf"(?P<more>(?:\s*(?:,|and|or)\s*(?:and\s+)?\d{{3}}(?![.\d])[A-Z]?{_PARAS})*)",
    re.IGNORECASE,
)
_ITEM = re.compile(rf"§?\s*(\d{{1,4}}(?:\.\d{{1,4}})?[A-Z]?{_PARAS})", re.IGNORECASE)
# An Act section of another statute is not an FD&C Act section.
_OTHER_ACT = re.compile(
    r"[^.;]{0,40}?\bof the (?!(?:federal food|fd&c|fdca|food, drug|act\b))[A-Z][\w .,&-]{0,60}?\bact\b"
    r"|\s*(?:of )?(?:title )?\d*\s*u\.?s\.?c",
    re.IGNORECASE,
)


def _tidy(item: str) -> str:
    return re.sub(r"\s+", "", item.lstrip("§ "))


def _cfr(match: re.Match[str]) -> list[str]:
    """The normalised citations of one 21 CFR match (a list joined by "and" gives several)."""
    is_part = (match.group("part") or "").strip().lower().startswith("part")
    items = [_tidy(match.group("first"))]
    items += [_tidy(m.group(1)) for m in _ITEM.finditer(match.group("more") or "")]
    out = []
    for item in items:
        if is_part and "." not in item:
            out.append(f"21 CFR Part {item}")
        else:
            out.append(f"21 CFR {item}")
    return out


def _act(text: str, match: re.Match[str]) -> list[str]:
    """The normalised FD&C Act citations of one section match; none for another statute's."""
    if _OTHER_ACT.match(text, match.end()):
        return []
    items = [_tidy(match.group("first"))]
    items += [_tidy(m.group(1)) for m in _ITEM.finditer(match.group("more") or "")]
    return [f"FD&C Act {item}" for item in items if re.match(r"\d{3}[A-Z]?(?:\(|$)", item)]


def cfr_citations(text: str) -> tuple[str, ...]:
    """The 21 CFR and FD&C Act citations of `text`, normalised, in order, each once."""
    found: list[tuple[int, str]] = []
    cfr_spans = []
    for match in _CFR.finditer(text):
        cfr_spans.append(match.span())
        found += [(match.start(), c) for c in _cfr(match)]
    for match in _ACT.finditer(text):
        if any(s <= match.start() < e for s, e in cfr_spans):
            continue  # "21 CFR § 211.192" is a CFR section, not an Act section
        found += [(match.start(), c) for c in _act(text, match)]
    seen: dict[str, None] = {}
    for _, citation in sorted(found, key=lambda f: f[0]):
        seen.setdefault(citation, None)
    return tuple(seen)


@functools.cache
def _titles() -> dict[str, dict[str, str]]:
    raw = resources.files("regnb.documents").joinpath("cfr_titles.json").read_text(encoding="utf-8")
    return cast(dict[str, dict[str, str]], json.loads(raw))


def _shorter(section: str) -> list[str]:
    """ "501(a)(2)(B)" → itself, "501(a)(2)", "501(a)", "501"."""
    out = [section]
    while "(" in section:
        section = section[: section.rindex("(")]
        out.append(section)
    return out


def cfr_title(citation: str) -> str | None:
    """The title of a normalised citation: its section's, else its part's (CFR) or its nearest
    enclosing section's (FD&C Act); None when the table does not know it."""
    titles = _titles()
    if citation.startswith("FD&C Act "):
        for key in _shorter(citation.removeprefix("FD&C Act ")):
            if key in titles["fdca_sections"]:
                return titles["fdca_sections"][key]
        return None
    match = re.fullmatch(r"21 CFR (?:Part )?(\d+)(?:\.(\d+))?.*", citation)
    if not match:
        return None
    part, section = match.group(1), match.group(2)
    if section and f"{part}.{section}" in titles["cfr_sections"]:
        return titles["cfr_sections"][f"{part}.{section}"]
    return titles["cfr_parts"].get(part)
