"""Complete response letters (`fda_crl`): numbered deficiencies under their review disciplines,
then the standard sections; some cite a facility whose inspection was OAI."""

from __future__ import annotations

from typing import Any

from demogen.generator import Event, Generator
from demogen.text import after, before, choice, long_date, randint, sample
from demogen.vocab.crl import (
    CRL_APPLICATIONS,
    CRL_DECISION,
    CRL_DEFICIENCIES,
    CRL_LETTERHEAD,
    CRL_OPENINGS,
    CRL_OPTIONAL,
    CRL_OTHER,
    CRL_PRESCRIBING,
    CRL_SAFETY_UPDATE,
    CRL_SIGNATURE,
    RECOMMENDATION_LEADS,
    SECTION_ORDER,
)
from demogen.world import FIRST_DAY, LAST_DAY, Product


def complete_responses(gen: Generator) -> None:
    """The `fda_crl` letters; some cite a facility whose inspection was OAI."""
    rng = gen.rng
    sites = [ev for ev in gen.events if ev.firm.kind == "drug" and ev.classification == "OAI"]
    for _ in range(gen.counts["fda_crl"]):
        product = choice(rng, gen.world.products["drug" if rng.random() < 0.8 else "biologic"])
        letter = before(rng, product.approved, 120, 900)
        supplemental = letter < FIRST_DAY  # then it answers a later supplement
        letter = gen.later(product) if supplemental else min(letter, LAST_DAY)
        site = choice(rng, [ev for ev in sites if ev.end < letter] or [None])
        ctx = letter_ctx(gen, product, letter, supplemental, site)
        prefix = product.number.rstrip("0123456789")
        parts = deficiencies(gen, ctx, prefix, site is not None)
        head = gen.fill_all([CRL_LETTERHEAD, ctx.pop("_opening"), CRL_DECISION], ctx)
        tail = [] if prefix == "ANDA" else [*CRL_PRESCRIBING, *CRL_SAFETY_UPDATE]
        tail[2:2] = [t for t in CRL_OPTIONAL if rng.random() < 0.4 and prefix != "ANDA"]
        tail += [*CRL_OTHER, CRL_SIGNATURE]
        paras, _ = gen.fitted(head, parts, gen.fill_all(tail, ctx))
        gen.emit("fda_crl", ctx, paras)


def letter_ctx(
    gen: Generator, product: Product, letter: Any, supplemental: bool, site: Event | None
) -> dict[str, Any]:
    """The letter's slots: the application, its dates, and the facility it names."""
    rng = gen.rng
    long_name, statute, supplement = CRL_APPLICATIONS[product.number.rstrip("0123456789")]
    resubmission = not supplemental and rng.random() < 0.3
    submitted = before(rng, letter, 600, 1000) if resubmission else before(rng, letter, 300, 420)
    facility = site.firm if site else product.firm
    ctx = gen.drug_ctx(product, letter)
    ctx.update(
        app_long=supplement if supplemental else long_name, statute=statute,
        sub_date=long_date(submitted), rcv_date=long_date(after(rng, submitted, 0, 3)),
        prior_crl=long_date(after(rng, submitted, 300, 365)),
        amend_date=long_date(before(rng, letter, 150, 190)),
        facility=facility.name, facility_fei=facility.fei,
        p_fail=choice(rng, ("0.08", "0.12", "0.21", "0.34", "0.47")),
        ci_cmax=choice(rng, ("76.42% to 98.15%", "84.10% to 131.56%", "71.88% to 92.30%")),
        f2=choice(rng, ("38 and 44", "41 and 47", "35 and 49")),
        limit=choice(rng, ("0.3", "0.5", "0.8")), ai=choice(rng, ("26.5", "96", "400", "1500")),
        ingredient_short=product.info["ingredient"].split()[0],
        excipient=choice(rng, ("magnesium stearate", "talc", "iron oxide colorants", "microcrystalline cellulose")),
        n_months=choice(rng, (3, 6, 9)), label_date=long_date(before(rng, letter, 40, 200)),
    )  # fmt: skip
    ctx["_opening"] = CRL_OPENINGS["resubmission" if resubmission else "first"]
    generic = product.number.startswith("ANDA")
    ctx["signing_office"] = (
        "Office of Regulatory Operations\nOffice of Generic Drugs"
        if generic
        else f"{ctx['division']}\nOffice of New Drugs"
    )
    return ctx


def deficiencies(
    gen: Generator, ctx: dict[str, Any], prefix: str, inspected: bool
) -> list[list[str]]:
    """Numbered deficiencies, each with a recommendation, under their section headings."""
    rng, year = gen.rng, ctx["_date"].year
    pool = [
        d
        for d in CRL_DEFICIENCIES
        if prefix in d[1] and d[2] <= year and d[0] != "FACILITY INSPECTIONS"
    ]
    chosen = sample(rng, pool, randint(rng, 1, 3))
    # once FDA asked for them, nitrosamine risk assessments were a frequent product quality issue
    nitrosamines = next(d for d in pool if "nitrosamine" in d[3]) if year >= 2019 else None
    if nitrosamines and nitrosamines not in chosen and rng.random() < 0.4:
        chosen.append(nitrosamines)
    if inspected or rng.random() < 0.25:
        facilities = [d for d in CRL_DEFICIENCIES if d[0] == "FACILITY INSPECTIONS"]
        chosen.append(facilities[0] if inspected else choice(rng, facilities))
    chosen.sort(key=lambda d: SECTION_ORDER.index(d[0]))
    parts = []
    for k, (section, _, _, text, recommendations) in enumerate(chosen, 1):
        first = k == 1 or chosen[k - 2][0] != section
        heading = f"{section}\n" if first else ""
        advice = (
            f"{choice(rng, RECOMMENDATION_LEADS)} {gen.fill(choice(rng, recommendations), ctx)}"
        )
        parts.append([f"{heading}{k}. {gen.fill(text, ctx)}", advice])
    return parts
