"""Adverse event reports: MAUDE device reports and FAERS case reports."""

from __future__ import annotations

from typing import Any

from demogen.generator import Generator
from demogen.text import (
    ID_LETTERS,
    after,
    article,
    before,
    choice,
    long_date,
    pick,
    randint,
    sample,
    sentence,
    some,
)
from demogen.vocab.adverse_events import (
    CONCOMITANTS,
    COUNTRY_CODES,
    FAERS_COUNTRIES,
    FAERS_CRITERIA,
    FAERS_GENERIC_PTS,
    FAERS_HEADER,
    FAERS_HISTORY,
    FAERS_OUTCOMES,
    FAERS_REPORTERS,
    FAERS_SECTIONS,
    FAERS_TREATMENT,
    MAUDE_ACTIONS,
    MAUDE_DEVICE_INFO,
    MAUDE_EVALUATIONS,
    MAUDE_FOLLOWUP,
    MAUDE_HEADER,
    MAUDE_METHODS,
    MAUDE_MORE,
    MAUDE_OUTCOME,
    MAUDE_PATIENT,
    MAUDE_PROBLEMS,
    MAUDE_ROOT_CAUSES,
    MAUDE_UNDETERMINED,
)
from demogen.vocab.drugs import CLASSES
from demogen.world import FIRST_DAY, LAST_DAY


def maude(gen: Generator) -> None:
    """The `fda_maude` reports, each about a device marketed on its date."""
    rng = gen.rng
    for _ in range(gen.counts["fda_maude"]):
        day = gen.day()
        product = gen.world.product_before("device", day)
        event_type = pick(rng, {"malfunction": 55, "injury": 33, "death": 5, "other": 7})
        problems = MAUDE_PROBLEMS[product.info["category"]]
        index = randint(rng, 0, len(problems) - 1)
        problem, description = problems[index]
        fei = product.firm.fei
        number = gen.world.unique(
            lambda fei=fei, d=day: f"{fei}-{d.year}-{randint(rng, 1, 99999):05d}"
        )
        ctx = gen.device_ctx(product, day, number)
        event_day = before(rng, day, 4, 60)
        patient = choice(rng, MAUDE_PATIENT[event_type])
        ctx.update(
            report_number=number, event_type=event_type, event_label=event_type.title(),
            problem=problem, event_date=long_date(event_day),
            mfr_date=long_date(after(rng, event_day, 1, (day - event_day).days - 1)),
            patient_problem=patient, patient_problem_lower=patient.lower(),
            model=f"{choice(rng, ID_LETTERS)}{randint(rng, 100, 9999)}",
            catalog=f"{randint(rng, 10, 99)}-{randint(rng, 1000, 9999)}",
            lot=f"{choice(rng, ID_LETTERS)}{randint(rng, 10000, 99999)}",
        )  # fmt: skip
        event = f"Event Description:\nIt was reported that {gen.fill(description, ctx)}. "
        event += gen.fill(choice(rng, MAUDE_OUTCOME[event_type]), ctx)
        narrative = manufacturer_narrative(gen, ctx, product.info["category"], index)
        info, evaluated = (
            t if rng.random() < 0.7 else "" for t in (MAUDE_DEVICE_INFO, MAUDE_MORE[1])
        )
        paras = [p for p in (MAUDE_HEADER, event, info, narrative, evaluated) if p]
        gen.emit("fda_maude", ctx, gen.fill_all(paras, ctx))


