"""The synthetic demo corpus: invented firms, products and FDA-style records for all US datasets.

`generate_documents(seed, scale)` is pure and deterministic: one `random.Random(seed)` builds a
small world of firms and products, then every dataset draws its records from that world, so one
firm gets a Form 483, a warning letter and a recall. Texts come from the phrase tables in
`regnb._demo_vocab`; the first page of every record says that it is synthetic.

    python -m regnb.demo --out data/demo [--seed N] [--scale X] [--fast-encoder]
"""

from __future__ import annotations

import argparse
import bisect
import datetime as dt
import functools
import random
import string
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import pandas as pd

from regnb import _demo_vocab as V
from regnb import shards
from regnb.corpus import write_corpus
from regnb.encoder import Encoder, HashingEncoder

__all__ = ["build", "generate_documents", "main"]

SEED = 20261125
FIRST_DAY = dt.date(2000, 1, 1)
LAST_DAY = dt.date(2026, 10, 31)
HOST = "https://demo.regnb.invalid"
MAX_PAGE_WORDS = 250

# documents per dataset at scale 1.0 (catalog order) and each dataset's date field
COUNTS = {
    "fda_drug": 170, "fda_biologic": 70, "fda_denovo_or_510k": 160, "fda_pma": 60,
    "fda_guidance": 100, "fda_warning_letters": 220, "fda_clinical_trials": 130, "fda_483": 270,
    "fda_inspections": 200, "fda_recalls": 150, "fda_crl": 45, "fda_ufa": 25,
    "fda_recall_enforcement": 180, "fda_maude": 230, "fda_faers": 230,
}  # fmt: skip
DATE_FIELDS = {
    "fda_drug": "approval_date", "fda_biologic": "approval_date",
    "fda_denovo_or_510k": "decision_date", "fda_pma": "decision_date",
    "fda_guidance": "issue_date", "fda_warning_letters": "letter_date",
    "fda_clinical_trials": "start_date", "fda_483": "record_date",
    "fda_inspections": "inspection_end_date", "fda_recalls": "recall_date",
    "fda_crl": "letter_date", "fda_ufa": "document_date",
    "fda_recall_enforcement": "report_date", "fda_maude": "date_received",
    "fda_faers": "receive_date",
}  # fmt: skip
# firms per kind at scale 1.0 (the world grows more slowly than the document counts)
FIRMS = {"drug": 70, "device": 60, "biologic": 20, "food": 40, "veterinary": 10}
FIRMS |= {"cosmetics": 6, "tobacco": 6}
INSPECTED = {"drug": 45, "device": 30, "biologic": 8, "food": 12, "veterinary": 5}
RECALLED = {"drug": 30, "device": 30, "food": 25, "biologic": 5, "veterinary": 5}
RECALLED |= {"cosmetics": 3, "tobacco": 2}
LETTERS = {"drug": 20, "device": 14, "food": 12, "biologic": 4, "veterinary": 3}
LETTERS |= {"online": 10, "tobacco": 12, "bimo": 6, "records": 8}
PRODUCT_TYPES = {
    "drug": "drugs", "device": "devices", "biologic": "biologics", "food": "food",
    "veterinary": "veterinary", "cosmetics": "cosmetics", "tobacco": "tobacco",
}  # fmt: skip
RECALL_LETTERS = {
    "drugs": "D", "devices": "Z", "biologics": "B", "food": "F", "veterinary": "V", "tobacco": "T",
}  # fmt: skip
MONTHS = (
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December",
)  # fmt: skip
STERILE = ("catheter", "disposable", "ortho", "implant", "cardiac", "surgical")
DEVICE_PROFILE_SLOTS = (
    "parts", "materials", "energy", "use_setting", "contact_category", "difference", "extra_testing",
)  # fmt: skip
TOBACCO_LETTERS = dt.date(2016, 8, 8)  # FDA's rule deeming e-cigarettes tobacco products
_LETTERS = "ABCDEFGHJKLMNPRSTUVWXYZ"
T = TypeVar("T")


# --- text helpers -----------------------------------------------------------------------------


def long_date(day: dt.date) -> str:
    """`March 4, 2019`, as FDA letters write dates."""
    return f"{MONTHS[day.month - 1]} {day.day}, {day.year}"


def _ri(rng: random.Random, low: int, high: int) -> int:
    """`rng.randint`, several times faster: one float draw (its tiny bias does not matter here)."""
    return low + int(rng.random() * (high - low + 1))


def _ch(rng: random.Random, items: Sequence[T]) -> T:
    """`rng.choice`, faster in the same way."""
    return items[int(rng.random() * len(items))]


def _sample(rng: random.Random, items: Sequence[T], k: int) -> list[T]:
    """`rng.sample`, faster: a partial Fisher-Yates shuffle with float draws."""
    pool = list(items)
    for i in range(k):
        j = i + int(rng.random() * (len(pool) - i))
        pool[i], pool[j] = pool[j], pool[i]
    return pool[:k]


def _before(rng: random.Random, day: dt.date, lo: int, hi: int) -> dt.date:
    return day - dt.timedelta(days=_ri(rng, lo, hi))


def _after(rng: random.Random, day: dt.date, lo: int, hi: int) -> dt.date:
    return day + dt.timedelta(days=_ri(rng, lo, hi))


@functools.lru_cache(maxsize=4096)
def _lower(term: str) -> str:
    """Lower-case the Title Case words of a name, keeping acronyms and eponyms (HIV-1, Crohn's)."""
    return " ".join(
        "-".join(p.lower() if p[1:].islower() and "'" not in p else p for p in w.split("-"))
        for w in term.split(" ")
    )


def _a(word: object) -> str:
    """The indefinite article for a word or number: `an` HMG-CoA, `an` 84-year-old, `a` vaccine."""
    text = str(word)
    if text[:1].isdigit():
        return "an" if text.startswith("8") or text in ("11", "18") else "a"
    first = text.split(" ")[0].split("-")[0]
    if first.isupper() and len(first) > 1:
        return "an" if first[0] in "AEFHILMNORSX" else "a"
    return "an" if text[:1].lower() in "aeiou" else "a"


def _sentence(text: str) -> str:
    """Lower-case the first letter of a sentence that continues another one."""
    return text[0].lower() + text[1:] if text[1:2].islower() else text


def _spaced(number: str) -> str:
    """NDA021436 -> NDA 021436, as letters write it."""
    i = next(i for i, c in enumerate(number) if c.isdigit())
    return f"{number[:i]} {number[i:]}"


def _pick(rng: random.Random, weights: dict[str, int]) -> str:
    return rng.choices(list(weights), list(weights.values()))[0]


def _some(rng: random.Random, items: Sequence[str], keep: float) -> list[str]:
    """The first item, then each later one with probability `keep`, in order."""
    return [items[0], *(t for t in items[1:] if rng.random() < keep)]


_RANDOM_SLOTS: dict[str, Callable[[random.Random, dt.date], object]] = {
    "lot": lambda r, d: f"{_ch(r, _LETTERS)}{_ri(r, 10000, 99999)}",
    "lot2": lambda r, d: f"{_ch(r, _LETTERS)}{_ri(r, 10000, 99999)}",
    "lot3": lambda r, d: f"{_ch(r, _LETTERS)}{_ri(r, 10000, 99999)}",
    "days": lambda r, d: _ch(r, (15, 30, 45, 60, 90)),
    "sop": lambda r, d: f"SOP-{_ch(r, ('QA', 'QC', 'PRD', 'VAL'))}-{_ri(r, 1, 450):03d}",
    "capa": lambda r, d: f"{d.year - _ri(r, 0, 2)}-{_ri(r, 1, 240):03d}",
    "fw": lambda r, d: f"{_ri(r, 1, 6)}.{_ri(r, 0, 9)}.{_ri(r, 0, 20)}",
    "date_a": lambda r, d: long_date(_before(r, d, 200, 700)),
    "date_b": lambda r, d: long_date(_before(r, d, 20, 190)),
    "exp": lambda r, d: f"{_ri(r, 1, 12):02d}/{d.year + _ri(r, 1, 3)}",
    "bp": lambda r, d: f"{_ri(r, 90, 170)}/{_ri(r, 55, 100)}",
}


_FIELDS: dict[str, tuple[str, ...]] = {}
_FORMATTER = string.Formatter()


def _random_slot(rng: random.Random, key: str, day: dt.date) -> object:
    """A fresh value for a slot the document's context does not fix, from the slot tables."""
    if key in V.SLOT_CHOICES:
        return _ch(rng, V.SLOT_CHOICES[key])
    if key in V.SLOT_RANGES:
        return _ri(rng, *V.SLOT_RANGES[key])
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


