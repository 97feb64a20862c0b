"""Text normalisation shared by every connector: NFC, line ends, hyphenation, headers and footers.

Only what extraction breaks is repaired; words are never rewritten, so non-Latin text (Korean,
Japanese, Greek...) goes through untouched apart from Unicode NFC composition.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections import Counter
from collections.abc import Callable

__all__ = [
    "normalise_pages",
    "normalise_text",
    "remove_page_marks",
    "remove_repeated_lines",
    "split_pages",
]

PAGE_CHARS = 3_000

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\u200b\ufeff]")
_ODD_SPACES = re.compile(r"[\t\u00a0\u2000-\u200a\u202f\u3000]")
_SPACE_RUNS = re.compile(r"  +")
_HYPHEN_BREAK = re.compile(r"[-\u2010] ?\n ?")
_LEFT_WORD = re.compile(r"[^\W\d_]+$")
_RIGHT_WORD = re.compile(r"^[^\W\d_]+")
_BLANK_LINES = re.compile(r"\n\n\n+")
# FDA's document-management stamp, at the foot of every page of a released letter
_REFERENCE_ID = re.compile(
    r"^[ \t]*(?:Reference ID:?[ \t]*\d{6,8}[ \t]*)+|[ \t]*(?:Reference ID:?[ \t]*\d{6,8}[ \t]*)+$",
    re.MULTILINE,
)
_APPLICATION = (
    r"(?:s?NDA|s?BLA|ANDA)[ -]?\d{2}-?\d{3,4}"
    r"(?:[ \t]*/[ \t]*(?:S-?\d{1,4}|Orig(?:inal)?[ -]?\d{1,2}))?"
)
_PAGE_WORD = r"(?:Page|Seite|Pagina|Página)[ \t]+\d{1,4}(?:[ \t]+(?:of|von|de|sur)[ \t]+\d{1,4})?"
_APPLICATION_LINE = re.compile(rf"{_APPLICATION}[ \t]*", re.IGNORECASE)
_PAGE_LINE = re.compile(rf"[-–— ]*{_PAGE_WORD}[-–— ]*", re.IGNORECASE)
_APPLICATION_AND_PAGE = re.compile(
    rf"{_APPLICATION}[ \t,;|-]*{_PAGE_WORD}|{_PAGE_WORD}[ \t,;|-]*{_APPLICATION}", re.IGNORECASE
)
_PAGE_NUMBER = re.compile(
    r"^[-–— ]*(?:page|seite|pagina|página)?\s*\d{1,4}(?:\s*(?:of|/|von|de|sur)\s*\d{1,4})?[-–— ]*$",
    re.IGNORECASE,
)


def _clean(text: str) -> str:
    """NFC, Unix line ends, no control characters, single spaces, no spaces around line ends.

    pdfium marks a hyphen that ends a line with \x02 (and drops the line end): it becomes
    "-\n" again so that the hyphenation rule below decides."""
    text = unicodedata.normalize("NFC", text)
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\x02", "-\n")
    text = _CONTROL.sub("", text.replace("\u00ad\n", "-\n").replace("\u00ad", ""))
    text = _SPACE_RUNS.sub(" ", _ODD_SPACES.sub(" ", text))
    return text.replace(" \n", "\n").replace("\n ", "\n")


class _Words:
    """Whether a document uses a word (or hyphenated compound), looked up lazily in its text.

    A broken word's parts are glued by a letter no word has, so neither part counts as a word.
    """

    def __init__(self, texts: list[str]) -> None:
        self._texts = texts
        self._text: str | None = None
        self._known: dict[str, bool] = {}

    def __contains__(self, word: object) -> bool:
        if not isinstance(word, str):
            return False
        if word not in self._known:
            self._known[word] = self._find(word)
        return self._known[word]

    def _find(self, word: str) -> bool:
        if self._text is None:
            self._text = "\n".join(_HYPHEN_BREAK.sub("\u02ac", t) for t in self._texts).lower()
        text, start = self._text, 0
        while (at := text.find(word, start)) >= 0:
            end = at + len(word)
            before = text[at - 1] if at else " "
            after = text[end] if end < len(text) else " "
            if not (before.isalnum() or before == "-") and not (after.isalnum() or after == "-"):
                return True
            start = at + 1
        return False


def _hyphen_rule(vocabulary: _Words) -> Callable[[re.Match[str]], str]:
    """A word broken at a line end with a hyphen: joined ("manufac-\nturing" -> "manufacturing")
    where the joined word is the document's or the second part goes on in lower case; kept as
    one hyphenated word ("short-term", "COVID-19", "Anti-Inflammatory") where the document uses
    it so, or both parts are words of their own, or the second part is a capital or a digit."""

    def decide(match: re.Match[str]) -> str:
        text = match.string
        left = _LEFT_WORD.search(text, max(0, match.start() - 60), match.start())
        right = _RIGHT_WORD.match(text[match.end() : match.end() + 60])
        if left is None:
            return match.group(0)
        if right is None:
            following = text[match.end() : match.end() + 1]
            return "-" if following.isdigit() else match.group(0)
        head, tail = left.group(0).lower(), right.group(0).lower()
        if head + tail in vocabulary:
            return ""
        if f"{head}-{tail}" in vocabulary or (head in vocabulary and tail in vocabulary):
            return "-"
        return "" if right.group(0)[0].islower() else "-"

    return decide


def _dehyphenate(text: str, vocabulary: _Words | None) -> str:
    if "-\n" not in text and "\u2010\n" not in text:
        return text
    rule = _hyphen_rule(vocabulary if vocabulary is not None else _Words([text]))
    return _HYPHEN_BREAK.sub(rule, text)


def normalise_text(text: str) -> str:
    """NFC, Unix line ends, no control characters, hyphenated line breaks resolved (against the
    text's own words), tidy spacing."""
    text = _dehyphenate(_clean(text), None)
    return _BLANK_LINES.sub("\n\n", text).strip()


def _edges(lines: list[str], depth: int) -> tuple[list[int], list[int]]:
    """Indexes of the first and the last `depth` non-empty lines."""
    first: list[int] = []
    for i, line in enumerate(lines):
        if line:
            first.append(i)
            if len(first) == depth:
                break
    last: list[int] = []
    for i in range(len(lines) - 1, -1, -1):
        if lines[i]:
            last.append(i)
            if len(last) == depth:
                break
    return first, last


def _repeated(pages: list[list[str]], top: bool, depth: int = 2) -> set[str]:
    """Lines among the first (or last) `depth` of most pages: running headers or footers."""
    counts: Counter[str] = Counter()
    for lines in pages:
        first, last = _edges(lines, depth)
        counts.update({lines[i] for i in (first if top else last)})
    need = max(3, len(pages) // 2 + 1)
    return {line for line, n in counts.items() if n >= need}


def remove_page_marks(page: str) -> str:
    """Drop a letter's running marks from one page: "Reference ID: 1234567" stamps, a running
    header of application number and page ("NDA 209128" over "Page 2", "BLA 125522/ Original 2
    Page 3") and "Page 2 of 9" lines among the first or last three lines.

    An application number alone is content (the letter's own heading) and stays.
    """
    lines = _REFERENCE_ID.sub("", page).split("\n")
    first, last = _edges(lines, 3)
    drop = {i for i in first + last if _PAGE_LINE.fullmatch(lines[i].strip())}
    drop |= {i for i in first if _APPLICATION_AND_PAGE.fullmatch(lines[i].strip())}
    for a, b in itertools.pairwise(first):
        pair = (lines[a].strip(), lines[b].strip())
        if (_APPLICATION_LINE.fullmatch(pair[0]) and _PAGE_LINE.fullmatch(pair[1])) or (
            _PAGE_LINE.fullmatch(pair[0]) and _APPLICATION_LINE.fullmatch(pair[1])
        ):
            drop |= {a, b}
    kept = "\n".join(line for i, line in enumerate(lines) if i not in drop)
    return _BLANK_LINES.sub("\n\n", kept).strip("\n")


def remove_repeated_lines(pages: list[str]) -> list[str]:
    """Drop running headers and footers (the same line at the top or bottom of most pages).

    A repeated line is kept where it first appears, so a document still holds it once (a
    header like "NDA 018680/S-074" stays findable); a bare page number ("3", "Page 3 of 9")
    as a page's first or last line goes everywhere. Documents of fewer than three pages are
    unchanged.
    """
    if len(pages) < 3:
        return list(pages)
    split = [page.split("\n") for page in pages]
    headers, footers = _repeated(split, top=True), _repeated(split, top=False)
    seen: set[str] = set()
    out = []
    for lines in split:
        first, last = _edges(lines, 2)
        drop = {i for i in first[:1] + last[:1] if _PAGE_NUMBER.match(lines[i])}
        for i in sorted(
            {i for i in first if lines[i] in headers} | {i for i in last if lines[i] in footers}
        ):
            if lines[i] in seen:
                drop.add(i)
            seen.add(lines[i])
        kept = "\n".join(line for i, line in enumerate(lines) if i not in drop)
        out.append(_BLANK_LINES.sub("\n\n", kept).strip())
    return out


def normalise_pages(pages: list[str], *, headers: bool = True) -> list[str]:
    """Normalise each page; with `headers`, remove page marks (before joining words hyphenated
    across lines, which a stamp can split) and then running headers and footers."""
    cleaned = [_clean(p) for p in pages]
    if headers:
        cleaned = [remove_page_marks(p) for p in cleaned]
    vocabulary = _Words(cleaned)
    cleaned = [_BLANK_LINES.sub("\n\n", _dehyphenate(p, vocabulary)).strip() for p in cleaned]
    return remove_repeated_lines(cleaned) if headers else cleaned


def _cut_long(paragraph: str, size: int) -> list[str]:
    """A paragraph longer than `size`: cut at line ends, then sentence ends, then spaces."""
    pieces: list[str] = []
    rest = paragraph
    while len(rest) > size:
        window = rest[:size]
        cut = max(window.rfind("\n"), 0)
        if cut < size // 2:
            cut = max(window.rfind(". "), window.rfind("。"), window.rfind("다. ")) + 1
        if cut < size // 2:
            cut = window.rfind(" ")
        if cut < size // 2:
            cut = size
        pieces.append(rest[:cut].strip())
        rest = rest[cut:].strip()
    if rest:
        pieces.append(rest)
    return pieces


def split_pages(text: str, size: int = PAGE_CHARS) -> list[str]:
    """Split a long text into pages of about `size` characters at paragraph breaks."""
    paragraphs: list[str] = []
    for para in text.split("\n\n"):
        if para.strip():
            paragraphs.extend(_cut_long(para.strip(), size))
    pages: list[str] = []
    current: list[str] = []
    length = 0
    for para in paragraphs:
        if current and length + len(para) + 2 > size:
            pages.append("\n\n".join(current))
            current, length = [], 0
        current.append(para)
        length += len(para) + 2
    if current:
        pages.append("\n\n".join(current))
    return pages or [""]
