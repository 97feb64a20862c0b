"""HTML for notebooks: plain markup with inline styles, no JavaScript and no external assets, so
it reads the same in JupyterLab, nbviewer and exported HTML. Every text is escaped; markup built
here is an `Html` string, which the helpers pass through as it is.

The helpers (`badge`, `link`, `table`, `details`, `passage_html`, `text_block`, `container`,
`safe_highlight`) are for any result object; the `*_html` functions render regnb's own.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from regnb.present.names import DatasetNames, names_or_package

if TYPE_CHECKING:
    from regnb.catalog import Catalog, Dataset
    from regnb.documents.passages import PagePassage
    from regnb.results import ContentsResult, DocumentRead, LegacySearchResult, SearchResult

__all__ = [
    "Html",
    "badge",
    "catalog_html",
    "container",
    "contents_html",
    "dataset_html",
    "details",
    "escape",
    "legacy_html",
    "link",
    "muted",
    "passage_html",
    "read_html",
    "safe_highlight",
    "search_html",
    "short",
    "status_badge",
    "status_reason",
    "table",
    "text_block",
]

SHOW_DOCUMENTS = 20  # documents drawn in a search result's HTML; the DataFrames have them all
SHOW_PAGES = 20  # pages drawn in a document read's HTML
COLLAPSE_AT = 1500  # characters of a page shown before the rest folds into <details>
KEY_FIELDS = 6
TONES = {
    "ok": "#2e7d32",
    "warn": "#b26a00",
    "bad": "#c62828",
    "info": "#1565c0",
    "neutral": "#607d8b",
}
STATUS_TONES = {
    "ok": "ok",
    "no_match": "neutral",
    "skipped": "warn",
    "not_available": "neutral",
    "forbidden": "bad",
    "timeout": "bad",
    "error": "bad",
}
STATUS_ORDER = list(STATUS_TONES)
STATUS_REASONS = {  # what a status means, for those whose object carries no `reason` (the spec's)
    "not_available": "cannot be searched yet",
    "forbidden": "needs an enterprise plan",
    "timeout": "did not answer in time",
    "error": "its query failed",
}
BOX = "font-family:system-ui,-apple-system,'Segoe UI',sans-serif;font-size:13px;line-height:1.45"
ROW = "border-top:1px solid rgba(128,128,128,0.3);padding:6px 0"
BOLD_TAG = re.compile(r"(</?b>)", re.IGNORECASE)
PRE = "white-space:pre-wrap;font-family:inherit;margin:2px 0"


class Html(str):
    """Markup that is already safe: the helpers insert it without escaping."""

    __slots__ = ()


CFR_SHOWN = 6  # CFR sections listed under a search result before "and N more"


def escape(value: object) -> str:
    """Text made safe for HTML; `Html` passes through, None is empty."""
    if isinstance(value, Html):
        return value
    return "" if value is None else html.escape(str(value), quote=True)


def short(text: object, limit: int) -> str:
    """`text` on one line, cut to `limit` characters (at a space where one is near) with an
    ellipsis."""
    flat = " ".join(str(text).split())
    if len(flat) <= limit:
        return flat
    cut = flat.rfind(" ", 0, limit)
    cut = cut if cut > limit // 2 else limit - 1
    return flat[:cut].rstrip(" ,;:") + "…"


def muted(text: object) -> Html:
    return Html(f'<span style="opacity:0.7">{escape(text)}</span>')


def badge(text: object, tone: str = "neutral") -> Html:
    """A small outlined label; readable on light and dark themes."""
    color = TONES.get(tone, TONES["neutral"])
    style = (
        f"display:inline-block;padding:0 6px;border:1px solid {color};color:{color};"
        "border-radius:8px;font-size:11px;white-space:nowrap"
    )
    return Html(f'<span style="{style}">{escape(text)}</span>')


def status_badge(status: str) -> Html:
    return badge(status, STATUS_TONES.get(status, "neutral"))


def link(text: object, url: object) -> Html:
    """`text` linked to `url` when it is an http(s) address; plain text otherwise."""
    address = str(url or "").strip()
    try:
        scheme = urlsplit(address).scheme.lower()
    except ValueError:
        scheme = ""
    if scheme not in ("http", "https"):
        return Html(escape(text))
    return Html(f'<a href="{escape(address)}" target="_blank" rel="noopener">{escape(text)}</a>')


def table(headers: Sequence[str], rows: Iterable[Sequence[Any]]) -> Html:
    """A plain table; cells are escaped unless they are `Html`."""
    cell = "padding:2px 8px;text-align:left;vertical-align:top"
    head = "".join(f'<th style="{cell}">{escape(h)}</th>' for h in headers)
    body = "".join(
        "<tr>" + "".join(f'<td style="{cell}">{escape(v)}</td>' for v in row) + "</tr>"
        for row in rows
    )
    return Html(
        f'<table style="border-collapse:collapse"><thead><tr>{head}</tr></thead>'
        f"<tbody>{body}</tbody></table>"
    )


def details(summary: object, body: object, *, open_: bool = False) -> Html:
    """A section that folds (no JavaScript: the browser's own <details>)."""
    flag = " open" if open_ else ""
    return Html(f"<details{flag}><summary>{escape(summary)}</summary>{escape(body)}</details>")


def passage_html(passage: PagePassage) -> Html:
    """A best passage, matched words in <mark>."""
    return Html(passage.html())


def text_block(text: str, collapse_at: int = COLLAPSE_AT) -> Html:
    """A page's text with its line breaks; beyond `collapse_at` characters the rest folds."""
    if len(text) <= collapse_at:
        return Html(f'<div style="{PRE}">{escape(text)}</div>')
    cut = text.rfind(" ", 0, collapse_at)
    cut = cut if cut > collapse_at // 2 else collapse_at
    rest = text[cut:]
    more = details(
        f"… {len(rest):,} more characters", Html(f'<div style="{PRE}">{escape(rest)}</div>')
    )
    return Html(f'<div style="{PRE}">{escape(text[:cut])}</div>{more}')


def container(*parts: object) -> Html:
    return Html(f'<div style="{BOX}">' + "".join(escape(p) for p in parts) + "</div>")


def _line(*parts: object, style: str = "") -> Html:
    """Non-empty parts joined by a middle dot, in one block."""
    joined = " · ".join(escape(p) for p in parts if p not in (None, ""))
    return Html(f'<div style="{style}">{joined}</div>' if style else f"<div>{joined}</div>")


def safe_highlight(highlight: str) -> Html:
    """A legacy `highlight` rebuilt: everything escaped (entities decoded first, so the
    server's own escaping is not doubled), its `<b>` pairs kept as <mark>, any other tag shown
    as text."""
    out, open_ = [], False
    for i, part in enumerate(_split_bold(highlight)):
        if i % 2 == 0:
            out.append(html.escape(html.unescape(part)))
        elif part.lower() == "<b>" and not open_:
            out.append("<mark>")
            open_ = True
        elif part.lower() == "</b>" and open_:
            out.append("</mark>")
            open_ = False
    return Html("".join(out) + ("</mark>" if open_ else ""))


def _split_bold(text: str) -> list[str]:
    """Text and `<b>`/`</b>` tags, alternating (text at even positions)."""
    return BOLD_TAG.split(text)


NameOf = Callable[[str], str]


# --- search results -------------------------------------------------------------------------


def search_html(result: SearchResult, names: DatasetNames | None = None) -> Html:
    """Statuses line, then one block per document with its best passages; datasets by their
    names in `names` (default: the catalog of the engine that made the result)."""
    name = names or names_or_package(result.names)
    shown = result.results[:SHOW_DOCUMENTS]
    first = result.offset + 1
    head = _line(
        Html(f"<b>{result.total:,} documents</b>"),
        f"{result.ranking} ranking",
        f"showing {first}–{first + len(shown) - 1}" if shown else "none shown",
        f"next_offset {result.next_offset}" if result.next_offset is not None else "",
    )
    parts: list[object] = [head, _statuses_html(result.dataset_statuses, name)]
    parts += [_line(Html(status_badge("notice") + " " + escape(n))) for n in result.notices]
    parts += [_document_html(result, d, first + i, name) for i, d in enumerate(shown)]
    if len(shown) < result.total:
        parts.append(_line(muted(_showing_note(len(shown), len(result.results), result.total))))
    return container(*parts)


def _showing_note(drawn: int, returned: int, total: int) -> str:
    note = f"showing {drawn} of {total:,} documents"
    if drawn < returned:
        note += f"; .documents has the {returned} of this result"
    return note


def status_reason(status: dict[str, Any]) -> str | None:
    """Why a dataset was not searched: the status's own `reason`, else what its status means
    (`forbidden`: needs an enterprise plan); None for `ok` and `no_match`."""
    return status.get("reason") or STATUS_REASONS.get(str(status.get("status")))


def _statuses_html(statuses: dict[str, dict[str, Any]], dataset_name: NameOf) -> Html:
    """`ok` datasets with their counts, then the others grouped by status and reason."""
    ok = []
    groups: dict[tuple[str, str], list[str]] = {}
    for ds, st in statuses.items():
        if st.get("status") == "ok":
            found = "loosened" if st.get("loosened") else _count(st.get("matches", 0), "match")
            ok.append(f"{dataset_name(ds)} ({found}, {_count(st.get('pages', 0), 'page')})")
        else:
            groups.setdefault((str(st.get("status")), status_reason(st) or ""), []).append(ds)
    lines = []
    if ok:
        lines.append(_line(Html(status_badge("ok") + " " + escape("; ".join(ok)))))
    order = {s: i for i, s in enumerate(STATUS_ORDER)}
    for (status, reason), names in sorted(groups.items(), key=lambda g: order.get(g[0][0], 99)):
        why = f" — {reason}" if reason else ""
        text = f"{len(names)}: " + ", ".join(dataset_name(n) for n in names) + why
        lines.append(_line(Html(status_badge(status) + " " + escape(text))))
    return Html(f'<div style="margin:4px 0">{"".join(lines)}</div>')


def _document_html(
    result: SearchResult, doc: dict[str, Any], rank: int, dataset_name: NameOf
) -> Html:
    title = Html(
        f"{muted(f'{rank}.')} <b>{link(doc.get('title') or '(untitled)', doc.get('url'))}</b>"
    )
    pages = doc.get("pages") or []
    meta = _line(
        badge(dataset_name(doc.get("dataset", "")), "info"),
        doc.get("date") or "no date",
        f"score {pages[0]['score']:.3f}" if pages else "",
        _count(doc.get("matched_pages", len(pages)), "matched page"),
        muted(doc.get("document_id")),
    )
    fields = _key_fields(doc)
    cited = _cited_line(doc)
    shown = [
        _line(
            Html(muted(f"p. {p.get('page_num')}") + " " + passage_html(result.passage(p["text"]))),
            style="margin:2px 0 2px 1.2em",
        )
        for p in pages
    ]
    return Html(f'<div style="{ROW}">{title}{meta}{fields}{cited}{"".join(shown)}</div>')


def _cited_line(doc: dict[str, Any]) -> Html:
    """The CFR sections the document's returned pages cite (its `cfr` column), if any."""
    from regnb.results import cited_sections

    cited = cited_sections(doc)
    more = f" and {len(cited) - CFR_SHOWN} more" if len(cited) > CFR_SHOWN else ""
    return _line(muted(f"cites {', '.join(cited[:CFR_SHOWN])}{more}")) if cited else Html("")


def _count(n: int, noun: str) -> str:
    """`1 page`, `3 pages`, `2 matches`."""
    plural = noun + ("es" if noun.endswith("ch") else "s")
    return f"{n:,} {noun if n == 1 else plural}"


def _key_fields(doc: dict[str, Any]) -> Html:
    """The document's catalog fields that say something the title and date do not."""
    skip = {"title", "url"}
    items = [
        f"{name}: {short(_value(v), 80)}"
        for name, v in (doc.get("fields") or {}).items()
        if name not in skip and v not in (None, "", []) and v != doc.get("date")
    ][:KEY_FIELDS]
    return _line(muted("; ".join(items))) if items else Html("")


def _value(value: object) -> str:
    if isinstance(value, list | tuple):
        return ", ".join(str(v) for v in value)
    return str(value)


# --- document reads ---------------------------------------------------------------------------


def read_html(read: DocumentRead, names: DatasetNames | None = None) -> Html:
    """Title, dataset, which pages of how many, then each page's text."""
    dataset_name = names or names_or_package(read.names)
    pages = read.page_list[:SHOW_PAGES]
    nums = [p["page_num"] for p in read.page_list]
    span = f"pages {nums[0]}–{nums[-1]} of {read.total_pages}" if nums else "no pages"
    parts: list[object] = [
        Html(f"<div><b>{link(read.title or '(untitled)', read.url)}</b></div>"),
        _line(
            badge(dataset_name(read.dataset), "info"),
            span,
            f"next_page_from {read.next_page_from}" if read.next_page_from else "",
            muted(read.document_id),
        ),
    ]
    parts += [_page_html(read.page_label(int(p["page_num"])), p["text"]) for p in pages]
    if len(pages) < len(read.page_list):
        parts.append(_line(muted(f"showing {len(pages)} of {len(read.page_list)} pages read")))
    return container(*parts)


def _page_html(label: str, text: str) -> Html:
    return Html(f'<div style="{ROW}">{muted(label)}{text_block(text)}</div>')


# --- catalog -----------------------------------------------------------------------------------


def catalog_html(catalog: Catalog) -> Html:
    """One row per dataset: id, name, jurisdiction, whether searchable, date field, filters."""
    available = sum(d.available for d in catalog)
    rows = [
        [
            Html(f"<code>{escape(d.id)}</code>"),
            d.name,
            d.jurisdiction,
            Html(_availability(d)),
            d.date_field if d.available else "",
            ", ".join(sorted(d.filters)) if d.available else "",
        ]
        for d in catalog
    ]
    head = _line(Html(f"<b>{len(catalog)} datasets</b>"), f"{available} searchable")
    headers = ["id", "name", "jurisdiction", "searchable", "date field", "filters"]
    return container(head, table(headers, rows))


def _availability(d: Dataset) -> str:
    out = badge("available", "ok") if d.available else badge("not available")
    return out + (" " + badge("enterprise", "warn") if d.enterprise else "")


def dataset_html(d: Dataset) -> Html:
    """A dataset's name, plan, date field, fields and filters."""
    head = Html(f"<div><b>{escape(d.name)}</b> <code>{escape(d.id)}</code></div>")
    meta = _line(d.jurisdiction, Html(_availability(d)), f"date field: {d.date_field or 'none'}")
    if not d.available:
        return container(head, meta)
    fields = _line(muted("fields: " + ", ".join(d.fields)))
    rows = [
        [name, d.filter_kind(name), spec.get("description", ""), ", ".join(spec.get("enum", []))]
        for name, spec in d.filters.items()
    ]
    return container(
        head, meta, fields, table(["filter", "matches", "description", "values"], rows)
    )


# --- legacy results --------------------------------------------------------------------------


def legacy_html(result: LegacySearchResult, names: DatasetNames | None = None) -> Html:
    """One block per page hit with its rebuilt highlight; page numbers are 0-based."""
    dataset_name = names or names_or_package(result.names)
    rows = result.rows[:SHOW_DOCUMENTS]
    head = _line(
        Html(f"<b>{result.total:,} pages match</b>"),
        "legacy BM25",
        muted("page numbers are 0-based"),
    )
    blocks = [
        Html(
            f'<div style="{ROW}"><div>{muted(f"{i}.")} <b>{link(r.get("name") or "(untitled)", r.get("url"))}</b></div>'
            + _line(
                badge(dataset_name(str(r.get("dataset", ""))), "info"),
                r.get("company"),
                r.get("year_decision"),
                f"page_num {r.get('page_num')}",
                f"score {float(r.get('score') or 0):.3f}",
            )
            + _line(safe_highlight(str(r.get("highlight") or "")), style="margin-left:1.2em")
            + "</div>"
        )
        for i, r in enumerate(rows, start=1)
    ]
    note = []
    if len(rows) < result.total:
        note = [_line(muted(f"showing {len(rows)} of {result.total:,} pages"))]
    return container(head, *blocks, *note)


def contents_html(result: ContentsResult, names: DatasetNames | None = None) -> Html:
    """The legacy reader's pages (0-based), as a document read."""
    dataset_name = names or names_or_package(result.names)
    body = result.body
    pages = body.get("pages") or []
    nums = [p.get("page_num") for p in pages]
    span = f"pages {nums[0]}–{nums[-1]} of {body.get('total_pages')}" if nums else "no pages"
    parts: list[object] = [
        Html(f"<div><b>{link(body.get('name') or '(untitled)', body.get('url'))}</b></div>"),
        _line(
            badge(dataset_name(str(body.get("dataset", ""))), "info"),
            body.get("company"),
            body.get("year_decision"),
            span,
            muted("0-based"),
        ),
    ]
    parts += [
        _page_html(f"page_num {p.get('page_num')}", p.get("text") or "") for p in pages[:SHOW_PAGES]
    ]
    return container(*parts)
