"""Beyond one machine, measured on one: embedding pages/s with the local writer and on Ray (same
encoder, same corpus, one run), the Ray path's fixed overhead, index build local vs Ray, GPU
embedding where there is a GPU, and v3 search p50/p95 against one replica vs two replicas (one
PostgreSQL) behind a round-robin client on loopback.

    python benchmarks/bench_distributed.py [--encoder minilm|hashing] [--pages N]
        [--searches 120] [--no-replicas]

The corpus is generated (seeded pages of about 200 words, so a page fills MiniLM's 256 tokens as
a real page does). Ray runs a local instance over this machine's CPUs (and GPUs): what it shows
is the cost of the Ray path, not a cluster's speed. The replicas section starts PostgreSQL as the
tests do (tests/postgres_support.py) and says so where it cannot.
"""

from __future__ import annotations

import argparse
import itertools
import os
import random
import shutil
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(ROOT))

from common import percentiles, table

import regnb
from regnb.catalog import load_catalog
from regnb.corpus import shards
from regnb.index.build import update_index
from regnb.settings import Settings
from tests.index.test_segments import WORDS

DATASETS = ("fda_483", "fda_warning_letters", "fda_recalls")
KEYWORDS = [["sterile"], ["batch record"], ["data integrity"], ["recall", "implant"], ["audit"]]


def documents(pages: int, seed: int = 7) -> dict[str, list[dict[str, Any]]]:
    """About `pages` pages in documents of 1 to 6 pages, spread over three datasets."""
    rng = random.Random(seed)
    rare = [f"{a}{b}{c}" for a in "bcdfg" for b in "aeiou" for c in "klmnprst"]
    out: dict[str, list[dict[str, Any]]] = {ds: [] for ds in DATASETS}
    made = 0
    for n in itertools.count():
        if made >= pages:
            break
        count = min(rng.randint(1, 6), pages - made)
        ds = DATASETS[n % len(DATASETS)]
        words = [*WORDS, *rng.sample(rare, 20)]
        out[ds].append(
            {
                "title": " ".join(rng.choice(WORDS) for _ in range(4)),
                "date": f"20{rng.randint(10, 24)}-0{rng.randint(1, 9)}-1{rng.randint(0, 9)}",
                "url": None,
                "fields": {},
                "pages": [" ".join(rng.choice(words) for _ in range(200)) for _ in range(count)],
                "key": f"{ds}-{n}",
            }
        )
        made += count
    return out


def make_encoder(name: str, device: str = "cpu") -> Any:
    if name == "hashing":
        return regnb.HashingEncoder()
    return regnb.MiniLMEncoder(device=device)


def timed_write(folder: Path, docs: dict[str, Any], encoder: Any, **how: Any) -> float:
    shutil.rmtree(folder, ignore_errors=True)
    start = time.perf_counter()
    regnb.write_corpus(folder, docs, encoder=encoder, progress=False, **how)
    return time.perf_counter() - start


def gpu_line(ray: Any, encoder_name: str, docs: dict[str, Any], work: Path, pages: int) -> str:
    """GPU embedding pages/s (local writer on CUDA, and Ray's GPU actors), or why not."""
    import onnxruntime

    providers = onnxruntime.get_available_providers()
    gpus = int(ray.cluster_resources().get("GPU", 0))
    if "CUDAExecutionProvider" not in providers or not gpus:
        return (
            f"GPU embedding: no GPU available here (onnxruntime providers: {providers}; "
            f"GPUs in the Ray cluster: {gpus})"
        )
    if encoder_name != "minilm":
        return "GPU embedding: measured with --encoder minilm only"
    local = timed_write(work / "gpu-local", docs, make_encoder("minilm", "cuda"))
    on_ray = timed_write(work / "gpu-ray", docs, make_encoder("minilm"), runner="ray")
    return (
        f"GPU embedding, MiniLM: local writer on CUDA {pages / local:,.0f} pages/s; "
        f"Ray, {gpus} GPU actor(s) {pages / on_ray:,.0f} pages/s"
    )


