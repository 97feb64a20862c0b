"""OCR of scanned PDF pages with the Tesseract command-line program, where it is installed.

A page is rendered with pypdfium2 (300 dpi, grayscale), written as a PGM image and read by
`tesseract`; there is no Python dependency. Without the program, callers report the pages.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

__all__ = ["INSTALL_HINT", "OcrError", "find_tesseract", "ocr_page"]

DPI = 300
TIMEOUT_S = 120
INSTALL_HINT = "install Tesseract to read them (apt-get install tesseract-ocr)"


class OcrError(Exception):
    """Tesseract could not read a page."""


def find_tesseract() -> str | None:
    """The path of the `tesseract` program, None where it is not installed."""
    return shutil.which("tesseract")


def _write_pgm(pixels: Any, path: Path) -> None:
    """A grayscale image (height x width uint8 array) as a binary PGM file."""
    height, width = pixels.shape[:2]
    with open(path, "wb") as handle:
        handle.write(b"P5\n%d %d\n255\n" % (width, height))
        handle.write(pixels.reshape(height, width).tobytes())


def ocr_page(page: Any, tesseract: str, *, dpi: int = DPI) -> str:
    """The text of one pypdfium2 page, rendered at `dpi` and read by Tesseract."""
    pixels = page.render(scale=dpi / 72, grayscale=True).to_numpy()
    # one thread per call: on a busy machine Tesseract's OpenMP threads slow it down ~4x
    env = {**os.environ, "OMP_THREAD_LIMIT": "1"}
    with tempfile.TemporaryDirectory(prefix="regnb-ocr-") as folder:
        image = Path(folder) / "page.pgm"
        _write_pgm(pixels, image)
        try:
            done = subprocess.run(
                [tesseract, str(image), "stdout", "--dpi", str(dpi)],
                capture_output=True,
                text=True,
                timeout=TIMEOUT_S,
                env=env,
                check=False,
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise OcrError(f"tesseract did not run: {exc}") from exc
    if done.returncode != 0:
        detail = (done.stderr.strip().splitlines() or ["no message"])[-1]
        raise OcrError(f"tesseract failed (exit code {done.returncode}): {detail}")
    return done.stdout
