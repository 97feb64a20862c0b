"""The synthetic demo corpus: invented firms, products and FDA-style records for all US datasets.

`generate_documents(seed, scale)` is pure and deterministic: one `random.Random(seed)` builds a
small world of firms and products (`world`), then every dataset draws its records from that world
(`compliance`, `recalls`, `adverse_events`, `approvals`, `programs`), so one firm gets a Form 483,
a warning letter and a recall. Texts come from the phrase tables in `demogen.vocab`; the first
page of every record says that it is synthetic.

    python data/demogen --out data/demo [--seed N] [--scale X] [--fast-encoder]

A build tool, not part of the installed package: the wheel ships the corpus it built (`data/demo`).
"""

from __future__ import annotations

from demogen.cli import main
from demogen.generate import SEED, build, generate_documents, readme_text
from demogen.generator import COUNTS, DATE_FIELDS
from demogen.vocab.records import FIELD_SLOTS, MARKER

__all__ = [
    "COUNTS",
    "DATE_FIELDS",
    "FIELD_SLOTS",
    "MARKER",
    "SEED",
    "build",
    "generate_documents",
    "main",
    "readme_text",
]