def embedding(args: argparse.Namespace, work: Path) -> tuple[Path, list[str]]:
    import ray

    docs = documents(args.pages)
    encoder = make_encoder(args.encoder)
    shard_pages = max(args.pages // 16, 10)  # several shards, and segments, at any --pages
    regnb.corpus.write.BATCH_PAGES = shard_pages
    os.environ["REGNB_RAY_BATCH_PAGES"] = str(shard_pages)
    lines = []
    start = time.perf_counter()
    ray.init(include_dashboard=False, log_to_driver=False)
    started = time.perf_counter() - start
    cpus = int(ray.cluster_resources().get("CPU", 1))
    tiny = documents(12, seed=3)
    tiny_local = timed_write(work / "tiny-local", tiny, encoder)
    tiny_ray = timed_write(work / "tiny-ray", tiny, encoder, runner="ray")
    local = timed_write(work / "local", docs, encoder)
    on_ray = timed_write(work / "ray", docs, encoder, runner="ray")
    rows = [
        ("local writer", f"{local:.1f}", f"{args.pages / local:,.1f}"),
        (f"Ray, {cpus} CPU actors", f"{on_ray:.1f}", f"{args.pages / on_ray:,.1f}"),
    ]
    lines.append(
        f"Embedding {args.pages:,} pages with {encoder.name} on {os.cpu_count()} cores, "
        f"shards of {shard_pages} pages (one run each):"
    )
    lines.append(table(rows, ("path", "seconds", "pages/s")))
    lines.append(
        f"Ray overhead at small scale: ray.init {started:.1f} s once; a 12-page write takes "
        f"{tiny_ray:.2f} s on Ray vs {tiny_local:.2f} s locally "
        f"(+{tiny_ray - tiny_local:.2f} s per write: actor start, encoder load, scheduling)"
    )
    lines.append(gpu_line(ray, args.encoder, docs, work, args.pages))
    for name in ("local", "ray"):
        assert len(shards.Manifest.load(work / name).shards) > 0  # type: ignore[union-attr]
    return work / "local", lines


def indexing(corpus: Path, work: Path, pages: int) -> list[str]:
    catalog = load_catalog(corpus)
    batch = max(pages // 8, 1)
    seconds = {}
    for runner in ("local", "ray"):
        folder = work / f"index-{runner}"
        start = time.perf_counter()
        state = update_index(
            corpus, catalog, folder, batch_pages=batch, progress=False, runner=runner
        )
        seconds[runner] = time.perf_counter() - start
    rows = [(r, f"{s:.2f}", f"{pages / s:,.0f}") for r, s in seconds.items()]
    return [
        f"Index build, {pages:,} pages in {len(state.segments)} segments "
        f"(REGNB_INDEX_BATCH_PAGES={batch}):",
        table(rows, ("runner", "seconds", "pages/s")),
    ]


def replicas(corpus: Path, work: Path, searches: int, fast: bool) -> list[str]:
    """p50/p95 of v3 searches: 2 client threads on one replica, then round-robin over two."""
    import httpx

    from regnb.server.accounts import Accounts
    from tests.postgres_support import start_server
    from tests.serving import regnb_serve

    try:
        server = start_server()
    except BaseException as exc:  # pytest's skip outside pytest: PostgreSQL or psycopg missing
        return [f"Replicas: not measured ({exc})"]
    try:
        url = server.new_database()
        with Accounts(database_url=url) as accounts:
            rings = [[accounts.create_key(f"bench{c}", "enterprise").key for _ in range(6)]
                     for c in range(2)]  # fmt: skip
        home = work / "home"
        with regnb.Engine(corpus, progress=False, encoder=make_encoder("hashing" if fast else "minilm"),
                          settings=Settings(**{**Settings.from_env().__dict__, "home": home})):  # fmt: skip
            pass  # the index, built once before the replicas open it
        env = {**os.environ, "REGNB_HOME": str(home), "REGNB_DATABASE_URL": url}
        args = ["--corpus", str(corpus), *(["--fast-encoder"] if fast else [])]
        with (
            regnb_serve(args, env=env, log=work / "a.log") as a,
            regnb_serve(args, env=env, log=work / "b.log") as b,
        ):
            rows = []
            for name, bases in (("one replica", [a]), ("two replicas, round robin", [a, b])):
                ms = _load(bases, rings, searches, httpx)
                p50, p95 = percentiles(ms)
                rows.append((name, str(len(ms)), f"{p50:.1f}", f"{p95:.1f}"))
    finally:
        server.stop()
    return [
        "v3 search over HTTP, 2 client threads (an account each), one PostgreSQL for the state:",
        table(rows, ("target", "searches", "p50 ms", "p95 ms")),
    ]


def _load(bases: list[str], rings: list[list[str]], searches: int, httpx: Any) -> list[float]:
    """`searches` v3 searches from two threads, each sending to the next base in turn."""
    turn = itertools.cycle(bases)
    lock = threading.Lock()
    ms: list[float] = []
    bodies = itertools.cycle(
        [{"keywords": k, "limit": 20} for k in KEYWORDS]
        + [{"keywords": k, "query": " ".join(k) + " findings", "limit": 20} for k in KEYWORDS]
    )

    def client(keys: list[str]) -> None:
        key_turn = itertools.cycle(keys)
        with httpx.Client(timeout=60) as http:
            for _ in range(searches // 2):
                with lock:
                    base, body = next(turn), next(bodies)
                start = time.perf_counter()
                resp = http.post(f"{base}/api/v3/search", json=body,
                                 headers={"x-api-key": next(key_turn)})  # fmt: skip
                elapsed = (time.perf_counter() - start) * 1000
                resp.raise_for_status()
                with lock:
                    ms.append(elapsed)

    warm: Callable[[], None] = lambda: [  # noqa: E731
        httpx.post(f"{b}/api/v3/search", json={"keywords": ["audit"]},
                   headers={"x-api-key": rings[0][0]}, timeout=120)
        for b in bases
    ]  # fmt: skip
    warm()
    threads = [threading.Thread(target=client, args=(keys,)) for keys in rings]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return ms


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--encoder", choices=("minilm", "hashing"), default="minilm")
    parser.add_argument(
        "--pages", type=int, default=None, help="default: 400 (minilm) or 20,000 (hashing)"
    )
    parser.add_argument("--searches", type=int, default=120, help="per target, for p50/p95")
    parser.add_argument("--no-replicas", action="store_true", help="skip the replicas section")
    args = parser.parse_args()
    args.pages = args.pages or (400 if args.encoder == "minilm" else 20_000)
    os.environ.setdefault("REGNB_PROGRESS", "0")
    work = Path(tempfile.mkdtemp(prefix="bench-distributed-"))
    try:
        corpus, lines = embedding(args, work)
        lines += indexing(corpus, work, args.pages)
        if not args.no_replicas:
            lines += replicas(corpus, work, args.searches, args.encoder == "hashing")
        print("\n\n".join(lines))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
