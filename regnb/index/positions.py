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

Beside them, each term's words as written (`Forms`): the distinct forms its words take in the
segment, folded as `regnb.text.surface_words` folds a quoted phrase's (case and accents, so
`Integrity` and `intégrity` are one form), most frequent first; and, for a term with more than
one form, each position's form (its variant number), bit-packed in blocks as the gaps are and
in the same order. A term with one form stores none. A quoted phrase is then checked as written
(`integrity` is not `integration`, though both are the term `integr`) in the same pass:

    pos_forms.npy          uint8: the forms, UTF-8, term after term, a term's forms one space
                           apart (a word holds letters and digits only)
    pos_form_terms.npy     int32 (int64 where it would not fit): where each term's forms
                           start in `pos_forms` (and the last one's end)
    pos_variant_blocks.npy int64: where each block of variants starts (and the last one ends)
    pos_variants.npy       uint8: the variants' blocks, the values of the terms with more than
                           one form, term after term
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

__all__ = [
    "ANY",
    "BLOCK",
    "FILES",
    "FORM_FILES",
    "FORM_SCHEMA",
    "Forms",
    "Positions",
    "WrittenForms",
    "absolute",
    "deltas",
    "merged_forms",
    "pack",
    "posting_counts",
    "regroup",
    "unpack",
    "write_forms",
    "write_positions",
    "written_forms",
]

BLOCK = 128  # values per bit-packed block
BYTES_PER_BIT = BLOCK // 8  # a block's bytes per bit of width
FILES = ("pos_packed.npy", "pos_blocks.npy", "pos_terms.npy")
FORM_FILES = (  # the last one written tells a reader they are there
    "pos_forms.npy",
    "pos_form_terms.npy",
    "pos_variant_blocks.npy",
    "pos_variants.npy",
)
ANY = -1  # a phrase word's variant where its term has that one form alone: any position will do


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


@dataclass(frozen=True)
class WrittenForms:
    """A segment's words as written, before it is written: each position's variant (int32, in
    the positions' order) and the forms (`FORM_SCHEMA`), each term's in variant order."""

    variants: np.ndarray
    forms: pa.Table

    def regrouped(self, counts: np.ndarray, order: np.ndarray) -> WrittenForms:
        """The variants of postings taken in `order` (as `regroup` takes positions)."""
        return WrittenForms(regroup(self.variants, counts, order), self.forms)

    def renumbered(self, base: int, ids: np.ndarray) -> WrittenForms:
        """The forms with the terms numbered from `base` given the ids `ids[old - base]`."""
        terms = np.asarray(self.forms.column("term_id").to_numpy(), np.int64)
        fresh = terms >= base
        terms[fresh] = np.asarray(ids, np.int64)[terms[fresh] - base]
        column = pa.array(terms.astype(np.int32))
        return WrittenForms(self.variants, self.forms.set_column(0, "term_id", column))


FORM_SCHEMA = pa.schema([("term_id", pa.int32()), ("form", pa.string())])


def written_forms(term: np.ndarray, word: np.ndarray, words: pa.Array) -> WrittenForms:
    """Each position's variant, from its term id (`term`) and its word as written (`word`: its
    place in `words`, distinct strings; a word has one term): a term's forms most frequent
    first (so that most blocks of variants are narrow), then in string order."""
    n = len(words)
    word = np.asarray(word, np.int64)
    count = np.bincount(word, minlength=n)
    of_term = np.full(n, -1, np.int64)
    of_term[word] = term
    alpha = np.empty(n, np.int64)
    alpha[np.asarray(pc.array_sort_indices(words))] = np.arange(n)
    used = np.flatnonzero(count)
    order = used[np.lexsort((alpha[used], -count[used], of_term[used]))]
    owner = of_term[order]
    first = np.flatnonzero(np.diff(owner, prepend=-1))
    rank = np.arange(order.size) - np.repeat(first, np.diff(np.append(first, order.size)))
    variant = np.zeros(n, np.int32)
    variant[order] = rank
    forms = pa.table(
        {
            "term_id": pa.array(owner.astype(np.int32)),
            "form": words.take(pa.array(order)).cast(pa.string()),
        },
        schema=FORM_SCHEMA,
    )
    return WrittenForms(variant[word], forms)


def write_forms(
    folder: Path, written: WrittenForms, counts: np.ndarray, offsets: np.ndarray, terms: np.ndarray
) -> None:
    """A segment's words as written as the files `FORM_FILES` (`counts[i]`: posting i's
    positions; `offsets`: where each term's postings start; `terms`: the segment's term ids);
    ValueError where a form's term is not the segment's."""
    ids = np.asarray(written.forms.column("term_id").to_numpy(), np.int64)
    order = np.argsort(ids, kind="stable")
    at = np.searchsorted(terms, ids[order])
    if at.size and (at.max() >= terms.size or (terms[at] != ids[order]).any()):
        raise ValueError("forms of terms the segment lacks")
    n_forms = np.bincount(at, minlength=terms.size)
    strings = written.forms.column("form").combine_chunks().take(pa.array(order))
    text, term_bytes = _joined(strings.cast(pa.large_string()), at, terms.size)
    many = np.repeat(n_forms > 1, np.diff(offsets))  # each posting: has its term variants?
    packed, blocks = pack(written.variants[np.repeat(many, counts)])
    np.save(folder / FORM_FILES[0], text)
    np.save(folder / FORM_FILES[1], term_bytes.astype(_offset_type(term_bytes)))
    np.save(folder / FORM_FILES[2], blocks)
    np.save(folder / FORM_FILES[3], packed)


SPACE = ord(" ")


def _offset_type(offsets: np.ndarray) -> type:
    """int32 where the offsets fit it (half the bytes), else int64."""
    return np.int32 if int(offsets.max(initial=0)) < 2**31 else np.int64


def _joined(strings: pa.Array, at: np.ndarray, n_terms: int) -> tuple[np.ndarray, np.ndarray]:
    """Strings (`at`: each one's term, ascending) as UTF-8, each term's one space apart, and
    where each term's start (and the last one's end)."""
    n = len(strings)
    if not n:
        return np.zeros(0, np.uint8), np.zeros(n_terms + 1, np.int64)
    _, bounds, data = strings.buffers()
    offs = np.frombuffer(bounds, np.int64)[strings.offset : strings.offset + n + 1]
    blob = np.frombuffer(data, np.uint8)[offs[0] : offs[-1]] if data else np.zeros(0, np.uint8)
    lengths = np.diff(offs)
    spaced = lengths + np.append(at[1:] == at[:-1], False)  # a space after all but a term's last
    out = np.full(int(spaced.sum()), SPACE, np.uint8)
    shift = np.repeat(np.cumsum(spaced) - spaced - (offs[:-1] - offs[0]), lengths)
    out[np.arange(blob.size) + shift] = blob
    per_term = np.bincount(at, weights=spaced, minlength=n_terms).astype(np.int64)
    return out, np.concatenate([[0], np.cumsum(per_term)])


class Forms:
    """A segment's words as written (`FORM_FILES`), memory-mapped; `value_terms`: where each
    term's positions start (`Positions.terms`)."""

    def __init__(self, folder: Path, value_terms: np.ndarray) -> None:
        self.text = np.load(folder / FORM_FILES[0], mmap_mode="r")
        self.terms = np.load(folder / FORM_FILES[1]).astype(np.int64)
        self.blocks = np.load(folder / FORM_FILES[2])
        self.packed = np.load(folder / FORM_FILES[3], mmap_mode="r")
        spaces = np.concatenate([[0], np.cumsum(np.asarray(self.text) == SPACE, dtype=np.int64)])
        held = np.diff(self.terms) > 0
        self.counts = np.where(held, np.diff(spaces[self.terms]) + 1, 0)  # each term's forms
        self.starts = np.concatenate(  # where each term's variants start
            [[0], np.cumsum(np.where(self.counts > 1, np.diff(value_terms), 0), dtype=np.int64)]
        )

    @staticmethod
    def there(folder: Path) -> bool:
        return all((folder / name).exists() for name in FORM_FILES)

    def of(self, at: int) -> list[str]:
        """The forms of the term at `at` in the segment's terms, in variant order."""
        lo, hi = int(self.terms[at]), int(self.terms[at + 1])
        return bytes(self.text[lo:hi]).decode().split(" ") if hi > lo else []

    def variant(self, at: int, word: str) -> int | None:
        """The variant of `word` (as `regnb.text.surface_words` gives it) among the forms of the
        term at `at`: `ANY` where it is the term's one form, None where the segment has it not."""
        forms = self.of(at)
        if word not in forms:
            return None
        return ANY if len(forms) == 1 else forms.index(word)

    def all(self, value_terms: np.ndarray) -> tuple[np.ndarray, pa.Array]:
        """Every position's form (its place in the segment's forms, int64), positions in their
        stored order, and the forms (strings)."""
        per_term = np.diff(value_terms)
        term = np.repeat(np.arange(per_term.size), per_term)
        variant = np.zeros(term.size, np.int64)
        many = np.repeat(self.counts > 1, per_term)
        variant[many] = unpack(np.asarray(self.packed), self.blocks, 0, int(self.starts[-1]))
        first = np.cumsum(self.counts) - self.counts  # each term's first form
        text = np.asarray(self.text)
        # each form ends at a space or at its term's end; the text without the spaces
        ends = np.union1d(np.flatnonzero(text == SPACE), self.terms[1:][self.counts > 0])
        spaced = text[np.minimum(ends, text.size - 1)] == SPACE  # the form after: past a space
        lengths = ends - np.concatenate([[0], ends[:-1] + spaced[:-1]])[: ends.size]
        strings = pa.LargeStringArray.from_buffers(
            ends.size,
            pa.py_buffer(np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)),
            pa.py_buffer(text[text != SPACE].tobytes()),
        )
        return first[term] + variant, strings


