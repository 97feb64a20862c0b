"""`python -m regnb.demo --out data/demo [--seed N] [--scale X] [--fast-encoder]`."""

from __future__ import annotations

from regnb.demo.cli import main

main()