def paginate(rng: random.Random, paragraphs: Sequence[str]) -> list[str]:
    """Pack paragraphs into pages of about 120–250 words; a short tail joins the page before."""
    pages: list[str] = []
    current: list[str] = []
    words = last = 0
    target = _ri(rng, 110, 175)
    for para in paragraphs:
        n = para.count(" ") + para.count("\n") + 1
        if current and (words >= target or (words + n > MAX_PAGE_WORDS and words >= 90)):
            pages.append("\n\n".join(current))
            current, last, words, target = [], words, 0, _ri(rng, 110, 175)
        current.append(para)
        words += n
    if pages and words < 80 and last + words <= MAX_PAGE_WORDS + 20:
        pages[-1] += "\n\n" + "\n\n".join(current)
    elif current:
        pages.append("\n\n".join(current))
    return pages


# --- the world: firms and products ------------------------------------------------------------


@dataclass
class Product:
    """A drug, biologic, device or other product of one firm, marketed from `approved` on."""

    name: str
    kind: str
    firm: Firm
    approved: dt.date
    number: str = ""
    info: dict[str, Any] = field(default_factory=dict)


@dataclass
class Firm:
    """An invented firm with one site."""

    name: str
    short: str
    kind: str
    street: str
    city_line: str
    place: str
    country: str
    state: str
    fei: str
    contact: str
    contact_title: str
    products: list[Product] = field(default_factory=list)


class _World:
    """Firms and products shared by every dataset of one generation run."""

    def __init__(self, rng: random.Random, scale: float) -> None:
        self.rng = rng
        self.numbers: set[str] = set()
        growth = max(scale, 0.05) ** 0.6
        self.firms = {k: self._make_firms(k, max(3, round(n * growth))) for k, n in FIRMS.items()}
        self.products: dict[str, list[Product]] = {k: [] for k in self.firms}
        self._make_drugs(max(12, round(130 * growth)))
        for firm in self.firms["biologic"]:
            for _ in range(_ri(rng, 1, 3)):
                self._make_biologic(firm)
        for firm in self.firms["device"]:
            for _ in range(_ri(rng, 1, 4)):
                self._make_device(firm)
        # every dataset needs at least one product approved within the date range
        for pathway in ("510k", "de_novo", "pma"):
            if not self.recent("device", pathway):
                self._make_device(_ch(rng, self.firms["device"]), pathway)
        if not self.recent("biologic"):
            self._make_biologic(_ch(rng, self.firms["biologic"]), recent=True)
        minor = {"food": V.FOOD_PRODUCTS, "veterinary": V.VET_PRODUCTS}
        minor |= {"cosmetics": V.COSMETIC_PRODUCTS, "tobacco": V.TOBACCO_PRODUCTS}
        for kind, names in minor.items():
            for firm in self.firms[kind]:
                for name in _sample(rng, names, _ri(rng, 2, 3)):
                    label = f"{firm.short.split()[0]} {name}"
                    self._add(Product(label, kind, firm, dt.date(1990, 1, 1)))
        for products in self.products.values():
            products.sort(key=lambda p: p.approved)
        self.approvals = {k: [p.approved for p in ps] for k, ps in self.products.items()}

    def _make_firms(self, kind: str, n: int) -> list[Firm]:
        rng = self.rng
        combos = [(p, c) for p in V.FIRM_PREFIXES for c in V.FIRM_CORES[kind]]
        rng.shuffle(combos)
        firms = []
        for prefix, core in combos[:n]:
            if rng.random() < {"drug": 0.3, "device": 0.12, "food": 0.1}.get(kind, 0.05):
                city, state, country = _ch(rng, V.FOREIGN_CITIES)
                legal = V.FOREIGN_LEGAL[country]
                line, place = f"{city}, {state}, {country}", f"{city}, {country}"
            else:
                city, state, zip_code = _ch(rng, V.US_CITIES)
                country, legal = "United States", _ch(rng, V.LEGAL_FORMS)
                line, place = f"{city}, {state} {zip_code}", f"{city}, {state}"
            site = (self.street(), line, place, country, state, self.fei())
            name, title = f"{prefix} {core} {legal}", _ch(rng, V.CONTACT_TITLES[kind])
            firms.append(Firm(name, f"{prefix} {core}", kind, *site, self.person(), title))
        return firms

    def unique(self, make: Callable[[], str]) -> str:
        """A value from `make` that no earlier call returned."""
        for _ in range(10_000):
            value = make()
            if value not in self.numbers:
                self.numbers.add(value)
                return value
        raise RuntimeError(f"ran out of identifiers like {value!r}: the scale is too large")

    def fei(self) -> str:
        return self.unique(
            lambda: f"{_ch(self.rng, ('300', '300', '100'))}{_ri(self.rng, 0, 9999999):07d}"
        )

    def person(self) -> str:
        return f"{_ch(self.rng, V.FIRST_NAMES)} {_ch(self.rng, V.LAST_NAMES)}"

    def street(self) -> str:
        rng = self.rng
        return f"{_ri(rng, 10, 9900)} {_ch(rng, V.STREET_NAMES)} {_ch(rng, V.STREET_TYPES)}"

    def recent(self, kind: str, pathway: str | None = None) -> list[Product]:
        """Products of `kind` (and device pathway) approved within the corpus's date range."""
        return [
            p
            for p in self.products[kind]
            if p.approved >= FIRST_DAY and pathway in (None, p.info.get("pathway"))
        ]

    def _add(self, product: Product) -> Product:
        product.firm.products.append(product)
        self.products[product.kind].append(product)
        return product

    def _brand(self) -> str:
        rng = self.rng
        return self.unique(
            lambda: _ch(rng, V.BRAND_HEADS) + _ch(rng, V.BRAND_MIDS) + _ch(rng, V.BRAND_TAILS)
        )

    def _make_drugs(self, n: int) -> None:
        """New drug applications for brands, then generics (ANDAs) that reference them."""
        rng, firms = self.rng, self.firms["drug"]
        brands: dict[str, Product] = {}
        for i in range(n):
            ingredient, cls, form, strengths, route = _ch(rng, V.INGREDIENTS)
            rld = brands.get(ingredient)
            firm = firms[i] if i < len(firms) else self.firm("drug")
            info = {"ingredient": ingredient, "class": cls, "form": form, "strengths": strengths}
            info |= {"route": route, "condition": _ch(rng, V.CLASSES[cls]["conditions"])}  # type: ignore[arg-type]
            info["code"] = f"{firm.short[:2].upper()}-{_ri(rng, 1000, 9899)}"
            if rld is None or i < len(V.INGREDIENTS) // 2 or rld.approved.year > 2022:
                approved = dt.date(1985, 1, 1) + dt.timedelta(days=_ri(rng, 0, 15280))
                product = Product(self._brand(), "drug", firm, min(approved, LAST_DAY), info=info)
                brands.setdefault(ingredient, product)
            else:
                start = max(rld.approved + dt.timedelta(days=1800), dt.date(1992, 1, 1))
                approved = min(_after(rng, start, 0, max((LAST_DAY - start).days, 0)), LAST_DAY)
                product = Product(
                    ingredient.title(), "drug", firm, approved, info=info | {"rld": rld}
                )
            kind = "ANDA" if "rld" in product.info else "NDA"
            product.number = self.unique(
                lambda p=product, k=kind: _application_number(rng, k, p.approved)
            )
            self._add(product)

    def _make_biologic(self, firm: Firm, recent: bool = False) -> None:
        rng = self.rng
        cls, style, presentation = _ch(rng, V.BIOLOGIC_CLASSES)
        first = FIRST_DAY if recent else dt.date(1995, 1, 1)
        approved = _after(rng, first, 0, (LAST_DAY - first).days)
        stem = _ch(rng, V.MAB_STEMS) + _ch(rng, V.MAB_STEMS)
        generic = {
            "mab": f"{stem}{V.MAB_TARGETS.get(cls, 'li')}{_ch(rng, V.MAB_SOURCES)}mab",
            "vaccine": _ch(rng, V.VACCINE_ANTIGENS),
            "gene": f"{stem}gene {_ch(rng, V.MAB_STEMS)}parvovec",
            "cell": f"{stem}cabtagene autoleucel",
            "ig": _ch(rng, V.IG_PRODUCTS),
        }[style]
        if style == "mab" and approved.year >= 2017:
            generic += "-" + "".join(_ch(rng, "abcdefghijklmnopqrstuvwxyz") for _ in range(4))
        form, _, route = presentation.partition(", for ")
        info = {
            "ingredient": generic,
            "class": cls,
            "form": form,
            "route": route.removesuffix(" use"),
        }
        info |= {"strengths": V.BIO_STRENGTHS[style], "license": str(_ri(rng, 1000, 2300))}
        info |= {"condition": _ch(rng, V.CLASSES[cls]["conditions"])}  # type: ignore[arg-type]
        info["code"] = f"{firm.short[:2].upper()}-{_ri(rng, 100, 999)}"
        low, high = (
            (761000, 761399) if style == "mab" and approved.year >= 2016 else (125000, 125799)
        )
        product = self._add(Product(self._brand(), "biologic", firm, approved, info=info))
        product.number = self.unique(lambda: f"BLA{_ri(rng, low, high)}")

    def _make_device(self, firm: Firm, pathway: str | None = None) -> None:
        rng = self.rng
        core = next((c for c in V.CORE_CATEGORIES if firm.short.endswith(c)), "")
        types = [t for t in V.DEVICE_TYPES if pathway in (None, t[6])]
        types = [t for t in types if t[5] in V.CORE_CATEGORIES.get(core, (t[5],))] or types
        generic, code, reg, dev_class, panel, category, path, noun = _ch(rng, types)
        first = dt.date(1990, 1, 1) if pathway is None else FIRST_DAY  # forced ones are recent
        first = dt.date(2015, 1, 1) if path == "de_novo" else first
        approved = _after(rng, first, 0, (LAST_DAY - first).days)
        mark = _ch(rng, V.DEVICE_MARKS) + _ch(rng, ("", "Flow", "Sense", "Guard", "Link", "Core"))
        info = {"generic": generic, "code": code, "reg": reg, "class": dev_class, "panel": panel}
        info |= {"category": category, "pathway": path}
        name = f"{mark}{_ch(rng, V.DEVICE_MODELS)} {noun}"
        product = self._add(Product(name, "device", firm, approved, info=info))
        product.number = self.submission_number(path, approved)

    def submission_number(self, pathway: str, day: dt.date) -> str:
        """K123456, DEN200001 or P190012, with the two digits of the year."""
        prefix = {"510k": "K", "de_novo": "DEN", "pma": "P"}[pathway]
        return self.unique(lambda: f"{prefix}{day.year % 100:02d}{_ri(self.rng, 1, 3999):04d}")

    def firm(self, kind: str) -> Firm:
        """A firm of `kind`; earlier firms are picked more often, so some firms recur a lot."""
        firms = self.firms[kind]
        return firms[int(len(firms) * self.rng.random() ** 1.8)]

    def product_before(self, kind: str, day: dt.date) -> Product:
        """A product of `kind` already marketed on `day` (the oldest one if none was)."""
        k = bisect.bisect_right(self.approvals[kind], day)
        return self.products[kind][self.rng.randrange(k) if k else 0]


