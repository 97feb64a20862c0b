"""Recall press releases and enforcement reports; some recalls follow an inspection."""

from __future__ import annotations

import datetime as dt
from typing import Any

from demogen.generator import Event, Generator
from demogen.text import ID_LETTERS, after, choice, long_date, pick, randint, sentence, some
from demogen.vocab.recalls import (
    ENFORCEMENT_CLASS_TEXT,
    ENFORCEMENT_HEADER,
    ENFORCEMENT_SECTIONS,
    ENFORCEMENT_STATUS_TEXT,
    NOTIFICATIONS,
    RECALL_HAZARDS,
    RECALL_PACKAGES,
    RECALL_PR,
    RECALL_PR_HEADER,
    RECALL_SETTINGS,
    RECALL_USES,
)
from demogen.world import FIRST_DAY, LAST_DAY, PRODUCT_TYPES, Product

# how often each kind of firm recalls, and the letter that starts its recall numbers
RECALLED = {"drug": 30, "device": 30, "food": 25, "biologic": 5, "veterinary": 5}
RECALLED |= {"cosmetics": 3, "tobacco": 2}
NUMBERS = ("no", "one", "two", "three", "four")
RECALL_LETTERS = {
    "drugs": "D", "devices": "Z", "biologics": "B", "food": "F", "veterinary": "V", "tobacco": "T",
}  # fmt: skip


def recalls(gen: Generator) -> None:
    """Recall press releases (`fda_recalls`) and enforcement reports; one recall may make both."""
    rng = gen.rng
    need_pr, need_enf = gen.counts["fda_recalls"], gen.counts["fda_recall_enforcement"]
    inspected: dict[str, list[Event]] = {}
    for ev in gen.events:
        inspected.setdefault(ev.firm.kind, []).append(ev)
    latest = LAST_DAY - dt.timedelta(days=100)
    while need_pr > 0 or need_enf > 0:
        kind = pick(rng, RECALLED)
        start, firm = gen.day(last=latest), gen.world.firm(kind)
        if kind in inspected and rng.random() < 0.35:  # a recall after an inspection
            ev = choice(rng, inspected[kind])
            if ev.end < latest:
                firm = ev.firm
                start = gen.day(ev.end, min(after(rng, ev.end, 30, 400), latest))
        hazard = choice(rng, RECALL_HAZARDS[PRODUCT_TYPES[kind]])
        enforced = PRODUCT_TYPES[kind] in RECALL_LETTERS and need_enf > 0
        enforced = enforced and (need_pr <= 0 or rng.random() < 0.75)
        announced = need_pr > 0 and (not enforced or hazard[3] == "Class I" or rng.random() < 0.4)
        if not (enforced or announced) or not firm.products:
            continue
        ctx = recall_ctx(gen, choice(rng, firm.products), start, hazard)
        if announced:
            paras = [RECALL_PR_HEADER, *some(gen.rng, RECALL_PR, 0.9)]
            gen.emit("fda_recalls", ctx, gen.fill_all(paras, ctx))
            need_pr -= 1
        if enforced:
            enforcement(gen, ctx, start)
            need_enf -= 1


def recall_ctx(
    gen: Generator, product: Product, start: dt.date, hazard: tuple[str, ...]
) -> dict[str, Any]:
    rng, kind = gen.rng, product.kind
    if kind in ("drug", "biologic"):
        ctx = gen.drug_ctx(product, start)
        ctx["product"] = f"{ctx['named']} {ctx['form']}, {ctx['strength']}"
    elif kind == "device":
        ctx = gen.device_ctx(product, start, product.number)
    else:
        ctx = gen.firm_ctx(product.firm, start)
        ctx["product"] = product.name
    levels, channels = RECALL_SETTINGS[kind]
    short, reason, risk, classification, found_by, causes, corrective = hazard
    reason = gen.fill(reason, ctx)
    lots = [
        f"{choice(rng, ID_LETTERS)}{randint(rng, 10000, 99999)}" for _ in range(randint(rng, 1, 4))
    ]
    exp = f"{randint(rng, 1, 12):02d}/{start.year + randint(rng, 1, 3)}"
    ctx.update(
        brand=product.name, reason_short=short, reason=reason, risk=risk,
        classification=classification, ptype=PRODUCT_TYPES[kind], kind=kind,
        ptype_title=PRODUCT_TYPES[kind].title(), level=choice(rng, levels),
        channels=choice(rng, channels), package=choice(rng, RECALL_PACKAGES[kind]),
        reason_sentence=f"The recall was initiated for the following reason: {sentence(reason)}.",
        notification=choice(rng, NOTIFICATIONS), found_by=choice(rng, found_by),
        root_cause=choice(rng, causes), corrective=choice(rng, corrective), exp=exp,
        lot_phrase=f"{NUMBERS[len(lots)]} lot{'s' * (len(lots) > 1)}",
        lot_list=("lot number " if len(lots) == 1 else "lot numbers ") + _joined(lots),
        code_info="; ".join(f"Lot {lot}, Exp {exp}" for lot in lots),
    )  # fmt: skip
    ctx["use"] = gen.fill(RECALL_USES[kind], ctx)
    ctx["notification_lower"] = ctx["notification"].lower()
    return ctx


def _joined(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" and {items[-1]}"


def enforcement(gen: Generator, ctx: dict[str, Any], start: dt.date) -> None:
    rng = gen.rng
    report = after(rng, start, 20, 90)
    seq_key = (RECALL_LETTERS[ctx["ptype"]], report.year)
    seq = gen.recall_seq.get(seq_key, randint(rng, 1, 300)) + randint(rng, 1, 25)
    gen.recall_seq[seq_key] = seq
    age = (LAST_DAY - report).days
    if age < 120:
        status = choice(rng, ("Pending", "Ongoing", "Ongoing"))
    elif age < 900:
        status = pick(rng, {"Ongoing": 6, "Completed": 2, "Terminated": 2})
    else:
        status = pick(rng, {"Terminated": 16, "Completed": 3, "Ongoing": 1})
    days = (start - FIRST_DAY).days
    ctx = ctx | {
        "_date": report, "date": long_date(report), "init_date": long_date(start),
        "recall_number": f"{seq_key[0]}-{seq:04d}-{report.year}", "status": status,
        "event_id": gen.world.unique(lambda: str(20000 + days * 40 + randint(rng, 0, 39))),
        "mandate": "Voluntary: Firm initiated" if rng.random() < 0.95 else "FDA Mandated",
        "description": f"{ctx['product']}, {ctx['package']}",
        "quantity": f"{randint(rng, 300, 250000):,} units",
        "class_text": ENFORCEMENT_CLASS_TEXT[ctx["classification"]],
        "status_text": ENFORCEMENT_STATUS_TEXT[status],
    }  # fmt: skip
    paras = [ENFORCEMENT_HEADER, *some(rng, ENFORCEMENT_SECTIONS, 0.85)]
    gen.emit("fda_recall_enforcement", ctx, gen.fill_all(paras, ctx))
