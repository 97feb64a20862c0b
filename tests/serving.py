"""`regnb serve` in a process of its own on a free loopback port, for tests that need a real
server: started, waited for until it answers, and stopped after."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path

import httpx

STARTUP_S = 180.0  # upper bound for the server to come up; it normally takes a few seconds


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for(base: str, proc: subprocess.Popen[bytes], log: Path) -> None:
    """Until the server at `base` serves its OpenAPI document; fails with its log if it exits."""
    deadline = time.monotonic() + STARTUP_S
    while True:
        assert proc.poll() is None, log.read_text()
        try:
            if httpx.get(f"{base}/api/v3/openapi.json").status_code == 200:
                return
        except httpx.TransportError:
            pass
        assert time.monotonic() < deadline, "regnb serve did not start"
        time.sleep(0.1)


@contextmanager
def regnb_serve(
    args: Sequence[str], *, env: Mapping[str, str], log: Path, port: int | None = None
) -> Iterator[str]:
    """`regnb serve --port N *args` with `env`, its output in `log`; yields its base URL."""
    port = port or free_port()
    base = f"http://127.0.0.1:{port}"
    cmd = [sys.executable, "-m", "regnb.cli", "serve", "--port", str(port), *args]
    with log.open("w") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=dict(env))
        try:
            wait_for(base, proc, log)
            yield base
        finally:
            proc.terminate()
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
