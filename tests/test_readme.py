"""Every Python and shell block of README.md and of each docs/*.md page runs against the demo
corpus, so neither the README nor the documentation can drift from the code.

Each page is run on its own, its blocks in page order, like a notebook: Python blocks in one
namespace per page, shell blocks with `bash` under `set -euo pipefail` in the page's scratch folder,
all with the page's own temporary HOME and one REGNB_HOME (the demo index is built once). A test
is named by its page and the line its block opens on (`docs/search.md:12`). A comment right before
a block says what the block needs (directives separated by `;`):

    <!-- readme-test: skip because REASON -->     not run; at most MAX_SKIPS blocks a page
    <!-- readme-test: setup=NAME -->               SETUPS[NAME] makes the block's inputs first
    <!-- readme-test: background -->              its `regnb serve` lines serve in the background
    <!-- readme-test: replace=OLD => NEW -->       it runs with OLD replaced by NEW

Blocks in other languages (`text`, `json`, ...) are shown, not run. In every block a leading
`pip install ... &&` is dropped (regnb is installed already), and the
placeholders of PLACEHOLDERS name real values: a demo document, an API key, a key to delete,
the server started last. A search that finds nothing fails its block: examples show results.
"""

from __future__ import annotations

import contextlib
import csv
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import pytest

import regnb
from regnb.interface import EngineAPI
from regnb.server.accounts import Accounts
from tests.fixtures.ingest.support import make_pdf

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
PAGES = [README, *sorted(DOCS.glob("*.md"))]  # README.md first, then the site's pages by name
FIXTURES = ROOT / "tests" / "fixtures" / "ingest"
MAX_SKIPS = 3
LANGUAGES = {"python": "python", "py": "python", "": "shell", "bash": "shell", "sh": "shell"}
LANGUAGES |= {"shell": "shell", "console": "shell"}
DIRECTIVE = re.compile(r"^(skip because .+|setup=[\w-]+|background|replace=.+ => .*)$", re.S)
PIP_INSTALL = re.compile(r"^pip install [^\n]*?&&\s*", re.M)
SERVE = re.compile(r"^regnb serve\b.*$", re.M)
EMPTY_RESULT = re.compile(r'^0 documents, ranking|"total": 0\b', re.M)


@dataclass(frozen=True)
class Block:
    """One fenced code block: its page and the line it opens on, its kind, code and directives."""

    line: int
    kind: str  # "python" or "shell"
    code: str
    directives: tuple[str, ...] = ()
    page: str = "README.md"  # relative to the repository root: README.md, docs/search.md, ...

    @property
    def where(self) -> str:
        return f"{self.page}:{self.line}"

    @property
    def skip_reason(self) -> str | None:
        return next(
            (d.removeprefix("skip ") for d in self.directives if d.startswith("skip")), None
        )

    def values(self, name: str) -> list[str]:
        return [d.split("=", 1)[1] for d in self.directives if d.startswith(name + "=")]


def parse_blocks(text: str, page: str = "README.md") -> list[Block]:
    """The Python and shell blocks of a Markdown page, each with the directives just before it."""
    blocks: list[Block] = []
    lines = text.splitlines()
    comment: tuple[int, int, tuple[str, ...]] | None = None  # first line, line after, directives
    i = 0
    while i < len(lines):
        if lines[i].startswith("<!-- readme-test:"):
            end = next(j for j in range(i, len(lines)) if lines[j].rstrip().endswith("-->"))
            body = " ".join(lines[i : end + 1]).removeprefix("<!-- readme-test:")
            directives = parse_directives(body.removesuffix("-->"), f"{page}:{i + 1}")
            comment = (i + 1, end + 1, directives)
            i = end + 1
            continue
        fence = re.match(r"^```([\w-]*)\s*$", lines[i])
        if not fence:
            i += 1
            continue
        end = next(j for j in range(i + 1, len(lines)) if lines[j].startswith("```"))
        if comment and not _only_blank(lines[comment[1] : i]):
            raise ValueError(f"{page}:{comment[0]}: a readme-test comment not before a block")
        if fence.group(1) in LANGUAGES:
            code = _code(lines[i + 1 : end], console=fence.group(1) == "console")
            directives = comment[2] if comment else ()
            blocks.append(Block(i + 1, LANGUAGES[fence.group(1)], code, directives, page))
        comment, i = None, end + 1
    if comment:
        raise ValueError(f"{page}:{comment[0]}: a readme-test comment not before a block")
    return blocks