def _application_number(rng: random.Random, kind: str, day: dt.date) -> str:
    """NDA021436-style numbers whose ranges follow the approval era."""
    era = 0 if day.year < 2000 else 1 if day.year < 2010 else 2
    ranges = {
        "NDA": ((20000, 20999), (21000, 22999), (200000, 218999)),
        "ANDA": ((70000, 75999), (76000, 90999), (200000, 217999)),
    }
    return f"{kind}{_ri(rng, *ranges[kind][era]):06d}"


@dataclass
class _Event:
    """An inspection, with the Form 483 observations it ended with."""

    firm: Firm
    start: dt.date
    end: dt.date
    classification: str
    observations: list[tuple[Any, ...]]


# --- the generator ----------------------------------------------------------------------------


def _effect(rng: random.Random, endpoint: str) -> dict[str, str]:
    """A treatment effect with its 95% confidence interval, shaped to the endpoint."""
    if endpoint.startswith(
        ("Time to", "Progression", "Overall survival", "Event-free", "Invasive")
    ):
        hr = rng.uniform(0.55, 0.9)
        low, high = hr * rng.uniform(0.78, 0.9), min(hr * rng.uniform(1.1, 1.25), 0.99)
        return {
            "effect": f"hazard ratio {hr:.2f}",
            "ci_low": f"{low:.2f}",
            "ci_high": f"{high:.2f}",
        }
    share = endpoint.startswith(("Proportion", "Vaccine"))
    diff = rng.uniform(4, 25) if share else rng.uniform(0.3, 9)
    half = diff * rng.uniform(0.3, 0.7)
    unit = " percentage points" if share else ""
    return {
        "effect": f"{diff:.1f}{unit}",
        "ci_low": f"{diff - half:.1f}",
        "ci_high": f"{diff + half:.1f}",
    }


def _named(product: Product) -> str:
    """`Zovarix (atorvastatin calcium)`, or just the name when it is the ingredient (generics)."""
    ingredient = product.info["ingredient"]
    return product.name if product.name.lower() == ingredient else f"{product.name} ({ingredient})"


def _product_slots(product: Product) -> dict[str, Any]:
    """The slots of a drug or biologic that never change (computed once per product)."""
    slots = product.info.get("slots")
    if slots is None:
        info, cls = product.info, V.CLASSES[product.info["class"]]
        rld = info.get("rld") or product
        endpoint = V.CONDITIONS[info["condition"]][1]
        slots = product.info["slots"] = {
            "product": product.name, "product_upper": product.name.upper(),
            "app": product.number, "app_spaced": _spaced(product.number),
            "bla_spaced": _spaced(product.number), "ingredient": info["ingredient"],
            "ingredient_title": info["ingredient"].title(), "nonproprietary": info["ingredient"],
            "form": info["form"], "form_title": info["form"].capitalize(),
            "form_unit": info["form"].split()[-1].rstrip("s"), "route": info["route"],
            "strengths": ", ".join(info["strengths"]), "indication": info["condition"],
            "indication_lower": _lower(info["condition"]), "epc": cls["epc"], "moa": cls["moa"],
            "a_epc": _a(cls["epc"]),
            "year": rld.approved.year, "rld": rld.name, "rld_firm": rld.firm.name,
            "endpoint": endpoint, "endpoint_lower": _sentence(endpoint), "code": info["code"],
            "license": info.get("license", ""), "named": _named(product),
        }  # fmt: skip
    return slots


