"""Form 483s, inspection records and warning letters, drawn from one list of inspections."""

from __future__ import annotations

import datetime as dt
from typing import Any

from demogen.generator import Event, Generator
from demogen.text import (
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
from demogen.vocab.firms import (
    DISTRICTS,
    EST_TYPES,
    FIRM_PREFIXES,
    FOREIGN_OFFICE,
    OFFICES_2017,
    OFFICIAL_TITLES,
    OII_OFFICE,
    US_CITIES,
)
from demogen.vocab.inspections import (
    CLASSIFICATIONS,
    COMPLIANCE_PROGRAMS,
    F483_ANNOTATIONS,
    F483_CLOSING,
    F483_HEADER,
    F483_PREAMBLE,
    INSPECTION_DEFINITIONS,
    INSPECTION_EIR,
    INSPECTION_OUTCOME,
    INSPECTION_SUMMARY,
    OBSERVATIONS,
    PROJECT_AREAS,
)
from demogen.vocab.letters import (
    ONLINE_PRODUCTS,
    PROTOCOL_TITLES,
    WL_HEADER,
    WL_RESPONSE,
    WL_TYPES,
)
from demogen.world import FIRST_DAY, LAST_DAY, PRODUCT_TYPES, Firm

# how often each kind of firm is inspected, and gets each type of warning letter
INSPECTED = {"drug": 45, "device": 30, "biologic": 8, "food": 12, "veterinary": 5}
LETTERS = {"drug": 20, "device": 14, "food": 12, "biologic": 4, "veterinary": 3}
LETTERS |= {"online": 10, "tobacco": 12, "bimo": 6, "records": 8}
TOBACCO_LETTERS = dt.date(2016, 8, 8)  # FDA's rule deeming e-cigarettes tobacco products


def office(gen: Generator, firm: Firm, day: dt.date, kind: str) -> str:
    """The FDA office that inspected or wrote: districts before 2017, then program divisions."""
    if firm.country != "United States" and kind == "drug":
        return FOREIGN_OFFICE
    if day.year < 2017 and firm.state in DISTRICTS and kind not in ("tobacco", "bimo"):
        return DISTRICTS[firm.state]
    if day >= dt.date(2024, 10, 1) and gen.rng.random() < 0.4:
        return OII_OFFICE
    return choice(gen.rng, OFFICES_2017[kind])


def event(gen: Generator, kind: str, end: dt.date, classification: str) -> Event:
    rng, pool = gen.rng, OBSERVATIONS[kind]
    observations = sorted(sample(rng, pool, min(len(pool), randint(rng, 3, 9))), key=pool.index)
    start = before(rng, end, 2, 21)
    return Event(gen.world.firm(kind), start, end, classification, observations)


def event_ctx(gen: Generator, ev: Event, day: dt.date) -> dict[str, Any]:
    ctx = gen.firm_ctx(ev.firm, day)
    est_type = choice(gen.rng, EST_TYPES.get(ev.firm.kind, ("Establishment",)))
    ctx.update(
        start_date=long_date(ev.start), insp_date=long_date(ev.end), est_type=est_type,
        resp_date=long_date(after(gen.rng, ev.end, 10, 15)), classification=ev.classification,
        est_type_lower=sentence(est_type), a_est=article(sentence(est_type)),
    )  # fmt: skip
    return ctx


def form_483s(gen: Generator) -> None:
    """The `fda_483` documents; their inspections stay in `gen.events` for later datasets."""
    rng, world = gen.rng, gen.world
    for _ in range(gen.counts["fda_483"]):
        cls = "OAI" if rng.random() < 0.3 else "VAI"
        gen.events.append(event(gen, pick(rng, INSPECTED), gen.day(), cls))
    for seq, ev in enumerate(gen.events, 1):
        ctx = event_ctx(gen, ev, ev.end)
        ctx.update(office=office(gen, ev.firm, ev.end, ev.firm.kind), investigator=world.person())
        ctx.update(investigator2=world.person(), record_id=f"483-{ev.end.year}-{seq:05d}")
        paras = [gen.fill(F483_HEADER, ctx), F483_PREAMBLE]
        for k, (cfr, statement, _, details, _) in enumerate(ev.observations, 1):
            chosen = sample(rng, details, min(len(details), randint(rng, 1, 3)))
            found = sentence(" ".join(gen.fill_all(chosen, ctx)))
            text = f"OBSERVATION {k} ({cfr})\n{statement}\nSpecifically, {found}"
            if rng.random() < 0.5:
                text += "\n" + gen.fill(choice(rng, F483_ANNOTATIONS), ctx)
            paras.append(text)
        paras.append(gen.fill(F483_CLOSING, ctx))
        gen.emit("fda_483", ctx, paras)


def inspections(gen: Generator) -> None:
    """The `fda_inspections` records: most close an inspection that had a Form 483."""
    rng = gen.rng
    n = gen.counts["fda_inspections"]
    linked = gen.events[: min(len(gen.events), round(n * 0.6))]
    for ev in linked:
        inspection(gen, ev)
    for _ in range(n - len(linked)):
        cls = "VAI" if rng.random() < 0.15 else "NAI"
        inspection(gen, event(gen, pick(rng, INSPECTED), gen.day(), cls))


def inspection(gen: Generator, ev: Event) -> None:
    rng, firm = gen.rng, ev.firm
    ctx = event_ctx(gen, ev, ev.end)
    ctx["cp"], ctx["cp_name"] = COMPLIANCE_PROGRAMS[firm.kind]
    ctx.update(
        product_type=PRODUCT_TYPES[firm.kind].title(), n_obs=len(ev.observations),
        project_area=choice(rng, PROJECT_AREAS[firm.kind]), fy=ev.end.year + (ev.end.month >= 10),
        classification_long=CLASSIFICATIONS[ev.classification],
        posted=long_date(after(rng, ev.end, 30, 120)),
        prev_date=long_date(before(rng, ev.end, 700, 1600)),
        topics=", ".join(o[0] for o in ev.observations),
    )  # fmt: skip
    paras = [
        INSPECTION_SUMMARY,
        INSPECTION_DEFINITIONS,
        *some(rng, INSPECTION_EIR, 0.75),
    ]
    paras.append(choice(rng, INSPECTION_OUTCOME[ev.classification]))
    gen.emit("fda_inspections", ctx, gen.fill_all(paras, ctx))


def warning_letters(gen: Generator) -> None:
    """The `fda_warning_letters`: up to half follow an OAI inspection, the rest other types."""
    rng, world = gen.rng, gen.world
    n = gen.counts["fda_warning_letters"]
    made = 0
    for ev in gen.events:
        letter = after(rng, ev.end, 60, 240)
        if ev.classification == "OAI" and letter <= LAST_DAY and made < n * 0.5:
            warning_letter(gen, ev.firm.kind, ev, letter)
            made += 1
    foreign = [f for f in world.firms["drug"] if f.country != "United States"]
    for _ in range(n - made):
        letter_type = pick(rng, LETTERS)
        letter = gen.day(TOBACCO_LETTERS if letter_type == "tobacco" else FIRST_DAY)
        kind = str(WL_TYPES[letter_type]["kind"] or "drug")
        ev = event(gen, kind, before(rng, letter, 60, 240), "OAI")
        if letter_type == "records":
            ev.firm = choice(rng, foreign or world.firms["drug"])
        elif letter_type == "tobacco":
            ev.firm = world.firm("tobacco")
        elif letter_type in ("online", "bimo"):
            ev.firm = letter_firm(gen, letter_type)
        warning_letter(gen, letter_type, ev, letter)


def letter_firm(gen: Generator, letter_type: str) -> Firm:
    """The addressee of a letter that follows no inspection of a firm in the world."""
    rng, world = gen.rng, gen.world
    city, state, zip_code = choice(rng, US_CITIES)
    prefix = choice(rng, FIRM_PREFIXES)
    if letter_type == "online":
        name, contact, title = f"{prefix} Wellness LLC", world.person(), "Owner"
    else:
        name = contact = f"{world.person()}, M.D."
        title = "Clinical Investigator"
    return Firm(
        name, f"{prefix} Wellness", "drug", world.street(), f"{city}, {state} {zip_code}",
        f"{city}, {state}", "United States", state, world.fei(), contact, title,
    )  # fmt: skip


def warning_letter(gen: Generator, letter_type: str, ev: Event, letter: dt.date) -> None:
    rng, firm = gen.rng, ev.firm
    spec = WL_TYPES[letter_type]
    if letter.year >= 2017:
        ref_id = gen.world.unique(lambda: str(randint(rng, 500000, 720000)))
        ref = f"MARCS-CMS {ref_id}"
    else:
        district = choice(rng, ("CIN", "NYK", "NWJ", "ATL", "DAL", "LOS", "SEA"))
        ref = ref_id = f"{district}-{letter.year % 100:02d}-{randint(rng, 1, 60):02d}"
    office_kind = {"online": "drug", "records": "drug"}.get(letter_type, letter_type)
    ctx = event_ctx(gen, ev, letter)
    ctx.update(
        ref=ref, ref_id=ref_id, subject=choice(rng, spec["subjects"]),  # type: ignore[arg-type]
        office=office(gen, firm, letter, office_kind),
        posted_iso=min(after(rng, letter, 7, 60), LAST_DAY).isoformat(),
        domain=firm.short.split()[0].lower() + ("vapor" if letter_type == "tobacco" else "health"),
    )  # fmt: skip
    if firm.kind == "device" and firm.products:
        ctx["generic"] = sentence(choice(rng, firm.products).info["generic"])
    if letter_type == "online":
        ctx["product"] = choice(rng, ONLINE_PRODUCTS)
    elif letter_type == "bimo":
        code = choice(rng, gen.world.products["drug"]).info["code"]
        ctx.update(product=code, protocol=f"{code}-{randint(rng, 101, 399)}")
        ctx["protocol_title"] = gen.fill(choice(rng, PROTOCOL_TITLES), ctx)
    paras = gen.fill_all([WL_HEADER, str(spec["opening"])], ctx)
    if spec["kind"]:
        for k, (cfr, _, violation, details, request) in enumerate(ev.observations[:5], 1):
            example = sentence(gen.fill(choice(rng, details), ctx))
            paras.append(f"{k}. {violation} ({cfr}).\n\nFor example, {example}")
            paras.append(f"{gen.fill(WL_RESPONSE, ctx)} {gen.fill(request, ctx)}.")
    else:
        paras += gen.fill_all(some(rng, spec["body"], 0.8), ctx)  # type: ignore[arg-type]
    paras += gen.fill_all(some(rng, spec["closing"], 0.8), ctx)  # type: ignore[arg-type]
    signer = f"{ctx['official']}\n{choice(rng, OFFICIAL_TITLES)}\n{ctx['office']}"
    gen.emit("fda_warning_letters", ctx, [*paras, f"Sincerely,\n/S/\n{signer}"])
