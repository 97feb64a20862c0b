"""Links between the documents of a firm's timeline, and repeat findings (pure functions of plain
values; `regnb.firms.lookup` gathers the facts from an index, `regnb.firms.timeline` shows the links).

    Form 483 -> warning letter     the letter dated after the 483 and within `LETTER_WINDOW_DAYS`,
                                   of the same site (FEIs, where both name one, shared), and either
                                   naming an inspection whose days hold the 483's date, or, where
                                   it names none, sharing a CFR section with the 483 (where both
                                   cite one) or naming its FEI; the nearest such 483 (and its
                                   copies of the same date)
    complete response letter ->    the next document of the same application (its number; its
      approval or the next CRL     type where both give one): a CRL at least `RESUBMISSION_DAYS`
                                   later (sooner, a copy of the letter), or a later document of
                                   an approvals dataset (`fda_drug`, `fda_biologic`), anywhere in
                                   the corpus; an approval letter first among those of one date
    Form 483 -> earlier 483        repeat findings: a CFR section (21 CFR 211.113) that the 483
                                   and the site's previous 483 (the latest of an earlier date)
                                   both cite, and each observation marked as a repeat: of the
                                   483 whose date the mark names, else of the previous 483

A link is written as a short sentence (`Link`, its `str` and `Link.parse`):

    followed by warning letter 2021-10-01 (<document_id>)
    follows Form 483 2021-06-01 (<document_id>)
    followed by approval 2022-02-01 (<document_id>)
    repeats 21 CFR 211.113 (Observation 1, page 2) of Form 483 2019-03-01, page 1 (<document_id>)
    repeats an observation (Observation 2, page 3) of Form 483 2019-03-01 (<document_id>)
"""

from __future__ import annotations

import contextlib
import datetime as dt
import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

__all__ = [
    "AN_OBSERVATION",
    "APPLICATION_KINDS",
    "KINDS",
    "LETTER_WINDOW_DAYS",
    "Facts",
    "Link",
    "application_number",
    "link_documents",
    "link_kind",
    "link_pairs",
    "named_span",
    "own_applications",
    "site_feis",
]

LETTER_WINDOW_DAYS = 730  # a warning letter follows its Form 483 within 24 months
SAME_FINDING = 0.5  # words shared (Jaccard) by a repeat observation and the finding it restates
RESUBMISSION_DAYS = 60  # a CRL sooner after another of the application is a copy of it
SPAN_SLACK_DAYS = 3  # a 483 dated up to 3 days after the last day of inspection a text names
KINDS = {
    "fda_483": "Form 483",
    "fda_warning_letters": "warning letter",
    "fda_crl": "complete response letter",
    "fda_drug": "approval",
    "fda_biologic": "approval",
}
APPLICATION_KINDS = ("complete response letter", "approval")  # documents linked by application
RELATIONS = ("follows", "followed by", "repeats")
AN_OBSERVATION = "an observation"  # what a repeat mark repeats where no CFR section is shared


def link_kind(dataset: str) -> str | None:
    """The kind of document a link names (`KINDS`; a source suffix `__x` ignored), or None."""
    return KINDS.get(dataset.split("__")[0])


@dataclass(frozen=True)
class Link:
    """A link from one document of a timeline to another: how they relate (`RELATIONS`), the
    other's kind, date and id; for a repeat, what repeats (a CFR section or `AN_OBSERVATION`), the
    finding of this document that repeats it and its page, and the other's page citing it."""

    relation: str
    kind: str
    date: str
    document_id: str
    about: str | None = None
    finding: str | None = None
    page_num: int | None = None
    other_page_num: int | None = None

    def __str__(self) -> str:
        where = f"{self.kind} {self.date}"
        if self.other_page_num is not None:
            where += f", page {self.other_page_num}"
        if self.relation != "repeats":
            return f"{self.relation} {where} ({self.document_id})"
        finding = f"{self.finding}, " if self.finding else ""
        return (
            f"repeats {self.about} ({finding}page {self.page_num}) of {where} ({self.document_id})"
        )

    @classmethod
    def parse(cls, text: str) -> Link:
        """The link a string of `str(link)` writes; ValueError for any other string."""
        m = _LINK.fullmatch(text)
        if m is None:
            raise ValueError(f"not a timeline link: {text!r}")
        return cls(
            relation=m["relation"],
            kind=m["kind"],
            date=m["date"],
            document_id=m["id"],
            about=m["about"],
            finding=m["finding"],
            page_num=int(m["page"]) if m["page"] else None,
            other_page_num=int(m["other"]) if m["other"] else None,
        )


