"""Binder from binder/ alone, as repo2docker builds it: a fresh virtual environment gets
binder/requirements.txt, then binder/postBuild (regnb installed, the demo index built), then runs
notebooks/01-quickstart.ipynb with that environment's own Jupyter, and its JupyterLab opens on
notebooks/.

Slow: a whole install (pip's cache makes the second one quick). It needs the package index;
without it the test says so, and is skipped (it fails in CI).
"""

from __future__ import annotations

import os
import secrets
import socket
import subprocess
import sys
import tempfile
import time
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import nbformat
import pytest
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]
BINDER = ROOT / "binder"
QUICKSTART = ROOT / "notebooks" / "01-quickstart.ipynb"
INSTALL_TIMEOUT_S = 900
OFFLINE_SIGNS = (
    "NewConnectionError",
    "Failed to establish a new connection",
    "Temporary failure in name resolution",
    "Network is unreachable",
    "No matching distribution found",
    "Could not find a version that satisfies",
)


class Env:
    """A fresh virtual environment, run as repo2docker would: its bin first on PATH, its own
    REGNB_HOME, and Jupyter folders of its own (nothing of the user's Jupyter set-up)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.venv = root / "venv"
        self.bin = self.venv / "bin"
        self.home = root / "regnb-home"
        jupyter = root / "jupyter"
        self.vars = {
            **os.environ,
            "PATH": f"{self.bin}{os.pathsep}{os.environ.get('PATH', '')}",
            "VIRTUAL_ENV": str(self.venv),
            "REGNB_HOME": str(self.home),
            "JUPYTER_PATH": str(self.venv / "share" / "jupyter"),
            "JUPYTER_CONFIG_DIR": str(jupyter / "config"),
            "JUPYTER_DATA_DIR": str(jupyter / "data"),
            "JUPYTER_RUNTIME_DIR": str(jupyter / "runtime"),
            "PYTHONNOUSERSITE": "1",
        }
        self.vars.pop("PYTHONPATH", None)

    def run(
        self, *args: str | Path, timeout: float = INSTALL_TIMEOUT_S
    ) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(a) for a in args],
            cwd=ROOT,
            env=self.vars,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )


def _tail(run: subprocess.CompletedProcess[str], lines: int = 25) -> str:
    return "\n".join((run.stdout + run.stderr).splitlines()[-lines:])


def _unreachable(message: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(message)
    pytest.skip(message)


def install(env: Env) -> None:
    """`python -m venv`, then binder/requirements.txt; a missing package index is named."""
    made = subprocess.run(
        [sys.executable, "-m", "venv", str(env.venv)], capture_output=True, text=True, check=False
    )
    assert made.returncode == 0, made.stderr
    run = env.run(env.bin / "python", "-m", "pip", "install", "-r", BINDER / "requirements.txt")
    if run.returncode == 0:
        return
    output = run.stdout + run.stderr
    if any(sign in output for sign in OFFLINE_SIGNS):
        _unreachable(
            "the Binder test needs the package index (or a pip cache holding every pin) to "
            "install binder/requirements.txt into a fresh virtual environment; pip said:\n"
            + _tail(run, 8)
        )
    pytest.fail(f"pip install -r binder/requirements.txt failed:\n{_tail(run)}")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="module")
def binder() -> Iterator[Env]:
    """The environment after binder/requirements.txt and binder/postBuild. Its folder is its
    own, not pytest's numbered tmp_path, which other pytest sessions may clean while it runs."""
    with tempfile.TemporaryDirectory(prefix="regnb-binder-") as root:
        env = Env(Path(root))
        install(env)
        built = env.run("bash", BINDER / "postBuild")
        assert built.returncode == 0, f"binder/postBuild failed:\n{_tail(built)}"
        yield env


@pytest.mark.slow
@pytest.mark.timeout(INSTALL_TIMEOUT_S + 300)
def test_post_build_installs_regnb_and_builds_the_demo_index(binder: Env) -> None:
    shown = binder.run(binder.bin / "python", "-c", "import regnb; print(regnb.__file__)")
    assert shown.returncode == 0, _tail(shown)
    assert Path(shown.stdout.strip()).is_relative_to(ROOT / "regnb")  # this checkout, editable
    assert any((binder.home / "index").iterdir())


