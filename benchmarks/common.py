"""Shared helpers of the benchmark scripts: a fast encoder, timing, memory."""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
import zlib
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

OUT = Path(__file__).resolve().parent / "out"
SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"


class RandomEncoder:
    """Unit vectors seeded by the text: instant, deterministic, meaningless. For speed runs only."""

    name = "bench-random-384"
    dim = 384

    def encode(self, texts: list[str]) -> np.ndarray:
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        for i, t in enumerate(texts):
            out[i] = np.random.default_rng(zlib.crc32(t.encode())).standard_normal(self.dim)
        return out / np.linalg.norm(out, axis=1, keepdims=True)


def percentiles(values_ms: Sequence[float]) -> tuple[float, float]:
    """(p50, p95) of a list of milliseconds."""
    ordered = sorted(values_ms)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return statistics.median(ordered), p95


def timed(fn: Callable[[], object]) -> float:
    """Milliseconds one call takes."""
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1000


def run_child(code: str, *args: str, env: dict[str, str] | None = None) -> str:
    """Run Python code in a child process (so that its peak memory is its own); its stdout."""
    import os

    proc = subprocess.run(
        [sys.executable, "-c", code, *args],
        check=True,
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
    )
    return proc.stdout


PEAK_GB = "import resource; peak_gb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024**2"


def table(rows: list[tuple[str, ...]], header: tuple[str, ...]) -> str:
    """A plain text table."""
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    line = lambda r: "  ".join(str(c).ljust(w) for c, w in zip(r, widths, strict=True))  # noqa: E731
    return "\n".join([line(header), line(tuple("-" * w for w in widths)), *map(line, rows)])
