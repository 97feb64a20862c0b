"""fetch_openfda against a local fixture server on 127.0.0.1 (never the internet): index,
downloads, resumption with Range after a dropped connection, complete files skipped."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import pytest

from regnb.errors import InvalidRequest, UpstreamError
from regnb.ingest import fetch_openfda
from regnb.ingest.fetch import partitions

FILES = {
    "/device/event/2004q1/device-event-0001-of-0002.json.zip": bytes(range(256)) * 400,
    "/device/event/2004q1/device-event-0002-of-0002.json.zip": b"second file " * 5000,
    "/device/event/2005q1/device-event-0001-of-0001.json.zip": b"another quarter " * 3000,
}


class Server:
    """Serves the index and FILES; drops the first response of the paths in `drop` midway."""

    def __init__(self) -> None:
        self.requests: list[tuple[str, str | None]] = []
        self.drop: set[str] = set()
        self.missing: set[str] = set()
        state = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_GET(self) -> None:
                state.requests.append((self.path, self.headers.get("Range")))
                if self.path == "/download.json":
                    return self._send(200, json.dumps(state.index()).encode(), {})
                if self.path not in FILES or self.path in state.missing:
                    return self._send(404, b"not found", {})
                body = FILES[self.path]
                start = 0
                if self.headers.get("Range"):
                    start = int(self.headers["Range"].split("=")[1].split("-")[0])
                    headers = {"Content-Range": f"bytes {start}-{len(body) - 1}/{len(body)}"}
                    status = 206
                else:
                    headers, status = {}, 200
                if self.path in state.drop:
                    state.drop.discard(self.path)
                    self.send_response(status)
                    self.send_header("Content-Length", str(len(body) - start))
                    for k, v in headers.items():
                        self.send_header(k, v)
                    self.end_headers()
                    self.wfile.write(body[start : start + (len(body) - start) // 2])
                    self.close_connection = True
                    return None
                return self._send(status, body[start:], headers)

            def _send(self, status: int, body: bytes, headers: dict[str, str]) -> None:
                self.send_response(status)
                self.send_header("Content-Length", str(len(body)))
                for k, v in headers.items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(body)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(
            target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self.thread.start()

    def index(self) -> dict[str, Any]:
        files = [{"file": self.base + path, "size_mb": "0.1"} for path in FILES]
        return {
            "meta": {},
            "results": {
                "device": {"event": {"partitions": files}, "pma": {"partitions": []}},
                "drug": {"label": {"partitions": []}},
            },
        }

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join()


@pytest.fixture
def server() -> Iterator[Server]:
    running = Server()
    yield running
    running.close()


def _fetch(server: Server, dest: Path, endpoint: str = "device/event") -> Any:
    return fetch_openfda(endpoint, dest, index_url=f"{server.base}/download.json", progress=False)


def test_downloads_every_partition_into_its_quarter(server: Server, tmp_path: Path) -> None:
    result = _fetch(server, tmp_path / "dl")
    assert result["status"].tolist() == ["downloaded"] * 3
    for path, body in FILES.items():
        target = tmp_path / "dl" / path.removeprefix("/device/event/")
        assert target.read_bytes() == body
    assert not list((tmp_path / "dl").rglob("*.part"))


def test_complete_files_are_skipped(server: Server, tmp_path: Path) -> None:
    _fetch(server, tmp_path / "dl")
    server.requests.clear()
    result = _fetch(server, tmp_path / "dl", endpoint="device-event")
    assert result["status"].tolist() == ["skipped"] * 3
    assert server.requests == [("/download.json", None)]


def test_a_dropped_download_resumes_with_range(server: Server, tmp_path: Path) -> None:
    first = next(iter(FILES))
    server.drop.add(first)
    result = _fetch(server, tmp_path / "dl")
    assert result["status"].tolist() == ["resumed", "downloaded", "downloaded"]
    ranges = [r for p, r in server.requests if p == first]
    assert ranges[0] is None and ranges[1] is not None and ranges[1] != "bytes=0-"
    target = tmp_path / "dl" / first.removeprefix("/device/event/")
    assert target.read_bytes() == FILES[first]


def test_a_part_file_left_by_an_earlier_run_resumes(server: Server, tmp_path: Path) -> None:
    first = next(iter(FILES))
    target = tmp_path / "dl" / first.removeprefix("/device/event/")
    target.parent.mkdir(parents=True)
    target.with_name(target.name + ".part").write_bytes(FILES[first][:1000])
    result = _fetch(server, tmp_path / "dl")
    assert result["status"].iloc[0] == "resumed"
    assert ("/device/event/2004q1/device-event-0001-of-0002.json.zip", "bytes=1000-") in (
        server.requests
    )
    assert target.read_bytes() == FILES[first]


def test_a_missing_file_fails_and_the_others_download(server: Server, tmp_path: Path) -> None:
    server.missing.add(next(iter(FILES)))
    result = _fetch(server, tmp_path / "dl")
    assert result["status"].tolist() == ["failed", "downloaded", "downloaded"]
    assert "404" in result["reason"].iloc[0]


def test_unknown_endpoint_and_unreachable_index(server: Server, tmp_path: Path) -> None:
    with pytest.raises(InvalidRequest, match="device/event"):
        _fetch(server, tmp_path / "dl", endpoint="device/nothing")
    with pytest.raises(UpstreamError, match="download index"):
        fetch_openfda(
            "device/event", tmp_path / "dl", index_url=f"{server.base}/nope.json", progress=False
        )


def test_partitions_reads_the_index_shape() -> None:
    index = {"results": {"drug": {"label": {"partitions": [{"file": "u1"}, {"size_mb": 1}]}}}}
    assert partitions(index, "drug/label") == [{"file": "u1"}]
    transport = httpx.MockTransport(lambda request: httpx.Response(200, json=index))
    with (
        httpx.Client(transport=transport) as client,
        pytest.raises(InvalidRequest, match="has no partitions"),
    ):
        fetch_openfda("drug", Path("/nonexistent-never-written"), client=client, progress=False)


def test_fetch_command(server: Server, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from regnb.cli import main

    args = ["fetch", "openfda", "device/event", "--dest", str(tmp_path / "dl"), "--quiet"]
    assert main([*args, "--index-url", f"{server.base}/download.json"]) == 0
    assert "downloaded" in capsys.readouterr().out
    server.missing.add(next(iter(FILES)))
    (tmp_path / "dl" / "2004q1" / "device-event-0001-of-0002.json.zip").unlink()
    assert main([*args, "--index-url", f"{server.base}/download.json"]) == 1
    assert "did not download" in capsys.readouterr().err
    assert main([*args, "--index-url", f"{server.base}/missing.json"]) == 2
