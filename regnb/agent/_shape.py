"""What kind of answer a message asks for: the reasons an application was declined, what an
inspection or a letter found, which firms or products, what guidance recommends, a comparison, a
count or trend, or a general question. The writer answers in that shape."""

from __future__ import annotations

import re
from typing import Literal

from regnb.agent._vocab import WHICH_FIRMS

__all__ = ["QUALIFIES", "SHAPES", "Shape", "question_shape"]

Shape = Literal["declined", "findings", "which", "recommend", "compare", "count", "general"]
SHAPES: tuple[Shape, ...] = (
    "declined",
    "findings",
    "which",
    "recommend",
    "compare",
    "count",
    "general",
)

# "does an AI letter count too?", "counts as a 510(k)": whether something qualifies, not a count.
QUALIFIES = r"(?:too|as|toward|towards|against|either|also)"

# (shape, pattern) tried in order on the message lower-cased; the first that matches wins.
_RULES: list[tuple[Shape, re.Pattern[str]]] = [
    (
        "count",
        re.compile(
            r"\bhow\s+many\b|\bhow\s+(?:common|often|frequent(?:ly)?|prevalent|widespread)\b"
            r"|\bnumber\s+of\b|\btrends?\b|\bper\s+year\b"
            rf"|\bcount(?:s|ed)?\b(?!\s+{QUALIFIES}\b|\s*\?)"
            r"|\bby\s+year\b|\beach\s+year\b|\bmost\s+(?:common|frequent|often)\b|\bfrequen"
        ),
    ),
    (
        "compare",
        re.compile(
            r"\bcompare[sd]?\b|\bcomparison\b|\bversus\b|\bvs\.?\s|\bdiffer(?:s|ed|ence|ences)?\b"
            r"|\bbefore\b.+\b(?:and|vs\.?|versus|with)\b.+\bafter\b|\bchanged?\s+(?:since|between)\b"
        ),
    ),
    (
        "declined",
        re.compile(
            r"\b(?:not|n't|never)\s+(?:been\s+)?approv|\bdeclin(?:e|ed|ing)\b|\breject"
            r"|\bcomplete\s+response\b|\bcrls?\b|\bdeficienc|\bwhy\b.*\bapprov"
        ),
    ),
    (
        "recommend",
        re.compile(
            r"\brecommend|\bguidance\b|\bshould\b|\bexpect(?:s|ation|ations)?\b|\badvi[sc]e"
            r"|\bbest\s+practice|\bhow\s+(?:to|do|should)\b"
        ),
    ),
    (
        "findings",
        re.compile(
            r"\bfind(?:ings?)?\b|\bfound\b|\bobserv|\bcit(?:e|ed|es|ing)\b|\bviolat|\b483s?\b"
            r"|\bwarning\s+letters?\b|\binspect|\bwarned\b|\bwhy\b.*\b(?:letter|warn)"
        ),
    ),
]


# What an inspection or a letter wrote up, and what an application's refusal said.
_INSPECTED = re.compile(r"\b483s?\b|\binspect|\binvestigators?\b|\bwarning\s+letters?\b")
_APPLICATION = re.compile(
    r"\b(?:not|n't|never)\s+(?:been\s+)?approv|\bdeclin|\breject|\bcomplete\s+response\b|\bcrls?\b"
    r"|\bapprov"
)

# "Which 483s…", "List the recalls…", "Name the letters…": a list of documents or firms; and
# "Which <anything> got/received/were sent…": whatever was named got a regulatory document.
_LISTING = re.compile(
    r"\s*(?:which|list|name|what)\s+(?:the\s+|all\s+)?(?:\w+\s+){0,2}?"
    r"(?:483s|letters|documents|reports|recalls|products|devices|drugs|"
    r"applications|crls|inspections|guidances|trials)\b"
    r"|\s*which\s+(?:[^\s?]+\s+){1,6}?(?:\([^)]*\)\s+)?(?:got|get|gets|received|receive|"
    r"were\s+(?:sent|issued|given|cited|warned|recalled|inspected)|have\s+(?:got|received|been\s+"
    r"(?:sent|issued|given|cited|warned|recalled|inspected)))\b"
)


def question_shape(message: str) -> Shape:
    """The answer's shape; a "which firms/products…" question is `which` whatever else it asks."""
    lowered = " ".join(message.lower().split())
    counting = _RULES[0][1].search(lowered)
    if (WHICH_FIRMS.search(message) or _LISTING.match(lowered)) and not counting:
        return "which"
    for shape, pattern in _RULES:
        if pattern.search(lowered):
            if (
                shape == "declined"
                and _INSPECTED.search(lowered)
                and not _APPLICATION.search(lowered)
            ):
                return "findings"  # an inspection's or a letter's deficiencies are its findings
            return shape
    if WHICH_FIRMS.search(message):
        return "which"
    return "general"
