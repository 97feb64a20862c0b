"""Moved to `regnb.present.markdown`. Importing `regnb.markdown` warns
(DeprecationWarning): it goes in regnb 0.3."""

from __future__ import annotations

import warnings

from regnb.present.markdown import *  # noqa: F403
from regnb.present.markdown import __all__ as __all__

warnings.warn(
    "regnb.markdown is deprecated and goes in regnb 0.3: import regnb.present.markdown instead",
    DeprecationWarning,
    stacklevel=2,
)
