"""Citation markers, the `[n]` after a sentence that names the source it cites: read here, and
only here, by the answer's HTML, the agent's checks and every produced file. A bracketed number
followed by `(` is a markdown link's text (`[3](https://…)`), not a marker."""

from __future__ import annotations

import re
from collections.abc import Iterable

__all__ = ["MARKER", "MARKER_RUN", "marker_numbers", "markers", "strip_markers", "used_markers"]

MARKER = re.compile(r"\[(\d+)\](?!\()")
MARKER_RUN = re.compile(r"\s*(?:\[\d+\](?!\())+")
"""A run of markers and the space before it: " [3][5]"."""


def marker_numbers(text: str) -> list[int]:
    """The numbers of the markers in `text`, in order, as often as they appear."""
    return [int(n) for n in MARKER.findall(text)]


def used_markers(text: str) -> list[int]:
    """The citation numbers `text` uses, in order of first use."""
    return list(dict.fromkeys(marker_numbers(text)))


def markers(numbers: Iterable[int]) -> str:
    """Citation markers as an answer writes them: "[3][5]"."""
    return "".join(f"[{n}]" for n in numbers)


def strip_markers(text: str) -> str:
    """`text` without its markers, whitespace collapsed: "Runs failed [3]." -> "Runs failed."."""
    return " ".join(MARKER.sub("", text).split()).replace(" .", ".")
