"""The invented world of one generation run: firms, their sites and their products.

Every dataset draws from the same world, so one firm gets a Form 483, a warning letter and a
recall, and identifiers (FEI, application and submission numbers) never repeat.
"""

from __future__ import annotations

import bisect
import datetime as dt
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from demogen.text import after, choice, randint, sample
from demogen.vocab.devices import CORE_CATEGORIES, DEVICE_MARKS, DEVICE_MODELS, DEVICE_TYPES
from demogen.vocab.drugs import (
    BIO_STRENGTHS,
    BIOLOGIC_CLASSES,
    BRAND_HEADS,
    BRAND_MIDS,
    BRAND_TAILS,
    CLASSES,
    IG_PRODUCTS,
    INGREDIENTS,
    MAB_SOURCES,
    MAB_STEMS,
    MAB_TARGETS,
    VACCINE_ANTIGENS,
)
from demogen.vocab.firms import (
    CONTACT_TITLES,
    COSMETIC_PRODUCTS,
    FIRM_CORES,
    FIRM_PREFIXES,
    FIRST_NAMES,
    FOOD_PRODUCTS,
    FOREIGN_CITIES,
    FOREIGN_LEGAL,
    LAST_NAMES,
    LEGAL_FORMS,
    STREET_NAMES,
    STREET_TYPES,
    TOBACCO_PRODUCTS,
    US_CITIES,
    VET_PRODUCTS,
)

FIRST_DAY = dt.date(2000, 1, 1)
LAST_DAY = dt.date(2026, 10, 31)
# firms per kind at scale 1.0 (the world grows more slowly than the document counts)
FIRMS = {"drug": 70, "device": 60, "biologic": 20, "food": 40, "veterinary": 10}
FIRMS |= {"cosmetics": 6, "tobacco": 6}
PRODUCT_TYPES = {
    "drug": "drugs", "device": "devices", "biologic": "biologics", "food": "food",
    "veterinary": "veterinary", "cosmetics": "cosmetics", "tobacco": "tobacco",
}  # fmt: skip


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


