"""Facet queries (counts over every full match) and `matches` over a corpus built by another
benchmark (`bench_search.py` / `bench_scale.py` write `benchmarks/out/corpus-N`), p50/p95 per
facet set, with the plain search of the same keywords as the reference in the same run.

    python benchmarks/bench_facets.py CORPUS [--home DIR] [--repeat 20]

Run under `taskset -c 0,1` for the 2-core figure. The first call of each facet builds what is
kept per index (field value codes, CFR postings); it is reported apart ("first").
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from common import RandomEncoder, percentiles, table

import regnb
from regnb.settings import Settings

KEYWORDS = [["sterility"], ["inspection"], ["device"], ["failure investigation"], ["water"]]
FACETS = [["dataset"], ["year"], ["month"], ["company"], ["cfr"], ["dataset", "year", "company"]]


def ms(fn: Any, *args: Any, **kwargs: Any) -> float:
    start = time.perf_counter()
    fn(*args, **kwargs)
    return (time.perf_counter() - start) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("corpus", type=Path)
    parser.add_argument("--home", type=Path, default=None)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    settings = Settings.from_env()
    if args.home is not None:
        settings = Settings(**{**settings.__dict__, "home": args.home})
    with regnb.Engine(args.corpus, encoder=RandomEncoder(), settings=settings) as eng:
        pages = int(eng.counts()["pages"].sum())
        print(f"{pages:,} pages", flush=True)
        rows = []
        for kw in KEYWORDS:
            matched = eng.facets(kw, by=["dataset"])["dataset"]["pages"].sum()
            search = [ms(eng.search, kw) for _ in range(args.repeat)]
            rows.append((" ".join(kw), "search (reference)", matched, *percentiles(search), ""))
            for by in FACETS:
                first = ms(eng.facets, kw, by=by)
                runs = [ms(eng.facets, kw, by=by) for _ in range(args.repeat)]
                rows.append((" ".join(kw), ",".join(by), matched, *percentiles(runs), first))
            whole = [ms(eng.matches, kw, order="date") for _ in range(3)]
            rows.append((" ".join(kw), "matches (all rows)", matched, *percentiles(whole), ""))
            sort = [ms(eng.search, kw, sort="date") for _ in range(args.repeat)]
            rows.append((" ".join(kw), "search sort=date", matched, *percentiles(sort), ""))
        print(
            table(
                [
                    (k, f, f"{m:,}", f"{a:.1f}", f"{b:.1f}", f"{c:.0f}" if c != "" else "")
                    for k, f, m, a, b, c in rows
                ],
                ("keywords", "facets", "matching pages", "p50 ms", "p95 ms", "first ms"),
            )
        )


if __name__ == "__main__":
    main()
