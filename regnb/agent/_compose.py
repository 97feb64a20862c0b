"""The extractive answer in the question's shape. A question that names a document (a firm, a
product, an application) is answered from that document's own units in order: a complete
response letter's deficiencies, a 483's observations, a warning letter's violations. A "which…"
question lists every firm found with what it was cited for. Other questions group the best
passages by their units' headings or CFR sections. "In short" is written from templates whose
facts (documents, firms, dates, counts, headings, quotes) all come from the units cited."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace

from rapidfuzz import fuzz

from regnb.agent._citations import CitationBook
from regnb.agent._config import AgentConfig
from regnb.agent._guidance import (
    aspect_terms,
    own_account,
    pick_recommendations,
    says_what_it_does,
)
from regnb.agent._labels import firm_of
from regnb.agent._placed import firms_where
from regnb.agent._quotes import core_quotes
from regnb.agent._rank import Term, holds_asked, keyword_score, plan_terms
from regnb.agent._stages import Evidence, Found, Passage, Tally
from regnb.agent._vocab import FIRM_FIELDS, SUBSTANCE
from regnb.agent.types import Finding, Theme
from regnb.documents.cfr import cfr_title
from regnb.documents.furniture import is_furniture
from regnb.documents.statements import has_substance, short_statement
from regnb.documents.structure import document_kind, states_standard
from regnb.documents.words import fold_spaces, plain

__all__ = ["cfr_label", "compose", "document_noun", "section_of", "theme_key"]

# What one document of a dataset is called in a sentence (the words are in the dataset's name).
DOCUMENT_NOUNS = {
    "fda_483": "Form 483",
    "fda_warning_letters": "warning letter",
    "fda_crl": "complete response letter",
    "fda_maude": "MAUDE report",
    "fda_guidance": "guidance",
    "fda_recalls": "recall",
    "fda_recall_enforcement": "enforcement report",
}
# How a sentence joins a document to its firm or product: "the warning letter to Acme".
PREPOSITIONS = {"fda_483": "for", "fda_maude": "on", "fda_recalls": "of"}
# What a document's units are called, by kind: (one, many).
UNIT_NOUNS = {
    "finding": ("observation", "observations"),
    "violation": ("violation", "violations"),
    "deficiency": ("deficiency", "deficiencies"),
    "recommendation": ("recommendation", "recommendations"),
    "description": ("event description", "event descriptions"),
    "narrative": ("manufacturer narrative", "manufacturer narratives"),
    "request": ("request", "requests"),
    "text": ("section", "sections"),
}
# Headings that only number a unit: they name no theme.
_NUMBERED_ONLY = ("observation", "violation", "item", "deficiency")
_NUMBERED_KINDS = ("finding", "violation", "deficiency")  # units that are one numbered item
_AUDIENCE = re.compile(r"^(?:draft\s+)?guidance\s+for\b|^contains\s+nonbinding", re.IGNORECASE)
_RANKED = re.compile(r"\b(?:most|top|highest|largest|frequent\w*|often)\b", re.IGNORECASE)
_CONTENTS = re.compile(r"\.{6,}|…{3,}")  # dot leaders: a table of contents


def _by_firm(found: Found) -> bool:
    """Whether a document is named by its firm (not only by its product)."""
    return any(isinstance(found.fields.get(f), str) and found.fields[f] for f in FIRM_FIELDS)


def document_noun(dataset: str) -> str:
    return DOCUMENT_NOUNS.get(dataset, "document")


def _listed(names: Sequence[str]) -> str:
    names = list(dict.fromkeys(names))
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def _informative(heading: str) -> bool:
    """A heading that says something ("Product quality"), not just a number ("Observation 2")."""
    words = heading.lower().split()
    return bool(words) and not (words[0] in _NUMBERED_ONLY and len(words) <= 2)


def section_of(citation: str) -> str:
    """ "21 CFR 211.113(b)" → "21 CFR 211.113": the section a theme groups by."""
    return citation.split("(")[0].strip() if citation.startswith("21 CFR") else citation


def cfr_label(citation: str) -> str:
    """ "21 CFR 211.113 — Control of microbiological contamination", or the citation alone."""
    section = section_of(citation)
    title = cfr_title(section)
    return f"{section}: {title}" if title else section


def theme_key(passage: Passage, dataset_name: Callable[[str], str]) -> str:
    """What a passage's theme is: for guidance, its document; else its first CFR section with
    its title, else its unit's own section heading (a letter's), else its dataset."""
    unit = passage.unit
    if document_kind(passage.found.dataset) == "guidance":
        return _short_title(passage.found.title)
    if unit.cfr:
        return cfr_label(unit.cfr[0])
    if _informative(unit.heading) and unit.kind in ("deficiency", "violation", "finding"):
        return unit.heading
    return dataset_name(passage.found.dataset)


def _each_firm(ranked: Sequence[Passage]) -> dict[str, Passage]:
    """Each firm's line of a list, its best passage, firms in that order; a document without a
    firm goes by its title."""
    out: dict[str, Passage] = {}
    for p in ranked:
        out.setdefault(firm_of(p.found) or _short_title(p.found.title), p)
    return out


def _short_title(title: str, limit: int = 90) -> str:
    title = fold_spaces(title)
    for cut in (": Guidance for", " - Guidance for", " Guidance for Industry"):
        if cut in title:
            title = title.split(cut)[0]
    return title if len(title) <= limit else title[: limit - 1].rsplit(" ", 1)[0] + "…"


def _heading(passage: Passage) -> str:
    """A finding's heading: its unit's own (not the document's title or audience line), a
    repeat mark, its CFR citations."""
    unit = passage.unit
    title = fold_spaces(passage.found.title).lower()
    own = unit.heading and unit.heading.lower() not in title and not _AUDIENCE.match(unit.heading)
    parts = [unit.heading] if own else []
    if unit.repeat:
        parts.append("repeat observation")
    if unit.cfr:
        parts.append(", ".join(unit.cfr[:2]))
    return "; ".join(parts)


SAME_FINDING = 80  # rapidfuzz token-set ratio of two findings' statements that say the same


def _one_per_heading(units: list[Passage]) -> list[Passage]:
    """A finding's first unit only (its continuation on the next page is the same finding)."""
    seen: set[str] = set()
    out = []
    for p in units:
        if p.unit.heading and p.unit.heading in seen:
            continue
        seen.add(p.unit.heading)
        out.append(p)
    return out


def _found(passage: Passage) -> bool:
    return passage.unit.kind in ("finding", "violation", "deficiency")


def _first_of_each(units: list[Passage]) -> list[Passage]:
    """An observation's or a violation's first unit; its sub-items only when they hold more of
    the question than it does."""
    out: list[Passage] = []
    lead: dict[str, Passage] = {}
    for p in units:
        heading = p.unit.heading
        numbered = p.unit.kind in ("finding", "violation") and not _informative(heading)
        if not numbered or not heading or heading not in lead:
            if numbered and heading:
                lead[heading] = p
            out.append(p)
        elif p.topic > lead[heading].topic:
            out.append(p)
    return out


class _Composer:
    def __init__(
        self, evidence: Evidence, book: CitationBook, config: AgentConfig, terms: list[Term]
    ) -> None:
        self.evidence = evidence
        self.book = book
        self.config = config
        self.terms = terms
        self.subject_terms = [t for t in terms if not t.anchor]
        self.notes: list[str] = []  # what the answer says it could not find

    def who(self, found: Found) -> str:
        name = firm_of(found) or fold_spaces(found.title)
        return name if len(name) <= 90 else name[:89].rsplit(" ", 1)[0] + "…"

    def skip(self, passage: Passage) -> Callable[[str], bool]:
        """Whether a sentence of the passage's unit is furniture (never quoted); a finding's
        standard wording is its statement, not furniture."""
        dataset = passage.found.dataset
        common = self.evidence.common.get(dataset, frozenset())
        if states_standard(passage.unit.kind, dataset):
            common = frozenset()
        asked = self.subject_terms
        return lambda sentence: is_furniture(
            sentence, dataset, common=frozenset() if holds_asked(sentence, asked) else common
        )

    def quotable(self, passage: Passage) -> bool:
        """A unit with a sentence worth quoting (not a table of contents, not all furniture)."""
        if _CONTENTS.search(passage.unit.text):
            return False
        return has_substance(passage.unit.text, self.skip(passage))

    def short(self, passage: Passage) -> str:
        skip = self.skip(passage)
        return short_statement(passage.unit.text, self.config.short_words, skip)

    def finding(
        self,
        passage: Passage,
        *,
        with_source: bool = True,
        heading: bool = True,
        words: int | None = None,
        lead: bool = True,
    ) -> Finding:
        """One unit as a finding: its source (firm, date) and its core quoted (at most `words`
        words, `config.quote_words` by default)."""
        skip = self.skip(passage)
        limit = words or self.config.quote_words
        quoted = core_quotes(passage.unit.text, self.subject_terms, limit, skip, lead=lead)
        when = f" ({passage.found.date})" if passage.found.date else ""
        source = f"{self.who(passage.found)}{when}: " if with_source else ""
        same = [c for c in passage.copies if all(q in plain(c.unit.text) for q in quoted.quotes)]
        others = [n for n in (self.who(c.found) for c in same) if n != self.who(passage.found)]
        also = f" (also {_listed(others)})" if others else ""
        first, *rest = quoted.quotes
        return Finding(
            text=f"{source}{quoted.shown}{also}",
            markers=[self.book.passage(p) for p in [passage, *same]],
            quote=first,
            quotes=rest,
            heading=(_heading(passage) or None) if heading else None,
            kind=passage.unit.kind,
            cfr=list(passage.unit.cfr),
            document_id=passage.found.document_id,
            short=self.short(passage),
        )

    # -- a question that names its documents -------------------------------------------------

    def subject_units(self, doc: Found) -> list[Passage]:
        """The units listed for a document the question names: one per observation or violation
        (its statement; a sub-item only when it is what the question asks about), every
        deficiency or recommendation, at most `findings_per_document`."""
        every = self.evidence.units.get(doc.document_id, [])
        units = _first_of_each([p for p in every if self.quotable(p)])
        limit = self.evidence.per_subject
        if document_kind(doc.dataset) == "guidance":
            return self.guidance_units(doc, units, limit + self.config.guidance_extra)
        if len(units) <= limit:
            return units
        plan = self.evidence.plan
        if plan.ask.shape == "count" or _RANKED.search(plan.message):
            return units[:limit]  # a ranked list (most frequent first): its own order
        relevant = {id(p) for p in sorted(units, key=lambda p: -p.topic)[:limit] if p.topic > 0}
        chosen = [p for p in units if id(p) in relevant]
        chosen += [p for p in units if id(p) not in relevant][: limit - len(chosen)]
        return sorted(chosen, key=units.index)

    def guidance_units(self, doc: Found, units: list[Passage], limit: int) -> list[Passage]:
        """A guidance's own account of what it does (its introduction's unit most about the
        question, its statement of purpose), then its recommendations about what is asked, then
        one of each of its sections in turn; for a question about the whole guidance, one of
        each section in the guidance's order."""
        plan = self.evidence.plan
        asked = [t for t in plan_terms(plan) if not t.anchor]
        account = own_account(units, self.config.guidance_account)
        rest = [p for p in units if all(p is not a for a in account)]
        if aspect_terms(asked, doc.title) or plan.ask.wants:
            chosen = pick_recommendations(rest, limit - len(account), wants=plan.ask.wants)
        else:
            sections = len({p.unit.heading for p in units})
            limit = min(max(limit, sections), self.config.guidance_sections)
            chosen = pick_recommendations(rest, limit - len(account), whole=True)
        order = {id(p): i for i, p in enumerate(units)}
        return sorted([*account, *chosen], key=lambda p: order[id(p)])

    def subject_sentence(self, doc: Found, units: list[Passage]) -> Finding | None:
        """ "The Form 483 to Acme (2021-03-04) lists 3 observations, 1 a repeat: “…” [4] …" """
        if not units:
            return None
        kinds = Counter(p.unit.kind for p in units)
        kind = kinds.most_common(1)[0][0]
        one, many = UNIT_NOUNS.get(kind, ("passage", "passages"))
        # an observation quoted in two units (its statement, its continuation) is one
        count = len({p.unit.heading or id(p) for p in units if p.unit.kind == kind})
        rest = Counter(p.unit.kind for p in units if p.unit.kind != kind)
        when = f" dated {doc.date}" if doc.date else ""
        noun = document_noun(doc.dataset)
        if document_kind(doc.dataset) == "guidance":
            whom = f"“{_short_title(doc.title)}”"
        else:
            whom = f"{PREPOSITIONS.get(doc.dataset, 'to')} {self.who(doc)}"
        head = f"The {noun} {whom}{when} lists {count} {one if count == 1 else many}"
        for other, n in sorted(rest.items()):
            other_one, other_many = UNIT_NOUNS.get(other, ("passage", "passages"))
            head += f" and {n} {other_one if n == 1 else other_many}"
        repeats = sum(1 for p in units if p.unit.repeat)
        if repeats:
            head += f", {repeats} of them repeat observations"
        sections = list(
            dict.fromkeys(p.unit.heading for p in units if _informative(p.unit.heading))
        )
        if kind == "deficiency" and sections:
            head += f", under {_listed(sections)}"
        chosen = sorted(units, key=lambda p: (-p.topic, units.index(p)))
        if document_kind(doc.dataset) == "guidance":  # what it does, then what is asked
            chosen.sort(key=lambda p: not says_what_it_does(p))
            chosen[1:] = sorted(chosen[1:], key=lambda p: (-p.topic, units.index(p)))
        chosen = chosen[: self.config.summary_quotes]
        chosen.sort(key=units.index)
        quotes = [self.short(p) for p in chosen]
        exact = [q.removesuffix(" …") for q in quotes]
        shown = "; ".join(f"“{q}”" for q in quotes)
        return Finding(
            text=f"{head}: {shown}",
            markers=[self.book.passage(p) for p in chosen],
            quote=exact[0],
            quotes=exact[1:],
            document_id=doc.document_id,
        )

    def subject_theme(self, doc: Found, units: list[Passage]) -> Theme:
        noun = document_noun(doc.dataset)
        kinds = Counter(p.unit.kind for p in units)
        kind = kinds.most_common(1)[0][0] if kinds else "text"
        many = UNIT_NOUNS.get(kind, ("passage", "passages"))[1]
        when = f", {doc.date}" if doc.date else ""
        if document_kind(doc.dataset) == "guidance":
            label = f"{many.capitalize()}: {_short_title(doc.title)}{when}"
        else:
            joined = PREPOSITIONS.get(doc.dataset, "to")
            label = f"{many.capitalize()}: {noun} {joined} {self.who(doc)}{when}"
        words = self.config.subject_quote_words
        if document_kind(doc.dataset) == "guidance":  # a longer list, shorter items
            words = self.config.quote_words
        findings = [self.finding(p, with_source=False, words=words) for p in units]
        return Theme(label=label, findings=findings, numbered=True)

    def topical_sentence(self, units: list[Passage]) -> Finding | None:
        """What the named document says about the question's topic, when it says something."""
        best = max((p for p in units if self.quotable(p)), key=lambda p: p.topic, default=None)
        if best is None or best.topic <= 0 or not self.subject_terms:
            return None
        return self.finding(best)

    # -- every other question ---------------------------------------------------------------

    def statements(self, passages: list[Passage]) -> list[Passage]:
        """Each numbered violation, observation or deficiency as one passage: its first unit
        (the statement FDA wrote), as much about the question as all of its units together."""
        groups: dict[tuple[str, str, str, str], list[Passage]] = {}
        out: list[Passage] = []
        for p in passages:
            if p.unit.kind in _NUMBERED_KINDS and p.unit.number:
                key = (p.found.document_id, p.unit.kind, p.unit.heading, p.unit.number)
                groups.setdefault(key, []).append(p)
            else:
                out.append(p)
        for members in groups.values():
            lead = min(members, key=lambda p: (p.page_num, p.unit.first))
            text = "\n".join(m.unit.text for m in members)
            out.append(
                replace(lead, topic=max(lead.topic, keyword_score(text, self.subject_terms)))
            )
        return out

    def which_passages(self, passages: list[Passage]) -> list[Passage]:
        """The passages that say what a firm was cited for: of documents that match the whole
        question (when two or more do), holding a good share of its words, most first."""
        passages = self.statements(passages)
        strong = [p for p in passages if not p.found.weak]
        chosen = strong if len({p.found.document_id for p in strong}) >= 2 else passages
        best = max((p.topic for p in chosen), default=0.0)
        every = chosen
        if best > 0:
            floor = self.config.which_topic * best
            chosen = [p for p in chosen if p.topic >= floor or (p.found.placed and p.topic > 0)]
        ranked = sorted(chosen, key=lambda p: (not p.found.placed, -p.topic * p.quality, -p.score))
        return ranked + self.each_match(every, ranked)

    def each_match(self, passages: list[Passage], listed: list[Passage]) -> list[Passage]:
        """When few documents match the whole question (no more than a list shows), a line for
        each one the list would leave out that says something of it: its unit most about the
        question (of two as much about it, the one that states a finding: a deficiency, a
        violation, an observation).
        "Which biosimilars got CRLs, and why?" matched by four letters lists all four."""
        matching = {f.document_id for f in self.evidence.documents if not f.weak}
        if not matching or len(matching) > self.config.which_shown:
            return []
        have = {p.found.document_id for p in listed}
        out = []
        for doc in sorted(matching - have):
            units = [p for p in passages if p.found.document_id == doc and p.topic > 0]
            if units:
                out.append(max(units, key=lambda p: (p.topic, p.unit.kind in SUBSTANCE, p.quality)))
        return sorted(out, key=lambda p: -p.topic)

    def counted(self) -> Tally | None:
        """The count over every match, where an answer's numbers come from it: not for a search
        limited to places (it counts firms anywhere)."""
        tally = self.evidence.tally
        scope = self.evidence.plan.scope
        if tally is None or not tally.total or scope.places_in or scope.places_out:
            return None
        return tally

    def matching(self) -> list[Found]:
        """The documents an answer says match, without a count over every match: those that
        match the whole question (every one found when none does)."""
        return [f for f in self.evidence.documents if not f.weak] or list(self.evidence.documents)

    def which_sentence(self, passages: list[Passage]) -> Finding | None:
        """ "12 documents in FDA Warning Letters match; shown: A, B and C [..]." """
        firms = {
            firm: p
            for firm, p in _each_firm(self.which_passages(passages)).items()
            if firm_of(p.found)
        }
        if not firms:
            return None
        strong = self.matching()
        sets = sorted({f.dataset for f in strong})
        datasets = _listed([self.book.dataset_name(d) for d in sets])
        capped = len(strong) >= self.config.which_documents * len(sets)
        count = f"at least {len(strong)}" if capped else str(len(strong))
        tally = self.counted()
        if tally is not None:  # counted over every match
            count = str(tally.total)
            datasets = _listed([c.value for c in tally.datasets])
        scope = self.evidence.plan.scope
        wanted = firms_where(scope.places_in, scope.places_out)
        unplaced = [f for f in firms if not firms[f].found.placed]
        asked = bool(scope.places_in or scope.places_out)
        some = asked and len(unplaced) < len(firms)  # firms known to be where asked: those
        if some:
            firms = {f: p for f, p in firms.items() if p.found.placed}
        shown = list(firms)[: self.config.which_shown]
        named = "firm" if any(_by_firm(firms[f].found) for f in shown) else "product"
        documents = "1 document" if count == "1" else f"{count} documents"
        match = "matches" if count == "1" else "match"
        are = f"the {named} shown is" if len(shown) == 1 else f"the {named}s shown are"
        if any(firms[f].found.weak for f in shown):  # not counted among those that match
            are = are.replace(" shown", " shown, of documents that match part of the question,")
        text = f"{documents} in {datasets} {match}; {are} {_listed(shown)}"
        if some and unplaced:
            text = (
                f"{documents} in {datasets} {match}, of firms anywhere; those of {wanted} are "
                f"{_listed(shown)} ({len(unplaced)} more firms found give no place)"
            )
        elif asked and not some:
            text = (
                f"No document found is known to be from {wanted}: {documents} in {datasets} "
                f"{match} the rest of the question; those shown give no place: {_listed(shown)}"
            )
        text = text[0].upper() + text[1:]
        markers = [self.book.passage(firms[f]) for f in shown]
        return Finding(text=text, markers=markers)

    def which_theme(self, passages: list[Passage]) -> Theme | None:
        """One line per firm: its best unit, headed by the firm, the kind of document and its
        date."""
        asks_firms = self.evidence.plan.ask.which_firms
        chosen = self.which_passages(passages)
        scope = self.evidence.plan.scope
        if (scope.places_in or scope.places_out) and any(p.found.placed for p in chosen):
            chosen = [p for p in chosen if p.found.placed]  # known to be where asked
        if asks_firms:  # a catalog of cite language or a guidance: no firm was cited
            chosen = [p for p in chosen if firm_of(p.found) is not None]
        firms = _each_firm(chosen)
        findings = []
        for firm, p in list(firms.items())[: self.config.which_shown]:
            finding = self.finding(p, with_source=False, lead=False)
            when = f", {p.found.date}" if p.found.date else ""
            cited = f"; {', '.join(p.unit.cfr[:2])}" if p.unit.cfr else ""
            finding.heading = f"{firm} ({document_noun(p.found.dataset)}{when}{cited})"
            findings.append(finding)
        if not findings:
            return None
        return Theme(label="Firms and what they were cited for", findings=findings)

    def count_theme(self) -> Theme | None:
        """Documents matched per year, each year citing up to three of its documents' pages."""
        strong = [f for f in self.evidence.documents if not f.weak]
        by_year: dict[str, list[Found]] = {}
        for doc in strong:
            year = str(doc.date or "")[:4]
            if year.isdigit():
                by_year.setdefault(year, []).append(doc)
        if len(by_year) < 2:
            return None
        findings = []
        for year in sorted(by_year):
            docs = by_year[year]
            markers = [self.book.page(d, d.pages[0] if d.pages else 1) for d in docs[:3]]
            noun = "document" if len(docs) == 1 else "documents"
            findings.append(Finding(text=f"{len(docs)} {noun}", markers=markers, heading=year))
        label = f"Documents matched per year ({len(strong)} in all)"
        return Theme(label=label, findings=findings, table=True)

    def term_themes(self, candidates: list[Passage]) -> list[Theme]:
        """For a count of several terms: each term's label with its exact count, and the units
        read that hold it best (from different documents)."""
        tally = self.evidence.tally
        if tally is None or not tally.terms:
            return []
        out = []
        quoted: set[int] = set()
        for count in tally.terms:
            pattern = re.compile(
                r"\b" + r"\W+".join(re.escape(w) for w in count.value.split()), re.IGNORECASE
            )
            holding = [p for p in candidates if pattern.search(p.unit.text)]
            holding.sort(key=lambda p: (-keyword_score(p.unit.text, self.subject_terms), -p.prior))
            chosen: list[Passage] = []
            holding = [p for p in holding if id(p) not in quoted]
            for p in holding:
                if p.found.document_id not in {c.found.document_id for c in chosen}:
                    chosen.append(p)
                if len(chosen) >= self.config.term_quotes:
                    break
            quoted |= {id(p) for p in chosen}
            if chosen:
                label = f"“{count.value}”: {count.documents} of {tally.total} documents"
                out.append(Theme(label=label, findings=[self.finding(p) for p in chosen]))
        return out

    def side_parts(self, passages: list[Passage]) -> tuple[list[Finding], list[Theme]]:
        """A comparison of periods: for each side, how many documents match and its most cited
        section, then its best findings."""
        summary: list[Finding] = []
        themes: list[Theme] = []
        for text, side_found in self.evidence.sides:
            ids = {f.document_id for f in side_found}
            strong = [f for f in side_found if not f.weak] or side_found
            every = [q for p in passages for q in [p, *p.copies]]  # a copy may be on this side
            own = [
                replace(p, copies=tuple(c for c in p.copies if c.found.document_id in ids))
                for p in sorted(every, key=lambda p: -p.score)
                if p.found.document_id in ids
            ]
            count = f"{len(strong)} document{'' if len(strong) == 1 else 's'}"
            label = f"{text[0].upper()}{text[1:]} ({count})"
            if not own:
                datasets = self.evidence.plan.scope.datasets
                where = _listed([self.book.dataset_name(d) for d in datasets])
                self.notes.append(f"{text[0].upper()}{text[1:]}: no document of {where}.")
                continue
            sentence = (
                f"{text[0].upper()}{text[1:]}, {count} {'matches' if len(strong) == 1 else 'match'}"
            )
            cited = Counter(section_of(c) for p in own for c in dict.fromkeys(p.unit.cfr))
            quotes = self.config.summary_quotes
            markers = [self.book.passage(p) for p in own[:quotes]]
            if cited:
                section = cited.most_common(1)[0][0]
                title = cfr_title(section)
                named = f"{section} ({title})" if title else section
                sentence += f"; the section most cited among those read is {named}"
                markers = [
                    self.book.passage(p) for p in own if section in map(section_of, p.unit.cfr)
                ][:quotes]
            summary.append(Finding(text=sentence, markers=markers))
            themes.append(Theme(label=label, findings=[self.finding(p) for p in own[:5]]))
        return summary, [t for t in themes if t.findings]

    def common_sentence(self, passages: list[Passage]) -> Finding | None:
        """ "4 of the 6 documents cite 21 CFR 211.113 [..]." when a section recurs among the
        documents read: counted over every match when the count has it (out of the total the
        answer says match), else out of the matching documents read, said so when they are not
        all the documents that the answer says match."""
        tally = self.counted()
        matching = {f.document_id for f in self.matching()}
        listing = self.evidence.listing
        if tally is not None and listing is not None and 0 < len(listing.rows) == listing.total:
            matching = {m.document_id for m in listing.rows}  # what the count counted
        passages = [p for p in passages if p.found.document_id in matching] or passages
        by_section: dict[str, dict[str, Passage]] = {}
        for p in passages:
            for c in p.unit.cfr:
                by_section.setdefault(section_of(c), {}).setdefault(p.found.document_id, p)
        if not by_section:
            return None
        section, docs = max(by_section.items(), key=lambda kv: (len(kv[1]), kv[0]))
        if len(docs) < 2:
            return None
        citing, total = len(docs), len({p.found.document_id for p in passages})
        whole = tally.total if tally is not None else len(matching)
        counted = {c.value: c.documents for c in tally.cfr} if tally is not None else {}
        if tally is not None and counted.get(section, 0) >= citing and tally.total >= total:
            citing, total = counted[section], tally.total  # counted over every match
        title = cfr_title(section)
        named = f"{section} ({title})" if title else section
        noun = "documents" if total == whole else "documents read"
        share = f"Both {noun}" if citing == total == 2 else f"{citing} of the {total} {noun}"
        text = f"{share} cite {named}"
        markers = sorted(self.book.passage(p) for p in docs.values())
        return Finding(text=text, markers=markers)

    def side_by_side(self, earlier: Found, later: Found) -> list[Finding]:
        """Two documents of one kind compared, finding by finding: what both state (a finding of
        the later whose statement is close to one of the earlier), what only the later states,
        what only the earlier did, each quoted from its own unit and cited."""
        first = [
            p for p in _first_of_each(list(self.evidence.units[earlier.document_id])) if _found(p)
        ]
        second = [
            p for p in _first_of_each(list(self.evidence.units[later.document_id])) if _found(p)
        ]
        first = _one_per_heading([p for p in first if self.quotable(p)])
        second = _one_per_heading([p for p in second if self.quotable(p)])
        if not first or not second:
            return []
        said = {id(p): self.short(p) for p in (*first, *second)}
        pairs: list[tuple[Passage, Passage]] = []
        for p in second:
            score, best = max(
                ((fuzz.token_set_ratio(said[id(p)], said[id(q)]), q) for q in first),
                key=lambda pair: pair[0],
            )
            if score >= SAME_FINDING:
                pairs.append((best, p))
        paired_first = {id(a) for a, _ in pairs}
        paired_second = {id(b) for _, b in pairs}
        new = [p for p in second if id(p) not in paired_second]
        gone = [p for p in first if id(p) not in paired_first]
        noun = document_noun(later.dataset)
        out: list[Finding] = []
        if pairs:
            a, b = pairs[0]
            more = f" and {len(pairs) - 1} more" if len(pairs) > 1 else ""
            text = (
                f"In both {noun}s ({len(pairs)} of the {len(second)} findings of {later.date}): "
                f"“{said[id(b)]}”{more}"
            )
            out.append(
                Finding(text=text, markers=sorted([self.book.passage(a), self.book.passage(b)]))
            )
        for label, only, doc in (("Only in", new, later), ("Not again after", gone, earlier)):
            if only:
                more = f" and {len(only) - 1} more" if len(only) > 1 else ""
                when = doc.date or "the other"
                text = f"{label} {when} ({len(only)}): “{said[id(only[0])]}”{more}"
                out.append(Finding(text=text, markers=[self.book.passage(only[0])]))
        return out

    def lead_findings(self, passages: list[Passage], count: int) -> list[Finding]:
        out: list[Finding] = []
        seen: set[str] = set()
        for p in sorted(passages, key=lambda p: -p.score):
            if len(out) >= count:
                break
            if p.found.document_id in seen:
                continue
            seen.add(p.found.document_id)
            finding = self.finding(p)
            if p.unit.kind == "recommendation":
                finding.text = f"{document_noun(p.found.dataset).capitalize()} {finding.text}"
            out.append(finding)
        return out

    def themes(self, passages: list[Passage]) -> list[Theme]:
        labels = self.evidence.themes
        best: dict[int, float] = {}
        for p in passages:
            best[p.theme] = max(best.get(p.theme, -1.0), p.score)
        out = []
        for number in sorted(best, key=lambda t: -best[t]):
            members = sorted((p for p in passages if p.theme == number), key=lambda p: -p.score)
            label = labels[number] if number < len(labels) else "Findings"
            findings = [self.finding(p, heading=p.unit.kind != "text") for p in members[:5]]
            out.append(Theme(label=label, findings=findings))
        return out


def compose(
    evidence: Evidence, book: CitationBook, config: AgentConfig | None = None
) -> tuple[list[Finding], list[Theme], list[str]]:
    """The summary and themes of the answer, in the question's shape, and notes on what it
    could not find (a compared period with no document)."""
    config = config or AgentConfig()
    composer = _Composer(evidence, book, config, plan_terms(evidence.plan))
    summary, themes = _composed(composer, evidence)
    return summary, themes, composer.notes


def _composed(composer: _Composer, evidence: Evidence) -> tuple[list[Finding], list[Theme]]:
    """The summary and themes: the documents the question names, each with its units in order;
    else each compared period; else the firms of a "which…" question or the themes."""
    subjects = [d for d in evidence.subjects if composer.subject_units(d)]
    subjects = subjects[: evidence.shown]
    summary: list[Finding] = []
    themes: list[Theme] = []
    if subjects:
        for doc in subjects:
            units = composer.subject_units(doc)
            sentence = composer.subject_sentence(doc, units)
            if sentence is not None:
                summary.append(sentence)
            themes.append(composer.subject_theme(doc, units))
        every = [p for d in subjects for p in evidence.units[d.document_id]]
        compared = evidence.plan.ask.kind == "comparison" and len(subjects) == 2
        if compared and subjects[0].dataset == subjects[1].dataset:
            earlier, later = sorted(subjects, key=lambda d: d.date or "")
            summary = [*composer.side_by_side(earlier, later), *summary]
        if len(subjects) > 1:
            shared = composer.common_sentence(every)
            if shared is not None:
                summary.append(shared)
        topical = composer.topical_sentence(every)
        quoted = {m for f in summary for m in f.markers}
        if topical is not None and len(summary) < 4 and not set(topical.markers) & quoted:
            summary.append(topical)
        return summary, themes
    passages = [p for p in evidence.passages if composer.quotable(p)]
    if evidence.sides:
        return composer.side_parts(passages)
    which = evidence.plan.ask.lists
    # a which-list quotes each firm's unit most about the question, of all the units read
    listing = [p for p in evidence.candidates if composer.quotable(p)] or passages
    if which:
        sentence = composer.which_sentence(listing)
        if sentence is not None:
            summary.append(sentence)
    common = composer.common_sentence(passages)
    if common is not None:
        summary.append(common)
    summary += composer.lead_findings(passages, max(1, 3 - len(summary)))
    said = {m for f in summary for m in f.markers}
    counting = evidence.plan.ask.shape == "count" and evidence.tally is None
    counts = composer.count_theme() if counting else None  # else exact counts, as data
    if counts is not None:
        themes.append(counts)
    themes += composer.term_themes(listing)
    said |= {m for t in themes for f in t.findings for m in f.markers}
    listed = composer.which_theme(listing) if which else None
    if listed is not None:
        return summary[:3], [*themes, listed]
    for theme in composer.themes(passages):
        kept = [f for f in theme.findings if not set(f.markers) <= said]
        if kept:
            themes.append(Theme(theme.label, kept))
    return summary, themes
