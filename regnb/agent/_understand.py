"""Understanding a question, before anything is searched: every span of the message gets one
reading, chosen by evidence from the corpus and from real place lists.

    a firm      a firm of the corpus, named by name key, FEI or application number ("Lonza
                Houston", "Empower Pharmacy"), with the place that qualifies it where the user
                gave one ("Empower Pharmacy's Houston facilities": Empower, in Houston)
    a place     a country, state, province or city, a nationality ("Indian API makers"), or a
                place against the US ("foreign", "outside the United States", "domestic"): a
                filter on where the firms are, never a firm name
    a dataset   what the user means, not the word: "inspection" reaches 483s and inspection
                classifications; a document type named inside a topic ("the guidance on fees
                for 510(k)s") is the topic, not where to look
    periods     one range, or two for a comparison ("before 2019 vs after 2022")
    a kind      document, which, count, trend, comparison, history, absence or summary: the
                shape of the answer
    pointers    the user's own words for what to find and quote first ("I recall it faulted
                the human factors data")

`understand` reads one message; `understand_turn` reads the last message of a conversation in
the light of the earlier ones ("only the ones in Ohio")."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from regnb.agent._dates import DateRange, find_dates, find_periods
from regnb.agent._names import find_names
from regnb.agent._spelling import Frequency, spelled
from regnb.agent._vocab import (
    DATASET_MEANINGS,
    FIRM_NOUNS,
    IDENTIFIERS,
    KIND_RULES,
    POINTER_CUES,
)
from regnb.agent._wants import wanted
from regnb.documents.places import Place, PlaceSpan, find_places
from regnb.documents.words import QUESTION_WORDS, blank, word_set
from regnb.text import STOP_WORDS

__all__ = [
    "KINDS",
    "OPENING",
    "FirmLookup",
    "FirmMention",
    "Places",
    "Understanding",
    "find_examples",
    "find_pointers",
    "question_kind",
    "understand",
    "understand_turn",
]

KINDS = ("document", "which", "count", "trend", "comparison", "history", "absence", "summary")
FirmLookup = Callable[[str], "str | None"]
"""The corpus's name of the firm a name names outright (its name key, or the start of one), or
None: `regnb.Engine.firm` read for one answer."""

# How far (in words) a nationality may be from the noun of firms it describes ("Korean OTC or
# cosmetic-drug manufacturers").
DEMONYM_REACH = 5
# Words between a firm and a place that make the place the firm's ("Fagron's facility in
# Massachusetts", "SCA Pharmaceuticals' Arkansas site", "BMC Medical's Dublin, Ohio location").
_QUALIFYING = re.compile(
    r"^\s*(?:'s|’s|'|’)?\s*(?:\(|,|in|at|of|near|for)?\s*(?:its|their|the)?\s*"
    r"(?:(?:site|plant|facility|facilities|location|campus|unit|operations?|pharmacy)\s+"
    r"(?:in|at|of|near)\s+)?$",
    re.IGNORECASE,
)
_SITE_AFTER = re.compile(
    r"^\s*(?:site|sites|plant|plants|facility|facilities|location|campus|unit|operations)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class FirmMention:
    """A firm the message names: as written (`name`), its other names (`aliases`: "X
    Outsourcing (X LLC)"), the place that qualifies it, and the corpus's name for it when the
    corpus holds it (`known`)."""

    name: str
    aliases: tuple[str, ...] = ()
    place: Place | None = None
    known: str | None = None


@dataclass(frozen=True)
class Places:
    """Where the firms searched are: in one of `include` (none: anywhere) and in none of
    `exclude`."""

    include: tuple[Place, ...] = ()
    exclude: tuple[Place, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.include or self.exclude)


@dataclass(frozen=True)
class Understanding:
    """A message understood: each span read once. `datasets` None: the message names none
    (search every one the plan can); `topic_datasets` are dataset words read as the topic;
    `names` are capitalised names that are neither firms nor places (products, drugs); `rest` is
    the message with every span read here blanked, for the topic's words."""

    kind: str
    firms: tuple[FirmMention, ...] = ()
    places: Places = Places()
    datasets: tuple[str, ...] | None = None
    topic_datasets: tuple[str, ...] = ()
    periods: tuple[DateRange, ...] = ()
    pointers: tuple[str, ...] = ()
    names: tuple[str, ...] = ()
    rest: str = ""
    wants: tuple[str, ...] = ()  # the kinds of statement that answer it (`regnb.agent._wants`)
    # the things it lists as examples of what it asks about ("leachables - e.g., X's A, Y's B"):
    # alternatives, each searched with the topic, never a comparison of them nor a pointer
    examples: tuple[str, ...] = ()
    strong_kind: bool = False  # the message itself says the kind (a follow-up keeps the earlier)
    weak: bool = False  # only weak words ("trials", "adverse events") named the datasets


# --- pointers -----------------------------------------------------------------------------------


# A verb of what a document said: the pointer is what follows it, what comes before names the
# document ("I recall the 2017 CRL for Amphastar's nasal spray faulted the human factors data").
_SAID = re.compile(
    r"\b(?:faulted|cited|said|mentioned|flagged|critici[sz]ed|questioned|noted|raised"
    r"|complained\s+about|was\s+about|talked\s+about|focused\s+on|objected\s+to)\s+",
    re.IGNORECASE,
)
_ASIDE = re.compile(r"\s-\s")  # " - what exactly did it say": the pointer ends before it


def _pointed(message: str, start: int, end: int) -> tuple[int, int]:
    """The span of a pointer within what its cue took: after a verb of saying, before an aside."""
    aside = _ASIDE.search(message, start, end)
    end = aside.start() if aside else end
    said = _SAID.search(message, start, end)
    return (said.end() if said else start), end


def find_pointers(message: str) -> list[tuple[str, tuple[int, int]]]:
    """The user's own pointers to a passage ("I recall it faulted the human factors data",
    "the part about the blue dust", "for example the neostigmine one"), each with its span."""
    found: list[tuple[str, tuple[int, int]]] = []
    for cue in POINTER_CUES:
        for match in re.finditer(cue, message, re.IGNORECASE):
            start, end = _pointed(message, *match.span("what"))
            text = message[start:end].strip(" ,;:—–-\"'“”")
            text = re.sub(r"^(?:the|a|an)\s+", "", text, flags=re.IGNORECASE)
            text = re.sub(r"\s+(?:one|ones|thing)$", "", text, flags=re.IGNORECASE)
            if len(text.split()) >= 1 and len(text) >= 3:
                found.append((text, (start, end)))
    found.sort(key=lambda f: f[1])
    kept: list[tuple[str, tuple[int, int]]] = []
    for text, span in found:
        if not any(s <= span[0] < e for _, (s, e) in kept):
            kept.append((text, span))
    return kept


# --- examples --------------------------------------------------------------------------------

# A list of examples: its cue, then two or more items parted by commas, "and" or "or".
_EXAMPLES = re.compile(
    r"\b(?:e\.g\.|for\s+example|for\s+instance|such\s+as|including)\s*,?\s*"
    r"(?P<list>[^.;?!:()\[\]—–]+)",
    re.IGNORECASE,
)
_ITEM_SEPARATOR = re.compile(r"\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+", re.IGNORECASE)


def find_examples(message: str) -> list[tuple[tuple[str, ...], tuple[int, int]]]:
    """The lists of examples a message gives ("e.g., Baxter's Dapzura RT, Hikma's naloxone nasal
    spray, Accord's carmustine"), each as its items and its span: two items or more."""
    out = []
    for match in _EXAMPLES.finditer(message):
        items = [
            i.strip(" \"'“”‘’-")
            for i in _ITEM_SEPARATOR.split(match.group("list"))
            if i.strip(" \"'“”‘’-")
        ]
        items = [re.sub(r"^(?:the|a|an)\s+", "", i, flags=re.IGNORECASE) for i in items]
        items = [i for i in items if len(i) >= 3 and len(i.split()) <= 6]
        if len(items) >= 2:
            out.append((tuple(items), match.span()))
    return out


# --- kinds -----------------------------------------------------------------------------------


_GUIDANCE = re.compile(
    r"\bguid[a-z]*nces?\b|\brecommend|\bexpect|\bexplain\b|\bwhat\s+(?:is|are)\b|\bwhy\b"
    r"|\bshould\b|\baccording\s+to\b|\bper\s+fda\b|\bsummari[sz]e\b|\bthemes?\b",
    re.IGNORECASE,
)


# "Compare X with Y", "a comparison of X and Y", "X compared to Y": the second side.
_SIDE = re.compile(r"\b(?:and|with|to|between|vs\.?|versus|both|two|against|each|or|than)\b|,")


_A_COMPARISON = re.compile(r"\b(?:a|an|the|any|no)\s+(?:[\w()-]+\s+)?comparisons?\b")


def _one_sided(lowered: str) -> bool:
    """Whether a comparison word has nothing to compare: "what criteria can a 510(k) use instead
    of a predicate comparison?" names a kind of evidence, not two sides."""
    noun = _A_COMPARISON.search(lowered)
    return noun is not None and not _SIDE.search(lowered, noun.end())


# The words a follow-up opens with before its question: "and did they…", "ok - and if we learn…".
OPENING = re.compile(
    r"^\s*(?:(?:ok(?:ay)?|thanks|thank\s+you|great|right|cool|got\s+it|perfect|and|so|but|also|"
    r"then|now)\b[\s,.!:;—–-]*)+",
    re.IGNORECASE,
)


def question_kind(
    message: str,
    *,
    periods: int = 0,
    firms: int = 0,
    identified: bool = False,
    datasets: int = 0,
) -> tuple[str, bool]:
    """The kind of answer the message asks for, and whether its words say so (a follow-up such
    as "and 2025?" says nothing, and keeps the kind of the turn before). `periods`: the periods
    a comparison names; `firms`: the firms of the corpus it names; `identified`: whether it
    names a document by an identifier; `datasets`: the kinds of document it names. When no rule
    says the kind: one firm and several kinds of document is the firm's history, a firm or an
    identifier is one document, a kind of document alone is a list."""
    lowered = " ".join(message.lower().split())
    lowered = OPENING.sub("", lowered)  # "and did they get a letter?": did they get one
    for kind, pattern in KIND_RULES:
        found = re.search(pattern, lowered)
        if found and not (kind == "comparison" and _one_sided(lowered)):
            return kind, True
    if periods >= 2 or (firms >= 2 and re.search(r"\band\b|,", lowered) and datasets):
        return "comparison", True
    if firms == 1 and datasets >= 2:
        return "history", True
    if (firms or identified) and not _GUIDANCE.search(lowered):
        return "document", True
    if _GUIDANCE.search(lowered) or _POLICY.search(lowered):
        return "summary", True
    if datasets:
        return "which", False
    return "summary", False


# --- datasets --------------------------------------------------------------------------------


def _dataset_words(text: str, known: set[str]) -> list[tuple[int, int, tuple[str, ...], bool]]:
    """Every dataset word of the text: its span, the datasets it means, and whether it is weak
    (it names datasets only when no strong word does)."""
    found = []
    lowered = text.lower()
    for pattern, ids, weak in DATASET_MEANINGS:
        for match in re.finditer(pattern, lowered):
            means = tuple(i for i in ids if i in known)
            if means:
                found.append((match.start(), match.end(), means, weak))
    found.sort()
    kept: list[tuple[int, int, tuple[str, ...], bool]] = []
    for item in found:
        if kept and item[0] < kept[-1][1]:  # overlapping: the longer reading
            if item[1] - item[0] > kept[-1][1] - kept[-1][0]:
                kept[-1] = item
            continue
        kept.append(item)
    return kept


_JOINED = re.compile(
    r"^\s*(?:,|and|or|&|/|\+|plus|vs\.?|versus|nor|then|either)?\s*(?:,|and|or|either)?\s*"
    r"(?:(?:fda|its|their|any|the|a|an)\s+)*$",
    re.IGNORECASE,
)
# Documents listed after a dash or a colon are what the first ones are: "its inspection history
# - the 2020 483 and the 2025 WLs".
_APPOSED = re.compile(r"^[^.;?!]{0,30}?\s(?:-|—|–|:)\s*(?:(?:the|its|their|a|an)\s+)*\s*$")

# A dataset word that dates the question is not where to look: "After its 2019 483, did X ever
# get a warning letter?", "better since its 2020 483".
_CONTEXT = re.compile(
    r"\b(?:after|before|since|following)\s+(?:its|their|the|that)\s+(?:\w+\s+){0,2}$", re.I
)
# "483s, warning letters, anything else": every dataset, not those named.
_ANY_DATASET = re.compile(r"\banything\s+else\b|\beverything\b|\bany\s+dataset", re.IGNORECASE)


def read_datasets(
    text: str, known: set[str]
) -> tuple[tuple[str, ...] | None, tuple[str, ...], list[tuple[int, int]], bool]:
    """The datasets the text means (None: it names none), the dataset words it uses as its
    topic, and the spans of the words that name where to look. The first word that names
    datasets is where to look, and so are the words joined to it ("CRLs and 483s", "either a
    warning letter or a CRL"); a dataset word elsewhere is what the documents are about ("the
    guidance on user fees for 510(k)s", "warning letters that cite the firm's 483 response")."""
    words = _dataset_words(text, known)
    context = [w for w in words if _CONTEXT.search(text[: w[0]])]
    words = [w for w in words if w not in context]
    strong = [w for w in words if not w[3]]
    heads = strong or words
    weak = not strong
    if not heads:
        return None, tuple(dict.fromkeys(i for w in context for i in w[2])), [], False
    if _ANY_DATASET.search(text):
        return None, (), [(start, end) for start, end, _, _ in heads], False
    chosen: list[str] = list(heads[0][2])
    spans: list[tuple[int, int]] = [heads[0][:2]]
    topic: list[str] = []
    last = heads[0][1]
    for start, end, means, _ in heads[1:]:
        if _JOINED.match(text[last:start]) or _APPOSED.match(text[last:start]):
            chosen += means
            spans.append((start, end))
            last = end
        else:
            topic += means
    if weak:  # a weak word ("deficiencies", "trials") stays a word of the topic too
        spans = []
    return tuple(dict.fromkeys(chosen)), tuple(dict.fromkeys(topic)), spans, weak


# The words of questions: never a firm written in lower case.
_QUESTION_VOCABULARY = word_set(
    "what which who why how when where did does do has have had was were is are any all list "
    "name show find give pull tell summarize summarise summary explain compare quote the this "
    "that there these those only just same and or for of in at to from with by on about per "
    "pls please wht y w/ fda warning letter letters wl wls crl crls 483 483s inspection "
    "inspections inspecton observation observations recall recalls recals maude mdr mdrs "
    "report reports rpts guidance guidnace trial trials label labels firm firms company "
    "companies they them it its their since before after between year years deaths death "
    "device devices drug drugs get got receive received issues isues cite cited say said"
)

# Words that open a question and are never a firm's name by themselves.
_NOT_FIRM_WORDS = word_set(
    "what which who why how when where did does do has have had was were is are any all list "
    "name show find give pull tell summarize summarise explain compare quote the this that "
    "there these those only just same and per device drug drugs devices warning inspection "
    "guidance complete form fda"
)

# --- firms and places ------------------------------------------------------------------------


def _place_tokens(spans: Sequence[PlaceSpan], start: int, end: int) -> list[PlaceSpan]:
    """The places that overlap the span."""
    return [s for s in spans if s.start < end and s.end > start]


def _is_only_place(text: str, start: int, end: int, spans: Sequence[PlaceSpan]) -> bool:
    """Whether the span is made of places alone ("New Jersey", "Dublin, Ohio", the "Jersey" of
    "New Jersey"), joined by nothing but punctuation and "and"."""
    covered = [False] * (end - start)
    for s in spans:
        for i in range(max(s.start, start), min(s.end, end)):
            covered[i - start] = True
    if not any(covered):
        return False
    rest = "".join(c if not covered[i] else " " for i, c in enumerate(text[start:end]))
    return not re.sub(r"[\s,.'’()-]|\band\b|\bthe\b", "", rest, flags=re.IGNORECASE)


def _split_aliases(name: str) -> tuple[str, tuple[str, ...]]:
    """ "Belmar Select Outsourcing (BSO LLC)": the name and its alias; "X dba Y" likewise."""
    match = re.match(r"^(.*?)\s*\(([^()]+)\)\s*$", name)
    if match and match.group(1).strip():
        return match.group(1).strip(), (match.group(2).strip(),)
    parts = re.split(r"\s+(?:d/?b/?a|doing business as)\s+", name, flags=re.IGNORECASE)
    if len(parts) == 2:
        return parts[0].strip(), (parts[1].strip(),)
    return name, ()


@dataclass
class _Reading:
    """The spans read so far, and the text with them blanked."""

    text: str
    firms: list[tuple[int, int, FirmMention]]
    places: list[PlaceSpan]

    def take(self, start: int, end: int) -> None:
        self.text = blank(self.text, start, end)


# Words that open a question, never a firm's name ("Has Empower Pharmacy (…) been …").
_ASKING_WORDS = QUESTION_WORDS | STOP_WORDS


def _parenthetical_names(message: str) -> list[tuple[int, int]]:
    """Spans of "Name (Other Name)" where both look like names: one firm with an alias."""
    out = []
    for m in re.finditer(
        r"\b[A-Z][\w&.'’-]*(?:\s+[A-Z][\w&.'’-]*)*\s+\((?:[A-Z][\w&.'’-]*\s*)+\)", message
    ):
        start = m.start()
        for word in re.finditer(r"\S+\s+", m.group()):  # "Has Empower Pharmacy (…)": no "Has"
            if word.group().strip().lower() not in _ASKING_WORDS:
                break
            start = m.start() + word.end()
        out.append((start, m.end()))
    return out


def _resolve(name: str, lookup: FirmLookup | None) -> str | None:
    if lookup is None or not name.strip():
        return None
    return lookup(name)


def _firms_and_places(message: str, lookup: FirmLookup | None, blanked: str) -> _Reading:
    """Firms (with their qualifying places) and the places that are filters."""
    spans = find_places(message)
    reading = _Reading(blanked, [], [])
    taken: list[tuple[int, int]] = []
    for start, end in _parenthetical_names(blanked):
        whole = message[start:end]
        name, aliases = _split_aliases(whole)
        inner = message.rindex("(", start, end)
        if aliases and _is_only_place(message, inner + 1, end - 1, spans):
            continue  # "Koven Technologies (St. Louis)": the firm, then where
        known = _resolve(name, lookup) or next(
            (k for a in aliases if (k := _resolve(a, lookup))), None
        )
        reading.firms.append((start, end, FirmMention(name, aliases, None, known)))
        taken.append((start, end))
        reading.take(start, end)
    names, _ = find_names(reading.text)
    at = 0
    runs: list[tuple[int, int, str]] = []
    for name in names:
        start = message.find(name, at)
        if start < 0:
            start = message.find(name)
        if start < 0:
            continue
        runs.append((start, start + len(name), name))
        at = start + len(name)
    for start, end, name in runs:
        if any(s <= start < e for s, e in taken):
            continue
        before = re.search(r"(\b[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*)\s+$", message[:start])  # "GLP-1"
        longer = f"{before.group(1)} {name}" if before is not None else ""
        known = _resolve(longer, lookup)  # None for "": no word in capitals before the name
        if before is not None and known is not None:
            start, name = before.start(1), longer  # "GLP-1 Solution"
        else:
            known = _resolve(name, lookup)
        if known is not None and not _is_only_place(message, start, end, spans):
            reading.firms.append((start, end, FirmMention(name, (), None, known)))
        elif _is_only_place(message, start, end, spans):
            continue  # read below, as a place
        else:
            trimmed = _without_places(message, start, end, spans)
            whole = re.sub(r"\s+(?:of|in|at)\s+", " ", name)  # "Wells Pharma of Houston"
            town_named = _resolve(whole, lookup) if trimmed is not None and whole != name else None
            if town_named is not None:  # a firm with its town in its name
                reading.firms.append((start, end, FirmMention(whole, (), None, town_named)))
            elif trimmed is not None:
                t_start, t_end = trimmed
                sub = message[t_start:t_end]
                known = _resolve(sub, lookup)
                reading.firms.append((t_start, t_end, FirmMention(sub, (), None, known)))
                start, end = t_start, t_end
            else:
                start, end = _resolved_start(message, start, end, lookup, reading)
        taken.append((start, end))
        reading.take(start, end)
    _single_words(message, lookup, reading, taken, spans)
    _lowercase_firms(message, lookup, reading, taken)
    for span in spans:
        if any(s <= span.start < e for s, e in taken):
            continue
        owner = _qualified(message, span, reading.firms)
        if owner is not None:
            f_start, f_end, firm = reading.firms[owner]
            if firm.place is None:
                reading.firms[owner] = (f_start, f_end, replace(firm, place=span.place))
            else:  # a second site of the same firm: the firm again, at that place
                reading.firms.append((span.start, span.end, replace(firm, place=span.place)))
        elif span.kind == "demonym" and not _describes_firms(message, span):
            continue  # "Chinese medicine": a word of the topic
        elif _ACTIVITY.search(message[: span.start]):
            continue  # "studies conducted in China": where the work was done
        else:
            reading.places.append(span)
        reading.take(span.start, span.end)
    return reading


def _resolved_start(
    message: str, start: int, end: int, lookup: FirmLookup | None, reading: _Reading
) -> tuple[int, int]:
    """A name run the corpus does not hold as a firm: its longest first words that it does
    ("Abbott Crohn" of "the Abbott Crohn's disease trial": Abbott), the rest a name; the whole
    run a name when no first words are a firm."""
    words = list(re.finditer(r"\S+", message[start:end]))
    for n in range(len(words) - 1, 0, -1):
        if words[n].group()[0].isdigit():
            continue  # "Part 11", "CareFusion 213": a number belongs to the name before it
        cut = start + words[n - 1].end()
        known = _resolve(message[start:cut].rstrip(",'’"), lookup)
        if known is not None:
            reading.firms.append((start, cut, FirmMention(message[start:cut], (), None, known)))
            return start, cut
    reading.firms.append((start, end, FirmMention(message[start:end], (), None, None)))
    return start, end


def _without_places(
    message: str, start: int, end: int, spans: Sequence[PlaceSpan]
) -> tuple[int, int] | None:
    """A name run with the places at its ends cut off ("Empower Houston" → "Empower"), or None
    when it has none there."""
    inside = sorted(_place_tokens(spans, start, end), key=lambda s: s.start)
    if not inside:
        return None
    new_start, new_end = start, end
    for s in inside:
        if not message[new_start : s.start].strip(" ,"):
            new_start = s.end
    for s in reversed(inside):
        if not message[s.end : new_end].strip(" ,"):
            new_end = s.start
    while new_end > new_start and message[new_end - 1] in " ,'’":
        new_end -= 1
    joiner = re.search(r"\s+(?:of|in|at|near|from)$", message[new_start:new_end], re.I)
    if joiner is not None:  # "Wells Pharma of Houston": the firm is "Wells Pharma"
        new_end = new_start + joiner.start()
    while new_start < new_end and message[new_start] in " ,":
        new_start += 1
    if (new_start, new_end) == (start, end) or new_end <= new_start:
        return None
    return new_start, new_end


# A word that may be a firm's whole name where `find_names` reads no name: the first word of a
# sentence ("Annovex warning letter"), a name that starts with a digit ("3M's NDA").
_WORD = re.compile(
    r"(?:(?<=^)|(?<=[.;:?!—–]\s))[A-Z][\w&'’.-]{2,}|\b\d+[A-Z][\w&-]*|\b[a-z]{1,3}[A-Z][\w&-]+"
)


# What follows a one-word firm name: a possessive, a kind of document, or what it got.
_FIRM_CUE = re.compile(
    r"^(?:['’]s?\b|\s*[:—–(]|\s+(?:warning|letter|483|crls?|wls?|inspection|recall|got|received"
    r"|was|were|had|has|vs\.?|and|or)\b|\s+(?:in|at)\s+[A-Z]"
    r"|\s+(?:rx|pharmacy|pharma|inc|llc|ltd|labs?|laboratories|outsourcing|compounding)\b)",
    re.IGNORECASE,
)


def _single_words(
    message: str,
    lookup: FirmLookup | None,
    reading: _Reading,
    taken: list[tuple[int, int]],
    spans: Sequence[PlaceSpan],
) -> None:
    """Firms named by one word where no capitalised run reads them: held only when the corpus
    holds a firm of that name."""
    if lookup is None:
        return
    for match in _WORD.finditer(reading.text):
        word = re.sub(r"['’]s?$", "", match.group())
        start, end = match.start(), match.start() + len(word)
        if word.lower() in _NOT_FIRM_WORDS or any(s <= start < e for s, e in taken):
            continue
        if _is_only_place(message, start, end, spans) or not _FIRM_CUE.match(message[end:]):
            continue
        known = lookup(word)
        if known is not None:
            reading.firms.append((start, end, FirmMention(word, (), None, known)))
            taken.append((start, end))
            reading.take(start, end)


def _lowercase_firms(
    message: str,
    lookup: FirmLookup | None,
    reading: _Reading,
    taken: list[tuple[int, int]],
) -> None:
    """Firms written in lower case, in a message written so ("azurity crls?", "wht did they
    find at nephron in 2019"): a run of one to three words that are not the question's own
    words, held when the corpus holds a firm of that name."""
    if lookup is None or re.search(r"\b[A-Z][a-z]", message):
        return
    tokens = list(re.finditer(r"[a-z][\w&'’.-]*", reading.text))
    i = 0
    while i < len(tokens):
        found = False
        for n in (3, 2, 1):
            run = tokens[i : i + n]
            if len(run) < n or any(t.group().lower() in _QUESTION_VOCABULARY for t in run):
                continue
            start, end = run[0].start(), run[-1].end()
            if reading.text[start:end] != message[start:end] or end - start < 4:
                continue
            alone = n == 1 and not re.search(r"(?:^|\b(?:at|to|for|from|of)\s+)$", message[:start])
            known = None if alone else lookup(message[start:end])
            if known is not None and not any(s <= start < e for s, e in taken):
                reading.firms.append((start, end, FirmMention(message[start:end], (), None, known)))
                taken.append((start, end))
                reading.take(start, end)
                i += n
                found = True
                break
        if not found:
            i += 1


def _qualified(
    message: str, span: PlaceSpan, firms: list[tuple[int, int, FirmMention]]
) -> int | None:
    """The index in `firms` of the firm a place qualifies: right after it ("Empower Pharmacy's
    Houston facilities", "Koven Technologies (St. Louis)", "BMC Medical's Dublin, Ohio location"),
    or named with a site word ("its Sanand plant", "SCA's Arkansas and Connecticut sites") after
    it in the same sentence; None when the place stands alone."""
    best: int | None = None
    for i, (_, end, _) in enumerate(firms):
        if end > span.start:
            continue
        between = message[end : span.start]
        direct = _QUALIFYING.match(between) and len(between) <= 30
        owned = re.search(r"\bits\s*$|\b(?:and|&)\s*$", between) and not re.search(
            r"[.;?!]", between
        )
        site = _SITE_AFTER.match(message[span.end :]) or re.match(
            r"^\s*(?:and|&|,)\s+[A-Z][\w ,.]*?\b(?:sites|plants|facilities|locations)\b",
            message[span.end :],
        )
        if (direct or (owned and site)) and (best is None or firms[best][1] < end):
            best = i
    return best


# A place after these words is where something was done or sold, not where a firm is.
_ACTIVITY = re.compile(
    r"\b(?:conducted|performed|done|run|sold|marketed|distributed|enrolled|approved|launched"
    r"|studies|trials?|patients?)\s+(?:\w+\s+)?(?:in|from)\s+(?:the\s+)?$",
    re.IGNORECASE,
)


def _describes_firms(message: str, span: PlaceSpan) -> bool:
    """Whether a nationality describes firms ("Indian API makers", "Korean OTC or cosmetic-drug
    manufacturers", "a Swiss company") rather than a thing ("Chinese medicine")."""
    after = re.findall(r"[\w'-]+", message[span.end :])[:DEMONYM_REACH]
    return span.qualifies_firm_words or any(w.lower().rstrip("s") in FIRM_NOUNS for w in after)


def _one_each(firms: tuple[FirmMention, ...]) -> tuple[FirmMention, ...]:
    """One mention of each firm of the corpus ("Imprimis … Imprimis NJOF" name one firm), the
    first with the place it was given; two sites of one firm stay two."""
    out: list[FirmMention] = []
    for firm in firms:
        same = next((i for i, f in enumerate(out) if f.known == firm.known), None)
        if same is None or (
            firm.place is not None and out[same].place is not None and firm.place != out[same].place
        ):
            out.append(firm)
        elif out[same].place is None and firm.place is not None:
            out[same] = replace(out[same], place=firm.place)
    return tuple(out)


def _one_firms_site(
    firms: tuple[FirmMention, ...], places: Places, spans: Sequence[PlaceSpan]
) -> tuple[tuple[FirmMention, ...], Places]:
    """With one firm named, a city or state named "in" it is that firm's site ("Imprimis's
    history in New Jersey", "what did FDA find at Reliance in Navi Mumbai"), not a filter on
    other firms."""
    sites = [s for s in spans if not s.exclude and s.kind in ("city", "state")]
    if len(firms) != 1 or firms[0].place is not None or len(sites) != 1 or places.exclude:
        return firms, places
    place = sites[0].place
    return (replace(firms[0], place=place),), Places(
        tuple(p for p in places.include if p != place), places.exclude
    )


def _places(spans: Sequence[PlaceSpan]) -> Places:
    include = tuple(dict.fromkeys(s.place for s in spans if not s.exclude))
    exclude = tuple(dict.fromkeys(s.place for s in spans if s.exclude))
    # "Dublin, Ohio": the city is in the state already
    include = tuple(p for p in include if not any(q != p and q.within(p) for q in include))
    return Places(include, exclude)


# A question of policy: what FDA or a firm can, must or may do, what FDA expects.
_POLICY = re.compile(
    r"\b(?:can|could|may|must|should|will|would)\s+(?:an?\s+|the\s+)?(?:fda|firms?|compan(?:y|ies)"
    r"|manufacturers?|sponsors?|applicants?|plants?|facilit(?:y|ies)|investigators?|agency|rra"
    r"|(?:device|drug|biologics?)\s+(?:makers?|firms?|companies|manufacturers?))\b"
    # "what does FDA's VMSR guidance allow?": the guidance says it, whatever it is about
    r"|\bguidances?\s+(?:\w+\s+){0,2}?(?:say|says|allow|allows|permit|permits|recommend|"
    r"recommends|require|requires|expect|expects|state|states)\b"
    r"|\b(?:when|how|why)\s+(?:does|do|can|will|should|must)\s+(?:the\s+)?fda\b"
    r"|\bfda\s+(?:expects?|requires?|allows?|treats?)\b"
    # a regulated firm asking what applies to it: "can we bundle…", "how long do we have to…"
    # ("do we have a trial record for…?" asks the corpus; "do we have to…" the rules)
    r"|\b(?:can|could|may|must|should|do|does|will|would|are)\s+we\b"
    r"(?!\s+(?:have|hold|know|see|find)\b(?!\s+to\b))"
    r"|\bhow\s+(?:long|soon|fast|quickly|much\s+time)\s+(?:do|does|must|will|would|can|has|have)\b"
    # "under FDA's general wellness policy", "per the agency's framework"
    r"|\b(?:under|per|according\s+to)\s+(?:the\s+)?(?:fda|agency)(?:['’]s)?\b"
    r"|(?<!written )(?<!its )(?<!their )(?<!a )(?<!no )\b(?:policy|policies|framework)\b"
    # "can a wearable … stay out of device regulation?", "is it exempt from 510(k)?"
    r"|\b(?:out\s+of|outside|exempt\s+from|subject\s+to)\s+(?:\w+\s+){0,2}"
    r"(?:regulation|oversight|premarket|510\(k\)|clearance)\b",
    re.IGNORECASE,
)
# A question that asks for documents, not policy: "which firms can…", "how many letters…".
_LISTING = re.compile(r"^\s*(?:which|list|name|how\s+many)\b", re.IGNORECASE)
# "Did FDA require a new study for X?": what happened in a case, not what FDA's policy is.
_HAPPENED = re.compile(r"\s*(?:did|has|had|was|were)\b", re.IGNORECASE)

# A period documents name themselves by ("FY2019", "Q1 2025"): a date range, and words of the
# topic too ("FDA Inspectional Observations FY2019").
_NAMED_PERIOD = re.compile(r"(?:fy\s?'?\d{2,4}|q[1-4]\s+\d{4})", re.IGNORECASE)

# A document named by its number: an application, a warning letter, a recall, a 510(k)/De
# Novo/PMA, a trial, an FEI.
_IDENTIFIED = re.compile(
    r"\b(?:NDA|BLA|ANDA)\s*#?\s*\d{6}\b|\b(?:K|P|DEN)\d{6}\b|\bNCT\d{8}\b|\bFEI\b"
    r"|\b\d{3}-\d{2}-\d{2,3}\b|\b[DFZ]-\d{4}-\d{4}\b|\bCMS\s*#",
    re.IGNORECASE,
)


def _family(dataset: str) -> str:
    """Datasets that are one kind of document to a reader (483s and inspection records, the two
    recall datasets)."""
    return {"fda_inspections": "fda_483", "fda_recall_enforcement": "fda_recalls"}.get(
        dataset, dataset
    )


# --- the whole message -----------------------------------------------------------------------


# Words after a date that ask what came of it: the date is where the story starts.
_ONWARD = re.compile(
    r"\b(?:later|since\s+then|afterwards?|subsequently|thereafter|escalat(?:e|ed|es|ing|ion))\b",
    re.IGNORECASE,
)


# Words before a date that name an event the question asks what came after.
_AFTER_EVENT = re.compile(
    r"\b(?:after|following|since)\s+(?:its|the|their|that|this|an?)\s+(?:\w+\s+)?$", re.I
)


def _onward(text: str, dates: DateRange | None) -> DateRange | None:
    """The dates, open after their start when the message asks what came later ("what did
    FDA find in 2019, and did it escalate later?")."""
    if dates is None or not dates.date_from:
        return dates
    at = text.lower().find(dates.text.lower())
    if at < 0:
        return dates
    after_event = _AFTER_EVENT.search(text[max(0, at - 40) : at])  # "after its 2019 inspection"
    if not after_event and not _ONWARD.search(text[at + len(dates.text) :]):
        return dates
    return DateRange(dates.date_from, None, f"{dates.text} and later")


# A comparison of documents the user counts as two ("the two 483s", "both letters"): a year it
# names tells which is the later one, not which to leave out.
_BOTH = re.compile(r"\b(?:the\s+two|both)\b", re.IGNORECASE)


def understand(
    message: str,
    *,
    datasets: Sequence[str],
    today: dt.date,
    firms: FirmLookup | None = None,
    df: Frequency | None = None,
) -> Understanding:
    """One message understood on its own, its misspelt words of the rules' vocabulary put right
    first (`regnb.agent._spelling`); `datasets`: the catalog's dataset ids; `firms`: the
    corpus's firms by name (None: names are read as names, unresolved); `df`: the share of
    the corpus's pages holding each word (keeps a word the corpus uses from being corrected)."""
    message = spelled(message, df)
    text = message
    examples = find_examples(message)
    pointers = [  # a list of examples points at documents, not at a passage
        (p, span)
        for p, span in find_pointers(message)
        if not any(s <= span[0] < e for _, (s, e) in examples)
    ]
    for _, (start, end) in pointers:
        text = blank(text, start, end)
    for cue in re.finditer(r"\b(?:i|we)\s+(?:recall|remember|think)\b", text, re.IGNORECASE):
        text = blank(text, cue.start(), cue.end())
    periods = find_periods(text, today)
    dates = None if periods else _onward(text, find_dates(text, today))
    ranges = tuple(periods or ()) or ((dates,) if dates else ())
    for found in ranges:
        at = text.lower().find(found.text.lower())
        if at >= 0 and not _NAMED_PERIOD.fullmatch(found.text.strip()):
            text = blank(text, at, at + len(found.text))
    chosen, topic, spans, weak = read_datasets(text, set(datasets))
    if (
        _POLICY.search(text)
        and "fda_guidance" in datasets
        and not _LISTING.search(text)
        and not _HAPPENED.match(text)
    ):
        # "can an RRA end in a 483?", "when does FDA expect a press release in a recall?": what
        # FDA does is in its guidance; the documents named are what the guidance is about
        about = [d for d in chosen or () if d != "fda_guidance"]
        topic = tuple(dict.fromkeys((*topic, *about)))
        if about:
            spans = []  # the documents named are words of the topic; "guidance" names where
        chosen, weak = ("fda_guidance",), False
    for start, end in spans:
        text = blank(text, start, end)
    for pattern, kind in IDENTIFIERS:
        for match in re.finditer(pattern, text, flags=re.IGNORECASE if kind == "cfr" else 0):
            text = blank(text, match.start(), match.end())
    reading = _firms_and_places(message, firms, text)
    named = tuple(f for _, _, f in sorted(reading.firms, key=lambda f: f[0]))
    found_firms = _one_each(tuple(f for f in named if f.known is not None))
    places = _places(reading.places)
    found_firms, places = _one_firms_site(found_firms, places, reading.places)
    names = tuple(f.name for f in named if f.known is None)
    listed = {  # firms named as examples are alternatives, not sides to compare
        f.name for start, _, f in reading.firms if any(s <= start < e for _, (s, e) in examples)
    }
    kind, strong = question_kind(
        message,
        periods=len(ranges) if periods else 0,
        firms=len([f for f in found_firms if f.name not in listed]),
        identified=bool(_IDENTIFIED.search(message)),
        datasets=len({_family(d) for d in chosen or ()}),
    )
    if kind == "comparison" and len(ranges) == 1 and _BOTH.search(message):
        ranges = ()  # "compare the two ImClone 483s: what was new in 2020?": both are compared
    if len(ranges) == 2 and kind != "comparison":  # "the 2020 483 and the 2025 WLs": one span
        first, second = sorted(ranges, key=lambda r: r.date_from or "")
        ranges = (DateRange(first.date_from, second.date_to, f"{first.text} to {second.text}"),)
    return Understanding(
        kind=kind,
        firms=found_firms,
        places=places,
        datasets=chosen,
        topic_datasets=topic,
        periods=ranges,
        pointers=tuple(p for p, _ in pointers),
        names=names,
        rest=_without(_with_pointers(reading.text, message, pointers), examples),
        strong_kind=strong,
        weak=weak,
        wants=wanted(message),
        examples=tuple(item for items, _ in examples for item in items),
    )


def _without(text: str, examples: Sequence[tuple[tuple[str, ...], tuple[int, int]]]) -> str:
    """The text without its lists of examples: they are searched one by one, not as one topic."""
    for _, (start, end) in examples:
        text = blank(text, start, end)
    return text


def _with_pointers(text: str, message: str, pointers: Sequence[tuple[str, tuple[int, int]]]) -> str:
    """The text with the pointers' words back: what the user points at is searched."""
    for _, (start, end) in pointers:
        text = text[:start] + message[start:end] + text[end:]
    return text


def understand_turn(
    messages: Sequence[str],
    *,
    datasets: Sequence[str],
    today: dt.date,
    firms: FirmLookup | None = None,
) -> Understanding:
    """The last message of a conversation understood in the light of the earlier ones: what it
    does not say (the kind, the datasets, the firms, the places, the periods) it keeps from
    them; a place it names is added ("only the ones in Ohio"), one it leaves out is excluded
    ("leave out the Canadian ones")."""
    current: Understanding | None = None
    for message in messages:
        new = understand(message, datasets=datasets, today=today, firms=firms)
        current = new if current is None else _follow(current, new, message)
    assert current is not None
    return current


def _follow(before: Understanding, new: Understanding, message: str) -> Understanding:
    leaving = re.search(
        r"\b(?:leave|leaving|drop|dropping|without|except|exclude|not)\b", message, re.I
    )
    lowered = message.lower()
    firms = new.firms or before.firms
    pronoun = re.search(r"\b(?:it|its|them|they|this)\b", lowered)
    if new.kind == "comparison" and new.firms and pronoun:
        firms = (*before.firms, *new.firms)  # "compare it with the Empower one"
    datasets = new.datasets if new.datasets is not None else before.datasets
    if re.match(r"\s*(?:and|what)\s+(?:about|for|on)\b", lowered) and before.datasets:
        datasets = before.datasets  # "and for De Novo requests?": the same documents, new topic
    periods = new.periods or before.periods
    if re.search(r"\b(?:after|since)\s+(?:that|then)\b", lowered) and before.periods:
        periods = (DateRange(before.periods[0].date_from, None, "after that"),)
    places = new.places
    if leaving and places.include:
        places = Places(before.places.include, (*before.places.exclude, *places.include))
    elif not places:
        places = before.places
    return replace(
        new,
        kind=new.kind if new.strong_kind else before.kind,
        firms=firms,
        places=places,
        datasets=datasets,
        periods=periods,
        strong_kind=new.strong_kind or before.strong_kind,
    )