def manufacturer_narrative(gen: Generator, ctx: dict[str, Any], category: str, index: int) -> str:
    """The manufacturer's narrative: its evaluation, the root cause and the corrective action."""
    rng = gen.rng
    problem = MAUDE_PROBLEMS[category][index][0]
    status = pick(rng, {"confirmed": 45, "not confirmed": 25, "not returned": 30})
    ctx.update(
        method_cap=sentence_case(choice(rng, MAUDE_METHODS)), problem_lower=problem.lower(),
        n_similar=choice(rng, ("no", "no", "one", "two")),
        available="No" if status == "not returned" else "Returned to manufacturer",
        remedial=choice(rng, ("recall", "labeling change", "notification")) if status == "confirmed" else "none",
    )  # fmt: skip
    lines = [f"Evaluation: {gen.fill(MAUDE_EVALUATIONS[status], ctx)}"]
    if status == "confirmed":
        cause = gen.fill(MAUDE_ROOT_CAUSES[category][index], ctx)
        lines.append(
            f"Root cause: The investigation determined that the event was caused by {cause}."
        )
    else:
        lines.append(f"Root cause: {choice(rng, MAUDE_UNDETERMINED[status == 'not returned' :])}")
    actions = MAUDE_ACTIONS["confirmed" if status == "confirmed" else "other"]
    lines.append(f"Corrective action: {gen.fill(choice(rng, actions), ctx)}")
    if status == "not returned" and rng.random() < 0.5:
        lines.append(choice(rng, MAUDE_FOLLOWUP[2:3]))
    return "Manufacturer Narrative:\n" + "\n".join(lines)


def sentence_case(text: str) -> str:
    return text[:1].upper() + text[1:]


def faers(gen: Generator) -> None:
    """The `fda_faers` case reports, each about a drug or biologic marketed on its date."""
    rng = gen.rng
    for _ in range(gen.counts["fda_faers"]):
        day = gen.day()
        product = gen.world.product_before("drug" if rng.random() < 0.8 else "biologic", day)
        reactions = [choice(rng, CLASSES[product.info["class"]]["pts"])]  # type: ignore[arg-type]
        reactions += [
            r for r in sample(rng, FAERS_GENERIC_PTS, randint(rng, 0, 2)) if r not in reactions
        ]
        serious = rng.random() < 0.62
        criteria = choice(rng, FAERS_CRITERIA) if serious else "Non-serious"
        outcome = "Fatal" if criteria == "Death" else choice(rng, FAERS_OUTCOMES[:4])
        days = (day - FIRST_DAY).days
        report_id = gen.world.unique(
            lambda days=days: str(10_000_000 + days * 2000 + randint(rng, 0, 1999))
        )
        sex, reporter = choice(rng, ("female", "male")), choice(rng, FAERS_REPORTERS)
        country = choice(rng, FAERS_COUNTRIES)
        history, age = sample(rng, FAERS_HISTORY, 2), randint(rng, 19, 88)
        mcn = f"{product.firm.short.split()[0].upper()}-{day.year}{randint(rng, 10000, 99999)}"
        ctx = gen.drug_ctx(product, day)
        ctx.update(
            report_id=report_id, serious=serious, serious_text="Yes" if serious else "No",
            criteria=criteria, reporter=reporter, reporter_lower=reporter.lower(), age=age,
            a_age=article(age), sex=sex.title(), sex_word=sex, reactions=", ".join(reactions),
            reaction_lower=sentence(reactions[0]), reaction_upper=reactions[0],
            dose=f"{ctx['strength']} {ctx['frequency']}", outcome=outcome,
            outcome_lower=outcome.lower(), history=history[0], history2=history[1],
            concomitants=", ".join(sample(rng, CONCOMITANTS, randint(rng, 1, 3))),
            country=country, mcn=f"{COUNTRY_CODES[country]}-{mcn}",
            start=long_date(before(rng, day, 20, 400)),
            followup=long_date(min(after(rng, day, 10, 90), LAST_DAY)),
        )  # fmt: skip
        ctx["treatment_sentence"] = gen.fill(choice(rng, FAERS_TREATMENT), ctx)
        paras = [FAERS_HEADER, *some(rng, FAERS_SECTIONS, 0.75)]
        gen.emit("fda_faers", ctx, gen.fill_all(paras, ctx))
