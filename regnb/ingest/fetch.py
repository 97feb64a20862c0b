"""Download openFDA bulk files listed in its download index: resumable, complete files skipped.

A file downloads to `<name>.part` and is renamed when its length matches what the server
announced, so a file under its final name is complete; an interrupted download resumes from
the `.part` file's length with an HTTP Range request.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import httpx
import pandas as pd
from tqdm.auto import tqdm

from regnb.errors import InvalidRequest, UpstreamError
from regnb.settings import show_progress

__all__ = ["INDEX_URL", "fetch_openfda", "partitions"]

INDEX_URL = "https://api.fda.gov/download.json"
RETRIES = 3


def partitions(index: dict[str, Any], endpoint: str) -> list[dict[str, Any]]:
    """The partitions (`file`, `size_mb`, `records`, ...) the index lists for `endpoint`
    (`device/event`, `device-event` or `drug/label`)."""
    parts = [p for p in re.split(r"[/\-\s]+", endpoint.strip().lower()) if p]
    node: Any = index.get("results", index)
    for part in parts:
        if not isinstance(node, dict) or part not in node:
            known = sorted(
                f"{c}/{e}"
                for c, eps in (index.get("results") or {}).items()
                if isinstance(eps, dict)
                for e in eps
            )
            raise InvalidRequest(
                f"openFDA's index lists no endpoint {endpoint!r}; it lists: {', '.join(known)}",
                field="endpoint",
            )
        node = node[part]
    found = node.get("partitions") if isinstance(node, dict) else None
    if not isinstance(found, list):
        raise InvalidRequest(f"{endpoint!r} has no partitions in the index", field="endpoint")
    return [p for p in found if isinstance(p, dict) and p.get("file")]


def _target(dest: Path, url: str, endpoint: str) -> Path:
    """Where a partition goes: its path below the endpoint's folder (quarters stay apart)."""
    path = urlparse(url).path.strip("/")
    parts = [p for p in re.split(r"[/\-\s]+", endpoint.strip().lower()) if p]
    prefix = "/".join(parts) + "/"
    relative = path.split(prefix, 1)[1] if prefix in path else Path(path).name
    return dest / relative


def _download(client: httpx.Client, url: str, target: Path, bar: Any) -> str:
    """Fetch one file to `target`, resuming a `.part`; returns 'downloaded' or 'resumed'."""
    part = target.with_name(target.name + ".part")
    target.parent.mkdir(parents=True, exist_ok=True)
    resumed = False
    for attempt in range(RETRIES + 1):
        have = part.stat().st_size if part.exists() else 0
        headers = {"Range": f"bytes={have}-"} if have else {}
        try:
            with client.stream("GET", url, headers=headers) as response:
                if response.status_code == 416 and have:
                    part.unlink()
                    continue
                response.raise_for_status()
                partial = response.status_code == 206
                resumed = resumed or (partial and have > 0)
                expected = _expected_size(response, have if partial else 0)
                with open(part, "ab" if partial else "wb") as handle:
                    for chunk in response.iter_bytes():
                        handle.write(chunk)
                        bar.update(len(chunk))
            size = part.stat().st_size
            if expected is not None and size != expected:
                raise httpx.ReadError(f"got {size} of {expected} bytes")
            os.replace(part, target)
            return "resumed" if resumed else "downloaded"
        except (httpx.TransportError, httpx.ReadError) as exc:
            if attempt == RETRIES:
                raise UpstreamError(
                    f"{url}: download failed after {RETRIES + 1} tries: {exc}"
                ) from exc
    raise UpstreamError(f"{url}: download failed")  # pragma: no cover - loop always returns


def _expected_size(response: httpx.Response, offset: int) -> int | None:
    total = re.search(r"/(\d+)$", response.headers.get("content-range", ""))
    if total:
        return int(total.group(1))
    length = response.headers.get("content-length")
    return offset + int(length) if length and length.isdigit() else None


def fetch_openfda(
    endpoint: str,
    dest: str | Path,
    *,
    index_url: str = INDEX_URL,
    client: httpx.Client | None = None,
    progress: bool = True,
) -> pd.DataFrame:
    """Download every bulk file of `endpoint` (e.g. `device/event`) into `dest`.

    Returns one row per file: file, url, status (downloaded, resumed, skipped, failed), bytes
    and reason. Files already complete under their final name are skipped.
    """
    dest = Path(dest).expanduser()
    dest.mkdir(parents=True, exist_ok=True)
    own = client is None
    client = client or httpx.Client(follow_redirects=True, timeout=httpx.Timeout(60.0))
    rows = []
    try:
        try:
            index = client.get(index_url).raise_for_status().json()
        except (httpx.HTTPError, ValueError) as exc:
            raise UpstreamError(f"cannot read openFDA's download index {index_url}: {exc}") from exc
        bar = tqdm(
            unit="B", unit_scale=True, desc=f"fetch {endpoint}", disable=not show_progress(progress)
        )
        try:
            for item in partitions(index, endpoint):
                url = str(item["file"])
                target = _target(dest, url, endpoint)
                row = {
                    "file": str(target),
                    "url": url,
                    "status": "skipped",
                    "bytes": 0,
                    "reason": "",
                }
                if not target.exists():
                    try:
                        row["status"] = _download(client, url, target, bar)
                    except (UpstreamError, httpx.HTTPError, OSError) as exc:
                        row["status"], row["reason"] = "failed", str(exc)
                if target.exists():
                    row["bytes"] = target.stat().st_size
                rows.append(row)
        finally:
            bar.close()
    finally:
        if own:
            client.close()
    return pd.DataFrame(rows, columns=["file", "url", "status", "bytes", "reason"])