_KIND_WORDS = "|".join(re.escape(k) for k in dict.fromkeys(KINDS.values()))
_LINK = re.compile(
    rf"""(?P<relation>followed\ by|follows|repeats)[ ]
    (?:(?P<about>.+?)\ \((?:(?P<finding>[^()]+?),\ )?page\ (?P<page>\d+)\)\ of\ )?
    (?P<kind>{_KIND_WORDS})\ (?P<date>\d{{4}}-\d{{2}}-\d{{2}})
    (?:,\ page\ (?P<other>\d+))?\ \((?P<id>.+)\)""",
    re.VERBOSE | re.DOTALL,
)


# --- dates a text names -------------------------------------------------------------------

_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_MONTH = (
    r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?"
    r"|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\.?"
)
_YEAR = r"(?:19|20)\d\d"
_DATE = re.compile(
    rf"""\b(?P<m>{_MONTH})\s+(?P<d>\d{{1,2}})(?!\d)(?:st|nd|rd|th)?(?:,?\s+(?P<y>{_YEAR})\b)?
    | (?<![\d/])(?P<nm>\d{{1,2}})/(?P<nd>\d{{1,2}})/(?P<ny>{_YEAR})\b
    | (?:[-\u2013\u2014]|\bto|\bthrough|\bthru|\band)\s*(?P<bd>\d{{1,2}}),?\s+(?P<by>{_YEAR})\b""",
    re.VERBOSE | re.IGNORECASE,
)
_INSPECTED = re.compile(r"\binspect(?:ed|ion|ions)?\b(?!@)", re.IGNORECASE)
_REPEAT = re.compile(r"\brepeat(?:ed)?\b", re.IGNORECASE)
SPAN_WINDOW = 400  # characters after the anchor word where its dates are read
SPAN_GAP = 16  # characters between two dates of one span ("October 14, 2025, through ...")


def _parts(m: re.Match[str]) -> tuple[int | None, int | None, int]:
    if m["nm"]:
        return int(m["ny"]), int(m["nm"]), int(m["nd"])
    if m["bd"]:
        return int(m["by"]), None, int(m["bd"])
    month = _MONTHS.index(m["m"][:3].lower()) + 1
    return (int(m["y"]) if m["y"] else None), month, int(m["d"])


def _dates(parts: Sequence[tuple[int | None, int | None, int]]) -> list[dt.date]:
    """Dates of a run such as `October 15 to 24, 2025`: a missing year is the next date's, a
    missing month the previous one's."""
    out: list[dt.date] = []
    for i, (year, month, day) in enumerate(parts):
        year = year or next((y for y, _, _ in parts[i + 1 :] if y), None)
        month = month or next((m for _, m, _ in reversed(parts[:i]) if m), None)
        if year and month:
            try:
                out.append(dt.date(year, month, day))
            except ValueError:
                continue
    return out


def link_pairs(
    documents: Iterable[object], links: Iterable[Iterable[str]]
) -> list[tuple[str, str, bool]]:
    """The links of a timeline's rows (each row's document and its `links` texts) as pairs: a
    document, the earlier document it links to, and whether a finding repeats (a "followed by"
    link is the same pair seen from the other end, left out)."""
    pairs: dict[tuple[str, str], bool] = {}
    for doc, texts in zip(documents, links, strict=True):
        for text in texts:
            with contextlib.suppress(ValueError):
                link = Link.parse(text)
                if link.relation != "followed by":
                    pairs[(str(doc), link.document_id)] = link.relation == "repeats"
    return [(one, other, repeat) for (one, other), repeat in pairs.items()]


def named_span(text: str, anchor: str = "inspected") -> tuple[str, str] | None:
    """The first and last day (ISO) of the first run of dates written shortly after an anchor
    word: "inspected" ("inspected your facility ... from October 15 to 24, 2025") or "repeat"
    ("a repeat observation from the inspection dated 9/3/2001 - 9/17/2001"); None if none."""
    words = _INSPECTED if anchor == "inspected" else _REPEAT
    for word in words.finditer(text):
        run: list[re.Match[str]] = []
        for m in _DATE.finditer(text, word.end(), word.end() + SPAN_WINDOW):
            if run and m.start() - run[-1].end() > SPAN_GAP:
                break
            if run or not m["bd"]:
                run.append(m)
        days = _dates([_parts(m) for m in run])
        if days:
            return min(days).isoformat(), max(days).isoformat()
    return None


# --- the facts a link needs, and the links ----------------------------------------------------


