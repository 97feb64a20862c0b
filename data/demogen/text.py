"""Text and random helpers of the demo generator: dates, articles, templates and pages.

The random helpers replace `random.Random` methods with faster ones built on one float draw
each; the generator's output depends on the exact draws they make.
"""

from __future__ import annotations

import datetime as dt
import functools
import random
import string
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from demogen.vocab.slots import SLOT_CHOICES, SLOT_RANGES

MAX_PAGE_WORDS = 250
MONTHS = (
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December",
)  # fmt: skip
# letters for lot and model numbers (no I, O or Q)
ID_LETTERS = "ABCDEFGHJKLMNPRSTUVWXYZ"
T = TypeVar("T")


def long_date(day: dt.date) -> str:
    """`March 4, 2019`, as FDA letters write dates."""
    return f"{MONTHS[day.month - 1]} {day.day}, {day.year}"


def randint(rng: random.Random, low: int, high: int) -> int:
    """`rng.randint`, several times faster: one float draw (its tiny bias does not matter here)."""
    return low + int(rng.random() * (high - low + 1))


def choice(rng: random.Random, items: Sequence[T]) -> T:
    """`rng.choice`, faster in the same way."""
    return items[int(rng.random() * len(items))]


def sample(rng: random.Random, items: Sequence[T], k: int) -> list[T]:
    """`rng.sample`, faster: a partial Fisher-Yates shuffle with float draws."""
    pool = list(items)
    for i in range(k):
        j = i + int(rng.random() * (len(pool) - i))
        pool[i], pool[j] = pool[j], pool[i]
    return pool[:k]


def before(rng: random.Random, day: dt.date, lo: int, hi: int) -> dt.date:
    return day - dt.timedelta(days=randint(rng, lo, hi))


def after(rng: random.Random, day: dt.date, lo: int, hi: int) -> dt.date:
    return day + dt.timedelta(days=randint(rng, lo, hi))


@functools.lru_cache(maxsize=4096)
def lowered(term: str) -> str:
    """Lower-case the Title Case words of a name, keeping acronyms and eponyms (HIV-1, Crohn's)."""
    return " ".join(
        "-".join(p.lower() if p[1:].islower() and "'" not in p else p for p in w.split("-"))
        for w in term.split(" ")
    )


def article(word: object) -> str:
    """The indefinite article for a word or number: `an` HMG-CoA, `an` 84-year-old, `a` vaccine."""
    text = str(word)
    if text[:1].isdigit():
        return "an" if text.startswith("8") or text in ("11", "18") else "a"
    first = text.split(" ")[0].split("-")[0]
    if first.isupper() and len(first) > 1:
        return "an" if first[0] in "AEFHILMNORSX" else "a"
    return "an" if text[:1].lower() in "aeiou" else "a"


def sentence(text: str) -> str:
    """Lower-case the first letter of a sentence that continues another one."""
    return text[0].lower() + text[1:] if text[1:2].islower() else text


def spaced(number: str) -> str:
    """NDA021436 -> NDA 021436, as letters write it."""
    i = next(i for i, c in enumerate(number) if c.isdigit())
    return f"{number[:i]} {number[i:]}"


def pick(rng: random.Random, weights: dict[str, int]) -> str:
    return rng.choices(list(weights), list(weights.values()))[0]


def some(rng: random.Random, items: Sequence[str], keep: float) -> list[str]:
    """The first item, then each later one with probability `keep`, in order."""
    return [items[0], *(t for t in items[1:] if rng.random() < keep)]


