"""One generation run: the random source, the world, the documents made so far.

`Generator` also builds the slot contexts that several datasets share (firm, drug, device)
and `emit`s each document; the dataset modules make their documents through it.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from demogen.text import (
    after,
    article,
    before,
    choice,
    fill,
    long_date,
    lowered,
    paginate,
    randint,
    sample,
    sentence,
    spaced,
    words,
)
from demogen.vocab.devices import DEV_INDICATIONS, DEVICE_PROFILES
from demogen.vocab.drugs import CDER_DIVISIONS, CLASS_DIVISIONS, CLASSES, CONDITIONS, FREQUENCIES
from demogen.vocab.findings import Finding
from demogen.vocab.records import FIELD_SLOTS, KEYS, MARKER, TITLES
from demogen.world import FIRST_DAY, LAST_DAY, Firm, Product, World

HOST = "https://demo.regnb.invalid"
MAX_PAGES = 8

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
STERILE = ("catheter", "disposable", "ortho", "implant", "cardiac", "surgical")
DEVICE_PROFILE_SLOTS = (
    "parts", "materials", "energy", "use_setting", "contact_category", "difference", "extra_testing",
)  # fmt: skip


@dataclass
class Event:
    """An inspection, with the Form 483 observations it ended with.

    `facts` holds the facts the Form 483 recorded for each finding's topic, so that a warning
    letter after the inspection quotes the same ones.
    """

    firm: Firm
    start: dt.date
    end: dt.date
    classification: str
    observations: list[Finding]
    est_type: str = "Establishment"
    facts: dict[str, list[str]] = field(default_factory=dict)
    previous: Event | None = None  # the firm's inspection before this one, if it had a Form 483


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
        info, cls = product.info, CLASSES[product.info["class"]]
        rld = info.get("rld") or product
        endpoint = CONDITIONS[info["condition"]][1]
        slots = product.info["slots"] = {
            "product": product.name, "product_upper": product.name.upper(),
            "app": product.number, "app_spaced": spaced(product.number),
            "bla_spaced": spaced(product.number), "ingredient": info["ingredient"],
            "ingredient_title": info["ingredient"].title(), "nonproprietary": info["ingredient"],
            "form": info["form"], "form_title": info["form"].capitalize(),
            "form_unit": info["form"].split()[-1].rstrip("s"), "route": info["route"],
            "strengths": ", ".join(info["strengths"]), "indication": info["condition"],
            "indication_lower": lowered(info["condition"]), "epc": cls["epc"], "moa": cls["moa"],
            "a_epc": article(cls["epc"]),
            "year": rld.approved.year, "rld": rld.name, "rld_firm": rld.firm.name,
            "endpoint": endpoint, "endpoint_lower": sentence(endpoint), "code": info["code"],
            "license": info.get("license", ""), "named": _named(product),
        }  # fmt: skip
    return slots


class Generator:
    """One generation run: the random source, the world, the documents and keys made so far."""

    def __init__(self, seed: int, scale: float) -> None:
        self.rng = random.Random(seed)
        self.world = World(self.rng, scale)
        self.counts = {ds: max(1, round(n * scale)) for ds, n in COUNTS.items()}
        self.out: dict[str, list[dict[str, Any]]] = {ds: [] for ds in COUNTS}
        self.keys: set[tuple[str, str]] = set()
        self.events: list[Event] = []
        self.recall_seq: dict[tuple[str, int], int] = {}

    def day(self, first: dt.date = FIRST_DAY, last: dt.date = LAST_DAY) -> dt.date:
        return after(self.rng, first, 0, max((last - first).days, 0))

    def later(self, product: Product) -> dt.date:
        """A date after the product's approval, within the corpus's range (for supplements)."""
        first = max(product.approved + dt.timedelta(days=90), FIRST_DAY)
        return self.day(first) if first < LAST_DAY else self.day()

    def fill(self, template: str, ctx: dict[str, Any]) -> str:
        return fill(self.rng, template, ctx)

    def fill_all(self, templates: Sequence[str], ctx: dict[str, Any]) -> list[str]:
        return [fill(self.rng, t, ctx) for t in templates]

    def fits(self, paragraphs: Sequence[str], reserve: int = 0) -> bool:
        """Whether the paragraphs make at most `MAX_PAGES` pages (the random source is left as is)."""
        state = self.rng.getstate()
        pages = paginate(self.rng, [f"{MARKER}\n{paragraphs[0]}", *paragraphs[1:]], reserve)
        self.rng.setstate(state)
        return len(pages) <= MAX_PAGES

    def fitted(
        self,
        head: Sequence[str],
        parts: Sequence[Sequence[str]],
        tail: Sequence[str],
        reserve: int = 0,
    ) -> tuple[list[str], int]:
        """`head`, the first of `parts` that fit in `MAX_PAGES` pages (at least one), `tail`;
        and how many parts were kept."""
        n = len(parts)
        while n > 1 and not self.fits(
            [*head, *(p for part in parts[:n] for p in part), *tail], reserve
        ):
            n -= 1
        return [*head, *(p for part in parts[:n] for p in part), *tail], n

    def emit(
        self,
        dataset: str,
        ctx: dict[str, Any],
        paragraphs: list[str],
        kind: str = "",
        footer: Callable[[int, int], str] | None = None,
    ) -> None:
        """Add one document dated `ctx["_date"]`; title, key and fields come from its slots.

        `footer(page, pages)` is furniture printed at the foot of every page (a form's).
        """
        day = ctx["_date"]
        ctx["iso"] = day.isoformat()
        spec = f"{dataset}:{kind}" if kind else dataset
        title = TITLES[spec].format_map(ctx)
        base = key = KEYS.get(spec, KEYS[dataset]).format_map(ctx).replace("/", "-")
        n = 1
        while (dataset, key) in self.keys:
            n += 1
            key = f"{base}-{n}"
        self.keys.add((dataset, key))
        url = f"{HOST}/{dataset}/{key}"
        fields = {name: ctx[slot] for name, slot in FIELD_SLOTS[dataset].items()}
        fields |= {DATE_FIELDS[dataset]: ctx["iso"], "title": title, "url": url}
        paragraphs = [p.replace("..", ".") for p in paragraphs]  # "Inc." ending a sentence
        reserve = words(footer(MAX_PAGES, MAX_PAGES)) if footer else 0
        pages = paginate(self.rng, [f"{MARKER}\n{paragraphs[0]}", *paragraphs[1:]], reserve)
        if footer:
            pages = [f"{page}\n\n{footer(i, len(pages))}" for i, page in enumerate(pages, 1)]
        doc = {"title": title, "date": ctx["iso"], "url": url, "key": key, "fields": fields}
        self.out[dataset].append(doc | {"pages": pages})

    def firm_ctx(self, firm: Firm, day: dt.date) -> dict[str, Any]:
        return {
            "_date": day, "date": long_date(day), "firm": firm.name, "firm_short": firm.short,
            "street": firm.street, "city_line": firm.city_line, "city_short": firm.place,
            "fei": firm.fei, "contact": firm.contact, "contact_title": firm.contact_title,
            "official": self.world.person(), "pm": self.world.person(),
            "product": choice(self.rng, firm.products).name if firm.products else firm.short,
        }  # fmt: skip

    def drug_ctx(self, product: Product, day: dt.date) -> dict[str, Any]:
        """Firm, product and pharmacology slots of a drug or biologic document."""
        rng, info = self.rng, product.info
        cls = CLASSES[info["class"]]
        warnings = sample(rng, cls["warnings"], len(cls["warnings"])) * 3  # type: ignore[arg-type]
        aes = sample(rng, cls["aes"], len(cls["aes"])) * 3  # type: ignore[arg-type]
        pts = sample(rng, cls["pts"], len(cls["pts"])) * 3  # type: ignore[arg-type]
        n_patients = randint(rng, 180, 3200)
        ctx = self.firm_ctx(product.firm, day)
        ctx.update(_product_slots(product))
        ctx.update(
            warning1=warnings[0], warning2=warnings[1], warning3=warnings[2],
            warning1_lower=lowered(warnings[0]), warning2_lower=lowered(warnings[1]),
            risk_lower=lowered(warnings[0]), ae1=aes[0], ae2=aes[1], ae3=aes[2], pt1=pts[0],
            pt2=pts[1], pt3=pts[2], strength=choice(rng, info["strengths"]),
            frequency=choice(rng, FREQUENCIES.get(info["route"], FREQUENCIES["oral"])),
            n_patients=f"{n_patients:,}",
            n_safety=f"{n_patients + randint(rng, 300, 2500):,}",
            study_id=f"{info['code']}-{choice(rng, (301, 302, 303, 201))}",
            sub_date=long_date(before(rng, product.approved, 240, 420)),
            division=CLASS_DIVISIONS.get(info["class"]) or choice(rng, CDER_DIVISIONS),
            shelf=choice(rng, (18, 24, 36)),
            fold=choice(rng, (1.5, 2, 2.6, 3.4, 5)),
            eop2_date=long_date(before(rng, product.approved, 900, 1800)),
            label_date=long_date(before(rng, product.approved, 3, 20)),
            pmr_date=long_date(after(rng, day, 300, 900)),
            pmr_date2=long_date(after(rng, day, 1100, 2200)),
        )  # fmt: skip
        ctx.update(_effect(rng, ctx["endpoint"]))
        return ctx

    def device_ctx(self, product: Product, day: dt.date, number: str) -> dict[str, Any]:
        rng, info = self.rng, product.info
        sens, spec = randint(rng, 84, 97), randint(rng, 80, 96)
        generic = sentence(info["generic"])
        received = before(rng, day, 60, 300)
        if number[:1].isalpha():  # K, DEN and P numbers carry the year the submission was received
            yy = int(number.lstrip("KDENP")[:2])
            received = max(received, dt.date(yy + (1900 if yy > 80 else 2000), 1, 2))
        ctx = self.firm_ctx(product.firm, day)
        ctx.update(
            product=product.name, product_upper=product.name.upper(), number=number,
            generic=info["generic"], generic_lower=generic, a_generic=article(generic),
            code=info["code"], reg=info["reg"], dev_class=info["class"], panel=info["panel"],
            sub_date=long_date(min(received, day)),
            dev_indication=DEV_INDICATIONS[info["category"]], n_patients=randint(rng, 60, 1400),
            sens=sens, spec=spec, sens_lo=sens - randint(rng, 3, 8),
            sens_hi=min(sens + randint(rng, 2, 4), 99), spec_lo=spec - randint(rng, 3, 8),
            spec_hi=min(spec + randint(rng, 2, 4), 99), shelf=choice(rng, (12, 24, 36, 60)),
            software_level=choice(rng, ("basic", "enhanced")),
            sterilization=choice(rng, ("ethylene oxide", "gamma irradiation", "electron beam")),
            sterility="sterile" if info["category"] in STERILE else choice(rng, ("sterile", "non-sterile")),
        )  # fmt: skip
        ctx.update(zip(DEVICE_PROFILE_SLOTS, DEVICE_PROFILES[info["category"]], strict=True))
        return ctx