class World:
    """Firms and products shared by every dataset of one generation run."""

    def __init__(self, rng: random.Random, scale: float) -> None:
        self.rng = rng
        self.numbers: set[str] = set()
        growth = max(scale, 0.05) ** 0.6
        self.firms = {k: self._make_firms(k, max(3, round(n * growth))) for k, n in FIRMS.items()}
        self.products: dict[str, list[Product]] = {k: [] for k in self.firms}
        self._make_drugs(max(12, round(130 * growth)))
        for firm in self.firms["biologic"]:
            for _ in range(randint(rng, 1, 3)):
                self._make_biologic(firm)
        for firm in self.firms["device"]:
            for _ in range(randint(rng, 1, 4)):
                self._make_device(firm)
        # every dataset needs at least one product approved within the date range
        for pathway in ("510k", "de_novo", "pma"):
            if not self.recent("device", pathway):
                self._make_device(choice(rng, self.firms["device"]), pathway)
        if not self.recent("biologic"):
            self._make_biologic(choice(rng, self.firms["biologic"]), recent=True)
        minor = {"food": FOOD_PRODUCTS, "veterinary": VET_PRODUCTS}
        minor |= {"cosmetics": COSMETIC_PRODUCTS, "tobacco": TOBACCO_PRODUCTS}
        for kind, names in minor.items():
            for firm in self.firms[kind]:
                for name in sample(rng, names, randint(rng, 2, 3)):
                    label = f"{firm.short.split()[0]} {name}"
                    self._add(Product(label, kind, firm, dt.date(1990, 1, 1)))
        for products in self.products.values():
            products.sort(key=lambda p: p.approved)
        self.approvals = {k: [p.approved for p in ps] for k, ps in self.products.items()}

    def _make_firms(self, kind: str, n: int) -> list[Firm]:
        rng = self.rng
        combos = [(p, c) for p in FIRM_PREFIXES for c in FIRM_CORES[kind]]
        rng.shuffle(combos)
        firms = []
        for prefix, core in combos[:n]:
            if rng.random() < {"drug": 0.3, "device": 0.12, "food": 0.1}.get(kind, 0.05):
                city, state, country = choice(rng, FOREIGN_CITIES)
                legal = FOREIGN_LEGAL[country]
                line, place = f"{city}, {state}, {country}", f"{city}, {country}"
            else:
                city, state, zip_code = choice(rng, US_CITIES)
                country, legal = "United States", choice(rng, LEGAL_FORMS)
                line, place = f"{city}, {state} {zip_code}", f"{city}, {state}"
            site = (self.street(), line, place, country, state, self.fei())
            name, title = f"{prefix} {core} {legal}", choice(rng, CONTACT_TITLES[kind])
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
            lambda: f"{choice(self.rng, ('300', '300', '100'))}{randint(self.rng, 0, 9999999):07d}"
        )

    def person(self) -> str:
        return f"{choice(self.rng, FIRST_NAMES)} {choice(self.rng, LAST_NAMES)}"

    def street(self) -> str:
        rng = self.rng
        return f"{randint(rng, 10, 9900)} {choice(rng, STREET_NAMES)} {choice(rng, STREET_TYPES)}"

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
            lambda: choice(rng, BRAND_HEADS) + choice(rng, BRAND_MIDS) + choice(rng, BRAND_TAILS)
        )

    def _make_drugs(self, n: int) -> None:
        """New drug applications for brands, then generics (ANDAs) that reference them."""
        rng, firms = self.rng, self.firms["drug"]
        brands: dict[str, Product] = {}
        for i in range(n):
            ingredient, cls, form, strengths, route = choice(rng, INGREDIENTS)
            rld = brands.get(ingredient)
            firm = firms[i] if i < len(firms) else self.firm("drug")
            info = {"ingredient": ingredient, "class": cls, "form": form, "strengths": strengths}
            info |= {"route": route, "condition": choice(rng, CLASSES[cls]["conditions"])}  # type: ignore[arg-type]
            info["code"] = f"{firm.short[:2].upper()}-{randint(rng, 1000, 9899)}"
            if rld is None or i < len(INGREDIENTS) // 2 or rld.approved.year > 2022:
                approved = dt.date(1985, 1, 1) + dt.timedelta(days=randint(rng, 0, 15280))
                product = Product(self._brand(), "drug", firm, min(approved, LAST_DAY), info=info)
                brands.setdefault(ingredient, product)
            else:
                start = max(rld.approved + dt.timedelta(days=1800), dt.date(1992, 1, 1))
                approved = min(after(rng, start, 0, max((LAST_DAY - start).days, 0)), LAST_DAY)
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
        cls, style, presentation = choice(rng, BIOLOGIC_CLASSES)
        first = FIRST_DAY if recent else dt.date(1995, 1, 1)
        approved = after(rng, first, 0, (LAST_DAY - first).days)
        stem = choice(rng, MAB_STEMS) + choice(rng, MAB_STEMS)
        generic = {
            "mab": f"{stem}{MAB_TARGETS.get(cls, 'li')}{choice(rng, MAB_SOURCES)}mab",
            "vaccine": choice(rng, VACCINE_ANTIGENS),
            "gene": f"{stem}gene {choice(rng, MAB_STEMS)}parvovec",
            "cell": f"{stem}cabtagene autoleucel",
            "ig": choice(rng, IG_PRODUCTS),
        }[style]
        if style == "mab" and approved.year >= 2017:
            generic += "-" + "".join(choice(rng, "abcdefghijklmnopqrstuvwxyz") for _ in range(4))
        form, _, route = presentation.partition(", for ")
        info = {
            "ingredient": generic,
            "class": cls,
            "form": form,
            "route": route.removesuffix(" use"),
        }
        info |= {"strengths": BIO_STRENGTHS[style], "license": str(randint(rng, 1000, 2300))}
        info |= {"condition": choice(rng, CLASSES[cls]["conditions"])}  # type: ignore[arg-type]
        info["code"] = f"{firm.short[:2].upper()}-{randint(rng, 100, 999)}"
        low, high = (
            (761000, 761399) if style == "mab" and approved.year >= 2016 else (125000, 125799)
        )
        product = self._add(Product(self._brand(), "biologic", firm, approved, info=info))
        product.number = self.unique(lambda: f"BLA{randint(rng, low, high)}")

    def _make_device(self, firm: Firm, pathway: str | None = None) -> None:
        rng = self.rng
        core = next((c for c in CORE_CATEGORIES if firm.short.endswith(c)), "")
        types = [t for t in DEVICE_TYPES if pathway in (None, t[6])]
        types = [t for t in types if t[5] in CORE_CATEGORIES.get(core, (t[5],))] or types
        generic, code, reg, dev_class, panel, category, path, noun = choice(rng, types)
        first = dt.date(1990, 1, 1) if pathway is None else FIRST_DAY  # forced ones are recent
        first = dt.date(2015, 1, 1) if path == "de_novo" else first
        approved = after(rng, first, 0, (LAST_DAY - first).days)
        mark = choice(rng, DEVICE_MARKS) + choice(
            rng, ("", "Flow", "Sense", "Guard", "Link", "Core")
        )
        info = {"generic": generic, "code": code, "reg": reg, "class": dev_class, "panel": panel}
        info |= {"category": category, "pathway": path}
        name = f"{mark}{choice(rng, DEVICE_MODELS)} {noun}"
        product = self._add(Product(name, "device", firm, approved, info=info))
        product.number = self.submission_number(path, approved)

    def submission_number(self, pathway: str, day: dt.date) -> str:
        """K123456, DEN200001 or P190012, with the two digits of the year."""
        prefix = {"510k": "K", "de_novo": "DEN", "pma": "P"}[pathway]
        return self.unique(lambda: f"{prefix}{day.year % 100:02d}{randint(self.rng, 1, 3999):04d}")

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
    return f"{kind}{randint(rng, *ranges[kind][era]):06d}"
