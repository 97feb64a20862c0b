"""The notebooks are regression tests: `python -m pytest` collects this folder and runs each
notebook under nbval in lax mode, in a kernel of the running Python, with nbval_sanitize.cfg.

Lax mode checks that every cell runs; a cell marked `# NBVAL_CHECK_OUTPUT` must also print what
the saved notebook holds (ids, times, scores and paths sanitized). Options given on the command
line win (`--nbval` checks every cell). Without REGNB_HOME set, the kernels get a scratch one for
the session, so a test run never writes into a user's data folder.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

SANITIZE = Path(__file__).with_name("nbval_sanitize.cfg")
STARTUP_DEFAULT_S, STARTUP_S = 60, 180  # nbval's kernel start timeout, and ours
SCRATCH_HOME: list[str] = []


def pytest_configure(config: pytest.Config) -> None:
    """nbval's options for this folder's notebooks, unless the command line set them."""
    if not config.pluginmanager.hasplugin("nbval"):
        raise pytest.UsageError(
            "notebooks/ runs under nbval, which is not installed: pip install -e '.[test]'"
        )
    option = config.option
    if not (option.nbval or option.nbval_lax):
        option.nbval_lax = True
    if not option.nbval_kernel_name:
        option.nbval_current_env = True
    if option.nbval_sanitize_with is None:
        option.nbval_sanitize_with = str(SANITIZE)
    if int(option.nbval_kernel_startup_timeout) == STARTUP_DEFAULT_S:
        # a kernel on a machine the rest of the suite keeps busy once took over nbval's 60 s
        option.nbval_kernel_startup_timeout = STARTUP_S
    if "REGNB_HOME" not in os.environ:
        SCRATCH_HOME.append(tempfile.mkdtemp(prefix="regnb-notebooks-"))
        os.environ["REGNB_HOME"] = SCRATCH_HOME[-1]


def pytest_unconfigure(config: pytest.Config) -> None:
    """Remove the scratch REGNB_HOME this session made, if any."""
    while SCRATCH_HOME:
        home = SCRATCH_HOME.pop()
        if os.environ.get("REGNB_HOME") == home:
            del os.environ["REGNB_HOME"]
        shutil.rmtree(home, ignore_errors=True)