@dataclass(frozen=True)
class Facts:
    """What linking needs of one document: its id, dataset, ISO date, title; its findings
    (`(label, statement, page)`), the first citation of each CFR section (`(section, finding
    label or "", page)`), its observations marked as a
    repeat (`(label, page, span named or None)`), the inspection days a letter names, its FEIs,
    its own application numbers (`NDA 021164`, `021164`), and whether it is an approval letter."""

    document_id: str
    dataset: str
    date: str | None
    title: str = ""
    findings: tuple[tuple[str, str, int], ...] = ()
    cited: tuple[tuple[str, str, int], ...] = ()
    marked: tuple[tuple[str, int, tuple[str, str] | None], ...] = ()
    inspected: tuple[str, str] | None = None
    feis: frozenset[str] = frozenset()
    applications: frozenset[str] = frozenset()
    approval_letter: bool = False
    kind: str | None = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", link_kind(self.dataset))

    def sections(self) -> set[str]:
        return {s for s, _, _ in self.cited}


def _days(a: str, b: str) -> int:
    return (dt.date.fromisoformat(b) - dt.date.fromisoformat(a)).days


def _same_site(a: Facts, b: Facts) -> bool:
    """Whether two documents may be of one site: their FEIs meet, or one names none."""
    return not (a.feis and b.feis and not a.feis & b.feis)


def _in_span(date: str, span: tuple[str, str]) -> bool:
    return span[0] <= date and _days(span[1], date) <= SPAN_SLACK_DAYS


def _letter_follows(form: Facts, letter: Facts) -> bool:
    """Whether a warning letter may follow a Form 483 (both dated)."""
    assert form.date and letter.date
    if not 0 < _days(form.date, letter.date) <= LETTER_WINDOW_DAYS or not _same_site(form, letter):
        return False
    if letter.inspected is not None:
        return _in_span(form.date, letter.inspected)
    shared = form.sections() & letter.sections()
    cited_apart = bool(form.sections() and letter.sections() and not shared)
    return not cited_apart or bool(form.feis & letter.feis)


def _nearest(found: Iterable[Facts], latest: bool) -> list[Facts]:
    """The documents of the latest (or earliest) date among those found, by id."""
    found = list(found)
    if not found:
        return []
    pick = max if latest else min
    date = pick(f.date or "" for f in found)
    return sorted((f for f in found if f.date == date), key=lambda f: f.document_id)


def _pair(out: dict[str, list[Link]], earlier: Facts, later: Facts) -> None:
    assert earlier.kind and later.kind and earlier.date and later.date
    out[earlier.document_id].append(Link("followed by", later.kind, later.date, later.document_id))
    out[later.document_id].append(Link("follows", earlier.kind, earlier.date, earlier.document_id))


def _letters(docs: Sequence[Facts], out: dict[str, list[Link]]) -> None:
    forms = [d for d in docs if d.kind == "Form 483"]
    for letter in (d for d in docs if d.kind == "warning letter"):
        for form in _nearest((f for f in forms if _letter_follows(f, letter)), latest=True):
            _pair(out, form, letter)


def _app_key(application: str) -> tuple[str | None, str]:
    kind, _, number = application.split("/")[0].rpartition(" ")
    return (kind or None), number


def _same_application(a: Facts, b: Facts) -> bool:
    for x in map(_app_key, a.applications):
        for y in map(_app_key, b.applications):
            if x[1] == y[1] and (x[0] is None or y[0] is None or x[0] == y[0]):
                return True
    return False


def _after_crl(crl: Facts, doc: Facts) -> bool:
    """Whether a document is dated after a CRL: an approval any day after, another CRL at least
    `RESUBMISSION_DAYS` after (sooner, it is a copy of the same letter)."""
    least = RESUBMISSION_DAYS if doc.kind == crl.kind else 1
    return bool(crl.date and doc.date) and _days(crl.date or "", doc.date or "") >= least


def _applications(docs: Sequence[Facts], out: dict[str, list[Link]]) -> None:
    by_number: dict[str, list[Facts]] = defaultdict(list)
    for doc in docs:
        if doc.kind in APPLICATION_KINDS:
            for number in {_app_key(a)[1] for a in doc.applications}:
                by_number[number].append(doc)
    for crl in (d for d in docs if d.kind == "complete response letter"):
        near = {id(d): d for a in crl.applications for d in by_number[_app_key(a)[1]]}
        later = [d for d in near.values() if _after_crl(crl, d) and _same_application(crl, d)]
        nearest = _nearest(later, latest=False)
        if nearest:
            best = min(nearest, key=lambda d: (d.kind == "approval", not d.approval_letter))
            _pair(out, crl, best)


