"""An honest lead: the first sentences answer the question itself, from data the engine counted
(a firm's documents in every dataset, exact counts), before any quote.

    absence     "No: the corpus holds no warning letter to Eli Lilly and Company; it holds its
                2021 Form 483 [3]." / "Yes: the corpus holds 2 warning letters to Intas, dated
                2023-11-21 and 2026-02-03 [1][2]."
    history     "The corpus holds 9 documents about Teva from 2012 to 2024: 5 complete response
                letters and 4 recalls [1][3][5]."
    comparison  "Before 2019, 12 of the 30 complete response letters (40%) match; after 2022, 5
                of 15 (33%) [1][4]. No: the share is lower after 2022 than before 2019. Cited
                on both sides: 21 CFR 211.192; only after 2022: 21 CFR 211.113."

Each sentence is data (what the corpus holds), cited to the first page of the documents it
names; it claims nothing a passage must back."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from regnb.agent._citations import CitationBook
from regnb.agent._compose import DOCUMENT_NOUNS, UNIT_NOUNS
from regnb.agent._focus import distinct_documents
from regnb.agent._stages import Count, Evidence, FirmRecord, Found, SideCount
from regnb.agent._vocab import SUBSTANCE
from regnb.agent.types import DATA, Finding
from regnb.documents.words import content_words, stem

__all__ = ["comparison_leads", "firm_leads", "plural", "presence_leads"]

NAMED = 3  # documents a lead names and cites, at most
# A question about whether a document exists: "did X get a warning letter?", "was X ever issued
# one?", "has X had an OAI inspection?".
_EXISTENCE = re.compile(
    r"\b(?:get|got|gotten|receive[sd]?|issued?|sent|send|had|have|has|given|ever|cited\s+in"
    r"|named\s+in)\b"
    r"|\b(?:any|an?|one)\s+(?:fda\s+)?(?:warning\s+letters?|wls?|(?:form\s+)?483s?|crls?"
    r"|complete\s+response\s+letters?|recalls?|inspections?)\b",
    re.IGNORECASE,
)


def plural(noun: str, n: int) -> str:
    """ "1 warning letter", "2 warning letters", "2 Form 483s"."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _noun(dataset: str) -> str:
    return DOCUMENT_NOUNS.get(dataset, "document")


def _dated(documents: Sequence[Found]) -> str:
    dates = [d.date for d in documents if d.date]
    if not dates:
        return ""
    shown = ", ".join(dates[:NAMED]) + (" …" if len(dates) > NAMED else "")
    return f", dated {shown}"


def _what(documents: Sequence[Found]) -> str:
    """ "its 2021 Form 483", "3 Form 483s and a recall": what a firm's documents are."""
    if len(documents) == 1:
        d = documents[0]
        year = f"{d.date[:4]} " if d.date else ""
        return f"its {year}{_noun(d.dataset)}"
    counts = Counter(_noun(d.dataset) for d in documents)
    parts = [plural(noun, n) for noun, n in counts.most_common()]
    return ", ".join(parts[:-1]) + (" and " if len(parts) > 1 else "") + parts[-1]


def _in_dates(found: Found, evidence: Evidence) -> bool:
    scope = evidence.plan.scope
    date = found.date or ""
    return (not scope.date_from or date >= scope.date_from) and (
        not scope.date_to or (found.date or "9999") <= scope.date_to
    )


def _markers(book: CitationBook, documents: Sequence[Found]) -> list[int]:
    return [book.page(d, d.pages[0] if d.pages else 1) for d in documents[:NAMED]]


def _absence(record: FirmRecord, evidence: Evidence, book: CitationBook) -> Finding | None:
    """Whether the corpus holds the documents asked for of the firm, and what it holds instead."""
    asked = evidence.plan.scope.named_datasets
    if not asked or not _EXISTENCE.search(evidence.plan.message):
        return None  # "any deaths in the MAUDE reports on X?": what the documents say
    name = record.names[0] if len(record.names) == 1 else record.asked
    noun = _noun(asked[0])
    own = distinct_documents(record.documents, undated=True)  # a record held twice, once
    held = [d for d in own if d.dataset in asked and _in_dates(d, evidence)]
    period = evidence.plan.scope.dates
    within = f" {period.inside()}" if period is not None else ""
    if held:
        text = f"Yes: the corpus holds {plural(noun, len(held))} to {name}{_dated(held)}"
        return Finding(kind=DATA, text=text, markers=_markers(book, held))
    others = [d for d in own if d.dataset not in asked] or own
    text = f"No: the corpus holds no {noun} to {name}{within}"
    if not others:
        return Finding(kind=DATA, text=text + ", and no other document about it")
    text += f"; it holds {_what(others)}{_dated(others)}"
    return Finding(kind=DATA, text=text, markers=_markers(book, others))