class _Generator:
    """One generation run: the random source, the world, and a method per dataset."""

    def __init__(self, seed: int, scale: float) -> None:
        self.rng = random.Random(seed)
        self.world = _World(self.rng, scale)
        self.counts = {ds: max(1, round(n * scale)) for ds, n in COUNTS.items()}
        self.out: dict[str, list[dict[str, Any]]] = {ds: [] for ds in COUNTS}
        self.keys: set[tuple[str, str]] = set()
        self.events: list[_Event] = []
        self.recall_seq: dict[tuple[str, int], int] = {}

    def run(self) -> dict[str, list[dict[str, Any]]]:
        for step in (
            self.form_483s, self.inspections, self.warning_letters, self.recalls, self.maude,
            self.faers, self.drugs, self.biologics, self.complete_responses, self.premarket_510k,
            self.premarket_approvals, self.trials, self.guidance, self.user_fees,
        ):  # fmt: skip
            step()
        return self.out

    # helpers shared by the datasets

    def day(self, first: dt.date = FIRST_DAY, last: dt.date = LAST_DAY) -> dt.date:
        return _after(self.rng, first, 0, max((last - first).days, 0))

    def later(self, product: Product) -> dt.date:
        """A date after the product's approval, within the corpus's range (for supplements)."""
        first = max(product.approved + dt.timedelta(days=90), FIRST_DAY)
        return self.day(first) if first < LAST_DAY else self.day()

    def fill(self, template: str, ctx: dict[str, Any]) -> str:
        return fill(self.rng, template, ctx)

    def fill_all(self, templates: Sequence[str], ctx: dict[str, Any]) -> list[str]:
        return [fill(self.rng, t, ctx) for t in templates]

    def emit(
        self, dataset: str, ctx: dict[str, Any], paragraphs: list[str], kind: str = ""
    ) -> None:
        """Add one document dated `ctx["_date"]`; title, key and fields come from its slots."""
        day = ctx["_date"]
        ctx["iso"] = day.isoformat()
        spec = f"{dataset}:{kind}" if kind else dataset
        title = V.TITLES[spec].format_map(ctx)
        base = key = V.KEYS.get(spec, V.KEYS[dataset]).format_map(ctx).replace("/", "-")
        n = 1
        while (dataset, key) in self.keys:
            n += 1
            key = f"{base}-{n}"
        self.keys.add((dataset, key))
        url = f"{HOST}/{dataset}/{key}"
        fields = {name: ctx[slot] for name, slot in V.FIELD_SLOTS[dataset].items()}
        fields |= {DATE_FIELDS[dataset]: ctx["iso"], "title": title, "url": url}
        paragraphs = [p.replace("..", ".") for p in paragraphs]  # "Inc." ending a sentence
        pages = paginate(self.rng, [f"{V.MARKER}\n{paragraphs[0]}", *paragraphs[1:]])
        doc = {"title": title, "date": ctx["iso"], "url": url, "key": key, "fields": fields}
        self.out[dataset].append(doc | {"pages": pages})

    def firm_ctx(self, firm: Firm, day: dt.date) -> dict[str, Any]:
        return {
            "_date": day, "date": long_date(day), "firm": firm.name, "firm_short": firm.short,
            "street": firm.street, "city_line": firm.city_line, "city_short": firm.place,
            "fei": firm.fei, "contact": firm.contact, "contact_title": firm.contact_title,
            "official": self.world.person(), "pm": self.world.person(),
            "product": _ch(self.rng, firm.products).name if firm.products else firm.short,
        }  # fmt: skip

    def drug_ctx(self, product: Product, day: dt.date) -> dict[str, Any]:
        """Firm, product and pharmacology slots of a drug or biologic document."""
        rng, info = self.rng, product.info
        cls = V.CLASSES[info["class"]]
        warnings = _sample(rng, cls["warnings"], len(cls["warnings"])) * 3  # type: ignore[arg-type]
        aes = _sample(rng, cls["aes"], len(cls["aes"])) * 3  # type: ignore[arg-type]
        pts = _sample(rng, cls["pts"], len(cls["pts"])) * 3  # type: ignore[arg-type]
        n_patients = _ri(rng, 180, 3200)
        ctx = self.firm_ctx(product.firm, day)
        ctx.update(_product_slots(product))
        ctx.update(
            warning1=warnings[0], warning2=warnings[1], warning3=warnings[2],
            warning1_lower=_lower(warnings[0]), warning2_lower=_lower(warnings[1]),
            risk_lower=_lower(warnings[0]), ae1=aes[0], ae2=aes[1], ae3=aes[2], pt1=pts[0],
            pt2=pts[1], pt3=pts[2], strength=_ch(rng, info["strengths"]),
            frequency=_ch(rng, V.FREQUENCIES.get(info["route"], V.FREQUENCIES["oral"])),
            n_patients=f"{n_patients:,}",
            n_safety=f"{n_patients + _ri(rng, 300, 2500):,}",
            study_id=f"{info['code']}-{_ch(rng, (301, 302, 303, 201))}",
            sub_date=long_date(_before(rng, product.approved, 240, 420)),
            division=V.CLASS_DIVISIONS.get(info["class"]) or _ch(rng, V.CDER_DIVISIONS),
            shelf=_ch(rng, (18, 24, 36)),
            fold=_ch(rng, (1.5, 2, 2.6, 3.4, 5)),
            eop2_date=long_date(_before(rng, product.approved, 900, 1800)),
            label_date=long_date(_before(rng, product.approved, 3, 20)),
            pmr_date=long_date(_after(rng, day, 300, 900)),
            pmr_date2=long_date(_after(rng, day, 1100, 2200)),
        )  # fmt: skip
        ctx.update(_effect(rng, ctx["endpoint"]))
        return ctx

    def device_ctx(self, product: Product, day: dt.date, number: str) -> dict[str, Any]:
        rng, info = self.rng, product.info
        sens, spec = _ri(rng, 84, 97), _ri(rng, 80, 96)
        generic = _sentence(info["generic"])
        received = _before(rng, day, 60, 300)
        if number[:1].isalpha():  # K, DEN and P numbers carry the year the submission was received
            yy = int(number.lstrip("KDENP")[:2])
            received = max(received, dt.date(yy + (1900 if yy > 80 else 2000), 1, 2))
        ctx = self.firm_ctx(product.firm, day)
        ctx.update(
            product=product.name, product_upper=product.name.upper(), number=number,
            generic=info["generic"], generic_lower=generic, a_generic=_a(generic),
            code=info["code"], reg=info["reg"], dev_class=info["class"], panel=info["panel"],
            sub_date=long_date(min(received, day)),
            dev_indication=V.DEV_INDICATIONS[info["category"]], n_patients=_ri(rng, 60, 1400),
            sens=sens, spec=spec, sens_lo=sens - _ri(rng, 3, 8),
            sens_hi=min(sens + _ri(rng, 2, 4), 99), spec_lo=spec - _ri(rng, 3, 8),
            spec_hi=min(spec + _ri(rng, 2, 4), 99), shelf=_ch(rng, (12, 24, 36, 60)),
            software_level=_ch(rng, ("basic", "enhanced")),
            sterilization=_ch(rng, ("ethylene oxide", "gamma irradiation", "electron beam")),
            sterility="sterile" if info["category"] in STERILE else _ch(rng, ("sterile", "non-sterile")),
        )  # fmt: skip
        ctx.update(zip(DEVICE_PROFILE_SLOTS, V.DEVICE_PROFILES[info["category"]], strict=True))
        return ctx

    def office(self, firm: Firm, day: dt.date, kind: str) -> str:
        """The FDA office that inspected or wrote: districts before 2017, then program divisions."""
        if firm.country != "United States" and kind == "drug":
            return V.FOREIGN_OFFICE
        if day.year < 2017 and firm.state in V.DISTRICTS and kind not in ("tobacco", "bimo"):
            return V.DISTRICTS[firm.state]
        if day >= dt.date(2024, 10, 1) and self.rng.random() < 0.4:
            return V.OII_OFFICE
        return _ch(self.rng, V.OFFICES_2017[kind])

    # inspections, Form 483s and warning letters

    def event(self, kind: str, end: dt.date, classification: str) -> _Event:
        rng, pool = self.rng, V.OBSERVATIONS[kind]
        observations = sorted(_sample(rng, pool, min(len(pool), _ri(rng, 3, 9))), key=pool.index)
        start = _before(rng, end, 2, 21)
        return _Event(self.world.firm(kind), start, end, classification, observations)

    def event_ctx(self, ev: _Event, day: dt.date) -> dict[str, Any]:
        ctx = self.firm_ctx(ev.firm, day)
        est_type = _ch(self.rng, V.EST_TYPES.get(ev.firm.kind, ("Establishment",)))
        ctx.update(
            start_date=long_date(ev.start), insp_date=long_date(ev.end), est_type=est_type,
            resp_date=long_date(_after(self.rng, ev.end, 10, 15)), classification=ev.classification,
            est_type_lower=_sentence(est_type), a_est=_a(_sentence(est_type)),
        )  # fmt: skip
        return ctx

    def form_483s(self) -> None:
        rng, world = self.rng, self.world
        for _ in range(self.counts["fda_483"]):
            cls = "OAI" if rng.random() < 0.3 else "VAI"
            self.events.append(self.event(_pick(rng, INSPECTED), self.day(), cls))
        for seq, ev in enumerate(self.events, 1):
            ctx = self.event_ctx(ev, ev.end)
            ctx.update(
                office=self.office(ev.firm, ev.end, ev.firm.kind), investigator=world.person()
            )
            ctx.update(investigator2=world.person(), record_id=f"483-{ev.end.year}-{seq:05d}")
            paras = [self.fill(V.F483_HEADER, ctx), V.F483_PREAMBLE]
            for k, (cfr, statement, _, details, _) in enumerate(ev.observations, 1):
                chosen = _sample(rng, details, min(len(details), _ri(rng, 1, 3)))
                found = _sentence(" ".join(self.fill_all(chosen, ctx)))
                text = f"OBSERVATION {k} ({cfr})\n{statement}\nSpecifically, {found}"
                if rng.random() < 0.5:
                    text += "\n" + self.fill(_ch(rng, V.F483_ANNOTATIONS), ctx)
                paras.append(text)
            paras.append(self.fill(V.F483_CLOSING, ctx))
            self.emit("fda_483", ctx, paras)

    def inspections(self) -> None:
        rng = self.rng
        n = self.counts["fda_inspections"]
        linked = self.events[: min(len(self.events), round(n * 0.6))]
        for ev in linked:
            self.inspection(ev)
        for _ in range(n - len(linked)):
            cls = "VAI" if rng.random() < 0.15 else "NAI"
            self.inspection(self.event(_pick(rng, INSPECTED), self.day(), cls))

    def inspection(self, ev: _Event) -> None:
        rng, firm = self.rng, ev.firm
        ctx = self.event_ctx(ev, ev.end)
        ctx["cp"], ctx["cp_name"] = V.COMPLIANCE_PROGRAMS[firm.kind]
        ctx.update(
            product_type=PRODUCT_TYPES[firm.kind].title(), n_obs=len(ev.observations),
            project_area=_ch(rng, V.PROJECT_AREAS[firm.kind]), fy=ev.end.year + (ev.end.month >= 10),
            classification_long=V.CLASSIFICATIONS[ev.classification],
            posted=long_date(_after(rng, ev.end, 30, 120)),
            prev_date=long_date(_before(rng, ev.end, 700, 1600)),
            topics=", ".join(o[0] for o in ev.observations),
        )  # fmt: skip
        paras = [
            V.INSPECTION_SUMMARY,
            V.INSPECTION_DEFINITIONS,
            *_some(rng, V.INSPECTION_EIR, 0.75),
        ]
        paras.append(_ch(rng, V.INSPECTION_OUTCOME[ev.classification]))
        self.emit("fda_inspections", ctx, self.fill_all(paras, ctx))

    def warning_letters(self) -> None:
        rng, world = self.rng, self.world
        n = self.counts["fda_warning_letters"]
        made = 0
        for ev in self.events:
            letter = _after(rng, ev.end, 60, 240)
            if ev.classification == "OAI" and letter <= LAST_DAY and made < n * 0.5:
                self.warning_letter(ev.firm.kind, ev, letter)
                made += 1
        foreign = [f for f in world.firms["drug"] if f.country != "United States"]
        for _ in range(n - made):
            letter_type = _pick(rng, LETTERS)
            letter = self.day(TOBACCO_LETTERS if letter_type == "tobacco" else FIRST_DAY)
            kind = str(V.WL_TYPES[letter_type]["kind"] or "drug")
            ev = self.event(kind, _before(rng, letter, 60, 240), "OAI")
            if letter_type == "records":
                ev.firm = _ch(rng, foreign or world.firms["drug"])
            elif letter_type == "tobacco":
                ev.firm = world.firm("tobacco")
            elif letter_type in ("online", "bimo"):
                ev.firm = self.letter_firm(letter_type)
            self.warning_letter(letter_type, ev, letter)

    def letter_firm(self, letter_type: str) -> Firm:
        """The addressee of a letter that follows no inspection of a firm in the world."""
        rng, world = self.rng, self.world
        city, state, zip_code = _ch(rng, V.US_CITIES)
        prefix = _ch(rng, V.FIRM_PREFIXES)
        if letter_type == "online":
            name, contact, title = f"{prefix} Wellness LLC", world.person(), "Owner"
        else:
            name = contact = f"{world.person()}, M.D."
            title = "Clinical Investigator"
        return Firm(
            name, f"{prefix} Wellness", "drug", world.street(), f"{city}, {state} {zip_code}",
            f"{city}, {state}", "United States", state, world.fei(), contact, title,
        )  # fmt: skip

    def warning_letter(self, letter_type: str, ev: _Event, letter: dt.date) -> None:
        rng, firm = self.rng, ev.firm
        spec = V.WL_TYPES[letter_type]
        if letter.year >= 2017:
            ref_id = self.world.unique(lambda: str(_ri(rng, 500000, 720000)))
            ref = f"MARCS-CMS {ref_id}"
        else:
            district = _ch(rng, ("CIN", "NYK", "NWJ", "ATL", "DAL", "LOS", "SEA"))
            ref = ref_id = f"{district}-{letter.year % 100:02d}-{_ri(rng, 1, 60):02d}"
        office_kind = {"online": "drug", "records": "drug"}.get(letter_type, letter_type)
        ctx = self.event_ctx(ev, letter)
        ctx.update(
            ref=ref, ref_id=ref_id, subject=_ch(rng, spec["subjects"]),  # type: ignore[arg-type]
            office=self.office(firm, letter, office_kind),
            posted_iso=min(_after(rng, letter, 7, 60), LAST_DAY).isoformat(),
            domain=firm.short.split()[0].lower() + ("vapor" if letter_type == "tobacco" else "health"),
        )  # fmt: skip
        if firm.kind == "device" and firm.products:
            ctx["generic"] = _sentence(_ch(rng, firm.products).info["generic"])
        if letter_type == "online":
            ctx["product"] = _ch(rng, V.ONLINE_PRODUCTS)
        elif letter_type == "bimo":
            code = _ch(rng, self.world.products["drug"]).info["code"]
            ctx.update(product=code, protocol=f"{code}-{_ri(rng, 101, 399)}")
            ctx["protocol_title"] = self.fill(_ch(rng, V.PROTOCOL_TITLES), ctx)
        paras = self.fill_all([V.WL_HEADER, str(spec["opening"])], ctx)
        if spec["kind"]:
            for k, (cfr, _, violation, details, request) in enumerate(ev.observations[:5], 1):
                example = _sentence(self.fill(_ch(rng, details), ctx))
                paras.append(f"{k}. {violation} ({cfr}).\n\nFor example, {example}")
                paras.append(f"{self.fill(V.WL_RESPONSE, ctx)} {self.fill(request, ctx)}.")
        else:
            paras += self.fill_all(_some(rng, spec["body"], 0.8), ctx)  # type: ignore[arg-type]
        paras += self.fill_all(_some(rng, spec["closing"], 0.8), ctx)  # type: ignore[arg-type]
        signer = f"{ctx['official']}\n{_ch(rng, V.OFFICIAL_TITLES)}\n{ctx['office']}"
        self.emit("fda_warning_letters", ctx, [*paras, f"Sincerely,\n/S/\n{signer}"])

    # recalls and enforcement reports

    def recalls(self) -> None:
        rng = self.rng
        need_pr, need_enf = self.counts["fda_recalls"], self.counts["fda_recall_enforcement"]
        inspected: dict[str, list[_Event]] = {}
        for ev in self.events:
            inspected.setdefault(ev.firm.kind, []).append(ev)
        latest = LAST_DAY - dt.timedelta(days=100)
        while need_pr > 0 or need_enf > 0:
            kind = _pick(rng, RECALLED)
            start, firm = self.day(last=latest), self.world.firm(kind)
            if kind in inspected and rng.random() < 0.35:  # a recall after an inspection
                ev = _ch(rng, inspected[kind])
                if ev.end < latest:
                    firm = ev.firm
                    start = self.day(ev.end, min(_after(rng, ev.end, 30, 400), latest))
            hazard = _ch(rng, V.RECALL_HAZARDS[PRODUCT_TYPES[kind]])
            enforced = PRODUCT_TYPES[kind] in RECALL_LETTERS and need_enf > 0
            enforced = enforced and (need_pr <= 0 or rng.random() < 0.75)
            announced = need_pr > 0 and (
                not enforced or hazard[3] == "Class I" or rng.random() < 0.4
            )
            if not (enforced or announced) or not firm.products:
                continue
            ctx = self.recall_ctx(_ch(rng, firm.products), start, hazard)
            if announced:
                paras = [V.RECALL_PR_HEADER, *_some(self.rng, V.RECALL_PR, 0.9)]
                self.emit("fda_recalls", ctx, self.fill_all(paras, ctx))
                need_pr -= 1
            if enforced:
                self.enforcement(ctx, start)
                need_enf -= 1

    def recall_ctx(
        self, product: Product, start: dt.date, hazard: tuple[str, ...]
    ) -> dict[str, Any]:
        rng, kind = self.rng, product.kind
        if kind in ("drug", "biologic"):
            ctx = self.drug_ctx(product, start)
            ctx["product"] = f"{ctx['named']} {ctx['form']}, {ctx['strength']}"
        elif kind == "device":
            ctx = self.device_ctx(product, start, product.number)
        else:
            ctx = self.firm_ctx(product.firm, start)
            ctx["product"] = product.name
        levels, channels = V.RECALL_SETTINGS[kind]
        ctx.update(
            brand=product.name, reason_short=hazard[0], reason=hazard[1], risk=hazard[2],
            classification=hazard[3], ptype=PRODUCT_TYPES[kind], kind=kind,
            ptype_title=PRODUCT_TYPES[kind].title(), level=_ch(rng, levels),
            channels=_ch(rng, channels), package=_ch(rng, V.RECALL_PACKAGES[kind]),
            reason_sentence=f"The recall was initiated for the following reason: {_sentence(hazard[1])}.",
            notification=_ch(rng, V.NOTIFICATIONS),
        )  # fmt: skip
        ctx["use"] = self.fill(V.RECALL_USES[kind], ctx)
        ctx["notification_lower"] = ctx["notification"].lower()
        return ctx

    def enforcement(self, ctx: dict[str, Any], start: dt.date) -> None:
        rng = self.rng
        report = _after(rng, start, 20, 90)
        seq_key = (RECALL_LETTERS[ctx["ptype"]], report.year)
        seq = self.recall_seq.get(seq_key, _ri(rng, 1, 300)) + _ri(rng, 1, 25)
        self.recall_seq[seq_key] = seq
        age = (LAST_DAY - report).days
        if age < 120:
            status = _ch(rng, ("Pending", "Ongoing", "Ongoing"))
        elif age < 900:
            status = _pick(rng, {"Ongoing": 6, "Completed": 2, "Terminated": 2})
        else:
            status = _pick(rng, {"Terminated": 16, "Completed": 3, "Ongoing": 1})
        days = (start - FIRST_DAY).days
        ctx = ctx | {
            "_date": report, "date": long_date(report), "init_date": long_date(start),
            "recall_number": f"{seq_key[0]}-{seq:04d}-{report.year}", "status": status,
            "event_id": self.world.unique(lambda: str(20000 + days * 40 + _ri(rng, 0, 39))),
            "mandate": "Voluntary: Firm initiated" if rng.random() < 0.95 else "FDA Mandated",
            "description": f"{ctx['product']}, {ctx['package']}",
            "quantity": f"{_ri(rng, 300, 250000):,} units",
            "class_text": V.ENFORCEMENT_CLASS_TEXT[ctx["classification"]],
            "status_text": V.ENFORCEMENT_STATUS_TEXT[status],
        }  # fmt: skip
        paras = [V.ENFORCEMENT_HEADER, *_some(rng, V.ENFORCEMENT_SECTIONS, 0.85)]
        self.emit("fda_recall_enforcement", ctx, self.fill_all(paras, ctx))

    # adverse event reports

    def maude(self) -> None:
        rng = self.rng
        for _ in range(self.counts["fda_maude"]):
            day = self.day()
            product = self.world.product_before("device", day)
            event_type = _pick(rng, {"malfunction": 55, "injury": 33, "death": 5, "other": 7})
            problem, description = _ch(rng, V.MAUDE_PROBLEMS[product.info["category"]])
            fei = product.firm.fei
            number = self.world.unique(
                lambda fei=fei, d=day: f"{fei}-{d.year}-{_ri(rng, 1, 99999):05d}"
            )
            ctx = self.device_ctx(product, day, number)
            event_day = _before(rng, day, 4, 60)
            ctx.update(
                report_number=number, event_type=event_type, event_label=event_type.title(),
                problem=problem, event_date=long_date(event_day),
                mfr_date=long_date(_after(rng, event_day, 1, (day - event_day).days - 1)),
                patient_problem=_ch(rng, V.MAUDE_PATIENT[event_type]),
                model=f"{_ch(rng, _LETTERS)}{_ri(rng, 100, 9999)}",
                catalog=f"{_ri(rng, 10, 99)}-{_ri(rng, 1000, 9999)}",
            )  # fmt: skip
            event = f"Event Description: It was reported that {self.fill(description, ctx)}. "
            event += self.fill(_ch(rng, V.MAUDE_OUTCOME[event_type]), ctx)
            followups = _sample(rng, V.MAUDE_FOLLOWUP, _ri(rng, 1, 4))
            more = [t for t in (V.MAUDE_DEVICE_INFO, *V.MAUDE_MORE) if rng.random() < 0.8]
            paras = [self.fill(V.MAUDE_HEADER, ctx), event, *self.fill_all(more, ctx)]
            paras.append("Manufacturer Narrative: " + " ".join(self.fill_all(followups, ctx)))
            self.emit("fda_maude", ctx, paras)

    def faers(self) -> None:
        rng = self.rng
        for _ in range(self.counts["fda_faers"]):
            day = self.day()
            product = self.world.product_before("drug" if rng.random() < 0.8 else "biologic", day)
            reactions = [_ch(rng, V.CLASSES[product.info["class"]]["pts"])]  # type: ignore[arg-type]
            reactions += [
                r for r in _sample(rng, V.FAERS_GENERIC_PTS, _ri(rng, 0, 2)) if r not in reactions
            ]
            serious = rng.random() < 0.62
            criteria = _ch(rng, V.FAERS_CRITERIA) if serious else "Non-serious"
            outcome = "Fatal" if criteria == "Death" else _ch(rng, V.FAERS_OUTCOMES[:4])
            days = (day - FIRST_DAY).days
            report_id = self.world.unique(
                lambda days=days: str(10_000_000 + days * 2000 + _ri(rng, 0, 1999))
            )
            sex, reporter = _ch(rng, ("female", "male")), _ch(rng, V.FAERS_REPORTERS)
            country = _ch(rng, V.FAERS_COUNTRIES)
            history, age = _sample(rng, V.FAERS_HISTORY, 2), _ri(rng, 19, 88)
            mcn = f"{product.firm.short.split()[0].upper()}-{day.year}{_ri(rng, 10000, 99999)}"
            ctx = self.drug_ctx(product, day)
            ctx.update(
                report_id=report_id, serious=serious, serious_text="Yes" if serious else "No",
                criteria=criteria, reporter=reporter, reporter_lower=reporter.lower(), age=age,
                a_age=_a(age), sex=sex.title(), sex_word=sex, reactions=", ".join(reactions),
                reaction_lower=_sentence(reactions[0]), reaction_upper=reactions[0],
                dose=f"{ctx['strength']} {ctx['frequency']}", outcome=outcome,
                outcome_lower=outcome.lower(), history=history[0], history2=history[1],
                concomitants=", ".join(_sample(rng, V.CONCOMITANTS, _ri(rng, 1, 3))),
                country=country, mcn=f"{V.COUNTRY_CODES[country]}-{mcn}",
                start=long_date(_before(rng, day, 20, 400)),
                followup=long_date(min(_after(rng, day, 10, 90), LAST_DAY)),
            )  # fmt: skip
            ctx["treatment_sentence"] = self.fill(_ch(rng, V.FAERS_TREATMENT), ctx)
            paras = [V.FAERS_HEADER, *_some(rng, V.FAERS_SECTIONS, 0.75)]
            self.emit("fda_faers", ctx, self.fill_all(paras, ctx))

    # drug and biologic applications

    def plan(
        self, pool: list[Product], n: int, extra: dict[str, float], repeat: str
    ) -> list[tuple[Product, str]]:
        """`n` (product, document type) pairs: each product's first document, extras, repeats."""
        rng = self.rng
        pool = _sample(rng, pool, len(pool))
        pairs: list[tuple[Product, str]] = []
        for product in pool:
            pairs.append((product, "first"))
            pairs += [(product, t) for t, p in extra.items() if rng.random() < p]
            pairs += [(product, repeat)] * _ch(rng, (0, 0, 1, 2))
        while pool and len(pairs) < n:
            pairs.append((_ch(rng, pool), repeat))
        return pairs[:n]

    def supplement_number(self, product: Product) -> int:
        suppl = product.info.get("suppl", _ri(self.rng, 1, 6)) + _ri(self.rng, 1, 9)
        product.info["suppl"] = suppl
        return int(suppl)

    def drugs(self) -> None:
        rng = self.rng
        extra = {"label": 0.6, "review": 0.5}
        for product, doc_type in self.plan(
            self.world.recent("drug"), self.counts["fda_drug"], extra, "other"
        ):
            nda = product.number.startswith("NDA")
            doc_type = "other" if doc_type == "review" and not nda else doc_type
            doc_type = "approval_letter" if doc_type == "first" else doc_type
            ctx = self.drug_ctx(
                product, self.later(product) if doc_type == "other" else product.approved
            )
            ctx["document_type"] = doc_type
            if doc_type == "other":
                ctx["sub_date"] = long_date(_before(rng, ctx["_date"], 120, 300))
            if doc_type == "approval_letter":
                paras = _some(rng, V.NDA_APPROVAL if nda else V.ANDA_APPROVAL, 0.9)
            elif doc_type in ("label", "review"):
                paras = _some(rng, V.LABEL if doc_type == "label" else V.REVIEW, 0.9)
            else:
                ctx["suppl"] = self.supplement_number(product)
                ctx["change"] = self.fill(_ch(rng, V.SUPPLEMENT_CHANGES), ctx)
                paras = _some(rng, V.SUPPLEMENT_APPROVAL, 0.85)
            self.emit("fda_drug", ctx, self.fill_all(paras, ctx), doc_type)

    def biologics(self) -> None:
        rng = self.rng
        extra = {
            "package_insert": 0.6,
            "summary_basis_for_regulatory_action": 0.45,
            "review_memo": 0.3,
        }
        plan = self.plan(
            self.world.recent("biologic"), self.counts["fda_biologic"], extra, "supplement"
        )
        for product, doc_type in plan:
            doc_type = {"first": "approval_letter", "supplement": "supplement_approval"}.get(
                doc_type, doc_type
            )
            supplement = doc_type == "supplement_approval"
            ctx = self.drug_ctx(product, self.later(product) if supplement else product.approved)
            ctx["document_type"] = doc_type
            if supplement:
                ctx["sub_date"] = long_date(_before(rng, ctx["_date"], 120, 300))
                ctx["suppl_code"] = f"{self.supplement_number(product):04d}"
                ctx["change"] = self.fill(_ch(rng, V.SUPPLEMENT_CHANGES), ctx)
            paras = self.fill_all(_some(rng, V.BLA_DOCUMENTS[doc_type], 0.9), ctx)
            self.emit("fda_biologic", ctx, paras, doc_type)

    def complete_responses(self) -> None:
        rng = self.rng
        sites = [ev for ev in self.events if ev.firm.kind == "drug" and ev.classification == "OAI"]
        for _ in range(self.counts["fda_crl"]):
            product = _ch(rng, self.world.products["drug" if rng.random() < 0.8 else "biologic"])
            letter = _before(rng, product.approved, 120, 900)
            supplemental = letter < FIRST_DAY  # then it answers a later supplement
            letter = self.later(product) if supplemental else min(letter, LAST_DAY)
            original, supplement, statute = V.APPLICATIONS[product.number.rstrip("0123456789")]
            site = _ch(rng, [ev for ev in sites if ev.end < letter] or [None])
            facility = site.firm if site else product.firm
            ctx = self.drug_ctx(product, letter)
            ctx.update(
                app_kind=supplement if supplemental else original, statute=statute,
                amend_date=long_date(_before(rng, letter, 30, 150)),
                sub_date=long_date(_before(rng, letter, 300, 400)),
                facility=facility.name, facility_fei=facility.fei,
            )  # fmt: skip
            issues = sorted(_sample(rng, V.CRL_ISSUES, _ri(rng, 2, 5)), key=V.CRL_ISSUES.index)
            closing = [t for t in V.CRL_CLOSING[:-1] if rng.random() < 0.7] + [V.CRL_CLOSING[-1]]
            self.emit("fda_crl", ctx, self.fill_all([V.CRL_OPENING, *issues, *closing], ctx))

    # device submissions

    def premarket_510k(self) -> None:
        rng, world = self.rng, self.world
        devices = [p for p in world.products["device"] if p.info["pathway"] != "pma"]
        pool = [p for p in devices if p.approved >= FIRST_DAY]
        for product, doc_type in self.plan(pool, self.counts["fda_denovo_or_510k"], {}, "change"):
            info = product.info
            if doc_type == "first":
                day, number, name, pathway = (
                    product.approved,
                    product.number,
                    product.name,
                    info["pathway"],
                )
                earlier = [
                    p for p in devices if p.info["code"] == info["code"] and p.approved < day
                ]
                predicate = _ch(rng, earlier) if earlier else None
            else:  # a later change to a cleared or granted device needs a new 510(k)
                day, pathway, predicate = self.later(product), "510k", product
                number = world.submission_number("510k", day)
                name = product.name + _ch(rng, V.MOD_SUFFIXES)
            ctx = self.device_ctx(product, day, number)
            ctx.update(product=name, product_upper=name.upper(), pathway=pathway)
            ctx["identification"] = V.DENOVO_IDENTIFICATION.get(info["code"], "")
            if predicate:
                ctx["predicate"], ctx["predicate_number"] = predicate.name, predicate.number
            else:
                ctx["predicate"] = f"{_ch(rng, V.DEVICE_MARKS)} {info['generic'].split(',')[0]}"
                ctx["predicate_number"] = world.submission_number(
                    "510k", _before(rng, day, 700, 3000)
                )
            ctx["clinical_data"] = self.fill(_ch(rng, V.CLINICAL_DATA), ctx)
            if pathway == "de_novo":
                paras, ctx["decision"] = _some(rng, V.DENOVO_SECTIONS, 0.85), "Granted (DENG)"
            else:
                shape = rng.random()  # decision letter, 510(k) summary, or both
                paras = [
                    *(V.K_LETTER if shape < 0.75 else ()),
                    *(V.K_SUBMISSION if shape > 0.15 else ()),
                ]
                ctx["decision"] = "Substantially Equivalent (SESE)"
            self.emit("fda_denovo_or_510k", ctx, self.fill_all(paras, ctx), pathway)

    def premarket_approvals(self) -> None:
        rng = self.rng
        devices = [p for p in self.world.products["device"] if p.info["pathway"] == "pma"]
        n = self.counts["fda_pma"]
        originals = self.world.recent("device", "pma")
        plan = [
            (p, "original") for p in _sample(rng, originals, min(len(originals), round(n * 0.5)))
        ]
        plan += [(_ch(rng, devices), "supplement") for _ in range(n - len(plan))]
        for product, doc_type in plan:
            day = product.approved if doc_type == "original" else self.later(product)
            ctx = self.device_ctx(product, day, product.number)
            panel = rng.random() < 0.3
            ctx.update(
                panel_text=long_date(_before(rng, day, 60, 150)) if panel else V.PMA_PANEL[0],
                panel_text_long=V.PMA_PANEL[int(panel)] + ".", mkt_year=product.approved.year - _ri(rng, 1, 4),
                safety_pct=round(rng.uniform(88, 97), 1), eff_pct=round(rng.uniform(82, 96), 1),
            )  # fmt: skip
            if doc_type == "original":
                paras = [*V.PMA_ORDER, *_some(rng, V.SSED, 0.75)]
            else:
                ctx["suppl_code"] = f"S{self.supplement_number(product):03d}"
                paras = _some(rng, V.PMA_SUPPLEMENT_LETTER, 0.8)
            self.emit("fda_pma", ctx, self.fill_all(paras, ctx), doc_type)

    # clinical trials, guidance, user fee documents

    def trial_phase(self, product: Product, start: dt.date) -> str:
        """The phase a trial of `product` starting on `start` is in, given its approval date."""
        years = (product.approved - start).days / 365
        if years <= 0:
            return "phase4" if self.rng.random() < 0.7 else "phase3"
        if years < 7:
            return "phase3" if years < 2 else "phase2" if years < 4.5 else "phase1"
        return _ch(self.rng, ("early_phase1", "phase1", "na"))

    def trials(self) -> None:
        rng = self.rng
        span = (LAST_DAY - FIRST_DAY).days
        brands = [p for p in self.world.products["drug"] if "rld" not in p.info]
        for _ in range(self.counts["fda_clinical_trials"]):
            start = self.day()
            product = _ch(rng, brands if rng.random() < 0.75 else self.world.products["biologic"])
            phase, end = self.trial_phase(product, start), _after(rng, start, 300, 2000)
            if end > LAST_DAY:
                recent = (LAST_DAY - start).days < 500 and rng.random() < 0.7
                status = "recruiting" if recent else "active_not_recruiting"
            else:
                status = _pick(rng, V.TRIAL_OUTCOMES_MIX)
            conditions = [product.info["condition"]]
            others = [
                c for c in V.CLASSES[product.info["class"]]["conditions"] if c != conditions[0]
            ]  # type: ignore[attr-defined]
            if others and rng.random() < 0.3:
                conditions.append(_ch(rng, others))
            position = int((start - FIRST_DAY).days / span * 6_900_000)
            nct = self.world.unique(
                lambda position=position: f"NCT{position + _ri(rng, 0, 30000):08d}"
            )
            placebo, met = rng.random() < 0.7, rng.random() < 0.75
            masking, control, masking_title = V.MASKING[placebo]
            ctx = self.drug_ctx(product, start)
            drug = ctx["named"] if phase == "phase4" else ctx["code"]
            phase_text = V.PHASE_TEXT[phase]
            ctx.update(
                nct=nct, phase=phase, status=status, conditions=conditions, code=drug,
                phase_text=phase_text, phase_text_lower=phase_text, status_text=V.STATUS_TEXT[status],
                brief_title=f"A {phase_text} Study of {drug} in Adults With {conditions[0]}",
                official_title=V.OFFICIAL_TITLE.format(phase=phase_text, masking=masking.title(), control=control.title(), drug=drug, condition=conditions[0]),
                collaborator=_ch(rng, ("None", f"{_ch(rng, V.FIRM_PREFIXES)} Clinical Research Organization")),
                conditions_text=", ".join(conditions), masking=masking, control=control, masking_title=masking_title,
                comparator="Placebo" if placebo else f"Active comparator: standard of care ({_ch(rng, V.INGREDIENTS)[0]})",
                enrollment=_ri(rng, 300, 4800) if phase == "phase3" else _ri(rng, 24, 1200),
                enrollment_type="Actual" if status in ("completed", "terminated") else "Estimated",
                primary_completion=long_date(end), population="adults", condition_lower=_lower(conditions[0]),
                weeks=_ch(rng, (12, 24, 26, 52)), dose=ctx["strength"], secondary1=V.SECONDARY_OUTCOMES[0],
                city_site=_ch(rng, V.US_CITIES)[0], state_site=_ch(rng, V.US_CITIES)[1], city_site2=_ch(rng, V.US_CITIES)[0],
                met="was met" if met else "was not met",
                p_value=_ch(rng, ("< 0.001", "= 0.003", "= 0.02", "= 0.04") if met else ("= 0.21", "= 0.38")),
            )  # fmt: skip
            ctx["comparator_lower"] = "placebo" if placebo else "the active comparator"
            ctx["enrollment_actual"] = ctx["enrollment"]
            inclusion = V.INCLUSION[V.CONDITIONS[conditions[0]][0]]
            ctx["inclusion"] = "; ".join(_sample(rng, inclusion, min(3, len(inclusion))))
            ctx["exclusion"] = "; ".join(_sample(rng, V.EXCLUSION, _ri(rng, 3, 6)))
            ctx["locations"] = "; ".join(
                self.fill_all(_sample(rng, V.TRIAL_LOCATIONS, _ri(rng, 1, 5)), ctx)
            )
            paras = [
                V.TRIAL_HEADER,
                *_some(rng, V.TRIAL_DESCRIPTION, 0.9),
                *V.TRIAL_OUTCOMES,
                V.ELIGIBILITY,
            ]
            paras += [V.LOCATIONS] if rng.random() < 0.6 else []
            if status in ("completed", "terminated", "withdrawn", "suspended"):
                paras.append(V.TRIAL_RESULTS[status != "completed"])
            self.emit("fda_clinical_trials", ctx, self.fill_all(paras, ctx))

    def guidance(self) -> None:
        rng = self.rng
        for _ in range(self.counts["fda_guidance"]):
            center, title, topic, year, keys = _ch(rng, V.GUIDANCE_TOPICS)
            day = self.day(max(FIRST_DAY, dt.date(year, 1, 1)))
            status = "draft" if rng.random() < 0.35 else "final"
            docket = self.world.unique(
                lambda d=day: f"FDA-{d.year - _ri(rng, 0, 1)}-D-{_ri(rng, 1, 5999):04d}"
            )
            ctx = {
                "_date": day, "title": title, "center": center, "center_long": V.CENTER_NAMES[center],
                "and_staff": " and Food and Drug Administration Staff" if center in ("CDRH", "OC") else "",
                "status": status, "status_line": V.GUIDANCE_STATUS[status], "docket": docket,
                "month_year": f"{MONTHS[day.month - 1]} {day.year}", "topic": topic,
                "draft_notice": V.DRAFT_NOTICE if status == "draft" else "",
                "audience": V.GUIDANCE_AUDIENCE[center],
                "shown_title": f"{title} (Draft Guidance)" if status == "draft" else title,
            }  # fmt: skip
            ctx.update({f"key{i}": k for i, k in enumerate([*keys, "", "", ""][:4], 1)})
            paras = [*V.GUIDANCE[:6], *(t for t in V.GUIDANCE[6:] if rng.random() < 0.8)]
            self.emit("fda_guidance", ctx, self.fill_all(paras, ctx))

    def user_fees(self) -> None:
        rng = self.rng
        for _ in range(self.counts["fda_ufa"]):
            program = _pick(rng, V.UFA_WEIGHTS)
            long_name, first_year, years, fees = V.UFA_PROGRAMS[program]
            day = self.day(max(FIRST_DAY, dt.date(first_year, 10, 1)))
            base = years[max(bisect.bisect_right(years, day.year), 1) - 1]
            fy, doc_type = day.year + (day.month >= 10), _ch(rng, V.UFA_DOC_TYPES)
            amounts = [round(_ri(rng, 4_000, 90_000) * 1.04 ** (fy - 2000)) for _ in fees]
            ctx = {
                "_date": day, "date": long_date(day), "program": program, "program_long": long_name,
                "program_long_upper": long_name.upper(), "roman": V.ROMAN[years.index(base)],
                "fy": fy, "fy_prev": fy - 1, "fy_start": base + 1, "fy_end": base + 5,
                "next_start": base + 6, "next_end": base + 10, "doc_type": doc_type,
                "goal_pct": 90, "std_months": 10, "pri_months": 6, "median": round(rng.uniform(7.5, 12.5), 1),
                "staff": f"{_ri(rng, 300, 4200):,}", "attrition": round(rng.uniform(4, 11), 1),
                "collected": round(rng.uniform(20, 1400), 1), "obligated": round(rng.uniform(20, 1300), 1),
                "carryover": round(rng.uniform(5, 400), 1), "nonfee": round(rng.uniform(50, 900), 1),
                "docket": f"FDA-{day.year}-N-{_ri(rng, 1, 5999):04d}", "fee1": fees[0], "fee2": fees[-1],
                "amount1": f"{amounts[0] * 10:,}", "amount2": f"{amounts[-1]:,}",
                "inflation": round(rng.uniform(1.2, 5.8), 2), "capacity": round(rng.uniform(1, 30), 1),
                "target": round(rng.uniform(30, 1500), 1),
            }  # fmt: skip
            self.emit("fda_ufa", ctx, self.fill_all(V.UFA_DOCUMENTS[doc_type], ctx), doc_type)


