"""Phrases from term positions against the page-reading check, on a corpus of N recombined real
pages (`bench_scale.make_corpus`): the analyst's phrases, proximity and phrase exclusions searched
over every dataset, the two checks alternating query by query in one warm process (the
page-reading check is the previous commit's `phrase_pages`, kept as `read_phrase_pages` for
segments without positions), answers compared; and the index's build time, peak memory and size
with positions, beside an index built by `--previous DIR`'s checkout (without them), which this
checkout then gives positions in place (timed).

    python benchmarks/bench_phrases.py --pages 200000 [--rounds 5] [--previous DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_scale import BUILD, child, folder_bytes, make_corpus, raw_text_bytes
from common import OUT, table

PHRASES = [
    '"media fill"',
    '"data integrity"',
    '"out of specification"',
    '"aseptic processing"',
    '"environmental monitoring"',
    '"corrective and preventive action"',
    '"batch production records"',
    '"quality control unit"',
    '"media fill"~3',
    '"data integrity"~2',
    'sterility -"media fill"',
    'validation -"data integrity"',
]

SEARCH = """
import hashlib, json, sys
from pathlib import Path
import regnb
from bench_scale import PoolEncoder
from common import percentiles, timed
from regnb.index.segments import Segment
from regnb.settings import Settings
corpus, home, items, rounds = Path(sys.argv[1]), Path(sys.argv[2]), json.loads(sys.argv[3]), int(sys.argv[4])
settings = Settings(**{**Settings.from_env().__dict__, "home": home})
eng = regnb.Engine(corpus, encoder=PoolEncoder(), settings=settings, progress=False)
from_positions = Segment.phrase_pages
def reading(self, local, term_ids, slop):  # every segment as if written without positions
    return None
def mode(name):
    Segment.phrase_pages = from_positions if name == "positions" else reading
def answer(res):
    body = {k: v for k, v in res.to_dict().items() if k != "timings"}
    return hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()
ms = {"positions": {i: [] for i in items}, "reading": {i: [] for i in items}}
answers = {"positions": {}, "reading": {}}
for name in ("positions", "reading"):  # warm-up, and the answers
    mode(name)
    for item in items:
        answers[name][item] = answer(eng.search([item]))
for r in range(rounds):
    for k, item in enumerate(items):
        order = ("positions", "reading") if (r + k) % 2 == 0 else ("reading", "positions")
        for name in order:
            mode(name)
            ms[name][item].append(timed(lambda: eng.search([item])))
mode("positions")
matches = {i: sum(s.get("matches", 0) for s in eng.search([i]).dataset_statuses.values()) for i in items}
print(json.dumps({
    "ms": ms, "matches": matches,
    "same": {i: answers["positions"][i] == answers["reading"][i] for i in items},
}))
"""


def position_bytes(index: Path) -> int:
    return sum(p.stat().st_size for p in index.rglob("pos_*.npy"))


def sizes(index: Path, raw: int) -> str:
    """Index size ÷ raw text: without embeddings / with them."""
    whole = folder_bytes(index)
    embeddings = sum(p.stat().st_size for p in index.rglob("embeddings.npy"))
    return f"{(whole - embeddings) / raw:.2f} / {whole / raw:.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pages", type=int, default=200_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--previous", type=Path, help="a checkout of the commit before")
    args = parser.parse_args()
    from common import percentiles

    print(f"load average at start: {os.getloadavg()}", flush=True)
    OUT.mkdir(parents=True, exist_ok=True)
    corpus = OUT / f"scale-{args.pages}"
    n_pages = make_corpus(corpus, args.pages)
    raw = raw_text_bytes(corpus)
    home = OUT / f"phrases-home-{args.pages}"
    shutil.rmtree(home, ignore_errors=True)
    built = child(BUILD, str(corpus), str(home))
    print("build:", built, flush=True)
    rows = [
        (
            "this checkout (positions)",
            f"{n_pages / built['seconds']:,.0f}",
            f"{built['peak_gb']:.2f}",
            sizes(home / "index", raw),
            f"{position_bytes(home / 'index') / raw:.3f}",
        )
    ]
    if args.previous is not None:
        before = OUT / f"phrases-home-previous-{args.pages}"
        shutil.rmtree(before, ignore_errors=True)
        old = child(BUILD, str(corpus), str(before), pythonpath=args.previous.resolve())
        print("build (previous):", old, flush=True)
        rows.append(
            (
                "previous commit (no positions)",
                f"{n_pages / old['seconds']:,.0f}",
                f"{old['peak_gb']:.2f}",
                sizes(before / "index", raw),
                "",
            )
        )
        upgraded = child(BUILD, str(corpus), str(before))  # opening adds the positions
        print("positions added to the previous index:", upgraded, flush=True)
        rows.append(
            (
                "previous index given positions in place",
                f"{n_pages / upgraded['seconds']:,.0f}",
                f"{upgraded['peak_gb']:.2f}",
                sizes(before / "index", raw),
                f"{position_bytes(before / 'index') / raw:.3f}",
            )
        )
        shutil.rmtree(before, ignore_errors=True)
    print(f"\n{n_pages:,} pages, raw text {raw / 2**20:,.0f} MiB\n")
    header = ("index", "pages/s", "peak GB", "size ÷ raw text (w/o / with emb.)", "positions")
    print(table(rows, header))

    started = time.perf_counter()
    served = child(SEARCH, str(corpus), str(home), json.dumps(PHRASES), str(args.rounds))
    lines = []
    every: dict[str, list[float]] = {"positions": [], "reading": []}
    for item in PHRASES:
        pos, read = served["ms"]["positions"][item], served["ms"]["reading"][item]
        every["positions"] += pos
        every["reading"] += read
        p, r = percentiles(pos), percentiles(read)
        lines.append(
            (
                item,
                f"{served['matches'][item]:,}",
                f"{p[0]:.1f} / {p[1]:.1f}",
                f"{r[0]:.0f} / {r[1]:.0f}",
                "yes" if served["same"][item] else "NO",
            )
        )
    p, r = percentiles(every["positions"]), percentiles(every["reading"])
    lines.append(("all", "", f"{p[0]:.1f} / {p[1]:.1f}", f"{r[0]:.0f} / {r[1]:.0f}", ""))
    print(
        f"\nsearch over every dataset, {args.rounds} rounds ({time.perf_counter() - started:.0f} s)"
    )
    header = (
        "query",
        "matches",
        "positions p50 / p95 ms",
        "page reading p50 / p95 ms",
        "same answer",
    )
    print(table(lines, header))
    print(f"\nload average at end: {os.getloadavg()}")
    shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    main()
