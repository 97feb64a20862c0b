"""The words of a batch of pages, read once for both the postings and the positions.

The index's words are `regnb_words` of the text (`regnb.text.install_macros`: lowered, accents
stripped, each run of letters and digits a word), kept unless a stop word or over-long, and
stemmed. Running that over every page in SQL and counting the words there was most of a build.
Here a compiled pass cuts each page into runs of ASCII letters and digits and non-ASCII bytes
(ASCII punctuation and spaces end a run and are never part of a word) and numbers each
distinct run; only the distinct runs go through SQL: a run of ASCII letters and digits is one
word as it is (lowered), any other is cut into its words by `regnb_words` itself, so the words
are exactly those of the page. Each distinct word is then kept and stemmed once, and a second
compiled pass counts the kept words per term and page and sorts them by term (a counting sort,
which keeps each term's words in page and position order): the postings, each page's length,
each posting's positions and each position's word as written (its form, `regnb.index.positions`)
in one go.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from regnb.index.arrays import utf8_bytes

__all__ = ["PageText", "PageWords", "WordPostings", "page_words", "word_postings"]

SPLIT_SQL = "SELECT i, regnb_words(r) AS ws FROM runs_in ORDER BY i"


@dataclass(frozen=True)
class PageWords:
    """A batch's words: each page's runs (`runs`, numbered; `page_runs` per page), each
    numbered run's words (`run_word[run_start[r]:run_start[r + 1]]`, indices into `words`),
    and the distinct words."""

    runs: np.ndarray  # int32, page after page
    page_runs: np.ndarray  # int64
    run_start: np.ndarray  # int64
    run_word: np.ndarray  # int64
    words: pa.Array  # large_string, distinct


@dataclass(frozen=True)
class WordPostings:
    """The kept words' postings (term id, local page, tf; sorted by term then page), each
    posting's positions one after another, each position's word as written (its place in
    `PageWords.words`, in the positions' order), and each page's kept words (its BM25 length)."""

    term: np.ndarray  # int32
    page: np.ndarray  # int32
    tf: np.ndarray  # int32
    positions: np.ndarray  # int32
    position_words: np.ndarray  # int32
    dl: np.ndarray  # int32


@dataclass(frozen=True)
class PageText:
    """What each page's words are read from, without joining its parts: the UTF-8 bytes
    `first[first_at[p, 0]:first_at[p, 1]]` (its title), a space, then `second` at
    `second_at[p]` (its text)."""

    first: np.ndarray  # uint8
    first_at: np.ndarray  # int64 (pages, 2)
    second: np.ndarray  # uint8
    second_at: np.ndarray  # int64 (pages, 2)

    @classmethod
    def of(cls, texts: pa.Array | pa.ChunkedArray) -> PageText:
        """Each page's text whole (a null as empty)."""
        data, offsets = utf8_bytes(texts)
        at = np.stack([offsets[:-1], offsets[1:]], axis=1)
        return cls(data, at, np.zeros(0, np.uint8), np.zeros_like(at))


def page_words(con: Any, text: PageText) -> PageWords:
    """The words of each page (`title + ' ' + text`, folded), `con` a connection with regnb's
    macros (`regnb.text.connect`)."""
    from regnb.index.token_kernels import numbered_runs

    runs, page_runs, run_data, run_offsets, wide = numbered_runs(
        text.first, text.first_at, text.second, text.second_at
    )
    distinct = pa.LargeStringArray.from_buffers(
        wide.size, pa.py_buffer(run_offsets), pa.py_buffer(run_data)
    )
    plain = np.flatnonzero(~wide)
    mixed = np.flatnonzero(wide)
    con.register(
        "runs_in",
        pa.table({"i": pa.array(mixed), "r": distinct.take(pa.array(mixed))}),
    )
    split = con.execute(SPLIT_SQL).arrow().read_all().column("ws").combine_chunks()
    con.unregister("runs_in")
    split_words = split.flatten().cast(pa.large_string())
    plain_words = distinct.take(pa.array(plain))
    words = pc.unique(pa.concat_arrays([plain_words, split_words]))
    per_run = np.ones(wide.size, np.int64)
    per_run[mixed] = np.asarray(pc.list_value_length(split).fill_null(0).to_numpy(), np.int64)
    run_start = np.concatenate([[0], np.cumsum(per_run)]).astype(np.int64)
    run_word = np.empty(int(run_start[-1]), np.int64)
    run_word[run_start[plain]] = _index_in(plain_words, words)
    inside = np.arange(len(split_words), dtype=np.int64) - np.repeat(
        np.cumsum(per_run[mixed]) - per_run[mixed], per_run[mixed]
    )
    run_word[np.repeat(run_start[mixed], per_run[mixed]) + inside] = _index_in(split_words, words)
    return PageWords(runs, page_runs, run_start, run_word, words)


def _index_in(values: pa.Array, within: pa.Array) -> np.ndarray:
    return np.asarray(
        pc.index_in(values, value_set=within).to_numpy(zero_copy_only=False), np.int64
    )


def word_postings(words: PageWords, word_term: np.ndarray) -> WordPostings:
    """The postings and positions of the kept words, `word_term` the term id of each of
    `words.words` (-1: dropped)."""
    from regnb.index.token_kernels import posting_kernel as compiled

    ids = np.unique(word_term[word_term >= 0])
    local = np.where(word_term >= 0, np.searchsorted(ids, word_term), -1).astype(np.int64)
    term, page, tf, positions, position_words, dl = compiled(
        words.runs, words.page_runs, words.run_start, words.run_word, local, ids.size
    )
    return WordPostings(ids[term].astype(np.int32), page, tf, positions, position_words, dl)