_RANDOM_SLOTS: dict[str, Callable[[random.Random, dt.date], object]] = {
    "lot": lambda r, d: f"{choice(r, ID_LETTERS)}{randint(r, 10000, 99999)}",
    "lot2": lambda r, d: f"{choice(r, ID_LETTERS)}{randint(r, 10000, 99999)}",
    "lot3": lambda r, d: f"{choice(r, ID_LETTERS)}{randint(r, 10000, 99999)}",
    "days": lambda r, d: choice(r, (15, 30, 45, 60, 90)),
    "sop": lambda r, d: f"SOP-{choice(r, ('QA', 'QC', 'PRD', 'VAL'))}-{randint(r, 1, 450):03d}",
    "capa": lambda r, d: f"{d.year - randint(r, 0, 2)}-{randint(r, 1, 240):03d}",
    "fw": lambda r, d: f"{randint(r, 1, 6)}.{randint(r, 0, 9)}.{randint(r, 0, 20)}",
    "date_a": lambda r, d: long_date(before(r, d, 200, 700)),
    "date_b": lambda r, d: long_date(before(r, d, 20, 190)),
    "exp": lambda r, d: f"{randint(r, 1, 12):02d}/{d.year + randint(r, 1, 3)}",
    "bp": lambda r, d: f"{randint(r, 90, 170)}/{randint(r, 55, 100)}",
    "date_later": lambda r, d: long_date(after(r, d, 60, 240)),
    "eq_id": lambda r, d: f"{choice(r, ('EQ', 'PRD', 'QC', 'MFG'))}-{randint(r, 10, 2400):04d}",
    "dev_no": lambda r, d: f"DEV-{d.year - randint(r, 0, 1)}-{randint(r, 12, 1890):04d}",
    "oos_no": lambda r, d: f"OOS-{(d.year - randint(r, 0, 1)) % 100:02d}-{randint(r, 3, 240):03d}",
    "complaint_no": lambda r, d: f"CMP-{d.year - randint(r, 0, 2)}-{randint(r, 20, 4800):04d}",
}


_FIELDS: dict[str, tuple[str, ...]] = {}
_FORMATTER = string.Formatter()


def _random_slot(rng: random.Random, key: str, day: dt.date) -> object:
    """A fresh value for a slot the document's context does not fix, from the slot tables."""
    if key in SLOT_CHOICES:
        return choice(rng, SLOT_CHOICES[key])
    if key in SLOT_RANGES:
        return randint(rng, *SLOT_RANGES[key])
    return _RANDOM_SLOTS[key](rng, day)


def fill(rng: random.Random, template: str, ctx: dict[str, Any]) -> str:
    """Format a template from the context; slots it lacks get fresh random values (not kept)."""
    if "{" not in template:
        return template
    names = _FIELDS.get(template)
    if names is None:
        names = tuple(dict.fromkeys(f for _, f, _, _ in _FORMATTER.parse(template) if f))
        if len(_FIELDS) < 20_000:
            _FIELDS[template] = names
    missing = [k for k in names if k not in ctx]
    if not missing:
        return template.format_map(ctx)
    for key in missing:
        ctx[key] = _random_slot(rng, key, ctx["_date"])
    try:
        return template.format_map(ctx)
    finally:
        for key in missing:
            del ctx[key]


def words(text: str) -> int:
    """About the number of words of a text, as `paginate` counts them."""
    return text.count(" ") + text.count("\n") + 1


def paginate(rng: random.Random, paragraphs: Sequence[str], reserve: int = 0) -> list[str]:
    """Pack paragraphs into pages of about 120–250 words; a short tail joins the page before.

    `reserve` words of every page are kept free (for furniture added to each page afterwards).
    """
    pages: list[str] = []
    current: list[str] = []
    count = last = 0
    most = MAX_PAGE_WORDS - reserve
    target = randint(rng, 110, 175) - reserve
    for para in paragraphs:
        n = words(para)
        if current and (count >= target or (count + n > most and count >= 90 - reserve)):
            pages.append("\n\n".join(current))
            current, last, count, target = [], count, 0, randint(rng, 110, 175) - reserve
        current.append(para)
        count += n
    if pages and count < 80 - reserve and last + count <= most + 20:
        pages[-1] += "\n\n" + "\n\n".join(current)
    elif current:
        pages.append("\n\n".join(current))
    return pages
