"""MkDocs hook: the screenshots that tests/widgets/test_browser.py writes to notebooks/images
(and the README shows) are served as images/ of the site, without a second copy in docs/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files


def on_files(files: Files, config: Any) -> Files:
    images = Path(config.config_file_path).parent / "notebooks" / "images"
    for image in sorted(images.glob("*.png")):
        files.append(File.generated(config, f"images/{image.name}", abs_src_path=str(image)))
    return files
