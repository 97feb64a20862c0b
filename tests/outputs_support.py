"""The outputs a notebook would hold, recorded: for the widget tests."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Outputs:
    """IPython's `display` and `update_display`, recorded: each output by display id, as a
    notebook holds it (its latest bundle), and every call in order."""

    shown: dict[str, dict[str, Any]] = field(default_factory=dict)
    calls: list[tuple[str, str]] = field(default_factory=list)

    def display(self, bundle: dict[str, Any], *, raw: bool = False, display_id: str) -> None:
        assert raw, "a bundle is displayed raw"
        self.shown[display_id] = bundle
        self.calls.append(("display", display_id))

    def update_display(self, bundle: dict[str, Any], *, raw: bool = False, display_id: str) -> None:
        assert raw and display_id in self.shown, "only a displayed output is updated"
        self.shown[display_id] = bundle
        self.calls.append(("update", display_id))

    def html(self) -> str:
        """The static HTML of the one output shown."""
        (bundle,) = self.shown.values()
        return str(bundle["text/html"])