def _history(record: FirmRecord, evidence: Evidence, book: CitationBook) -> Finding | None:
    """How many documents the corpus holds about the firm, of which kinds, over which years."""
    named = evidence.plan.scope.named_datasets
    documents = [
        d
        for d in distinct_documents(record.documents, undated=True)
        if not named or d.dataset in named
    ]
    documents = [d for d in documents if _in_dates(d, evidence)] or documents
    if not documents:
        return None
    name = record.names[0] if len(record.names) == 1 else record.asked
    years = sorted({d.date[:4] for d in documents if d.date})
    span = (
        f" from {years[0]} to {years[-1]}"
        if len(years) > 1
        else (f" in {years[0]}" if years else "")
    )
    text = f"The corpus holds {plural('document', len(documents))} about {name}{span}: {_what(documents)}"
    if len(record.names) > 1:
        text += f" (firms named {', '.join(record.names[:NAMED])})"
    return Finding(kind=DATA, text=text, markers=_markers(book, documents))


def firm_leads(evidence: Evidence, book: CitationBook) -> list[Finding]:
    """The sentences that open the answer about the firms it names: for "did X get a warning
    letter?", whether the corpus holds one and what it holds instead; for a firm's history, what
    it holds of the firm."""
    kind = evidence.plan.ask.kind
    out: list[Finding] = []
    for record in evidence.firms:
        if kind == "absence":
            lead = _absence(record, evidence, book)
        elif kind == "history":
            lead = _history(record, evidence, book)
        else:
            lead = None
        if lead is not None:
            out.append(lead)
    return out


# What a comparison asks of the later period: more of it, or less.
_MORE = re.compile(
    r"\b(?:more|increas\w*|higher|ris(?:e|ing|en)|gr[eo]w\w*|worse|common(?:er)?)\b", re.I
)
_LESS = re.compile(r"\b(?:less|fewer|decreas\w*|lower|declin\w*|drop\w*|better|improv\w*)\b", re.I)
SECTIONS_NAMED = 3  # CFR sections named in each part of "common, new, gone"


def _percent(side: SideCount) -> str:
    share = side.share
    return "" if share is None else f" ({round(100 * share)}%)"


def _side_markers(evidence: Evidence, book: CitationBook, text: str) -> list[int]:
    for side_text, found in evidence.sides:
        if side_text == text:
            strong = [d for d in found if not d.weak] or list(found)
            return _markers(book, strong[:2])
    return []


def _later(a: SideCount, b: SideCount, evidence: Evidence) -> tuple[SideCount, SideCount]:
    """The earlier and the later period, by the dates the plan compares."""
    periods = evidence.plan.ask.periods
    if len(periods) == 2 and (periods[1].date_from or "") < (periods[0].date_from or ""):
        return b, a
    return a, b


def comparison_leads(evidence: Evidence, book: CitationBook) -> list[Finding]:
    """For two compared periods, counted over every match: each one's matching documents as a
    share of its documents; the yes or no the question asks ("are they more common later?");
    the sections cited on both sides, only in the later and only in the earlier."""
    counts = evidence.side_counts
    topic = evidence.plan.topic
    if len(counts) != 2 or not all(c.total for c in counts) or topic.names or topic.identifiers:
        return []  # two documents of named firms compared: their findings, not shares
    earlier, later = _later(counts[0], counts[1], evidence)
    markers = [m for side in (earlier, later) for m in _side_markers(evidence, book, side.text)]
    if not markers:
        return []
    parts = [
        f"{side.text[0].upper()}{side.text[1:]}, {side.matched} of {side.total} documents"
        f"{_percent(side)} match"
        for side in (earlier, later)
    ]
    out = [Finding(kind=DATA, text="; ".join(parts), markers=markers)]
    message = evidence.plan.message
    asked_more, asked_less = bool(_MORE.search(message)), bool(_LESS.search(message))
    if asked_more != asked_less and earlier.share is not None and later.share is not None:
        rises = later.share > earlier.share
        if later.share == earlier.share:
            text = f"No: the share is the same {later.text} as {earlier.text}"
        else:
            yes = rises == asked_more
            way = "higher" if rises else "lower"
            text = f"{'Yes' if yes else 'No'}: the share is {way} {later.text} than {earlier.text}"
        out.append(Finding(kind=DATA, text=text, markers=markers))
    before = [c.value for c in earlier.cfr[: SECTIONS_NAMED * 2]]
    after = [c.value for c in later.cfr[: SECTIONS_NAMED * 2]]
    common = [c for c in after if c in before][:SECTIONS_NAMED]
    new = [c for c in after if c not in before][:SECTIONS_NAMED]
    gone = [c for c in before if c not in after][:SECTIONS_NAMED]
    said = []
    if common:
        said.append(f"cited on both sides: {', '.join(common)}")
    if new:
        said.append(f"only {later.text}: {', '.join(new)}")
    if gone:
        said.append(f"only {earlier.text}: {', '.join(gone)}")
    if said:
        text = "; ".join(said)
        out.append(Finding(kind=DATA, text=text[0].upper() + text[1:], markers=markers))
    return out


