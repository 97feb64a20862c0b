"""The synthetic demo corpus: invented firms, products and FDA-style records for all US datasets.

`generate_documents(seed, scale)` is pure and deterministic: one `random.Random(seed)` builds a
small world of firms and products (`world`), then every dataset draws its records from that world
(`compliance`, `recalls`, `adverse_events`, `approvals`, `programs`), so one firm gets a Form 483,
a warning letter and a recall. Texts come from the phrase tables in `regnb.demo.vocab`; the first
page of every record says that it is synthetic.

    python -m regnb.demo --out data/demo [--seed N] [--scale X] [--fast-encoder]
"""

from __future__ import annotations

from regnb.demo.cli import main
from regnb.demo.generate import SEED, build, generate_documents
from regnb.demo.generator import COUNTS, DATE_FIELDS
from regnb.demo.vocab.records import FIELD_SLOTS, MARKER

__all__ = [
    "COUNTS",
    "DATE_FIELDS",
    "FIELD_SLOTS",
    "MARKER",
    "SEED",
    "build",
    "generate_documents",
    "main",
]
