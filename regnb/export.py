"""Moved to `regnb.present.export`; this name stays for code that imports it."""

from __future__ import annotations

from regnb.present.export import *  # noqa: F403
from regnb.present.export import __all__ as __all__