def presence_leads(evidence: Evidence, book: CitationBook) -> list[Finding]:
    """For "were any deaths reported on X?": how many of the documents about X hold each term
    asked, counted over every match ("None of the 12 MAUDE reports on LINQ II mentions death"),
    cited to the first documents about it."""
    found = evidence.presence
    if found is None:
        return []
    about = [d for d in evidence.documents if d.dataset == found.dataset and not d.weak]
    markers = _markers(book, about or [d for d in evidence.documents if d.dataset == found.dataset])
    if not markers:
        return []
    basis = _basis(evidence, found.dataset, found.subject)
    if basis:  # "did FDA inspect X before the letter?": what the letter says it rests on
        return [Finding(kind=DATA, text=basis, markers=markers)]
    noun = _noun(found.dataset)
    of = plural(noun, found.documents)
    held = [c for c in found.terms if c.documents]
    one = found.documents == 1
    if not held:
        asked = " or ".join(f"“{c.value}”" for c in found.terms)
        if one:
            text = f"No: the {noun} on {found.subject} does not mention {asked}"
        else:
            text = f"No: none of the {of} on {found.subject} mentions {asked}"
        return [Finding(kind=DATA, text=text, markers=markers)]
    texts = _texts(evidence, found.dataset)
    denied = [c for c in held if _only_denied(texts, c.value, c.documents)]
    outside = {
        c.value: kinds
        for c in held
        if c not in denied and (kinds := _only_outside(evidence, found.dataset, c))
    }
    parts = [
        (
            f"the {noun} on {found.subject} mentions “{c.value}”"
            if one
            else f"{c.documents} of the {of} on {found.subject} "
            f"mention{'s' if c.documents == 1 else ''} “{c.value}”"
        )
        + (
            " only to say there was none"
            if c in denied
            else f" only outside {'its' if c.documents == 1 else 'their'} {outside[c.value]}"
            if c.value in outside
            else _read_denials(texts, c.value)
        )
        for c in held
    ]
    if one and len(parts) > 1:
        parts = [
            parts[0],
            *(p.replace(f"the {noun} on {found.subject} ", "it ") for p in parts[1:]),
        ]
    unheld = [c for c in found.terms if not c.documents]
    if unheld:
        asked = " or ".join(f"“{c.value}”" for c in unheld)
        parts.append(f"{'it does not mention' if one else 'none mentions'} {asked}")
    text = "; ".join(parts)
    # "NO REPORT OF DEATH, INJURY, OR CHANGE TO PATIENT TREATMENT"; a CRL whose deficiencies
    # never ask for a clinical study, only its standard safety update request names one
    if len(denied) + len(outside) == len(held):
        text = f"No: {text}"
    text = text[0].upper() + text[1:]
    return [Finding(kind=DATA, text=text, markers=markers)]


# "Did FDA actually inspect X before the warning letter?": a letter says what it rests on, an
# inspection of the firm or records FDA requested instead (section 704(a)(4)), a remote
# assessment, the firm's website.
_ASKS_INSPECTED = re.compile(
    r"\binspect(?:ed|ion|ions|ing|s)?\b|\bvisit(?:ed)?\b|\bon[- ]site\b", re.I
)
_INSPECTED = re.compile(
    r"\b(?:inspected your|inspection of your|during (?:our|the|FDA's) inspection|"
    r"investigators? (?:inspected|observed))\b",
    re.I,
)
_OTHER_BASIS = (
    (re.compile(r"\b704\(a\)\(4\)|\brecords? (?:and other information )?request", re.I),
     "records FDA requested under section 704(a)(4) of the FD&C Act"),
    (re.compile(r"\bremote regulatory assessment", re.I), "a remote regulatory assessment"),
    (re.compile(r"\breview(?:ed)? (?:of )?your (?:firm'?s? )?website", re.I),
     "FDA's review of the firm's website"),
)  # fmt: skip


