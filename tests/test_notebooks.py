"""The notebooks run top to bottom against the demo corpus (their code cells, without a kernel)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb"))


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_runs(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    namespace: dict[str, object] = {}
    for cell in cells:
        if cell["cell_type"] == "code":
            exec(compile("".join(cell["source"]), f"{path.name}", "exec"), namespace)
    engine = namespace["eng"]
    assert len(namespace["res"].documents) > 0  # type: ignore[attr-defined]
    engine.close()  # type: ignore[attr-defined]
    assert "Synthetic" in capsys.readouterr().out
