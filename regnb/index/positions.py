"""Term positions: where each term stands among a page's kept words, so that a phrase is checked
without reading the page.

A position is the ordinal of a word among the words the index keeps of `title + ' ' + text`
(stop words and over-long words dropped, as the page is tokenised): `"fill the media"` and
`fill media` both hold `fill` at 0 and `media` at 1, so adjacency means what the page-reading
check (`regnb.index.rows.phrase_rows`) has always meant by it.

A segment stores them per posting, in posting order (term, then page): the posting's positions
as gaps (the first as it is), a posting of tf words having tf of them. The gaps are bit-packed in
blocks of `BLOCK` values, each block as wide as its widest value (`BLOCK * width / 8` bytes), so
that any value is read without decoding the ones before it:

    pos_packed.npy    uint8: the blocks, one after another
    pos_blocks.npy    int64: where each block starts in `pos_packed` (and where the last ends);
                      a block's width is its size in bytes / (BLOCK / 8)
    pos_terms.npy     int64: where each term's values start (and the last one's end), aligned
                      with the segment's terms; a term with none (a CFR citation, an
                      identifier) has an empty range

Where a posting's values start within its term's follows from the tfs of the postings before it.
A phrase reads only its terms' postings of the candidate pages (`Positions.phrase_pages`).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

__all__ = [
    "BLOCK",
    "FILES",
    "Positions",
    "absolute",
    "deltas",
    "pack",
    "posting_counts",
    "regroup",
    "unpack",
    "write_positions",
]

BLOCK = 128  # values per bit-packed block
BYTES_PER_BIT = BLOCK // 8  # a block's bytes per bit of width
FILES = ("pos_packed.npy", "pos_blocks.npy", "pos_terms.npy")


def pack(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Non-negative integers below 2**32 bit-packed: (bytes, block offsets)."""
    from regnb.index.position_kernels import pack_values

    packed, offsets = pack_values(np.ascontiguousarray(values, np.uint32))
    return packed, offsets


def unpack(packed: np.ndarray, blocks: np.ndarray, start: int, count: int) -> np.ndarray:
    """Values `start` to `start + count` of a packed stream, int64."""
    from regnb.index.position_kernels import unpack_values

    out: np.ndarray = unpack_values(packed, blocks, start, count)
    return out


def deltas(positions: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Each posting's positions (`counts[i]` of them, ascending, posting after posting) as gaps,
    the first of each as it is."""
    out = np.diff(np.asarray(positions, np.int64), prepend=0)
    firsts = (np.cumsum(counts) - counts)[counts > 0]
    out[firsts] = positions[firsts]
    return out


def absolute(gaps: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """The inverse of `deltas`: each posting's gaps summed, int64."""
    running = np.cumsum(gaps, dtype=np.int64)
    firsts = np.cumsum(counts) - counts
    before = (running - gaps)[firsts[counts > 0]]
    out: np.ndarray = running - np.repeat(before, counts[counts > 0])
    return out


def regroup(positions: np.ndarray, counts: np.ndarray, order: np.ndarray) -> np.ndarray:
    """The positions of postings taken in `order` (`counts[i]` of posting i's, posting after
    posting)."""
    starts = np.cumsum(counts, dtype=np.int64) - counts
    taken = counts[order]
    new_starts = np.cumsum(taken, dtype=np.int64) - taken
    shift = np.repeat(starts[order] - new_starts, taken)
    out: np.ndarray = positions[np.arange(int(taken.sum()), dtype=np.int64) + shift]
    return out


def posting_counts(
    post_term: np.ndarray, post_page: np.ndarray, pos_term: np.ndarray, pos_page: np.ndarray
) -> np.ndarray:
    """How many of the positions (each a word's term and page, sorted by term then page) each
    posting (its term and page, sorted alike) has; ValueError where a position has no posting."""
    span = int(max(post_page.max(initial=0), pos_page.max(initial=0))) + 1
    keys = post_term.astype(np.int64) * span + post_page
    held = pos_term.astype(np.int64) * span + pos_page
    starts = np.flatnonzero(np.diff(held, prepend=-1)) if held.size else np.zeros(0, np.int64)
    counts = np.diff(np.append(starts, held.size))
    at = np.searchsorted(keys, held[starts])
    if starts.size and (at.max() >= keys.size or (keys[at] != held[starts]).any()):
        raise ValueError("positions of words the postings lack")
    out = np.zeros(keys.size, np.int64)
    out[at] = counts
    return out


def write_positions(
    folder: Path, positions: np.ndarray, counts: np.ndarray, offsets: np.ndarray
) -> None:
    """A segment's positions (`counts[i]` for posting i, in posting order; `offsets`: where
    each term's postings start, and the last one's end) as the files `FILES`."""
    packed, blocks = pack(deltas(positions, counts))
    running = np.concatenate([[0], np.cumsum(counts, dtype=np.int64)])
    np.save(folder / FILES[0], packed)
    np.save(folder / FILES[1], blocks)
    np.save(folder / FILES[2], running[offsets])


class Positions:
    """A segment's positions, memory-mapped."""

    def __init__(self, folder: Path) -> None:
        self.packed = np.load(folder / FILES[0], mmap_mode="r")
        self.blocks = np.load(folder / FILES[1])
        self.terms = np.load(folder / FILES[2])

    @staticmethod
    def there(folder: Path) -> bool:
        return all((folder / name).exists() for name in FILES)

    def all(self, tf: np.ndarray, offsets: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Every position, posting after posting, and how many each posting has (its tf where
        its term has positions), from the postings' tfs and each term's `offsets`."""
        held = np.repeat(np.diff(self.terms) > 0, np.diff(offsets))
        counts = np.where(held, tf, 0).astype(np.int64)
        gaps = unpack(np.asarray(self.packed), self.blocks, 0, int(self.terms[-1]))
        return absolute(gaps, counts), counts

    def has(self, at: int) -> bool:
        """Whether the term at `at` in the segment's terms has positions."""
        return bool(self.terms[at + 1] > self.terms[at])

    def phrase_pages(
        self,
        pages: np.ndarray,
        lists: list[tuple[int, np.ndarray, np.ndarray]],
        slop: int,
    ) -> np.ndarray:
        """Whether each page (local ids) holds the phrase whose words have, in order, the
        postings `lists` (each: its term's place in the segment's terms, its pages, its tfs)."""
        starts = np.zeros((len(lists), pages.size), np.int64)
        counts = np.zeros((len(lists), pages.size), np.int64)
        for j, (at, term_pages, tf) in enumerate(lists):
            if not term_pages.size:
                return np.zeros(pages.size, bool)
            idx = np.minimum(np.searchsorted(term_pages, pages), term_pages.size - 1)
            found = term_pages[idx] == pages
            before = np.cumsum(tf, dtype=np.int64) - tf
            starts[j] = self.terms[at] + before[idx]
            counts[j] = np.where(found, tf[idx], 0)
        from regnb.index.position_kernels import phrase_hits

        hits: np.ndarray = phrase_hits(self.packed, self.blocks, starts, counts, slop)
        return hits
