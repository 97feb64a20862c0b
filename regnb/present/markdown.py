"""An answer's markdown as safe HTML: markdown-it with raw HTML escaped (a page quoted in an
answer cannot inject markup) and unsafe links refused, citation markers `[n]` made superscript
links to the cited source (the buttons under the answer open it in the viewer)."""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING

from regnb.present.html import BOX, Html, escape
from regnb.present.html import link as source_link
from regnb.present.markers import MARKER, used_markers

if TYPE_CHECKING:
    from markdown_it import MarkdownIt

__all__ = ["MARKER", "answer_html", "markers"]

OPEN, CLOSE = "\ue000", "\ue001"  # private-use characters: markdown leaves them alone
PLACEHOLDER = re.compile(f"{OPEN}(\\d+){CLOSE}")
CITE_STYLE = "font-size:0.8em;font-weight:600;color:#1565c0;text-decoration:none"


@functools.cache
def _renderer() -> MarkdownIt:
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark", {"html": False}).enable("table")


def markers(markdown: str) -> list[int]:
    """The citation numbers an answer uses, in order of first use."""
    return used_markers(markdown)


def _marker(number: int, urls: dict[int, str]) -> str:
    label = f"[{number}]"
    target = source_link(label, urls.get(number))
    if target == escape(label):
        return f'<sup style="{CITE_STYLE}">{escape(label)}</sup>'
    styled = target.replace("<a ", f'<a style="{CITE_STYLE}" ', 1)
    return f"<sup>{styled}</sup>"


def answer_html(markdown: str, urls: dict[int, str] | None = None) -> Html:
    """The answer rendered; each `[n]` a superscript, linked to `urls[n]` when that is an
    http(s) address."""
    urls = urls or {}
    text = MARKER.sub(lambda m: f"{OPEN}{m.group(1)}{CLOSE}", markdown)
    body = _renderer().render(text)
    body = PLACEHOLDER.sub(lambda m: _marker(int(m.group(1)), urls), body)
    return Html(f'<div style="{BOX}">{body}</div>')
