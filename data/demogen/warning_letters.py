"""Warning letters: up to half follow an OAI inspection and cite its findings, the rest are
letters of other types (online pharmacies, tobacco, clinical investigators, records requests)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from demogen.compliance import event, event_ctx, office
from demogen.generator import Event, Generator
from demogen.text import after, before, choice, long_date, pick, randint, sample, sentence, some
from demogen.vocab.findings import SECTION_ORDER, Finding
from demogen.vocab.firms import FIRM_PREFIXES, OFFICIAL_TITLES, US_CITIES
from demogen.vocab.letters import (
    DATA_INTEGRITY_REMEDIATION,
    DEVICE_SUBJECTS,
    FIRM_DID,
    LISTERIA_SUBJECT,
    ONLINE_PRODUCTS,
    PRODUCT_LINES,
    PROTOCOL_TITLES,
    REPEAT_VIOLATIONS,
    REQUEST_LEADS,
    RESPONSES,
    SECTION_INTROS,
    SUBJECTS_BY_ESTABLISHMENT,
    WL_CONTACT,
    WL_INADEQUATE,
    WL_LETTERHEAD,
    WL_LETTERHEAD_DISTRICT,
    WL_TYPES,
)
from demogen.world import FIRST_DAY, LAST_DAY, Firm

# how often each type of warning letter is written (besides those after an OAI inspection)
LETTERS = {"drug": 20, "device": 14, "food": 12, "biologic": 4, "veterinary": 3}
LETTERS |= {"online": 10, "tobacco": 12, "bimo": 6, "records": 8}
TOBACCO_LETTERS = dt.date(2016, 8, 8)  # FDA's rule deeming e-cigarettes tobacco products
# kinds whose letters cite "(21 CFR 211.192)"; the others "as required by 21 CFR 820.100(a)"
PARENTHESIZED = ("drug", "biologic")
DISTRICT_CODES = {
    "New Jersey": "NWJ", "New York": "NYK", "New England": "NWE", "New Orleans": "NOL",
    "San Juan": "SJN", "Kansas City": "KAN", "Los Angeles": "LOS",
}  # fmt: skip


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


def letter_ctx(gen: Generator, letter_type: str, ev: Event, letter: dt.date) -> dict[str, Any]:
    rng, firm = gen.rng, ev.firm
    spec = WL_TYPES[letter_type]
    if letter.year >= 2017:
        ref_id = gen.world.unique(lambda: str(randint(rng, 500000, 720000)))
        ref = f"MARCS-CMS {ref_id}"
    else:
        ref = ref_id = ""
    office_kind = {"online": "drug", "records": "drug"}.get(letter_type, letter_type)
    issuer = office(gen, firm, letter, office_kind)
    if not ref:  # district letters are numbered by district: DET-12-07
        place = issuer.removesuffix(" District Office")
        district = DISTRICT_CODES.get(place, place[:3].upper()) if place != issuer else "CDR"
        ref = ref_id = f"{district}-{letter.year % 100:02d}-{randint(rng, 1, 60):02d}"
    ctx = event_ctx(gen, ev, letter)
    ctx.update(
        ref=ref, ref_id=ref_id, subject=choice(rng, spec["subjects"]),  # type: ignore[arg-type]
        office=issuer, date_upper=long_date(letter).upper(),
        posted_iso=min(after(rng, letter, 7, 60), LAST_DAY).isoformat(),
        domain=firm.short.split()[0].lower() + ("vapor" if letter_type == "tobacco" else "health"),
        product_line=PRODUCT_LINES[letter_type], generic="medical",
    )  # fmt: skip
    if firm.kind == "device" and firm.products:
        ctx["generic"] = sentence(choice(rng, firm.products).info["generic"])
    if letter_type == "online":
        ctx["product"] = choice(rng, ONLINE_PRODUCTS)
    elif letter_type == "bimo":
        code = choice(rng, gen.world.products["drug"]).info["code"]
        ctx.update(product=code, protocol=f"{code}-{randint(rng, 101, 399)}")
        ctx["protocol_title"] = gen.fill(choice(rng, PROTOCOL_TITLES), ctx)
    return ctx


def warning_letter(gen: Generator, letter_type: str, ev: Event, letter: dt.date) -> None:
    rng = gen.rng
    spec = WL_TYPES[letter_type]
    ctx = letter_ctx(gen, letter_type, ev, letter)
    letterhead = WL_LETTERHEAD if letter.year >= 2017 else WL_LETTERHEAD_DISTRICT
    head = gen.fill_all([letterhead, str(spec["opening"])], ctx)
    kind = spec["kind"]
    closing = gen.fill_all(some(rng, spec["closing"], 0.8), ctx)  # type: ignore[arg-type]
    closing.append(gen.fill(choice(rng, WL_CONTACT), ctx))
    signer = f"{ctx['official']}\n{choice(rng, OFFICIAL_TITLES)}\n{ctx['office']}"
    closing.append(f"Sincerely,\n/S/\n{signer}")
    if not kind:
        body = gen.fill_all(some(rng, spec["body"], 0.8), ctx)  # type: ignore[arg-type]
        if letter_type == "bimo":  # numbered violations, each with its specifics
            body = [f"{k}. {p}" for k, p in enumerate(body, 1)]
        gen.emit("fda_warning_letters", ctx, [*head, *body, *closing])
        return
    cited = ev.observations[: randint(rng, 2, 5)]
    found = violations(gen, ctx, str(kind), ev, cited)
    for n in range(len(found), 0, -1):  # as many violations as fit on the letter's pages
        tail = [*remediation(gen, ctx, str(kind), ev, [f for f, _ in found[:n]]), *closing]
        paras = [*head, *(p for _, part in found[:n] for p in part), *tail]
        if gen.fits(paras):
            break
    ctx["subject"] = subject(letter_type, ev, [f for f, _ in found[:n]]) or ctx["subject"]
    gen.emit("fda_warning_letters", ctx, paras)


def subject(letter_type: str, ev: Event, cited: list[Finding]) -> str | None:
    """The subject that fits the letter's establishment and the sections it cites, if any."""
    if letter_type == "device":
        sections = {f.section for f in cited}
        qsr, mdr = (
            f"{name} Violations" in sections
            for name in ("Quality System Regulation", "Medical Device Reporting")
        )
        return DEVICE_SUBJECTS[(qsr, mdr)]
    if letter_type == "records":
        return None
    if letter_type == "food" and any("Listeria" in f.topic for f in cited):
        return LISTERIA_SUBJECT
    return SUBJECTS_BY_ESTABLISHMENT.get(ev.est_type)


