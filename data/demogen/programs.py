"""Clinical trial records, guidance documents and user fee program documents."""

from __future__ import annotations

import bisect
import datetime as dt
from typing import Any

from demogen.generator import Generator
from demogen.text import MONTHS, after, choice, long_date, lowered, pick, randint, sample, some
from demogen.vocab.drugs import CLASSES, CONDITIONS, INGREDIENTS
from demogen.vocab.firms import FIRM_PREFIXES, US_CITIES
from demogen.vocab.guidance import (
    GUIDANCE_ADVICE,
    GUIDANCE_BACKGROUND,
    GUIDANCE_GLOSSARY,
    GUIDANCE_IMPLEMENTATION_SECTION,
    GUIDANCE_INTRO,
    GUIDANCE_NONBINDING,
    GUIDANCE_RECOMMENDATIONS,
    GUIDANCE_REFERENCES,
    GUIDANCE_SUBSECTIONS,
    GUIDANCE_TITLE_PAGE,
    SUBMISSION_CONTENT,
)
from demogen.vocab.programs import (
    CENTER_NAMES,
    DRAFT_NOTICE,
    ELIGIBILITY,
    EXCLUSION,
    GUIDANCE_AUDIENCE,
    GUIDANCE_STATUS,
    GUIDANCE_TOPICS,
    INCLUSION,
    LOCATIONS,
    MASKING,
    OFFICIAL_TITLE,
    PHASE_TEXT,
    ROMAN,
    SECONDARY_OUTCOMES,
    STATUS_TEXT,
    TRIAL_DESCRIPTION,
    TRIAL_HEADER,
    TRIAL_LOCATIONS,
    TRIAL_OUTCOMES,
    TRIAL_OUTCOMES_MIX,
    TRIAL_RESULTS,
    UFA_DOC_TYPES,
    UFA_DOCUMENTS,
    UFA_PROGRAMS,
    UFA_WEIGHTS,
)
from demogen.world import FIRST_DAY, LAST_DAY, Product


def trial_phase(gen: Generator, product: Product, start: dt.date) -> str:
    """The phase a trial of `product` starting on `start` is in, given its approval date."""
    years = (product.approved - start).days / 365
    if years <= 0:
        return "phase4" if gen.rng.random() < 0.7 else "phase3"
    if years < 7:
        return "phase3" if years < 2 else "phase2" if years < 4.5 else "phase1"
    return choice(gen.rng, ("early_phase1", "phase1", "na"))


