"""Applications: drug and biologic approvals, 510(k)s and PMAs (complete responses: `demogen.complete_responses`)."""

from __future__ import annotations

from demogen.generator import Generator
from demogen.text import before, choice, long_date, randint, sample, some
from demogen.vocab.approvals import (
    ANDA_APPROVAL,
    BLA_DOCUMENTS,
    CLINICAL_DATA,
    DENOVO_IDENTIFICATION,
    DENOVO_SECTIONS,
    K_LETTER,
    K_SUBMISSION,
    LABEL,
    NDA_APPROVAL,
    PMA_ORDER,
    PMA_PANEL,
    PMA_SUPPLEMENT_LETTER,
    REVIEW,
    SSED,
    SUPPLEMENT_APPROVAL,
    SUPPLEMENT_CHANGES,
)
from demogen.vocab.devices import DEVICE_MARKS, MOD_SUFFIXES
from demogen.world import FIRST_DAY, Product


def plan_documents(
    gen: Generator, pool: list[Product], n: int, extra: dict[str, float], repeat: str
) -> list[tuple[Product, str]]:
    """`n` (product, document type) pairs: each product's first document, extras, repeats."""
    rng = gen.rng
    pool = sample(rng, pool, len(pool))
    pairs: list[tuple[Product, str]] = []
    for product in pool:
        pairs.append((product, "first"))
        pairs += [(product, t) for t, p in extra.items() if rng.random() < p]
        pairs += [(product, repeat)] * choice(rng, (0, 0, 1, 2))
    while pool and len(pairs) < n:
        pairs.append((choice(rng, pool), repeat))
    return pairs[:n]


def supplement_number(gen: Generator, product: Product) -> int:
    suppl = product.info.get("suppl", randint(gen.rng, 1, 6)) + randint(gen.rng, 1, 9)
    product.info["suppl"] = suppl
    return int(suppl)


def drugs(gen: Generator) -> None:
    """The `fda_drug` documents: approval letters, labels, reviews and supplement approvals."""
    rng = gen.rng
    extra = {"label": 0.6, "review": 0.5}
    for product, doc_type in plan_documents(
        gen, gen.world.recent("drug"), gen.counts["fda_drug"], extra, "other"
    ):
        nda = product.number.startswith("NDA")
        doc_type = "other" if doc_type == "review" and not nda else doc_type
        doc_type = "approval_letter" if doc_type == "first" else doc_type
        ctx = gen.drug_ctx(product, gen.later(product) if doc_type == "other" else product.approved)
        ctx["document_type"] = doc_type
        if doc_type == "other":
            ctx["sub_date"] = long_date(before(rng, ctx["_date"], 120, 300))
        if doc_type == "approval_letter":
            paras = some(rng, NDA_APPROVAL if nda else ANDA_APPROVAL, 0.9)
        elif doc_type in ("label", "review"):
            paras = some(rng, LABEL if doc_type == "label" else REVIEW, 0.9)
        else:
            ctx["suppl"] = supplement_number(gen, product)
            ctx["change"] = gen.fill(choice(rng, SUPPLEMENT_CHANGES), ctx)
            paras = some(rng, SUPPLEMENT_APPROVAL, 0.85)
        gen.emit("fda_drug", ctx, gen.fill_all(paras, ctx), doc_type)


def biologics(gen: Generator) -> None:
    """The `fda_biologic` documents: approval letters, package inserts, reviews, supplements."""
    rng = gen.rng
    extra = {
        "package_insert": 0.6,
        "summary_basis_for_regulatory_action": 0.45,
        "review_memo": 0.3,
    }
    plan = plan_documents(
        gen, gen.world.recent("biologic"), gen.counts["fda_biologic"], extra, "supplement"
    )
    for product, doc_type in plan:
        doc_type = {"first": "approval_letter", "supplement": "supplement_approval"}.get(
            doc_type, doc_type
        )
        supplement = doc_type == "supplement_approval"
        ctx = gen.drug_ctx(product, gen.later(product) if supplement else product.approved)
        ctx["document_type"] = doc_type
        if supplement:
            ctx["sub_date"] = long_date(before(rng, ctx["_date"], 120, 300))
            ctx["suppl_code"] = f"{supplement_number(gen, product):04d}"
            ctx["change"] = gen.fill(choice(rng, SUPPLEMENT_CHANGES), ctx)
        paras = gen.fill_all(some(rng, BLA_DOCUMENTS[doc_type], 0.9), ctx)
        gen.emit("fda_biologic", ctx, paras, doc_type)


