"""Moved to `regnb.present.plots`; this name stays for code that imports it."""

from __future__ import annotations

from regnb.present.plots import *  # noqa: F403
from regnb.present.plots import __all__ as __all__