@pytest.mark.slow
@pytest.mark.timeout(INSTALL_TIMEOUT_S + 300)  # the first test selected builds the environment
def test_quickstart_runs_in_the_binder_environment(binder: Env) -> None:
    out = binder.root / "out"
    run = binder.run(
        binder.bin / "jupyter",
        "nbconvert",
        "--to=notebook",
        "--execute",
        "--ExecutePreprocessor.kernel_name=python3",
        "--ExecutePreprocessor.timeout=300",
        f"--output-dir={out}",
        QUICKSTART,
        timeout=600,
    )
    assert run.returncode == 0, _tail(run)
    cells = [c for c in nbformat.read(out / QUICKSTART.name, 4).cells if c.cell_type == "code"]
    assert [c.execution_count for c in cells] == list(range(1, len(cells) + 1))
    kinds = {o.output_type for c in cells for o in c.outputs}
    assert "error" not in kinds
    widgets = [
        o
        for o in cells[-1].outputs
        if "application/vnd.jupyter.widget-view+json" in o.get("data", {})
    ]
    assert widgets, "the SearchPanel cell shows no widget"


@pytest.fixture
def lab(binder: Env) -> Iterator[tuple[str, str]]:
    """JupyterLab of the Binder environment, on loopback, served from the repository's root
    as repo2docker serves it; yields its base URL and token."""
    port, token = _free_port(), secrets.token_hex(16)
    options = [
        f"--port={port}",
        f"--IdentityProvider.token={token}",
        f"--ServerApp.root_dir={ROOT}",
    ]
    server = subprocess.Popen(
        [
            str(binder.bin / "jupyter"),
            "lab",
            "--no-browser",
            "--allow-root",
            "--ip=127.0.0.1",
            *options,
        ],
        cwd=ROOT,
        env=binder.vars,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                httpx.get(f"{base}/api/status", params={"token": token}, timeout=2)
                break
            except httpx.TransportError:
                assert server.poll() is None, "jupyter lab exited at start"
                time.sleep(0.5)
        yield base, token
    finally:
        server.terminate()
        server.wait(timeout=30)


@pytest.mark.slow
@pytest.mark.timeout(INSTALL_TIMEOUT_S + 300)
def test_a_launch_opens_jupyterlab_on_the_notebooks(lab: tuple[str, str]) -> None:
    base, token = lab
    with httpx.Client(base_url=base, params={"token": token}, timeout=30) as client:
        landing = client.get("/")
        assert landing.status_code == 302
        assert landing.headers["location"].split("?")[0].endswith("/lab/tree/notebooks")
        assert client.get("/lab/tree/notebooks/01-quickstart.ipynb").status_code == 200
        listing = client.get("/api/contents/notebooks").json()
    names = {item["name"] for item in listing["content"]}
    assert {"01-quickstart.ipynb", "05-your-own-documents.ipynb"} <= names


@pytest.mark.parametrize(
    ("ci", "outcome"), [("true", pytest.fail.Exception), ("", pytest.skip.Exception)]
)
def test_without_the_package_index_the_test_says_what_is_missing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ci: str, outcome: type[BaseException]
) -> None:
    monkeypatch.setenv("CI", ci)
    for name, value in {
        "PIP_INDEX_URL": "http://127.0.0.1:9/simple",  # nothing listens on the discard port
        "PIP_EXTRA_INDEX_URL": "",
        "PIP_FIND_LINKS": "",
        "PIP_NO_CACHE_DIR": "1",
        "PIP_RETRIES": "0",
        "PIP_TIMEOUT": "2",
    }.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(outcome) as raised:
        install(Env(tmp_path))
    message = str(raised.value)
    assert "needs the package index" in message and "binder/requirements.txt" in message


def _pins() -> dict[str, Version]:
    lines = (BINDER / "requirements.txt").read_text(encoding="utf-8").splitlines()
    pins = [Requirement(line.split("#")[0]) for line in lines if line.split("#")[0].strip()]
    assert all(len(r.specifier) == 1 and next(iter(r.specifier)).operator == "==" for r in pins)
    return {canonicalize_name(r.name): Version(next(iter(r.specifier)).version) for r in pins}


def _project() -> dict[str, Any]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


@pytest.mark.parametrize(
    "requirement",
    [*_project()["dependencies"], *_project()["optional-dependencies"]["notebook"]],
)
def test_requirements_pin_each_dependency_within_the_projects_bounds(requirement: str) -> None:
    wanted = Requirement(requirement)
    pins = _pins()
    assert canonicalize_name(wanted.name) in pins, f"binder/requirements.txt lacks {wanted.name}"
    assert pins[canonicalize_name(wanted.name)] in wanted.specifier


def test_runtime_is_a_python_the_project_supports() -> None:
    runtime = (BINDER / "runtime.txt").read_text(encoding="utf-8").strip()
    assert runtime.startswith("python-")
    assert Version(runtime.removeprefix("python-")) in SpecifierSet(_project()["requires-python"])


def test_post_build_is_a_bash_script_that_stops_at_the_first_error() -> None:
    script = BINDER / "postBuild"
    text = script.read_text(encoding="utf-8")
    assert os.access(script, os.X_OK)
    assert text.startswith("#!/bin/bash\n") and "set -euo pipefail" in text
