"""Words: the one normalisation shared by the index and every query (DuckDB's own functions).

A text becomes terms by: compatibility forms folded (NFKC: full-width letters, ligatures) and
format characters dropped (zero-width spaces and joiners, soft hyphens), lower case, accents folded
(`strip_accents`), alphanumeric runs kept
(digits too: 211.113(b) gives 211, 113, b; K123456 stays whole), English stop words dropped, and
the Snowball English stemmer of DuckDB's `fts` extension (loaded from the `duckdb-extension-fts`
package, never downloaded). Letters of any script count, so Korean text is searchable by its words.
"""

from __future__ import annotations

import functools
import re
import sys
import threading
import unicodedata
from pathlib import Path

import duckdb
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

__all__ = [
    "STOP_WORDS",
    "Normaliser",
    "connect",
    "fold",
    "fold_stable_class",
    "install_macros",
    "surface_pattern",
    "surface_text",
    "surface_words",
    "terms",
    "unchanged_by_fold",
]

MAX_WORD = 40


_MARKS = re.compile("[™℠®©]")  # NFKC would glue "TM" onto the word before it


@functools.cache
def _format_chars() -> re.Pattern[str]:
    """Every format character (category Cf), as a class of ranges: it scans a page several
    times faster than `str.translate` with a table."""
    ranges: list[list[int]] = []
    for cp in range(sys.maxunicode + 1):
        if unicodedata.category(chr(cp)) == "Cf":
            if ranges and ranges[-1][1] == cp - 1:
                ranges[-1][1] = cp
            else:
                ranges.append([cp, cp])
    return re.compile("[" + "".join(f"\\U{lo:08x}-\\U{hi:08x}" for lo, hi in ranges) + "]")


def fold(text: str) -> str:
    """`text` with compatibility forms folded (NFKC) and format characters removed: what the
    index and every query tokenise, so `ｓｔｅｒｉｌｉｔｙ` and `ste\u200brility` find `sterility`.
    Stored page text is never changed."""
    if text.isascii():
        return text
    return unicodedata.normalize("NFKC", _MARKS.sub(" ", _format_chars().sub("", text)))


# Blocks whose characters `fold` mostly leaves alone (Latin, Greek, punctuation, symbols, private
# use): those of them it never changes make `unchanged_by_fold`'s class.
_STABLE_BLOCKS = [
    (0x00A0, 0x024F),
    (0x0370, 0x03FF),
    (0x2000, 0x214F),
    (0x2190, 0x23FF),
    (0x2500, 0x27BF),
    (0xE000, 0xF8FF),
]


@functools.cache
def fold_stable_class() -> str:
    """A regular-expression class (RE2 syntax) of characters that `fold` keeps as they are in
    any text made only of them: ASCII, and the characters of `_STABLE_BLOCKS` that NFKC keeps,
    that have no combining class (so nothing reorders or composes with them: the blocks hold no
    character that composes with the one before it), and that are neither format characters
    nor the marks `fold` spaces out."""
    ranges: list[list[int]] = [[0, 0x7F]]
    for lo, hi in _STABLE_BLOCKS:
        for cp in range(lo, hi + 1):
            c = chr(cp)
            if (
                unicodedata.category(c) in ("Cf", "Cn", "Cs")
                or unicodedata.combining(c)
                or _MARKS.match(c)
                or unicodedata.normalize("NFKC", c) != c
            ):
                continue
            if ranges[-1][1] == cp - 1:
                ranges[-1][1] = cp
            else:
                ranges.append([cp, cp])
    return "[" + "".join(f"\\x{{{lo:x}}}-\\x{{{hi:x}}}" for lo, hi in ranges) + "]"


def unchanged_by_fold(texts: pa.Array | pa.ChunkedArray) -> np.ndarray:
    """Whether `fold` leaves each text as it is, known without folding it (vectorised, RE2):
    True for texts made only of `fold_stable_class`'s characters. False means it may change."""
    pattern = "^" + fold_stable_class() + "*$"
    return np.asarray(pc.match_substring_regex(texts, pattern).to_numpy(zero_copy_only=False), bool)


