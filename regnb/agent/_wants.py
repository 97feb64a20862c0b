"""What kind of statement answers a question: an amount ("what are the revenue cutoffs?"), a
time ("how soon must it be filed?"), a condition ("when can't you use it?"), a number, a reason,
examples, or what something must contain. A question's words rarely name the words of the
passage that answers it ("cutoff" against "no more than $30 million"); the kind of statement it
asks for is what the two share, so a unit that makes such a statement about what is asked goes
before one that only repeats the question's words.

Read from the question alone (`wanted`), tested on a unit's text (`holds_wanted`). Pure."""

from __future__ import annotations

import re
from collections.abc import Sequence

__all__ = ["WANTS", "WANT_SHARE", "holds_wanted", "wanted", "with_wanted"]

WANT_SHARE = 0.35  # of a unit's evidence of what is asked, the share the wanted statement holds


def _words(*alternatives: str) -> re.Pattern[str]:
    return re.compile(r"\b(?:" + "|".join(alternatives) + r")\b", re.IGNORECASE)


# (name, what in a question asks for it, what in a passage states it)
WANTS: tuple[tuple[str, re.Pattern[str], re.Pattern[str]], ...] = (
    (
        "amount",
        re.compile(
            r"\bhow much\b|\bfees?\b|\bcosts?\b|\bprices?\b|\brevenues?\b|\bcut-?offs?\b|"
            r"\bthresholds?\b|\bdollars?\b|\bpay (?:less|more|a reduced)\b|"
            r"\b(?:what|which)(?: \w+)? limits?\b|\blimits? (?:on|for|of)\b|"
            r"\bpenalt(?:y|ies)\b|\bfines?\b|\bmaximums?\b|\bminimums?\b|\$",
            re.IGNORECASE,
        ),
        re.compile(
            r"\$\s?\d|\b\d[\d,.]*\s*(?:million|billion|thousand)\b|\b\d+(?:\.\d+)?\s*(?:%|percent)|"
            # a measure: "0.88 mGy", "0.5 EU/mL", "100 mL", "2 ppm"
            r"\b\d+(?:\.\d+)?\s*(?:[mµu]?(?:Gy|Sv|R)|mcg|[mµuk]?g|[mµ]?L|ppm|ppb|EU|IU|mm|cm|nm|psi|dB)\b|"
            r"\b(?:no more than|not more than|less than|more than|at least|up to|exceed(?:s|ing)?)\b"
            r"\s+(?:\$|\d)",
            re.IGNORECASE,
        ),
    ),
    (
        "time",
        re.compile(
            r"\bhow (?:long|soon|often|quickly|frequently)\b|\bdeadlines?\b|\btime ?(?:lines?|frames?)\b|"
            r"\btiming\b|\bwithin (?:how|what)\b|\bwhat (?:period|interval)\b|\bfrequency\b|"
            r"\bschedule\b|\b(?:each|every) (?:one )?within\b|\bwithin \d+ days\b|\bby when\b|"
            r"\bquarterly\b|\bannual(?:ly)?\b|\bhow many (?:days|months|years|hours)\b",
            re.IGNORECASE,
        ),
        re.compile(
            r"\b\d+\s*(?:-\s*)?(?:calendar |business |working )?(?:days?|weeks?|months?|years?|hours?)\b|"
            r"\b(?:quarterly|annually|annual|monthly|weekly|daily|semi-?annually|biennially)\b|"
            r"\b(?:within|no later than|not later than|prior to|before|after)\s+(?:\d|one|two|three|"
            r"four|five|six|seven|ten|thirty|sixty|ninety)",
            re.IGNORECASE,
        ),
    ),
    (
        "condition",
        re.compile(
            r"\bwhen (?:can(?:'t|not)?|may|must|should|do(?:es)?|is|are|would|will)\b|"
            r"\bexceptions?\b|\bexempt(?:ions?|ed)?\b|\beligib(?:le|ility)\b|\bqualif(?:y|ies|ied|ication)\b|"
            r"\bunless\b|\bcan(?:'t|not)\b|\bnot (?:allowed|permitted|eligible)\b|\bcriteria\b|"
            r"\bunder what\b|\bin what (?:cases|circumstances)\b|\bwhich (?:cases|circumstances)\b|"
            r"\bwhat triggers\b|\bdisqualif",
            re.IGNORECASE,
        ),
        re.compile(
            r"\b(?:unless|except|only (?:when|if)|if (?:you|a|an|the|your|FDA)|eligible|not eligible|"
            r"ineligible|exempt(?:ed|ion)?|does not apply|do not apply|not be used|may not|cannot|"
            r"must not|would not|provided that|in cases where|in (?:such|these) (?:cases|circumstances)|"
            r"qualif(?:y|ies|ied)|criteria|conditions?)\b",
            re.IGNORECASE,
        ),
    ),
    (
        "number",
        re.compile(r"\bhow many\b|\bnumber of\b|\bhow large\b|\bsample size\b", re.IGNORECASE),
        re.compile(
            r"\b\d+\b|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|twelve|twenty)\b",
            re.IGNORECASE,
        ),
    ),
    (
        "reason",
        re.compile(r"\bwhy\b|\breasons?\b|\bgrounds\b|\brationale\b|\bwhat led\b", re.IGNORECASE),
        re.compile(
            r"\b(?:because|due to|as a result|the reason|reasons?|since|based on|in order to|"
            r"given that|caused by|resulted in|led to|associated with|linked to|attributed to|"
            r"(?:can|may|could) (?:cause|result in|lead to))\b",
            re.IGNORECASE,
        ),
    ),
    (
        "examples",
        re.compile(
            # "what kinds of deficiencies…" asks for examples; "what kind of submission do we
            # need?" asks for the one that applies
            r"\bexamples?\b|\bsuch as\b|\be\.g\.|\bwhat (?:counts|kinds|types|sorts)\b|"
            r"\bwhat (?:kind|type|sort)\b(?! of (?:an? |the )?\w+ (?:do|does|is|are|would|should|must|will)\b)|"
            r"\bwhich (?:methods|types|kinds|practices|actions|products|devices|tests)\b|"
            r"\bfor instance\b|\bwhat (?:methods|practices|actions)\b",
            re.IGNORECASE,
        ),
        re.compile(
            r"\b(?:for example|examples?|such as|e\.g\.|for instance|including|include[sd]?)\b|•|"
            r"(?:^|\s)[a-z]\)\s|(?:;\s+(?:and|or)\s)",
            re.IGNORECASE,
        ),
    ),
    (
        "content",
        re.compile(
            r"\bwhat (?:should|must|does|do|needs? to|has to) .{0,60}\b(?:include|contain|cover|"
            r"provide|submit|address|list|describe)\b|\bcontents?\b|\belements?\b|"
            r"\bwhat (?:information|data|documentation|documents|records)\b",
            re.IGNORECASE,
        ),
        re.compile(
            r"\b(?:should include|must include|should contain|must contain|should provide|"
            r"must provide|should (?:describe|address|submit)|the following|at (?:a )?minimum|"
            r"consist(?:s)? of|include[sd]?|including)\b|•",
            re.IGNORECASE,
        ),
    ),
)


def wanted(message: str) -> tuple[str, ...]:
    """The kinds of statement the question asks for, in `WANTS` order (none: any)."""
    return tuple(name for name, asks, _ in WANTS if asks.search(message))


def holds_wanted(text: str, wants: Sequence[str]) -> float:
    """The share of the wanted kinds of statement the text makes (0 to 1; 0 when none wanted)."""
    if not wants:
        return 0.0
    states = {name: says for name, _, says in WANTS}
    return sum(1 for w in wants if w in states and states[w].search(text)) / len(wants)


def with_wanted(topic: float, text: str, wants: Sequence[str]) -> float:
    """A unit's evidence of what is asked (0 to 1), a `WANT_SHARE` of it the wanted statement's:
    "$30 million or less" answers "what are the revenue cutoffs?" without a word of it."""
    if not wants:
        return topic
    return (1.0 - WANT_SHARE) * topic + WANT_SHARE * holds_wanted(text, wants)
