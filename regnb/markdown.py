"""Moved to `regnb.present.markdown`; this name stays for code that imports it."""

from __future__ import annotations

from regnb.present.markdown import *  # noqa: F403
from regnb.present.markdown import __all__ as __all__
