"""v3 search over HTTP (`regnb serve` on loopback) side by side with the same searches called
directly on the engine, in the same run; then an overload run at 4x the measured capacity.

    python benchmarks/bench_http.py [--scale 2] [--requests 200] [--clients 4] [--overload-s 8]

The corpus is `demogen.generate_documents(seed, scale)` (data/demogen) embedded with the hashing
encoder (the server runs with `--fast-encoder`). Every client is its own account; an account has
several keys and its client rotates them, so the spec's 50 requests a minute per key never limits
the runs.
The server runs with the spec's default limits. The overload run sends requests at a fixed rate
(open loop) of 4x the throughput measured with concurrent clients and counts every status.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import itertools
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx

import regnb
from regnb.server.accounts import Accounts

TOPICS = [
    (["sterility"], "Which firms had sterility assurance failures?"),
    (["aseptic processing"], None),
    (["recall", "contamination"], "Why were products recalled for contamination?"),
    (["corrective action"], "What corrective actions did inspectors ask for?"),
    (["labeling"], None),
    (["adverse event", "death"], "Which devices were linked to deaths?"),
    (["clinical trial placebo"], "Placebo-controlled trials of new drugs"),
    (["data integrity"], "Data integrity problems found in inspections"),
    (["cleaning validation"], None),
    (["warning letter", "violations"], "Letters about manufacturing violations"),
    (["approval"], "Recent approvals of biologics"),
    (["quality system"], None),
]
DATASET_CHOICES: list[list[str] | None] = [None, None, ["fda_483"], ["fda_warning_letters"]]


def searches(n: int) -> list[dict[str, Any]]:
    """`n` search bodies cycling over topics, dataset choices and page offsets."""
    out = []
    combos = itertools.cycle(itertools.product(TOPICS, DATASET_CHOICES, (0, 20)))
    for (keywords, query), datasets, offset in itertools.islice(combos, n):
        body: dict[str, Any] = {"keywords": keywords, "limit": 20, "offset": offset}
        if query:
            body["query"] = query
        if datasets:
            body["datasets"] = datasets
        out.append(body)
    return out


def call_engine(engine: regnb.Engine, body: dict[str, Any]) -> Any:
    args = dict(body)
    return engine.search(args.pop("keywords"), args.pop("query", None), **args)


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def summary(name: str, latencies_ms: list[float], seconds: float) -> dict[str, Any]:
    return {
        "run": name,
        "requests": len(latencies_ms),
        "throughput_rps": len(latencies_ms) / seconds,
        "p50_ms": statistics.median(latencies_ms),
        "p95_ms": percentile(latencies_ms, 0.95),
    }


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_server(corpus: Path, port: int, log: Path) -> subprocess.Popen[bytes]:
    cmd = [sys.executable, "-m", "regnb.cli", "serve", "--corpus", str(corpus), "--fast-encoder"]
    cmd += ["--port", str(port), "--log-level", "warning", "--no-access-log"]
    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"regnb serve exited: {log.read_text()}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/v3/openapi.json").status_code == 200:
                return proc
        except httpx.TransportError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("regnb serve did not start in 120 s")


class KeyRing:
    """One account's keys, handed out in turn (thread-safe)."""

    def __init__(self, keys: list[str]) -> None:
        self._keys = itertools.cycle(keys)
        self._lock = threading.Lock()

    def next(self) -> str:
        with self._lock:
            return next(self._keys)


def make_accounts(keys_each: list[int]) -> list[KeyRing]:
    """One account per entry, with that many keys."""
    with Accounts() as accounts:
        return [
            KeyRing([accounts.create_key(f"bench{i}", "enterprise").key for _ in range(n)])
            for i, n in enumerate(keys_each)
        ]


def timed_calls(
    bodies: list[dict[str, Any]], call: Callable[[dict[str, Any]], None]
) -> list[float]:
    out = []
    for body in bodies:
        start = time.perf_counter()
        call(body)
        out.append((time.perf_counter() - start) * 1000)
    return out


def http_caller(client: httpx.Client, ring: KeyRing) -> Callable[[dict[str, Any]], None]:
    def call(body: dict[str, Any]) -> None:
        resp = client.post("/api/v3/search", json=body, headers={"x-api-key": ring.next()})
        if resp.status_code != 200:
            raise RuntimeError(f"{resp.status_code}: {resp.text[:200]}")
        resp.json()

    return call


def search_ids(engine: regnb.Engine, body: dict[str, Any]) -> list[dict[str, Any]]:
    return call_engine(engine, body).to_dict()["results"]