def premarket_510k(gen: Generator) -> None:
    """The `fda_denovo_or_510k` decisions, and new 510(k)s for later device changes."""
    rng, world = gen.rng, gen.world
    devices = [p for p in world.products["device"] if p.info["pathway"] != "pma"]
    pool = [p for p in devices if p.approved >= FIRST_DAY]
    for product, doc_type in plan_documents(
        gen, pool, gen.counts["fda_denovo_or_510k"], {}, "change"
    ):
        info = product.info
        if doc_type == "first":
            day, number, name, pathway = (
                product.approved,
                product.number,
                product.name,
                info["pathway"],
            )
            earlier = [p for p in devices if p.info["code"] == info["code"] and p.approved < day]
            predicate = choice(rng, earlier) if earlier else None
        else:  # a later change to a cleared or granted device needs a new 510(k)
            day, pathway, predicate = gen.later(product), "510k", product
            number = world.submission_number("510k", day)
            name = product.name + choice(rng, MOD_SUFFIXES)
        ctx = gen.device_ctx(product, day, number)
        ctx.update(product=name, product_upper=name.upper(), pathway=pathway)
        ctx["identification"] = DENOVO_IDENTIFICATION.get(info["code"], "")
        if predicate:
            ctx["predicate"], ctx["predicate_number"] = predicate.name, predicate.number
        else:
            ctx["predicate"] = f"{choice(rng, DEVICE_MARKS)} {info['generic'].split(',')[0]}"
            ctx["predicate_number"] = world.submission_number("510k", before(rng, day, 700, 3000))
        ctx["clinical_data"] = gen.fill(choice(rng, CLINICAL_DATA), ctx)
        if pathway == "de_novo":
            paras, ctx["decision"] = some(rng, DENOVO_SECTIONS, 0.85), "Granted (DENG)"
        else:
            shape = rng.random()  # decision letter, 510(k) summary, or both
            paras = [
                *(K_LETTER if shape < 0.75 else ()),
                *(K_SUBMISSION if shape > 0.15 else ()),
            ]
            ctx["decision"] = "Substantially Equivalent (SESE)"
        gen.emit("fda_denovo_or_510k", ctx, gen.fill_all(paras, ctx), pathway)


def premarket_approvals(gen: Generator) -> None:
    """The `fda_pma` approval orders and supplement approvals."""
    rng = gen.rng
    devices = [p for p in gen.world.products["device"] if p.info["pathway"] == "pma"]
    n = gen.counts["fda_pma"]
    originals = gen.world.recent("device", "pma")
    plan = [(p, "original") for p in sample(rng, originals, min(len(originals), round(n * 0.5)))]
    plan += [(choice(rng, devices), "supplement") for _ in range(n - len(plan))]
    for product, doc_type in plan:
        day = product.approved if doc_type == "original" else gen.later(product)
        ctx = gen.device_ctx(product, day, product.number)
        panel = rng.random() < 0.3
        ctx.update(
            panel_text=long_date(before(rng, day, 60, 150)) if panel else PMA_PANEL[0],
            panel_text_long=PMA_PANEL[int(panel)] + ".", mkt_year=product.approved.year - randint(rng, 1, 4),
            safety_pct=round(rng.uniform(88, 97), 1), eff_pct=round(rng.uniform(82, 96), 1),
        )  # fmt: skip
        if doc_type == "original":
            paras = [*PMA_ORDER, *some(rng, SSED, 0.75)]
        else:
            ctx["suppl_code"] = f"S{supplement_number(gen, product):03d}"
            paras = some(rng, PMA_SUPPLEMENT_LETTER, 0.8)
        gen.emit("fda_pma", ctx, gen.fill_all(paras, ctx), doc_type)