def remediation(
    gen: Generator, ctx: dict[str, Any], kind: str, ev: Event, cited: list[Finding]
) -> list[str]:
    """The sections a drug letter adds after its violations: data integrity, repeat findings."""
    if kind != "drug":
        return []
    out = [DATA_INTEGRITY_REMEDIATION] if any("data integrity" in f.topic for f in cited) else []
    if ev.previous and {f.topic for f in ev.previous.observations} & {f.topic for f in cited}:
        out.append(gen.fill(REPEAT_VIOLATIONS, ctx))
    return out


def violations(
    gen: Generator, ctx: dict[str, Any], kind: str, ev: Event, cited: list[Finding]
) -> list[tuple[Finding, list[str]]]:
    """The letter's numbered violations in section order, the first of each section headed."""
    out: list[tuple[Finding, list[str]]] = []
    for section in SECTION_ORDER[kind]:
        in_section = [f for f in cited if f.section == section]
        for i, finding in enumerate(in_section):
            paras = violation(gen, ctx, kind, ev, len(out) + 1, finding)
            if i == 0:
                intro = SECTION_INTROS.get((kind, section)) or SECTION_INTROS[section]
                paras.insert(0, f"{section}\n{gen.fill(intro, ctx)}")
            out.append((finding, paras))
    return out


def violation(
    gen: Generator, ctx: dict[str, Any], kind: str, ev: Event, k: int, finding: Finding
) -> list[str]:
    """Violation `k`: the citation, the facts, why it matters, the response and the requests."""
    rng = gen.rng
    if kind in PARENTHESIZED:
        cited = f"{k}. {finding.violation} ({finding.cfr})."
    else:
        cited = f"{k}. {finding.violation}, as required by {finding.cfr}."
    ctx["obs_date"] = long_date(after(rng, ev.start, 0, (ev.end - ev.start).days))
    facts = ev.facts.get(finding.topic) or gen.fill_all(
        sample(rng, finding.facts, randint(rng, 1, 2)), ctx
    )
    facts = facts[: randint(rng, 1, 3)]
    if len(facts) > 1 and rng.random() < 0.4:
        details = "For example:\n" + "\n".join(
            f"{'abc'[i]}. {fact}" for i, fact in enumerate(facts)
        )
    else:
        details = f"{choice(rng, ('Specifically', 'For example'))}, {sentence(' '.join(facts))}"
    inadequate = choice(rng, finding.inadequate if rng.random() < 0.8 else WL_INADEQUATE)
    said = gen.fill(choice(rng, FIRM_DID), ctx)
    response = choice(rng, RESPONSES[kind]).format_map(
        {"resp_date": ctx["resp_date"], "did": said, "inadequate": gen.fill(inadequate, ctx)}
    )
    response = f"{finding.risk} {response}"
    requests = sample(rng, finding.requests, min(len(finding.requests), randint(rng, 2, 3)))
    asked = "\n".join(f"• {gen.fill(r, ctx)}." for r in requests)
    return [cited, details, response, f"{choice(rng, REQUEST_LEADS)}\n{asked}"]