def paired(
    items: list[Any], direct: Callable[[Any], object], http: Callable[[Any], object]
) -> tuple[list[float], list[float]]:
    """Each item called directly then over HTTP, interleaved so that drift hits both alike."""
    a: list[float] = []
    b: list[float] = []
    for item in items:
        a += timed_calls([item], direct)
        b += timed_calls([item], http)
    return a, b


def sequential(
    engine: regnb.Engine, client: httpx.Client, ring: KeyRing, bodies: list[dict[str, Any]]
) -> tuple[list[dict[str, Any]], float]:
    """Rows for one caller, and the median of the paired differences HTTP - direct."""
    from regnb.server.errors import json_bytes

    results: list[Any] = []
    direct, http = paired(
        bodies, lambda b: results.append(call_engine(engine, b)), http_caller(client, ring)
    )
    dumped = timed_calls(results, lambda r: json_bytes(r.to_dict()))
    rows = [
        summary("engine.search, 1 caller", direct, sum(direct) / 1000),
        summary("HTTP POST /api/v3/search, 1 client", http, sum(http) / 1000),
        summary("  of which to_dict + JSON (in process)", dumped, sum(dumped) / 1000),
    ]
    return rows, statistics.median(h - d for h, d in zip(http, direct, strict=True))


def reads(
    engine: regnb.Engine, client: httpx.Client, ring: KeyRing, doc_ids: list[str]
) -> tuple[list[dict[str, Any]], float]:
    """Document reads (pages 1-3), directly and over HTTP."""

    def http(doc: str) -> None:
        resp = client.get(
            f"/api/v3/documents/{doc}", params={"page_to": 3}, headers={"x-api-key": ring.next()}
        )
        assert resp.status_code == 200, resp.text
        resp.json()

    direct, over_http = paired(doc_ids, lambda d: engine.read(d, 1, 3), http)
    rows = [
        summary("engine.read, 1 caller", direct, sum(direct) / 1000),
        summary("HTTP GET /api/v3/documents/{id}", over_http, sum(over_http) / 1000),
    ]
    return rows, statistics.median(h - d for h, d in zip(over_http, direct, strict=True))


def concurrent(
    bodies: list[dict[str, Any]], workers: int, make_call: Callable[[int], Callable[[Any], None]]
) -> tuple[list[float], float]:
    """`workers` threads, each with its own caller, splitting `bodies`; (latencies, seconds)."""
    shares = [bodies[i::workers] for i in range(workers)]
    calls = [make_call(i) for i in range(workers)]
    start = time.perf_counter()
    with ThreadPoolExecutor(workers) as pool:
        parts = list(pool.map(timed_calls, shares, calls))
    return [x for part in parts for x in part], time.perf_counter() - start


async def overload(
    base: str, rings: list[KeyRing], bodies: list[dict[str, Any]], rate: float, seconds: float
) -> collections.Counter[str]:
    """Open loop: one request every 1/rate s, accounts in turn; counts `status code` outcomes."""
    counts: collections.Counter[str] = collections.Counter()
    limits = httpx.Limits(max_connections=2000, max_keepalive_connections=200)
    timeout = httpx.Timeout(60.0)
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=timeout) as client:

        async def one(body: dict[str, Any], ring: KeyRing) -> None:
            try:
                resp = await client.post(
                    "/api/v3/search", json=body, headers={"x-api-key": ring.next()}
                )
            except httpx.TransportError as exc:
                counts[f"transport error {type(exc).__name__}"] += 1
                return
            code = resp.json()["error"]["code"] if resp.status_code != 200 else "ok"
            if resp.status_code in (429, 503) and "retry-after" not in resp.headers:
                code += " WITHOUT Retry-After"
            counts[f"{resp.status_code} {code}"] += 1

        tasks = []
        start = time.perf_counter()
        total = int(rate * seconds)
        for i in range(total):
            delay = start + i / rate - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            body, ring = bodies[i % len(bodies)], rings[i % len(rings)]
            tasks.append(asyncio.create_task(one(body, ring)))
        await asyncio.gather(*tasks)
    return counts


