"""Clarifying questions: a message with nothing to search for, one too broad to answer with
citations ("tell me about recalls"), or one whose only word means different things in different
datasets ends `needs_input`, with options taken from a first search."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Callable
from typing import Any

from regnb.agent._plan import Plan
from regnb.agent._searching import Found, documents_of
from regnb.agent._writer import firm_of
from regnb.results import SearchResult

__all__ = ["BROAD_DOCUMENTS", "absent", "clarify", "needs_probe"]

BROAD_DOCUMENTS = 25
SPREAD_TOP = 30
SPREAD_DATASETS = 3
SPREAD_SHARE = 0.15
MAX_OPTIONS = 6


def needs_probe(plan: Plan) -> bool:
    """Whether the message might need a question: no topic, or one word and nothing else."""
    return not plan.topic or _single_word(plan)


def _single_word(plan: Plan) -> bool:
    return (
        not plan.named_datasets
        and not plan.has_anchor
        and not plan.phrases
        and len(plan.words) == 1
        and not plan.require
    )


def _year(date: object) -> int | None:
    text = str(date or "")
    return int(text[:4]) if text[:4].isdigit() else None


def _time_options(found: list[Found], today: dt.date) -> list[str]:
    years = sorted(y for y in (_year(f.date) for f in found) if y)
    if len(set(years)) < 2:
        return []
    recent = max(today.year - 2, years[0] + 1)
    options = [f"since {recent}"]
    if years[0] < recent:
        options.append(f"between {years[0]} and {recent - 1}")
    return options


def _firm_options(found: list[Found]) -> list[str]:
    counts = Counter(f for f in (firm_of(d) for d in found) if f and len(f) <= 60)
    return [name for name, n in counts.most_common(3) if n >= 2]


def _dataset_options(result: SearchResult, name: Callable[[str], str]) -> list[str]:
    ranked = sorted(
        (
            (int(s.get("matches") or 0), ds)
            for ds, s in result.dataset_statuses.items()
            if s.get("status") == "ok" and not s.get("loosened")
        ),
        reverse=True,
    )
    return [name(ds) for matches, ds in ranked[:3] if matches]


def _spread(result: SearchResult) -> list[str]:
    """Datasets that each hold a good share of the best documents, when three or more do."""
    top = result.results[:SPREAD_TOP]
    counts = Counter(r["dataset"] for r in top)
    if not top:
        return []
    shares = [ds for ds, n in counts.most_common() if n / len(top) >= SPREAD_SHARE]
    return shares if len(shares) >= SPREAD_DATASETS else []


def _question(text: str, options: list[str]) -> dict[str, Any]:
    return {"question": text, "options": list(dict.fromkeys(options))[:MAX_OPTIONS]}


def absent(plan: Plan, held: dict[str, int], dataset_name: Callable[[str], str]) -> dict[str, Any]:
    """The question for a message whose datasets the corpus holds no documents of: said
    plainly, with the datasets it holds most documents of as options."""
    named = _listed([dataset_name(d) for d in plan.named_datasets])
    why = f"This corpus holds no documents of {named}"
    top = sorted(held, key=lambda d: (-held[d], d))[:MAX_OPTIONS]
    options = [f"{dataset_name(d)} ({held[d]} document{'' if held[d] == 1 else 's'})" for d in top]
    return _question(f"{why}. Which of the datasets it holds should I search instead?", options)


def _listed(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def clarify(
    plan: Plan,
    probe: SearchResult | None,
    dataset_name: Callable[[str], str],
    today: dt.date,
) -> dict[str, Any] | None:
    """The question to ask before answering, or None when the message can be answered."""
    found = documents_of(probe, False) if probe is not None else []
    if not plan.topic and not plan.require:
        if not plan.named_datasets and not (plan.date_from or plan.date_to):
            options = _dataset_options(probe, dataset_name) if probe is not None else []
            return _question(
                "What should I research? Name a topic, a firm or product, an identifier "
                "(application, K, NCT or FEI number) or a kind of document.",
                options,
            )
        if probe is not None and probe.total <= BROAD_DOCUMENTS:
            return None
        named = (plan.named_datasets or plan.datasets)[:3]
        where = " and ".join(dataset_name(d) for d in named)
        total = probe.total if probe is not None else 0
        options = _firm_options(found) + _time_options(found, today)
        if probe is not None:
            options += _dataset_options(probe, dataset_name)
        return _question(
            f"{where} hold{'s' if len(named) == 1 else ''} {total} matching documents: too many "
            "to answer with citations. What should the answer be about: a topic, a firm or "
            "product, or a time range?",
            options,
        )
    if probe is not None and _single_word(plan):
        spread = _spread(probe)
        if spread:
            word = plan.words[0]
            names = [dataset_name(d) for d in spread]
            listed = ", ".join(names[:-1]) + " and " + names[-1]
            return _question(
                f"“{word}” comes up in {listed}, in different senses. Which do you mean?",
                [f"{word} in {n}" for n in names] + _firm_options(found),
            )
    return None
