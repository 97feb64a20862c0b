"""Text normalisation shared by every connector: NFC, line ends, hyphenation, headers and footers.

Only what extraction breaks is repaired; words are never rewritten, so non-Latin text (Korean,
Japanese, Greek...) goes through untouched apart from Unicode NFC composition.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter

__all__ = ["normalise_pages", "normalise_text", "remove_repeated_lines", "split_pages"]

PAGE_CHARS = 3_000

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\u200b\ufeff]")
_SPACES = re.compile(r"[ \t\u00a0\u2000-\u200a\u202f\u3000]+")
_HYPHEN_BREAK = re.compile(r"(?<=[^\W\d_])[-\u2010\u00ad][ \t]*\n[ \t]*(?=[^\W\d_])")
_BLANK_LINES = re.compile(r"\n{3,}")
_PAGE_NUMBER = re.compile(
    r"^[\W_]*(?:page|p\.|seite|pagina|página)?\s*\d{1,4}"
    r"(?:\s*(?:of|/|von|de|sur)\s*\d{1,4})?[\W_]*$",
    re.IGNORECASE,
)


def _join_hyphen(match: re.Match[str]) -> str:
    # Join only when the next word goes on in lower case: "manufac-\nturing" -> "manufacturing",
    # but "Anti-\nInflammatory" or "COVID-\n19" keep their hyphen.
    following = match.string[match.end()]
    return "" if following.islower() else match.group(0)[0] + "\n"


def normalise_text(text: str) -> str:
    """NFC, Unix line ends, no control characters, hyphenated line breaks joined, tidy spacing."""
    text = unicodedata.normalize("NFC", text)
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = _CONTROL.sub("", text)
    text = _HYPHEN_BREAK.sub(_join_hyphen, text)
    text = text.replace("\u00ad", "")
    lines = [_SPACES.sub(" ", line).strip() for line in text.split("\n")]
    return _BLANK_LINES.sub("\n\n", "\n".join(lines)).strip()


def _edge_lines(page: str, top: bool, depth: int) -> list[str]:
    lines = [line for line in page.split("\n") if line.strip()]
    return lines[:depth] if top else lines[::-1][:depth]


def _repeated(pages: list[str], top: bool, depth: int = 2) -> set[str]:
    """Lines among the first (or last) `depth` of most pages: running headers or footers."""
    counts: Counter[str] = Counter()
    for page in pages:
        counts.update(set(_edge_lines(page, top, depth)))
    need = max(3, len(pages) // 2 + 1)
    return {line for line, n in counts.items() if n >= need}


def remove_repeated_lines(pages: list[str]) -> list[str]:
    """Drop running headers and footers (the same line at the top or bottom of most pages).

    A repeated line is kept where it first appears, so a document still holds it once (a
    header like "NDA 018680/S-074" stays findable); bare page numbers ("3", "Page 3 of 9")
    at a page's top or bottom go everywhere. Documents of fewer than three pages are unchanged.
    """
    if len(pages) < 3:
        return list(pages)
    headers, footers = _repeated(pages, top=True), _repeated(pages, top=False)
    seen: set[str] = set()
    out = []
    for page in pages:
        lines = page.split("\n")
        top = set(_edge_lines(page, True, 2))
        bottom = set(_edge_lines(page, False, 2))
        kept = []
        for line in lines:
            edge = line in top or line in bottom
            if edge and _PAGE_NUMBER.match(line.strip()):
                continue
            if (line in top and line in headers) or (line in bottom and line in footers):
                if line in seen:
                    continue
                seen.add(line)
            kept.append(line)
        out.append(_BLANK_LINES.sub("\n\n", "\n".join(kept)).strip())
    return out


def normalise_pages(pages: list[str], *, headers: bool = True) -> list[str]:
    """Normalise each page, then (with `headers`) remove running headers and footers."""
    cleaned = [normalise_text(p) for p in pages]
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