def trials(gen: Generator) -> None:
    """The `fda_clinical_trials` records, of drugs and biologics of the world."""
    rng = gen.rng
    span = (LAST_DAY - FIRST_DAY).days
    brands = [p for p in gen.world.products["drug"] if "rld" not in p.info]
    for _ in range(gen.counts["fda_clinical_trials"]):
        start = gen.day()
        product = choice(rng, brands if rng.random() < 0.75 else gen.world.products["biologic"])
        phase, end = trial_phase(gen, product, start), after(rng, start, 300, 2000)
        if end > LAST_DAY:
            recent = (LAST_DAY - start).days < 500 and rng.random() < 0.7
            status = "recruiting" if recent else "active_not_recruiting"
        else:
            status = pick(rng, TRIAL_OUTCOMES_MIX)
        conditions = [product.info["condition"]]
        others = [c for c in CLASSES[product.info["class"]]["conditions"] if c != conditions[0]]  # type: ignore[attr-defined]
        if others and rng.random() < 0.3:
            conditions.append(choice(rng, others))
        position = int((start - FIRST_DAY).days / span * 6_900_000)
        nct = gen.world.unique(
            lambda position=position: f"NCT{position + randint(rng, 0, 30000):08d}"
        )
        placebo, met = rng.random() < 0.7, rng.random() < 0.75
        masking, control, masking_title = MASKING[placebo]
        ctx = gen.drug_ctx(product, start)
        drug = ctx["named"] if phase == "phase4" else ctx["code"]
        phase_text = PHASE_TEXT[phase]
        ctx.update(
            nct=nct, phase=phase, status=status, conditions=conditions, code=drug,
            phase_text=phase_text, phase_text_lower=phase_text, status_text=STATUS_TEXT[status],
            brief_title=f"A {phase_text} Study of {drug} in Adults With {conditions[0]}",
            official_title=OFFICIAL_TITLE.format(phase=phase_text, masking=masking.title(), control=control.title(), drug=drug, condition=conditions[0]),
            collaborator=choice(rng, ("None", f"{choice(rng, FIRM_PREFIXES)} Clinical Research Organization")),
            conditions_text=", ".join(conditions), masking=masking, control=control, masking_title=masking_title,
            comparator="Placebo" if placebo else f"Active comparator: standard of care ({choice(rng, INGREDIENTS)[0]})",
            enrollment=randint(rng, 300, 4800) if phase == "phase3" else randint(rng, 24, 1200),
            enrollment_type="Actual" if status in ("completed", "terminated") else "Estimated",
            primary_completion=long_date(end), population="adults", condition_lower=lowered(conditions[0]),
            weeks=choice(rng, (12, 24, 26, 52)), dose=ctx["strength"], secondary1=SECONDARY_OUTCOMES[0],
            city_site=choice(rng, US_CITIES)[0], state_site=choice(rng, US_CITIES)[1], city_site2=choice(rng, US_CITIES)[0],
            met="was met" if met else "was not met",
            p_value=choice(rng, ("< 0.001", "= 0.003", "= 0.02", "= 0.04") if met else ("= 0.21", "= 0.38")),
        )  # fmt: skip
        ctx["comparator_lower"] = "placebo" if placebo else "the active comparator"
        ctx["enrollment_actual"] = ctx["enrollment"]
        inclusion = INCLUSION[CONDITIONS[conditions[0]][0]]
        ctx["inclusion"] = "; ".join(sample(rng, inclusion, min(3, len(inclusion))))
        ctx["exclusion"] = "; ".join(sample(rng, EXCLUSION, randint(rng, 3, 6)))
        ctx["locations"] = "; ".join(
            gen.fill_all(sample(rng, TRIAL_LOCATIONS, randint(rng, 1, 5)), ctx)
        )
        paras = [
            TRIAL_HEADER,
            *some(rng, TRIAL_DESCRIPTION, 0.9),
            *TRIAL_OUTCOMES,
            ELIGIBILITY,
        ]
        paras += [LOCATIONS] if rng.random() < 0.6 else []
        if status in ("completed", "terminated", "withdrawn", "suspended"):
            paras.append(TRIAL_RESULTS[status != "completed"])
        gen.emit("fda_clinical_trials", ctx, gen.fill_all(paras, ctx))


def guidance(gen: Generator) -> None:
    """The `fda_guidance` documents, drafts and final guidances."""
    rng = gen.rng
    for _ in range(gen.counts["fda_guidance"]):
        center, title, topic, year, keys = choice(rng, GUIDANCE_TOPICS)
        day = gen.day(max(FIRST_DAY, dt.date(year, 1, 1)))
        status = "draft" if rng.random() < 0.35 else "final"
        docket = gen.world.unique(
            lambda d=day: f"FDA-{d.year - randint(rng, 0, 1)}-D-{randint(rng, 1, 5999):04d}"
        )
        ctx = {
            "_date": day, "title": title, "center": center, "center_long": CENTER_NAMES[center],
            "and_staff": " and Food and Drug Administration Staff" if center in ("CDRH", "OC") else "",
            "status": status, "status_line": GUIDANCE_STATUS[status], "docket": docket,
            "month_year": f"{MONTHS[day.month - 1]} {day.year}", "topic": topic,
            "draft_notice": DRAFT_NOTICE if status == "draft" else "",
            "audience": GUIDANCE_AUDIENCE[center],
            "shown_title": f"{title} (Draft Guidance)" if status == "draft" else title,
        }  # fmt: skip
        ctx.update({f"key{i}": k for i, k in enumerate([*keys, "", "", ""][:4], 1)})
        gen.emit("fda_guidance", ctx, guidance_paragraphs(gen, ctx, center, topic))