def table(rows: list[dict[str, Any]], columns: list[str]) -> str:
    cells = [[str(c) for c in columns]]
    for row in rows:
        cells.append(
            [f"{row[c]:.1f}" if isinstance(row[c], float) else str(row[c]) for c in columns]
        )
    widths = [max(len(r[i]) for r in cells) for i in range(len(columns))]
    lines = ["  ".join(c.rjust(w) for c, w in zip(r, widths, strict=True)) for r in cells]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def run(args: argparse.Namespace, work: Path) -> dict[str, Any]:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "data"))  # the demo generator
    from demogen import generate_documents

    os.environ["REGNB_HOME"] = str(work / "home")
    corpus = work / "corpus"
    documents = generate_documents(args.seed, args.scale)
    pages = sum(len(d["pages"]) for docs in documents.values() for d in docs)
    regnb.write_corpus(corpus, documents, encoder=regnb.HashingEncoder(), progress=False)
    engine = regnb.Engine(corpus, encoder=regnb.HashingEncoder(), progress=False)
    bodies = searches(args.requests)
    overload_total = 10_000  # at most; 64 accounts share them, 40 a key at most
    first = (len(TOPICS) * 2 + args.requests + args.reads + 100) // 40 + 3
    rest = max(2, args.requests // args.clients // 40 + overload_total // 64 // 40 + 1)
    rings = make_accounts([first] + [rest] * 63)
    port = free_port()
    server = start_server(corpus, port, work / "serve.log")
    base = f"http://127.0.0.1:{port}"
    try:
        with httpx.Client(base_url=base, timeout=60) as client:
            warm = http_caller(client, rings[0])
            for body in bodies[: len(TOPICS) * 2]:
                warm(body)
                call_engine(engine, body)
            rows, overhead = sequential(engine, client, rings[0], bodies)
            doc_ids = sorted({d["document_id"] for b in bodies[:20] for d in search_ids(engine, b)})
            read_rows, read_overhead = reads(engine, client, rings[0], doc_ids[: args.reads])
            rows += read_rows
            fixed = timed_calls(
                [{}] * 100,
                lambda _: client.get("/api/v3/datasets", headers={"x-api-key": rings[0].next()}),
            )
            rows.append(summary("HTTP GET /api/v3/datasets", fixed, sum(fixed) / 1000))

        lat, secs = concurrent(bodies, args.clients, lambda i: lambda b: call_engine(engine, b))
        rows.append(summary(f"engine.search, {args.clients} threads", lat, secs))
        clients = [httpx.Client(base_url=base, timeout=60) for _ in range(args.clients)]
        try:
            lat, secs = concurrent(
                bodies, args.clients, lambda i: http_caller(clients[i], rings[i + 1])
            )
        finally:
            for c in clients:
                c.close()
        rows.append(summary(f"HTTP, {args.clients} clients (own accounts)", lat, secs))
        capacity = rows[-1]["throughput_rps"]

        rate = 4 * capacity
        seconds = min(args.overload_s, overload_total / rate)
        counts = asyncio.run(overload(base, rings, searches(97), rate, seconds))
    finally:
        server.terminate()
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:
            server.kill()
        engine.close()
    return {
        "pages": pages,
        "documents": sum(len(d) for d in documents.values()),
        "rows": rows,
        "overhead_p50_ms": overhead,
        "read_overhead_p50_ms": read_overhead,
        "overload": {"rate_rps": rate, "seconds": seconds, "counts": dict(counts)},
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=2.0, help="demo corpus scale")
    parser.add_argument("--seed", type=int, default=20261125)
    parser.add_argument("--requests", type=int, default=200, help="searches per measured run")
    parser.add_argument("--reads", type=int, default=100, help="document reads per run")
    parser.add_argument("--clients", type=int, default=4, help="concurrent clients")
    parser.add_argument("--overload-s", type=float, default=8.0, help="length of the overload run")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)

    work = Path(tempfile.mkdtemp(prefix="regnb-bench-http-"))
    before = os.getloadavg()[0]
    try:
        result = run(args, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    result["load"] = (before, os.getloadavg()[0])

    print(
        f"corpus: demo scale {args.scale:g}, {result['documents']:,} documents, "
        f"{result['pages']:,} pages; {os.cpu_count()} CPUs, load average before/after "
        f"{result['load'][0]:.1f}/{result['load'][1]:.1f}; server with default limits\n"
    )
    columns = ["run", "requests", "throughput_rps", "p50_ms", "p95_ms"]
    print(table(result["rows"], columns))
    verdict = "meets" if result["overhead_p50_ms"] < 5 else "MISSES"
    print(
        f"\nHTTP adds {result['overhead_p50_ms']:.1f} ms to a search at p50 of the paired "
        f"differences ({verdict} the < 5 ms target); "
        f"{result['read_overhead_p50_ms']:.1f} ms to a document read"
    )
    over = result["overload"]
    print(
        f"\noverload: {over['rate_rps']:.0f} requests/s (4x capacity) for {over['seconds']:.1f} s"
    )
    for outcome, count in sorted(over["counts"].items()):
        print(f"  {outcome:<40} {count:>6}")
    bad = [o for o in over["counts"] if not o.startswith(("200 ", "429 ", "503 "))]
    bad += [o for o in over["counts"] if "WITHOUT" in o]
    print("only 200/429/503 with Retry-After" if not bad else f"UNEXPECTED: {bad}")
    if args.json:
        args.json.write_text(json.dumps(result, indent=1))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