def merged_forms(parts: list[tuple[np.ndarray, pa.Array]], term: np.ndarray) -> WrittenForms:
    """The forms of several segments' positions as one's (`parts`: each segment's positions'
    forms and its forms, as `Forms.all` gives them, positions kept; `term`: each position's
    term id, in the same order)."""
    codes, strings, base = [], [], 0
    for form, texts in parts:
        codes.append(form + base)
        strings.append(texts)
        base += len(texts)
    every = pa.concat_arrays(strings) if strings else pa.array([], pa.large_string())
    encoded = pc.dictionary_encode(every)
    index = np.asarray(encoded.indices.to_numpy(zero_copy_only=False), np.int64)
    word = index[np.concatenate(codes)] if codes else np.zeros(0, np.int64)
    return written_forms(term, word, encoded.dictionary)


class Positions:
    """A segment's positions, memory-mapped."""

    def __init__(self, folder: Path) -> None:
        self.packed = np.load(folder / FILES[0], mmap_mode="r")
        self.blocks = np.load(folder / FILES[1])
        self.terms = np.load(folder / FILES[2])
        self.forms = Forms(folder, self.terms) if Forms.there(folder) else None

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
        variants: list[int] | None = None,
    ) -> np.ndarray:
        """Whether each page (local ids) holds the phrase whose words have, in order, the
        postings `lists` (each: its term's place in the segment's terms, its pages, its tfs);
        with `variants` (each word's, `Forms.variant`; the segment's `forms` needed unless all
        are `ANY`), only where each word stands as written."""
        want = np.full(len(lists), ANY, np.int64) if variants is None else np.asarray(variants)
        starts = np.zeros((len(lists), pages.size), np.int64)
        counts = np.zeros((len(lists), pages.size), np.int64)
        forms = self.forms
        at_variants = np.zeros((len(lists), pages.size), np.int64)
        for j, (at, term_pages, tf) in enumerate(lists):
            if not term_pages.size:
                return np.zeros(pages.size, bool)
            idx = np.minimum(np.searchsorted(term_pages, pages), term_pages.size - 1)
            found = term_pages[idx] == pages
            before = np.cumsum(tf, dtype=np.int64) - tf
            starts[j] = self.terms[at] + before[idx]
            counts[j] = np.where(found, tf[idx], 0)
            if want[j] != ANY:
                assert forms is not None  # a caller's bug: a variant read from no forms
                at_variants[j] = forms.starts[at] + before[idx]
        from regnb.index.position_kernels import written_hits

        v_packed = np.zeros(0, np.uint8) if forms is None else forms.packed
        v_blocks = np.zeros(1, np.int64) if forms is None else forms.blocks
        hits: np.ndarray = written_hits(
            self.packed, self.blocks, starts, counts, slop, v_packed, v_blocks, at_variants, want
        )
        return hits
