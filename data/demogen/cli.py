"""The command line: `python data/demogen --out DIR [--seed N] [--scale X] [--fast-encoder]`."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from demogen.generate import SEED, build
from regnb.encoder import HashingEncoder


def main(argv: Sequence[str] | None = None) -> None:
    """`python data/demogen --out data/demo [--seed N] [--scale X] [--fast-encoder]`."""
    parser = argparse.ArgumentParser(
        prog="python data/demogen", description="Build the synthetic demo corpus."
    )
    parser.add_argument("--out", required=True, type=Path, help="corpus folder to write")
    parser.add_argument("--seed", type=int, default=SEED, help=f"random seed (default {SEED})")
    parser.add_argument("--scale", type=float, default=1.0, help="multiplies the document counts")
    parser.add_argument(
        "--fast-encoder",
        action="store_true",
        help="embed with the hashing encoder (tests and benchmarks), not the MiniLM model",
    )
    args = parser.parse_args(argv)
    encoder = HashingEncoder() if args.fast_encoder else None
    summary = build(args.out, encoder=encoder, seed=args.seed, scale=args.scale)
    print(summary.to_string(index=False))
