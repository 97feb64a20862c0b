"""Clarifying questions: a message with nothing to search for, one too broad to answer with
citations ("tell me about recalls"), or one whose only word means different things in different
datasets ends `needs_input`. Its options are counted by the engine over every matching document
(`Choices`): the datasets with most, the latest years, the CFR sections and firms cited most,
each a short line with its number of documents that, sent back, narrows the search. Without
counts they come from a first search."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Callable
from typing import Any

from regnb.agent._config import AgentConfig
from regnb.agent._counts import Choices
from regnb.agent._searching import documents_of
from regnb.agent._stages import Count, Found, Plan
from regnb.agent._writer import firm_of
from regnb.documents.cfr import cfr_title
from regnb.results import SearchResult

__all__ = ["absent", "clarify", "needs_probe"]

MAX_OPTIONS = 8
MAX_HELD = 6  # datasets offered instead of one the corpus lacks
YEARS = 3  # the latest years offered one by one; the earlier ones as one option
CFR_OPTIONS = 2
FIRM_OPTIONS = 3


def needs_probe(plan: Plan) -> bool:
    """Whether the message might need a question: no topic, or one word and nothing else."""
    return not plan.topic.terms or _single_word(plan)


def _single_word(plan: Plan) -> bool:
    return (
        not plan.scope.named_datasets
        and not plan.has_anchor
        and not plan.topic.phrases
        and len(plan.topic.words) == 1
        and not plan.follow_up.require
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


def _counted(label: str, documents: int, title: str | None = None) -> str:
    """An option: what it narrows to, and how many documents that leaves."""
    n = f"{documents:,} document{'' if documents == 1 else 's'}"
    return f"{label} ({title}; {n})" if title else f"{label} ({n})"


def _counted_datasets(choices: Choices, name: Callable[[str], str]) -> list[str]:
    return [_counted(name(c.value), c.documents) for c in choices.datasets[:3]]


def _counted_years(choices: Choices, today: dt.date) -> list[str]:
    """The latest years with documents (none after today's), then every earlier one at once."""
    past = [c for c in choices.years if c.value.isdigit() and int(c.value) <= today.year]
    if len(past) < 2:
        return []
    latest = past[::-1][:YEARS]
    options = [_counted(f"in {c.value}", c.documents) for c in latest]
    earlier = sum(c.documents for c in past[: -len(latest)])
    if earlier:
        options.append(_counted(f"before {latest[-1].value}", earlier))
    return options


def _narrows(count: Count, choices: Choices) -> bool:
    """An option worth offering: two documents or more, and at most half of them (a section
    that most letters cite, such as the one every complete response letter cites, does not
    narrow)."""
    return 2 <= count.documents <= choices.total / 2


def _counted_cfr(choices: Choices) -> list[str]:
    top = [c for c in choices.cfr if _narrows(c, choices)][:CFR_OPTIONS]
    return [_counted(c.value, c.documents, cfr_title(c.value)) for c in top]


def _counted_firms(choices: Choices) -> list[str]:
    top = [c for c in choices.firms if _narrows(c, choices) and len(c.value) <= 60]
    return [_counted(c.value, c.documents) for c in top[:FIRM_OPTIONS]]


def _narrowing(choices: Choices, name: Callable[[str], str], today: dt.date) -> list[str]:
    """Options that narrow a broad request: firms, CFR sections, years, then datasets."""
    several = _counted_datasets(choices, name) if len(choices.datasets) > 1 else []
    return [*_counted_firms(choices), *_counted_cfr(choices), *_counted_years(choices, today)][
        : MAX_OPTIONS - len(several)
    ] + several


def _lacking(plan: Plan, name: Callable[[str], str]) -> str:
    """The sentence naming the datasets asked for that the corpus holds no documents of."""
    scope = plan.scope
    absent = [d for d in scope.named_datasets if scope.unsearchable.get(d) == "not_in_corpus"]
    return (
        f" This corpus holds no documents of {_listed([name(d) for d in absent])}."
        if absent
        else ""
    )


def _spread(result: SearchResult, config: AgentConfig) -> list[str]:
    """Datasets that each hold a good share of the best documents, when three or more do."""
    top = result.results[: config.spread_top]
    counts = Counter(r["dataset"] for r in top)
    if not top:
        return []
    shares = [ds for ds, n in counts.most_common() if n / len(top) >= config.spread_share]
    return shares if len(shares) >= config.spread_datasets else []


def _question(text: str, options: list[str]) -> dict[str, Any]:
    return {"question": text, "options": list(dict.fromkeys(options))[:MAX_OPTIONS]}


def absent(plan: Plan, held: dict[str, int], dataset_name: Callable[[str], str]) -> dict[str, Any]:
    """The question for a message whose datasets the corpus holds no documents of: said
    plainly, with the datasets it holds most documents of as options."""
    named = _listed([dataset_name(d) for d in plan.scope.named_datasets])
    why = f"This corpus holds no documents of {named}"
    top = sorted(held, key=lambda d: (-held[d], d))[:MAX_HELD]
    options = [f"{dataset_name(d)} ({held[d]} document{'' if held[d] == 1 else 's'})" for d in top]
    return _question(f"{why}. Which of the datasets it holds should I search instead?", options)


def _listed(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _where(plan: Plan, choices: Choices | None, name: Callable[[str], str]) -> tuple[str, bool]:
    """The datasets a broad request matched, in words, and whether they are one."""
    matched = [c.value for c in choices.datasets] if choices is not None else []
    scope = plan.scope
    named = matched or [d for d in scope.named_datasets if d in scope.datasets] or scope.datasets
    if len(named) > 3:
        return f"The {len(named)} datasets searched", False
    return _listed([name(d) for d in named]) if named else "The corpus", len(named) <= 1


def _too_broad(
    plan: Plan,
    probe: SearchResult | None,
    choices: Choices | None,
    name: Callable[[str], str],
    today: dt.date,
    config: AgentConfig,
) -> dict[str, Any] | None:
    """A dataset or a time range and nothing else: a question when it matches too many."""
    total = choices.total if choices is not None else probe.total if probe is not None else 0
    if (choices is not None or probe is not None) and total <= config.broad_documents:
        return None
    where, one = _where(plan, choices, name)
    if choices is not None:
        options = _narrowing(choices, name, today)
    else:
        found = documents_of(probe, False) if probe is not None else []
        options = _firm_options(found) + _time_options(found, today)
        options += _dataset_options(probe, name) if probe is not None else []
    return _question(
        f"{where} hold{'s' if one else ''} {total:,} matching documents: too many to answer with "
        f"citations.{_lacking(plan, name)} What should the answer be about: a topic, a firm or "
        "product, or a time range?",
        options,
    )


def _ambiguous(
    plan: Plan,
    probe: SearchResult,
    choices: Choices | None,
    name: Callable[[str], str],
    config: AgentConfig,
) -> dict[str, Any] | None:
    """One word whose best documents are spread over unrelated datasets: which sense?"""
    spread = _spread(probe, config)
    if not spread:
        return None
    word = plan.topic.words[0]
    listed = _listed([name(d) for d in spread])
    if choices is not None:
        held = {c.value: c.documents for c in choices.datasets}
        options = [_counted(f"{word} in {name(d)}", held[d]) for d in spread if d in held]
        options += _counted_firms(choices)
    else:
        options = [f"{word} in {name(d)}" for d in spread]
        options += _firm_options(documents_of(probe, False))
    return _question(
        f"“{word}” comes up in {listed}, in different senses. Which do you mean?", options
    )


def clarify(
    plan: Plan,
    probe: SearchResult | None,
    dataset_name: Callable[[str], str],
    today: dt.date,
    choices: Choices | None = None,
    config: AgentConfig | None = None,
) -> dict[str, Any] | None:
    """The question to ask before answering, or None when the message can be answered.
    `choices` (counts over every match) give the options; without them, `probe` does."""
    config = config or AgentConfig()
    scope = plan.scope
    if not plan.topic.terms and not plan.follow_up.require:
        if scope.named_datasets or scope.date_from or scope.date_to:
            return _too_broad(plan, probe, choices, dataset_name, today, config)
        if choices is not None:
            options = _counted_datasets(choices, dataset_name) + _counted_years(choices, today)
        else:
            options = _dataset_options(probe, dataset_name) if probe is not None else []
        return _question(
            "What should I research? Name a topic, a firm or product, an identifier "
            "(application, K, NCT or FEI number) or a kind of document.",
            options,
        )
    if probe is not None and _single_word(plan):
        return _ambiguous(plan, probe, choices, dataset_name, config)
    return None
