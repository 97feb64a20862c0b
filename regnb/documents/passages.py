"""The best passage of a page: the 1-3 sentences holding the most distinct keyword terms, with
the matched words' spans, so that a hit shows why it matched rather than the page's opening.

Words are matched with the index's own rules (`regnb.text.Normaliser`): "inspections" in a page
matches the keyword "inspection", "21 CFR 211.113(b)" holds the terms 211, 113 and b.

    p = best_passage(page_text, ["media fill"], query="aseptic process simulation")
    p.text, p.spans          # the passage and the matched words' (start, end) in it
    p.html()                 # escaped, matched words in <mark>
    p.terminal()             # ANSI bold on a terminal, [brackets] in a pipe
"""

from __future__ import annotations

import functools
import html
import os
import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from regnb.text import Normaliser

__all__ = ["PagePassage", "best_passage", "passage_spans"]

MAX_CHARS = 400  # a passage longer than this is one sentence at most
MIN_CHARS = 160  # a shorter passage takes in its neighbours, up to 3 sentences
MAX_SENTENCES = 3
ELLIPSIS = "…"
# A word as the index sees it: letters and digits of any script; zero-width and soft-hyphen
# characters inside a word are folded away by the index, so they do not split it here either.
WORD = re.compile(r"[^\W_](?:[^\W_]|[\u00ad\u200b-\u200d\u2060\ufeff](?=[^\W_]))*")
SENTENCE_END = ".!?。！？"
CLOSERS = "\"')]”’»"
ANSI_BOLD, ANSI_RESET = "\x1b[1m", "\x1b[0m"
WORD_CACHE_LIMIT = 200_000

Span = tuple[int, int]


@dataclass(frozen=True)
class PagePassage:
    """A passage of a page: `text` (whitespace collapsed, `…` where the page goes on), `spans`
    of the matched words in `text`, the distinct keyword `terms` it holds, and where it lies in
    the page (`start`, `end`)."""

    text: str
    spans: tuple[Span, ...] = ()
    terms: frozenset[str] = frozenset()
    start: int = 0
    end: int = 0

    def marked(self, before: str, after: str, escape: Callable[[str], str] = str) -> str:
        """The text with each matched word between `before` and `after`; the rest through
        `escape`."""
        out, pos = [], 0
        for s, e in self.spans:
            out += [escape(self.text[pos:s]), before, escape(self.text[s:e]), after]
            pos = e
        out.append(escape(self.text[pos:]))
        return "".join(out)

    def html(self) -> str:
        """Escaped HTML, matched words in `<mark>`."""
        return self.marked("<mark>", "</mark>", html.escape)

    def terminal(self, style: str | None = None) -> str:
        """For a terminal: `ansi` (bold), `upper` (matched words in capitals) or `brackets`;
        by default bold on a tty (capitals when NO_COLOR is set), brackets otherwise."""
        style = style or _terminal_style()
        if style == "ansi":
            return self.marked(ANSI_BOLD, ANSI_RESET)
        if style == "brackets":
            return self.marked("[", "]")
        if style == "upper":
            out, pos = [], 0
            for s, e in self.spans:
                out += [self.text[pos:s], self.text[s:e].upper()]
                pos = e
            return "".join([*out, self.text[pos:]])
        raise ValueError(f"style must be ansi, upper or brackets, not {style!r}")

    def __str__(self) -> str:
        return self.text


def _terminal_style() -> str:
    if not sys.stdout.isatty():
        return "brackets"
    return "upper" if os.environ.get("NO_COLOR") else "ansi"


def best_passage(
    text: str,
    keywords: Sequence[str] | str = (),
    query: str | None = None,
    *,
    max_chars: int = MAX_CHARS,
) -> PagePassage:
    """The window of 1-3 sentences of `text` with the most distinct keyword terms (then query
    terms, then matched words), widened to its neighbours when short; the page's opening when
    nothing matches."""
    items = (keywords,) if isinstance(keywords, str) else tuple(keywords)
    return _best_passage(text, items, query, max_chars)


@functools.lru_cache(maxsize=4096)
def _best_passage(
    text: str, keywords: tuple[str, ...], query: str | None, max_chars: int
) -> PagePassage:
    wanted = {t for item in keywords for t in _normaliser().terms(item)}
    asked = set(_normaliser().terms(query)) if query else set()
    words = [(m.start(), m.end(), m.group()) for m in WORD.finditer(text)]
    mapping = _word_terms([w for _, _, w in words])
    hits = [(s, e, t) for s, e, w in words if (t := mapping[w.lower()]) is not None and t in wanted]
    asked_at = [(s, t) for s, _, w in words if (t := mapping[w.lower()]) is not None and t in asked]
    sentences = passage_spans(text, max_chars)
    if not sentences:
        return PagePassage("")
    first, last = _choose(sentences, hits, asked_at, max_chars)
    first, last = _widen(sentences, first, last, max_chars)
    start, end = sentences[first][0], sentences[last][1]
    inside = [(s - start, e - start) for s, e, _ in hits if start <= s and e <= end]
    body, spans = _collapse(text[start:end], inside)
    lead = ELLIPSIS + " " if text[:start].strip() else ""
    tail = " " + ELLIPSIS if text[end:].strip() else ""
    shift = len(lead)
    return PagePassage(
        text=f"{lead}{body}{tail}",
        spans=tuple((s + shift, e + shift) for s, e in spans),
        terms=frozenset(t for s, e, t in hits if start <= s and e <= end),
        start=start,
        end=end,
    )


