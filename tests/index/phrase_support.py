"""Searches of random quoted phrases and their exclusions, and their answers: what the phrase
tests compare between two ways of checking a phrase (positions or page reading, words as
written from the index or from the pages)."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

import regnb

DATASETS = ["fda_483", "fda_warning_letters"]


def phrase_items(
    phrases: Iterable[tuple[Sequence[str], int]], words: Sequence[str], rng: random.Random
) -> list[str]:
    """Each phrase quoted (with its slop, `"a b"~2`), then a word of `words` without it."""
    items = []
    for terms, slop in phrases:
        phrase = f'"{" ".join(terms)}"' + (f"~{slop}" if slop else "")
        items.append(phrase)
        items.append(f"{rng.choice(list(words))} -{phrase}")
    return items


def search_answers(
    eng: regnb.Engine, items: Sequence[str]
) -> list[tuple[list[str], dict[str, object]]]:
    """Each item's documents and dataset statuses, searched alone over `DATASETS`."""
    out = []
    for item in items:
        res = eng.search_all([item], datasets=DATASETS)
        out.append(([r["document_id"] for r in res.results], res.dataset_statuses))
    return out