def _basis(evidence: Evidence, dataset: str, subject: str) -> str:
    """For a question whether FDA inspected the firm a warning letter went to: "Yes" with the
    letter's words when it says FDA inspected it, "No" with what it rests on instead when it
    names only that (records requested under 704(a)(4), a remote assessment, its website);
    "" for another question, or a letter that says neither."""
    if dataset != "fda_warning_letters" or not _ASKS_INSPECTED.search(evidence.plan.message):
        return ""
    texts = _texts(evidence, dataset)
    if len(texts) != 1 or (next(iter(texts)), 1) not in evidence.pages:
        return ""  # one letter, read from its opening, where it says what it rests on
    [text] = texts.values()
    if _INSPECTED.search(text):
        return f"Yes: the warning letter on {subject} says FDA inspected the firm"
    for pattern, said in _OTHER_BASIS:
        if pattern.search(text):
            return (
                f"No: the warning letter on {subject} rests on {said}; "
                "it does not say FDA inspected the firm"
            )
    return ""


def _only_outside(evidence: Evidence, dataset: str, held: Count) -> str:
    """The plural of the kind of finding its documents list ("deficiencies") when every
    document holding the term was read, each lists findings, and none of them says the term:
    it is named only in the letter's requests and standard text ("Present new safety data from
    the clinical studies…"), not in what FDA found. "" otherwise."""
    stems = {stem(w) for w in content_words(held.value)}
    read = [
        units
        for d in evidence.documents
        if d.dataset == dataset and (units := evidence.units.get(d.document_id))
    ]
    holding = [u for u in read if any(_says(p.unit.text, stems) for p in u)]
    if not stems or len(holding) != held.documents:
        return ""
    kinds: Counter[str] = Counter()
    for units in holding:
        found = [p for p in units if p.unit.kind in SUBSTANCE]
        if not found or any(_says(p.unit.text, stems) for p in found):
            return ""
        kinds.update(p.unit.kind for p in found)
    kind = kinds.most_common(1)[0][0]
    return UNIT_NOUNS.get(kind, ("finding", "findings"))[1]


def _says(text: str, stems: set[str]) -> bool:
    """Whether the text holds every word of a term (as stems)."""
    held = {stem(w.casefold()) for w in re.findall(r"[\w']+", text)}
    return stems <= held


def _read_denials(texts: dict[str, str], term: str) -> str:
    """ ", each of the 5 read only to say there was none": where not every document holding
    the term was read, what those read say of it, when each denies it."""
    mentioned, denied = _denials(texts, term)
    if mentioned < 2 or denied < mentioned:
        return ""
    return f", each of the {mentioned} read only to say there was none"


# A word that denies what follows it within a few words ("no report of death", "did not result
# in injury", "without harm").
_DENIAL = re.compile(r"\b(?:no|not|none|never|without|neither|nor|denied|n't)\b", re.IGNORECASE)
_DENIAL_REACH = 8  # words between the denial and the word it denies


def _texts(evidence: Evidence, dataset: str) -> dict[str, str]:
    """The text of each document of `dataset` read, its pages joined."""
    of = {d.document_id: d.dataset for d in evidence.documents}
    out: dict[str, list[str]] = {}
    for (document_id, _), text in sorted(evidence.pages.items()):
        if of.get(document_id) == dataset:
            out.setdefault(document_id, []).append(text)
    return {d: "\n".join(t) for d, t in out.items()}


def _denials(texts: dict[str, str], term: str) -> tuple[int, int]:
    """Of the documents read, how many mention `term`, and how many of them only after a
    denial ("no report of death")."""
    stems = {stem(w) for w in content_words(term)}
    if not stems:
        return 0, 0
    mentioned = denied = 0
    for text in texts.values():
        spans = [m for m in re.finditer(r"[\w']+", text) if stem(m.group().casefold()) in stems]
        if not spans:
            continue
        mentioned += 1
        clauses = [
            re.split(r"[.!?;:]\s", text[max(0, m.start() - 120) : m.start()])[-1] for m in spans
        ]
        if all(
            _DENIAL.search(" ".join(re.findall(r"[\w']+", c)[-_DENIAL_REACH:])) for c in clauses
        ):
            denied += 1
    return mentioned, denied


def _only_denied(texts: dict[str, str], term: str, holding: int) -> bool:
    """Whether every document that holds `term` was read (`holding` of them hold it) and each
    mentions it only after a denial ("no report of death")."""
    mentioned, denied = _denials(texts, term)
    return holding > 0 and mentioned == holding and denied == holding
