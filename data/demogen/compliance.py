"""Inspections: the Form 483s and inspection records, drawn from one list of inspections.

Warning letters (`demogen.warning_letters`) follow some of these inspections and cite the same
findings, quoting the facts the Form 483 recorded.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from demogen.generator import Event, Generator
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
    words,
)
from demogen.vocab.devices import FAILURE_MODES
from demogen.vocab.findings import SCOPED_PRODUCTS, SIGNATURES, Finding, findings_for
from demogen.vocab.firms import DISTRICTS, EST_TYPES, FOREIGN_OFFICE, OFFICES_2017, OII_OFFICE
from demogen.vocab.inspections import (
    CLASSIFICATIONS,
    COMPLIANCE_PROGRAMS,
    F483_ANNOTATIONS,
    F483_FOOTER,
    F483_HEADER,
    F483_LEADS,
    F483_PREAMBLE,
    F483_REPEAT,
    F483_REVERSE,
    INSPECTION_DEFINITIONS,
    INSPECTION_EIR,
    INSPECTION_OUTCOME,
    INSPECTION_SUMMARY,
    INVESTIGATOR_TITLES,
    PROJECT_AREAS,
)
from demogen.world import FIRST_DAY, PRODUCT_TYPES, Firm

# how often each kind of firm is inspected
INSPECTED = {"drug": 45, "device": 30, "biologic": 8, "food": 12, "veterinary": 5}
WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")


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
    """An inspection of a firm of `kind` that ended on `end`, with two to eight findings that
    fit the establishment's type and the date."""
    rng = gen.rng
    firm = gen.world.firm(kind)
    est_type = choice(rng, EST_TYPES[kind])
    pool = findings_for(kind, est_type, end)
    if len(pool) < 2:
        pool = findings_for(kind, est_type, end, scoped=False)
    usual = [f for f in pool if f.topic in SIGNATURES.get(est_type, ()) and rng.random() < 0.75]
    others = [f for f in pool if f not in usual]
    observations = [*usual, *sample(rng, others, len(others))][: randint(rng, 2, 8)]
    end = workday(end)
    start = workday(before(rng, end, 2, 21))
    return Event(firm, start, end, classification, observations, est_type)


def workday(day: dt.date, forward: bool = False) -> dt.date:
    """The nearest weekday: inspections start and close on working days."""
    step = dt.timedelta(days=1 if forward or day < FIRST_DAY + dt.timedelta(days=3) else -1)
    while day.weekday() >= 5:
        day += step
    return day


def event_ctx(gen: Generator, ev: Event, day: dt.date) -> dict[str, Any]:
    ctx = gen.firm_ctx(ev.firm, day)
    est_type = ev.est_type
    if est_type in SCOPED_PRODUCTS:
        ctx["product"] = f"{ev.firm.short.split()[0]} {choice(gen.rng, SCOPED_PRODUCTS[est_type])}"
    elif ev.firm.kind == "device" and ev.firm.products:
        device = choice(gen.rng, ev.firm.products)
        ctx["product"] = device.name
        ctx["failure_mode"] = choice(gen.rng, FAILURE_MODES[device.info["category"]])
    ctx.update(
        start_date=long_date(ev.start), insp_date=long_date(ev.end), est_type=est_type,
        resp_date=long_date(after(gen.rng, ev.end, 10, 15)), classification=ev.classification,
        est_type_lower=sentence(est_type), a_est=article(sentence(est_type)),
    )  # fmt: skip
    if ev.previous:
        ctx["prev_dates"] = f"{numeric(ev.previous.start)} - {numeric(ev.previous.end)}"
    return ctx


def numeric(day: dt.date) -> str:
    """`9/20/2019`, as the Form 483 writes dates."""
    return f"{day.month}/{day.day}/{day.year}"


def link_previous(events: list[Event]) -> None:
    """Give each inspection the same firm's previous one (by date) among `events`."""
    last: dict[str, Event] = {}
    for ev in sorted(events, key=lambda e: (e.end, e.firm.fei)):
        ev.previous = last.get(ev.firm.fei)
        last[ev.firm.fei] = ev


def form_483s(gen: Generator) -> None:
    """The `fda_483` documents; their inspections stay in `gen.events` for later datasets."""
    rng = gen.rng
    for _ in range(gen.counts["fda_483"]):
        cls = "OAI" if rng.random() < 0.3 else "VAI"
        gen.events.append(event(gen, pick(rng, INSPECTED), gen.day(), cls))
    link_previous(gen.events)
    for seq, ev in enumerate(gen.events, 1):
        form_483(gen, ev, seq)