# --- public API -------------------------------------------------------------------------------


def generate_documents(seed: int = SEED, scale: float = 1.0) -> dict[str, list[dict[str, Any]]]:
    """Synthetic documents for every US dataset, in `write_corpus` shape; same seed, same output.

    At scale 1.0 about 2,240 documents and 6,500 pages; `scale` multiplies the document counts.
    """
    if not scale > 0:
        raise ValueError(f"scale must be positive, got {scale!r}")
    return _Generator(seed, scale).run()


def build(
    path: str | Path,
    *,
    encoder: Encoder | None = None,
    seed: int = SEED,
    scale: float = 1.0,
    progress: bool = True,
) -> pd.DataFrame:
    """Write the demo corpus to `path` (the real MiniLM encoder unless one is given) with a README.

    Build into an empty folder: documents left there from another seed or scale would stay.
    Building again with the same seed and scale skips every document.
    """
    corpus = Path(path)
    documents = generate_documents(seed, scale)
    summary = write_corpus(corpus, documents, encoder=encoder, progress=progress)
    manifest = shards.Manifest.load(corpus)
    encoder_name = str(manifest.encoder["name"]) if manifest else "unknown"
    readme = _readme(documents, corpus, seed, scale, encoder_name)
    (corpus / "README.md").write_text(readme, encoding="utf-8")
    return summary