def _listed(lead: str, items: tuple[str, ...]) -> str:
    """A lead-in and its list items, one bullet a line."""
    return lead + "".join(f"\n• {item[0].upper()}{item[1:]}." for item in items)


def guidance_paragraphs(gen: Generator, ctx: dict[str, Any], center: str, topic: str) -> list[str]:
    """Title page, introduction and background, then section III: the topic's recommendations
    and general subsections, lettered in order; implementation and references close it."""
    rng = gen.rng
    heading, recommends, lead, items = GUIDANCE_ADVICE[topic]
    submission_lead, submission_items = SUBMISSION_CONTENT[center]
    scope, *general = GUIDANCE_SUBSECTIONS
    subsections = [
        (scope[0], scope[1]),
        (heading, recommends),
        ("", _listed(lead, items)),
        ("Content of Submissions", _listed(submission_lead, submission_items)),
    ]
    extra = [g for g in general if rng.random() < 0.6] or [general[0]]
    letters = iter("ABCDEFGHIJ")
    texts = [f"{next(letters)}. {h}\n{t}" if h else t for h, t in (*subsections, *extra)]
    texts[0] = f"{GUIDANCE_RECOMMENDATIONS}\n{texts[0]}"
    head = [GUIDANCE_TITLE_PAGE, GUIDANCE_NONBINDING, GUIDANCE_INTRO, GUIDANCE_BACKGROUND]
    head += texts[: len(subsections)]
    tail = [GUIDANCE_IMPLEMENTATION_SECTION, GUIDANCE_REFERENCES]
    tail += [GUIDANCE_GLOSSARY] if rng.random() < 0.5 else []
    parts = [[t] for t in texts[len(subsections) :]]
    paras, _ = gen.fitted(gen.fill_all(head, ctx), parts, gen.fill_all(tail, ctx))
    return gen.fill_all(paras, ctx)


def user_fees(gen: Generator) -> None:
    """The `fda_ufa` documents of the user fee programs."""
    rng = gen.rng
    for _ in range(gen.counts["fda_ufa"]):
        program = pick(rng, UFA_WEIGHTS)
        long_name, first_year, years, fees = UFA_PROGRAMS[program]
        day = gen.day(max(FIRST_DAY, dt.date(first_year, 10, 1)))
        base = years[max(bisect.bisect_right(years, day.year), 1) - 1]
        fy, doc_type = day.year + (day.month >= 10), choice(rng, UFA_DOC_TYPES)
        amounts = [round(randint(rng, 4_000, 90_000) * 1.04 ** (fy - 2000)) for _ in fees]
        ctx = {
            "_date": day, "date": long_date(day), "program": program, "program_long": long_name,
            "program_long_upper": long_name.upper(), "roman": ROMAN[years.index(base)],
            "fy": fy, "fy_prev": fy - 1, "fy_start": base + 1, "fy_end": base + 5,
            "next_start": base + 6, "next_end": base + 10, "doc_type": doc_type,
            "goal_pct": 90, "std_months": 10, "pri_months": 6, "median": round(rng.uniform(7.5, 12.5), 1),
            "staff": f"{randint(rng, 300, 4200):,}", "attrition": round(rng.uniform(4, 11), 1),
            "collected": round(rng.uniform(20, 1400), 1), "obligated": round(rng.uniform(20, 1300), 1),
            "carryover": round(rng.uniform(5, 400), 1), "nonfee": round(rng.uniform(50, 900), 1),
            "docket": f"FDA-{day.year}-N-{randint(rng, 1, 5999):04d}", "fee1": fees[0], "fee2": fees[-1],
            "amount1": f"{amounts[0] * 10:,}", "amount2": f"{amounts[-1]:,}",
            "inflation": round(rng.uniform(1.2, 5.8), 2), "capacity": round(rng.uniform(1, 30), 1),
            "target": round(rng.uniform(30, 1500), 1),
        }  # fmt: skip
        gen.emit("fda_ufa", ctx, gen.fill_all(UFA_DOCUMENTS[doc_type], ctx), doc_type)