def parse_directives(body: str, where: str) -> tuple[str, ...]:
    """The `;`-separated directives of a readme-test comment; an unknown one is an error."""
    directives = tuple(" ".join(d.split()) for d in body.split(";") if d.strip())
    for directive in directives:
        if not DIRECTIVE.match(directive):
            raise ValueError(f"{where}: unknown readme-test directive {directive!r}")
    return directives


def _only_blank(lines: list[str]) -> bool:
    return all(not line.strip() for line in lines)


def _code(lines: list[str], *, console: bool) -> str:
    """A block's code; a console block keeps its `$ ` command lines only."""
    if console:
        lines = [line[2:] for line in lines if line.startswith("$ ")]
    return "\n".join(lines) + "\n"


@dataclass
class Values:
    """Real values that stand in for the placeholders of the README and the docs."""

    document_id: str
    key: str
    spare_key_id: str
    port: int | None = None
    env: dict[str, str] = field(default_factory=dict)


PLACEHOLDERS: list[tuple[re.Pattern[str], Callable[[Values], str]]] = [
    (re.compile(r"<document_id>|<id>|(?<![$\w])DOCUMENT_ID\b"), lambda v: v.document_id),
    (re.compile(r"\bkey_[0-9a-f]{12}\b"), lambda v: v.spare_key_id),
    (re.compile(r"\b(localhost|127\.0\.0\.1):8000\b"), lambda v: f"127.0.0.1:{v.port}"),
]


def prepare(block: Block, values: Values) -> str:
    """The code to run: `pip install ... &&` dropped, replacements made, placeholders filled."""
    code = PIP_INSTALL.sub("", block.code)
    for replacement in block.values("replace"):
        old, new = replacement.split(" => ", 1)
        if old not in code:
            raise AssertionError(f"{block.where}: replace={old!r} is not in the block")
        code = code.replace(old, new)
    for pattern, value in PLACEHOLDERS:
        if pattern.search(code):
            code = pattern.sub(value(values), code)
    return code


def assert_found(res: regnb.SearchResult, filters: dict[str, Any], where: str) -> None:
    """An example search finds documents, and every dataset it filters has full matches."""
    assert res.total > 0, f"{where}: a search found no documents"
    for dataset in filters:
        status = res.dataset_statuses.get(dataset, {})
        assert status.get("status") == "ok" and not status.get("loosened"), (
            f"{where}: the filters on {dataset} match nothing: {status}"
        )


def serve_command(line: str, port: int) -> str:
    """A `regnb serve` line as run in the background: no `[optional]` parts, on `port`."""
    line = re.sub(r"\s*\[[^\]]*\]", "", line)
    line = re.sub(r"--port\s+\d+", f"--port {port}", line)
    return line if "--port" in line else f"{line} --port {port}"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


MAUDE_EVENT = {
    "mdr_report_key": "90000001",
    "report_number": "3009999999-2024-00001",
    "event_type": "Malfunction",
    "date_received": "20240115",
    "device": [{"brand_name": "Larkspur Infusion Pump", "manufacturer_d_name": "Larkspur Medical",
                "device_report_product_code": "FRN"}],
    "mdr_text": [{"text_type_code": "Description of Event or Problem",
                  "text": "The pump stopped during an infusion; the occlusion alarm did not sound."}],
}  # fmt: skip
SOP = {
    "title": "SOP-020 Environmental monitoring",
    "date": "2024-02-01",
    "text": "Viable air is sampled in the ISO 5 zone during every filling shift.",
    "owner": "Microbiology",
}
GUIDANCE = {
    "source_repo": "readme-test",
    "source_path": "guidance/1",
    "title": "Sterile Drug Products Produced by Aseptic Processing",
    "date": "2004-09",
    "docket": "FDA-2003-D-0000",
    "pages": ["Aseptic processing: sterility assurance of the filling line."],
}