def _readme(
    documents: dict[str, list[dict[str, Any]]], out: Path, seed: int, scale: float, encoder: str
) -> str:
    command = f"python -m regnb.demo --out {out.as_posix()} --seed {seed}"
    command += f" --scale {scale:g}" if scale != 1.0 else ""
    command += " --fast-encoder" if encoder.startswith("hashing") else ""
    lines = [
        "# regnb demo corpus (synthetic)",
        "",
        "Every record in this corpus is **synthetic**: invented firms, people, products and",
        "identifiers written in the style of FDA records. None of it is a real FDA document; the",
        "first page of every record says so, and every URL points at the reserved `.invalid` domain.",
        "",
        f"Generated by `{command}` (seed {seed}, scale {scale:g}); page embeddings: `{encoder}`.",
        "",
        "| dataset | documents | pages |",
        "|---|---:|---:|",
    ]
    for dataset, docs in documents.items():
        lines.append(f"| {dataset} | {len(docs):,} | {sum(len(d['pages']) for d in docs):,} |")
    total_docs = sum(len(docs) for docs in documents.values())
    total_pages = sum(len(d["pages"]) for docs in documents.values() for d in docs)
    lines.append(f"| **total** | **{total_docs:,}** | **{total_pages:,}** |")
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> None:
    """`python -m regnb.demo --out data/demo [--seed N] [--scale X] [--fast-encoder]`."""
    parser = argparse.ArgumentParser(
        prog="python -m regnb.demo", description="Build the synthetic demo corpus."
    )
    parser.add_argument("--out", required=True, type=Path, help="corpus folder to write")
    parser.add_argument("--seed", type=int, default=SEED, help=f"random seed (default {SEED})")
    parser.add_argument("--scale", type=float, default=1.0, help="multiplies the document counts")
    parser.add_argument(
        "--fast-encoder",
        action="store_true",
        help="embed with the hashing encoder (tests and benchmarks), not the MiniLM model",
    )
    args = parser.parse_args(argv)
    encoder = HashingEncoder() if args.fast_encoder else None
    summary = build(args.out, encoder=encoder, seed=args.seed, scale=args.scale)
    print(summary.to_string(index=False))


if __name__ == "__main__":
    main()
