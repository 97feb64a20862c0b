"""Words as the agent compares them: whitespace folding, sentences, content words and a light
stemmer, so a block, a query and a sentence of an answer are matched by one rule."""

from __future__ import annotations

import re
from collections.abc import Iterable

from regnb.text import STOP_WORDS

__all__ = [
    "QUESTION_WORDS",
    "blank",
    "content_words",
    "fold_spaces",
    "plain",
    "sentence_spans",
    "sentences",
    "stem",
    "stems",
    "word_set",
    "words",
]


def word_set(text: str) -> frozenset[str]:
    """The words of a space-separated list, as a set (for the tables of this package)."""
    return frozenset(text.split())


_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)?")
_WS = re.compile(r"\s+")
# A sentence ends at . ! or ? (maybe closed by a quote or bracket) followed by whitespace and
# something that can start a sentence; abbreviations are checked separately.
_END = re.compile(r"[.!?][\"'”’)\]]*(?=\s+[\"'“‘(\[]?[A-Z0-9•\-])")
_ABBREVIATIONS = word_set(
    "inc co corp ltd llc no nos vs etc e.g i.e fig figs dr mr mrs ms st sec secs al approx "
    "u.s dept jan feb mar apr jun jul aug sep sept oct nov dec ref refs vol pp p"
)

# Words of a request that carry no topic: how people ask, not what they ask about.
QUESTION_WORDS = word_set(
    "which what who whom whose why how when where tell show find list give get got gets getting "
    "receive received receiving issued issue issues please summarize summarise summary explain "
    "describe documents document anything everything something kind kinds type types say says "
    "said cite cited cites mention mentioned mentions regarding concerning related relating know "
    "look looking want need like would could should us me i my also about any all there were "
    "was been has have had many much main common key top recent recently latest firms firm "
    "companies company manufacturers manufacturer makers maker sponsors sponsor applicants "
    "applicant fda agency u.s us hello hi hey help thanks thank assist question questions "
    "research answer compare compared comparing comparison versus vs differ differs difference "
    "differences new news update updates ok okay per example examples instance e.g "
    "afterwards afterward thereafter subsequently incl around went each"
)

_SUFFIXES = (
    ("ational", "ate"),
    ("ization", "ize"),
    ("ations", "ate"),
    ("ation", "ate"),
    ("ements", ""),
    ("ement", ""),
    ("ments", ""),
    ("ment", ""),
    ("ities", ""),
    ("ity", ""),
    ("iness", "y"),
    ("ness", ""),
    ("ings", ""),
    ("ing", ""),
    ("ies", "y"),
    ("ied", "y"),
    ("edly", ""),
    ("ed", ""),
    ("ly", ""),
    ("es", ""),
    ("s", ""),
)


def blank(text: str, start: int, end: int) -> str:
    """`text` with `[start, end)` blanked out (positions elsewhere stay where they were)."""
    return text[:start] + " " * (end - start) + text[end:]


def fold_spaces(text: str) -> str:
    """Runs of whitespace as one space, ends trimmed: how passages are compared with pages."""
    return _WS.sub(" ", text).strip()


_MARKUP = re.compile(r"\*\*|__|`|(?:(?<=\s)|^)#+(?=\s)")


def plain(text: str) -> str:
    """Folded text as an answer may quote it: markdown emphasis and heading marks dropped,
    brackets made parentheses (so a quote never reads as a citation marker)."""
    text = _MARKUP.sub(" ", text).replace("[", "(").replace("]", ")")
    return fold_spaces(text)


_CLITIC = re.compile(r"(?:n't|'s|'re|'ve|'ll|'d|'m)$")


def words(text: str) -> list[str]:
    """Lower-cased words (letters and digits of any script), in order; "didn't" reads "did",
    "Baby's" reads "baby"."""
    out = []
    for w in _WORD.findall(text.lower()):
        w = w.replace("’", "'")
        base = _CLITIC.sub("", w)
        out.append(base if base else w)
    return out


def stem(word: str) -> str:
    """A light suffix-stripping stem ("failures", "failed", "failing" → "fail"; "preparation",
    "prepared" → "prepar"; "validation", "validated" → "valid")."""
    if len(word) == 4 and word.endswith("s") and word[-2] not in "aeiouys":
        return word[:-1]  # "mdrs", "lots"
    if len(word) <= 4 or not word.isalpha():
        return word
    for suffix, replacement in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)] + replacement
            break
    if word.endswith("e") and len(word) > 4:
        word = word[:-1]
    if word.endswith("at") and len(word) >= 7:  # "prepar-ation", "recommend-ation", "valid-ated"
        word = word[:-2]
    return word


def content_words(text: str, extra_stop: Iterable[str] = ()) -> list[str]:
    """Words that are not stop words (nor in `extra_stop`), in order, duplicates kept."""
    stop = STOP_WORDS | frozenset(extra_stop)
    return [w for w in words(text) if w not in stop and (len(w) > 1 or w.isdigit())]


def stems(text: str) -> set[str]:
    """The stems of a text's content words."""
    return {stem(w) for w in content_words(text)}


def _is_abbreviation(text: str, end: int) -> bool:
    """Whether the full stop at `end` closes an abbreviation or an initial ("Inc.", "J.")."""
    start = end
    while start > 0 and not text[start - 1].isspace() and text[start - 1] not in "(\"'“":
        start -= 1
    token = text[start:end].lower().rstrip(".")
    if token in _ABBREVIATIONS:
        return True
    return len(token) == 1 and token.isalpha()


def sentence_spans(text: str, start: int = 0, end: int | None = None) -> list[tuple[int, int]]:
    """(start, end) of each sentence of `text[start:end]`, ends trimmed of whitespace."""
    end = len(text) if end is None else end
    spans: list[tuple[int, int]] = []
    begin = start
    for match in _END.finditer(text, start, end):
        if text[match.start()] == "." and _is_abbreviation(text, match.start()):
            continue
        spans.append((begin, match.end()))
        begin = match.end()
    spans.append((begin, end))
    out = []
    for s, e in spans:
        while s < e and text[s].isspace():
            s += 1
        while e > s and text[e - 1].isspace():
            e -= 1
        if s < e:
            out.append((s, e))
    return _join_fragments(text, out)


def _join_fragments(text: str, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """A "sentence" of one or two words ("2.", "a)", "Observation 1.") joined to the next."""
    out: list[tuple[int, int]] = []
    carry: int | None = None
    for s, e in spans:
        start = s if carry is None else carry
        if len(text[s:e].split()) < 3 and (s, e) != spans[-1]:
            carry = start
            continue
        out.append((start, e))
        carry = None
    return out


def sentences(text: str) -> list[str]:
    """The sentences of `text`, whitespace kept as written."""
    return [text[s:e] for s, e in sentence_spans(text)]