def _openfda_zip(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(path.name.removesuffix(".zip"), json.dumps({"results": [MAUDE_EVENT]}))
    return path


def _crl_pdfs(folder: Path, csv_path: Path) -> None:
    """Two complete response letters as PDFs, and a metadata CSV for one of them."""
    folder.mkdir()
    for n in (1, 2):
        finding = (
            f"NDA 21{n}456: the sterility assurance of the aseptic filling line is inadequate."
        )
        pages = [["COMPLETE RESPONSE LETTER", finding], ["Facility inspection findings."]]
        make_pdf(folder / f"crl{n}.pdf", pages, title=f"Complete Response Letter {n}")
    with open(csv_path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["file", "title", "date", "application_number", "company"])
        writer.writerow(["crl1.pdf", "CRL for NDA 211456", "2021-04-02", "NDA211456", "Acme"])


def setup_ingest_inputs(run: ReadmeRun) -> None:
    """The ingest block's sources, small: PDFs with their CSV, an HTML page, JSONL records,
    openFDA and ClinicalTrials.gov downloads, and a stand-in for the real-document corpus."""
    _crl_pdfs(run.home / "crl_pdfs", run.work / "crl.csv")
    (run.home / "letters").mkdir()
    shutil.copy(FIXTURES / "warning_letter.html", run.home / "letters")
    (run.home / "sops.jsonl").write_text(json.dumps(SOP) + "\n", "utf-8")
    _openfda_zip(run.home / "downloads" / "device-event-0001-of-0010.json.zip")
    with zipfile.ZipFile(run.home / "ctg-studies.json.zip", "w") as archive:
        archive.write(FIXTURES / "study_v2.json", "NCT09000001.json")
    real = run.home / "realcorpus"
    real.mkdir()
    (real / "fda_guidance__readme-test.jsonl").write_text(json.dumps(GUIDANCE) + "\n", "utf-8")


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, *args: Any) -> None:
        pass


