"""A document read as its kind is written: a 483's observations, a warning letter's violations
with FDA's view of the response and what it asks for, a complete response letter's deficiency
sections, a MAUDE report's event description and manufacturer narrative, a guidance's
recommendations. Pages become units (runs of blocks of one page), each labelled, with its heading
and citations; furniture is labelled too, so that the agent answers from substance."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace

from regnb.documents.blocks import Block, split_blocks
from regnb.documents.cfr import cfr_citations
from regnb.documents.furniture import is_furniture, is_furniture_line
from regnb.documents.words import fold_spaces, sentences, word_set

__all__ = [
    "KINDS",
    "STATEMENTS",
    "UNNUMBERED",
    "Unit",
    "document_kind",
    "outline_level",
    "parse_document",
    "states_standard",
    "trimmed",
]

# Units whose statement is the regulation's own standard wording ("There is a failure to
# thoroughly review…" opens hundreds of 483 observations): a sentence common in the dataset is
# their finding, not furniture.
STATEMENTS = frozenset({"finding", "violation", "deficiency"})


def states_standard(kind: str, dataset: str) -> bool:
    """Whether a unit's sentences common in its dataset are its substance: a finding's,
    violation's or deficiency's standard wording, and every 483 text (FDA's cite language)."""
    return kind in STATEMENTS or document_kind(dataset) == "483"


KINDS = frozenset(
    {
        "finding",
        "violation",
        "deficiency",
        "request",
        "response",
        "recommendation",
        "description",
        "narrative",
        "furniture",
        "text",
    }
)
MAX_UNIT_BLOCKS = 15
MAX_UNIT_WORDS = 300  # a numbered item's continuation joins it up to this size
MAX_LIST_WORDS = 450  # a lead-in's list joins it up to this size

_DOCUMENT_KINDS = {
    "fda_483": "483",
    "fda_warning_letters": "warning_letter",
    "fda_crl": "crl",
    "fda_maude": "maude",
    "fda_guidance": "guidance",
    "ema_mdcg_guidance": "guidance",
    "ich_guidelines": "guidance",
}


@dataclass(frozen=True)
class Unit:
    """Blocks `first`..`last` of page `page_num`, read as one piece of the document."""

    page_num: int
    first: int
    last: int
    text: str
    kind: str
    heading: str
    number: str | None
    cfr: tuple[str, ...]
    repeat: bool = False
    outline: tuple[str, ...] = ()  # the headings of the sections around `heading`, outermost first

    @property
    def block_id(self) -> str:
        return f"¶{self.first}" if self.first == self.last else f"¶{self.first}-{self.last}"


def document_kind(dataset: str) -> str:
    """The kind of a dataset's documents: 483, warning_letter, crl, maude, guidance, generic
    (a source suffix such as "fda_483__ncruickshank" is ignored)."""
    return _DOCUMENT_KINDS.get(dataset.split("__")[0], "generic")


@dataclass(frozen=True)
class _Mark:
    """What a reader makes of one block."""

    kind: str
    heading: str = ""
    number: str | None = None
    group: int = 0  # the observation or violation the block belongs to
    start: bool = False  # begins a unit (a numbered item, an event at its start)
    bare: bool = False  # only a heading: the block after it joins it
    joins: bool = False  # continues the unit of the same label before it
    outline: tuple[str, ...] = ()  # the enclosing sections' headings

    @property
    def label(self) -> tuple[str, str, str | None, int]:
        return (self.kind, self.heading, self.number, self.group)


_FURNITURE = _Mark("furniture")
_LEADIN = re.compile(
    r"(?::|\b(?:the following|as follows|specifically|for example|for instance|including|such as)"
    r"[:,.]?)\s*$",
    re.IGNORECASE,
)
_LISTY = re.compile(r"^\s*(?:[-•*▪●◦·o]\s|\(?[a-zA-Z0-9]{1,3}[.)]\s|[a-z])")
_ITEM_END = re.compile(r"(?:[;,]|\band|\bor)\s*$")
_WORD = re.compile(r"\S+")


_TRAILING_BULLETS = re.compile(r"(?:\s*[-•*▪●◦·o]\s*)+$")


def _is_leadin(text: str) -> bool:
    """A block that introduces a list: it ends with ":" or "the following" (PDF text often puts
    the list's bullets, without their items, after it)."""
    return bool(_LEADIN.search(_TRAILING_BULLETS.sub("", text)))


class _Reader:
    """Reads a document's blocks in order; this one finds no structure (one unit per block)."""

    lists = False  # whether a lead-in keeps the list after it

    def __init__(
        self, dataset: str, common: frozenset[str], running: frozenset[str] = frozenset()
    ) -> None:
        self.dataset = dataset
        self.common = common
        self.running = running  # the document's running header and footer lines
        self.page_num = 0
        self.repeats: set[int] = set()
        self.groups = 0  # numbered groups seen (an observation, a violation, an item)
        self.reset()

    def new_page(self, page_num: int, consecutive: bool) -> None:
        """A new page; what was in progress carries over only to the next page number."""
        self.page_num = page_num
        if not consecutive:
            self.reset()

    def reset(self) -> None:
        """Forget the heading, section and item in progress."""

    def furniture(self, text: str) -> bool:
        if self.running and all(line in self.running for _, line in _lines(text)):
            return True
        return is_furniture(text, self.dataset, common=self.common)

    def mark(self, block: Block) -> _Mark:
        return _FURNITURE if self.furniture(block.text) else _Mark("text")


class _Events(_Reader):
    """A reader whose structure is announced by events in the text (a heading line, a numbered
    item): a block takes the label in force over most of its text; later events label the
    blocks after it."""

    lists = True

    def events(self, text: str) -> list[tuple[int, str, str]]:
        raise NotImplementedError

    def apply(self, event: str, value: str) -> None:
        raise NotImplementedError

    def label(self, block: Block, start: bool, bare: bool) -> _Mark:
        raise NotImplementedError

    def mark(self, block: Block) -> _Mark:
        text = block.text
        events = sorted(self.events(text), key=lambda e: e[0])
        bounds = [0] + [pos for pos, _, _ in events] + [len(text)]
        spans = [bounds[i + 1] - bounds[i] for i in range(len(bounds) - 1)]
        ruling = self.ruling(spans, events)
        for _, event, value in events[:ruling]:
            self.apply(event, value)
        start = ruling > 0
        bare = start and self.is_bare(text)
        mark = _FURNITURE if self.furniture(text) else self.label(block, start, bare)
        for _, event, value in events[ruling:]:
            self.apply(event, value)
        return mark

    def ruling(self, spans: list[int], events: list[tuple[int, str, str]]) -> int:
        """Which span's label the block takes (span i follows event i - 1): the longest."""
        return max(range(len(spans)), key=lambda i: (spans[i], -i))

    def is_bare(self, text: str) -> bool:
        return False


def _lines(text: str) -> list[tuple[int, str]]:
    """(offset, folded line) of each non-blank line."""
    out = []
    pos = 0
    for line in text.split("\n"):
        if line.strip():
            out.append((pos + len(line) - len(line.lstrip()), fold_spaces(line)))
        pos += len(line) + 1
    return out


# "BSERVATION 2": OCR often crops a line's first letter
_OBSERVATION = re.compile(r"(?<![A-Za-z])O?BSERVATION\s*#?\s*(\d{1,2})\b")
_BARE_OBSERVATION = re.compile(
    r"\W*O?BSERVATION\s*#?\s*\d{1,2}\W*(?:REPEAT(?:ED)?(?: OBSERVATION)?\W*)?", re.IGNORECASE
)
_REPEAT = re.compile(
    r"\brepeat(?:ed)?\s+(?:objectionable\s+|fda[- ]?483\s+)?observation\b|\(\s*repeat\s*\)",
    re.IGNORECASE,
)
_REPEAT_WORD = re.compile(r"\bREPEAT\b")  # upper case alone: a mark, not a verb
_CITES_RULE = re.compile(r"\b21\s*C\.?F\.?R\.?\s*(?:§\s*)?\d", re.IGNORECASE)
_SUB_ITEM = re.compile(r"^\s*(?!\(?b\)\s*\(\d\))\(?([A-Za-z]|\d{1,2})[.)]\s+\S")


class _Form483(_Events):
    """Form FDA 483: OBSERVATION n and its sub-items; the form's header is furniture."""

    def reset(self) -> None:
        self.obs: str | None = None
        self.group = 0
        self.sub: str | None = None

    def events(self, text: str) -> list[tuple[int, str, str]]:
        found = [(m.start(), "obs", m.group(1)) for m in _OBSERVATION.finditer(text)]
        found += [(m.start(), "repeat", "") for m in _REPEAT.finditer(text)]
        found += [(m.start(), "repeat", "") for m in _REPEAT_WORD.finditer(text)]
        return found

    def apply(self, event: str, value: str) -> None:
        if event == "obs":
            self.groups += 1
            self.obs, self.group, self.sub = value, self.groups, None
        elif self.group:
            self.repeats.add(self.group)

    def is_bare(self, text: str) -> bool:
        return bool(_BARE_OBSERVATION.fullmatch(fold_spaces(text)))

    def label(self, block: Block, start: bool, bare: bool) -> _Mark:
        sub = _SUB_ITEM.match(block.text)
        if sub and self.obs is not None and not start:
            self.sub, start = sub.group(1).upper(), True
        if self.obs is None:
            # before the first observation: the form's header on page 1 (unless it cites a
            # regulation, as FDA's catalog of cite language does), else an observation whose
            # heading is on a page not read
            header = self.page_num <= 1 and not _CITES_RULE.search(block.text)
            return _FURNITURE if header else _Mark("finding", joins=True)
        number = self.obs if self.sub is None else f"{self.obs}.{self.sub}"
        heading = f"Observation {self.obs}"
        return _Mark("finding", heading, number, self.group, start, bare, joins=not start)


_WL_VIOLATION = re.compile(r"^\(?(\d{1,2})[.)]\s+(?=\S)")
_WL_FAILURE = re.compile(
    r"\b(?:fail\w*|did not|does not|do not|not (?:establish|follow|maintain|perform|adequate)"
    r"|lack\w*|adulterated|misbranded|unapproved)\b|21\s*C\.?F\.?R|\bsection\s+\d{3}",
    re.IGNORECASE,
)
_WL_RESPONSE = re.compile(
    r"^(?:Your (?:firm'?s?\s+)?(?:responses?|reply|corrective actions?|proposed)"
    r"|In (?:your|its|their) (?:firm'?s?\s+)?(?:responses?|reply)\b(?! to this letter)"
    r"|We (?:have )?reviewed your (?:firm'?s?\s+)?[\w ,]{0,40}?(?:responses?|reply|correspondence)"
    r"|(?:We|FDA) (?:acknowledges?|notes?) (?:that )?your (?:firm'?s?\s+)?response"
    r"|(?:Evaluation|Review) of (?:your|the firm'?s?) responses?)",
)
_WL_REQUEST = re.compile(
    r"^(?:In response to this letter|(?:Please )?(?:Provide|Submit) (?:the following|a|an|your|all"
    r"|copies|documentation|evidence|data|results|details)\b)",
)
_WL_VIOLATION_SECTION = re.compile(
    r"violation|adulterat|misbrand|unapproved|deviation|charge|prohibited|noncomplian",
    re.IGNORECASE,
)
_WL_CHARGE = re.compile(
    r"\b(?:in violation of|violat(?:es|ed|ing)|(?:is|are|were|was) (?:adulterated|misbranded)"
    r"|misbrands?|unapproved new drugs?)\b",
    re.IGNORECASE,
)
_TITLE_WORD = re.compile(r"^[A-Z(&]")
_PERSON = re.compile(r"^[A-Z][a-z]+ [A-Z]\. [A-Z][a-z]+")  # "Isaac K. Carney" signs, not heads
_SMALL_WORDS = word_set("a an and as at by for from in of on or the to with")


def _is_title_line(line: str, max_words: int = 8) -> bool:
    """A short line in title or upper case with no closing punctuation: a section heading."""
    words = line.split()
    if not words or len(words) > max_words or line[-1] in ".,;:!?" or not line[0].isupper():
        return False
    if not any(ch.islower() for ch in line) and len(line) < 4:
        return False
    if _PERSON.match(line) or is_furniture_line(line):
        return False
    capital = sum(1 for w in words if _TITLE_WORD.match(w) or w.lower() in _SMALL_WORDS)
    return capital == len(words) and any(ch.isalpha() for ch in line)


class _WarningLetter(_Events):
    """Warning letters: section headings, numbered violations, FDA's view of the response,
    and what the letter asks the firm to provide."""

    def reset(self) -> None:
        self.section = ""
        self.violation: str | None = None
        self.mode: str | None = None
        self.group = 0
        self.last = 0

    def events(self, text: str) -> list[tuple[int, str, str]]:
        found = []
        for pos, line in _lines(text):
            if is_furniture_line(line, self.dataset):
                continue
            violation = _WL_VIOLATION.match(line)
            if violation and self._is_violation(violation.group(1), line):
                found.append((pos, "violation", violation.group(1)))
            elif _is_title_line(line):
                found.append((pos, "section", line))
            elif _WL_RESPONSE.match(line):
                found.append((pos, "response", ""))
            elif _WL_REQUEST.match(line):
                found.append((pos, "request", ""))
        return found

    def _is_violation(self, number: str, line: str) -> bool:
        expected = self.last + 1 if self.last else None
        fits = expected is None or int(number) == expected
        return fits and bool(_WL_FAILURE.search(line[:400]))

    def apply(self, event: str, value: str) -> None:
        if event == "violation":
            self.groups += 1
            self.violation, self.group, self.mode = value, self.groups, "violation"
            self.last = int(value)
        elif event == "section":
            self.section, self.violation, self.mode, self.group = value, None, None, 0
        elif event == "response" and (self.violation or self.section):
            self.mode = "response"
        elif event == "request":
            self.mode = "request"

    def is_bare(self, text: str) -> bool:
        return all(_is_title_line(line) for _, line in _lines(text))

    def label(self, block: Block, start: bool, bare: bool) -> _Mark:
        heading = f"Violation {self.violation}" if self.violation else self.section
        if self.mode in ("response", "request"):
            kind = self.mode
        elif self.mode == "violation" or (
            self.section and _WL_VIOLATION_SECTION.search(self.section)
        ):
            kind = "violation"
        elif _WL_CHARGE.search(block.text) and cfr_citations(block.text):
            kind = "violation"  # a charge in a letter that does not number its violations
        else:
            kind = "text"
        return _Mark(kind, heading, self.violation, self.group, start, bare, joins=not start)


_CRL_SECTION = re.compile(
    r"FACILIT|QUALITY|CLINICAL|PHARMACOLOGY|TOXICOLOGY|HUMAN FACTORS|LABELING|PRESCRIBING"
    r"|CARTON|CONTAINER|MEDICATION GUIDE|INSTRUCTIONS FOR USE|PATIENT|MICROBIOLOGY"
    r"|BIOPHARMACEUTICS|BIOEQUIVALENCE|DEVICE|PROPRIETARY NAME|SAFETY|ADDITIONAL COMMENT"
    r"|^OTHER\b|STATISTIC|CHEMISTRY|MANUFACTURING|\bCMC\b|DRUG SUBSTANCE|DRUG PRODUCT|REGULATORY"
    r"|RISK EVALUATION|\bREMS\b|PEDIATRIC|\bPREA\b|EFFICACY|IMMUNOGENICITY|STERILITY|INSPECTION"
    r"|DEFICIENC|PDUFA|TENTATIVE APPROVAL|CLARITY"
)
# a deficiency's own parts, and the cover page's title: not sections
_CRL_NOT_SECTIONS = frozenset(
    {"IDENTIFIED ISSUE", "RATIONALE FOR CONCERN", "RECOMMENDATION", "OTHER ACTION LETTERS"}
)
_CRL_FURNITURE_SECTIONS = re.compile(r"^(?:PDUFA\b.*)$")
# The safety update's list is standard (furniture.py knows its items) but for the requests a
# letter adds to it ("Provide a summary and analysis of all patients who had recurrent ARIA").
_CRL_REQUEST_SECTIONS = re.compile(r"^(?:SAFETY UPDATE)$")
_CRL_TEXT_SECTIONS = re.compile(r"^(?:OTHER\b.*|PROPRIETARY NAME|TENTATIVE APPROVAL)$")
_CRL_ITEM = re.compile(r"^\(?(\d{1,2})[.)]\s+(?=\S)")
_ACRONYMS = word_set("CMC REMS PREA PDUFA PI IFU NDA BLA ANDA")


def _sentence_case(heading: str) -> str:
    """ "PRODUCT QUALITY" → "Product quality" (acronyms kept)."""
    words = [w if w in _ACRONYMS else w.lower() for w in heading.split()]
    out = " ".join(words)
    return out[:1].upper() + out[1:]


def _crl_heading(line: str) -> str | None:
    """The section a line heads (upper case, known words), without markdown marks."""
    bare = line.strip("#*_ :").strip()
    if not bare or bare != bare.upper() or len(bare.split()) > 8 or re.search(r"\d", bare):
        return None
    if bare in _CRL_NOT_SECTIONS or not _CRL_SECTION.search(bare):
        return None
    return bare


SECTION_SHARE = 0.35  # of a block after a deficiency heading inside the letter's opening


class _ResponseLetter(_Events):
    """Complete response letters: upper-case section headings and their numbered deficiencies;
    the standard sections (safety update, labeling checklist, resubmission text) are furniture."""

    def reset(self) -> None:
        self.section = ""
        self.item: str | None = None
        self.group = 0
        self.fresh = False  # a section heading seen, its first content not yet

    def events(self, text: str) -> list[tuple[int, str, str]]:
        found = []
        for pos, line in _lines(text):
            heading = _crl_heading(line)
            if heading:
                found.append((pos, "section", heading))
            elif item := _CRL_ITEM.match(line):
                found.append((pos, "item", item.group(1)))
        return found

    def apply(self, event: str, value: str) -> None:
        self.groups += 1
        if event == "section":
            self.section, self.item, self.group, self.fresh = value, None, 0, True
        else:
            self.item, self.group, self.fresh = value, self.groups, False

    def is_bare(self, text: str) -> bool:
        return all(_crl_heading(line) for _, line in _lines(text))

    def ruling(self, spans: list[int], events: list[tuple[int, str, str]]) -> int:
        """A deficiency section that opens inside the letter's opening paragraph ("…below.
        Deficiency Identified: FACILITY INSPECTIONS During our recent inspection…") rules the
        block when a good share of it follows the heading."""
        longest = super().ruling(spans, events)
        if self.section or self.item is not None or longest != 0:
            return longest
        total = sum(spans) or 1
        for i, (_, event, value) in enumerate(events, start=1):
            share = spans[i] >= SECTION_SHARE * total
            if event == "section" and share and not _CRL_FURNITURE_SECTIONS.match(value):
                return i
        return longest

    def furniture(self, text: str) -> bool:
        return bool(_CRL_FURNITURE_SECTIONS.match(self.section)) or super().furniture(text)

    def label(self, block: Block, start: bool, bare: bool) -> _Mark:
        if not self.section and self.item is None:
            return _Mark("text")  # the letter's opening
        if self.fresh and not bare:
            start, self.fresh = True, False
        if "ADDITIONAL COMMENT" in self.section:
            kind = "recommendation"
        elif _CRL_REQUEST_SECTIONS.match(self.section):
            kind = "furniture" if bare else "request"
        elif _CRL_TEXT_SECTIONS.match(self.section):
            kind = "text"
        else:
            kind = "deficiency"
        heading = _sentence_case(self.section)
        return _Mark(kind, heading, self.item, self.group, start, bare, joins=not start)


_MAUDE_LABEL = re.compile(
    r"\b(event description|description of (?:the )?event|(?:additional )?manufacturer'?s? narrative"
    r"|product event summary|evaluation summary)\s*:",
    re.IGNORECASE,
)
_NARRATIVE_CUES = re.compile(
    r"\b(?:investigat\w*|evaluat\w*|analy[sz]\w*|root cause|returned|device history|dhr|capa"
    r"|conclu\w*|was performed|could not be (?:confirmed|determined|duplicated)|no anomal\w*"
    r"|supplemental|manufacturer)\b",
    re.IGNORECASE,
)
_DESCRIPTION_CUES = re.compile(
    r"\b(?:it was reported|reported that|alleg\w*|patient|customer|caller|user|procedure"
    r"|event occurred|was admitted|injur\w*)\b",
    re.IGNORECASE,
)


class _Maude(_Reader):
    """MAUDE reports: the event description and the manufacturer's narrative (evaluation,
    root cause), by their labels where the report has them, else by their words."""

    def reset(self) -> None:
        self.part: str | None = None

    def mark(self, block: Block) -> _Mark:
        text = block.text
        labels = list(_MAUDE_LABEL.finditer(text))
        early = [m for m in labels if m.start() <= len(text) / 2]
        for match in early:
            self.part = self._part(match.group(1))
        part = self.part
        for match in labels[len(early) :]:
            self.part = self._part(match.group(1))
        if self.furniture(text):
            return _FURNITURE
        if part is None:
            narrative = len(_NARRATIVE_CUES.findall(text)) > len(_DESCRIPTION_CUES.findall(text))
            part = "narrative" if narrative else "description"
        heading = "Manufacturer narrative" if part == "narrative" else "Event description"
        return _Mark(part, heading)

    @staticmethod
    def _part(label: str) -> str:
        lowered = label.lower()
        return "description" if "description" in lowered else "narrative"


_GUIDANCE_HEADING = re.compile(
    r"^(?:((?:[IVX]{1,5}|[A-Z]|\d{1,2}(?:\.\d{1,2})*))[.)]?\s+)?([A-Z][^.:;]{2,90})$"
)
_LINE_NUMBER = re.compile(r"^\d{1,4}$")
# One word that opens a sentence, never a section: "See", "The", "For".
_NOT_TITLES = word_set("the a an see for in this these that those as if when where note also")
_ENUMERATOR = re.compile(r"^((?:[IVX]{1,5}|[A-Z]|\d{1,2}(?:\.\d{1,2})*))[.)]?$")
# What a guidance recommends, and the policy it states ("FDA intends to exercise enforcement
# discretion", "does not intend to object", "you must").
_RECOMMENDS = re.compile(
    r"\b(?:should|recommends?|recommended|encourages?|intends? to|does not intend|"
    r"enforcement discretion|expects?|must)\b",
    re.IGNORECASE,
)
UNNUMBERED = 5  # the outline level of a title with no enumerator: under every numbered one
CAPITAL_TITLE_WORDS = 20  # an enumerated title in capitals may be this long ("B. WHAT SHOULD…")


_ROMAN_BEFORE = {"I": None, "V": "IV", "X": "IX"}  # a lone I, V or X is a numeral after these


def outline_level(enumerator: str | None, last_roman: str | None = None) -> int:
    """Where an enumerator puts its title in a guidance's outline: "III" 1, "A" 2, "2" 3,
    "2.1" 4 (and deeper), none `UNNUMBERED`. A lone "V" or "X" is a numeral only after "IV" or
    "IX" (`last_roman`, the outline's last numeral), else a letter; a lone "I" is a numeral."""
    if not enumerator:
        return UNNUMBERED
    if enumerator[0].isdigit():
        return 3 + enumerator.count(".")
    if enumerator in _ROMAN_BEFORE:
        return 1 if _ROMAN_BEFORE[enumerator] == last_roman else 2
    return 1 if re.fullmatch(r"[IVX]+", enumerator) else 2


class _Guidance(_Reader):
    """Guidance: section titles set headings, nested by their enumerators (III., A., 1.) into an
    outline; paragraphs that recommend are recommendations, and a lead-in keeps the list it
    introduces."""

    lists = True

    def reset(self) -> None:
        self.heading = ""
        self.outline: list[tuple[int, str]] = []  # the open sections: level and title
        self.last_roman: str | None = None  # the last section numeral ("IV")

    def _title(self, line: str, enumerator: str | None) -> tuple[str, int, str | None] | None:
        """A section title on `line` (its enumerator, when on a line of its own, given) and its
        outline level; None when the line is not a title."""
        if line in self.running:  # the guidance's title atop every page heads no section
            return None
        match = _GUIDANCE_HEADING.match(line)
        if not match:
            return None
        enumerator = match.group(1) or enumerator
        title = match.group(2)
        if enumerator is None and title.lower() in _NOT_TITLES:
            return None  # a sentence wrapped after its first word: "The\nAppendices provide…"
        capitals = enumerator is not None and title.upper() == title
        if capitals:  # "C. HOW SHOULD A FIRM INITIATE A VOLUNTARY RECALL?"
            ok = _is_title_line(title.rstrip("?"), max_words=CAPITAL_TITLE_WORDS)
        else:
            ok = _is_title_line(title, max_words=12)
        if not ok or is_furniture_line(line, self.dataset):
            return None
        return title, outline_level(enumerator, self.last_roman), enumerator

    def _open(self, title: str, level: int, enumerator: str | None) -> None:
        if level == 1:
            self.last_roman = enumerator
        while self.outline and self.outline[-1][0] >= level:
            self.outline.pop()
        self.outline.append((level, title))
        self.heading = title

    def _mark(self, kind: str, bare: bool = False) -> _Mark:
        around = tuple(title for _, title in self.outline[:-1])
        return _Mark(kind, self.heading, bare=bare, outline=around)

    def mark(self, block: Block) -> _Mark:
        # a draft's line numbers stand on lines of their own: they are not its text
        lines = [(o, line) for o, line in _lines(block.text) if not _LINE_NUMBER.match(line)]
        if self.furniture(block.text) or not lines:
            return _FURNITURE
        if len(lines) == 1 and _ENUMERATOR.match(lines[0][1]):
            return self._mark("text", bare=True)
        first = 0
        enumerator = None
        alone = _ENUMERATOR.match(lines[0][1]) if len(lines) > 1 else None
        if alone:  # "III." on a line of its own
            first, enumerator = 1, alone.group(1)
        wrapped = (
            len(lines) > first + 1 and not lines[first + 1][1][:1].isupper()
        )  # a title goes on a line of its own
        title = None if wrapped else self._title(lines[first][1], enumerator)
        if title:
            self._open(*title)
        kind = "recommendation" if _RECOMMENDS.search(block.text) else "text"
        bare = title is not None and len(lines) == first + 1
        return self._mark("text" if bare else kind, bare=bare)


_READERS: dict[str, type[_Reader]] = {
    "483": _Form483,
    "warning_letter": _WarningLetter,
    "crl": _ResponseLetter,
    "maude": _Maude,
    "guidance": _Guidance,
    "generic": _Reader,
}


@dataclass
class _Draft:
    """A unit being built."""

    mark: _Mark
    blocks: list[Block] = field(default_factory=list)
    words: int = 0
    content: int = 0  # blocks that are not bare headings
    listing: bool = False  # a lead-in opened a list: list items join

    @property
    def open_heading(self) -> bool:
        return self.content == 0

    @property
    def lone_leadin(self) -> bool:
        return self.listing and self.content == 1


def _words(block: Block) -> int:
    return len(_WORD.findall(block.text))


def _joins(draft: _Draft, block: Block, mark: _Mark, lists: bool) -> bool:
    """Whether a block continues the unit being built."""
    if mark.kind == "furniture" or draft.mark.kind == "furniture":
        return False
    if draft.open_heading:
        return True
    size = len(draft.blocks)
    if lists and draft.listing and not mark.start and size < MAX_UNIT_BLOCKS:
        listy = block.kind == "item" or bool(_LISTY.match(block.text))
        listy = listy or bool(_ITEM_END.search(draft.blocks[-1].text))
        if draft.lone_leadin or (listy and draft.words + _words(block) <= MAX_LIST_WORDS):
            return True
    if not mark.joins or mark.label != draft.mark.label or size >= MAX_UNIT_BLOCKS:
        return False
    return draft.words + _words(block) <= MAX_UNIT_WORDS


def _extend(draft: _Draft, block: Block, mark: _Mark) -> None:
    if draft.open_heading and not mark.bare:
        if mark.heading:
            draft.mark = mark
        else:
            draft.mark = replace(mark, heading=draft.mark.heading, outline=draft.mark.outline)
    elif draft.mark.kind == "text" and mark.kind == "recommendation":
        draft.mark = replace(draft.mark, kind="recommendation")
    draft.blocks.append(block)
    draft.words += _words(block)
    draft.content += 0 if mark.bare else 1
    draft.listing = draft.listing or (not mark.bare and _is_leadin(block.text))


def _settle(out: list[_Draft]) -> None:
    """A lead-in whose list never came joins the unit before it (a lead-in never stands
    alone where the page has a unit before it)."""
    if len(out) < 2 or not out[-1].lone_leadin:
        return
    if "furniture" not in (out[-1].mark.kind, out[-2].mark.kind):
        last = out.pop()
        out[-1].blocks += last.blocks
        out[-1].words += last.words


def _drafts(blocks: list[Block], marks: list[_Mark], lists: bool) -> list[_Draft]:
    """A page's blocks grouped into units: bare headings join what follows them, lead-ins the
    list after them, numbered items their continuation."""
    out: list[_Draft] = []
    for block, mark in zip(blocks, marks, strict=True):
        if out and _joins(out[-1], block, mark, lists):
            _extend(out[-1], block, mark)
            continue
        if lists:
            _settle(out)
        out.append(_Draft(mark))
        _extend(out[-1], block, mark)
    if lists:
        _settle(out)
    return out


def _unit(page_num: int, page: str, draft: _Draft, repeats: set[int]) -> Unit:
    text = page[draft.blocks[0].start : draft.blocks[-1].end]
    mark = draft.mark
    return Unit(
        page_num=page_num,
        first=draft.blocks[0].number,
        last=draft.blocks[-1].number,
        text=text,
        kind="text" if draft.open_heading and mark.kind != "furniture" else mark.kind,
        heading=mark.heading,
        number=mark.number,
        cfr=cfr_citations(text),
        repeat=bool(mark.group) and mark.group in repeats,
        outline=mark.outline,
    )


RUNNING_EDGE = 3  # lines at the top and the bottom of a page where running lines sit
RUNNING_PAGES = 3  # pages a line must head or foot to be a running line


def running_lines(pages: Mapping[int, str]) -> frozenset[str]:
    """The lines (folded) that head or foot several of the pages: a running title or header,
    never a section's heading. Page numbers and other lines with no letters are left out."""
    seen: Counter[str] = Counter()
    for text in pages.values():
        lines = [line for _, line in _lines(text)]
        edges = {*lines[:RUNNING_EDGE], *lines[-RUNNING_EDGE:]}
        seen.update(line for line in edges if any(c.isalpha() for c in line))
    least = min(RUNNING_PAGES, len(pages))
    return frozenset(line for line, n in seen.items() if n >= least and least >= 2)


def parse_document(
    dataset: str, pages: Mapping[int, str], *, common: frozenset[str] = frozenset()
) -> list[Unit]:
    """The units of the pages read of one document (page number → text), in page order: every
    non-empty block in exactly one unit, no unit across pages. `common` holds the keys of the
    dataset's common sentences (`Engine.common_sentences`), furniture whatever their words."""
    reader = _READERS[document_kind(dataset)](dataset, common, running_lines(pages))
    drafts: list[tuple[int, str, _Draft]] = []
    previous: int | None = None
    for page_num in sorted(pages):
        page = pages[page_num]
        reader.new_page(page_num, previous is not None and page_num == previous + 1)
        previous = page_num
        blocks = split_blocks(page)
        marks = [reader.mark(block) for block in blocks]
        drafts += [(page_num, page, d) for d in _drafts(blocks, marks, reader.lists)]
    return [_unit(num, page, draft, reader.repeats) for num, page, draft in drafts]


def trimmed(unit: Unit, page: str, furniture: Callable[[str], bool]) -> Unit | None:
    """The unit without the furniture blocks at its start and end (a standard paragraph that
    the parser joined to an item), or None when every block of it is furniture."""
    if unit.first == unit.last:
        return unit
    blocks = split_blocks(page)[unit.first - 1 : unit.last]
    keep = [not furniture(b.text) for b in blocks]
    # a block at the unit's start that opens with a standard sentence is the end of the
    # standard list the PDF ran into the item
    opening = (sentences(blocks[0].text) or [blocks[0].text])[0]
    if keep[0] and any(keep[1:]) and furniture(opening):
        keep[0] = False
    if all(keep):
        return unit
    if not any(keep):
        return None
    first = keep.index(True)
    last = len(keep) - 1 - keep[::-1].index(True)
    start, end = blocks[first].start, blocks[last].end
    return replace(unit, first=unit.first + first, last=unit.first + last, text=page[start:end])
