"""A guidance's table of contents: its sections, their outline and the pages they start on.

A long guidance opens with a table of contents ("V. Policy for Predetermined Change Control
Plans ........ 10"). It says what the guidance is made of and where each part is, so the pages an
answer reads are chosen from it: the sections a question asks about, or, for a question about the
whole guidance, the start of each section of its body. The printed page numbers count from the
guidance's first page of text, not the file's; the offset is found by looking for the sections'
titles on the pages that follow the contents."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from regnb.agent._rank import Term, keyword_score
from regnb.documents.structure import outline_level

__all__ = ["Section", "contents", "page_offset", "section_pages"]

# An entry ends with dot leaders and the page it starts on: "Scope ........ 5".
_LEADER = re.compile(r"[ \t]*(?:\.[ \t]*){4,}[ \t]*(\d{1,3})[ \t]*$", re.MULTILINE)
_ENUMERATOR = re.compile(r"^(?:SECTION\s+)?(\(?[IVXL]+|\(?[A-Z]|\(?\d+(?:\.\d+)*|\(?[a-z])[.)]\s*")
_NOT_TITLE = re.compile(
    r"^(?:table of contents|contents|contains nonbinding recommendations|page [ivx\d]+|[ivx]+|\d+)$",
    re.IGNORECASE,
)
# Sections that describe the guidance rather than recommend anything, and its back matter.
FRONT = re.compile(
    r"^(?:introduction|background|scope|purpose|preface|definitions?|glossary|references?|"
    r"bibliography|appendix|attachment|paperwork reduction|contacts?|abbreviations|acronyms)\b",
    re.IGNORECASE,
)
# The section in which a guidance says what it does and for whom.
OPENING = re.compile(r"^(?:introduction|purpose|overview|summary)\b", re.IGNORECASE)
MAX_PAGE = 400  # a printed page number past this is not one


@dataclass(frozen=True)
class Section:
    """One entry of the contents: its enumerator ("V", "A", "(1)"), title, printed page, level
    in the outline (1 outermost) and the titles of the sections it is in."""

    enumerator: str | None
    title: str
    printed: int
    level: int
    parents: tuple[str, ...] = ()

    @property
    def front(self) -> bool:
        """In the introduction, background, scope, definitions or an appendix (the outermost
        section it is in says): not the body."""
        return bool(FRONT.match((*self.parents, self.title)[0]))


def _entry(chunk: str) -> tuple[str | None, str] | None:
    """The enumerator and title of the text before a leader: its last lines that are neither a
    running header nor a page number (a title may wrap; an enumerator may stand alone)."""
    lines = [" ".join(line.split()) for line in chunk.splitlines()]
    lines = [line for line in lines if line and not _NOT_TITLE.match(line)]
    if not lines:
        return None
    tail = lines[-3:]
    # a wrapped title's first line, or the enumerator on a line of its own, precede the last
    start = len(tail) - 1
    while start > 0 and (
        _ENUMERATOR.fullmatch(tail[start - 1] + " ") or not tail[start][:1].isupper()
    ):
        start -= 1
        if _ENUMERATOR.fullmatch(tail[start] + " "):
            break
    text = " ".join(tail[start:])
    match = _ENUMERATOR.match(text)
    enumerator = match.group(1).lstrip("(") if match else None
    title = text[match.end() :] if match else text
    title = title.strip(" .")
    if not title or len(title.split()) > 30:
        return None
    if enumerator is not None and match is not None and match.group(0).startswith("("):
        enumerator = f"({enumerator})"
    return enumerator, title


def _level(enumerator: str | None, title: str, last_roman: str | None) -> int:
    if enumerator is None:
        return 1 if FRONT.match(title) else 5
    if enumerator.startswith("("):
        return 4 if enumerator[1:-1].isdigit() else 5
    return outline_level(enumerator, last_roman)


def contents(pages: Mapping[int, str], first_pages: int = 6) -> tuple[list[Section], int]:
    """The table of contents among the first `first_pages` pages, and the last page it is on
    (0 and no sections when there is none: fewer than three entries)."""
    entries: list[Section] = []
    last_page = 0
    outline: list[tuple[int, str]] = []
    last_roman: str | None = None
    for num in sorted(n for n in pages if n <= first_pages):
        text = pages[num]
        matches = list(_LEADER.finditer(text))
        if len(matches) < 2 and not (entries and matches):
            if entries:
                break  # the contents ended
            continue
        last_page = num
        start = 0
        for m in matches:
            found = _entry(text[start : m.start()])
            start = m.end()
            printed = int(m.group(1))
            if found is None or printed > MAX_PAGE:
                continue
            enumerator, title = found
            level = _level(enumerator, title, last_roman)
            if level == 1 and enumerator:
                last_roman = enumerator
            while outline and outline[-1][0] >= level:
                outline.pop()
            parents = tuple(t for _, t in outline)
            outline.append((level, title))
            entries.append(Section(enumerator, title, printed, level, parents))
    if len(entries) < 3:
        return [], 0
    return entries, last_page


def _fold(text: str) -> str:
    return " ".join(re.sub(r"[^a-z0-9 ]", " ", text.lower()).split())


def page_offset(sections: Sequence[Section], pages: Mapping[int, str], after: int) -> int | None:
    """The file's page number less the printed one: the most common difference between where a
    section's title first stands at the start of a line, on a page after the contents (`after`),
    and the page the contents give it. None when no title is found."""
    lines = {n: [_fold(line) for line in text.splitlines()] for n, text in pages.items()}
    votes: Counter[int] = Counter()
    for section in sections:
        title = _fold(section.title)[:40]
        if len(title) < 6:
            continue
        for num in sorted(n for n in lines if n > after):
            if any(line.startswith(title) or line.endswith(title) for line in lines[num]):
                if num - section.printed >= 0:
                    votes[num - section.printed] += 1
                break
    if not votes:
        return None
    return votes.most_common(1)[0][0]


def _spans(sections: Sequence[Section], offset: int, last: int) -> list[tuple[int, int]]:
    """The file pages each section runs over: from its first page to the next section's first
    (which it may share)."""
    starts = [s.printed + offset for s in sections]
    out = []
    for i, first in enumerate(starts):
        nxt = next((p for p in starts[i + 1 :] if p >= first), last)
        out.append((first, max(first, min(nxt, last))))
    return out


def section_pages(
    sections: Sequence[Section],
    offset: int,
    last: int,
    aspect: Sequence[Term],
    budget: int,
    best: Sequence[int] = (),
) -> list[int]:
    """At most `budget` pages to read: every page of the sections whose titles (with the titles
    of the sections they are in) hold what is asked, the best first; then the `best` pages (a
    search's; for a question about the whole guidance, those in its body); then the first page
    of each section of the body, innermost sections first, then their second pages, and so on.
    The introduction's first page comes after the sections asked about, whatever is asked: it
    is where the guidance says what it does."""
    spans = _spans(sections, offset, last)
    chosen: list[int] = []

    def add(pages: Sequence[int]) -> None:
        for page in pages:
            if len(chosen) < budget and 1 <= page <= last and page not in chosen:
                chosen.append(page)

    if aspect:
        scored = [
            (keyword_score(" ".join([*s.parents, s.title]), aspect), i)
            for i, s in enumerate(sections)
        ]
        for score, i in sorted(scored, key=lambda x: (-x[0], x[1])):
            if score <= 0:
                break
            add(range(spans[i][0], spans[i][1] + 1))
    opening = [i for i, s in enumerate(sections) if OPENING.match(s.title)]
    add([spans[i][0] for i in opening[:1]])
    body = [i for i, s in enumerate(sections) if not s.front]
    add([p for p in best if aspect or any(spans[i][0] <= p <= spans[i][1] for i in body)])
    # the innermost sections first: a section's first page is often its first subsection's
    leaves = [
        i for i in body if i + 1 >= len(sections) or sections[i + 1].level <= sections[i].level
    ]
    order = leaves + [i for i in body if i not in leaves]
    depth = 0
    while len(chosen) < budget and any(spans[i][0] + depth <= spans[i][1] for i in order):
        add([spans[i][0] + depth for i in order if spans[i][0] + depth <= spans[i][1]])
        depth += 1
    return chosen
