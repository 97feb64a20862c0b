"""What the widget tests share: the outputs a notebook would hold, recorded."""

from __future__ import annotations

import pytest

from tests.outputs_support import Outputs


@pytest.fixture
def outputs(monkeypatch: pytest.MonkeyPatch) -> Outputs:
    """A notebook's outputs: what the widgets display and update, recorded."""
    import IPython.display

    recorded = Outputs()
    monkeypatch.setattr(IPython.display, "display", recorded.display)
    monkeypatch.setattr(IPython.display, "update_display", recorded.update_display)
    return recorded