def form_483(gen: Generator, ev: Event, seq: int) -> None:
    rng, world = gen.rng, gen.world
    ctx = event_ctx(gen, ev, ev.end)
    names = [world.person() for _ in range(randint(rng, 1, 3))]
    titles = ["Investigator", *(choice(rng, INVESTIGATOR_TITLES) for _ in names[1:])]
    ctx.update(
        office=office(gen, ev.firm, ev.end, ev.firm.kind), record_id=f"483-{ev.end.year}-{seq:05d}",
        office_phone=f"({randint(rng, 201, 989)}) {randint(rng, 200, 989)}-{randint(rng, 1000, 9999)}",
        start_numeric=numeric(ev.start), end_numeric=numeric(ev.end),
        signatures="; ".join(f"{n}, {t}" for n, t in zip(names, titles, strict=True)),
        we="WE" if len(names) > 1 else choice(rng, ("I", "(I) (WE)")),
    )  # fmt: skip
    repeated = {f.topic for f in ev.previous.observations} if ev.previous else set()
    parts = [
        observation(gen, ctx, ev, k, f, f.topic in repeated)
        for k, f in enumerate(ev.observations, 1)
    ]
    head = [gen.fill(F483_HEADER, ctx), gen.fill(F483_PREAMBLE, ctx)]
    tail = [inspection_days(gen, ev), F483_REVERSE]
    footer = gen.fill(
        F483_FOOTER.replace("{page}", "{{page}}").replace("{pages}", "{{pages}}"), ctx
    )
    paras, kept = gen.fitted(head, parts, tail, words(footer))
    ev.observations = ev.observations[:kept]
    gen.emit("fda_483", ctx, paras, footer=lambda i, n: footer.format(page=i, pages=n))


def observation(
    gen: Generator, ctx: dict[str, Any], ev: Event, k: int, finding: Finding, repeat: bool
) -> list[str]:
    """Observation `k` of a Form 483: its statement, then "Specifically," with facts or items."""
    rng = gen.rng
    ctx["obs_date"] = long_date(after(rng, ev.start, 0, (ev.end - ev.start).days))
    lettered = len(finding.facts) >= 3 and rng.random() < 0.4
    count = randint(rng, 2, 3) if lettered else randint(rng, 1, 2)
    facts = gen.fill_all(sample(rng, finding.facts, count), ctx)
    ev.facts[finding.topic] = facts
    if lettered:
        items = "\n".join(f"{ID_LETTERS[i]}. {fact}" for i, fact in enumerate(facts))
        details = f"{choice(rng, F483_LEADS)}\n{items}"
    else:
        details = "Specifically, " + sentence(" ".join(facts))
    notes = [gen.fill(F483_REPEAT, ctx)] if repeat else []
    if rng.random() < 0.3:
        notes.append(gen.fill(choice(rng, F483_ANNOTATIONS), ctx))
    return [f"OBSERVATION {k}\n{finding.observation}", "\n".join([details, *notes])]


def inspection_days(gen: Generator, ev: Event) -> str:
    """The starred footnote of the dates the investigators were on site (working days)."""
    span = (ev.end - ev.start).days
    days = [ev.start + dt.timedelta(days=i) for i in range(span + 1)]
    days = [d for d in days if d.weekday() < 5] or [ev.end]
    chosen = sorted({ev.start, ev.end, *sample(gen.rng, days, min(len(days), 6))})
    listed = ", ".join(
        f"{d.month:02d}/{d.day:02d}/{d.year}({WEEKDAYS[d.weekday()]})" for d in chosen
    )
    return f"*DATES OF INSPECTION\n{listed}"


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
    topics = [f.topic for f in ev.observations]
    ctx.update(
        product_type=PRODUCT_TYPES[firm.kind].title(), n_obs=len(ev.observations),
        project_area=choice(rng, PROJECT_AREAS[firm.kind]), fy=ev.end.year + (ev.end.month >= 10),
        classification_long=CLASSIFICATIONS[ev.classification],
        posted=long_date(after(rng, ev.end, 30, 120)),
        prev_date=long_date(ev.previous.end if ev.previous else before(rng, ev.end, 700, 1600)),
        topics=", ".join(topics[:-1]) + f" and {topics[-1]}" if len(topics) > 1 else topics[0],
    )  # fmt: skip
    if ev.previous:
        ctx["prev_class"] = ev.previous.classification
    paras = [
        INSPECTION_SUMMARY,
        INSPECTION_DEFINITIONS,
        *some(rng, INSPECTION_EIR, 0.75),
    ]
    paras.append(choice(rng, INSPECTION_OUTCOME[ev.classification]))
    gen.emit("fda_inspections", ctx, gen.fill_all(paras, ctx))