def _repeat(
    earlier: Facts, about: str, label: str, page: int, other_page: int | None = None
) -> Link:
    assert earlier.kind and earlier.date
    return Link(
        "repeats", earlier.kind, earlier.date, earlier.document_id,
        about=about, finding=label or None, page_num=page, other_page_num=other_page,
    )  # fmt: skip


def _repeats(docs: Sequence[Facts], out: dict[str, list[Link]]) -> None:
    """Each 483's sections cited by the site's previous 483 too, and its observations marked as
    a repeat (of the 483 whose days the mark names, else of the previous one)."""
    forms = [d for d in docs if d.kind == "Form 483"]
    for later in forms:
        earlier = [f for f in forms if (f.date or "") < (later.date or "") and _same_site(f, later)]
        previous = _nearest(earlier, latest=True)
        repeated: set[str] = set()
        for section, label, page in later.cited:
            hits = [(p, c) for p in previous for c in p.cited if c[0] == section]
            if hits:
                prev, (_, _, other_page) = hits[0]
                out[later.document_id].append(_repeat(prev, section, label, page, other_page))
                repeated.add(label)
        for label, page, span in later.marked:
            named = [f for f in earlier if span is not None and _in_span(f.date or "", span)]
            target = _nearest(named, latest=True) if span is not None else previous
            if target and label not in repeated:
                statement = next((s for lb, s, _ in later.findings if lb == label), "")
                match = _same_finding(statement, target[0])
                out[later.document_id].append(
                    _repeat(target[0], match[0], label, page, match[1])
                    if match
                    else _repeat(target[0], AN_OBSERVATION, label, page)
                )


def _words(text: str) -> set[str]:
    return set(re.findall(r"[a-z]{3,}", text.casefold()))


def _same_finding(statement: str, earlier: Facts) -> tuple[str, int] | None:
    """The label and page of the earlier document's finding that a repeat observation restates
    (most words shared, at least `SAME_FINDING` of the two statements' words), or None."""
    mine = _words(statement)
    best: tuple[float, str, int] | None = None
    for label, text, page in earlier.findings:
        theirs = _words(text)
        share = len(mine & theirs) / len(mine | theirs) if mine and theirs else 0.0
        if share >= SAME_FINDING and label and (best is None or share > best[0]):
            best = (share, label, page)
    return (best[1], best[2]) if best else None


def link_documents(docs: Sequence[Facts], others: Sequence[Facts] = ()) -> dict[str, list[Link]]:
    """The links of each of `docs` (a firm's timeline) by document id, each list ordered by the
    other document's date: 483s and the warning letters that followed them and repeat findings
    among `docs`, complete response letters and what followed them among `docs` and `others`
    (the corpus's other documents of their applications). Undated documents link nothing."""
    dated = [d for d in docs if d.date and d.kind]
    ids = {d.document_id for d in dated}
    extra = [o for o in others if o.date and o.kind and o.document_id not in ids]
    out: dict[str, list[Link]] = defaultdict(list)
    _letters(dated, out)
    _applications([*dated, *extra], out)
    _repeats(dated, out)
    return {
        doc: sorted(dict.fromkeys(links), key=lambda k: (k.date, RELATIONS.index(k.relation)))
        for doc, links in out.items()
        if doc in ids
    }


# --- facts of an index's identifiers (`(kind, value, page)`, page 0 a catalog field) -----------


def site_feis(identifiers: Iterable[tuple[str, str, int]]) -> frozenset[str]:
    """The FEIs that place a document at a site: its catalog fields', else its first page's."""
    held = list(identifiers)
    fielded = frozenset(v for k, v, page in held if k == "fei" and page == 0)
    return fielded or frozenset(v for k, v, page in held if k == "fei" and page == 1)


def own_applications(identifiers: Iterable[tuple[str, str, int]]) -> frozenset[str]:
    """The applications a document is about: its catalog fields', else its first page's where it
    names one number only (a complete response letter may name the reference drug's too)."""
    held = list(identifiers)
    fielded = frozenset(v for k, v, page in held if k == "application" and page == 0)
    if fielded:
        return fielded
    written = frozenset(v for k, v, page in held if k == "application" and page == 1)
    return written if len({_app_key(v)[1] for v in written}) == 1 else frozenset()


def application_number(application: str) -> str:
    """`NDA 021164/S-005` -> `021164`."""
    return _app_key(application)[1]
