"""Passages grouped into themes (agglomerative clustering of their embeddings with a distance
threshold) and each theme labelled by its most distinctive terms (TF-IDF against the others)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from regnb.agent.words import QUESTION_WORDS, word_set, words
from regnb.text import STOP_WORDS

__all__ = ["OTHER", "cluster", "fold_singletons", "label_themes"]

OTHER = "Other findings"
DISTANCE = 0.75
MAX_THEMES = 4
LABEL_TERMS = 3
BIGRAM_BOOST = 1.4
# Words every regulatory passage uses: they tell no theme apart.
LABEL_STOP = word_set(
    "fda firm firms your you we our did does shall must may also including include includes "
    "included section sections page pages b 4 6 inc llc ltd co corp reference id letter letters "
    "warning response responses ensure ensured appropriate adequate adequately use used using "
    "based example examples following provide provided specifically per 21 cfr u.s mr ms dr "
    "product products device devices drug drugs report reported reports https http www gov com "
    "org html pdf download mon tue wed thu fri sat sun january february march april may june "
    "july august september october november december"
)


def cluster(
    vectors: np.ndarray, *, distance: float = DISTANCE, max_themes: int = MAX_THEMES
) -> list[int]:
    """A theme number per row: rows closer than `distance` (cosine, average linkage) share one;
    the smallest themes are folded into the last one when there are more than `max_themes`."""
    n = len(vectors)
    if n == 0:
        return []
    if n == 1:
        return [0]
    from sklearn.cluster import AgglomerativeClustering

    model = AgglomerativeClustering(
        n_clusters=None, distance_threshold=distance, metric="cosine", linkage="average"
    )
    raw = model.fit_predict(np.asarray(vectors, dtype=np.float64)).tolist()
    return _renumber(raw, max_themes)


def fold_singletons(labels: list[int]) -> tuple[list[int], int | None]:
    """Themes of one passage folded together: into one theme after the others (returned as the
    second value, to be labelled "Other findings"), or, when every theme has one passage, all
    passages into a single theme."""
    sizes = {t: labels.count(t) for t in set(labels)}
    singles = {t for t, n in sizes.items() if n == 1}
    if not singles or (len(singles) == 1 and len(sizes) == 1):
        return labels, None
    if len(singles) == len(sizes):
        return [0 for _ in labels], None
    kept = sorted({t for t in labels if t not in singles}, key=labels.index)
    number = {t: i for i, t in enumerate(kept)}
    other = len(kept)
    return [number.get(t, other) for t in labels], other


def _renumber(raw: list[int], max_themes: int) -> list[int]:
    """Themes numbered by first appearance (rows come best first); overflow merged into one."""
    order: dict[int, int] = {}
    for label in raw:
        order.setdefault(label, len(order))
    labels = [order[r] for r in raw]
    sizes = {t: labels.count(t) for t in set(labels)}
    if len(sizes) <= max_themes:
        return labels
    keep = sorted(sizes, key=lambda t: (-sizes[t], t))[: max_themes - 1]
    ranked = {t: i for i, t in enumerate(sorted(keep))}
    other = len(ranked)
    return [ranked.get(t, other) for t in labels]


def label_themes(texts_by_theme: Sequence[Sequence[str]]) -> list[str]:
    """A label per theme: its top TF-IDF terms (one-word or two-word) against the other themes."""
    from sklearn.feature_extraction.text import TfidfVectorizer

    docs = [" ".join(texts) for texts in texts_by_theme]
    if not any(d.strip() for d in docs):
        return _distinct(["Findings" for _ in docs])
    vectorizer = TfidfVectorizer(
        ngram_range=(1, 2),
        tokenizer=_tokens,
        token_pattern=None,
        sublinear_tf=True,
        lowercase=False,
    )
    try:
        matrix = vectorizer.fit_transform(docs).toarray()
    except ValueError:  # nothing but stop words
        return _distinct(["Findings" for _ in docs])
    vocabulary = vectorizer.get_feature_names_out()
    matrix = matrix * np.array([BIGRAM_BOOST if " " in t else 1.0 for t in vocabulary])
    labels = []
    for row in matrix:
        labels.append(_label(row, vocabulary))
    return _distinct(labels)


def _singular(word: str) -> str:
    """ "trails" → "trail", so a label counts a term once whatever its number."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def _tokens(text: str) -> list[str]:
    """Words of three letters or more, not stop words, in the singular."""
    stop = _STOP
    return [
        _singular(w)
        for w in words(text)
        if len(w) >= 3 and w not in stop and any(c.isalpha() for c in w) and not w.isdigit()
    ]


def _stop_words() -> set[str]:
    """English stop words (the index's list: scikit-learn's drops field words such as "fill"
    and "system") and words every regulatory passage uses."""
    return set(STOP_WORDS) | set(QUESTION_WORDS) | set(LABEL_STOP)


def _label(row: np.ndarray, vocabulary: np.ndarray) -> str:
    """The top terms of a row, skipping a word already inside a chosen two-word term."""
    chosen: list[str] = []
    for index in np.argsort(-row, kind="stable"):
        if row[index] <= 0 or len(chosen) >= LABEL_TERMS:
            break
        term = str(vocabulary[index])
        if any(term in c.split() or c in term.split() or c == term for c in chosen):
            continue
        if " " in term and any(w in term.split() for c in chosen for w in c.split()):
            continue
        chosen.append(term)
    if not chosen:
        return "Findings"
    text = ", ".join(chosen)
    return text[0].upper() + text[1:]


def _distinct(labels: list[str]) -> list[str]:
    seen: dict[str, int] = {}
    out = []
    for label in labels:
        seen[label] = seen.get(label, 0) + 1
        out.append(label if seen[label] == 1 else f"{label} ({seen[label]})")
    return out


_STOP = frozenset(_stop_words())
