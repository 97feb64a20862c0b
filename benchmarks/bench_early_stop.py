"""How deep a search would have to read each term's postings, best BM25 weight first, for its
results not to change: the measurement behind stopping a search early (issue 15, item 5).

Over the corpus and index that `bench_scale.py --pages N` leaves (run it first), each of its
queries runs once reading every posting, then once per depth K with each term's postings cut to
its K highest BM25 weights (the pages an impact-ordered posting list would give first). Prints,
per K, the share of the postings the search used, the share of queries whose 20 documents come
back the same and in the same order, whose dataset statuses (matches counted up to 10,000, pages)
are the same, and the mean share of each query's documents that are kept.

Each K runs twice: cut alone, and cut with probes. With probes a cut list also keeps the pages of
each item's rarest word, which a search that read the rarest words whole and looked the common
words up for those pages only (a probe per page, not a read of the list) would find.

    python benchmarks/bench_early_stop.py --pages 1000000 [--depths 1000,10000,100000]

The cut is simulated (each kept list is filtered from the whole one), so only agreement is
measured here, not speed.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_scale import OUT, PoolEncoder, make_queries
from common import table

REPO = Path(__file__).resolve().parents[1]


def cut_to(store: Any, depth: int | None, probed: dict[str, np.ndarray]) -> dict[str, int]:
    """Make every segment of `store` give each term's postings cut to the `depth` pages of the
    term's highest weights (None: whole), plus the pages of `probed["pages"]` (set per query:
    the pages a probe of the whole list would find); returns the counter of postings read."""
    kept: dict[int, np.ndarray | None] = {}
    read = {"postings": 0}

    def keep(term_id: int) -> np.ndarray | None:
        if term_id not in kept:
            pages, weights = store.postings.weights(term_id)
            if depth is None or pages.size <= depth:
                kept[term_id] = None
            else:
                top = np.argpartition(-weights, depth - 1)[:depth]
                kept[term_id] = np.sort(pages[top])
        chosen = kept[term_id]
        if chosen is None or not probed["pages"].size:
            return chosen
        return np.union1d(chosen, probed["pages"])

    for seg, base in zip(store.segments, store.page_base, strict=False):
        whole = seg.postings_of  # the segment's own, before it is replaced

        def postings_of(order: list[int], whole: Any = whole, base: int = int(base)) -> list:
            out = []
            for term_id, (local, tf) in zip(order, whole(order), strict=True):
                chosen = keep(int(term_id))
                if chosen is not None and local.size:
                    at = np.searchsorted(chosen, local + base)
                    inside = chosen[np.minimum(at, chosen.size - 1)] == local + base
                    local, tf = local[inside], tf[inside]
                read["postings"] += int(local.size)
                out.append((local, tf))
            return out

        seg.postings_of = postings_of
    return read


def rarest_pages(eng: Any, items: list[str]) -> np.ndarray:
    """The pages holding each item's rarest word (whole lists): where a search that probes the
    common words' whole lists for its candidates would look."""
    store, lists = eng.store, []
    for item in items:
        ids = store.term_ids(eng.normaliser.terms(item))
        if ids:
            rarest = min(ids.values(), key=lambda t: int(store.df[t]))
            lists.append(store.postings.weights(rarest)[0])
    return np.unique(np.concatenate(lists)) if lists else np.zeros(0, np.int64)


def outcome(result: Any) -> tuple[list[str], dict[str, Any]]:
    body = result.to_dict()
    return [r["document_id"] for r in body["results"]], body["datasets"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pages", type=int, default=1_000_000)
    parser.add_argument("--queries", type=int, default=60)
    parser.add_argument("--depths", default="1000,10000,100000")
    args = parser.parse_args()
    sys.path.insert(0, str(REPO))
    import regnb
    from regnb.settings import Settings

    corpus, home = OUT / f"scale-{args.pages}-work", OUT / f"home-{args.pages}"
    if not (home / "index").is_dir():
        raise SystemExit(f"no index in {home}: run bench_scale.py --pages {args.pages} first")
    settings = Settings(**{**Settings.from_env().__dict__, "home": home})
    queries = make_queries(args.queries)
    cuts = [int(d) for d in args.depths.split(",")]
    ways: list[tuple[int | None, bool]] = [(None, False)]
    ways += [(d, False) for d in cuts] + [(d, True) for d in cuts]
    runs: dict[tuple[int | None, bool], list[tuple[list[str], dict[str, Any]]]] = {}
    read: dict[tuple[int | None, bool], int] = {}
    for depth, probe in ways:
        with regnb.Engine(corpus, encoder=PoolEncoder(), settings=settings, progress=False) as eng:
            probed = {"pages": np.zeros(0, np.int64)}
            counter = cut_to(eng.store, depth, probed)
            runs[depth, probe], extra = [], 0
            for items, q in queries:
                probed["pages"] = rarest_pages(eng, items) if probe else np.zeros(0, np.int64)
                extra += int(probed["pages"].size)
                runs[depth, probe].append(outcome(eng.search(items, q)))
            read[depth, probe] = counter["postings"]
        print(f"depth {depth}, probes {probe}: {read[depth, probe]:,} postings", flush=True)
    exact = runs[None, False]
    rows = []
    for depth, probe in ways[1:]:
        got = runs[depth, probe]
        same_docs = np.mean([a[0] == b[0] for a, b in zip(exact, got, strict=True)])
        same_status = np.mean([a[1] == b[1] for a, b in zip(exact, got, strict=True)])
        kept = np.mean(
            [
                len(set(a[0]) & set(b[0])) / max(len(a[0]), 1)
                for a, b in zip(exact, got, strict=True)
            ]
        )
        rows.append(
            (
                f"{depth:,}" + (" + probes of the rarest words' pages" if probe else ""),
                f"{read[depth, probe] / read[None, False]:.1%}",
                f"{same_docs:.0%}",
                f"{kept:.1%}",
                f"{same_status:.0%}",
            )
        )
    header = (
        "postings per term",
        "postings used",
        "same 20 documents, same order",
        "documents kept",
        "same dataset statuses",
    )
    print(table(rows, header))
    print(
        f"\n{args.pages:,} pages, {len(queries)} queries; every posting: {read[None, False]:,} read"
    )


if __name__ == "__main__":
    main()
