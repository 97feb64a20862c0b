"""A conversation drawn as widgets: each turn's message, its steps while it runs, its answer with
a button per citation, a clarifying question's options, and the documents the agent produced
(images inline, files as download links)."""

from __future__ import annotations

import base64
import mimetypes
from collections.abc import Callable
from pathlib import PurePath
from typing import Any

import ipywidgets as w

from regnb.present.html import BOX, Html, escape, muted, short
from regnb.present.markdown import answer_html
from regnb.widgets._citations import title_of

__all__ = [
    "ANSWER_LAYOUT",
    "INLINE_BYTES",
    "WORKING",
    "citation_label",
    "document_widget",
    "download_link",
    "steps_html",
    "turn_widget",
]

WORKING = "Working…"
INLINE_BYTES = 5_000_000  # a produced file up to this size is a data: link; larger ones a button
BUBBLE = (
    "display:inline-block;max-width:46em;padding:6px 10px;border-radius:10px;"
    "background:rgba(21,101,192,0.10);border:1px solid rgba(21,101,192,0.35)"
)
# The answer takes the height it needs: a box of fixed height cut the key-documents table and the
# scope note off where the browser hid its scrollbar. The notebook scrolls the whole output.
ANSWER_LAYOUT = {"height": "auto", "max_height": "none", "overflow": "visible"}
IMAGE_FORMATS = {".png": "png", ".jpg": "jpeg", ".jpeg": "jpeg", ".gif": "gif", ".svg": "svg+xml"}


def steps_html(steps: list[dict[str, Any]]) -> Html:
    """The running turn's progress, one line per step, the last one in progress. Words and
    punctuation only: an emoji (an hourglass) shows as an empty box where no font has it."""
    lines = []
    for i, step in enumerate(steps):
        count = f" ({step['count']:,})" if step.get("count") else ""
        text = f"{escape(step.get('message'))}{escape(count)}"
        if i == len(steps) - 1:
            lines.append(f"<div><b>{text}</b> {muted(WORKING)}</div>")
        else:
            lines.append(f"<div>{muted('done:')} {text}</div>")
    return Html(f'<div style="{BOX};opacity:0.85">{"".join(lines) or muted(WORKING)}</div>')


def citation_label(citation: dict[str, Any]) -> str:
    """`[3] Title of the letter, p. 2`, or `[4] passage ¶5 of Title of the letter, p. 2`."""
    page = f", p. {citation['page_num']}" if citation.get("page_num") else ""
    block = f"passage {citation['block_id']} of " if citation.get("block_id") else ""
    return f"[{citation['index']}] {block}{short(title_of(citation), 80)}{page}"


def _sources(citations: list[dict[str, Any]], on_cite: Callable[[int], Any]) -> w.Widget:
    """A small `[n]` button per citation; its tooltip says what it cites."""
    buttons = []
    for c in citations:
        button = w.Button(description=f"[{c['index']}]", tooltip=citation_label(c))
        button.layout.width = "auto"
        button.layout.margin = "1px"
        button.on_click(lambda _, n=int(c["index"]): on_cite(n))
        buttons.append(button)
    return w.HBox(buttons, layout=w.Layout(flex_flow="row wrap"))


def turn_widget(turn: dict[str, Any], on_cite: Callable[[int], Any]) -> w.VBox:
    """One turn: the message sent, then its steps, question or answer and sources."""
    parts: list[w.Widget] = [
        w.HTML(
            f'<div style="text-align:right"><div style="{BUBBLE}">{escape(turn["message"])}</div></div>'
        )
    ]
    status = turn.get("status")
    citations = turn.get("citations") or []
    if status == "running":
        parts.append(w.HTML(steps_html(turn.get("steps") or [])))
    elif turn.get("question"):
        parts.append(w.HTML(f"<i>{escape(turn['question'].get('question'))}</i>"))
    elif turn.get("answer"):
        urls = {int(c["index"]): str(c.get("url") or "") for c in citations}
        parts.append(w.HTML(answer_html(turn["answer"], urls), layout=w.Layout(**ANSWER_LAYOUT)))
    if citations:
        hint = w.HTML(muted("Sources (the cited page opens below, the passage marked):"))
        parts += [hint, _sources(citations, on_cite)]
    return w.VBox(parts, layout=w.Layout(margin="0 0 10px 0"))


def download_link(filename: str, data: bytes) -> Html:
    """A link that saves the bytes under `filename` (a data: URI; no server round trip)."""
    media = mimetypes.guess_type(filename)[0] or "application/octet-stream"
    uri = f"data:{media};base64,{base64.b64encode(data).decode('ascii')}"
    name = PurePath(filename).name
    size = f"{len(data) / 1024:,.0f} KB" if len(data) >= 1024 else f"{len(data)} bytes"
    return Html(
        f'<a download="{escape(name)}" href="{uri}">Download {escape(name)}</a> '
        f"{muted(f'({size})')}"
    )


def document_widget(
    doc: dict[str, Any], filename: str, data: bytes, on_save: Callable[[], Any]
) -> w.Widget:
    """A produced document: an image inline, any file as a download link (a save button when it
    is too large to inline), a text report also shown folded."""
    title = w.HTML(f"<b>{escape(doc.get('title') or filename)}</b> {muted(doc.get('type'))}")
    suffix = PurePath(filename).suffix.lower()
    parts: list[w.Widget] = [title]
    if doc.get("type") == "image" and suffix in IMAGE_FORMATS:
        image = w.Image(value=data, format=IMAGE_FORMATS[suffix])
        image.layout.max_width = "40em"
        parts.append(image)
    if len(data) <= INLINE_BYTES:
        parts.append(w.HTML(download_link(filename, data)))
    else:
        save = w.Button(description=f"Save {PurePath(filename).name}", icon="download")
        save.on_click(lambda _: on_save())
        parts.append(save)
    if doc.get("type") == "text":
        text = data.decode("utf-8", errors="replace")
        parts.append(
            w.HTML(f"<details><summary>read it here</summary>{answer_html(text)}</details>")
        )
    return w.VBox(parts, layout=w.Layout(margin="4px 0"))