STOP_WORDS = frozenset(
    [
        "a",
        "about",
        "above",
        "after",
        "again",
        "against",
        "all",
        "am",
        "an",
        "and",
        "any",
        "are",
        "as",
        "at",
        "be",
        "because",
        "been",
        "before",
        "being",
        "below",
        "between",
        "both",
        "but",
        "by",
        "can",
        "could",
        "did",
        "do",
        "does",
        "doing",
        "down",
        "during",
        "each",
        "few",
        "for",
        "from",
        "further",
        "had",
        "has",
        "have",
        "having",
        "he",
        "her",
        "here",
        "hers",
        "herself",
        "him",
        "himself",
        "his",
        "how",
        "i",
        "if",
        "in",
        "into",
        "is",
        "it",
        "its",
        "itself",
        "just",
        "me",
        "more",
        "most",
        "my",
        "myself",
        "no",
        "nor",
        "not",
        "of",
        "off",
        "on",
        "once",
        "only",
        "or",
        "other",
        "our",
        "ours",
        "ourselves",
        "out",
        "over",
        "own",
        "same",
        "she",
        "should",
        "so",
        "some",
        "such",
        "than",
        "that",
        "the",
        "their",
        "theirs",
        "them",
        "themselves",
        "then",
        "there",
        "these",
        "they",
        "this",
        "those",
        "through",
        "to",
        "too",
        "under",
        "until",
        "up",
        "very",
        "was",
        "we",
        "were",
        "what",
        "when",
        "where",
        "which",
        "while",
        "who",
        "whom",
        "why",
        "will",
        "with",
        "would",
        "you",
        "your",
        "yours",
        "yourself",
        "yourselves",
    ]
)


def _fts_extension() -> Path:
    import duckdb_extension_fts

    root = Path(duckdb_extension_fts.__file__).parent / "extensions"
    wanted = root / f"v{duckdb.__version__}" / "fts.duckdb_extension"
    if wanted.exists():
        return wanted
    found = sorted(root.glob("*/fts.duckdb_extension"))
    if not found:
        raise ImportError(
            "the DuckDB fts extension is missing: pip install "
            f"'duckdb-extension-fts=={duckdb.__version__}'"
        )
    return found[-1]


def install_macros(con: duckdb.DuckDBPyConnection, *, persistent: bool = False) -> None:
    """Load the stemmer and define `regnb_words(text)` and `regnb_terms(text)` on a connection.

    Temporary macros serve this connection only; an index stores them (`persistent`) so that
    every cursor of a read-only connection sees them.
    """
    con.execute(f"LOAD '{_fts_extension()}'")
    scope = "" if persistent else "TEMP "
    stop = ", ".join(f"'{w}'" for w in sorted(STOP_WORDS))
    con.execute(
        f"CREATE OR REPLACE {scope}MACRO regnb_words(s) AS "
        r"regexp_extract_all(lower(strip_accents(coalesce(s, ''))), '[\p{L}\p{N}]+')"
    )
    con.execute(f"CREATE OR REPLACE {scope}MACRO regnb_stop() AS [{stop}]")
    con.execute(
        f"CREATE OR REPLACE {scope}MACRO regnb_keep(w) AS "
        f"length(w) <= {MAX_WORD} AND NOT list_contains(regnb_stop(), w)"
    )
    con.execute(
        f"CREATE OR REPLACE {scope}MACRO regnb_terms(s) AS "
        "list_transform(list_filter(regnb_words(s), w -> regnb_keep(w)), "
        "w -> stem(w, 'english'))"
    )


def connect(
    database: str = ":memory:", *, read_only: bool = False, persistent: bool = False
) -> duckdb.DuckDBPyConnection:
    """A DuckDB connection with regnb's word macros installed."""
    con = duckdb.connect(database, read_only=read_only)
    con.execute("SET enable_progress_bar = false")
    if read_only:
        con.execute(f"LOAD '{_fts_extension()}'")
    else:
        install_macros(con, persistent=persistent)
    return con