def setup_openfda_mirror(run: ReadmeRun) -> None:
    """openFDA is on the network: a local mirror serves a download index and one file
    (`$OPENFDA_INDEX_URL`)."""
    folder = run.work.parent / "openfda-mirror"
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(_QuietHandler, directory=str(folder)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    run.cleanups += [server.server_close, server.shutdown]
    base = f"http://127.0.0.1:{server.server_address[1]}"
    part = _openfda_zip(folder / "device/event/2024q1/device-event-0001-of-0001.json.zip")
    files = [{"file": f"{base}/{part.relative_to(folder).as_posix()}"}]
    index = {"results": {"device": {"event": {"partitions": files}}}}
    (folder / "download.json").write_text(json.dumps(index), "utf-8")
    run.values.env["OPENFDA_INDEX_URL"] = f"{base}/download.json"


SETUPS: dict[str, Callable[[ReadmeRun], None]] = {
    "ingest-inputs": setup_ingest_inputs,
    "openfda-mirror": setup_openfda_mirror,
}
PAGE_BLOCKS = {
    path.relative_to(ROOT).as_posix(): parse_blocks(
        path.read_text(encoding="utf-8"), path.relative_to(ROOT).as_posix()
    )
    for path in PAGES
}
BLOCKS = [block for blocks in PAGE_BLOCKS.values() for block in blocks]


class ReadmeRun:
    """One page's run: its blocks run so far, their namespace, folders, values and servers."""

    def __init__(self, root: Path, values: Values, regnb_home: Path) -> None:
        self.home, self.regnb_home, self.work = root / "home", regnb_home, root / "work"
        for folder in (self.home, self.work):
            folder.mkdir(exist_ok=True)
        (self.home / ".curlrc").write_text("fail-with-body\nshow-error\n", "utf-8")  # 4xx fails
        self.values = values
        self.namespace: dict[str, Any] = {"__name__": "__readme__"}
        self.done: set[int] = set()
        self.servers: list[subprocess.Popen[bytes]] = []
        self.cleanups: list[Callable[[], None]] = []

    def variables(self) -> dict[str, str]:
        """What every block sees in its environment (Python blocks too)."""
        return {**self.values.env, "HOME": str(self.home), "REGNB_HOME": str(self.regnb_home),
                "KEY": self.values.key, "DOCUMENT_ID": self.values.document_id}  # fmt: skip

    def env(self) -> dict[str, str]:
        """A shell block's environment: the variables, with this Python's scripts first on PATH."""
        path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"
        return {**os.environ, **self.variables(), "PATH": path}

    def run(self, block: Block) -> None:
        """Run `block` after every earlier block not run yet (their failures are their own)."""
        blocks = PAGE_BLOCKS[block.page]
        for earlier in blocks[: blocks.index(block)]:
            if earlier.line not in self.done and not earlier.skip_reason:
                with contextlib.suppress(Exception):  # reported by that block's own test
                    self._run_one(earlier)
        self._run_one(block)

    def _run_one(self, block: Block) -> None:
        self.done.add(block.line)
        for name in block.values("setup"):
            SETUPS[name](self)
        code = prepare(block, self.values)
        if block.kind == "python":
            self._python(block, code)
        else:
            self._shell(block, code)
        assert not (self.work / "~").exists(), f"{block.where} made a folder named ~"

    def _python(self, block: Block, code: str) -> None:
        searches: list[tuple[dict[str, Any], regnb.SearchResult]] = []
        search = regnb.Engine.search

        def spy(engine: regnb.Engine, *args: Any, **kwargs: Any) -> regnb.SearchResult:
            res = search(engine, *args, **kwargs)
            if threading.current_thread() is threading.main_thread():  # not an agent's probes
                searches.append((kwargs.get("filters") or {}, res))
            return res

        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(regnb.Engine, "search", spy)
            exec(compile(code, block.where, "exec"), self.namespace)
        for filters, res in searches:
            assert_found(res, filters, block.where)

    def _shell(self, block: Block, code: str) -> None:
        serves = SERVE.findall(code)
        if serves and "background" not in block.directives:
            raise AssertionError(
                f"{block.where} starts a server: put <!-- readme-test: background --> before it"
            )
        done = subprocess.run(
            ["bash", "-c", "set -euo pipefail\n" + SERVE.sub("", code)],
            cwd=self.work, env=self.env(), capture_output=True, text=True, timeout=300,
            check=False,
        )  # fmt: skip
        output = done.stdout + done.stderr
        assert done.returncode == 0, f"{block.where} exited {done.returncode}:\n{output}"
        assert not EMPTY_RESULT.search(done.stdout), f"{block.where} found nothing"
        for line in serves:
            self._serve(block, line)

    def _serve(self, block: Block, line: str) -> None:
        """Start a `regnb serve` line in the background; it must answer within a minute."""
        self.values.port = free_port()
        log = open(self.work / f"serve-{self.values.port}.log", "wb")  # noqa: SIM115
        server = subprocess.Popen(
            ["bash", "-c", "exec " + serve_command(line, self.values.port)],
            cwd=self.work, env=self.env(), stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
        log.close()
        self.servers.append(server)
        url = f"http://127.0.0.1:{self.values.port}/api/v3/openapi.json"
        deadline = time.monotonic() + 60
        while server.poll() is None and time.monotonic() < deadline:
            try:
                if httpx.get(url, timeout=1).status_code == 200:
                    return
            except httpx.TransportError:
                time.sleep(0.2)
        log_text = (self.work / f"serve-{self.values.port}.log").read_text(errors="replace")
        raise AssertionError(f"{block.where}: {line!r} did not serve:\n{log_text}")

    def close(self) -> None:
        """Stop the servers and close the engines the blocks opened."""
        for server in self.servers:
            server.terminate()
            server.wait(timeout=30)
        for cleanup in self.cleanups:
            cleanup()
        for value in self.namespace.values():
            if isinstance(value, EngineAPI):  # local engines and remote clients alike
                value.close()  # type: ignore[attr-defined]


def _real_values(regnb_home: Path) -> Values:
    """A Form 483 of the demo corpus, an enterprise key and a spare key to delete."""
    with pytest.MonkeyPatch.context() as env:
        env.setenv("REGNB_HOME", str(regnb_home))  # the demo index is built here, once
        with regnb.Engine(progress=False) as eng:  # bm25 on one dataset: no query embedding
            res = eng.search(["sterility"], datasets=["fda_483"], limit=1)
    with Accounts(regnb_home / "accounts.sqlite3") as accounts:
        key = accounts.create_key("readme-test", "enterprise").key
        spare = accounts.create_key("readme-test-spare").info.key_id
    return Values(document_id=str(res.documents.document_id[0]), key=key, spare_key_id=spare)


class Runs:
    """A run per page, made when the page's first block runs; one REGNB_HOME and key for all."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.values = _real_values(root / "regnb")
        self.runs: dict[str, ReadmeRun] = {}

    def of(self, page: str) -> ReadmeRun:
        if page not in self.runs:
            folder = self.root / re.sub(r"\W", "-", page)
            folder.mkdir()
            values = replace(self.values, env=dict(self.values.env))  # a page's own port and env
            self.runs[page] = ReadmeRun(folder, values, self.root / "regnb")
        return self.runs[page]

    def close(self) -> None:
        for run in self.runs.values():
            run.close()


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Runs]:
    runs = Runs(tmp_path_factory.mktemp("docs"))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(regnb, "_default", None)  # `regnb.search(...)` in a block: its own engine
        yield runs
        runs.close()
        if regnb._default is not None:
            regnb._default.close()


@pytest.mark.parametrize("block", BLOCKS, ids=[b.where for b in BLOCKS])
def test_readme_block_runs(block: Block, runs: Runs, monkeypatch: pytest.MonkeyPatch) -> None:
    if block.skip_reason:
        pytest.skip(f"{block.where}: {block.skip_reason}")
    run = runs.of(block.page)
    for name, value in run.variables().items():
        monkeypatch.setenv(name, value)
    monkeypatch.chdir(run.work)
    run.run(block)


def test_readme_and_docs_have_blocks_of_both_kinds_and_few_skips() -> None:
    assert {b.kind for b in PAGE_BLOCKS["README.md"]} == {"python", "shell"}
    assert "docs/index.md" in PAGE_BLOCKS
    for page, blocks in PAGE_BLOCKS.items():
        skipped = [f"{b.where} ({b.skip_reason})" for b in blocks if b.skip_reason]
        assert len(skipped) <= MAX_SKIPS, f"too many blocks of {page} skipped: {skipped}"
    for block in BLOCKS:
        assert set(block.values("setup")) <= set(SETUPS), block.where


PARSE_CASES = [
    ("```python\nx = 1\n```\n", [Block(1, "python", "x = 1\n")]),
    ("text\n```\nls\n```\n```bash\npwd\n```\n", [Block(2, "shell", "ls\n"), Block(5, "shell", "pwd\n")]),
    ("```json\n{}\n```\n```console\n$ ls -l\nfile\n```\n", [Block(4, "shell", "ls -l\n")]),
    ("<!-- readme-test: skip because slow -->\n```\nx\n```\n", [Block(2, "shell", "x\n", ("skip because slow",))]),
    ("<!-- readme-test: setup=a; background;\n  replace=x => y -->\n\n```\nx\n```\n",
     [Block(4, "shell", "x\n", ("setup=a", "background", "replace=x => y"))]),
]  # fmt: skip


@pytest.mark.parametrize(("text", "blocks"), PARSE_CASES)
def test_blocks_are_parsed_with_their_line_and_directives(text: str, blocks: list[Block]) -> None:
    assert parse_blocks(text) == blocks


def test_a_page_names_its_blocks_and_its_errors() -> None:
    assert parse_blocks("```python\nx = 1\n```\n", "docs/a.md") == [
        Block(1, "python", "x = 1\n", (), "docs/a.md")
    ]
    assert parse_blocks("```python\nx = 1\n```\n", "docs/a.md")[0].where == "docs/a.md:1"
    with pytest.raises(ValueError, match=r"^docs/a\.md:2: unknown readme-test directive"):
        parse_blocks("\n<!-- readme-test: fast -->\n```\nx\n```\n", "docs/a.md")


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("<!-- readme-test: skip -->\n```\nx\n```\n", "unknown readme-test directive 'skip'"),
        ("<!-- readme-test: fast -->\n```\nx\n```\n", "unknown readme-test directive"),
        ("<!-- readme-test: background -->\ntext\n```\nx\n```\n", "not before a block"),
        ("<!-- readme-test: background -->\n", "not before a block"),
    ],
)
def test_a_misplaced_or_unknown_directive_is_an_error(text: str, error: str) -> None:
    with pytest.raises(ValueError, match=error):
        parse_blocks(text)


VALUES = Values(document_id="Doc1", key="rk_secret", spare_key_id="key_000000000000", port=5)


@pytest.mark.parametrize(
    ("code", "directives", "expected"),
    [
        ("pip install -e . && regnb search x\n", (), "regnb search x\n"),
        ("pip install -e '.[test]'\n", (), "pip install -e '.[test]'\n"),
        ("regnb read DOCUMENT_ID\n", (), "regnb read Doc1\n"),
        ('curl "x/$DOCUMENT_ID"\n', (), 'curl "x/$DOCUMENT_ID"\n'),
        ('{"doc_id":"fda_483/<id>"}\n', (), '{"doc_id":"fda_483/Doc1"}\n'),
        ("regnb keys delete key_1a2b3c4d5e6f\n", (), "regnb keys delete key_000000000000\n"),
        ("curl localhost:8000/api\n", (), "curl 127.0.0.1:5/api\n"),
        ("regnb fetch a\n", ("replace=fetch a => fetch a --b",), "regnb fetch a --b\n"),
    ],
)
def test_code_is_prepared_with_real_values(
    code: str, directives: tuple[str, ...], expected: str
) -> None:
    assert prepare(Block(1, "shell", code, directives), VALUES) == expected


def test_a_replacement_that_does_not_apply_is_an_error() -> None:
    with pytest.raises(AssertionError, match="not in the block"):
        prepare(Block(3, "shell", "ls\n", ("replace=cat => dog",)), VALUES)


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("regnb serve --host 127.0.0.1 --port 8000 [--corpus DIR] [--fast-encoder]",
         "regnb serve --host 127.0.0.1 --port 9"),
        ("regnb serve --corpus ~/regcorpus", "regnb serve --corpus ~/regcorpus --port 9"),
    ],
)  # fmt: skip
def test_a_server_line_runs_without_its_options_on_a_free_port(line: str, expected: str) -> None:
    assert serve_command(line, 9) == expected


def _result(total: int, **statuses: dict[str, Any]) -> regnb.SearchResult:
    return regnb.SearchResult([], statuses, total, None, "similarity")


@pytest.mark.parametrize(
    ("res", "filters", "found"),
    [
        (_result(2, fda_483={"status": "ok", "matches": 2}), {"fda_483": {"x": 1}}, True),
        (_result(2, fda_483={"status": "ok", "matches": 2}), {}, True),
        (_result(0, fda_483={"status": "no_match"}), {}, False),
        (_result(5, fda_483={"status": "no_match"}), {"fda_483": {"x": 1}}, False),
        (_result(5, fda_483={"status": "ok", "loosened": True}), {"fda_483": {"x": 1}}, False),
    ],
)
def test_an_example_search_must_find_documents_where_it_filters(
    res: regnb.SearchResult, filters: dict[str, Any], found: bool
) -> None:
    if found:
        assert_found(res, filters, "README.md:1")
    else:
        with pytest.raises(AssertionError, match=r"README\.md:1"):
            assert_found(res, filters, "README.md:1")


def test_import_regnb_reaches_server_and_ingest_when_first_used() -> None:
    code = (
        "import sys, regnb; assert 'regnb.server' not in sys.modules; "
        "assert 'regnb.ingest' not in sys.modules; "
        "print(regnb.server.create_app.__name__, regnb.ingest.pdf.__name__)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["create_app", "pdf"]


def test_the_readme_shows_the_answer_the_agent_gives(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The README's abridged answer is the demo corpus's answer to its question: every piece
    between the ellipses is in it."""
    text = README.read_text(encoding="utf-8")
    question = re.search(r'eng\.ask\("([^"]+)"\)', text)
    shown = re.search(r"The answer, abridged[^\n]*\n\n```text\n(.*?)```", text, re.S)
    assert question and shown
    monkeypatch.setenv("REGNB_HOME", str(tmp_path))
    with regnb.open() as eng:
        conv = eng.ask(question.group(1))
        conv.wait()
        answer = conv.answer or ""
    pieces = [p.strip() for line in shown.group(1).splitlines() for p in line.split("…")]
    missing = [p for p in pieces if p and p not in answer]
    assert not missing, missing