def passage_spans(text: str, max_chars: int = MAX_CHARS) -> list[Span]:
    """(start, end) of each sentence of `text`, ends at `.`, `!`, `?` before a word that does not
    start in lower case, and at blank lines; a longer run is cut at spaces into pieces of at most
    `max_chars` (text without punctuation still has sentences)."""
    spans, start = [], 0
    for gap in re.finditer(r"\s+", text):
        if _ends_sentence(text, gap):
            spans.append((start, gap.start()))
            start = gap.end()
    spans.append((start, len(text)))
    out: list[Span] = []
    for s, e in spans:
        s, e = _trim(text, s, e)
        if e > s:
            out += _pieces(text, s, e, max_chars)
    return out


def _ends_sentence(text: str, gap: re.Match[str]) -> bool:
    if gap.group().count("\n") >= 2:
        return True
    before = text[max(0, gap.start() - 8) : gap.start()].rstrip(CLOSERS)
    following = text[gap.end() : gap.end() + 1]
    return bool(before) and before[-1] in SENTENCE_END and not following.islower()


def _trim(text: str, start: int, end: int) -> Span:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def _pieces(text: str, start: int, end: int, max_chars: int) -> list[Span]:
    """A sentence cut at the last space before each `max_chars` (or hard, in a long word)."""
    out = []
    while end - start > max_chars:
        cut = text.rfind(" ", start + 1, start + max_chars + 1)
        cut = cut if cut > start else start + max_chars
        out.append(_trim(text, start, cut))
        start = _trim(text, cut, end)[0]
    out.append((start, end))
    return out


def _choose(
    sentences: list[Span],
    hits: list[tuple[int, int, str]],
    asked_at: list[tuple[int, str]],
    max_chars: int,
) -> tuple[int, int]:
    """The first and last sentence of the best window: most distinct keyword terms, then
    distinct query terms, then matched words, then fewer sentences, then the earliest."""
    best: tuple[tuple[int, int, int, int, int], tuple[int, int]] | None = None
    for first in range(len(sentences)):
        for last in range(first, min(first + MAX_SENTENCES, len(sentences))):
            start, end = sentences[first][0], sentences[last][1]
            if last > first and end - start > max_chars:
                break
            terms = {t for s, _, t in hits if start <= s < end}
            matched = sum(1 for s, _, _ in hits if start <= s < end)
            asked = {t for s, t in asked_at if start <= s < end}
            key = (len(terms), len(asked), matched, first - last, -first)
            if best is None or key > best[0]:
                best = (key, (first, last))
    assert best is not None
    return best[1]


def _widen(sentences: list[Span], first: int, last: int, max_chars: int) -> tuple[int, int]:
    """A short window takes the next sentence, else the previous, while it stays short enough."""

    def length(a: int, b: int) -> int:
        return sentences[b][1] - sentences[a][0]

    while length(first, last) < MIN_CHARS and last - first + 1 < MAX_SENTENCES:
        if last + 1 < len(sentences) and length(first, last + 1) <= max_chars:
            last += 1
        elif first > 0 and length(first - 1, last) <= max_chars:
            first -= 1
        else:
            break
    return first, last


def _collapse(text: str, spans: list[Span]) -> tuple[str, list[Span]]:
    """`text` with each run of white space made one space, and `spans` moved to match."""
    out: list[str] = []
    where = []
    for ch in text:
        where.append(len(out))
        if not ch.isspace():
            out.append(ch)
        elif out and out[-1] != " ":
            out.append(" ")
    where.append(len(out))
    return "".join(out).rstrip(), [(where[s], where[e]) for s, e in spans]


@functools.cache
def _normaliser() -> Normaliser:
    return Normaliser()


_WORD_TERMS: dict[str, str | None] = {}


def _word_terms(words: list[str]) -> dict[str, str | None]:
    """Each lower-cased word's term (None for a stop word), remembered across pages."""
    lowered = {w.lower() for w in words}
    if len(_WORD_TERMS) > WORD_CACHE_LIMIT:
        _WORD_TERMS.clear()
    missing = sorted(lowered - _WORD_TERMS.keys())
    found = _normaliser().word_terms(missing) if missing else {}
    _WORD_TERMS.update(found)
    return {w: found[w] if w in found else _WORD_TERMS.get(w) for w in lowered}
