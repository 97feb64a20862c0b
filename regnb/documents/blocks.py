"""A page split into numbered blocks: paragraphs, list items, table rows, or windows of about three
sentences where a page has no structure. The split is a pure function of the page text, so a
`block_id` ("¶3", "¶3-5") names the same text every time the page is read."""

from __future__ import annotations

import re
from dataclasses import dataclass

from regnb.documents.words import sentence_spans

__all__ = ["Block", "block_text", "parse_block_id", "split_blocks"]

MAX_BLOCK_WORDS = 110
WINDOW_SENTENCES = 3
WINDOW_WORDS = 80

_BLANK_LINE = re.compile(r"\n[ \t\r\f\v]*\n")
_LIST_ITEM = re.compile(
    r"^\s*(?:[-•*▪●◦·]\s+|o\s+(?=[A-Z])|\(?\d{1,3}[.)]\s+|\(?[a-zA-Z][.)]\s+|\([ivxlc]{1,5}\)\s+"
    r"|OBSERVATION\s+\d+\b)"
)
_CELL_GAP = re.compile(r"\S(?: {2,}|\t)\S")
_WORD = re.compile(r"\S+")
_BLOCK_ID = re.compile(r"^¶(\d+)(?:-(\d+))?$")


@dataclass(frozen=True)
class Block:
    """Block `number` of a page: `text` is `page[start:end]`."""

    number: int
    start: int
    end: int
    text: str
    kind: str  # paragraph, item, row or window

    @property
    def block_id(self) -> str:
        return f"¶{self.number}"


def _is_row(line: str) -> bool:
    """A table row: cells split by `|`, tabs, or two runs of two or more spaces."""
    if line.count("|") >= 2 or (line.count("|") == 1 and len(line.strip()) > 3):
        return True
    return len(_CELL_GAP.findall(line.strip())) >= 2


def _lines(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """(start, end) of each non-blank line of `text[start:end]`."""
    out = []
    pos = start
    while pos < end:
        nl = text.find("\n", pos, end)
        stop = end if nl < 0 else nl
        if text[pos:stop].strip():
            out.append((pos, stop))
        pos = stop + 1
    return out


def _structure(text: str, start: int, end: int) -> list[tuple[int, int, str]]:
    """A paragraph's parts: list items (with their continuation lines), table rows, or itself."""
    lines = _lines(text, start, end)
    kinds = []
    for s, e in lines:
        line = text[s:e]
        kinds.append("row" if _is_row(line) else "item" if _LIST_ITEM.match(line) else "line")
    if len(lines) < 2 or all(k == "line" for k in kinds[1:]):
        return [(start, end, "paragraph")]  # one item or one row with its wrapped lines
    parts: list[list[object]] = []
    for (s, e), kind in zip(lines, kinds, strict=True):
        if kind == "line" and parts and parts[-1][2] != "row":
            parts[-1][1] = e
        else:
            parts.append([s, e, "paragraph" if kind == "line" else kind])
    return [(int(s), int(e), str(k)) for s, e, k in parts]  # type: ignore[call-overload]


def _word_count(text: str, start: int, end: int) -> int:
    return len(_WORD.findall(text, start, end))


def _windows(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """A long stretch cut into windows of about three sentences (or ~80 words without them)."""
    spans: list[tuple[int, int]] = []
    for s, e in sentence_spans(text, start, end):
        if _word_count(text, s, e) <= WINDOW_WORDS:
            spans.append((s, e))
            continue
        words = list(_WORD.finditer(text, s, e))
        for i in range(0, len(words), WINDOW_WORDS):
            chunk = words[i : i + WINDOW_WORDS]
            spans.append((chunk[0].start(), chunk[-1].end()))
    out: list[tuple[int, int]] = []
    current: list[tuple[int, int]] = []
    for span in spans:
        size = sum(_word_count(text, s, e) for s, e in current)
        if current and (
            len(current) >= WINDOW_SENTENCES or size + _word_count(text, *span) > WINDOW_WORDS
        ):
            out.append((current[0][0], current[-1][1]))
            current = []
        current.append(span)
    if current:
        out.append((current[0][0], current[-1][1]))
    return out


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def split_blocks(page: str) -> list[Block]:
    """The page's blocks, numbered from 1; each block's text is a slice of the page."""
    paragraphs = []
    pos = 0
    for match in _BLANK_LINE.finditer(page):
        paragraphs.append((pos, match.start()))
        pos = match.end()
    paragraphs.append((pos, len(page)))
    spans: list[tuple[int, int, str]] = []
    for p_start, p_end in paragraphs:
        for s, e, kind in _structure(page, p_start, p_end):
            s, e = _trim(page, s, e)
            if s >= e or not any(ch.isalnum() for ch in page[s:e]):
                continue
            if kind != "row" and _word_count(page, s, e) > MAX_BLOCK_WORDS:
                spans += [(ws, we, "window") for ws, we in _windows(page, s, e)]
            else:
                spans.append((s, e, kind))
    return [
        Block(number=i, start=s, end=e, text=page[s:e], kind=kind)
        for i, (s, e, kind) in enumerate(spans, start=1)
    ]


def parse_block_id(block_id: str) -> tuple[int, int]:
    """ "¶3" → (3, 3), "¶3-5" → (3, 5); anything else is a ValueError."""
    match = _BLOCK_ID.match(block_id)
    if not match:
        raise ValueError(f"not a block id: {block_id!r}")
    first = int(match.group(1))
    last = int(match.group(2) or first)
    if first < 1 or last < first:
        raise ValueError(f"not a block range: {block_id!r}")
    return first, last


def block_text(page: str, block_id: str) -> str:
    """The exact text of blocks `¶n` or `¶n-m` of a page (from the first's start to the last's
    end); a ValueError when the page has no such blocks."""
    first, last = parse_block_id(block_id)
    blocks = split_blocks(page)
    if last > len(blocks):
        raise ValueError(f"{block_id} is past the page's {len(blocks)} blocks")
    return page[blocks[first - 1].start : blocks[last - 1].end]
