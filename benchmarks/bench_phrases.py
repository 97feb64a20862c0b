"""Phrases from term positions against the page-reading check, on a corpus of N recombined real
pages (`bench_scale.make_corpus`): the analyst's phrases, proximity and phrase exclusions searched
over every dataset, three checks alternating query by query in one warm process, answers
compared: from the index (positions, and each word's form beside them), from positions with the
quoted words checked by reading the candidate pages again (how segments without forms are
checked: the code before forms), and the page-reading check (`read_phrase_pages`, for segments
without positions). Also the index's build time, peak memory and size with positions and forms,
beside an index built by `--previous DIR`'s checkout, which this checkout then gives what it
lacks in place (timed).

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
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's regnb first

from bench_scale import BUILD, child, folder_bytes, make_corpus, raw_text_bytes
from common import OUT, PHRASES, table

from regnb.index.positions import FILES, FORM_FILES

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
from_index = Segment.phrase_pages
def reread(self, local, term_ids, slop, words=None):  # every segment as if written without forms
    found = from_index(self, local, term_ids, slop)
    return None if found is None else (found[0], False)
def reading(self, local, term_ids, slop, words=None):  # as if written without positions
    return None
MODES = {"index": from_index, "re-read": reread, "reading": reading}
def answer(res):
    body = {k: v for k, v in res.to_dict().items() if k != "timings"}
    return hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()
ms = {name: {i: [] for i in items} for name in MODES}
answers = {name: {} for name in MODES}
for name, check in MODES.items():  # warm-up, and the answers
    Segment.phrase_pages = check
    for item in items:
        answers[name][item] = answer(eng.search([item]))
names = list(MODES)
for r in range(rounds):
    for k, item in enumerate(items):
        turn = (r + k) % len(names)
        for name in names[turn:] + names[:turn]:
            Segment.phrase_pages = MODES[name]
            ms[name][item].append(timed(lambda: eng.search([item])))
Segment.phrase_pages = from_index
matches = {i: sum(s.get("matches", 0) for s in eng.search([i]).dataset_statuses.values()) for i in items}
print(json.dumps({
    "ms": ms, "matches": matches,
    "same": {i: len({answers[n][i] for n in MODES}) == 1 for i in items},
}))
"""


def position_bytes(index: Path, names: tuple[str, ...]) -> int:
    return sum(p.stat().st_size for p in index.rglob("pos_*.npy") if p.name in names)


def stored(index: Path, raw: int) -> tuple[str, str]:
    """Positions ÷ raw text, forms ÷ raw text (blank where the index has none)."""
    pos, forms = position_bytes(index, FILES), position_bytes(index, FORM_FILES)
    return (f"{pos / raw:.3f}" if pos else "", f"{forms / raw:.3f}" if forms else "")


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
            "this checkout",
            f"{n_pages / built['seconds']:,.0f}",
            f"{built['peak_gb']:.2f}",
            sizes(home / "index", raw),
            *stored(home / "index", raw),
        )
    ]
    if args.previous is not None:
        before = OUT / f"phrases-home-previous-{args.pages}"
        shutil.rmtree(before, ignore_errors=True)
        old = child(BUILD, str(corpus), str(before), pythonpath=args.previous.resolve())
        print("build (previous):", old, flush=True)
        rows.append(
            (
                "previous commit",
                f"{n_pages / old['seconds']:,.0f}",
                f"{old['peak_gb']:.2f}",
                sizes(before / "index", raw),
                *stored(before / "index", raw),
            )
        )
        upgraded = child(BUILD, str(corpus), str(before))  # opening adds what it lacks
        print("the previous index brought up to date:", upgraded, flush=True)
        rows.append(
            (
                "previous index given what it lacks in place (pages/s of that)",
                f"{n_pages / upgraded['seconds']:,.0f}",
                f"{upgraded['peak_gb']:.2f}",
                sizes(before / "index", raw),
                *stored(before / "index", raw),
            )
        )
        shutil.rmtree(before, ignore_errors=True)
    print(f"\n{n_pages:,} pages, raw text {raw / 2**20:,.0f} MiB\n")
    header = (
        "index",
        "pages/s",
        "peak GB",
        "size ÷ raw text (w/o / with emb.)",
        "positions ÷ raw",
        "forms ÷ raw",
    )
    print(table(rows, header))

    started = time.perf_counter()
    served = child(SEARCH, str(corpus), str(home), json.dumps(PHRASES), str(args.rounds))
    lines = []
    modes = ("index", "re-read", "reading")
    every: dict[str, list[float]] = {m: [] for m in modes}
    for item in PHRASES:
        cells = []
        for m in modes:
            every[m] += served["ms"][m][item]
            p50, p95 = percentiles(served["ms"][m][item])[:2]
            cells.append(f"{p50:.1f} / {p95:.1f}")
        same = "yes" if served["same"][item] else "NO"
        lines.append((item, f"{served['matches'][item]:,}", *cells, same))
    total = [percentiles(every[m])[:2] for m in modes]
    lines.append(("all", "", *(f"{a:.1f} / {b:.1f}" for a, b in total), ""))
    print(
        f"\nsearch over every dataset, {args.rounds} rounds ({time.perf_counter() - started:.0f} s)"
    )
    header = (
        "query",
        "matches",
        "index (positions + forms) p50 / p95 ms",
        "positions, words re-read p50 / p95 ms",
        "page reading p50 / p95 ms",
        "same answer",
    )
    print(table(lines, header))
    print(f"\nload average at end: {os.getloadavg()}")
    shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    main()