class Normaliser:
    """Turns strings into terms with the index's own rules; thread-safe, memoised."""

    def __init__(self) -> None:
        self._con = connect()
        self._lock = threading.Lock()
        self._cache: functools._lru_cache_wrapper[list[str]] = functools.lru_cache(4096)(
            self._terms_uncached
        )

    def _terms_uncached(self, text: str) -> list[str]:
        with self._lock:
            row = self._con.execute("SELECT regnb_terms(?)", [fold(text)]).fetchone()
        return list(row[0]) if row and row[0] else []

    def terms(self, text: str) -> list[str]:
        """The text's terms, in order, duplicates kept."""
        return list(self._cache(text))

    def words(self, text: str) -> list[str]:
        """The text's kept words as written (folded, lower case, accents stripped; stop words
        dropped), not stemmed: one per term of `terms`, in order."""
        with self._lock:
            row = self._con.execute(
                "SELECT list_filter(regnb_words(?), w -> regnb_keep(w))", [fold(text)]
            ).fetchone()
        return list(row[0]) if row and row[0] else []

    def word_terms(self, words: list[str]) -> dict[str, str | None]:
        """Each distinct lower-cased word mapped to its term, or None for a stop word."""
        distinct = sorted({w.lower() for w in words})
        folded = [fold(w) for w in distinct]
        if not distinct:
            return {}
        with self._lock:
            rows = self._con.execute(
                "SELECT w, CASE WHEN regnb_keep(f) THEN stem(f, 'english') END "
                "FROM (SELECT unnest(?) AS w, unnest(?) AS v) t, "
                "LATERAL (SELECT lower(strip_accents(v)) AS f)",
                [distinct, folded],
            ).fetchall()
        return dict(rows)


@functools.cache
def _default() -> Normaliser:
    return Normaliser()


def terms(text: str) -> list[str]:
    """The terms of `text` under the index's rules."""
    return _default().terms(text)


@functools.lru_cache(1024)
def surface_words(text: str) -> tuple[str, ...]:
    """The kept words of `text` as written, one per term (`Normaliser.words`): what a quoted
    phrase's words must be on the page."""
    return tuple(_default().words(text))


def surface_text(text: str) -> str:
    """`text` folded as the index reads its words (`fold`, accents stripped, lower case), for
    `surface_pattern`: each character other than ASCII folded on its own (what folding does to a
    text is what it does to each character, decomposed sequences apart), then lower case."""
    if not text.isascii():
        text = _NON_ASCII.sub(_folded_match, text)
    return text.lower()


def _folded_match(match: re.Match[str]) -> str:
    return _fold_char(match.group())


_NON_ASCII = re.compile(r"[^\x00-\x7f]")
# The combining marks that accents decompose into (Latin, Greek, Cyrillic and their extensions);
# NFC afterwards puts back together what decomposing split that is no accent (Hangul syllables).
_MARKS_COMBINING = re.compile("[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]")


@functools.lru_cache(65536)
def _fold_char(char: str) -> str:
    """One character as `surface_text` reads it: `fold`, accents stripped."""
    stripped = _MARKS_COMBINING.sub("", unicodedata.normalize("NFKD", fold(char)))
    return unicodedata.normalize("NFC", stripped)


_NOT_WORD = r"[\W_]+"  # what separates words: anything but letters and digits
_END = r"(?![^\W_])"


@functools.lru_cache(256)
def surface_pattern(words: tuple[str, ...], slop: int = 0) -> re.Pattern[str]:
    """A regular expression over a `surface_text` that finds `words` (as `surface_words` gives
    them) in order, whole words, with only dropped words (stop words, words over `MAX_WORD`)
    and at most `slop` other words between consecutive ones: a quoted phrase as written."""
    dropped = (
        "(?:"
        + "|".join(sorted(map(re.escape, STOP_WORDS), key=len, reverse=True))
        + rf"|[^\W_]{{{MAX_WORD + 1},}}){_END}"
    )
    skip = f"(?:{_NOT_WORD}{dropped})*"
    kept = rf"(?!{dropped})[^\W_]+"  # a word the index keeps: one way to match, no backtracking
    gap = skip + (rf"(?:{_NOT_WORD}{kept}{skip}){{0,{slop}}}" if slop else "")
    first = re.escape(words[0])
    body = (gap + _NOT_WORD).join(re.escape(w) + _END for w in words[1:])
    # the first word's letters lead, so that the search looks for them as a literal (fast); a
    # look back after them checks that no letter or digit stands before
    start = rf"{first}(?<![^\W_]{first}){_END}"
    return re.compile(start + (gap + _NOT_WORD + body if body else ""))
